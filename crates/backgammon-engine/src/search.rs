//! Look-ahead: n-ply evaluation (the average over the 21 rolls of the best play's (n−1)-ply
//! value), move choice at 0, 1 or 2 ply with move filtering, and levels for people.

use rand::Rng;
use tablier_backgammon::{Play, Position, Roll};

use crate::eval::{equity, invert, terminal_for_winner, Evaluator, Probs, Scratch};

/// Which plays survive the 0-ply ranking to be looked at more deeply: at most `keep` plays,
/// and only those within `margin` equity of the best (gnubg's default move filter keeps 8
/// plays within 0.16 at 1-ply).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveFilter {
    /// Most plays kept.
    pub keep: usize,
    /// Largest equity gap to the best 0-ply play.
    pub margin: f32,
}

impl Default for MoveFilter {
    fn default() -> Self {
        MoveFilter {
            keep: 8,
            margin: 0.16,
        }
    }
}

/// Inner filter for the replies searched inside a 2-ply evaluation.
const INNER_FILTER: MoveFilter = MoveFilter {
    keep: 3,
    margin: 0.10,
};

/// The n-ply probabilities of `pos` for the side on roll: `plies` 0 is the static evaluation;
/// each ply more averages over the 21 rolls the best play chosen with `filter` (ranked at
/// 0-ply, the survivors at `plies − 1`).
pub fn probs_nply(
    ev: &Evaluator,
    pos: &Position,
    plies: u32,
    filter: MoveFilter,
    s: &mut Scratch,
) -> Probs {
    if plies == 0 || pos.is_over() {
        return ev.probs(pos, s);
    }
    let mut acc = [0.0f32; 5];
    let mut plays = Vec::with_capacity(64);
    for (roll, w) in Roll::all() {
        pos.legal_plays_into(roll, &mut plays);
        let (_, p) = best_of(ev, &plays, plies - 1, filter, s);
        for k in 0..5 {
            acc[k] += p[k] * w as f32 / 36.0;
        }
    }
    acc
}

/// The value of a play for the side that made it, with the position after it searched to
/// `plies`.
pub fn play_probs(ev: &Evaluator, play: &Play, plies: u32, s: &mut Scratch) -> Probs {
    let r = play.result;
    if r.mover_off() == 15 {
        return terminal_for_winner(&r);
    }
    invert(&probs_nply(ev, &r.flip(), plies, INNER_FILTER, s))
}

/// Every play of `plays` ranked at 0-ply: `(index, probabilities)`, best first.
pub fn rank_0ply(ev: &Evaluator, plays: &[Play], s: &mut Scratch) -> Vec<(usize, Probs)> {
    let mut v: Vec<(usize, Probs)> = plays
        .iter()
        .enumerate()
        .map(|(i, p)| (i, ev.after_play(p, s)))
        .collect();
    v.sort_by(|a, b| equity(&b.1).total_cmp(&equity(&a.1)));
    v
}

/// The best of `plays` with the position after each searched to `plies` (after a 0-ply
/// ranking cut down by `filter`), and its probabilities for the side that plays.
pub fn best_of(
    ev: &Evaluator,
    plays: &[Play],
    plies: u32,
    filter: MoveFilter,
    s: &mut Scratch,
) -> (usize, Probs) {
    if plays.len() == 1 {
        return (0, play_probs(ev, &plays[0], plies, s));
    }
    if plies == 0 {
        return ev.best_play_0ply(plays, s);
    }
    let ranked = rank_0ply(ev, plays, s);
    let top = equity(&ranked[0].1);
    let mut best = (ranked[0].0, [0.0; 5]);
    let mut best_e = f32::NEG_INFINITY;
    for &(i, p0) in ranked.iter().take(filter.keep) {
        if equity(&p0) < top - filter.margin {
            break;
        }
        let p = play_probs(ev, &plays[i], plies, s);
        let e = equity(&p);
        if e > best_e {
            best_e = e;
            best = (i, p);
        }
    }
    best
}

/// The cube decision for the side on roll in `pos` (before rolling), from its `plies`-ply
/// cubeless probabilities and the cube efficiency of its class.
pub fn cube_decision(
    ev: &Evaluator,
    pos: &Position,
    ci: &crate::cube::CubeInfo,
    plies: u32,
    s: &mut Scratch,
) -> crate::cube::CubeDecision {
    let p = probs_nply(ev, pos, plies, MoveFilter::default(), s);
    let x = crate::cube::cube_efficiency(crate::eval::classify(pos), pos.pip_count().0);
    crate::cube::decide(&p, ci, x)
}

/// What a level does: how deep it looks and how much noise it adds to each play's equity.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Level {
    /// Look-ahead in plies for the move choice.
    pub plies: u32,
    /// Standard deviation of the noise added to each candidate's equity (0 = none).
    pub noise: f32,
}

/// The highest level (2-ply search, no noise).
pub const MAX_LEVEL: u8 = 5;

/// The settings of a level from 0 (a beginner who blunders often) to [`MAX_LEVEL`] (the
/// strongest this engine plays); higher numbers are clamped.
#[must_use]
pub fn level(n: u8) -> Level {
    match n.min(MAX_LEVEL) {
        0 => Level {
            plies: 0,
            noise: 0.35,
        },
        1 => Level {
            plies: 0,
            noise: 0.15,
        },
        2 => Level {
            plies: 0,
            noise: 0.05,
        },
        3 => Level {
            plies: 0,
            noise: 0.0,
        },
        4 => Level {
            plies: 1,
            noise: 0.0,
        },
        _ => Level {
            plies: 2,
            noise: 0.0,
        },
    }
}

/// Chooses a play of `roll` in `pos` at `lvl`: its index in `plays` (which the function
/// fills) and its probabilities for the side that plays.
pub fn choose(
    ev: &Evaluator,
    pos: &Position,
    roll: Roll,
    lvl: Level,
    rng: &mut impl Rng,
    plays: &mut Vec<Play>,
    s: &mut Scratch,
) -> (usize, Probs) {
    pos.legal_plays_into(roll, plays);
    if lvl.noise > 0.0 {
        let ranked = rank_0ply(ev, plays, s);
        let mut best = ranked[0];
        let mut best_e = f32::NEG_INFINITY;
        for &(i, p) in &ranked {
            // A normal deviate from the sum of uniforms (Irwin–Hall, close enough here).
            let z: f32 = (0..12).map(|_| rng.gen::<f32>()).sum::<f32>() - 6.0;
            let e = equity(&p) + lvl.noise * z;
            if e > best_e {
                best_e = e;
                best = (i, p);
            }
        }
        return best;
    }
    best_of(ev, plays, lvl.plies, MoveFilter::default(), s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn deeper_search_agrees_on_forced_plays_and_levels_clamp() {
        let ev = Evaluator::shipped();
        let mut s = Scratch::default();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let mut plays = Vec::new();
        // 6-6 at the start has few plays; every level picks a legal one.
        for n in 0..=MAX_LEVEL {
            let (i, p) = choose(
                ev,
                &Position::start(),
                Roll::new(6, 6).unwrap(),
                level(n),
                &mut rng,
                &mut plays,
                &mut s,
            );
            assert!(i < plays.len());
            assert!((0.0..=1.0).contains(&p[0]));
        }
        assert_eq!(level(200), level(MAX_LEVEL));
        // A 1-ply evaluation is the average of 21 best replies: a probability.
        let p1 = probs_nply(ev, &Position::start(), 1, MoveFilter::default(), &mut s);
        assert!((0.0..=1.0).contains(&p1[0]));
    }
}
