//! FEN for draughts (PDN 3.0 `fen.rst`): `W:W31-50:B1-20`.
//!
//! Read: the side to move, then one section per colour in either order; `K` before a square
//! or a range marks kings; ranges `31-50`; numeric or algebraic (`a1`) squares; an empty or
//! missing section for a side with no pieces (`W:W28`, `B:W50:B`); a trailing dot; and the
//! move counters lidraughts and pydraughts append (`:H0:F1`), which are skipped.
//!
//! Written: white's section first, squares in increasing order, runs of three or more
//! consecutive squares of the same kind as ranges, kings with `K`.
//!
//! # Example
//! ```
//! use tablier_draughts::{fen, Position, G10, INTERNATIONAL};
//!
//! let p: Position<G10> = fen::parse(&INTERNATIONAL, "B:B1-20:W31-50").unwrap();
//! assert_eq!(fen::write(&p), "B:W31-50:B1-20");
//! assert!(fen::parse::<G10>(&INTERNATIONAL, "W:W31-51").is_err());
//! ```

use crate::geometry::Geometry;
use crate::position::{Piece, Position, PositionError};
use crate::variant::Variant;
use tablier_core::Side;

/// Why a FEN string could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// The string is empty.
    #[error("empty FEN")]
    Empty,
    /// The side to move is not `W` or `B`.
    #[error("side to move must be W or B, found {0:?}")]
    BadTurn(String),
    /// A section does not start with a colour.
    #[error("section {0:?} does not start with W or B")]
    BadSection(String),
    /// The same colour has two sections.
    #[error("colour {0} has two sections")]
    RepeatedColour(char),
    /// A square that cannot be read.
    #[error("cannot read square {0:?}")]
    BadSquare(String),
    /// A range whose end is before its start.
    #[error("range {0:?} runs backwards")]
    BadRange(String),
    /// The pieces do not form a position of the variant.
    #[error(transparent)]
    Position(#[from] PositionError),
}

/// Reads one square: a number `1..=squares` or an algebraic square (`a1` is white's bottom
/// left corner).
fn parse_square<G: Geometry>(text: &str) -> Result<u32, FenError> {
    let bad = || FenError::BadSquare(text.to_string());
    let t = text.trim();
    let first = t.chars().next().ok_or_else(bad)?;
    let square = if first.is_ascii_digit() {
        if t.len() > 3 || !t.chars().all(|c| c.is_ascii_digit()) {
            return Err(bad());
        }
        t.parse::<u32>().map_err(|_| bad())?
    } else if first.is_ascii_lowercase() {
        let file = u32::from(first) - u32::from('a');
        let rank_text = &t[1..];
        if rank_text.is_empty()
            || rank_text.len() > 2
            || !rank_text.chars().all(|c| c.is_ascii_digit())
        {
            return Err(bad());
        }
        let rank: u32 = rank_text.parse().map_err(|_| bad())?;
        if rank == 0 || rank > G::N {
            return Err(bad());
        }
        G::square_at(G::N - rank, file).ok_or_else(bad)?
    } else {
        return Err(bad());
    };
    if square == 0 || square > G::SQUARES {
        return Err(bad());
    }
    Ok(square)
}

/// Reads a FEN for `variant`.
///
/// # Errors
/// A [`FenError`] naming the part that is wrong; nothing panics on any input.
pub fn parse<G: Geometry>(variant: &'static Variant, text: &str) -> Result<Position<G>, FenError> {
    let text = text.trim().trim_matches('"');
    let text = text.strip_suffix('.').unwrap_or(text);
    if text.is_empty() {
        return Err(FenError::Empty);
    }
    let mut parts = text.split(':');
    let turn = parts.next().unwrap_or_default().trim();
    let side = match turn {
        "W" | "w" => Side::White,
        "B" | "b" => Side::Black,
        other => return Err(FenError::BadTurn(other.to_string())),
    };
    let mut pos = Position::<G>::empty(variant, side)?;
    let mut seen = [false; 2];
    for section in parts {
        let section = section.trim();
        let mut chars = section.chars();
        let colour = match chars.next() {
            Some('W' | 'w') => Side::White,
            Some('B' | 'b') => Side::Black,
            // Move counters (`H0`, `F12`) written by lidraughts and pydraughts.
            Some('H' | 'F') if section[1..].chars().all(|c| c.is_ascii_digit()) => continue,
            _ => return Err(FenError::BadSection(section.to_string())),
        };
        if std::mem::replace(&mut seen[colour.index()], true) {
            return Err(FenError::RepeatedColour(colour.letter()));
        }
        let body = chars.as_str().trim();
        if body.is_empty() {
            continue;
        }
        for item in body.split(',') {
            let item = item.trim();
            let (king, item) = match item.strip_prefix(['K', 'k']) {
                Some(rest) => (true, rest),
                None => (false, item),
            };
            let (a, b) = match item.split_once('-') {
                Some((a, b)) => (parse_square::<G>(a)?, parse_square::<G>(b)?),
                None => {
                    let s = parse_square::<G>(item)?;
                    (s, s)
                }
            };
            if b < a {
                return Err(FenError::BadRange(item.to_string()));
            }
            for s in a..=b {
                pos.put(s, Piece { side: colour, king })?;
            }
        }
    }
    Ok(pos)
}

/// Writes `pos` as FEN, with ranges (`W:W31-50:B1-20`).
#[must_use]
pub fn write<G: Geometry>(pos: &Position<G>) -> String {
    write_with(pos, true)
}

/// Writes `pos` as FEN listing every square (`W:W31,32,...`), for programs that do not read
/// ranges.
#[must_use]
pub fn write_plain<G: Geometry>(pos: &Position<G>) -> String {
    write_with(pos, false)
}

fn write_with<G: Geometry>(pos: &Position<G>, ranges: bool) -> String {
    let mut out = String::new();
    out.push(pos.side_to_move().letter());
    for side in Side::ALL {
        out.push(':');
        out.push(side.letter());
        let mut items: Vec<String> = Vec::new();
        let mut s = 1;
        while s <= G::SQUARES {
            let Some(p) = pos.piece_at(s).filter(|p| p.side == side) else {
                s += 1;
                continue;
            };
            let mut e = s;
            while ranges && pos.piece_at(e + 1) == Some(p) {
                e += 1;
            }
            let k = if p.king { "K" } else { "" };
            if e >= s + 2 {
                items.push(format!("{k}{s}-{e}"));
            } else {
                for q in s..=e {
                    items.push(format!("{k}{q}"));
                }
            }
            s = e + 1;
        }
        out.push_str(&items.join(","));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{BRAZILIAN, CANADIAN, ENGLISH, G10, G12, G8, INTERNATIONAL};

    #[test]
    fn start_positions_round_trip() {
        let p = Position::<G10>::start(&INTERNATIONAL).unwrap();
        assert_eq!(write(&p), "W:W31-50:B1-20");
        assert_eq!(parse::<G10>(&INTERNATIONAL, "W:W31-50:B1-20").unwrap(), p);
        let e = Position::<G8>::start(&ENGLISH).unwrap();
        assert_eq!(write(&e), "B:W21-32:B1-12");
        let c = Position::<G12>::start(&CANADIAN).unwrap();
        assert_eq!(write(&c), "W:W43-72:B1-30");
    }

    #[test]
    fn kings_empty_sides_counters_and_algebraic() {
        let p = parse::<G10>(&INTERNATIONAL, "W:WK28").unwrap();
        assert_eq!(write(&p), "W:WK28:B");
        assert_eq!(parse::<G10>(&INTERNATIONAL, "W:WK28:B").unwrap(), p);
        let q = parse::<G10>(
            &INTERNATIONAL,
            "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29:H0:F2.",
        )
        .unwrap();
        assert_eq!(write(&q), "B:WK10,K15,18,24,27,28:B12,16,20,K22,K25,K29");
        // a1 is square 29 of the 8x8 board, h8 square 4.
        let b = parse::<G8>(&BRAZILIAN, "W:Wa1,c1:Bh8").unwrap();
        assert_eq!(write(&b), "W:W29,30:B4");
        assert_eq!(
            parse::<G10>(&INTERNATIONAL, "W:WK31-33")
                .unwrap()
                .count(Side::White),
            (0, 3)
        );
    }

    #[test]
    fn errors() {
        for bad in [
            "", "X:W1", "W:W0", "W:W51", "W:W1:W2", "W:W10-5", "W:Wz9", "W:W1,,2", "W:Q1",
            "W:W1:B1", "W:W3", "B:B48", "W:W:W",
        ] {
            assert!(parse::<G10>(&INTERNATIONAL, bad).is_err(), "{bad}");
        }
    }
}
