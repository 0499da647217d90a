//! Texel-style tuning of the evaluation weights from games the engine plays against itself,
//! and the head-to-head match that checks the result. No I/O: `tablier train draughts` does
//! the files, the progress bars and Ctrl-C.
//!
//! 1. [`self_play_game`]: a game from a balloted opening ([`balloted_opening`]), each move
//!    searched to a fixed depth; every quiet position (the side to move has no capture)
//!    after the opening is kept as its feature differences ([`crate::eval::Evaluator::feature_diff`],
//!    white minus black) with the game's result for white (1, ½ or 0): a [`Sample`].
//! 2. [`fit_k`]: the scale `K` that makes `sigmoid(K · eval)` (the evaluation in centi-men
//!    from white's side) the best prediction of the results with the starting weights, by the
//!    logistic loss ([`log_loss`]). That is the loss before tuning.
//! 3. [`fit_weights`]: the weights that minimise the same loss. Since the evaluation is linear,
//!    `K · eval = Σ uᵢ fᵢ` with `uᵢ = K wᵢ`, and minimising over `K` and the weights together
//!    (the man's weight held at 100) is a logistic regression in `u`, solved exactly by
//!    Newton's method; then `K = u_men / 100` and `wᵢ = uᵢ / K`. A small ridge term pulls each
//!    `uᵢ` toward its starting value, so that a feature the games never show keeps its weight.
//!
//! # Example
//! ```
//! use tablier_draughts::INTERNATIONAL;
//! use tablier_draughts_engine::eval::{Weights, NUM_FEATURES};
//! use tablier_draughts_engine::tune::{fit_k, fit_weights, log_loss, Sample};
//!
//! // Two made-up samples: a man up wins, a man down loses.
//! let mut up = [0.0; NUM_FEATURES];
//! up[0] = 1.0;
//! let mut down = [0.0; NUM_FEATURES];
//! down[0] = -1.0;
//! let samples = [Sample { features: up, result: 1.0 }, Sample { features: down, result: 0.0 }];
//! let start = Weights::defaults(&INTERNATIONAL);
//! let k = fit_k(&samples, &start);
//! let fit = fit_weights(&samples, &start, 1e-3);
//! assert!(fit.loss_after <= log_loss(&samples, &start, k) + 1e-9);
//! assert_eq!(fit.weights.w[0], 100.0);
//! ```

use std::sync::atomic::{AtomicBool, Ordering};

use rand::seq::SliceRandom;
use rand::Rng;
use tablier_core::Side;
use tablier_draughts::game::{Ending, Game};
use tablier_draughts::{Geometry, Move, Position};

use crate::eval::{Weights, MAN, NUM_FEATURES};
use crate::search::Limits;
use crate::Engine;

/// One training position: its feature differences (white minus black) and the result of its
/// game for white (1 win, 0.5 draw, 0 loss).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// [`crate::Evaluator::feature_diff`] of the position.
    pub features: [f32; NUM_FEATURES],
    /// The game's result for white.
    pub result: f32,
}

/// How self-play and match games are played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayConfig {
    /// Search depth of every move after the opening (plies).
    pub depth: u32,
    /// Random plies of the balloted opening.
    pub opening_plies: u32,
    /// A game still going after this many plies is scored a draw.
    pub max_plies: u32,
}

impl Default for PlayConfig {
    fn default() -> Self {
        PlayConfig {
            depth: 4,
            opening_plies: 8,
            max_plies: 300,
        }
    }
}

/// An opening accepted by [`balloted_opening`] is worth at most this much (centi-men) to
/// either side by a 4-ply search.
pub const BALLOT_MARGIN: i32 = 60;

/// A balloted opening: `plies` random legal moves from the start, drawn again (up to 100
/// times) until a 4-ply search of `engine` scores the position within
/// [`BALLOT_MARGIN`] and the game is not over. Captures are played when forced, as in any game.
pub fn balloted_opening<G: Geometry>(
    engine: &mut Engine<G>,
    plies: u32,
    rng: &mut impl Rng,
) -> Vec<Move<G>> {
    let variant = engine.variant();
    let start = Game::<G>::start(variant).expect("the engine's board is the variant's");
    let mut last = Vec::new();
    for _ in 0..100 {
        let mut game = start.clone();
        let mut moves = Vec::new();
        for _ in 0..plies {
            let legal = game.legal_moves();
            let Some(m) = legal.choose(rng).copied() else {
                break;
            };
            game.play(&m).expect("a legal move");
            moves.push(m);
        }
        if game.ending().is_none() {
            let hist = history(&game);
            let r = engine.search(game.position(), hist, &Limits::depth(4), &mut |_| {});
            if r.score.abs() <= BALLOT_MARGIN {
                return moves;
            }
        }
        last = moves;
    }
    last
}

/// The positions before the current one since the last irreversible move.
fn history<G: Geometry>(game: &Game<G>) -> &[Position<G>] {
    let h = game.positions_since_irreversible();
    &h[..h.len().saturating_sub(1)]
}

/// The result for white of a finished game (a game cut at the ply limit is a draw).
fn white_score(ending: Option<Ending>) -> f32 {
    match ending {
        Some(Ending::NoMove {
            winner: Side::White,
        }) => 1.0,
        Some(Ending::NoMove {
            winner: Side::Black,
        }) => 0.0,
        _ => 0.5,
    }
}

/// Whether the side to move has no capture (the position is quiet: its static evaluation is
/// what the search would use).
#[must_use]
pub fn is_quiet<G: Geometry>(pos: &Position<G>) -> bool {
    let moves = pos.legal_moves();
    !moves.is_empty() && moves.iter().all(|m| !m.is_capture())
}

/// A game played by `white` and `black` from `opening`, each move searched to `depth`.
/// Returns the game, or `None` when `stop` was set.
pub fn play_game<G: Geometry>(
    white: &mut Engine<G>,
    black: Option<&mut Engine<G>>,
    opening: &[Move<G>],
    config: &PlayConfig,
    stop: &AtomicBool,
) -> Option<Game<G>> {
    play_game_scored(white, black, opening, config, stop).map(|(game, _)| game)
}

/// [`play_game`], with the score of the search of each ply in white's favour (centi-men):
/// `None` for the opening's plies and for moves played without a search (the only legal
/// move).
pub fn play_game_scored<G: Geometry>(
    white: &mut Engine<G>,
    mut black: Option<&mut Engine<G>>,
    opening: &[Move<G>],
    config: &PlayConfig,
    stop: &AtomicBool,
) -> Option<(Game<G>, Vec<Option<i32>>)> {
    let variant = white.variant();
    let mut game = Game::<G>::start(variant).expect("the engine's board is the variant's");
    let mut scores = Vec::new();
    white.new_game();
    if let Some(b) = black.as_deref_mut() {
        b.new_game();
    }
    for m in opening {
        if game.play(m).is_err() {
            break;
        }
        scores.push(None);
    }
    let limits = Limits::depth(config.depth.max(1));
    while game.ending().is_none() && (game.moves().len() as u32) < config.max_plies {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let pos = *game.position();
        let engine = match (pos.side_to_move(), black.as_deref_mut()) {
            (Side::Black, Some(b)) => b,
            _ => &mut *white,
        };
        let r = engine.search(&pos, history(&game), &limits, &mut |_| {});
        let Some(m) = r.best else { break };
        game.play(&m).ok()?;
        let white_score = match pos.side_to_move() {
            Side::White => r.score,
            Side::Black => -r.score,
        };
        scores.push((r.depth > 0).then_some(white_score));
    }
    Some((game, scores))
}

/// A self-play game of `engine` from a balloted opening, as training samples: every quiet
/// position after the opening, with the game's result. `None` when `stop` was set.
pub fn self_play_game<G: Geometry>(
    engine: &mut Engine<G>,
    config: &PlayConfig,
    rng: &mut impl Rng,
    stop: &AtomicBool,
) -> Option<Vec<Sample>> {
    let game = self_play_positions(engine, config, rng, stop)?;
    Some(
        game.positions
            .iter()
            .map(|pos| Sample {
                features: engine.evaluator().feature_diff(pos).map(|x| x as f32),
                result: game.result,
            })
            .collect(),
    )
}

/// A self-play game as training data: its quiet positions after the opening, the search's
/// score of each, and the game's result.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayedGame<G: Geometry> {
    /// The quiet positions after the opening, in the order played.
    pub positions: Vec<Position<G>>,
    /// For each position, the score in white's favour (centi-men) of the search that chose
    /// the move played there; `None` where the move was played without one.
    pub scores: Vec<Option<i32>>,
    /// The game's result for white (1, ½ or 0).
    pub result: f32,
}

/// A self-play game of `engine` from a balloted opening: every quiet position after the
/// opening with its search score, and the game's result for white. `None` when `stop` was
/// set.
pub fn self_play_positions<G: Geometry>(
    engine: &mut Engine<G>,
    config: &PlayConfig,
    rng: &mut impl Rng,
    stop: &AtomicBool,
) -> Option<PlayedGame<G>> {
    let opening = balloted_opening(engine, config.opening_plies, rng);
    let (game, ply_scores) = play_game_scored(engine, None, &opening, config, stop)?;
    let result = white_score(game.ending());
    let mut pos = *game.start_position();
    let mut positions = Vec::new();
    let mut scores = Vec::new();
    for (i, m) in game.moves().iter().enumerate() {
        if i >= opening.len() && is_quiet(&pos) {
            positions.push(pos);
            scores.push(ply_scores.get(i).copied().flatten());
        }
        pos.play_unchecked(m);
    }
    Some(PlayedGame {
        positions,
        scores,
        result,
    })
}

/// The score of a match, from the first player's side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MatchScore {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

impl MatchScore {
    /// Adds a game scored `score` (1, ½ or 0) for the first player.
    pub fn add(&mut self, score: f32) {
        if score > 0.75 {
            self.wins += 1;
        } else if score < 0.25 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }

    /// Games played.
    #[must_use]
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The score as a fraction of the points (0.5 with no game).
    #[must_use]
    pub fn fraction(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.5;
        }
        (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / f64::from(n)
    }

    /// The Elo difference the score means (±1000 for a clean sweep).
    #[must_use]
    pub fn elo(&self) -> f64 {
        elo_of(self.fraction())
    }

    /// The half-width of the 95% confidence interval of [`MatchScore::elo`] (from the games'
    /// win/draw/loss variance).
    #[must_use]
    pub fn elo_margin(&self) -> f64 {
        let n = f64::from(self.games());
        if n < 2.0 {
            return f64::INFINITY;
        }
        let s = self.fraction();
        let var = (f64::from(self.wins) + 0.25 * f64::from(self.draws)) / n - s * s;
        let se = (var.max(0.0) / n).sqrt();
        let lo = elo_of((s - 1.96 * se).max(0.0));
        let hi = elo_of((s + 1.96 * se).min(1.0));
        (hi - lo) / 2.0
    }
}

fn elo_of(s: f64) -> f64 {
    if s <= 0.0 {
        -1000.0
    } else if s >= 1.0 {
        1000.0
    } else {
        (-400.0 * (1.0 / s - 1.0).log10()).clamp(-1000.0, 1000.0)
    }
}

/// One pair of games of `first` against `second` from a balloted opening (drawn with
/// `first`'s weights), colours reversed. Returns `first`'s scores, or `None` when `stop` was
/// set.
pub fn play_pair<G: Geometry>(
    first: &mut Engine<G>,
    second: &mut Engine<G>,
    config: &PlayConfig,
    rng: &mut impl Rng,
    stop: &AtomicBool,
) -> Option<[f32; 2]> {
    let opening = balloted_opening(first, config.opening_plies, rng);
    let a = play_game(first, Some(second), &opening, config, stop)?;
    let b = play_game(second, Some(first), &opening, config, stop)?;
    Some([white_score(a.ending()), 1.0 - white_score(b.ending())])
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// `-ln σ(z)`, computed without overflow.
fn softplus_neg(z: f64) -> f64 {
    if z > 0.0 {
        (-z).exp().ln_1p()
    } else {
        -z + z.exp().ln_1p()
    }
}

/// Cross-entropy of a result `r` against the prediction `σ(z)`.
fn cross_entropy(z: f64, r: f64) -> f64 {
    r * softplus_neg(z) + (1.0 - r) * softplus_neg(-z)
}

fn dot(f: &[f32; NUM_FEATURES], u: &[f64; NUM_FEATURES]) -> f64 {
    f.iter().zip(u).map(|(x, w)| f64::from(*x) * w).sum()
}

/// The evaluation (centi-men, white's side) of a sample under `weights`.
#[must_use]
pub fn eval_of(sample: &Sample, weights: &Weights) -> f64 {
    dot(&sample.features, &weights.w.map(f64::from))
}

/// The mean logistic loss (cross-entropy) of `sigmoid(k · eval)` against the results.
#[must_use]
pub fn log_loss(samples: &[Sample], weights: &Weights, k: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let u = weights.w.map(|w| k * f64::from(w));
    loss_u(samples, &u)
}

fn loss_u(samples: &[Sample], u: &[f64; NUM_FEATURES]) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| cross_entropy(dot(&s.features, u), f64::from(s.result)))
        .sum();
    total / samples.len() as f64
}

/// The `K` (per centi-man) that minimises [`log_loss`] for `weights`: a golden-section search
/// on `ln K` between 10⁻⁵ and 1.
#[must_use]
pub fn fit_k(samples: &[Sample], weights: &Weights) -> f64 {
    let f = |lk: f64| log_loss(samples, weights, lk.exp());
    let (mut a, mut b) = (1e-5f64.ln(), 0.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let mut c = b - g * (b - a);
    let mut d = a + g * (b - a);
    let (mut fc, mut fd) = (f(c), f(d));
    for _ in 0..60 {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - g * (b - a);
            fc = f(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + g * (b - a);
            fd = f(d);
        }
    }
    ((a + b) / 2.0).exp()
}

/// The outcome of [`fit_weights`].
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    /// The tuned weights (`men` at 100).
    pub weights: Weights,
    /// `K` fitted for the starting weights.
    pub k_before: f64,
    /// `K` of the tuned weights.
    pub k_after: f64,
    /// Loss of the starting weights at `k_before`.
    pub loss_before: f64,
    /// Loss of the tuned weights at `k_after`.
    pub loss_after: f64,
    /// Newton iterations made.
    pub iterations: usize,
}

/// Fits the weights to `samples` from `start` (see the module docs); `ridge` weighs the pull
/// of each weight (but the man's) toward its starting value: the penalty is
/// `ridge · Σ (uᵢ − K wᵢ⁰)²` with `K = u_men / 100`, so that a weight the samples say nothing
/// about keeps its starting value whatever `K` becomes.
///
/// [`fit_weights_fixing`] holds some weights at their starting values.
///
/// When the samples cannot fix the scale (the material difference does not predict the
/// results at all), the starting weights are returned unchanged.
#[must_use]
#[allow(clippy::needless_range_loop)] // matrix code reads best with indices
pub fn fit_weights(samples: &[Sample], start: &Weights, ridge: f64) -> Fit {
    let k0 = fit_k(samples, start);
    let loss_before = log_loss(samples, start, k0);
    // uᵢ − cᵢ u_men is the penalised difference.
    let c = start.w.map(|w| f64::from(w) / f64::from(MAN));
    let objective = |u: &[f64; NUM_FEATURES]| {
        let pen: f64 = (1..NUM_FEATURES)
            .map(|i| (u[i] - c[i] * u[0]).powi(2))
            .sum();
        loss_u(samples, u) + ridge * pen
    };
    let mut u = start.w.map(|w| k0 * f64::from(w));
    let mut current = objective(&u);
    let n = samples.len().max(1) as f64;
    let mut iterations = 0;
    for _ in 0..100 {
        iterations += 1;
        let mut grad = [0.0f64; NUM_FEATURES];
        let mut hess = [[0.0f64; NUM_FEATURES]; NUM_FEATURES];
        for s in samples {
            let p = sigmoid(dot(&s.features, &u));
            let e = p - f64::from(s.result);
            let h = p * (1.0 - p);
            for i in 0..NUM_FEATURES {
                let fi = f64::from(s.features[i]);
                if fi == 0.0 {
                    continue;
                }
                grad[i] += e * fi;
                for j in 0..=i {
                    hess[i][j] += h * fi * f64::from(s.features[j]);
                }
            }
        }
        for i in 0..NUM_FEATURES {
            grad[i] /= n;
            for j in 0..=i {
                hess[i][j] /= n;
                hess[j][i] = hess[i][j];
            }
            // Keeps the system solvable when a feature never varies.
            hess[i][i] += 1e-12;
        }
        for i in 1..NUM_FEATURES {
            let r = u[i] - c[i] * u[0];
            grad[i] += 2.0 * ridge * r;
            grad[0] -= 2.0 * ridge * c[i] * r;
            hess[i][i] += 2.0 * ridge;
            hess[0][0] += 2.0 * ridge * c[i] * c[i];
            hess[i][0] -= 2.0 * ridge * c[i];
            hess[0][i] -= 2.0 * ridge * c[i];
        }
        let Some(step) = solve(hess, grad) else { break };
        // Backtracking line search on the Newton direction.
        let mut t = 1.0;
        let mut improved = false;
        for _ in 0..30 {
            let cand: [f64; NUM_FEATURES] = std::array::from_fn(|i| u[i] - t * step[i]);
            let v = objective(&cand);
            if v <= current {
                let gain = current - v;
                u = cand;
                current = v;
                improved = gain > 1e-13;
                break;
            }
            t /= 2.0;
        }
        if !improved {
            break;
        }
    }
    let scale_ok = u[0] > 1e-9 && u.iter().all(|x| x.is_finite());
    if !scale_ok {
        return Fit {
            weights: start.clone(),
            k_before: k0,
            k_after: k0,
            loss_before,
            loss_after: loss_before,
            iterations,
        };
    }
    let k = u[0] / f64::from(MAN);
    let mut weights = Weights {
        w: u.map(|x| (x / k) as f32),
        patterns: None,
    };
    weights.w[0] = MAN as f32;
    let loss_after = log_loss(samples, &weights, k);
    Fit {
        weights,
        k_before: k0,
        k_after: k,
        loss_before,
        loss_after,
        iterations,
    }
}

/// [`fit_weights`] with the weights marked in `fixed` held at their starting values (the
/// man's always is). A held weight's feature is folded into the man's column, scaled by
/// `wᵢ⁰ / 100`, so the fit sees the evaluation the engine will use.
#[must_use]
pub fn fit_weights_fixing(
    samples: &[Sample],
    start: &Weights,
    ridge: f64,
    fixed: &[bool; NUM_FEATURES],
) -> Fit {
    if !fixed[1..].iter().any(|&f| f) {
        return fit_weights(samples, start, ridge);
    }
    let c = start.w.map(|w| w / MAN as f32);
    let folded: Vec<Sample> = samples
        .iter()
        .map(|s| {
            let mut f = s.features;
            for i in 1..NUM_FEATURES {
                if fixed[i] {
                    f[0] += c[i] * f[i];
                    f[i] = 0.0;
                }
            }
            Sample { features: f, ..*s }
        })
        .collect();
    let mut fit = fit_weights(&folded, start, ridge);
    for ((w, w0), held) in fit.weights.w.iter_mut().zip(start.w).zip(fixed) {
        if *held {
            *w = w0;
        }
    }
    fit.loss_after = log_loss(samples, &fit.weights, fit.k_after);
    fit
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting; `None` if `a` is singular.
#[allow(clippy::needless_range_loop)]
fn solve(
    mut a: [[f64; NUM_FEATURES]; NUM_FEATURES],
    mut b: [f64; NUM_FEATURES],
) -> Option<[f64; NUM_FEATURES]> {
    let n = NUM_FEATURES;
    for col in 0..n {
        let piv = (col..n).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if a[piv][col].abs() < 1e-300 {
            return None;
        }
        a.swap(col, piv);
        b.swap(col, piv);
        for r in col + 1..n {
            let f = a[r][col] / a[col][col];
            if f != 0.0 {
                for c in col..n {
                    a[r][c] -= f * a[col][c];
                }
                b[r] -= f * b[col];
            }
        }
    }
    let mut x = [0.0; NUM_FEATURES];
    for r in (0..n).rev() {
        let s: f64 = (r + 1..n).map(|c| a[r][c] * x[c]).sum();
        x[r] = (b[r] - s) / a[r][r];
    }
    Some(x)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;
    use tablier_draughts::{BRAZILIAN, G8, INTERNATIONAL};

    /// Random feature vectors shaped like real ones (small integers of either sign).
    fn features(rng: &mut ChaCha8Rng) -> [f32; NUM_FEATURES] {
        std::array::from_fn(|i| {
            let range = if i == 0 { 3 } else { 4 + i as i32 };
            rng.gen_range(-range..=range) as f32
        })
    }

    fn planted() -> (Weights, f64) {
        let w = Weights {
            w: [
                100.0, 250.0, 5.0, -3.0, 12.0, 8.0, -6.0, 20.0, 2.0, 4.0, 7.0, -5.0, 15.0, 30.0,
            ],
            patterns: None,
        };
        (w, 0.012)
    }

    /// `n` random samples labelled by `label` from the planted probability of a white win.
    fn samples(
        n: usize,
        seed: u64,
        unseen: Option<usize>,
        mut label: impl FnMut(f64, &mut ChaCha8Rng) -> f32,
    ) -> Vec<Sample> {
        let (w, k) = planted();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        (0..n)
            .map(|_| {
                let mut features = features(&mut rng);
                if let Some(i) = unseen {
                    features[i] = 0.0;
                }
                let s = Sample {
                    features,
                    result: 0.0,
                };
                let p = sigmoid(k * eval_of(&s, &w));
                Sample {
                    result: label(p, &mut rng),
                    ..s
                }
            })
            .collect()
    }

    #[test]
    fn recovers_planted_weights_from_exact_probabilities() {
        let (w, k) = planted();
        let samples = samples(4000, 7, None, |p, _| p as f32);
        let start = Weights::defaults(&INTERNATIONAL);
        let fit = fit_weights(&samples, &start, 0.0);
        assert!((fit.k_after - k).abs() < 1e-4, "K {}", fit.k_after);
        for (i, (got, want)) in fit.weights.w.iter().zip(w.w).enumerate() {
            assert!((got - want).abs() < 0.05, "feature {i}: {got} vs {want}");
        }
        assert!(fit.loss_after < fit.loss_before);
        // K fitted for the planted weights is the planted K.
        assert!((fit_k(&samples, &w) - k).abs() < 1e-4);
    }

    #[test]
    fn recovers_planted_weights_from_sampled_results() {
        let (w, k) = planted();
        // Win, draw or loss, with the planted probability as the expected score.
        let samples = samples(60_000, 11, None, |p, rng| {
            let draw = 0.3 * (1.0 - (2.0 * p - 1.0).abs());
            let x: f64 = rng.gen();
            if x < p - draw / 2.0 {
                1.0
            } else if x < p + draw / 2.0 {
                0.5
            } else {
                0.0
            }
        });
        let fit = fit_weights(&samples, &Weights::defaults(&INTERNATIONAL), 0.0);
        assert!((fit.k_after / k - 1.0).abs() < 0.1, "K {}", fit.k_after);
        for (i, (got, want)) in fit.weights.w.iter().zip(w.w).enumerate() {
            let tol = 3.0 + 0.1 * want.abs();
            assert!((got - want).abs() < tol, "feature {i}: {got} vs {want}");
        }
    }

    #[test]
    fn a_feature_never_seen_keeps_its_weight() {
        let (w, _) = planted();
        let samples = samples(2000, 3, Some(13), |p, _| p as f32);
        let start = Weights::defaults(&INTERNATIONAL);
        let fit = fit_weights(&samples, &start, 1e-6);
        assert!(
            (fit.weights.w[13] - start.w[13]).abs() < 0.01,
            "{}",
            fit.weights.w[13]
        );
        assert!((fit.weights.w[1] - w.w[1]).abs() < 2.0);
    }

    #[test]
    fn held_weights_keep_their_values_and_the_others_are_found() {
        let (w, k) = planted();
        let samples = samples(4000, 5, None, |p, _| p as f32);
        // Start from the planted kings weight and hold it.
        let mut start = Weights::defaults(&INTERNATIONAL);
        start.w[1] = w.w[1];
        let mut fixed = [false; NUM_FEATURES];
        fixed[1] = true;
        let fit = fit_weights_fixing(&samples, &start, 0.0, &fixed);
        assert_eq!(fit.weights.w[1], w.w[1]);
        assert!((fit.k_after - k).abs() < 1e-4, "K {}", fit.k_after);
        for (i, (got, want)) in fit.weights.w.iter().zip(w.w).enumerate() {
            assert!((got - want).abs() < 0.05, "feature {i}: {got} vs {want}");
        }
        // Held at a wrong value, it stays there and the loss is higher.
        start.w[1] = 400.0;
        let off = fit_weights_fixing(&samples, &start, 0.0, &fixed);
        assert_eq!(off.weights.w[1], 400.0);
        assert!(off.loss_after > fit.loss_after);
    }

    #[test]
    fn no_samples_no_change() {
        let start = Weights::defaults(&INTERNATIONAL);
        let fit = fit_weights(&[], &start, 1e-6);
        assert_eq!(fit.weights, start);
    }

    #[test]
    fn self_play_gives_quiet_samples_and_a_result() {
        let mut e = Engine::<G8>::new(&BRAZILIAN, 1);
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let config = PlayConfig {
            depth: 2,
            opening_plies: 4,
            max_plies: 200,
        };
        let stop = AtomicBool::new(false);
        let samples = self_play_game(&mut e, &config, &mut rng, &stop).unwrap();
        assert!(!samples.is_empty());
        let r = samples[0].result;
        assert!([0.0, 0.5, 1.0].contains(&r));
        assert!(samples.iter().all(|s| s.result == r));
        stop.store(true, Ordering::Relaxed);
        assert!(self_play_game(&mut e, &config, &mut rng, &stop).is_none());
    }

    #[test]
    fn self_play_positions_carry_the_search_scores_in_whites_favour() {
        let mut e = Engine::<G8>::new(&BRAZILIAN, 1);
        let config = PlayConfig {
            depth: 3,
            opening_plies: 4,
            max_plies: 200,
        };
        let stop = AtomicBool::new(false);
        let mut decisive = 0;
        for seed in 0..12 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let g = self_play_positions(&mut e, &config, &mut rng, &stop).unwrap();
            assert_eq!(g.scores.len(), g.positions.len());
            // Nearly every quiet position had a choice of moves, so a search.
            let scored: Vec<i32> = g.scores.iter().flatten().copied().collect();
            assert!(2 * scored.len() > g.positions.len(), "{scored:?}");
            if g.result != 0.5 {
                // The last scores of a won game favour the winner, whichever side moved.
                decisive += 1;
                let last: i32 = scored.iter().rev().take(3).sum();
                assert_eq!(last > 0, g.result == 1.0, "{:?} {}", scored, g.result);
            }
        }
        assert!(decisive > 0, "no decisive game to check the sign on");
    }

    #[test]
    fn match_scores_and_elo() {
        let mut s = MatchScore::default();
        for x in [1.0, 0.5, 0.5, 0.0, 1.0] {
            s.add(x);
        }
        assert_eq!((s.wins, s.draws, s.losses), (2, 2, 1));
        assert!((s.fraction() - 0.6).abs() < 1e-12);
        assert!(s.elo() > 60.0 && s.elo() < 80.0);
        assert!(s.elo_margin() > 0.0);
        let mut a = Engine::<G8>::new(&BRAZILIAN, 1);
        let mut b = Engine::<G8>::new(&BRAZILIAN, 1);
        let config = PlayConfig {
            depth: 2,
            opening_plies: 4,
            max_plies: 200,
        };
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        let pair = play_pair(&mut a, &mut b, &config, &mut rng, &AtomicBool::new(false));
        let [x, y] = pair.unwrap();
        // The same engine on both sides: the pair's scores mirror each other.
        assert!((x + y - 1.0).abs() < 1e-6, "{x} {y}");
    }
}
