//! `tablier`: the command-line front of every tablier game. This file holds the command
//! line's definition and hands each command to its module under `cmd/`; what the commands
//! share (progress bars, Ctrl-C, reading files) is in `common`.

use clap::{Parser, Subcommand};

mod cmd;
mod common;

use cmd::{
    analyse, backgammon, bench, convert, draughts, dxp, gnubg_external, hub, perft, r#match,
    rollout, serve, train, trictrac, ubgi, verify,
};

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
    Serve(serve::ServeArgs),
    /// Check a finished game's record: the dice seed against its commitment, every roll, every
    /// action.
    Verify(verify::VerifyArgs),
    /// Count the leaves of the legal-move tree (draughts), with nodes per second.
    Perft(perft::PerftArgs),
    /// Draughts tools: legal moves, replaying game records.
    #[command(subcommand)]
    Draughts(draughts::DraughtsCommand),
    /// Backgammon tools: the legal plays of a roll, the engine's hint on a decision.
    #[command(subcommand)]
    Backgammon(backgammon::BackgammonCommand),
    /// Trictrac tools: the points of every legal play of a roll.
    #[command(subcommand)]
    Trictrac(trictrac::TrictracCommand),
    /// Convert between backgammon formats: GNUbgID, XGID, Position ID, and .mat files (which
    /// are replayed against the rules first).
    Convert(convert::ConvertArgs),
    /// Benchmarks that print a ratio against a peer measured in the same run.
    #[command(subcommand)]
    Bench(bench::BenchCommand),
    /// The draughts engine over the Hub protocol (stdin/stdout), for draughts GUIs.
    Hub(hub::HubArgs),
    /// The draughts engine over DXP (TCP), as initiator or follower.
    Dxp(dxp::DxpArgs),
    /// Draughts engine against engine (ours or a Hub engine) from balloted openings: score and Elo.
    Match(r#match::MatchArgs),
    /// Analyse a game record with the engine: a PDN file (draughts) or a .mat file (backgammon).
    Analyse(analyse::AnalyseArgs),
    /// Train or tune an engine's evaluation from games it plays itself.
    #[command(subcommand)]
    Train(train::TrainCommand),
    /// Backgammon rollouts of a position.
    Rollout(rollout::RolloutArgs),
    /// The backgammon engine as gnubg's external player (TCP), so gnubg can host matches.
    GnubgExternal(gnubg_external::ExternalArgs),
    /// The backgammon engine over UBGI (stdin/stdout), for backgammon runners and leagues.
    Ubgi(ubgi::UbgiArgs),
}

/// Whether a command must outlive a peer that hangs up: the network servers and clients
/// (`serve`, `dxp`, `gnubg-external`, `bench load`) and the commands that write to another
/// program's standard input (`match` against a Hub engine, `bench backgammon-eval` against
/// gnubg, `bench ubgi` to its two engines). For them a broken pipe stays an error they handle (Rust's default: SIGPIPE
/// ignored); every other command dies of it quietly, as `cat` does.
fn survives_broken_pipes(command: &Command) -> bool {
    matches!(
        command,
        Command::Serve(_)
            | Command::Dxp(_)
            | Command::GnubgExternal(_)
            | Command::Match(_)
            | Command::Bench(
                bench::BenchCommand::Load(_)
                    | bench::BenchCommand::BackgammonEval(_)
                    | bench::BenchCommand::Ubgi(_)
            )
    )
}

/// Gives SIGPIPE back its default action (end the process without a word), which Rust's
/// runtime replaces with "ignore" at start-up; a write to a closed pipe then stops the
/// command instead of making `println!` panic ("failed printing to stdout: Broken pipe").
fn restore_default_sigpipe() {
    #[cfg(unix)]
    // SAFETY: `signal` with SIG_DFL installs no handler code; it is called once, before any
    // thread is started.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

fn main() {
    let cli = Cli::parse();
    if !survives_broken_pipes(&cli.command) {
        restore_default_sigpipe();
    }
    let result = match cli.command {
        Command::Serve(args) => serve::run(&args),
        Command::Verify(args) => verify::run(&args),
        Command::Perft(args) => perft::run(&args),
        Command::Draughts(cmd) => draughts::run(cmd),
        Command::Backgammon(cmd) => backgammon::run(cmd),
        Command::Convert(args) => convert::run(&args),
        Command::Trictrac(cmd) => trictrac::run(cmd),
        Command::Bench(cmd) => bench::run(cmd),
        Command::Hub(args) => hub::run(&args),
        Command::Dxp(args) => dxp::run(&args),
        Command::Match(args) => r#match::run(&args),
        Command::Analyse(args) => analyse::run(&args),
        Command::Train(cmd) => train::run(&cmd),
        Command::Rollout(args) => rollout::run(&args),
        Command::GnubgExternal(args) => gnubg_external::run(&args),
        Command::Ubgi(args) => ubgi::run(&args),
    };
    if let Err(e) = result {
        eprintln!("tablier: {e:#}");
        std::process::exit(match e.downcast_ref::<common::Failed>() {
            Some(_) => 1,
            None => 2,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn command(args: &[&str]) -> Command {
        let mut argv = vec!["tablier"];
        argv.extend_from_slice(args);
        Cli::try_parse_from(argv)
            .unwrap_or_else(|e| panic!("{args:?}: {e}"))
            .command
    }

    #[test]
    fn only_servers_and_peers_of_other_programs_survive_broken_pipes() {
        for args in [
            &["serve"][..],
            &["dxp", "--listen", "127.0.0.1:0"],
            &["gnubg-external", "--port", "1"],
            &["bench", "load"],
            &["bench", "backgammon-eval"],
            &["match", "--opponent", "tablier"],
            &["bench", "ubgi", "--opponent", "x"],
        ] {
            assert!(survives_broken_pipes(&command(args)), "{args:?}");
        }
        for args in [
            &["perft", "--depth", "3"][..],
            &["draughts", "moves"],
            &["convert", "x.mat"],
            &["hub"],
            &["ubgi"],
            &["bench", "perft"],
        ] {
            assert!(!survives_broken_pipes(&command(args)), "{args:?}");
        }
    }
}
