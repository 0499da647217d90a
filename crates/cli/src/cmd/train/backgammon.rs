//! `tablier train backgammon`: the network trained by self-play (TD(λ)), with checkpoints
//! and duels against the previous one.

use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::time::Instant;

use anyhow::{bail, Result};
use clap::Args;
use tablier_backgammon_engine::eval::Evaluator;
use tablier_backgammon_engine::train::{duel, TrainConfig, Trainer};

use crate::cmd::backgammon::read_weights;
use crate::common::{interrupted, progress};

/// `tablier train backgammon`.
#[derive(Args)]
pub struct TrainArgs {
    /// Seed of the self-play dice and of the initial weights.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Self-play games to play in this run.
    #[arg(long, default_value_t = 100_000)]
    games: u64,
    /// Where the weights go (written at every checkpoint, at the end and on Ctrl-C).
    #[arg(long)]
    out: PathBuf,
    /// Continue from this weights file (its games count sets the learning rate).
    #[arg(long)]
    resume: Option<PathBuf>,
    /// Hidden units per net when starting from scratch.
    #[arg(long, default_value_t = 128)]
    hidden: usize,
    /// λ of TD(λ).
    #[arg(long, default_value_t = 0.7)]
    lambda: f32,
    /// Initial learning rate.
    #[arg(long, default_value_t = 0.05)]
    alpha: f32,
    /// Look-ahead of the one-step targets: 0 = the evaluation after the play made (plain
    /// TD(λ)), 1 = the 1-ply average over the 21 rolls (about 20 times slower per game).
    #[arg(long, default_value_t = 0)]
    target_plies: u32,
    /// Games between checkpoints; each checkpoint also plays a duel against the previous one.
    #[arg(long, default_value_t = 20_000)]
    checkpoint_every: u64,
    /// Games of each checkpoint duel (duplicate dice, 0-ply, cubeless; 0 = none).
    #[arg(long, default_value_t = 2_000)]
    duel_games: u32,
    /// No progress bar (for logs).
    #[arg(long)]
    quiet: bool,
}

/// Writes a weights file atomically (a temporary file renamed over the target).
fn write_weights(path: &Path, ev: &Evaluator) -> Result<()> {
    crate::common::write_file(path, &ev.to_bytes())
}

/// Runs `tablier train backgammon`.
pub fn run(args: &TrainArgs) -> Result<()> {
    if !(0.0..=1.0).contains(&args.lambda) {
        bail!("--lambda must be between 0 and 1");
    }
    if args.target_plies > 1 {
        bail!("--target-plies is 0 or 1");
    }
    if args.hidden == 0 || args.hidden > 4096 {
        bail!("--hidden must be between 1 and 4096");
    }
    let eval = match &args.resume {
        Some(p) => read_weights(p)?,
        None => Evaluator::random(args.hidden, args.seed),
    };
    let config = TrainConfig {
        lambda: args.lambda,
        alpha: args.alpha,
        target_plies: args.target_plies,
        ..TrainConfig::default()
    };
    let start_games = eval.games;
    eprintln!(
        "training from {} games, seed {}, {} hidden units, lambda {}, alpha now {:.4}",
        start_games,
        args.seed,
        eval.nets[0].hidden(),
        config.lambda,
        config.alpha_at(start_games)
    );
    let mut trainer = Trainer::new(eval, args.seed, config);
    let mut previous = trainer.eval.clone();
    let stop = interrupted();
    let bar = progress(args.games, args.quiet, "games");
    let started = Instant::now();
    let mut plies = 0u64;
    for i in 1..=args.games {
        if stop.load(Ordering::Relaxed) {
            bar.abandon_with_message("interrupted");
            break;
        }
        plies += u64::from(trainer.play_and_learn().plies);
        bar.inc(1);
        if i % args.checkpoint_every == 0 || i == args.games {
            write_weights(&args.out, &trainer.eval)?;
            let mut line = format!(
                "{} games total ({} this run, {:.0} s, {:.1} games/s, {:.1} plies/game), alpha {:.4}",
                trainer.eval.games,
                i,
                started.elapsed().as_secs_f64(),
                i as f64 / started.elapsed().as_secs_f64(),
                plies as f64 / i as f64,
                trainer.config.alpha_at(trainer.eval.games),
            );
            if args.duel_games > 0 {
                let ppg = duel(
                    &trainer.eval,
                    &previous,
                    args.duel_games,
                    trainer.eval.games,
                );
                line += &format!(
                    "; vs previous checkpoint {ppg:+.3} ppg over {} games",
                    args.duel_games
                );
            }
            previous = trainer.eval.clone();
            bar.println(&line);
            if args.quiet {
                eprintln!("{line}");
            }
        }
    }
    write_weights(&args.out, &trainer.eval)?;
    bar.finish();
    eprintln!(
        "wrote {} ({} games in total, {:.0} s this run)",
        args.out.display(),
        trainer.eval.games,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
