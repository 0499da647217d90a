//! The review of a finished game: every position in force with the engine's judgement of it
//! (for the review page's graph) and its view (to draw it).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::referee::{RecordError, Referee};

/// One position of a review: the action that led to it (none at the start), the engine's
/// judgement from White's side in the review's unit, and the game's view of it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReviewedPosition {
    /// The log number of the action that led here.
    pub n: Option<i64>,
    /// Who made it (`white`, `black`, empty for the dice).
    pub side: Option<String>,
    /// The action, in notation.
    pub action: Option<String>,
    /// The engine's judgement (see [`crate::Family::review_unit`]); `None` where the family
    /// judges no position.
    pub value: Option<f64>,
    /// The game's view of the position.
    pub view: Value,
}

/// A game's review: the unit of its values and its positions, the start first.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Review {
    /// What the values measure.
    pub unit: String,
    /// Every position in force (moves taken back and table actions left out).
    pub positions: Vec<ReviewedPosition>,
}

/// Reviews `game`: replays its log and judges every position (this takes the engine's time:
/// a draughts position is searched to depth 6).
///
/// # Errors
/// [`RecordError`] when the log does not replay.
pub fn review(game: &Referee) -> Result<Review, RecordError> {
    let positions = game
        .review_tables()?
        .into_iter()
        .map(|(a, t)| ReviewedPosition {
            n: a.as_ref().map(|a| a.n),
            side: a.as_ref().map(|a| a.side.clone()),
            action: a.map(|a| a.action),
            value: t.review_value(),
            view: t.view(),
        })
        .collect();
    Ok(Review {
        unit: game.spec().game.family.review_unit().to_owned(),
        positions,
    })
}
