//! One module per command of `tablier` (its arguments and what it does); `draughts` and
//! `backgammon` also hold what several commands of their game share.

pub mod analyse;
pub mod backgammon;
pub mod bench;
pub mod convert;
pub mod draughts;
pub mod dxp;
pub mod gnubg_external;
pub mod hub;
pub mod r#match;
pub mod perft;
pub mod rollout;
pub mod serve;
pub mod train;
pub mod trictrac;
pub mod ubgi;
pub mod verify;
