//! `tablier train ...`: an engine's evaluation trained or tuned on games it plays itself.

use anyhow::Result;
use clap::Subcommand;

pub mod backgammon;
pub mod backgammon_supervised;
pub mod draughts;
pub mod trictrac;
pub mod trictrac_partie;
pub mod trictrac_stay;

/// `tablier train ...`.
#[derive(Subcommand)]
pub enum TrainCommand {
    /// Tune the draughts evaluation (Texel-style) on self-play games.
    Draughts(draughts::TrainArgs),
    /// Train the backgammon network: self-play TD(lambda), then better targets.
    Backgammon(backgammon::TrainArgs),
    /// Label positions from the backgammon engine's own games with its n-ply search.
    BackgammonLabel(backgammon_supervised::LabelArgs),
    /// Fit the backgammon nets to labelled positions, keeping the best held-out fit.
    BackgammonFit(backgammon_supervised::FitArgs),
    /// Train the trictrac evaluator by self-play.
    Trictrac(trictrac::TrainArgs),
    /// Measure the chance of winning a trictrac partie from every score, in self-play.
    TrictracPartie(trictrac_partie::PartieArgs),
    /// Fit the correction of staying after a hole on trictrac go decisions played out both ways.
    TrictracStay(trictrac_stay::StayArgs),
}

/// Runs a `tablier train` subcommand.
pub fn run(cmd: &TrainCommand) -> Result<()> {
    match cmd {
        TrainCommand::Draughts(args) => draughts::run(args),
        TrainCommand::Backgammon(args) => backgammon::run(args),
        TrainCommand::BackgammonLabel(args) => backgammon_supervised::label_run(args),
        TrainCommand::BackgammonFit(args) => backgammon_supervised::fit_run(args),
        TrainCommand::Trictrac(args) => trictrac::run(args),
        TrainCommand::TrictracPartie(args) => trictrac_partie::run(args),
        TrainCommand::TrictracStay(args) => trictrac_stay::run(args),
    }
}
