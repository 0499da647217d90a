//! `tablier bench ...`: benchmarks that print a ratio against a peer measured in the same
//! run (dame-rs, gnubg-nn), and the server under load.

use anyhow::Result;
use clap::Subcommand;

pub mod backgammon;
pub mod checker;
pub mod cube;
pub mod egtb;
pub mod load;
pub mod perft;
pub mod search;
pub mod ubgi;

/// `tablier bench ...`.
#[derive(Subcommand)]
pub enum BenchCommand {
    /// Perft from the international start, single-threaded, against dame-rs when it is installed.
    Perft(perft::BenchPerftArgs),
    /// The web server under load: concurrent games at human pace over WebSockets (loopback).
    Load(load::LoadArgs),
    /// Backgammon legal-play generation on a random-play position set, against gnubg_nn.
    BackgammonPlays(backgammon::BenchPlaysArgs),
    /// Draughts search speed (nodes/second) from the start position, against dame-rs.
    Search(search::BenchSearchArgs),
    /// What solving the draughts endgame tables costs (time, positions, memory).
    Egtb(egtb::BenchEgtbArgs),
    /// Backgammon 0-ply evaluation speed (positions/second), against gnubg_nn's 0-ply.
    BackgammonEval(backgammon::BenchEvalArgs),
    /// Backgammon cube decisions judged by gnubg 3-ply on positions of our games, beside gnubg
    /// 2-ply's decisions under the same judge.
    BackgammonCube(cube::BenchCubeArgs),
    /// Backgammon checker plays of several of our players on the same positions (other ways of
    /// valuing plays, other weights), judged by gnubg's cubeful equities.
    BackgammonChecker(checker::BenchCheckerArgs),
    /// Two UBGI backgammon engines in money games with duplicate dice: points per game and its
    /// standard error.
    Ubgi(ubgi::BenchUbgiArgs),
}

/// Runs a benchmark.
pub fn run(cmd: BenchCommand) -> Result<()> {
    match cmd {
        BenchCommand::Perft(args) => perft::run(&args),
        BenchCommand::Load(args) => load::run(&args),
        BenchCommand::BackgammonPlays(args) => backgammon::plays(&args),
        BenchCommand::Search(args) => search::run(&args),
        BenchCommand::Egtb(args) => egtb::run(&args),
        BenchCommand::BackgammonEval(args) => backgammon::eval(&args),
        BenchCommand::BackgammonCube(args) => cube::run(&args),
        BenchCommand::BackgammonChecker(args) => checker::run(&args),
        BenchCommand::Ubgi(args) => ubgi::run(&args),
    }
}
