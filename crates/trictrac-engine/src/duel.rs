//! Duels between two players with the same dice for both seatings: each dice sequence is
//! played twice, the seats swapped.

use crate::ecrire::{play_marque, play_partie as play_partie_a_ecrire};
use crate::sim::{play_partie, Policy};
use crate::train::partie_dice;
use tablier_core::Side;

/// The result of one dice sequence played twice.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PairResult {
    /// Holes of A minus holes of B with A as White, then with A as Black.
    pub margins: [f64; 2],
}

/// Plays dice sequence `n` of `seed` twice: `a` as White then as Black.
pub fn play_pair(a: &mut dyn Policy, b: &mut dyn Policy, seed: u64, n: u64) -> PairResult {
    let one = play_partie(a, b, &mut partie_dice(seed, n), &mut |_| {});
    let two = play_partie(b, a, &mut partie_dice(seed, n), &mut |_| {});
    PairResult {
        margins: [one.hole_margin(Side::White), two.hole_margin(Side::Black)],
    }
}

/// Plays dice sequence `n` of `seed` twice as one marqué of a partie à écrire
/// ([`play_marque`]): `a` as White then as Black; the margins are the marqué's value in
/// jetons for A.
pub fn play_marque_pair(a: &mut dyn Policy, b: &mut dyn Policy, seed: u64, n: u64) -> PairResult {
    let one = play_marque(a, b, &mut partie_dice(seed, n));
    let two = play_marque(b, a, &mut partie_dice(seed, n));
    PairResult {
        margins: [one.white, -two.white],
    }
}

/// Plays dice sequence `n` of `seed` twice as a whole partie à écrire of `marques` marqués
/// ([`play_partie_a_ecrire`]): `a` as White then as Black; the margins are A's gain by the
/// settlement in jetons.
pub fn play_ecrire_pair(
    a: &mut dyn Policy,
    b: &mut dyn Policy,
    seed: u64,
    n: u64,
    marques: u32,
) -> PairResult {
    let one = play_partie_a_ecrire(a, b, &mut partie_dice(seed, n), marques);
    let two = play_partie_a_ecrire(b, a, &mut partie_dice(seed, n), marques);
    PairResult {
        margins: [one.white, -two.white],
    }
}

/// Mean and standard error of a sample (the standard error is 0 below two values).
#[must_use]
pub fn mean_se(v: &[f64]) -> (f64, f64) {
    if v.is_empty() {
        return (0.0, 0.0);
    }
    let n = v.len() as f64;
    let mean = v.iter().sum::<f64>() / n;
    if v.len() < 2 {
        return (mean, 0.0);
    }
    let var = v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, (var / n).sqrt())
}
