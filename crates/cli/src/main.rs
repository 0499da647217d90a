//! `tablier`: the command-line front of every tablier game.

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};

mod backgammon_cmd;
mod draughts_cmd;
mod load;
mod serve_cmd;
mod trictrac_cmd;

#[derive(Parser)]
#[command(
    name = "tablier",
    version,
    about = "Referee, engines and tools for draughts, backgammon and trictrac"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Serve the games on the web (http://127.0.0.1:8080) with an embedded SQLite database.
    Serve(serve_cmd::ServeArgs),
    /// Check a finished game's record: the dice seed against its commitment, every roll, every
    /// action.
    Verify {
        /// The record (JSON, as `GET /api/games/{id}/record` gives it).
        record: std::path::PathBuf,
    },
    /// Count the leaves of the legal-move tree (draughts), with nodes per second.
    Perft(draughts_cmd::PerftArgs),
    /// Draughts tools: legal moves, replaying game records.
    #[command(subcommand)]
    Draughts(draughts_cmd::DraughtsCommand),
    /// Backgammon tools: legal plays of a roll.
    #[command(subcommand)]
    Backgammon(backgammon_cmd::BackgammonCommand),
    /// Trictrac tools: the points of every legal play of a roll.
    #[command(subcommand)]
    Trictrac(trictrac_cmd::TrictracCommand),
    /// Convert between backgammon formats: GNUbgID, XGID, Position ID, and .mat files (which
    /// are replayed against the rules first).
    Convert {
        /// An ID (`XGID=...`, `PositionID:MatchID`, a Position ID) or a .mat file.
        input: String,
        /// What to write (default: every ID form for an ID, JSON lines for a .mat file).
        #[arg(long, value_enum)]
        to: Option<backgammon_cmd::ConvertTo>,
        /// For a money session (.mat of 0 points): the Jacoby rule was not in force.
        #[arg(long)]
        no_jacoby: bool,
    },
    /// Benchmarks that print a ratio against a peer measured in the same run.
    #[command(subcommand)]
    Bench(draughts_cmd::BenchCommand),
}

fn main() {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Serve(args) => serve_cmd::serve(&args),
        Command::Verify { record } => serve_cmd::verify(&record),
        Command::Perft(args) => draughts_cmd::perft(&args),
        Command::Draughts(cmd) => draughts_cmd::run(cmd),
        Command::Backgammon(cmd) => backgammon_cmd::run(cmd),
        Command::Convert {
            input,
            to,
            no_jacoby,
        } => backgammon_cmd::convert(&input, to, !no_jacoby),
        Command::Trictrac(cmd) => trictrac_cmd::run(cmd),
        Command::Bench(cmd) => draughts_cmd::bench(cmd),
    };
    if let Err(e) = result {
        eprintln!("tablier: {e:#}");
        std::process::exit(match e.downcast_ref::<draughts_cmd::Failed>() {
            Some(_) => 1,
            None => 2,
        });
    }
}

/// Reads a whole file as text (PDN files in the wild are UTF-8 or Latin-1).
pub(crate) fn read_text(path: &std::path::Path) -> Result<String> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    Ok(match String::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => e.into_bytes().iter().map(|&b| char::from(b)).collect(),
    })
}
