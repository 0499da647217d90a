//! The Hub protocol (version 2, as reference/draughts/PROTOCOLS.md §1 describes it): a GUI
//! and an engine exchange lines of text, a command followed by `name=value` arguments.
//!
//! * The codec (this module's functions): lines ([`parse_line`], [`argument`],
//!   [`error_line`]), positions ([`write_position`], [`parse_position`]: the side to move, then
//!   one letter per square), moves ([`write_move`], [`parse_move`]) and scores
//!   ([`write_score`]). No I/O.
//! * [`engine`]: the engine side, a [`engine::Session`] that handles the GUI's lines, and
//!   [`engine::run`], the whole engine over any pair of streams (`tablier hub` gives it
//!   standard input and output).
//! * [`client`]: the GUI side, a [`client::Client`] that drives another program's engine.

mod codec;

pub mod client;
pub mod engine;

pub use codec::{
    argument, error_line, parse_line, parse_move, parse_position, write_move, write_position,
    write_score, Arguments, Error,
};
