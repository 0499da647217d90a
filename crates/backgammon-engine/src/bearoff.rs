//! Bear-off databases, built by our own dynamic programmes at first use.
//!
//! - [`Bearoff`], one-sided: for every way of placing up to fifteen checkers on the six home
//!   points (54,264 positions), the probability distribution of the number of rolls needed to
//!   bear them all off, playing each roll so as to minimise the expected number of rolls; and
//!   for the 15,504 positions that still have all fifteen, the distribution of the rolls needed
//!   to bear the first one off (what decides gammons). About a second.
//! - [`TwoSided`]: for every pair of positions of up to six checkers a side (924 × 924), the
//!   exact chance that the side on roll bears off first when both play for it, and the exact
//!   cubeful money equities with perfect cube play (cube in the middle, owned by the side on
//!   roll, owned by the other). About a second.

use std::sync::OnceLock;

use tablier_backgammon::{Position, Roll};

use crate::cube::{CubeDecision, CubeInfo, Owner};

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
    rank(points, 15).expect("at most fifteen checkers in a bear-off position")
}

/// The rank of `points` among the positions of at most `budget` checkers, in the order of
/// [`all_positions`] (None when there are more).
fn rank(points: &[u8; 6], mut budget: usize) -> Option<usize> {
    let mut rank = 0u32;
    for (i, &n) in points.iter().enumerate() {
        let n = usize::from(n);
        if n > budget {
            return None;
        }
        for v in 0..n {
            rank += COUNT[5 - i][budget - v];
        }
        budget -= n;
    }
    Some(rank as usize)
}

/// The one-sided bear-off database.
pub struct Bearoff {
    dist: Vec<[f32; MAX_ROLLS]>,
    mean: Vec<f32>,
    /// For the positions of fifteen checkers ([`full_rank`]): rolls to bear the first one off.
    first_off: Vec<[f32; MAX_ROLLS]>,
}

/// Number of one-sided positions with all fifteen checkers on the six home points, `C(20, 5)`.
pub const FULL_POSITIONS: usize = 15_504;

/// The rank of a position of exactly fifteen checkers among [`FULL_POSITIONS`] (the sixth
/// point holds what the first five leave), None for fewer checkers.
fn full_rank(points: &[u8; 6]) -> Option<usize> {
    if points.iter().map(|&n| usize::from(n)).sum::<usize>() != 15 {
        return None;
    }
    let mut rank = 0u32;
    let mut budget = 15usize;
    for (i, &n) in points[..5].iter().enumerate() {
        let n = usize::from(n);
        for v in 0..n {
            rank += COUNT[4 - i][budget - v];
        }
        budget -= n;
    }
    Some(rank as usize)
}

/// Pip count of a one-sided position.
fn pips(q: &[u8; 6]) -> u32 {
    q.iter()
        .enumerate()
        .map(|(i, &n)| (i as u32 + 1) * u32::from(n))
        .sum()
}

/// The mover alone on the board with `q` on his home points.
fn alone(q: &[u8; 6]) -> Position {
    let mut side = [0u8; 25];
    side[..6].copy_from_slice(q);
    Position::from_sides(&side, &[0; 25]).expect("a bear-off position")
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
            let pos = alone(q);
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
        let first_off = first_off_distributions(&all);
        Bearoff {
            dist,
            mean,
            first_off,
        }
    }

    /// The distribution of the number of rolls to bear the first checker off, for a side
    /// that still has all fifteen on its home points (None for fewer).
    #[must_use]
    pub fn first_off_distribution(&self, points: &[u8; 6]) -> Option<&[f32; MAX_ROLLS]> {
        full_rank(points).map(|r| &self.first_off[r])
    }

    /// The chance that the side on roll, with `mover` left, bears off everything before the
    /// other side, with `other` left, bears off its first checker (zero unless `other` still
    /// has all fifteen): a gammon. Both play to minimise their expected rolls.
    #[must_use]
    pub fn gammon_probability(&self, mover: &[u8; 6], other: &[u8; 6]) -> f32 {
        let Some(z) = self.first_off_distribution(other) else {
            return 0.0;
        };
        let x = self.distribution(mover);
        // The mover finishes at his roll k, when the other has had k - 1: P(X = k) P(Z >= k).
        let mut tail = 1.0f32;
        let mut p = 0.0f32;
        for k in 0..MAX_ROLLS {
            p += x[k] * tail;
            tail -= z[k];
        }
        p.clamp(0.0, 1.0)
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
    positions_up_to(15)
}

/// Every one-sided position of at most `max` checkers, in the order of [`all_positions`].
pub(crate) fn positions_up_to(max: u8) -> Vec<[u8; 6]> {
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
    let mut all = Vec::new();
    rec(0, max, &mut [0u8; 6], &mut all);
    all
}

/// The distributions of the rolls needed to bear the first checker off, for every position of
/// fifteen checkers (`sorted`: every one-sided position, by pip count).
fn first_off_distributions(sorted: &[[u8; 6]]) -> Vec<[f32; MAX_ROLLS]> {
    let mut dist = vec![[0f32; MAX_ROLLS]; FULL_POSITIONS];
    let mut mean = vec![0f32; FULL_POSITIONS];
    let mut plays = Vec::new();
    for q in sorted {
        let Some(idx) = full_rank(q) else { continue };
        let pos = alone(q);
        let mut d = [0f64; MAX_ROLLS];
        for &(roll, weight) in &Roll::all() {
            let w = f64::from(weight) / 36.0;
            pos.legal_plays_into(roll, &mut plays);
            if plays.iter().any(|p| p.result.mover_off() > 0) {
                d[1] += w;
                continue;
            }
            // No checker comes off: the play that leaves the shortest expected wait.
            let best = plays
                .iter()
                .filter_map(|p| full_rank(&one_side(&p.result)))
                .min_by(|&a, &b| mean[a].total_cmp(&mean[b]))
                .expect("a roll that bears nothing off moves inside the home board");
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
    dist
}

/// Checkers a side may have left for the [`TwoSided`] database.
pub const TWO_SIDED_CHECKERS: u8 = 6;

/// One-sided positions of at most [`TWO_SIDED_CHECKERS`] checkers, `C(12, 6)`.
pub const SMALL_POSITIONS: usize = 924;

/// What the two-sided database knows of a position, for the side on roll (equities in units
/// of the cube, money game, perfect cube play by both sides; no gammons are possible).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TwoSidedEntry {
    /// Cubeless chance of bearing off first, both sides playing for it.
    pub win: f32,
    /// Cubeful equity of playing on without doubling, the cube in the middle.
    pub no_double_centre: f32,
    /// Cubeful equity of playing on without doubling, the side on roll owning the cube.
    pub no_double_owned: f32,
    /// Cubeful equity when the other side owns the cube (the side on roll cannot double).
    pub opponent_owns: f32,
}

impl TwoSidedEntry {
    /// The equity of doubling: the other side owns the cube at twice the value and takes, or
    /// passes and concedes one (in units of the present cube).
    #[must_use]
    pub fn double_value(&self) -> f32 {
        (2.0 * self.opponent_owns).min(1.0)
    }

    /// The cubeful equity with the best cube action, the cube held by `owner`.
    #[must_use]
    pub fn equity(&self, owner: Owner) -> f32 {
        match owner {
            Owner::Centre => self.no_double_centre.max(self.double_value()),
            Owner::Me => self.no_double_owned.max(self.double_value()),
            Owner::Opponent => self.opponent_owns,
        }
    }

    /// The exact money cube decision for the cube of `ci` (which must be a money game: the
    /// database knows no match score).
    #[must_use]
    pub fn decision(&self, ci: &CubeInfo) -> CubeDecision {
        debug_assert_eq!(ci.match_length, 0);
        match ci.owner {
            Owner::Opponent => CubeDecision {
                no_double: self.opponent_owns,
                double_take: self.opponent_owns,
                double_pass: 1.0,
                double: false,
                take: true,
                beaver: false,
                too_good: false,
            },
            owner => {
                let no_double = if owner == Owner::Centre {
                    self.no_double_centre
                } else {
                    self.no_double_owned
                };
                CubeDecision::from_equities(no_double, 2.0 * self.opponent_owns, ci)
            }
        }
    }
}

/// The exact two-sided bear-off database for up to [`TWO_SIDED_CHECKERS`] checkers a side.
pub struct TwoSided {
    /// Entry `mover * SMALL_POSITIONS + other`: win, no double (centre), no double (owned),
    /// the other owns.
    cells: Vec<[f32; 4]>,
}

impl std::fmt::Debug for TwoSided {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "TwoSided({} positions)", self.cells.len())
    }
}

/// The index of a position of at most [`TWO_SIDED_CHECKERS`] checkers, None for more.
#[must_use]
pub fn small_index(points: &[u8; 6]) -> Option<usize> {
    rank(points, usize::from(TWO_SIDED_CHECKERS))
}

impl TwoSided {
    /// The database, built once per process on first use.
    pub fn global() -> &'static TwoSided {
        static DB: OnceLock<TwoSided> = OnceLock::new();
        DB.get_or_init(TwoSided::generate)
    }

    /// Builds the database: for each pair, over the 21 rolls, the play best for each value (a
    /// finished bear-off is worth 1; otherwise the other side's value of the position left,
    /// negated), pairs taken in order of their total pip count so that every position a play
    /// leads to is already solved. A double is taken when the taker's equity owning the cube
    /// at twice the value is worth more to him than −1.
    #[must_use]
    pub fn generate() -> TwoSided {
        let small = positions_up_to(TWO_SIDED_CHECKERS);
        debug_assert_eq!(small.len(), SMALL_POSITIONS);
        // Successors of each position for each roll, without repeats.
        let rolls = Roll::all();
        let mut succ: Vec<Vec<u16>> = Vec::with_capacity(SMALL_POSITIONS * rolls.len());
        let mut plays = Vec::new();
        for q in &small {
            let pos = alone(q);
            for &(roll, _) in &rolls {
                let mut next: Vec<u16> = Vec::new();
                if pips(q) > 0 {
                    pos.legal_plays_into(roll, &mut plays);
                    for p in &plays {
                        let i = small_index(&one_side(&p.result)).expect("fewer checkers") as u16;
                        if !next.contains(&i) {
                            next.push(i);
                        }
                    }
                }
                succ.push(next);
            }
        }
        let weights: Vec<f32> = rolls.iter().map(|&(_, w)| w as f32 / 36.0).collect();
        let empty = small_index(&[0; 6]).expect("the empty position");
        let mut by_pips: Vec<Vec<usize>> = vec![Vec::new(); 37];
        for (i, q) in small.iter().enumerate() {
            by_pips[pips(q) as usize].push(i);
        }
        let n = SMALL_POSITIONS;
        let mut cells = vec![[0f32; 4]; n * n];
        let value = |c: &[f32; 4], owner: Owner| -> f32 {
            let double = (2.0 * c[3]).min(1.0);
            match owner {
                Owner::Centre => c[1].max(double),
                Owner::Me => c[2].max(double),
                Owner::Opponent => c[3],
            }
        };
        for total in 1..=72usize {
            for mine in total.saturating_sub(36)..=total.min(36) {
                for &i in &by_pips[mine] {
                    if i == empty {
                        continue;
                    }
                    for &j in &by_pips[total - mine] {
                        if j == empty {
                            continue;
                        }
                        let mut acc = [0f32; 4];
                        for (r, &w) in weights.iter().enumerate() {
                            let mut best = [f32::NEG_INFINITY; 4];
                            for &k in &succ[i * rolls.len() + r] {
                                let k = usize::from(k);
                                let v = if k == empty {
                                    [1.0; 4]
                                } else {
                                    // The other side on roll in (j, k), seen from him.
                                    let c = &cells[j * n + k];
                                    [
                                        1.0 - c[0],
                                        -value(c, Owner::Centre),
                                        -value(c, Owner::Opponent),
                                        -value(c, Owner::Me),
                                    ]
                                };
                                for (b, v) in best.iter_mut().zip(v) {
                                    *b = b.max(v);
                                }
                            }
                            for (a, b) in acc.iter_mut().zip(best) {
                                *a += w * b;
                            }
                        }
                        cells[i * n + j] = acc;
                    }
                }
            }
        }
        TwoSided { cells }
    }

    /// The entry for the side on roll with `mover` left against `other`, None when either has
    /// more than [`TWO_SIDED_CHECKERS`] checkers or nothing left.
    #[must_use]
    pub fn lookup(&self, mover: &[u8; 6], other: &[u8; 6]) -> Option<TwoSidedEntry> {
        if pips(mover) == 0 || pips(other) == 0 {
            return None;
        }
        let i = small_index(mover)?;
        let j = small_index(other)?;
        let c = &self.cells[i * SMALL_POSITIONS + j];
        Some(TwoSidedEntry {
            win: c[0],
            no_double_centre: c[1],
            no_double_owned: c[2],
            opponent_owns: c[3],
        })
    }
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
    fn the_smaller_indices_are_bijections() {
        let small = positions_up_to(TWO_SIDED_CHECKERS);
        assert_eq!(small.len(), SMALL_POSITIONS);
        for (i, p) in small.iter().enumerate() {
            assert_eq!(small_index(p), Some(i));
        }
        assert_eq!(small_index(&[0, 0, 0, 0, 0, 7]), None);
        let mut seen = vec![false; FULL_POSITIONS];
        for p in all_positions() {
            if let Some(r) = full_rank(&p) {
                assert!(!seen[r], "{p:?} shares its rank");
                seen[r] = true;
            }
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn first_checker_off_and_gammons_by_hand() {
        let db = Bearoff::global();
        // Fifteen on the 1-point: any roll takes one off.
        assert_eq!(
            db.first_off_distribution(&[15, 0, 0, 0, 0, 0]).unwrap()[1],
            1.0
        );
        assert!(db.first_off_distribution(&[14, 0, 0, 0, 0, 0]).is_none());
        // Fifteen on the 6-point: a roll with a 6 (11/36), or one checker carried all the
        // way by 5-1, 4-2, 3-3 or 2-2 (6/36), bears one off at once.
        let z = db.first_off_distribution(&[0, 0, 0, 0, 0, 15]).unwrap();
        assert!((z[1] - 17.0 / 36.0).abs() < 1e-6);
        // One checker on the 1-point against fifteen not yet borne off: a gammon, always.
        let full = [0, 0, 0, 0, 0, 15];
        assert_eq!(db.gammon_probability(&[1, 0, 0, 0, 0, 0], &full), 1.0);
        // One on the 6-point against fifteen on the 6-point: the mover finishes at once
        // (27/36), or at his second roll if the other has not borne one off in between.
        let g = db.gammon_probability(&[0, 0, 0, 0, 0, 1], &full);
        assert!((g - (27.0 / 36.0 + 9.0 / 36.0 * 19.0 / 36.0)).abs() < 1e-5);
        // Nothing is lost by a side that has borne a checker off.
        assert_eq!(
            db.gammon_probability(&[1, 0, 0, 0, 0, 0], &[14, 0, 0, 0, 0, 0]),
            0.0
        );
    }

    #[test]
    fn two_sided_by_hand() {
        let db = TwoSided::global();
        // One checker on the 6-point against one on the 1-point: bear off now (27/36) or lose.
        let e = db.lookup(&[0, 0, 0, 0, 0, 1], &[1, 0, 0, 0, 0, 0]).unwrap();
        assert!((e.win - 0.75).abs() < 1e-6);
        assert!((e.no_double_centre - 0.5).abs() < 1e-6);
        assert!((e.opponent_owns - 0.5).abs() < 1e-6);
        // Doubled, the other takes at 25% exactly (a tie): the double is worth +1 either way.
        assert!((e.equity(Owner::Centre) - 1.0).abs() < 1e-6);
        // A certain win is worth one whoever holds the cube.
        let sure = db.lookup(&[2, 0, 0, 0, 0, 0], &[0, 0, 0, 0, 0, 6]).unwrap();
        assert!((sure.win - 1.0).abs() < 1e-5);
        assert!((sure.equity(Owner::Opponent) - 1.0).abs() < 1e-5);
        assert!(db.lookup(&[0; 6], &[1, 0, 0, 0, 0, 0]).is_none());
        assert!(db
            .lookup(&[7, 0, 0, 0, 0, 0], &[1, 0, 0, 0, 0, 0])
            .is_none());
        // The one-sided approximation is close to the exact two-sided chances, and cube
        // ownership orders the equities: owning it is worth at least the middle, which is
        // worth at least the other's owning it.
        let one = Bearoff::global();
        let small = positions_up_to(TWO_SIDED_CHECKERS);
        let mut worst = 0f32;
        for a in small.iter().skip(1).step_by(7) {
            for b in small.iter().skip(1).step_by(11) {
                let e = db.lookup(a, b).unwrap();
                worst = worst.max((e.win - one.win_probability(a, b)).abs());
                assert!(
                    e.equity(Owner::Me) >= e.equity(Owner::Centre) - 1e-5,
                    "{a:?} {b:?}"
                );
                assert!(
                    e.equity(Owner::Centre) >= e.opponent_owns - 1e-5,
                    "{a:?} {b:?}"
                );
                assert!(e.opponent_owns.abs() <= 1.0 + 1e-5);
            }
        }
        assert!(worst < 0.05, "one-sided and two-sided differ by {worst}");
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
