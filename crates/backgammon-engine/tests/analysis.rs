//! The analysis judges by the engine's own choices: a 3-point match where white plays exactly
//! as the engine does at 0-ply (checker plays valued with the cube and the score, and cube
//! decisions) and black plays at random must show
//! no loss at all for white when analysed at 0-ply, and a high error rate for black. The match
//! goes through a `.mat` file and back, as `tablier analyse` reads it.

use rand::{Rng, SeedableRng};
use tablier_backgammon::game::{Action, Match, Options, Phase};
use tablier_backgammon::mat::MatchFile;
use tablier_backgammon::record::{replay_mat, to_mat};
use tablier_backgammon_engine::analysis::{analyse, cube_info};
use tablier_backgammon_engine::cube::{cube_efficiency_at, decide};
use tablier_backgammon_engine::eval::{classify, Evaluator, Scratch};
use tablier_backgammon_engine::search;
use tablier_core::{Actor, Game, SeededDice, Side};

#[test]
fn the_engines_own_choices_lose_nothing_and_random_play_loses_much() {
    let ev = Evaluator::shipped();
    let options = Options::match_to(3);
    let mut m = Match::new(options);
    let mut dice = SeededDice::from_seed([7; 32]);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let mut s = Scratch::default();
    let mut actions = Vec::new();
    while m.actor() != Actor::Nobody {
        let action = match m.actor() {
            Actor::Chance => m.roll_chance(&mut dice).expect("a chance action"),
            Actor::Player(side) => {
                let pos = m.position();
                let engine = side == Side::White;
                match m.phase() {
                    Phase::Moving { .. } => {
                        let plays = m.legal_plays();
                        let i = if engine {
                            let ci = cube_info(&m);
                            let how = search::PlayValue::CubefulSearch;
                            let filter = search::MoveFilter::default();
                            search::best_of_valued(ev, &plays, 0, filter, &ci, how, &mut s).0
                        } else {
                            rng.gen_range(0..plays.len())
                        };
                        Action::Play(plays[i])
                    }
                    Phase::BeforeRoll => {
                        let ci = cube_info(&m);
                        let x = cube_efficiency_at(classify(&pos), pos.pip_count().0, 0);
                        let d = decide(&ev.probs(&pos, &mut s), &ci, x);
                        if engine && m.may_double() && d.double {
                            Action::Double
                        } else {
                            Action::Roll
                        }
                    }
                    Phase::Doubled => {
                        // The answer is the taker's: `pos` is the doubler's view.
                        let ci = cube_info(&m);
                        let x = cube_efficiency_at(classify(&pos), pos.pip_count().0, 0);
                        let d = decide(&ev.probs(&pos, &mut s), &ci, x);
                        if !engine || d.take {
                            Action::Take
                        } else {
                            Action::Drop
                        }
                    }
                    other => panic!("unexpected phase {other:?}"),
                }
            }
            Actor::Nobody => unreachable!(),
        };
        m.apply(&action).unwrap();
        actions.push(action);
    }
    let file = to_mat(options, ["engine", "random"], &actions).unwrap();
    let file = MatchFile::parse(&file.to_string()).unwrap();
    let replayed = replay_mat(&file, options).unwrap();
    let games: Vec<Vec<Action>> = replayed.games.iter().map(|g| g.actions.clone()).collect();
    let a = analyse(ev, options, &games, 0, |_| {}).unwrap();
    let [white, black] = a.stats;
    eprintln!("engine {white:?}\nrandom {black:?}");
    assert!(white.plays >= 10 && black.plays >= 10);
    assert!(
        white.play_loss < 1e-6 && white.cube_loss < 1e-6,
        "{white:?}"
    );
    assert!(black.error_rate() > 50.0, "{black:?}");
    assert!(a.decisions.iter().all(|d| d.loss >= 0.0));
}
