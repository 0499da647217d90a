//! `tablier convert`: between backgammon formats (GNUbgID, XGID, Position ID, `.mat`).

use anyhow::{anyhow, bail, Result};
use tablier_backgammon::Position;

use crate::common::read_text;

/// `tablier convert` arguments.
#[derive(clap::Args)]
pub struct ConvertArgs {
    /// An ID (`XGID=...`, `PositionID:MatchID`, a Position ID) or a .mat file.
    input: String,
    /// What to write (default: every ID form for an ID, JSON lines for a .mat file).
    #[arg(long, value_enum)]
    to: Option<ConvertTo>,
    /// For a money session (.mat of 0 points): the Jacoby rule was not in force.
    #[arg(long)]
    no_jacoby: bool,
}

/// What `tablier convert` writes.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum ConvertTo {
    /// gnubg's `PositionID:MatchID`.
    Gnubgid,
    /// eXtreme Gammon's `XGID=...`.
    Xgid,
    /// gnubg's Position ID alone.
    PositionId,
    /// A `.mat` match file (from a `.mat` input: replayed, then written in gnubg's layout).
    Mat,
    /// One JSON line per game of a `.mat` input: its actions in notation and its result.
    Json,
}

/// `tablier convert`: between gnubg IDs, XGIDs and `.mat` files.
pub fn run(args: &ConvertArgs) -> Result<()> {
    let (input, to, money_jacoby) = (args.input.as_str(), args.to, !args.no_jacoby);
    use tablier_backgammon::game::Options;
    use tablier_backgammon::ids::parse_gnubg_id;
    use tablier_backgammon::mat::MatchFile;
    use tablier_backgammon::record;
    use tablier_backgammon::xgid::Xgid;
    use tablier_core::Game;

    let trimmed = input.trim();
    if trimmed.ends_with(".mat") || std::path::Path::new(trimmed).is_file() {
        let text = read_text(std::path::Path::new(trimmed))?;
        let file = MatchFile::parse(&text).map_err(|e| anyhow!("{trimmed}: {e}"))?;
        let options = if file.match_length == 0 {
            Options {
                jacoby: money_jacoby,
                ..Options::money()
            }
        } else {
            Options::match_to(file.match_length)
        };
        let replayed = record::replay_mat(&file, options).map_err(|e| anyhow!("{trimmed}: {e}"))?;
        match to.unwrap_or(ConvertTo::Json) {
            ConvertTo::Mat => {
                let actions: Vec<_> = replayed
                    .games
                    .iter()
                    .flat_map(|g| g.actions.clone())
                    .collect();
                let names = file
                    .games
                    .first()
                    .map(|g| [g.players[0].as_str(), g.players[1].as_str()])
                    .unwrap_or(["white", "black"]);
                if file.match_length == 0 && file.games.len() > 1 {
                    bail!("a money session of several games is written game by game: not supported yet");
                }
                let mut out = record::to_mat(options, names, &actions)?;
                out.tags = file.tags.clone();
                print!("{out}");
            }
            ConvertTo::Json => {
                for (g, game) in replayed.games.iter().zip(&file.games) {
                    // Money games replay on their own; match games continue the match.
                    let mut m = if file.match_length > 0 {
                        replayed_prefix(&replayed, g.number, options)?
                    } else {
                        tablier_backgammon::game::Match::new(options)
                    };
                    let mut texts = Vec::new();
                    for a in &g.actions {
                        texts.push(m.format_action(a));
                        m.apply(a)?;
                    }
                    let line = serde_json::json!({
                        "game": g.number,
                        "players": game.players,
                        "scores": game.scores,
                        "actions": texts,
                        "result": m.results().last(),
                    });
                    println!("{line}");
                }
            }
            ConvertTo::Gnubgid | ConvertTo::Xgid | ConvertTo::PositionId => {
                let id = record::match_id(&replayed.last);
                print_ids(&record::id_view(&replayed.last).0, &id, to.expect("chosen"))?;
            }
        }
        return Ok(());
    }
    let (position, id) = if let Some(rest) = trimmed.strip_prefix("XGID=") {
        let x = Xgid::parse(trimmed).map_err(|e| anyhow!("bad XGID {rest:?}: {e}"))?;
        x.to_gnubg().map_err(|e| anyhow!("{e}"))?
    } else if trimmed.contains(':') {
        parse_gnubg_id(trimmed).map_err(|e| anyhow!("bad GNUbgID {trimmed:?}: {e}"))?
    } else {
        let p = Position::from_position_id(trimmed)
            .map_err(|e| anyhow!("bad Position ID {trimmed:?}: {e}"))?;
        (p, tablier_backgammon::ids::MatchId::default())
    };
    match to {
        Some(t) => print_ids(&position, &id, t),
        None => {
            for t in [ConvertTo::Gnubgid, ConvertTo::Xgid] {
                print_ids(&position, &id, t)?;
            }
            Ok(())
        }
    }
}

/// The match as it stood at the start of game `number` of a replayed file.
fn replayed_prefix(
    replayed: &tablier_backgammon::record::Replayed,
    number: u32,
    options: tablier_backgammon::game::Options,
) -> Result<tablier_backgammon::game::Match> {
    use tablier_core::Game;
    let mut m = tablier_backgammon::game::Match::new(options);
    for g in replayed.games.iter().take_while(|g| g.number != number) {
        for a in &g.actions {
            m.apply(a)?;
        }
    }
    Ok(m)
}

fn print_ids(
    position: &Position,
    id: &tablier_backgammon::ids::MatchId,
    to: ConvertTo,
) -> Result<()> {
    use tablier_backgammon::xgid::Xgid;
    match to {
        ConvertTo::Gnubgid => println!("{}", tablier_backgammon::ids::gnubg_id(position, id)),
        ConvertTo::Xgid => println!("{}", Xgid::from_gnubg(position, id)),
        ConvertTo::PositionId => println!("{}", position.position_id()),
        ConvertTo::Mat | ConvertTo::Json => {
            bail!("a position converts to gnubgid, xgid or position-id")
        }
    }
    Ok(())
}
