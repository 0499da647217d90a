//! The engine's light partie against the rules crate's game, and the search's basic sanity.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tablier_core::{Actor, Game, Side};
use tablier_trictrac::{Action, Board, Marker, Phase, Roll, Trictrac};
use tablier_trictrac_engine::sim::{AfterPlay, State};

/// Random parties played in both: after every turn the board, the marker, the roller and the
/// end agree.
#[test]
fn sim_agrees_with_the_rules_crate() {
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let mut turns = 0;
    let mut sorties = 0;
    let mut sortie_holes = 0;
    let mut any_sortie = 0;
    for n in 0..40 {
        // Half the parties from the start, half from a board where both players bear off
        // (with points that a sortie may turn into a hole).
        let (mut game, mut sim, mut score, mut holes);
        if n % 2 == 0 {
            game = Trictrac::new(Default::default());
            let (w, b) = loop {
                let (w, b) = (rng.gen_range(1..=6u8), rng.gen_range(1..=6u8));
                if w != b {
                    break (w, b);
                }
            };
            game.apply(&Action::Primaute { white: w, black: b })
                .unwrap();
            sim = State::new(if w > b { Side::White } else { Side::Black });
            (score, holes) = sim.begin_roll(Roll::new(w, b));
        } else {
            let board: Board = "19W2-20W3-21W3-22W2-23W3-24W2-1B3-2B3-3B3-4B2-5B2-6B2"
                .parse()
                .unwrap();
            let marker = Marker::with_points(
                (2 * rng.gen_range(0..6), false),
                (2 * rng.gen_range(0..6), false),
            );
            game = Trictrac::from_position(Default::default(), board, marker, Side::White);
            sim = State::from_position(board, marker, Side::White);
            (score, holes) = (sim.score(Roll::new(1, 1)), 0);
        }
        for _ in 0..3000 {
            match game.phase() {
                Phase::Over => break,
                Phase::Roll => {
                    assert_eq!(game.board(), &sim.board);
                    assert_eq!(game.marker(), &sim.marker);
                    assert_eq!(game.roller(), sim.roller);
                    assert!(!sim.over);
                    let roll = Roll::new(rng.gen_range(1..=6), rng.gen_range(1..=6));
                    game.apply(&Action::Roll(roll)).unwrap();
                    (score, holes) = sim.begin_roll(roll);
                    turns += 1;
                }
                Phase::Decide if game.sortie_marked() => {
                    sorties += 1;
                    assert!(sortie_holes > 0);
                    if rng.gen_bool(0.5) {
                        game.apply(&Action::Go).unwrap();
                        sim.go();
                        assert_eq!(game.board(), &sim.board);
                    } else {
                        game.apply(&Action::Stay).unwrap();
                        let roll = sim.stay_after_sortie(&score);
                        (score, holes) = sim.begin_roll(roll);
                    }
                }
                Phase::Decide => {
                    assert!(holes > 0);
                    // Going now and then (it starts the relevé again, away from sorties).
                    if rng.gen_bool(0.2) {
                        game.apply(&Action::Go).unwrap();
                        sim.go();
                        assert_eq!(game.board(), &sim.board);
                    } else {
                        game.apply(&Action::Stay).unwrap();
                    }
                }
                Phase::Play => {
                    // Bearing off when one can, mostly (so that sorties come).
                    let off = score
                        .plays
                        .legal
                        .iter()
                        .position(|c| score.sortie_points(&c.end) > 0);
                    let i = match off {
                        Some(i) if rng.gen_bool(0.8) => i,
                        _ => rng.gen_range(0..score.plays.legal.len()),
                    };
                    let c = score.plays.legal[i].clone();
                    game.apply(&Action::Play(c.play)).unwrap();
                    match sim.play(&score, &c.end) {
                        AfterPlay::Next => {}
                        AfterPlay::Sortie { holes: h } => {
                            any_sortie += 1;
                            assert_eq!(game.marker(), &sim.marker, "the sortie marked");
                            if h > 0 && !sim.over {
                                sortie_holes = h;
                            } else if !sim.over {
                                let roll = sim.stay_after_sortie(&score);
                                (score, holes) = sim.begin_roll(roll);
                            }
                        }
                    }
                }
                p => panic!("unexpected phase {p:?} in automatic marking"),
            }
            assert_eq!(game.phase() == Phase::Over, sim.over, "end of the partie");
        }
        assert_eq!(game.actor(), Actor::Nobody, "the partie ended");
        assert_eq!(game.marker(), &sim.marker);
    }
    assert!(turns > 500);
    eprintln!("{turns} turns, {any_sortie} sorties, {sorties} decisions after a sortie's hole");
    assert!(sorties > 5, "decisions after a sortie's hole");
}
