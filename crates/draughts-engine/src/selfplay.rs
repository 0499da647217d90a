//! Self-play for `tablier train draughts`: the games of the Texel tuning ([`texel_games`]),
//! games played on several threads at once ([`self_play_parallel`]) and the positions the
//! pattern tables learn from ([`pattern_samples`]), and the match that checks the result
//! ([`check_match`]). No I/O: progress comes through callbacks, and a stop flag ends the
//! work between two games.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use tablier_draughts::{G8, ENGLISH};
//! use tablier_draughts_engine::selfplay::texel_games;
//! use tablier_draughts_engine::tune::PlayConfig;
//! use tablier_draughts_engine::Engine;
//!
//! let mut engine = Engine::<G8>::new(&ENGLISH, 1);
//! let config = PlayConfig { depth: 1, opening_plies: 4, max_plies: 40 };
//! let mut seen = 0;
//! let games = texel_games(&mut engine, &config, 2, 1, &AtomicBool::new(false), &mut |g| {
//!     seen = g.games;
//! });
//! assert_eq!((games.games, seen), (2, 2));
//! assert_eq!(games.results.iter().sum::<u32>(), 2);
//! ```

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::Mutex;

use rand::rngs::StdRng;
use rand::SeedableRng;
use tablier_draughts::{Geometry, Variant};

use crate::patterns::{PatternSamples, Windows};
use crate::tune::{self, MatchScore, PlayConfig, PlayedGame, Sample};
use crate::{Engine, Evaluator, Weights};

/// The games of a Texel tuning: their samples (every tenth game held out, to measure the
/// loss on positions the fit never saw), and their results.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TexelGames {
    /// Samples of the games the weights are fitted on.
    pub train: Vec<Sample>,
    /// Samples of the games held out.
    pub held_out: Vec<Sample>,
    /// Games played to their end.
    pub games: u32,
    /// Games won by black, drawn, won by white.
    pub results: [u32; 3],
}

/// Up to `games` self-play games of `engine` ([`tune::self_play_game`]: balloted
/// openings drawn from a stream seeded by `seed`, then `config`'s depth), one after
/// another; `on_game` hears the tally after each. Stops early when `stop` is set (the game
/// in progress is not counted).
pub fn texel_games<G: Geometry>(
    engine: &mut Engine<G>,
    config: &PlayConfig,
    games: u32,
    seed: u64,
    stop: &AtomicBool,
    on_game: &mut dyn FnMut(&TexelGames),
) -> TexelGames {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out = TexelGames::default();
    for i in 0..games {
        let Some(samples) = tune::self_play_game(engine, config, &mut rng, stop) else {
            break;
        };
        out.games += 1;
        if let Some(s) = samples.first() {
            out.results[(s.result * 2.0) as usize] += 1;
        }
        if i % 10 == 9 {
            out.held_out.extend(samples);
        } else {
            out.train.extend(samples);
        }
        on_game(&out);
    }
    out
}

/// `games` self-play games of `weights` on `threads` threads (at least one), each thread
/// with an engine of its own and a stream seeded from `seed` and its number: each game's
/// quiet positions with their search scores, and its result for white
/// ([`tune::self_play_positions`]). `on_game` is
/// called (from the threads) after each game. Stops early when `stop` is set.
#[allow(clippy::too_many_arguments)]
pub fn self_play_parallel<G: Geometry>(
    variant: &'static Variant,
    weights: &Weights,
    config: &PlayConfig,
    games: u32,
    threads: usize,
    seed: u64,
    stop: &AtomicBool,
    on_game: &(dyn Fn() + Sync),
) -> Vec<PlayedGame<G>> {
    let played = Mutex::new(Vec::new());
    on_threads(
        threads,
        games,
        |t| {
            let engine = Engine::<G>::with_weights(variant, 16, weights.clone());
            (engine, StdRng::seed_from_u64(seed ^ ((t as u64) << 32)))
        },
        |(engine, rng)| {
            let Some(game) = tune::self_play_positions(engine, config, rng, stop) else {
                return false;
            };
            played.lock().expect("no thread panics").push(game);
            on_game();
            true
        },
    );
    played.into_inner().expect("no thread panics")
}

/// `pairs` pairs of games (balloted openings, colours reversed: [`tune::play_pair`]) of
/// `a` against `b` on `threads` threads (at least one; each with its own engines and a
/// stream seeded from `seed` and its number): `a`'s score. `on_pair` hears the score after
/// each pair. Stops early when `stop` is set.
#[allow(clippy::too_many_arguments)]
pub fn check_match<G: Geometry>(
    variant: &'static Variant,
    a: &Weights,
    b: &Weights,
    config: &PlayConfig,
    pairs: u32,
    threads: usize,
    seed: u64,
    stop: &AtomicBool,
    on_pair: &(dyn Fn(&MatchScore) + Sync),
) -> MatchScore {
    let score = Mutex::new(MatchScore::default());
    on_threads(
        threads,
        pairs,
        |t| {
            let first = Engine::<G>::with_weights(variant, 16, a.clone());
            let second = Engine::<G>::with_weights(variant, 16, b.clone());
            let rng = StdRng::seed_from_u64(seed ^ 0x5eed_cafe ^ ((t as u64) << 40));
            (first, second, rng)
        },
        |(first, second, rng)| {
            let Some(pair) = tune::play_pair(first, second, config, rng, stop) else {
                return false;
            };
            let mut s = score.lock().expect("no thread panics");
            for x in pair {
                s.add(x);
            }
            on_pair(&s);
            true
        },
    );
    score.into_inner().expect("no thread panics")
}

/// Runs `jobs` jobs on `threads` threads (at least one): each thread makes its state with
/// `setup` (given the thread's number), then takes jobs one at a time while there are some
/// left, until `job` returns `false`.
fn on_threads<S>(
    threads: usize,
    jobs: u32,
    setup: impl Fn(usize) -> S + Sync,
    job: impl Fn(&mut S) -> bool + Sync,
) {
    let next = AtomicU32::new(0);
    std::thread::scope(|scope| {
        for t in 0..threads.max(1) {
            let (next, setup, job) = (&next, &setup, &job);
            scope.spawn(move || {
                let mut state = setup(t);
                while next.fetch_add(1, Ordering::Relaxed) < jobs {
                    if !job(&mut state) {
                        break;
                    }
                }
            });
        }
    });
}

/// What the pattern tables learn from: the positions of `games` (every tenth game held
/// out) as pattern samples over the linear evaluation of `weights`, and all of them as
/// linear samples (to fit the scale `K` with [`tune::fit_k`]).
pub struct PatternData {
    /// The samples the tables are fitted on.
    pub train: PatternSamples,
    /// The samples held out.
    pub held_out: PatternSamples,
    /// Every position as a sample of the linear evaluation.
    pub linear: Vec<Sample>,
}

/// The samples of [`PatternData`] for `games` (each game's positions, their search scores and
/// the result for white), evaluated with `weights`.
#[must_use]
pub fn pattern_samples<G: Geometry>(
    variant: &'static Variant,
    weights: &Weights,
    games: &[PlayedGame<G>],
) -> PatternData {
    let windows = Windows::<G>::new();
    let eval = Evaluator::<G>::new(variant, weights.clone());
    let mut data = PatternData {
        train: PatternSamples::new(windows.len()),
        held_out: PatternSamples::new(windows.len()),
        linear: Vec::new(),
    };
    let mut configs = Vec::new();
    for (i, game) in games.iter().enumerate() {
        // Every tenth game is held out.
        let set = if i % 10 == 9 {
            &mut data.held_out
        } else {
            &mut data.train
        };
        for (j, pos) in game.positions.iter().enumerate() {
            windows.configs(pos, &mut configs);
            set.push_scored(
                eval.linear_white(pos),
                game.result,
                game.scores.get(j).copied().flatten(),
                windows.phase(pos),
                &configs,
            );
            data.linear.push(Sample {
                features: eval.feature_diff(pos).map(|x| x as f32),
                result: game.result,
            });
        }
    }
    data
}
