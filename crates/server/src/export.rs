//! Finished (or running) games in their family's file format: PDN for draughts, the `.mat`
//! match file for backgammon, the JSON-lines record for trictrac.

use tablier_backgammon::game::{Action, Match, Options};
use tablier_core::Game;

use crate::room::Room;
use crate::table::Family;

/// (MIME type, text) of a game's record.
///
/// # Errors
/// When the log does not replay (which the room's own checks make impossible).
pub fn export(room: &Room) -> Result<(&'static str, String), String> {
    if room.spec.game.family != Family::Backgammon {
        let (kind, _, text) = room.table_copy().export();
        return Ok((kind, text));
    }
    // Backgammon: the match file is written from the actions, through the rules crate.
    let record = room.record();
    let length = room.spec.game.match_length.unwrap_or(0);
    let mut options = if length == 0 {
        Options::money()
    } else {
        Options::match_to(length)
    };
    if length == 0 {
        options.jacoby = room.spec.game.jacoby.unwrap_or(true);
        options.beavers = room.spec.game.beavers.unwrap_or(false);
    }
    options.cube = room.spec.game.cube.unwrap_or(true);
    let mut m = Match::new(options);
    let mut actions: Vec<Action> = Vec::new();
    for a in record["actions"].as_array().into_iter().flatten() {
        let text = a["action"].as_str().unwrap_or_default();
        if text.starts_with('!') {
            continue;
        }
        let action = m.parse_action(text).map_err(|e| e.to_string())?;
        m.apply(&action).map_err(|e| e.to_string())?;
        actions.push(action);
    }
    let file = tablier_backgammon::record::to_mat(options, ["white", "black"], &actions)
        .map_err(|e| e.to_string())?;
    Ok(("text/plain; charset=utf-8", file.to_string()))
}
