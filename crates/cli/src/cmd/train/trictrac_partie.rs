//! `tablier train trictrac-partie`: the chance of winning the partie in 12 holes
//! ([`tablier_trictrac_engine::partie`]) measured in the engine's own parties — the law of a
//! throw, the table over the score solved from it, and the model's four coefficients fitted
//! on the outcomes — written as the data file the engine ships
//! (crates/trictrac-engine/weights/trictrac-partie.txt).

use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use clap::Args;
use tablier_trictrac_engine::partie::{log_loss, model_of, observe, Observed};
use tablier_trictrac_engine::train::partie_dice;
use tablier_trictrac_engine::{Search, SearchPlayer, Weights};

use crate::cmd::trictrac::read_weights;
use crate::common::{for_each_index, interrupted, progress};

/// `tablier train trictrac-partie`.
#[derive(Args)]
pub struct PartieArgs {
    /// Self-play parties in 12 holes (the shipped engine, 1 ply, against itself).
    #[arg(long, default_value_t = 400)]
    parties: u64,
    /// Seed of the dice and of the exploration noise.
    #[arg(long, default_value_t = 7)]
    seed: u64,
    /// Random term of ±this many holes on every value, so that the parties differ.
    #[arg(long, default_value_t = 0.05)]
    explore: f64,
    /// Play and fit with this weights file of `tablier train trictrac` instead of the
    /// shipped weights (to refit the model for a new evaluation before shipping it).
    #[arg(long)]
    weights: Option<PathBuf>,
    /// Threads playing parties (0: one per core).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Where the data file is written.
    #[arg(long, default_value = "trictrac-partie.txt")]
    out: PathBuf,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

/// Runs `tablier train trictrac-partie`. Ctrl-C stops the parties and fits on those played.
pub fn run(args: &PartieArgs) -> Result<()> {
    if args.parties == 0 {
        bail!("--parties must be at least 1");
    }
    let stop = interrupted();
    let bar = progress(args.parties, args.quiet, "parties");
    let started = Instant::now();
    let weights = match &args.weights {
        None => Weights::shipped(),
        Some(path) => read_weights(path)?,
    };
    let all = Mutex::new(Observed::default());
    for_each_index(args.threads, args.parties, stop, |n| {
        let search = Search::new(weights.clone(), 1);
        let mut white = SearchPlayer::new(search.clone(), args.explore, args.seed ^ (n << 1));
        let mut black = SearchPlayer::new(search, args.explore, args.seed ^ ((n << 1) | 1));
        let o = observe(&mut white, &mut black, &mut partie_dice(args.seed, n));
        let mut a = all.lock().expect("no thread panics holding it");
        a.law.merge(&o.law);
        a.positions.extend(o.positions);
        bar.inc(1);
    });
    bar.finish_and_clear();
    let observed = all.into_inner().expect("the threads are done");
    let played = bar.position();
    if observed.positions.is_empty() {
        bail!("no partie was finished");
    }
    let model = model_of(&observed, &weights);
    let (with, table) = log_loss(&model, &observed, &weights);
    let secs = started.elapsed().as_secs_f64();
    let comment = format!(
        "Made by: tablier train trictrac-partie --parties {} --seed {} --explore {}{}\n\
         {} self-play parties of the {} engine (1 ply, margin objective), {} positions, {:.0} s.\n\
         Log-loss of the outcomes: {:.4} with the board, {:.4} from the score alone (table).",
        played,
        args.seed,
        args.explore,
        args.weights
            .as_ref()
            .map_or(String::new(), |p| format!(" --weights {}", p.display())),
        played,
        if args.weights.is_some() {
            "given"
        } else {
            "shipped"
        },
        observed.positions.len(),
        secs,
        with,
        table
    );
    std::fs::write(&args.out, model.to_text(&comment))
        .with_context(|| format!("writing {}", args.out.display()))?;
    println!("{comment}");
    println!("data in {}", args.out.display());
    Ok(())
}
