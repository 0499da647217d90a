//! DXP messages as bytes: reading ([`parse`]) and writing ([`Message::encode`], [`frame`]),
//! and the start positions of game requests. No I/O.

use std::fmt;

use tablier_core::Side;
use tablier_draughts::{fen, Position, G10, INTERNATIONAL};

use super::{MAX_LEN, VERSION};
use crate::hub;

/// Why a game ends (GAMEEND's reason).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// `0`: no reason given (always allowed; also the answer to the other side's GAMEEND).
    Unknown,
    /// `1`: the sender gives up.
    GiveUp,
    /// `2`: the sender claims a draw.
    Draw,
    /// `3`: the sender claims the win.
    Win,
}

impl EndReason {
    fn code(self) -> char {
        match self {
            EndReason::Unknown => '0',
            EndReason::GiveUp => '1',
            EndReason::Draw => '2',
            EndReason::Win => '3',
        }
    }
}

/// Where a requested game starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartPosition {
    /// `A`: the normal starting position.
    Initial,
    /// `B`: a set-up position: the side to move and 50 characters, one per square 1..50
    /// (`e` empty, `w`/`z` white/black man, `W`/`Z` white/black king).
    Setup {
        /// The side to move first.
        to_move: Side,
        /// The 50 squares.
        squares: String,
    },
}

/// A GAMEREQ: the initiator asks for a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRequest {
    /// Protocol version (1).
    pub version: u8,
    /// The initiator's name (trailing blanks removed).
    pub initiator: String,
    /// The colour the follower plays.
    pub follower: Side,
    /// Thinking time per player for the whole game, in minutes.
    pub minutes: u16,
    /// Number of moves to make in that time (0: the whole game).
    pub moves: u16,
    /// Where the game starts.
    pub start: StartPosition,
}

/// A MOVE as DXP writes it: from, to and the captured squares (square numbers 1..50).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DxpMove {
    /// Seconds the mover used (informational).
    pub seconds: u16,
    /// Start square.
    pub from: u8,
    /// End square.
    pub to: u8,
    /// Captured squares, in the order sent.
    pub captured: Vec<u8>,
}

/// One DXP message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    /// `R` GAMEREQ.
    GameReq(GameRequest),
    /// `A` GAMEACC: the follower's name and its answer code (0 = accepted).
    GameAcc {
        /// The follower's name (trailing blanks removed).
        name: String,
        /// 0 accepted; 1 version not supported; 2 not this game; 3 no game at all.
        code: u8,
    },
    /// `M` MOVE.
    Move(DxpMove),
    /// `E` GAMEEND.
    GameEnd {
        /// Why the game ended, as the sender claims it.
        reason: EndReason,
        /// Stop code 1: no further game on this connection.
        stop: bool,
    },
    /// `C` CHAT.
    Chat(String),
    /// `B` BACKREQ: take back to this move number with this colour to move.
    BackReq {
        /// Move number (1..999).
        move_number: u16,
        /// The side to move there.
        to_move: Side,
    },
    /// `K` BACKACC: 0 accepted, other codes refuse.
    BackAcc {
        /// The answer code.
        code: u8,
    },
}

/// Why a message could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// The message type (`'?'` when there is none).
    pub kind: char,
    /// What is wrong.
    pub reason: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.kind == '?' {
            write!(f, "bad DXP message: {}", self.reason)
        } else {
            write!(f, "bad DXP message {}: {}", self.kind, self.reason)
        }
    }
}

impl std::error::Error for ParseError {}

pub(crate) fn colour_char(side: Side) -> char {
    match side {
        Side::White => 'W',
        Side::Black => 'Z',
    }
}

/// Reads fixed-width fields from an ASCII message.
struct Fields<'a> {
    kind: char,
    text: &'a str,
    at: usize,
}

impl<'a> Fields<'a> {
    fn err(&self, reason: impl Into<String>) -> ParseError {
        ParseError {
            kind: self.kind,
            reason: reason.into(),
        }
    }

    fn take(&mut self, width: usize, field: &str) -> Result<&'a str, ParseError> {
        let rest = &self.text[self.at..];
        if rest.len() < width {
            return Err(self.err(format!(
                "too short: {field} needs {width} characters at offset {}, {} left",
                self.at,
                rest.len()
            )));
        }
        self.at += width;
        Ok(&rest[..width])
    }

    fn number(&mut self, width: usize, field: &str) -> Result<u32, ParseError> {
        let s = self.take(width, field)?;
        if !s.bytes().all(|b| b.is_ascii_digit()) {
            return Err(self.err(format!("{field} must be {width} digits, got {s:?}")));
        }
        s.parse()
            .map_err(|_| self.err(format!("{field} must be {width} digits, got {s:?}")))
    }

    fn colour(&mut self, field: &str) -> Result<Side, ParseError> {
        match self.take(1, field)? {
            "W" => Ok(Side::White),
            "Z" => Ok(Side::Black),
            other => Err(self.err(format!("{field} must be W or Z, got {other:?}"))),
        }
    }

    fn square(&mut self, field: &str) -> Result<u8, ParseError> {
        let n = self.number(2, field)?;
        if (1..=50).contains(&n) {
            Ok(n as u8)
        } else {
            Err(self.err(format!("{field} {n:02} is not a square (01..50)")))
        }
    }

    fn end(&self) -> Result<(), ParseError> {
        let rest = &self.text[self.at..];
        if rest.is_empty() {
            Ok(())
        } else {
            Err(self.err(format!(
                "{} unexpected characters after the last field: {rest:?}",
                rest.len()
            )))
        }
    }
}

/// Reads one message: the bytes between two NULs (without them).
///
/// # Errors
/// A [`ParseError`] naming the field that is missing or wrong: an empty message, a byte that
/// is not ASCII 1..127, more than [`MAX_LEN`] characters, an unknown type, a field of the
/// wrong width or content, a capture count that does not match the squares given.
pub fn parse(bytes: &[u8]) -> Result<Message, ParseError> {
    let plain = |reason: String| ParseError { kind: '?', reason };
    if bytes.is_empty() {
        return Err(plain("empty message".into()));
    }
    if let Some(i) = bytes.iter().position(|&b| b == 0 || b > 127) {
        return Err(plain(format!(
            "byte {:#04x} at offset {i} is not an ASCII character 1..127",
            bytes[i]
        )));
    }
    if bytes.len() > MAX_LEN {
        return Err(plain(format!(
            "{} characters, more than the {MAX_LEN} allowed",
            bytes.len()
        )));
    }
    // Every byte is ASCII, so the text is valid UTF-8 and byte offsets are character offsets.
    let text = std::str::from_utf8(bytes).map_err(|e| plain(e.to_string()))?;
    let kind = text.as_bytes()[0] as char;
    let mut f = Fields { kind, text, at: 1 };
    let message = match kind {
        'R' => {
            let version = f.number(2, "version")?;
            if version != u32::from(VERSION) {
                // A later version may lay its fields out otherwise: nothing more is read.
                return Ok(Message::GameReq(GameRequest {
                    version: version.min(99) as u8,
                    initiator: String::new(),
                    follower: Side::White,
                    minutes: 0,
                    moves: 0,
                    start: StartPosition::Initial,
                }));
            }
            let initiator = f.take(32, "initiator name")?.trim_end().to_string();
            let follower = f.colour("follower colour")?;
            let minutes = f.number(3, "thinking time")? as u16;
            let moves = f.number(3, "number of moves")? as u16;
            let start = match f.take(1, "starting position")? {
                "A" => StartPosition::Initial,
                "B" => {
                    let to_move = f.colour("colour to move")?;
                    let squares = f.take(50, "position")?;
                    if let Some((i, c)) = squares
                        .char_indices()
                        .find(|(_, c)| !matches!(c, 'e' | 'w' | 'z' | 'W' | 'Z'))
                    {
                        return Err(f.err(format!(
                            "square {} of the position is {c:?}, not one of e w z W Z",
                            i + 1
                        )));
                    }
                    StartPosition::Setup {
                        to_move,
                        squares: squares.to_string(),
                    }
                }
                other => {
                    return Err(f.err(format!("starting position must be A or B, got {other:?}")))
                }
            };
            f.end()?;
            Message::GameReq(GameRequest {
                version: VERSION,
                initiator,
                follower,
                minutes,
                moves,
                start,
            })
        }
        'A' => {
            // Name (32, blank-padded) then the code; names sent shorter are tolerated.
            if text.len() < 2 {
                return Err(f.err("the acceptance code is missing"));
            }
            let code_char = text.as_bytes()[text.len() - 1];
            if !code_char.is_ascii_digit() {
                return Err(f.err(format!(
                    "acceptance code must be a digit, got {:?}",
                    code_char as char
                )));
            }
            Message::GameAcc {
                name: text[1..text.len() - 1].trim_end().to_string(),
                code: code_char - b'0',
            }
        }
        'M' => {
            let seconds = f.number(4, "time")? as u16;
            let from = f.square("from square")?;
            let to = f.square("to square")?;
            let count = f.number(2, "number captured")?;
            if count > 20 {
                return Err(f.err(format!("number captured {count} is more than 20")));
            }
            let mut captured = Vec::with_capacity(count as usize);
            for i in 0..count {
                captured.push(f.square(&format!("captured square {}", i + 1))?);
            }
            f.end()?;
            Message::Move(DxpMove {
                seconds,
                from,
                to,
                captured,
            })
        }
        'E' => {
            let reason = match f.take(1, "reason")? {
                "0" => EndReason::Unknown,
                "1" => EndReason::GiveUp,
                "2" => EndReason::Draw,
                "3" => EndReason::Win,
                other => return Err(f.err(format!("reason must be 0..3, got {other:?}"))),
            };
            let stop = match f.take(1, "stop code")? {
                "0" => false,
                "1" => true,
                other => return Err(f.err(format!("stop code must be 0 or 1, got {other:?}"))),
            };
            f.end()?;
            Message::GameEnd { reason, stop }
        }
        'C' => Message::Chat(text[1..].to_string()),
        'B' => {
            let move_number = f.number(3, "move number")? as u16;
            let to_move = f.colour("colour to move")?;
            f.end()?;
            Message::BackReq {
                move_number,
                to_move,
            }
        }
        'K' => {
            let code = f.number(1, "acceptance code")? as u8;
            f.end()?;
            Message::BackAcc { code }
        }
        other => {
            return Err(ParseError {
                kind: '?',
                reason: format!("unknown message type {other:?}"),
            })
        }
    };
    Ok(message)
}

/// `c` if it is printable ASCII, else `?`.
fn printable(c: char) -> char {
    if c.is_ascii_graphic() || c == ' ' {
        c
    } else {
        '?'
    }
}

/// A name as a 32-character field: printable ASCII, blank-padded, never starting with a blank.
fn name_field(name: &str) -> String {
    let clean: String = name.chars().map(printable).collect();
    let clean = clean.trim_start();
    let clean = if clean.is_empty() { "?" } else { clean };
    format!("{:<32.32}", clean)
}

/// The bytes of `message` as sent on the connection: its text and one NUL byte.
#[must_use]
pub fn frame(message: &Message) -> Vec<u8> {
    let mut bytes = message.encode().into_bytes();
    bytes.push(0);
    bytes
}

impl Message {
    /// The message as sent (without its NUL).
    #[must_use]
    pub fn encode(&self) -> String {
        match self {
            Message::GameReq(r) => {
                let start = match &r.start {
                    StartPosition::Initial => "A".to_string(),
                    StartPosition::Setup { to_move, squares } => {
                        format!("B{}{squares}", colour_char(*to_move))
                    }
                };
                format!(
                    "R{:02}{}{}{:03}{:03}{start}",
                    r.version,
                    name_field(&r.initiator),
                    colour_char(r.follower),
                    r.minutes.min(999),
                    r.moves.min(999),
                )
            }
            Message::GameAcc { name, code } => format!("A{}{}", name_field(name), code % 10),
            Message::Move(m) => {
                let mut s = format!(
                    "M{:04}{:02}{:02}{:02}",
                    m.seconds.min(9999),
                    m.from,
                    m.to,
                    m.captured.len()
                );
                for c in &m.captured {
                    s.push_str(&format!("{c:02}"));
                }
                s
            }
            Message::GameEnd { reason, stop } => {
                format!("E{}{}", reason.code(), if *stop { '1' } else { '0' })
            }
            Message::Chat(text) => {
                let clean: String = text.chars().map(printable).take(MAX_LEN - 1).collect();
                format!("C{clean}")
            }
            Message::BackReq {
                move_number,
                to_move,
            } => format!("B{:03}{}", move_number.min(&999), colour_char(*to_move)),
            Message::BackAcc { code } => format!("K{}", code % 10),
        }
    }
}

/// The DXP position string (50 squares, `e w z W Z`) of a position: the Hub string without
/// its side to move, with `z` (*zwart*) for black.
#[must_use]
pub fn position_squares(pos: &Position<G10>) -> String {
    hub::write_position(pos)
        .chars()
        .skip(1)
        .map(|c| match c {
            'b' => 'z',
            'B' => 'Z',
            c => c,
        })
        .collect()
}

/// Why a GAMEREQ's position cannot start a game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum StartError {
    /// A square letter other than `e w z W Z`.
    #[error("{0:?} is not a DXP square letter (e w z W Z)")]
    Letter(char),
    /// The pieces are not a position of international draughts (a man on its promotion
    /// row).
    #[error(transparent)]
    Position(#[from] hub::Error),
    /// The side to move has no legal move: the game would be over before it starts.
    #[error("{} is to move and has no legal move ({fen})", side_name(*.to_move))]
    NoLegalMove {
        /// The side to move.
        to_move: Side,
        /// The position, as FEN.
        fen: String,
    },
}

/// The position a GAMEREQ starts from, checked: no man on its promotion row, and the side to
/// move has a legal move.
///
/// # Errors
/// Why the position cannot start a game.
pub fn start_position(start: &StartPosition) -> Result<Position<G10>, StartError> {
    let pos = match start {
        StartPosition::Initial => {
            return Position::start(&INTERNATIONAL).map_err(|e| hub::Error::from(e).into())
        }
        StartPosition::Setup { to_move, squares } => {
            if let Some(c) = squares
                .chars()
                .find(|c| !matches!(c, 'e' | 'w' | 'z' | 'W' | 'Z'))
            {
                return Err(StartError::Letter(c));
            }
            let hub: String = std::iter::once(to_move.letter())
                .chain(squares.chars().map(|c| match c {
                    'z' => 'b',
                    'Z' => 'B',
                    c => c,
                }))
                .collect();
            hub::parse_position::<G10>(&INTERNATIONAL, &hub)?
        }
    };
    if !pos.has_legal_move() {
        return Err(StartError::NoLegalMove {
            to_move: pos.side_to_move(),
            fen: fen::write(&pos),
        });
    }
    Ok(pos)
}

/// `White` or `Black`.
pub(crate) fn side_name(side: Side) -> &'static str {
    match side {
        Side::White => "White",
        Side::Black => "Black",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_examples_read_and_write_back() {
        let cases = [
            "M0012061100",
            "M001205250422122320",
            "ATornado voor Windows 4.0        0",
            "R01Tornado voor Windows 4.0        W060065A",
            "E00",
            "E21",
            "CWhat do you think about move 35?",
            "B005Z",
            "K1",
        ];
        for text in cases {
            let m = parse(text.as_bytes()).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(m.encode(), text, "{m:?}");
        }
        assert_eq!(
            parse(b"M001205250422122320").unwrap(),
            Message::Move(DxpMove {
                seconds: 12,
                from: 5,
                to: 25,
                captured: vec![22, 12, 23, 20],
            })
        );
        match parse(b"R01Tornado voor Windows 4.0        W060065A").unwrap() {
            Message::GameReq(r) => {
                assert_eq!(r.initiator, "Tornado voor Windows 4.0");
                assert_eq!(r.follower, Side::White);
                assert_eq!((r.minutes, r.moves), (60, 65));
                assert_eq!(r.start, StartPosition::Initial);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn pydraughts_gamereq_with_a_position() {
        // What pydraughts' DXPEngine sends: always a set-up position ('B').
        let start = Position::<G10>::start(&INTERNATIONAL).unwrap();
        let text = format!(
            "R01{:<32}Z001000BW{}",
            "DXP Client",
            position_squares(&start)
        );
        let Message::GameReq(r) = parse(text.as_bytes()).unwrap() else {
            panic!()
        };
        assert_eq!(r.follower, Side::Black);
        assert_eq!(start_position(&r.start).unwrap(), start);
        assert_eq!(Message::GameReq(r).encode(), text);
        assert_eq!(&position_squares(&start)[..21], "zzzzzzzzzzzzzzzzzzzze");
    }

    #[test]
    fn impossible_start_positions_are_refused() {
        let mut squares = "e".repeat(50);
        // A white man on square 3 (White's promotion row).
        squares.replace_range(2..3, "w");
        squares.replace_range(30..31, "z");
        let bad = StartPosition::Setup {
            to_move: Side::White,
            squares: squares.clone(),
        };
        assert!(start_position(&bad).is_err());
        // White to move with no piece at all.
        let none = StartPosition::Setup {
            to_move: Side::White,
            squares: format!("z{}", "e".repeat(49)),
        };
        let e = start_position(&none).unwrap_err().to_string();
        assert!(e.contains("no legal move"), "{e}");
        let fine = StartPosition::Setup {
            to_move: Side::Black,
            squares: format!("z{}w", "e".repeat(48)),
        };
        assert!(start_position(&fine).is_ok());
    }

    #[test]
    fn malformed_messages_get_clear_errors() {
        let cases: &[(&[u8], &str)] = &[
            (b"", "empty"),
            (b"X123", "unknown message type"),
            (b"M00120611", "too short: number captured"),
            (b"M0012061101", "too short: captured square 1"),
            (b"M001206110012", "unexpected characters"),
            (b"M00a2061100", "time must be 4 digits"),
            (b"M0012511100", "from square 51"),
            (b"M0012000100", "from square 00"),
            (b"M0012061121", "more than 20"),
            (b"E4", "reason must be 0..3"),
            (b"E0", "too short: stop code"),
            (b"E02", "stop code must be 0 or 1"),
            (b"E000", "unexpected characters"),
            (b"R01short", "too short: initiator name"),
            (
                b"R01Tornado voor Windows 4.0        X060065A",
                "follower colour must be W or Z",
            ),
            (
                b"R01Tornado voor Windows 4.0        W06006",
                "too short: number of moves",
            ),
            (
                b"R01Tornado voor Windows 4.0        W060065C",
                "starting position must be A or B",
            ),
            (
                b"R01Tornado voor Windows 4.0        W060065BWeee",
                "too short: position",
            ),
            (b"Rx1", "version must be 2 digits"),
            (b"A", "acceptance code is missing"),
            (b"ATornado x", "acceptance code must be a digit"),
            (b"B05Z", "move number must be 3 digits"),
            (b"B005Q", "colour to move must be W or Z"),
            (b"K", "too short"),
            (b"M0012\xff611", "not an ASCII character"),
            (b"C\x00", "not an ASCII character"),
        ];
        for (bytes, want) in cases {
            let e = parse(bytes).expect_err(&String::from_utf8_lossy(bytes));
            assert!(
                e.to_string().contains(want),
                "{:?}: {e} (wanted {want:?})",
                String::from_utf8_lossy(bytes)
            );
        }
        let long = [b'C'; 128];
        assert!(parse(&long)
            .unwrap_err()
            .to_string()
            .contains("more than the 127"));
        let mut pos = "R01Tornado voor Windows 4.0        W060065BW".to_string();
        pos.push_str(&"e".repeat(49));
        pos.push('x');
        let e = parse(pos.as_bytes()).unwrap_err().to_string();
        assert!(e.contains("square 50 of the position"), "{e}");
        // A later version is read no further (it is refused with code 1).
        let Message::GameReq(r) = parse(b"R02whatever").unwrap() else {
            panic!()
        };
        assert_eq!(r.version, 2);
    }

    #[test]
    fn names_are_fixed_width_and_never_start_blank() {
        assert_eq!(name_field("  x").len(), 32);
        assert!(name_field("  x").starts_with('x'));
        assert_eq!(name_field(&"y".repeat(40)), "y".repeat(32));
        assert_eq!(name_field(""), format!("{:<32}", "?"));
        let chat = Message::Chat(format!("a\0b{}", "c".repeat(200))).encode();
        assert_eq!(chat.len(), MAX_LEN);
        assert!(parse(chat.as_bytes()).is_ok());
    }
}
