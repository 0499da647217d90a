//! Near the end of a partie in 12 holes, the value of keeping a tenue measured by playing it
//! out (n°387).
//!
//! The chance model ([`crate::partie`]) values a board by the hole margin it promises: it
//! sees how many holes a tenue should bring on average, not how they are spread. Near the
//! end that spread decides. At 2 holes against 11, a tenue that may lose four holes loses the
//! partie no more surely than one that loses one, while one that may win three holes in a row
//! is the only road to the partie: "on doit hasarder une tenue qui présente des dangers, si
//! elle offre en même temps un certain nombre de chances qui peuvent faire espérer le gain de
//! la partie" (n°387). At 11 holes, the reverse: a tenue's extra holes are worth little and a
//! run of the opponent's is the danger.
//!
//! So when a throw wins a hole and either player then has [`TenuePlayouts::from_holes`] holes
//! or more, the levels value staying by playing the tenue out: the best play is made, then
//! both players play on with the levels' own 1-ply search (valuing properly the best few
//! plays of each throw) until somebody goes (the board is set up anew), the partie ends or
//! the horizon is reached, up to `samples` times with seeded dice, the opponent's first throw
//! running through the 36 throws in turn; each end is valued by the chance model (exact where
//! the partie is over; at a new relevé the board is the start, which the model knows well).
//! Going is valued by the same model at once. Their difference replaces the search's own
//! (and the staying correction of [`crate::rester`]).
//!
//! The tests (tests/book_decisions.rs) hold two positions of self-play where the score turns
//! the decision as n°387 says, each confirmed by playing the partie out to its end both
//! ways; `examples/tenue_gain.rs` measures what the play-outs change in self-play.
//!
//! # Example
//! ```
//! use tablier_core::Side;
//! use tablier_trictrac::{Board, Marker, Roll};
//! use tablier_trictrac_engine::tenue::TenuePlayouts;
//! use tablier_trictrac_engine::{Search, State, Weights};
//!
//! let board: Board = "4W1-5W1-6W1-7W2-8W2-9W2-10W2-11W2-12W2-13B2-14B2-15B2-16B2-17B2-18B2-20B1-21B1-24B1"
//!     .parse()
//!     .unwrap();
//! let mut marker = Marker::with_points((10, false), (0, false));
//! marker.holes = [2, 11];
//! let mut s = State::from_position(board, marker, Side::White);
//! let (score, holes) = s.begin_roll(Roll::new(2, 1));
//! assert_eq!(holes, 1);
//! let search = Search::for_partie(Weights::shipped(), 1);
//! let tenue = TenuePlayouts { samples: 8, ..TenuePlayouts::LEVELS };
//! let (stay, go) = tenue.values(&search, &s, &score).unwrap();
//! // Values in 2·chance − 1 for White.
//! assert!((-1.0..=1.0).contains(&stay) && (-1.0..=1.0).contains(&go));
//! ```

use tablier_core::Side;
use tablier_trictrac::{Roll, RollScore};

use crate::partie::{PartieModel, Score};
use crate::search::{Objective, Search, SearchPlayer};
use crate::sim::{finish_play, turn, Policy, State};
use crate::train::partie_dice;

/// How many standard errors of the play-outs' mean make the difference between staying and
/// going clear enough to stop.
const CLEAR: f64 = 2.5;

/// The longest tenue played out, in throws (a safety net: tenues end far sooner).
const MAX_TENUE_THROWS: u32 = 400;

/// How the levels play tenues out near the end of the partie.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TenuePlayouts {
    /// Play-outs of the tenue for one decision.
    pub samples: u32,
    /// From how many holes (of either player, the hole just won counted) the tenue is
    /// played out.
    pub from_holes: u32,
    /// The longest play-out, in throws: a tenue still going on then is valued by the model
    /// where it stands.
    pub horizon: u32,
    /// How many plays of each throw in the play-outs are valued properly, the best by the
    /// quick estimate (0: all of them).
    pub replies: usize,
    /// Mixed with the position into the seed of the play-outs' dice, so that the same
    /// decision gets the same answer.
    pub seed: u64,
}

impl TenuePlayouts {
    /// The levels' setting: from 10 holes, up to 72 play-outs of at most 12 throws (each of
    /// the opponent's 36 first throws twice), stopped after 36 when the difference is
    /// clear; in the play-outs the best 8 plays of each throw are valued properly.
    pub const LEVELS: TenuePlayouts = TenuePlayouts {
        samples: 72,
        from_holes: 10,
        horizon: 12,
        replies: 8,
        seed: 387,
    };

    /// Whether a decision after a hole won on `t` (the gains marked) is played out.
    #[must_use]
    pub fn applies(&self, t: &State) -> bool {
        !t.over && t.marker.holes.iter().any(|&h| h >= self.from_holes)
    }

    /// The values of staying (the best play by `search` at 1 ply, then the tenue played
    /// out) and of going (the model at the new relevé), in `2·chance − 1` for the roller of
    /// `t`, whose throw's gains from `score` are marked on `t` and won a hole. `None` when the
    /// partie is over or the throw bears off the last dames (a sortie is searched as it is).
    #[must_use]
    pub fn values(&self, search: &Search, t: &State, score: &RollScore) -> Option<(f64, f64)> {
        if t.over || score.plays.bears_off_last || score.plays.legal.is_empty() {
            return None;
        }
        let me = t.roller;
        let player = Search {
            objective: Objective::Partie,
            plies: 1,
            tenue: None,
            ..search.clone()
        };
        let mut g = *t;
        g.go();
        let go = 2.0 * chance_for(me, &g, &player) - 1.0;
        let best = SearchPlayer::new(player.clone(), 0.0, 0)
            .choose_play(t, score)
            .min(score.plays.legal.len() - 1);
        let p = Pruned(Search {
            replies: self.replies,
            ..player.clone()
        });
        let end = score.plays.legal[best].end;
        let key = self.seed ^ position_key(t, score.roll);
        let one = |k: u32| {
            let mut q = p.clone();
            let mut r = p.clone();
            let mut s = *t;
            let mut pending = finish_play(&mut s, score, &end, &mut q);
            let mut dice = partie_dice(key, u64::from(k));
            // The opponent's first throw runs through the 36 throws in turn (stratified),
            // so that the next throw's danger is counted exactly every 36 play-outs.
            let first = k % 36;
            let mut first = Some(Roll::new((first / 6 + 1) as u8, (first % 6 + 1) as u8));
            let mut throws = 0;
            while !s.over && throws < self.horizon.min(MAX_TENUE_THROWS) {
                if pending.is_none() && s.releve.rolls == Some([0, 0]) {
                    break; // somebody went: a new relevé.
                }
                let roll = pending.take().or_else(|| first.take()).unwrap_or_else(|| {
                    let (x, y) = tablier_core::Dice::roll_pair(&mut dice);
                    Roll::new(x, y)
                });
                pending = turn(&mut s, roll, &mut q, &mut r);
                throws += 1;
            }
            chance_for(me, &s, &player)
        };
        // Stratum after stratum of 36 play-outs, until the difference from going is clear
        // (beyond 2.5 standard errors) or `samples` are played.
        let samples = self.samples.max(1);
        let (mut sum, mut squares, mut n) = (0.0, 0.0, 0u32);
        while n < samples {
            for k in n..(n + 36).min(samples) {
                let v = 2.0 * one(k) - 1.0;
                sum += v;
                squares += v * v;
            }
            n = (n + 36).min(samples);
            let mean = sum / f64::from(n);
            let se = ((squares / f64::from(n) - mean * mean).max(0.0) / f64::from(n)).sqrt();
            if (mean - go).abs() > CLEAR * se {
                break;
            }
        }
        let stay = sum / f64::from(n);
        Some((stay, go))
    }
}

/// The play-outs' player: the levels' 1-ply search, valuing properly only the best few plays
/// of each throw by the quick estimate ([`Search::replies`], as the answers inside a 2-ply
/// search); `replies` 0 values them all.
#[derive(Clone)]
struct Pruned(Search);

impl Policy for Pruned {
    fn choose_play(&mut self, state: &State, score: &RollScore) -> usize {
        self.0.analyse_at(state, score, 0, 0, true).best_play()
    }

    fn go(&mut self, state: &State, score: &RollScore) -> bool {
        self.0.analyse_at(state, score, 1, 0, true).goes()
    }

    fn go_after_sortie(&mut self, state: &State, score: &RollScore) -> bool {
        self.0.analyse_sortie(state, score).goes()
    }
}

/// The chance of `me` winning the partie from `s`: the result where it is over, the model
/// otherwise.
fn chance_for(me: Side, s: &State, search: &Search) -> f64 {
    let model = PartieModel::shipped();
    let score = Score::of(&s.marker, s.roller);
    let p = if s.over {
        model.table.chance(&score)
    } else {
        model.chance(&score, search.weights.roller_value(s))
    };
    if s.roller == me {
        p
    } else {
        1.0 - p
    }
}

/// A number that tells positions and rolls apart (FNV-1a over their text).
fn position_key(t: &State, roll: Roll) -> u64 {
    let text = format!("{} {:?} {} {:?}", t.board, t.marker, roll, t.roller);
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}
