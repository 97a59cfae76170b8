//! `GET /games`, `GET /algorithms`, `GET /healthz`, `GET /limits`, `GET /openapi.yaml` and
//! `GET /problems/{name}`.

use super::json::Json;
use axum::Extension;
use axum::extract::rejection::{PathRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use super::AppState;
use super::etag::Document;
use super::share::{Client, ClientId};
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

/// `GET /limits`: the service's limits, and the policy in force for clients: the caller's own
/// limits (its key's, or an anonymous client's) and what is left of them, an anonymous
/// client's, and the routes open without a key.
pub async fn get_limits(
    State(state): State<AppState>,
    Extension(client): Extension<Client>,
) -> Json<Value> {
    let share = state.share.limits();
    let policy = state.share.policy();
    let standing = state.share.standing(&client);
    let left = |standing: Option<(u64, u64)>| {
        standing.map(|(remaining, reset_s)| json!({"remaining": remaining, "reset_s": reset_s}))
    };
    let open_routes: Vec<&str> = match (&policy.anonymous_routes, policy.keys.is_empty()) {
        (Some(routes), false) => routes.clone(),
        _ => super::routes()
            .into_iter()
            .filter(|(_, method, _)| method == axum::http::Method::POST)
            .map(|(path, ..)| path)
            .collect(),
    };
    let mut limits = json!({
        "heavy_slots": share.heavy_slots,
        // A search's threads hold as many slots: no search has more.
        "max_threads": share.heavy_slots,
        "heavy_queue": share.heavy_queue,
        "queue_limit_ms": share.queue_limit.as_millis() as u64,
        "client": {
            "id": client.to_string(),
            "key": matches!(client.id, ClientId::Key(_)),
            "limits": client.limits,
            "requests_left": left(standing.requests),
            "cpu_seconds_left": left(standing.cpu),
        },
        "anonymous_limits": policy.anonymous,
        "keys_required": !policy.keys.is_empty(),
        "anonymous_routes": open_routes,
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
