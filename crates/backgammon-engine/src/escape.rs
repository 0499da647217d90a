//! Backgammons in races, counted exactly where the nets guess.
//!
//! In a race (no contact) a side that has borne nothing off loses a backgammon when the other
//! side bears off its last checker while one of his checkers is still in that side's home
//! board. Once the winner has all his checkers home, both halves of that race are known: how
//! many rolls he needs to finish (the one-sided bear-off database) and how many the loser
//! needs to bring his last few checkers out of the winner's home board, which this module
//! solves exactly for up to six such checkers (any die at least as large as a checker's
//! distance to the edge of that board takes it out; each roll played to get out soonest on
//! average). The race net, trained on few such positions, can be badly wrong there: after
//! 6-2 played 9/3 6/4 with three checkers left on the opponent's 4, 5 and 6 points and his
//! last four checkers on his 1 and 2 points, it gave 4% backgammons where there are 88%
//! (GNU Backgammon agrees with the count below).

use std::sync::OnceLock;

use tablier_backgammon::{Position, Roll};

use crate::bearoff::{self, MAX_ROLLS};
use crate::eval::Probs;

/// Most checkers counted in the zone.
pub const ESCAPE_CHECKERS: u8 = 6;

/// For each zone of at most [`ESCAPE_CHECKERS`] checkers (`zone[d - 1]` checkers at distance
/// `d` from the edge, 1 to 6), the distribution of the rolls needed to bring them all out.
pub struct Escape {
    dist: Vec<[f32; MAX_ROLLS]>,
}

impl Escape {
    /// The table, built once per process on first use (924 zones, a few milliseconds).
    pub fn global() -> &'static Escape {
        static TABLE: OnceLock<Escape> = OnceLock::new();
        TABLE.get_or_init(Escape::generate)
    }

    /// Solves every zone, in order of total distance: every roll leads to zones already
    /// solved, of which it takes the one with the fewest rolls expected.
    #[must_use]
    pub fn generate() -> Escape {
        let mut zones = bearoff::positions_up_to(ESCAPE_CHECKERS);
        let total = |z: &[u8; 6]| -> u32 {
            z.iter()
                .enumerate()
                .map(|(i, &n)| u32::from(n) * (i as u32 + 1))
                .sum()
        };
        zones.sort_by_key(total);
        let n = zones.len();
        // Zone to index by its counts read as base-7 digits (a table: the index is looked up
        // for every play of every roll).
        let mut slot = vec![u16::MAX; 7usize.pow(6)];
        for z in &zones {
            slot[code(z)] = index(z) as u16;
        }
        let mut dist = vec![[0.0f32; MAX_ROLLS]; n];
        let mut mean = vec![0.0f32; n];
        let mut solved = vec![false; n];
        for z in &zones {
            let i = index(z);
            if z.iter().all(|&c| c == 0) {
                dist[i][0] = 1.0;
                solved[i] = true;
                continue;
            }
            let mut d = [0.0f32; MAX_ROLLS];
            let mut m = 1.0f32;
            for (roll, ways) in Roll::all() {
                let w = ways as f32 / 36.0;
                let (high, low) = roll.high_low();
                let orders: Vec<Vec<u8>> = if roll.is_double() {
                    vec![vec![high; 4]]
                } else {
                    vec![vec![high, low], vec![low, high]]
                };
                let mut best: Option<usize> = None;
                for dice in &orders {
                    successors(*z, dice, &mut |next| {
                        let j = usize::from(slot[code(&next)]);
                        debug_assert!(solved[j], "a move lowers the total distance");
                        if best.is_none_or(|b| mean[j] < mean[b]) {
                            best = Some(j);
                        }
                    });
                }
                let j = best.expect("a zone with checkers has a move");
                m += w * mean[j];
                for k in 1..MAX_ROLLS {
                    d[k] += w * dist[j][k - 1];
                }
            }
            dist[i] = d;
            mean[i] = m;
            solved[i] = true;
        }
        Escape { dist }
    }

    /// The distribution of the rolls needed to bring the zone's checkers out (entry `k`:
    /// exactly `k` rolls), or None for more than [`ESCAPE_CHECKERS`] checkers.
    #[must_use]
    pub fn distribution(&self, zone: &[u8; 6]) -> Option<&[f32; MAX_ROLLS]> {
        if zone.iter().map(|&c| u32::from(c)).sum::<u32>() > u32::from(ESCAPE_CHECKERS) {
            return None;
        }
        Some(&self.dist[index(zone)])
    }
}

/// The zone's index among those of at most [`ESCAPE_CHECKERS`] checkers.
fn index(zone: &[u8; 6]) -> usize {
    bearoff::small_index(zone).expect("at most six checkers")
}

/// The zone's counts as base-7 digits.
fn code(zone: &[u8; 6]) -> usize {
    zone.iter()
        .rev()
        .fold(0, |acc, &c| acc * 7 + usize::from(c))
}

/// Calls `visit` with each zone `z` can become by playing `dice` in this order (every die
/// played while a checker is left; a die at least as large as a checker's distance takes it
/// out).
fn successors(z: [u8; 6], dice: &[u8], visit: &mut impl FnMut([u8; 6])) {
    let Some((&die, rest)) = dice.split_first() else {
        visit(z);
        return;
    };
    if z.iter().all(|&c| c == 0) {
        visit(z);
        return;
    }
    for d in 1..=6usize {
        if z[d - 1] == 0 {
            continue;
        }
        let mut next = z;
        next[d - 1] -= 1;
        if d > usize::from(die) {
            next[d - 1 - usize::from(die)] += 1;
        }
        successors(next, rest, visit);
    }
}

/// The checkers of the side whose checkers these are (`side[i]` on its point `i + 1`) in its
/// opponent's home board (its points 19 to 24), by distance from that board's edge.
fn zone_of(side: &[u8; 25]) -> [u8; 6] {
    let mut z = [0u8; 6];
    for (d, c) in z.iter_mut().enumerate() {
        *c = side[18 + d];
    }
    z
}

/// Corrects the gammon and backgammon chances of a race evaluation `p` (for the side on roll
/// in `pos`) where they can be counted: one side has borne nothing off and the other has every
/// checker home. The gammon is certain where the loser cannot bear a checker off before the
/// winner has surely finished ([`fewest_rolls_to_first_off`] against the winner's most rolls);
/// the backgammon chance is counted where the loser has at most six checkers left in the
/// winner's home board, and the gammon chance raised to it where the net put it lower.
pub fn correct_race(pos: &Position, p: &mut Probs) {
    let (me, them) = pos.to_sides();
    let home = |side: &[u8; 25]| side[6..].iter().all(|&c| c == 0);
    if pos.opponent_off() == 0 && home(&me) {
        // We may gammon him: we finish at our k-th roll, he has had k - 1.
        let ours = bearoff::Bearoff::global().distribution(&bearoff::one_side(pos));
        if fewest_rolls_to_first_off(&them) >= most_rolls(ours) {
            *p = [1.0, 1.0, p[2], 0.0, 0.0];
        }
        let zone = zone_of(&them);
        if zone == [0; 6] {
            p[2] = 0.0;
        } else if let Some(esc) = Escape::global().distribution(&zone) {
            p[2] = chance_before(ours, esc, 1).min(p[0]);
            p[1] = p[1].max(p[2]);
        }
    }
    if pos.mover_off() == 0 && home(&them) {
        // He may gammon us: he finishes at his k-th roll, after our k-th.
        let theirs = bearoff::Bearoff::global().distribution(&bearoff::one_side(&pos.flip()));
        if fewest_rolls_to_first_off(&me) > most_rolls(theirs) {
            *p = [0.0, 0.0, 0.0, 1.0, p[4]];
        }
        let zone = zone_of(&me);
        if zone == [0; 6] {
            p[4] = 0.0;
        } else if let Some(esc) = Escape::global().distribution(&zone) {
            p[4] = chance_before(theirs, esc, 0).min(1.0 - p[0]);
            p[3] = p[3].max(p[4]);
        }
    }
}

/// The most rolls a bear-off can take: the last count of rolls with a chance above 0.
fn most_rolls(finish: &[f32; MAX_ROLLS]) -> usize {
    finish.iter().rposition(|&x| x > 0.0).unwrap_or(0)
}

/// The fewest rolls in which `side` (checkers by point from 1, the bar at 24) could bear off
/// its first checker: every checker outside its home board must come home (`p - 6` pips each at
/// least), and one must then go off (at least as many pips as the lowest point a checker of the
/// side stands on at home, six if none does), at most 24 pips a roll.
#[must_use]
pub fn fewest_rolls_to_first_off(side: &[u8; 25]) -> usize {
    let outside: u32 = (6..25).map(|i| u32::from(side[i]) * (i as u32 - 5)).sum();
    let lowest = (0..6).find(|&i| side[i] > 0).map_or(6, |i| i as u32 + 1);
    (outside + lowest).div_ceil(24) as usize
}

/// The chance that the side with `finish` (rolls to finish) finishes at its k-th roll while
/// the other, with `escape`, needs more than `k - lag` rolls to get out: `lag` 1 when the
/// finishing side rolls first, 0 when the other does.
fn chance_before(finish: &[f32; MAX_ROLLS], escape: &[f32; MAX_ROLLS], lag: usize) -> f32 {
    // tail[j] = P(escape needs more than j rolls).
    let mut tail = [0.0f32; MAX_ROLLS + 1];
    let mut left = 1.0f32;
    for j in 0..MAX_ROLLS {
        left -= escape[j];
        tail[j] = left.max(0.0);
    }
    let mut p = 0.0f32;
    for k in 1..MAX_ROLLS {
        p += finish[k] * tail[k - lag];
    }
    p.clamp(0.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_checker_leaves_as_the_dice_say() {
        let t = Escape::generate();
        // One checker a pip from the edge: out with any roll.
        let d = t.distribution(&[1, 0, 0, 0, 0, 0]).unwrap();
        assert!((d[1] - 1.0).abs() < 1e-6);
        // Six pips from the edge: out in one roll unless both dice are below 6 and sum below
        // 6: 1-1 (4 pips), 2-1, 3-1, 4-1, 3-2 (4 and 5) fail: 1 + 2 × 4 = 9 rolls of 36.
        let d = t.distribution(&[0, 0, 0, 0, 0, 1]).unwrap();
        assert!((d[1] - 27.0 / 36.0).abs() < 1e-6, "{:?}", &d[..3]);
        assert!((d[2] - 9.0 / 36.0).abs() < 1e-6);
        assert!(t.distribution(&[7, 0, 0, 0, 0, 0]).is_none());
        for z in bearoff::positions_up_to(ESCAPE_CHECKERS) {
            let s: f32 = t.distribution(&z).unwrap().iter().sum();
            assert!((s - 1.0).abs() < 1e-4, "{z:?}: {s}");
        }
    }

    /// Race positions where a backgammon is in the balance, with GNU Backgammon 1.07's
    /// 2-ply backgammon chance (win for the side on roll, or lose): the race net alone was
    /// off by 0.03 to 0.49 on these (0.135 on average over 300 such positions, drawn at
    /// random; 0.0001 with the count).
    #[test]
    fn a_gammon_that_cannot_be_saved_is_certain() {
        use crate::eval::{classify, Class, Evaluator, Scratch};
        // The winner, on roll, has three checkers on his ace point: he finishes in two rolls
        // at most (at once with a double). The loser has two checkers on the winner's 6-point
        // and nothing off: 26 pips to bring them home and one more to bear a checker off, two
        // rolls at least, and he has one before the winner's second. A gammon for sure, and a
        // backgammon when the winner throws a double now (1/6): equity 2 + 1/6, which gnubg
        // 2-ply gives too (the race net gave 1.33 before the count, and level 5 played into
        // it: a checker bench position, gnubg 3-ply judging, 0.17 lost).
        let mut winner = [0u8; 25];
        winner[0] = 3;
        let mut loser = [0u8; 25];
        loser[..5].copy_from_slice(&[3, 3, 3, 2, 2]);
        loser[18] = 2;
        let pos = Position::from_sides(&winner, &loser).unwrap();
        assert_eq!(classify(&pos), Class::Race);
        assert_eq!(fewest_rolls_to_first_off(&loser), 2);
        let p = Evaluator::shipped().probs(&pos, &mut Scratch::default());
        assert_eq!(&p[..2], &[1.0, 1.0]);
        assert_eq!(&p[3..], &[0.0, 0.0]);
        assert!((p[2] - 1.0 / 6.0).abs() < 1e-4, "{p:?}");
        // The loser on roll instead may bring both home with 6-6 and bear one off with his
        // second roll: nothing is certain, the count leaves the net's chances.
        let p = Evaluator::shipped().probs(&pos.flip(), &mut Scratch::default());
        assert!(p[3] < 1.0 && p[0] < 1e-3, "{p:?}");
        // One checker outside: 13 pips and one to bear off, a roll at least.
        let mut one = loser;
        one[18] = 1;
        one[0] += 1;
        assert_eq!(fewest_rolls_to_first_off(&one), 1);
    }

    #[test]
    fn backgammon_chances_agree_with_gnubg() {
        use crate::eval::{classify, Class, Evaluator, Scratch};
        let cases = [
            ("SmBJugPPBgAAAA", true, 0.1613),
            ("UpWI6AOtAwAAAA", true, 0.3167),
            ("WwAAQLI5QLgBAA", false, 0.2359),
            ("EgAASLFROBoAAA", false, 0.5502),
            ("pQVB9QJvBQAAAA", true, 0.2342),
            ("IgAAYEMrYQ4AAA", false, 0.4398),
            ("NcVEKgMpAAAAAA", true, 0.3537),
            ("C1VtIAp3AAAAAA", true, 0.1387),
            ("AQAAoNFYbEIAAA", false, 0.3611),
            ("FAAAiBFeAx0AAA", false, 0.4471),
            // The match position of the module's note, after 9/3 6/4: 88%.
            ("9JkLQAUXAAAAAA", true, 0.8804),
        ];
        let ev = Evaluator::shipped();
        let mut s = Scratch::default();
        for (id, win, gnubg) in cases {
            let pos = Position::from_position_id(id).unwrap();
            assert_eq!(classify(&pos), Class::Race, "{id}");
            let p = ev.probs(&pos, &mut s);
            let ours = if win { p[2] } else { p[4] };
            assert!(
                (ours - gnubg).abs() < 0.005,
                "{id}: {ours} against gnubg's {gnubg}"
            );
        }
    }
}
