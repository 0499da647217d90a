//! Grand trictrac rules (work in progress).
#![forbid(unsafe_code)]

pub mod board;
pub mod plays;
pub mod scoring;

pub use board::{Board, PositionError, Table};
pub use plays::{Play, PlaySet, Roll, Step};
pub use scoring::{Event, EventKind, JanContext, RollScore};
pub mod chances;
