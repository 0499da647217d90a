//! Every way a game can end survives a restart of the real `tablier serve`, exactly.
//!
//! For each family, games are finished in every way they can end — the last move, a dice
//! throw (trictrac's twelfth hole), a resignation, a dropped double, a flag on time, an agreed
//! draw, a draw by rule, a match won — then the server is killed with SIGKILL and started
//! again on the same database, then stopped gracefully and started once more. Each time the
//! whole state, the record, the review and the export of every finished game must be what
//! they were before the stop; no action of any kind is accepted any more (the winner cannot
//! resign to flip the result); and `tablier verify` proves each record's outcome.

mod serve_common;

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command};

use rand::seq::SliceRandom;
use rand::SeedableRng;
use serde_json::{json, Value};
use serve_common::{act, create_humans as create, http, must_act};
use tablier_core::Game as _;

fn start(data: &Path) -> (Child, SocketAddr) {
    serve_common::start(&["--data", data.to_str().unwrap(), "--games-burst", "200"])
}

/// A finished game, with what the server showed of it before the stop.
struct Finished {
    what: String,
    id: String,
    tokens: [String; 2],
    state: Value,
    record: Value,
    review: (u16, Value),
    export: String,
}

fn state(addr: SocketAddr, id: &str) -> Value {
    let (status, s) = http(addr, "GET", &format!("/api/games/{id}"), None);
    assert_eq!(status, 200, "{s}");
    s
}

fn seat_to_act(s: &Value) -> Option<usize> {
    match s["actor"].as_str() {
        Some("white") => Some(0),
        Some("black") => Some(1),
        _ => None,
    }
}

/// The first legal action that neither resigns nor doubles (so that the cube stays where it
/// is and the game is decided on the board).
fn plain(s: &Value) -> Option<String> {
    s["legal"]
        .as_array()?
        .iter()
        .filter_map(Value::as_str)
        .find(|a| !a.starts_with("resign") && *a != "double" && *a != "beaver")
        .map(str::to_owned)
}

/// Plays `plain` actions until `stop` holds or the game is over; returns the last state.
fn play_until(
    addr: SocketAddr,
    id: &str,
    tokens: &[String; 2],
    stop: impl Fn(&Value) -> bool,
) -> Value {
    let mut s = state(addr, id);
    for _ in 0..20_000 {
        if !s["result"].is_null() || stop(&s) {
            return s;
        }
        let seat = seat_to_act(&s).unwrap_or_else(|| panic!("nobody to act: {s}"));
        let action = plain(&s).unwrap_or_else(|| panic!("no action: {s}"));
        s = must_act(addr, id, &tokens[seat], &action);
    }
    panic!("game {id} did not end");
}

/// A game of international draughts played in this process with seeded random moves, the
/// first seed's game that ends as asked (`draw`: by a draw rule; otherwise won by the last
/// move). Returns the moves in the server's notation.
fn draughts_moves(draw: bool) -> Vec<String> {
    use tablier_draughts::game::{Ending, Game};
    use tablier_draughts::{G10, INTERNATIONAL};
    for seed in 0..5_000u64 {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut g = Game::<G10>::start(&INTERNATIONAL).unwrap();
        let mut moves = Vec::new();
        while g.ending().is_none() && moves.len() < 400 {
            let legal = g.legal_actions();
            let a = *legal.choose(&mut rng).unwrap();
            moves.push(g.format_action(&a));
            g.apply(&a).unwrap();
        }
        match g.ending() {
            Some(Ending::Draw(_)) if draw => return moves,
            Some(Ending::NoMove { .. }) if !draw => return moves,
            _ => {}
        }
    }
    panic!("no seeded game ended as wanted");
}

/// Plays the given moves (white first) through the server.
fn play_moves(addr: SocketAddr, id: &str, tokens: &[String; 2], moves: &[String]) -> Value {
    let mut s = state(addr, id);
    for m in moves {
        let seat = seat_to_act(&s).unwrap_or_else(|| panic!("nobody to act before {m}: {s}"));
        s = must_act(addr, id, &tokens[seat], m);
    }
    s
}

fn snapshot(addr: SocketAddr, what: &str, id: &str, tokens: [String; 2]) -> Finished {
    let state = state(addr, id);
    assert!(!state["result"].is_null(), "{what}: not over: {state}");
    assert_eq!(state["actor"], "nobody", "{what}");
    let (status, record) = http(addr, "GET", &format!("/api/games/{id}/record"), None);
    assert_eq!(status, 200, "{what}: {record}");
    let review = http(addr, "GET", &format!("/api/games/{id}/review"), None);
    assert_eq!(review.0, 200, "{what}: {}", review.1);
    let (status, export) = http(addr, "GET", &format!("/api/games/{id}/export"), None);
    assert_eq!(status, 200, "{what}");
    Finished {
        what: what.to_owned(),
        id: id.to_owned(),
        tokens,
        state,
        record,
        review,
        export: export.to_string(),
    }
}

/// Everything the server shows of a finished game is as it was, and nothing is accepted.
fn check_unchanged(addr: SocketAddr, games: &[Finished], when: &str) {
    for g in games {
        let what = format!("{} ({}, {when})", g.what, g.id);
        let s = state(addr, &g.id);
        assert_eq!(s, g.state, "{what}: the state changed");
        let (status, record) = http(addr, "GET", &format!("/api/games/{}/record", g.id), None);
        assert_eq!(status, 200, "{what}");
        assert_eq!(record, g.record, "{what}: the record changed");
        let review = http(addr, "GET", &format!("/api/games/{}/review", g.id), None);
        assert_eq!(review, g.review, "{what}: the review changed");
        let (_, export) = http(addr, "GET", &format!("/api/games/{}/export", g.id), None);
        assert_eq!(export.to_string(), g.export, "{what}: the export changed");
        // No action of any kind from either seat: resignations, offers, moves.
        for token in &g.tokens {
            for action in [
                "!resign",
                "!draw-offer",
                "!draw-accept",
                "!takeback-offer",
                "roll",
            ] {
                let (status, answer) = act(addr, &g.id, token, action);
                assert_ne!(
                    status, 200,
                    "{what}: {action} accepted after the end: {answer}"
                );
            }
        }
        assert_eq!(
            state(addr, &g.id),
            g.state,
            "{what}: a refused action changed it"
        );
    }
}

/// `tablier verify` proves each record's outcome.
fn verify_all(dir: &Path, games: &[Finished]) {
    for g in games {
        let path = dir.join(format!("{}.json", g.id));
        std::fs::write(&path, g.record.to_string()).unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_tablier"))
            .arg("verify")
            .arg(&path)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{}: verify failed: {}{}",
            g.what,
            text,
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            text.contains("the game ends as recorded"),
            "{}: {text}",
            g.what
        );
    }
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tablier-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn every_ending_survives_a_restart_exactly() {
    let data = temp_dir("restart-endings");
    let (mut server, addr) = start(&data);
    let mut done: Vec<Finished> = Vec::new();
    let intl = json!({"family": "draughts", "variant": "international"});
    let money = json!({"family": "backgammon"});
    let tric = json!({"family": "trictrac"});

    // Draughts: the last move wins; a draw by rule; an agreed draw; a resignation.
    let (id, t) = create(addr, intl.clone());
    let s = play_moves(addr, &id, &t, &draughts_moves(false));
    assert_eq!(s["result"]["reason"], "rules", "{s}");
    assert!(!s["result"]["winner"].is_null(), "{s}");
    done.push(snapshot(addr, "draughts: the last move", &id, t));

    let (id, t) = create(addr, intl.clone());
    let s = play_moves(addr, &id, &t, &draughts_moves(true));
    assert_eq!(s["result"]["reason"], "rules", "{s}");
    assert!(s["result"]["winner"].is_null(), "{s}");
    done.push(snapshot(addr, "draughts: a draw by rule", &id, t));

    let (id, t) = create(addr, intl.clone());
    must_act(addr, &id, &t[0], "32-28");
    must_act(addr, &id, &t[1], "!draw-offer");
    let s = must_act(addr, &id, &t[0], "!draw-accept");
    assert_eq!(s["result"]["reason"], "draw-agreed", "{s}");
    done.push(snapshot(addr, "draughts: an agreed draw", &id, t));

    let (id, t) = create(addr, intl.clone());
    must_act(addr, &id, &t[0], "32-28");
    let s = must_act(addr, &id, &t[1], "!resign");
    assert_eq!(s["result"]["winner"], "White", "{s}");
    done.push(snapshot(addr, "draughts: a resignation", &id, t));

    // Backgammon: the last move of a money game; a dropped double; a resignation accepted;
    // the table resignation; a match won.
    let (id, t) = create(addr, json!({"family": "backgammon", "cube": false}));
    let s = play_until(addr, &id, &t, |_| false);
    assert_eq!(s["result"]["reason"], "rules", "{s}");
    done.push(snapshot(addr, "backgammon: the last move", &id, t));

    let (id, t) = create(addr, money.clone());
    let s = play_until(addr, &id, &t, |s| {
        s["legal"].as_array().unwrap().iter().any(|a| a == "double")
    });
    let seat = seat_to_act(&s).unwrap();
    must_act(addr, &id, &t[seat], "double");
    let s = must_act(addr, &id, &t[1 - seat], "drop");
    assert_eq!(s["result"]["points"], 1, "{s}");
    done.push(snapshot(addr, "backgammon: a dropped double", &id, t));

    let (id, t) = create(addr, money.clone());
    let s = play_until(addr, &id, &t, |s| {
        s["legal"]
            .as_array()
            .unwrap()
            .iter()
            .any(|a| a == "resign single")
    });
    let seat = seat_to_act(&s).unwrap();
    must_act(addr, &id, &t[seat], "resign single");
    let s = must_act(addr, &id, &t[1 - seat], "accept");
    assert!(!s["result"].is_null(), "{s}");
    done.push(snapshot(addr, "backgammon: a resignation accepted", &id, t));

    let (id, t) = create(addr, json!({"family": "backgammon", "match_length": 3}));
    let s = play_until(addr, &id, &t, |_| false);
    assert_eq!(s["result"]["points"], 3, "{s}");
    done.push(snapshot(addr, "backgammon: a match won", &id, t));

    let (id, t) = create(addr, json!({"family": "backgammon", "match_length": 5}));
    play_until(addr, &id, &t, |s| s["actor"] == "black");
    must_act(addr, &id, &t[0], "!resign");
    done.push(snapshot(addr, "backgammon: a match resigned", &id, t));

    // Trictrac: the twelfth hole on a dice throw (the case); on a move; a
    // resignation.
    // Parties are played until one ends on a throw (the points of a partie come with the
    // throws, so nearly all do); one that ends on a move on the way is kept too.
    let (mut on_throw, mut on_move) = (false, false);
    let mut parties = 0;
    for _ in 0..40 {
        if on_throw {
            break;
        }
        parties += 1;
        let (id, t) = create(addr, tric.clone());
        let s = play_until(addr, &id, &t, |_| false);
        assert_eq!(s["result"]["reason"], "rules", "{s}");
        let last = s["log"].as_array().unwrap().last().unwrap().clone();
        let by_throw = last["side"] == "";
        if by_throw && !on_throw {
            on_throw = true;
            done.push(snapshot(
                addr,
                "trictrac: the twelfth hole on a throw",
                &id,
                t,
            ));
        } else if !by_throw && !on_move {
            on_move = true;
            done.push(snapshot(
                addr,
                "trictrac: the twelfth hole on a move",
                &id,
                t,
            ));
        }
    }
    assert!(on_throw, "none of {parties} parties ended on a throw");
    eprintln!(
        "trictrac: {parties} parties played to see one end on a throw (one on a move: {on_move})"
    );

    let (id, t) = create(addr, tric.clone());
    play_until(addr, &id, &t, |s| s["v"].as_u64().unwrap() > 20);
    must_act(addr, &id, &t[1], "!resign");
    done.push(snapshot(addr, "trictrac: a resignation", &id, t));

    // A flag on time in each family: both clocks started, then the side to act waits. Two
    // more games start from a position (a FEN, an XGID) with a delay clock (the flag falls
    // once delay and reserve are spent): what the spec says of them comes back too.
    let mut flagged = Vec::new();
    let from_fen = json!({"family": "draughts", "variant": "international",
        "start": "W:W31,32,33,34,35,36,37,38:B11,12,13,14,15,16,17,18"});
    let from_xgid = json!({"family": "backgammon", "match_length": 5,
        "start": "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:2:1:0:5:10"});
    for spec in [
        intl.clone(),
        money.clone(),
        tric.clone(),
        from_fen,
        from_xgid,
    ] {
        let mut spec = spec;
        spec["clock"] = if spec["start"].is_null() {
            json!({"initial_s": 1, "increment_s": 0})
        } else {
            json!({"initial_s": 1, "increment_s": 0, "delay_s": 1})
        };
        let (id, t) = create(addr, spec);
        let s = play_until(addr, &id, &t, |s| !s["clock"]["running"].is_null());
        assert!(s["result"].is_null(), "{s}");
        flagged.push((id, t));
    }
    std::thread::sleep(std::time::Duration::from_millis(2600));
    for (id, t) in flagged {
        let s = state(addr, &id);
        assert_eq!(s["result"]["reason"], "time", "{s}");
        let mut what = format!("{}: a flag on time", s["spec"]["family"].as_str().unwrap());
        if let Some(start) = s["spec"]["start"].as_str() {
            assert_eq!(s["spec"]["clock"]["delay_s"], 1, "{s}");
            what += &format!(" from {start}, with a delay");
        }
        done.push(snapshot(addr, &what, &id, t));
    }

    verify_all(&data, &done);
    check_unchanged(addr, &done, "before any stop");

    // SIGKILL, then a start on the same database.
    server.kill().unwrap();
    server.wait().unwrap();
    let (mut server, addr) = start(&data);
    check_unchanged(addr, &done, "after SIGKILL");

    // A graceful stop (Ctrl-C), then a start again.
    stop_gracefully(&mut server);
    let (mut server, addr) = start(&data);
    check_unchanged(addr, &done, "after a graceful stop");
    server.kill().unwrap();
    server.wait().unwrap();
    let _ = std::fs::remove_dir_all(&data);
}

fn stop_gracefully(server: &mut Child) {
    let pid = server.id().to_string();
    let ok = Command::new("kill")
        .args(["-INT", &pid])
        .status()
        .unwrap()
        .success();
    assert!(ok);
    let status = server.wait().unwrap();
    assert!(status.success(), "serve exits cleanly on Ctrl-C: {status}");
}
