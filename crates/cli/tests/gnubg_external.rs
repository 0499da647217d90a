//! End to end: Debian's GNU Backgammon (`/usr/games/gnubg`, installed by `.ci/run`) hosts a
//! 3-point match against `tablier gnubg-external` through gnubg's external-player interface
//! (`set player 0 external 127.0.0.1:PORT`), gnubg playing at 0-ply. The match must finish,
//! tablier must have answered gnubg's board lines, and the match gnubg exports must replay
//! under our rules to the same winner and score. Every score tablier read from gnubg's lines
//! must be one the games of that match started from, seen from tablier's seat (gnubg writes
//! the scores by seat, not as FIBS would: read the FIBS way, they came out swapped).

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use tablier_backgammon::game::Options;
use tablier_backgammon::mat::MatchFile;
use tablier_backgammon::record::replay_mat;

const GNUBG: &str = "/usr/games/gnubg";

#[test]
fn gnubg_hosts_a_3_point_match_against_tablier() {
    assert!(
        Path::new(GNUBG).exists(),
        "{GNUBG} is missing: install Debian's gnubg (`apt-get install gnubg`, as .ci/run does)"
    );
    // A match can end in its first game (a gammon on a doubled cube), where no score but 0-0
    // is ever read: the dice of the next seed are thrown until a match of two games or more
    // has shown tablier an unequal score.
    let mut tried = Vec::new();
    for seed in ["11", "12", "13", "14"] {
        let games = host_a_3_point_match(seed);
        if games >= 2 {
            return;
        }
        tried.push(seed);
    }
    panic!("every match ended in its first game (seeds {tried:?})");
}

/// gnubg hosts one 3-point match with the dice of `seed` and every check is made on it but
/// the one that needs two games; returns the number of games.
fn host_a_3_point_match(seed: &str) -> usize {
    let dir = std::env::temp_dir().join(format!("tablier-gnubg-ext-{}-{seed}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mat = dir.join("match.mat");

    let mut server = Command::new(env!("CARGO_BIN_EXE_tablier"))
        .args(["gnubg-external", "--port", "0", "--once", "--verbose"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tablier starts");
    let mut first = String::new();
    BufReader::new(server.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    let port = first
        .trim()
        .rsplit(':')
        .next()
        .and_then(|p| p.parse::<u16>().ok())
        .unwrap_or_else(|| panic!("no address announced: {first:?}"));

    let script =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bg_external/gnubg_hosts_match.py");
    let started = Instant::now();
    let mut gnubg = Command::new(GNUBG)
        .args(["-t", "-q", "-r", "-p"])
        .arg(&script)
        .env("EXT_PORT", port.to_string())
        .env("MATCH_LEN", "3")
        .env("SEED", seed)
        .env("MAT_OUT", &mat)
        .current_dir(&dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("gnubg starts");
    let gnubg_out = gnubg.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut BufReader::new(gnubg_out), &mut s);
        s
    });
    while gnubg.try_wait().unwrap().is_none() {
        if started.elapsed() > Duration::from_secs(150) {
            let _ = gnubg.kill();
            let _ = server.kill();
            panic!("the match took more than 150 s");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let out = reader.join().unwrap();
    let server_out = server.wait_with_output().unwrap();
    let log = String::from_utf8_lossy(&server_out.stderr);
    assert!(server_out.status.success(), "tablier failed: {log}");
    assert!(!log.contains("refused"), "tablier refused a line: {log}");
    let decisions: u32 = log
        .lines()
        .find_map(|l| l.strip_prefix("gnubg disconnected after "))
        .and_then(|l| l.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no decision count in tablier's log: {log}"));
    assert!(decisions >= 10, "only {decisions} decisions");

    // gnubg's own account: the games and who won them.
    let games_line = out
        .lines()
        .find(|l| l.starts_with("RESULT games"))
        .unwrap_or_else(|| panic!("gnubg printed no result: {out}"));
    let text = std::fs::read_to_string(&mat).expect("gnubg exported the match");
    let file = MatchFile::parse(&text).expect("gnubg's .mat parses");
    let replayed =
        replay_mat(&file, Options::match_to(3)).expect("the match replays under our rules");
    let [left, right] = replayed.totals;
    assert!(
        left.max(right) >= 3,
        "the match is not finished: {left}-{right}; gnubg says {games_line}"
    );
    // gnubg's `new match` gives back the default names: player 0 (tablier, the left column
    // of the .mat) is called "gnubg", player 1 (gnubg's own 0-ply player, O, the right
    // column) is named after the user. The winner of the last game reached 3.
    let last_winner = games_line
        .rsplit("('")
        .next()
        .and_then(|w| w.chars().next())
        .expect("a winner");
    assert_eq!(
        last_winner == 'O',
        right >= 3,
        "{games_line} vs {left}-{right}"
    );
    // The scores tablier read, against the ones each game started from (left = tablier).
    let starts: Vec<(u32, u32)> = file
        .games
        .iter()
        .map(|g| (g.scores[0], g.scores[1]))
        .collect();
    let read: std::collections::BTreeSet<(u32, u32)> = log
        .lines()
        .filter_map(|l| l.strip_prefix("== score: tablier "))
        .map(|l| {
            let (a, b) = l.split_once(", opponent ").expect("two scores");
            (a.parse().unwrap(), b.parse().unwrap())
        })
        .collect();
    assert!(
        starts.len() < 2 || read.iter().any(|(a, b)| a != b),
        "no decision at an unequal score: {read:?} (games from {starts:?})"
    );
    for pair in &read {
        assert!(
            starts.contains(pair),
            "tablier read the score {pair:?} (tablier, gnubg); the games started from {starts:?}"
        );
    }
    eprintln!(
        "{} games, {decisions} decisions answered by tablier, final score (left-right) {left}-{right}, {:.1} s; gnubg: {games_line}",
        replayed.games.len(),
        started.elapsed().as_secs_f64()
    );
    let _ = std::fs::remove_dir_all(&dir);
    starts.len()
}

/// `scripts/bg-vs-gnubg.sh`: gnubg hosts one pair of duplicate-dice money games (gnubg at
/// 0-ply, tablier level 3 in each seat); the results file makes the run resumable and
/// refuses other settings.
#[test]
fn duplicate_money_games_hosted_by_gnubg_are_resumable() {
    assert!(Path::new(GNUBG).exists(), "{GNUBG} is missing");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dir = std::env::temp_dir().join(format!("tablier-bg-dup-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let results = dir.join("games.jsonl");
    let run = |plies: &str| {
        let out = Command::new("bash")
            .arg(root.join("scripts/bg-vs-gnubg.sh"))
            .args(["3", plies, "1", "17", "0"])
            .arg(&results)
            .env("TABLIER_BIN", env!("CARGO_BIN_EXE_tablier"))
            .output()
            .expect("bash runs");
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).to_string(),
        )
    };
    let (ok, out) = run("0");
    assert!(ok, "{out}");
    assert!(
        out.contains("RESULT: tablier against gnubg 0-ply, 2 money games (1 duplicate pairs)"),
        "{out}"
    );
    assert!(out.contains("thinking time: tablier"), "{out}");
    let lines = |p: &Path| std::fs::read_to_string(p).unwrap().lines().count();
    // The settings and one line a game.
    assert_eq!(lines(&results), 3);
    let text = std::fs::read_to_string(&results).unwrap();
    let seats: Vec<&str> = text
        .lines()
        .skip(1)
        .map(|l| {
            if l.contains("\"tablier\": 0") {
                "X"
            } else {
                "O"
            }
        })
        .collect();
    assert_eq!(seats, ["X", "O"], "{text}");
    // Again: nothing left to play, the same score.
    let (ok, again) = run("0");
    assert!(ok, "{again}");
    assert_eq!(lines(&results), 3);
    let result = |s: &str| {
        s.lines()
            .find(|l| l.starts_with("RESULT"))
            .map(str::to_string)
    };
    assert_eq!(result(&again), result(&out));
    // Other settings on the same file: refused, the file untouched.
    let (ok, other) = run("1");
    assert!(!ok && other.contains("REFUSED"), "{other}");
    assert_eq!(lines(&results), 3);
    let _ = std::fs::remove_dir_all(&dir);
}
