//! Interop tests: programs nobody here wrote drive `tablier dxp` and `tablier hub` through
//! whole games of international draughts.
//!
//! * DXP follower: pydraughts 0.6.7's `DXPEngine` connects to `tablier dxp --listen`, asks
//!   for two games on one connection (colours alternating) and plays random legal moves;
//!   its receiver checks every move of ours against its own Board; in the first game its
//!   `takeback` asks (BACKREQ) to go back three moves (`tests/interop/dxp_initiator.py`).
//! * DXP initiator: pydraughts has no follower, so `tests/interop/dxp_follower.py` builds one
//!   from pydraughts' DXP codec and Board; `tablier dxp --connect` asks it for two games.
//! * Hub: pydraughts' `HubEngine` starts `tablier hub` and plays two games against random
//!   moves (`tests/interop/hub_games.py`).
//! * tablier against tablier over DXP from a set-up position (GAMEREQ with a position), and
//!   a follower fed with refused requests, garbage and an illegal move (no Python).
//!
//! Each checks that no protocol error was seen on either side, that every move was legal
//! (pydraughts' Board for its side, our `Game` for ours), and that the games reached their
//! end or the move cap. Moves take 0.03 s, so each test stays well under a minute.
//!
//! The interpreter is `$TABLIER_PYTHON`, else `<workspace>/.venv/bin/python` (created by
//! `bash scripts/python-env.sh`). Without a working pydraughts 0.6.7 the tests fail; they
//! never pass silently.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::Value;
use tablier_test_support::python::pydraughts as python;

const TABLIER: &str = env!("CARGO_BIN_EXE_tablier");
/// Plies after which a game is ended without result.
const MAX_PLIES: u32 = 200;
/// Seconds per move of our engine.
const MOVE_TIME: &str = "0.03";
/// Options of every `tablier dxp` run: fast moves, a small hash table, the transcript.
const ENGINE_OPTIONS: [&str; 5] = ["--move-time", MOVE_TIME, "--hash", "8", "--transcript"];
/// No test may take longer.
const LIMIT: Duration = Duration::from_secs(90);

fn script(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/interop")
        .join(name)
}

/// A child process whose stdout lines and stderr are collected by threads.
struct Proc {
    name: String,
    child: Child,
    lines: mpsc::Receiver<String>,
    stdout: Vec<String>,
    stderr: Option<std::thread::JoinHandle<String>>,
}

impl Proc {
    fn spawn(name: &str, cmd: &mut Command) -> Proc {
        let mut child = cmd
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("starting {name}: {e}"));
        let out = child.stdout.take().unwrap();
        let mut err = child.stderr.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stderr = std::thread::spawn(move || {
            let mut s = String::new();
            let _ = err.read_to_string(&mut s);
            s
        });
        Proc {
            name: name.to_string(),
            child,
            lines,
            stdout: Vec::new(),
            stderr: Some(stderr),
        }
    }

    /// The next stdout line, within `t`.
    fn line(&mut self, t: Duration) -> String {
        match self.lines.recv_timeout(t) {
            Ok(l) => {
                self.stdout.push(l.clone());
                l
            }
            Err(_) => {
                let _ = self.child.kill();
                panic!("{}: no output line within {t:?}", self.name);
            }
        }
    }

    /// Waits for the exit (killing the process after `t`): success, stdout lines, stderr.
    fn finish(mut self, t: Duration) -> (bool, Vec<String>, String) {
        let deadline = Instant::now() + t;
        let status = loop {
            if let Some(s) = self.child.try_wait().unwrap() {
                break Some(s);
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                let _ = self.child.wait();
                break None;
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        while let Ok(l) = self.lines.recv_timeout(Duration::from_millis(500)) {
            self.stdout.push(l);
        }
        let stderr = self
            .stderr
            .take()
            .and_then(|h| h.join().ok())
            .unwrap_or_default();
        let Some(status) = status else {
            panic!(
                "{} did not finish within {t:?}\nstdout:\n{}\nstderr:\n{}",
                self.name,
                self.stdout.join("\n"),
                tail(&stderr)
            );
        };
        (status.success(), std::mem::take(&mut self.stdout), stderr)
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        // A test that fails half-way leaves no process behind.
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

fn tail(s: &str) -> String {
    let lines: Vec<&str> = s.lines().collect();
    lines[lines.len().saturating_sub(60)..].join("\n")
}

/// The JSON object a script prints last.
fn report(stdout: &[String], who: &str) -> Value {
    let last = stdout
        .iter()
        .rev()
        .find(|l| l.starts_with('{'))
        .unwrap_or_else(|| panic!("{who} printed no JSON report: {stdout:?}"));
    serde_json::from_str(last).unwrap_or_else(|e| panic!("{who}: {e}: {last}"))
}

fn start_follower(extra: &[&str]) -> (Proc, u16) {
    let mut args = vec!["dxp", "--listen", "127.0.0.1:0", "--once"];
    args.extend_from_slice(&ENGINE_OPTIONS);
    args.extend_from_slice(extra);
    let mut p = Proc::spawn("tablier dxp --listen", Command::new(TABLIER).args(&args));
    let first = p.line(Duration::from_secs(30));
    let port = first
        .rsplit(':')
        .next()
        .and_then(|p| p.trim().parse().ok())
        .unwrap_or_else(|| panic!("no port in {first:?}"));
    (p, port)
}

/// `tablier dxp --connect 127.0.0.1:PORT` asking for two games of one minute each.
fn start_initiator(port: &str, extra: &[&str]) -> Proc {
    let addr = format!("127.0.0.1:{port}");
    let mut args = vec![
        "dxp",
        "--connect",
        &addr,
        "--games",
        "2",
        "--time-per-game-min",
        "1",
    ];
    args.extend_from_slice(&ENGINE_OPTIONS);
    args.extend_from_slice(extra);
    Proc::spawn("tablier dxp --connect", Command::new(TABLIER).args(&args))
}

/// The `game N: ...` lines of a tablier run, and their results (2-0, 1-1, 0-2, *).
fn game_results(stdout: &[String]) -> Vec<String> {
    stdout
        .iter()
        .filter(|l| l.starts_with("game "))
        .map(|l| {
            l.split_whitespace()
                .find(|w| matches!(*w, "2-0" | "1-1" | "0-2" | "*"))
                .unwrap_or_else(|| panic!("no result in {l:?}"))
                .to_string()
        })
        .collect()
}

fn assert_no_dxp_error(who: &str, stderr: &str) {
    // The transcript shows chats as `C...`; ours and theirs must not report errors.
    for line in stderr.lines() {
        let l = line.to_lowercase();
        assert!(
            !(l.contains("cerror") || l.contains("error:") || l.contains("bad dxp message")),
            "{who} reported a protocol error: {line}\n{}",
            tail(stderr)
        );
    }
}

#[test]
fn dxp_follower_plays_pydraughts_dxpengine() {
    let py = python();
    let (follower, port) = start_follower(&[]);
    let driver = Proc::spawn(
        "pydraughts DXPEngine",
        Command::new(&py).arg(script("dxp_initiator.py")).args([
            "127.0.0.1".to_string(),
            port.to_string(),
            "2".into(),
            "7".into(),
            MAX_PLIES.to_string(),
        ]),
    );
    let (ok, out, err) = driver.finish(LIMIT);
    assert!(ok, "pydraughts side failed: {out:?}\n{err}");
    let (f_ok, f_out, f_err) = follower.finish(Duration::from_secs(20));
    let r = report(&out, "dxp_initiator.py");
    assert_eq!(
        r["errors"],
        serde_json::json!([]),
        "{r}\nfollower:\n{}",
        tail(&f_err)
    );
    let games = r["games"].as_array().unwrap();
    assert_eq!(games.len(), 2, "{r}");
    assert_eq!(games[0]["took_back"], true, "{r}");
    for (g, colour) in games.iter().zip(["white", "black"]) {
        assert_eq!(g["follower"], colour, "{g}");
        assert!(g["engine_moves"].as_u64().unwrap() >= 5, "{g}");
        let ended = g["ended_by"].as_str().unwrap();
        assert!(matches!(ended, "follower" | "pydraughts" | "cap"), "{g}");
        if ended == "cap" {
            assert_eq!(g["plies"].as_u64(), Some(u64::from(MAX_PLIES)), "{g}");
        }
    }
    assert!(f_ok, "the follower failed:\n{}", tail(&f_err));
    assert_eq!(game_results(&f_out).len(), 2, "{f_out:?}");
    assert_no_dxp_error("tablier dxp --listen", &f_err);
}

#[test]
fn dxp_initiator_plays_a_follower_built_on_pydraughts() {
    let py = python();
    let mut follower = Proc::spawn(
        "pydraughts follower",
        Command::new(&py)
            .arg(script("dxp_follower.py"))
            .args([MAX_PLIES.to_string(), "11".into()]),
    );
    let port = follower.line(Duration::from_secs(30));
    let initiator = start_initiator(port.trim(), &[]);
    let (ok, out, err) = initiator.finish(LIMIT);
    let (f_ok, f_out, f_err) = follower.finish(Duration::from_secs(20));
    assert!(ok, "tablier dxp --connect failed:\n{out:?}\n{}", tail(&err));
    assert!(f_ok, "the follower failed: {f_out:?}\n{f_err}");
    let r = report(&f_out, "dxp_follower.py");
    assert_eq!(r["errors"], serde_json::json!([]), "{r}\n{}", tail(&err));
    let games = r["games"].as_array().unwrap();
    assert_eq!(games.len(), 2, "{r}");
    // tablier took White in game 1, so the follower had Black.
    assert_eq!(games[0]["follower"], "black", "{r}");
    assert_eq!(games[1]["follower"], "white", "{r}");
    for g in games {
        assert_eq!(g["minutes"], "001", "{g}");
        assert!(g["plies"].as_u64().unwrap() >= 10, "{g}");
    }
    assert_eq!(game_results(&out).len(), 2, "{out:?}");
    assert!(
        out.iter().any(|l| l.contains("in 2 games")),
        "no summary: {out:?}"
    );
    assert_no_dxp_error("tablier dxp --connect", &err);
}

#[test]
fn dxp_tablier_against_itself_from_a_set_up_position() {
    // A middle game: GAMEREQ carries the position ('B'), read back by the follower.
    let fen = "W:W27,28,31,32,33,34,36,37,38,39,40,41,42,43,44,45,47:\
               B6,7,8,9,11,12,13,14,16,17,18,19,20,21,23,24,26";
    let (follower, port) = start_follower(&["--max-plies", "160"]);
    let initiator = start_initiator(&port.to_string(), &["--max-plies", "160", "--fen", fen]);
    let (ok, out, err) = initiator.finish(LIMIT);
    let (f_ok, f_out, f_err) = follower.finish(Duration::from_secs(20));
    assert!(ok, "initiator failed:\n{out:?}\n{}", tail(&err));
    assert!(f_ok, "follower failed:\n{f_out:?}\n{}", tail(&f_err));
    assert!(
        err.lines()
            .any(|l| l.starts_with(">> R01") && l.contains("BW")),
        "no GAMEREQ with a position:\n{}",
        tail(&err)
    );
    let mine = game_results(&out);
    assert_eq!(mine.len(), 2, "{out:?}");
    // Both sides agree on every result.
    assert_eq!(mine, game_results(&f_out), "{out:?}\n{f_out:?}");
    assert_no_dxp_error("initiator", &err);
    assert_no_dxp_error("follower", &f_err);
}

/// Sends raw messages to a follower and reads its answers.
struct Raw {
    stream: TcpStream,
    buf: Vec<u8>,
}

impl Raw {
    fn send(&mut self, bytes: &[u8]) {
        self.stream.write_all(bytes).unwrap();
        self.stream.write_all(&[0]).unwrap();
    }

    /// The next message (None when the connection is closed).
    fn recv(&mut self) -> Option<String> {
        loop {
            if let Some(i) = self.buf.iter().position(|&b| b == 0) {
                let msg: Vec<u8> = self.buf.drain(..=i).collect();
                return Some(String::from_utf8_lossy(&msg[..i]).into_owned());
            }
            let mut chunk = [0u8; 512];
            match self.stream.read(&mut chunk) {
                Ok(0) | Err(_) => return None,
                Ok(n) => self.buf.extend_from_slice(&chunk[..n]),
            }
        }
    }
}

#[test]
fn dxp_follower_refuses_bad_requests_and_stops_on_an_illegal_move() {
    let (follower, port) = start_follower(&[]);
    let stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    let mut raw = Raw {
        stream,
        buf: Vec::new(),
    };
    let name = format!("{:<32}", "raw test");
    // A later protocol version: code 1.
    raw.send(format!("R02{name}W001000A").as_bytes());
    let a = raw.recv().unwrap();
    assert!(
        a.starts_with('A') && a.ends_with('1') && a.len() == 34,
        "{a}"
    );
    // White to move without any piece: code 2 and a chat saying why.
    let empty_white = format!("z{}", "e".repeat(49));
    raw.send(format!("R01{name}W001000BW{empty_white}").as_bytes());
    assert!(raw.recv().unwrap().ends_with('2'));
    let why = raw.recv().unwrap();
    assert!(
        why.starts_with("Crefused") && why.contains("no legal move"),
        "{why}"
    );
    // A malformed request: code 2 and the parse error.
    raw.send(format!("R01{name}Q001000A").as_bytes());
    assert!(raw.recv().unwrap().ends_with('2'));
    let why = raw.recv().unwrap();
    assert!(why.contains("follower colour must be W or Z"), "{why}");
    // Bytes that are no message at all: an error chat, nothing else.
    raw.send(b"\xff\xfe garbage");
    assert!(raw.recv().unwrap().starts_with("Cerror"));
    raw.send(&[b'C'; 300]);
    assert!(raw.recv().unwrap().contains("more than 127"));
    // A game with the follower as Black: we move 32-28, it answers, then an illegal move.
    raw.send(format!("R01{name}Z001000A").as_bytes());
    let a = raw.recv().unwrap();
    assert!(a.starts_with("Atablier") && a.ends_with('0'), "{a}");
    raw.send(b"M0000322800");
    let reply = raw.recv().unwrap();
    assert!(reply.starts_with('M') && reply.len() >= 11, "{reply}");
    raw.send(b"M0000504500"); // 50-45: square 45 is White's own man
    let chat = raw.recv().unwrap();
    assert!(
        chat.starts_with("Cerror: illegal move M0000504500"),
        "{chat}"
    );
    assert_eq!(raw.recv().as_deref(), Some("E01"));
    assert_eq!(raw.recv(), None, "the follower must close the connection");
    let (ok, _, err) = follower.finish(Duration::from_secs(20));
    assert!(!ok, "an illegal move must end `--once` with an error");
    assert!(err.contains("illegal move"), "{err}");
}

#[test]
fn hub_pydraughts_hubengine_plays_whole_games() {
    let py = python();
    let driver = Proc::spawn(
        "pydraughts HubEngine",
        Command::new(&py).arg(script("hub_games.py")).args([
            TABLIER.to_string(),
            "2".into(),
            "5".into(),
            MOVE_TIME.into(),
            MAX_PLIES.to_string(),
        ]),
    );
    let (ok, out, err) = driver.finish(LIMIT);
    assert!(ok, "the pydraughts driver failed: {out:?}\n{err}");
    let r = report(&out, "hub_games.py");
    assert_eq!(r["errors"], serde_json::json!([]), "{r}\n{err}");
    assert_eq!(r["exit_code"], 0, "{r}");
    assert_eq!(r["id"]["name"], "tablier", "{r}");
    let games = r["games"].as_array().unwrap();
    assert_eq!(games.len(), 2, "{r}");
    for g in games {
        assert!(g["engine_moves"].as_u64().unwrap() >= 5, "{g}");
        assert!(
            g["over"] == true || g["plies"].as_u64() == Some(u64::from(MAX_PLIES)),
            "{g}"
        );
    }
}
