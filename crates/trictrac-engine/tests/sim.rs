//! The engine's light partie against the rules crate's game, and the search's basic sanity.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tablier_core::{Actor, Game, Side};
use tablier_trictrac::{Action, Phase, Roll, Trictrac};
use tablier_trictrac_engine::sim::State;

/// Random parties played in both: after every turn the board, the marker, the roller and the
/// end agree.
#[test]
fn sim_agrees_with_the_rules_crate() {
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let mut turns = 0;
    for _ in 0..12 {
        let mut game = Trictrac::new(Default::default());
        let (w, b) = loop {
            let (w, b) = (rng.gen_range(1..=6u8), rng.gen_range(1..=6u8));
            if w != b {
                break (w, b);
            }
        };
        game.apply(&Action::Primaute { white: w, black: b })
            .unwrap();
        let mut sim = State::new(if w > b { Side::White } else { Side::Black });
        let (mut score, mut holes) = sim.begin_roll(Roll::new(w, b));
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
                Phase::Decide => {
                    assert!(holes > 0);
                    if rng.gen_bool(0.5) {
                        game.apply(&Action::Go).unwrap();
                        sim.go();
                        assert_eq!(game.board(), &sim.board);
                    } else {
                        game.apply(&Action::Stay).unwrap();
                    }
                }
                Phase::Play => {
                    let i = rng.gen_range(0..score.plays.legal.len());
                    let c = score.plays.legal[i].clone();
                    game.apply(&Action::Play(c.play)).unwrap();
                    if let Some(roll) = sim.play(&score, &c.end) {
                        (score, holes) = sim.begin_roll(roll);
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
}
