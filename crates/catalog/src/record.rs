//! A game's log and record: the actions as they were accepted ([`LoggedAction`]), how the
//! game ended ([`GameResult`]), the commitment to its dice seed and spec published at the
//! start ([`commitment_for`]), and the record a finished game is proven by ([`Record`],
//! checked by [`crate::verify()`]).

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use tablier_core::Side;

use crate::spec::TableSpec;

/// One action of a game's log, as it was accepted and stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LoggedAction {
    /// 1-based number within the game.
    pub n: i64,
    /// `white`, `black`, or empty for chance (dice) and the server's own entries.
    pub side: String,
    /// The action in the game's notation, or a table action (`!resign`, `!draw-offer`, ...).
    pub action: String,
    /// Milliseconds since the Unix epoch when it was accepted.
    pub at_ms: i64,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameResult {
    /// The winner (`None`: a draw).
    pub winner: Option<Side>,
    /// Points (backgammon: the match or the game's value; draughts 1; trictrac holes).
    pub points: u32,
    /// `rules`, `resign`, `time`, `draw-agreed`.
    pub reason: String,
}

/// A game's record: what `GET /api/games/{id}/record` gives and `tablier verify` checks.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// The public game id.
    pub id: String,
    /// The game and its clock.
    pub spec: TableSpec,
    /// The commitment published at the start ([`commitment_for`]).
    pub commitment: String,
    /// The dice seed in hex, revealed once the game is over (`None` before).
    pub seed: Option<String>,
    /// Every action, in order.
    pub actions: Vec<LoggedAction>,
    /// How the game ended, once over.
    pub result: Option<GameResult>,
}

/// The commitment published when a game starts: the SHA-256, in hex, of a domain tag, the
/// 32-byte dice seed and the game's spec as JSON (the family, variant, options and clock).
/// Revealing the seed at the end proves both that the dice were drawn from it and that the
/// game was played under that spec: changing the match length, the cube or the clock of a
/// record changes its commitment.
///
/// ```
/// use tablier_catalog::{commitment_for, Family, GameSpec, TableSpec};
///
/// let spec: TableSpec = serde_json::from_str(r#"{"family": "backgammon", "match_length": 5}"#).unwrap();
/// let mut longer = spec.clone();
/// longer.game.match_length = Some(7);
/// assert_ne!(commitment_for(&[1; 32], &spec), commitment_for(&[1; 32], &longer));
/// assert_eq!(commitment_for(&[1; 32], &spec).len(), 64);
/// ```
#[must_use]
pub fn commitment_for(seed: &[u8; 32], spec: &TableSpec) -> String {
    let mut h = Sha256::new();
    h.update(b"tablier commitment v2\0");
    h.update(seed);
    h.update(serde_json::to_vec(spec).expect("a spec is serialisable"));
    hex(&h.finalize())
}

/// Lowercase hex of bytes.
#[must_use]
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The bytes of a hex string (`None` if it is not one).
#[must_use]
pub fn unhex(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(s.get(i..i + 2)?, 16).ok())
        .collect()
}

/// A 32-byte seed from its hex (`None` unless exactly 64 hex digits).
#[must_use]
pub fn seed_from_hex(s: &str) -> Option<[u8; 32]> {
    unhex(s).and_then(|v| v.try_into().ok())
}

/// The name a side has in logs and messages: `white` or `black`.
#[must_use]
pub fn side_name(s: Side) -> &'static str {
    match s {
        Side::White => "white",
        Side::Black => "black",
    }
}

/// The side a log names (`white`, `black`); `None` for anything else.
#[must_use]
pub fn side_from(name: &str) -> Option<Side> {
    match name {
        "white" => Some(Side::White),
        "black" => Some(Side::Black),
        _ => None,
    }
}

/// A value quoted in an error message, cut to its first 40 characters.
pub(crate) fn cut(s: &str) -> String {
    const MAX: usize = 40;
    match s.char_indices().nth(MAX) {
        None => s.to_owned(),
        Some((i, _)) => format!("{}… ({} bytes)", &s[..i], s.len()),
    }
}

/// A result in words, for messages.
pub(crate) fn describe_result(r: Option<&GameResult>) -> String {
    match r {
        None => "none (the game goes on)".into(),
        Some(r) => {
            let who = match r.winner {
                Some(s) => format!("{} wins", side_name(s)),
                None => "a draw".into(),
            };
            format!("{who}, {} points, by {}", r.points, r.reason)
        }
    }
}
