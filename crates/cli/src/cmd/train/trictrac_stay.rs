//! `tablier train trictrac-stay`: the correction of staying after a hole
//! ([`tablier_trictrac_engine::rester`]), fitted on the engine's own go decisions played out
//! both ways, written as the data file the engine ships
//! (crates/trictrac-engine/weights/trictrac-stay.txt).

use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use clap::Args;
use tablier_trictrac_engine::rester::{
    decisions_of_partie, fit, play_out, GoDecision, StayModel, STAY_INPUTS,
};
use tablier_trictrac_engine::train::partie_dice;
use tablier_trictrac_engine::{Search, SearchPlayer, Weights};

use crate::common::{for_each_index, interrupted, progress};

/// `tablier train trictrac-stay`.
#[derive(Args)]
pub struct StayArgs {
    /// Self-play parties in 12 holes whose go decisions are played out (the shipped
    /// engine, 1 ply, margin objective, against itself).
    #[arg(long, default_value_t = 100)]
    parties: u64,
    /// Play-outs of each decision, each choice with the same dice.
    #[arg(long, default_value_t = 4)]
    pairs: u32,
    /// Throws of each play-out before the evaluation values where it got.
    #[arg(long, default_value_t = 16)]
    horizon: u32,
    /// Seed of the dice and of the exploration noise.
    #[arg(long, default_value_t = 11)]
    seed: u64,
    /// Random term of ±this many holes on every value in the self-play parties (the
    /// play-outs have none), so that the parties differ.
    #[arg(long, default_value_t = 0.05)]
    explore: f64,
    /// Ridge term (times the number of samples) of the least squares.
    #[arg(long, default_value_t = 1e-3)]
    ridge: f64,
    /// Threads (0: one per core).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Also write every sample (inputs, then the target) to this file, one per line.
    #[arg(long)]
    samples: Option<PathBuf>,
    /// Fit on a samples file written by `--samples` instead of playing.
    #[arg(long, conflicts_with = "samples")]
    from_samples: Option<PathBuf>,
    /// Where the model file is written.
    #[arg(long, default_value = "trictrac-stay.txt")]
    out: PathBuf,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

/// One decision's inputs and its target (played-out stay − go less the search's).
type Sample = (Vec<f64>, f64);

/// Runs `tablier train trictrac-stay`. Ctrl-C stops the play-outs and fits on those done.
pub fn run(args: &StayArgs) -> Result<()> {
    let started = Instant::now();
    let (samples, how) = match &args.from_samples {
        Some(path) => (
            read_samples(path)?,
            format!("--from-samples {}", path.display()),
        ),
        None => {
            let s = play(args)?;
            if let Some(path) = &args.samples {
                std::fs::write(path, samples_text(&s))
                    .with_context(|| format!("writing {}", path.display()))?;
            }
            (
                s,
                format!(
                    "--parties {} --pairs {} --horizon {} --seed {} --explore {}",
                    args.parties, args.pairs, args.horizon, args.seed, args.explore
                ),
            )
        }
    };
    if samples.len() < 2 * STAY_INPUTS {
        bail!(
            "{} decisions are too few to fit {STAY_INPUTS} weights",
            samples.len()
        );
    }
    // Held out: fitted on the even decisions, judged on the odd ones.
    let (even, odd): (Vec<Sample>, Vec<Sample>) = {
        let (e, o): (Vec<_>, Vec<_>) = samples
            .iter()
            .cloned()
            .enumerate()
            .partition(|(i, _)| i % 2 == 0);
        (
            e.into_iter().map(|x| x.1).collect(),
            o.into_iter().map(|x| x.1).collect(),
        )
    };
    let half = fit(&even, args.ridge).context("the least squares have no solution")?;
    let model = fit(&samples, args.ridge).context("the least squares have no solution")?;
    let (before, after) = errors(&half, &odd);
    let flips = samples
        .iter()
        .filter(|(x, _)| {
            let searched = x[STAY_INPUTS - 1];
            (searched > 0.0) != (searched + model.correction_of(x) > 0.0)
        })
        .count();
    let mean = samples.iter().map(|s| s.1).sum::<f64>() / samples.len() as f64;
    let comment = format!(
        "Made by: tablier train trictrac-stay {how} --ridge {}\n\
         {} go decisions played out; mean played-out stay − go less the search's: {mean:+.3} holes.\n\
         Held out (fitted on half, judged on the other): RMS error {before:.3} holes without the \
         correction, {after:.3} with it; the correction turns {flips} of the {} decisions.\n\
         {:.0} s.",
        args.ridge,
        samples.len(),
        samples.len(),
        started.elapsed().as_secs_f64()
    );
    std::fs::write(&args.out, model.to_text(&comment))
        .with_context(|| format!("writing {}", args.out.display()))?;
    println!("{comment}");
    println!("model in {}", args.out.display());
    Ok(())
}

/// Self-play parties, then every go decision played out.
fn play(args: &StayArgs) -> Result<Vec<Sample>> {
    if args.parties == 0 || args.pairs == 0 {
        bail!("--parties and --pairs must be at least 1");
    }
    let stop = interrupted();
    let search = Search::new(Weights::shipped(), 1);
    let found = Mutex::new(Vec::<(u64, Vec<GoDecision>)>::new());
    let bar = progress(args.parties, args.quiet, "parties");
    for_each_index(args.threads, args.parties, stop, |n| {
        let mut white = SearchPlayer::new(search.clone(), args.explore, args.seed ^ (n << 1));
        let mut black = SearchPlayer::new(search.clone(), args.explore, args.seed ^ ((n << 1) | 1));
        let ds = decisions_of_partie(&mut white, &mut black, &mut partie_dice(args.seed, n));
        found
            .lock()
            .expect("no thread panics holding it")
            .push((n, ds));
        bar.inc(1);
    });
    bar.finish_and_clear();
    let mut found = found.into_inner().expect("the threads are done");
    found.sort_by_key(|f| f.0);
    let decisions: Vec<GoDecision> = found.into_iter().flat_map(|f| f.1).collect();
    let done = Mutex::new(Vec::<(u64, Sample)>::new());
    let bar = progress(decisions.len() as u64, args.quiet, "decisions");
    for_each_index(args.threads, decisions.len() as u64, stop, |i| {
        let d = &decisions[i as usize];
        let out = play_out(&search, d, args.pairs, args.horizon, |k| {
            partie_dice(args.seed ^ 0x5741_5900, i * 1_000 + u64::from(k))
        });
        let (t, _, _) = d.begin();
        let x = StayModel::inputs(&t, out.search);
        let y = out.stay - out.go - out.search;
        done.lock()
            .expect("no thread panics holding it")
            .push((i, (x, y)));
        bar.inc(1);
    });
    bar.finish_and_clear();
    let mut done = done.into_inner().expect("the threads are done");
    done.sort_by_key(|d| d.0);
    Ok(done.into_iter().map(|d| d.1).collect())
}

/// The RMS of the targets, and of the targets less the model's correction.
fn errors(model: &StayModel, samples: &[Sample]) -> (f64, f64) {
    let n = samples.len().max(1) as f64;
    let (mut a, mut b) = (0.0, 0.0);
    for (x, y) in samples {
        a += y * y;
        let r = y - model.correction_of(x);
        b += r * r;
    }
    ((a / n).sqrt(), (b / n).sqrt())
}

fn samples_text(samples: &[Sample]) -> String {
    let mut s =
        format!("# tablier train trictrac-stay samples: {STAY_INPUTS} inputs, then the target\n");
    for (x, y) in samples {
        for v in x {
            let _ = write!(s, "{v} ");
        }
        let _ = writeln!(s, "{y}");
    }
    s
}

fn read_samples(path: &PathBuf) -> Result<Vec<Sample>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let v: Vec<f64> = line
            .split_whitespace()
            .map(|t| t.parse::<f64>().ok().filter(|x| x.is_finite()))
            .collect::<Option<Vec<f64>>>()
            .with_context(|| format!("{}, line {}: not numbers", path.display(), i + 1))?;
        if v.len() != STAY_INPUTS + 1 {
            bail!(
                "{}, line {}: {} numbers, expected {}",
                path.display(),
                i + 1,
                v.len(),
                STAY_INPUTS + 1
            );
        }
        out.push((v[..STAY_INPUTS].to_vec(), v[STAY_INPUTS]));
    }
    Ok(out)
}
