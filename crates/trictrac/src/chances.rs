//! The book's arithmetic of chances (section IV, n°259–312): how many of the 36 ordered
//! throws reach a set of distances ("nombres pour jouer") one, two or three ways, and the
//! chances to conserve a plein, computed from the rules rather than copied.

use crate::board::Board;
use crate::plays::{PlaySet, Roll};
use tablier_core::Side;

/// The 36 ordered throws.
pub fn ordered_throws() -> impl Iterator<Item = (u8, u8)> {
    (1..=6u8).flat_map(|a| (1..=6u8).map(move |b| (a, b)))
}

/// How many numbers of the throw `(a, b)` — `{a, b, a+b}`, for a doublet `{d, 2d}` (n°30) —
/// are in `set`.
#[must_use]
pub fn ways(set: &[u8], a: u8, b: u8) -> u32 {
    Roll::new(a, b)
        .numbers()
        .iter()
        .filter(|n| set.contains(n))
        .count() as u32
}

/// Ordered throws (out of 36) with at least `k` of their numbers in `set` (tables C, D, E
/// and the columns of table F, n°266–312).
#[must_use]
pub fn at_least(set: &[u8], k: u32) -> u32 {
    ordered_throws()
        .filter(|&(a, b)| ways(set, a, b) >= k)
        .count() as u32
}

/// Σ over the 36 throws of the number of ways (table F's last column, n°309).
#[must_use]
pub fn total_ways(set: &[u8]) -> u32 {
    ordered_throws().map(|(a, b)| ways(set, a, b)).sum()
}

/// Ordered throws (out of 36) with which `side` keeps the plein he holds on `board`
/// (RULES.md §5.8, including par impuissance); 0 without a plein.
#[must_use]
pub fn conserve_chances(board: &Board, side: Side) -> u32 {
    if board.plein(side).is_none() {
        return 0;
    }
    Roll::all()
        .into_iter()
        .filter(|&r| PlaySet::new(board, side, r).conserves.is_some())
        .map(Roll::chances)
        .sum()
}

/// *Conserver deux fois* (n°375–379, n°415): of the 1296 ordered pairs of throws, how many
/// keep the plein twice in a row when the first throw is played to maximise the chances of
/// the second (the opponent not moving in between, as the book counts). Returns
/// `(pairs conserving twice, first throws that conserve)`.
#[must_use]
pub fn conserve_twice(board: &Board, side: Side) -> (u32, u32) {
    let mut twice = 0;
    let mut first = 0;
    for r in Roll::all() {
        let ps = PlaySet::new(board, side, r);
        if ps.conserves.is_none() {
            continue;
        }
        first += r.chances();
        let best = ps
            .legal
            .iter()
            .map(|c| conserve_chances(&c.end, side))
            .max()
            .unwrap_or(0);
        twice += r.chances() * best;
    }
    (twice, first)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn single_numbers_n263() {
        let got: Vec<u32> = (1..=12).map(|n| at_least(&[n], 1)).collect();
        // n°263: the ace 11, the two 12 (1-1), ... the sonnez's 12 only once.
        assert_eq!(got[0], 11);
        assert_eq!(got[11], 1);
        assert_eq!(ordered_throws().count(), 36);
    }
}
