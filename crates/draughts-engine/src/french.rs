//! The engine under the old French rules (captures enforced by huffing, *souffler*).
//!
//! The engine never makes a move that can be huffed: it searches only the moves that take
//! every capture at its maximum ([`Position::proper_moves`]). When the opponent has left a
//! capture untaken, it weighs its three rights — let the piece stand and play on, huff it
//! (remove it, then move), or force the opponent to take back and capture — by searching the
//! position each of them leads to, and takes the best.

use tablier_draughts::french::{Action, FrenchGame};
use tablier_draughts::{Geometry, Position};

use crate::{Engine, Limits, TimeControl};

/// Splits a search's limits into `n` equal shares of time (and nodes).
fn share(limits: &Limits, n: u32) -> Limits {
    let n = n.max(1);
    let time = match limits.time {
        TimeControl::MoveTime(t) => TimeControl::MoveTime(t / n),
        TimeControl::Clock {
            remaining,
            increment,
            moves_to_go,
        } => TimeControl::Clock {
            remaining: remaining / n,
            increment: increment / n,
            moves_to_go,
        },
        TimeControl::Infinite => TimeControl::Infinite,
    };
    Limits {
        time,
        nodes: limits.nodes.map(|x| x / u64::from(n)),
        search_forced: true,
        ..*limits
    }
}

/// The value of `pos` for `me` after a search within `limits`.
fn value_for<G: Geometry>(
    engine: &mut Engine<G>,
    pos: &Position<G>,
    me: tablier_core::Side,
    limits: &Limits,
) -> i32 {
    let r = engine.search(pos, &[], limits, &mut |_| {});
    if pos.side_to_move() == me {
        r.score
    } else {
        -r.score
    }
}

/// The action the engine takes in `game` (`None` when the game is over).
pub fn choose<G: Geometry>(
    engine: &mut Engine<G>,
    game: &FrenchGame<G>,
    limits: &Limits,
) -> Option<Action<G>> {
    if game.ending().is_some() {
        return None;
    }
    let actions = game.legal_actions();
    let me = game.position().side_to_move();
    let rights: Vec<Action<G>> = actions
        .iter()
        .filter(|a| matches!(a, Action::Huff(_) | Action::Force(_)))
        .cloned()
        .collect();
    let moves = game.legal_moves();
    let limits = share(limits, rights.len() as u32 + 1);
    let best_move = |engine: &mut Engine<G>| -> (Option<Action<G>>, i32) {
        let r = engine.search(game.position(), &[], &limits, &mut |_| {});
        match r.best.filter(|m| moves.contains(m)) {
            Some(m) => (Some(Action::Move(m)), r.score),
            // After a force the offender's choice is narrowed: score each allowed move.
            None => moves
                .iter()
                .map(|m| {
                    let mut p = *game.position();
                    p.play_unchecked(m);
                    (Some(Action::Move(*m)), value_for(engine, &p, me, &limits))
                })
                .max_by_key(|&(_, v)| v)
                .unwrap_or((None, i32::MIN)),
        }
    };
    let (mut best, mut best_value) = best_move(engine);
    for right in rights {
        let mut g = game.clone();
        if g.apply_action(&right).is_err() {
            continue;
        }
        let v = match g.ending() {
            Some(tablier_draughts::game::Ending::NoMove { winner }) if winner == me => i32::MAX,
            Some(tablier_draughts::game::Ending::NoMove { .. }) => i32::MIN,
            Some(_) => 0,
            None => value_for(engine, g.position(), me, &limits),
        };
        if v > best_value || best.is_none() {
            best = Some(right);
            best_value = v;
        }
    }
    best.or_else(|| actions.into_iter().next())
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use tablier_draughts::french::TableOptions;
    use tablier_draughts::{fen, FRENCH_OLD, G10};

    #[test]
    fn huffs_a_piece_that_did_not_take() {
        // White's man on 32 could take 27 (landing on 21) but moves 33-28 instead: black
        // can huff the man on 32 and win it for nothing (forcing the capture would lose the
        // man on 27, and black has no capture of its own: 38 is held).
        let pos = fen::parse::<G10>(&FRENCH_OLD, "W:W32,33,38,45:B27,3,4").unwrap();
        let mut g = FrenchGame::from_position(pos, TableOptions::default());
        let quiet = g
            .legal_moves()
            .into_iter()
            .find(|m| m.from() == 33 && m.to() == 28)
            .unwrap();
        g.apply_action(&Action::Move(quiet)).unwrap();
        let mut e = Engine::<G10>::new(&FRENCH_OLD, 1);
        let a = choose(&mut e, &g, &Limits::depth(4)).unwrap();
        assert_eq!(a, Action::Huff(32));
    }

    #[test]
    fn plays_whole_games_against_random_moves() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let mut e = Engine::<G10>::new(&FRENCH_OLD, 1);
        for _ in 0..2 {
            let mut g = FrenchGame::<G10>::start(TableOptions::default()).unwrap();
            for ply in 0..400 {
                if g.ending().is_some() {
                    break;
                }
                let a = if ply % 2 == 0 {
                    choose(&mut e, &g, &Limits::depth(2)).unwrap()
                } else {
                    let acts = g.legal_actions();
                    acts[rng.gen_range(0..acts.len())].clone()
                };
                g.apply_action(&a).unwrap();
            }
        }
    }
}
