//! The backgammon engine of tablier: a neural-net evaluator trained here by self-play, an
//! exact one-sided bear-off database, 0/1/2-ply search, levels for people, cube decisions and
//! rollouts, the analysis of played matches, and gnubg's external-player protocol (the socket
//! itself is the CLI's).
//!
//! * [`eval`]: the five outcome probabilities of a position (contact net, crashed net, race
//!   net, bear-off database) — [`net`] is the hand-written perceptron and its `TBG1` weights
//!   format, [`encode`] its inputs, [`bearoff`] the database, [`train`] the self-play trainer.
//! * [`search`]: n-ply evaluation, move choice with move filters, levels 0 to [`MAX_LEVEL`].
//! * [`cube`]: Janowski cubeful equities, money and match (Kazaross-XG2 table) decisions.
//! * [`player`]: the action the engine takes in a [`tablier_backgammon::game::Match`].
//! * [`rollout`], [`analysis`], [`fibs`] (gnubg's `board:` lines).
//!
//! ```
//! use tablier_backgammon::{Position, Roll};
//! use tablier_backgammon_engine::eval::{equity, Evaluator, Scratch};
//!
//! let ev = Evaluator::shipped();
//! let mut scratch = Scratch::default();
//! let plays = Position::start().legal_plays(Roll::new(3, 1).unwrap());
//! let (best, probs) = ev.best_play_0ply(&plays, &mut scratch);
//! assert!(probs[0] > 0.0 && probs[0] < 1.0);
//! assert!(equity(&probs).abs() < 1.0);
//! println!("3-1 at the start: {}", tablier_backgammon::notation::format_play(&plays[best]));
//! ```

#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod analysis;
pub mod bearoff;
pub mod cube;
pub mod encode;
pub mod escape;
pub mod eval;
pub mod fibs;
pub mod net;
pub mod player;
pub mod rollout;
pub mod search;
pub mod supervised;
pub mod train;

pub use search::MAX_LEVEL;
