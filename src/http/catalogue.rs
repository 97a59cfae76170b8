//! `GET /games`, `GET /algorithms`, `GET /healthz`, `GET /openapi.yaml`.

use super::json::Json;
use axum::http::header;
use axum::response::IntoResponse;
use serde_json::{Value, json};

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

pub async fn get_openapi() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "application/yaml")], OPENAPI_YAML)
}
