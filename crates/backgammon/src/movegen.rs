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
    /// A roll of `a` and `b`, or `None` unless both are from 1 to 6. The order the dice are
    /// given in does not matter: a roll is kept higher die first, as gnubg writes it.
    #[must_use]
    pub fn new(a: u8, b: u8) -> Option<Roll> {
        ((1..=6).contains(&a) && (1..=6).contains(&b)).then_some(Roll(a.max(b), a.min(b)))
    }

    /// The larger die first: `(high, low)`.
    #[must_use]
    pub fn high_low(self) -> (u8, u8) {
        (self.0, self.1)
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
    /// Linear key of the change the play makes (for de-duplication while generating).
    #[serde(skip)]
    key: u64,
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
            key: 0,
        }
    }
}

impl Position {
    /// Where one checker on `from` (25 = the bar) ends with `die`, if that single move is legal
    /// now: `Some(to)` with `to` 0 for bearing off.
    ///
    /// `highest` is the mover's highest occupied point (25 with a checker on the bar), passed in
    /// because the generator knows it already.
    /// The caller knows that `from` holds a checker of the mover.
    #[inline]
    fn hop_target(&self, from: usize, die: usize, highest: usize) -> Option<usize> {
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

    /// Bit `p` set for each point (25 = the bar) holding a checker of the mover.
    #[inline]
    fn mover_mask(&self) -> u32 {
        let mut m = 0u32;
        for p in 1..=25 {
            if self.points[p] > 0 {
                m |= 1 << p;
            }
        }
        m
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
            best: 0,
            best_uses_high: false,
            table: [0; SLOTS],
        };
        let (hi, lo) = roll.high_low();
        let mut play = Play::none(self);
        let mask = self.mover_mask();
        if hi == lo {
            gen.doubles(self, mask, usize::from(hi), 25, 0, 0, &mut play);
        } else {
            let firsts = gen.two_dice(self, mask, [usize::from(hi), usize::from(lo)], 0, &mut play);
            gen.two_dice(
                self,
                mask,
                [usize::from(lo), usize::from(hi)],
                firsts,
                &mut play,
            );
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

/// Random odd multipliers of a linear position key: the key of a position is the sum of
/// `count × KEY[index]`, so a hop changes it by a few terms whatever the order of the hops.
const KEY: [u64; 26] = {
    let mut k = [0u64; 26];
    let mut x: u64 = 0x2545_f491_4f6c_dd1d;
    let mut i = 0;
    while i < 26 {
        // splitmix64
        x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = x;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        k[i] = (z ^ (z >> 31)) | 1;
        i += 1;
    }
    k
};

/// How a hop changes the linear key of the position.
#[inline]
fn key_delta(from: usize, to: usize, hit: bool) -> u64 {
    let mut d = KEY[from].wrapping_neg();
    if to != 0 {
        d = d.wrapping_add(KEY[to]);
        if hit {
            // The blot (-1) became one of ours (+1), and the opponent's bar (negative) grew.
            d = d.wrapping_add(KEY[to]).wrapping_sub(KEY[OPP_BAR]);
        }
    }
    d
}

/// The points of `mask` from which `die` can be played now.
#[inline]
fn legal_from(pos: &Position, mask: u32, die: usize, highest: usize) -> u32 {
    let mut legal = 0;
    let mut m = mask;
    while m != 0 {
        let from = 31 - m.leading_zeros() as usize;
        m &= !(1 << from);
        if pos.hop_target(from, die, highest).is_some() {
            legal |= 1 << from;
        }
    }
    legal
}

/// The mover's checker mask after a hop.
#[inline]
fn mask_after(mask: u32, pos: &Position, from: usize, to: usize) -> u32 {
    let mut m = mask;
    if pos.points[from] == 0 {
        m &= !(1 << from);
    }
    if to != 0 {
        m |= 1 << to;
    }
    m
}

/// Slots of the generator's table of plays found (an open-addressing set over the keys).
const SLOTS: usize = 256;

struct Gen<'a> {
    out: &'a mut Vec<Play>,
    best: u8,
    best_uses_high: bool,
    /// Index + 1 into `out` of the play with a key in that slot; 0 for an empty slot.
    table: [u16; SLOTS],
}

impl Gen<'_> {
    /// Records a finished play (no further die playable), keeping only the longest plays and,
    /// when `dedup`, only the first play reaching a position.
    #[inline]
    fn leaf(&mut self, play: &Play, used_high: bool, dedup: bool) {
        if play.len < self.best {
            return;
        }
        if play.len > self.best {
            self.best = play.len;
            self.best_uses_high = false;
            if dedup && !self.out.is_empty() {
                self.table = [0; SLOTS];
            }
            self.out.clear();
        }
        if dedup {
            if self.out.len() >= SLOTS / 2 {
                // A crowded table: fall back to a scan (never met in random play).
                if self
                    .out
                    .iter()
                    .any(|p| p.key == play.key && p.result == play.result)
                {
                    return;
                }
            } else {
                let mut slot = (play.key >> 56) as usize % SLOTS;
                loop {
                    match self.table[slot] {
                        0 => {
                            self.table[slot] = self.out.len() as u16 + 1;
                            break;
                        }
                        i => {
                            let p = &self.out[usize::from(i) - 1];
                            if p.key == play.key && p.result == play.result {
                                return;
                            }
                        }
                    }
                    slot = (slot + 1) % SLOTS;
                }
            }
        }
        self.best_uses_high |= used_high;
        self.out.push(*play);
    }

    /// Doubles: up to four hops of `die`, with start points never increasing. That enumerates
    /// each multiset of hops exactly once, and every legal order can be rearranged that way (a
    /// hop only ever enables hops from lower points); different multisets give different
    /// positions, so no de-duplication is needed.
    #[allow(clippy::too_many_arguments)]
    fn doubles(
        &mut self,
        pos: &Position,
        mask: u32,
        die: usize,
        max_from: usize,
        depth: u8,
        key: u64,
        play: &mut Play,
    ) {
        let mut moved = false;
        // An empty mask: the last checker is off, nothing more to play.
        if depth < 4 && mask != 0 {
            let highest = 31 - mask.leading_zeros() as usize;
            let mut m = mask & ((2u32 << max_from) - 1);
            while m != 0 {
                let from = 31 - m.leading_zeros() as usize;
                m &= !(1 << from);
                if let Some(to) = pos.hop_target(from, die, highest) {
                    let mut next = *pos;
                    let hit = next.apply_hop(from, to);
                    play.hops[usize::from(depth)] = Hop {
                        from: from as u8,
                        to: to as u8,
                        hit,
                        die: die as u8,
                    };
                    let mask2 = mask_after(mask, &next, from, to);
                    let key2 = key.wrapping_add(key_delta(from, to, hit));
                    self.doubles(&next, mask2, die, from, depth + 1, key2, play);
                    moved = true;
                }
            }
        }
        if !moved {
            play.len = depth;
            play.result = *pos;
            play.key = key;
            self.leaf(play, false, false);
        }
    }

    /// Non-doubles in one order: `dice[0]` then `dice[1]`. Returns the mask of points from which
    /// `dice[0]` could be played first. `skip` is that mask from the other order: a pair of hops
    /// by two different checkers that could also be played in the other order was found there.
    fn two_dice(
        &mut self,
        pos: &Position,
        mask: u32,
        dice: [usize; 2],
        skip: u32,
        play: &mut Play,
    ) -> u32 {
        let highest = 31usize.saturating_sub(mask.leading_zeros() as usize);
        let mut firsts = 0u32;
        // Where the second die can be played from before the first hop; a hop changes that only
        // at its two points, unless it changes the bar or bear-off conditions.
        let seconds = legal_from(pos, mask, dice[1], highest);
        let mut m = mask;
        while m != 0 {
            let from = 31 - m.leading_zeros() as usize;
            m &= !(1 << from);
            let Some(to) = pos.hop_target(from, dice[0], highest) else {
                continue;
            };
            firsts |= 1 << from;
            let mut mid = *pos;
            let hit = mid.apply_hop(from, to);
            play.hops[0] = Hop {
                from: from as u8,
                to: to as u8,
                hit,
                die: dice[0] as u8,
            };
            let key1 = key_delta(from, to, hit);
            let mask2 = mask_after(mask, &mid, from, to);
            // Saturating: an empty mask (the last checker just went off) has no highest point.
            let highest2 = 31usize.saturating_sub(mask2.leading_zeros() as usize);
            let legal2 = if from == BAR || highest2 != highest || highest2 <= 6 {
                legal_from(&mid, mask2, dice[1], highest2)
            } else {
                let mut l = seconds & mask2;
                if to != 0 && mid.hop_target(to, dice[1], highest2).is_some() {
                    l |= 1 << to;
                }
                l
            };
            let second_moved = legal2 != 0;
            let mut m2 = legal2;
            while m2 != 0 {
                let from2 = 31 - m2.leading_zeros() as usize;
                m2 &= !(1 << from2);
                if skip & (1 << from2) != 0 && from2 != to {
                    continue;
                }
                let to2 = from2.saturating_sub(dice[1]);
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
                play.key = key1.wrapping_add(key_delta(from2, to2, hit2));
                self.leaf(play, true, true);
            }
            if !second_moved {
                play.len = 1;
                play.result = mid;
                play.key = key1;
                self.leaf(play, dice[0] > dice[1], true);
            }
        }
        if firsts == 0 {
            play.len = 0;
            play.result = *pos;
            play.key = 0;
            self.leaf(play, false, true);
        }
        firsts
    }
}
