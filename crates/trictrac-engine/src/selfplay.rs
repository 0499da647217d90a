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
//! let run = Run { games: 2, generation: 1, explore: 0.05, discount: 0.6 };
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

use std::sync::atomic::{AtomicBool, Ordering};

use crate::eval::{Weights, WeightsError};
use crate::train::{self_play, Regression};

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
}

/// What [`train`] reports as it goes.
pub enum Progress<'a> {
    /// A party was played.
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
/// `progress`; stops between two parties when `stop` is set.
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
        let samples = self_play(&ck.weights, ck.seed, ck.games, run.explore);
        samples_now += samples.len() as u64;
        for s in &samples {
            ck.regression.add(s);
        }
        ck.games += 1;
        progress(Progress::Partie(ck))?;
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

#[cfg(test)]
mod tests {
    use super::*;

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
