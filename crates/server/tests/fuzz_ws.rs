//! Fuzzing that stays: the WebSocket protocol fed arbitrary and mutated messages, on a real
//! server (SQLite in a temporary folder, a real socket on port 0, the limits on messages
//! lifted with [`Options::unlimited`] so that the pace is not what is tested).
//!
//! Each case creates a game of a random family with two human seats, connects both seats and
//! a spectator, and sends messages on them: random bytes read as text, any strings, messages
//! of the protocol's shape with random field values (wrong types, huge and out-of-range
//! numbers, nested arrays, duplicate keys, legal actions of the moment mutated, table
//! actions, random strings), mutations of those as text, messages over the size limit,
//! binary messages and text frames that are not UTF-8. It checks that:
//! * every message is answered, within 5 s, with one reply of the protocol (`pong`, `ack` or
//!   `error`, echoing the message's `ack`), or closes the connection with a close frame that
//!   says why (over the size limit: 1009; binary: 1003) — never a silent hang;
//! * a refused message (an `error` reply, or a close) leaves the game's state exactly as it
//!   was; an `ack` is the only way the state changes;
//! * the server stays up: after a close the seat connects again, and at the end of the case a
//!   new spectator gets the state.
//!
//! The default number of cases keeps the target to a few seconds in the `ci` profile. Run it
//! longer with:
//!
//! ```text
//! PROPTEST_CASES=5000 cargo test --profile ci -p tablier-server --test fuzz_ws
//! ```

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::TestRunner;
use serde_json::{json, Value};
use tablier_server::store::Store;
use tablier_server::{router, Hub, Options};
use tablier_test_support::fuzz::{mutate, Edit};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::protocol::frame::coding::{Data, OpCode};
use tokio_tungstenite::tungstenite::protocol::frame::Frame;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{connect_async, MaybeTlsStream, WebSocketStream};

/// The protocol's reference, whose list of refusal codes the answers are checked against.
const PROTOCOL: &str = include_str!("../../../docs/PROTOCOL.md");

type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// The largest text message the server reads (its `MAX_MESSAGE`): longer ones close the
/// connection with 1009.
const MAX_MESSAGE: usize = tablier_server::MAX_MESSAGE;

/// How long a reply may take before the connection counts as hung.
const REPLY_WITHIN: Duration = Duration::from_secs(5);

/// The number of cases (`PROPTEST_CASES` when set, else `default`), shrinking less than
/// proptest's default: each case starts games on a live server, and shrinking replays whole
/// cases.
fn config(default: u32) -> ProptestConfig {
    ProptestConfig {
        max_shrink_iters: 200,
        ..tablier_test_support::fuzz::config(default)
    }
}

// ---------------------------------------------------------------------------------------------
// The server and a client.

async fn server() -> SocketAddr {
    // The database's folder lives as long as the server (until the test's runtime ends).
    let dir = tempfile::Builder::new()
        .prefix("tablier-fuzz-ws-")
        .tempdir()
        .unwrap();
    let store = Store::open(&format!(
        "sqlite://{}",
        dir.path().join("t.sqlite").display()
    ))
    .await
    .unwrap();
    let hub = Hub::with_options(Arc::new(store), Options::unlimited())
        .await
        .unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        let _dir = dir;
        axum::serve(listener, router(hub)).await.unwrap()
    });
    addr
}

/// One HTTP/1.1 request; the JSON body of the answer.
async fn http(addr: SocketAddr, method: &str, path: &str, body: Option<&Value>) -> Value {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = TcpStream::connect(addr).await.unwrap();
    let body = body.map(Value::to_string).unwrap_or_default();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).await.unwrap();
    let json_start = out.find("\r\n\r\n").unwrap() + 4;
    serde_json::from_str(&out[json_start..]).unwrap_or_else(|e| panic!("{e}: {out}"))
}

/// The game's state as the server gives it over HTTP.
async fn state(addr: SocketAddr, id: &str) -> Value {
    http(addr, "GET", &format!("/api/games/{id}"), None).await
}

/// Connects (with a seat's token, or as a spectator) and reads the hello and the state.
async fn connect(addr: SocketAddr, id: &str, token: Option<&str>) -> Ws {
    let query = token.map(|t| format!("token={t}")).unwrap_or_default();
    let (mut ws, _) = connect_async(format!("ws://{addr}/ws/{id}?{query}"))
        .await
        .expect("the server accepts a connection");
    let hello = next_text(&mut ws).await.expect("a hello");
    assert_eq!(hello["t"], "hello", "{hello}");
    let s = next_text(&mut ws).await.expect("the state");
    assert_eq!(s["t"], "state", "{s}");
    ws
}

/// What a message came to.
#[derive(Debug)]
enum Outcome {
    /// A reply of the protocol (`pong`, `ack`, `error`).
    Reply(Value),
    /// The server closed the connection: the close frame's code, if it sent one.
    Closed(Option<u16>),
}

/// The next text message (states included), or `None` when the connection ended.
async fn next_text(ws: &mut Ws) -> Option<Value> {
    loop {
        let msg = tokio::time::timeout(REPLY_WITHIN, ws.next())
            .await
            .expect("the server answers within 5 s");
        match msg {
            Some(Ok(Message::Text(t))) => {
                return Some(serde_json::from_str(&t).expect("the server sends JSON"))
            }
            Some(Ok(Message::Close(_))) | Some(Err(_)) | None => return None,
            Some(Ok(_)) => continue,
        }
    }
}

/// Reads until the reply to the message just sent (states broadcast meanwhile are skipped),
/// or the close.
async fn outcome(ws: &mut Ws) -> Outcome {
    loop {
        let msg = tokio::time::timeout(REPLY_WITHIN, ws.next())
            .await
            .expect("the server answers or closes within 5 s");
        match msg {
            Some(Ok(Message::Text(t))) => {
                let v: Value = serde_json::from_str(&t).expect("the server sends JSON");
                if v["t"] != "state" {
                    return Outcome::Reply(v);
                }
            }
            Some(Ok(Message::Close(frame))) => {
                return Outcome::Closed(frame.map(|f| u16::from(f.code)))
            }
            Some(Err(_)) | None => return Outcome::Closed(None),
            Some(Ok(_)) => continue,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Messages.

/// A game to create.
fn game_spec() -> impl Strategy<Value = Value> {
    let human = json!({"kind": "human"});
    let seats = json!([human.clone(), human]);
    prop::sample::select(vec![
        json!({"family": "draughts", "variant": "international", "seats": seats.clone()}),
        json!({"family": "draughts", "variant": "english", "seats": seats.clone()}),
        json!({"family": "draughts", "variant": "french-old", "seats": seats.clone()}),
        json!({"family": "backgammon", "match_length": 3, "seats": seats.clone()}),
        json!({"family": "backgammon", "seats": seats.clone()}),
        json!({"family": "trictrac", "seats": seats.clone()}),
        json!({"family": "trictrac", "ecoles": true, "seats": seats}),
    ])
}

/// Characters that trip naive parsers.
const TRICKY: &[char] = &[
    '\0',
    '\t',
    '\n',
    '\r',
    '"',
    '\\',
    '{',
    '}',
    '[',
    ']',
    ':',
    ',',
    '\u{7f}',
    '\u{a0}',
    'é',
    '\u{301}',
    '\u{200b}',
    '\u{feff}',
    '\u{fffd}',
    '\u{d7ff}',
    '😀',
    '\u{10ffff}',
];

fn text_char() -> impl Strategy<Value = char> {
    prop_oneof![
        4 => prop::sample::select("0123456789-x/*: !abcdefghijklmnopqrstuvwxyzWB".chars().collect::<Vec<_>>()),
        1 => prop::sample::select(TRICKY),
        1 => any::<char>(),
    ]
}

fn short_text() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::collection::vec(text_char(), 0..24).prop_map(String::from_iter),
        any::<String>(),
    ]
}

/// The table actions, and some that are not.
const META: [&str; 11] = [
    "!resign",
    "!draw-offer",
    "!draw-accept",
    "!draw-decline",
    "!takeback-offer",
    "!takeback-accept",
    "!takeback-decline",
    "!flag",
    "!resume",
    "!",
    "!!resign",
];

/// The `action` of an act message: a legal action of the moment (as it is or mutated), a
/// table action, or any string.
#[derive(Clone, Debug)]
enum ActionGen {
    Legal(Index),
    LegalMutated(Index, Vec<Edit>),
    Meta(Index),
    Random(String),
    Long(usize, char),
}

fn action_gen() -> impl Strategy<Value = ActionGen> {
    prop_oneof![
        3 => any::<Index>().prop_map(ActionGen::Legal),
        3 => (any::<Index>(), edits()).prop_map(|(i, e)| ActionGen::LegalMutated(i, e)),
        1 => any::<Index>().prop_map(ActionGen::Meta),
        2 => short_text().prop_map(ActionGen::Random),
        1 => (150usize..4000, text_char()).prop_map(|(n, c)| ActionGen::Long(n, c)),
    ]
}

/// A JSON value, written as text (so that numbers JSON allows but `f64` does not can be
/// sent).
#[derive(Clone, Debug)]
enum JsonGen {
    Act,
    Ping,
    Action(ActionGen),
    Str(String),
    Int(i64),
    /// Numbers written as they are: beyond `u64`, beyond `f64`, negative zero...
    RawNumber(&'static str),
    Float(f64),
    Null,
    Bool(bool),
    Nested(usize),
    Array(Vec<i64>),
    Object,
}

const RAW_NUMBERS: [&str; 9] = [
    "18446744073709551616",
    "-9223372036854775809",
    "1e308",
    "-1e308",
    "1e400",
    "-0",
    "0.0000000000000000000000000001",
    "123456789012345678901234567890",
    "4.9e-324",
];

fn json_gen() -> impl Strategy<Value = JsonGen> {
    prop_oneof![
        2 => Just(JsonGen::Act),
        1 => Just(JsonGen::Ping),
        3 => action_gen().prop_map(JsonGen::Action),
        2 => short_text().prop_map(JsonGen::Str),
        2 => any::<i64>().prop_map(JsonGen::Int),
        1 => prop::sample::select(RAW_NUMBERS.to_vec()).prop_map(JsonGen::RawNumber),
        1 => any::<f64>().prop_map(JsonGen::Float),
        1 => Just(JsonGen::Null),
        1 => any::<bool>().prop_map(JsonGen::Bool),
        1 => (1usize..300).prop_map(JsonGen::Nested),
        1 => prop::collection::vec(any::<i64>(), 0..5).prop_map(JsonGen::Array),
        1 => Just(JsonGen::Object),
    ]
}

/// A message: keys and values (keys may repeat, be missing or be unknown).
#[derive(Clone, Debug)]
struct Shape(Vec<(String, JsonGen)>);

fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => prop::sample::select(vec!["t", "action", "ack"]).prop_map(String::from),
        1 => short_text(),
    ]
}

fn shape() -> impl Strategy<Value = Shape> {
    prop_oneof![
        // A well-formed act or ping, with random values where they matter.
        4 => (action_gen(), prop::option::of(json_gen())).prop_map(|(a, ack)| {
            let mut v = vec![("t".to_string(), JsonGen::Act), ("action".to_string(), JsonGen::Action(a))];
            v.extend(ack.map(|ack| ("ack".to_string(), ack)));
            Shape(v)
        }),
        1 => prop::option::of(json_gen()).prop_map(|ack| {
            let mut v = vec![("t".to_string(), JsonGen::Ping)];
            v.extend(ack.map(|ack| ("ack".to_string(), ack)));
            Shape(v)
        }),
        // Anything of the shape: wrong types, missing or repeated keys.
        3 => prop::collection::vec((key(), json_gen()), 0..5).prop_map(Shape),
    ]
}

/// Edits of a valid message (the shared [`Edit`]s that keep it mostly readable).
fn edits() -> impl Strategy<Value = Vec<Edit>> {
    let edit = prop_oneof![
        (any::<Index>(), text_char()).prop_map(|(i, c)| Edit::Replace(i, c)),
        (any::<Index>(), text_char()).prop_map(|(i, c)| Edit::Insert(i, c)),
        any::<Index>().prop_map(Edit::Delete),
        (any::<Index>(), any::<Index>()).prop_map(|(a, b)| Edit::Duplicate(a, b)),
        any::<Index>().prop_map(Edit::Truncate),
    ];
    prop::collection::vec(edit, 1..5)
}

/// What is sent.
#[derive(Clone, Debug)]
enum Payload {
    /// Random bytes, read as lossy UTF-8.
    Bytes(Vec<u8>),
    /// Any string.
    Raw(String),
    /// A message of the protocol's shape.
    Shape(Shape),
    /// A message of the protocol's shape, then edited as text.
    Mutated(Shape, Vec<Edit>),
    /// A text over the size limit (`MAX_MESSAGE` + the number of bytes).
    Oversized(usize),
    /// A binary message.
    Binary(Vec<u8>),
    /// A text frame whose bytes are not UTF-8.
    NotUtf8(Vec<u8>),
}

fn payload() -> impl Strategy<Value = Payload> {
    prop_oneof![
        2 => prop::collection::vec(any::<u8>(), 0..600).prop_map(Payload::Bytes),
        2 => any::<String>().prop_map(Payload::Raw),
        8 => shape().prop_map(Payload::Shape),
        4 => (shape(), edits()).prop_map(|(s, e)| Payload::Mutated(s, e)),
        1 => prop_oneof![1usize..64, 64usize..(64 * 1024)].prop_map(Payload::Oversized),
        1 => prop::collection::vec(any::<u8>(), 0..64).prop_map(Payload::Binary),
        1 => prop::collection::vec(any::<u8>(), 0..64).prop_map(Payload::NotUtf8),
    ]
}

/// A message on one of the connections: 0 white, 1 black, 2 the spectator.
#[derive(Clone, Debug)]
struct Send {
    conn: usize,
    payload: Payload,
}

fn sends() -> impl Strategy<Value = Vec<Send>> {
    prop::collection::vec(
        (0usize..3, payload()).prop_map(|(conn, payload)| Send { conn, payload }),
        1..25,
    )
}

/// The legal actions of the state (those of the side to act).
fn legal(state: &Value) -> Vec<String> {
    state["legal"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|s| s.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

fn render_action(a: &ActionGen, legal: &[String]) -> String {
    let pick = |i: &Index| {
        if legal.is_empty() {
            "32-28".to_string()
        } else {
            legal[i.index(legal.len())].clone()
        }
    };
    match a {
        ActionGen::Legal(i) => pick(i),
        ActionGen::LegalMutated(i, e) => mutate(&pick(i), e),
        ActionGen::Meta(i) => META[i.index(META.len())].to_string(),
        ActionGen::Random(s) => s.clone(),
        ActionGen::Long(n, c) => std::iter::repeat_n(*c, *n).collect(),
    }
}

fn render_json(j: &JsonGen, legal: &[String]) -> String {
    match j {
        JsonGen::Act => "\"act\"".into(),
        JsonGen::Ping => "\"ping\"".into(),
        JsonGen::Action(a) => Value::from(render_action(a, legal)).to_string(),
        JsonGen::Str(s) => Value::from(s.as_str()).to_string(),
        JsonGen::Int(n) => n.to_string(),
        JsonGen::RawNumber(s) => (*s).to_string(),
        JsonGen::Float(f) => {
            serde_json::Number::from_f64(*f).map_or("null".into(), |n| n.to_string())
        }
        JsonGen::Null => "null".into(),
        JsonGen::Bool(b) => b.to_string(),
        JsonGen::Nested(d) => format!("{}{}", "[".repeat(*d), "]".repeat(*d)),
        JsonGen::Array(v) => Value::from(v.clone()).to_string(),
        JsonGen::Object => "{\"t\":\"act\",\"action\":\"32-28\"}".into(),
    }
}

fn render_shape(s: &Shape, legal: &[String]) -> String {
    let fields: Vec<String> =
        s.0.iter()
            .map(|(k, v)| format!("{}:{}", Value::from(k.as_str()), render_json(v, legal)))
            .collect();
    format!("{{{}}}", fields.join(","))
}

/// The message to send, and whether it is text within the size limit (then a reply is due).
fn render(p: &Payload, legal: &[String]) -> (Message, Option<String>) {
    let text = |t: String| {
        if t.len() > MAX_MESSAGE {
            (Message::Text(t.into()), None)
        } else {
            (Message::Text(t.clone().into()), Some(t))
        }
    };
    match p {
        Payload::Bytes(b) => text(String::from_utf8_lossy(b).into_owned()),
        Payload::Raw(s) => text(s.clone()),
        Payload::Shape(s) => text(render_shape(s, legal)),
        Payload::Mutated(s, e) => text(mutate(&render_shape(s, legal), e)),
        Payload::Oversized(n) => {
            let body = "x".repeat(MAX_MESSAGE + n);
            text(json!({"t": "act", "action": body}).to_string())
        }
        Payload::Binary(b) => (Message::Binary(b.clone().into()), None),
        Payload::NotUtf8(b) => {
            let mut bytes = vec![0xff];
            bytes.extend_from_slice(b);
            (
                Message::Frame(Frame::message(bytes, OpCode::Data(Data::Text), true)),
                None,
            )
        }
    }
}

/// Whether a reply's `ack` echoes the message's. Floating-point numbers are compared to the
/// last bits: serde_json (without its `float_roundtrip` feature) may read the decimal it
/// writes one unit in the last place away.
fn same_ack(got: &Value, sent: &Value) -> bool {
    match (got, sent) {
        (Value::Number(a), Value::Number(b)) if a.is_f64() || b.is_f64() => {
            match (a.as_f64(), b.as_f64()) {
                (Some(x), Some(y)) => x == y || ((x - y) / y).abs() < 1e-12,
                _ => false,
            }
        }
        (Value::Array(a), Value::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| same_ack(x, y))
        }
        (Value::Object(a), Value::Object(b)) => {
            a.len() == b.len()
                && a.iter()
                    .all(|(k, x)| b.get(k).is_some_and(|y| same_ack(x, y)))
        }
        _ => got == sent,
    }
}

// ---------------------------------------------------------------------------------------------
// One case.

async fn run_case(addr: SocketAddr, spec: Value, sends: Vec<Send>) -> Result<(), TestCaseError> {
    let created = http(addr, "POST", "/api/games", Some(&spec)).await;
    let id = created["id"].as_str().expect("a game id").to_string();
    let tokens: Vec<Option<String>> = vec![
        created["tokens"][0].as_str().map(String::from),
        created["tokens"][1].as_str().map(String::from),
        None,
    ];
    let mut conns = Vec::new();
    for t in &tokens {
        conns.push(connect(addr, &id, t.as_deref()).await);
    }
    let mut before = state(addr, &id).await;
    for s in &sends {
        let (msg, reply_due) = render(&s.payload, &legal(&before));
        let described = format!("{:?}", s.payload)
            .chars()
            .take(300)
            .collect::<String>();
        let ws = &mut conns[s.conn];
        // The server may close a connection at once (binary, oversized): a failed send is
        // then followed by the close.
        let _ = ws.send(msg).await;
        let got = outcome(ws).await;
        match (&reply_due, &got) {
            (Some(text), Outcome::Reply(r)) => {
                let sent: Option<Value> = serde_json::from_str(text).ok();
                let t = r["t"].as_str().unwrap_or_default();
                prop_assert!(
                    ["pong", "ack", "error"].contains(&t),
                    "{} answered {}",
                    described,
                    r
                );
                match &sent {
                    // The reply echoes the message's ack.
                    Some(v) => prop_assert!(
                        same_ack(
                            r.get("ack").unwrap_or(&Value::Null),
                            v.get("ack").unwrap_or(&Value::Null)
                        ),
                        "{} answered {}",
                        &described,
                        r
                    ),
                    None => prop_assert_eq!(t, "error", "{} is not JSON", &described),
                }
                if t == "error" {
                    prop_assert!(r["reason"].as_str().is_some_and(|s| !s.is_empty()), "{}", r);
                    prop_assert!(
                        r["code"]
                            .as_str()
                            .is_some_and(|c| PROTOCOL.contains(&format!("`{c}`"))),
                        "{} has no documented code",
                        r
                    );
                }
                if t == "ack" {
                    prop_assert!(s.conn < 2, "a spectator's {} was accepted", &described);
                }
            }
            (Some(_), Outcome::Closed(code)) => prop_assert!(
                false,
                "{} closed the connection ({:?}) instead of a reply",
                described,
                code
            ),
            (None, Outcome::Reply(r)) => prop_assert!(
                false,
                "{} should close the connection, got {}",
                described,
                r
            ),
            (None, Outcome::Closed(code)) => match &s.payload {
                Payload::Oversized(n) if *n < 32 * 1024 => {
                    prop_assert_eq!(*code, Some(1009), "{}", &described)
                }
                Payload::Binary(_) => prop_assert_eq!(*code, Some(1003), "{}", &described),
                // Beyond what the server reads at all, or a frame the WebSocket layer
                // refuses: the connection ends, with or without a frame.
                _ => {}
            },
        }
        let now = state(addr, &id).await;
        if matches!(&got, Outcome::Reply(r) if r["t"] == "ack") {
            prop_assert!(
                now["v"].as_u64() >= before["v"].as_u64(),
                "the version went back"
            );
        } else {
            prop_assert_eq!(
                &now,
                &before,
                "the state changed after {} was refused ({:?})",
                &described,
                got
            );
        }
        before = now;
        if let Outcome::Closed(_) = got {
            conns[s.conn] = connect(addr, &id, tokens[s.conn].as_deref()).await;
        }
    }
    // The server is still up: a new spectator gets the state, as it stands.
    let mut fresh = connect_async(format!("ws://{addr}/ws/{id}"))
        .await
        .expect("the server accepts a new connection")
        .0;
    prop_assert_eq!(
        next_text(&mut fresh).await.map(|h| h["t"].clone()),
        Some(json!("hello"))
    );
    let seen = next_text(&mut fresh).await.expect("the state");
    prop_assert_eq!(&seen["v"], &before["v"]);
    Ok(())
}

#[test]
fn websocket_messages() {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let addr = rt.block_on(server());
    let mut runner = TestRunner::new(config(60));
    let result = runner.run(&(game_spec(), sends()), |(spec, sends)| {
        rt.block_on(run_case(addr, spec, sends))
    });
    if let Err(e) = result {
        panic!("{e}");
    }
}
