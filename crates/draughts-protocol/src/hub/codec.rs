//! Hub lines, positions, moves and scores as text: reading and writing, no I/O.

use tablier_core::Side;
use tablier_draughts::{Geometry, Move, Piece, Position, PositionError, Variant};
use tablier_draughts_engine::search::{is_mate, TABLE_WIN};
use tablier_draughts_engine::WIN;

/// The arguments of a Hub line, in order: `name=value` pairs, or a bare `name` (a flag, with
/// no value).
pub type Arguments = Vec<(String, Option<String>)>;

/// What is wrong with a Hub line, position or move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A value opened with `"` is never closed.
    #[error("unterminated quote after {name}=")]
    UnterminatedQuote {
        /// The argument whose value is unterminated.
        name: String,
    },
    /// A position string whose length is not the side to move plus one letter per square.
    #[error(
        "a {variant} position has {expected} characters (side + {squares} squares), not {found}"
    )]
    PositionLength {
        /// The variant's name.
        variant: &'static str,
        /// Characters a position of the variant has.
        expected: u32,
        /// Playing squares of the variant's board.
        squares: u32,
        /// Characters the text has.
        found: usize,
    },
    /// The first letter of a position is not `W` or `B`.
    #[error("side to move must be W or B, not {0:?}")]
    SideToMove(char),
    /// A square letter other than `w b W B e` (or `.`).
    #[error("unknown square letter {letter:?} at square {square}")]
    SquareLetter {
        /// The letter found where a square number was expected.
        letter: char,
        /// Its square (1-based).
        square: usize,
    },
    /// The pieces are not a position of the variant (a man on its promotion row...).
    #[error(transparent)]
    Position(#[from] PositionError),
    /// A move text that is not square numbers joined by `-`, `x` or `:`.
    #[error("unreadable move {0:?}")]
    UnreadableMove(String),
    /// A move that no legal move matches.
    #[error("{0} is not a legal move here")]
    IllegalMove(String),
    /// A capture whose squares match several legal moves.
    #[error("{0} is ambiguous: list the captured squares")]
    AmbiguousMove(String),
}

/// Splits a Hub line into its command and arguments (values may be quoted; a flag has no
/// value): `pos pos=Wbbe moves="32-28 18-23"` is `pos` with `pos` and `moves`.
///
/// # Errors
/// An unterminated quote.
pub fn parse_line(line: &str) -> Result<(String, Arguments), Error> {
    let line = line.trim();
    let (cmd, mut rest) = match line.find(char::is_whitespace) {
        Some(i) => (&line[..i], line[i..].trim_start()),
        None => (line, ""),
    };
    let mut args = Vec::new();
    while !rest.is_empty() {
        let end = rest.find(|c: char| c == '=' || c.is_whitespace());
        let (name, after) = match end {
            Some(i) => (&rest[..i], &rest[i..]),
            None => (rest, ""),
        };
        if let Some(v) = after.strip_prefix('=') {
            let (value, next) = if let Some(q) = v.strip_prefix('"') {
                let close = q.find('"').ok_or_else(|| Error::UnterminatedQuote {
                    name: name.to_string(),
                })?;
                (&q[..close], &q[close + 1..])
            } else {
                let e = v.find(char::is_whitespace).unwrap_or(v.len());
                (&v[..e], &v[e..])
            };
            args.push((name.to_string(), Some(value.to_string())));
            rest = next.trim_start();
        } else {
            args.push((name.to_string(), None));
            rest = after.trim_start();
        }
    }
    Ok((cmd.to_string(), args))
}

/// The value of the argument `name` (the first one so named); `None` when it is absent or a
/// flag.
#[must_use]
pub fn argument<'a>(args: &'a [(String, Option<String>)], name: &str) -> Option<&'a str> {
    args.iter()
        .find(|(n, _)| n == name)
        .and_then(|(_, v)| v.as_deref())
}

/// An `error` line: the message's own quotes become `'`, so that it stays one value.
#[must_use]
pub fn error_line(message: impl std::fmt::Display) -> String {
    format!(
        "error message=\"{}\"",
        message.to_string().replace('"', "'")
    )
}

/// The Hub position string: the side to move then one letter per square (`w b W B e`), as
/// `pos pos=...` sends it.
#[must_use]
pub fn write_position<G: Geometry>(pos: &Position<G>) -> String {
    let mut s = String::with_capacity(G::SQUARES as usize + 1);
    s.push(pos.side_to_move().letter());
    for sq in 1..=G::SQUARES {
        s.push(match pos.piece_at(sq) {
            None => 'e',
            Some(Piece {
                side: Side::White,
                king: false,
            }) => 'w',
            Some(Piece {
                side: Side::White,
                king: true,
            }) => 'W',
            Some(Piece {
                side: Side::Black,
                king: false,
            }) => 'b',
            Some(Piece {
                side: Side::Black,
                king: true,
            }) => 'B',
        });
    }
    s
}

/// Reads a Hub position string for `variant` (`.` is taken for an empty square too).
///
/// # Errors
/// A wrong length, an unknown letter, or pieces that are not a position of the variant.
pub fn parse_position<G: Geometry>(
    variant: &'static Variant,
    text: &str,
) -> Result<Position<G>, Error> {
    let chars: Vec<char> = text.chars().collect();
    if chars.len() != G::SQUARES as usize + 1 {
        return Err(Error::PositionLength {
            variant: variant.name,
            expected: G::SQUARES + 1,
            squares: G::SQUARES,
            found: chars.len(),
        });
    }
    let side = match chars[0] {
        'W' | 'w' => Side::White,
        'B' | 'b' => Side::Black,
        c => return Err(Error::SideToMove(c)),
    };
    let mut pieces = Vec::new();
    for (i, &c) in chars[1..].iter().enumerate() {
        let piece = match c {
            'e' | '.' => continue,
            'w' => (Side::White, false),
            'W' => (Side::White, true),
            'b' => (Side::Black, false),
            'B' => (Side::Black, true),
            letter => {
                return Err(Error::SquareLetter {
                    letter,
                    square: i + 1,
                })
            }
        };
        pieces.push((
            i as u32 + 1,
            Piece {
                side: piece.0,
                king: piece.1,
            },
        ));
    }
    Ok(Position::from_pieces(variant, side, &pieces)?)
}

/// A move in Hub notation: `32-28`, or `from x to x captured…` for a capture (the captured
/// squares in the order the move generator lists them).
#[must_use]
pub fn write_move<G: Geometry>(m: &Move<G>) -> String {
    if m.is_capture() {
        let mut s = format!("{}x{}", m.from(), m.to());
        for c in m.captured_squares() {
            s.push_str(&format!("x{c}"));
        }
        s
    } else {
        format!("{}-{}", m.from(), m.to())
    }
}

/// Finds the legal move of `pos` that a Hub move text names: `from-to`, or `fromxto`
/// followed by the captured squares in any order (needed only when two captures share their
/// ends).
///
/// # Errors
/// Unreadable text, or no legal move (or more than one) matching it.
pub fn parse_move<G: Geometry>(pos: &Position<G>, text: &str) -> Result<Move<G>, Error> {
    let unreadable = || Error::UnreadableMove(text.to_string());
    let nums: Vec<u8> = text
        .split(['-', 'x', 'X', ':'])
        .map(|t| t.trim().parse::<u8>())
        .collect::<Result<_, _>>()
        .map_err(|_| unreadable())?;
    if nums.len() < 2 {
        return Err(unreadable());
    }
    let (from, to) = (nums[0], nums[1]);
    let mut captured: Vec<u8> = nums[2..].to_vec();
    captured.sort_unstable();
    let candidates: Vec<Move<G>> = pos
        .legal_moves()
        .into_iter()
        .filter(|m| {
            m.from() == from
                && m.to() == to
                && (captured.is_empty() || m.captured_squares() == captured)
        })
        .collect();
    match candidates.as_slice() {
        [m] => Ok(*m),
        [] => Err(Error::IllegalMove(text.to_string())),
        _ => Err(Error::AmbiguousMove(text.to_string())),
    }
}

/// A search score (centi-men, side to move's view) for Hub `info` lines, in men: wins found
/// by the search near ±99 (Scan's convention, which pydraughts reads as a win in so many
/// moves), wins of the endgame tables near ±89, other scores as they are (`0.35`).
#[must_use]
pub fn write_score(score: i32) -> String {
    let men = if is_mate(score) {
        let plies = WIN - score.abs();
        score.signum() as f64 * (100.0 - f64::from(plies) / 100.0)
    } else if score.abs() >= TABLE_WIN - 1000 {
        score.signum() as f64 * 89.0 + f64::from((score.abs() - TABLE_WIN) % 100) / 100.0
    } else {
        f64::from(score) / 100.0
    };
    format!("{men:.2}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use tablier_draughts::{G10, INTERNATIONAL};

    #[test]
    fn hub_lines() {
        let (c, a) = parse_line(r#"pos pos=Wbbe moves="32-28 18-23" flag"#).unwrap();
        assert_eq!(c, "pos");
        assert_eq!(argument(&a, "pos"), Some("Wbbe"));
        assert_eq!(argument(&a, "moves"), Some("32-28 18-23"));
        assert!(a.iter().any(|(n, v)| n == "flag" && v.is_none()));
        assert!(parse_line(r#"id name="unterminated"#).is_err());
        let (c, a) = parse_line("go").unwrap();
        assert_eq!((c.as_str(), a.len()), ("go", 0));
    }

    #[test]
    fn hub_positions_and_moves() {
        let start = Position::<G10>::start(&INTERNATIONAL).unwrap();
        let s = write_position(&start);
        assert_eq!(s, "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww");
        assert_eq!(parse_position::<G10>(&INTERNATIONAL, &s).unwrap(), start);
        assert!(parse_position::<G10>(&INTERNATIONAL, "Wbb").is_err());
        assert!(parse_position::<G10>(&INTERNATIONAL, &s.replace('e', "x")).is_err());
        let m = parse_move(&start, "32-28").unwrap();
        assert_eq!(write_move(&m), "32-28");
        assert!(parse_move(&start, "32-27x").is_err());
        assert!(parse_move(&start, "18-23").is_err());
        // Captured squares in any order.
        // 27 takes 22 (landing on 18), then 12 (landing on 7).
        let p = tablier_draughts::fen::parse::<G10>(&INTERNATIONAL, "W:W27:B22,12").unwrap();
        let m = parse_move(&p, "27x7x12x22").unwrap();
        assert_eq!(write_move(&m), "27x7x12x22");
        assert_eq!(parse_move(&p, "27x7x22x12").unwrap(), m);
        assert!(parse_move(&p, "27x7x22").is_err());
    }
}
