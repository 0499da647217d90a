//! Training the evaluation by self-play: the search plays both sides with the current
//! weights; every position before a throw is a sample whose targets are the holes each
//! player took from there to the end of the partie; the two heads are fitted by ridge least
//! squares on all samples, older generations discounted. Pure: the caller keeps the
//! accumulator ([`Regression`]) between runs (it has a text form for checkpoints).

use crate::eval::{feature_names, features, Features, Weights, FEATURES};
use crate::search::{Search, SearchPlayer};
use crate::sim::{play_partie, State};
use tablier_core::SeededDice;

/// One training sample: the features of a position and the holes to come for its roller
/// and for his opponent.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// Features from the roller's point of view.
    pub features: Features,
    /// Holes the roller took from there to the end.
    pub roller: f64,
    /// Holes his opponent took.
    pub other: f64,
}

/// Dice for partie number `n` of a run seeded by `seed`.
#[must_use]
pub fn partie_dice(seed: u64, n: u64) -> SeededDice {
    let mut s = [0u8; 32];
    s[..8].copy_from_slice(&seed.to_le_bytes());
    s[8..16].copy_from_slice(&n.to_le_bytes());
    s[16] = 0x7c;
    SeededDice::from_seed(s)
}

/// Plays one partie of self-play with `weights` (1-ply search, values jittered by
/// ±`explore` holes so that the parties differ) and returns its samples.
///
/// `horizon` chooses the targets: 0, the holes each player took from the position to the
/// end of the partie; `k` > 0, the holes each took in the next `k` throws plus what the
/// evaluation (`weights`) expects for each from the position reached then (the end of the
/// partie when it comes first) — a bootstrapped target, far less noisy than the partie's
/// end, whose error the next generation's fit corrects.
#[must_use]
pub fn self_play(
    weights: &Weights,
    seed: u64,
    n: u64,
    explore: f64,
    horizon: usize,
) -> Vec<Sample> {
    let search = Search::new(weights.clone(), 1);
    let mut white = SearchPlayer::new(search.clone(), explore, seed ^ (n << 1));
    let mut black = SearchPlayer::new(search, explore, seed ^ ((n << 1) | 1));
    let mut seen: Vec<State> = Vec::new();
    let end = play_partie(
        &mut white,
        &mut black,
        &mut partie_dice(seed, n),
        &mut |s| seen.push(*s),
    );
    let feats: Vec<Features> = seen.iter().map(features).collect();
    (0..seen.len())
        .map(|t| {
            let s = &seen[t];
            let r = s.roller;
            let o = r.opposite();
            let (to, expected) = match t.checked_add(horizon) {
                Some(u) if horizon > 0 && u < seen.len() => {
                    let (a, b) = weights.heads(&feats[u]);
                    let (x, y) = if seen[u].roller == r { (a, b) } else { (b, a) };
                    (&seen[u], [x, y])
                }
                _ => (&end, [0.0, 0.0]),
            };
            let gain = |side| f64::from(to.marker.holes(side) - s.marker.holes(side));
            Sample {
                features: feats[t],
                roller: gain(r) + expected[0],
                other: gain(o) + expected[1],
            }
        })
        .collect()
}

/// The normal equations of the two heads' least squares.
#[derive(Clone, Debug, PartialEq)]
pub struct Regression {
    xtx: Vec<f64>,
    xty: [Vec<f64>; 2],
    /// Samples added (before discounting).
    pub samples: u64,
}

impl Default for Regression {
    fn default() -> Self {
        Regression {
            xtx: vec![0.0; FEATURES * FEATURES],
            xty: [vec![0.0; FEATURES], vec![0.0; FEATURES]],
            samples: 0,
        }
    }
}

impl Regression {
    /// Adds a sample.
    pub fn add(&mut self, s: &Sample) {
        let f = &s.features;
        for i in 0..FEATURES {
            for j in 0..FEATURES {
                self.xtx[i * FEATURES + j] += f[i] * f[j];
            }
            self.xty[0][i] += f[i] * s.roller;
            self.xty[1][i] += f[i] * s.other;
        }
        self.samples += 1;
    }

    /// Multiplies everything gathered so far by `factor` (older policies count less).
    pub fn discount(&mut self, factor: f64) {
        let [r, o] = &mut self.xty;
        for x in self.xtx.iter_mut().chain(r.iter_mut()).chain(o.iter_mut()) {
            *x *= factor;
        }
    }

    /// The ridge least-squares weights (`ridge` added to the diagonal); `None` when the
    /// system is singular.
    #[must_use]
    pub fn solve(&self, ridge: f64) -> Option<Weights> {
        let n = FEATURES;
        let mut a = self.xtx.clone();
        for i in 0..n {
            a[i * n + i] += ridge;
        }
        let roller = solve_spd(&a, &self.xty[0])?;
        let other = solve_spd(&a, &self.xty[1])?;
        let mut w = Weights::untrained();
        w.roller.copy_from_slice(&roller);
        w.other.copy_from_slice(&other);
        Some(w)
    }

    /// A text form (for checkpoints): the sample count, then the matrix and vectors.
    #[must_use]
    pub fn to_text(&self) -> String {
        let row = |v: &[f64]| {
            v.iter()
                .map(|x| format!("{x:e}"))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let mut s = format!("regression {} {}\n", FEATURES, self.samples);
        s.push_str(&format!("features {}\n", feature_names().join(" ")));
        for i in 0..FEATURES {
            s.push_str(&row(&self.xtx[i * FEATURES..(i + 1) * FEATURES]));
            s.push('\n');
        }
        s.push_str(&row(&self.xty[0]));
        s.push('\n');
        s.push_str(&row(&self.xty[1]));
        s.push('\n');
        s
    }

    /// Reads [`Regression::to_text`].
    ///
    /// # Errors
    /// A message when the text is not a regression of this feature set.
    pub fn parse(text: &str) -> Result<Regression, String> {
        let mut lines = text.lines();
        let head: Vec<&str> = lines.next().unwrap_or("").split_whitespace().collect();
        let (Some(&"regression"), Some(n), Some(samples)) =
            (head.first(), head.get(1), head.get(2))
        else {
            return Err("not a regression checkpoint".into());
        };
        if n.parse::<usize>().ok() != Some(FEATURES)
            || lines.next() != Some(&format!("features {}", feature_names().join(" "))[..])
        {
            return Err("the checkpoint was made for another feature set".into());
        }
        let samples = samples
            .parse()
            .map_err(|_| "bad sample count".to_string())?;
        let mut nums = |len: usize| -> Result<Vec<f64>, String> {
            let l = lines.next().ok_or("checkpoint cut short")?;
            let v: Vec<f64> = l
                .split_whitespace()
                .map(|t| {
                    t.parse::<f64>()
                        .map_err(|_| format!("{t:?} is not a number"))
                })
                .collect::<Result<_, _>>()?;
            if v.len() == len {
                Ok(v)
            } else {
                Err("a row of the checkpoint has the wrong length".into())
            }
        };
        let mut xtx = Vec::with_capacity(FEATURES * FEATURES);
        for _ in 0..FEATURES {
            xtx.extend(nums(FEATURES)?);
        }
        let r = nums(FEATURES)?;
        let o = nums(FEATURES)?;
        Ok(Regression {
            xtx,
            xty: [r, o],
            samples,
        })
    }
}

/// Solves `a x = b` for a symmetric positive definite `a` (Cholesky).
pub(crate) fn solve_spd(a: &[f64], b: &[f64]) -> Option<Vec<f64>> {
    let n = b.len();
    let mut l = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..=i {
            let mut s = a[i * n + j];
            for k in 0..j {
                s -= l[i * n + k] * l[j * n + k];
            }
            if i == j {
                if s <= 0.0 {
                    return None;
                }
                l[i * n + i] = s.sqrt();
            } else {
                l[i * n + j] = s / l[j * n + j];
            }
        }
    }
    let mut y = vec![0.0; n];
    for i in 0..n {
        let s: f64 = (0..i).map(|k| l[i * n + k] * y[k]).sum();
        y[i] = (b[i] - s) / l[i * n + i];
    }
    let mut x = vec![0.0; n];
    for i in (0..n).rev() {
        let s: f64 = (i + 1..n).map(|k| l[k * n + i] * x[k]).sum();
        x[i] = (y[i] - s) / l[i * n + i];
    }
    Some(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Past the partie's last throw a horizon is the partie's end; a short one adds the
    /// evaluation's expectation to the holes taken so far, which never exceed the end's.
    #[test]
    fn bootstrapped_targets() {
        let w = Weights::shipped();
        let to_end = self_play(&w, 5, 1, 0.05, 0);
        assert_eq!(self_play(&w, 5, 1, 0.05, usize::MAX), to_end);
        assert_eq!(self_play(&w, 5, 1, 0.05, 100_000), to_end);
        let short = self_play(&w, 5, 1, 0.05, 3);
        assert_eq!(short.len(), to_end.len());
        // The last three positions look to the end; the others differ from it somewhere.
        let n = short.len();
        assert_eq!(short[n - 3..], to_end[n - 3..]);
        assert!(short[..n - 3]
            .iter()
            .zip(&to_end)
            .any(|(a, b)| a.roller != b.roller));
        assert!(short
            .iter()
            .zip(&to_end)
            .all(|(a, b)| a.features == b.features));
    }

    #[test]
    fn regression_recovers_a_linear_target_and_round_trips() {
        let mut reg = Regression::default();
        let mut x = 0x2545_f491_u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % 1000) as f64 / 1000.0
        };
        let truth: Vec<f64> = (0..FEATURES).map(|i| i as f64 * 0.1 - 1.0).collect();
        for _ in 0..2000 {
            let mut f = [0.0; FEATURES];
            for v in &mut f {
                *v = next();
            }
            let y: f64 = f.iter().zip(&truth).map(|(a, b)| a * b).sum();
            reg.add(&Sample {
                features: f,
                roller: y,
                other: -y,
            });
        }
        let w = reg.solve(1e-9).unwrap();
        for (i, t) in truth.iter().enumerate() {
            assert!((w.roller[i] - t).abs() < 1e-4, "{i}");
            assert!((w.other[i] + t).abs() < 1e-4, "{i}");
        }
        let back = Regression::parse(&reg.to_text()).unwrap();
        assert_eq!(back.samples, 2000);
        assert!(Regression::parse("regression 3 1\n").is_err());
        assert!(Regression::default().solve(0.0).is_none());
    }
}
