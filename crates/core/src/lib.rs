//! The vocabulary every tablier game shares: [`Side`], the [`Game`] trait, [`Outcome`], the
//! typed refusals ([`ParseActionError`], [`IllegalAction`], [`ActionError`]), the [`Player`]
//! trait every engine implements, and seedable [`Dice`].
//!
//! Rules crates implement [`Game`] on their state type; engines implement [`Player`] for the
//! games they play; the server and the tools drive any game through these two traits without
//! knowing a rule.
//!
//! # Example
//! ```
//! use tablier_core::{Dice, SeededDice, Side};
//!
//! let mut dice = SeededDice::from_seed([7; 32]);
//! let a = dice.roll();
//! assert!((1..=6).contains(&a));
//! // The same seed gives the same rolls: replays can be verified.
//! let mut again = SeededDice::from_seed([7; 32]);
//! assert_eq!(again.roll(), a);
//! assert_eq!(Side::White.opposite(), Side::Black);
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod dice;
mod game;
mod player;

pub use dice::{Dice, SeededDice};
pub use game::{
    ActionError, Actor, Game, IllegalAction, Outcome, ParseActionError, ParseErrorKind,
};
pub use player::{Budget, Explanation, Player};

use serde::{Deserialize, Serialize};

/// One of the two players.
///
/// Draughts and backgammon use the colours of the pieces; in trictrac the two players are
/// also told apart by colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Side {
    /// The player with the light pieces.
    White,
    /// The player with the dark pieces.
    Black,
}

impl Side {
    /// Both sides, white first.
    pub const ALL: [Side; 2] = [Side::White, Side::Black];

    /// The other side.
    #[must_use]
    pub const fn opposite(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }

    /// 0 for white, 1 for black: an index into per-side arrays.
    #[must_use]
    pub const fn index(self) -> usize {
        match self {
            Side::White => 0,
            Side::Black => 1,
        }
    }

    /// The letter used by FEN and most game records: `W` or `B`.
    #[must_use]
    pub const fn letter(self) -> char {
        match self {
            Side::White => 'W',
            Side::Black => 'B',
        }
    }
}

impl std::ops::Not for Side {
    type Output = Side;
    fn not(self) -> Side {
        self.opposite()
    }
}

impl std::fmt::Display for Side {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Side::White => "white",
            Side::Black => "black",
        })
    }
}
