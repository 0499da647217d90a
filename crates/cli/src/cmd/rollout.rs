//! `tablier rollout`: a backgammon position played out many times, with luck adjustment.

use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use clap::Args;
use tablier_backgammon::Position;
use tablier_backgammon_engine::eval::{Probs, Scratch};

use crate::cmd::backgammon::evaluator;
use crate::common::{interrupted, progress};

/// `tablier rollout`.
#[derive(Args)]
pub struct RolloutArgs {
    /// The position, side on roll before rolling: a Position ID or a GNUbgID.
    #[arg(long)]
    id: String,
    /// Games played out.
    #[arg(long, default_value_t = 1296)]
    trials: u32,
    /// Stop each game after this many plies and evaluate (0 = play to the end).
    #[arg(long, default_value_t = 0)]
    truncate: u32,
    /// Depth of each play's search in the games played out (0: the best play at 0-ply; 1 or
    /// 2: the plays that pass the move filter searched that deep, about 21 times the cost a
    /// ply).
    #[arg(long, default_value_t = 0)]
    plies: u32,
    /// No luck adjustment (plain averages of the results).
    #[arg(long)]
    no_variance_reduction: bool,
    /// Seed of the dice.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Weights to use instead of the shipped ones.
    #[arg(long)]
    weights: Option<PathBuf>,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

/// Formats five probabilities and their cubeless equity.
fn show_probs(p: &Probs) -> String {
    format!(
        "win {:.4} (gammon {:.4}, backgammon {:.4})  lose {:.4} (gammon {:.4}, backgammon {:.4})",
        p[0],
        p[1],
        p[2],
        1.0 - p[0],
        p[3],
        p[4]
    )
}

/// Runs `tablier rollout`.
pub fn run(args: &RolloutArgs) -> Result<()> {
    use tablier_backgammon_engine::rollout::{rollout as run, RolloutConfig};
    let ev = evaluator(args.weights.as_deref())?;
    let pid = args.id.trim().split(':').next().unwrap_or_default();
    let pos = Position::from_position_id(pid)
        .with_context(|| format!("bad Position ID {:?}", args.id))?;
    if pos.is_over() {
        bail!("the game is over in this position: nothing to roll out");
    }
    if args.trials == 0 {
        bail!("--trials must be at least 1");
    }
    if args.plies > 2 {
        bail!("--plies is 0 to 2");
    }
    let cfg = RolloutConfig {
        trials: args.trials,
        truncate: args.truncate,
        variance_reduction: !args.no_variance_reduction,
        seed: args.seed,
        plies: args.plies,
    };
    let mut s = Scratch::default();
    let stat = ev.probs(&pos, &mut s);
    println!("position {pid}, side on roll; pips {:?}", pos.pip_count());
    println!(
        "0-ply:   {}  equity {:+.4}",
        show_probs(&stat),
        tablier_backgammon_engine::eval::equity(&stat)
    );
    let stop = interrupted();
    let bar = progress(u64::from(args.trials), args.quiet, "trials");
    let started = Instant::now();
    let stats = run(&ev, &pos, &cfg, |st| {
        bar.set_position(u64::from(st.trials));
        if st.trials % 36 == 0 {
            let (e, se) = st.equity();
            bar.set_message(format!("{e:+.4} ± {se:.4}"));
        }
        !stop.load(Ordering::Relaxed)
    });
    bar.finish_and_clear();
    let (e, se) = stats.equity();
    println!(
        "rollout: {}  equity {e:+.4} ± {se:.4} (standard error)",
        show_probs(&stats.probs())
    );
    println!(
        "{} trials{}{}{}, {:.1} s{}",
        stats.trials,
        if cfg.plies > 0 {
            format!(", plays searched {} ply", cfg.plies)
        } else {
            String::new()
        },
        if cfg.truncate > 0 {
            format!(", truncated after {} plies", cfg.truncate)
        } else {
            String::new()
        },
        if cfg.variance_reduction {
            ", luck-adjusted"
        } else {
            ""
        },
        started.elapsed().as_secs_f64(),
        if stats.trials < args.trials {
            " (interrupted)"
        } else {
            ""
        }
    );
    Ok(())
}
