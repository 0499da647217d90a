//! Property tests of the match state: random matches (seeded dice, random legal actions) keep
//! fifteen checkers a side, never leave a side's checkers on a point the other holds, end with
//! the score the results add up to, and every refused action leaves the match exactly as it was.

use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tablier_backgammon::game::{Action, Match, Options, Phase, WinKind};
use tablier_backgammon::{Position, Roll};
use tablier_core::{Actor, Game, SeededDice};

/// Actions that are often wrong: thrown at the match at every step.
fn probes(rng: &mut ChaCha8Rng) -> Vec<Action> {
    let roll = Roll::new(rng.gen_range(1..=6), rng.gen_range(1..=6)).unwrap();
    let foreign = Position::start().legal_plays(roll);
    vec![
        Action::Roll,
        Action::Double,
        Action::Take,
        Action::Drop,
        Action::Beaver,
        Action::Accept,
        Action::Reject,
        Action::Resign(WinKind::Gammon),
        Action::Dice(roll),
        Action::OpeningRoll { white: 0, black: 7 },
        Action::Play(foreign[rng.gen_range(0..foreign.len())]),
    ]
}

fn check(m: &Match) {
    let p = m.position();
    let (a, b) = p.to_sides();
    let on: [u32; 2] = [
        a.iter().map(|&c| u32::from(c)).sum(),
        b.iter().map(|&c| u32::from(c)).sum(),
    ];
    assert_eq!(on[0] + u32::from(p.mover_off()), 15);
    assert_eq!(on[1] + u32::from(p.opponent_off()), 15);
    // A point is held by one side at most (from_sides refuses anything else).
    assert_eq!(Position::from_sides(&a, &b).unwrap(), p);
    let (cube, _) = m.cube();
    assert!(cube.is_power_of_two());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_matches_keep_the_invariants(seed in any::<u64>(), length in prop_oneof![Just(0u32), 1u32..12]) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut dice = SeededDice::from_seed(rng.gen());
        let mut options = if length == 0 { Options::money() } else { Options::match_to(length) };
        options.beavers = length == 0 && rng.gen();
        let mut m = Match::new(options);
        let mut steps = 0;
        while m.actor() != Actor::Nobody && steps < 5_000 {
            check(&m);
            let legal = m.legal_actions();
            for probe in probes(&mut rng) {
                let before = m.clone();
                match m.apply(&probe) {
                    Ok(()) => {
                        // Only a legal action may be accepted (plays compare by position).
                        let ok = legal.iter().any(|a| match (a, &probe) {
                            (Action::Play(x), Action::Play(y)) => x.result == y.result,
                            _ => a == &probe,
                        });
                        prop_assert!(ok, "accepted {probe:?} in {:?}", before.phase());
                        m = before;
                    }
                    Err(e) => {
                        prop_assert!(!e.reason.is_empty());
                        prop_assert_eq!(&m, &before);
                    }
                }
            }
            let a = match m.roll_chance(&mut dice) {
                Some(a) => a,
                None => {
                    let r: f64 = rng.gen();
                    match m.phase() {
                        Phase::BeforeRoll if r < 0.1 && legal.contains(&Action::Double) => Action::Double,
                        Phase::BeforeRoll => Action::Roll,
                        Phase::Doubled if r < 0.85 => Action::Take,
                        _ => {
                            let plays: Vec<&Action> = legal.iter().filter(|a| !matches!(a, Action::Resign(_))).collect();
                            *plays[rng.gen_range(0..plays.len())]
                        }
                    }
                }
            };
            m.apply(&a).unwrap();
            steps += 1;
        }
        prop_assert_eq!(m.phase(), Phase::Over);
        let won: u32 = m.results().iter().map(|r| r.credited).sum();
        prop_assert_eq!(won, m.score()[0] + m.score()[1]);
        if length > 0 {
            prop_assert!(m.score().contains(&length));
        }
    }
}
