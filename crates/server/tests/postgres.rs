//! The same server on a real PostgreSQL (Debian `postgresql`; `scripts/test.sh` starts a
//! throwaway cluster on a local port and sets `TABLIER_TEST_POSTGRES` to its URL): games are
//! created, played, and taken up again by a second server process's hub on the same database.
//!
//! Without `TABLIER_TEST_POSTGRES` the test fails, unless `TABLIER_SKIP_POSTGRES=1` says on
//! purpose that this machine has no PostgreSQL.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tablier_server::store::Store;
use tablier_server::{router, Hub};
use tower::ServiceExt;

async fn call(
    app: &axum::Router,
    method: &str,
    uri: &str,
    body: Option<Value>,
) -> (StatusCode, Value) {
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
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

#[tokio::test]
async fn games_are_stored_in_postgresql_and_taken_up_again() {
    let Ok(url) = std::env::var("TABLIER_TEST_POSTGRES") else {
        assert_eq!(
            std::env::var("TABLIER_SKIP_POSTGRES").as_deref(),
            Ok("1"),
            "set TABLIER_TEST_POSTGRES=postgres://... (scripts/test.sh starts one) or TABLIER_SKIP_POSTGRES=1"
        );
        return;
    };
    let app = router(Hub::new(Store::open(&url).await.unwrap()).await.unwrap());
    let mut games = Vec::new();
    for spec in [
        json!({"family": "draughts", "variant": "brazilian"}),
        json!({"family": "backgammon", "match_length": 1}),
        json!({"family": "trictrac"}),
    ] {
        let mut body = spec;
        body["seats"] = json!([{"kind": "human"}, {"kind": "human"}]);
        let (status, g) = call(&app, "POST", "/api/games", Some(body)).await;
        assert_eq!(status, StatusCode::OK, "{g}");
        let id = g["id"].as_str().unwrap().to_owned();
        let tokens = [
            g["tokens"][0].as_str().unwrap().to_owned(),
            g["tokens"][1].as_str().unwrap().to_owned(),
        ];
        for _ in 0..8 {
            let (_, s) = call(&app, "GET", &format!("/api/games/{id}"), None).await;
            let seat = usize::from(s["actor"] == "black");
            let action = s["legal"]
                .as_array()
                .unwrap()
                .iter()
                .filter_map(Value::as_str)
                .find(|a| !a.starts_with("resign"))
                .unwrap()
                .to_owned();
            let (status, after) = call(
                &app,
                "POST",
                &format!("/api/games/{id}/act"),
                Some(json!({"token": tokens[seat], "action": action})),
            )
            .await;
            assert_eq!(status, StatusCode::OK, "{after}");
        }
        let (_, s) = call(&app, "GET", &format!("/api/games/{id}"), None).await;
        games.push((id, s));
    }
    // Another hub (as after a restart, or on another node) reads the same games back.
    let other = router(Hub::new(Store::open(&url).await.unwrap()).await.unwrap());
    for (id, state) in &games {
        let (status, s) = call(&other, "GET", &format!("/api/games/{id}"), None).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(s["log"], state["log"]);
        assert_eq!(s["view"], state["view"]);
    }
    // A public challenge made on one node is listed on the other, and its seat is taken
    // once across both.
    let body = json!({"family": "trictrac", "seats": [{"kind": "human"}, {"kind": "human"}], "challenge": "white"});
    let (status, made) = call(&app, "POST", "/api/games", Some(body)).await;
    assert_eq!(status, StatusCode::OK, "{made}");
    let id = made["id"].as_str().unwrap();
    assert!(made["tokens"][0].is_null());
    let (_, list) = call(&other, "GET", "/api/challenges", None).await;
    assert!(
        list.as_array().unwrap().iter().any(|c| c["id"] == id),
        "{list}"
    );
    let accept = format!("/api/challenges/{id}/accept");
    let (status, taken) = call(&other, "POST", &accept, None).await;
    assert_eq!(status, StatusCode::OK, "{taken}");
    assert_eq!(taken["side"], "white");
    let (status, _) = call(&app, "POST", &accept, None).await;
    assert_eq!(status, StatusCode::CONFLICT);
}
