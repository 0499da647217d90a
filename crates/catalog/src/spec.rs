//! What a game is before it starts: its [`Family`], its [`GameSpec`] (variant and options)
//! and, for a game with a clock, its [`TableSpec`].

use serde::{Deserialize, Serialize};

/// The three families of games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Family {
    /// Draughts, every variant.
    Draughts,
    /// Backgammon: money games and matches.
    Backgammon,
    /// Grand trictrac.
    Trictrac,
}

impl Family {
    /// Whether players may offer each other a draw (and take back moves): draughts, as on
    /// lidraughts. The dice games have no draw, and a play is undone within the turn, before
    /// it is sent: once the next roll is seen, nothing goes back.
    #[must_use]
    pub fn has_offers(self) -> bool {
        self == Family::Draughts
    }

    /// What the review graph measures: draughts in men (the engine's score at depth 6),
    /// backgammon in White's chance to win the game in percent (0-ply, cubeless), trictrac in
    /// White's chance to win the partie in 12 holes in percent (the engine's evaluation).
    #[must_use]
    pub fn review_unit(self) -> &'static str {
        match self {
            Family::Draughts => "men",
            Family::Backgammon => "% to win",
            Family::Trictrac => "% partie",
        }
    }

    /// From how much a move loses against the judge's best, in the review's unit and for the
    /// mover, it is marked a mistake (`?`) and a blunder (`??`): draughts 0.5 and 1.5 men (as
    /// `tablier analyse`), backgammon 4 and 8 points of the chance to win (about gnubg's
    /// 0.08 and 0.16 of cubeless equity), trictrac 4 and 8 points of the chance of the
    /// partie.
    #[must_use]
    pub fn review_marks(self) -> [f64; 2] {
        match self {
            Family::Draughts => [0.5, 1.5],
            Family::Backgammon | Family::Trictrac => [4.0, 8.0],
        }
    }
}

/// What a new game is: its family, variant and options, as a client asks for it. Options
/// that do not apply to the family are ignored.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameSpec {
    /// Which family of games: draughts, backgammon or trictrac.
    pub family: Family,
    /// The draughts variant (one of [`DRAUGHTS_VARIANTS`]; absent: international).
    #[serde(default)]
    pub variant: Option<String>,
    /// Backgammon: points to win the match (0 or absent: a money game).
    #[serde(default)]
    pub match_length: Option<u32>,
    /// Backgammon money games: the Jacoby rule (default on).
    #[serde(default)]
    pub jacoby: Option<bool>,
    /// Backgammon money games: beavers (default off).
    #[serde(default)]
    pub beavers: Option<bool>,
    /// Backgammon: the cube is used (default on).
    #[serde(default)]
    pub cube: Option<bool>,
    /// Trictrac: players mark their own points and claim écoles (default off: automatic).
    #[serde(default)]
    pub ecoles: Option<bool>,
    /// Trictrac: the edition of tablier's rules the game follows (see
    /// `tablier_trictrac::Edition`): 1, bearing off the last dame a duty (games created
    /// before 2026-11-26); 2, a right ([`TRICTRAC_EDITION`], the current one). Absent: 1, a
    /// spec stored before editions existed — [`GameSpec::for_new_game`] writes the current
    /// edition into every new game's spec, so that it too replays under its own rules.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub edition: Option<u8>,
    /// A position to start from instead of the rules' own start (absent: the usual start): a
    /// FEN for draughts (on the variant's board), an XGID for backgammon (whose match length,
    /// score, cube, turn and dice the game takes), and for trictrac a board in tablier's
    /// notation (`1W15-24B15`), White to throw, or followed by `;black` for Black. Skipped
    /// when absent, so that older specs and their commitments are unchanged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<String>,
}

/// The current edition of tablier's trictrac rules (see [`GameSpec::edition`]).
pub const TRICTRAC_EDITION: u8 = 2;

impl GameSpec {
    /// The spec of a game created now: a trictrac spec that names no edition gets the
    /// current one ([`TRICTRAC_EDITION`]).
    ///
    /// ```
    /// use tablier_catalog::GameSpec;
    ///
    /// let asked: GameSpec = serde_json::from_str(r#"{"family": "trictrac"}"#).unwrap();
    /// assert_eq!(asked.edition, None);
    /// assert_eq!(asked.for_new_game().edition, Some(2));
    /// ```
    #[must_use]
    pub fn for_new_game(mut self) -> GameSpec {
        if self.family == Family::Trictrac && self.edition.is_none() {
            self.edition = Some(TRICTRAC_EDITION);
        }
        self
    }
}

/// A game clock: a reserve of time each, seconds added per move (Fischer, as on lidraughts)
/// and seconds of delay per move (the backgammon servers' clock, Galaxy's and FIBS's: each
/// move's first seconds are free, the reserve runs after them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockSpec {
    /// Starting time (the reserve) per side, in seconds.
    pub initial_s: u32,
    /// Added after each of the side's actions, in seconds.
    pub increment_s: u32,
    /// At each of the side's actions, the seconds of thinking not charged to its reserve
    /// (0: none; left out of the spec then, so that a clock without delay is written as
    /// before and its games' commitments are unchanged).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub delay_s: u32,
}

// serde's `skip_serializing_if` takes a reference.
#[allow(clippy::trivially_copy_pass_by_ref)]
fn is_zero(x: &u32) -> bool {
    *x == 0
}

/// A game as it is played at a table: the game and its clock. This is what a game's
/// commitment covers (see [`crate::record::commitment_for`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TableSpec {
    /// The family, variant and options (flattened: the same JSON object as the clock).
    #[serde(flatten)]
    pub game: GameSpec,
    /// The clock, if any.
    #[serde(default)]
    pub clock: Option<ClockSpec>,
}

/// The draughts variants offered (`french-old`: the old French rules, with huffing, on the
/// 10x10 board).
pub const DRAUGHTS_VARIANTS: [&str; 5] = [
    "international",
    "brazilian",
    "canadian",
    "english",
    "french-old",
];

/// The longest backgammon match offered, in points.
pub const MAX_MATCH_LENGTH: u32 = 64;

/// A spec that names no game tablier plays.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    /// The draughts variant is not one of [`DRAUGHTS_VARIANTS`].
    #[error("unknown draughts variant {name:?} (one of {})", DRAUGHTS_VARIANTS.join(", "))]
    UnknownVariant {
        /// The name asked for.
        name: String,
    },
    /// A backgammon match longer than [`MAX_MATCH_LENGTH`].
    #[error("a match is at most {MAX_MATCH_LENGTH} points")]
    MatchTooLong,
    /// The rules could not set up the start (a variant's start position).
    #[error("{0}")]
    Start(String),
    /// A trictrac edition other than 1 and [`TRICTRAC_EDITION`].
    #[error("unknown trictrac rules edition {0} (1 or {TRICTRAC_EDITION})")]
    UnknownEdition(u8),
    /// The start position does not read, or is not one the rules can play from.
    #[error("the start position {text:?} cannot be played from: {reason}")]
    BadStart {
        /// The position as given (cut to 200 characters).
        text: String,
        /// Why.
        reason: String,
    },
}

impl SpecError {
    /// A [`SpecError::BadStart`] for `text`.
    pub(crate) fn bad_start(text: &str, reason: impl std::fmt::Display) -> SpecError {
        SpecError::BadStart {
            text: text.chars().take(200).collect(),
            reason: reason.to_string(),
        }
    }
}
