//! `tablier match`: draughts engine against engine (ours with other weights, or a Hub
//! engine) from balloted openings, with the score, the Elo difference and the games as PDN
//! ([`tablier_draughts_protocol::match_runner`]).

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use tablier_draughts::{with_board, Geometry, Variant};
use tablier_draughts_engine::{Engine, Tables, Weights};
use tablier_draughts_protocol::hub;
use tablier_draughts_protocol::match_runner::{ballot, play_match, Contestant, EngineContestant};
use tablier_draughts_protocol::Budget;

use crate::cmd::draughts::read_patterns;
use crate::common::{interrupted, short_progress};

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
            Some(file) => Some(Arc::new(read_patterns::<G>(std::path::Path::new(file))?)),
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
    let interrupted = interrupted();
    let bar = short_progress(2 * pairs as u64, false, "games");
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
        interrupted,
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
pub fn run(args: &MatchArgs) -> Result<()> {
    let variant = Variant::by_name(&args.variant)
        .ok_or_else(|| anyhow!("unknown variant {}", args.variant))?;
    if !(0.001..=600.0).contains(&args.move_time) {
        bail!("--move-time must be between 0.001 and 600 seconds");
    }
    with_board!(variant.board, G => run_match_on::<G>(args, variant))
}
