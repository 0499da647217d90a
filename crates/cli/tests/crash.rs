//! Crash test: the real `tablier serve` is killed with SIGKILL in the middle of games, started
//! again on the same database, and every acknowledged action is there and the games go on.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};

use serde_json::{json, Value};

fn start(data: &std::path::Path) -> (Child, SocketAddr) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tablier"))
        .args(["serve", "--addr", "127.0.0.1:0", "--data"])
        .arg(data)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("tablier serve starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .trim()
        .rsplit("http://")
        .next()
        .and_then(|a| a.parse().ok())
        .unwrap_or_else(|| panic!("no address in {line:?}"));
    (child, addr)
}

fn http(addr: SocketAddr, method: &str, path: &str, body: Option<&Value>) -> (u16, Value) {
    let mut s = TcpStream::connect(addr).unwrap();
    let body = body.map(Value::to_string).unwrap_or_default();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    let status: u16 = out[9..12].parse().unwrap();
    let start = out.find("\r\n\r\n").unwrap() + 4;
    (
        status,
        serde_json::from_str(&out[start..]).unwrap_or(Value::Null),
    )
}

/// Plays `n` legal actions (the first listed) in a game between two human seats; returns the
/// log as acknowledged.
fn play(addr: SocketAddr, id: &str, tokens: &[String; 2], n: usize) -> Vec<Value> {
    let mut last = Vec::new();
    for _ in 0..n {
        let (_, s) = http(addr, "GET", &format!("/api/games/{id}"), None);
        let seat = match s["actor"].as_str() {
            Some("white") => 0,
            Some("black") => 1,
            _ => break,
        };
        let legal = s["legal"].as_array().unwrap();
        // Prefer a real move to resigning.
        let action = legal
            .iter()
            .filter_map(Value::as_str)
            .find(|a| !a.starts_with("resign"))
            .unwrap_or(legal[0].as_str().unwrap());
        let (status, after) = http(
            addr,
            "POST",
            &format!("/api/games/{id}/act"),
            Some(&json!({"token": tokens[seat], "action": action})),
        );
        assert_eq!(status, 200, "{after}");
        last = after["log"].as_array().unwrap().clone();
    }
    last
}

#[test]
fn acknowledged_actions_survive_a_kill_and_games_continue() {
    let data = std::env::temp_dir().join(format!("tablier-crash-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    let (mut server, addr) = start(&data);
    let mut games = Vec::new();
    for spec in [
        json!({"family": "draughts", "variant": "international"}),
        json!({"family": "backgammon", "match_length": 3}),
        json!({"family": "trictrac"}),
    ] {
        let mut body = spec.clone();
        body["seats"] = json!([{"kind": "human"}, {"kind": "human"}]);
        let (status, g) = http(addr, "POST", "/api/games", Some(&body));
        assert_eq!(status, 200, "{g}");
        let tokens = [
            g["tokens"][0].as_str().unwrap().to_owned(),
            g["tokens"][1].as_str().unwrap().to_owned(),
        ];
        games.push((g["id"].as_str().unwrap().to_owned(), tokens));
    }
    let mut acked = Vec::new();
    for (id, tokens) in &games {
        acked.push(play(addr, id, tokens, 15));
    }
    // SIGKILL: no shutdown, no flush beyond what each acknowledgement already committed.
    server.kill().unwrap();
    server.wait().unwrap();

    let (mut server, addr) = start(&data);
    for ((id, tokens), log) in games.iter().zip(&acked) {
        let (status, s) = http(addr, "GET", &format!("/api/games/{id}"), None);
        assert_eq!(status, 200);
        assert!(!log.is_empty());
        assert_eq!(
            &s["log"].as_array().unwrap()[..log.len()],
            &log[..],
            "game {id}"
        );
        let more = play(addr, id, tokens, 5);
        assert!(more.len() > log.len(), "game {id} goes on");
    }
    server.kill().unwrap();
    server.wait().unwrap();
    let _ = std::fs::remove_dir_all(&data);
}
