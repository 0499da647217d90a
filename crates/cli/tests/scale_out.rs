//! Scale-out: two real `tablier serve` nodes on one PostgreSQL database (the throwaway
//! cluster `scripts/test.sh` starts; `TABLIER_TEST_POSTGRES` holds its URL).
//!
//! A game created on node A is owned by A. Clients of node B see it through B's mirror, kept
//! in step by PostgreSQL `NOTIFY`; a player connected to B acts through B, which hands the
//! action to A. Then A is killed with SIGKILL: B finds A's heartbeat stale, claims A's
//! games, and they go on on B with every acknowledged action (the engine seats and clocks
//! of those games move to B too).

mod serve_common;

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use serve_common::{http, next_action, start};
use tokio_tungstenite::tungstenite::Message;

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn connect(addr: SocketAddr, id: &str, token: Option<&str>) -> Ws {
    let q = token.map(|t| format!("token={t}")).unwrap_or_default();
    let (ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/ws/{id}?{q}"))
        .await
        .expect("the WebSocket opens");
    ws
}

/// The next state message with `v >= at_least` (within 5 s), and how long it took.
async fn state_at_least(ws: &mut Ws, at_least: u64) -> (Value, Duration) {
    let t0 = Instant::now();
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(5) - t0.elapsed(), ws.next())
            .await
            .unwrap_or_else(|_| panic!("no state {at_least} within 5 s"))
            .expect("open")
            .expect("a message");
        if let Message::Text(t) = msg {
            let v: Value = serde_json::from_str(&t).unwrap();
            if v["t"] == "state" && v["v"].as_u64().unwrap() >= at_least {
                return (v, t0.elapsed());
            }
        }
    }
}

/// The next ack or error message.
async fn reply(ws: &mut Ws) -> Value {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(10), ws.next())
            .await
            .expect("a reply within 10 s")
            .unwrap()
            .unwrap();
        if let Message::Text(t) = msg {
            let v: Value = serde_json::from_str(&t).unwrap();
            if v["t"] == "ack" || v["t"] == "error" {
                return v;
            }
        }
    }
}

fn create(addr: SocketAddr, body: Value) -> (String, Vec<Option<String>>) {
    let (status, g) = http(addr, "POST", "/api/games", Some(&body));
    assert_eq!(status, 200, "{g}");
    let tokens = g["tokens"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().map(str::to_owned))
        .collect();
    (g["id"].as_str().unwrap().to_owned(), tokens)
}

fn get(addr: SocketAddr, id: &str) -> Value {
    let (status, s) = http(addr, "GET", &format!("/api/games/{id}"), None);
    assert_eq!(status, 200, "{s}");
    s
}

#[test]
fn two_nodes_share_games_and_one_takes_over_when_the_other_dies() {
    let Ok(url) = std::env::var("TABLIER_TEST_POSTGRES") else {
        assert_eq!(
            std::env::var("TABLIER_SKIP_POSTGRES").as_deref(),
            Ok("1"),
            "set TABLIER_TEST_POSTGRES=postgres://... (scripts/test.sh starts one) or TABLIER_SKIP_POSTGRES=1"
        );
        return;
    };
    let pid = std::process::id();
    let (mut node_a, a) = start(&["--database", &url, "--node", &format!("a{pid}")]);
    let (mut node_b, b) = start(&["--database", &url, "--node", &format!("b{pid}")]);
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        // A game between two people, created on A.
        let (id, tokens) = create(
            a,
            json!({"family": "draughts", "variant": "international",
                   "seats": [{"kind": "human"}, {"kind": "human"}]}),
        );
        let white = tokens[0].clone().unwrap();
        let black = tokens[1].clone().unwrap();
        // A game against the engine, created on A too.
        let (engine_game, engine_tokens) = create(
            a,
            json!({"family": "draughts", "variant": "brazilian",
                   "seats": [{"kind": "human"}, {"kind": "engine", "level": 1}]}),
        );
        let engine_white = engine_tokens[0].clone().unwrap();

        // Black and a spectator watch from B; white plays on A.
        let mut black_ws = connect(b, &id, Some(&black)).await;
        let mut spectator = connect(b, &id, None).await;
        let (s, _) = state_at_least(&mut spectator, 0).await;
        assert_eq!(s["v"], 0);
        state_at_least(&mut black_ws, 0).await;
        let mut latencies = Vec::new();
        let mut acked = 0u64;
        for _ in 0..6 {
            // White on A, by HTTP.
            let s = get(a, &id);
            let (seat, action) = next_action(&s).unwrap();
            assert_eq!(seat, 0);
            let (status, after) = http(
                a,
                "POST",
                &format!("/api/games/{id}/act"),
                Some(&json!({"token": white, "action": action})),
            );
            assert_eq!(status, 200, "{after}");
            acked = after["v"].as_u64().unwrap();
            // Node B's clients hear of it through NOTIFY.
            let (seen, took) = state_at_least(&mut spectator, acked).await;
            latencies.push(took);
            let (seen_by_black, _) = state_at_least(&mut black_ws, acked).await;
            assert_eq!(seen["log"], after["log"]);
            assert_eq!(seen_by_black["actor"], "black");
            // Black on B, by WebSocket: B hands the action to A.
            let (seat, action) = next_action(&seen_by_black).unwrap();
            assert_eq!(seat, 1);
            black_ws
                .send(Message::Text(
                    json!({"t": "act", "action": action, "ack": acked})
                        .to_string()
                        .into(),
                ))
                .await
                .unwrap();
            let r = reply(&mut black_ws).await;
            assert_eq!(r["t"], "ack", "{r}");
            acked += 1;
            let (on_a, _) = (get(a, &id), ());
            assert_eq!(on_a["v"].as_u64().unwrap(), acked, "A stored black's move");
            state_at_least(&mut spectator, acked).await;
        }
        // A spectator on B cannot act, and a wrong token is refused by B itself.
        spectator
            .send(Message::Text(
                json!({"t": "act", "action": "32-28", "ack": 1})
                    .to_string()
                    .into(),
            ))
            .await
            .unwrap();
        assert_eq!(
            reply(&mut spectator).await["reason"],
            "spectators cannot act"
        );
        let (status, _) = http(
            b,
            "POST",
            &format!("/api/games/{id}/act"),
            Some(&json!({"token": "x".repeat(24), "action": "32-28"})),
        );
        assert_eq!(status, 403);
        // An illegal move sent through B is refused by A with its reason, and changes nothing.
        let (status, why) = http(
            b,
            "POST",
            &format!("/api/games/{id}/act"),
            Some(&json!({"token": white, "action": "1-50"})),
        );
        assert_eq!(status, 422, "{why}");
        assert_eq!(get(a, &id)["v"].as_u64().unwrap(), acked);
        // The engine game: the person plays from B, the engine answers on A.
        let s = get(b, &engine_game);
        let (_, action) = next_action(&s).unwrap();
        let (status, after) = http(
            b,
            "POST",
            &format!("/api/games/{engine_game}/act"),
            Some(&json!({"token": engine_white, "action": action})),
        );
        assert_eq!(status, 200, "{after}");
        let mut engine_ws = connect(b, &engine_game, None).await;
        let (s, _) = state_at_least(&mut engine_ws, 2).await;
        assert_eq!(s["actor"], "white", "the engine on A answered: {s}");
        let engine_v = s["v"].as_u64().unwrap();
        let mut ms: Vec<f64> = latencies.iter().map(|d| d.as_secs_f64() * 1e3).collect();
        ms.sort_by(f64::total_cmp);
        eprintln!("A to B's spectator, ms: {ms:.1?}");

        // A dies. B claims its games once A's heartbeat is stale, and they go on.
        node_a.kill().unwrap();
        node_a.wait().unwrap();
        let killed = Instant::now();
        let s = get(b, &id);
        assert_eq!(
            s["v"].as_u64().unwrap(),
            acked,
            "every acknowledged action is there"
        );
        let (_, action) = next_action(&s).unwrap();
        let status = loop {
            let (status, after) = http(
                b,
                "POST",
                &format!("/api/games/{id}/act"),
                Some(&json!({"token": white, "action": action})),
            );
            if status == 200 || killed.elapsed() > Duration::from_secs(20) {
                break status;
            }
            assert_eq!(status, 503, "until A is taken for dead: {after}");
            tokio::time::sleep(Duration::from_millis(250)).await;
        };
        assert_eq!(status, 200, "B took the game over");
        eprintln!("taken over after {:?}", killed.elapsed());
        let (s, _) = state_at_least(&mut black_ws, acked + 1).await;
        assert_eq!(s["log"].as_array().unwrap().len() as u64, acked + 1);
        // Black, still connected to B, plays on; now B stores it itself.
        let (_, action) = next_action(&s).unwrap();
        black_ws
            .send(Message::Text(
                json!({"t": "act", "action": action, "ack": 99})
                    .to_string()
                    .into(),
            ))
            .await
            .unwrap();
        assert_eq!(reply(&mut black_ws).await["t"], "ack");
        // The engine game moved to B as well (claimed by B's sweep): the engine plays there.
        let s = get(b, &engine_game);
        assert_eq!(s["v"].as_u64().unwrap(), engine_v);
        let (_, action) = next_action(&s).unwrap();
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let (status, _) = http(
                b,
                "POST",
                &format!("/api/games/{engine_game}/act"),
                Some(&json!({"token": engine_white, "action": action})),
            );
            if status == 200 {
                break;
            }
            assert!(Instant::now() < deadline, "B never took the engine game");
            tokio::time::sleep(Duration::from_millis(250)).await;
        }
        let (s, _) = state_at_least(&mut engine_ws, engine_v + 2).await;
        assert_eq!(s["actor"], "white", "the engine answered on B: {s}");
    });
    node_b.kill().unwrap();
    node_b.wait().unwrap();
}
