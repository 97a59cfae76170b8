//! `POST /analyze`.

use axum::extract::State;

use super::AppState;
use super::body::JsonBody;
use super::json::Json;
use crate::api::Problem;
use crate::api::analyze::{AnalyzeJob, AnalyzeResponse};
use crate::api::request::MoveRequest;

pub async fn post_analyze(
    State(state): State<AppState>,
    JsonBody(body): JsonBody,
) -> Result<Json<AnalyzeResponse>, Problem> {
    let job = AnalyzeJob::new(MoveRequest::from_json(&body)?)?;
    // Analysis searches every move on its own: always heavy, blocking work.
    let response = super::heavy::run_one(&state, move |budget| job.run(budget)).await??;
    state.metrics.add_nodes(response.algorithm, response.nodes);
    Ok(Json(response))
}
