//! The board: 24 flèches in absolute numbering (RULES.md §0), the compact position notation
//! (`1W15-24B15`), tables, pleins and the *jan interdit* test.
//!
//! # Numbering
//! Flèche `1..=24` along **White's** path: White's talon is 1, White's coin de repos 12,
//! Black's coin 13, Black's talon 24. White moves 1 → 24 → off (written 25), Black moves
//! 24 → 1 → off (written 0). Rules are written once, from the mover's point of view, in
//! *relative* numbering ([`to_rel`], [`to_abs`]): the mover's talon is 1, his coin 12, the
//! opponent's coin 13, the opponent's talon 24 and the band (off) 25.

use serde::{Deserialize, Serialize};
use tablier_core::Side;

/// Number of dames each player has (n°5, n°12).
pub const DAMES: u8 = 15;
/// Relative index of the mover's coin de repos (his 11th flèche, n°42).
pub const OWN_COIN: u8 = 12;
/// Relative index of the opponent's coin de repos.
pub const THEIR_COIN: u8 = 13;
/// Relative index of the band: a dame moved there is borne off.
pub const OFF: u8 = 25;

/// The absolute index of the relative flèche `rel` (1..=25) of `side`.
#[must_use]
pub const fn to_abs(side: Side, rel: u8) -> u8 {
    match side {
        Side::White => rel,
        Side::Black => 25 - rel,
    }
}

/// The relative index, for `side`, of the absolute flèche `abs` (0..=25).
#[must_use]
pub const fn to_rel(side: Side, abs: u8) -> u8 {
    match side {
        Side::White => abs,
        Side::Black => 25 - abs,
    }
}

/// The three tables where a plein (jan de remplissage) can be made (RULES.md §4, n°47).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Table {
    /// The player's first table: talon and flèches 1–5 (relative 1..=6).
    PetitJan,
    /// The player's second table: flèches 6–11 with the coin (relative 7..=12).
    GrandJan,
    /// The opponent's first table (relative 19..=24).
    JanDeRetour,
}

impl Table {
    /// All three, in the order of travel.
    pub const ALL: [Table; 3] = [Table::PetitJan, Table::GrandJan, Table::JanDeRetour];

    /// The relative flèches of the table, in the owner's order of travel.
    #[must_use]
    pub const fn range(self) -> std::ops::RangeInclusive<u8> {
        match self {
            Table::PetitJan => 1..=6,
            Table::GrandJan => 7..=12,
            Table::JanDeRetour => 19..=24,
        }
    }

    /// The French name.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Table::PetitJan => "petit jan",
            Table::GrandJan => "grand jan",
            Table::JanDeRetour => "jan de retour",
        }
    }
}

/// Which table an absolute flèche is in: `true` for a first table (abs 1–6 or 19–24), which
/// doubles the value of a hit (n°152).
#[must_use]
pub const fn is_first_table(abs: u8) -> bool {
    abs <= 6 || abs >= 19
}

/// A position of the dames: how many of which colour on each flèche, and how many are off.
///
/// A flèche never holds dames of both colours (n°42, 1st law).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Board {
    /// `cells[abs - 1]`: positive = White dames, negative = Black dames.
    cells: [i8; 24],
}

/// Text that is not a position in the notation of RULES.md §0.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// A piece of the text is not `<flèche><W|B><count>`.
    #[error("cannot read {0:?}: expected <flèche 1-24><W|B><count>, e.g. 1W15")]
    Syntax(String),
    /// A flèche outside 1..=24.
    #[error("flèche {0} is not on the board (1-24)")]
    Square(u32),
    /// The same flèche named twice.
    #[error("flèche {0} is named twice")]
    Twice(u8),
    /// More than 15 dames of one colour.
    #[error("{0} has more than 15 dames")]
    TooMany(Side),
}

impl Default for Board {
    fn default() -> Self {
        Board::start()
    }
}

impl Board {
    /// The initial position: every dame on its talon, `1W15-24B15` (n°13, n°25).
    #[must_use]
    pub fn start() -> Board {
        let mut cells = [0; 24];
        cells[0] = 15;
        cells[23] = -15;
        Board { cells }
    }

    /// A board with no dame on it.
    #[must_use]
    pub fn empty() -> Board {
        Board { cells: [0; 24] }
    }

    /// Number of `side`'s dames on absolute flèche `abs` (1..=24).
    #[must_use]
    pub fn count(&self, side: Side, abs: u8) -> u8 {
        let c = self.cells[usize::from(abs - 1)];
        match side {
            Side::White if c > 0 => c.unsigned_abs(),
            Side::Black if c < 0 => c.unsigned_abs(),
            _ => 0,
        }
    }

    /// Who holds absolute flèche `abs`, if anyone.
    #[must_use]
    pub fn owner(&self, abs: u8) -> Option<Side> {
        match self.cells[usize::from(abs - 1)] {
            0 => None,
            c if c > 0 => Some(Side::White),
            _ => Some(Side::Black),
        }
    }

    /// Puts `n` dames of `side` on absolute flèche `abs` (replacing what was there).
    pub fn set(&mut self, abs: u8, side: Side, n: u8) {
        let n = i8::try_from(n).expect("at most 15 dames");
        self.cells[usize::from(abs - 1)] = match side {
            Side::White => n,
            Side::Black => -n,
        };
    }

    /// Dames of `side` on the board.
    #[must_use]
    pub fn on_board(&self, side: Side) -> u8 {
        (1..=24).map(|a| self.count(side, a)).sum()
    }

    /// Dames of `side` borne off: those not on the board (positions with fewer than 15 dames,
    /// like the book's diagrams, count the missing ones as off).
    #[must_use]
    pub fn off(&self, side: Side) -> u8 {
        DAMES - self.on_board(side)
    }

    /// The board from `side`'s point of view: `(mine, theirs)` indexed by relative flèche
    /// 1..=24 (entries 0 and 25 are 0).
    #[must_use]
    pub fn relative(&self, side: Side) -> ([u8; 26], [u8; 26]) {
        let mut mine = [0u8; 26];
        let mut theirs = [0u8; 26];
        for rel in 1..=24u8 {
            let abs = to_abs(side, rel);
            mine[usize::from(rel)] = self.count(side, abs);
            theirs[usize::from(rel)] = self.count(side.opposite(), abs);
        }
        (mine, theirs)
    }

    /// Rebuilds a board from `side`'s relative arrays (the inverse of [`Board::relative`]).
    #[must_use]
    pub fn from_relative(side: Side, mine: &[u8; 26], theirs: &[u8; 26]) -> Board {
        let mut b = Board::empty();
        for rel in 1..=24u8 {
            let abs = to_abs(side, rel);
            if mine[usize::from(rel)] > 0 {
                b.set(abs, side, mine[usize::from(rel)]);
            } else if theirs[usize::from(rel)] > 0 {
                b.set(abs, side.opposite(), theirs[usize::from(rel)]);
            }
        }
        b
    }

    /// Whether `side` holds a plein in `table` (at least two dames on each of its six flèches,
    /// n°47; for the petit jan that includes ≥2 on the talon, n°49).
    #[must_use]
    pub fn has_plein(&self, side: Side, table: Table) -> bool {
        table
            .range()
            .all(|rel| self.count(side, to_abs(side, rel)) >= 2)
    }

    /// The table where `side` holds a plein, if any (never two at once: 24 dames would be
    /// needed).
    #[must_use]
    pub fn plein(&self, side: Side) -> Option<Table> {
        Table::ALL.into_iter().find(|&t| self.has_plein(side, t))
    }

    /// Parses the compact notation of RULES.md §0: `<abs><W|B><count>` joined by `-`, e.g.
    /// `1W2-13B5`. Missing dames are off the board. The empty string (or `-`) is the empty
    /// board.
    ///
    /// # Errors
    /// [`PositionError`] for bad syntax, an unknown flèche, a flèche named twice, or more than
    /// 15 dames of one colour.
    pub fn parse(text: &str) -> Result<Board, PositionError> {
        let mut b = Board::empty();
        let mut seen = [false; 25];
        let text = text.trim();
        if text.is_empty() || text == "-" {
            return Ok(b);
        }
        for part in text.split('-') {
            let part = part.trim();
            let pos = part
                .find(['W', 'B', 'w', 'b'])
                .ok_or_else(|| PositionError::Syntax(part.into()))?;
            let (num, rest) = part.split_at(pos);
            let square: u32 = num
                .parse()
                .map_err(|_| PositionError::Syntax(part.into()))?;
            let side = match &rest[..1] {
                "W" | "w" => Side::White,
                _ => Side::Black,
            };
            let n: u8 = rest[1..]
                .parse()
                .map_err(|_| PositionError::Syntax(part.into()))?;
            if !(1..=24).contains(&square) {
                return Err(PositionError::Square(square));
            }
            let square = square as u8;
            if seen[usize::from(square)] {
                return Err(PositionError::Twice(square));
            }
            seen[usize::from(square)] = true;
            if n > DAMES {
                return Err(PositionError::TooMany(side));
            }
            b.set(square, side, n);
        }
        for side in Side::ALL {
            if b.on_board(side) > DAMES {
                return Err(PositionError::TooMany(side));
            }
        }
        Ok(b)
    }

    /// Whether `side`'s opponent can still make a plein in the table of the opponent's that
    /// holds relative flèche `rel` (13..=24 for `side`): the *jan interdit* test of
    /// RULES.md §3.2 rule 5 (n°61, n°213), read as a counting (Hall) test on the opponent's
    /// dames: with the table's flèches f1..f6 in the opponent's order of travel, for every k
    /// the opponent has at least 2k dames on f_k or behind it. `side`'s own dames there are
    /// ignored.
    #[must_use]
    pub fn opponent_can_fill(theirs: &[u8; 26], rel: u8) -> bool {
        // The opponent travels 24 → 1 in `side`'s relative numbering.
        let f1: u8 = if rel >= 19 { 24 } else { 18 };
        let mut behind: u32 = (f1 + 1..=24)
            .map(|r| u32::from(theirs[usize::from(r)]))
            .sum();
        for k in 1..=6u8 {
            behind += u32::from(theirs[usize::from(f1 + 1 - k)]);
            if behind < 2 * u32::from(k) {
                return false;
            }
        }
        true
    }
}

impl std::fmt::Display for Board {
    /// The compact notation, flèches in increasing absolute order: `1W15-24B15`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut first = true;
        for abs in 1..=24u8 {
            if let Some(side) = self.owner(abs) {
                if !first {
                    f.write_str("-")?;
                }
                first = false;
                write!(f, "{abs}{}{}", side.letter(), self.count(side, abs))?;
            }
        }
        if first {
            f.write_str("-")?;
        }
        Ok(())
    }
}

impl std::str::FromStr for Board {
    type Err = PositionError;
    fn from_str(s: &str) -> Result<Board, PositionError> {
        Board::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_round_trip() {
        for s in [
            "1W15-24B15",
            "7W2-8W3-9W3-10W2-11W3-12W2-13B4-14B3-15B3-17B4-20B1",
        ] {
            assert_eq!(Board::parse(s).unwrap().to_string(), s);
        }
        assert_eq!(Board::start().to_string(), "1W15-24B15");
        assert!(Board::parse("25W1").is_err());
        assert!(Board::parse("1W16").is_err());
        assert!(Board::parse("1W2-1B2").is_err());
        assert!(Board::parse("1X2").is_err());
    }

    #[test]
    fn relative_numbering_n26() {
        // Black's talon is abs 24, his coin abs 13 (n°26, RULES.md §0).
        let b = Board::start();
        let (mine, theirs) = b.relative(Side::Black);
        assert_eq!(mine[1], 15);
        assert_eq!(theirs[24], 15);
        assert_eq!(to_abs(Side::Black, OWN_COIN), 13);
        assert_eq!(Board::from_relative(Side::Black, &mine, &theirs), b);
    }

    #[test]
    fn jan_interdit_counting_n61() {
        // Fig. 13: Black cannot fill his grand jan any more (only one dame behind abs 18).
        let b = Board::parse("7W2-8W3-9W3-10W2-11W3-12W2-13B4-14B3-15B3-17B4-20B1").unwrap();
        let (_, theirs) = b.relative(Side::White);
        assert!(!Board::opponent_can_fill(&theirs, 16));
        // At the start Black can fill both of his tables.
        let (_, theirs) = Board::start().relative(Side::White);
        assert!(Board::opponent_can_fill(&theirs, 16));
        assert!(Board::opponent_can_fill(&theirs, 20));
    }
}
