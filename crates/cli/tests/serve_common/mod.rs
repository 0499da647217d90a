//! Helpers shared by the tests that run the real `tablier serve`: start it, speak HTTP to it.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};

use serde_json::Value;

/// Starts `tablier serve --addr 127.0.0.1:0` with `args`; returns the child and the address
/// it printed.
pub fn start(args: &[&str]) -> (Child, SocketAddr) {
    start_with(args, Stdio::inherit())
}

/// [`start`], with the server's standard error (its log) sent to `stderr`.
pub fn start_with(args: &[&str], stderr: impl Into<Stdio>) -> (Child, SocketAddr) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tablier"))
        .args(["serve", "--addr", "127.0.0.1:0"])
        .args(args)
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .expect("tablier serve starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .trim()
        .rsplit("http://")
        .next()
        .and_then(|a| a.parse().ok())
        .unwrap_or_else(|| panic!("no address in {line:?}"));
    (child, addr)
}

/// Creates a game of `spec` between two human seats; its id and the two seats' tokens.
pub fn create_humans(addr: SocketAddr, spec: Value) -> (String, [String; 2]) {
    let mut body = spec;
    body["seats"] = serde_json::json!([{"kind": "human"}, {"kind": "human"}]);
    let (status, g) = http(addr, "POST", "/api/games", Some(&body));
    assert_eq!(status, 200, "{g}");
    let token = |i: usize| g["tokens"][i].as_str().unwrap().to_owned();
    (g["id"].as_str().unwrap().to_owned(), [token(0), token(1)])
}

/// A seat's action over HTTP: the status and the answer.
pub fn act(addr: SocketAddr, id: &str, token: &str, action: &str) -> (u16, Value) {
    http(
        addr,
        "POST",
        &format!("/api/games/{id}/act"),
        Some(&serde_json::json!({"token": token, "action": action})),
    )
}

/// Acts and expects the action accepted; returns the new state.
pub fn must_act(addr: SocketAddr, id: &str, token: &str, action: &str) -> Value {
    let (status, s) = act(addr, id, token, action);
    assert_eq!(status, 200, "{action}: {s}");
    s
}

/// One HTTP/1.1 request with a JSON body; the status and the JSON answer (`Null` if none).
pub fn http(addr: SocketAddr, method: &str, path: &str, body: Option<&Value>) -> (u16, Value) {
    let mut s = TcpStream::connect(addr).unwrap();
    let body = body.map(Value::to_string).unwrap_or_default();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    let status: u16 = out[9..12].parse().unwrap();
    let start = out.find("\r\n\r\n").unwrap() + 4;
    (
        status,
        serde_json::from_str(&out[start..]).unwrap_or(Value::Null),
    )
}

/// The first legal action listed that is not a resignation, and the seat (0 white, 1 black)
/// that is to act; `None` when no player is to act.
pub fn next_action(state: &Value) -> Option<(usize, String)> {
    let seat = match state["actor"].as_str() {
        Some("white") => 0,
        Some("black") => 1,
        _ => return None,
    };
    let legal = state["legal"].as_array()?;
    let action = legal
        .iter()
        .filter_map(Value::as_str)
        .find(|a| !a.starts_with("resign"))
        .or(legal.first()?.as_str())?;
    Some((seat, action.to_owned()))
}
