//! The WebSocket protocol, typed: what a client may send ([`ClientMsg`]) and what the
//! server sends ([`ServerMsg`]), with the state every client sees ([`GameState`]). Every
//! message is written down, with an example, in `docs/PROTOCOL.md` (a test reads each example
//! and round-trips it through these types). The connection itself is [`crate::ws`]'s.
//!
//! ```
//! use tablier_server::ws::{ClientMsg, ServerMsg};
//! let m: ClientMsg = serde_json::from_str(r#"{"t": "act", "action": "32-28", "ack": 7}"#).unwrap();
//! assert_eq!(m, ClientMsg::Act { action: "32-28".into(), ack: 7.into() });
//! let reply = ServerMsg::Ack { ack: 7.into() };
//! assert_eq!(serde_json::to_string(&reply).unwrap(), r#"{"t":"ack","ack":7}"#);
//! ```

use serde::{Deserialize, Serialize};
use serde_json::Value;
use tablier_catalog::{GameResult, TableSpec};

/// Who holds a seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum SeatKind {
    /// A person, who acts with the seat's secret token.
    Human,
    /// The engine, at a level.
    Engine {
        /// 0 (random) to [`tablier_catalog::levels::MAX_LEVEL`].
        level: u8,
    },
}

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
        /// Why, in English words for the player.
        reason: String,
        /// A stable name of the refusal (`not-your-turn`, `action-not-legal`,
        /// `draw-declined`, ...) for a client that says it in its own language.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        code: Option<String>,
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
    /// With a delay per move: what is left of the running side's delay, in milliseconds
    /// (its reserve runs once this is spent). Absent without a delay.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub delay_ms: i64,
}

// serde's `skip_serializing_if` takes a reference.
#[allow(clippy::trivially_copy_pass_by_ref)]
fn is_zero(x: &i64) -> bool {
    *x == 0
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

/// A server message as the text of a WebSocket message.
pub fn to_text(m: &ServerMsg) -> String {
    serde_json::to_string(m).expect("server messages are serialisable")
}
