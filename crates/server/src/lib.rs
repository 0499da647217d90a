//! The tablier web server: every game played in the browser, against the engine or a friend.
//!
//! * Games are driven through the catalog only ([`tablier_catalog`]: a game-erased table with
//!   actions in each game's own notation, the referee of a game's log, the engine levels,
//!   exports and reviews): this crate names no game.
//! * A game has a public id (for spectators) and a secret token per human seat (the player's
//!   link), as lidraughts does; tokens are kept only as SHA-256 hashes.
//! * Every accepted action is stored ([`store`], SQLite or PostgreSQL) before it is announced;
//!   events are numbered (the number of actions so far) and each carries the whole state, so a
//!   client that reconnects is in step again with the first message it gets.
//! * The server throws the dice from a seed whose SHA-256 is published when the game starts
//!   and the seed itself when it ends ([`tablier_catalog::verify()`] recomputes every roll).
//! * Engine seats think off the async runtime's threads ([`engine`]).
//! * Several nodes may share one PostgreSQL database ([`cluster`], [`Hub::join_cluster`]): each game is
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
//! `!draw-accept`, `!draw-decline`, `!takeback-offer`, `!takeback-accept`, `!takeback-decline`
//! ([`tablier_catalog::TableAction`]).
//!
//! # Files
//! Each file uses only the files listed before it (no circle): [`now`] (the one place that
//! reads the time), [`store`] (SQLite and PostgreSQL), [`protocol`] (the typed WebSocket
//! messages), [`room`] (a live game: the catalog's referee, its seats, its clients' channel,
//! and how its changes are stored before they are announced), [`error`] (the one error type
//! at the HTTP edge), [`engine`] (engine seats and clock watches), [`cluster`] (talking to the
//! other nodes), [`hub`] (the shared state: loading, acting, the cluster's background work),
//! [`ws`] (a client's connection), [`http`] (routes and handlers); this file starts it all.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod cluster;
pub mod engine;
pub mod error;
pub mod http;
pub mod hub;
pub mod now;
pub mod protocol;
pub mod room;
pub mod store;
pub mod ws;

pub use error::ApiError;
pub use http::{router, CreateGame};
pub use hub::{Hub, Options};
pub use room::new_token;
pub use ws::MAX_MESSAGE;

use std::net::SocketAddr;
use std::sync::Arc;

use store::{Store, SOLE_NODE};

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
