//! The tablier web server: every game played in the browser, against the engine or a friend.
//!
//! * Games are driven through the [`tablier_core::Game`] trait only ([`table`]), with actions
//!   in each game's notation.
//! * A game has a public id (for spectators) and a secret token per human seat (the player's
//!   link), as lidraughts does; tokens are kept only as SHA-256 hashes.
//! * Every accepted action is stored ([`store`], SQLite or PostgreSQL) before it is announced;
//!   events are numbered (the number of actions so far) and each carries the whole state, so a
//!   client that reconnects is in step again with the first message it gets.
//! * The server throws the dice from a seed whose SHA-256 is published when the game starts
//!   and the seed itself when it ends ([`room::verify`] recomputes every roll).
//! * Engine seats think off the async runtime's threads ([`engine`]).
//!
//! # Protocol
//! HTTP: `POST /api/games` creates a game from a JSON body
//! `{"family": "draughts"|"backgammon"|"trictrac", "variant": ..., "match_length": ...,
//! "seats": [{"kind": "human"}, {"kind": "engine", "level": 2}], "clock": {"initial_s":
//! 300, "increment_s": 5}}` and answers `{"id", "tokens": [white, black]}` (a token for each
//! human seat). `GET /api/games/{id}` gives the state, `GET /api/games/{id}/record` the record
//! (`tablier verify` checks it once the game is over), `GET /api/games/{id}/export` the game
//! in its family's file format (PDN, `.mat`, trictrac JSON lines), `POST
//! /api/games/{id}/act` `{"token", "action"}` acts without a socket.
//!
//! WebSocket `GET /ws/{id}?token=...&v=N` (no token: a spectator): the server sends
//! `{"t": "hello", "you": "white"|"black"|null}` and then a `state` message each time the game
//! changes (and at once, if the client's `v` is behind). A seat sends
//! `{"t": "act", "action": "32-28", "ack": 7}` and gets `{"t": "ack", "ack": 7}` or
//! `{"t": "error", "ack": 7, "reason": "..."}`; table actions are `!resign`, `!draw-offer`,
//! `!draw-accept`, `!draw-decline`.
#![forbid(unsafe_code)]

pub mod engine;
pub mod room;
pub mod store;
pub mod table;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use serde_json::{json, Value};
use tablier_core::Side;
use tokio::sync::Mutex;

use room::{Refusal, Room, SeatKind, TableSpec};
use store::Store;
use table::GameSpec;

/// The largest message a client may send (bytes).
pub const MAX_MESSAGE: usize = 4096;

/// A random token of `len` letters and digits (about 5.95 bits each).
pub fn new_token(rng: &mut impl rand::RngCore, len: usize) -> String {
    const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    (0..len)
        .map(|_| {
            // Rejection keeps the letters equally likely.
            loop {
                let b = (rng.next_u32() & 0xff) as usize;
                if b < 248 {
                    return ALPHABET[b % 62] as char;
                }
            }
        })
        .collect()
}

/// The server's shared state: the store and the live games.
#[derive(Clone)]
pub struct Hub {
    store: Store,
    rooms: Arc<Mutex<HashMap<String, Arc<Mutex<Room>>>>>,
}

/// An error answered to a client: a status and a reason in words.
#[derive(Debug)]
pub struct ApiError(StatusCode, String);

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.0, Json(json!({ "error": self.1 }))).into_response()
    }
}

impl From<Refusal> for ApiError {
    fn from(r: Refusal) -> Self {
        match r {
            Refusal::Illegal(why) => ApiError(StatusCode::UNPROCESSABLE_ENTITY, why),
            Refusal::Storage => ApiError(StatusCode::SERVICE_UNAVAILABLE, r.to_string()),
        }
    }
}

fn not_found() -> ApiError {
    ApiError(StatusCode::NOT_FOUND, "no such game".into())
}

impl Hub {
    /// A hub on a store, taking up every unfinished game it holds.
    ///
    /// # Errors
    /// When the store cannot be read or a stored game does not replay.
    pub async fn new(store: Store) -> Result<Hub, String> {
        let hub = Hub {
            store,
            rooms: Arc::new(Mutex::new(HashMap::new())),
        };
        let ids = hub.store.unfinished().await.map_err(|e| e.to_string())?;
        for id in ids {
            let room = hub
                .load(&id)
                .await
                .map_err(|e| format!("game {id}: {e:?}"))?;
            if let Some(room) = room {
                hub.kick(room).await;
            }
        }
        Ok(hub)
    }

    /// The live room of a game, loading it from the store if needed.
    async fn load(&self, id: &str) -> Result<Option<Arc<Mutex<Room>>>, ApiError> {
        if id.len() > 32 || !id.chars().all(|c| c.is_ascii_alphanumeric()) {
            return Ok(None);
        }
        let mut rooms = self.rooms.lock().await;
        if let Some(r) = rooms.get(id) {
            return Ok(Some(r.clone()));
        }
        let internal = |e: store::StoreError| {
            tracing::error!("{e}");
            ApiError(
                StatusCode::SERVICE_UNAVAILABLE,
                "storage unavailable".into(),
            )
        };
        let Some(game) = self.store.game(id).await.map_err(internal)? else {
            return Ok(None);
        };
        let actions = self.store.actions(id).await.map_err(internal)?;
        let room = Room::restore(&game, actions).map_err(|e| {
            tracing::error!("game {id} does not replay: {e}");
            ApiError(
                StatusCode::INTERNAL_SERVER_ERROR,
                "this game's record is damaged".into(),
            )
        })?;
        let room = Arc::new(Mutex::new(room));
        rooms.insert(id.to_owned(), room.clone());
        Ok(Some(room))
    }

    /// After a change: start the engine if it is to act, and the clock's watch.
    fn kick(&self, room: Arc<Mutex<Room>>) -> impl std::future::Future<Output = ()> + Send {
        let hub = self.clone();
        async move {
            let (engine, version, flag_in) = {
                let r = room.lock().await;
                (r.engine_to_act(), r.version(), r.ms_to_flag())
            };
            if let Some((side, level)) = engine {
                let hub2 = hub.clone();
                let room2 = room.clone();
                tokio::spawn(async move {
                    let table = room2.lock().await.table_copy();
                    let choice = tokio::task::spawn_blocking(move || {
                        let mut rng = rand::thread_rng();
                        engine::choose(table.as_ref(), side, level, &mut rng)
                    })
                    .await
                    .ok()
                    .flatten();
                    if let Some(text) = choice {
                        let ok = {
                            let mut r = room2.lock().await;
                            r.version() == version && r.act(&hub2.store, side, &text).await.is_ok()
                        };
                        if ok {
                            Box::pin(hub2.kick(room2)).await;
                        }
                    }
                });
            }
            if let Some(ms) = flag_in {
                let hub2 = hub.clone();
                tokio::spawn(async move {
                    tokio::time::sleep(std::time::Duration::from_millis(ms as u64 + 20)).await;
                    let flagged = {
                        let mut r = room.lock().await;
                        r.version() == version && r.check_flag(&hub2.store).await.unwrap_or(false)
                    };
                    let _ = flagged;
                });
            }
        }
    }
}

/// A client's request for a new game.
#[derive(Debug, Deserialize)]
pub struct CreateGame {
    /// The game.
    #[serde(flatten)]
    pub game: GameSpec,
    /// White's and black's seats (default: white human, black engine level 1).
    #[serde(default)]
    pub seats: Option<[SeatKind; 2]>,
    /// The clock, if any.
    #[serde(default)]
    pub clock: Option<room::ClockSpec>,
}

async fn create_game(
    State(hub): State<Hub>,
    body: Result<Json<CreateGame>, axum::extract::rejection::JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    let Json(req) = body.map_err(|e| ApiError(e.status(), e.body_text()))?;
    let seats = req
        .seats
        .unwrap_or([SeatKind::Human, SeatKind::Engine { level: 1 }]);
    for s in &seats {
        if let SeatKind::Engine { level } = s {
            if *level > engine::MAX_LEVEL {
                return Err(ApiError(
                    StatusCode::BAD_REQUEST,
                    format!("engine levels go from 0 to {}", engine::MAX_LEVEL),
                ));
            }
        }
    }
    if let Some(c) = req.clock {
        if c.initial_s == 0 || c.initial_s > 24 * 3600 || c.increment_s > 3600 {
            return Err(ApiError(
                StatusCode::BAD_REQUEST,
                "a clock of 1 s to 24 h, and an increment up to an hour".into(),
            ));
        }
    }
    let id = new_token(&mut rand::thread_rng(), 8);
    let spec = TableSpec {
        game: req.game,
        clock: req.clock,
    };
    let (room, tokens) = Room::create(&hub.store, id.clone(), spec, seats).await?;
    let room = Arc::new(Mutex::new(room));
    hub.rooms.lock().await.insert(id.clone(), room.clone());
    hub.kick(room).await;
    Ok(Json(json!({ "id": id, "tokens": tokens })))
}

async fn game_state(
    State(hub): State<Hub>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let room = hub.load(&id).await?.ok_or_else(not_found)?;
    let state = room.lock().await.state();
    Ok(Json(state))
}

async fn game_record(
    State(hub): State<Hub>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let room = hub.load(&id).await?.ok_or_else(not_found)?;
    let record = room.lock().await.record();
    Ok(Json(record))
}

/// A seat's action over HTTP.
#[derive(Debug, Deserialize)]
struct ActBody {
    token: String,
    action: String,
}

async fn act_http(
    State(hub): State<Hub>,
    Path(id): Path<String>,
    body: Result<Json<ActBody>, axum::extract::rejection::JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    let Json(body) = body.map_err(|e| ApiError(e.status(), e.body_text()))?;
    let room = hub.load(&id).await?.ok_or_else(not_found)?;
    {
        let mut r = room.lock().await;
        let side = r.seat_of(&body.token).ok_or_else(|| {
            ApiError(
                StatusCode::FORBIDDEN,
                "that token opens no seat of this game".into(),
            )
        })?;
        r.act(&hub.store, side, &body.action).await?;
    }
    hub.kick(room.clone()).await;
    let state = room.lock().await.state();
    Ok(Json(state))
}

async fn export(State(hub): State<Hub>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let room = hub.load(&id).await?.ok_or_else(not_found)?;
    let r = room.lock().await;
    let (kind, body) =
        export::export(&r).map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, e))?;
    Ok(([(header::CONTENT_TYPE, kind)], body).into_response())
}

pub mod export;

#[derive(Debug, Deserialize)]
struct WsQuery {
    #[serde(default)]
    token: Option<String>,
    #[serde(default)]
    v: Option<u64>,
}

async fn ws_handler(
    State(hub): State<Hub>,
    Path(id): Path<String>,
    Query(q): Query<WsQuery>,
    ws: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    let room = hub.load(&id).await?.ok_or_else(not_found)?;
    let seat = match &q.token {
        Some(t) => Some(room.lock().await.seat_of(t).ok_or_else(|| {
            ApiError(
                StatusCode::FORBIDDEN,
                "that token opens no seat of this game".into(),
            )
        })?),
        None => None,
    };
    Ok(ws
        .max_message_size(MAX_MESSAGE)
        .on_upgrade(move |socket| client(hub, room, seat, q.v, socket)))
}

/// One WebSocket client: the state on every change; a seat's actions in.
async fn client(
    hub: Hub,
    room: Arc<Mutex<Room>>,
    seat: Option<Side>,
    seen: Option<u64>,
    socket: WebSocket,
) {
    let (mut tx, mut rx) = socket.split();
    let (mut events, state, version) = {
        let r = room.lock().await;
        (r.tx.subscribe(), r.state().to_string(), r.version())
    };
    let hello = json!({"t": "hello", "you": seat.map(room::side_name)}).to_string();
    if tx.send(Message::Text(hello.into())).await.is_err() {
        return;
    }
    // A client already up to date gets no state until the next change.
    if seen != Some(version) && tx.send(Message::Text(state.into())).await.is_err() {
        return;
    }
    let (out_tx, mut out_rx) = tokio::sync::mpsc::channel::<String>(16);
    let writer = tokio::spawn(async move {
        loop {
            tokio::select! {
                ev = events.recv() => match ev {
                    Ok(s) => if tx.send(Message::Text(s.as_str().into())).await.is_err() { break },
                    Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => continue,
                    Err(_) => break,
                },
                msg = out_rx.recv() => match msg {
                    Some(s) => if tx.send(Message::Text(s.into())).await.is_err() { break },
                    None => break,
                },
            }
        }
    });
    while let Some(Ok(msg)) = rx.next().await {
        let text = match msg {
            Message::Text(t) => t.to_string(),
            Message::Close(_) => break,
            _ => continue,
        };
        let reply = handle_message(&hub, &room, seat, &text).await;
        if out_tx.send(reply.to_string()).await.is_err() {
            break;
        }
    }
    writer.abort();
}

async fn handle_message(
    hub: &Hub,
    room: &Arc<Mutex<Room>>,
    seat: Option<Side>,
    text: &str,
) -> Value {
    let msg: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(_) => return json!({"t": "error", "reason": "messages are JSON objects"}),
    };
    let ack = msg.get("ack").cloned().unwrap_or(Value::Null);
    let refuse = |reason: &str| json!({"t": "error", "ack": ack, "reason": reason});
    match msg.get("t").and_then(Value::as_str) {
        Some("ping") => json!({"t": "pong", "ack": ack}),
        Some("act") => {
            let Some(side) = seat else {
                return refuse("spectators cannot act");
            };
            let Some(action) = msg.get("action").and_then(Value::as_str) else {
                return refuse("an act message has an \"action\" string");
            };
            let result = {
                let mut r = room.lock().await;
                r.act(&hub.store, side, action).await
            };
            match result {
                Ok(()) => {
                    hub.kick(room.clone()).await;
                    json!({"t": "ack", "ack": ack})
                }
                Err(e) => refuse(&e.to_string()),
            }
        }
        _ => refuse("unknown message type (act or ping)"),
    }
}

#[derive(rust_embed::RustEmbed)]
#[folder = "../../web/"]
struct Assets;

async fn asset(Path(path): Path<String>) -> Response {
    serve_asset(&path)
}

fn serve_asset(path: &str) -> Response {
    match Assets::get(path) {
        Some(file) => {
            let kind = match path.rsplit('.').next() {
                Some("html") => "text/html; charset=utf-8",
                Some("js") => "text/javascript; charset=utf-8",
                Some("css") => "text/css; charset=utf-8",
                Some("svg") => "image/svg+xml",
                _ => "application/octet-stream",
            };
            ([(header::CONTENT_TYPE, kind)], file.data.into_owned()).into_response()
        }
        None => (StatusCode::NOT_FOUND, "not found").into_response(),
    }
}

/// The application's routes on a hub.
pub fn router(hub: Hub) -> Router {
    Router::new()
        .route("/", get(|| async { serve_asset("index.html") }))
        .route("/g/{id}", get(|| async { serve_asset("game.html") }))
        .route("/static/{*path}", get(asset))
        .route("/api/games", post(create_game))
        .route("/api/games/{id}", get(game_state))
        .route("/api/games/{id}/record", get(game_record))
        .route("/api/games/{id}/export", get(export))
        .route("/api/games/{id}/act", post(act_http))
        .route("/ws/{id}", get(ws_handler))
        .layer(DefaultBodyLimit::max(16 * 1024))
        .with_state(hub)
}

/// Runs the server on `addr` with the database at `database` until Ctrl-C.
///
/// # Errors
/// When the database cannot be opened or the address bound.
pub async fn serve(addr: SocketAddr, database: &str) -> Result<(), String> {
    let store = Store::open(database).await.map_err(|e| e.to_string())?;
    let hub = Hub::new(store).await?;
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    println!(
        "tablier: serving on http://{}",
        listener.local_addr().map_err(|e| e.to_string())?
    );
    axum::serve(listener, router(hub))
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
        .map_err(|e| e.to_string())
}
