//! Random whole games in both marking modes: no dame is lost or created, points are always
//! even, a hole is marked exactly when 12 points are reached, illegal actions change nothing,
//! and the game record replays.

use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tablier_core::{Actor, Game, SeededDice, Side};
use tablier_trictrac::marker::Marker;
use tablier_trictrac::{Action, Marking, Options, Partie, Phase, Play, Trictrac};

fn options(ecoles: bool, a_ecrire: bool) -> Options {
    Options {
        marking: if ecoles {
            Marking::Ecoles
        } else {
            Marking::Automatic
        },
        partie: if a_ecrire {
            Partie::AEcrire { marques: 2 }
        } else {
            Partie::Ordinaire
        },
        stakes: true,
        ..Options::default()
    }
}

/// Actions that are never legal in the current state (to check they change nothing).
fn illegal_probes(g: &Trictrac) -> Vec<Action> {
    let legal = g.legal_actions();
    let mut probes = vec![
        Action::Go,
        Action::Stay,
        Action::Claim,
        Action::Mark(3),
        Action::Mark(1000),
        Action::Play(Play::Pass),
        Action::Play(Play::Moves(vec![tablier_trictrac::Step {
            from: 24,
            to: 1,
            die: 6,
        }])),
        Action::Primaute { white: 4, black: 4 },
    ];
    probes.retain(|a| !legal.contains(a));
    probes
}

/// Plays one random game; checks the invariants after every action. Returns the game.
fn random_game(seed: u64, ecoles: bool, a_ecrire: bool, max_actions: usize) -> Trictrac {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut dice = SeededDice::from_seed(rng.gen());
    let mut g = Trictrac::new(options(ecoles, a_ecrire));
    for _ in 0..max_actions {
        if g.actor() == Actor::Nobody {
            assert!(g.outcome().is_some());
            assert!(g.legal_actions().is_empty());
            break;
        }
        // Illegal actions change nothing.
        for probe in illegal_probes(&g) {
            let before = g.clone();
            assert!(
                g.apply(&probe).is_err(),
                "{probe:?} accepted in {:?}",
                g.phase()
            );
            assert_eq!(g, before);
        }
        let before = g.clone();
        let action = match g.actor() {
            Actor::Chance => g.chance_action(&mut dice).unwrap(),
            _ => {
                let legal = g.legal_actions();
                assert!(!legal.is_empty(), "a player always has an action");
                // In écoles mode, mark right most of the time.
                let due = legal.iter().position(|a| match (a, g.roll_score()) {
                    (Action::Mark(k), Some(s)) => {
                        *k == if g.phase() == Phase::MarkGains {
                            s.gains()
                        } else {
                            s.given()
                        }
                    }
                    _ => false,
                });
                // The rarer answers to an école are tried often enough.
                let answers: Vec<usize> = (0..legal.len())
                    .filter(|&i| matches!(legal[i], Action::Claim | Action::Erase | Action::Oblige))
                    .collect();
                let claim = (!answers.is_empty()).then(|| answers[rng.gen_range(0..answers.len())]);
                match (due, claim) {
                    (_, Some(i)) if rng.gen_bool(0.4) => legal[i].clone(),
                    (Some(i), _) if rng.gen_bool(0.8) => legal[i].clone(),
                    _ => {
                        // Claims on one's own judgement (mostly fausses écoles) now and then.
                        let pool: Vec<&Action> = if rng.gen_bool(0.9) {
                            legal
                                .iter()
                                .filter(|a| !matches!(a, Action::Ecole(_) | Action::Warn(_)))
                                .collect()
                        } else {
                            legal.iter().collect()
                        };
                        let pool = if pool.is_empty() {
                            legal.iter().collect()
                        } else {
                            pool
                        };
                        pool[rng.gen_range(0..pool.len())].clone()
                    }
                }
            }
        };
        // Format and parse round trip against the state.
        let text = g.format_action(&action);
        assert_eq!(g.parse_action(&text).as_ref(), Ok(&action), "{text}");
        g.apply(&action).unwrap();
        check(&before, &g, &action);
    }
    g
}

fn check(before: &Trictrac, after: &Trictrac, action: &Action) {
    let m: &Marker = after.marker();
    for side in Side::ALL {
        let p = m.points(side);
        assert!(p % 2 == 0, "points are even (n°140): {p}");
        assert!(p < 12, "12 points are always a hole (n°140): {p}");
        assert!(after.board().on_board(side) <= 15);
        // Holes only grow, except when going ends a marqué (partie à écrire), and when an
        // over-marking is corrected (écoles, n°167, n°187) — on a claim, an erase, or a go on
        // a wrong marking let stand (n°180).
        // Or when a marking no dame touched is completed late, before the points given (n°197).
        let corrects = matches!(
            action,
            Action::Go | Action::Decline | Action::Claim | Action::Ecole(_) | Action::Erase
        ) || (before.phase() == Phase::AfterGiven
            && matches!(action, Action::Mark(_)));
        assert!(m.holes(side) >= before.marker().holes(side) || corrects);
    }
    // Dames: a play moves dames and bears off exactly its steps to the band; nothing else
    // changes the board except a relevé, which puts all 30 back.
    let relevé = *after.board() == tablier_trictrac::Board::start();
    if let Action::Play(play) = action {
        let roller = before.roller();
        let off_steps = match play {
            Play::Moves(s) => s.iter().filter(|s| s.to == 0 || s.to == 25).count(),
            Play::ToutDUne { to, .. } => usize::from(*to == 0 || *to == 25),
            _ => 0,
        } as u8;
        if !relevé {
            assert_eq!(
                before.board().on_board(roller) - after.board().on_board(roller),
                off_steps
            );
            assert_eq!(
                before.board().on_board(roller.opposite()),
                after.board().on_board(roller.opposite())
            );
        }
    } else if !relevé {
        assert_eq!(before.board(), after.board());
    }
    // A hole is marked exactly when a player's points reach 12: in automatic mode the roller's
    // gains are marked with the roll.
    if let (Action::Roll(_), Marking::Automatic) = (action, after.options().marking) {
        let s = after.roll_score().unwrap();
        let side = s.roller;
        let reached = before.marker().points(side) + s.gains() >= 12;
        assert_eq!(
            after.marker().holes(side) > before.marker().holes(side),
            reached
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    #[test]
    fn automatic_games(seed in any::<u64>()) {
        let g = random_game(seed, false, false, 6000);
        let replayed = Trictrac::replay(&g.record()).unwrap();
        prop_assert!(replayed == g);
    }

    #[test]
    fn ecoles_games(seed in any::<u64>()) {
        let g = random_game(seed, true, false, 6000);
        let replayed = Trictrac::replay(&g.record()).unwrap();
        prop_assert!(replayed == g);
    }

    #[test]
    fn partie_a_ecrire_games(seed in any::<u64>(), ecoles in any::<bool>()) {
        let g = random_game(seed, ecoles, true, 6000);
        let replayed = Trictrac::replay(&g.record()).unwrap();
        prop_assert!(replayed == g);
    }

    #[test]
    fn marking_makes_holes_exactly_at_twelve(steps in prop::collection::vec((any::<bool>(), 1u32..=20), 1..60)) {
        let mut m = Marker::new();
        for (white, half) in steps {
            let side = if white { Side::White } else { Side::Black };
            let k = 2 * half;
            let before = m.points(side);
            let holes = m.mark(side, k);
            prop_assert_eq!(holes > 0, before + k >= 12);
            prop_assert!(m.points(side) < 12 && m.points(side) % 2 == 0);
            if holes > 0 {
                prop_assert_eq!(m.points(side.opposite()), 0);
            }
        }
    }
}

#[test]
fn a_game_finishes_and_replays() {
    let g = random_game(7, false, false, 20_000);
    assert_eq!(
        g.actor(),
        Actor::Nobody,
        "a partie ordinaire ends at 12 holes"
    );
    // With the stakes option the win is worth Guiton's multiplier.
    match g.outcome().unwrap() {
        tablier_core::Outcome::Win { winner, points } => {
            assert!(g.marker().holes(winner) >= 12);
            assert_eq!(points, tablier_trictrac::marker::stake(g.marker(), winner));
        }
        tablier_core::Outcome::Draw => panic!("a partie ordinaire has a winner"),
    }
    let record = g.record();
    let replayed = Trictrac::replay(&record).unwrap();
    assert!(replayed == g);
    // Every throw's line names its jans; a throw marks its roller's gains at once (the
    // points it gives are marked after the play), so where it makes no hole one player's
    // points move by the sum of his jans and the other's do not move.
    let (mut before, mut holes_before) = ([0u32; 2], [0u32; 2]);
    let mut checked = 0;
    for l in record.lines().skip(1) {
        let v: serde_json::Value = serde_json::from_str(l).unwrap();
        let pair = |k: &str| -> [u32; 2] {
            let a = v[k].as_array().unwrap();
            [a[0].as_u64().unwrap() as u32, a[1].as_u64().unwrap() as u32]
        };
        let (points, holes) = (pair("points"), pair("holes"));
        if let Some(jans) = v["jans"].as_array() {
            let mut to = [0u32; 2];
            for j in jans {
                assert!(j["jan"].as_str().is_some_and(|n| !n.is_empty()), "{l}");
                let i = usize::from(j["to"] == "Black");
                to[i] += j["points"].as_u64().unwrap() as u32;
            }
            if holes == holes_before {
                let moved = [0, 1].map(|i| points[i] != before[i]);
                let ok = [0, 1]
                    .iter()
                    .any(|&r| points[r] == before[r] + to[r] && points[1 - r] == before[1 - r]);
                assert!(
                    ok || !moved.iter().any(|&m| m),
                    "{l}: jans {to:?} from {before:?}"
                );
                checked += 1;
            }
        }
        before = points;
        holes_before = holes;
    }
    assert!(checked > 20, "{checked} throws checked");
    // A tampered record is refused at the right line.
    let mut lines: Vec<String> = record.lines().map(String::from).collect();
    let i = lines
        .iter()
        .position(|l| l.contains("\"holes\":[1"))
        .unwrap_or(5);
    lines[i] = lines[i].replace("\"points\":[", "\"points\":[99,");
    let err = Trictrac::replay(&lines.join("\n")).unwrap_err();
    assert_eq!(err.line, i + 1);
}

#[test]
fn a_partie_a_ecrire_ends_after_its_marques_n220() {
    let g = random_game(11, false, true, 100_000);
    assert_eq!(g.actor(), Actor::Nobody);
    assert_eq!(g.marques().len(), 2);
    for m in g.marques() {
        let (w, l) = (
            m.holes[m.winner.index()],
            m.holes[m.winner.opposite().index()],
        );
        assert!(w > l && w >= 6, "{m:?}");
        assert!(m.value > 0, "{m:?}");
    }
    let net: i64 = g
        .marques()
        .iter()
        .map(|m| {
            if m.winner == Side::White {
                m.value
            } else {
                -m.value
            }
        })
        .sum();
    // The outcome is the paper settlement (n°233): the marqués' values, and 28 jetons for a
    // postillon — the second marqué lost of two (n°227).
    let lost_by_white = g
        .marques()
        .iter()
        .filter(|m| m.winner == Side::Black)
        .count();
    let postillon = match lost_by_white {
        2 => -28,
        0 => 28,
        _ => 0,
    };
    let net = net + postillon;
    let s = g.settlement(0, 0).unwrap();
    assert_eq!(i64::from(s.jetons), net.abs());
    match g.outcome().unwrap() {
        tablier_core::Outcome::Win { winner, points } => {
            assert_eq!(i64::from(points), net.abs());
            assert_eq!(winner == Side::White, net > 0);
        }
        tablier_core::Outcome::Draw => assert_eq!(net, 0),
    }
}

#[test]
fn the_view_lists_the_legal_actions_with_paths() {
    let mut g = Trictrac::new(Options::default());
    let v = serde_json::to_value(g.view()).unwrap();
    assert_eq!(v["position"], "1W15-24B15");
    assert_eq!(v["actor"], "Chance");
    assert_eq!(
        v["legal"].as_array().unwrap().len(),
        30,
        "30 primauté throws"
    );
    g.apply(&g.parse_action("W4 B2").unwrap()).unwrap();
    let v = serde_json::to_value(g.view()).unwrap();
    assert_eq!(v["roll"], "4-2");
    let legal = v["legal"].as_array().unwrap();
    let names: Vec<&str> = legal
        .iter()
        .map(|a| a["notation"].as_str().unwrap())
        .collect();
    let expected: Vec<String> = g
        .legal_actions()
        .iter()
        .map(|a| g.format_action(a))
        .collect();
    assert_eq!(names, expected);
    // 4-2 from the talons: two dames (1-5,1-3), one dame tout à bas in either order, or
    // tout d'une with either rest (n°29–30).
    assert_eq!(
        names,
        vec!["1-5,1-3", "1-5,5-7", "1-3,3-7", "1-5-7", "1-3-7"]
    );
    assert_eq!(legal[3]["paths"], serde_json::json!([[1, 5, 7]]));
    assert_eq!(legal[0]["paths"], serde_json::json!([[1, 5], [1, 3]]));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Position notation round trip: any board with at most 15 dames a side.
    #[test]
    fn position_notation_round_trip(cells in prop::collection::vec((0u8..=3, 0u8..=4), 24)) {
        let mut b = tablier_trictrac::Board::empty();
        let mut n = [0u8; 2];
        for (i, &(who, k)) in cells.iter().enumerate() {
            let side = match who { 1 => Side::White, 2 => Side::Black, _ => continue };
            if k == 0 || n[side.index()] + k > 15 { continue; }
            n[side.index()] += k;
            b.set(i as u8 + 1, side, k);
        }
        let text = b.to_string();
        prop_assert_eq!(tablier_trictrac::Board::parse(&text).unwrap(), b);
        prop_assert_eq!(b.off(Side::White), 15 - n[0]);
    }
}

#[test]
fn random_ecoles_games_make_claim_and_decline_ecoles() {
    let games: Vec<Trictrac> = (0..8)
        .map(|seed| random_game(seed, true, false, 20_000))
        .collect();
    let records: Vec<String> = games.iter().map(Trictrac::record).collect();
    for action in [
        "\"claim\"",
        "\"decline\"",
        "\"go\"",
        "\"stay\"",
        "\"erase\"",
        "\"oblige\"",
        "\"ecole ",
        "\"warn ",
    ] {
        assert!(
            records.iter().any(|r| r.contains(action)),
            "{action} never played"
        );
    }
    for (g, r) in games.iter().zip(&records) {
        assert!(Trictrac::replay(r).unwrap() == *g);
    }
}

/// Games stored under the first edition of the rules (bearing off the last dame a duty, its
/// points among the throw's gains, going or staying decided before the play) replay exactly
/// from records whose header names no edition, as they were written before the second
/// edition; read as second-edition games they would not. The games are random, in the
/// first edition, until one has a sortie whose points made a hole (so the record has a
/// go/stay before the play that bears off); the second edition is checked the same way.
#[test]
fn first_edition_records_replay_under_their_rules() {
    use tablier_trictrac::{Edition, EventKind};
    for edition in [Edition::First, Edition::Second] {
        let options = Options {
            edition,
            ..Options::default()
        };
        let mut found = None;
        'games: for seed in 0..400u64 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut dice = SeededDice::from_seed(rng.gen());
            let mut g = Trictrac::new(options);
            for _ in 0..3000 {
                let sortie_hole = g.phase() == Phase::Decide
                    && match edition {
                        Edition::First => g
                            .roll_score()
                            .is_some_and(|s| s.of(EventKind::Sortie).next().is_some()),
                        Edition::Second => g.sortie_marked(),
                    };
                let a = match g.actor() {
                    Actor::Chance => g.chance_action(&mut dice).unwrap(),
                    // Staying always: going starts the relevé again, away from a sortie.
                    Actor::Player(_) if sortie_hole || g.phase() == Phase::Decide => Action::Stay,
                    Actor::Player(_) => {
                        let legal = g.legal_actions();
                        // Bear off whenever one can, so that sorties come often.
                        let off = g.roll_score().and_then(|s| {
                            s.plays
                                .legal
                                .iter()
                                .find(|c| c.end.on_board(g.roller()) == 0)
                                .map(|c| Action::Play(c.play.clone()))
                        });
                        match off {
                            Some(a) if legal.contains(&a) => a,
                            _ => legal[rng.gen_range(0..legal.len())].clone(),
                        }
                    }
                    Actor::Nobody => break,
                };
                g.apply(&a).unwrap();
                if sortie_hole {
                    found = Some(g);
                    break 'games;
                }
            }
        }
        let g = found.expect("a sortie that makes a hole within 400 random games");
        let record = g.record();
        let header = record.lines().next().unwrap();
        if edition == Edition::First {
            // Written as the first edition wrote it: no edition in the header.
            let old = record.replacen(",\"edition\":\"First\"", "", 1);
            assert!(!old.lines().next().unwrap().contains("edition"), "{header}");
            assert_eq!(Trictrac::replay(&old).unwrap(), g);
            let as_second = old.replacen("}}", ",\"edition\":\"Second\"}}", 1);
            assert!(
                Trictrac::replay(&as_second).map_or(true, |r| r != g),
                "the second edition reads the record otherwise"
            );
        } else {
            assert!(header.contains("\"edition\":\"Second\""), "{header}");
            assert_eq!(Trictrac::replay(&record).unwrap(), g);
        }
    }
}

/// A partie started from a position (the web's "start from a position") records it in its
/// header and replays from it; a record from the start has no such field.
#[test]
fn a_partie_from_a_position_replays_from_it() {
    let board: tablier_trictrac::Board =
        "1W2-2W1-3W2-6W1-7W1-8W2-10W2-11W2-12W2-13B2-15B3-17B3-18B1-19B1-20B1-21B1-22B1-23B1-24B1"
            .parse()
            .unwrap();
    let mut g = Trictrac::from_position(Options::default(), board, Marker::new(), Side::Black);
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut dice = SeededDice::from_seed(rng.gen());
    for _ in 0..300 {
        match g.actor() {
            Actor::Nobody => break,
            Actor::Chance => {
                let a = g.chance_action(&mut dice).unwrap();
                g.apply(&a).unwrap();
            }
            Actor::Player(_) => {
                let legal = g.legal_actions();
                let a = legal[rng.gen_range(0..legal.len())].clone();
                g.apply(&a).unwrap();
            }
        }
    }
    let record = g.record();
    assert!(
        record.lines().next().unwrap().contains("\"start\""),
        "{record}"
    );
    let replayed = Trictrac::replay(&record).unwrap();
    assert!(replayed == g);
    let fresh = Trictrac::new(Options::default()).record();
    assert!(!fresh.contains("\"start\""), "{fresh}");
}
