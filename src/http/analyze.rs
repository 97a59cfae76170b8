//! `POST /analyze`.

use axum::extract::State;

use super::AppState;
use super::body::JsonBody;
use super::cancel::CancelOnDrop;
use super::json::Json;
use crate::api::Problem;
use crate::api::analyze::AnalyzeResponse;
use crate::api::choose_move::MoveJob;
use crate::api::request::MoveRequest;

pub async fn post_analyze(
    State(state): State<AppState>,
    JsonBody(body): JsonBody,
) -> Result<Json<AnalyzeResponse>, Problem> {
    let job = MoveJob::new(MoveRequest::from_json(&body)?)?;
    // Analysis searches every move on its own: always heavy, blocking work.
    let _slot = state.admission.slot().await?;
    let cancel = CancelOnDrop::new();
    let budget = state.search_limits.budget(Some(cancel.flag()));
    let response = state
        .metrics
        .spawn_blocking(move || job.analyze(&budget))
        .await
        .map_err(super::problem::task_failed)??;
    state.metrics.add_nodes(response.algorithm, response.nodes);
    Ok(Json(response))
}
