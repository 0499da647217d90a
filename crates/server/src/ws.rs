//! A client's WebSocket connection: `GET /ws/{id}` for a seat (with its token) or a
//! spectator; the state after every change out, a seat's actions in, and the limits that
//! keep one client from taking the server down (message size, pace, unread replies). The
//! messages are typed in [`crate::protocol`] (re-exported here).

use std::sync::Arc;

use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::response::Response;
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use serde_json::Value;
use tablier_catalog::record::side_name;
use tablier_catalog::SeatAction;
use tablier_core::Side;
use tokio::sync::Mutex;

use crate::error::{forbidden_token, ApiError};
use crate::hub::{quota, Hub};
pub use crate::protocol::{
    read_client, to_text, ClientMsg, ClockState, GameState, LogEntry, ServerMsg,
};
use crate::room::Room;

/// The largest message a client may send (bytes).
pub const MAX_MESSAGE: usize = 4096;

/// The largest WebSocket message read at all (bytes): between [`MAX_MESSAGE`] and this, the
/// client is told why its connection closes; beyond it the socket is dropped.
const MAX_READ: usize = 64 * 1024;

/// How long a send to a WebSocket client may wait for it to read, before the connection is
/// given up.
const SEND_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

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
    let room = hub.load(&id).await?.ok_or(ApiError::NotFound)?;
    hub.refresh(&room).await;
    let seat = match q.token {
        Some(t) => {
            let side = room.lock().await.seat_of(&t).ok_or_else(forbidden_token)?;
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
        you: seat.as_ref().map(|s| side_name(s.0).to_owned()),
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
    let refuse = |ack: Value, code: &str, reason: &str| ServerMsg::Error {
        ack,
        reason: reason.to_owned(),
        code: Some(code.to_owned()),
    };
    match read_client(text) {
        // A spectator's act is refused as such, whatever it holds.
        Err((ack, _)) if seat.is_none() && text_is_act(text) => {
            refuse(ack, "spectator", "spectators cannot act")
        }
        Err((ack, reason)) => refuse(ack, "bad-message", &reason),
        Ok(ClientMsg::Ping { ack }) => ServerMsg::Pong { ack },
        Ok(ClientMsg::Act { action, ack }) => {
            let Some((side, token)) = seat else {
                return refuse(ack, "spectator", "spectators cannot act");
            };
            let action = match SeatAction::parse(&action) {
                Ok(a) => a,
                Err(e) => return refuse(ack, e.code(), &e.to_string()),
            };
            match hub.act(room, *side, token, &action).await {
                Ok(()) => ServerMsg::Ack { ack },
                Err(e) => ServerMsg::Error {
                    ack,
                    reason: e.status_and_reason().1,
                    code: e.code().map(str::to_owned),
                },
            }
        }
    }
}

/// Whether a message that did not read is an `act` (`"t": "act"`).
fn text_is_act(text: &str) -> bool {
    serde_json::from_str::<Value>(text).is_ok_and(|v| v.get("t") == Some(&Value::from("act")))
}

/// `GET /ws/lobby`: the home page's list of public challenges, `{"t": "challenges", "list":
/// [...]}` (as `GET /api/challenges` gives it), sent at once and again whenever it changes:
/// at once when this node makes or hands out a challenge, and within five seconds for
/// another node's or an expired one. What the client sends is not read beyond a close.
pub(crate) async fn lobby_handler(State(hub): State<Hub>, ws: WebSocketUpgrade) -> Response {
    ws.max_message_size(MAX_MESSAGE)
        .max_frame_size(MAX_MESSAGE)
        .on_upgrade(move |socket| lobby(hub, socket))
}

async fn lobby(hub: Hub, socket: WebSocket) {
    let (mut tx, mut rx) = socket.split();
    let mut news = hub.lobby.subscribe();
    let mut tick = tokio::time::interval(std::time::Duration::from_secs(5));
    let mut last = String::new();
    loop {
        if let Ok(list) = crate::http::open_challenges(&hub).await {
            let text = serde_json::json!({ "t": "challenges", "list": list }).to_string();
            if text != last {
                let sent =
                    tokio::time::timeout(SEND_TIMEOUT, tx.send(Message::Text(text.clone().into())))
                        .await;
                if !matches!(sent, Ok(Ok(()))) {
                    return;
                }
                last = text;
            }
        }
        tokio::select! {
            _ = news.recv() => {}
            _ = tick.tick() => {}
            m = rx.next() => {
                if matches!(m, None | Some(Err(_)) | Some(Ok(Message::Close(_)))) {
                    return;
                }
            }
        }
    }
}
