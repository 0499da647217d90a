//! `tablier backgammon ...` (the legal plays of a roll), and what the backgammon commands
//! share: reading the engine's weights.

use std::path::Path;

use anyhow::{anyhow, bail, Context, Result};
use clap::{Args, Subcommand};
use serde::Serialize;
use tablier_backgammon::{notation, Position, Roll};
use tablier_backgammon_engine::eval::Evaluator;
use tablier_backgammon_engine::search::PlayValue;

/// Reads a weights file.
pub(crate) fn read_weights(path: &Path) -> Result<Evaluator> {
    let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    Evaluator::from_bytes(&bytes).with_context(|| format!("loading {}", path.display()))
}

/// The evaluator to use: a weights file, or the shipped one.
pub(crate) fn evaluator(weights: Option<&Path>) -> Result<Evaluator> {
    match weights {
        Some(p) => read_weights(p),
        None => Ok(Evaluator::shipped().clone()),
    }
}

/// How the backgammon engine plays, for the commands that seat it (`gnubg-external`, `ubgi`).
#[derive(Args)]
pub struct EngineArgs {
    /// Level of play, 0 (beginner) to the strongest.
    #[arg(long, default_value_t = tablier_backgammon_engine::MAX_LEVEL)]
    pub level: u8,
    /// Never offer a double (takes and drops are still answered).
    #[arg(long)]
    pub no_double: bool,
    /// Weights to use instead of the shipped ones.
    #[arg(long)]
    pub weights: Option<std::path::PathBuf>,
    /// Seed of the noise of the lower levels.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// How plays are valued: `cubeful-search` (the cube at every node of the search, the
    /// default), `cubeful` (the cube model once on each play's searched probabilities) or
    /// `cubeless` (money equity whatever the cube and score, as before 2026-11-27).
    #[arg(long, value_enum, default_value_t = PlayValueArg::CubefulSearch)]
    pub play_value: PlayValueArg,
}

/// `--play-value`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum PlayValueArg {
    /// The cube model on each play's searched probabilities.
    Cubeful,
    /// The cube at every node of the search.
    CubefulSearch,
    /// Money equity, whatever the cube and the score.
    Cubeless,
}

impl EngineArgs {
    /// The evaluator and the player these arguments name.
    pub fn load(&self) -> Result<(Evaluator, tablier_backgammon_engine::player::Player)> {
        Ok((
            evaluator(self.weights.as_deref())?,
            tablier_backgammon_engine::player::Player {
                doubles: !self.no_double,
                play_value: match self.play_value {
                    PlayValueArg::Cubeful => PlayValue::Cubeful,
                    PlayValueArg::CubefulSearch => PlayValue::CubefulSearch,
                    PlayValueArg::Cubeless => PlayValue::Cubeless,
                },
                ..tablier_backgammon_engine::player::Player::at_level(self.level)
            },
        ))
    }
}

/// `tablier backgammon ...`.
#[derive(Subcommand)]
pub enum BackgammonCommand {
    /// Every legal play of a roll, in gnubg's notation, with the Position ID it leads to.
    Plays {
        /// gnubg Position ID of the position, from the side on roll (a GNUbgID
        /// `PositionID:MatchID` is accepted too).
        #[arg(long)]
        id: String,
        /// The roll, e.g. `3-1` (also `31` or `3 1`).
        #[arg(long)]
        dice: String,
        /// One JSON object per line and play instead of text (nothing when no play is legal).
        #[arg(long)]
        json: bool,
    },
}

/// Reads a roll written `3-1`, `31`, `3 1` or `3,1`.
pub fn parse_roll(text: &str) -> Result<Roll> {
    let digits: Vec<u8> = text
        .chars()
        .filter(|c| !matches!(c, '-' | ' ' | ',' | '/'))
        .map(|c| {
            c.to_digit(10)
                .map(|d| d as u8)
                .ok_or_else(|| anyhow!("{text:?} is not a roll: write two dice like 3-1"))
        })
        .collect::<Result<_>>()?;
    match digits[..] {
        [a, b] => Roll::new(a, b).ok_or_else(|| anyhow!("{text:?}: dice go from 1 to 6")),
        _ => bail!("{text:?} is not a roll: write two dice like 3-1"),
    }
}

/// Reads a position from a Position ID or a GNUbgID.
fn parse_position(id: &str) -> Result<Position> {
    let pid = id.trim().split(':').next().unwrap_or_default();
    Position::from_position_id(pid).with_context(|| format!("bad Position ID {id:?}"))
}

#[derive(Serialize)]
struct PlayJson {
    /// gnubg's text of the play.
    play: String,
    /// `[from, to]` per die played, mover's numbering (25 = bar, 0 = off).
    hops: Vec<[u8; 2]>,
    /// Blots hit.
    hits: usize,
    /// The position after the play, with the opponent on roll.
    position_id: String,
}

/// Runs a `tablier backgammon` command.
pub fn run(cmd: BackgammonCommand) -> Result<()> {
    match cmd {
        BackgammonCommand::Plays { id, dice, json } => {
            let position = parse_position(&id)?;
            let roll = parse_roll(&dice)?;
            let plays = position.legal_plays(roll);
            if plays.len() == 1 && plays[0].hops().is_empty() {
                if !json {
                    println!("no legal play: no number of {roll} can be played, the turn passes");
                }
                return Ok(());
            }
            let rows: Vec<PlayJson> = plays
                .iter()
                .map(|p| PlayJson {
                    play: notation::format_play(p),
                    hops: p.hops().iter().map(|h| [h.from, h.to]).collect(),
                    hits: p.hops().iter().filter(|h| h.hit).count(),
                    // The side to move after the play is the opponent: gnubg encodes from there.
                    position_id: p.result.flip().position_id(),
                })
                .collect();
            if json {
                for r in &rows {
                    println!("{}", serde_json::to_string(r)?);
                }
            } else {
                let width = rows.iter().map(|r| r.play.len()).max().unwrap_or(0);
                for r in &rows {
                    println!("{:width$}  {}", r.play, r.position_id);
                }
                println!("{} legal plays of {roll}", rows.len());
            }
            Ok(())
        }
    }
}
