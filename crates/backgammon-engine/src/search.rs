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

/// The first (0-ply) filter of the levels that search two plies or more, wider than gnubg's
/// (8 within 0.16): our 0-ply values misjudge some plays by more than 0.16 (a hit most often),
/// and the second filter's 1-ply values ([`SECOND_FILTER`]) cost little beside the 2-ply
/// search. On 2,000 money positions judged by gnubg 3-ply (`tablier bench backgammon-checker
/// --positions 2000 --seed 2 --judge-plies 3 --players
/// "cubeful-search%8:0.16,cubeful-search%12:0.32,cubeful-search%16:0.48,gnubg:2"`), 16 within
/// 0.48 lost 0.24 mEMG a position less than 8 within 0.16 (2.09 against 2.33; gnubg 2-ply
/// 0.25), in about the same time.
pub const FIRST_FILTER: MoveFilter = MoveFilter {
    keep: 16,
    margin: 0.48,
};

/// The second filter of the levels that search two plies or more
/// ([`best_of_valued_narrowed`]): the four best plays at one ply less, within 0.08 of the best
/// of them. On 2,000 money positions judged by gnubg 3-ply (`tablier bench backgammon-checker
/// --positions 2000 --judge-plies 3 --players
/// "cubeful-search/none,cubeful-search/2:0.04,cubeful-search/4:0.08"`) it chose as the full
/// search in 98.5% of them and lost 0.05 ± 0.06 mEMG a position to it, in 57% of the time;
/// gnubg's own (two within 0.04) lost 0.44 ± 0.18 in 36%.
pub const SECOND_FILTER: MoveFilter = MoveFilter {
    keep: 4,
    margin: 0.08,
};

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

/// The cube decision for the side on roll in `pos` (before rolling) with the cube `ci`,
/// searched to `plies` with the cube at every node ([`cubeful_decisions`]); at 0 plies the cube
/// model applied to the static probabilities.
pub fn cube_decision(
    ev: &Evaluator,
    pos: &Position,
    ci: &crate::cube::CubeInfo,
    plies: u32,
    s: &mut Scratch,
) -> crate::cube::CubeDecision {
    cubeful_decisions(ev, pos, std::slice::from_ref(ci), plies, s)[0]
}

/// The cube model applied once to the `plies`-ply cubeless probabilities of `pos` (the way
/// [`cube_decision`] worked before it searched with the cube; kept to compare them).
pub fn cube_decision_cubeless(
    ev: &Evaluator,
    pos: &Position,
    ci: &crate::cube::CubeInfo,
    plies: u32,
    s: &mut Scratch,
) -> crate::cube::CubeDecision {
    let p = probs_nply(ev, pos, plies, MoveFilter::default(), s);
    // The search sees no cube turn: the model's efficiency is that of an unsearched cube.
    let x = crate::cube::cube_efficiency_at(crate::eval::classify(pos), pos.pip_count().0, 0);
    crate::cube::decide(&p, ci, x)
}

/// Cubeful look-ahead: the cube decisions of the side on roll in `pos` for each cube of `cis`
/// (each seen from him), searched to `plies`. At 0 plies it is [`cube_decision`]; each ply more
/// averages over the 21 rolls the value of the position after the best play (chosen at 0-ply,
/// cubeless), where the opponent then takes his own best cube action, searched one ply less.
/// Unlike [`cube_decision`], which applies the cube model once to the searched cubeless
/// probabilities, market losers and the opponent's doubles inside the search are valued with the
/// cube where they happen.
///
/// The cube model at the leaves keeps the efficiency of a decision searched `plies` deep
/// ([`crate::cube::cube_efficiency_at`]): livelier at 0 and 1 ply, where no cube turn ahead is
/// seen.
pub fn cubeful_decisions(
    ev: &Evaluator,
    pos: &Position,
    cis: &[crate::cube::CubeInfo],
    plies: u32,
    s: &mut Scratch,
) -> Vec<crate::cube::CubeDecision> {
    cubeful_decisions_within(ev, pos, cis, plies, plies, s)
}

/// [`cubeful_decisions`] at a node `plies` from the leaves of a decision searched `top` deep.
fn cubeful_decisions_within(
    ev: &Evaluator,
    pos: &Position,
    cis: &[crate::cube::CubeInfo],
    plies: u32,
    top: u32,
    s: &mut Scratch,
) -> Vec<crate::cube::CubeDecision> {
    use crate::cube::{decide, rescale, CubeDecision};
    // Money bear-offs of up to six checkers a side: the exact cubeful equities.
    if cis.iter().all(|ci| ci.match_length == 0)
        && crate::eval::classify(pos) == crate::eval::Class::Bearoff
    {
        let me = crate::bearoff::one_side(pos);
        let them = crate::bearoff::one_side(&pos.flip());
        if let Some(e) = crate::bearoff::TwoSided::global().lookup(&me, &them) {
            return cis.iter().map(|ci| e.decision(ci)).collect();
        }
    }
    if plies == 0 || pos.is_over() {
        let p = ev.probs(pos, s);
        let x = crate::cube::cube_efficiency_at(crate::eval::classify(pos), pos.pip_count().0, top);
        return cis.iter().map(|ci| decide(&p, ci, x)).collect();
    }
    // Every cube the search must value: each one as it is, and doubled and taken where the
    // player may double.
    let mut states = Vec::with_capacity(cis.len() * 2);
    for ci in cis {
        states.push(*ci);
        if ci.may_double() {
            states.push(ci.doubled());
        }
    }
    let children: Vec<crate::cube::CubeInfo> = states.iter().map(|c| c.flipped()).collect();
    let mut acc = vec![0.0f32; states.len()];
    let mut plays = Vec::with_capacity(64);
    for (roll, w) in Roll::all() {
        pos.legal_plays_into(roll, &mut plays);
        let (i, _) = ev.best_play_0ply(&plays, s);
        let after = plays[i].result;
        let w = w as f32 / 36.0;
        if after.mover_off() == 15 {
            let t = terminal_for_winner(&after);
            for (a, st) in acc.iter_mut().zip(&states) {
                *a += w * crate::cube::terminal_value(&t, st);
            }
            continue;
        }
        let answers = cubeful_decisions_within(ev, &after.flip(), &children, plies - 1, top, s);
        for (a, d) in acc.iter_mut().zip(&answers) {
            // The opponent doubles when it pays him, and we then take or pass as is best.
            let v = if d.double {
                d.double_take.min(d.double_pass)
            } else {
                d.no_double
            };
            *a -= w * v;
        }
    }
    let mut out = Vec::with_capacity(cis.len());
    let mut k = 0;
    for ci in cis {
        let no_double = acc[k];
        k += 1;
        if !ci.may_double() {
            out.push(CubeDecision {
                no_double,
                double_take: no_double,
                double_pass: 1.0,
                double: false,
                take: true,
                beaver: false,
                too_good: false,
            });
            continue;
        }
        let double_take = rescale(ci, acc[k], ci.value * 2, ci.value);
        k += 1;
        out.push(CubeDecision::from_equities(no_double, double_take, ci));
    }
    out
}

/// How a player weighs its candidate plays against each other.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum PlayValue {
    /// Cubeless money equity (gammons counted), whatever the cube and the score: each
    /// candidate searched by [`play_probs`] (the replies inside chosen among the best three at
    /// one ply less).
    Cubeless,
    /// Each candidate's searched cubeless probabilities ([`play_probs`]), valued with the cube
    /// and the score of the game by the cube model once, at the root: with the Jacoby rule and
    /// the cube in the middle a gammon that needs no double counts single, an owned cube is
    /// worth keeping, a match score weighs gammons as the match equity table says.
    Cubeful,
    /// The position after each candidate searched with the cube at every node
    /// ([`cubeful_decisions`]: the replies chosen at 0-ply, as gnubg chooses them inside its
    /// n-ply evaluations, and each side's cube action valued where it happens). Judged by gnubg
    /// 3-ply on 2,000 money positions (`tablier bench backgammon-checker`), the best of the
    /// three at level 5, and twice as fast as the others.
    #[default]
    CubefulSearch,
}

/// The value of `play` for the side that makes it, with the cube `ci` seen from that side
/// (before the play), searched to `plies` as `how` says, in units of the cube of `ci` (a
/// match: rescaled match winning chances, see [`crate::cube`]); the cubeless equity for
/// [`PlayValue::Cubeless`].
pub fn play_value(
    ev: &Evaluator,
    play: &Play,
    plies: u32,
    ci: &crate::cube::CubeInfo,
    how: PlayValue,
    s: &mut Scratch,
) -> f32 {
    play_value_keyed(ev, play, plies, ci, how, s).0
}

/// [`play_value`], and a second key that orders plays of the same value: where the opponent's
/// best action after the play is a double that must be passed, every such play is worth the
/// same (the cube lost), and the better of them is the one that leaves his double/take worth
/// least to him, the closest to a take should the valuation be off (gnubg 3-ply often finds a
/// take or no double there). Elsewhere the key is the value.
pub fn play_value_keyed(
    ev: &Evaluator,
    play: &Play,
    plies: u32,
    ci: &crate::cube::CubeInfo,
    how: PlayValue,
    s: &mut Scratch,
) -> (f32, f32) {
    let r = play.result;
    if how == PlayValue::Cubeless {
        let v = equity(&play_probs(ev, play, plies, s));
        return (v, v);
    }
    if r.mover_off() == 15 {
        let v = crate::cube::terminal_value(&terminal_for_winner(&r), ci);
        return (v, v);
    }
    let next = r.flip();
    let theirs = ci.flipped();
    // Money bear-offs have exact cubeful values (through `cubeful_decisions`).
    let exact = ci.match_length == 0 && crate::eval::classify(&next) == crate::eval::Class::Bearoff;
    let d = if how == PlayValue::CubefulSearch || plies == 0 || exact {
        cubeful_decisions(ev, &next, std::slice::from_ref(&theirs), plies, s)[0]
    } else {
        let p = probs_nply(ev, &next, plies, INNER_FILTER, s);
        // The model once on searched cubeless probabilities: no cube turn is seen.
        let x =
            crate::cube::cube_efficiency_at(crate::eval::classify(&next), next.pip_count().0, 0);
        crate::cube::decide(&p, &theirs, x)
    };
    // The opponent, on roll after the play, takes his best cube action.
    if d.double && d.double_take > d.double_pass {
        (-d.double_pass, -d.double_take)
    } else if d.double {
        (-d.double_take, -d.double_take)
    } else {
        (-d.no_double, -d.no_double)
    }
}

/// Whether `(v, key)` beats `best` ([`play_value_keyed`]): a higher value, or the same value
/// and a higher key.
fn beats(v: (f32, f32), best: (f32, f32)) -> bool {
    v.0 > best.0 || (v.0 == best.0 && v.1 > best.1)
}

/// The best of `plays` by [`play_value`] with the cube `ci` (seen from the side that plays),
/// after the 0-ply cubeless ranking cut down by `filter` (every play at 0 plies): its index and
/// value.
pub fn best_of_valued(
    ev: &Evaluator,
    plays: &[Play],
    plies: u32,
    filter: MoveFilter,
    ci: &crate::cube::CubeInfo,
    how: PlayValue,
    s: &mut Scratch,
) -> (usize, f32) {
    if plays.len() == 1 {
        return (0, play_value(ev, &plays[0], plies, ci, how, s));
    }
    let ranked = rank_0ply(ev, plays, s);
    let top = equity(&ranked[0].1);
    let mut best = (ranked[0].0, (f32::NEG_INFINITY, f32::NEG_INFINITY));
    for (n, &(i, p0)) in ranked.iter().enumerate() {
        if plies > 0 && (n >= filter.keep || equity(&p0) < top - filter.margin) {
            break;
        }
        let v = play_value_keyed(ev, &plays[i], plies, ci, how, s);
        if beats(v, best.1) {
            best = (i, v);
        }
    }
    (best.0, best.1 .0)
}

/// [`best_of_valued`] with gnubg's second filter: the survivors of the 0-ply `filter` valued
/// at `plies − 1` first, and only those that `narrow` keeps (at most `narrow.keep`, within
/// `narrow.margin` of the best of them) searched to `plies`. With `plies` below 2 it is
/// [`best_of_valued`]; it is [`best_of_deepening`] with one narrowing and no deadline.
#[allow(clippy::too_many_arguments)]
pub fn best_of_valued_narrowed(
    ev: &Evaluator,
    plays: &[Play],
    plies: u32,
    filter: MoveFilter,
    narrow: MoveFilter,
    ci: &crate::cube::CubeInfo,
    how: PlayValue,
    s: &mut Scratch,
) -> (usize, f32) {
    let (i, v, _) = best_of_deepening(ev, plays, plies, filter, &[narrow], ci, how, None, s);
    (i, v)
}

/// The filter before the third ply ([`best_of_deepening`] at level 6): gnubg's Grandmaster
/// keeps the two best plays within 0.04 at two plies for its three-ply search.
pub const THIRD_FILTER: MoveFilter = MoveFilter {
    keep: 2,
    margin: 0.04,
};

/// The best of `plays` searched ply by ply, as gnubg's move filters do: the survivors of the
/// 0-ply `filter` are valued ([`play_value_keyed`]) `narrows.len()` plies short of `plies`
/// first (one ply at least), and before each ply more the `narrows` in turn keep the best of
/// them (at most `keep`, within `margin` of the best); the last stage is searched to `plies`.
/// Returns the index of the play, its value and the depth at which it was chosen.
///
/// With a `deadline`, a stage is given up as soon as its next play is expected to end after
/// it (the first play of a stage costs about 21 times one of the stage before, the next ones
/// as much as those already valued): the best of the last finished stage is played (the
/// values the unfinished stage has are dropped: values of an odd and an even number of plies
/// are not comparable). A stage that keeps a single play ends the search: that play is the
/// choice whatever deeper plies say of it, and its value and depth are the last stage's
/// (level 6 spends about a third less time a play this way). Below two plies, or without
/// narrows, it is [`best_of_valued`].
///
/// ```
/// use tablier_backgammon::{Position, Roll};
/// use tablier_backgammon_engine::cube::CubeInfo;
/// use tablier_backgammon_engine::eval::{Evaluator, Scratch};
/// use tablier_backgammon_engine::search::{self, PlayValue};
/// let ev = Evaluator::shipped();
/// let mut s = Scratch::default();
/// let pos = Position::from_position_id("4HPwATDgc/ABMA").unwrap();
/// let plays = pos.legal_plays(Roll::new(3, 1).unwrap());
/// let narrows = [search::SECOND_FILTER, search::THIRD_FILTER];
/// let (i, _, depth) = search::best_of_deepening(ev, &plays, 3, search::FIRST_FILTER, &narrows,
///     &CubeInfo::money(), PlayValue::CubefulSearch, None, &mut s);
/// assert_eq!(tablier_backgammon::notation::format_play(&plays[i]), "8/5 6/5");
/// // The opening 31's point is the only play within 0.08 of the best at one ply: no second
/// // or third ply is searched.
/// assert_eq!(depth, 1);
/// ```
#[allow(clippy::too_many_arguments)]
pub fn best_of_deepening(
    ev: &Evaluator,
    plays: &[Play],
    plies: u32,
    filter: MoveFilter,
    narrows: &[MoveFilter],
    ci: &crate::cube::CubeInfo,
    how: PlayValue,
    deadline: Option<std::time::Instant>,
    s: &mut Scratch,
) -> (usize, f32, u32) {
    let stages = narrows.len().min(plies.saturating_sub(1) as usize);
    if stages == 0 || plays.len() == 1 {
        let (i, v) = best_of_valued(ev, plays, plies, filter, ci, how, s);
        return (i, v, plies);
    }
    let narrows = &narrows[narrows.len() - stages..];
    let ranked = rank_0ply(ev, plays, s);
    let top = equity(&ranked[0].1);
    let mut depth = plies - stages as u32;
    let started = std::time::Instant::now();
    let mut valued: Vec<(usize, (f32, f32))> = ranked
        .iter()
        .take(filter.keep)
        .take_while(|(_, p0)| equity(p0) >= top - filter.margin)
        .map(|&(i, _)| (i, play_value_keyed(ev, &plays[i], depth, ci, how, s)))
        .collect();
    // Time a play of the last stage took.
    let mut per_play = started.elapsed() / valued.len() as u32;
    // Best first; equal values and keys keep the 0-ply order.
    let order = |v: &mut Vec<(usize, (f32, f32))>| {
        v.sort_by(|a, b| b.1 .0.total_cmp(&a.1 .0).then(b.1 .1.total_cmp(&a.1 .1)));
    };
    order(&mut valued);
    for narrow in narrows {
        let best = valued[0].1 .0;
        let kept: Vec<usize> = valued
            .iter()
            .take(narrow.keep)
            .take_while(|(_, v)| v.0 >= best - narrow.margin)
            .map(|&(i, _)| i)
            .collect();
        if kept.len() == 1 {
            // One play left: deeper plies could change its value, not the choice.
            break;
        }
        let stage_start = std::time::Instant::now();
        let mut deeper = Vec::with_capacity(kept.len());
        let mut expected = per_play * 21;
        for (n, &i) in kept.iter().enumerate() {
            if let Some(d) = deadline {
                if std::time::Instant::now() + expected > d {
                    return (valued[0].0, valued[0].1 .0, depth);
                }
            }
            deeper.push((i, play_value_keyed(ev, &plays[i], depth + 1, ci, how, s)));
            expected = stage_start.elapsed() / (n as u32 + 1);
        }
        per_play = stage_start.elapsed() / kept.len() as u32;
        order(&mut deeper);
        valued = deeper;
        depth += 1;
    }
    (valued[0].0, valued[0].1 .0, depth)
}

/// What a level does: how deep it looks and how much noise it adds to each play's equity.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Level {
    /// Look-ahead in plies for the move choice.
    pub plies: u32,
    /// Standard deviation of the noise added to each candidate's equity (0 = none).
    pub noise: f32,
}

/// The highest level (3-ply search with gnubg's Grandmaster filters, no noise).
pub const MAX_LEVEL: u8 = 6;

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
        5 => Level {
            plies: 2,
            noise: 0.0,
        },
        _ => Level {
            plies: 3,
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

    /// Plays after each of which the opponent doubles and we must pass are worth the same;
    /// the search keeps the one whose double/take is worth least to him. A money position of
    /// the checker bench (gnubg 2-ply plays 16/14 5/4 there; before the second key the search
    /// took the first of the tied plays in the 0-ply order, 7/4, which gnubg 3-ply puts 0.13
    /// behind).
    #[test]
    fn tied_passes_go_to_the_play_closest_to_a_take() {
        let ev = Evaluator::shipped();
        let mut s = Scratch::default();
        let pos = Position::from_position_id("Pr4XAABcJ4BgMw").unwrap();
        let roll = Roll::new(2, 1).unwrap();
        let ci = crate::cube::CubeInfo {
            jacoby: true,
            beavers: true,
            ..crate::cube::CubeInfo::money()
        };
        let plays = pos.legal_plays(roll);
        for plies in [1, 2] {
            let filter = MoveFilter::default();
            let how = PlayValue::CubefulSearch;
            let ranked = rank_0ply(ev, &plays, &mut s);
            let top = equity(&ranked[0].1);
            let valued: Vec<(usize, (f32, f32))> = ranked
                .iter()
                .take(filter.keep)
                .take_while(|(_, p0)| equity(p0) >= top - filter.margin)
                .map(|&(i, _)| (i, play_value_keyed(ev, &plays[i], plies, &ci, how, &mut s)))
                .collect();
            let passes = valued.iter().filter(|(_, v)| v.0 == -1.0).count();
            assert!(passes >= 2, "{plies} plies: {valued:?}");
            for (_, (v, key)) in &valued {
                assert!(
                    *v > -1.0 || *key < -1.0,
                    "a pass keyed by the take: {valued:?}"
                );
            }
            let (best, value) = best_of_valued(ev, &plays, plies, filter, &ci, how, &mut s);
            let top = valued
                .iter()
                .max_by(|a, b| a.1 .0.total_cmp(&b.1 .0).then(a.1 .1.total_cmp(&b.1 .1)))
                .unwrap();
            assert_eq!((best, value), (top.0, top.1 .0), "{plies} plies");
            if plies == 2 {
                let text = tablier_backgammon::notation::format_play(&plays[best]);
                assert_eq!(text, "16/14 5/4");
            }
        }
    }

    #[test]
    fn the_cube_searched_ply_by_ply() {
        use crate::cube::{decide, CubeInfo, Owner};
        let ev = Evaluator::shipped();
        let mut s = Scratch::default();
        let centre = CubeInfo {
            jacoby: true,
            beavers: true,
            ..CubeInfo::money()
        };
        let mine = CubeInfo {
            value: 2,
            owner: Owner::Me,
            ..centre
        };
        let theirs = CubeInfo {
            owner: Owner::Opponent,
            ..mine
        };
        let start = Position::start();
        // 0 plies: the cube model on the static probabilities.
        let p = ev.probs(&start, &mut s);
        let x = crate::cube::cube_efficiency_at(crate::eval::classify(&start), 167, 0);
        assert_eq!(
            cubeful_decisions(ev, &start, &[centre], 0, &mut s)[0],
            decide(&p, &centre, x)
        );
        // The start: no double, take (a beaver, gnubg says); the cube is worth more to its
        // owner than in the middle, and more in the middle than in the opponent's hands.
        for plies in [1, 2] {
            let d = cubeful_decisions(ev, &start, &[centre, mine, theirs], plies, &mut s);
            assert!(!d[0].double && d[0].take, "{plies}: {:?}", d[0]);
            assert!(d[0].double_take < 0.0 && d[0].beaver);
            assert!(d[1].no_double > d[0].no_double && d[0].no_double > d[2].no_double);
            assert!(d[0].no_double.abs() < 0.2, "{plies}: {:?}", d[0]);
            assert!(!d[2].double, "the cube is his");
        }
        // A race won but for a miracle (bear-off database): double, pass.
        let mut me = [0u8; 25];
        me[..3].copy_from_slice(&[2, 2, 1]);
        let mut them = [0u8; 25];
        them[5..10].copy_from_slice(&[3; 5]);
        let race = Position::from_sides(&me, &them).unwrap();
        let d = cube_decision(ev, &race, &centre, 2, &mut s);
        assert!(d.double && !d.take, "{d:?}");
    }

    #[test]
    fn post_crawford_trailer_doubles_at_once_at_every_depth() {
        use crate::cube::CubeInfo;
        let ev = Evaluator::shipped();
        let mut s = Scratch::default();
        // Even scores away (4-away, 2-away) against 1-away: the leader's free drop is worth
        // nothing, doubling at once is right (at odd scores it is nearly a tie).
        for (len, me) in [(7, 3), (7, 5), (5, 1), (5, 3)] {
            let ci = CubeInfo {
                match_length: len,
                score: [me, len - 1],
                post_crawford: true,
                ..CubeInfo::money()
            };
            for plies in 0..=2 {
                let d = cube_decision(ev, &Position::start(), &ci, plies, &mut s);
                assert!(
                    d.double,
                    "{len} points, {me}-{}, {plies} plies: {d:?}",
                    len - 1
                );
            }
        }
    }

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

    /// Positions of a seeded 0-ply self-play game, each with the roll thrown in it.
    fn self_play_positions(ev: &Evaluator, seed: u64, n: usize) -> Vec<(Position, Roll)> {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut s = Scratch::default();
        let mut out = Vec::new();
        let mut pos = Position::start();
        let mut plays = Vec::new();
        while out.len() < n {
            if pos.is_over() {
                pos = Position::start();
            }
            let roll = Roll::new(rng.gen_range(1..=6), rng.gen_range(1..=6)).unwrap();
            out.push((pos, roll));
            pos.legal_plays_into(roll, &mut plays);
            let (i, _) = ev.best_play_0ply(&plays, &mut s);
            pos = plays[i].result.flip();
        }
        out
    }

    #[test]
    fn at_double_match_point_plays_are_valued_by_their_winning_chances() {
        use crate::cube::CubeInfo;
        let ev = Evaluator::shipped();
        let mut s = Scratch::default();
        // 1-away/1-away: gammons count for nothing and nobody may double.
        let dmp = CubeInfo {
            match_length: 5,
            score: [4, 4],
            post_crawford: true,
            ..CubeInfo::money()
        };
        let mut differ = 0;
        let mut plays = Vec::new();
        for (pos, roll) in self_play_positions(ev, 5, 400) {
            pos.legal_plays_into(roll, &mut plays);
            let filter = MoveFilter::default();
            let (i, v) = best_of_valued(ev, &plays, 0, filter, &dmp, PlayValue::Cubeful, &mut s);
            let wins: Vec<f32> = plays.iter().map(|p| ev.after_play(p, &mut s)[0]).collect();
            let most = wins.iter().copied().fold(0.0f32, f32::max);
            assert!(
                wins[i] >= most - 1e-6,
                "{pos:?} {roll:?}: {} < {most}",
                wins[i]
            );
            assert!(
                (v - (2.0 * wins[i] - 1.0)).abs() < 1e-4,
                "{v} for {}",
                wins[i]
            );
            if ev.best_play_0ply(&plays, &mut s).0 != i {
                differ += 1;
            }
        }
        // Money equity, gammons counted, would have chosen otherwise somewhere.
        assert!(differ > 0);
    }

    #[test]
    fn the_second_filter_searches_the_best_shallow_plays_only() {
        use crate::cube::CubeInfo;
        let ev = Evaluator::shipped();
        let mut s = Scratch::default();
        let ci = CubeInfo::money();
        let how = PlayValue::CubefulSearch;
        let filter = MoveFilter::default();
        for (pos, roll, plays) in with_a_choice(ev, 11, 12, 5) {
            // A filter that keeps every survivor changes nothing (but the value of a play the
            // 0-ply filter left alone, which is not searched past one ply).
            let wide = MoveFilter {
                keep: 8,
                margin: f32::INFINITY,
            };
            let full = best_of_valued(ev, &plays, 2, filter, &ci, how, &mut s);
            let same = best_of_valued_narrowed(ev, &plays, 2, filter, wide, &ci, how, &mut s);
            assert_eq!(full.0, same.0, "{pos:?} {roll:?}");
            let alone = play_value_keyed(ev, &plays[same.0], 1, &ci, how, &mut s).0;
            assert!(same.1 == full.1 || same.1 == alone, "{pos:?} {roll:?}");
            // Keeping one: the best play at one ply, with its value there (the second ply
            // could not change the choice, and is not searched).
            let one = MoveFilter {
                keep: 1,
                margin: 0.0,
            };
            let shallow = best_of_valued(ev, &plays, 1, filter, &ci, how, &mut s);
            let narrow = best_of_valued_narrowed(ev, &plays, 2, filter, one, &ci, how, &mut s);
            assert_eq!(narrow.0, shallow.0, "{pos:?} {roll:?}");
            assert_eq!(
                narrow.1,
                play_value_keyed(ev, &plays[narrow.0], 1, &ci, how, &mut s).0
            );
        }
    }

    /// The positions of [`self_play_positions`] with three legal plays or more (at least
    /// `at_least` of them), each with its roll and its plays.
    fn with_a_choice(
        ev: &Evaluator,
        seed: u64,
        n: usize,
        at_least: usize,
    ) -> Vec<(Position, Roll, Vec<Play>)> {
        let v: Vec<_> = self_play_positions(ev, seed, n)
            .into_iter()
            .map(|(pos, roll)| (pos, roll, pos.legal_plays(roll)))
            .filter(|(_, _, plays)| plays.len() >= 3)
            .collect();
        assert!(v.len() >= at_least, "{} positions with a choice", v.len());
        v
    }

    /// Level 6's search: each stage values the plays the stage before kept, one ply deeper,
    /// and a deadline that has passed leaves the first stage's choice.
    #[test]
    fn the_third_ply_searches_what_the_second_kept_and_keeps_to_a_deadline() {
        use crate::cube::CubeInfo;
        let ev = Evaluator::shipped();
        let mut s = Scratch::default();
        let ci = CubeInfo::money();
        let how = PlayValue::CubefulSearch;
        let narrows = [SECOND_FILTER, THIRD_FILTER];
        let mut three_ply = 0;
        for (pos, roll, plays) in with_a_choice(ev, 12, 8, 2) {
            let (i, v, depth) = best_of_deepening(
                ev,
                &plays,
                3,
                FIRST_FILTER,
                &narrows,
                &ci,
                how,
                None,
                &mut s,
            );
            assert!((1..=3).contains(&depth), "{depth}");
            three_ply += usize::from(depth == 3);
            // Without the third filter: level 5's search.
            let two = best_of_deepening(
                ev,
                &plays,
                2,
                FIRST_FILTER,
                &narrows[..1],
                &ci,
                how,
                None,
                &mut s,
            );
            assert_eq!(
                (two.0, two.1),
                best_of_valued_narrowed(
                    ev,
                    &plays,
                    2,
                    FIRST_FILTER,
                    SECOND_FILTER,
                    &ci,
                    how,
                    &mut s
                )
            );
            // With a third filter that keeps one play, the third ply is not searched: the
            // two-ply choice and value.
            let one = MoveFilter {
                keep: 1,
                margin: 0.0,
            };
            let (j, w, at) = best_of_deepening(
                ev,
                &plays,
                3,
                FIRST_FILTER,
                &[SECOND_FILTER, one],
                &ci,
                how,
                None,
                &mut s,
            );
            assert_eq!((j, w, at), two, "{pos:?} {roll:?}");
            // The third ply chose between what the third filter kept (where it kept two).
            if depth == 3 {
                let w3 = play_value_keyed(ev, &plays[j], 3, &ci, how, &mut s).0;
                assert!(v >= w3, "{v} {w3} ({i} against {j})");
            } else {
                assert_eq!(i, j);
            }
            // A deadline already passed: the first stage's (one ply) best.
            let past = std::time::Instant::now();
            let (k, u, depth) = best_of_deepening(
                ev,
                &plays,
                3,
                FIRST_FILTER,
                &narrows,
                &ci,
                how,
                Some(past),
                &mut s,
            );
            assert_eq!(depth, 1);
            assert_eq!(
                (k, u),
                best_of_valued(ev, &plays, 1, FIRST_FILTER, &ci, how, &mut s)
            );
        }
        assert!(three_ply >= 1, "no position was searched to three plies");
    }

    #[test]
    fn a_gammon_that_ends_the_game_counts_as_the_cube_and_the_jacoby_rule_say() {
        use crate::cube::{CubeInfo, Owner};
        let ev = Evaluator::shipped();
        let mut s = Scratch::default();
        let mut me = [0u8; 25];
        me[0] = 1;
        let mut them = [0u8; 25];
        them[5] = 15;
        let pos = Position::from_sides(&me, &them).unwrap();
        let plays = pos.legal_plays(Roll::new(1, 1).unwrap());
        let jacoby = CubeInfo {
            jacoby: true,
            ..CubeInfo::money()
        };
        let owned = CubeInfo {
            value: 2,
            owner: Owner::Me,
            ..jacoby
        };
        let value = |ci: &CubeInfo, how, s: &mut Scratch| play_value(ev, &plays[0], 0, ci, how, s);
        assert_eq!(value(&jacoby, PlayValue::Cubeful, &mut s), 1.0);
        assert_eq!(value(&CubeInfo::money(), PlayValue::Cubeful, &mut s), 2.0);
        assert_eq!(value(&owned, PlayValue::CubefulSearch, &mut s), 2.0);
        assert_eq!(value(&jacoby, PlayValue::Cubeless, &mut s), 2.0);
    }
}
