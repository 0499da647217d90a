//! The draughts engine at the edge: `tablier hub` (the Hub protocol on stdin/stdout),
//! `tablier match` (engine against engine from balloted openings, with the Elo difference),
//! and the search and endgame benchmarks; the protocols themselves are
//! [`tablier_draughts_protocol`]'s.

use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use tablier_draughts::{with_board, Geometry, Position, Variant};
use tablier_draughts_engine::{Engine, Limits, Tables, Weights};
use tablier_draughts_protocol::hub;
use tablier_draughts_protocol::match_runner::{ballot, play_match, Contestant, EngineContestant};
use tablier_draughts_protocol::Budget;

pub use crate::draughts_dxp::{dxp, DxpArgs};

/// `tablier hub`: the engine over the Hub protocol on stdin/stdout.
#[derive(Args)]
pub struct HubArgs {
    /// The variant until the GUI sets the `variant` parameter.
    #[arg(long, default_value = "international")]
    variant: String,
}

/// Runs `tablier hub`.
pub fn hub(args: &HubArgs) -> Result<()> {
    let variant = Variant::by_name(&args.variant)
        .ok_or_else(|| anyhow!("unknown variant {}", args.variant))?;
    hub::engine::run(
        variant,
        tablier_draughts_protocol::memory_limit(),
        std::io::stdin().lock(),
        std::io::stdout(),
    )?;
    Ok(())
}

/// `tablier match`: engine against engine from balloted openings.
#[derive(Args)]
pub struct MatchArgs {
    /// The variant.
    #[arg(long, default_value = "international")]
    variant: String,
    /// The opponent: `tablier` (our own engine, e.g. with other weights) or the command line
    /// of a Hub engine, such as `".venv/bin/dame hub"`.
    #[arg(long)]
    opponent: String,
    /// Weights file of our engine (default: the shipped weights).
    #[arg(long)]
    weights: Option<PathBuf>,
    /// Weights file of the opponent when it is `tablier`.
    #[arg(long)]
    opponent_weights: Option<PathBuf>,
    /// Pattern tables of our engine: a file written by `tablier train draughts --patterns`,
    /// or `none` (default: the shipped tables, where the variant has some).
    #[arg(long)]
    patterns: Option<String>,
    /// Pattern tables of the opponent when it is `tablier` (a file or `none`).
    #[arg(long)]
    opponent_patterns: Option<String>,
    /// Number of games (rounded up to an even number: each opening is played with both
    /// colours).
    #[arg(long, default_value_t = 200)]
    games: u32,
    /// Seconds per move for both engines.
    #[arg(long, default_value_t = 0.1)]
    move_time: f64,
    /// A fixed depth per move instead of a time (results that do not depend on the
    /// machine's load; a Hub opponent gets `level depth=N`).
    #[arg(long)]
    depth: Option<u32>,
    /// Random plies of each balloted opening.
    #[arg(long, default_value_t = 4)]
    opening_plies: u32,
    /// Seed of the openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Plies after which an unfinished game is scored as a draw.
    #[arg(long, default_value_t = 300)]
    max_plies: usize,
    /// Endgame tables of our engine (pieces; 0 = none).
    #[arg(long, default_value_t = 3)]
    tables: u32,
    /// Write the games as PDN to this file.
    #[arg(long)]
    pdn: Option<PathBuf>,
}

fn run_match_on<G: Geometry>(args: &MatchArgs, variant: &'static Variant) -> Result<()> {
    let load = |p: &Option<PathBuf>, tables: &Option<String>| -> Result<Weights> {
        let mut w = match p {
            None => Weights::for_variant(variant),
            Some(p) => Weights::parse(
                &std::fs::read_to_string(p).with_context(|| format!("reading {}", p.display()))?,
            )
            .map_err(|e| anyhow!("{}: {e}", p.display()))?,
        };
        w.patterns = match tables.as_deref() {
            None => Weights::shipped_patterns(variant),
            Some("none") => None,
            Some(file) => Some(Arc::new(crate::draughts_engine_cmd::read_patterns::<G>(
                std::path::Path::new(file),
            )?)),
        };
        Ok(w)
    };
    let tables = (args.tables >= 2).then(|| {
        eprintln!("solving endgame tables up to {} pieces…", args.tables);
        Arc::new(Tables::generate::<G>(variant, args.tables, &mut |_, _| {}))
    });
    let mut ours = EngineContestant {
        engine: Engine::<G>::with_weights(variant, 64, load(&args.weights, &args.patterns)?),
        label: "tablier".into(),
    };
    ours.engine.set_tables(tables.clone());
    let mut theirs: Box<dyn Contestant<G>> = if args.opponent == "tablier" {
        let mut e = Engine::<G>::with_weights(
            variant,
            64,
            load(&args.opponent_weights, &args.opponent_patterns)?,
        );
        e.set_tables(tables);
        Box::new(EngineContestant {
            engine: e,
            label: "tablier (opponent)".into(),
        })
    } else {
        Box::new(hub::client::Client::spawn(&args.opponent, variant)?)
    };
    let pairs = args.games.div_ceil(2) as usize;
    let openings = ballot::<G>(variant, pairs, args.opening_plies, args.seed)?;
    let budget = match args.depth {
        Some(d) => Budget::Depth(d),
        None => Budget::Time(Duration::from_secs_f64(args.move_time)),
    };
    let interrupted = Arc::new(AtomicBool::new(false));
    {
        let flag = Arc::clone(&interrupted);
        let _ = ctrlc::set_handler(move || flag.store(true, Ordering::Relaxed));
    }
    let bar = indicatif::ProgressBar::new(2 * pairs as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} games {msg} [{elapsed}]")
            .expect("template"),
    );
    let mut pdn = String::new();
    let mut notes = Vec::new();
    let theirs_name = theirs.name();
    let tally = play_match(
        &openings,
        variant,
        &mut ours,
        theirs.as_mut(),
        budget,
        args.max_plies,
        &interrupted,
        &mut |round, tally| {
            let why = &round.finished.why;
            if round.finished.forfeit {
                notes.push(format!("game {}: {why}", round.number));
            }
            if args.pdn.is_some() {
                pdn.push_str(&round.pdn("tablier", &theirs_name));
                pdn.push('\n');
            }
            bar.inc(1);
            let (s, e, m) = tally.summary();
            let (w, d, l) = (tally.wins, tally.draws, tally.losses);
            let status = format!("+{w} ={d} -{l}  {:.1}%  Elo {e:+.0} ± {m:.0}", 100.0 * s);
            if bar.is_hidden() {
                // Not a terminal (a log file): one line a game instead of the bar.
                eprintln!("game {}: {why}; {status}", tally.games());
            }
            bar.set_message(status);
        },
    )?;
    bar.finish_and_clear();
    if let Some(p) = &args.pdn {
        std::fs::write(p, pdn).with_context(|| format!("writing {}", p.display()))?;
    }
    let (s, e, m) = tally.summary();
    let (w, d, l) = (tally.wins, tally.draws, tally.losses);
    let per_move = match budget {
        Budget::Time(t) => format!("{:.3} s per move", t.as_secs_f64()),
        Budget::Depth(d) => format!("depth {d} per move"),
    };
    println!(
        "tablier vs {theirs_name}: {} games ({} variant, {per_move}, {} balloted openings of {} plies, seed {})",
        w + d + l,
        variant.name,
        openings.len(),
        args.opening_plies,
        args.seed
    );
    println!(
        "+{w} ={d} -{l}  score {:.1}%  Elo difference {e:+.0} ± {m:.0} (95%)",
        100.0 * s
    );
    for n in notes {
        println!("  {n}");
    }
    Ok(())
}

/// Runs `tablier match`.
pub fn run_match(args: &MatchArgs) -> Result<()> {
    let variant = Variant::by_name(&args.variant)
        .ok_or_else(|| anyhow!("unknown variant {}", args.variant))?;
    if !(0.001..=600.0).contains(&args.move_time) {
        bail!("--move-time must be between 0.001 and 600 seconds");
    }
    with_board!(variant.board, G => run_match_on::<G>(args, variant))
}

// ---------------------------------------------------------------------------------------------
// Benchmarks

/// `tablier bench search`: search speed from the start position, against dame-rs.
#[derive(Args)]
pub struct BenchSearchArgs {
    /// The variant.
    #[arg(long, default_value = "international")]
    variant: String,
    /// Depth of the search from the start position.
    #[arg(long, default_value_t = 14)]
    depth: u32,
    /// The dame-rs program (PyPI `dame-rs`) to run on the same position in the same run
    /// (international only); `none` to skip it.
    #[arg(long, default_value = ".venv/bin/dame")]
    dame: String,
}

/// Runs `tablier bench search`.
pub fn bench_search(args: &BenchSearchArgs) -> Result<()> {
    let variant = Variant::by_name(&args.variant)
        .ok_or_else(|| anyhow!("unknown variant {}", args.variant))?;
    if !(1..=40).contains(&args.depth) {
        bail!("--depth must be between 1 and 40");
    }
    let (nodes, secs) = with_board!(variant.board, G => {
        let pos = Position::<G>::start(variant)?;
        let mut engine = Engine::<G>::new(variant, 64);
        let r = engine.search(&pos, &[], &Limits::depth(args.depth), &mut |i| {
            eprintln!("  depth {:>2}  nodes {:>11}  {:.3} s", i.depth, i.nodes, i.time.as_secs_f64());
        });
        (r.nodes, r.time.as_secs_f64())
    });
    println!(
        "tablier: {} from the start to depth {}: {nodes} nodes in {secs:.3} s, {:.2} M nodes/s",
        variant.name,
        args.depth,
        nodes as f64 / secs / 1e6
    );
    if args.dame == "none" || variant.name != "international" {
        return Ok(());
    }
    let out = Command::new(&args.dame)
        .args([
            "search",
            "--depth",
            &args.depth.to_string(),
            "--time",
            "600",
        ])
        .output()
        .with_context(|| format!("running {} (see scripts/python-env.sh)", args.dame))?;
    let text = String::from_utf8_lossy(&out.stdout);
    let last = text
        .lines()
        .rev()
        .find(|l| l.trim_start().starts_with("depth"))
        .ok_or_else(|| anyhow!("dame printed no iteration"))?;
    let field = |name: &str| -> Option<f64> {
        let words: Vec<&str> = last.split_whitespace().collect();
        let i = words.iter().position(|w| *w == name)?;
        words.get(i + 1)?.trim_end_matches('s').parse().ok()
    };
    let (Some(d_nodes), Some(d_secs)) = (field("nodes"), field("time")) else {
        bail!("cannot read dame's line: {last}");
    };
    println!(
        "dame-rs: the same position to depth {}: {d_nodes} nodes in {d_secs:.3} s, {:.2} M nodes/s",
        args.depth,
        d_nodes / d_secs / 1e6
    );
    println!(
        "ratio: {:.1}x the nodes per second, {:.1}x faster to depth {} (each engine counts nodes its own way)",
        (nodes as f64 / secs) / (d_nodes / d_secs),
        d_secs / secs,
        args.depth
    );
    Ok(())
}

/// `tablier bench egtb`: what solving the endgame tables costs.
#[derive(Args)]
pub struct BenchEgtbArgs {
    /// The variant.
    #[arg(long, default_value = "international")]
    variant: String,
    /// Pieces on the board at most.
    #[arg(long, default_value_t = 3)]
    pieces: u32,
}

/// Runs `tablier bench egtb`.
pub fn bench_egtb(args: &BenchEgtbArgs) -> Result<()> {
    let variant = Variant::by_name(&args.variant)
        .ok_or_else(|| anyhow!("unknown variant {}", args.variant))?;
    if !(2..=4).contains(&args.pieces) {
        bail!("--pieces must be 2, 3 or 4");
    }
    let start = Instant::now();
    let bar = indicatif::ProgressBar::new(0);
    let t = with_board!(variant.board, G => Tables::generate::<G>(variant, args.pieces, &mut |done, all| {
        bar.set_length(all as u64);
        bar.set_position(done as u64);
    }));
    bar.finish_and_clear();
    let (w, d, l) = t.counts();
    println!(
        "{} up to {} pieces: {} positions indexed ({} legal: {w} won, {d} drawn, {l} lost for the side to move), solved in {:.1} s, {:.1} MiB at one byte each",
        variant.name,
        args.pieces,
        t.len(),
        w + d + l,
        start.elapsed().as_secs_f64(),
        t.len() as f64 / 1048576.0
    );
    Ok(())
}
