//! `tablier train backgammon-label` and `backgammon-fit`: positions from the engine's own
//! games labelled by its n-ply search (on every core, into a text file that a later run appends
//! to), then the nets fitted to those labels with a held-out loss.

use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use clap::Args;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tablier_backgammon_engine::eval::{classify, net_of, Class, Evaluator, Scratch, NET_CRASHED};
use tablier_backgammon_engine::rollout::{rollout, RolloutConfig};
use tablier_backgammon_engine::supervised::{
    draw_positions, fit_epoch, label, loss, loss_by_net, parse_line, to_line, Loss, Sample,
};

use crate::cmd::backgammon::evaluator;
use crate::common::{for_each_index, interrupted, progress};

/// `tablier train backgammon-label`.
#[derive(Args)]
pub struct LabelArgs {
    /// Self-play games to draw positions from.
    #[arg(long, default_value_t = 1_000)]
    games: u64,
    /// Depth of the labels' search (1 to 3; 0: the nets' own values, to hold a fit where it
    /// should not move).
    #[arg(long, default_value_t = 2)]
    plies: u32,
    /// Label by rollouts of this many games each (luck-adjusted, played to the end at 0-ply)
    /// instead of a search.
    #[arg(long, default_value_t = 0)]
    rollout: u32,
    /// With `--rollout`: stop each trial after this many plies and let the nets' 0-ply value
    /// stand for the rest of the game (0: play to the end). A truncated rollout costs a
    /// fraction of a whole one and still looks far deeper than a search.
    #[arg(long, default_value_t = 0)]
    truncate: u32,
    /// With `--rollout`: depth of each play's search in the games played out (0: the best play
    /// at 0-ply). Deeper play costs about 21 times as much a ply; it labels right the
    /// positions whose play the nets get wrong at 0-ply.
    #[arg(long, default_value_t = 0)]
    rollout_plies: u32,
    /// Keep only contact positions where one side or the other has borne off at least this
    /// many checkers (0: every position): the rare endings where a few checkers left meet a
    /// hit or a checker on the bar.
    #[arg(long, default_value_t = 0)]
    min_off: u8,
    /// Keep only contact positions (races are left to the race net and the bear-off
    /// databases).
    #[arg(long)]
    contact: bool,
    /// Keep only crashed positions (contact where a side has six live checkers or fewer,
    /// those of the crashed net).
    #[arg(long)]
    crashed: bool,
    /// Keep only contact positions where one side leads the race by at least this many pips
    /// (0: every position): those where a racing lead meets contact still to come.
    #[arg(long, default_value_t = 0)]
    min_pip_gap: u32,
    /// Keep only contact positions where the side on roll's winning chance (the nets' own,
    /// 0-ply) is at least this: with `--max-win`, the doubling window, where take and pass
    /// decisions are made.
    #[arg(long, default_value_t = 0.0)]
    min_win: f32,
    /// Keep only positions where the side on roll's 0-ply winning chance is at most this.
    #[arg(long, default_value_t = 1.0)]
    max_win: f32,
    /// Share of each game's positions that are labelled (0 to 1).
    #[arg(long, default_value_t = 0.25)]
    sample: f64,
    /// Chance that a self-play move is one of the three best drawn at random.
    #[arg(long, default_value_t = 0.1)]
    explore: f64,
    /// Seed of the games' dice (game `g` uses the seed and `g`: another seed, other games).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Threads (0: one per core).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Weights that play and search (default: the shipped ones).
    #[arg(long)]
    weights: Option<PathBuf>,
    /// File the labelled positions are appended to, one per line (Position ID and five
    /// probabilities).
    #[arg(long)]
    out: PathBuf,
    /// No progress bar (for logs).
    #[arg(long)]
    quiet: bool,
}

/// Runs `tablier train backgammon-label`.
pub fn label_run(args: &LabelArgs) -> Result<()> {
    if args.plies > 3 {
        bail!("--plies is 0 to 3");
    }
    if !(0.0..=1.0).contains(&args.sample) || !(0.0..=1.0).contains(&args.explore) {
        bail!("--sample and --explore are between 0 and 1");
    }
    if !(0.0..=1.0).contains(&args.min_win) || !(args.min_win..=1.0).contains(&args.max_win) {
        bail!("--min-win and --max-win are between 0 and 1, the first no greater");
    }
    if args.truncate > 0 && args.rollout == 0 {
        bail!("--truncate is for rollouts: give --rollout too");
    }
    if args.rollout_plies > 0 && args.rollout == 0 {
        bail!("--rollout-plies is for rollouts: give --rollout too");
    }
    if args.rollout_plies > 2 {
        bail!("--rollout-plies is 0 to 2");
    }
    let windowed = args.min_win > 0.0 || args.max_win < 1.0;
    let ev = evaluator(args.weights.as_deref())?;
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&args.out)
        .with_context(|| format!("opening {}", args.out.display()))?;
    let out = Mutex::new(std::io::BufWriter::new(file));
    let stop = interrupted();
    let bar = progress(args.games, args.quiet, "games");
    let labels = AtomicU64::new(0);
    let started = Instant::now();
    let failed: Mutex<Option<anyhow::Error>> = Mutex::new(None);
    for_each_index(args.threads, args.games, stop, |g| {
        let mut rng = ChaCha8Rng::seed_from_u64(args.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ g);
        let mut s = Scratch::default();
        let (mut lines, mut count) = (String::new(), 0);
        for pos in draw_positions(&ev, args.explore, &mut rng, &mut s) {
            if args.contact && classify(&pos) != Class::Contact {
                continue;
            }
            if args.crashed && net_of(&pos) != Some(NET_CRASHED) {
                continue;
            }
            if args.min_off > 0
                && (classify(&pos) != Class::Contact
                    || pos.mover_off().max(pos.opponent_off()) < args.min_off)
            {
                continue;
            }
            if args.min_pip_gap > 0 {
                let (a, b) = pos.pip_count();
                if classify(&pos) != Class::Contact || a.abs_diff(b) < args.min_pip_gap {
                    continue;
                }
            }
            if windowed {
                let win = ev.probs(&pos, &mut s)[0];
                if classify(&pos) != Class::Contact || !(args.min_win..=args.max_win).contains(&win)
                {
                    continue;
                }
            }
            if !rng.gen_bool(args.sample) {
                continue;
            }
            if stop.load(Ordering::Relaxed) {
                return; // this game's labels are dropped whole
            }
            let target = if args.rollout > 0 {
                let cfg = RolloutConfig {
                    trials: args.rollout,
                    truncate: args.truncate,
                    variance_reduction: true,
                    seed: rng.gen(),
                    plies: args.rollout_plies,
                };
                // Luck-adjusted means can stray a little outside [0, 1].
                rollout(&ev, &pos, &cfg, |_| !stop.load(Ordering::Relaxed))
                    .probs()
                    .map(|p| p.clamp(0.0, 1.0))
            } else if args.plies == 0 {
                ev.probs(&pos, &mut s)
            } else {
                label(&ev, &pos, args.plies, &mut s)
            };
            if stop.load(Ordering::Relaxed) {
                return;
            }
            lines += &to_line(&Sample { pos, target });
            lines.push('\n');
            count += 1;
        }
        let mut w = out.lock().expect("the writer is not poisoned");
        match w.write_all(lines.as_bytes()).and_then(|()| w.flush()) {
            Ok(()) => {
                labels.fetch_add(count, Ordering::Relaxed);
            }
            Err(e) => {
                *failed.lock().expect("not poisoned") = Some(e.into());
                stop.store(true, Ordering::Relaxed);
            }
        }
        bar.inc(1);
        bar.set_message(format!("{} labels", labels.load(Ordering::Relaxed)));
    });
    bar.finish();
    if let Some(e) = failed.into_inner().expect("not poisoned") {
        return Err(e.context(format!("writing {}", args.out.display())));
    }
    eprintln!(
        "{} positions labelled {} in {:.0} s, appended to {}",
        labels.load(Ordering::Relaxed),
        if args.rollout > 0 {
            format!(
                "by rollouts of {} games{}{}",
                args.rollout,
                if args.truncate > 0 {
                    format!(" truncated at {} plies", args.truncate)
                } else {
                    String::new()
                },
                if args.rollout_plies > 0 {
                    format!(", plays searched {} ply", args.rollout_plies)
                } else {
                    String::new()
                }
            )
        } else {
            format!("at {} plies", args.plies)
        },
        started.elapsed().as_secs_f64(),
        args.out.display()
    );
    Ok(())
}

/// `tablier train backgammon-fit`.
#[derive(Args)]
pub struct FitArgs {
    /// Files of labelled positions (from `train backgammon-label`).
    #[arg(long, required = true, num_args = 1..)]
    data: Vec<PathBuf>,
    /// Weights to start from (default: the shipped ones).
    #[arg(long)]
    weights: Option<PathBuf>,
    /// Where the fitted weights go (those of the epoch with the lowest held-out loss).
    #[arg(long)]
    out: PathBuf,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 10)]
    epochs: u32,
    /// Learning rate of the first epoch.
    #[arg(long, default_value_t = 0.01)]
    alpha: f32,
    /// Each epoch's learning rate is the previous one's times this.
    #[arg(long, default_value_t = 0.8)]
    decay: f32,
    /// Share of the positions held out to measure the fit (0: measure it on the positions
    /// fitted and keep the last epoch).
    #[arg(long, default_value_t = 0.05)]
    held_out: f64,
    /// Seed of the split and of the order of the positions.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Widen each net to this many hidden units first (the new ones start with no say).
    #[arg(long)]
    hidden: Option<usize>,
}

fn show(what: &str, ev: &Evaluator, samples: &[Sample]) -> (Loss, String) {
    let [c, r, k] = loss_by_net(ev, samples);
    let l = loss(ev, samples);
    let text = format!(
        "{what}: cross-entropy {:.5}, equity error {:.4} (contact {:.4}, race {:.4}, crashed {:.4}; {} positions)",
        l.cross_entropy, l.equity_error, c.equity_error, r.equity_error, k.equity_error, l.samples
    );
    (l, text)
}

/// Runs `tablier train backgammon-fit`.
pub fn fit_run(args: &FitArgs) -> Result<()> {
    if !(0.0..0.9).contains(&args.held_out) {
        bail!("--held-out is a share below 0.9");
    }
    let mut ev = evaluator(args.weights.as_deref())?;
    let mut rng = ChaCha8Rng::seed_from_u64(args.seed);
    if let Some(h) = args.hidden {
        if h < ev.nets[0].hidden() || h > 4096 {
            bail!(
                "--hidden widens the nets: at least {} and at most 4096",
                ev.nets[0].hidden()
            );
        }
        for net in &mut ev.nets {
            *net = net.widen_hidden(h, &mut rng);
        }
    }
    let mut samples = Vec::new();
    for path in &args.data {
        let file =
            std::fs::File::open(path).with_context(|| format!("opening {}", path.display()))?;
        for (i, line) in std::io::BufReader::new(file).lines().enumerate() {
            let line = line.with_context(|| format!("reading {}", path.display()))?;
            if line.trim().is_empty() {
                continue;
            }
            let s = parse_line(&line)
                .map_err(|e| anyhow::anyhow!("{}:{}: {e}", path.display(), i + 1))?;
            samples.push(s);
        }
    }
    if samples.len() < 20 {
        bail!("{} labelled positions are too few to fit", samples.len());
    }
    use rand::seq::SliceRandom;
    samples.shuffle(&mut rng);
    // With nothing held out the loss is measured on the positions fitted, and the last epoch
    // is kept.
    let held = (samples.len() as f64 * args.held_out) as usize;
    let (test, train) = match samples.split_at(held) {
        ([], all) => (all, all),
        split => split,
    };
    let measured = if held == 0 { "fitted" } else { "held out" };
    eprintln!(
        "{} positions: {} to fit, {held} held out",
        samples.len(),
        train.len()
    );
    let (mut best, text) = show(&format!("start, {measured}"), &ev, test);
    eprintln!("{text}");
    let mut best_ev = ev.clone();
    let stop = interrupted();
    let mut alpha = args.alpha;
    for epoch in 1..=args.epochs {
        if stop.load(Ordering::Relaxed) {
            eprintln!("interrupted");
            break;
        }
        let t = Instant::now();
        fit_epoch(&mut ev, train, alpha, &mut rng);
        let (l, text) = show(&format!("epoch {epoch}, {measured}"), &ev, test);
        eprintln!(
            "{text} (alpha {alpha:.5}, {:.0} s)",
            t.elapsed().as_secs_f64()
        );
        if held == 0 || l.cross_entropy < best.cross_entropy {
            best = l;
            best_ev = ev.clone();
        }
        alpha *= args.decay;
    }
    crate::common::write_file(&args.out, &best_ev.to_bytes())?;
    let (_, text) = show(&format!("kept, {measured}"), &best_ev, test);
    eprintln!("{text}; wrote {}", args.out.display());
    Ok(())
}
