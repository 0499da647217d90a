//! The WebSocket protocol, typed: what a client may send ([`ClientMsg`]) and what the
//! server sends ([`ServerMsg`]), with the state every client sees ([`GameState`]); and the
//! connection loop of one client. Every message is written down, with an example, in
//! `docs/PROTOCOL.md` (a test reads each example and round-trips it through these types).
//!
//! ```
//! use tablier_server::ws::{ClientMsg, ServerMsg};
//! let m: ClientMsg = serde_json::from_str(r#"{"t": "act", "action": "32-28", "ack": 7}"#).unwrap();
//! assert_eq!(m, ClientMsg::Act { action: "32-28".into(), ack: 7.into() });
//! let reply = ServerMsg::Ack { ack: 7.into() };
//! assert_eq!(serde_json::to_string(&reply).unwrap(), r#"{"t":"ack","ack":7}"#);
//! ```

use std::sync::Arc;

use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use futures_util::{SinkExt, StreamExt};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tablier_core::Side;
use tokio::sync::Mutex;

use crate::room::{self, GameResult, Room, SeatKind, TableSpec};
use crate::{not_found, quota, ApiError, Hub, MAX_MESSAGE, MAX_READ, SEND_TIMEOUT};

/// A message from a client. `ack` is any JSON value the client chooses; the answer to the
/// message carries it back (`null` when the client sent none).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "lowercase")]
pub enum ClientMsg {
    /// Asks for a `pong` (the page measures its lag with it).
    Ping {
        /// Echoed in the `pong`.
        #[serde(default)]
        ack: Value,
    },
    /// A seat's action in the game's notation (`32-28`, `13/7 8/7`, `go`), or a table action
    /// (`!resign`, `!draw-offer`, `!draw-accept`, `!draw-decline`, `!takeback-offer`,
    /// `!takeback-accept`, `!takeback-decline`). Answered by `ack` or `error`.
    Act {
        /// The action, as the game writes it.
        action: String,
        /// Echoed in the answer.
        #[serde(default)]
        ack: Value,
    },
}

/// A message from the server.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "lowercase")]
pub enum ServerMsg {
    /// The first message of a connection: the seat this connection holds (`white`,
    /// `black`), or `null` for a spectator.
    Hello {
        /// The seat's side.
        you: Option<String>,
    },
    /// The whole state, after every change (and at once on connecting, unless the client
    /// said with `?v=` that it has it already).
    State(Box<GameState>),
    /// The answer to a `ping`.
    Pong {
        /// The ping's `ack`.
        ack: Value,
    },
    /// The action was accepted (the new state follows as a `state` message).
    Ack {
        /// The act's `ack`.
        ack: Value,
    },
    /// The message was refused; nothing changed.
    Error {
        /// The refused message's `ack` (`null` if it had none or could not be read).
        ack: Value,
        /// Why, in words for the player.
        reason: String,
    },
}

/// One entry of a game's log, as clients see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogEntry {
    /// Its number: 1, 2, ...
    pub n: i64,
    /// `white`, `black`, or empty for the dice (and the server's own `!resume`).
    pub side: String,
    /// The action in the game's notation.
    pub action: String,
}

/// The clocks as they stand when the state is sent.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockState {
    /// White's time left, in milliseconds.
    pub white_ms: i64,
    /// Black's time left, in milliseconds.
    pub black_ms: i64,
    /// The side whose clock runs (`null`: none runs yet, or the game is over).
    pub running: Option<String>,
}

/// The state every client sees: the same for all, since these games hide nothing.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameState {
    /// The event number: how many actions the game has.
    pub v: u64,
    /// The public game id.
    pub id: String,
    /// The game and its clock.
    pub spec: TableSpec,
    /// Who acts: `white`, `black`, `chance` or `nobody`.
    pub actor: String,
    /// The actor's legal actions in notation (empty unless a player is to act).
    pub legal: Vec<String>,
    /// The game's own view of the position (board, dice, score, the legal actions as paths).
    pub view: Value,
    /// Every action so far.
    pub log: Vec<LogEntry>,
    /// Who holds each seat, white then black.
    pub seats: Vec<SeatKind>,
    /// SHA-256 of the dice seed and the spec, published at the start.
    pub commitment: String,
    /// The dice seed, revealed once the game is over.
    pub seed: Option<String>,
    /// How the game ended.
    pub result: Option<GameResult>,
    /// The side whose draw offer stands.
    pub draw_offer: Option<String>,
    /// The side whose takeback request stands.
    pub takeback_offer: Option<String>,
    /// The log numbers of the moves taken back.
    pub undone: Vec<i64>,
    /// The clocks, in a game with a clock.
    pub clock: Option<ClockState>,
}

/// Reads a client's message; a refusal carries the `ack` to echo and the reason.
///
/// # Errors
/// When the text is not JSON, not a known message, or lacks a field.
pub fn read_client(text: &str) -> Result<ClientMsg, (Value, String)> {
    let value: Value = serde_json::from_str(text)
        .map_err(|_| (Value::Null, "messages are JSON objects".to_owned()))?;
    let ack = value.get("ack").cloned().unwrap_or(Value::Null);
    ClientMsg::deserialize(&value).map_err(|_| {
        let why = match value.get("t").and_then(Value::as_str) {
            Some("act") => "an act message has an \"action\" string",
            _ => "unknown message type (act or ping)",
        };
        (ack, why.to_owned())
    })
}

/// The query of `GET /ws/{id}`: the seat's token (none: a spectator) and the event number
/// the client has already.
#[derive(Debug, Deserialize)]
pub(crate) struct WsQuery {
    #[serde(default)]
    token: Option<String>,
    #[serde(default)]
    v: Option<u64>,
}

/// `GET /ws/{id}`: upgrades to a WebSocket for a seat or a spectator.
pub(crate) async fn ws_handler(
    State(hub): State<Hub>,
    Path(id): Path<String>,
    Query(q): Query<WsQuery>,
    ws: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    let room = hub.load(&id).await?.ok_or_else(not_found)?;
    hub.refresh(&room).await;
    let seat = match q.token {
        Some(t) => {
            let side = room.lock().await.seat_of(&t).ok_or_else(|| {
                ApiError(
                    StatusCode::FORBIDDEN,
                    "that token opens no seat of this game".into(),
                )
            })?;
            Some((side, t))
        }
        None => None,
    };
    Ok(ws
        .max_message_size(MAX_READ)
        .max_frame_size(MAX_READ)
        .on_upgrade(move |socket| client(hub, room, seat, q.v, socket)))
}

/// A seat of a WebSocket client: its side and its token (to hand its actions to the node
/// that owns the game).
type WsSeat = Option<(Side, String)>;

/// A close frame with a code and a reason for the client.
fn close(code: u16, reason: &str) -> Message {
    Message::Close(Some(CloseFrame {
        code,
        reason: reason.into(),
    }))
}

/// One WebSocket client: the state on every change; a seat's actions in. A client that
/// sends more than [`MAX_MESSAGE`] bytes in a message, binary messages, messages faster than
/// the per-connection pace, or messages faster than it reads the replies, is told why in
/// the close frame and disconnected.
async fn client(
    hub: Hub,
    room: Arc<Mutex<Room>>,
    seat: WsSeat,
    seen: Option<u64>,
    socket: WebSocket,
) {
    let (mut tx, mut rx) = socket.split();
    let (mut events, state, version) = {
        let r = room.lock().await;
        (r.tx.subscribe(), to_text(&r.state_msg()), r.version())
    };
    let hello = to_text(&ServerMsg::Hello {
        you: seat.as_ref().map(|s| room::side_name(s.0).to_owned()),
    });
    if tx.send(Message::Text(hello.into())).await.is_err() {
        return;
    }
    // A client already up to date gets no state until the next change.
    if seen != Some(version) && tx.send(Message::Text(state.into())).await.is_err() {
        return;
    }
    // Replies wait here for the writer; a client that lets them pile up is closed.
    let (out_tx, mut out_rx) = tokio::sync::mpsc::channel::<Message>(16);
    let (close_tx, mut close_rx) = tokio::sync::oneshot::channel::<Message>();
    let writer = tokio::spawn(async move {
        loop {
            let msg = tokio::select! {
                ev = events.recv() => match ev {
                    Ok(s) => Message::Text(s.as_str().into()),
                    Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => continue,
                    Err(_) => break,
                },
                msg = out_rx.recv() => match msg {
                    Some(m) => m,
                    None => break,
                },
                msg = &mut close_rx => match msg {
                    Ok(m) => {
                        let _ = tokio::time::timeout(SEND_TIMEOUT, tx.send(m)).await;
                        break;
                    }
                    Err(_) => break,
                },
            };
            // A client that does not read for this long is given up.
            match tokio::time::timeout(SEND_TIMEOUT, tx.send(msg)).await {
                Ok(Ok(())) => {}
                _ => break,
            }
        }
    });
    let pace = quota(
        hub.options.messages_per_second,
        hub.options.messages_burst,
        std::time::Duration::from_secs(1),
    )
    .map(governor::RateLimiter::direct);
    let mut closing = None;
    while let Some(msg) = rx.next().await {
        let text = match msg {
            Ok(Message::Text(t)) => t,
            Ok(Message::Close(_)) => break,
            Ok(Message::Binary(_)) => {
                closing = Some(close(
                    1003,
                    "binary messages are not accepted: send JSON text",
                ));
                break;
            }
            Ok(_) => continue,
            Err(e) => {
                closing = Some(close(1009, &format!("unreadable message: {e}")));
                break;
            }
        };
        if text.len() > MAX_MESSAGE {
            closing = Some(close(
                1009,
                &format!("a message is at most {MAX_MESSAGE} bytes"),
            ));
            break;
        }
        if pace.as_ref().is_some_and(|p| p.check().is_err()) {
            closing = Some(close(
                1008,
                &format!(
                    "too many messages: at most {} a second",
                    hub.options.messages_per_second
                ),
            ));
            break;
        }
        let reply = handle_message(&hub, &room, seat.as_ref(), text.as_str()).await;
        match out_tx.try_send(Message::Text(to_text(&reply).into())) {
            Ok(()) => {}
            Err(tokio::sync::mpsc::error::TrySendError::Full(_)) => {
                closing = Some(close(
                    1008,
                    "too many replies unread: read the server's messages before sending more",
                ));
                break;
            }
            Err(tokio::sync::mpsc::error::TrySendError::Closed(_)) => break,
        }
    }
    if let Some(frame) = closing {
        let _ = close_tx.send(frame);
        let _ = tokio::time::timeout(SEND_TIMEOUT, writer).await;
    } else {
        writer.abort();
    }
}

async fn handle_message(
    hub: &Hub,
    room: &Arc<Mutex<Room>>,
    seat: Option<&(Side, String)>,
    text: &str,
) -> ServerMsg {
    let refuse = |ack: Value, reason: &str| ServerMsg::Error {
        ack,
        reason: reason.to_owned(),
    };
    match read_client(text) {
        // A spectator's act is refused as such, whatever it holds.
        Err((ack, _)) if seat.is_none() && text_is_act(text) => {
            refuse(ack, "spectators cannot act")
        }
        Err((ack, reason)) => refuse(ack, &reason),
        Ok(ClientMsg::Ping { ack }) => ServerMsg::Pong { ack },
        Ok(ClientMsg::Act { action, ack }) => {
            let Some((side, token)) = seat else {
                return refuse(ack, "spectators cannot act");
            };
            match hub.act(room, *side, token, &action).await {
                Ok(()) => ServerMsg::Ack { ack },
                Err(ApiError(_, why)) => refuse(ack, &why),
            }
        }
    }
}

/// Whether a message that did not read is an `act` (`"t": "act"`).
fn text_is_act(text: &str) -> bool {
    serde_json::from_str::<Value>(text).is_ok_and(|v| v.get("t") == Some(&Value::from("act")))
}

/// A server message as the text of a WebSocket message.
pub(crate) fn to_text(m: &ServerMsg) -> String {
    serde_json::to_string(m).expect("server messages are serialisable")
}
