//! The review of a finished game: every position in force with the engine's judgement of it
//! (for the review page's graph) and its view (to draw it).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use tablier_core::{Actor, Side};

use crate::record::side_name;
use crate::referee::{RecordError, Referee, ReviewPosition};
use crate::spec::Family;
use crate::table::Table;

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
    /// For a move judged (see [`review`]): the legal move the judge prefers in the position
    /// before it, when the move played is not as good.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best: Option<String>,
    /// For a move judged: how much less it is worth to its mover than the judge's best, in
    /// the review's unit (0 when it is the best).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loss: Option<f64>,
    /// `?` (a mistake) or `??` (a blunder) by the family's thresholds
    /// ([`crate::Family::review_marks`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mark: Option<String>,
}

/// A game's review: the unit of its values and its positions, the start first.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Review {
    /// What the values measure.
    pub unit: String,
    /// Every position in force (moves taken back and table actions left out).
    pub positions: Vec<ReviewedPosition>,
    /// The losses from which a move is marked `?` and `??`.
    pub marks: [f64; 2],
}

/// Reviews `game`: replays its log and judges every position (this takes the engine's time:
/// a draughts position is searched to depth 6), then every move a player chose among
/// several: each legal move of the position before it is valued by the judgement of the
/// position it leads to, for the mover; the best of them is named when the move played is
/// worth less, with the loss and its mark. Only moves whose position after them is judged
/// are compared (draughts moves, backgammon checker plays, trictrac plays; not the cube, a
/// resignation, going or staying, whose positions the graph does not value).
///
/// # Errors
/// [`RecordError`] when the log does not replay.
pub fn review(game: &Referee) -> Result<Review, RecordError> {
    Ok(review_positions(
        game.spec().game.family,
        &game.review_tables()?,
    ))
}

/// Reviews a game given as its positions ([`Referee::review_tables`]'s, or an imported
/// record's: [`crate::import`]), as [`review`] does.
#[must_use]
pub fn review_positions(family: Family, tables: &[ReviewPosition]) -> Review {
    let marks = family.review_marks();
    let mut positions: Vec<ReviewedPosition> = Vec::with_capacity(tables.len());
    for (i, (a, t)) in tables.iter().enumerate() {
        let value = t.review_value();
        let judged = match (a, i.checked_sub(1), value) {
            (Some(a), Some(before), Some(v)) => judge(tables[before].1.as_ref(), &a.side, v),
            _ => None,
        };
        let (best, loss) = judged.unzip();
        let loss = loss.map(|l: f64| (l * 1000.0).round() / 1000.0);
        let mark = loss.and_then(|l| {
            if l >= marks[1] {
                Some("??".to_owned())
            } else if l >= marks[0] {
                Some("?".to_owned())
            } else {
                None
            }
        });
        positions.push(ReviewedPosition {
            n: a.as_ref().map(|a| a.n),
            side: a.as_ref().map(|a| a.side.clone()),
            action: a.as_ref().map(|a| a.action.clone()),
            value,
            view: t.view(),
            best: best.flatten(),
            loss,
            mark,
        });
    }
    Review {
        unit: family.review_unit().to_owned(),
        positions,
        marks,
    }
}

/// Judges the move of `side` (`white` or `black`) from `before` that led to a position
/// valued `played` (White's side): the judge's best move when it is worth more than the one
/// played, and the loss. `None` when the position before is not that player's to move, or
/// fewer than two of its moves lead to a judged position.
fn judge(before: &dyn Table, side: &str, played: f64) -> Option<(Option<String>, f64)> {
    let mover = match before.actor() {
        Actor::Player(s) if side_name(s) == side => s,
        _ => return None,
    };
    let sign = if mover == Side::White { 1.0 } else { -1.0 };
    let mut best: Option<(String, f64)> = None;
    let mut valued = 0;
    for m in before.legal() {
        let mut t = before.boxed_clone();
        if t.apply(m).is_err() {
            continue;
        }
        let Some(v) = t.review_value() else { continue };
        valued += 1;
        if best.as_ref().is_none_or(|b| sign * v > sign * b.1) {
            best = Some((m.clone(), v));
        }
    }
    let (m, v) = best.filter(|_| valued >= 2)?;
    let loss = (sign * (v - played)).max(0.0);
    // A loss below a thousandth of the unit is the same move or one as good.
    Some(((loss >= 1e-3).then_some(m), loss))
}
