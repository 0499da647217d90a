//! `.mat` files that GNU Backgammon wrote from matches it played against itself (Debian gnubg
//! 1.07, `tests/oracle/gnubg_selfplay_mat.py`) replay move by move under our rules: every play
//! legal for its dice, every cube action allowed, every game's starting score and result (as
//! gnubg wrote it) the one our rules give.

use std::path::Path;

use tablier_backgammon::game::{Action, Options, Phase};
use tablier_backgammon::mat::{MatAction, MatchFile};
use tablier_backgammon::record;

fn replay(name: &str, options: Options) -> record::Replayed {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name);
    let file = MatchFile::parse(&std::fs::read_to_string(path).unwrap()).unwrap();
    record::replay_mat(&file, options).unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn gnubg_matches_replay_to_their_final_score() {
    for (name, length, final_score) in [
        ("gnubg_selfplay_5pt.mat", 5, None),
        ("gnubg_selfplay_7pt.mat", 7, None),
        ("gnubg_selfplay_9pt.mat", 9, None::<[u32; 2]>),
    ] {
        let r = replay(name, Options::match_to(length));
        let _ = final_score;
        assert_eq!(r.last.phase(), Phase::Over, "{name}: the match is finished");
        assert!(
            r.last.score().contains(&length),
            "{name}: {:?}",
            r.last.score()
        );
        assert_eq!(r.totals, r.last.score());
        let cube_actions = r
            .games
            .iter()
            .flat_map(|g| &g.actions)
            .filter(|a| matches!(a, Action::Double | Action::Take | Action::Drop))
            .count();
        eprintln!(
            "{name}: {} games, {} actions, {cube_actions} cube actions, final score {:?}",
            r.games.len(),
            r.games.iter().map(|g| g.actions.len()).sum::<usize>(),
            r.last.score()
        );
    }
}

#[test]
fn a_gnubg_money_session_replays_game_by_game() {
    let mut options = Options::money();
    options.jacoby = true;
    let r = replay("gnubg_selfplay_money.mat", options);
    assert!(r.games.len() >= 5);
}

/// An entry without its hops: a play may be written with other hops that reach the same
/// position (`bar/20 20/18*` or `bar/23 23/18*`); the replay compares positions.
fn canonical(a: &MatAction) -> String {
    match a {
        MatAction::Roll { dice, .. } => format!("{dice:?}"),
        other => format!("{other:?}"),
    }
}

#[test]
fn written_back_our_records_are_the_same_files() {
    for (name, length) in [
        ("gnubg_selfplay_5pt.mat", 5),
        ("gnubg_selfplay_7pt.mat", 7),
        ("gnubg_selfplay_9pt.mat", 9),
    ] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data")
            .join(name);
        let file = MatchFile::parse(&std::fs::read_to_string(path).unwrap()).unwrap();
        let r = record::replay_mat(&file, Options::match_to(length)).unwrap();
        let actions: Vec<Action> = r.games.iter().flat_map(|g| g.actions.clone()).collect();
        let names = [
            file.games[0].players[0].as_str(),
            file.games[0].players[1].as_str(),
        ];
        let ours = record::to_mat(Options::match_to(length), names, &actions).unwrap();
        assert_eq!(ours.games.len(), file.games.len());
        for (a, b) in ours.games.iter().zip(&file.games) {
            assert_eq!(a.scores, b.scores, "{name} game {}", a.number);
            assert_eq!(a.result, b.result, "{name} game {}", a.number);
            assert_eq!(a.turns.len(), b.turns.len(), "{name} game {}", a.number);
            for (x, y) in a.turns.iter().zip(&b.turns) {
                assert_eq!(x.player, y.player);
                assert_eq!(
                    canonical(&x.action),
                    canonical(&y.action),
                    "{name} game {}",
                    a.number
                );
            }
        }
        // Our file, read back, replays to the very same actions (plays compared by position).
        let text = ours.to_string();
        let again =
            record::replay_mat(&MatchFile::parse(&text).unwrap(), Options::match_to(length))
                .unwrap();
        let again: Vec<Action> = again.games.iter().flat_map(|g| g.actions.clone()).collect();
        assert_eq!(again, actions, "{name}");
    }
}
