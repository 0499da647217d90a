//! The HTTP side of the server: the routes, their handlers and the embedded web UI. Every
//! handler answers errors with [`ApiError`] ([`crate::error`]).

use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::rejection::JsonRejection;
use axum::extract::{ConnectInfo, DefaultBodyLimit, Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Extension, Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};
use tablier_catalog::{levels, ClockSpec, GameSpec, SeatAction, TableSpec};

use crate::error::{forbidden_token, ApiError};
use crate::hub::Hub;
use crate::room::{new_token, Room, SeatKind};
use crate::ws;

/// A client's request for a new game.
#[derive(Debug, Deserialize)]
pub struct CreateGame {
    /// The family, variant and options (flattened: the same JSON object as the seats).
    #[serde(flatten)]
    pub game: GameSpec,
    /// White's and black's seats (default: white human, black engine level 1).
    #[serde(default)]
    pub seats: Option<[SeatKind; 2]>,
    /// The clock, if any.
    #[serde(default)]
    pub clock: Option<ClockSpec>,
    /// A public challenge: the seat (`white` or `black`) offered to anyone on the home page
    /// (both seats must be people's). Its token is not returned: whoever takes the seat gets
    /// it (`POST /api/challenges/{id}/accept`).
    #[serde(default)]
    pub challenge: Option<String>,
}

/// Refuses a request that would take the engine's time (a new game, an imported record's
/// review) beyond the address's quota of new games.
fn within_quota(
    hub: &Hub,
    peer: Option<Extension<ConnectInfo<SocketAddr>>>,
    what: &str,
) -> Result<(), ApiError> {
    if let (Some(limiter), Some(Extension(ConnectInfo(addr)))) = (&hub.creations, peer) {
        if let Err(not_until) = limiter.check_key(&addr.ip()) {
            let wait = not_until.wait_time_from(governor::clock::Clock::now(
                &governor::clock::DefaultClock::default(),
            ));
            return Err(ApiError::Coded(
                StatusCode::TOO_MANY_REQUESTS,
                "too-many-requests",
                format!(
                    "too many {what} from your address: the next one in {} s",
                    wait.as_secs() + 1
                ),
            ));
        }
    }
    Ok(())
}

/// The body of `POST /api/import`.
#[derive(Deserialize)]
struct ImportRecord {
    /// A PDN file (draughts) or a `.mat` file (backgammon).
    text: String,
    /// Which game of the file (1-based; default the first).
    #[serde(default)]
    game: Option<usize>,
}

/// `POST /api/import`: a record from elsewhere, replayed and reviewed as a finished game of
/// this server is (nothing is stored): the state the review page draws (a game with an id of
/// `import`), the review, the file's games and the result the record gives.
async fn import_record(
    State(hub): State<Hub>,
    peer: Option<Extension<ConnectInfo<SocketAddr>>>,
    body: Result<Json<ImportRecord>, JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    within_quota(&hub, peer, "reviews")?;
    let Json(req) = body.map_err(ApiError::Body)?;
    let index = req.game.unwrap_or(1);
    if index == 0 {
        return Err(ApiError::Refused(
            StatusCode::BAD_REQUEST,
            "games are numbered from 1".into(),
        ));
    }
    let done = tokio::task::spawn_blocking(move || {
        let imported = tablier_catalog::import::import(&req.text, index - 1)?;
        let review = tablier_catalog::review_positions(imported.spec.family, &imported.positions);
        Ok::<_, tablier_catalog::import::ImportError>((imported, review))
    })
    .await
    .map_err(|e| ApiError::Refused(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
    let (imported, review) =
        done.map_err(|e| ApiError::Refused(StatusCode::BAD_REQUEST, e.to_string()))?;
    let last = &imported.positions.last().expect("the start at least").1;
    let state = crate::protocol::GameState {
        v: imported.positions.len() as u64,
        id: "import".into(),
        spec: TableSpec {
            game: imported.spec.clone(),
            clock: None,
        },
        actor: "nobody".into(),
        legal: Vec::new(),
        view: last.view(),
        log: imported
            .positions
            .iter()
            .filter_map(|(a, _)| a.as_ref())
            .map(|a| crate::protocol::LogEntry {
                n: a.n,
                side: a.side.clone(),
                action: a.action.clone(),
            })
            .collect(),
        seats: vec![SeatKind::Human, SeatKind::Human],
        commitment: String::new(),
        seed: None,
        result: None,
        draw_offer: None,
        takeback_offer: None,
        undone: Vec::new(),
        clock: None,
    };
    Ok(Json(json!({
        "state": state,
        "review": review,
        "games": imported.games,
        "game": index,
        "players": imported.players,
        "recorded": imported.result,
    })))
}

async fn create_game(
    State(hub): State<Hub>,
    peer: Option<Extension<ConnectInfo<SocketAddr>>>,
    body: Result<Json<CreateGame>, JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    within_quota(&hub, peer, "new games")?;
    let Json(req) = body.map_err(ApiError::Body)?;
    let seats = req
        .seats
        .unwrap_or([SeatKind::Human, SeatKind::Engine { level: 1 }]);
    if !hub.options.engine_games && seats.iter().all(|s| matches!(s, SeatKind::Engine { .. })) {
        return Err(ApiError::Refused(
            StatusCode::FORBIDDEN,
            "games between two engines are not offered on this server".into(),
        ));
    }
    for s in &seats {
        if let SeatKind::Engine { level } = s {
            if *level > levels::MAX_LEVEL {
                return Err(ApiError::Refused(
                    StatusCode::BAD_REQUEST,
                    format!("engine levels go from 0 to {}", levels::MAX_LEVEL),
                ));
            }
        }
    }
    if let Some(c) = req.clock {
        if c.initial_s == 0 || c.initial_s > 24 * 3600 || c.increment_s > 3600 || c.delay_s > 600 {
            return Err(ApiError::Refused(
                StatusCode::BAD_REQUEST,
                "a clock of 1 s to 24 h, an increment up to an hour and a delay up to 10 minutes"
                    .into(),
            ));
        }
    }
    let offered = match req.challenge.as_deref() {
        None => None,
        Some(side) => {
            let Some(s) = tablier_catalog::record::side_from(side) else {
                return Err(ApiError::Refused(
                    StatusCode::BAD_REQUEST,
                    "a challenge offers the seat \"white\" or \"black\"".into(),
                ));
            };
            if seats.iter().any(|k| !matches!(k, SeatKind::Human)) {
                return Err(ApiError::Refused(
                    StatusCode::BAD_REQUEST,
                    "a public challenge is a game between two people: both seats human".into(),
                ));
            }
            Some(s)
        }
    };
    let id = new_token(&mut rand::thread_rng(), 8);
    let spec = TableSpec {
        game: req.game.for_new_game(),
        clock: req.clock,
    };
    let (room, mut tokens) = Room::create(&*hub.store, id.clone(), spec, seats).await?;
    if let Some(side) = offered {
        let i = usize::from(side == tablier_core::Side::Black);
        let token = tokens[i].take().expect("a human seat has a token");
        let now = crate::now::now_ms();
        hub.store
            .create_challenge(
                &id,
                tablier_catalog::side_name(side),
                &token,
                now,
                now + i64::from(hub.options.challenge_s) * 1000,
            )
            .await
            .map_err(|_| ApiError::Unavailable)?;
        let _ = hub.lobby.send(());
    }
    let room = Arc::new(tokio::sync::Mutex::new(room));
    hub.rooms.lock().await.insert(id.clone(), room.clone());
    hub.kick(room).await;
    Ok(Json(json!({ "id": id, "tokens": tokens })))
}

/// The challenges open now, as the home page lists them: each game's id, the seat on offer,
/// the game's spec and when the offer ends.
pub(crate) async fn open_challenges(hub: &Hub) -> Result<Value, ApiError> {
    let list = hub
        .store
        .open_challenges(crate::now::now_ms(), 50)
        .await
        .map_err(|_| ApiError::Unavailable)?;
    Ok(Value::Array(
        list.into_iter()
            .map(|c| {
                json!({
                    "id": c.game,
                    "side": c.side,
                    "spec": serde_json::from_str::<Value>(&c.spec).unwrap_or(Value::Null),
                    "created_ms": c.created_ms,
                    "expires_ms": c.expires_ms,
                })
            })
            .collect(),
    ))
}

/// `GET /api/challenges`: the open public challenges, the newest first.
async fn list_challenges(State(hub): State<Hub>) -> Result<Json<Value>, ApiError> {
    Ok(Json(open_challenges(&hub).await?))
}

/// `POST /api/challenges/{id}/accept`: takes the seat a public challenge offers: the seat's
/// side and token (once; a challenge taken or expired is refused with 409).
async fn accept_challenge(
    State(hub): State<Hub>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let taken = hub
        .store
        .take_challenge(&id, crate::now::now_ms())
        .await
        .map_err(|_| ApiError::Unavailable)?;
    let Some((side, token)) = taken else {
        return Err(ApiError::Coded(
            StatusCode::CONFLICT,
            "challenge-gone",
            "this challenge was taken by someone else or has expired".into(),
        ));
    };
    let _ = hub.lobby.send(());
    Ok(Json(json!({ "id": id, "side": side, "token": token })))
}

async fn game_state(
    State(hub): State<Hub>,
    Path(id): Path<String>,
) -> Result<Json<ws::ServerMsg>, ApiError> {
    let room = hub.load(&id).await?.ok_or(ApiError::NotFound)?;
    hub.refresh(&room).await;
    let state = room.lock().await.state_msg();
    Ok(Json(state))
}

async fn game_record(
    State(hub): State<Hub>,
    Path(id): Path<String>,
) -> Result<Json<tablier_catalog::Record>, ApiError> {
    let room = hub.load(&id).await?.ok_or(ApiError::NotFound)?;
    hub.refresh(&room).await;
    let record = room.lock().await.game().record(&id);
    Ok(Json(record))
}

/// `GET /api/games/{id}/positions`: every position of the game so far, to look back at
/// during play (see [`tablier_catalog::Referee::positions`]).
async fn game_positions(
    State(hub): State<Hub>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let room = hub.load(&id).await?.ok_or(ApiError::NotFound)?;
    hub.refresh(&room).await;
    let game = room.lock().await.game().clone();
    let positions = tokio::task::spawn_blocking(move || game.positions())
        .await
        .map_err(|e| ApiError::Refused(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?
        .map_err(|e| ApiError::damaged(&id, &e))?;
    Ok(Json(json!({ "id": id, "positions": positions })))
}

/// A seat's action over HTTP.
#[derive(Debug, Deserialize)]
struct ActBody {
    token: String,
    action: String,
}

async fn act_http(
    State(hub): State<Hub>,
    Path(id): Path<String>,
    body: Result<Json<ActBody>, JsonRejection>,
) -> Result<Json<ws::ServerMsg>, ApiError> {
    let Json(body) = body.map_err(ApiError::Body)?;
    let room = hub.load(&id).await?.ok_or(ApiError::NotFound)?;
    let side = room
        .lock()
        .await
        .seat_of(&body.token)
        .ok_or_else(forbidden_token)?;
    let action = SeatAction::parse(&body.action).map_err(ApiError::Action)?;
    hub.act(&room, side, &body.token, &action).await?;
    let state = room.lock().await.state_msg();
    Ok(Json(state))
}

/// The most reviews kept in memory.
const REVIEWS_KEPT: usize = 256;

/// `GET /api/games/{id}/review`: every position of a finished game with the engine's
/// judgement of it (for the review page's graph), and its view to draw it.
async fn review(State(hub): State<Hub>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let json_response = |body: Arc<String>| {
        (
            [(header::CONTENT_TYPE, "application/json")],
            body.as_str().to_owned(),
        )
            .into_response()
    };
    if let Some(body) = hub.reviews.lock().await.get(&id).cloned() {
        return Ok(json_response(body));
    }
    let room = hub.load(&id).await?.ok_or(ApiError::NotFound)?;
    hub.refresh(&room).await;
    let game = {
        let r = room.lock().await;
        if r.result().is_none() {
            return Err(ApiError::Coded(
                StatusCode::FORBIDDEN,
                "review-after-game",
                "the review opens when the game is over (no engine help during play)".into(),
            ));
        }
        r.game().clone()
    };
    let review = tokio::task::spawn_blocking(move || tablier_catalog::review(&game))
        .await
        .map_err(|e| ApiError::Refused(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?
        .map_err(|e| ApiError::damaged(&id, &e))?;
    let mut body = serde_json::to_value(&review).expect("a review is serialisable");
    body["id"] = id.clone().into();
    let body = Arc::new(body.to_string());
    let mut reviews = hub.reviews.lock().await;
    if reviews.len() >= REVIEWS_KEPT {
        reviews.clear();
    }
    reviews.insert(id, body.clone());
    Ok(json_response(body))
}

/// `GET /api/games/{id}/export`: the game in its family's file format, with the players and
/// the date in its header, saved as `tablier-ID-YYYY-MM-DD.EXT`.
async fn export(State(hub): State<Hub>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let room = hub.load(&id).await?.ok_or(ApiError::NotFound)?;
    hub.refresh(&room).await;
    let (file, name) = {
        let r = room.lock().await;
        let players = r.seats.each_ref().map(|s| match s.kind {
            SeatKind::Human => "Anonymous".to_string(),
            SeatKind::Engine { level } => format!("tablier level {level}"),
        });
        let file = r.game().export(players);
        let name = r.game().export_file_name(&id, file.extension);
        (file, name)
    };
    Ok((
        [
            (header::CONTENT_TYPE, file.mime.to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{name}\""),
            ),
        ],
        file.text,
    )
        .into_response())
}

/// `GET /g/{id}`: the game page, or a "game not found" page (404) for an unknown id.
async fn game_page(
    State(hub): State<Hub>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    page_of_game(&hub, &id, "game.html", &headers).await
}

/// `GET /g/{id}/review`: the review page, or the "game not found" page (404).
async fn review_page(
    State(hub): State<Hub>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    page_of_game(&hub, &id, "review.html", &headers).await
}

async fn page_of_game(
    hub: &Hub,
    id: &str,
    page: &str,
    headers: &HeaderMap,
) -> Result<Response, ApiError> {
    if hub.exists(id).await? {
        Ok(serve_page(page, headers))
    } else {
        let mut response = serve_page("notfound.html", headers);
        *response.status_mut() = StatusCode::NOT_FOUND;
        Ok(response)
    }
}

#[derive(rust_embed::RustEmbed)]
#[folder = "../../web/"]
struct Assets;

async fn asset(Path(path): Path<String>, headers: axum::http::HeaderMap) -> Response {
    let Some(file) = Assets::get(&path) else {
        return (StatusCode::NOT_FOUND, "not found").into_response();
    };
    // The files under /static are revalidated by their content's hash: a browser keeps them
    // for an hour, then asks again and gets `304 Not Modified` while they are unchanged.
    let etag = format!(
        "\"{}\"",
        file.metadata
            .sha256_hash()
            .iter()
            .take(16)
            .map(|b| format!("{b:02x}"))
            .collect::<String>()
    );
    let cache = [
        (header::ETAG, etag.clone()),
        (header::CACHE_CONTROL, "public, max-age=3600".to_string()),
    ];
    let matches = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == etag));
    if matches {
        return (StatusCode::NOT_MODIFIED, cache).into_response();
    }
    (
        [(header::CONTENT_TYPE, content_type(&path).to_string())],
        cache,
        file.data.into_owned(),
    )
        .into_response()
}

fn content_type(path: &str) -> &'static str {
    match path.rsplit('.').next() {
        Some("html") => "text/html; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("json") => "application/json",
        _ => "application/octet-stream",
    }
}

/// The languages of the pages' catalogs (`web/i18n/`), the first the default.
pub const LANGUAGES: [&str; 4] = ["en", "fr", "nl", "pt"];

/// The language of the pages for a browser's `Accept-Language` header: the catalog's
/// language it prefers most (by its quality values), English when it names none of them.
///
/// ```
/// use tablier_server::http::page_language;
///
/// assert_eq!(page_language("fr-FR,fr;q=0.9,en-US;q=0.8,en;q=0.7"), "fr");
/// assert_eq!(page_language("en-GB,fr;q=0.5"), "en");
/// assert_eq!(page_language("de-DE, fr;q=0.3"), "fr");
/// assert_eq!(page_language("de"), "en");
/// ```
#[must_use]
pub fn page_language(accept: &str) -> &'static str {
    let mut best: Option<(&'static str, f32)> = None;
    for item in accept.split(',') {
        let mut parts = item.split(';');
        let tag = parts.next().unwrap_or("").trim().to_ascii_lowercase();
        let q = parts
            .find_map(|p| p.trim().strip_prefix("q=").map(str::to_owned))
            .and_then(|q| q.parse::<f32>().ok())
            .unwrap_or(1.0);
        let primary = tag.split('-').next().unwrap_or("");
        if let Some(l) = LANGUAGES.iter().find(|l| **l == primary) {
            if q > 0.0 && best.is_none_or(|(_, b)| q > b) {
                best = Some((l, q));
            }
        }
    }
    best.map_or(LANGUAGES[0], |(l, _)| l)
}

/// An HTML page in the language of the browser's `Accept-Language` (its `<html lang>`, which
/// the page's script reads unless the visitor chose another). Pages are not cached: they
/// name the current scripts.
fn serve_page(path: &str, headers: &HeaderMap) -> Response {
    let lang = headers
        .get(header::ACCEPT_LANGUAGE)
        .and_then(|v| v.to_str().ok())
        .map_or(LANGUAGES[0], page_language);
    let Some(file) = Assets::get(path) else {
        return (StatusCode::NOT_FOUND, "not found").into_response();
    };
    let html = String::from_utf8_lossy(&file.data).replacen(
        "<html lang=\"en\">",
        &format!("<html lang=\"{lang}\">"),
        1,
    );
    (
        [
            (header::CONTENT_TYPE, content_type(path)),
            (header::CACHE_CONTROL, "no-cache"),
            (header::VARY, "Accept-Language"),
        ],
        html,
    )
        .into_response()
}

/// The application's routes on a hub.
pub fn router(hub: Hub) -> Router {
    Router::new()
        .route(
            "/",
            get(|headers: HeaderMap| async move { serve_page("index.html", &headers) }),
        )
        .route("/g/{id}", get(game_page))
        .route("/g/{id}/review", get(review_page))
        .route("/static/{*path}", get(asset))
        .route(
            "/review",
            get(|headers: HeaderMap| async move { serve_page("review.html", &headers) }),
        )
        .route(
            "/api/import",
            post(import_record).layer(DefaultBodyLimit::max(
                tablier_catalog::import::MAX_IMPORT_LEN + 4096,
            )),
        )
        .route("/api/games", post(create_game))
        .route("/api/challenges", get(list_challenges))
        .route("/api/challenges/{id}/accept", post(accept_challenge))
        .route("/ws/lobby", get(ws::lobby_handler))
        .route("/api/games/{id}", get(game_state))
        .route("/api/games/{id}/record", get(game_record))
        .route("/api/games/{id}/positions", get(game_positions))
        .route("/api/games/{id}/export", get(export))
        .route("/api/games/{id}/review", get(review))
        .route("/api/games/{id}/act", post(act_http))
        .route("/ws/{id}", get(ws::ws_handler))
        .layer(DefaultBodyLimit::max(16 * 1024))
        // gzip when the client asks for it (never for the WebSocket upgrade, which has no
        // body to compress).
        .layer(tower_http::compression::CompressionLayer::new())
        .with_state(hub)
}
