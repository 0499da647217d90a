//! Draw rules of each variant, played out move by move (see the `game` module's docs for the
//! rules and their sources).

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tablier_core::{Game as _, Outcome, Side};
use tablier_draughts::game::{DrawReason, Ending, Game};
use tablier_draughts::{fen, notation, Geometry, Variant, G10, G8};

fn game<G: Geometry>(variant: &str, f: &str) -> Game<G> {
    Game::from_position(fen::parse(Variant::by_name(variant).unwrap(), f).unwrap())
}

fn play<G: Geometry>(g: &mut Game<G>, text: &str) {
    let m = notation::parse(g.position(), text).unwrap_or_else(|e| panic!("{text}: {e}"));
    g.play(&m).unwrap();
}

/// Plays random quiet moves that never allow a capture and never repeat a position, until the
/// game ends; returns the number of plies played.
fn quiet_walk<G: Geometry>(g: &mut Game<G>, seed: u64) -> u32 {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut seen = vec![*g.position()];
    let mut plies = 0;
    while g.ending().is_none() {
        let mut moves = g.legal_moves();
        moves.shuffle(&mut rng);
        let pick = moves.iter().find(|m| {
            let mut p = *g.position();
            p.play_unchecked(m);
            !m.is_capture() && !seen.contains(&p) && p.legal_moves().iter().all(|r| !r.is_capture())
        });
        let m = *pick.expect("a quiet move that allows no capture");
        g.play(&m).unwrap();
        seen.push(*g.position());
        plies += 1;
        assert!(plies < 1000);
    }
    plies
}

#[test]
fn threefold_repetition() {
    let mut g = game::<G10>("international", "W:WK47,K50:BK4,K5");
    for _ in 0..2 {
        for m in ["50-44", "4-9", "44-50", "9-4"] {
            assert!(g.ending().is_none());
            play(&mut g, m);
        }
    }
    assert_eq!(g.ending(), Some(Ending::Draw(DrawReason::Repetition)));
    assert_eq!(g.outcome(), Some(Outcome::Draw));
    assert!(g.legal_moves().is_empty());
}

#[test]
fn twenty_five_king_moves_each() {
    // Two kings each: no endgame class, so only the king-move rule can end it.
    let mut g = game::<G10>("international", "W:WK46,K50:BK1,K5");
    assert_eq!(quiet_walk(&mut g, 1), 50);
    assert_eq!(g.ending(), Some(Ending::Draw(DrawReason::KingMoves)));
}

#[test]
fn a_man_move_resets_the_king_move_count() {
    let mut g = game::<G10>("international", "W:WK50,36:BK1,15");
    play(&mut g, "50-45");
    play(&mut g, "15-20");
    assert_eq!(g.counters().reversible, 0);
    play(&mut g, "45-50");
    assert_eq!(g.counters().reversible, 1);
}

#[test]
fn sixteen_moves_for_one_king_against_three_pieces() {
    let mut g = game::<G10>("international", "W:WK46,K50,K45:BK1");
    assert_eq!(quiet_walk(&mut g, 2), 32);
    assert_eq!(g.ending(), Some(Ending::Draw(DrawReason::Endgame)));
}

#[test]
fn five_moves_for_one_king_against_two() {
    let mut g = game::<G10>("international", "W:WK46,K50:BK1");
    assert_eq!(quiet_walk(&mut g, 3), 10);
    assert_eq!(g.ending(), Some(Ending::Draw(DrawReason::Endgame)));
}

#[test]
fn a_capture_into_the_five_move_class_starts_a_new_count() {
    // Black's lone king must take the king on 23: three white pieces become two.
    let mut g = game::<G10>("international", "B:WK23,K46,K50:BK1");
    let m = g.legal_moves();
    assert!(m.iter().all(|m| m.is_capture()));
    g.play(&m[0]).unwrap();
    assert_eq!(g.counters().endgame, 0);
    assert_eq!(quiet_walk(&mut g, 4), 10);
    assert_eq!(g.ending(), Some(Ending::Draw(DrawReason::Endgame)));
}

#[test]
fn a_promotion_inside_the_class_keeps_the_count() {
    // One king and two men against a king: the sixteen-move class, before and after 7-2.
    let mut g = game::<G10>("international", "W:WK47,7,36:BK5");
    play(&mut g, "36-31");
    play(&mut g, "5-10");
    assert_eq!(g.counters().endgame, 2);
    play(&mut g, "7-2");
    assert_eq!(g.counters().endgame, 3);
}

#[test]
fn brazilian_twenty_king_moves_each() {
    // 8x8, two kings each: seed 004's rule, 20 moves each.
    let mut g = game::<G8>("brazilian", "W:WK29,K32:BK1,K4");
    assert_eq!(quiet_walk(&mut g, 5), 40);
    assert_eq!(g.ending(), Some(Ending::Draw(DrawReason::KingMoves)));
}

#[test]
fn brazilian_lone_king_on_the_long_diagonal() {
    // Three white kings against a black king on 29 (a1, on the long diagonal): 5 moves each.
    let mut g = game::<G8>("brazilian", "W:WK1,K2,K3:BK29");
    assert_eq!(quiet_walk(&mut g, 6), 10);
    assert_eq!(g.ending(), Some(Ending::Draw(DrawReason::Endgame)));
}

#[test]
fn english_forty_moves_each() {
    let mut g = game::<G8>("english", "B:WK29,K32:BK1,K4");
    assert_eq!(quiet_walk(&mut g, 7), 80);
    assert_eq!(g.ending(), Some(Ending::Draw(DrawReason::KingMoves)));
}

#[test]
fn no_pieces_or_no_moves_loses() {
    // White's man on 46 is blocked by black men on 41 (and 36 behind them covered).
    let g = game::<G10>("international", "W:W46:B41,37");
    assert_eq!(
        g.ending(),
        Some(Ending::NoMove {
            winner: Side::Black
        })
    );
    let mut h = game::<G10>("international", "W:W28:B23");
    play(&mut h, "28x19");
    assert_eq!(
        h.outcome(),
        Some(Outcome::Win {
            winner: Side::White,
            points: 1
        })
    );
}
