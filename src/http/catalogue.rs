//! `GET /games`, `GET /algorithms`, `GET /healthz`, `GET /limits`, `GET /openapi.yaml` and
//! `GET /problems/{name}`.

use super::json::Json;
use axum::extract::rejection::{PathRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use super::AppState;
use super::etag::Document;
use crate::api::catalogue::{self, AlgorithmInfo, GameInfo};
use crate::api::{PROBLEM_TYPES, Problem, ProblemType};

/// The OpenAPI document at the repository root, built into the binary.
pub const OPENAPI_YAML: &str = include_str!("../../openapi.yaml");

pub async fn get_games() -> Json<Vec<GameInfo>> {
    Json(catalogue::games())
}

/// `GET /algorithms?game=NAME`: the query names the game whose defaults and limits the knobs
/// give (the requests' default game without it).
#[derive(serde::Deserialize)]
pub struct AlgorithmsQuery {
    game: Option<String>,
}

pub async fn get_algorithms(
    query: Result<Query<AlgorithmsQuery>, QueryRejection>,
) -> Result<Json<Vec<AlgorithmInfo>>, Problem> {
    let Query(query) = query.map_err(|rejection| Problem::malformed(rejection.body_text()))?;
    let game = crate::api::game(query.game.as_deref())?;
    Ok(Json(catalogue::algorithms(&game)))
}

pub async fn get_healthz() -> Json<Value> {
    Json(json!({ "status": "ok" }))
}

pub async fn get_limits(State(state): State<AppState>) -> Json<Value> {
    let admission = state.admission.limits();
    let mut limits = json!({
        "heavy_slots": admission.heavy_slots,
        "heavy_queue": admission.heavy_queue,
        "tournament_time_limit_ms": state.tournament_time_limit.as_millis() as u64,
        "max_search_ms": state.search_limits.max_search_time.as_millis() as u64,
        "max_nodes": state.search_limits.max_nodes,
        "max_body_bytes": super::MAX_BODY_BYTES,
        "max_head_bytes": super::MAX_HEAD_BYTES,
        "read_timeout_ms": state.read_timeout.as_millis() as u64,
        "write_timeout_ms": state.write_timeout.as_millis() as u64,
        "max_games": crate::api::tournament::MAX_GAMES,
        "max_recorded_games": state.max_recorded_games,
    });
    // Every numeric knob's maximum, from the table of knobs; the service's own `max_nodes`
    // stays, since it bounds the `nodes` knob too.
    let object = limits.as_object_mut().expect("an object");
    for (key, max) in crate::api::knobs::maxima() {
        object.entry(key).or_insert(max);
    }
    Json(limits)
}

static OPENAPI: Document = Document::new(OPENAPI_YAML, &[("content-type", "application/yaml")]);

pub async fn get_openapi(request: HeaderMap) -> Response {
    OPENAPI.answer(&request)
}

/// What a problem's `type` means, as plain text: a problem's `type` resolves here.
pub async fn get_problem(name: Result<Path<String>, PathRejection>) -> Result<Response, Problem> {
    // A name that does not decode (bad percent-encoding) names no problem type either.
    let name = name.map(|Path(name)| name).unwrap_or_default();
    let kind = ProblemType::named(&name).ok_or_else(|| {
        let names: Vec<_> = PROBLEM_TYPES.iter().map(|kind| kind.uri).collect();
        Problem::http(
            404,
            format!("no such problem type; there are {}", names.join(", ")),
        )
    })?;
    let others: Vec<_> = PROBLEM_TYPES.iter().map(|kind| kind.uri).collect();
    let text = format!(
        "{} (HTTP {})\n\n{}\n\nEvery problem type: {}\n",
        kind.title,
        kind.status,
        kind.description,
        others.join(", ")
    );
    Ok(([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response())
}
