//! `tablier train trictrac`: the evaluator trained by self-play, generation after
//! generation ([`tablier_trictrac_engine::selfplay`]), with a checkpoint to resume from.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{bail, Context, Result};
use clap::Args;
use tablier_trictrac_engine::selfplay::{self, Checkpoint, Progress, Run};

use crate::cmd::trictrac::read_weights;
use crate::common::{interrupted, progress};

/// `tablier train trictrac`.
#[derive(Args)]
pub struct TrainArgs {
    /// Seed of the self-play dice and of the exploration noise.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Self-play parties in all (a resumed run goes on to this number).
    #[arg(long, default_value_t = 1200)]
    games: u64,
    /// Parties between two fits of the weights (one generation).
    #[arg(long, default_value_t = 100)]
    generation: u64,
    /// Random term of ±this many holes on every value during self-play.
    #[arg(long, default_value_t = 0.05)]
    explore: f64,
    /// Weight of the older samples at each new fit (1: keep all equally).
    #[arg(long, default_value_t = 0.6)]
    discount: f64,
    /// Throws after which a position's target trusts the evaluation: the holes taken in
    /// that many throws plus what the current weights expect from there (0: the holes taken
    /// to the end of the partie).
    #[arg(long, default_value_t = 0)]
    horizon: usize,
    /// Start from these weights (a weights file) instead of the untrained evaluation.
    #[arg(long)]
    from: Option<PathBuf>,
    /// Parties played at once (0: one per core; the weights do not depend on it).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Where the trained weights are written (the shipped file is
    /// crates/trictrac-engine/weights/trictrac-eval.txt).
    #[arg(long, default_value = "trictrac-eval.txt")]
    out: PathBuf,
    /// The checkpoint, written after every generation and on Ctrl-C.
    #[arg(long, default_value = "trictrac-train.ckpt")]
    checkpoint: PathBuf,
    /// Go on from the checkpoint.
    #[arg(long)]
    resume: bool,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

/// Writes the checkpoint atomically (a temporary file renamed over it).
fn save(ck: &Checkpoint, path: &Path) -> Result<()> {
    crate::common::write_file(path, ck.to_text().as_bytes())
}

/// Runs `tablier train trictrac`.
pub fn run(args: &TrainArgs) -> Result<()> {
    if args.generation == 0 {
        bail!("--generation must be at least 1");
    }
    if !(0.0..=1.0).contains(&args.discount) {
        bail!("--discount is between 0 and 1");
    }
    let mut ck = if args.resume {
        let text = std::fs::read_to_string(&args.checkpoint)
            .with_context(|| format!("reading {}", args.checkpoint.display()))?;
        let ck = Checkpoint::parse(&text)?;
        if ck.seed != args.seed {
            bail!(
                "the checkpoint was made with --seed {}, not {}",
                ck.seed,
                args.seed
            );
        }
        ck
    } else {
        let mut ck = Checkpoint::new(args.seed);
        if let Some(path) = &args.from {
            ck.weights = read_weights(path)?;
        }
        ck
    };
    let stop = interrupted();
    let bar = progress(args.games, args.quiet, "parties");
    bar.set_position(ck.games.min(args.games));
    let started = Instant::now();
    let run = Run {
        games: args.games,
        generation: args.generation,
        explore: args.explore,
        discount: args.discount,
        horizon: args.horizon,
        threads: if args.threads == 0 {
            std::thread::available_parallelism().map_or(1, usize::from)
        } else {
            args.threads
        },
    };
    let end = selfplay::train(&mut ck, &run, stop, &mut |progress| {
        match progress {
            Progress::Partie(_) => bar.inc(1),
            Progress::Generation(ck) => {
                save(ck, &args.checkpoint)?;
                bar.set_message(format!("generation {}", ck.games / args.generation));
            }
        }
        Ok::<(), anyhow::Error>(())
    })?;
    if end.stopped {
        save(&ck, &args.checkpoint)?;
        bar.abandon();
        eprintln!(
            "stopped: checkpoint at {} parties in {} (go on with --resume)",
            ck.games,
            args.checkpoint.display()
        );
        return Ok(());
    }
    bar.finish();
    std::fs::write(&args.out, ck.weights.to_text())
        .with_context(|| format!("writing {}", args.out.display()))?;
    let secs = started.elapsed().as_secs_f64();
    println!(
        "{} self-play parties ({} positions this run) in {:.0} s; weights in {}",
        ck.games,
        end.samples,
        secs,
        args.out.display()
    );
    Ok(())
}
