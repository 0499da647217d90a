//! The HTTP API without a socket (`tower::ServiceExt::oneshot` on the router), on a real
//! SQLite database in a temporary folder: creating games of every family, acting with a
//! seat's token, and every kind of bad request refused with a reason and no change.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tablier_server::store::Store;
use tablier_server::{router, Hub, Options};
use tower::ServiceExt;

/// A server on a fresh database, with engine-against-engine games allowed (some tests let
/// two engine seats play a game out).
/// The database's folder is removed when the returned `TempDir` is dropped.
async fn app() -> (axum::Router, tempfile::TempDir) {
    app_with(Options {
        engine_games: true,
        ..Options::default()
    })
    .await
}

async fn app_with(options: Options) -> (axum::Router, tempfile::TempDir) {
    let dir = tempfile::Builder::new()
        .prefix("tablier-api-")
        .tempdir()
        .unwrap();
    let store = Store::open(&format!(
        "sqlite://{}",
        dir.path().join("t.sqlite").display()
    ))
    .await
    .unwrap();
    let hub = Hub::with_options(std::sync::Arc::new(store), options)
        .await
        .unwrap();
    (router(hub), dir)
}

async fn call(
    app: &axum::Router,
    method: &str,
    uri: &str,
    body: Option<String>,
) -> (StatusCode, Value) {
    let mut req = Request::builder().method(method).uri(uri);
    if body.is_some() {
        req = req.header("content-type", "application/json");
    }
    let resp = app
        .clone()
        .oneshot(req.body(body.map_or_else(Body::empty, Body::from)).unwrap())
        .await
        .unwrap();
    let status = resp.status();
    let bytes = resp.into_body().collect().await.unwrap().to_bytes();
    let value = serde_json::from_slice(&bytes)
        .unwrap_or(Value::String(String::from_utf8_lossy(&bytes).into()));
    (status, value)
}

async fn create(app: &axum::Router, spec: Value) -> (String, Vec<Option<String>>) {
    let (status, v) = call(app, "POST", "/api/games", Some(spec.to_string())).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let tokens = v["tokens"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().map(str::to_owned))
        .collect();
    (v["id"].as_str().unwrap().to_owned(), tokens)
}

async fn act(app: &axum::Router, id: &str, token: &str, action: &str) -> (StatusCode, Value) {
    call(
        app,
        "POST",
        &format!("/api/games/{id}/act"),
        Some(json!({"token": token, "action": action}).to_string()),
    )
    .await
}

async fn state(app: &axum::Router, id: &str) -> Value {
    let (status, v) = call(app, "GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(status, StatusCode::OK);
    v
}

/// The WebSocket and HTTP reference, whose list of refusal codes the answers are checked against.
const PROTOCOL: &str = include_str!("../../../docs/PROTOCOL.md");

const TWO_HUMANS: &str = r#"[{"kind":"human"},{"kind":"human"}]"#;

#[tokio::test]
async fn every_family_starts_and_takes_a_legal_action() {
    let (app, _dir) = app().await;
    let seats: Value = serde_json::from_str(TWO_HUMANS).unwrap();
    for spec in [
        json!({"family": "draughts", "variant": "international", "seats": seats}),
        json!({"family": "draughts", "variant": "brazilian", "seats": seats}),
        json!({"family": "draughts", "variant": "canadian", "seats": seats}),
        json!({"family": "draughts", "variant": "english", "seats": seats}),
        json!({"family": "draughts", "variant": "french-old", "seats": seats}),
        json!({"family": "backgammon", "match_length": 5, "seats": seats}),
        json!({"family": "backgammon", "seats": seats}),
        json!({"family": "trictrac", "seats": seats}),
        json!({"family": "trictrac", "ecoles": true, "seats": seats}),
    ] {
        let (id, tokens) = create(&app, spec.clone()).await;
        let s = state(&app, &id).await;
        let actor = s["actor"].as_str().unwrap();
        assert!(actor == "white" || actor == "black", "{spec}: {s}");
        let token = tokens[usize::from(actor == "black")].clone().unwrap();
        let first = s["legal"][0].as_str().unwrap().to_owned();
        let v0 = s["v"].as_u64().unwrap();
        let (status, after) = act(&app, &id, &token, &first).await;
        assert_eq!(status, StatusCode::OK, "{spec}: {after}");
        assert!(after["v"].as_u64().unwrap() > v0);
        assert!(after["log"]
            .as_array()
            .unwrap()
            .iter()
            .any(|a| a["action"] == first.as_str()));
        // The commitment is public from the start, the seed is not.
        assert_eq!(after["commitment"].as_str().unwrap().len(), 64);
        assert!(after["seed"].is_null());
        // Every position so far, for looking back during play: the start, then one per
        // action of the game; the last is the live one.
        let (status, p) = call(&app, "GET", &format!("/api/games/{id}/positions"), None).await;
        assert_eq!(status, StatusCode::OK, "{p}");
        let p = p["positions"].as_array().unwrap();
        let game_actions = after["log"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|a| !a["action"].as_str().unwrap().starts_with('!'))
            .count();
        assert_eq!(p.len(), game_actions + 1, "{spec}");
        assert_eq!(
            (p[0]["n"].clone(), p[0]["action"].clone()),
            (json!(0), json!(""))
        );
        assert_eq!(p.last().unwrap()["view"], after["view"], "{spec}");
        // A new trictrac game is stored under the current edition of the rules (bearing
        // off a right), so that it replays under them after any change.
        if spec["family"] == "trictrac" {
            assert_eq!(s["spec"]["edition"], json!(2), "{s}");
        } else {
            assert!(s["spec"].get("edition").is_none(), "{s}");
        }
    }
}

#[tokio::test]
async fn bad_requests_are_refused_with_a_reason_and_change_nothing() {
    let (app, _dir) = app().await;
    let (status, v) = call(&app, "POST", "/api/games", Some("{not json".into())).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    let (status, v) = call(
        &app,
        "POST",
        "/api/games",
        Some(r#"{"family":"chess"}"#.into()),
    )
    .await;
    assert!(status.is_client_error(), "{v}");
    let (status, v) = call(
        &app,
        "POST",
        "/api/games",
        Some(r#"{"family":"draughts","variant":"frisian"}"#.into()),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    assert!(v["error"]
        .as_str()
        .unwrap()
        .contains("unknown draughts variant"));
    let (status, v) = call(
        &app,
        "POST",
        "/api/games",
        Some(r#"{"family":"trictrac","edition":7}"#.into()),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    assert!(v["error"].as_str().unwrap().contains("edition"), "{v}");
    let (status, _) = call(
        &app,
        "POST",
        "/api/games",
        Some(
            r#"{"family":"draughts","seats":[{"kind":"engine","level":99},{"kind":"human"}]}"#
                .into(),
        ),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, _) = call(&app, "GET", "/api/games/nosuchgame", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = call(&app, "GET", "/api/games/..%2F..%2Fetc", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    let seats: Value = serde_json::from_str(TWO_HUMANS).unwrap();
    let (id, tokens) = create(
        &app,
        json!({"family": "draughts", "variant": "international", "seats": seats}),
    )
    .await;
    let white = tokens[0].clone().unwrap();
    let black = tokens[1].clone().unwrap();
    let before = state(&app, &id).await;
    for (token, action, code, words) in [
        ("guess", "32-28", StatusCode::FORBIDDEN, "opens no seat"),
        (
            black.as_str(),
            "19-23",
            StatusCode::UNPROCESSABLE_ENTITY,
            "not your turn",
        ),
        (
            white.as_str(),
            "32-23",
            StatusCode::UNPROCESSABLE_ENTITY,
            "",
        ),
        (
            white.as_str(),
            "!flag",
            StatusCode::UNPROCESSABLE_ENTITY,
            "clock",
        ),
        (
            white.as_str(),
            "!draw-accept",
            StatusCode::UNPROCESSABLE_ENTITY,
            "no draw",
        ),
        (
            white.as_str(),
            "!teleport",
            StatusCode::UNPROCESSABLE_ENTITY,
            "unknown",
        ),
    ] {
        let (status, v) = act(&app, &id, token, action).await;
        assert_eq!(status, code, "{action}: {v}");
        assert!(
            v["error"].as_str().unwrap().contains(words),
            "{action}: {v}"
        );
        // Each refusal is named too, for the pages that say it in French.
        let named = v["code"].as_str().unwrap_or_default();
        assert!(
            !named.is_empty() && PROTOCOL.contains(&format!("`{named}`")),
            "{action}: {v} has no documented code"
        );
        assert_eq!(state(&app, &id).await, before, "{action} changed the game");
    }
    // An oversized body is refused before it is read.
    let huge = json!({"token": white, "action": "x".repeat(40_000)}).to_string();
    let (status, _) = call(&app, "POST", &format!("/api/games/{id}/act"), Some(huge)).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    // A long action is refused too.
    let (status, _) = act(&app, &id, &white, &"3".repeat(500)).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(state(&app, &id).await, before);
}

#[tokio::test]
async fn a_client_cannot_choose_the_dice() {
    let (app, _dir) = app().await;
    let seats: Value = serde_json::from_str(TWO_HUMANS).unwrap();
    let (id, tokens) = create(&app, json!({"family": "backgammon", "seats": seats})).await;
    let s = state(&app, &id).await;
    // The opening throw was made by the server when the game was created.
    assert_eq!(s["log"][0]["side"], "");
    let mover = usize::from(s["actor"] == "black");
    let token = tokens[mover].clone().unwrap();
    let other = tokens[1 - mover].clone().unwrap();
    let first = s["legal"][0].as_str().unwrap().to_owned();
    act(&app, &id, &token, &first).await;
    // The other side must roll or double: naming dice is refused.
    let before = state(&app, &id).await;
    for text in ["6-6", "opening 6-5", "roll 6-6"] {
        let (status, v) = act(&app, &id, &other, text).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{text}: {v}");
        assert_eq!(state(&app, &id).await, before);
    }
    let (status, after) = act(&app, &id, &other, "roll").await;
    assert_eq!(status, StatusCode::OK);
    // The server threw: the dice are in the log as a chance entry.
    let last = after["log"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(last["side"], "");
}

#[tokio::test]
async fn a_finished_game_reveals_its_seed_and_verifies() {
    let (app, _dir) = app().await;
    // Two engine seats at random play a money game to its end.
    let (id, _) = create(
        &app,
        json!({"family": "backgammon", "cube": false, "seats": [{"kind":"engine","level":0},{"kind":"engine","level":0}]}),
    )
    .await;
    let mut s = state(&app, &id).await;
    for _ in 0..600 {
        if !s["result"].is_null() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        s = state(&app, &id).await;
    }
    assert!(!s["result"].is_null(), "the engines finished the game");
    assert_eq!(s["seed"].as_str().unwrap().len(), 64);
    let (status, record) = call(&app, "GET", &format!("/api/games/{id}/record"), None).await;
    assert_eq!(status, StatusCode::OK);
    let v = tablier_catalog::verify(&record).unwrap();
    assert!(v.rolls > 10, "{v:?}");
    // A record whose dice were changed does not verify.
    let mut forged = record.clone();
    let actions = forged["actions"].as_array_mut().unwrap();
    let i = actions
        .iter()
        .position(|a| a["side"] == "" && a["action"] != "6-6")
        .unwrap();
    actions[i]["action"] = json!("6-6");
    assert!(tablier_catalog::verify(&forged).is_err());
    // Nor does a seed that is not the committed one.
    let mut forged = record.clone();
    forged["seed"] = json!("00".repeat(32));
    assert!(tablier_catalog::verify(&forged)
        .unwrap_err()
        .to_string()
        .contains("commitment"));
    // The review: every position in force with the engine's judgement (White's chance to
    // win, in percent), and the view to draw it.
    let (status, review) = call(&app, "GET", &format!("/api/games/{id}/review"), None).await;
    assert_eq!(status, StatusCode::OK, "{review}");
    assert_eq!(review["unit"], "% to win");
    let positions = review["positions"].as_array().unwrap();
    assert_eq!(positions.len(), s["log"].as_array().unwrap().len() + 1);
    let values: Vec<f64> = positions
        .iter()
        .filter_map(|p| p["value"].as_f64())
        .collect();
    assert!(
        values.len() > 10 && values.iter().all(|v| (0.0..=100.0).contains(v)),
        "{values:?}"
    );
    // At the end the winner's chance is certain.
    let last = positions.last().unwrap();
    assert!(last["view"].is_object());
    // The match file.
    let (status, text) = call(&app, "GET", &format!("/api/games/{id}/export"), None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(text.as_str().unwrap().contains("0 point match"), "{text}");
}

#[tokio::test]
async fn the_home_page_and_the_game_page_are_served() {
    let (app, _dir) = app().await;
    let (status, body) = call(&app, "GET", "/", None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(body.as_str().unwrap().contains("<"));
    let (id, _) = create(&app, json!({"family": "draughts"})).await;
    for page in [format!("/g/{id}"), format!("/g/{id}/review")] {
        let (status, body) = call(&app, "GET", &page, None).await;
        assert_eq!(status, StatusCode::OK, "{page}");
        assert!(!body.as_str().unwrap().contains("Game not found"), "{page}");
    }
    // An unknown game: a page that says so, with a 404 (not the game page stuck on
    // "reconnecting").
    for page in ["/g/abcdefgh", "/g/abcdefgh/review", "/g/not-an-id!"] {
        let (status, body) = call(&app, "GET", page, None).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{page}");
        assert!(body.as_str().unwrap().contains("Game not found"), "{page}");
    }
    // The API's answers for an unknown game: 404 with a reason.
    for path in ["record", "positions", "review", "export"] {
        let (status, body) = call(&app, "GET", &format!("/api/games/abcdefgh/{path}"), None).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}: {body}");
    }
    let (status, _) = call(&app, "GET", "/static/../Cargo.toml", None).await;
    assert!(status.is_client_error());
}

#[tokio::test]
async fn a_clock_that_runs_out_loses_the_game() {
    let (app, _dir) = app().await;
    let (id, tokens) = create(
        &app,
        json!({"family": "draughts", "variant": "international",
               "seats": [{"kind":"human"},{"kind":"human"}],
               "clock": {"initial_s": 1, "increment_s": 0}}),
    )
    .await;
    let (white, black) = (tokens[0].clone().unwrap(), tokens[1].clone().unwrap());
    assert_eq!(act(&app, &id, &white, "32-28").await.0, StatusCode::OK);
    let (status, s) = act(&app, &id, &black, "19-23").await;
    assert_eq!(status, StatusCode::OK);
    // Each clock starts with its side's first move: white's runs now.
    assert_eq!(s["clock"]["running"], "white");
    assert!(s["result"].is_null());
    tokio::time::sleep(std::time::Duration::from_millis(1400)).await;
    let s = state(&app, &id).await;
    assert_eq!(s["result"]["reason"], "time", "{}", s["result"]);
    assert_eq!(s["result"]["winner"], "Black");
    // Nothing more is accepted.
    let (status, _) = act(&app, &id, &white, "28-22").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
}

/// A game from a position: a FEN (draughts), an XGID (backgammon), a trictrac board. The
/// position is the game's start (in the spec, so a restart and the record replay from it);
/// a position that does not read is refused with the reason.
#[tokio::test]
async fn games_start_from_a_position() {
    let (app, _dir) = app().await;
    let humans = json!([{"kind":"human"},{"kind":"human"}]);
    let start = |family: &str, extra: Value, position: &str| {
        let mut spec = json!({"family": family, "seats": humans, "start": position});
        for (k, v) in extra.as_object().unwrap() {
            spec[k] = v.clone();
        }
        spec
    };
    // Draughts: two white men and a black one, Black to move.
    let (id, _) = create(
        &app,
        start(
            "draughts",
            json!({"variant": "international"}),
            "B:W28,33:B19",
        ),
    )
    .await;
    let s = state(&app, &id).await;
    assert_eq!(
        s["view"]["pieces"].as_array().unwrap().len(),
        3,
        "{}",
        s["view"]
    );
    assert_eq!(s["actor"], "black");
    assert_eq!(s["spec"]["start"], "B:W28,33:B19");
    // Black must take 19x... on 28? No: 19 and 28 are not adjacent; whatever the rules give,
    // the moves come from this position.
    assert!(!s["legal"].as_array().unwrap().is_empty());
    // English checkers from a FEN too (its own board).
    let (id, _) = create(
        &app,
        start("draughts", json!({"variant": "english"}), "W:W18:B14"),
    )
    .await;
    let s = state(&app, &id).await;
    assert_eq!(s["actor"], "white");
    assert_eq!(s["legal"], json!(["18x9"]), "the capture is compulsory");
    // Backgammon: a 5-point match at 2-1 for the XGID's bottom player, who is to roll (the
    // XGID reader's convention, checked against gnubg in the backgammon crate: the bottom
    // player is Black).
    let (id, _) = create(
        &app,
        start(
            "backgammon",
            json!({"match_length": 5}),
            "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:2:1:0:5:10",
        ),
    )
    .await;
    let s = state(&app, &id).await;
    assert_eq!(s["view"]["options"]["match_length"], 5, "{}", s["view"]);
    assert_eq!(s["view"]["score"], json!([1, 2]), "{}", s["view"]);
    assert_eq!(s["actor"], "black");
    assert!(
        s["legal"].as_array().unwrap().contains(&json!("roll")),
        "{s}"
    );
    // Trictrac: n°331's position, Black to throw.
    let board =
        "1W2-2W1-3W2-6W1-7W1-8W2-10W2-11W2-12W2-13B2-15B3-17B3-18B1-19B1-20B1-21B1-22B1-23B1-24B1";
    let (id, tokens) = create(
        &app,
        start("trictrac", json!({}), &format!("{board};black")),
    )
    .await;
    let s = state(&app, &id).await;
    assert_eq!(
        s["actor"], "black",
        "Black threw first (the server draws the dice at once)"
    );
    // Over, the record replays from the position and its dice verify.
    let (status, _) = act(&app, &id, tokens[1].as_ref().unwrap(), "!resign").await;
    assert_eq!(status, StatusCode::OK);
    let (_, record) = call(&app, "GET", &format!("/api/games/{id}/record"), None).await;
    tablier_catalog::verify(&record).unwrap();
    // Positions that do not read are refused with the reason; nothing is created.
    for (family, position) in [
        ("draughts", "X:W28:B19"),
        ("backgammon", "XGID=nonsense"),
        ("trictrac", "1W15-24B15;green"),
        ("trictrac", "1W16-24B15"),
    ] {
        let (status, why) = call(
            &app,
            "POST",
            "/api/games",
            Some(start(family, json!({}), position).to_string()),
        )
        .await;
        assert_eq!(
            status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{family} {position}: {why}"
        );
        assert!(
            why["error"]
                .as_str()
                .unwrap()
                .contains("cannot be played from"),
            "{why}"
        );
    }
}

/// A clock with a delay per move (backgammon servers' clock): the first seconds of each move
/// are free; the reserve only runs, and the flag only falls, once they are spent.
#[tokio::test]
async fn a_delay_is_spent_before_the_reserve() {
    let (app, _dir) = app().await;
    let spec = |delay: u32| {
        json!({"family": "draughts", "variant": "international",
               "seats": [{"kind":"human"},{"kind":"human"}],
               "clock": {"initial_s": 1, "increment_s": 0, "delay_s": delay}})
    };
    let (status, why) = call(&app, "POST", "/api/games", Some(spec(601).to_string())).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{why}");
    assert!(why["error"].as_str().unwrap().contains("delay"), "{why}");
    let (id, tokens) = create(&app, spec(2)).await;
    let (white, black) = (tokens[0].clone().unwrap(), tokens[1].clone().unwrap());
    assert_eq!(act(&app, &id, &white, "32-28").await.0, StatusCode::OK);
    let (_, s) = act(&app, &id, &black, "19-23").await;
    assert_eq!(s["spec"]["clock"]["delay_s"], 2, "{}", s["spec"]);
    assert_eq!(s["clock"]["running"], "white");
    let delay = s["clock"]["delay_ms"].as_i64().unwrap();
    assert!((1..=2000).contains(&delay), "{}", s["clock"]);
    assert_eq!(
        s["clock"]["white_ms"], 1000,
        "the reserve waits for the delay"
    );
    // 1.4 s later: more than the reserve alone, less than delay and reserve together.
    tokio::time::sleep(std::time::Duration::from_millis(1400)).await;
    let s = state(&app, &id).await;
    assert!(
        s["result"].is_null(),
        "flagged within the delay: {}",
        s["result"]
    );
    assert_eq!(s["clock"]["white_ms"], 1000, "{}", s["clock"]);
    // Past both: white loses on time.
    tokio::time::sleep(std::time::Duration::from_millis(2000)).await;
    let s = state(&app, &id).await;
    assert_eq!(s["result"]["reason"], "time", "{}", s["result"]);
    // A clock without delay is written as before (no field), so that its games'
    // commitments do not change.
    let (id, _) = create(&app, spec(0)).await;
    let s = state(&app, &id).await;
    assert!(s["spec"]["clock"].get("delay_s").is_none(), "{}", s["spec"]);
}

#[tokio::test]
async fn an_engine_answers_a_draw_offer_at_once() {
    let (app, _dir) = app().await;
    let (id, tokens) = create(
        &app,
        json!({"family": "draughts", "variant": "international",
               "seats": [{"kind":"human"},{"kind":"engine","level":1}]}),
    )
    .await;
    let white = tokens[0].clone().unwrap();
    let (status, s) = act(&app, &id, &white, "!draw-offer").await;
    assert_eq!(status, StatusCode::OK, "{s}");
    // Material is level: the engine declines, and the offer is answered in the log.
    let log = s["log"].as_array().unwrap();
    assert_eq!(log[log.len() - 1]["action"], "!draw-decline");
    assert_eq!(log[log.len() - 1]["side"], "black");
    assert!(s["draw_offer"].is_null());
    assert!(s["result"].is_null());
}

/// Waits until the game is over or `max_v` actions are stored, and returns the last state.
async fn play_out(app: &axum::Router, id: &str, max_v: u64, seconds: u64) -> Value {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(seconds);
    loop {
        let s = state(app, id).await;
        if !s["result"].is_null() || s["v"].as_u64().unwrap() >= max_v {
            return s;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the engine seats stalled: {s}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(25)).await;
    }
}

#[tokio::test]
async fn the_strong_engines_hold_the_backgammon_and_trictrac_seats() {
    let (app, _dir) = app().await;
    // A 3-point match with the cube, engine against engine (levels 1 and 2: 0-ply with and
    // without noise), played to its end; the record verifies.
    let (id, _) = create(
        &app,
        json!({"family": "backgammon", "match_length": 3,
               "seats": [{"kind":"engine","level":2},{"kind":"engine","level":1}]}),
    )
    .await;
    let s = play_out(&app, &id, u64::MAX, 120).await;
    assert!(!s["result"].is_null(), "{s}");
    let (status, record) = call(&app, "GET", &format!("/api/games/{id}/record"), None).await;
    assert_eq!(status, StatusCode::OK);
    tablier_catalog::verify(&record).unwrap();
    // Trictrac in both marking modes: the engine seats go through every phase (marking,
    // écoles, s'en aller) for 200 actions without stalling.
    for ecoles in [false, true] {
        let (id, _) = create(
            &app,
            json!({"family": "trictrac", "ecoles": ecoles,
                   "seats": [{"kind":"engine","level":3},{"kind":"engine","level":1}]}),
        )
        .await;
        let s = play_out(&app, &id, 200, 120).await;
        assert!(s["v"].as_u64().unwrap() >= 200 || !s["result"].is_null());
    }
}

#[tokio::test]
async fn a_takeback_is_asked_granted_and_replayed() {
    let (app, _dir) = app().await;
    let seats: Value = serde_json::from_str(TWO_HUMANS).unwrap();
    let (id, tokens) = create(
        &app,
        json!({"family": "draughts", "variant": "english", "seats": seats}),
    )
    .await;
    let start = state(&app, &id).await;
    // English draughts: black moves first. `first` is the side that moves first.
    let first = start["actor"].as_str().unwrap().to_owned();
    assert_eq!(first, "black");
    let t = |i: usize| tokens[usize::from(i == 0)].clone().unwrap();
    let first_move = |s: &Value| s["legal"][0].as_str().unwrap().to_owned();
    let ok = |(status, s): (StatusCode, Value)| {
        assert_eq!(status, StatusCode::OK, "{s}");
        s
    };
    // No review while the game is on (no engine help during play).
    let (status, why) = call(&app, "GET", &format!("/api/games/{id}/review"), None).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{why}");
    // Nothing to take back before one's first move.
    let (status, why) = act(&app, &id, &t(0), "!takeback-offer").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{why}");
    let m1 = first_move(&start);
    let after1 = ok(act(&app, &id, &t(0), &m1).await);
    let m2 = first_move(&after1);
    ok(act(&app, &id, &t(1), &m2).await);
    // The second player declines the first one's request; asked again, grants it: both
    // moves go (the first, and the answer), and the first player is to move at the start.
    ok(act(&app, &id, &t(0), "!takeback-offer").await);
    let (status, why) = act(&app, &id, &t(0), "!takeback-accept").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{why}");
    let (status, s) = act(&app, &id, &t(1), "!takeback-decline").await;
    assert_eq!(status, StatusCode::OK, "{s}");
    assert!(s["takeback_offer"].is_null());
    ok(act(&app, &id, &t(0), "!takeback-offer").await);
    let (status, s) = act(&app, &id, &t(1), "!takeback-accept").await;
    assert_eq!(status, StatusCode::OK, "{s}");
    assert_eq!(s["actor"], first.as_str());
    assert_eq!(s["view"], start["view"], "the start position again");
    assert_eq!(s["undone"], json!([1, 2]));
    // A different first move now; the exported PDN has only the moves in force.
    let other = start["legal"][1].as_str().unwrap().to_owned();
    let (status, s) = act(&app, &id, &t(0), &other).await;
    assert_eq!(status, StatusCode::OK, "{s}");
    let (_, pdn) = call(&app, "GET", &format!("/api/games/{id}/export"), None).await;
    let pdn = pdn.as_str().unwrap();
    assert!(pdn.contains(&format!("1. {other}")), "{pdn}");
    assert!(!pdn.contains(&format!("1. {m1}")), "{pdn}");
    // The second player asks to take back nothing (no move of its in force): refused.
    let (status, _) = act(&app, &id, &t(1), "!takeback-offer").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    // The record replays through the takeback: resign, then verify.
    ok(act(&app, &id, &t(1), "!resign").await);
    let (_, record) = call(&app, "GET", &format!("/api/games/{id}/record"), None).await;
    tablier_catalog::verify(&record).unwrap();
    // The review leaves out the moves taken back: the start and the one move in force.
    let (status, review) = call(&app, "GET", &format!("/api/games/{id}/review"), None).await;
    assert_eq!(status, StatusCode::OK, "{review}");
    let positions = review["positions"].as_array().unwrap();
    assert_eq!(positions.len(), 2, "{review}");
    assert_eq!(positions[1]["action"], other.as_str());
    assert_eq!(review["unit"], "men");
    assert!(positions[0]["value"].as_f64().unwrap().abs() < 1.0);
    // Dice games have no takebacks.
    let (id, tokens) = create(&app, json!({"family": "backgammon", "seats": seats})).await;
    let s = state(&app, &id).await;
    let seat = usize::from(s["actor"] == "black");
    let (status, why) = act(&app, &id, tokens[seat].as_ref().unwrap(), "!takeback-offer").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{why}");
}

#[tokio::test]
async fn an_engine_grants_a_takeback() {
    let (app, _dir) = app().await;
    let (id, tokens) = create(
        &app,
        json!({"family": "draughts", "variant": "brazilian",
               "seats": [{"kind":"human"},{"kind":"engine","level":1}]}),
    )
    .await;
    let white = tokens[0].clone().unwrap();
    let start = state(&app, &id).await;
    let m = start["legal"][0].as_str().unwrap().to_owned();
    act(&app, &id, &white, &m).await;
    let s = play_out(&app, &id, 2, 30).await;
    assert_eq!(s["actor"], "white");
    let (status, s) = act(&app, &id, &white, "!takeback-offer").await;
    assert_eq!(status, StatusCode::OK, "{s}");
    let log = s["log"].as_array().unwrap();
    assert_eq!(log[log.len() - 1]["action"], "!takeback-accept");
    assert_eq!(s["view"], start["view"]);
    assert_eq!(s["actor"], "white");
}

#[tokio::test]
async fn an_engine_on_a_clock_thinks_within_its_time() {
    let (app, _dir) = app().await;
    // Level 4 thinks 3 s a move without a clock; with 10 s for the game it allows itself a
    // thirtieth of what is left (about a third of a second).
    let (id, tokens) = create(
        &app,
        json!({"family": "draughts", "variant": "international",
               "seats": [{"kind":"human"},{"kind":"engine","level":4}],
               "clock": {"initial_s": 10, "increment_s": 0}}),
    )
    .await;
    let white = tokens[0].clone().unwrap();
    for _ in 0..2 {
        let s = state(&app, &id).await;
        let m = s["legal"][0].as_str().unwrap().to_owned();
        let (status, s) = act(&app, &id, &white, &m).await;
        assert_eq!(status, StatusCode::OK, "{s}");
        let v = s["v"].as_u64().unwrap();
        let t0 = std::time::Instant::now();
        let s = play_out(&app, &id, v + 1, 10).await;
        let took = t0.elapsed();
        assert_eq!(s["actor"], "white");
        assert!(
            took < std::time::Duration::from_millis(2500),
            "the engine took {took:?} of its 10 s"
        );
        assert!(s["clock"]["black_ms"].as_i64().unwrap() > 7_000, "{s}");
    }
}

/// The export of a resigned game has its real result (not `*`), the players and the date,
/// and is saved under a name with the game id and the date.
#[tokio::test]
async fn a_resigned_game_exports_its_result_under_a_file_name() {
    let (app, _dir) = app().await;
    for (family, extension, result) in [
        ("draughts", "pdn", "[Result \"0-2\"]"),
        ("backgammon", "mat", "[Player 1 \"Anonymous\"]"),
    ] {
        let spec =
            json!({"family": family, "seats": serde_json::from_str::<Value>(TWO_HUMANS).unwrap()});
        let (id, tokens) = create(&app, spec).await;
        let white = tokens[0].clone().unwrap();
        let (status, v) = act(&app, &id, &white, "!resign").await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let resp = app
            .clone()
            .oneshot(
                Request::builder()
                    .uri(format!("/api/games/{id}/export"))
                    .body(Body::empty())
                    .unwrap(),
            )
            .await
            .unwrap();
        assert_eq!(resp.status(), StatusCode::OK);
        let disposition = resp.headers()["content-disposition"]
            .to_str()
            .unwrap()
            .to_string();
        let text = String::from_utf8(
            resp.into_body()
                .collect()
                .await
                .unwrap()
                .to_bytes()
                .to_vec(),
        )
        .unwrap();
        let prefix = format!("attachment; filename=\"tablier-{id}-");
        assert!(disposition.starts_with(&prefix), "{disposition}");
        let date = &disposition[prefix.len()..];
        assert!(
            date.len() == 10 + 1 + extension.len() + 1
                && date.ends_with(&format!(".{extension}\""))
                && date.as_bytes()[4] == b'-'
                && date.as_bytes()[7] == b'-',
            "{disposition}"
        );
        assert!(text.contains(result), "{family}: {text}");
        if family == "draughts" {
            assert!(text.contains("[Termination \"resignation\"]"), "{text}");
            assert!(text.trim_end().ends_with("0-2"), "{text}");
        }
    }
}

/// The web UI's files come gzipped to a browser that accepts it, with an ETag and an hour's
/// cache; asked again with the ETag, the answer is `304 Not Modified` without a body. Pages
/// are revalidated every time (`no-cache`), and the JSON answers are gzipped too.
#[tokio::test]
async fn static_files_are_compressed_and_cached() {
    let (app, _dir) = app().await;
    let get = |uri: &str, headers: &[(&str, &str)]| {
        let mut req = Request::builder().uri(uri);
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        app.clone().oneshot(req.body(Body::empty()).unwrap())
    };
    let resp = get("/static/js/game.js", &[("accept-encoding", "gzip")])
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    let h = resp.headers().clone();
    assert_eq!(h["content-encoding"], "gzip");
    assert!(h["cache-control"]
        .to_str()
        .unwrap()
        .contains("max-age=3600"));
    let etag = h["etag"].to_str().unwrap().to_string();
    let zipped = resp.into_body().collect().await.unwrap().to_bytes();
    let plain = get("/static/js/game.js", &[]).await.unwrap();
    assert!(plain.headers().get("content-encoding").is_none());
    let plain = plain.into_body().collect().await.unwrap().to_bytes();
    assert!(
        zipped.len() * 2 < plain.len(),
        "gzip: {} of {} bytes",
        zipped.len(),
        plain.len()
    );
    let again = get("/static/js/game.js", &[("if-none-match", &etag)])
        .await
        .unwrap();
    assert_eq!(again.status(), StatusCode::NOT_MODIFIED);
    assert!(again
        .into_body()
        .collect()
        .await
        .unwrap()
        .to_bytes()
        .is_empty());
    let stale = get("/static/js/game.js", &[("if-none-match", "\"old\"")])
        .await
        .unwrap();
    assert_eq!(stale.status(), StatusCode::OK);
    let page = get("/", &[("accept-encoding", "gzip")]).await.unwrap();
    assert_eq!(page.headers()["cache-control"], "no-cache");
    assert_eq!(page.headers()["content-encoding"], "gzip");
    let (id, _) = create(&app, json!({"family": "backgammon"})).await;
    let state = get(&format!("/api/games/{id}"), &[("accept-encoding", "gzip")])
        .await
        .unwrap();
    assert_eq!(state.headers()["content-encoding"], "gzip");
}

/// Public challenges (issue 19): a game whose other seat anyone may take from the home page.
/// The creator gets no token for the offered seat; the list shows the game until someone
/// takes the seat (once: a second taker is refused), it expires, or its game ends; a taken
/// seat plays; a bad offer is refused; the list comes back after a restart.
#[tokio::test]
async fn public_challenges_are_listed_taken_once_and_expire() {
    let (app, dir) = app().await;
    let offer = |side: &str, seats: &str| {
        format!(r#"{{"family":"draughts","seats":{seats},"challenge":"{side}"}}"#)
    };
    let (id, tokens) = create(
        &app,
        serde_json::from_str(&offer("black", TWO_HUMANS)).unwrap(),
    )
    .await;
    assert!(tokens[0].is_some() && tokens[1].is_none(), "{tokens:?}");
    let (status, list) = call(&app, "GET", "/api/challenges", None).await;
    assert_eq!(status, StatusCode::OK);
    let listed = list
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == id.as_str())
        .unwrap()
        .clone();
    assert_eq!(listed["side"], "black");
    assert_eq!(listed["spec"]["family"], "draughts");
    assert!(listed["expires_ms"].as_i64().unwrap() > listed["created_ms"].as_i64().unwrap());

    // The list survives a restart: a new hub on the same database.
    let store = Store::open(&format!(
        "sqlite://{}",
        dir.path().join("t.sqlite").display()
    ))
    .await
    .unwrap();
    let again = router(
        Hub::with_options(std::sync::Arc::new(store), Options::default())
            .await
            .unwrap(),
    );
    let (_, list) = call(&again, "GET", "/api/challenges", None).await;
    assert!(
        list.as_array()
            .unwrap()
            .iter()
            .any(|c| c["id"] == id.as_str()),
        "{list}"
    );

    let accept = format!("/api/challenges/{id}/accept");
    let (status, taken) = call(&app, "POST", &accept, None).await;
    assert_eq!(status, StatusCode::OK, "{taken}");
    assert_eq!(taken["side"], "black");
    let black = taken["token"].as_str().unwrap().to_owned();
    let (status, second) = call(&again, "POST", &accept, None).await;
    assert_eq!(status, StatusCode::CONFLICT, "{second}");
    assert!(
        second["error"].as_str().unwrap().contains("taken"),
        "{second}"
    );
    let (_, list) = call(&app, "GET", "/api/challenges", None).await;
    assert!(!list
        .as_array()
        .unwrap()
        .iter()
        .any(|c| c["id"] == id.as_str()));
    // The seat taken plays.
    let (status, v) = act(&app, &id, tokens[0].as_deref().unwrap(), "32-28").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let (status, v) = act(&app, &id, &black, "19-23").await;
    assert_eq!(status, StatusCode::OK, "{v}");

    // Bad offers change nothing.
    for (body, why) in [
        (offer("green", TWO_HUMANS), "white"),
        (
            offer("black", r#"[{"kind":"human"},{"kind":"engine","level":1}]"#),
            "two people",
        ),
    ] {
        let (status, v) = call(&app, "POST", "/api/games", Some(body)).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
        assert!(v["error"].as_str().unwrap().contains(why), "{v}");
    }
    let (status, _) = call(&app, "POST", "/api/challenges/nosuchgame/accept", None).await;
    assert_eq!(status, StatusCode::CONFLICT);

    // An offer expires. The database's folder is kept until the end (`_` would remove it at
    // once, and a connection the pool opens later would find no file).
    let (short, _short_dir) = app_with(Options {
        challenge_s: 1,
        ..Options::default()
    })
    .await;
    let (id, _) = create(
        &short,
        serde_json::from_str(&offer("white", TWO_HUMANS)).unwrap(),
    )
    .await;
    let (_, list) = call(&short, "GET", "/api/challenges", None).await;
    assert_eq!(list.as_array().unwrap().len(), 1);
    tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
    let (_, list) = call(&short, "GET", "/api/challenges", None).await;
    assert_eq!(list, json!([]));
    let (status, _) = call(
        &short,
        "POST",
        &format!("/api/challenges/{id}/accept"),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT);
}
