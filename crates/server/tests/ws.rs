//! The WebSocket protocol with a real client on a real socket (port 0): numbered events to
//! players and spectators, acks and refusals, reconnection from the last event seen, and the
//! security rules (a spectator cannot act, a token opens one seat only, oversized and
//! malformed messages are refused).

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tablier_server::store::Store;
use tablier_server::{router, Hub};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{connect_async, MaybeTlsStream, WebSocketStream};

type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

async fn server() -> std::net::SocketAddr {
    // The database's folder lives as long as the server (until the test's runtime ends).
    let dir = tempfile::Builder::new()
        .prefix("tablier-ws-")
        .tempdir()
        .unwrap();
    let store = Store::open(&format!(
        "sqlite://{}",
        dir.path().join("t.sqlite").display()
    ))
    .await
    .unwrap();
    let app = router(Hub::new(store).await.unwrap());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        let _dir = dir;
        axum::serve(listener, app).await.unwrap()
    });
    addr
}

async fn post(addr: std::net::SocketAddr, path: &str, body: &Value) -> Value {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = TcpStream::connect(addr).await.unwrap();
    let body = body.to_string();
    let req = format!(
        "POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).await.unwrap();
    let json_start = out.find("\r\n\r\n").unwrap() + 4;
    serde_json::from_str(&out[json_start..]).unwrap()
}

async fn next(ws: &mut Ws) -> Value {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(5), ws.next())
            .await
            .expect("a message within 5 s")
            .expect("open")
            .expect("ok");
        if let Message::Text(t) = msg {
            return serde_json::from_str(&t).unwrap();
        }
    }
}

/// Reads messages until one of type `t`.
async fn until(ws: &mut Ws, t: &str) -> Value {
    loop {
        let m = next(ws).await;
        if m["t"] == t {
            return m;
        }
    }
}

async fn connect(addr: std::net::SocketAddr, id: &str, query: &str) -> Ws {
    let (ws, _) = connect_async(format!("ws://{addr}/ws/{id}?{query}"))
        .await
        .unwrap();
    ws
}

#[tokio::test]
async fn players_and_spectators_get_numbered_events_and_resync() {
    let addr = server().await;
    let g = post(addr, "/api/games", &json!({"family": "draughts", "variant": "english", "seats": [{"kind":"human"},{"kind":"human"}]})).await;
    let id = g["id"].as_str().unwrap();
    let (white, black) = (
        g["tokens"][0].as_str().unwrap(),
        g["tokens"][1].as_str().unwrap(),
    );

    let mut w = connect(addr, id, &format!("token={white}")).await;
    let mut b = connect(addr, id, &format!("token={black}")).await;
    let mut spectator = connect(addr, id, "").await;
    assert_eq!(next(&mut w).await, json!({"t": "hello", "you": "white"}));
    assert_eq!(next(&mut b).await, json!({"t": "hello", "you": "black"}));
    assert_eq!(
        next(&mut spectator).await,
        json!({"t": "hello", "you": null})
    );
    let s0 = next(&mut spectator).await;
    assert_eq!(s0["t"], "state");
    let v0 = s0["v"].as_u64().unwrap();
    until(&mut w, "state").await;
    until(&mut b, "state").await;

    // English checkers: black moves first.
    let mv = s0["legal"][0].as_str().unwrap().to_owned();
    b.send(Message::Text(
        json!({"t": "act", "action": mv, "ack": 1})
            .to_string()
            .into(),
    ))
    .await
    .unwrap();
    let mut got_ack = false;
    let mut got_state = false;
    while !(got_ack && got_state) {
        let m = next(&mut b).await;
        match m["t"].as_str() {
            Some("ack") => {
                assert_eq!(m["ack"], 1);
                got_ack = true;
            }
            Some("state") => {
                assert_eq!(m["v"].as_u64().unwrap(), v0 + 1);
                got_state = true;
            }
            other => panic!("unexpected {other:?}: {m}"),
        }
    }
    let seen = until(&mut spectator, "state").await;
    assert_eq!(seen["v"].as_u64().unwrap(), v0 + 1);
    assert_eq!(
        seen["log"].as_array().unwrap().last().unwrap()["action"],
        mv.as_str()
    );

    // A spectator cannot act; a refusal changes nothing.
    spectator
        .send(Message::Text(
            json!({"t": "act", "action": "x", "ack": 9})
                .to_string()
                .into(),
        ))
        .await
        .unwrap();
    let r = until(&mut spectator, "error").await;
    assert_eq!(r["ack"], 9);
    assert!(r["reason"].as_str().unwrap().contains("spectators"));
    // Black cannot move again; malformed messages are refused with a reason.
    for (msg, words) in [
        (
            json!({"t": "act", "action": mv, "ack": 2}).to_string(),
            "not your turn",
        ),
        ("not json".to_owned(), "JSON"),
        (json!({"t": "act", "ack": 3}).to_string(), "action"),
        (json!({"t": "dance"}).to_string(), "unknown message"),
    ] {
        b.send(Message::Text(msg.into())).await.unwrap();
        let r = until(&mut b, "error").await;
        assert!(r["reason"].as_str().unwrap().contains(words), "{r}");
    }
    // White moves; black, reconnecting with the last event it saw, is brought up to date.
    drop(b);
    let s1 = until(&mut w, "state").await;
    let reply = s1["legal"][0].as_str().unwrap().to_owned();
    w.send(Message::Text(
        json!({"t": "act", "action": reply, "ack": 1})
            .to_string()
            .into(),
    ))
    .await
    .unwrap();
    until(&mut w, "ack").await;
    let mut b = connect(addr, id, &format!("token={black}&v={}", v0 + 1)).await;
    assert_eq!(next(&mut b).await["t"], "hello");
    let caught_up = until(&mut b, "state").await;
    assert_eq!(caught_up["v"].as_u64().unwrap(), v0 + 2);
    // A client that is up to date gets no state until the next change.
    let mut w2 = connect(addr, id, &format!("token={white}&v={}", v0 + 2)).await;
    assert_eq!(next(&mut w2).await["t"], "hello");
    w2.send(Message::Text(
        json!({"t": "ping", "ack": 5}).to_string().into(),
    ))
    .await
    .unwrap();
    assert_eq!(next(&mut w2).await, json!({"t": "pong", "ack": 5}));
}

#[tokio::test]
async fn tokens_open_one_seat_and_oversized_messages_are_refused() {
    let addr = server().await;
    let g = post(
        addr,
        "/api/games",
        &json!({"family": "backgammon", "seats": [{"kind":"human"},{"kind":"engine","level":0}]}),
    )
    .await;
    let id = g["id"].as_str().unwrap();
    assert!(g["tokens"][1].is_null(), "no token for an engine seat");
    let white = g["tokens"][0].as_str().unwrap();
    // A wrong token is refused at the handshake.
    let refused = connect_async(format!(
        "ws://{addr}/ws/{id}?token=AAAAAAAAAAAAAAAAAAAAAAAA"
    ))
    .await;
    assert!(refused.is_err());
    // White's token is white's seat only.
    let mut w = connect(addr, id, &format!("token={white}")).await;
    assert_eq!(next(&mut w).await["you"], "white");
    // A message over the limit closes the connection.
    let big = json!({"t": "act", "action": "x".repeat(10_000)}).to_string();
    let _ = w.send(Message::Text(big.into())).await;
    let end = tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            match w.next().await {
                None | Some(Err(_)) | Some(Ok(Message::Close(_))) => return true,
                Some(Ok(_)) => continue,
            }
        }
    })
    .await;
    assert_eq!(end, Ok(true));
}
