//! The partie à écrire (n°220–237): a marqué ends only when a player goes while either
//! player has 6 holes or more (n°221), and it is worth jetons — `h + c − h'` to its winner,
//! doubled (his part) with the pavillon from 6 holes, quadrupled beyond 11 (n°222–224). So
//! going is a different choice there: with 6 holes or more it *ends* the marqué, banking its
//! value, where staying plays on for more holes (the grande bredouille, n°386) or for the
//! chance to catch up (n°388).
//!
//! [`MarqueTable`] is the expected value of the marqué in jetons for the player about to
//! throw, from every score (holes of both, points, bredouilles, who holds the pavillon),
//! solved by dynamic programming from the law of a throw measured in the engine's own
//! parties ([`crate::partie::ThrowLaw`]), each player going or staying as the table itself
//! says is best. [`EcrirePlayer`] decides by it whenever going would end the marqué, and
//! plays like the player it wraps otherwise. The board is not in the table: it is the
//! score's value with average throws (the book's n°385: "rester toutes les fois qu'il y a
//! plus à gagner qu'à perdre").
//!
//! # The postillons
//! A marqué is part of a partie of `2N` marqués, and every marqué a player loses beyond `N`
//! costs him a postillon, 28 jetons for the first and 8 for each further one (n°227). So
//! winning the marqué in play is worth more than its value: the postillons the rest of the
//! partie will cost each player change with it. [`postillon_stake`] is that difference in
//! the expected postillons (the later marqués taken as even), and the table counts half of
//! it to the winner and half against the loser of the marqué ([`MarqueContext`],
//! [`MarqueTable::shipped`]): with four marqués and one lost by each, winning the third is
//! worth 28 jetons of postillons more than losing it, and a player ahead on the marker goes
//! sooner to bank it. Not counted: the queue (n°229), a stake agreed to the final winner,
//! which would make the value of each end depend on the whole running settlement; the
//! rounding of jetons to fiches (n°230); the board (as for the marqué's own value).
//!
//! # How good it is
//! Single marqués with the same dice both seatings (`tablier trictrac duel --ecrire`, 1 ply):
//! against the engine before (the margin deciding, the search blind past 11 holes) +3.21 ±
//! 0.34 and +3.71 ± 0.42 jetons per marqué (seeds 2026, 2027); against the same search with
//! the margin deciding to go, the table wins about 55% of the marqués but −0.42 ± 0.20 jetons
//! per marqué over 2,480: it does not see the board. Over whole parties of 4 marqués
//! ([`play_partie`], `--marques 4`), settled with the postillons that marqués lost beyond
//! half cost (n°227), the table gains +4.01 ± 2.51 jetons per partie (300 parties, seed
//! 2026): more marqués won outweigh the jetons, though not yet significantly. Counting the
//! postillons at stake (`ecrire` against `ecrire-no-postillons`, 1,000 parties of 4 marqués,
//! seed 2026) changes about 0.3 decisions per partie (example `postillon_decisions`: 9 of
//! 138 over 30 parties, always a leader going where he stayed, each a close call by the
//! table, 0.2–2 jetons) and measures +0.04 ± 0.63 jetons per partie, 494 parties won to
//! 488: no difference the duel can see.
//!
//! ```
//! use tablier_core::Side;
//! use tablier_trictrac::marker::Pavillon;
//! use tablier_trictrac::Marker;
//! use tablier_trictrac_engine::ecrire::{end_value, MarqueTable};
//!
//! // White has 9 holes with the pavillon, Black none: going banks 2 × (9 + 2) = 22 jetons
//! // (n°386), and Black would pay them.
//! let m = Marker {
//!     holes: [9, 0],
//!     pavillon: Pavillon { holder: Some(Side::White), ..Pavillon::default() },
//!     ..Marker::new()
//! };
//! assert_eq!(end_value(&m, Side::White, 0), Some(22.0));
//! assert_eq!(end_value(&m, Side::Black, 0), Some(-22.0));
//! // The table: what playing on is worth to White about to throw, in jetons.
//! let on = MarqueTable::shipped(0, 0.0).value(&m, Side::White);
//! assert!(on > 0.0);
//! ```

use std::sync::{Arc, Mutex, OnceLock};

use tablier_core::{Dice, Side};
use tablier_trictrac::marker::{marque_value, postillon_price, settle, Settlement};
use tablier_trictrac::{Marker, Partie, Roll, RollScore, Trictrac};

use crate::partie::{PartieModel, ThrowLaw};
use crate::sim::{primaute, AfterPlay, Policy, State, MAX_THROWS};

/// How many tables [`MarqueTable::shipped`] keeps (about 11 MB each): enough for every
/// stake of a partie of 4 marqués after 0 to 2 refaits, and the tables without a stake.
pub const KEPT_TABLES: usize = 16;

/// Holes from which going ends the marqué (n°221).
pub const ENDING_HOLES: u32 = 6;

/// Holes counted by the table: a player with more is valued as with `CAP - 1`, so the
/// values of scores at `CAP - 1` holes are only approximate (the leader goes long before:
/// past 11 holes a hole more is worth at most 4 jetons to him, n°224).
pub const CAP: usize = 20;

/// Pavillon states seen from the roller (see [`pavillon_code`]).
const PAVILLONS: usize = 6;
const P: usize = 12;
const STATES: usize = CAP * CAP * P * P * 4 * PAVILLONS;

/// The pavillon of `m` seen from `roller`: 0 nobody has taken a hole, 1 the roller holds it
/// as first taker, 2 the roller holds it as second taker, 3 and 4 the same for the
/// opponent, 5 nobody can hold it any more (n°225).
#[must_use]
pub fn pavillon_code(m: &Marker, roller: Side) -> usize {
    let p = m.pavillon;
    match p.holder {
        _ if p.lost => 5,
        None => 0,
        Some(h) => {
            let base = if h == roller { 1 } else { 3 };
            base + usize::from(p.passed)
        }
    }
}

fn index(m: &Marker, roller: Side) -> usize {
    let (r, o) = (roller.index(), roller.opposite().index());
    let h = |x: u32| (x as usize).min(CAP - 1);
    let pt = |x: u32| (x as usize).min(P - 1);
    let b = usize::from(m.bredouille[r]) * 2 + usize::from(m.bredouille[o]);
    ((((h(m.holes[r]) * CAP + h(m.holes[o])) * P + pt(m.points[r])) * P + pt(m.points[o])) * 4 + b)
        * PAVILLONS
        + pavillon_code(m, roller)
}

/// The value for `roller` of ending the marqué now by going (n°221–226), in jetons with
/// `refaits` refaits before it; `None` when neither player has [`ENDING_HOLES`] holes (going
/// then only starts a new relevé). Equal holes make a refait (n°226), counted as even (0).
#[must_use]
pub fn end_value(m: &Marker, roller: Side, refaits: u32) -> Option<f64> {
    let (r, o) = (m.holes(roller), m.holes(roller.opposite()));
    if r.max(o) < ENDING_HOLES {
        return None;
    }
    let value = |winner: Side, hw: u32, hl: u32| {
        marque_value(hw, hl, m.pavillon.holder == Some(winner), refaits) as f64
    };
    Some(match r.cmp(&o) {
        std::cmp::Ordering::Greater => value(roller, r, o),
        std::cmp::Ordering::Less => -value(roller.opposite(), o, r),
        std::cmp::Ordering::Equal => 0.0,
    })
}

/// [`end_value`] with half the `stake` of the postillons ([`postillon_stake`]) counted to
/// the winner and against the loser (nothing for a refait).
fn ending(m: &Marker, roller: Side, refaits: u32, stake: f64) -> Option<f64> {
    let v = end_value(m, roller, refaits)?;
    let half = match m.holes(roller).cmp(&m.holes(roller.opposite())) {
        std::cmp::Ordering::Greater => stake / 2.0,
        std::cmp::Ordering::Less => -stake / 2.0,
        std::cmp::Ordering::Equal => 0.0,
    };
    Some(v + half)
}

/// What winning the marqué in play rather than losing it changes in the postillons of a
/// partie à écrire of `marques` marqués (n°227–228), `lost` the marqués White and Black
/// have lost before it: the expected postillons of the loser less the winner's (28 jetons
/// for the first marqué lost beyond half the partie, 8 for each further one), each later
/// marqué taken as even. The same for both players; 0 for a single marqué (`marques` 0) or
/// once the partie's marqués are all played.
///
/// ```
/// use tablier_trictrac_engine::ecrire::postillon_stake;
/// // Four marqués, one lost by each: the loser of the third is one loss from a postillon
/// // (28 jetons) and the winner is not.
/// assert_eq!(postillon_stake(4, [1, 1]), 28.0);
/// // Three lost by White: the fourth is his second postillon (8) or none more.
/// assert_eq!(postillon_stake(4, [3, 0]), 8.0);
/// assert_eq!(postillon_stake(0, [0, 0]), 0.0);
/// ```
#[must_use]
pub fn postillon_stake(marques: u32, lost: [u32; 2]) -> f64 {
    let (a, b) = (lost[0] as usize, lost[1] as usize);
    let n = marques as usize;
    if a + b >= n {
        return 0.0;
    }
    let half = marques / 2;
    // c[a][b]: White's expected gain in postillons once White has lost a and Black b.
    let mut c = vec![vec![0.0; n + 1]; n + 1];
    for total in (0..=n).rev() {
        for x in 0..=total {
            let y = total - x;
            c[x][y] = if total == n {
                let price = |l: usize| postillon_price((l as u32).saturating_sub(half)) as f64;
                price(y) - price(x)
            } else {
                (c[x + 1][y] + c[x][y + 1]) / 2.0
            };
        }
    }
    c[a][b + 1] - c[a + 1][b]
}

/// Where the marqué being played stands in its partie à écrire: what decides which table
/// its players go or stay by.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MarqueContext {
    /// Marqués in the partie (0: a single marqué, no postillons).
    pub marques: u32,
    /// Marqués lost so far by White and by Black.
    pub lost: [u32; 2],
    /// Refaits since the last marqué won (the consolation is `2 + 2·refaits`, n°226).
    pub refaits: u32,
}

impl MarqueContext {
    /// The context of the marqué `game` is playing; `None` in a partie in 12 holes.
    #[must_use]
    pub fn of(game: &Trictrac) -> Option<MarqueContext> {
        let Partie::AEcrire { marques } = game.options().partie else {
            return None;
        };
        let mut lost = [0, 0];
        for m in game.marques() {
            lost[m.winner.opposite().index()] += 1;
        }
        Some(MarqueContext {
            marques,
            lost,
            refaits: game.refaits(),
        })
    }

    /// What winning this marqué rather than losing it changes in the postillons
    /// ([`postillon_stake`]).
    #[must_use]
    pub fn stake(&self) -> f64 {
        postillon_stake(self.marques, self.lost)
    }

    /// The table its players go or stay by: the postillons counted
    /// ([`MarqueTable::shipped`]).
    #[must_use]
    pub fn table(&self) -> Arc<MarqueTable> {
        MarqueTable::shipped(self.refaits, self.stake())
    }
}

/// The expected value of the marqué in jetons for the player about to throw, from every
/// score (see the module's documentation).
#[derive(Clone, Debug, PartialEq)]
pub struct MarqueTable {
    /// Refaits before this marqué (the consolation is `2 + 2·refaits`, n°226).
    pub refaits: u32,
    /// What winning the marqué rather than losing it adds in postillons
    /// ([`postillon_stake`]): half of it counts to the winner's value, half against the
    /// loser's.
    pub stake: f64,
    value: Vec<f64>,
}

/// Where one throw leads, for the roller.
#[derive(Clone, Copy)]
enum To {
    /// The marqué ends with this value.
    End(f64),
    /// He throws again from this state (he went; the marqué goes on).
    Same(usize),
    /// The opponent throws from this state.
    Other(usize),
}

/// One throw's outcome: where staying leads, and where going leads when the throw made a
/// hole.
type Outcome = (f64, To, Option<To>);

impl MarqueTable {
    /// Solves the table for `law` with `refaits` refaits before the marqué and `stake` in
    /// postillons on it (a second or two in an optimised build). Holes never decrease, and between two holes a throw that
    /// marks anything adds points, so the scores are solved from the most holes and points
    /// down in one pass; the only loop, a throw that marks nothing for either player (the
    /// same score back to the other player, and again), is solved exactly for each score
    /// and its mirror. Each player goes or stays as the table says is best.
    #[must_use]
    pub fn build(law: &ThrowLaw, refaits: u32, stake: f64) -> MarqueTable {
        let throws = law.probabilities();
        let null: f64 = throws
            .iter()
            .filter(|t| t.0 == 0 && t.1 == 0)
            .map(|t| t.2)
            .sum();
        let mut value = vec![0.0; STATES];
        let mut pairs: Vec<(u32, u32)> = (0..CAP as u32)
            .flat_map(|a| (a..CAP as u32).map(move |b| (a, b)))
            .collect();
        pairs.sort_by_key(|&(a, b)| std::cmp::Reverse(a + b));
        for (a, b) in pairs {
            let all: Vec<Marker> = markers(a, b)
                .into_iter()
                .chain(if a == b { Vec::new() } else { markers(b, a) })
                .collect();
            for sum in (0..2 * P as u32 - 1).rev() {
                // The scores of this block with `sum` points in all, and their mirrors (the
                // same marker, the other player to throw): what each is worth apart from
                // the null throw, then the two solved together.
                let level: Vec<&Marker> = all
                    .iter()
                    .filter(|m| m.points[0] + m.points[1] == sum)
                    .collect();
                let rest: Vec<f64> = level
                    .iter()
                    .map(|m| {
                        outcomes(m, &throws, refaits, stake)
                            .iter()
                            .map(|&(p, stay, go)| {
                                let at = |to: To| match to {
                                    To::End(v) => v,
                                    To::Same(i) => value[i],
                                    To::Other(i) => -value[i],
                                };
                                p * go.map_or(at(stay), |g| at(g).max(at(stay)))
                            })
                            .sum()
                    })
                    .collect();
                let at: std::collections::HashMap<usize, f64> = level
                    .iter()
                    .zip(&rest)
                    .map(|(m, r)| (index(m, Side::White), *r))
                    .collect();
                for (m, r) in level.iter().zip(&rest) {
                    // V = R − null·V', V' = R' − null·V.
                    let mirror = index(m, Side::Black);
                    let r2 = at.get(&mirror).copied().unwrap_or(0.0);
                    value[index(m, Side::White)] = (r - null * r2) / (1.0 - null * null);
                }
            }
        }
        MarqueTable {
            refaits,
            stake,
            value,
        }
    }

    /// The table of the shipped law (that of [`PartieModel::shipped`]) for `refaits`
    /// refaits (more than 2 use the table of 2) and `stake` in postillons (to 1/64 jeton),
    /// solved on first use and kept while it is among the last [`KEPT_TABLES`] asked for.
    #[must_use]
    pub fn shipped(refaits: u32, stake: f64) -> Arc<MarqueTable> {
        type Cell = Arc<OnceLock<Arc<MarqueTable>>>;
        static KEPT: Mutex<Vec<((u32, i64), Cell)>> = Mutex::new(Vec::new());
        let r = refaits.min(2);
        let key = (r, (stake * 64.0).round() as i64);
        let cell = {
            let mut kept = KEPT
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            let cell = match kept.iter().position(|(k, _)| *k == key) {
                Some(i) => kept.remove(i).1,
                None => Cell::default(),
            };
            kept.push((key, cell.clone()));
            if kept.len() > KEPT_TABLES {
                kept.remove(0);
            }
            cell
        };
        // Solved outside the lock: other tables stay available meanwhile.
        cell.get_or_init(|| {
            let stake = key.1 as f64 / 64.0;
            Arc::new(MarqueTable::build(
                &PartieModel::shipped().table.law,
                r,
                stake,
            ))
        })
        .clone()
    }

    /// The expected value of the marqué in jetons for `roller`, about to throw with the
    /// score `m`.
    #[must_use]
    pub fn value(&self, m: &Marker, roller: Side) -> f64 {
        self.value[index(m, roller)]
    }

    /// The value for `roller` of ending the marqué by going now, as the table counts it:
    /// [`end_value`], and half the stake in postillons to the winner, half against the
    /// loser. `None` when going would not end the marqué.
    #[must_use]
    pub fn go_value(&self, m: &Marker, roller: Side) -> Option<f64> {
        ending(m, roller, self.refaits, self.stake)
    }

    /// After a hole by his own throw (his gains marked on `m`), whether `roller` goes, when
    /// going would end the marqué: going banks [`MarqueTable::go_value`]; staying gives the
    /// opponent the `given` points of the roll and leaves him to throw. `None` when going
    /// would not end the marqué.
    #[must_use]
    pub fn goes(&self, m: &Marker, roller: Side, given: u32) -> Option<bool> {
        let go = self.go_value(m, roller)?;
        Some(go > self.stay_value(m, roller, given))
    }

    /// The value for `roller` of staying after a hole: the opponent marks the `given`
    /// points, then throws.
    #[must_use]
    pub fn stay_value(&self, m: &Marker, roller: Side, given: u32) -> f64 {
        let mut after = *m;
        after.mark(roller.opposite(), given);
        -self.value(&after, roller.opposite())
    }
}

/// Every marker with these holes (White the roller): points, bredouilles and the pavillon
/// states the holes allow.
fn markers(hr: u32, ho: u32) -> Vec<Marker> {
    use tablier_trictrac::marker::Pavillon;
    // Nobody has taken a hole yet (also read for a marker set up by hand with holes and no
    // pavillon: the next hole taken gives it).
    let mut pavillons = vec![Pavillon::default()];
    for holder in [Side::White, Side::Black] {
        for passed in [false, true] {
            pavillons.push(Pavillon {
                holder: Some(holder),
                passed,
                lost: false,
            });
        }
    }
    pavillons.push(Pavillon {
        holder: None,
        passed: true,
        lost: true,
    });
    let mut out = Vec::new();
    for pavillon in pavillons {
        for pr in 0..P as u32 {
            for po in 0..P as u32 {
                for br in [false, true] {
                    for bo in [false, true] {
                        out.push(Marker {
                            points: [pr, po],
                            holes: [hr, ho],
                            bredouille: [br, bo],
                            pavillon,
                        });
                    }
                }
            }
        }
    }
    out
}

/// The outcomes of each throw of the law from `m` (White the roller), but the throw that
/// marks nothing.
fn outcomes(m: &Marker, throws: &[(u32, u32, f64)], refaits: u32, stake: f64) -> Vec<Outcome> {
    throws
        .iter()
        .filter(|t| t.2 > 0.0 && (t.0, t.1) != (0, 0))
        .map(|&(g, q, p)| {
            let mut after = *m;
            let holes = after.mark(Side::White, g);
            let mut stay = after;
            stay.mark(Side::Black, q);
            let stay_to = To::Other(index(&stay, Side::Black));
            let go_to = (holes > 0).then(|| match ending(&after, Side::White, refaits, stake) {
                Some(v) => To::End(v),
                None => {
                    let mut gone = after;
                    gone.erase_points();
                    To::Same(index(&gone, Side::White))
                }
            });
            (p, stay_to, go_to)
        })
        .collect()
}

/// The marker of a marqué as the search of the partie in 12 holes can read it: past 11
/// holes (a marqué goes on until a player goes), both players' holes lowered together so
/// that the leader has 11, the margin kept (the trailer at 0 at least). The table reads the
/// true marker; the search only compares plays and needs a partie that is not over.
#[must_use]
pub fn below_twelve(m: &Marker) -> Marker {
    let over = m.holes[0].max(m.holes[1]).saturating_sub(11);
    let mut out = *m;
    out.holes = m.holes.map(|h| h.saturating_sub(over));
    out
}

/// [`below_twelve`] on a state of the light game.
fn searchable(state: &State) -> State {
    let mut s = *state;
    s.marker = below_twelve(&state.marker);
    s.over = false;
    s
}

/// A player of the partie à écrire: `inner` chooses the plays, and the going or staying
/// that does not end the marqué, on the score as [`below_twelve`] shows it; whenever going
/// would end the marqué, the table decides, for the marqué [`Policy::begin_marque`] last
/// said.
pub struct EcrirePlayer<P: Policy> {
    /// The player wrapped.
    pub inner: P,
    /// The marqué being played (set by [`Policy::begin_marque`]).
    pub context: MarqueContext,
    /// Whether the table decides where going would end the marqué (`false`: `inner` does,
    /// which measures what the table adds).
    pub table: bool,
    /// Whether the table counts the postillons at stake (`false`: the marqué's own value
    /// only, which measures what they add).
    pub postillons: bool,
}

impl<P: Policy> EcrirePlayer<P> {
    /// `inner` with the table deciding, the postillons counted, in a single marqué until
    /// told otherwise.
    pub fn new(inner: P) -> EcrirePlayer<P> {
        EcrirePlayer {
            inner,
            context: MarqueContext::default(),
            table: true,
            postillons: true,
        }
    }

    fn table_goes(&self, state: &State, score: &RollScore) -> Option<bool> {
        if !self.table {
            return None;
        }
        let stake = if self.postillons {
            self.context.stake()
        } else {
            0.0
        };
        MarqueTable::shipped(self.context.refaits, stake).goes(
            &state.marker,
            state.roller,
            score.given(),
        )
    }
}

impl<P: Policy> Policy for EcrirePlayer<P> {
    fn begin_marque(&mut self, context: &MarqueContext) {
        self.context = *context;
        self.inner.begin_marque(context);
    }

    fn choose_play(&mut self, state: &State, score: &RollScore) -> usize {
        self.inner.choose_play(&searchable(state), score)
    }

    fn go(&mut self, state: &State, score: &RollScore) -> bool {
        match self.table_goes(state, score) {
            Some(go) => go,
            None => self.inner.go(&searchable(state), score),
        }
    }

    fn go_after_sortie(&mut self, state: &State, score: &RollScore) -> bool {
        match self.table_goes(state, score) {
            Some(go) => go,
            None => self.inner.go_after_sortie(&searchable(state), score),
        }
    }
}

/// How a marqué played by [`play_marque`] ended.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MarqueEnd {
    /// Its value in jetons for White (negative: Black won it; 0 for a refait).
    pub white: f64,
    /// The holes of White and Black when it ended.
    pub holes: [u32; 2],
    /// It ended in a refait (equal holes, n°226).
    pub refait: bool,
    /// Throws played.
    pub throws: u32,
    /// Who threw first in it.
    pub first: Side,
}

/// Plays one marqué of a partie à écrire from the start (no refait before it) with `white`
/// and `black` deciding, until a player goes with 6 holes or more on the marker (or
/// [`MAX_THROWS`], which ends it at 0). The light state's partie in 12 holes is not over at
/// 12 holes here: the marker counts on.
pub fn play_marque(
    white: &mut dyn Policy,
    black: &mut dyn Policy,
    dice: &mut impl Dice,
) -> MarqueEnd {
    play_marque_from(white, black, dice, None, &MarqueContext::default())
}

/// [`play_marque`] with `first` throwing first (`None`: the primauté is thrown, n°28), in
/// the partie `context` describes (both players are told it first; the marqué's value counts
/// its refaits).
fn play_marque_from(
    white: &mut dyn Policy,
    black: &mut dyn Policy,
    dice: &mut impl Dice,
    first: Option<Side>,
    context: &MarqueContext,
) -> MarqueEnd {
    white.begin_marque(context);
    black.begin_marque(context);
    let refaits = context.refaits;
    let (first, mut pending) = match first {
        None => {
            let (side, roll) = primaute(dice);
            (side, Some(roll))
        }
        Some(side) => (side, None),
    };
    let mut s = State::new(first);
    let mut throws = 0;
    let ended = |s: &State, throws: u32| {
        let white = end_value(&s.marker, tablier_core::Side::White, refaits);
        white.map(|v| MarqueEnd {
            white: v,
            holes: s.marker.holes,
            refait: s.marker.holes[0] == s.marker.holes[1],
            throws,
            first,
        })
    };
    while throws < MAX_THROWS {
        let roll = match pending.take() {
            Some(r) => r,
            None => {
                let (a, b) = dice.roll_pair();
                Roll::new(a, b)
            }
        };
        throws += 1;
        let (score, holes) = s.begin_roll(roll);
        s.over = false;
        let p: &mut dyn Policy = match s.roller {
            Side::White => white,
            Side::Black => black,
        };
        if holes > 0 && p.go(&s, &score) {
            if let Some(end) = ended(&s, throws) {
                return end;
            }
            s.go();
            continue;
        }
        let i = p.choose_play(&s, &score).min(score.plays.legal.len() - 1);
        let end = score.plays.legal[i].end;
        let after = s.play(&score, &end);
        s.over = false;
        if let AfterPlay::Sortie { holes } = after {
            if holes > 0 && p.go_after_sortie(&s, &score) {
                if let Some(end) = ended(&s, throws) {
                    return end;
                }
                s.go();
            } else {
                pending = Some(s.stay_after_sortie(&score));
                s.over = false;
            }
        }
    }
    MarqueEnd {
        white: 0.0,
        holes: s.marker.holes,
        refait: false,
        throws,
        first,
    }
}

/// A whole partie à écrire played by [`play_partie`].
#[derive(Clone, Debug, PartialEq)]
pub struct PartieEnd {
    /// The settlement (paper and pencil, no queue: n°227, n°233).
    pub settlement: Settlement,
    /// What White gains by it in jetons (negative: what he pays).
    pub white: f64,
    /// Refaits played.
    pub refaits: u32,
}

/// Plays a partie à écrire of `marques` marqués (an even number) with `white` and `black`
/// deciding: the primauté thrown for the first marqué, then the winner of each marqué
/// throws first in the next, a refait replayed with the same first player (n°221, n°226);
/// settled with its postillons (n°227–237). Before each marqué both players are told where
/// the partie stands ([`Policy::begin_marque`]). A marqué stopped by [`MAX_THROWS`] is replayed
/// like a refait, at most `4 × marques` marqués in all.
pub fn play_partie(
    white: &mut dyn Policy,
    black: &mut dyn Policy,
    dice: &mut impl Dice,
    marques: u32,
) -> PartieEnd {
    let mut lost: [Vec<i64>; 2] = [Vec::new(), Vec::new()];
    let mut first = None;
    let mut refaits = 0;
    let mut all_refaits = 0;
    for _ in 0..4 * marques {
        if (lost[0].len() + lost[1].len()) as u32 >= marques {
            break;
        }
        let context = MarqueContext {
            marques,
            lost: [lost[0].len() as u32, lost[1].len() as u32],
            refaits,
        };
        let end = play_marque_from(white, black, dice, first, &context);
        if end.white == 0.0 {
            refaits += 1;
            all_refaits += 1;
            // Replayed with the same primauté: the player who threw first.
            if first.is_none() {
                first = Some(end.first);
            }
            continue;
        }
        let (winner, value) = if end.white > 0.0 {
            (Side::White, end.white)
        } else {
            (Side::Black, -end.white)
        };
        lost[winner.opposite().index()].push(value as i64);
        first = Some(winner);
        refaits = 0;
    }
    let settlement = settle([&lost[0], &lost[1]], marques, 0, 0);
    let white = (settlement.owed[1] - settlement.owed[0]) as f64;
    PartieEnd {
        settlement,
        white,
        refaits: all_refaits,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn marker(holes: [u32; 2], holder: Option<Side>) -> Marker {
        let mut m = Marker::new();
        m.holes = holes;
        m.pavillon.holder = holder;
        m.pavillon.passed = holder.is_some() && holes[0] > 0 && holes[1] > 0;
        m
    }

    /// The values of n°222–224, for the roller and for his opponent.
    #[test]
    fn ending_values_follow_the_book() {
        // n°222: 9 against 8, no pavillon: 3.
        assert_eq!(end_value(&marker([9, 8], None), Side::White, 0), Some(3.0));
        assert_eq!(end_value(&marker([9, 8], None), Side::Black, 0), Some(-3.0));
        // n°224: 11 against 6 with the pavillon: 2 × 13 − 6 = 20.
        let m = marker([6, 11], Some(Side::Black));
        assert_eq!(end_value(&m, Side::White, 0), Some(-20.0));
        // Nobody at 6: going does not end the marqué.
        assert_eq!(end_value(&marker([5, 5], None), Side::White, 0), None);
        // Equal holes: a refait.
        assert_eq!(end_value(&marker([7, 7], None), Side::White, 0), Some(0.0));
    }

    /// A marqué played out ends when a player goes with 6 holes or more, worth what the book
    /// says to the player with more holes; the same player in both seats plays the same
    /// marqué twice, so a pair of seatings sums to 0.
    #[test]
    fn a_marque_ends_when_a_player_goes_with_six_holes() {
        use crate::{Search, SearchPlayer, Weights};
        let margin = || SearchPlayer::new(Search::new(Weights::shipped(), 1), 0.0, 1);
        for n in 0..2 {
            let mut a = margin();
            let mut b = EcrirePlayer::new(margin());
            let end = play_marque(&mut a, &mut b, &mut crate::train::partie_dice(7, n));
            assert!(end.throws < MAX_THROWS);
            let [w, k] = end.holes;
            assert!(w.max(k) >= ENDING_HOLES, "{end:?}");
            assert_eq!(end.refait, w == k);
            assert_eq!(end.white > 0.0, w > k, "{end:?}");
            assert!(end.white.abs() >= f64::from(w.abs_diff(k)), "{end:?}");
            let pair = crate::duel::play_marque_pair(&mut margin(), &mut margin(), 7, n);
            assert_eq!(pair.margins[0], -pair.margins[1]);
        }
    }

    /// A whole partie à écrire of two marqués: settled with what each player lost, White's
    /// gain the other's debt less his own; the same player in both seats plays the same
    /// partie twice.
    #[test]
    fn a_partie_a_ecrire_is_played_out_and_settled() {
        use crate::{Search, SearchPlayer, Weights};
        let margin = || SearchPlayer::new(Search::new(Weights::shipped(), 1), 0.0, 1);
        let mut a = EcrirePlayer::new(margin());
        let mut b = margin();
        let end = play_partie(&mut a, &mut b, &mut crate::train::partie_dice(5, 0), 2);
        let s = &end.settlement;
        assert_eq!(s.lost[0] + s.lost[1], 2);
        assert_eq!(end.white, (s.owed[1] - s.owed[0]) as f64);
        assert_eq!(
            s.postillons,
            [s.lost[0].saturating_sub(1), s.lost[1].saturating_sub(1)]
        );
        let pair = crate::duel::play_ecrire_pair(&mut margin(), &mut margin(), 5, 0, 2);
        assert_eq!(pair.margins[0], -pair.margins[1]);
    }

    /// Past 11 holes the search sees the leader at 11, the margin kept.
    #[test]
    fn a_marque_past_eleven_holes_is_searched_below_twelve() {
        let m = marker([14, 9], Some(Side::White));
        assert_eq!(below_twelve(&m).holes, [11, 6]);
        assert_eq!(below_twelve(&marker([3, 16], None)).holes, [0, 11]);
        assert_eq!(below_twelve(&marker([7, 9], None)).holes, [7, 9]);
        assert_eq!(below_twelve(&m).pavillon, m.pavillon);
    }

    /// The table solves its equations: the value of a state is the law's average of the
    /// best choice after each throw, with postillons at stake or none.
    #[test]
    fn the_table_solves_its_equations() {
        for stake in [0.0, 28.0] {
            table_solves_its_equations(stake);
        }
    }

    fn table_solves_its_equations(stake: f64) {
        let law = &PartieModel::shipped().table.law;
        let t = MarqueTable::shipped(0, stake);
        let throws = law.probabilities();
        let null: f64 = throws
            .iter()
            .filter(|t| (t.0, t.1) == (0, 0))
            .map(|t| t.2)
            .sum();
        assert!(null > 0.1, "{null}");
        for (holes, holder) in [
            ([0, 0], None),
            ([3, 1], Some(Side::White)),
            ([7, 4], Some(Side::Black)),
            ([10, 0], Some(Side::White)),
        ] {
            let m = marker(holes, holder);
            let expected: f64 = outcomes(&m, &throws, 0, stake)
                .iter()
                .map(|&(p, stay, go)| {
                    let at = |to: To| match to {
                        To::End(v) => v,
                        To::Same(i) => t.value[i],
                        To::Other(i) => -t.value[i],
                    };
                    p * go.map_or(at(stay), |g| at(g).max(at(stay)))
                })
                .sum::<f64>()
                - null * t.value(&m, Side::Black);
            assert!(
                (expected - t.value(&m, Side::White)).abs() < 1e-6,
                "{holes:?}: {expected} vs {}",
                t.value(&m, Side::White)
            );
        }
        // The start of a marqué is nearly even for the roller (he throws first).
        let start = t.value(&Marker::new(), Side::White);
        assert!((-3.0..6.0).contains(&start), "{start}");
    }

    /// n°227: the postillons at stake, worked by hand for four marqués (half is 2; a
    /// postillon costs 28, a second 8): from (White lost, Black lost), White's expected
    /// postillons with the later marqués even, and the difference winning makes.
    #[test]
    fn the_postillons_at_stake_follow_n227() {
        // At (2, 1) winning ends at (2, 2), nobody pays; losing at (3, 1), White pays 28.
        assert_eq!(postillon_stake(4, [2, 1]), 28.0);
        assert_eq!(postillon_stake(4, [1, 1]), 28.0);
        // At (2, 0): winning leads to (2, 1), worth −14 to White; losing to (3, 0), where
        // White pays 28 or 36: −32.
        assert_eq!(postillon_stake(4, [2, 0]), 18.0);
        assert_eq!(postillon_stake(4, [3, 0]), 8.0);
        // At the start: (0, 1) is worth +11.5 to White, (1, 0) −11.5.
        assert_eq!(postillon_stake(4, [0, 0]), 23.0);
        // Two marqués: losing both is a postillon.
        assert_eq!(postillon_stake(2, [0, 0]), 28.0);
        assert_eq!(postillon_stake(2, [1, 0]), 28.0);
        // The same for both players; nothing once the partie is played, or for one marqué.
        for a in 0..6 {
            for b in 0..6 - a {
                assert_eq!(postillon_stake(6, [a, b]), postillon_stake(6, [b, a]));
            }
        }
        assert_eq!(postillon_stake(4, [2, 2]), 0.0);
        assert_eq!(postillon_stake(0, [0, 0]), 0.0);
    }

    /// With postillons at stake, a lead is banked sooner and a deficit played on longer: at
    /// 10 holes against 6 with the pavillon the table stays for the grande bredouille
    /// (n°386) when only the marqué counts, and goes when a postillon rides on it; 7 against
    /// 10 with the opponent's pavillon it goes (concedes before the grande bredouille,
    /// n°388) alone and stays with a postillon at stake. Over every score, the stake never
    /// turns a leader's going into staying or a trailer's staying into going.
    #[test]
    fn the_postillons_at_stake_bank_a_lead() {
        let (alone, stake) = (MarqueTable::shipped(0, 0.0), MarqueTable::shipped(0, 28.0));
        let ahead = marker([10, 6], Some(Side::White));
        assert_eq!(alone.goes(&ahead, Side::White, 0), Some(false));
        assert_eq!(stake.goes(&ahead, Side::White, 0), Some(true));
        assert_eq!(stake.go_value(&ahead, Side::White), Some(18.0 + 14.0));
        let behind = marker([7, 10], Some(Side::Black));
        assert_eq!(alone.goes(&behind, Side::White, 0), Some(true));
        assert_eq!(stake.goes(&behind, Side::White, 0), Some(false));
        let mut flips = 0;
        for hw in 0..16 {
            for hb in 0..16 {
                for holder in [None, Some(Side::White), Some(Side::Black)] {
                    let m = marker([hw, hb], holder);
                    let (Some(a), Some(b)) = (
                        alone.goes(&m, Side::White, 0),
                        stake.goes(&m, Side::White, 0),
                    ) else {
                        continue;
                    };
                    match hw.cmp(&hb) {
                        std::cmp::Ordering::Greater => assert!(!a || b, "{hw} {hb} {holder:?}"),
                        std::cmp::Ordering::Less => assert!(a || !b, "{hw} {hb} {holder:?}"),
                        std::cmp::Ordering::Equal => {}
                    }
                    flips += usize::from(a != b);
                }
            }
        }
        assert!(flips >= 10, "{flips}");
    }

    /// A player that only records what it is told before each marqué.
    struct Told<P: Policy>(P, Vec<MarqueContext>);

    impl<P: Policy> Policy for Told<P> {
        fn choose_play(&mut self, state: &State, score: &RollScore) -> usize {
            self.0.choose_play(state, score)
        }
        fn go(&mut self, state: &State, score: &RollScore) -> bool {
            self.0.go(state, score)
        }
        fn go_after_sortie(&mut self, state: &State, score: &RollScore) -> bool {
            self.0.go_after_sortie(state, score)
        }
        fn begin_marque(&mut self, context: &MarqueContext) {
            self.1.push(*context);
            self.0.begin_marque(context);
        }
    }

    /// Before each marqué of a partie à écrire both players learn the marqués lost so far
    /// and the refaits: the last context plus the last marqué's loser is the settlement's
    /// count of marqués lost.
    #[test]
    fn the_players_are_told_where_the_partie_stands() {
        use crate::{Search, SearchPlayer, Weights};
        let margin = || SearchPlayer::new(Search::new(Weights::shipped(), 1), 0.0, 1);
        let mut a = Told(EcrirePlayer::new(margin()), Vec::new());
        let mut b = Told(margin(), Vec::new());
        let end = play_partie(&mut a, &mut b, &mut crate::train::partie_dice(3, 1), 4);
        assert_eq!(a.1, b.1);
        assert_eq!(a.1.len() as u32, 4 + end.refaits);
        assert_eq!(a.0.context, *a.1.last().unwrap());
        assert_eq!(
            a.1[0],
            MarqueContext {
                marques: 4,
                ..MarqueContext::default()
            }
        );
        for w in a.1.windows(2) {
            let (x, y) = (w[0], w[1]);
            let lost = (x.lost[0] + x.lost[1], y.lost[0] + y.lost[1]);
            if y.refaits > 0 {
                assert_eq!((lost.1, y.refaits), (lost.0, x.refaits + 1), "{x:?} {y:?}");
            } else {
                assert_eq!(lost.1, lost.0 + 1, "{x:?} {y:?}");
            }
        }
        let last = a.1.last().unwrap().lost;
        assert_eq!(last[0] + last[1], 3);
        let s = &end.settlement;
        assert!(s.lost[0] >= last[0] && s.lost[1] >= last[1]);
    }
}
