//! Plays of a roll (RULES.md §3): tout à bas, tout d'une, par puissance, bearing off, and the
//! obligations in their order.
//!
//! # Play notation
//! Absolute flèche numbers (RULES.md §0), `off` for the band:
//! * tout à bas: the single moves in the order played, joined by `,` — `1-7,1-6`, `20-off,22-off`;
//!   one move alone when only one number can be played (`8-12`);
//! * tout d'une: one dame with its rest — `8-12-16` (from 8, resting on 12, to 16);
//! * par puissance: `7-12,8-12 puissance` (two dames taking the coin with numbers one larger,
//!   n°44);
//! * `pass` when no number can be played.

use crate::board::{to_abs, to_rel, Board, Table, OFF, OWN_COIN, THEIR_COIN};
use serde::{Deserialize, Serialize};
use tablier_core::Side;

/// A roll of two dice, larger number first (n°17).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Roll {
    /// The larger (or equal) number.
    pub high: u8,
    /// The smaller (or equal) number.
    pub low: u8,
}

/// Text that is not a roll `a-b` with numbers 1..=6.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot read roll {0:?}: expected two numbers 1-6 like 6-5")]
pub struct RollError(pub String);

impl Roll {
    /// The roll of `a` and `b` in any order.
    ///
    /// # Panics
    /// If a number is not in 1..=6.
    #[must_use]
    pub fn new(a: u8, b: u8) -> Roll {
        assert!((1..=6).contains(&a) && (1..=6).contains(&b), "dice are 1-6");
        Roll {
            high: a.max(b),
            low: a.min(b),
        }
    }

    /// Whether both numbers are equal (n°17).
    #[must_use]
    pub fn is_doublet(self) -> bool {
        self.high == self.low
    }

    /// The 21 distinct rolls, doublets included, larger number first.
    #[must_use]
    pub fn all() -> Vec<Roll> {
        let mut v = Vec::with_capacity(21);
        for h in (1..=6).rev() {
            for l in (1..=h).rev() {
                v.push(Roll::new(h, l));
            }
        }
        v
    }

    /// How many of the 36 ordered throws give this roll (1 for a doublet, 2 otherwise).
    #[must_use]
    pub fn chances(self) -> u32 {
        if self.is_doublet() {
            1
        } else {
            2
        }
    }

    /// The points an event worth "4/6" (or "2/4" with `base = 2`) is worth with this roll:
    /// `base` for a simple roll, `base + 2` for a doublet (n°152–154).
    #[must_use]
    pub fn value(self, base: u32) -> u32 {
        if self.is_doublet() {
            base + 2
        } else {
            base
        }
    }

    /// The numbers of the roll: `{a, b, a+b}` for a simple roll, `{d, 2d}` for a doublet
    /// (a doublet is two moves of d, never four, n°30).
    #[must_use]
    pub fn numbers(self) -> Vec<u8> {
        if self.is_doublet() {
            vec![self.high, 2 * self.high]
        } else {
            vec![self.high, self.low, self.high + self.low]
        }
    }

    /// Parses `6-5` (either order; `65` and `6 5` too).
    ///
    /// # Errors
    /// [`RollError`] when the text is not two numbers 1..=6.
    pub fn parse(text: &str) -> Result<Roll, RollError> {
        let digits: Vec<u8> = text
            .chars()
            .filter(|c| !matches!(c, '-' | ' ' | ','))
            .map(|c| c.to_digit(10).map(|d| d as u8))
            .collect::<Option<_>>()
            .ok_or_else(|| RollError(text.into()))?;
        match digits[..] {
            [a, b] if (1..=6).contains(&a) && (1..=6).contains(&b) => Ok(Roll::new(a, b)),
            _ => Err(RollError(text.into())),
        }
    }
}

impl std::fmt::Display for Roll {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}-{}", self.high, self.low)
    }
}

/// One dame moved by one number, in absolute flèches (`to` = 25 for White's band, 0 for
/// Black's).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Step {
    /// Where the dame starts.
    pub from: u8,
    /// Where it ends (25 or 0: borne off).
    pub to: u8,
    /// The number (die) used.
    pub die: u8,
}

/// How a roll is played.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Play {
    /// No number can be played (*jan qui ne peut*).
    Pass,
    /// Tout à bas: one or two single moves, in the order played (n°29).
    Moves(Vec<Step>),
    /// Tout d'une: one dame advanced by the sum with a rest (n°29–31).
    ToutDUne {
        /// Start flèche.
        from: u8,
        /// The rest (repos) — reached by `first`.
        rest: u8,
        /// End flèche (25/0 = borne off).
        to: u8,
        /// The number played first (to the rest).
        first: u8,
        /// The other number.
        second: u8,
    },
    /// Par puissance: two dames that the numbers would bring onto the opponent's empty coin
    /// go onto the player's own coin instead (n°44).
    Puissance {
        /// The two start flèches (absolute), in increasing order.
        from: [u8; 2],
        /// The player's coin (absolute 12 or 13).
        coin: u8,
    },
}

impl Play {
    /// How many numbers of the roll the play uses (0, 1 or 2).
    #[must_use]
    pub fn dice_used(&self) -> u8 {
        match self {
            Play::Pass => 0,
            Play::Moves(s) => s.len() as u8,
            Play::ToutDUne { .. } | Play::Puissance { .. } => 2,
        }
    }

    /// The same play whatever the order of two independent single moves: `24-18,24-19` and
    /// `24-19,24-18` have one key.
    #[must_use]
    pub fn key(&self) -> String {
        match self {
            Play::Moves(s) if s.len() == 2 && s[1].from != s[0].to => {
                let mut v = [(s[0].from, s[0].to), (s[1].from, s[1].to)];
                v.sort_unstable();
                format!("{}-{},{}-{}", v[0].0, v[0].1, v[1].0, v[1].1)
            }
            _ => self.notation(),
        }
    }

    /// [`Play::key`] without building a string (equal exactly when the keys are): the
    /// legal plays are told apart by it millions of times in a search.
    fn cheap_key(&self) -> (u8, [u8; 6]) {
        // As the notation writes them: 0 and 25 alike ("off", here 255). The key of two
        // independent moves writes the numbers as they are.
        let n = |x: u8| if x == 0 || x == 25 { 255 } else { x };
        match self {
            Play::Pass => (0, [0; 6]),
            Play::Moves(s) if s.len() == 2 && s[1].from != s[0].to => {
                let mut v = [(s[0].from, s[0].to), (s[1].from, s[1].to)];
                v.sort_unstable();
                (1, [v[0].0, v[0].1, v[1].0, v[1].1, 0, 0])
            }
            Play::Moves(s) if s.len() == 2 => (
                1,
                [n(s[0].from), n(s[0].to), n(s[1].from), n(s[1].to), 0, 0],
            ),
            Play::Moves(s) => {
                let mut k = [0; 6];
                for (i, st) in s.iter().take(3).enumerate() {
                    k[2 * i] = n(st.from);
                    k[2 * i + 1] = n(st.to);
                }
                (2 + s.len() as u8, k)
            }
            Play::ToutDUne { from, rest, to, .. } => (100, [n(*from), n(*rest), n(*to), 0, 0, 0]),
            Play::Puissance { from, coin } => (101, [from[0], from[1], *coin, 0, 0, 0]),
        }
    }

    /// The play in the notation of this module.
    #[must_use]
    pub fn notation(&self) -> String {
        fn sq(x: u8) -> String {
            if x == 0 || x == 25 {
                "off".into()
            } else {
                x.to_string()
            }
        }
        match self {
            Play::Pass => "pass".into(),
            Play::Moves(steps) => steps
                .iter()
                .map(|s| format!("{}-{}", sq(s.from), sq(s.to)))
                .collect::<Vec<_>>()
                .join(","),
            Play::ToutDUne { from, rest, to, .. } => {
                format!("{}-{}-{}", sq(*from), sq(*rest), sq(*to))
            }
            Play::Puissance { from, coin } => {
                format!("{}-{coin},{}-{coin} puissance", from[0], from[1])
            }
        }
    }

    /// Applies the play to `board` for `side`, without any check.
    ///
    /// Contract: the play was produced for this board, side and roll by [`PlaySet::new`].
    pub fn apply_unchecked(&self, board: &mut Board, side: Side) {
        let mut mv = |from: u8, to: u8| {
            let n = board.count(side, from);
            board.set(from, side, n - 1);
            if to != 0 && to != 25 {
                let m = board.count(side, to);
                board.set(to, side, m + 1);
            }
        };
        match self {
            Play::Pass => {}
            Play::Moves(steps) => {
                for s in steps {
                    mv(s.from, s.to);
                }
            }
            Play::ToutDUne { from, to, .. } => mv(*from, *to),
            Play::Puissance { from, coin } => {
                mv(from[0], *coin);
                mv(from[1], *coin);
            }
        }
    }
}

impl std::fmt::Display for Play {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.notation())
    }
}

/// The mover's view of the board during generation (relative numbering).
#[derive(Clone)]
struct Rel {
    mine: [u8; 26],
    theirs: [u8; 26],
    /// The opponent can still fill his second table (relative 13..=18).
    fill_second: bool,
    /// The opponent can still fill his first table (relative 19..=24).
    fill_first: bool,
}

impl Rel {
    fn land_ok(&self, to: u8) -> bool {
        (1..=24).contains(&to)
            && self.theirs[usize::from(to)] == 0
            && to != THEIR_COIN
            && !((13..=18).contains(&to) && self.fill_second)
            && !((19..=24).contains(&to) && self.fill_first)
    }

    fn rest_ok(&self, r: u8) -> bool {
        (1..=24).contains(&r) && self.theirs[usize::from(r)] == 0
    }

    fn all_home(&self) -> bool {
        (1..=18u8).all(|r| self.mine[usize::from(r)] == 0)
    }

    fn farthest(&self) -> Option<u8> {
        (1..=24).find(|&r| self.mine[usize::from(r)] > 0)
    }

    fn inside_possible(&self, die: u8) -> bool {
        (1..=24u8).any(|s| self.mine[usize::from(s)] > 0 && s + die <= 24 && self.land_ok(s + die))
    }

    /// Where a single move of `die` from `from` may go (25 = borne off), RULES.md §3.2–3.3.
    fn single(&self, from: u8, die: u8) -> Option<u8> {
        if self.mine[usize::from(from)] == 0 {
            return None;
        }
        let to = from + die;
        if to <= 24 {
            return self.land_ok(to).then_some(to);
        }
        if !self.all_home() {
            return None;
        }
        if to == OFF {
            return Some(OFF);
        }
        // Excédant: only when the number cannot be played inside at all, and then from the
        // dame farthest from the band (Guiton ch. VII, RULES.md A4).
        (!self.inside_possible(die) && self.farthest() == Some(from)).then_some(OFF)
    }

    fn mv(&mut self, from: u8, to: u8) {
        self.mine[usize::from(from)] -= 1;
        if to != OFF {
            self.mine[usize::from(to)] += 1;
        }
    }

    fn coin_ok(&self) -> bool {
        self.mine[usize::from(OWN_COIN)] != 1
    }
}

/// A candidate play with what scoring needs to know about it.
#[derive(Clone, Debug)]
pub struct Candidate {
    /// The play (absolute flèches).
    pub play: Play,
    /// The board after it.
    pub end: Board,
    /// Where dames arrived, by which number, and from where (relative flèches: arrival,
    /// number, origin): used to count the *ways* of a fill (n°56). A dame moved twice
    /// arrives by the sum from its first flèche.
    pub arrivals: Vec<(u8, u8, u8)>,
}

/// All plays of a roll, before and after the fill/conserve obligations.
#[derive(Clone, Debug)]
pub struct PlaySet {
    /// The player whose dames move.
    pub side: Side,
    /// The dice the plays use.
    pub roll: Roll,
    /// The board before the roll.
    pub start: Board,
    /// Plays obeying obligations 1–2 (play both numbers if possible, else the larger).
    pub candidates: Vec<Candidate>,
    /// How many numbers can be played (0, 1, 2).
    pub max_dice: u8,
    /// The table some candidate fills (a plein made this roll), if any.
    pub fills: Option<Table>,
    /// The plein held at the start that some candidate keeps, if any.
    pub conserves: Option<Table>,
    /// Whether some candidate bears off the mover's last dame.
    pub bears_off_last: bool,
    /// The legal plays: candidates that obey obligations 3–4 too (must fill, must conserve);
    /// two independent single moves are listed in one order only. Bearing off is a right,
    /// not a duty: a play that keeps a dame on the board is legal beside one that bears off
    /// the last (see the crate docs, "Bearing off"; [`crate::scoring::JanContext`] keeps
    /// the first edition's duty for the games recorded under it).
    pub legal: Vec<Candidate>,
}

impl PlaySet {
    /// Generates every play of `roll` for `side` on `board`.
    #[must_use]
    pub fn new(board: &Board, side: Side, roll: Roll) -> PlaySet {
        let (mine, theirs) = board.relative(side);
        let rel = Rel {
            fill_second: Board::opponent_can_fill(&theirs, 16),
            fill_first: Board::opponent_can_fill(&theirs, 20),
            mine,
            theirs,
        };
        let abs = |r: u8| to_abs(side, r);
        let orders: Vec<(u8, u8)> = if roll.is_doublet() {
            vec![(roll.high, roll.high)]
        } else {
            vec![(roll.high, roll.low), (roll.low, roll.high)]
        };
        let mut two: Vec<Candidate> = Vec::new();
        let mut one: Vec<(Candidate, u8)> = Vec::new();
        let finish = |r: &Rel| Board::from_relative(side, &r.mine, &r.theirs);
        let coin_empty = rel.mine[usize::from(OWN_COIN)] == 0;
        let mut direct_coin = false;

        // Tout à bas: two single moves in order (possibly the same dame twice).
        for &(d1, d2) in &orders {
            for f1 in 1..=24u8 {
                let Some(t1) = rel.single(f1, d1) else {
                    continue;
                };
                let mut r1 = rel.clone();
                r1.mv(f1, t1);
                if r1.coin_ok() {
                    one.push((
                        Candidate {
                            play: Play::Moves(vec![Step {
                                from: abs(f1),
                                to: abs(t1),
                                die: d1,
                            }]),
                            end: finish(&r1),
                            arrivals: vec![(t1, d1, f1)],
                        },
                        d1,
                    ));
                }
                for f2 in 1..=24u8 {
                    let Some(t2) = r1.single(f2, d2) else {
                        continue;
                    };
                    let mut r2 = r1.clone();
                    r2.mv(f2, t2);
                    if !r2.coin_ok() {
                        continue;
                    }
                    if coin_empty && r2.mine[usize::from(OWN_COIN)] >= 2 {
                        direct_coin = true;
                    }
                    let arrivals = if f2 == t1 {
                        vec![(t2, d1 + d2, f1)]
                    } else {
                        vec![(t1, d1, f1), (t2, d2, f2)]
                    };
                    two.push(Candidate {
                        play: Play::Moves(vec![
                            Step {
                                from: abs(f1),
                                to: abs(t1),
                                die: d1,
                            },
                            Step {
                                from: abs(f2),
                                to: abs(t2),
                                die: d2,
                            },
                        ]),
                        end: finish(&r2),
                        arrivals,
                    });
                }
            }
        }

        // Tout d'une: one dame by the sum, the rest only needs to be free of the opponent's
        // dames (RULES.md §3.2 rule 7).
        for &(d1, d2) in &orders {
            for from in 1..=24u8 {
                if rel.mine[usize::from(from)] == 0 {
                    continue;
                }
                let rest = from + d1;
                if !rel.rest_ok(rest) {
                    continue;
                }
                let to = rest + d2;
                let mut r = rel.clone();
                let ok = if to <= 24 {
                    rel.land_ok(to)
                } else if to == OFF {
                    // Two numbers added into a sortant (Guiton ch. VII): everything else home
                    // and the rest in the jan de retour.
                    r.mine[usize::from(from)] -= 1;
                    let home = r.all_home();
                    r.mine[usize::from(from)] += 1;
                    home && rest >= 19
                } else {
                    false
                };
                if !ok {
                    continue;
                }
                r.mv(from, to);
                if !r.coin_ok() {
                    continue;
                }
                two.push(Candidate {
                    play: Play::ToutDUne {
                        from: abs(from),
                        rest: abs(rest),
                        to: abs(to),
                        first: d1,
                        second: d2,
                    },
                    end: finish(&r),
                    arrivals: vec![(to, d1 + d2, from)],
                });
            }
        }

        // Par puissance (n°44): both coins empty, never when the coin can be taken directly.
        if coin_empty && rel.theirs[usize::from(THEIR_COIN)] == 0 && !direct_coin {
            let (a, b) = (roll.high, roll.low);
            let (x, y) = (THEIR_COIN - a, THEIR_COIN - b);
            let ok = if a == b {
                rel.mine[usize::from(x)] >= 2
            } else {
                rel.mine[usize::from(x)] >= 1 && rel.mine[usize::from(y)] >= 1
            };
            if ok {
                let mut r = rel.clone();
                r.mv(x, OWN_COIN);
                r.mv(y, OWN_COIN);
                let mut from = [abs(x), abs(y)];
                from.sort_unstable();
                two.push(Candidate {
                    play: Play::Puissance {
                        from,
                        coin: abs(OWN_COIN),
                    },
                    end: finish(&r),
                    arrivals: vec![(OWN_COIN, a, x), (OWN_COIN, b, y)],
                });
            }
        }

        // Obligations 1–2: the whole roll if possible, else the larger number.
        let (candidates, max_dice) = if !two.is_empty() {
            (two, 2)
        } else if !one.is_empty() {
            let larger: Vec<Candidate> = one
                .iter()
                .filter(|(_, d)| *d == roll.high)
                .map(|(c, _)| c.clone())
                .collect();
            if larger.is_empty() {
                (one.into_iter().map(|(c, _)| c).collect(), 1)
            } else {
                (larger, 1)
            }
        } else {
            (
                vec![Candidate {
                    play: Play::Pass,
                    end: *board,
                    arrivals: vec![],
                }],
                0,
            )
        };

        let start_plein = board.plein(side);
        let fills = Table::ALL.into_iter().find(|&t| {
            Some(t) != start_plein && candidates.iter().any(|c| c.end.has_plein(side, t))
        });
        let conserves =
            start_plein.filter(|&t| candidates.iter().any(|c| c.end.has_plein(side, t)));
        let bears_off_last =
            board.on_board(side) > 0 && candidates.iter().any(|c| c.end.on_board(side) == 0);

        let mut legal: Vec<Candidate> = candidates
            .iter()
            .filter(|c| {
                if let Some(t) = fills {
                    c.end.has_plein(side, t)
                } else if let Some(t) = conserves {
                    c.end.has_plein(side, t)
                } else {
                    true
                }
            })
            .cloned()
            .collect();
        let mut seen: Vec<(u8, [u8; 6])> = Vec::with_capacity(legal.len());
        legal.retain(|c| {
            let k = c.play.cheap_key();
            let new = !seen.contains(&k);
            if new {
                seen.push(k);
            }
            new
        });

        PlaySet {
            side,
            roll,
            start: *board,
            candidates,
            max_dice,
            fills,
            conserves,
            bears_off_last,
            legal,
        }
    }

    /// The legal plays.
    #[must_use]
    pub fn plays(&self) -> Vec<Play> {
        self.legal.iter().map(|c| c.play.clone()).collect()
    }

    /// Finds the legal play written `text` (notation of this module; two independent single
    /// moves may be written in either order).
    ///
    /// # Errors
    /// A message naming the legal plays when none matches.
    pub fn find(&self, text: &str) -> Result<&Candidate, String> {
        let norm = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
        let want = norm(text).replace(", ", ",");
        if let Some(c) = self.legal.iter().find(|c| c.play.notation() == want) {
            return Ok(c);
        }
        if let Some(c) = self
            .candidates
            .iter()
            .find(|c| c.play.notation() == want)
            .and_then(|w| self.legal.iter().find(|c| c.play.key() == w.play.key()))
        {
            return Ok(c);
        }
        let bare: Vec<&Candidate> = self
            .legal
            .iter()
            .filter(|c| c.play.notation().trim_end_matches(" puissance") == want)
            .collect();
        if bare.len() == 1 {
            return Ok(bare[0]);
        }
        let list: Vec<String> = self.legal.iter().map(|c| c.play.notation()).collect();
        Err(format!("not a legal play; legal: {}", list.join(" | ")))
    }

    /// The numbers of the roll by which some candidate play brings a *surplus* dame (one
    /// from outside the table, or a third dame of one of its flèches) onto relative flèche
    /// `rel` while ending with a plein in `table`: the *ways* of a fill (n°56, n°398).
    #[must_use]
    pub fn fill_numbers(&self, table: Table, rel: u8) -> Vec<u8> {
        let (mine, _) = self.start.relative(self.side);
        // The two dames holding the coin leave it only together: they never count as the
        // surplus that fills the jan de retour (n°104, RULES.md A8).
        let surplus = |r: u8| {
            if r == OWN_COIN && table == Table::JanDeRetour {
                return mine[usize::from(r)] >= 3;
            }
            !table.range().contains(&r) || mine[usize::from(r)] >= 3
        };
        let mut nums: Vec<u8> = Vec::new();
        for c in &self.candidates {
            if !c.end.has_plein(self.side, table) {
                continue;
            }
            for &(to, n, from) in &c.arrivals {
                if to == rel && surplus(from) && !nums.contains(&n) {
                    nums.push(n);
                }
            }
        }
        nums.sort_unstable();
        nums
    }
}

/// The relative flèche of an absolute one for `side` (re-exported helper for scoring).
#[must_use]
pub fn rel_of(side: Side, abs: u8) -> u8 {
    to_rel(side, abs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// The key without strings tells plays apart exactly as the notation's key does, on
    /// every pair of plays (before the obligations) of random positions reached by random
    /// legal plays from the start, bearing off included.
    #[test]
    fn the_cheap_key_agrees_with_the_key() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let (mut pairs, mut offs) = (0u64, 0u64);
        for _ in 0..40 {
            let mut board = Board::start();
            let mut side = Side::White;
            for _ in 0..400 {
                let roll = Roll::new(rng.gen_range(1..=6), rng.gen_range(1..=6));
                let set = PlaySet::new(&board, side, roll);
                for a in &set.candidates {
                    for b in &set.candidates {
                        let same = a.play.key() == b.play.key();
                        assert_eq!(
                            same,
                            a.play.cheap_key() == b.play.cheap_key(),
                            "{a:?} {b:?}"
                        );
                        pairs += 1;
                    }
                    if matches!(&a.play, Play::Moves(m) if m.iter().any(|s| s.to == 0 || s.to == 25))
                    {
                        offs += 1;
                    }
                }
                let c = &set.legal[rng.gen_range(0..set.legal.len())];
                board = c.end;
                if board.on_board(side) == 0 {
                    break;
                }
                side = side.opposite();
            }
        }
        assert!(
            pairs > 100_000 && offs > 100,
            "{pairs} pairs, {offs} plays bearing off"
        );
    }
}
