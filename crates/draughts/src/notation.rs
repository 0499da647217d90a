//! Move notation: `32-28`, `28x19`, and `28x37x46` with intermediate landing squares when they
//! are needed to tell two moves apart (PDN 3.0: the complete path, every turning square, or the
//! square right behind a captured piece where the piece goes on straight).
//!
//! Parsing is two steps, as in shakmaty: the text is read as syntax ([`MoveText`]), then
//! resolved against a position. The short form of a capture that several legal moves share is
//! an error that names the candidates.
//!
//! # Example
//! ```
//! use tablier_draughts::{fen, notation, Position, G10, INTERNATIONAL};
//!
//! // Two king captures from 4 to 15 that take different pieces.
//! let p: Position<G10> = fen::parse(&INTERNATIONAL, "W:WK4:B13,32,37,20").unwrap();
//! let err = notation::parse(&p, "4x15").unwrap_err();
//! assert!(err.to_string().contains("ambiguous"));
//! let names: Vec<String> = p.legal_moves().iter().map(|m| notation::format(&p, m)).collect();
//! assert_eq!(names.len(), 2);
//! for name in &names {
//!     let m = notation::parse(&p, name).unwrap();
//!     assert_eq!(&notation::format(&p, &m), name);
//! }
//! ```

use crate::geometry::Geometry;
use crate::position::{Move, Position};

/// The syntax of a move: its squares in order and whether it was written as a capture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveText {
    /// The squares as written (start, any intermediate landing squares, end).
    pub squares: Vec<u32>,
    /// Whether `x` or `:` separated the squares.
    pub capture: bool,
}

/// Why a move text could not be read or resolved.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    /// Not of the form `a-b` or `axbx...`.
    #[error("cannot read move {0:?}: expected squares separated by - or x")]
    Syntax(String),
    /// No legal move matches.
    #[error("no legal move {text} in this position{hint}")]
    NoSuchMove {
        /// The text as given.
        text: String,
        /// Legal moves of the same piece, or the legal moves, to help.
        hint: String,
    },
    /// Several legal moves match the text.
    #[error("move {text} is ambiguous: it could be {}", candidates.join(" or "))]
    Ambiguous {
        /// The text as given.
        text: String,
        /// The matching moves in full notation.
        candidates: Vec<String>,
    },
}

impl NotationError {
    /// The same refusal for a caller that reads actions of any game (the server, the
    /// catalog): its words, and its kind with the candidates of an ambiguous move.
    #[must_use]
    pub fn into_action_error(self, text: &str) -> tablier_core::ParseActionError {
        use tablier_core::ParseActionError;
        let reason = self.to_string();
        match self {
            NotationError::Syntax(_) => ParseActionError::syntax(text, reason),
            NotationError::NoSuchMove { .. } => ParseActionError::not_legal(text, reason),
            NotationError::Ambiguous { candidates, .. } => {
                ParseActionError::ambiguous(text, reason, candidates)
            }
        }
    }
}

impl MoveText {
    /// Reads the syntax of a move (numeric squares only; leading zeros allowed).
    ///
    /// # Errors
    /// [`NotationError::Syntax`] on anything else.
    pub fn parse(text: &str) -> Result<MoveText, NotationError> {
        let bad = || NotationError::Syntax(text.to_string());
        let t = text.trim();
        let capture = t.contains(['x', 'X', ':']);
        if capture && t.contains('-') {
            return Err(bad());
        }
        let squares = t
            .split(['x', 'X', ':', '-'])
            .map(|p| {
                let p = p.trim();
                if p.is_empty() || p.len() > 3 || !p.bytes().all(|b| b.is_ascii_digit()) {
                    Err(bad())
                } else {
                    p.parse::<u32>().map_err(|_| bad())
                }
            })
            .collect::<Result<Vec<u32>, _>>()?;
        if squares.len() < 2 || (!capture && squares.len() != 2) {
            return Err(bad());
        }
        Ok(MoveText { squares, capture })
    }
}

/// Number of diagonal steps between two squares on one diagonal.
fn distance<G: Geometry>(a: u8, b: u8) -> u32 {
    let (ra, _) = G::row_col(u32::from(a));
    let (rb, _) = G::row_col(u32::from(b));
    ra.abs_diff(rb)
}

/// The path PDN writes for a capture: start, landing squares, end. Where the piece may stop on
/// several squares and goes on in the same direction, the square right behind the captured
/// piece is written (the shortest first segments win).
#[must_use]
pub fn capture_path<G: Geometry>(pos: &Position<G>, m: &Move<G>) -> Vec<u8> {
    let paths = pos.capture_paths(m);
    paths
        .into_iter()
        .min_by_key(|p| {
            p.windows(2)
                .map(|w| distance::<G>(w[0], w[1]))
                .collect::<Vec<u32>>()
        })
        .unwrap_or_else(|| vec![m.from(), m.to()])
}

fn join(path: &[u8]) -> String {
    path.iter().map(u8::to_string).collect::<Vec<_>>().join("x")
}

/// The move in notation, with the full path only when another legal move has the same start
/// and end.
#[must_use]
pub fn format<G: Geometry>(pos: &Position<G>, m: &Move<G>) -> String {
    if !m.is_capture() {
        return format!("{}-{}", m.from(), m.to());
    }
    let shared = pos
        .legal_moves()
        .iter()
        .any(|o| o != m && o.from() == m.from() && o.to() == m.to());
    if shared {
        join(&capture_path(pos, m))
    } else {
        format!("{}x{}", m.from(), m.to())
    }
}

/// The move in notation with its full path for a capture (for programs that want it).
#[must_use]
pub fn format_full<G: Geometry>(pos: &Position<G>, m: &Move<G>) -> String {
    if m.is_capture() {
        join(&capture_path(pos, m))
    } else {
        format!("{}-{}", m.from(), m.to())
    }
}

/// Whether `want` appears in `path` in order (not necessarily next to each other).
fn is_subsequence(want: &[u32], path: &[u8]) -> bool {
    let mut it = path.iter();
    want.iter().all(|w| it.any(|p| u32::from(*p) == *w))
}

/// Resolves move text against a position.
///
/// # Errors
/// [`NotationError`]: bad syntax, no such legal move, or an ambiguous short form.
pub fn parse<G: Geometry>(pos: &Position<G>, text: &str) -> Result<Move<G>, NotationError> {
    let mt = MoveText::parse(text)?;
    resolve(pos, &mt, text)
}

/// Where several moves match a text (possible only where captures are optional, as in the old
/// French rules: a quiet move and a capture with the same ends, or a capture and a longer one
/// coming back to the same square), keeps those of the written kind (`-` or `x`), then the one
/// whose path is exactly the squares written.
fn narrow<G: Geometry>(pos: &Position<G>, mt: &MoveText, candidates: Vec<Move<G>>) -> Vec<Move<G>> {
    if candidates.len() < 2 {
        return candidates;
    }
    let same_kind: Vec<Move<G>> = candidates
        .iter()
        .filter(|m| m.is_capture() == mt.capture)
        .copied()
        .collect();
    let candidates = if same_kind.is_empty() {
        candidates
    } else {
        same_kind
    };
    let exact: Vec<Move<G>> = candidates
        .iter()
        .filter(|m| {
            m.is_capture()
                && pos.capture_paths(m).iter().any(|p| {
                    p.len() == mt.squares.len()
                        && p.iter().zip(&mt.squares).all(|(a, b)| u32::from(*a) == *b)
                })
        })
        .copied()
        .collect();
    if exact.len() == 1 {
        exact
    } else {
        candidates
    }
}

/// Resolves parsed move syntax against a position (see [`parse`]).
///
/// # Errors
/// As [`parse`].
pub fn resolve<G: Geometry>(
    pos: &Position<G>,
    mt: &MoveText,
    text: &str,
) -> Result<Move<G>, NotationError> {
    let legal = pos.legal_moves();
    let from = mt.squares[0];
    let to = *mt.squares.last().unwrap_or(&0);
    let inner = &mt.squares[1..mt.squares.len() - 1];
    let candidates: Vec<Move<G>> = legal
        .iter()
        .filter(|m| u32::from(m.from()) == from && u32::from(m.to()) == to)
        .filter(|m| {
            inner.is_empty()
                || pos
                    .capture_paths(m)
                    .iter()
                    .any(|p| is_subsequence(inner, &p[1..p.len() - 1]))
        })
        .copied()
        .collect();
    let candidates = narrow(pos, mt, candidates);
    match candidates.len() {
        1 => Ok(candidates[0]),
        0 => {
            let same_piece: Vec<String> = legal
                .iter()
                .filter(|m| u32::from(m.from()) == from)
                .map(|m| format(pos, m))
                .collect();
            let hint = if same_piece.is_empty() {
                let all: Vec<String> = legal.iter().map(|m| format(pos, m)).collect();
                if all.is_empty() {
                    " (no legal move at all)".to_string()
                } else {
                    format!(" (legal: {})", all.join(" "))
                }
            } else {
                format!(" (that piece may play: {})", same_piece.join(" "))
            };
            Err(NotationError::NoSuchMove {
                text: text.trim().to_string(),
                hint,
            })
        }
        _ => Err(NotationError::Ambiguous {
            text: text.trim().to_string(),
            candidates: candidates
                .iter()
                .map(|m| join(&capture_path(pos, m)))
                .collect(),
        }),
    }
}
