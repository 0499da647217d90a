//! Start-up and operations of the real `tablier serve`: a file that is not a database is
//! named at once; one damaged game is logged and kept out while the others are served; the
//! log reaches standard error (text, or JSON lines); a server outage is not a player's time.

mod serve_common;

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use serve_common::{create_humans as create, http, must_act as act};

/// Starts the server with its standard error written to `log`.
fn start_logged(data: &Path, log: &Path, extra: &[&str]) -> (Child, SocketAddr) {
    let mut args = vec!["--data", data.to_str().unwrap()];
    args.extend_from_slice(extra);
    serve_common::start_with(&args, std::fs::File::create(log).unwrap())
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tablier-startup-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn kill(mut server: Child) {
    server.kill().unwrap();
    server.wait().unwrap();
}

#[test]
fn a_file_that_is_not_a_database_stops_the_server_at_once_with_its_name() {
    let data = temp_dir("notdb");
    let file = data.join("tablier.sqlite");
    std::fs::write(&file, "name,score\nalice,3\n".repeat(100)).unwrap();
    let started = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_tablier"))
        .args([
            "serve",
            "--addr",
            "127.0.0.1:0",
            "--data",
            data.to_str().unwrap(),
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if started.elapsed() > Duration::from_secs(25) {
            child.kill().unwrap();
            panic!("the server still waits after 25 s");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
    assert!(!status.success());
    assert!(
        err.contains(&format!("file is not a database: {}", file.display())),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn one_damaged_game_is_logged_and_kept_out_while_the_others_are_served() {
    let data = temp_dir("damaged");
    let log = data.join("serve.log");
    let (server, addr) = start_logged(&data, &log, &[]);
    let (bad, t) = create(
        addr,
        json!({"family": "draughts", "variant": "international"}),
    );
    act(addr, &bad, &t[0], "32-28");
    let (good, t) = create(addr, json!({"family": "trictrac"}));
    let s: Value = http(addr, "GET", &format!("/api/games/{good}"), None).1;
    let seat = usize::from(s["actor"] == "black");
    let first = s["legal"][0].as_str().unwrap().to_owned();
    act(addr, &good, &t[seat], &first);
    kill(server);
    // The draughts game's first move becomes one that is not legal.
    let db = data.join("tablier.sqlite");
    let ok = Command::new("python3")
        .args([
            "-c",
            "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); \
             c.execute(\"UPDATE actions SET action='32-23' WHERE game_id=?\", (sys.argv[2],)); \
             c.commit()",
            db.to_str().unwrap(),
            &bad,
        ])
        .status()
        .unwrap()
        .success();
    assert!(ok);

    // Text log.
    let (server, addr) = start_logged(&data, &log, &[]);
    let (status, body) = http(addr, "GET", &format!("/api/games/{bad}"), None);
    assert_eq!(status, 500, "{body}");
    assert_eq!(body["damaged"], true, "{body}");
    let (status, s) = http(addr, "GET", &format!("/api/games/{good}"), None);
    assert_eq!(status, 200, "{s}");
    assert!(s["v"].as_u64().unwrap() >= 1);
    kill(server);
    let text = std::fs::read_to_string(&log).unwrap();
    let line = text
        .lines()
        .find(|l| l.contains(&bad))
        .unwrap_or_else(|| panic!("the damaged game is not in the log: {text}"));
    assert!(line.contains("ERROR"), "{line}");
    assert!(line.contains("32-23"), "the reason is logged: {line}");

    // JSON lines.
    let (server, addr) = start_logged(&data, &log, &["--log-json"]);
    let (status, _) = http(addr, "GET", &format!("/api/games/{bad}"), None);
    assert_eq!(status, 500);
    kill(server);
    let text = std::fs::read_to_string(&log).unwrap();
    let entries: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    assert!(
        entries
            .iter()
            .any(|e| e["level"] == "ERROR" && e.to_string().contains(&bad)),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn a_server_outage_is_not_the_players_time() {
    let data = temp_dir("outage");
    let log = data.join("serve.log");
    let (server, addr) = start_logged(&data, &log, &[]);
    let (id, t) = create(
        addr,
        json!({"family": "draughts", "variant": "international",
               "clock": {"initial_s": 4, "increment_s": 0}}),
    );
    act(addr, &id, &t[0], "32-28");
    let s = act(addr, &id, &t[1], "19-23");
    assert_eq!(s["clock"]["running"], "white");
    let before = s["clock"]["white_ms"].as_i64().unwrap();
    kill(server);
    // Down longer than White's whole time.
    std::thread::sleep(Duration::from_millis(4500));
    let (server, addr) = start_logged(&data, &log, &[]);
    let (_, s) = http(addr, "GET", &format!("/api/games/{id}"), None);
    assert!(
        s["result"].is_null(),
        "lost on the server's time: {}",
        s["result"]
    );
    let left = s["clock"]["white_ms"].as_i64().unwrap();
    assert!(
        left > before - 1500,
        "{left} ms left, {before} before the stop"
    );
    assert_eq!(s["clock"]["running"], "white");
    // The clock goes on from the restart: the game is still decided on time.
    std::thread::sleep(Duration::from_millis(u64::try_from(left).unwrap() + 800));
    let (_, s) = http(addr, "GET", &format!("/api/games/{id}"), None);
    assert_eq!(s["result"]["reason"], "time", "{s}");
    let (_, record) = http(addr, "GET", &format!("/api/games/{id}/record"), None);
    kill(server);
    let path = data.join("record.json");
    std::fs::write(&path, record.to_string()).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_tablier"))
        .arg("verify")
        .arg(&path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn verify_refuses_what_is_not_utf8_text_and_cuts_long_values() {
    let data = temp_dir("verify");
    let path = data.join("bad.json");
    std::fs::write(&path, b"{\"spec\": \"\xff\xfe\"}").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_tablier"))
        .arg("verify")
        .arg(&path)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains("is not UTF-8 text"), "{err}");
    // A value of a megabyte is not repeated in full.
    let huge = json!({"spec": "y".repeat(1_000_000), "seed": "00", "commitment": "00"});
    std::fs::write(&path, huge.to_string()).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_tablier"))
        .arg("verify")
        .arg(&path)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(
        out.stderr.len() < 1000,
        "{} bytes of error",
        out.stderr.len()
    );
    let _ = std::fs::remove_dir_all(&data);
}
