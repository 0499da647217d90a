//! `tablier match` against a DXP follower over real TCP (our own `tablier dxp --listen`, the
//! same protocol Scan 2.0 and Moby Dam speak): balloted openings played with both colours,
//! endgame-table adjudication reported as such, the PDN of every game, and a results file
//! that a later run goes on from (and that a run under other settings refuses).

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};

use tablier_test_support::process::output_text as text;

const TABLIER: &str = env!("CARGO_BIN_EXE_tablier");

/// A follower on a free port, thinking 20 ms a move; killed when dropped.
struct Follower {
    child: Child,
    addr: String,
}

impl Follower {
    fn start() -> Follower {
        let mut child = Command::new(TABLIER)
            .args([
                "dxp",
                "--listen",
                "127.0.0.1:0",
                "--move-time",
                "0.02",
                "--tables",
                "0",
            ])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut first = String::new();
        let mut out = BufReader::new(child.stdout.take().unwrap());
        out.read_line(&mut first).unwrap();
        // The follower prints each game's result: its output is read to the end.
        std::thread::spawn(move || std::io::copy(&mut out, &mut std::io::sink()));
        let addr = first
            .trim()
            .rsplit(' ')
            .next()
            .unwrap_or_else(|| panic!("no address in {first:?}"))
            .to_string();
        Follower { child, addr }
    }
}

impl Drop for Follower {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn tablier_match(f: &Follower, games: &str, dir: &Path, extra: &[&str]) -> Output {
    let opponent = format!("dxp://{}", f.addr);
    let results = dir.join("results.jsonl");
    let pdn = dir.join("games.pdn");
    let mut args = vec![
        "match".to_string(),
        "--opponent".into(),
        opponent,
        "--games".into(),
        games.into(),
        "--move-time".into(),
        "0.02".into(),
        "--adjudicate".into(),
        "--results".into(),
        results.display().to_string(),
        "--pdn".into(),
        pdn.display().to_string(),
    ];
    args.extend(extra.iter().map(|s| s.to_string()));
    Command::new(TABLIER).args(&args).output().unwrap()
}

#[test]
fn a_dxp_match_keeps_its_games_and_goes_on_from_them() {
    let dir = std::env::temp_dir().join(format!("tablier-dxp-match-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let follower = Follower::start();

    let first = tablier_match(&follower, "2", &dir, &[]);
    assert!(first.status.success(), "{}", text(&first));
    let out = String::from_utf8_lossy(&first.stdout).to_string();
    assert!(out.contains("tablier vs tablier"), "{out}");
    assert!(out.contains(": 2 games (international"), "{out}");
    let results = std::fs::read_to_string(dir.join("results.jsonl")).unwrap();
    assert_eq!(
        results.lines().count(),
        3,
        "a header and two games: {results}"
    );
    assert!(results
        .lines()
        .nth(1)
        .unwrap()
        .contains("\"first_white\":true"));
    assert!(results
        .lines()
        .nth(2)
        .unwrap()
        .contains("\"first_white\":false"));

    // Two more openings: only the new games are played; the score counts all four.
    let second = tablier_match(&follower, "4", &dir, &[]);
    assert!(second.status.success(), "{}", text(&second));
    let err = String::from_utf8_lossy(&second.stderr);
    assert!(err.contains("2 games already in"), "{err}");
    let out = String::from_utf8_lossy(&second.stdout).to_string();
    assert!(out.contains(": 4 games (international"), "{out}");
    let results = std::fs::read_to_string(dir.join("results.jsonl")).unwrap();
    assert_eq!(results.lines().count(), 5, "{results}");
    let (w, d, l) = score(&out);
    assert_eq!(w + d + l, 4, "{out}");

    // Every game is in the PDN, each replays by the rules from its balloted position, and
    // its termination says how it ended (adjudications included).
    let pdn = std::fs::read_to_string(dir.join("games.pdn")).unwrap();
    assert_eq!(pdn.matches("[Event \"tablier match\"]").count(), 4, "{pdn}");
    assert_eq!(pdn.matches("[FEN ").count(), 4, "balloted starts: {pdn}");
    let replay = Command::new(TABLIER)
        .args(["draughts", "replay"])
        .arg(dir.join("games.pdn"))
        .output()
        .unwrap();
    assert!(replay.status.success(), "{}", text(&replay));
    let adjudicated = results.matches("\"adjudicated\":true").count();
    assert_eq!(
        pdn.matches("[Termination \"adjudicated: ").count(),
        adjudicated,
        "{pdn}"
    );

    // Another time control: the file is not mixed with.
    let other = tablier_match(&follower, "4", &dir, &["--time-per-game-min", "3"]);
    assert!(!other.status.success());
    assert!(
        text(&other).contains("holds the games of another match"),
        "{}",
        text(&other)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Wins, draws and losses from the `+W =D -L` line.
fn score(out: &str) -> (u32, u32, u32) {
    let line = out
        .lines()
        .find(|l| l.starts_with('+'))
        .unwrap_or_else(|| panic!("no score line: {out}"));
    let mut it = line
        .split_whitespace()
        .take(3)
        .map(|t| t[1..].parse::<u32>().unwrap());
    (it.next().unwrap(), it.next().unwrap(), it.next().unwrap())
}

/// Ctrl-C in the middle of a game ends that game with the follower (a GAMEEND before the
/// connection closes): Moby Dam keeps a game going over a lost connection and refused the next
/// run's GAMEREQ until it was restarted. The follower here is a scripted one on a real socket
/// that accepts the game and never answers a move, so the runner is always inside a game.
#[test]
fn ctrl_c_ends_the_game_with_the_follower_before_closing() {
    use std::io::{Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let dir = std::env::temp_dir().join(format!("tablier-dxp-ctrlc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut child = Command::new(TABLIER)
        .args([
            "match",
            "--opponent",
            &format!("dxp://{addr}"),
            "--games",
            "2",
        ])
        .args(["--move-time", "0.02", "--tables", "0", "--results"])
        .arg(dir.join("results.jsonl"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (mut peer, _) = listener.accept().unwrap();
    peer.set_read_timeout(Some(std::time::Duration::from_secs(20)))
        .unwrap();
    // Everything the runner sends, as NUL-ended messages.
    let mut heard = Vec::new();
    let mut buf = [0u8; 512];
    let mut messages = |heard: &mut Vec<u8>, peer: &mut std::net::TcpStream| {
        let n = peer.read(&mut buf).unwrap_or(0);
        heard.extend_from_slice(&buf[..n]);
        n
    };
    while !heard.contains(&0) {
        assert!(messages(&mut heard, &mut peer) > 0, "no GAMEREQ");
    }
    assert_eq!(heard[0], b'R', "{:?}", String::from_utf8_lossy(&heard));
    let mut acc = format!("A{:<32}0", "scripted").into_bytes();
    acc.push(0);
    peer.write_all(&acc).unwrap();
    // The runner plays White in the first game: its first move, then Ctrl-C.
    while !String::from_utf8_lossy(&heard).contains("\0M") {
        assert!(messages(&mut heard, &mut peer) > 0, "no move");
    }
    let interrupt = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(interrupt.success());
    while messages(&mut heard, &mut peer) > 0 {}
    child.wait().unwrap();
    let said: Vec<String> = heard
        .split(|b| *b == 0)
        .map(|m| String::from_utf8_lossy(m).into_owned())
        .collect();
    assert!(
        said.iter().any(|m| m == "E00"),
        "no GAMEEND (reason 0, stop 0) before the close: {said:?}"
    );
    let results = std::fs::read_to_string(dir.join("results.jsonl")).unwrap_or_default();
    assert!(
        results.lines().count() <= 1,
        "the game cut short is not counted: {results}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A divisor of the late-move reductions that is not a number from 0.5 to 100 is refused
/// before any game is played.
#[test]
fn a_bad_lmr_divisor_is_refused() {
    for bad in ["NaN", "0.1", "1000", "inf"] {
        for flag in ["--lmr-divisor", "--opponent-lmr-divisor"] {
            let out = Command::new(TABLIER)
                .args([
                    "match",
                    "--opponent",
                    "tablier",
                    "--games",
                    "2",
                    "--depth",
                    "1",
                ])
                .args([flag, bad])
                .output()
                .unwrap();
            assert!(!out.status.success(), "{flag} {bad}");
            assert!(
                text(&out).contains("must be between 0.5 and 100"),
                "{flag} {bad}: {}",
                text(&out)
            );
        }
    }
}

/// Time settings that no engine can keep, or that a DXP match cannot use, and pondering
/// against anything but a DXP follower, are refused with a reason before any game is played.
#[test]
fn bad_clock_and_time_plan_settings_are_refused() {
    let cases: &[(&[&str], &str)] = &[
        (&["--soft-share", "NaN"], "must be between 0.05 and 3"),
        (&["--soft-share", "0"], "must be between 0.05 and 3"),
        (
            &["--opponent-soft-share", "10"],
            "must be between 0.05 and 3",
        ),
        (&["--clock-seconds", "0"], "--clock-seconds must be between"),
        (
            &["--clock-seconds", "inf"],
            "--clock-seconds must be between",
        ),
        (
            &["--clock-seconds", "NaN"],
            "--clock-seconds must be between",
        ),
        (
            &["--clock-seconds", "10", "--depth", "2"],
            "without --depth or --move-time",
        ),
        (
            &["--clock-seconds", "10", "--move-time", "0.1"],
            "without --depth or --move-time",
        ),
        (
            &["--clock-seconds", "10", "--opponent", "dxp://127.0.0.1:9"],
            "the clock is --time-per-game-min",
        ),
        (&["--time-plan", "sometimes"], "invalid value 'sometimes'"),
        (&["--ponder"], "--ponder is for a DXP follower"),
    ];
    for (extra, reason) in cases {
        let opponent: &[&str] = if extra.contains(&"--opponent") {
            &[]
        } else {
            &["--opponent", "tablier"]
        };
        let out = Command::new(TABLIER)
            .args(["match", "--games", "2"])
            .args(opponent)
            .args(*extra)
            .output()
            .unwrap();
        assert!(!out.status.success(), "{extra:?}");
        assert!(text(&out).contains(reason), "{extra:?}: {}", text(&out));
        assert!(
            !text(&out).contains("panicked"),
            "{extra:?}: {}",
            text(&out)
        );
    }
}
