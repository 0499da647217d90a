//! `tablier verify`: a finished game's record proven against the commitment published when
//! it started, every roll recomputed and every action replayed by the rules.

use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::record::{
    commitment_for, cut, describe_result, hex, seed_from_hex, GameResult, LoggedAction,
};
use crate::referee::{Referee, RESUME};
use crate::spec::TableSpec;

/// What [`verify`] found in a game record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verified {
    /// Actions replayed.
    pub actions: usize,
    /// Rolls recomputed from the seed.
    pub rolls: usize,
    /// How the game ended, as the replay finds it (and the record says).
    pub result: GameResult,
}

/// A record that does not prove what it says: the first thing that does not hold, in words,
/// with the action's number (values quoted are cut to 40 characters).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct NotVerified(pub String);

/// Checks a finished game's record, as `GET /api/games/{id}/record` gives it
/// ([`crate::Record`]):
/// - the revealed seed and the spec hash to the commitment published at the start
///   ([`crate::commitment_for`]), so neither the dice nor the rules (variant, match length,
///   cube, clock) can have been changed;
/// - the actions are numbered 1, 2, ... with times that never go back; every roll is the
///   one the seed gives, every player's action is legal when it is made, and nothing
///   follows the end of the game;
/// - a loss on time (`!flag`) is the clock's: the game has a clock and the flagged side's
///   time, computed from the recorded times, had run out;
/// - the replay ends where the record says: the game over, with the recorded winner,
///   points and reason.
///
/// # Errors
/// [`NotVerified`]: the first thing that does not hold.
pub fn verify(record: &Value) -> Result<Verified, NotVerified> {
    check(record).map_err(NotVerified)
}

fn check(record: &Value) -> Result<Verified, String> {
    if !record.is_object() {
        return Err("a game record is a JSON object".into());
    }
    let spec: TableSpec = serde_json::from_value(record["spec"].clone())
        .map_err(|e| format!("spec: {}", cut(&e.to_string())))?;
    let seed_hex = match &record["seed"] {
        Value::Null => {
            return Err(
                "the record has no seed: the game is not over, so it is still secret".into(),
            )
        }
        v => v.as_str().ok_or("the seed is not a string")?,
    };
    let seed = seed_from_hex(seed_hex).ok_or("the seed is not 64 hex digits")?;
    let commitment = record["commitment"]
        .as_str()
        .ok_or("the record has no commitment")?;
    if commitment_for(&seed, &spec) != commitment {
        return Err(if hex(&Sha256::digest(seed)) == commitment {
            "the commitment covers the dice seed only (a record made before the spec was committed): its spec cannot be proven".into()
        } else {
            "the seed and the spec do not hash to the commitment published at the start".into()
        });
    }
    let actions: Vec<LoggedAction> = serde_json::from_value(record["actions"].clone())
        .map_err(|e| format!("actions: {}", cut(&e.to_string())))?;
    let claimed: Option<GameResult> = serde_json::from_value(record["result"].clone())
        .map_err(|e| format!("result: {}", cut(&e.to_string())))?;
    let mut game = Referee::new(spec, seed, 0).map_err(|e| e.to_string())?;
    let mut rolls = 0;
    for (i, a) in actions.iter().enumerate() {
        if a.n != i as i64 + 1 {
            return Err(format!("action {} is numbered {}", i + 1, a.n));
        }
        if a.side.is_empty() && a.action != RESUME {
            rolls += 1;
        }
        game.replay(a).map_err(|e| e.0)?;
    }
    let Some(result) = game.result().cloned() else {
        return Err(format!(
            "the record stops before the game is over ({} actions replayed; {} is to act)",
            actions.len(),
            game.actor_name()
        ));
    };
    if claimed.as_ref() != Some(&result) {
        return Err(format!(
            "the record says the result is {}, its actions give {}",
            describe_result(claimed.as_ref()),
            describe_result(Some(&result))
        ));
    }
    Ok(Verified {
        actions: actions.len(),
        rolls,
        result,
    })
}
