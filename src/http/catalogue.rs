//! `GET /games`, `GET /algorithms`, `GET /healthz`, `GET /openapi.yaml`.

use super::json::Json;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use serde_json::{Value, json};

use super::AppState;
use super::etag::Document;
use crate::api::catalogue::{self, AlgorithmInfo, GameInfo};

/// The OpenAPI document at the repository root, built into the binary.
pub const OPENAPI_YAML: &str = include_str!("../../openapi.yaml");

pub async fn get_games() -> Json<Vec<GameInfo>> {
    Json(catalogue::games())
}

pub async fn get_algorithms() -> Json<Vec<AlgorithmInfo>> {
    Json(catalogue::algorithms())
}

pub async fn get_healthz() -> Json<Value> {
    Json(json!({ "status": "ok" }))
}

pub async fn get_limits(State(state): State<AppState>) -> Json<Value> {
    let admission = state.admission.limits();
    Json(json!({
        "heavy_slots": admission.heavy_slots,
        "heavy_queue": admission.heavy_queue,
        "tournament_time_limit_ms": state.tournament_time_limit.as_millis() as u64,
        "max_search_ms": state.search_limits.max_search_time.as_millis() as u64,
        "max_nodes": state.search_limits.max_nodes,
        "max_body_bytes": super::MAX_BODY_BYTES,
        "max_head_bytes": super::MAX_HEAD_BYTES,
        "read_timeout_ms": state.read_timeout.as_millis() as u64,
        "max_games": crate::api::request::MAX_GAMES,
        "max_depth": crate::api::knobs::MAX_DEPTH,
        "max_connect4_full_width_depth": crate::api::knobs::MAX_CONNECT_FOUR_FULL_WIDTH_DEPTH,
        "max_playouts": crate::api::knobs::MAX_PLAYOUTS,
        "max_simulations": crate::api::knobs::MAX_SIMULATIONS,
        "max_time_limit_ms": crate::api::knobs::MAX_TIME_LIMIT_MS,
    }))
}

static OPENAPI: Document = Document::new(OPENAPI_YAML, &[("content-type", "application/yaml")]);

pub async fn get_openapi(request: HeaderMap) -> Response {
    OPENAPI.answer(&request)
}
