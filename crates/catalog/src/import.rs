//! Records from elsewhere, opened for review: a PDN file (draughts: every variant tablier
//! plays, the old French rules included, a `FEN` tag's start too) or a gnubg `.mat` file
//! (backgammon: a match or a money session). Each game is replayed against the rules, and its
//! positions are those [`crate::review::review_positions`] judges, as for a game played here.
//!
//! ```
//! use tablier_catalog::import::import;
//!
//! let pdn = "[White \"A\"]\n[Black \"B\"]\n1. 32-28 19-23 2. 28x19 14x23 1-1";
//! let game = import(pdn, 0).unwrap();
//! assert_eq!(game.positions.len(), 5, "the start and four moves");
//! assert_eq!(game.games, ["A - B, 1-1"]);
//! assert!(import("1. 32-28 19-23 2. 31-27 *", 0).unwrap_err().to_string().contains("31-27"));
//! ```

use serde::Serialize;
use tablier_backgammon::game::{Match, Options};
use tablier_backgammon::mat::MatchFile;
use tablier_core::{Actor, Game as _};
use tablier_draughts::{pdn, replay};

use crate::record::{side_name, LoggedAction};
use crate::referee::ReviewPosition;
#[cfg(test)]
use crate::spec::Family;
use crate::spec::GameSpec;
use crate::table::{boxed, Table};

/// The longest record accepted (bytes).
pub const MAX_IMPORT_LEN: usize = 512 * 1024;

/// One game of a record, replayed.
pub struct Imported {
    /// The game as a spec (family, variant or match length, start position).
    pub spec: GameSpec,
    /// The record's games, one line each (`White - Black, result`), in the file's order.
    pub games: Vec<String>,
    /// Which of them this is (0-based).
    pub game: usize,
    /// The players, white (left in a `.mat`) then black.
    pub players: [String; 2],
    /// How the record says the game ended.
    pub result: Option<RecordedResult>,
    /// The start, then the position after each action with the action that led to it.
    pub positions: Vec<ReviewPosition>,
}

impl std::fmt::Debug for Imported {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Imported")
            .field("spec", &self.spec)
            .field("games", &self.games)
            .field("game", &self.game)
            .field("players", &self.players)
            .field("result", &self.result)
            .field("positions", &self.positions.len())
            .finish()
    }
}

/// A game's result as its record gives it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RecordedResult {
    /// The PDN result token (`2-0`, `1-1`, `0-2`, `1-0`...), for draughts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub token: Option<String>,
    /// The winner's side (`white` or `black`), for backgammon.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winner: Option<String>,
    /// The points won, for backgammon.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub points: Option<u32>,
}

/// Why a record cannot be opened: in words, with the game and the move where there is one.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ImportError(pub String);

fn err(what: impl std::fmt::Display) -> ImportError {
    ImportError(what.to_string())
}

/// Reads `text` (a PDN file or a `.mat` file, told apart by the `.mat` header line
/// `N point match`) and replays its game number `game` (0-based).
///
/// # Errors
/// [`ImportError`]: an empty or over-long text, a game number the file lacks, a game that
/// does not parse or replay (the first illegal move named).
pub fn import(text: &str, game: usize) -> Result<Imported, ImportError> {
    if text.len() > MAX_IMPORT_LEN {
        return Err(err(format!(
            "the record is longer than {} KiB",
            MAX_IMPORT_LEN / 1024
        )));
    }
    if text.trim().is_empty() {
        return Err(err(
            "the record is empty: paste a PDN game (draughts) or a .mat file (backgammon)",
        ));
    }
    let is_mat = text.lines().any(|l| {
        let l = l.trim().to_ascii_lowercase();
        l.ends_with("point match")
            && l.split_whitespace()
                .next()
                .is_some_and(|n| n.parse::<u32>().is_ok())
    });
    if is_mat {
        import_mat(text, game)
    } else {
        import_pdn(text, game)
    }
}

/// Applies `texts` to `table` one by one, keeping each position with its action.
fn positions_of(
    mut table: Box<dyn Table>,
    texts: impl IntoIterator<Item = String>,
    label: &str,
) -> Result<Vec<ReviewPosition>, ImportError> {
    let mut out = vec![(None, table.boxed_clone())];
    for (i, text) in texts.into_iter().enumerate() {
        let side = match table.actor() {
            Actor::Player(s) => side_name(s).to_owned(),
            _ => String::new(),
        };
        let written = table
            .apply(&text)
            .map_err(|e| err(format!("{label}: action {} {text:?}: {e}", i + 1)))?;
        let n = i64::try_from(i + 1).unwrap_or(i64::MAX);
        out.push((
            Some(LoggedAction {
                n,
                side,
                action: written,
                at_ms: 0,
            }),
            table.boxed_clone(),
        ));
    }
    Ok(out)
}

fn spec_of(value: serde_json::Value) -> GameSpec {
    serde_json::from_value(value).expect("a spec built here is well-formed")
}

fn import_pdn(text: &str, index: usize) -> Result<Imported, ImportError> {
    let parsed = pdn::parse_pdn(text);
    if parsed.is_empty() {
        return Err(err(
            "no game found: paste a PDN game (draughts) or a .mat file (backgammon)",
        ));
    }
    let games: Vec<String> = parsed
        .iter()
        .enumerate()
        .map(|(i, g)| match g {
            Ok(g) => format!(
                "{} - {}, {}",
                g.tag("White").unwrap_or("?"),
                g.tag("Black").unwrap_or("?"),
                g.result.as_deref().unwrap_or("*")
            ),
            Err(e) => format!("game {}: {e}", i + 1),
        })
        .collect();
    let g = parsed
        .get(index)
        .ok_or_else(|| {
            err(format!(
                "the record has {} games: no game {}",
                parsed.len(),
                index + 1
            ))
        })?
        .as_ref()
        .map_err(|e| err(format!("game {}: {e}", index + 1)))?;
    let r = replay::replay(g, index + 1, &tablier_draughts::INTERNATIONAL).map_err(err)?;
    let spec = spec_of(serde_json::json!({
        "family": "draughts",
        "variant": r.variant,
        "start": r.start_fen,
    }));
    let table = crate::games::new_table(&spec).map_err(err)?;
    let label = format!("game {}", index + 1);
    let positions = positions_of(table, r.moves.iter().cloned(), &label)?;
    Ok(Imported {
        spec,
        games,
        game: index,
        players: [
            g.tag("White").unwrap_or("?").to_owned(),
            g.tag("Black").unwrap_or("?").to_owned(),
        ],
        result: g.result.clone().map(|t| RecordedResult {
            token: Some(t),
            winner: None,
            points: None,
        }),
        positions,
    })
}

fn import_mat(text: &str, index: usize) -> Result<Imported, ImportError> {
    let file = MatchFile::parse(text).map_err(|e| err(format!(".mat file: {e}")))?;
    if file.games.is_empty() {
        return Err(err(".mat file: no game in it"));
    }
    let money = file.match_length == 0;
    let options_with = |jacoby: bool| {
        if money {
            Options {
                jacoby,
                ..Options::money()
            }
        } else {
            Options::match_to(file.match_length)
        }
    };
    // gnubg's money sessions are played with the Jacoby rule unless it was turned off: the
    // file says which only through its results.
    let (options, replayed) =
        match tablier_backgammon::record::replay_mat(&file, options_with(true)) {
            Ok(r) => (options_with(true), r),
            Err(first) => match money
                .then(|| tablier_backgammon::record::replay_mat(&file, options_with(false)))
            {
                Some(Ok(r)) => (options_with(false), r),
                _ => return Err(err(format!(".mat file: {first}"))),
            },
        };
    let games: Vec<String> = file
        .games
        .iter()
        .map(|g| {
            let result = g.result.as_ref().map_or(String::new(), |r| {
                format!(", {} wins {}", g.players[r.winner], r.points)
            });
            format!(
                "Game {}: {} {} - {} {}{result}",
                g.number, g.players[0], g.scores[0], g.players[1], g.scores[1]
            )
        })
        .collect();
    let mat_game = file.games.get(index).ok_or_else(|| {
        err(format!(
            "the file has {} games: no game {}",
            file.games.len(),
            index + 1
        ))
    })?;
    let played = replayed
        .games
        .get(index)
        .ok_or_else(|| err(format!("game {} does not replay", index + 1)))?;
    // A match game starts from the score the games before it left; a money game on its own.
    let mut m = Match::new(options);
    if !money {
        for g in &replayed.games[..index] {
            for a in &g.actions {
                m.apply(a).map_err(err)?;
            }
        }
    }
    let mut texts = Vec::with_capacity(played.actions.len());
    let mut replica = m.clone();
    for a in &played.actions {
        texts.push(replica.format_action(a));
        replica.apply(a).map_err(err)?;
    }
    let spec = spec_of(serde_json::json!({
        "family": "backgammon",
        "match_length": file.match_length,
        "jacoby": options.jacoby,
        "beavers": options.beavers,
    }));
    let label = format!("game {}", mat_game.number);
    let positions = positions_of(boxed(m), texts, &label)?;
    Ok(Imported {
        spec,
        games,
        game: index,
        players: mat_game.players.clone(),
        result: mat_game.result.as_ref().map(|r| RecordedResult {
            token: None,
            winner: Some(if r.winner == 0 { "white" } else { "black" }.to_owned()),
            points: Some(r.points),
        }),
        positions,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pdn_with_a_start_position_and_an_illegal_move() {
        let pdn = "[White \"W\"]\n[Black \"B\"]\n[GameType \"20\"]\n[FEN \"W:W31,32:B19,20\"]\n1. 32-28 19-23 2. 28x19 *";
        let g = import(pdn, 0).unwrap();
        assert_eq!(g.spec.variant.as_deref(), Some("international"));
        assert_eq!(g.positions.len(), 4);
        let last = g.positions.last().unwrap().0.as_ref().unwrap();
        assert_eq!((last.n, last.side.as_str()), (3, "white"));
        assert!(import(pdn, 1).unwrap_err().0.contains("no game 2"));
        let bad = import("[White \"W\"]\n1. 32-29 *", 0).unwrap_err();
        assert!(bad.0.contains("32-29"), "{bad}");
        assert!(import("   ", 0).unwrap_err().0.contains("empty"));
        assert!(import(&"x".repeat(MAX_IMPORT_LEN + 1), 0)
            .unwrap_err()
            .0
            .contains("longer"));
    }

    #[test]
    fn gnubg_match_games_start_from_their_score_and_review() {
        let mat = include_str!("../../backgammon/tests/data/gnubg_selfplay_5pt.mat");
        let first = import(mat, 0).unwrap();
        assert_eq!(first.spec.match_length, Some(5));
        assert!(first.games.len() >= 2, "{:?}", first.games);
        assert!(first.games[0].starts_with("Game 1: "), "{:?}", first.games);
        let second = import(mat, 1).unwrap();
        // The second game starts where the first left the score: not at 0-0.
        let view = second.positions[0].1.view().to_string();
        let won = first.result.as_ref().unwrap().points.unwrap();
        assert!(won > 0);
        assert!(second.positions.len() > 10);
        assert!(
            second
                .positions
                .iter()
                .skip(1)
                .any(|(a, _)| a.as_ref().unwrap().side.is_empty()),
            "the rolls are chance actions"
        );
        let review = crate::review::review_positions(Family::Backgammon, &second.positions);
        assert_eq!(review.positions.len(), second.positions.len());
        assert!(
            review
                .positions
                .iter()
                .filter(|p| p.value.is_some())
                .count()
                > 5
        );
        assert_ne!(view, first.positions[0].1.view().to_string());
        let money = include_str!("../../backgammon/tests/data/gnubg_selfplay_money.mat");
        let g = import(money, 0).unwrap();
        assert_eq!(g.spec.match_length, Some(0));
        assert!(import(mat, 99).unwrap_err().0.contains("no game 100"));
        let broken = mat.replacen("Game 1", "Game x", 1);
        assert!(import(&broken, 0).is_err());
    }
}
