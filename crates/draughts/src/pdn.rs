//! PDN 3.0 syntax: reading and writing draughts game records.
//!
//! PDN (Portable Draughts Notation) is the draughts cousin of chess PGN: tag pairs such as
//! `[White "Sijbrands"]`, then movetext (`1. 32-28 19-23 2. 28x19 14x23`) with comments,
//! NAGs, variations and a result.
//!
//! This module is the *syntax* layer only. Like shakmaty's pgn-reader it turns text into
//! syntax ([`PdnGame`], [`Element`], [`PdnMove`]) and knows no rules: whether `32-28` is
//! legal, or which capture `47x36` means, is decided later against a position by the rules.
//! For the same reason the capture flag of a [`PdnMove`] only tells which separator was
//! written.
//!
//! # Reading
//!
//! [`parse_pdn`] reads a whole file and returns one entry per game, so that one broken game
//! does not lose the others; [`parse_game`] reads text that holds exactly one game;
//! [`parse_pdn_bytes`] also accepts Latin-1 files. The reader is liberal, as PDN 3.0's
//! "reading grammar" asks:
//!
//! * a game ends at a result token (`1-0 0-1 1/2-1/2 2-0 0-2 1-1 0-0 *`, also `½-½`, and any
//!   other result string written in the game's own `Result` tag, such as `4-6`), when a new
//!   tag section starts after movetext, when a tag repeats a name already in the header, or
//!   at the end of the text;
//! * capture separator `x` or `:`; squares with leading zeros (`06-11`); algebraic squares
//!   (`c3-d4`, `a5:c7`, also without separator: `a3b4`);
//! * spaces inside a move (`1- 6`, `47x 9`, `1 - 6`);
//! * move numbers glued to the move (`1.32-28`), black's move numbers `12...`, and a move
//!   number with no move after it (`1. 2-0`, an empty game);
//! * `...`, `-` and `--` as a placeholder for an unknown move ([`Element::Ellipsis`]);
//! * move strengths glued to the move (`32-28!`, `28x19?!`, `32-28(!)`) or standing alone;
//! * `{...}` comments and `%` line comments, NAGs (`$7`), nested variations, inline setups
//!   (`/FEN "W:W31-50:B1-20"/`);
//! * tag values with `\"` escapes; a byte order mark at the start; Windows line endings.
//!
//! Whitespace inside comments is not significant: each comment is stored with its runs of
//! spaces and line breaks read as one space, and without leading or trailing space.
//!
//! Errors (unterminated comments, tags or strings, nested `{`, unbalanced parentheses,
//! variations nested deeper than [`MAX_VARIATION_DEPTH`], more than [`MAX_TAGS`] tags in one
//! game, characters that belong to no token) are reported for their game, with a line and a
//! column. The reader then skips to the next tag section and goes on. It never panics, and
//! its time grows linearly with the text, whatever the text.
//!
//! # Writing
//!
//! [`write_pdn`] writes a game in PDN 3.0 form: the seven roster tags first, a blank line,
//! movetext wrapped at 80 columns with move numbers, and the result.
//!
//! # Example
//!
//! ```
//! use tablier_draughts::pdn::{parse_game, parse_pdn, write_pdn, Element};
//!
//! let text = "[Event \"Example\"]\n[Result \"2-0\"]\n\n\
//!             1. 32-28 19-23 2. 28x19 {forced} 14x23 (2... 13x24) 2-0\n";
//! let games = parse_pdn(text);
//! assert_eq!(games.len(), 1);
//! let game = games[0].as_ref().unwrap();
//! assert_eq!(game.tag("Event"), Some("Example"));
//! assert_eq!(game.result.as_deref(), Some("2-0"));
//! let moves: Vec<String> = game.main_line().map(|m| m.to_string()).collect();
//! assert_eq!(moves, ["32-28", "19-23", "28x19", "14x23"]);
//! assert!(game.body.contains(&Element::Comment("forced".to_string())));
//!
//! // Writing and reading again gives the same moves.
//! let written = write_pdn(game);
//! assert!(written.starts_with("[Event \"Example\"]\n[Result \"2-0\"]\n\n1. 32-28 19-23"));
//! let again = parse_game(&written).unwrap();
//! assert!(again.main_line().eq(game.main_line()));
//!
//! // A broken game is reported with its place; the others are kept.
//! let games = parse_pdn("1. 32-28 {a {nested} comment} *\n\n[Event \"next\"]\n1. 33-28 *\n");
//! let error = games[0].as_ref().unwrap_err();
//! assert_eq!((error.game, error.line), (1, 1));
//! assert_eq!(games[1].as_ref().unwrap().tag("Event"), Some("next"));
//! ```

use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// The deepest nesting of variations the reader accepts; deeper nesting is an error
/// ([`PdnErrorKind::TooDeep`]), so that hostile input cannot exhaust the stack.
pub const MAX_VARIATION_DEPTH: usize = 200;

/// The most tags one game may have; a game with more is an error
/// ([`PdnErrorKind::TooManyTags`]). Real records carry a few dozen at most.
pub const MAX_TAGS: usize = 1000;

/// The column at which [`write_pdn`] wraps movetext.
const LINE_WIDTH: usize = 80;

/// The seven roster tags, in the order PDN (like PGN) writes them first.
const ROSTER: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// Result tokens recognised in movetext whatever the game's `Result` tag says.
/// `*` is handled apart: it needs no delimiter after it.
const STANDARD_RESULTS: [&str; 8] = ["1/2-1/2", "½-½", "1-0", "0-1", "2-0", "0-2", "1-1", "0-0"];

/// A square as written in PDN, not yet tied to a board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PdnSquare {
    /// A square number, as in `32-28`. Leading zeros are accepted on reading (`06`) and
    /// never written. The number is never 0.
    Num(u16),
    /// An algebraic square such as `c3`: `file` counts from 0 for `a` (up to 11 for `l`),
    /// `rank` from 1 (up to 12).
    Alg {
        /// File index, 0 for `a`.
        file: u8,
        /// Rank, 1 for the first rank.
        rank: u8,
    },
}

impl fmt::Display for PdnSquare {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            PdnSquare::Num(n) => write!(f, "{n}"),
            PdnSquare::Alg { file, rank } => {
                write!(f, "{}{rank}", char::from(b'a'.wrapping_add(file)))
            }
        }
    }
}

/// A move as written: the squares it names and whether it was written as a capture.
///
/// `32-28` has two squares and `capture == false`; `28x19` and `28x37x46` (a capture with
/// its intermediate squares) have `capture == true`. Which squares a capture must list is a
/// matter for the rules (PDN 3.0 asks for the full path only when from-to is ambiguous).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PdnMove {
    /// The squares in the order written: origin, then any intermediate squares, then the
    /// destination. At least two in a move read from text.
    pub squares: Vec<PdnSquare>,
    /// True when the move was written with a capture separator (`x` or `:`).
    pub capture: bool,
}

impl PdnMove {
    /// The square the move starts from.
    pub fn origin(&self) -> Option<PdnSquare> {
        self.squares.first().copied()
    }

    /// The square the move ends on.
    pub fn destination(&self) -> Option<PdnSquare> {
        self.squares.last().copied()
    }

    /// Writes the move with `capture_sep` between the squares of a capture.
    fn notation(&self, capture_sep: char) -> String {
        let sep = if self.capture { capture_sep } else { '-' };
        let mut out = String::new();
        for (i, square) in self.squares.iter().enumerate() {
            if i > 0 {
                out.push(sep);
            }
            out.push_str(&square.to_string());
        }
        out
    }
}

/// Formats the move as PDN: `32-28`, `28x19`, `28x37x46`, `c3-d4`.
impl fmt::Display for PdnMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.notation('x'))
    }
}

/// Reads one move such as `32-28`, `28x19x37`, `a5:c7` or `a3b4`, with the same liberties as
/// movetext (leading zeros, spaces around separators). Surrounding whitespace is ignored;
/// anything else (a move number, a strength) is an error.
impl FromStr for PdnMove {
    type Err = PdnErrorKind;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut reader = Reader::new(s.trim());
        let start = reader.mark();
        let first = match reader.read_square().map_err(|f| f.kind)? {
            Some(square) => square,
            None => {
                return Err(match reader.peek() {
                    Some(c) => PdnErrorKind::UnexpectedChar(c),
                    None => PdnErrorKind::BadMove("empty move".to_string()),
                })
            }
        };
        let mv = reader.read_move_rest(first, start).map_err(|f| f.kind)?;
        match reader.peek() {
            None => Ok(mv),
            Some(c) => Err(PdnErrorKind::UnexpectedChar(c)),
        }
    }
}

/// A move number as written before a move: the number, and `true` for black's form `12...`
/// (strictly, the form for the second player's move).
pub type MoveNumber = (u32, bool);

/// One element of a game's movetext.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Element {
    /// A move, with the move number written before it (if any) and its strength written
    /// right after it (if any).
    Move {
        /// The move number written before the move: `Some((12, false))` for `12.`,
        /// `Some((12, true))` for `12...`. `None` when the move had none (usually black's).
        number: Option<MoveNumber>,
        /// The move itself.
        mv: PdnMove,
        /// A move strength indicator as written: `!`, `?`, `!?`, `(!)`, `(?!)`...
        strength: Option<String>,
    },
    /// A placeholder for an unknown move: `...`, `-` or `--` (as in `1. ... 7-12` or
    /// `41. - -`), with the move number written before it, if any.
    Ellipsis {
        /// The move number written before the placeholder, as for [`Element::Move`].
        number: Option<MoveNumber>,
    },
    /// A comment, from `{...}` or from a `%` line comment, with its whitespace normalised
    /// (see the module documentation).
    Comment(String),
    /// A numeric annotation glyph such as `$7`.
    Nag(u16),
    /// A variation: alternative moves to the move just before it, in parentheses.
    Variation(Vec<Element>),
    /// An inline position setup `/FEN "..."/`; the string is the FEN.
    Setup(String),
    /// A result token written inside a variation. (The game's own result, which ends the
    /// game, is [`PdnGame::result`].)
    Result(String),
}

/// One game of a PDN file, as syntax.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PdnGame {
    /// The tag pairs in the order read, e.g. `("White", "Sijbrands")`.
    pub tags: Vec<(String, String)>,
    /// The movetext. Comments written before the tags (such as a `%` line opening the
    /// file) are kept at its start.
    pub body: Vec<Element>,
    /// The result token that ended the game (`"2-0"`, `"1/2-1/2"`, `"*"`...), if the game
    /// ended with one.
    pub result: Option<String>,
}

impl PdnGame {
    /// The value of the first tag called exactly `name` (tag names are case-sensitive).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The moves of the main line, in order, leaving out variations. Placeholders for unknown
    /// moves ([`Element::Ellipsis`]) are left out too; look at [`PdnGame::body`] if they
    /// matter.
    pub fn main_line(&self) -> impl Iterator<Item = &PdnMove> + '_ {
        self.body.iter().filter_map(|element| match element {
            Element::Move { mv, .. } => Some(mv),
            _ => None,
        })
    }
}

/// An error in the syntax of one game.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("game {game}, line {line}, column {column}: {kind}")]
pub struct PdnError {
    /// Which game of the text (1 for the first), counting broken games too.
    pub game: usize,
    /// The line (from 1) where the problem is; for something left open (a comment, a
    /// variation, a string) the line where it was opened.
    pub line: usize,
    /// The column (from 1, in characters) on that line.
    pub column: usize,
    /// What is wrong.
    pub kind: PdnErrorKind,
}

/// What is wrong in a game's syntax.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum PdnErrorKind {
    /// A `{` comment runs to the end of the text.
    #[error("comment opened with '{{' is never closed with '}}'")]
    UnterminatedComment,
    /// A `{` inside a `{...}` comment.
    #[error("'{{' inside a comment: comments cannot be nested")]
    NestedComment,
    /// A `}` outside any comment.
    #[error("'}}' without a matching '{{'")]
    UnmatchedBrace,
    /// A `(` with no matching `)` before the end of the game.
    #[error("variation opened with '(' is never closed with ')'")]
    UnclosedVariation,
    /// A `)` with no matching `(`.
    #[error("')' without a matching '('")]
    UnmatchedParen,
    /// Variations nested deeper than [`MAX_VARIATION_DEPTH`].
    #[error("variations are nested more than {max} deep", max = MAX_VARIATION_DEPTH)]
    TooDeep,
    /// A tag with no closing `]` on its line.
    #[error("tag is not closed with ']' on its line")]
    UnterminatedTag,
    /// A game with more than [`MAX_TAGS`] tags (reported at the first tag beyond the limit).
    #[error("more than {max} tags in one game", max = MAX_TAGS)]
    TooManyTags,
    /// A quoted string with no closing `"` on its line.
    #[error("quoted string is not closed with '\"' on its line")]
    UnterminatedString,
    /// Any other malformed tag.
    #[error("malformed tag: {0}")]
    BadTag(String),
    /// A move that is not complete, such as a lone square.
    #[error("malformed move: {0}")]
    BadMove(String),
    /// A square that cannot exist in any numbering (`0`, `a0`, a number too large).
    #[error("invalid square {0:?}")]
    BadSquare(String),
    /// A malformed move number.
    #[error("malformed move number: {0}")]
    BadMoveNumber(String),
    /// `$` with no number from 0 to 65535 after it.
    #[error("'$' must be followed by a number from 0 to 65535")]
    BadNag,
    /// A move strength (`!`, `?!`...) that does not follow a move.
    #[error("move strength {0:?} does not follow a move")]
    OrphanStrength(String),
    /// A `/` that does not open an inline setup `/FEN "..."/`.
    #[error("malformed inline setup: expected /FEN \"...\"/")]
    BadSetup,
    /// A character that starts no PDN token here.
    #[error("unexpected character {0:?}")]
    UnexpectedChar(char),
    /// [`parse_game`] found no game in the text.
    #[error("no game found")]
    NoGame,
    /// [`parse_game`] found more than one game in the text.
    #[error("the text holds more than one game")]
    MoreThanOneGame,
}

/// Reads every game of a PDN text: one entry per game, in order, so that one broken game
/// does not lose the others. A text with no game (empty, or only whitespace) gives an empty
/// list.
pub fn parse_pdn(text: &str) -> Vec<Result<PdnGame, PdnError>> {
    parse_all(text).into_iter().map(|(_, game)| game).collect()
}

/// Reads a text that holds exactly one game.
///
/// It is an error if the text holds no game ([`PdnErrorKind::NoGame`]) or more than one
/// ([`PdnErrorKind::MoreThanOneGame`], reported where the second one starts).
pub fn parse_game(text: &str) -> Result<PdnGame, PdnError> {
    let mut games = parse_all(text).into_iter();
    match games.next() {
        None => Err(PdnError {
            game: 1,
            line: 1,
            column: 1,
            kind: PdnErrorKind::NoGame,
        }),
        Some((_, Err(error))) => Err(error),
        Some((_, Ok(game))) => match games.next() {
            None => Ok(game),
            Some(((line, column), _)) => Err(PdnError {
                game: 2,
                line,
                column,
                kind: PdnErrorKind::MoreThanOneGame,
            }),
        },
    }
}

/// Reads every game of a PDN file given as bytes: UTF-8 (with or without a byte order
/// mark), or, when the bytes are not valid UTF-8, Latin-1 (one character per byte), as many
/// older PDN files are.
pub fn parse_pdn_bytes(bytes: &[u8]) -> Vec<Result<PdnGame, PdnError>> {
    parse_pdn(&decode_pdn_bytes(bytes))
}

/// Decodes the bytes of a PDN file as [`parse_pdn_bytes`] does: UTF-8 without its byte order
/// mark, or Latin-1 when the bytes are not valid UTF-8.
pub fn decode_pdn_bytes(bytes: &[u8]) -> Cow<'_, str> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(text) => Cow::Borrowed(text),
        Err(_) => Cow::Owned(bytes.iter().map(|&b| char::from(b)).collect()),
    }
}

/// Writes one game as PDN 3.0 text, ending with a line break.
///
/// * Tags: the seven roster tags first (Event, Site, Date, Round, White, Black, Result, those
///   present), then the others in their order. `"` and `\` in values are escaped; line
///   breaks in values become spaces. No tag is added.
/// * A blank line, then the movetext wrapped at 80 columns: `12.` before the first player's
///   moves; `12...` before the second player's move only where it does not follow its
///   partner move (at the start, after a comment, a variation or a setup) or where the
///   number written in [`Element::Move::number`] differs from the count. Numbers are counted
///   from `1.` and follow any number stored in the elements; the `FEN` tag is not looked
///   at, so a game whose first move is the second player's should carry its number
///   (`Some((1, true))`) on that move. A variation is numbered as the move it replaces.
/// * Moves from-to as stored, captures with the separator of the `GameType` tag (`:` for
///   types 25 and 41, `x` otherwise). A move that would read back as a result (`1-1`, or
///   `4-6` in a game whose Result tag is `4-6`) gets a leading zero.
/// * Comments as `{...}`; a comment containing `{` or `}` is written as a `%` line comment.
/// * The result at the end, if the game has one. A game with no result is written without
///   one; when writing several such games without tags one after another, a reader cannot
///   tell where one ends.
pub fn write_pdn(game: &PdnGame) -> String {
    let mut out = String::new();
    for name in ROSTER {
        for (n, value) in game.tags.iter().filter(|(n, _)| n == name) {
            write_tag(&mut out, n, value);
        }
    }
    for (name, value) in &game.tags {
        if !ROSTER.contains(&name.as_str()) {
            write_tag(&mut out, name, value);
        }
    }
    let has_movetext = !game.body.is_empty() || game.result.is_some();
    if has_movetext {
        if !game.tags.is_empty() {
            out.push('\n');
        }
        let mut layout = Layout::default();
        let first = Ply {
            number: 1,
            black: false,
        };
        let style = Style {
            capture_sep: capture_separator(game),
            custom_result: custom_result(game.tag("Result")),
        };
        write_elements(&mut layout, &game.body, first, &style);
        if let Some(result) = &game.result {
            layout.word(result);
        }
        out.push_str(&layout.finish());
    }
    out
}

// ---------------------------------------------------------------------------------------
// Reading

/// A place in the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Mark {
    /// Byte offset.
    pos: usize,
    /// Line number, from 1.
    line: usize,
    /// Byte offset of the start of the line.
    line_start: usize,
}

/// An error while reading a game, before it is numbered.
#[derive(Debug)]
struct Fail {
    kind: PdnErrorKind,
    at: Mark,
    /// True when the error is in a tag: recovery then skips the rest of that tag section.
    in_tags: bool,
}

/// Why a run of movetext elements ended.
enum End {
    /// End of the text.
    Eof,
    /// A result token at the top level: the game is over.
    Result(String),
    /// A `[` at the top level; `dangling_number` if a move number was waiting for its move.
    Tag { dangling_number: bool },
    /// The `)` closing a variation.
    Close,
}

/// Whitespace for PDN: Unicode whitespace and a stray byte order mark.
fn is_space(c: char) -> bool {
    c.is_whitespace() || c == '\u{feff}'
}

/// Whether a result token may end before `c`: anything but a digit or a move separator, so
/// that the moves `1-10` and `1-1-11` are not read as the result `1-1`.
fn ends_result(c: Option<char>) -> bool {
    !c.is_some_and(|c| c.is_ascii_digit() || is_separator(c))
}

fn is_separator(c: char) -> bool {
    matches!(c, '-' | 'x' | 'X' | ':')
}

/// Collapses each run of whitespace into one space and trims the ends.
fn normalize_space(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A result string from a `Result` tag that is not a standard token, such as `4-6`, to be
/// recognised in the movetext of that game. Only result-like strings qualify (digits with
/// `-`, `/`, `+`, `=`), so that a strange tag cannot turn moves or numbers into results.
fn custom_result(tag: Option<&str>) -> Option<String> {
    let value = tag?;
    let result_like = value
        .chars()
        .all(|c| c.is_ascii_digit() || matches!(c, '-' | '/' | '+' | '=' | '½'));
    let has_digit = value.chars().any(|c| c.is_ascii_digit() || c == '½');
    let has_other = value.chars().any(|c| !c.is_ascii_digit());
    let standard = value == "*" || STANDARD_RESULTS.contains(&value);
    (result_like && has_digit && has_other && !standard).then(|| value.to_string())
}

/// A character cursor over the text, with line tracking.
struct Reader<'a> {
    src: &'a str,
    pos: usize,
    line: usize,
    line_start: usize,
}

impl<'a> Reader<'a> {
    fn new(src: &'a str) -> Self {
        Reader {
            src,
            pos: 0,
            line: 1,
            line_start: 0,
        }
    }

    fn rest(&self) -> &'a str {
        &self.src[self.pos..]
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    fn peek_nth(&self, n: usize) -> Option<char> {
        self.rest().chars().nth(n)
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        if c == '\n' {
            self.line += 1;
            self.line_start = self.pos;
        }
        Some(c)
    }

    fn mark(&self) -> Mark {
        Mark {
            pos: self.pos,
            line: self.line,
            line_start: self.line_start,
        }
    }

    fn reset(&mut self, mark: Mark) {
        self.pos = mark.pos;
        self.line = mark.line;
        self.line_start = mark.line_start;
    }

    fn fail(&self, kind: PdnErrorKind) -> Fail {
        fail_at(self.mark(), kind)
    }

    /// Skips whitespace, line breaks included.
    fn skip_ws(&mut self) {
        while self.peek().is_some_and(is_space) {
            self.bump();
        }
    }

    /// Skips spaces and tabs on the current line.
    fn skip_blanks(&mut self) {
        while matches!(self.peek(), Some(' ' | '\t')) {
            self.bump();
        }
    }

    fn eat_while(&mut self, pred: impl Fn(char) -> bool) -> &'a str {
        let start = self.pos;
        while self.peek().is_some_and(&pred) {
            self.bump();
        }
        &self.src[start..self.pos]
    }

    /// Reads the next game, if any; the position is where it starts.
    fn next_game(&mut self) -> Option<(Mark, Result<PdnGame, Fail>)> {
        self.skip_ws();
        self.peek()?;
        let start = self.mark();
        let mut game = PdnGame::default();
        let result = self.read_game(&mut game).map(|()| game);
        Some((start, result))
    }

    fn read_game(&mut self, game: &mut PdnGame) -> Result<(), Fail> {
        // The names read so far, for the repeated-name check in constant time per tag.
        let mut names: HashSet<String> = HashSet::new();
        let mut custom: Option<String> = None;
        loop {
            match self.read_elements(&mut game.body, 0, None, custom.as_deref())? {
                End::Eof | End::Close => return Ok(()),
                End::Result(result) => {
                    game.result = Some(result);
                    return Ok(());
                }
                End::Tag { dangling_number } => {
                    let movetext = game.body.iter().any(|e| !matches!(e, Element::Comment(_)));
                    if dangling_number || movetext {
                        // A new tag section after movetext: the next game.
                        return Ok(());
                    }
                    let start = self.mark();
                    let (name, value) = self.read_tag().map_err(|mut fail| {
                        fail.in_tags = true;
                        fail
                    })?;
                    if names.contains(&name) {
                        // A repeated tag name: the header of the next game.
                        self.reset(start);
                        return Ok(());
                    }
                    if game.tags.len() >= MAX_TAGS {
                        let mut fail = fail_at(start, PdnErrorKind::TooManyTags);
                        fail.in_tags = true;
                        return Err(fail);
                    }
                    if name == "Result" {
                        custom = custom_result(Some(&value));
                    }
                    names.insert(name.clone());
                    game.tags.push((name, value));
                }
            }
        }
    }

    /// Reads `[Name "value"]`, at a `[`.
    fn read_tag(&mut self) -> Result<(String, String), Fail> {
        self.bump();
        self.skip_blanks();
        if !self
            .peek()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        {
            return Err(self.fail(PdnErrorKind::BadTag(
                "expected a tag name after '['".to_string(),
            )));
        }
        let name = self
            .eat_while(|c| c.is_ascii_alphanumeric() || c == '_')
            .to_string();
        self.skip_blanks();
        if self.peek() != Some('"') {
            return Err(self.fail(PdnErrorKind::BadTag(format!(
                "expected a quoted value after the tag name {name}"
            ))));
        }
        let value = self.read_string()?;
        self.skip_blanks();
        match self.peek() {
            Some(']') => {
                self.bump();
                Ok((name, value))
            }
            None | Some('\r' | '\n') => Err(self.fail(PdnErrorKind::UnterminatedTag)),
            Some(c) => Err(self.fail(PdnErrorKind::BadTag(format!(
                "unexpected {c:?} after the value of tag {name}"
            )))),
        }
    }

    /// Reads a quoted string, at its `"`. `\"` and `\\` are escapes; any other backslash is
    /// kept as it is. The string must end on its line.
    fn read_string(&mut self) -> Result<String, Fail> {
        let open = self.mark();
        self.bump();
        let mut value = String::new();
        loop {
            match self.peek() {
                None | Some('\r' | '\n') => {
                    return Err(fail_at(open, PdnErrorKind::UnterminatedString))
                }
                Some('"') => {
                    self.bump();
                    return Ok(value);
                }
                Some('\\') => {
                    self.bump();
                    match self.peek() {
                        Some(c @ ('"' | '\\')) => {
                            self.bump();
                            value.push(c);
                        }
                        _ => value.push('\\'),
                    }
                }
                Some(c) => {
                    self.bump();
                    value.push(c);
                }
            }
        }
    }

    /// Reads movetext elements into `out` until the end of the game (at the top level,
    /// `open == None`) or the `)` closing the variation opened at `open`.
    fn read_elements(
        &mut self,
        out: &mut Vec<Element>,
        depth: usize,
        open: Option<Mark>,
        custom: Option<&str>,
    ) -> Result<End, Fail> {
        let mut pending: Option<MoveNumber> = None;
        loop {
            self.skip_ws();
            let start = self.mark();
            let Some(c) = self.peek() else {
                return match open {
                    Some(open) => Err(fail_at(open, PdnErrorKind::UnclosedVariation)),
                    None => Ok(End::Eof),
                };
            };
            if let Some(result) = self.read_result(custom) {
                if open.is_none() {
                    return Ok(End::Result(result));
                }
                pending = None;
                out.push(Element::Result(result));
                continue;
            }
            match c {
                '[' => {
                    return match open {
                        Some(open) => Err(fail_at(open, PdnErrorKind::UnclosedVariation)),
                        None => Ok(End::Tag {
                            dangling_number: pending.is_some(),
                        }),
                    }
                }
                '{' => out.push(Element::Comment(self.read_brace_comment()?)),
                '%' => {
                    self.bump();
                    let text = self.eat_while(|c| c != '\n');
                    out.push(Element::Comment(normalize_space(text)));
                }
                '}' => return Err(self.fail(PdnErrorKind::UnmatchedBrace)),
                ')' => {
                    if open.is_none() {
                        return Err(self.fail(PdnErrorKind::UnmatchedParen));
                    }
                    self.bump();
                    return Ok(End::Close);
                }
                '(' => {
                    if let Some(strength) = self.read_paren_strength() {
                        attach_strength(out, pending, strength, start)?;
                    } else {
                        if depth >= MAX_VARIATION_DEPTH {
                            return Err(self.fail(PdnErrorKind::TooDeep));
                        }
                        self.bump();
                        let mut variation = Vec::new();
                        self.read_elements(&mut variation, depth + 1, Some(start), custom)?;
                        out.push(Element::Variation(variation));
                    }
                }
                '!' | '?' => {
                    let strength = self.eat_while(|c| matches!(c, '!' | '?')).to_string();
                    attach_strength(out, pending, strength, start)?;
                }
                '$' => {
                    self.bump();
                    let digits = self.eat_while(|c| c.is_ascii_digit());
                    let nag = digits
                        .parse()
                        .map_err(|_| fail_at(start, PdnErrorKind::BadNag))?;
                    out.push(Element::Nag(nag));
                }
                '/' => out.push(Element::Setup(self.read_setup()?)),
                '-' => {
                    self.eat_while(|c| c == '-');
                    out.push(Element::Ellipsis {
                        number: pending.take(),
                    });
                }
                '.' | '…' => {
                    let dots = self.eat_while(|c| c == '.');
                    if dots.len() == 1 {
                        return Err(fail_at(start, PdnErrorKind::UnexpectedChar('.')));
                    }
                    if dots.is_empty() {
                        self.bump(); // '…'
                    }
                    out.push(Element::Ellipsis {
                        number: pending.take(),
                    });
                }
                '0'..='9' => {
                    let digits = self.eat_while(|c| c.is_ascii_digit());
                    if matches!(self.peek(), Some('.' | '…')) {
                        let black = if self.peek() == Some('…') {
                            self.bump();
                            true
                        } else {
                            self.eat_while(|c| c == '.').len() >= 2
                        };
                        let number = digits.parse().map_err(|_| {
                            fail_at(
                                start,
                                PdnErrorKind::BadMoveNumber(format!("{digits} is too large")),
                            )
                        })?;
                        if let Some((previous, _)) = pending {
                            return Err(fail_at(
                                start,
                                PdnErrorKind::BadMoveNumber(format!(
                                    "{previous}. is followed by another move number, {number}."
                                )),
                            ));
                        }
                        pending = Some((number, black));
                    } else {
                        let first = numeric_square(digits, start)?;
                        self.read_move(out, &mut pending, first, start)?;
                    }
                }
                'a'..='l' if self.peek_nth(1).is_some_and(|c| c.is_ascii_digit()) => {
                    let first = self.read_alg_square()?;
                    self.read_move(out, &mut pending, first, start)?;
                }
                c => return Err(self.fail(PdnErrorKind::UnexpectedChar(c))),
            }
        }
    }

    /// Reads the rest of a move whose first square has been read, and any strength glued
    /// to it, and adds it to `out` with the pending move number.
    fn read_move(
        &mut self,
        out: &mut Vec<Element>,
        pending: &mut Option<MoveNumber>,
        first: PdnSquare,
        start: Mark,
    ) -> Result<(), Fail> {
        let mv = self.read_move_rest(first, start)?;
        let strength = match self.peek() {
            Some('!' | '?') => Some(self.eat_while(|c| matches!(c, '!' | '?')).to_string()),
            Some('(') => self.read_paren_strength(),
            _ => None,
        };
        out.push(Element::Move {
            number: pending.take(),
            mv,
            strength,
        });
        Ok(())
    }

    /// Reads the separators and squares after the first square of a move.
    ///
    /// Spaces and tabs may stand before the first separator (`1 -6`), and any whitespace
    /// after a separator (`1- 6`, `47x 9`); later separators must be glued to the square
    /// before them, so that `28x19 - ...` ends the move after 19. Two algebraic squares may
    /// be glued with no separator (`a3b4`).
    fn read_move_rest(&mut self, first: PdnSquare, start: Mark) -> Result<PdnMove, Fail> {
        let mut squares = vec![first];
        let before = self.mark();
        self.skip_blanks();
        let glued = self.pos == before.pos;
        match self.peek() {
            Some(c) if is_separator(c) => {}
            _ if glued && matches!(first, PdnSquare::Alg { .. }) && self.at_alg_square() => {
                while self.at_alg_square() {
                    squares.push(self.read_alg_square()?);
                }
                return Ok(PdnMove {
                    squares,
                    capture: false,
                });
            }
            _ => {
                self.reset(before);
                return Err(fail_at(
                    start,
                    PdnErrorKind::BadMove(format!(
                        "{first} alone is not a move (expected '-', 'x' or ':' after it)"
                    )),
                ));
            }
        }
        let mut capture = false;
        while let Some(sep) = self.peek().filter(|&c| is_separator(c)) {
            self.bump();
            capture |= sep != '-';
            self.skip_ws();
            match self.read_square()? {
                Some(square) => squares.push(square),
                None => {
                    return Err(self.fail(PdnErrorKind::BadMove(format!(
                        "expected a square after {sep:?}"
                    ))))
                }
            }
        }
        Ok(PdnMove { squares, capture })
    }

    fn at_alg_square(&self) -> bool {
        matches!(self.peek(), Some('a'..='l'))
            && self.peek_nth(1).is_some_and(|c| c.is_ascii_digit())
    }

    /// Reads a numeric or algebraic square, or returns `None` if none starts here.
    fn read_square(&mut self) -> Result<Option<PdnSquare>, Fail> {
        let start = self.mark();
        if self.peek().is_some_and(|c| c.is_ascii_digit()) {
            let digits = self.eat_while(|c| c.is_ascii_digit());
            numeric_square(digits, start).map(Some)
        } else if self.at_alg_square() {
            self.read_alg_square().map(Some)
        } else {
            Ok(None)
        }
    }

    /// Reads an algebraic square (the caller has checked a letter `a`-`l` and a digit).
    /// The rank takes two digits when they make at most 12.
    fn read_alg_square(&mut self) -> Result<PdnSquare, Fail> {
        let start = self.mark();
        let letter = self.bump().unwrap_or('a');
        let file = (letter as u32).saturating_sub('a' as u32) as u8;
        let mut rank = self.bump().and_then(|c| c.to_digit(10)).unwrap_or(0);
        if let Some(second) = self.peek().and_then(|c| c.to_digit(10)) {
            if rank * 10 + second <= 12 {
                self.bump();
                rank = rank * 10 + second;
            }
        }
        if rank == 0 {
            return Err(fail_at(
                start,
                PdnErrorKind::BadSquare(self.src[start.pos..self.pos].to_string()),
            ));
        }
        Ok(PdnSquare::Alg {
            file,
            rank: rank as u8,
        })
    }

    /// Reads a result token here, if there is one.
    fn read_result(&mut self, custom: Option<&str>) -> Option<String> {
        let rest = self.rest();
        if rest.starts_with('*') {
            self.bump();
            return Some("*".to_string());
        }
        let found = STANDARD_RESULTS
            .iter()
            .copied()
            .chain(custom)
            .find(|token| {
                rest.strip_prefix(token)
                    .is_some_and(|after| ends_result(after.chars().next()))
            })?;
        self.pos += found.len(); // a result holds no line break
        Some(found.to_string())
    }

    /// Reads a move strength in parentheses, such as `(!?)`, if one is here.
    fn read_paren_strength(&mut self) -> Option<String> {
        let rest = self.rest();
        let inner = rest.strip_prefix('(')?;
        let len = inner.find(|c| !matches!(c, '!' | '?'))?;
        if len == 0 || !inner[len..].starts_with(')') {
            return None;
        }
        let strength = rest[..len + 2].to_string();
        self.pos += len + 2;
        Some(strength)
    }

    /// Reads a `{...}` comment, at its `{`.
    fn read_brace_comment(&mut self) -> Result<String, Fail> {
        let open = self.mark();
        self.bump();
        let start = self.pos;
        loop {
            match self.peek() {
                None => return Err(fail_at(open, PdnErrorKind::UnterminatedComment)),
                Some('{') => return Err(self.fail(PdnErrorKind::NestedComment)),
                Some('}') => {
                    let text = normalize_space(&self.src[start..self.pos]);
                    self.bump();
                    return Ok(text);
                }
                Some(_) => {
                    self.bump();
                }
            }
        }
    }

    /// Reads an inline setup `/FEN "..."/`, at its first `/`.
    fn read_setup(&mut self) -> Result<String, Fail> {
        let open = self.mark();
        let bad = || fail_at(open, PdnErrorKind::BadSetup);
        self.bump();
        self.skip_ws();
        let keyword = self
            .rest()
            .get(..3)
            .is_some_and(|k| k.eq_ignore_ascii_case("FEN"));
        if !keyword {
            return Err(bad());
        }
        self.pos += 3;
        self.skip_ws();
        if self.peek() != Some('"') {
            return Err(bad());
        }
        let fen = self.read_string()?;
        self.skip_ws();
        if self.peek() != Some('/') {
            return Err(bad());
        }
        self.bump();
        Ok(fen)
    }

    /// After an error, moves to where the next game probably starts: the next line starting
    /// with `[` that begins a new tag section (after a blank or movetext line, when the
    /// error was in a tag section).
    fn recover(&mut self, fail: &Fail) {
        let mut after_tags = !fail.in_tags;
        self.reset(Mark {
            pos: fail.at.line_start,
            line: fail.at.line,
            line_start: fail.at.line_start,
        });
        self.skip_line();
        while self.pos < self.src.len() {
            let rest = self.rest();
            let line = &rest[..rest.find('\n').unwrap_or(rest.len())];
            let starts_tag = line.trim_start_matches(is_space).starts_with('[');
            if starts_tag && after_tags {
                return;
            }
            if !starts_tag {
                after_tags = true;
            }
            self.skip_line();
        }
    }

    /// Moves to the start of the next line (or the end of the text).
    fn skip_line(&mut self) {
        match self.rest().find('\n') {
            Some(i) => {
                self.pos += i + 1;
                self.line += 1;
                self.line_start = self.pos;
            }
            None => self.pos = self.src.len(),
        }
    }
}

fn fail_at(at: Mark, kind: PdnErrorKind) -> Fail {
    Fail {
        kind,
        at,
        in_tags: false,
    }
}

/// A numeric square from its digits; 0 and numbers beyond `u16` are errors.
fn numeric_square(digits: &str, start: Mark) -> Result<PdnSquare, Fail> {
    match digits.parse::<u16>() {
        Ok(n) if n > 0 => Ok(PdnSquare::Num(n)),
        _ => Err(fail_at(start, PdnErrorKind::BadSquare(digits.to_string()))),
    }
}

/// Gives a move strength to the move just read, or fails if there is none.
fn attach_strength(
    out: &mut [Element],
    pending: Option<MoveNumber>,
    strength: String,
    at: Mark,
) -> Result<(), Fail> {
    if pending.is_none() {
        if let Some(Element::Move {
            strength: slot @ None,
            ..
        }) = out.last_mut()
        {
            *slot = Some(strength);
            return Ok(());
        }
    }
    Err(fail_at(at, PdnErrorKind::OrphanStrength(strength)))
}

/// Reads every game, with where each starts (line, column).
fn parse_all(text: &str) -> Vec<((usize, usize), Result<PdnGame, PdnError>)> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut reader = Reader::new(text);
    let mut columns = Columns::default();
    let mut games = Vec::new();
    while let Some((start, result)) = reader.next_game() {
        if result
            .as_ref()
            .is_ok_and(|g| g.tags.is_empty() && g.body.is_empty() && g.result.is_none())
        {
            // Nothing but a move number with no move (`1.` alone): no game at all.
            continue;
        }
        let index = games.len() + 1;
        // The game's start first: places are then asked for in the order of the text.
        let start_column = columns.column(text, start);
        let result = result.map_err(|fail| {
            reader.recover(&fail);
            PdnError {
                game: index,
                line: fail.at.line,
                column: columns.column(text, fail.at),
                kind: fail.kind,
            }
        });
        games.push(((start.line, start_column), result));
    }
    games
}

/// Columns (from 1, in characters) of places in the text, each counted on from the last
/// place asked for when it is further on the same line, so that the many games of one long
/// line cost time in proportion to the line, not to its square.
#[derive(Default)]
struct Columns {
    /// The last place asked for: its line's start, its byte offset, its column.
    last: Option<(usize, usize, usize)>,
}

impl Columns {
    fn column(&mut self, text: &str, at: Mark) -> usize {
        let (from, base) = match self.last {
            Some((line_start, pos, column)) if line_start == at.line_start && pos <= at.pos => {
                (pos, column)
            }
            _ => (at.line_start, 1),
        };
        let column = base + text.get(from..at.pos).map_or(0, |s| s.chars().count());
        self.last = Some((at.line_start, at.pos, column));
        column
    }
}

// ---------------------------------------------------------------------------------------
// Writing

fn write_tag(out: &mut String, name: &str, value: &str) {
    out.push('[');
    out.push_str(name);
    out.push_str(" \"");
    out.push_str(&escape(value));
    out.push_str("\"]\n");
}

/// Escapes a string for writing between quotes.
fn escape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\r' | '\n' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// The capture separator for a game's `GameType`: `:` for Russian (25) and Spantsiretti
/// (41), `x` otherwise.
fn capture_separator(game: &PdnGame) -> char {
    let kind = game.tag("GameType").map(|value| {
        let value = value.trim_start();
        let end = value
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(value.len());
        &value[..end]
    });
    match kind {
        Some("25" | "41") => ':',
        _ => 'x',
    }
}

/// How moves are written in one game.
struct Style {
    /// The capture separator, from the `GameType` tag.
    capture_sep: char,
    /// The game's own result token, if its `Result` tag holds a non-standard one.
    custom_result: Option<String>,
}

impl Style {
    /// The notation of a move. A move that would read back as a result token (`1-1`, or
    /// `4-6` in a game whose Result tag is `4-6`; a reader can only have produced such a
    /// move from a spelling like `01-1` or `4- 6`) gets a leading zero to stay a move.
    fn notation(&self, mv: &PdnMove) -> String {
        let plain = mv.notation(self.capture_sep);
        let is_result = |text: &str| {
            STANDARD_RESULTS.contains(&text) || self.custom_result.as_deref() == Some(text)
        };
        if mv.capture || mv.squares.len() != 2 || !is_result(&plain) {
            return plain;
        }
        let (from, to) = (mv.squares[0], mv.squares[1]);
        [
            format!("0{from}-{to}"),
            format!("{from}-0{to}"),
            format!("0{from}-0{to}"),
        ]
        .into_iter()
        .find(|text| !is_result(text))
        .unwrap_or(plain)
    }
}

/// Where a move stands in the count: its number, and whether it is the second player's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Ply {
    number: u32,
    black: bool,
}

impl Ply {
    fn next(self) -> Ply {
        if self.black {
            Ply {
                number: self.number.saturating_add(1),
                black: false,
            }
        } else {
            Ply {
                number: self.number,
                black: true,
            }
        }
    }

    fn label(self) -> String {
        if self.black {
            format!("{}...", self.number)
        } else {
            format!("{}.", self.number)
        }
    }
}

/// Writes elements whose first move stands at `start` in the count.
fn write_elements(layout: &mut Layout, elements: &[Element], start: Ply, style: &Style) {
    let mut next = start;
    // Where the last move stood: a variation after it replaces it.
    let mut last: Option<Ply> = None;
    // Whether a black move here needs its number.
    let mut needs_number = true;
    for element in elements {
        match element {
            Element::Move {
                number,
                mv,
                strength,
            } => {
                let ply = number.map_or(next, |(number, black)| Ply { number, black });
                let mut word = String::new();
                if !ply.black || needs_number || ply != next {
                    word.push_str(&ply.label());
                    word.push(' ');
                }
                word.push_str(&style.notation(mv));
                word.push_str(strength.as_deref().unwrap_or(""));
                layout.word(&word);
                last = Some(ply);
                next = ply.next();
                needs_number = false;
            }
            Element::Ellipsis { number } => {
                let ply = number.map_or(next, |(number, black)| Ply { number, black });
                let mut word = String::new();
                if !ply.black || needs_number || ply != next {
                    word.push_str(&ply.label());
                    word.push(' ');
                }
                word.push_str("...");
                layout.word(&word);
                last = Some(ply);
                next = ply.next();
                needs_number = false;
            }
            Element::Comment(text) => {
                layout.comment(text);
                needs_number = true;
            }
            Element::Nag(nag) => layout.word(&format!("${nag}")),
            Element::Variation(variation) => {
                layout.open();
                write_elements(layout, variation, last.unwrap_or(next), style);
                layout.close();
                needs_number = true;
            }
            Element::Setup(fen) => {
                layout.word(&format!("/FEN \"{}\"/", escape(fen)));
                needs_number = true;
            }
            Element::Result(result) => {
                layout.word(result);
                needs_number = true;
            }
        }
    }
}

/// Lays out movetext words in lines of at most [`LINE_WIDTH`] columns (a word longer than
/// that gets a line of its own).
#[derive(Default)]
struct Layout {
    text: String,
    /// Characters on the current line.
    line_len: usize,
    /// Opening parentheses waiting to be glued to the next word.
    prefix: String,
}

impl Layout {
    fn word(&mut self, word: &str) {
        let word = if self.prefix.is_empty() {
            Cow::Borrowed(word)
        } else {
            Cow::Owned(std::mem::take(&mut self.prefix) + word)
        };
        let len = word.chars().count();
        if self.line_len > 0 {
            if self.line_len + 1 + len > LINE_WIDTH {
                self.text.push('\n');
                self.line_len = 0;
            } else {
                self.text.push(' ');
                self.line_len += 1;
            }
        }
        self.text.push_str(&word);
        self.line_len += len;
    }

    fn open(&mut self) {
        self.prefix.push('(');
    }

    fn close(&mut self) {
        if self.prefix.is_empty() {
            self.text.push(')');
            self.line_len += 1;
        } else {
            self.word(")");
        }
    }

    /// A comment: `{...}` wrapped like words, or a `%` line comment if it contains a brace.
    fn comment(&mut self, text: &str) {
        let text = normalize_space(text);
        if text.contains(['{', '}']) {
            if !self.prefix.is_empty() {
                let prefix = std::mem::take(&mut self.prefix);
                self.word(&prefix);
            }
            if self.line_len > 0 {
                self.text.push('\n');
            }
            self.text.push('%');
            if !text.is_empty() {
                self.text.push(' ');
                self.text.push_str(&text);
            }
            self.text.push('\n');
            self.line_len = 0;
            return;
        }
        let words: Vec<&str> = text.split(' ').collect();
        let last = words.len() - 1;
        for (i, word) in words.iter().enumerate() {
            let mut piece = String::new();
            if i == 0 {
                piece.push('{');
            }
            piece.push_str(word);
            if i == last {
                piece.push('}');
            }
            self.word(&piece);
        }
    }

    fn finish(mut self) -> String {
        if !self.prefix.is_empty() {
            let prefix = std::mem::take(&mut self.prefix);
            self.word(&prefix);
        }
        if !self.text.is_empty() && !self.text.ends_with('\n') {
            self.text.push('\n');
        }
        self.text
    }
}

/// The elements with their move numbers dropped, for comparing two records of one game (the
/// writer adds numbers a text did not have and leaves out black's redundant ones).
#[must_use]
pub fn without_move_numbers(body: &[Element]) -> Vec<Element> {
    body.iter()
        .map(|element| match element {
            Element::Move { mv, strength, .. } => Element::Move {
                number: None,
                mv: mv.clone(),
                strength: strength.clone(),
            },
            Element::Ellipsis { .. } => Element::Ellipsis { number: None },
            Element::Variation(v) => Element::Variation(without_move_numbers(v)),
            other => other.clone(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(text: &str) -> PdnGame {
        match parse_game(text) {
            Ok(game) => game,
            Err(e) => panic!("{text:?}: {e}"),
        }
    }

    fn err(text: &str) -> PdnError {
        match parse_game(text) {
            Ok(game) => panic!("{text:?} parsed: {game:?}"),
            Err(e) => e,
        }
    }

    fn moves(game: &PdnGame) -> Vec<String> {
        game.main_line().map(|m| m.to_string()).collect()
    }

    fn mv(squares: &[u16], capture: bool) -> PdnMove {
        PdnMove {
            squares: squares.iter().map(|&n| PdnSquare::Num(n)).collect(),
            capture,
        }
    }

    #[test]
    fn squares_and_moves() {
        let g = one("1. 32-28 19-23 2. 28x19 14x23x32 3. 06-11 a5:c7 a3b4 c10-l12");
        assert_eq!(
            moves(&g),
            ["32-28", "19-23", "28x19", "14x23x32", "6-11", "a5xc7", "a3-b4", "c10-l12"]
        );
        match &g.body[5] {
            Element::Move { mv, .. } => {
                assert!(mv.capture);
                assert_eq!(mv.origin(), Some(PdnSquare::Alg { file: 0, rank: 5 }));
                assert_eq!(mv.destination(), Some(PdnSquare::Alg { file: 2, rank: 7 }));
            }
            other => panic!("{other:?}"),
        }
        assert_eq!("28x37x46".parse::<PdnMove>(), Ok(mv(&[28, 37, 46], true)));
        assert_eq!(" 1- 6 ".parse::<PdnMove>(), Ok(mv(&[1, 6], false)));
        assert!("32".parse::<PdnMove>().is_err());
        assert!("32-28!".parse::<PdnMove>().is_err());
        assert!("0-5".parse::<PdnMove>().is_err());
    }

    #[test]
    fn move_numbers_and_strengths() {
        let g = one("1.32-28!? 19-23(!?!!!) 2.28x19 12... 14x23 ?");
        let expected = vec![
            Element::Move {
                number: Some((1, false)),
                mv: mv(&[32, 28], false),
                strength: Some("!?".into()),
            },
            Element::Move {
                number: None,
                mv: mv(&[19, 23], false),
                strength: Some("(!?!!!)".into()),
            },
            Element::Move {
                number: Some((2, false)),
                mv: mv(&[28, 19], true),
                strength: None,
            },
            Element::Move {
                number: Some((12, true)),
                mv: mv(&[14, 23], true),
                strength: Some("?".into()),
            },
        ];
        assert_eq!(g.body, expected);
        assert_eq!(g.result, None);
    }

    #[test]
    fn spaces_inside_moves() {
        let g = one("17. 43-39  1- 6 18. 49-43 47x 9 19. 1 - 7 10 -4");
        assert_eq!(moves(&g), ["43-39", "1-6", "49-43", "47x9", "1-7", "10-4"]);
        // A later separator must be glued to the square before it: here `-` is a placeholder.
        let g = one("28x19 - *");
        assert_eq!(moves(&g), ["28x19"]);
        assert_eq!(g.body[1], Element::Ellipsis { number: None });
        assert_eq!(err("28x19\n x37 *").kind, PdnErrorKind::UnexpectedChar('x'));
    }

    #[test]
    fn placeholders_and_empty_games() {
        let g = one("41. - - 42. -- 1... ... ... 7-12 1-1");
        assert_eq!(
            g.body,
            vec![
                Element::Ellipsis {
                    number: Some((41, false))
                },
                Element::Ellipsis { number: None },
                Element::Ellipsis {
                    number: Some((42, false))
                },
                Element::Ellipsis {
                    number: Some((1, true))
                },
                Element::Ellipsis { number: None },
                Element::Move {
                    number: None,
                    mv: mv(&[7, 12], false),
                    strength: None
                },
            ]
        );
        assert_eq!(g.result.as_deref(), Some("1-1"));
        let g = one("[Event \"x\"]\n1. 2-0");
        assert!(g.body.is_empty());
        assert_eq!(g.result.as_deref(), Some("2-0"));
        let g = one("[Event \"only tags\"]\n[Site \"here\"]");
        assert_eq!(g.tags.len(), 2);
        assert!(g.body.is_empty() && g.result.is_none());
    }

    #[test]
    fn results_separate_games() {
        let text = "1. 32-28 1-0 1. 33-28 0-1[Event \"x\"] 31-27 *\n1/2-1/2 ½-½ 32-28 1-10";
        let games: Vec<PdnGame> = parse_pdn(text).into_iter().map(Result::unwrap).collect();
        let results: Vec<Option<&str>> = games.iter().map(|g| g.result.as_deref()).collect();
        assert_eq!(
            results,
            [
                Some("1-0"),
                Some("0-1"),
                Some("*"),
                Some("1/2-1/2"),
                Some("½-½"),
                None
            ]
        );
        assert_eq!(moves(&games[5]), ["32-28", "1-10"]);
        assert_eq!(games[2].tag("Event"), Some("x"));
    }

    #[test]
    fn result_from_the_result_tag() {
        let text = "[Result \"4-6\"]\n1. 34-29 18-22 4-6\n[Result \"1-9\"]\n1. 33-29 1-9\n";
        let games = parse_pdn(text);
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].as_ref().unwrap().result.as_deref(), Some("4-6"));
        assert_eq!(games[1].as_ref().unwrap().result.as_deref(), Some("1-9"));
        // Without the tag, 4-6 is a move.
        assert_eq!(moves(&one("34-29 4-6")), ["34-29", "4-6"]);
        // A tag that does not look like a result changes nothing.
        assert_eq!(custom_result(Some("32")), None);
        assert_eq!(custom_result(Some("-")), None);
        assert_eq!(custom_result(Some("2-0")), None);
    }

    #[test]
    fn new_tags_after_movetext_start_a_game() {
        let text = "[Event \"a\"]\n1. 34-29 19-23\n\n[Event \"b\"]\n1. 32-28 *\n[Event \"c\"]\n\n[Event \"d\"]\n";
        let games: Vec<PdnGame> = parse_pdn(text).into_iter().map(Result::unwrap).collect();
        let events: Vec<_> = games.iter().map(|g| g.tag("Event").unwrap()).collect();
        assert_eq!(events, ["a", "b", "c", "d"]);
        // A dangling move number counts as movetext.
        assert_eq!(
            parse_pdn("[Event \"a\"]\n1. 32-28 2.\n[Site \"b\"]\n").len(),
            2
        );
        // Comments between tags do not.
        let g = one("% file header\n[Event \"a\"]\n{note}\n[Site \"b\"]\n1. 32-28");
        assert_eq!(g.tags.len(), 2);
        assert_eq!(
            g.body[..2],
            [
                Element::Comment("file header".into()),
                Element::Comment("note".into())
            ]
        );
    }

    #[test]
    fn tags() {
        let g = one("\u{feff}[White \"An \\\"escaped\\\" \\\\ name\"]\r\n[Event   \"C:\\games\"]\r\n[event \"lower\"]\r\n32-28\r\n");
        assert_eq!(g.tag("White"), Some("An \"escaped\" \\ name"));
        assert_eq!(g.tag("Event"), Some("C:\\games"));
        assert_eq!(g.tag("event"), Some("lower"));
        assert_eq!(g.tag("EVENT"), None);
        assert_eq!(moves(&g), ["32-28"]);
    }

    #[test]
    fn comments_nags_variations_setups() {
        let g = one(
            "32-28 {  a\r\n  comment } $7 19-23 (18-23 38-32 (37-32? 23-29! { Black wins }) 12-18) \
             % line } comment\n28x19 /FEN \"W:W31-50:B1-20\"/ 14x23",
        );
        assert_eq!(g.body.len(), 9);
        assert_eq!(g.body[1], Element::Comment("a comment".into()));
        assert_eq!(g.body[2], Element::Nag(7));
        let Element::Variation(v) = &g.body[4] else {
            panic!("{:?}", g.body[4])
        };
        assert_eq!(v.len(), 4);
        let Element::Variation(inner) = &v[2] else {
            panic!("{:?}", v[2])
        };
        assert_eq!(inner[2], Element::Comment("Black wins".into()));
        assert_eq!(g.body[5], Element::Comment("line } comment".into()));
        assert_eq!(g.body[7], Element::Setup("W:W31-50:B1-20".into()));
        assert_eq!(moves(&g), ["32-28", "19-23", "28x19", "14x23"]);
    }

    #[test]
    fn errors_have_game_and_line() {
        let e = err("1. 33-29 19-23 2. 35-30 { nested { comment } } \r\n");
        assert_eq!((e.game, e.line, e.column), (1, 1, 34));
        assert_eq!(e.kind, PdnErrorKind::NestedComment);
        let e = err("1. 32-28\n{ never closed\n\n");
        assert_eq!(
            (e.line, e.column, e.kind),
            (2, 1, PdnErrorKind::UnterminatedComment)
        );
        let e = err("[Event \"x]\n1. 32-28 *");
        assert_eq!((e.line, e.kind), (1, PdnErrorKind::UnterminatedString));
        let e = err("[Event \"x\"\n1. 32-28 *");
        assert_eq!((e.line, e.kind), (1, PdnErrorKind::UnterminatedTag));
        let e = err("1. 32-28 (19-23\n 2. 33-29 *");
        assert_eq!(
            (e.line, e.column, e.kind),
            (1, 10, PdnErrorKind::UnclosedVariation)
        );
        let e = err("1. 32-28 19-23)");
        assert_eq!(e.kind, PdnErrorKind::UnmatchedParen);
        let e = err("3. 8-3 . 1-0");
        assert_eq!((e.column, e.kind), (8, PdnErrorKind::UnexpectedChar('.')));
        for bad in [
            "32 28",
            "32-",
            "0-5",
            "32-28 $",
            "$70000",
            "/ 32-28",
            "!",
            "1. ?",
            "1. 2. 32-28",
            "32-28 }",
            "32-28 lost",
            "[1 \"x\"]",
            "[Event x]",
            "[Event \"x\" y]",
            "a0-b1",
            "99999-1",
        ] {
            let e = err(bad);
            assert_eq!(e.game, 1, "{bad}");
        }
    }

    #[test]
    fn errors_keep_other_games() {
        let text = "[Event \"1\"]\n1. 32-28 *\n\n[Event \"2\"\n[Site \"x\"]\n1. 32-28 { *\n\n\
                    [Event \"3\"]\n1. 32-28 ( *\n\n[Event \"4\"]\n1. 32-28 *\n";
        let games = parse_pdn(text);
        assert_eq!(games.len(), 4, "{games:?}");
        assert!(games[0].is_ok());
        let e = games[1].as_ref().unwrap_err();
        assert_eq!(
            (e.game, e.line, &e.kind),
            (2, 4, &PdnErrorKind::UnterminatedTag)
        );
        let e = games[2].as_ref().unwrap_err();
        assert_eq!(
            (e.game, e.line, &e.kind),
            (3, 9, &PdnErrorKind::UnclosedVariation)
        );
        assert_eq!(games[3].as_ref().unwrap().tag("Event"), Some("4"));
    }

    #[test]
    fn deep_nesting_is_an_error() {
        let ok = "(".repeat(MAX_VARIATION_DEPTH) + "32-28" + &")".repeat(MAX_VARIATION_DEPTH);
        one(&ok);
        let deep = "(".repeat(MAX_VARIATION_DEPTH + 1) + &")".repeat(MAX_VARIATION_DEPTH + 1);
        assert_eq!(err(&deep).kind, PdnErrorKind::TooDeep);
        let huge = "(".repeat(100_000);
        assert_eq!(err(&huge).kind, PdnErrorKind::TooDeep);
    }

    #[test]
    fn parse_game_wants_one_game() {
        assert_eq!(err("").kind, PdnErrorKind::NoGame);
        assert_eq!(err("1.").kind, PdnErrorKind::NoGame);
        assert_eq!(err(" \r\n ").kind, PdnErrorKind::NoGame);
        let e = err("32-28 *\n\n  33-28 *");
        assert_eq!(
            (e.game, e.line, e.column, e.kind),
            (2, 3, 3, PdnErrorKind::MoreThanOneGame)
        );
    }

    #[test]
    fn latin1_bytes() {
        let bytes = b"[White \"Fran\xe7ois\"]\n1. 32-28 *";
        let games = parse_pdn_bytes(bytes);
        assert_eq!(games[0].as_ref().unwrap().tag("White"), Some("François"));
        let games = parse_pdn_bytes("\u{feff}[White \"François\"]".as_bytes());
        assert_eq!(games[0].as_ref().unwrap().tag("White"), Some("François"));
    }

    #[test]
    fn writing() {
        let g = one("[Site \"s\"]\n[GameType \"20\"]\n[Event \"e \\\"q\\\"\"]\n\
             32-28 19-23 {c} 38-32 (37-32? 23-29! (14-19) {Black wins}) 12-18 $1 2-0");
        let text = write_pdn(&g);
        assert_eq!(
            text,
            "[Event \"e \\\"q\\\"\"]\n[Site \"s\"]\n[GameType \"20\"]\n\n\
             1. 32-28 19-23 {c} 2. 38-32 (2. 37-32? 23-29! (2... 14-19) {Black wins})\n\
             2... 12-18 $1 2-0\n"
        );
        let g = one("[GameType \"25\"]\n1... c3xe5 2. e1-f2 *");
        assert_eq!(
            write_pdn(&g),
            "[GameType \"25\"]\n\n1... c3:e5 2. e1-f2 *\n"
        );
        let g = one("1. 32-28 {x} 19-23 (% a } b\n1... 18-23 % z\n) 1-0");
        assert_eq!(
            write_pdn(&g),
            "1. 32-28 {x} 1... 19-23 (\n% a } b\n1... 18-23 {z}) 1-0\n"
        );
        assert_eq!(write_pdn(&one("[Event \"x\"]")), "[Event \"x\"]\n");
        assert_eq!(write_pdn(&one("1-0")), "1-0\n");
        // Explicit numbers that disagree with the count are kept.
        let g = one("26. 43-39 24-30 29. 49-43 30x39 40... 10-14");
        assert_eq!(
            write_pdn(&g),
            "26. 43-39 24-30 29. 49-43 30x39 40... 10-14\n"
        );
        // Long movetext wraps at 80 columns.
        let long = (1..=40)
            .map(|n| format!("{n}. 32-28 19-23"))
            .collect::<Vec<_>>()
            .join(" ");
        let text = write_pdn(&one(&long));
        assert!(text.lines().all(|l| l.len() <= 80), "{text}");
        assert!(text.lines().count() > 5);
    }

    #[test]
    fn round_trip_keeps_everything() {
        let text =
            "[Event \"x\"]\n[Result \"*\"]\n1. 32-28!? {a} 19-23 $3 (18-23 (17-22) 38-32 1-0) \
                    2. 28x19 /FEN \"W:W28:B19\"/ 14x23 3. ... - 4. 01-06 a3b4 *";
        let g = one(text);
        let again = one(&write_pdn(&g));
        assert_eq!(write_pdn(&again), write_pdn(&g));
        assert_eq!(again.tags, g.tags);
        assert_eq!(again.result, g.result);
        assert_eq!(
            without_move_numbers(&again.body),
            without_move_numbers(&g.body)
        );
    }
}
