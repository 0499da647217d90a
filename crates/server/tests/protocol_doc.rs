//! `docs/PROTOCOL.md` is the WebSocket protocol's reference: every example in it (the
//! fenced blocks marked `json client` and `json server`) reads into the typed messages of
//! `tablier_server::ws` and writes back to the same JSON; and what a live server sends reads
//! into the same types.

use axum::body::Body;
use axum::http::Request;
use futures_util::{SinkExt, StreamExt};
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tablier_server::store::Store;
use tablier_server::ws::{read_client, ClientMsg, ServerMsg};
use tablier_server::{router, Hub};
use tokio_tungstenite::tungstenite::Message;
use tower::ServiceExt;

const DOC: &str = include_str!("../../../docs/PROTOCOL.md");

/// The examples of the document: (`client` or `server`, the JSON text).
fn examples() -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    let mut lines = DOC.lines();
    while let Some(line) = lines.next() {
        let who = match line.trim() {
            "```json client" => "client",
            "```json server" => "server",
            _ => continue,
        };
        let body: Vec<&str> = lines.by_ref().take_while(|l| l.trim() != "```").collect();
        out.push((who, body.join("\n")));
    }
    out
}

#[test]
fn every_example_of_the_document_round_trips_through_the_typed_messages() {
    let examples = examples();
    let count = |who| examples.iter().filter(|(w, _)| *w == who).count();
    assert!(count("client") >= 2 && count("server") >= 5, "{examples:?}");
    let mut kinds = std::collections::BTreeSet::new();
    for (who, text) in &examples {
        let value: Value =
            serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"));
        let back = if *who == "client" {
            let m: ClientMsg = serde_json::from_value(value.clone())
                .unwrap_or_else(|e| panic!("not a client message ({e}): {text}"));
            serde_json::to_value(&m).unwrap()
        } else {
            let m: ServerMsg = serde_json::from_value(value.clone())
                .unwrap_or_else(|e| panic!("not a server message ({e}): {text}"));
            serde_json::to_value(&m).unwrap()
        };
        assert_eq!(back, value, "{who} example does not round-trip");
        kinds.insert(format!("{who} {}", value["t"].as_str().unwrap()));
    }
    // Every message type is shown.
    for k in [
        "client ping",
        "client act",
        "server hello",
        "server state",
        "server pong",
        "server ack",
        "server error",
    ] {
        assert!(kinds.contains(k), "no example of {k}");
    }
}

#[test]
fn refusals_keep_their_reasons() {
    let (ack, why) = read_client("not json").unwrap_err();
    assert_eq!(
        (ack, why.as_str()),
        (Value::Null, "messages are JSON objects")
    );
    let (ack, why) = read_client(r#"{"t": "act", "ack": 3}"#).unwrap_err();
    assert_eq!(ack, json!(3));
    assert!(why.contains("\"action\""), "{why}");
    let (_, why) = read_client(r#"{"t": "move", "ack": 3}"#).unwrap_err();
    assert!(why.contains("unknown message type"), "{why}");
}

#[tokio::test]
async fn what_a_live_server_sends_reads_into_the_typed_messages() {
    let dir = std::env::temp_dir().join(format!("tablier-protocol-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let store = Store::open(&format!("sqlite://{}", dir.join("t.sqlite").display()))
        .await
        .unwrap();
    let app = router(Hub::new(store).await.unwrap());
    let resp = app
        .clone()
        .oneshot(
            Request::post("/api/games")
                .header("content-type", "application/json")
                .body(Body::from(
                    json!({"family": "backgammon", "match_length": 3,
                        "seats": [{"kind": "human"}, {"kind": "human"}],
                        "clock": {"initial_s": 300, "increment_s": 5}})
                    .to_string(),
                ))
                .unwrap(),
        )
        .await
        .unwrap();
    let g: Value =
        serde_json::from_slice(&resp.into_body().collect().await.unwrap().to_bytes()).unwrap();
    let id = g["id"].as_str().unwrap().to_owned();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    let token = g["tokens"][0].as_str().unwrap();
    let (mut ws, _) =
        tokio_tungstenite::connect_async(format!("ws://{addr}/ws/{id}?token={token}"))
            .await
            .unwrap();
    assert!(matches!(
        typed(&mut ws).await,
        ServerMsg::Hello { you: Some(_) }
    ));
    assert!(matches!(typed(&mut ws).await, ServerMsg::State(_)));
    ws_send(&mut ws, json!({"t": "ping", "ack": "p1"})).await;
    assert_eq!(typed(&mut ws).await, ServerMsg::Pong { ack: json!("p1") });
    ws_send(
        &mut ws,
        json!({"t": "act", "action": "!draw-offer", "ack": 2}),
    )
    .await;
    let answer = typed(&mut ws).await;
    assert!(
        matches!(answer, ServerMsg::Error { ref ack, .. } if *ack == json!(2)),
        "{answer:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The next message, read into the typed messages; it must write back to the same JSON.
async fn typed(ws: &mut Socket) -> ServerMsg {
    let m = ws_next(ws).await;
    if std::env::var_os("TABLIER_PRINT_MESSAGES").is_some() {
        eprintln!("{m}");
    }
    let typed: ServerMsg = serde_json::from_str(&m).unwrap_or_else(|e| panic!("{e}: {m}"));
    assert_eq!(
        serde_json::to_value(&typed).unwrap(),
        serde_json::from_str::<Value>(&m).unwrap()
    );
    typed
}

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn ws_next(ws: &mut Socket) -> String {
    loop {
        match ws.next().await.unwrap().unwrap() {
            Message::Text(t) => return t.to_string(),
            _ => continue,
        }
    }
}

async fn ws_send(ws: &mut Socket, v: Value) {
    ws.send(Message::text(v.to_string())).await.unwrap();
}
