//! `tablier`: the command-line front of every tablier game.

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};

mod backgammon_cmd;
mod bg_engine_cmd;
mod draughts_cmd;
mod draughts_dxp;
mod draughts_engine_cmd;
mod draughts_protocol;
mod load;
mod serve_cmd;
mod trictrac_cmd;
mod trictrac_engine_cmd;

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
    /// The draughts engine over the Hub protocol (stdin/stdout), for draughts GUIs.
    Hub(draughts_engine_cmd::HubArgs),
    /// The draughts engine over DXP (TCP), as initiator or follower.
    Dxp(draughts_engine_cmd::DxpArgs),
    /// Draughts engine against engine (ours or a Hub engine) from balloted openings: score and Elo.
    Match(draughts_engine_cmd::MatchArgs),
    /// Analyse a game record with the engine: a PDN file (draughts) or a .mat file (backgammon).
    Analyse(AnalyseArgs),
    /// Train or tune an engine's evaluation from games it plays itself.
    #[command(subcommand)]
    Train(TrainCommand),
    /// Backgammon rollouts of a position.
    Rollout(bg_engine_cmd::RolloutArgs),
    /// The backgammon engine as gnubg's external player (TCP), so gnubg can host matches.
    GnubgExternal(bg_engine_cmd::ExternalArgs),
}

/// `tablier analyse FILE`: the family is known from the file's extension.
#[derive(clap::Args)]
struct AnalyseArgs {
    /// The game record: `.pdn` (draughts) or `.mat` (backgammon).
    file: std::path::PathBuf,
    /// Where to write the annotated record (default: standard output).
    #[arg(long, short)]
    output: Option<std::path::PathBuf>,
    #[command(flatten)]
    draughts: draughts_engine_cmd::AnalyseOpts,
    #[command(flatten)]
    backgammon: bg_engine_cmd::AnalyseOpts,
}

/// `tablier train ...`.
#[derive(Subcommand)]
enum TrainCommand {
    /// Tune the draughts evaluation (Texel-style) on self-play games.
    Draughts(draughts_engine_cmd::TrainArgs),
    /// Train the backgammon network: self-play TD(lambda), then better targets.
    Backgammon(bg_engine_cmd::TrainArgs),
    /// Train the trictrac evaluator by self-play.
    Trictrac(trictrac_engine_cmd::TrainArgs),
}

fn analyse(args: &AnalyseArgs) -> Result<()> {
    let ext = args
        .file
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    match ext.as_deref() {
        Some("pdn") => {
            draughts_engine_cmd::analyse(&args.file, args.output.as_deref(), &args.draughts)
        }
        Some("mat") | Some("txt") => {
            bg_engine_cmd::analyse(&args.file, args.output.as_deref(), &args.backgammon)
        }
        _ => anyhow::bail!(
            "{}: cannot tell the game from the file name; use .pdn (draughts) or .mat (backgammon)",
            args.file.display()
        ),
    }
}

/// A progress bar over `len` steps counted in `unit` (hidden with `quiet`): the one style of
/// every long command (training, analysis, duels).
pub(crate) fn progress(len: u64, quiet: bool, unit: &str) -> indicatif::ProgressBar {
    if quiet {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(len);
    bar.set_style(
        indicatif::ProgressStyle::with_template(&format!(
            "{{elapsed_precise}} [{{bar:40}}] {{pos}}/{{len}} {unit} ({{per_sec}}, eta {{eta}}) {{msg}}"
        ))
        .expect("a valid template"),
    );
    bar
}

/// A flag that Ctrl-C sets, for long commands that stop cleanly.
pub(crate) fn interrupt_flag() -> std::sync::Arc<std::sync::atomic::AtomicBool> {
    let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let f = flag.clone();
    let _ = ctrlc::set_handler(move || f.store(true, std::sync::atomic::Ordering::Relaxed));
    flag
}

/// Whether a command must outlive a peer that hangs up: the network servers and clients
/// (`serve`, `dxp`, `gnubg-external`, `bench load`) and the commands that write to another
/// program's standard input (`match` against a Hub engine, `bench backgammon-eval` against
/// gnubg). For them a broken pipe stays an error they handle (Rust's default: SIGPIPE
/// ignored); every other command dies of it quietly, as `cat` does.
fn survives_broken_pipes(command: &Command) -> bool {
    matches!(
        command,
        Command::Serve(_)
            | Command::Dxp(_)
            | Command::GnubgExternal(_)
            | Command::Match(_)
            | Command::Bench(
                draughts_cmd::BenchCommand::Load(_) | draughts_cmd::BenchCommand::BackgammonEval(_)
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
        Command::Hub(args) => draughts_engine_cmd::hub(&args),
        Command::Dxp(args) => draughts_engine_cmd::dxp(&args),
        Command::Match(args) => draughts_engine_cmd::run_match(&args),
        Command::Analyse(args) => analyse(&args),
        Command::Train(TrainCommand::Draughts(args)) => draughts_engine_cmd::train(&args),
        Command::Train(TrainCommand::Backgammon(args)) => bg_engine_cmd::train(&args),
        Command::Train(TrainCommand::Trictrac(args)) => trictrac_engine_cmd::train(&args),
        Command::Rollout(args) => bg_engine_cmd::rollout(&args),
        Command::GnubgExternal(args) => bg_engine_cmd::external(&args),
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
        ] {
            assert!(survives_broken_pipes(&command(args)), "{args:?}");
        }
        for args in [
            &["perft", "--depth", "3"][..],
            &["draughts", "moves"],
            &["convert", "x.mat"],
            &["hub"],
            &["bench", "perft"],
        ] {
            assert!(!survives_broken_pipes(&command(args)), "{args:?}");
        }
    }
}
