//! Talking to the other nodes of a cluster (several `tablier serve` on one PostgreSQL
//! database): whether a node is alive (its heartbeat is recent), and handing a seat's action
//! to the node that owns the game, over HTTP. The rest of the cluster's work (claiming the
//! games of silent nodes, mirrors following the event bus) is the hub's ([`crate::hub`]).

use std::sync::Arc;

use axum::http::{header, StatusCode};
use serde_json::{json, Value};
use tablier_catalog::SeatAction;

use crate::error::ApiError;
use crate::now::now_ms;
use crate::store::{Storage, StoreError, STALE_MS};

/// The HTTP client that hands actions to other nodes.
type HttpClient = hyper_util::client::legacy::Client<
    hyper_util::client::legacy::connect::HttpConnector,
    http_body_util::Full<axum::body::Bytes>,
>;

/// This node's view of the others: their heartbeats in the store, and a client to reach
/// them.
#[derive(Clone)]
pub struct Peers {
    store: Arc<dyn Storage>,
    http: HttpClient,
}

impl Peers {
    /// The other nodes of `store`'s database.
    #[must_use]
    pub fn new(store: Arc<dyn Storage>) -> Peers {
        let http =
            hyper_util::client::legacy::Client::builder(hyper_util::rt::TokioExecutor::new())
                .build_http();
        Peers { store, http }
    }

    /// Whether `node`'s last heartbeat is recent, and where it listens.
    pub async fn alive(&self, node: &str) -> Result<Option<String>, StoreError> {
        Ok(self
            .store
            .node_seen(node)
            .await?
            .filter(|(_, seen)| *seen >= now_ms() - STALE_MS)
            .map(|(url, _)| url))
    }

    /// Hands an action to the node that owns the game. `Err(None)`: the owner is gone.
    pub async fn forward(
        &self,
        id: &str,
        owner: &str,
        token: &str,
        action: &SeatAction,
    ) -> Result<(), Option<ApiError>> {
        let Some(url) = self.alive(owner).await.map_err(|e| Some(e.into()))? else {
            return Err(None);
        };
        let no_answer = || {
            Some(ApiError::Refused(
                StatusCode::SERVICE_UNAVAILABLE,
                "the server node of this game does not answer; try again".into(),
            ))
        };
        let body = json!({"token": token, "action": action.to_string()}).to_string();
        let req = axum::http::Request::post(format!("{url}/api/games/{id}/act"))
            .header(header::CONTENT_TYPE, "application/json")
            .body(http_body_util::Full::new(axum::body::Bytes::from(body)))
            .map_err(|e| Some(ApiError::Refused(StatusCode::BAD_REQUEST, e.to_string())))?;
        let sent = tokio::time::timeout(std::time::Duration::from_secs(10), self.http.request(req));
        let resp = match sent.await {
            Ok(Ok(resp)) => resp,
            Ok(Err(e)) => {
                tracing::warn!("node {owner} at {url}: {e}");
                // Unreachable: if it has also gone silent, it is gone.
                return match self.alive(owner).await {
                    Ok(None) => Err(None),
                    _ => Err(no_answer()),
                };
            }
            Err(_) => return Err(no_answer()),
        };
        let status = resp.status();
        let bytes = http_body_util::BodyExt::collect(resp.into_body())
            .await
            .map(|b| b.to_bytes())
            .unwrap_or_default();
        if status.is_success() {
            Ok(())
        } else {
            let why = serde_json::from_slice::<Value>(&bytes)
                .ok()
                .and_then(|v| v["error"].as_str().map(str::to_owned))
                .unwrap_or_else(|| format!("the owner node answered {status}"));
            Err(Some(ApiError::Refused(status, why)))
        }
    }
}
