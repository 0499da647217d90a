//! The engine through the rules crate's game: levels, écoles, weights format, duels.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tablier_core::{Actor, Game, SeededDice, Side};
use tablier_trictrac::{Action, Marking, Options, Phase, Trictrac};
use tablier_trictrac_engine::duel::{mean_se, play_pair};
use tablier_trictrac_engine::eval::{
    feature_name, feature_names, Weights, BASE_FEATURES, FEATURES,
};
use tablier_trictrac_engine::{
    choose_action, claim_gain, EngineError, Greedy, Search, SearchPlayer, MAX_LEVEL,
};

fn dice(seed: u8) -> SeededDice {
    SeededDice::from_seed([seed; 32])
}

/// A careless player for the écoles tests: it marks 2 points too many or too few now and
/// then, and otherwise takes the first legal action that is not a claim.
fn careless(game: &Trictrac, rng: &mut ChaCha8Rng) -> Action {
    let legal = game.legal_actions();
    let due = game.roll_score().map(|s| match game.phase() {
        Phase::MarkGains => s.gains(),
        _ => s.given(),
    });
    if let (Phase::MarkGains | Phase::MarkGiven, Some(due)) = (game.phase(), due) {
        let k = match rng.gen_range(0..4) {
            0 => due + 2,
            1 if due >= 2 => due - 2,
            _ => due,
        };
        return Action::Mark(k);
    }
    let plays: Vec<&Action> = legal
        .iter()
        .filter(|a| matches!(a, Action::Play(_)))
        .collect();
    if !plays.is_empty() {
        return plays[rng.gen_range(0..plays.len())].clone();
    }
    for a in [Action::Decline, Action::Stay] {
        if legal.contains(&a) {
            return a;
        }
    }
    legal[0].clone()
}

/// In the écoles mode the engine marks exactly what is due (it never has an école) and
/// claims the écoles the careless opponent makes whenever the points do not lower its chance
/// of winning the partie (by the table: nearly always).
#[test]
fn ecoles_engine_marks_right_and_claims_every_ecole() {
    let options = Options {
        marking: Marking::Ecoles,
        ..Options::default()
    };
    let engine = Side::White;
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut game = Trictrac::new(options);
    let mut d = dice(5);
    let (mut claims, mut windows) = (0, 0);
    for step in 0..1500 {
        match game.actor() {
            Actor::Nobody => break,
            Actor::Chance => {
                let a = game.chance_action(&mut d).unwrap();
                game.apply(&a).unwrap();
            }
            Actor::Player(s) if s == engine => {
                let gain = claim_gain(&game, engine);
                let a = choose_action(&game, 1, step).unwrap();
                if let Some(g) = gain {
                    windows += 1;
                    assert_eq!(a == Action::Claim, g >= -1e-12, "claim worth {g}");
                }
                if a == Action::Claim {
                    claims += 1;
                }
                game.apply(&a).unwrap();
                assert!(
                    game.ecoles().iter().all(|e| e.by != engine),
                    "the engine made an école: {:?}",
                    game.ecoles()
                );
            }
            Actor::Player(_) => {
                let a = careless(&game, &mut rng);
                game.apply(&a).unwrap();
            }
        }
    }
    assert!(
        windows > 5 && claims * 10 >= windows * 9,
        "{claims} claims, {windows} windows"
    );
}

/// Every level gives a legal action in every phase of a game in automatic marking, and the
/// dice are nobody's choice.
#[test]
fn every_level_plays_legal_actions() {
    let mut game = Trictrac::new(Options::default());
    let mut d = dice(11);
    let mut decided = 0;
    for step in 0..400u64 {
        match game.actor() {
            Actor::Nobody => break,
            Actor::Chance => {
                assert_eq!(
                    choose_action(&game, 0, step),
                    Err(EngineError::NotAPlayersTurn)
                );
                let a = game.chance_action(&mut d).unwrap();
                game.apply(&a).unwrap();
            }
            Actor::Player(_) => {
                // Level 3 (2 plies) is slower: every 40th decision.
                let level = if decided % 40 == 0 {
                    MAX_LEVEL
                } else {
                    (step % 3) as u8
                };
                let a = choose_action(&game, level, step).unwrap();
                assert!(game.legal_actions().contains(&a), "{a:?}");
                game.apply(&a).unwrap();
                decided += 1;
            }
        }
    }
    assert!(decided > 50);
    assert_eq!(
        choose_action(&game, MAX_LEVEL + 1, 0),
        Err(EngineError::NoSuchLevel(MAX_LEVEL + 1))
    );
}

#[test]
fn weights_file_round_trip_and_errors() {
    let w = Weights::shipped();
    assert_eq!(Weights::parse(&w.to_text()).unwrap(), w);
    assert!(w.roller.iter().chain(&w.other).any(|x| *x != 0.0));
    assert!(Weights::parse("").is_err());
    assert!(Weights::parse("tablier-trictrac-eval 2\n").is_err());
    assert!(Weights::parse("tablier-trictrac-eval 3\n")
        .unwrap_err()
        .reason
        .contains("expected"));
    let text = w.to_text();
    // One feature missing.
    let cut: String = text.lines().take(FEATURES).collect::<Vec<_>>().join("\n");
    assert!(Weights::parse(&cut).unwrap_err().reason.contains("missing"));
    let bad = text.replacen("bias", "bias x", 1);
    assert!(Weights::parse(&bad).is_err());
    let unknown = text.replacen("bias", "colour", 1);
    assert!(Weights::parse(&unknown)
        .unwrap_err()
        .reason
        .contains("unknown"));
}

/// A version 1 weights file (the base features only; the shipped file is one) still reads,
/// as the same evaluation: its shape weights are 0, and it may not name them.
#[test]
fn version_1_weights_read_with_the_shape_at_zero() {
    let text = include_str!("../weights/trictrac-eval.txt");
    assert!(text.contains("tablier-trictrac-eval 1\n"));
    let v1 = Weights::parse(text).unwrap();
    assert!(v1.roller[BASE_FEATURES..].iter().all(|x| *x == 0.0));
    assert!(v1.other[BASE_FEATURES..].iter().all(|x| *x == 0.0));
    // The bias line of the file, read as it is written.
    let bias = text.lines().find(|l| l.starts_with("bias ")).unwrap();
    let first: f64 = bias.split_whitespace().nth(1).unwrap().parse().unwrap();
    assert_eq!(v1.roller[0], first);
    // Written back, it is a version 2 file of the same weights.
    assert_eq!(Weights::parse(&v1.to_text()).unwrap(), v1);
    let named = format!("{text}case_r_7 1.0 1.0\n");
    assert!(Weights::parse(&named)
        .unwrap_err()
        .reason
        .contains("unknown"));
    // Every feature has its own name.
    let names = feature_names();
    let set: std::collections::HashSet<&String> = names.iter().collect();
    assert_eq!((names.len(), set.len()), (FEATURES, FEATURES));
    assert_eq!(feature_name(BASE_FEATURES), "single_r_2");
    assert_eq!(feature_name(FEATURES - 1), "extra_o_24");
}

/// A few parties only, to check that duels run; the figures come from `tablier trictrac
/// duel` (README).
#[test]
fn small_duel_runs() {
    let mut a = SearchPlayer::new(Search::new(Weights::shipped(), 1), 0.0, 1);
    let mut b = Greedy::new(2);
    let margins: Vec<f64> = (0..2)
        .map(|n| {
            let r = play_pair(&mut a, &mut b, 77, n);
            (r.margins[0] + r.margins[1]) / 2.0
        })
        .collect();
    let (m, se) = mean_se(&margins);
    assert!(m.is_finite() && se >= 0.0);
    // A partie in 12 holes ends with a margin of at most 12 + 2 holes either way.
    assert!(margins.iter().all(|x| x.abs() <= 14.0));
}
