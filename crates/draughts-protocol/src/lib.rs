//! The draughts engine's protocols: how tablier's engine talks to GUIs and to other
//! programs, and how two engines are set against each other.
//!
//! ```
//! use tablier_draughts::{Position, G10, INTERNATIONAL};
//! use tablier_draughts_protocol::{dxp, hub};
//!
//! // Hub: a GUI sets the position; the line reads into its command and arguments.
//! let start = Position::<G10>::start(&INTERNATIONAL).unwrap();
//! let line = format!("pos pos={} moves=\"32-28 19-23\"", hub::write_position(&start));
//! let (command, args) = hub::parse_line(&line).unwrap();
//! assert_eq!(command, "pos");
//! let pos = hub::parse_position::<G10>(&INTERNATIONAL, hub::argument(&args, "pos").unwrap());
//! assert_eq!(pos.unwrap(), start);
//! let first = hub::parse_move(&start, "32-28").unwrap();
//! assert_eq!(hub::write_move(&first), "32-28");
//!
//! // DXP: a move (5x25 taking 22, 12, 23 and 20, after 12 seconds) as its bytes, and back.
//! let message = dxp::parse(b"M001205250422122320").unwrap();
//! let dxp::Message::Move(m) = &message else { panic!("a move") };
//! assert_eq!((m.from, m.to, m.captured.len()), (5, 25, 4));
//! assert_eq!(dxp::frame(&message), b"M001205250422122320\0");
//! assert!(dxp::parse(b"M0012061121").is_err()); // 21 captured squares: never
//! ```
//!
//! * [`hub`]: the Hub protocol, lines of text on standard input and output: the codec, the
//!   engine side ([`hub::engine`], what `tablier hub` runs) and the GUI side
//!   ([`hub::client`], driving another program's engine).
//! * [`dxp`]: the DamExchange protocol of international draughts: the messages and their
//!   bytes, and sessions of our engine as follower or initiator over any byte stream
//!   ([`dxp::session`]; `tablier dxp` runs them over TCP).
//! * [`match_runner`]: engine against engine from balloted openings, with the score, the Elo
//!   difference and PDN of the games (`tablier match`); [`results`]: a match's games kept in
//!   a file, so that a long run can stop and go on.
//!
//! The codecs do no I/O; the sessions take their streams as arguments.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod dxp;
pub mod hub;
pub mod match_runner;
pub mod results;
pub mod score;

mod limits;
#[cfg(test)]
mod test_util;

use std::time::Duration;

pub use limits::{memory_limit, seconds, MAX_SECONDS};

/// What a contestant may spend on one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// Thinking time per move.
    Time(Duration),
    /// A fixed search depth (plies): results that do not depend on the machine's load.
    Depth(u32),
    /// A game clock: the time left on the side's clock for the rest of the game (no
    /// increment). In a match's [`match_runner::Rules`] it is each side's time for the
    /// whole game; the runner hands each move the time that side has left.
    Clock(Duration),
}
