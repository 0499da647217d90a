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
//! * Several nodes may share one PostgreSQL database ([`Hub::join_cluster`]): each game is
//!   owned by one node, which alone writes it and runs its engines and clock; any node serves
//!   it to its own clients through a mirror that follows the event bus ([`store::EventBus`],
//!   PostgreSQL `NOTIFY`), and hands their actions to the owner over HTTP. A node whose
//!   heartbeat stops for [`store::STALE_MS`] is taken for dead and its games are claimed by
//!   the others.
//!
//! # Protocol
//! HTTP: `POST /api/games` creates a game from a JSON body
//! `{"family": "draughts"|"backgammon"|"trictrac", "variant": ..., "match_length": ...,
//! "seats": [{"kind": "human"}, {"kind": "engine", "level": 2}], "clock": {"initial_s":
//! 300, "increment_s": 5}}` and answers `{"id", "tokens": [white, black]}` (a token for each
//! human seat). `GET /api/games/{id}` gives the state, `GET /api/games/{id}/record` the record
//! (`tablier verify` checks it once the game is over), `GET /api/games/{id}/export` the game
//! in its family's file format (PDN, `.mat`, trictrac JSON lines), `GET
//! /api/games/{id}/review` (finished games) every position with the engine's judgement, `POST
//! /api/games/{id}/act` `{"token", "action"}` acts without a socket.
//!
//! WebSocket `GET /ws/{id}?token=...&v=N` (no token: a spectator), typed in [`ws`] and
//! written down with an example of every message in `docs/PROTOCOL.md`: the server sends
//! `{"t": "hello", "you": "white"|"black"|null}` and then a `state` message each time the game
//! changes (and at once, if the client's `v` is behind). A seat sends
//! `{"t": "act", "action": "32-28", "ack": 7}` and gets `{"t": "ack", "ack": 7}` or
//! `{"t": "error", "ack": 7, "reason": "..."}`; table actions are `!resign`, `!draw-offer`,
//! `!draw-accept`, `!draw-decline`.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod engine;
pub mod room;
pub mod store;
pub mod table;
pub mod ws;

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::num::NonZeroU32;
use std::sync::Arc;

use axum::extract::{ConnectInfo, DefaultBodyLimit, Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Extension, Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};
use tablier_core::Side;
use tokio::sync::Mutex;

use room::{now_ms, Refusal, Room, Seat, SeatKind, TableSpec};
use store::{EventBus, Storage, Store, StoreError, SOLE_NODE, STALE_MS};
use table::GameSpec;

type HttpClient = hyper_util::client::legacy::Client<
    hyper_util::client::legacy::connect::HttpConnector,
    http_body_util::Full<axum::body::Bytes>,
>;

/// The largest message a client may send (bytes).
pub const MAX_MESSAGE: usize = 4096;

/// The largest WebSocket message read at all (bytes): between [`MAX_MESSAGE`] and this, the
/// client is told why its connection closes; beyond it the socket is dropped.
const MAX_READ: usize = 64 * 1024;

/// How long a send to a WebSocket client may wait for it to read, before the connection is
/// given up.
const SEND_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

/// What a server allows each client, and the CPU its engines may take together.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// New games one client address may create per minute, sustained (0: no limit).
    pub games_per_minute: u32,
    /// New games one client address may create at once before the per-minute pace applies.
    pub games_burst: u32,
    /// Engine seats that may think at the same time; the others wait in line (first come,
    /// first served).
    pub engine_workers: usize,
    /// Whether a game may have two engine seats (engine against engine): off by default,
    /// as such games take CPU with nobody playing.
    pub engine_games: bool,
    /// WebSocket messages one connection may send per second, sustained (0: no limit).
    pub messages_per_second: u32,
    /// WebSocket messages one connection may send at once before the per-second pace
    /// applies.
    pub messages_burst: u32,
}

impl Default for Options {
    /// 6 games a minute per address after a burst of 20; engines on half the cores (at
    /// least one); no engine-against-engine games; 20 messages a second per connection after
    /// a burst of 60.
    fn default() -> Options {
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        Options {
            games_per_minute: 6,
            games_burst: 20,
            engine_workers: (cores / 2).max(1),
            engine_games: false,
            messages_per_second: 20,
            messages_burst: 60,
        }
    }
}

impl Options {
    /// No limits on games or messages and engine games allowed (tests and benchmarks that
    /// drive the server hard on purpose); engines on every core.
    #[must_use]
    pub fn unlimited() -> Options {
        Options {
            games_per_minute: 0,
            games_burst: 0,
            engine_workers: std::thread::available_parallelism().map_or(1, usize::from),
            engine_games: true,
            messages_per_second: 0,
            messages_burst: 0,
        }
    }
}

type AddressLimiter = governor::DefaultKeyedRateLimiter<IpAddr>;

/// A GCRA quota of `per` a `period` after `burst` (`None` when `per` is 0: no limit).
fn quota(per: u32, burst: u32, period: std::time::Duration) -> Option<governor::Quota> {
    let per = NonZeroU32::new(per)?;
    let burst = NonZeroU32::new(burst.max(1)).expect("at least 1");
    governor::Quota::with_period(period / per.get()).map(|q| q.allow_burst(burst))
}

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

/// The server's shared state: the store and the live games (owned, or mirrors of games
/// another node owns).
#[derive(Clone)]
pub struct Hub {
    store: Arc<dyn Storage>,
    rooms: Arc<Mutex<HashMap<String, Arc<Mutex<Room>>>>>,
    http: HttpClient,
    /// Reviews of finished games (they never change), computed once.
    reviews: Arc<Mutex<HashMap<String, Arc<String>>>>,
    /// Games whose stored record does not replay: kept out of play, with the reason (logged).
    damaged: Arc<Mutex<HashMap<String, String>>>,
    /// The limits in force.
    options: Options,
    /// New games per client address.
    creations: Option<Arc<AddressLimiter>>,
    /// One permit per engine seat allowed to think at once.
    engines: Arc<tokio::sync::Semaphore>,
    /// Engine seats thinking now, and the most there ever were at once.
    thinking: Arc<(
        std::sync::atomic::AtomicUsize,
        std::sync::atomic::AtomicUsize,
    )>,
}

/// An error answered to a client: a status and a reason in words.
#[derive(Debug)]
pub struct ApiError(StatusCode, String);

/// What a client is told about a game whose record does not replay.
const DAMAGED: &str = "this game's record is damaged: it is kept out of play";

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = if self.1 == DAMAGED {
            json!({ "error": self.1, "damaged": true })
        } else {
            json!({ "error": self.1 })
        };
        (self.0, Json(body)).into_response()
    }
}

impl From<Refusal> for ApiError {
    fn from(r: Refusal) -> Self {
        match r {
            Refusal::Illegal(why) => ApiError(StatusCode::UNPROCESSABLE_ENTITY, why),
            Refusal::Storage | Refusal::Moved => {
                ApiError(StatusCode::SERVICE_UNAVAILABLE, r.to_string())
            }
        }
    }
}

fn not_found() -> ApiError {
    ApiError(StatusCode::NOT_FOUND, "no such game".into())
}

fn unavailable(e: StoreError) -> ApiError {
    tracing::error!("{e}");
    ApiError(
        StatusCode::SERVICE_UNAVAILABLE,
        "storage unavailable".into(),
    )
}

fn damaged(id: &str, e: &str) -> ApiError {
    tracing::error!("game {id} does not replay: {e}");
    ApiError(StatusCode::INTERNAL_SERVER_ERROR, DAMAGED.into())
}

impl Hub {
    /// A hub on a store with the default [`Options`], taking up every unfinished game it
    /// owns.
    ///
    /// # Errors
    /// When the store cannot be read.
    pub async fn new(store: Store) -> Result<Hub, String> {
        Hub::with_options(Arc::new(store), Options::default()).await
    }

    /// A hub on any [`Storage`] with the default [`Options`].
    ///
    /// # Errors
    /// When the store cannot be read.
    pub async fn with_storage(store: Arc<dyn Storage>) -> Result<Hub, String> {
        Hub::with_options(store, Options::default()).await
    }

    /// A hub on any [`Storage`] with `options`, taking up every unfinished game this node
    /// owns, except games between two engines (they wait until someone opens them). A game
    /// that does not replay is logged and kept out of play; the others are served.
    ///
    /// # Errors
    /// When the store cannot be read.
    pub async fn with_options(store: Arc<dyn Storage>, options: Options) -> Result<Hub, String> {
        let http =
            hyper_util::client::legacy::Client::builder(hyper_util::rt::TokioExecutor::new())
                .build_http();
        let creations = quota(
            options.games_per_minute,
            options.games_burst,
            std::time::Duration::from_secs(60),
        )
        .map(|q| Arc::new(governor::RateLimiter::keyed(q)));
        let hub = Hub {
            store,
            rooms: Arc::new(Mutex::new(HashMap::new())),
            http,
            reviews: Arc::new(Mutex::new(HashMap::new())),
            damaged: Arc::new(Mutex::new(HashMap::new())),
            engines: Arc::new(tokio::sync::Semaphore::new(options.engine_workers.max(1))),
            thinking: Arc::default(),
            options,
            creations,
        };
        let ids = hub.store.unfinished().await.map_err(|e| e.to_string())?;
        let (mut taken, mut waiting) = (0, 0);
        for id in ids {
            match hub.store.game(&id).await.map_err(|e| e.to_string())? {
                Some(g) if engines_only(&g.seats) => {
                    waiting += 1;
                    continue;
                }
                _ => {}
            }
            // A game that does not replay is logged by `load` and kept out of play.
            if hub.load(&id).await.is_ok() {
                taken += 1;
            }
        }
        let damaged = hub.damaged.lock().await.len();
        tracing::info!(
            "{taken} unfinished games taken up, {waiting} engine-only games left until opened, {damaged} damaged"
        );
        Ok(hub)
    }

    /// The most engine seats that were ever thinking at the same time on this hub (never
    /// more than [`Options::engine_workers`]).
    #[must_use]
    pub fn engine_peak(&self) -> usize {
        self.thinking.1.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// The games kept out of play because their records do not replay, with the reasons.
    pub async fn damaged_games(&self) -> Vec<(String, String)> {
        let mut v: Vec<_> = self
            .damaged
            .lock()
            .await
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        v.sort();
        v
    }

    /// Makes this hub one node of several on a shared database: it says it is alive at
    /// `url` every second, claims the games of nodes that stopped saying so, and keeps its
    /// mirrors in step with the events of `bus`.
    pub fn join_cluster(&self, bus: Arc<dyn EventBus>, url: String) {
        let hub = self.clone();
        let mut events = bus.subscribe();
        tokio::spawn(async move {
            loop {
                match events.recv().await {
                    Ok(e) => {
                        let room = hub.rooms.lock().await.get(&e.game).cloned();
                        if let Some(room) = room {
                            let behind = {
                                let r = room.lock().await;
                                r.mirror_of.is_some() && (r.version() as i64) < e.v
                            };
                            if behind {
                                hub.refresh(&room).await;
                            }
                        }
                    }
                    Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {
                        // Events were lost: every mirror reads what it missed.
                        let rooms: Vec<_> = hub.rooms.lock().await.values().cloned().collect();
                        for room in rooms {
                            hub.refresh(&room).await;
                        }
                    }
                    Err(_) => break,
                }
            }
        });
        let hub = self.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(std::time::Duration::from_millis(1000));
            let mut n = 0u64;
            loop {
                tick.tick().await;
                if let Err(e) = hub.store.heartbeat(&url).await {
                    tracing::warn!("heartbeat: {e}");
                    continue;
                }
                n += 1;
                if n.is_multiple_of(2) {
                    hub.claim_orphans().await;
                }
            }
        });
    }

    /// Takes over the unfinished games of nodes that have gone silent.
    async fn claim_orphans(&self) {
        let orphans = match self.store.orphans(now_ms() - STALE_MS).await {
            Ok(o) => o,
            Err(e) => {
                tracing::warn!("orphans: {e}");
                return;
            }
        };
        for (id, _) in orphans {
            let room = self.rooms.lock().await.get(&id).cloned();
            match room {
                Some(room) => self.take_over(&room).await,
                None => {
                    // Loading claims a game whose owner is silent.
                    if let Err(e) = self.load(&id).await {
                        tracing::warn!("claiming {id}: {e:?}");
                    }
                }
            }
        }
    }

    /// Whether `node`'s last heartbeat is recent, and where it listens.
    async fn alive(&self, node: &str) -> Result<Option<String>, StoreError> {
        Ok(self
            .store
            .node_seen(node)
            .await?
            .filter(|(_, seen)| *seen >= now_ms() - STALE_MS)
            .map(|(url, _)| url))
    }

    /// The live room of a game, loading it from the store if needed: owned when this node
    /// owns it (or claims it, its owner silent), a mirror when another live node does.
    async fn load(&self, id: &str) -> Result<Option<Arc<Mutex<Room>>>, ApiError> {
        if id.len() > 32 || !id.chars().all(|c| c.is_ascii_alphanumeric()) {
            return Ok(None);
        }
        let mut rooms = self.rooms.lock().await;
        if let Some(r) = rooms.get(id) {
            return Ok(Some(r.clone()));
        }
        if self.damaged.lock().await.contains_key(id) {
            return Err(ApiError(StatusCode::INTERNAL_SERVER_ERROR, DAMAGED.into()));
        }
        let Some(mut game) = self.store.game(id).await.map_err(unavailable)? else {
            return Ok(None);
        };
        let me = self.store.node().to_owned();
        let mut mirror_of = None;
        let mut owned = game.result.is_none();
        if owned && me != SOLE_NODE && game.owner.as_deref() != Some(me.as_str()) {
            let alive = match &game.owner {
                Some(o) => self.alive(o).await.map_err(unavailable)?.is_some(),
                None => false,
            };
            let claimed = !alive
                && self
                    .store
                    .claim(id, game.owner.as_deref())
                    .await
                    .map_err(unavailable)?;
            if !claimed {
                // Another node owns it (or has just claimed it).
                game = self
                    .store
                    .game(id)
                    .await
                    .map_err(unavailable)?
                    .ok_or_else(not_found)?;
                mirror_of = game.owner.clone();
                owned = false;
            }
        }
        let actions = self.store.actions_after(id, 0).await.map_err(unavailable)?;
        let mut room = match Room::restore(&game, actions) {
            Ok(room) => room,
            Err(e) => {
                self.damaged.lock().await.insert(id.to_owned(), e.clone());
                return Err(damaged(id, &e));
            }
        };
        room.mirror_of = mirror_of;
        if owned {
            // The clock of the side to move goes on from now, not from before the outage.
            if let Err(e) = room.resume_clock(&*self.store).await {
                tracing::error!("game {id}: cannot resume its clock: {e}");
                return Err(ApiError(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "storage unavailable".into(),
                ));
            }
        }
        let room = Arc::new(Mutex::new(room));
        rooms.insert(id.to_owned(), room.clone());
        drop(rooms);
        if owned {
            self.kick(room.clone()).await;
        }
        Ok(Some(room))
    }

    /// A mirror reads the actions it has not seen yet.
    async fn refresh(&self, room: &Arc<Mutex<Room>>) {
        let mut r = room.lock().await;
        if r.mirror_of.is_none() {
            return;
        }
        match self.store.actions_after(&r.id, r.version() as i64).await {
            Ok(actions) => {
                if let Err(e) = r.catch_up(&actions) {
                    tracing::error!("mirror of {}: {e}", r.id);
                }
            }
            Err(e) => tracing::warn!("mirror of {}: {e}", r.id),
        }
    }

    /// A mirror whose owner has gone silent becomes this node's own game (if no other node
    /// was quicker); an owned room that lost its game to another node becomes a mirror.
    async fn take_over(&self, room: &Arc<Mutex<Room>>) {
        let (id, previous) = {
            let r = room.lock().await;
            (r.id.clone(), r.mirror_of.clone())
        };
        let claimed = match &previous {
            Some(p) if p != self.store.node() => match self.alive(p).await {
                Ok(None) => self.store.claim(&id, Some(p)).await.unwrap_or(false),
                _ => false,
            },
            _ => false,
        };
        let Ok(Some(game)) = self.store.game(&id).await else {
            return;
        };
        if claimed {
            let Ok(actions) = self.store.actions_after(&id, 0).await else {
                return;
            };
            match Room::restore(&game, actions) {
                Ok(mut fresh) => {
                    let mut r = room.lock().await;
                    fresh.tx = r.tx.clone();
                    *r = fresh;
                    if let Err(e) = r.resume_clock(&*self.store).await {
                        tracing::error!("game {id}: cannot resume its clock: {e}");
                    }
                    r.announce();
                }
                Err(e) => {
                    tracing::error!("game {id} does not replay: {e}");
                    return;
                }
            }
            tracing::info!("took over game {id} from node {previous:?}");
            self.kick(room.clone()).await;
        } else {
            let mut r = room.lock().await;
            if game.owner.as_deref() != Some(self.store.node()) && game.result.is_none() {
                r.mirror_of = game.owner.clone();
            }
            drop(r);
            self.refresh(room).await;
        }
    }

    /// A seat's action, on this node if it owns the game, otherwise handed to the owner.
    async fn act(
        &self,
        room: &Arc<Mutex<Room>>,
        side: Side,
        token: &str,
        action: &str,
    ) -> Result<(), ApiError> {
        for _ in 0..3 {
            let outcome = {
                let mut r = room.lock().await;
                match r.mirror_of.clone() {
                    None => Ok(r.act(&*self.store, side, action).await),
                    Some(owner) => Err(owner),
                }
            };
            match outcome {
                Ok(Ok(())) => {
                    self.kick(room.clone()).await;
                    return Ok(());
                }
                Ok(Err(Refusal::Moved)) => {
                    // Another node claimed the game: follow it, then hand it the action.
                    self.take_over(room).await;
                }
                Ok(Err(e)) => return Err(e.into()),
                Err(owner) => match self.forward(room, &owner, token, action).await {
                    Ok(()) => return Ok(()),
                    Err(None) => self.take_over(room).await,
                    Err(Some(e)) => return Err(e),
                },
            }
        }
        Err(Refusal::Moved.into())
    }

    /// Hands an action to the node that owns the game. `Err(None)`: the owner is gone.
    async fn forward(
        &self,
        room: &Arc<Mutex<Room>>,
        owner: &str,
        token: &str,
        action: &str,
    ) -> Result<(), Option<ApiError>> {
        let id = room.lock().await.id.clone();
        let Some(url) = self.alive(owner).await.map_err(|e| Some(unavailable(e)))? else {
            return Err(None);
        };
        let body = json!({"token": token, "action": action}).to_string();
        let req = axum::http::Request::post(format!("{url}/api/games/{id}/act"))
            .header(header::CONTENT_TYPE, "application/json")
            .body(http_body_util::Full::new(axum::body::Bytes::from(body)))
            .map_err(|e| Some(ApiError(StatusCode::BAD_REQUEST, e.to_string())))?;
        let sent = tokio::time::timeout(std::time::Duration::from_secs(10), self.http.request(req));
        let resp = match sent.await {
            Ok(Ok(resp)) => resp,
            Ok(Err(e)) => {
                tracing::warn!("node {owner} at {url}: {e}");
                // Unreachable: if it has also gone silent, it is gone.
                return match self.alive(owner).await {
                    Ok(None) => Err(None),
                    _ => Err(Some(ApiError(
                        StatusCode::SERVICE_UNAVAILABLE,
                        "the server node of this game does not answer; try again".into(),
                    ))),
                };
            }
            Err(_) => {
                return Err(Some(ApiError(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "the server node of this game does not answer; try again".into(),
                )))
            }
        };
        let status = resp.status();
        let bytes = http_body_util::BodyExt::collect(resp.into_body())
            .await
            .map(|b| b.to_bytes())
            .unwrap_or_default();
        if status.is_success() {
            // Read our own write before answering.
            self.refresh(room).await;
            Ok(())
        } else {
            let why = serde_json::from_slice::<Value>(&bytes)
                .ok()
                .and_then(|v| v["error"].as_str().map(str::to_owned))
                .unwrap_or_else(|| format!("the owner node answered {status}"));
            Err(Some(ApiError(status, why)))
        }
    }

    /// After a change: start the engine if it is to act, and the clock's watch (only on the
    /// node that owns the game).
    fn kick(&self, room: Arc<Mutex<Room>>) -> impl std::future::Future<Output = ()> + Send {
        let hub = self.clone();
        async move {
            let (engine, version, flag_in, increment) = {
                let r = room.lock().await;
                if r.mirror_of.is_some() {
                    return;
                }
                (
                    r.engine_to_act(),
                    r.version(),
                    r.ms_to_flag(),
                    r.spec.clock.map_or(0, |c| i64::from(c.increment_s) * 1000),
                )
            };
            if let Some((side, level)) = engine {
                let hub2 = hub.clone();
                let room2 = room.clone();
                let pool = hub.engines.clone();
                tokio::spawn(async move {
                    // Wait for a free engine worker: engines together never take more
                    // than `Options::engine_workers` cores.
                    let Ok(_permit) = pool.acquire_owned().await else {
                        return;
                    };
                    // The budget comes from the clock as it is now: the time spent waiting
                    // for a worker is the engine's own.
                    let (table, budget) = {
                        let r = room2.lock().await;
                        if r.version() != version {
                            return;
                        }
                        let budget = r
                            .clocks()
                            .map(|(left, _)| engine::budget(left[side.index()], increment));
                        (r.table_copy(), budget)
                    };
                    let thinking = hub2.thinking.clone();
                    let now = thinking.0.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1;
                    thinking
                        .1
                        .fetch_max(now, std::sync::atomic::Ordering::SeqCst);
                    let choice = tokio::task::spawn_blocking(move || {
                        let mut rng = rand::thread_rng();
                        engine::choose(table.as_ref(), side, level, budget, &mut rng)
                    })
                    .await
                    .ok()
                    .flatten();
                    thinking.0.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
                    if let Some(text) = choice {
                        let ok = {
                            let mut r = room2.lock().await;
                            r.mirror_of.is_none()
                                && r.version() == version
                                && r.act(&*hub2.store, side, &text).await.is_ok()
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
                    let mut r = room.lock().await;
                    if r.mirror_of.is_none() && r.version() == version {
                        let _ = r.check_flag(&*hub2.store).await;
                    }
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

/// Whether a game's stored seats (JSON) are both engines.
fn engines_only(seats: &str) -> bool {
    serde_json::from_str::<[Seat; 2]>(seats)
        .is_ok_and(|s| s.iter().all(|s| matches!(s.kind, SeatKind::Engine { .. })))
}

async fn create_game(
    State(hub): State<Hub>,
    peer: Option<Extension<ConnectInfo<SocketAddr>>>,
    body: Result<Json<CreateGame>, axum::extract::rejection::JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    if let (Some(limiter), Some(Extension(ConnectInfo(addr)))) = (&hub.creations, peer) {
        if let Err(not_until) = limiter.check_key(&addr.ip()) {
            let wait = not_until.wait_time_from(governor::clock::Clock::now(
                &governor::clock::DefaultClock::default(),
            ));
            return Err(ApiError(
                StatusCode::TOO_MANY_REQUESTS,
                format!(
                    "too many new games from your address: the next one in {} s",
                    wait.as_secs() + 1
                ),
            ));
        }
    }
    let Json(req) = body.map_err(|e| ApiError(e.status(), e.body_text()))?;
    let seats = req
        .seats
        .unwrap_or([SeatKind::Human, SeatKind::Engine { level: 1 }]);
    if !hub.options.engine_games && seats.iter().all(|s| matches!(s, SeatKind::Engine { .. })) {
        return Err(ApiError(
            StatusCode::FORBIDDEN,
            "games between two engines are not offered on this server".into(),
        ));
    }
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
    let (room, tokens) = Room::create(&*hub.store, id.clone(), spec, seats).await?;
    let room = Arc::new(Mutex::new(room));
    hub.rooms.lock().await.insert(id.clone(), room.clone());
    hub.kick(room).await;
    Ok(Json(json!({ "id": id, "tokens": tokens })))
}

async fn game_state(
    State(hub): State<Hub>,
    Path(id): Path<String>,
) -> Result<Json<ws::ServerMsg>, ApiError> {
    let room = hub.load(&id).await?.ok_or_else(not_found)?;
    hub.refresh(&room).await;
    let state = room.lock().await.state_msg();
    Ok(Json(state))
}

async fn game_record(
    State(hub): State<Hub>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let room = hub.load(&id).await?.ok_or_else(not_found)?;
    hub.refresh(&room).await;
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
) -> Result<Json<ws::ServerMsg>, ApiError> {
    let Json(body) = body.map_err(|e| ApiError(e.status(), e.body_text()))?;
    let room = hub.load(&id).await?.ok_or_else(not_found)?;
    let side = room.lock().await.seat_of(&body.token).ok_or_else(|| {
        ApiError(
            StatusCode::FORBIDDEN,
            "that token opens no seat of this game".into(),
        )
    })?;
    hub.act(&room, side, &body.token, &body.action).await?;
    let state = room.lock().await.state_msg();
    Ok(Json(state))
}

/// The most reviews kept in memory.
const REVIEWS_KEPT: usize = 256;

/// `GET /api/games/{id}/review`: every position of a finished game with the engine's
/// judgement of it (for the review page's graph), and its view to draw it.
async fn review(State(hub): State<Hub>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let json_response = |body: Arc<String>| {
        (
            [(header::CONTENT_TYPE, "application/json")],
            body.as_str().to_owned(),
        )
            .into_response()
    };
    if let Some(body) = hub.reviews.lock().await.get(&id).cloned() {
        return Ok(json_response(body));
    }
    let room = hub.load(&id).await?.ok_or_else(not_found)?;
    hub.refresh(&room).await;
    let (family, tables) = {
        let r = room.lock().await;
        if r.result().is_none() {
            return Err(ApiError(
                StatusCode::FORBIDDEN,
                "the review opens when the game is over (no engine help during play)".into(),
            ));
        }
        (
            r.spec.game.family,
            r.review_tables().map_err(|e| damaged(&id, &e))?,
        )
    };
    let positions = tokio::task::spawn_blocking(move || {
        tables
            .into_iter()
            .map(|(a, t)| {
                json!({
                    "n": a.as_ref().map(|a| a.n),
                    "side": a.as_ref().map(|a| a.side.clone()),
                    "action": a.as_ref().map(|a| a.action.clone()),
                    "value": t.review_value(),
                    "view": t.view(),
                })
            })
            .collect::<Vec<_>>()
    })
    .await
    .map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
    let body = Arc::new(
        json!({
            "id": id,
            "unit": table::review_unit(family),
            "positions": positions,
        })
        .to_string(),
    );
    let mut reviews = hub.reviews.lock().await;
    if reviews.len() >= REVIEWS_KEPT {
        reviews.clear();
    }
    reviews.insert(id, body.clone());
    Ok(json_response(body))
}

async fn export(State(hub): State<Hub>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let room = hub.load(&id).await?.ok_or_else(not_found)?;
    hub.refresh(&room).await;
    let r = room.lock().await;
    let (kind, body) =
        export::export(&r).map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, e))?;
    Ok(([(header::CONTENT_TYPE, kind)], body).into_response())
}

pub mod export;

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
        .route(
            "/g/{id}/review",
            get(|| async { serve_asset("review.html") }),
        )
        .route("/static/{*path}", get(asset))
        .route("/api/games", post(create_game))
        .route("/api/games/{id}", get(game_state))
        .route("/api/games/{id}/record", get(game_record))
        .route("/api/games/{id}/export", get(export))
        .route("/api/games/{id}/review", get(review))
        .route("/api/games/{id}/act", post(act_http))
        .route("/ws/{id}", get(ws::ws_handler))
        .layer(DefaultBodyLimit::max(16 * 1024))
        .with_state(hub)
}

/// Runs the server on `addr` with the database at `database` until Ctrl-C, as the node
/// called `node`: [`store::SOLE_NODE`] for a server alone on its database (SQLite always),
/// any other name for one node of several on a PostgreSQL database, reachable by the others
/// at `advertise` (default: `http://` and the address it listens on).
///
/// # Errors
/// When the database cannot be opened or the address bound, or a node of several is asked
/// for on SQLite.
pub async fn serve(
    addr: SocketAddr,
    database: &str,
    node: &str,
    advertise: Option<String>,
    options: Options,
) -> Result<(), String> {
    let store = Store::open_as(database, node)
        .await
        .map_err(|e| e.to_string())?;
    let shared = node != SOLE_NODE;
    if shared && !store.is_postgres() {
        return Err("several nodes share a PostgreSQL database, not SQLite".into());
    }
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    let local = listener.local_addr().map_err(|e| e.to_string())?;
    let url = advertise.unwrap_or_else(|| format!("http://{local}"));
    if shared {
        // Alive before taking up games, so that no other node claims them meanwhile.
        store.heartbeat(&url).await.map_err(|e| e.to_string())?;
    }
    let bus = if shared {
        Some(
            store::PgBus::listen(database)
                .await
                .map_err(|e| e.to_string())?,
        )
    } else {
        None
    };
    let hub = Hub::with_options(Arc::new(store), options).await?;
    if let Some(limiter) = hub.creations.clone() {
        // Forget the addresses that have not created a game for a while.
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(std::time::Duration::from_secs(60));
            loop {
                tick.tick().await;
                limiter.retain_recent();
            }
        });
    }
    if let Some(bus) = bus {
        hub.join_cluster(Arc::new(bus), url.clone());
    }
    if shared {
        println!("tablier: node {node} ({url}) serving on http://{local}");
    } else {
        println!("tablier: serving on http://{local}");
    }
    axum::serve(
        listener,
        router(hub).into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(async {
        let _ = tokio::signal::ctrl_c().await;
    })
    .await
    .map_err(|e| e.to_string())
}
