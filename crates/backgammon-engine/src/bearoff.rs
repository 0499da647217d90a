//! The exact one-sided bear-off database: for every way of placing up to fifteen checkers on
//! the six home points (54,264 positions), the probability distribution of the number of rolls
//! needed to bear them all off, playing each roll so as to minimise the expected number of
//! rolls. Built by our own dynamic programme in about a second, at first use.

use std::sync::OnceLock;

use tablier_backgammon::{Position, Roll};

/// Number of one-sided positions: up to 15 checkers on 6 points, `C(21, 6)`.
pub const POSITIONS: usize = 54_264;

/// Length of a distribution: index `k` is the probability of needing exactly `k` rolls (the
/// negligible mass beyond the last index is folded into it).
pub const MAX_ROLLS: usize = 32;

/// `COUNT[k][m]`: how many ways to put at most `m` checkers on `k` points, `C(m + k, k)`.
const fn count_table() -> [[u32; 16]; 7] {
    let mut t = [[0u32; 16]; 7];
    let mut m = 0;
    while m < 16 {
        t[0][m] = 1;
        m += 1;
    }
    let mut k = 1;
    while k < 7 {
        let mut m = 0;
        while m < 16 {
            // Tuples on k points with sum ≤ m: the first point takes v = 0..=m.
            let mut s = 0;
            let mut v = 0;
            while v <= m {
                s += t[k - 1][m - v];
                v += 1;
            }
            t[k][m] = s;
            m += 1;
        }
        k += 1;
    }
    t
}

const COUNT: [[u32; 16]; 7] = count_table();

/// The index of a one-sided position (`points[i]` = checkers on point `i + 1`, total ≤ 15).
///
/// # Panics
/// If more than fifteen checkers are given.
#[must_use]
pub fn index(points: &[u8; 6]) -> usize {
    let mut rank = 0u32;
    let mut budget = 15usize;
    for (i, &n) in points.iter().enumerate() {
        let n = usize::from(n);
        assert!(
            n <= budget,
            "more than fifteen checkers in a bear-off position"
        );
        for v in 0..n {
            rank += COUNT[5 - i][budget - v];
        }
        budget -= n;
    }
    rank as usize
}

/// The one-sided bear-off database.
pub struct Bearoff {
    dist: Vec<[f32; MAX_ROLLS]>,
    mean: Vec<f32>,
}

impl std::fmt::Debug for Bearoff {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Bearoff({} positions)", self.dist.len())
    }
}

impl Bearoff {
    /// The database, built once per process on first use.
    pub fn global() -> &'static Bearoff {
        static DB: OnceLock<Bearoff> = OnceLock::new();
        DB.get_or_init(Bearoff::generate)
    }

    /// Builds the database (about a second of CPU in an optimised build).
    #[must_use]
    pub fn generate() -> Bearoff {
        let mut all = all_positions();
        let pips = |q: &[u8; 6]| -> u32 {
            q.iter()
                .enumerate()
                .map(|(i, &n)| (i as u32 + 1) * u32::from(n))
                .sum()
        };
        // Every play lowers the pip count, so smaller counts are solved first.
        all.sort_by_key(pips);
        let mut dist = vec![[0f32; MAX_ROLLS]; POSITIONS];
        let mut mean = vec![0f32; POSITIONS];
        let rolls = Roll::all();
        let mut plays = Vec::new();
        for q in &all {
            let idx = index(q);
            if q.iter().all(|&n| n == 0) {
                dist[idx][0] = 1.0;
                continue;
            }
            let mut side = [0u8; 25];
            side[..6].copy_from_slice(q);
            let pos = Position::from_sides(&side, &[0; 25]).expect("a bear-off position");
            let mut d = [0f64; MAX_ROLLS];
            for &(roll, weight) in &rolls {
                pos.legal_plays_into(roll, &mut plays);
                let mut best = usize::MAX;
                let mut best_mean = f32::INFINITY;
                for play in &plays {
                    let r = one_side(&play.result);
                    let j = index(&r);
                    if mean[j] < best_mean {
                        best_mean = mean[j];
                        best = j;
                    }
                }
                let w = f64::from(weight) / 36.0;
                for (k, &pk) in dist[best].iter().enumerate() {
                    d[(k + 1).min(MAX_ROLLS - 1)] += w * f64::from(pk);
                }
            }
            for (slot, &pk) in dist[idx].iter_mut().zip(&d) {
                *slot = pk as f32;
            }
            mean[idx] = d
                .iter()
                .enumerate()
                .map(|(k, &p)| k as f64 * p)
                .sum::<f64>() as f32;
        }
        Bearoff { dist, mean }
    }

    /// The distribution of the number of rolls to bear off `points` (index `k` = exactly `k`
    /// rolls).
    #[must_use]
    pub fn distribution(&self, points: &[u8; 6]) -> &[f32; MAX_ROLLS] {
        &self.dist[index(points)]
    }

    /// The expected number of rolls to bear off `points`.
    #[must_use]
    pub fn expected_rolls(&self, points: &[u8; 6]) -> f32 {
        self.mean[index(points)]
    }

    /// The probability that the side on roll, with `mover` left, bears off before the other
    /// side, with `other` left (both playing to minimise their expected rolls).
    #[must_use]
    pub fn win_probability(&self, mover: &[u8; 6], other: &[u8; 6]) -> f32 {
        let a = self.distribution(mover);
        let b = self.distribution(other);
        // The mover wins when he needs no more rolls than the other: P(X = x) P(Y >= x).
        let mut tail = 1.0f32; // P(Y >= x)
        let mut p = 0.0f32;
        for x in 0..MAX_ROLLS {
            p += a[x] * tail;
            tail -= b[x];
        }
        p.clamp(0.0, 1.0)
    }
}

/// Every one-sided position, in index order ([`index`] of entry `i` is `i`).
#[must_use]
pub fn all_positions() -> Vec<[u8; 6]> {
    fn rec(i: usize, left: u8, p: &mut [u8; 6], all: &mut Vec<[u8; 6]>) {
        if i == 6 {
            all.push(*p);
            return;
        }
        for n in 0..=left {
            p[i] = n;
            rec(i + 1, left - n, p, all);
        }
        p[i] = 0;
    }
    let mut all = Vec::with_capacity(POSITIONS);
    rec(0, 15, &mut [0u8; 6], &mut all);
    all
}

/// The mover's checkers on his points 1 to 6.
#[must_use]
pub fn one_side(pos: &Position) -> [u8; 6] {
    let mut r = [0u8; 6];
    for (i, v) in r.iter_mut().enumerate() {
        *v = pos.mover_checkers(i + 1);
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_are_a_bijection() {
        let all = all_positions();
        assert_eq!(all.len(), POSITIONS);
        for (i, p) in all.iter().enumerate() {
            assert_eq!(index(p), i);
        }
    }

    #[test]
    fn small_cases_by_hand() {
        let db = Bearoff::global();
        // One checker on the 1-point: one roll, always.
        assert_eq!(db.distribution(&[1, 0, 0, 0, 0, 0])[1], 1.0);
        // One checker on the 6-point: 9 rolls of 36 (11, 21, 31, 41, 32) fail the first time.
        let d = db.distribution(&[0, 0, 0, 0, 0, 1]);
        assert!((d[1] - 27.0 / 36.0).abs() < 1e-6);
        assert!((d[2] - 9.0 / 36.0).abs() < 1e-6);
        // Nothing left: zero rolls; the side on roll with one checker on the 1-point wins.
        assert_eq!(db.expected_rolls(&[0; 6]), 0.0);
        assert_eq!(
            db.win_probability(&[1, 0, 0, 0, 0, 0], &[1, 0, 0, 0, 0, 0]),
            1.0
        );
        for q in [[2, 2, 2, 2, 2, 5], [0, 0, 0, 0, 0, 15]] {
            let s: f32 = db.distribution(&q).iter().sum();
            assert!((s - 1.0).abs() < 1e-5);
        }
    }
}
