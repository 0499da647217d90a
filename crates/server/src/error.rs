//! The one error type at the HTTP edge, [`ApiError`]: it maps the typed refusals of the
//! catalog (an illegal action, with the candidates of an ambiguous one; a spec that names no
//! game), of a room (storage failed, the game moved to another node) and of the storage to a
//! status code and a message for the client. The cause of a server-side failure is logged,
//! never sent.

use axum::extract::rejection::JsonRejection;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;
use tablier_catalog::RecordError;

use crate::room::RoomError;
use crate::store::StoreError;

/// An error answered to a client: the status it maps to and a reason in words.
#[derive(Debug)]
pub enum ApiError {
    /// No game has that id.
    NotFound,
    /// The game's record does not replay: it is kept out of play.
    Damaged,
    /// The database cannot be reached.
    Unavailable,
    /// The request's body is not what the route reads (axum's rejection, with its status).
    Body(JsonRejection),
    /// Creating a game or acting was refused, or could not be stored.
    Room(RoomError),
    /// A seat's text is not an action (too long, an unknown table action).
    Action(tablier_catalog::SeatActionError),
    /// A request the server does not take, with its status (400 malformed, 403 not
    /// allowed, 429 too many, ...).
    Refused(StatusCode, String),
    /// The same, with a stable name for a client that says it in its own language.
    Coded(StatusCode, &'static str, String),
}

/// What a client is told about a game whose record does not replay.
const DAMAGED: &str = "this game's record is damaged: it is kept out of play";

impl ApiError {
    /// The status and the reason the client gets.
    #[must_use]
    pub fn status_and_reason(&self) -> (StatusCode, String) {
        match self {
            ApiError::NotFound => (StatusCode::NOT_FOUND, "no such game".into()),
            ApiError::Damaged => (StatusCode::INTERNAL_SERVER_ERROR, DAMAGED.into()),
            ApiError::Unavailable => (
                StatusCode::SERVICE_UNAVAILABLE,
                "storage unavailable".into(),
            ),
            ApiError::Body(e) => (e.status(), e.body_text()),
            ApiError::Room(e @ (RoomError::Refused(_) | RoomError::Spec(_))) => {
                (StatusCode::UNPROCESSABLE_ENTITY, e.to_string())
            }
            ApiError::Room(e @ (RoomError::Storage | RoomError::Moved)) => {
                (StatusCode::SERVICE_UNAVAILABLE, e.to_string())
            }
            ApiError::Action(e) => (StatusCode::UNPROCESSABLE_ENTITY, e.to_string()),
            ApiError::Refused(status, why) | ApiError::Coded(status, _, why) => {
                (*status, why.clone())
            }
        }
    }

    /// A stable name of the refusal (`not-your-turn`, `no-such-game`, ...) beside its reason
    /// in English words, for a client that says it in its own language (`None`: a refusal
    /// that the web pages never meet, said in English only).
    #[must_use]
    pub fn code(&self) -> Option<&'static str> {
        Some(match self {
            ApiError::NotFound => "no-such-game",
            ApiError::Damaged => "damaged",
            ApiError::Unavailable | ApiError::Room(RoomError::Storage) => "storage",
            ApiError::Body(_) => "bad-request",
            ApiError::Room(RoomError::Refused(r)) => r.code(),
            ApiError::Room(RoomError::Spec(_)) => "bad-spec",
            ApiError::Room(RoomError::Moved) => "moved",
            ApiError::Action(e) => e.code(),
            ApiError::Coded(_, code, _) => code,
            ApiError::Refused(..) => return None,
        })
    }

    /// The legal actions an ambiguous action could mean, for the client to choose from.
    fn candidates(&self) -> &[String] {
        match self {
            ApiError::Room(RoomError::Refused(tablier_catalog::Refusal::Action(e))) => {
                e.candidates()
            }
            _ => &[],
        }
    }

    /// A game's record that does not replay, logged with its reason.
    pub(crate) fn damaged(id: &str, e: &RecordError) -> ApiError {
        tracing::error!("game {id} does not replay: {e}");
        ApiError::Damaged
    }
}

impl From<RoomError> for ApiError {
    fn from(e: RoomError) -> Self {
        ApiError::Room(e)
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> Self {
        tracing::error!("{e}");
        ApiError::Unavailable
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (status, reason) = self.status_and_reason();
        let mut body = json!({ "error": reason });
        if let Some(code) = self.code() {
            body["code"] = code.into();
        }
        if matches!(self, ApiError::Damaged) {
            body["damaged"] = true.into();
        }
        if !self.candidates().is_empty() {
            body["candidates"] = self.candidates().into();
        }
        (status, Json(body)).into_response()
    }
}

/// The answer to a token that opens no seat.
pub(crate) fn forbidden_token() -> ApiError {
    ApiError::Coded(
        StatusCode::FORBIDDEN,
        "bad-token",
        "that token opens no seat of this game".into(),
    )
}
