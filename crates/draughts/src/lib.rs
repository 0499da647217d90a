//! Draughts rules for every variant tablier plays, as data.
//!
//! One [`Variant`] description (board, men, kings, capture obligation, promotion, draw rules)
//! drives one move generator. Boards are [`Geometry`] types: [`G8`], [`G10`], [`G12`].
//!
//! The old French rules ([`FRENCH_OLD`], captures enforced by huffing, *souffler*) have their
//! own game type with more actions than moves: [`french::FrenchGame`]; see [`french`] for
//! the rules as tablier reads seed 000, the notation of huffs, the PDN `GameType` and the
//! perft convention.
//!
//! # Example
//! ```
//! use tablier_draughts::{Position, G10, INTERNATIONAL};
//!
//! let start = Position::<G10>::start(&INTERNATIONAL).unwrap();
//! let moves = start.legal_moves();
//! assert_eq!(moves.len(), 9);
//! assert_eq!(start.perft(4), 4265);
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod bits;
pub mod fen;
pub mod french;
pub mod game;
pub mod geometry;
pub mod notation;
pub mod pdn;
pub mod position;
pub mod replay;
pub mod variant;

pub use bits::Bits;
pub use geometry::{Dir, Geometry, G10, G12, G8};
pub use position::{Move, Piece, Position, PositionError};
pub use variant::{
    BoardSize, CaptureRule, DrawRules, Promotion, Variant, BRAZILIAN, CANADIAN, ENGLISH,
    FRENCH_OLD, INTERNATIONAL, VARIANTS,
};

/// Runs `$body` with `$g` bound to the [`Geometry`] type of a [`BoardSize`] value: the bridge
/// from a variant chosen at run time to the generic position types.
///
/// ```
/// use tablier_draughts::{with_board, Position, Variant};
///
/// let v = Variant::by_name("canadian").unwrap();
/// let n = with_board!(v.board, G => Position::<G>::start(v).unwrap().legal_moves().len());
/// assert_eq!(n, 11);
/// ```
#[macro_export]
macro_rules! with_board {
    ($board:expr, $g:ident => $body:expr) => {
        match $board {
            $crate::BoardSize::Eight => {
                type $g = $crate::G8;
                $body
            }
            $crate::BoardSize::Ten => {
                type $g = $crate::G10;
                $body
            }
            $crate::BoardSize::Twelve => {
                type $g = $crate::G12;
                $body
            }
        }
    };
}

/// A move that is not legal in the position it was played in. The position is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("illegal move {from}-{to}")]
pub struct IllegalMove {
    /// Start square of the refused move.
    pub from: u8,
    /// End square of the refused move.
    pub to: u8,
}
