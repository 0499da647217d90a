//! `tablier ubgi` speaks UBGI (the Universal Backgammon Interface, draft 0.01) on
//! stdin/stdout, and `tablier bench ubgi` drives two UBGI engines through money games with
//! duplicate dice: against itself, against GNU Backgammon's nets behind the
//! `gnubg_ubgi.py` adapter (PyPI gnubg-nn, an engine nobody here wrote), and against an
//! engine that answers nonsense (every game forfeited, reported, the run finished).

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};

use tablier_backgammon::notation;
use tablier_backgammon::xgid::Xgid;
use tablier_backgammon::Roll;

const TABLIER: &str = env!("CARGO_BIN_EXE_tablier");

/// A `tablier ubgi` session: each request line and the lines it answers.
struct Session {
    child: std::process::Child,
    input: std::process::ChildStdin,
    output: BufReader<std::process::ChildStdout>,
}

impl Session {
    fn start(args: &[&str]) -> Session {
        let mut child = Command::new(TABLIER)
            .arg("ubgi")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("tablier ubgi starts");
        let input = child.stdin.take().unwrap();
        let output = BufReader::new(child.stdout.take().unwrap());
        Session {
            child,
            input,
            output,
        }
    }

    fn ask(&mut self, line: &str) -> String {
        writeln!(self.input, "{line}").unwrap();
        self.input.flush().unwrap();
        self.line()
    }

    fn line(&mut self) -> String {
        let mut s = String::new();
        assert!(self.output.read_line(&mut s).unwrap() > 0, "ubgi stopped");
        s.trim_end_matches('\n').to_string()
    }
}

/// The play a reply names, checked against the legal plays of the XGID's position and roll.
fn assert_legal(xgid: &str, reply: &str) {
    let x = Xgid::parse(xgid).unwrap();
    let tablier_backgammon::xgid::XgDice::Rolled(a, b) = x.dice else {
        panic!("{xgid} has no dice");
    };
    let numbers: Vec<u8> = reply
        .split(['/', ' '])
        .map(|t| t.parse().unwrap_or_else(|_| panic!("{reply:?}")))
        .collect();
    assert!(numbers.len().is_multiple_of(2), "{reply:?}");
    let hops: Vec<(u8, u8)> = numbers.chunks(2).map(|c| (c[0], c[1])).collect();
    // Written out hop by hop: each hop is one die.
    for &(from, to) in &hops {
        let d = from - to;
        assert!(
            d == a || d == b || to == 0,
            "{reply:?} is not written hop by hop"
        );
    }
    notation::play_from_hops(&x.position_on_turn(), Roll::new(a, b).unwrap(), &hops)
        .unwrap_or_else(|e| panic!("{reply:?} to {xgid}: {e}"));
}

#[test]
fn a_ubgi_session() {
    let mut s = Session::start(&["--level", "3"]);
    writeln!(s.input, "ubgi").unwrap();
    s.input.flush().unwrap();
    assert_eq!(s.line(), "id name tablier");
    assert!(s.line().starts_with("id author "));
    assert!(s.line().starts_with("id version "));
    assert_eq!(s.line(), "readyok");
    assert_eq!(s.ask("isready"), "readyok");

    // Opening rolls, for both players (turn 1 and -1).
    for xgid in [
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:3:0:10",
        "XGID=-b----E-C---eE---c-e----B-:0:0:-1:65:0:0:3:0:10",
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:44:0:0:3:0:10",
        // On the bar against a 5-point board: 6-1 enters on the 1-point... of 24.
        "XGID=-b----E-C---eE---b-db---AA:0:0:1:61:0:0:3:0:10",
    ] {
        let reply = s.ask(xgid);
        assert_legal(xgid, &reply);
    }
    // On the bar against a closed board: a blank line.
    assert_eq!(
        s.ask("XGID=------N-----c------bbbbbbA:0:0:1:66:0:0:3:0:10"),
        ""
    );
    // The cube: before the dice, double or roll; a double offered, take or drop.
    let before = s.ask("XGID=-CCCBBB------------cccbbb-:0:0:1:00:3:5:0:7:10");
    assert!(before == "double" || before == "roll", "{before:?}");
    // Bottom, 48 pips against 57, on roll, has doubled: top answers (a double, take).
    let answer = s.ask("XGID=-CCCBBB------------cccbbb-:0:0:1:D:3:5:0:7:10");
    assert!(answer == "take" || answer == "drop", "{answer:?}");
    // The last roll: bottom bears off its checkers on the 1 and 4 points with 29 rolls of 36
    // (81%), top's last checker is off next turn. Past the take point: double, and drop.
    assert_eq!(
        s.ask("XGID=-A--A-------------------a-:0:0:1:00:0:0:0:0:10"),
        "double"
    );
    assert_eq!(
        s.ask("XGID=-A--A-------------------a-:0:0:1:D:0:0:0:0:10"),
        "drop"
    );
    // gnubg's FIBS rawboard line is read too.
    let board = "board:gnubg:root:3:0:0:0:-2:0:0:0:0:5:0:3:0:0:1:-5:4:0:0:0:-3:0:-5:0:0:0:1:1:0:-1:5:2:5:2:1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:1";
    let reply = s.ask(board);
    assert!(!reply.is_empty() && reply != "sorry", "{reply:?}");

    // What is not UBGI gets a polite `sorry`, and the session goes on.
    assert_eq!(s.ask("go depth 3"), "sorry");
    assert_eq!(
        s.ask("XGID=-b----E-C---eE---c-e----B-:0:0:1:71:0:0:3:0:10"),
        "sorry"
    );
    assert_eq!(s.ask("XGID=nonsense"), "sorry");
    assert_eq!(s.ask("board:1:2:3"), "sorry");
    assert_eq!(s.ask("isready"), "readyok");

    writeln!(s.input, "quit").unwrap();
    s.input.flush().unwrap();
    assert!(s.child.wait().unwrap().success());
}

fn bench_ubgi(args: &[&str]) -> String {
    let out = Command::new(TABLIER)
        .args(["bench", "ubgi", "--quiet"])
        .args(args)
        .output()
        .expect("tablier bench ubgi runs");
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success(),
        "{args:?}: {stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// `… won W, lost L, points P, …`: the games won and lost.
fn won_lost(report: &str) -> (u32, u32) {
    let number_after = |key: &str| -> u32 {
        let at = report
            .find(key)
            .unwrap_or_else(|| panic!("{key} in {report}"));
        report[at + key.len()..]
            .split(|c: char| !c.is_ascii_digit())
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    (number_after("won "), number_after("lost "))
}

#[test]
fn the_driver_plays_our_engine_against_itself_with_the_cube() {
    let tablier = format!("{TABLIER} ubgi --level 3");
    let opponent = format!("{TABLIER} ubgi --level 0 --seed 5");
    let report = bench_ubgi(&[
        "--engine",
        &tablier,
        "--opponent",
        &opponent,
        "--games",
        "4",
        "--seed",
        "7",
    ]);
    assert!(report.contains("4 games (2 duplicate pairs)"), "{report}");
    let (w, l) = won_lost(&report);
    assert_eq!(w + l, 4, "{report}");
    assert!(!report.contains("forfeit"), "{report}");
}

#[test]
fn the_driver_plays_our_engine_against_gnubg() {
    let python = tablier_test_support::python::gnubg();
    let adapter =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../backgammon-engine/oracle/gnubg_ubgi.py");
    let gnubg = format!("{} {}", python.display(), adapter.display());
    let tablier = format!("{TABLIER} ubgi --level 3");
    let report = bench_ubgi(&[
        "--engine",
        &tablier,
        "--opponent",
        &gnubg,
        "--games",
        "4",
        "--no-cube",
        "--seed",
        "3",
    ]);
    assert!(
        report.starts_with("tablier against gnubg-nn 0-ply"),
        "{report}"
    );
    let (w, l) = won_lost(&report);
    assert_eq!(w + l, 4, "{report}");
    assert!(!report.contains("forfeit"), "{report}");
}

#[test]
fn an_engine_that_answers_nonsense_forfeits_every_game() {
    // The driver runs each engine's command line through `sh -c`.
    let nonsense = "while read l; do case $l in ubgi) echo 'id name nonsense'; echo readyok;; \
                    *) echo '24/1';; esac; done";
    let tablier = format!("{TABLIER} ubgi --level 3");
    let report = bench_ubgi(&[
        "--engine",
        &tablier,
        "--opponent",
        nonsense,
        "--games",
        "2",
        "--seed",
        "1",
    ]);
    assert_eq!(won_lost(&report), (2, 0), "{report}");
    assert!(
        report.contains("forfeits: 0 by tablier, 2 by nonsense"),
        "{report}"
    );
}
