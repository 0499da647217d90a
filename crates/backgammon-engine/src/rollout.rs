//! Cubeless rollouts: the position is played out many times by the engine (at 0-ply, or with
//! each play searched to a set depth), and the outcomes averaged.
//!
//! * **Stratified dice**: trial `i` starts with the roll `i mod 36` and follows with
//!   `(i / 36 + 7 i) mod 36`, so that each block of 36 trials sees every first and every second
//!   roll once, and every 1,296 trials each pair of first rolls exactly once.
//! * **Variance reduction** (luck adjustment): at each ply the value of the roll thrown is
//!   compared with the average over the 21 rolls (both at 0-ply, for the side to play); the sum
//!   of these "luck" terms is taken off the trial's result. The expectation is unchanged and the
//!   noise of the dice mostly cancels.
//! * **Truncation**: after a given number of plies the trial stops and the static evaluation
//!   stands in for the rest of the game.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tablier_backgammon::{Position, Roll};

use crate::eval::{equity, invert, terminal_for_winner, Evaluator, Probs, Scratch};
use crate::search::{best_of, MoveFilter};

/// Rollout settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RolloutConfig {
    /// Number of games played out.
    pub trials: u32,
    /// Stop each trial after this many plies and evaluate (0 = play to the end).
    pub truncate: u32,
    /// Adjust each trial for the luck of its dice.
    pub variance_reduction: bool,
    /// Seed of the dice after the stratified first two rolls.
    pub seed: u64,
    /// Depth of each play's search (0: the best play at 0-ply; n: the plays that pass the
    /// default move filter searched to n plies, as [`crate::search::best_of`] chooses). A
    /// deeper policy costs about 21 times as much a ply, and plays positions right that the
    /// nets misjudge at 0-ply.
    pub plies: u32,
}

impl Default for RolloutConfig {
    fn default() -> Self {
        RolloutConfig {
            trials: 1296,
            truncate: 0,
            variance_reduction: true,
            seed: 1,
            plies: 0,
        }
    }
}

/// Running totals of a rollout.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RolloutStats {
    /// Trials done.
    pub trials: u32,
    sum: [f64; 5],
    sum_eq: f64,
    sum_eq2: f64,
}

impl RolloutStats {
    /// Adds one trial's (adjusted) probabilities.
    pub fn add(&mut self, p: &Probs) {
        self.trials += 1;
        for (s, &v) in self.sum.iter_mut().zip(p) {
            *s += f64::from(v);
        }
        let e = f64::from(equity(p));
        self.sum_eq += e;
        self.sum_eq2 += e * e;
    }

    /// Mean probabilities for the side on roll.
    #[must_use]
    pub fn probs(&self) -> Probs {
        let n = f64::from(self.trials.max(1));
        let mut p = [0.0f32; 5];
        for (o, s) in p.iter_mut().zip(&self.sum) {
            *o = (s / n) as f32;
        }
        p
    }

    /// Mean cubeless equity and its standard error.
    #[must_use]
    pub fn equity(&self) -> (f64, f64) {
        let n = f64::from(self.trials.max(1));
        let mean = self.sum_eq / n;
        let var = (self.sum_eq2 / n - mean * mean).max(0.0) * n / (n - 1.0).max(1.0);
        (mean, (var / n).sqrt())
    }
}

/// The roll of a trial at a ply: stratified for the first two plies, random after.
fn trial_roll(trial: u32, ply: u32, rng: &mut ChaCha8Rng) -> Roll {
    let k = match ply {
        0 => Some(trial % 36),
        // Shifted by 7 per first roll (7 is prime to 36): every block of 36 trials sees each
        // second roll once, and 1,296 trials see every pair once.
        1 => Some((trial / 36 + 7 * (trial % 36)) % 36),
        _ => None,
    };
    let (a, b) = match k {
        Some(k) => ((k / 6) as u8 + 1, (k % 6) as u8 + 1),
        None => (rng.gen_range(1..=6), rng.gen_range(1..=6)),
    };
    Roll::new(a, b).expect("dice are 1 to 6")
}

/// One trial from `pos` (side on roll): its result, adjusted for luck if asked, for the side
/// on roll at the start.
pub fn trial(
    ev: &Evaluator,
    pos: &Position,
    cfg: &RolloutConfig,
    i: u32,
    s: &mut Scratch,
) -> Probs {
    let mut rng = ChaCha8Rng::seed_from_u64(cfg.seed ^ (u64::from(i) << 20));
    let mut pos = *pos;
    let mut luck = [0.0f32; 5]; // for the starting side
    let mut plays = Vec::with_capacity(64);
    let mut ply = 0u32;
    // `root` is true while the side to play is the starting side.
    let mut root = true;
    let to_root = |p: Probs, root: bool| if root { p } else { invert(&p) };
    loop {
        if cfg.truncate > 0 && ply >= cfg.truncate {
            return finish(to_root(ev.probs(&pos, s), root), &luck, cfg);
        }
        let roll = trial_roll(i, ply, &mut rng);
        if cfg.variance_reduction {
            let mut mean = [0.0f32; 5];
            let mut actual = [0.0f32; 5];
            for (r, w) in Roll::all() {
                pos.legal_plays_into(r, &mut plays);
                let (_, p) = ev.best_play_0ply(&plays, s);
                for k in 0..5 {
                    mean[k] += p[k] * w as f32 / 36.0;
                }
                if r == roll {
                    actual = p;
                }
            }
            let (a, m) = (to_root(actual, root), to_root(mean, root));
            for k in 0..5 {
                luck[k] += a[k] - m[k];
            }
        }
        pos.legal_plays_into(roll, &mut plays);
        let best = if cfg.plies == 0 {
            ev.best_play_0ply(&plays, s).0
        } else {
            best_of(ev, &plays, cfg.plies, MoveFilter::default(), s).0
        };
        let result = plays[best].result;
        if result.mover_off() == 15 {
            return finish(to_root(terminal_for_winner(&result), root), &luck, cfg);
        }
        pos = result.flip();
        root = !root;
        ply += 1;
    }
}

fn finish(result: Probs, luck: &Probs, cfg: &RolloutConfig) -> Probs {
    if !cfg.variance_reduction {
        return result;
    }
    let mut p = result;
    for k in 0..5 {
        p[k] -= luck[k];
    }
    p
}

/// Rolls `pos` out (side on roll, before rolling); `progress` is called after each trial and
/// may return `false` to stop early.
pub fn rollout(
    ev: &Evaluator,
    pos: &Position,
    cfg: &RolloutConfig,
    mut progress: impl FnMut(&RolloutStats) -> bool,
) -> RolloutStats {
    let mut stats = RolloutStats::default();
    let mut s = Scratch::default();
    for i in 0..cfg.trials {
        let p = trial(ev, pos, cfg, i, &mut s);
        stats.add(&p);
        if !progress(&stats) {
            break;
        }
    }
    stats
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variance_reduction_lowers_the_error_and_keeps_the_mean() {
        let ev = Evaluator::shipped();
        // A race: 8 checkers each, the side on roll a little ahead.
        let mut me = [0u8; 25];
        let mut them = [0u8; 25];
        me[..4].copy_from_slice(&[2, 2, 2, 2]);
        them[..4].copy_from_slice(&[1, 2, 2, 3]);
        let pos = Position::from_sides(&me, &them).unwrap();
        let plain = RolloutConfig {
            trials: 360,
            variance_reduction: false,
            ..RolloutConfig::default()
        };
        let vr = RolloutConfig {
            variance_reduction: true,
            ..plain
        };
        let a = rollout(ev, &pos, &plain, |_| true);
        let b = rollout(ev, &pos, &vr, |_| true);
        let (ea, sa) = a.equity();
        let (eb, sb) = b.equity();
        assert!(sb < sa / 2.0, "{sa} {sb}");
        assert!((ea - eb).abs() < 3.0 * sa, "{ea} {eb}");
        // Both-sides bear-off: the exact database value is within the error bars.
        let exact = f64::from(equity(&ev.probs(&pos, &mut Scratch::default())));
        assert!(
            (eb - exact).abs() < 4.0 * sb + 0.01,
            "{eb} vs exact {exact}"
        );
    }

    #[test]
    fn a_searched_policy_plays_other_games_and_keeps_the_exact_value() {
        let ev = Evaluator::shipped();
        // A bear-off of 6 and 7 checkers: the two-sided database knows its value exactly.
        let mut me = [0u8; 25];
        let mut them = [0u8; 25];
        me[..5].copy_from_slice(&[1, 1, 2, 1, 1]);
        them[..5].copy_from_slice(&[2, 0, 1, 2, 2]);
        let pos = Position::from_sides(&me, &them).unwrap();
        let shallow = RolloutConfig {
            trials: 144,
            ..RolloutConfig::default()
        };
        let searched = RolloutConfig {
            plies: 1,
            ..shallow
        };
        let mut s = Scratch::default();
        let exact = f64::from(equity(&ev.probs(&pos, &mut s)));
        let (a, b) = (
            rollout(ev, &pos, &shallow, |_| true),
            rollout(ev, &pos, &searched, |_| true),
        );
        let ((ea, sa), (eb, sb)) = (a.equity(), b.equity());
        assert!((ea - exact).abs() < 4.0 * sa + 0.01, "{ea} vs {exact}");
        assert!((eb - exact).abs() < 4.0 * sb + 0.01, "{eb} vs {exact}");
        // From the start, on the same dice, some games go another way: the policy is searched.
        let (shallow, searched) = (
            RolloutConfig {
                truncate: 6,
                ..shallow
            },
            RolloutConfig {
                truncate: 6,
                ..searched
            },
        );
        let start = Position::start();
        let differs = (0..36).any(|i| {
            trial(ev, &start, &shallow, i, &mut s) != trial(ev, &start, &searched, i, &mut s)
        });
        assert!(differs);
    }
}
