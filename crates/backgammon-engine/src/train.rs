//! Self-play training by temporal differences, TD(λ) in its offline "λ-return" form: a game is
//! played greedily at 0-ply with the current nets; when it ends, each position's target is
//! the λ-weighted mix of the next positions' evaluations and the final result, worked out
//! backwards, and the net of the position's class takes one gradient step towards it.
//! Positions the bear-off database settles are not trained on.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tablier_backgammon::{Position, Roll};

use crate::encode::{encode, INPUTS};
use crate::eval::{invert, net_of, terminal_for_winner, Evaluator, Probs, Scratch};
use crate::net::Activations;

/// A roll of two dice from `rng`; the opening roll (`opening`) is never a double, so doubles
/// are thrown again.
pub fn throw(rng: &mut impl Rng, opening: bool) -> Roll {
    loop {
        let r = Roll::new(rng.gen_range(1..=6), rng.gen_range(1..=6)).expect("dice are 1 to 6");
        if !(opening && r.is_double()) {
            return r;
        }
    }
}

/// Training settings.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    /// λ of TD(λ): 0 learns from the next position only, 1 from the final result only.
    pub lambda: f32,
    /// Learning rate at the start.
    pub alpha: f32,
    /// The learning rate is `alpha / (1 + games / alpha_halving)`.
    pub alpha_halving: f64,
    /// The learning rate never falls below this.
    pub alpha_min: f32,
    /// 0: the one-step value in the λ-return is the evaluation after the play actually made
    /// (plain TD). 1: it is the position's 1-ply value, the average over the 21 rolls of the
    /// best play's evaluation — a target without the noise of the dice, twenty times dearer.
    pub target_plies: u32,
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            lambda: 0.7,
            alpha: 0.05,
            alpha_halving: 150_000.0,
            alpha_min: 0.004,
            target_plies: 0,
        }
    }
}

impl TrainConfig {
    /// The learning rate after `games` games.
    #[must_use]
    pub fn alpha_at(&self, games: u64) -> f32 {
        let a = f64::from(self.alpha) / (1.0 + games as f64 / self.alpha_halving);
        (a as f32).max(self.alpha_min)
    }
}

/// What one self-play game did.
#[derive(Clone, Copy, Debug, Default)]
pub struct GameStats {
    /// Plies played.
    pub plies: u32,
    /// Points the first player won (negative if lost): 1, 2 or 3.
    pub points: i32,
}

/// A self-play trainer: the evaluator, its random stream and its settings.
pub struct Trainer {
    /// The nets being trained (`games` counts the games trained on).
    pub eval: Evaluator,
    /// The run's settings (learning rate, λ, games between checkpoints, ...).
    pub config: TrainConfig,
    seed: u64,
    rng: ChaCha8Rng,
    scratch: Scratch,
    act: Activations,
    x: Vec<f32>,
}

impl Trainer {
    /// A trainer starting from `eval`; the dice stream is derived from `seed` and the games
    /// already played, so a resumed run continues with new dice.
    #[must_use]
    pub fn new(eval: Evaluator, seed: u64, config: TrainConfig) -> Trainer {
        let rng = ChaCha8Rng::seed_from_u64(seed ^ eval.games.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        Trainer {
            eval,
            config,
            seed,
            rng,
            scratch: Scratch::default(),
            act: Activations::default(),
            x: vec![0.0; INPUTS],
        }
    }

    /// The seed this trainer was started with.
    #[must_use]
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Plays one game against itself and learns from it.
    pub fn play_and_learn(&mut self) -> GameStats {
        let mut pos = Position::start();
        // Positions with the side on roll, and the value the net gave each (for the side on roll).
        let mut history: Vec<Position> = Vec::with_capacity(80);
        let mut values: Vec<Probs> = Vec::with_capacity(80);
        let mut plays = Vec::with_capacity(64);
        let mut first = true;
        let final_probs: Probs;
        loop {
            let roll = throw(&mut self.rng, first);
            first = false;
            history.push(pos);
            pos.legal_plays_into(roll, &mut plays);
            let (best, p) = self.eval.best_play_0ply(&plays, &mut self.scratch);
            let result = plays[best].result;
            if result.mover_off() == 15 {
                final_probs = terminal_for_winner(&result);
                values.push(final_probs);
                break;
            }
            // `p` is the chosen play's value for the mover: the next position's value, inverted.
            values.push(p);
            pos = result.flip();
        }
        // values[t] is the value for the mover at t of what followed his play: the evaluation of
        // position t+1 (inverted), or the result for the last one. λ-returns backwards.
        let n = history.len();
        if self.config.target_plies > 0 {
            for (t, p) in history.iter().enumerate().take(n - 1) {
                if net_of(p).is_some() {
                    values[t] = crate::search::probs_nply(
                        &self.eval,
                        p,
                        self.config.target_plies,
                        crate::search::MoveFilter::default(),
                        &mut self.scratch,
                    );
                }
            }
        }
        let lambda = self.config.lambda;
        let alpha = self.config.alpha_at(self.eval.games);
        let mut g = values[n - 1];
        let mut targets = vec![[0.0f32; 5]; n];
        targets[n - 1] = g;
        for t in (0..n - 1).rev() {
            // Target of t for its mover = (1-λ) value-after-t + λ (target of t+1, inverted).
            let next = invert(&g);
            let mut cur = [0.0f32; 5];
            for k in 0..5 {
                cur[k] = (1.0 - lambda) * values[t][k] + lambda * next[k];
            }
            targets[t] = cur;
            g = cur;
        }
        for (t, p) in history.iter().enumerate() {
            let Some(which) = net_of(p) else {
                continue;
            };
            encode(p, &mut self.x);
            let net = &mut self.eval.nets[which];
            net.forward(&self.x, &mut self.act);
            net.train_step(&self.x, &self.act, &targets[t], alpha);
        }
        self.eval.games += 1;
        // The first mover's points: the winner is the last mover (n - 1 plies after the first).
        let won = if final_probs[2] > 0.5 {
            3
        } else if final_probs[1] > 0.5 {
            2
        } else {
            1
        };
        GameStats {
            plies: n as u32,
            points: if n % 2 == 1 { won } else { -won },
        }
    }
}

/// Plays `games` cubeless money games between two evaluators at 0-ply with duplicate dice
/// (each dice stream twice, sides swapped) and returns the points per game of `a`.
pub fn duel(a: &Evaluator, b: &Evaluator, games: u32, seed: u64) -> f64 {
    let mut total = 0i64;
    let mut sa = Scratch::default();
    let mut sb = Scratch::default();
    let mut plays = Vec::new();
    for g in 0..games {
        let dice_seed = seed.wrapping_add(u64::from(g / 2));
        let mut rng = ChaCha8Rng::seed_from_u64(dice_seed);
        let a_first = g % 2 == 0;
        let mut pos = Position::start();
        let mut a_to_move = a_first;
        let mut first = true;
        loop {
            let roll = throw(&mut rng, first);
            first = false;
            pos.legal_plays_into(roll, &mut plays);
            let best = if a_to_move {
                a.best_play_0ply(&plays, &mut sa).0
            } else {
                b.best_play_0ply(&plays, &mut sb).0
            };
            let r = plays[best].result;
            if r.mover_off() == 15 {
                let t = terminal_for_winner(&r);
                let pts = 1 + t[1] as i64 + t[2] as i64;
                total += if a_to_move { pts } else { -pts };
                break;
            }
            pos = r.flip();
            a_to_move = !a_to_move;
        }
    }
    total as f64 / f64::from(games)
}
