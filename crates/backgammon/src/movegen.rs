//! Legal plays: every way to play a roll, de-duplicated by resulting position (seed 004,
//! "Game play", rules 1 to 4, "Hitting and entering", "Bearing it off").
//!
//! A *play* is the whole turn for one roll: up to four [`Hop`]s, one per die used. Plays that
//! lead to the same position are the same play; the one kept is the first found.

use serde::{Deserialize, Serialize};

use crate::position::{Position, BAR, OPP_BAR};

/// A roll of two dice, each from 1 to 6.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Roll(u8, u8);

impl Roll {
    /// A roll of `a` and `b`, or `None` unless both are from 1 to 6.
    #[must_use]
    pub fn new(a: u8, b: u8) -> Option<Roll> {
        ((1..=6).contains(&a) && (1..=6).contains(&b)).then_some(Roll(a, b))
    }

    /// The two dice, as thrown.
    #[must_use]
    pub fn dice(self) -> (u8, u8) {
        (self.0, self.1)
    }

    /// The larger die first: `(high, low)`.
    #[must_use]
    pub fn high_low(self) -> (u8, u8) {
        (self.0.max(self.1), self.0.min(self.1))
    }

    /// True for doubles, which are played four times.
    #[must_use]
    pub fn is_double(self) -> bool {
        self.0 == self.1
    }

    /// All 21 distinct rolls with their weights out of 36 (doubles 1, others 2).
    #[must_use]
    pub fn all() -> Vec<(Roll, u32)> {
        let mut v = Vec::with_capacity(21);
        for a in 1..=6u8 {
            for b in 1..=a {
                v.push((Roll(a, b), if a == b { 1 } else { 2 }));
            }
        }
        v
    }
}

impl std::fmt::Display for Roll {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}-{}", self.0, self.1)
    }
}

/// One checker moved by one die, in the mover's numbering: `from` 25 is the bar, `to` 0 is off.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Hop {
    /// Start point (25 = the bar).
    pub from: u8,
    /// End point (0 = borne off).
    pub to: u8,
    /// True when an opposing blot on `to` was hit.
    pub hit: bool,
    /// The die played (it can exceed `from - to` when bearing off from the highest point).
    pub die: u8,
}

/// A whole turn for one roll: the hops in the order played, and the resulting position (still
/// seen from the player who moved).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Play {
    hops: [Hop; 4],
    len: u8,
    /// The position after the play, from the mover's side (use [`Position::flip`] for the
    /// opponent's turn).
    pub result: Position,
}

impl Play {
    /// The hops, in the order played (empty when no die could be played).
    #[must_use]
    pub fn hops(&self) -> &[Hop] {
        &self.hops[..usize::from(self.len)]
    }

    /// The play that moves nothing (a roll none of whose numbers can be played).
    #[must_use]
    pub fn none(position: &Position) -> Play {
        Play {
            hops: [Hop::default(); 4],
            len: 0,
            result: *position,
        }
    }
}

impl Position {
    /// Where one checker on `from` (25 = the bar) ends with `die`, if that single move is legal
    /// now: `Some(to)` with `to` 0 for bearing off.
    ///
    /// `highest` is the mover's highest occupied point (25 with a checker on the bar), passed in
    /// because the generator knows it already.
    #[inline]
    fn hop_target(&self, from: usize, die: usize, highest: usize) -> Option<usize> {
        if self.points[from] <= 0 {
            return None;
        }
        // Checkers on the bar enter first; nothing else moves while one is there.
        if highest == BAR && from != BAR {
            return None;
        }
        if from > die {
            let to = from - die;
            // Moves land only on open points: not two or more opposing checkers.
            return (self.points[to] >= -1).then_some(to);
        }
        // Bearing off: all checkers home; exact number, or a higher number from the highest point.
        if highest <= 6 && (from == die || from == highest) {
            Some(0)
        } else {
            None
        }
    }

    /// Plays one hop that [`Position::hop_target`] allowed.
    #[inline]
    fn apply_hop(&mut self, from: usize, to: usize) -> bool {
        self.points[from] -= 1;
        if to == 0 {
            return false;
        }
        if self.points[to] == -1 {
            self.points[to] = 1;
            self.points[OPP_BAR] -= 1;
            true
        } else {
            self.points[to] += 1;
            false
        }
    }

    fn highest(&self) -> usize {
        (1..=25).rev().find(|&p| self.points[p] > 0).unwrap_or(0)
    }

    /// Every legal play of `roll`, de-duplicated by resulting position.
    ///
    /// When no number can be played the list holds the single empty play ([`Play::none`]): the
    /// player loses his turn.
    ///
    /// ```
    /// use tablier_backgammon::{Position, Roll};
    ///
    /// let plays = Position::start().legal_plays(Roll::new(3, 1).unwrap());
    /// assert_eq!(plays.len(), 16);
    /// ```
    #[must_use]
    pub fn legal_plays(&self, roll: Roll) -> Vec<Play> {
        let mut out = Vec::with_capacity(32);
        self.legal_plays_into(roll, &mut out);
        out
    }

    /// [`Position::legal_plays`] into a buffer the caller keeps (it is cleared first).
    pub fn legal_plays_into(&self, roll: Roll, out: &mut Vec<Play>) {
        out.clear();
        let mut gen = Gen {
            out,
            hashes: Vec::new(),
            best: 0,
            best_uses_high: false,
        };
        let (hi, lo) = roll.high_low();
        let mut play = Play::none(self);
        if hi == lo {
            gen.doubles(self, usize::from(hi), 25, 0, &mut play);
        } else {
            gen.two_dice(self, [usize::from(hi), usize::from(lo)], &mut play);
            gen.two_dice(self, [usize::from(lo), usize::from(hi)], &mut play);
            // Only one number can be played: the larger one when either could.
            if gen.best == 1 && gen.best_uses_high {
                gen.out.retain(|p| p.hops[0].die == hi);
            }
        }
        if out.is_empty() {
            out.push(Play::none(self));
        }
    }
}

struct Gen<'a> {
    out: &'a mut Vec<Play>,
    hashes: Vec<u64>,
    best: u8,
    best_uses_high: bool,
}

impl Gen<'_> {
    /// Records a finished play (no further die playable), keeping only the longest plays.
    fn leaf(&mut self, play: &Play, used_high: bool) {
        if play.len < self.best {
            return;
        }
        if play.len > self.best {
            self.best = play.len;
            self.best_uses_high = false;
            self.out.clear();
            self.hashes.clear();
        }
        let h = hash(&play.result);
        for (i, &x) in self.hashes.iter().enumerate() {
            if x == h && self.out[i].result == play.result {
                return;
            }
        }
        self.best_uses_high |= used_high;
        self.hashes.push(h);
        self.out.push(*play);
    }

    fn doubles(&mut self, pos: &Position, die: usize, max_from: usize, depth: u8, play: &mut Play) {
        let mut moved = false;
        if depth < 4 {
            let highest = pos.highest();
            // Non-increasing start points enumerate each multiset of hops exactly once, and
            // every legal order can be rearranged that way (a hop only enables lower ones).
            for from in (1..=max_from.min(highest)).rev() {
                if let Some(to) = pos.hop_target(from, die, highest) {
                    let mut next = *pos;
                    let hit = next.apply_hop(from, to);
                    play.hops[usize::from(depth)] = Hop {
                        from: from as u8,
                        to: to as u8,
                        hit,
                        die: die as u8,
                    };
                    play.len = depth + 1;
                    self.doubles(&next, die, from, depth + 1, play);
                    moved = true;
                }
            }
        }
        if !moved {
            play.len = depth;
            play.result = *pos;
            self.leaf(play, false);
        }
    }

    fn two_dice(&mut self, pos: &Position, dice: [usize; 2], play: &mut Play) {
        let highest = pos.highest();
        let mut first_moved = false;
        for from in (1..=highest).rev() {
            let Some(to) = pos.hop_target(from, dice[0], highest) else {
                continue;
            };
            first_moved = true;
            let mut mid = *pos;
            let hit = mid.apply_hop(from, to);
            play.hops[0] = Hop {
                from: from as u8,
                to: to as u8,
                hit,
                die: dice[0] as u8,
            };
            let highest2 = mid.highest();
            let mut second_moved = false;
            for from2 in (1..=highest2).rev() {
                let Some(to2) = mid.hop_target(from2, dice[1], highest2) else {
                    continue;
                };
                second_moved = true;
                let mut end = mid;
                let hit2 = end.apply_hop(from2, to2);
                play.hops[1] = Hop {
                    from: from2 as u8,
                    to: to2 as u8,
                    hit: hit2,
                    die: dice[1] as u8,
                };
                play.len = 2;
                play.result = end;
                self.leaf(play, true);
            }
            if !second_moved {
                play.len = 1;
                play.result = mid;
                self.leaf(play, dice[0] > dice[1]);
            }
        }
        if !first_moved {
            play.len = 0;
            play.result = *pos;
            self.leaf(play, false);
        }
    }
}

/// A cheap hash of a position's 26 counts, for de-duplication (equal hashes are confirmed by a
/// full comparison).
#[inline]
fn hash(p: &Position) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for chunk in p.points.chunks(8) {
        let mut w = 0u64;
        for (i, &b) in chunk.iter().enumerate() {
            w |= u64::from(b as u8) << (8 * i);
        }
        h = (h ^ w).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(29);
    }
    h
}
