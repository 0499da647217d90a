//! The engine players. Level 0 plays at random. Levels 1 to 4 are the strong engines' levels
//! for people, from much noise to full strength: draughts (every variant) through
//! `tablier_draughts_engine::level_spec`, backgammon through the backgammon engine's levels
//! (0-ply with noise up to 2-ply, cube decisions included), trictrac through the trictrac
//! engine's levels (1 ply with noise up to 2 plies). Where a game had no strong engine, a
//! simple one stands in: level 1 takes the action that looks best at once; levels 2 and up
//! search that many plies with alpha-beta where no dice intervene.

use rand::Rng;
use tablier_core::{Actor, Side};

use crate::table::Table;

/// The highest level offered.
pub const MAX_LEVEL: u8 = 4;

/// The thinking time an engine allows itself on a clock with `left_ms` remaining and
/// `increment_ms` per move: a thirtieth of what is left plus most of the increment, so that
/// it never loses on time by thinking.
#[must_use]
pub fn budget(left_ms: i64, increment_ms: i64) -> std::time::Duration {
    let ms = (left_ms.max(0) / 30 + increment_ms * 3 / 4).max(20);
    std::time::Duration::from_millis(ms as u64)
}

/// The action an engine at `level` chooses for `side`, or `None` if it has nothing to do;
/// `budget` caps its thinking time when a clock runs.
pub fn choose(
    table: &dyn Table,
    side: Side,
    level: u8,
    budget: Option<std::time::Duration>,
    rng: &mut impl Rng,
) -> Option<String> {
    if table.actor() != Actor::Player(side) {
        return None;
    }
    let all = table.legal();
    // Resigning is never the simple engine's idea (unless nothing else is legal).
    let legal: Vec<String> = match all
        .iter()
        .filter(|t| !t.starts_with("resign"))
        .cloned()
        .collect::<Vec<_>>()
    {
        v if v.is_empty() => all,
        v => v,
    };
    if legal.is_empty() {
        return None;
    }
    if level == 0 || legal.len() == 1 {
        return Some(legal[rng.gen_range(0..legal.len())].clone());
    }
    if let Some(text) = table.engine_choice(side, level.min(MAX_LEVEL), rng.gen(), budget) {
        return Some(text);
    }
    let depth = u32::from(level.min(MAX_LEVEL));
    let mut best: Option<(f64, &String)> = None;
    for text in &legal {
        let mut t = table.boxed_clone();
        if t.apply(text).is_err() {
            continue;
        }
        let v = search(
            t.as_ref(),
            side,
            depth - 1,
            f64::NEG_INFINITY,
            f64::INFINITY,
        ) + rng.gen_range(0.0..0.01);
        if best.is_none_or(|(b, _)| v > b) {
            best = Some((v, text));
        }
    }
    best.map(|(_, t)| t.clone())
        .or_else(|| Some(legal[rng.gen_range(0..legal.len())].clone()))
}

/// Alpha-beta over the players' actions while no chance intervenes; the heuristic elsewhere.
fn search(t: &dyn Table, me: Side, depth: u32, mut alpha: f64, mut beta: f64) -> f64 {
    let who = match t.actor() {
        Actor::Player(s) if depth > 0 => s,
        _ => return t.heuristic(me),
    };
    let legal = t.legal();
    if legal.is_empty() || legal.len() > 60 {
        return t.heuristic(me);
    }
    let maximise = who == me;
    let mut best = if maximise {
        f64::NEG_INFINITY
    } else {
        f64::INFINITY
    };
    for text in &legal {
        let mut c = t.boxed_clone();
        if c.apply(text).is_err() {
            continue;
        }
        let v = search(c.as_ref(), me, depth - 1, alpha, beta);
        if maximise {
            best = best.max(v);
            alpha = alpha.max(v);
        } else {
            best = best.min(v);
            beta = beta.min(v);
        }
        if alpha >= beta {
            break;
        }
    }
    best
}
