//! The chance figures the engine works with: what each of the 21 rolls (1 or 2 of the 36
//! ordered throws) gives a player on a board, and the book's arithmetic of numbers
//! (tables C–F, n°259–312) from the same enumeration of rolls.

use tablier_core::Side;
use tablier_trictrac::{Board, EventKind, JanContext, Roll, RollScore, Table};

/// What one roll gives its roller on a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RollOutcome {
    /// The roll these outcomes follow from.
    pub roll: Roll,
    /// Ordered throws giving it (1 for a doublet, 2 otherwise).
    pub chances: u32,
    /// Points the roller wins.
    pub gains: u32,
    /// Points given to the opponent (false hits, contre-jans, numbers not played).
    pub given: u32,
    /// Table filled (a plein made), if any.
    pub fills: Option<Table>,
    /// The roll keeps the plein held.
    pub conserves: bool,
    /// The roll hits a dame à vrai (or the coin).
    pub hits: bool,
    /// The roll hits à faux.
    pub hits_false: bool,
}

/// The 21 rolls of `side` on `board` with the jan context `ctx`.
#[must_use]
pub fn roll_outcomes(board: &Board, side: Side, ctx: JanContext) -> Vec<RollOutcome> {
    Roll::all()
        .into_iter()
        .map(|roll| {
            let s = RollScore::new(board, side, roll, ctx);
            let any = |k: EventKind| s.events.iter().any(|e| e.kind == k);
            let fills = s.of(EventKind::Remplir).find_map(|e| e.table);
            RollOutcome {
                roll,
                chances: roll.chances(),
                gains: s.gains(),
                given: s.given(),
                fills,
                conserves: any(EventKind::Conserver),
                hits: any(EventKind::BattreAVrai) || any(EventKind::BattreLeCoin),
                hits_false: any(EventKind::BattreAFaux),
            }
        })
        .collect()
}

/// Chances out of 36 of each kind of event for one throw.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ThrowChances {
    /// Throws that fill the petit jan, the grand jan, the jan de retour.
    pub fill: [u32; 3],
    /// Throws that keep the plein held.
    pub conserve: u32,
    /// Throws that hit à vrai (or the coin).
    pub hit: u32,
    /// Throws that hit à faux.
    pub hit_false: u32,
}

/// The chances of `side`'s next throw on `board`.
#[must_use]
pub fn throw_chances(board: &Board, side: Side, ctx: JanContext) -> ThrowChances {
    let mut c = ThrowChances::default();
    for o in roll_outcomes(board, side, ctx) {
        if let Some(t) = o.fills {
            let i = Table::ALL.iter().position(|x| *x == t).unwrap_or(0);
            c.fill[i] += o.chances;
        }
        c.conserve += o.chances * u32::from(o.conserves);
        c.hit += o.chances * u32::from(o.hits);
        c.hit_false += o.chances * u32::from(o.hits_false);
    }
    c
}

/// Ordered throws (of 36) with at least `k` of their numbers (`{a, b, a+b}`, for a doublet
/// `{d, 2d}`) among `set` — the book's tables C, D, E and F's columns.
#[must_use]
pub fn reaching(set: &[u8], k: usize) -> u32 {
    Roll::all()
        .into_iter()
        .filter(|r| r.numbers().iter().filter(|n| set.contains(n)).count() >= k)
        .map(Roll::chances)
        .sum()
}

/// Σ over the 36 throws of how many of their numbers are in `set` (table F's last column).
#[must_use]
pub fn total_ways(set: &[u8]) -> u32 {
    Roll::all()
        .into_iter()
        .map(|r| r.chances() * r.numbers().iter().filter(|n| set.contains(n)).count() as u32)
        .sum()
}
