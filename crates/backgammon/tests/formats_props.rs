//! Property tests for the formats: random positions and match states survive a round trip
//! through their IDs, XGIDs and `.mat` records survive format → parse, and no parser panics on
//! random text.

use proptest::prelude::*;
use tablier_backgammon::ids::{
    gnubg_id, parse_gnubg_id, CubeOwner, GameState, MatchId, ResignationOffer,
};
use tablier_backgammon::mat::{MatAction, MatGame, MatHop, MatResult, MatTurn, MatchFile};
use tablier_backgammon::xgid::Xgid;
use tablier_backgammon::Position;

/// Up to fifteen checkers per side, never two sides on one point.
fn position() -> impl Strategy<Value = Position> {
    (
        prop::collection::vec((0usize..25, any::<bool>()), 0..31),
        any::<bool>(),
    )
        .prop_map(|(placements, flip)| {
            let mut mover = [0u8; 25];
            let mut opp = [0u8; 25];
            let (mut nm, mut no) = (0, 0);
            for (slot, is_mover) in placements {
                // The opponent's slot `s` (< 24) is the mover's 23 - s.
                if is_mover && nm < 15 && (slot == 24 || opp[23 - slot] == 0) {
                    mover[slot] += 1;
                    nm += 1;
                } else if !is_mover && no < 15 && (slot == 24 || mover[23 - slot] == 0) {
                    opp[slot] += 1;
                    no += 1;
                }
            }
            let p = Position::from_sides(&mover, &opp).expect("built legal");
            if flip {
                p.flip()
            } else {
                p
            }
        })
}

fn match_id() -> impl Strategy<Value = MatchId> {
    (
        (
            0u32..16,
            0u8..4,
            0u8..2,
            0u8..2,
            0u8..5,
            any::<bool>(),
            0u8..4,
        ),
        (
            prop::option::of((1u8..7, 1u8..7)),
            0u16..40,
            any::<bool>(),
            any::<bool>(),
        ),
        (0u16..40, 0u16..40),
    )
        .prop_map(
            |((log, owner, on_roll, turn, state, dbl, resign), (dice, ml, craw, jac), (a, b))| {
                let ml = if ml < 10 { 0 } else { ml };
                MatchId {
                    cube: 1 << log,
                    cube_owner: if owner >= 2 {
                        CubeOwner::Centred
                    } else {
                        CubeOwner::Player(owner)
                    },
                    on_roll,
                    crawford: ml > 0 && craw,
                    game_state: [
                        GameState::NoGame,
                        GameState::Playing,
                        GameState::Over,
                        GameState::Resigned,
                        GameState::Dropped,
                    ][state as usize],
                    turn,
                    double_offered: dbl,
                    resignation: [
                        ResignationOffer::None,
                        ResignationOffer::Single,
                        ResignationOffer::Gammon,
                        ResignationOffer::Backgammon,
                    ][resign as usize],
                    dice,
                    match_length: ml,
                    score: if ml > 0 { [a % ml, b % ml] } else { [a, b] },
                    jacoby: ml == 0 && jac,
                }
            },
        )
}

fn action() -> impl Strategy<Value = MatAction> {
    prop_oneof![
        6 => ((1u8..7, 1u8..7), prop::collection::vec((0u8..26, 0u8..26, any::<bool>()), 0..5))
            .prop_map(|(dice, hops)| MatAction::Roll {
                dice,
                hops: hops.into_iter().map(|(from, to, hit)| MatHop { from, to, hit }).collect(),
            }),
        1 => (1u32..7).prop_map(|k| MatAction::Double(1 << k)),
        1 => Just(MatAction::Take),
        1 => Just(MatAction::Drop),
        1 => (1u32..7).prop_map(|k| MatAction::Beaver(1 << k)),
    ]
}

fn mat_file() -> impl Strategy<Value = MatchFile> {
    (
        0u32..26,
        prop::collection::vec(
            (
                any::<bool>(),
                prop::collection::vec(action(), 0..30),
                prop::option::of((0usize..2, 1u32..9)),
                (0u32..30, 0u32..30),
            ),
            0..4,
        ),
        any::<bool>(),
    )
        .prop_map(|(ml, games, tagged)| MatchFile {
            tags: if tagged {
                vec![
                    "[EventDate \"2026.11.22\"]".into(),
                    "[Site \"here\"]".into(),
                ]
            } else {
                vec![]
            },
            match_length: ml,
            games: games
                .into_iter()
                .enumerate()
                .map(|(i, (right_first, actions, result, scores))| MatGame {
                    number: i as u32 + 1,
                    players: ["gnubg".into(), "Some One".into()],
                    scores: [scores.0, scores.1],
                    turns: actions
                        .into_iter()
                        .enumerate()
                        .map(|(k, action)| MatTurn {
                            player: (k + usize::from(right_first)) % 2,
                            action,
                        })
                        .collect(),
                    result: result.map(|(winner, points)| MatResult { winner, points }),
                })
                .collect(),
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn position_id_round_trip(p in position()) {
        let id = p.position_id();
        prop_assert_eq!(id.len(), 14);
        prop_assert_eq!(Position::from_position_id(&id), Ok(p));
    }

    #[test]
    fn match_id_round_trip(m in match_id()) {
        let id = m.encode();
        prop_assert_eq!(id.len(), 12);
        prop_assert_eq!(MatchId::decode(&id), Ok(m));
    }

    #[test]
    fn gnubg_id_and_xgid_round_trip(p in position(), m in match_id()) {
        let (p2, m2) = parse_gnubg_id(&gnubg_id(&p, &m)).unwrap();
        prop_assert_eq!((p2, m2), (p, m));
        let x = Xgid::from_gnubg(&p, &m);
        let back = Xgid::parse(&x.to_string());
        prop_assert_eq!(back, Ok(x));
        prop_assert_eq!(x.position_on_turn(), p);
    }

    #[test]
    fn mat_round_trip(file in mat_file()) {
        let text = file.to_string();
        let back = MatchFile::parse(&text);
        prop_assert_eq!(back, Ok(file), "{}", text);
    }

    #[test]
    fn parsers_never_panic(s in "\\PC{0,40}", t in "[A-Za-z0-9+/=:-]{0,40}") {
        for text in [&s, &t] {
            let _ = Position::from_position_id(text);
            let _ = MatchId::decode(text);
            let _ = parse_gnubg_id(text);
            let _ = Xgid::parse(text);
            let _ = MatchFile::parse(text);
        }
    }

    #[test]
    fn id_parsers_never_panic_on_near_misses(
        p in "[A-Za-z0-9+/]{14}", m in "[A-Za-z0-9+/]{12}",
        x in "[-a-pA-P]{26}(:[-0-9DBR]{1,3}){9}",
    ) {
        let _ = Position::from_position_id(&p);
        let _ = MatchId::decode(&m);
        let _ = parse_gnubg_id(&format!("{p}:{m}"));
        let _ = Xgid::parse(&x);
    }

    #[test]
    fn mat_parser_never_panics(lines in prop::collection::vec(
        "( ?[0-9]{1,3}\\) )?([1-7][0-7]: )?((bar|off|[0-9]{1,2})[/*()0-9]{0,6} ?){0,4}|Wins [0-9] points|Game [0-9]|[a-z]+ : [0-9]+ +[a-z]+ : [0-9]|Doubles => [0-9]|Takes|Drops",
        0..12,
    )) {
        let text = format!(" 5 point match\n Game 1\n a : 0  b : 0\n{}", lines.join("\n"));
        let _ = MatchFile::parse(&text);
    }
}
