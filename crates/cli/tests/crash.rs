//! Crash test: the real `tablier serve` is killed with SIGKILL in the middle of games, started
//! again on the same database, and every acknowledged action is there and the games go on.

mod serve_common;

use std::net::SocketAddr;
use std::process::Child;

use serde_json::{json, Value};
use serve_common::{http, next_action};

fn start(data: &std::path::Path) -> (Child, SocketAddr) {
    serve_common::start(&["--data", data.to_str().unwrap()])
}

/// Takes the offered seat of a public challenge: the status and the answer.
fn accept(addr: SocketAddr, id: &str) -> (u16, Value) {
    http(addr, "POST", &format!("/api/challenges/{id}/accept"), None)
}

/// Plays `n` legal actions (the first listed) in a game between two human seats; returns the
/// log as acknowledged.
fn play(addr: SocketAddr, id: &str, tokens: &[String; 2], n: usize) -> Vec<Value> {
    let mut last = Vec::new();
    for _ in 0..n {
        let (_, s) = http(addr, "GET", &format!("/api/games/{id}"), None);
        let Some((seat, action)) = next_action(&s) else {
            break;
        };
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
    // Public challenges: one open, one taken before the kill.
    let challenge = |addr| {
        let body = json!({"family": "draughts", "challenge": "black",
            "seats": [{"kind": "human"}, {"kind": "human"}]});
        let (status, g) = http(addr, "POST", "/api/games", Some(&body));
        assert_eq!(status, 200, "{g}");
        (
            g["id"].as_str().unwrap().to_owned(),
            g["tokens"][0].as_str().unwrap().to_owned(),
        )
    };
    let (open, open_white) = challenge(addr);
    let (taken, _) = challenge(addr);
    let (status, took) = accept(addr, &taken);
    assert_eq!(status, 200, "{took}");
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
    // The open challenge is listed again and its seat taken once; the taken one is not.
    let (_, list) = http(addr, "GET", "/api/challenges", None);
    let ids: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, [open.as_str()], "{list}");
    let (status, took) = accept(addr, &taken);
    assert_eq!(status, 409, "{took}");
    let (status, took) = accept(addr, &open);
    assert_eq!(status, 200, "{took}");
    let tokens = [open_white, took["token"].as_str().unwrap().to_owned()];
    assert_eq!(
        play(addr, &open, &tokens, 2).len(),
        2,
        "the challenge is played"
    );
    server.kill().unwrap();
    server.wait().unwrap();
    let _ = std::fs::remove_dir_all(&data);
}
