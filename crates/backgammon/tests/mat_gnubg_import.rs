//! Our `.mat` files load in GNU Backgammon and replay there to the same results.
//!
//! Matches are played here by a random player (seeded dice from `SeededDice`, random legal
//! actions with doubles, takes, drops and resignations mixed in), written with
//! `record::to_mat`, and imported by Debian's gnubg (`import mat`, which replays every move
//! under gnubg's rules; `tests/oracle/gnubg_import_mat.py`). Each game's winner, points,
//! resignation, starting score and number of entries must be what our rules gave.
//!
//! Needs `/usr/games/gnubg` (Debian package `gnubg`, installed by `.ci/run`); without it the
//! test fails, it never passes silently.

use std::path::Path;
use std::process::Command;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;
use tablier_backgammon::game::{Action, Match, Options, Phase};
use tablier_backgammon::record;
use tablier_core::{Actor, Game, SeededDice};

/// Plays a whole match (or money game) with random legal actions.
fn random_match(options: Options, seed: u64) -> Vec<Action> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut seed_bytes = [0u8; 32];
    rng.fill(&mut seed_bytes);
    let mut dice = SeededDice::from_seed(seed_bytes);
    let mut m = Match::new(options);
    let mut actions = Vec::new();
    while m.actor() != Actor::Nobody {
        let a = match m.roll_chance(&mut dice) {
            Some(a) => a,
            None => {
                let legal = m.legal_actions();
                let pick = |rng: &mut ChaCha8Rng, f: &dyn Fn(&Action) -> bool| {
                    let v: Vec<&Action> = legal.iter().filter(|a| f(a)).collect();
                    (!v.is_empty()).then(|| *v[rng.gen_range(0..v.len())])
                };
                let r: f64 = rng.gen();
                match m.phase() {
                    Phase::BeforeRoll if r < 0.002 => Action::Resign(
                        [
                            tablier_backgammon::game::WinKind::Single,
                            tablier_backgammon::game::WinKind::Gammon,
                        ][rng.gen_range(0..2)],
                    ),
                    Phase::BeforeRoll if r < 0.06 && legal.contains(&Action::Double) => {
                        Action::Double
                    }
                    Phase::BeforeRoll => Action::Roll,
                    Phase::Doubled if r < 0.75 => Action::Take,
                    Phase::Doubled => Action::Drop,
                    Phase::Resigning { .. } if r < 0.7 => Action::Accept,
                    Phase::Resigning { .. } => Action::Reject,
                    _ => pick(&mut rng, &|a| matches!(a, Action::Play(_))).expect("a play"),
                }
            }
        };
        m.apply(&a).unwrap();
        actions.push(a);
    }
    actions
}

#[test]
fn our_mat_files_replay_in_gnubg_to_the_same_results() {
    let gnubg = Path::new("/usr/games/gnubg");
    assert!(
        gnubg.exists(),
        "GNU Backgammon is needed: apt-get install gnubg (see .ci/run)"
    );
    let dir = std::env::temp_dir().join(format!("tablier-mat-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut files = Vec::new();
    let mut expected = Vec::new();
    let cases = [(5, 1), (7, 2), (9, 3), (3, 4), (11, 5)];
    for (length, seed) in cases {
        let options = Options::match_to(length);
        let actions = random_match(options, seed);
        let file = record::to_mat(options, ["alice", "bob"], &actions).unwrap();
        let name = format!("random_{length}pt_{seed}.mat");
        let path = dir.join(&name);
        std::fs::write(&path, file.to_string()).unwrap();
        files.push(path.display().to_string());
        // What our rules say of each game.
        let replayed = record::replay_mat(&file, options).unwrap();
        let results = replayed.last.results().to_vec();
        assert_eq!(results.len(), file.games.len());
        for (g, r) in file.games.iter().zip(&results) {
            expected.push((name.clone(), g.clone(), *r));
        }
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/oracle/gnubg_import_mat.py");
    let out = Command::new(gnubg)
        .args(["-t", "-q", "-r", "-p"])
        .arg(&script)
        .env("TABLIER_MAT_FILES", files.join(":"))
        .stdin(std::process::Stdio::null())
        .output()
        .expect("gnubg runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let games: Vec<Value> = text
        .lines()
        .filter_map(|l| l.strip_prefix("GAME "))
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        games.len(),
        expected.len(),
        "gnubg read {} games, we wrote {}:\n{text}\n{}",
        games.len(),
        expected.len(),
        String::from_utf8_lossy(&out.stderr)
    );
    // gnubg warns `Invalid move: "..." encountered` and carries on when a play is illegal.
    let all = format!("{text}{}", String::from_utf8_lossy(&out.stderr));
    assert!(
        !all.contains("Invalid move"),
        "gnubg refused a play:\n{all}"
    );
    let names = ["alice", "bob"];
    for (theirs, (file, game, ours)) in games.iter().zip(&expected) {
        let what = format!("{file} game {}: gnubg {theirs}", game.number);
        assert_eq!(theirs["file"], file.as_str(), "{what}");
        assert_eq!(theirs["winner"], names[ours.winner.index()], "{what}");
        assert_eq!(theirs["points"], ours.points, "{what}");
        assert_eq!(theirs["resigned"], ours.resigned, "{what}");
        assert_eq!(theirs["score"]["alice"], game.scores[0], "{what}");
        assert_eq!(theirs["score"]["bob"], game.scores[1], "{what}");
        assert_eq!(
            theirs["moves"],
            game.turns.len() + usize::from(ours.resigned),
            "{what}"
        );
    }
    eprintln!(
        "{} games of {} matches replayed in gnubg with the same results",
        games.len(),
        cases.len()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn gnubgs_own_matches_end_on_the_gnubg_id_gnubg_gives() {
    let gnubg = Path::new("/usr/games/gnubg");
    assert!(
        gnubg.exists(),
        "GNU Backgammon is needed: apt-get install gnubg (see .ci/run)"
    );
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let cases = [
        ("gnubg_selfplay_5pt.mat", 5),
        ("gnubg_selfplay_7pt.mat", 7),
        ("gnubg_selfplay_9pt.mat", 9),
    ];
    let files: Vec<String> = cases
        .iter()
        .map(|(f, _)| data.join(f).display().to_string())
        .collect();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/oracle/gnubg_import_mat.py");
    let out = Command::new(gnubg)
        .args(["-t", "-q", "-r", "-p"])
        .arg(&script)
        .env("TABLIER_MAT_FILES", files.join(":"))
        .stdin(std::process::Stdio::null())
        .output()
        .expect("gnubg runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let finals: Vec<Value> = text
        .lines()
        .filter_map(|l| l.strip_prefix("FINAL "))
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(finals.len(), cases.len(), "{text}");
    for ((name, length), theirs) in cases.iter().zip(&finals) {
        let file = tablier_backgammon::mat::MatchFile::parse(
            &std::fs::read_to_string(data.join(name)).unwrap(),
        )
        .unwrap();
        let r = record::replay_mat(&file, Options::match_to(*length)).unwrap();
        assert_eq!(theirs["gnubgid"], record::gnubg_id(&r.last), "{name}");
    }
}
