//! One client must not be able to take the server down: new games per address, engine
//! games, draw offers, WebSocket pace and frames, damaged games and damaged database files.
//! Each test here failed before the limit or the fix it checks.

use std::net::SocketAddr;
use std::sync::Arc;

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tablier_server::store::Store;
use tablier_server::{router, Hub, Options};
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::Message;

/// A fresh folder named `tablier-limits-{name}-…`, removed when dropped.
fn temp_dir(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("tablier-limits-{name}-"))
        .tempdir()
        .unwrap()
}

fn url(dir: impl AsRef<std::path::Path>) -> String {
    format!("sqlite://{}", dir.as_ref().join("t.sqlite").display())
}

/// A real server on a loopback port (so that clients have addresses), with `options`.
async fn serve(options: Options) -> (SocketAddr, tempfile::TempDir, Hub) {
    let dir = temp_dir("serve");
    let store = Store::open(&url(&dir)).await.unwrap();
    let hub = Hub::with_options(Arc::new(store), options).await.unwrap();
    let app = router(hub.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        axum::serve(
            listener,
            app.into_make_service_with_connect_info::<SocketAddr>(),
        )
        .await
        .unwrap();
    });
    (addr, dir, hub)
}

/// One HTTP/1.1 request; the status and the JSON answer.
async fn http(addr: SocketAddr, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).await.unwrap();
    let status = out[9..12].parse().unwrap();
    let start = out.find("\r\n\r\n").unwrap() + 4;
    (
        status,
        serde_json::from_str(&out[start..]).unwrap_or(Value::Null),
    )
}

const HUMANS: &str = r#"[{"kind":"human"},{"kind":"human"}]"#;

async fn new_game(addr: SocketAddr) -> (u16, Value) {
    let seats: Value = serde_json::from_str(HUMANS).unwrap();
    http(
        addr,
        "POST",
        "/api/games",
        Some(json!({"family": "draughts", "variant": "international", "seats": seats})),
    )
    .await
}

#[tokio::test]
async fn new_games_per_address_are_limited() {
    let (addr, _dir, _) = serve(Options {
        games_per_minute: 6,
        games_burst: 5,
        ..Options::default()
    })
    .await;
    for i in 0..5 {
        let (status, g) = new_game(addr).await;
        assert_eq!(status, 200, "game {i}: {g}");
    }
    let (status, why) = new_game(addr).await;
    assert_eq!(status, 429, "{why}");
    let why = why["error"].as_str().unwrap();
    assert!(why.contains("too many new games"), "{why}");
}

#[tokio::test]
async fn engine_against_engine_is_refused_unless_allowed() {
    let body = json!({"family": "draughts", "variant": "international",
        "seats": [{"kind":"engine","level":1},{"kind":"engine","level":1}]});
    let (addr, _dir, _) = serve(Options::default()).await;
    let (status, why) = http(addr, "POST", "/api/games", Some(body.clone())).await;
    assert_eq!(status, 403, "{why}");
    assert!(
        why["error"].as_str().unwrap().contains("two engines"),
        "{why}"
    );
    let (addr, _dir, _) = serve(Options {
        engine_games: true,
        ..Options::default()
    })
    .await;
    let (status, g) = http(addr, "POST", "/api/games", Some(body)).await;
    assert_eq!(status, 200, "{g}");
}

#[test]
fn engine_games_are_not_taken_up_at_start_up() {
    let dir = temp_dir("engines");
    let allow = Options {
        engine_games: true,
        ..Options::default()
    };
    // A first server starts a game between two random engines and dies (its runtime goes).
    let id = {
        let rt = tokio::runtime::Runtime::new().unwrap();
        rt.block_on(async {
            let store = Store::open(&url(&dir)).await.unwrap();
            let hub = Hub::with_options(Arc::new(store), allow.clone())
                .await
                .unwrap();
            let app = router(hub);
            let resp = tower::ServiceExt::oneshot(
                app,
                axum::http::Request::post("/api/games")
                    .header("content-type", "application/json")
                    .body(axum::body::Body::from(
                        json!({"family": "backgammon",
                            "seats": [{"kind":"engine","level":0},{"kind":"engine","level":0}]})
                        .to_string(),
                    ))
                    .unwrap(),
            )
            .await
            .unwrap();
            let bytes = http_body_util::BodyExt::collect(resp.into_body())
                .await
                .unwrap()
                .to_bytes();
            let g: Value = serde_json::from_slice(&bytes).unwrap();
            g["id"].as_str().unwrap().to_owned()
        })
    };
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let store = Arc::new(Store::open(&url(&dir)).await.unwrap());
        let before = store.actions_after(&id, 0).await.unwrap().len();
        let _hub = Hub::with_options(store.clone(), allow).await.unwrap();
        tokio::time::sleep(std::time::Duration::from_millis(800)).await;
        let after = store.actions_after(&id, 0).await.unwrap().len();
        assert_eq!(before, after, "nobody opened it, yet its engines played on");
    });
}

#[tokio::test]
async fn draw_offers_cannot_grow_the_log() {
    let (addr, _dir, _) = serve(Options::default()).await;
    let (_, g) = new_game(addr).await;
    let id = g["id"].as_str().unwrap();
    let tok = |i: usize| g["tokens"][i].as_str().unwrap().to_owned();
    let act = |seat: usize, action: &'static str| {
        let body = json!({"token": tok(seat), "action": action});
        let path = format!("/api/games/{id}/act");
        async move { http(addr, "POST", &path, Some(body)).await }
    };
    assert_eq!(act(0, "!draw-offer").await.0, 200);
    // One standing offer per seat.
    let (status, why) = act(0, "!draw-offer").await;
    assert_eq!(status, 422);
    assert!(
        why["error"].as_str().unwrap().contains("stands already"),
        "{why}"
    );
    // Declined, it is renewed only after the opponent has moved.
    assert_eq!(act(1, "!draw-decline").await.0, 200);
    let (status, why) = act(0, "!draw-offer").await;
    assert_eq!(status, 422);
    assert!(why["error"].as_str().unwrap().contains("declined"), "{why}");
    assert_eq!(act(0, "32-28").await.0, 200);
    assert_eq!(act(1, "19-23").await.0, 200);
    assert_eq!(act(0, "!draw-offer").await.0, 200);
    // Three thousand tries later the log and the state are still small.
    for _ in 0..300 {
        for (seat, a) in [(0, "!draw-offer"), (1, "!draw-decline"), (1, "!draw-offer")] {
            let _ = act(seat, a).await;
        }
    }
    let (_, s) = http(addr, "GET", &format!("/api/games/{id}"), None).await;
    let log = s["log"].as_array().unwrap().len();
    assert!(log < 20, "{log} entries in the log");
    assert!(
        s.to_string().len() < 20_000,
        "a state of {} bytes",
        s.to_string().len()
    );
}

#[tokio::test]
async fn table_actions_are_capped_per_seat() {
    let (addr, _dir, _) = serve(Options::default()).await;
    let (_, g) = new_game(addr).await;
    let id = g["id"].as_str().unwrap();
    let body = |seat: usize, action: &str| json!({"token": g["tokens"][seat], "action": action});
    let path = format!("/api/games/{id}/act");
    for (seat, m) in [(0, "32-28"), (1, "19-23")] {
        assert_eq!(http(addr, "POST", &path, Some(body(seat, m))).await.0, 200);
    }
    // A takeback asked and refused, again and again: each is a table action of its seat.
    let mut refused = None;
    for round in 0..200 {
        let (status, why) = http(addr, "POST", &path, Some(body(0, "!takeback-offer"))).await;
        if status != 200 {
            refused = Some((round, why));
            break;
        }
        assert_eq!(
            http(addr, "POST", &path, Some(body(1, "!takeback-decline")))
                .await
                .0,
            200
        );
    }
    let (round, why) = refused.expect("the seat was stopped");
    assert!(
        why["error"]
            .as_str()
            .unwrap()
            .contains("the most a seat may"),
        "round {round}: {why}"
    );
    let (_, s) = http(addr, "GET", &format!("/api/games/{id}"), None).await;
    assert!(s["log"].as_array().unwrap().len() <= 2 * 100 + 10);
}

async fn ws(
    addr: SocketAddr,
    id: &str,
    token: &str,
) -> tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>> {
    let (mut socket, _) =
        tokio_tungstenite::connect_async(format!("ws://{addr}/ws/{id}?token={token}"))
            .await
            .unwrap();
    // The state comes first.
    let first = socket.next().await.unwrap().unwrap();
    assert!(first.is_text());
    socket
}

/// Reads until the server's close frame; its code and reason.
async fn close_reason(
    socket: &mut tokio_tungstenite::WebSocketStream<
        tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>,
    >,
) -> (CloseCode, String) {
    let deadline = std::time::Duration::from_secs(20);
    tokio::time::timeout(deadline, async {
        while let Some(m) = socket.next().await {
            match m {
                Ok(Message::Close(Some(f))) => return (f.code, f.reason.to_string()),
                Ok(Message::Close(None)) => panic!("closed without a reason"),
                Ok(_) => continue,
                Err(e) => panic!("closed without a close frame: {e}"),
            }
        }
        panic!("the stream ended without a close frame");
    })
    .await
    .expect("the server closes the connection")
}

#[tokio::test]
async fn websocket_abuse_is_closed_with_a_reason() {
    let (addr, _dir, _) = serve(Options::default()).await;
    let (_, g) = new_game(addr).await;
    let id = g["id"].as_str().unwrap().to_owned();
    let token = g["tokens"][0].as_str().unwrap().to_owned();

    // Too large.
    let mut s = ws(addr, &id, &token).await;
    s.send(Message::text("x".repeat(10_000))).await.unwrap();
    let (code, why) = close_reason(&mut s).await;
    assert_eq!(code, CloseCode::Size, "{why}");
    assert!(why.contains("at most 4096 bytes"), "{why}");

    // Binary.
    let mut s = ws(addr, &id, &token).await;
    s.send(Message::binary(vec![1u8, 2, 3])).await.unwrap();
    let (code, why) = close_reason(&mut s).await;
    assert_eq!(code, CloseCode::Unsupported, "{why}");
    assert!(why.contains("binary"), "{why}");

    // Faster than the pace: sends without reading.
    let mut s = ws(addr, &id, &token).await;
    let ping = json!({"t": "ping"}).to_string();
    for _ in 0..200 {
        if s.send(Message::text(ping.clone())).await.is_err() {
            break;
        }
    }
    let (code, why) = close_reason(&mut s).await;
    assert_eq!(code, CloseCode::Policy, "{why}");
    assert!(why.contains("too many"), "{why}");

    // The game is untouched and others are still served.
    let (status, state) = http(addr, "GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(status, 200);
    assert_eq!(state["v"], 0);
}

#[tokio::test]
async fn a_damaged_game_is_kept_out_and_the_others_are_served() {
    let dir = temp_dir("damaged");
    let store = Store::open(&url(&dir)).await.unwrap();
    let hub = Hub::with_options(Arc::new(store.clone()), Options::default())
        .await
        .unwrap();
    let app = router(hub);
    let mut ids = Vec::new();
    for _ in 0..2 {
        let resp = tower::ServiceExt::oneshot(
            app.clone(),
            axum::http::Request::post("/api/games")
                .header("content-type", "application/json")
                .body(axum::body::Body::from(
                    json!({"family":"draughts","variant":"international",
                        "seats": serde_json::from_str::<Value>(HUMANS).unwrap()})
                    .to_string(),
                ))
                .unwrap(),
        )
        .await
        .unwrap();
        let bytes = http_body_util::BodyExt::collect(resp.into_body())
            .await
            .unwrap()
            .to_bytes();
        let g: Value = serde_json::from_slice(&bytes).unwrap();
        let id = g["id"].as_str().unwrap().to_owned();
        let tok = g["tokens"][0].as_str().unwrap().to_owned();
        let resp = tower::ServiceExt::oneshot(
            app.clone(),
            axum::http::Request::post(format!("/api/games/{id}/act"))
                .header("content-type", "application/json")
                .body(axum::body::Body::from(
                    json!({"token": tok, "action": "32-28"}).to_string(),
                ))
                .unwrap(),
        )
        .await
        .unwrap();
        assert_eq!(resp.status(), 200);
        ids.push(id);
    }
    drop(app);
    // The first game's move is changed into one that is not legal.
    let pool = sqlx::SqlitePool::connect(&url(&dir)).await.unwrap();
    let changed =
        sqlx::query("UPDATE actions SET action = '32-23' WHERE game_id = ? AND side = 'white'")
            .bind(&ids[0])
            .execute(&pool)
            .await
            .unwrap()
            .rows_affected();
    assert_eq!(changed, 1);
    pool.close().await;

    let store = Store::open(&url(&dir)).await.unwrap();
    let hub = Hub::with_options(Arc::new(store), Options::default())
        .await
        .expect("the server starts despite one damaged game");
    let damaged = hub.damaged_games().await;
    assert_eq!(damaged.len(), 1, "{damaged:?}");
    assert_eq!(damaged[0].0, ids[0]);
    let app = router(hub);
    let get = |id: &str| {
        tower::ServiceExt::oneshot(
            app.clone(),
            axum::http::Request::get(format!("/api/games/{id}"))
                .body(axum::body::Body::empty())
                .unwrap(),
        )
    };
    let resp = get(&ids[0]).await.unwrap();
    assert_eq!(resp.status(), 500);
    let bytes = http_body_util::BodyExt::collect(resp.into_body())
        .await
        .unwrap()
        .to_bytes();
    let body: Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(body["damaged"], true, "{body}");
    assert_eq!(get(&ids[1]).await.unwrap().status(), 200);
}

#[tokio::test]
async fn a_file_that_is_not_a_database_is_named_at_once() {
    let dir = temp_dir("notdb");
    let path = dir.path().join("t.sqlite");
    // Text; a zeroed header; a real database cut in half.
    // A real database of some size, written back into its file (no write-ahead log).
    let real = {
        let d = temp_dir("real");
        let store = Store::open(&url(&d)).await.unwrap();
        drop(store);
        let pool = sqlx::SqlitePool::connect(&url(&d)).await.unwrap();
        sqlx::query("CREATE TABLE filler (x TEXT)")
            .execute(&pool)
            .await
            .unwrap();
        for i in 0..2000 {
            sqlx::query("INSERT INTO filler VALUES (?)")
                .bind(format!("{i:0>200}"))
                .execute(&pool)
                .await
                .unwrap();
        }
        sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)")
            .execute(&pool)
            .await
            .unwrap();
        pool.close().await;
        std::fs::read(d.path().join("t.sqlite")).unwrap()
    };
    assert!(real.len() > 100_000, "{} bytes", real.len());
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("text", b"hello, this is not a database\n".repeat(200)),
        ("zeroed header", {
            let mut r = real.clone();
            r[..100].fill(0);
            r
        }),
        ("cut in half", real[..real.len() / 2].to_vec()),
    ];
    for (what, bytes) in cases {
        std::fs::write(&path, &bytes).unwrap();
        for side_file in ["t.sqlite-wal", "t.sqlite-shm"] {
            let _ = std::fs::remove_file(dir.path().join(side_file));
        }
        let started = std::time::Instant::now();
        let e = Store::open(&url(&dir)).await.expect_err(what).to_string();
        assert!(
            e.contains("not a database") || e.contains("damaged") || e.contains("malformed"),
            "{what}: {e}"
        );
        assert!(e.contains("t.sqlite"), "{what}: the file is named: {e}");
        // Not the pool's 30-second wait.
        assert!(
            started.elapsed().as_secs() < 25,
            "{what}: {:?}",
            started.elapsed()
        );
    }
}

#[tokio::test]
async fn engine_seats_think_on_a_fixed_pool_of_workers() {
    let (addr, _dir, hub) = serve(Options {
        engine_workers: 1,
        engine_games: true,
        ..Options::default()
    })
    .await;
    let mut ids = Vec::new();
    for _ in 0..3 {
        let (status, g) = http(
            addr,
            "POST",
            "/api/games",
            Some(json!({"family": "draughts", "variant": "international",
                "seats": [{"kind":"engine","level":1},{"kind":"engine","level":1}]})),
        )
        .await;
        assert_eq!(status, 200, "{g}");
        ids.push(g["id"].as_str().unwrap().to_owned());
    }
    tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
    // Every game went on, one engine thinking at a time.
    for id in &ids {
        let (_, s) = http(addr, "GET", &format!("/api/games/{id}"), None).await;
        assert!(s["v"].as_u64().unwrap() >= 2, "{id} stalled: {s}");
    }
    assert_eq!(hub.engine_peak(), 1);
}
