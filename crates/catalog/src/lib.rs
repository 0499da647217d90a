//! The games of tablier as the server and the tools see them, between the rules crates and
//! the server: no network, no database, no clock of its own.
//!
//! * [`spec`]: what a game is ([`Family`], [`GameSpec`], [`TableSpec`] with its clock).
//! * [`table`]: every game behind one object-safe [`Table`] with actions in the game's own
//!   notation; each family's module ([`draughts`], [`backgammon`], [`trictrac`]) adds to its
//!   rules its engine levels, its file format ([`Export`]) and its review value, and
//!   [`games`] names the game of a spec. Adding a game to tablier means adding a module here
//!   and a line to [`games`], never touching the server.
//! * [`levels`]: the engine levels offered to people, and an engine's time on a clock.
//! * [`action`]: what a seat sends, read once at the edge ([`SeatAction`], [`TableAction`]).
//! * [`referee`]: one game's log, dice, offers, clocks and result ([`Referee`]), pure.
//! * [`record`], [`verify`](fn@verify), [`review`](fn@review): a game's record, its proof
//!   against the commitment published at the start, and the engine's review.
//!
//! # Example
//! ```
//! use tablier_catalog::{verify, Referee, SeatAction, TableSpec};
//! use tablier_core::Side;
//!
//! // A game of English draughts in which Black resigns after White's first move.
//! let spec: TableSpec = serde_json::from_str(r#"{"family": "draughts", "variant": "english"}"#).unwrap();
//! let mut game = Referee::new(spec, [42; 32], 1_000).unwrap();
//! game.act(Side::Black, &SeatAction::parse("11-15").unwrap(), 2_000).unwrap();
//! game.act(Side::White, &SeatAction::parse("!resign").unwrap(), 3_000).unwrap();
//! // Its record proves it: the seed is revealed, every action replays.
//! let record = serde_json::to_value(game.record("abc")).unwrap();
//! let proof = verify(&record).unwrap();
//! assert_eq!(proof.result.winner, Some(Side::Black));
//! assert_eq!(proof.actions, 2);
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod action;
pub mod backgammon;
pub mod draughts;
pub mod export;
pub mod games;
pub mod import;
pub mod levels;
pub mod record;
pub mod referee;
pub mod review;
pub mod spec;
pub mod table;
pub mod trictrac;
pub mod verify;

pub use action::{SeatAction, SeatActionError, TableAction, MAX_ACTION_LEN};
pub use export::{Export, ExportInfo};
pub use games::new_table;
pub use record::{commitment_for, side_name, GameResult, LoggedAction, Record};
pub use referee::{BrowsedPosition, RecordError, Referee, Refusal, RESUME};
pub use review::{review, review_positions, Review, ReviewedPosition};
pub use spec::{
    ClockSpec, Family, GameSpec, SpecError, TableSpec, DRAUGHTS_VARIANTS, TRICTRAC_EDITION,
};
pub use table::{Listed, Table};
pub use verify::{verify, NotVerified, Verified};
