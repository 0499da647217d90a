//! `verify` proves a record's outcome, not only its dice: games are played now through the
//! server, their records written to a folder with tampered copies (one change each: a winner
//! flipped, points changed, the result removed, actions cut, a player-written `!flag` or
//! `!resign` inserted or appended, the spec changed, ...), and each is checked with the
//! message `verify` must give (the checker is the catalog's, `tests/records/mod.rs` there).
//! With `TABLIER_WRITE_RECORDS=1` the folder written is the catalog's kept one
//! (`crates/catalog/tests/data/records/`), which its own test reads in every run.

use std::path::{Path, PathBuf};

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tablier_server::store::Store;
use tablier_server::{router, Hub};
use tower::ServiceExt;

/// Where the records are written: the catalog's kept folder when asked
/// (`TABLIER_WRITE_RECORDS`), a fresh temporary folder otherwise.
fn folder() -> PathBuf {
    if std::env::var_os("TABLIER_WRITE_RECORDS").is_some() {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../catalog/tests/data/records")
    } else {
        std::env::temp_dir().join(format!("tablier-records-out-{}", std::process::id()))
    }
}

#[path = "../../catalog/tests/records/mod.rs"]
mod records;

/// Games played now through the server, and tamperings of their records: the real ones
/// verify, each tampered one is refused with its reason.
#[test]
fn records_played_now_verify_and_their_tamperings_are_refused() {
    tokio::runtime::Runtime::new()
        .unwrap()
        .block_on(write_records());
    let (genuine, tampered) = records::check_folder(&folder());
    assert!(genuine >= 5, "{genuine} real records");
    assert!(tampered >= 44, "{tampered} tampered records");
    if std::env::var_os("TABLIER_WRITE_RECORDS").is_none() {
        let _ = std::fs::remove_dir_all(folder());
    }
}

// --- Making the folder ------------------------------------------------------------------

async fn call(app: &axum::Router, method: &str, uri: &str, body: Option<Value>) -> Value {
    let mut req = Request::builder().method(method).uri(uri);
    if body.is_some() {
        req = req.header("content-type", "application/json");
    }
    let resp = app
        .clone()
        .oneshot(
            req.body(body.map_or_else(Body::empty, |b| Body::from(b.to_string())))
                .unwrap(),
        )
        .await
        .unwrap();
    let status = resp.status();
    let bytes = resp.into_body().collect().await.unwrap().to_bytes();
    let v: Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(status, StatusCode::OK, "{method} {uri}: {v}");
    v
}

struct Played {
    id: String,
    tokens: [String; 2],
}

async fn create(app: &axum::Router, mut spec: Value) -> Played {
    spec["seats"] = json!([{"kind":"human"},{"kind":"human"}]);
    let g = call(app, "POST", "/api/games", Some(spec)).await;
    let token = |i: usize| g["tokens"][i].as_str().unwrap().to_owned();
    Played {
        id: g["id"].as_str().unwrap().to_owned(),
        tokens: [token(0), token(1)],
    }
}

async fn act(app: &axum::Router, g: &Played, seat: usize, action: &str) -> Value {
    call(
        app,
        "POST",
        &format!("/api/games/{}/act", g.id),
        Some(json!({"token": g.tokens[seat], "action": action})),
    )
    .await
}

/// Plays the first legal action that neither resigns nor doubles until `stop` or the end.
async fn play(app: &axum::Router, g: &Played, stop: impl Fn(&Value) -> bool) -> Value {
    let mut s = call(app, "GET", &format!("/api/games/{}", g.id), None).await;
    while s["result"].is_null() && !stop(&s) {
        let seat = usize::from(s["actor"] == "black");
        let legal = s["legal"].as_array().unwrap();
        let a = legal
            .iter()
            .filter_map(Value::as_str)
            .find(|a| !a.starts_with("resign") && *a != "double" && *a != "beaver")
            .unwrap()
            .to_owned();
        s = act(app, g, seat, &a).await;
    }
    s
}

async fn record(app: &axum::Router, g: &Played) -> Value {
    call(app, "GET", &format!("/api/games/{}/record", g.id), None).await
}

fn write(name: &str, expect: Option<&str>, record: &Value) {
    let path = folder().join(format!("{name}.json"));
    let case = json!({ "expect": expect, "record": record });
    std::fs::write(path, serde_json::to_string(&case).unwrap() + "\n").unwrap();
}

/// A copy of `r` changed by `f`.
fn with(r: &Value, f: impl FnOnce(&mut Value)) -> Value {
    let mut r = r.clone();
    f(&mut r);
    r
}

fn actions(r: &mut Value) -> &mut Vec<Value> {
    r["actions"].as_array_mut().unwrap()
}

/// Renumbers the actions 1, 2, ... (after an insertion or a removal).
fn renumber(r: &mut Value) {
    for (i, a) in actions(r).iter_mut().enumerate() {
        a["n"] = json!(i + 1);
    }
}

/// Inserts `action` by `side` before index `at`, at the time of the action before it.
fn insert(r: &mut Value, at: usize, side: &str, action: &str) {
    let time = actions(r)[at.saturating_sub(1)]["at_ms"].clone();
    actions(r).insert(
        at,
        json!({"n": 0, "side": side, "action": action, "at_ms": time}),
    );
    renumber(r);
}

fn append(r: &mut Value, side: &str, action: &str) {
    let n = actions(r).len();
    insert(r, n, side, action);
    let time = actions(r)[n - 1]["at_ms"].as_i64().unwrap() + 1000;
    actions(r)[n]["at_ms"] = json!(time);
}

/// The index of the first action matching `p`.
fn find(r: &Value, p: impl Fn(&Value) -> bool) -> usize {
    r["actions"].as_array().unwrap().iter().position(p).unwrap()
}

fn is_roll(a: &Value) -> bool {
    a["side"] == "" && a["action"] != "!resume"
}

async fn write_records() {
    let dir = std::env::temp_dir().join(format!("tablier-records-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let store = Store::open(&format!("sqlite://{}", dir.join("t.sqlite").display()))
        .await
        .unwrap();
    let app = router(Hub::new(store).await.unwrap());
    let _ = std::fs::remove_dir_all(folder());
    std::fs::create_dir_all(folder()).unwrap();

    // The real games.
    let g = create(&app, json!({"family":"backgammon","match_length":3})).await;
    play(&app, &g, |_| false).await;
    let bg_match = record(&app, &g).await;
    write("bg-match-3", None, &bg_match);

    let g = create(&app, json!({"family":"backgammon"})).await;
    let s = play(&app, &g, |s| {
        s["legal"].as_array().unwrap().iter().any(|a| a == "double")
    })
    .await;
    let seat = usize::from(s["actor"] == "black");
    act(&app, &g, seat, "double").await;
    act(&app, &g, 1 - seat, "drop").await;
    let bg_drop = record(&app, &g).await;
    write("bg-money-dropped", None, &bg_drop);

    let mut tric = None;
    for _ in 0..20 {
        let g = create(&app, json!({"family":"trictrac"})).await;
        let s = play(&app, &g, |_| false).await;
        if s["log"].as_array().unwrap().last().unwrap()["side"] == "" {
            tric = Some(record(&app, &g).await);
            break;
        }
    }
    let tric = tric.expect("a partie that ends on a throw");
    write("trictrac-hole-12-on-a-throw", None, &tric);

    let g = create(
        &app,
        json!({"family":"draughts","variant":"international","clock":{"initial_s":1,"increment_s":0}}),
    )
    .await;
    act(&app, &g, 0, "32-28").await;
    act(&app, &g, 1, "19-23").await;
    act(&app, &g, 0, "28x19").await;
    act(&app, &g, 1, "14x23").await;
    tokio::time::sleep(std::time::Duration::from_millis(1300)).await;
    let flagged = record(&app, &g).await;
    assert_eq!(flagged["result"]["reason"], "time", "{flagged}");
    write("draughts-flag", None, &flagged);

    let g = create(&app, json!({"family":"draughts","variant":"international"})).await;
    act(&app, &g, 0, "32-28").await;
    act(&app, &g, 1, "19-23").await;
    act(&app, &g, 0, "!draw-offer").await;
    act(&app, &g, 1, "!draw-decline").await;
    act(&app, &g, 0, "28x19").await;
    act(&app, &g, 1, "!resign").await;
    let resigned = record(&app, &g).await;
    write("draughts-resigned", None, &resigned);

    // One change each.
    let m = &bg_match;
    let over = "the record says the result is";
    let stops = "the record stops before the game is over";
    let commit = "do not hash to the commitment";
    let after = "the game was already over";
    write(
        "t01-winner-flipped",
        Some(over),
        &with(m, |r| {
            let w = if r["result"]["winner"] == "White" {
                "Black"
            } else {
                "White"
            };
            r["result"]["winner"] = json!(w);
        }),
    );
    write(
        "t02-points-64",
        Some(over),
        &with(m, |r| r["result"]["points"] = json!(64)),
    );
    write(
        "t03-result-removed",
        Some(over),
        &with(m, |r| r["result"] = Value::Null),
    );
    write(
        "t04-result-deleted",
        Some(over),
        &with(m, |r| {
            r.as_object_mut().unwrap().remove("result");
        }),
    );
    write(
        "t05-reason-changed",
        Some(over),
        &with(m, |r| r["result"]["reason"] = json!("resign")),
    );
    write(
        "t06-draw-claimed",
        Some(over),
        &with(m, |r| r["result"]["winner"] = Value::Null),
    );
    write(
        "t07-last-50-cut",
        Some(stops),
        &with(m, |r| {
            let n = actions(r).len();
            actions(r).truncate(n - 50);
        }),
    );
    write("t08-all-cut", Some(stops), &with(m, |r| actions(r).clear()));
    write(
        "t09-last-action-cut",
        Some(stops),
        &with(m, |r| {
            actions(r).pop();
        }),
    );
    write(
        "t10-ending-throw-cut",
        Some(stops),
        &with(&tric, |r| {
            actions(r).pop();
        }),
    );
    write(
        "t11-flag-without-clock",
        Some("the game has no clock"),
        &with(m, |r| {
            insert(r, 10, "white", "!flag");
        }),
    );
    write(
        "t12-flag-in-time",
        Some("clock had not run out"),
        &with(&flagged, |r| {
            insert(r, 2, "black", "!flag");
        }),
    );
    write(
        "t13-resign-appended",
        Some(after),
        &with(m, |r| append(r, "white", "!resign")),
    );
    write(
        "t14-flag-appended",
        Some(after),
        &with(&flagged, |r| append(r, "black", "!flag")),
    );
    write(
        "t15-resign-inserted",
        Some(after),
        &with(m, |r| insert(r, 20, "white", "!resign")),
    );
    write(
        "t16-move-appended",
        Some(after),
        &with(&resigned, |r| append(r, "white", "19x28")),
    );
    write(
        "t17-match-length",
        Some(commit),
        &with(m, |r| r["spec"]["match_length"] = json!(1)),
    );
    write(
        "t18-cube-off",
        Some(commit),
        &with(m, |r| r["spec"]["cube"] = json!(false)),
    );
    write(
        "t19-clock-removed",
        Some(commit),
        &with(&flagged, |r| r["spec"]["clock"] = Value::Null),
    );
    write(
        "t20-clock-longer",
        Some(commit),
        &with(&flagged, |r| {
            r["spec"]["clock"]["initial_s"] = json!(600);
        }),
    );
    write(
        "t21-variant",
        Some(commit),
        &with(&resigned, |r| r["spec"]["variant"] = json!("french-old")),
    );
    write(
        "t22-ecoles-on",
        Some(commit),
        &with(&tric, |r| r["spec"]["ecoles"] = json!(true)),
    );
    write(
        "t23-jacoby-off",
        Some(commit),
        &with(&bg_drop, |r| r["spec"]["jacoby"] = json!(false)),
    );
    write(
        "t24-seed-changed",
        Some(commit),
        &with(m, |r| r["seed"] = json!("00".repeat(32))),
    );
    write(
        "t25-seed-removed",
        Some("has no seed"),
        &with(m, |r| r["seed"] = Value::Null),
    );
    write(
        "t26-seed-not-hex",
        Some("not 64 hex digits"),
        &with(m, |r| r["seed"] = json!("zz")),
    );
    write(
        "t27-commitment-changed",
        Some(commit),
        &with(m, |r| {
            r["commitment"] = json!("ab".repeat(32));
        }),
    );
    write(
        "t28-commitment-removed",
        Some("no commitment"),
        &with(m, |r| r["commitment"] = Value::Null),
    );
    write(
        "t29-roll-changed",
        Some("the seed gives"),
        &with(m, |r| {
            let i = find(r, |a| {
                is_roll(a)
                    && a["action"] != "6-6"
                    && !a["action"].as_str().unwrap().starts_with("opening")
            });
            actions(r)[i]["action"] = json!("6-6");
        }),
    );
    write(
        "t30-roll-removed",
        Some("action"),
        &with(m, |r| {
            let i = find(r, |a| {
                is_roll(a) && !a["action"].as_str().unwrap().starts_with("opening")
            });
            actions(r).remove(i);
            renumber(r);
        }),
    );
    write(
        "t31-illegal-move",
        Some("action 3"),
        &with(&resigned, |r| actions(r)[2]["action"] = json!("28-17")),
    );
    write(
        "t32-numbering",
        Some("is numbered"),
        &with(m, |r| actions(r)[5]["n"] = json!(99)),
    );
    write(
        "t33-time-goes-back",
        Some("its time is before"),
        &with(m, |r| actions(r)[5]["at_ms"] = json!(0)),
    );
    write(
        "t34-side-swapped",
        Some("action 5"),
        &with(&resigned, |r| actions(r)[4]["side"] = json!("black")),
    );
    write(
        "t35-move-as-chance",
        Some("action 1"),
        &with(&resigned, |r| actions(r)[0]["side"] = json!("")),
    );
    write(
        "t36-side-unknown",
        Some("is no seat"),
        &with(&resigned, |r| actions(r)[0]["side"] = json!("mallory")),
    );
    write(
        "t37-huge-action",
        Some("bytes)"),
        &with(&resigned, |r| {
            actions(r)[2]["action"] = json!("x".repeat(100_000))
        }),
    );
    write(
        "t38-action-duplicated",
        Some("action 2"),
        &with(&resigned, |r| {
            let a = actions(r)[0].clone();
            actions(r).insert(1, a);
            renumber(r);
        }),
    );
    write(
        "t39-actions-swapped",
        Some("action 1"),
        &with(&resigned, |r| {
            actions(r).swap(0, 1);
            renumber(r);
        }),
    );
    write(
        "t40-not-an-object",
        Some("a game record is a JSON object"),
        &json!([1, 2, 3]),
    );
    write(
        "t41-actions-not-a-list",
        Some("actions:"),
        &with(m, |r| r["actions"] = json!("all legal")),
    );
    write(
        "t42-spec-removed",
        Some("spec:"),
        &with(m, |r| r["spec"] = Value::Null),
    );
    write(
        "t43-resume-without-clock",
        Some("a clock resumes in a game without a clock"),
        &with(m, |r| {
            insert(r, 10, "", "!resume");
        }),
    );
    write(
        "t44-resign-removed",
        Some(stops),
        &with(&resigned, |r| {
            actions(r).pop();
        }),
    );
    write(
        "t45-drop-became-take",
        Some(stops),
        &with(&bg_drop, |r| {
            let n = actions(r).len();
            actions(r)[n - 1]["action"] = json!("take");
        }),
    );
    write(
        "t46-double-removed",
        Some("drop"),
        &with(&bg_drop, |r| {
            let n = actions(r).len();
            actions(r).remove(n - 2);
            renumber(r);
        }),
    );
    write(
        "t47-draw-accept-unoffered",
        Some("no draw is offered"),
        &with(&resigned, |r| {
            insert(r, 2, "white", "!draw-accept");
        }),
    );
    write(
        "t48-trictrac-points",
        Some(over),
        &with(&tric, |r| r["result"]["points"] = json!(64)),
    );
    write(
        "t49-trictrac-winner",
        Some(over),
        &with(&tric, |r| {
            let w = if r["result"]["winner"] == "White" {
                "Black"
            } else {
                "White"
            };
            r["result"]["winner"] = json!(w);
        }),
    );
    write(
        "t50-flag-by-the-winner",
        Some("clock had not run out"),
        &with(&flagged, |r| {
            let n = actions(r).len();
            let loser = actions(r)[n - 1]["side"].as_str().unwrap().to_owned();
            let other = if loser == "white" { "black" } else { "white" };
            actions(r)[n - 1]["side"] = json!(other);
        }),
    );
    let _ = std::fs::remove_dir_all(&dir);
}
