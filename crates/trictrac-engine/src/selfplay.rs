//! A training run by self-play, as `tablier train trictrac` drives it: parties of
//! [`crate::train::self_play`] one after another, the weights fitted again after every
//! generation, and a [`Checkpoint`] from which a stopped run goes on. No I/O: the caller
//! writes the checkpoint (its text form) when it is told to, and shows the progress.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use tablier_trictrac_engine::selfplay::{train, Checkpoint, Progress, Run};
//!
//! let mut ck = Checkpoint::new(7);
//! let run = Run { games: 2, generation: 1, explore: 0.05, discount: 0.6, horizon: 0, threads: 1 };
//! let mut generations = 0;
//! let end = train(&mut ck, &run, &AtomicBool::new(false), &mut |p| {
//!     if let Progress::Generation(c) = p {
//!         // A checkpoint to save: its text reads back as the same run.
//!         assert_eq!(Checkpoint::parse(&c.to_text()).unwrap().games, c.games);
//!         generations += 1;
//!     }
//!     Ok::<(), std::io::Error>(())
//! })
//! .unwrap();
//! assert_eq!((ck.games, generations, end.stopped), (2, 2, false));
//! ```

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;

use crate::eval::{Weights, WeightsError};
use crate::train::{self_play, Regression, Sample};

const CHECKPOINT_HEADER: &str = "tablier-trictrac-train 1";

/// Where a training run stands: its seed, the parties played, the weights of the last fit
/// and the regression's accumulator.
#[derive(Clone, Debug, PartialEq)]
pub struct Checkpoint {
    /// Seed of the self-play dice and of the exploration noise.
    pub seed: u64,
    /// Self-play parties played so far.
    pub games: u64,
    /// The weights the next parties are played with.
    pub weights: Weights,
    /// What the fits have gathered (older generations discounted).
    pub regression: Regression,
}

/// Why a checkpoint's text cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CheckpointError {
    /// The first line is not the checkpoint header.
    #[error("not a trictrac training checkpoint (expected {CHECKPOINT_HEADER:?})")]
    NotACheckpoint,
    /// The `seed` or `games` line is missing or not a number.
    #[error("checkpoint: expected `{name} N`, found {found:?}")]
    Field {
        /// The field expected.
        name: &'static str,
        /// The line found instead.
        found: String,
    },
    /// No `---` line ends the weights.
    #[error("checkpoint: no `---` after the weights")]
    NoSeparator,
    /// The weights cannot be read.
    #[error(transparent)]
    Weights(#[from] WeightsError),
    /// The regression cannot be read.
    #[error("checkpoint: {0}")]
    Regression(String),
}

impl Checkpoint {
    /// The start of a run seeded by `seed`: no party played, the untrained weights.
    #[must_use]
    pub fn new(seed: u64) -> Checkpoint {
        Checkpoint {
            seed,
            games: 0,
            weights: Weights::untrained(),
            regression: Regression::default(),
        }
    }

    /// The text form: a header, the seed and the parties played, the weights, `---`, then
    /// the regression.
    #[must_use]
    pub fn to_text(&self) -> String {
        format!(
            "{CHECKPOINT_HEADER}\nseed {}\ngames {}\n{}---\n{}",
            self.seed,
            self.games,
            self.weights.to_text(),
            self.regression.to_text()
        )
    }

    /// Reads [`Checkpoint::to_text`].
    ///
    /// # Errors
    /// What is missing or wrong.
    pub fn parse(text: &str) -> Result<Checkpoint, CheckpointError> {
        let mut lines = text.lines();
        if lines.next() != Some(CHECKPOINT_HEADER) {
            return Err(CheckpointError::NotACheckpoint);
        }
        let mut field = |name: &'static str| -> Result<u64, CheckpointError> {
            let l = lines.next().unwrap_or("");
            l.strip_prefix(name)
                .and_then(|v| v.trim().parse().ok())
                .ok_or_else(|| CheckpointError::Field {
                    name,
                    found: l.to_string(),
                })
        };
        let seed = field("seed")?;
        let games = field("games")?;
        let rest: Vec<&str> = lines.collect();
        let split = rest
            .iter()
            .position(|l| *l == "---")
            .ok_or(CheckpointError::NoSeparator)?;
        let weights = Weights::parse(&rest[..split].join("\n"))?;
        let regression = Regression::parse(&rest[split + 1..].join("\n"))
            .map_err(CheckpointError::Regression)?;
        Ok(Checkpoint {
            seed,
            games,
            weights,
            regression,
        })
    }
}

/// How a run trains.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Run {
    /// Self-play parties in all (a resumed run goes on to this number).
    pub games: u64,
    /// Parties between two fits of the weights (one generation; at least 1).
    pub generation: u64,
    /// Random term of ±this many holes on every value during self-play.
    pub explore: f64,
    /// Weight of the older samples at each new fit (1: keep all equally).
    pub discount: f64,
    /// Throws after which a sample's target trusts the evaluation (0: the holes to the end
    /// of the partie; see [`crate::train::self_play`]).
    pub horizon: usize,
    /// Parties of a generation played at once (at least 1; the weights do not depend on
    /// it: each partie's dice and noise come from its number, and its samples are added in
    /// the order of the numbers).
    pub threads: usize,
}

/// What [`train`] reports as it goes.
pub enum Progress<'a> {
    /// A party was played (its samples are added at the end of its generation).
    Partie(&'a Checkpoint),
    /// A generation ended: the weights were fitted again, and the checkpoint is one to save.
    Generation(&'a Checkpoint),
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct End {
    /// Positions (training samples) gathered by this call.
    pub samples: u64,
    /// Whether `stop` ended it before [`Run::games`] (the checkpoint is then where it
    /// stopped, for the caller to save).
    pub stopped: bool,
}

/// Plays the parties of `run` from `ck` on (each one's samples added to the regression),
/// fits the weights after every generation and after the last party, and reports to
/// `progress`; stops between two parties when `stop` is set (the parties of the generation
/// already finished in order are kept).
///
/// # Errors
/// The first error `progress` returns (saving the checkpoint failed, say): the run stops
/// there.
pub fn train<E>(
    ck: &mut Checkpoint,
    run: &Run,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(Progress<'_>) -> Result<(), E>,
) -> Result<End, E> {
    let mut samples_now = 0u64;
    while ck.games < run.games {
        if stop.load(Ordering::Relaxed) {
            return Ok(End {
                samples: samples_now,
                stopped: true,
            });
        }
        // The parties up to the end of this generation, on the threads.
        let first = ck.games;
        let last = (first / run.generation + 1) * run.generation;
        let played = play_generation(ck, first..last.min(run.games), run, stop, progress)?;
        for samples in &played {
            samples_now += samples.len() as u64;
            for s in samples {
                ck.regression.add(s);
            }
        }
        ck.games += played.len() as u64;
        if ck.games.is_multiple_of(run.generation) || ck.games == run.games {
            if let Some(w) = ck.regression.solve(1.0) {
                ck.weights = w;
            }
            ck.regression.discount(run.discount);
            progress(Progress::Generation(ck))?;
        }
    }
    Ok(End {
        samples: samples_now,
        stopped: false,
    })
}

/// Plays parties `range` with the weights of `ck` on `run.threads` threads and returns the
/// samples of the parties finished before `stop`, in order, up to the first one missing.
fn play_generation<E>(
    ck: &Checkpoint,
    range: std::ops::Range<u64>,
    run: &Run,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(Progress<'_>) -> Result<(), E>,
) -> Result<Vec<Vec<Sample>>, E> {
    let next = AtomicU64::new(range.start);
    // Set when `progress` fails: the workers stop at their next partie.
    let halt = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<(u64, Vec<Sample>)>();
    let mut done: Vec<Option<Vec<Sample>>> = vec![None; (range.end - range.start) as usize];
    std::thread::scope(|scope| {
        for _ in 0..run.threads.max(1) {
            let tx = tx.clone();
            let next = &next;
            let (range, halt) = (&range, &halt);
            scope.spawn(move || loop {
                if stop.load(Ordering::Relaxed) || halt.load(Ordering::Relaxed) {
                    return;
                }
                let n = next.fetch_add(1, Ordering::Relaxed);
                if n >= range.end {
                    return;
                }
                let samples = self_play(&ck.weights, ck.seed, n, run.explore, run.horizon);
                if tx.send((n, samples)).is_err() {
                    return;
                }
            });
        }
        drop(tx);
        for (n, samples) in rx {
            done[(n - range.start) as usize] = Some(samples);
            if let Err(e) = progress(Progress::Partie(ck)) {
                halt.store(true, Ordering::Relaxed);
                return Err(e);
            }
        }
        Ok(())
    })?;
    Ok(done.into_iter().map_while(|d| d).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The threads change nothing: the same parties, the same samples in the same order.
    #[test]
    fn the_weights_do_not_depend_on_the_threads() {
        let fit = |threads: usize| {
            let mut ck = Checkpoint::new(3);
            let run = Run {
                games: 3,
                generation: 2,
                explore: 0.05,
                discount: 0.6,
                horizon: 4,
                threads,
            };
            let mut parties = 0;
            let end = train(&mut ck, &run, &AtomicBool::new(false), &mut |p| {
                if let Progress::Partie(_) = p {
                    parties += 1;
                }
                Ok::<(), ()>(())
            })
            .unwrap();
            assert_eq!((parties, ck.games, end.stopped), (3, 3, false));
            (ck.weights, ck.regression.samples, end.samples)
        };
        assert_eq!(fit(1), fit(3));
    }

    /// A stop set before the run keeps the checkpoint as it was.
    #[test]
    fn a_stopped_run_plays_nothing_more() {
        let mut ck = Checkpoint::new(3);
        let run = Run {
            games: 4,
            generation: 2,
            explore: 0.05,
            discount: 0.6,
            horizon: 0,
            threads: 2,
        };
        let end = train(&mut ck, &run, &AtomicBool::new(true), &mut |_| {
            Ok::<(), ()>(())
        })
        .unwrap();
        assert!(end.stopped);
        assert_eq!((ck.games, end.samples), (0, 0));
    }

    #[test]
    fn checkpoint_round_trip_and_refusals() {
        let ck = Checkpoint {
            seed: 9,
            games: 42,
            weights: Weights::shipped(),
            regression: Regression::default(),
        };
        let back = Checkpoint::parse(&ck.to_text()).unwrap();
        assert_eq!((back.seed, back.games), (9, 42));
        assert_eq!(back.weights, ck.weights);
        assert_eq!(back.regression, ck.regression);
        assert!(Checkpoint::parse("something else").is_err());
        let cut = ck.to_text().replace("---\n", "");
        assert!(Checkpoint::parse(&cut).is_err());
    }
}
