//! Backgammon rules (seed 004): positions, legal plays, the doubling cube, money games and
//! matches, and the formats other programs use (gnubg Position ID and Match ID, XGID, `.mat`).
//!
//! # Example
//! ```
//! use tablier_backgammon::Position;
//!
//! let start = Position::start();
//! assert_eq!(start.pip_count(), (167, 167));
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod game;
pub mod ids;
pub mod mat;
pub mod movegen;
pub mod notation;
pub mod position;
pub mod record;
pub mod xgid;

pub use movegen::{Hop, Play, Roll};
pub use position::{Position, PositionError, BAR, CHECKERS, OPP_BAR};
