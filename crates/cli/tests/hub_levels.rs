//! `tablier hub` against a GUI that sends times and sizes out of range: each gets an `error`
//! line, the level set before stays, and the engine goes on (it used to panic, exit 101,
//! on `level move-time=1e30` and `level time=1.8e19 inc=1.8e19` at the next `go`).

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

#[test]
fn out_of_range_levels_get_errors_and_the_engine_goes_on() {
    let mut hub = Command::new(env!("CARGO_BIN_EXE_tablier"))
        .arg("hub")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run tablier hub");
    let start = format!("W{}{}{}", "b".repeat(20), "e".repeat(10), "w".repeat(20));
    let script = [
        "hub".to_string(),
        "set-param name=bb-size value=0".to_string(),
        "set-param name=tt-size value=16".to_string(),
        "init".to_string(),
        format!("pos pos={start}"),
        "level depth=2".to_string(),
        "level move-time=1e30".to_string(),
        "level time=1e30".to_string(),
        "level time=1.8e19 inc=1.8e19".to_string(),
        "level move-time=-1".to_string(),
        "level move-time=NaN".to_string(),
        "level nodes=1e30".to_string(),
        "level depth=99999999999".to_string(),
        "set-param name=tt-size value=31".to_string(),
        "go".to_string(),
    ];
    let mut stdin = hub.stdin.take().expect("piped stdin");
    // Writes may fail if the hub has died: what it said on stderr is checked below.
    for line in &script {
        let _ = writeln!(stdin, "{line}");
    }
    let _ = stdin.flush();
    let mut errors = Vec::new();
    let mut done = None;
    let mut lines = BufReader::new(hub.stdout.take().expect("piped stdout")).lines();
    for line in lines.by_ref() {
        let Ok(line) = line else { break };
        if line.starts_with("error") {
            errors.push(line);
        } else if line.starts_with("done") {
            done = Some(line);
            break;
        }
    }
    // The engine still answers, and leaves when asked.
    let _ = writeln!(stdin, "ping");
    let _ = stdin.flush();
    let pong = lines.next().and_then(Result::ok);
    let _ = writeln!(stdin, "quit");
    drop(stdin);
    let out = hub.wait_with_output().expect("wait for the hub");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(out.status.success(), "{:?}: {stderr}", out.status);
    assert_eq!(errors.len(), 8, "{errors:#?}");
    for e in &errors[..7] {
        assert!(e.starts_with("error message=\"level "), "{e}");
    }
    assert!(errors[7].contains("tt-size 31"), "{}", errors[7]);
    // The search ran at the depth set before the refused levels: a move came back.
    let done = done.expect("a done line");
    assert!(done.starts_with("done move="), "{done}");
    assert_eq!(pong.as_deref(), Some("pong"));
}
