//! `POST /move`.

use axum::extract::State;

use super::AppState;
use super::body::JsonBody;
use super::cancel::CancelOnDrop;
use super::json::Json;
use crate::api::Problem;
use crate::api::choose_move::{MoveJob, MoveResponse};
use crate::api::request::MoveRequest;

pub async fn post_move(
    State(state): State<AppState>,
    JsonBody(body): JsonBody,
) -> Result<Json<MoveResponse>, Problem> {
    let job = MoveJob::new(MoveRequest::from_json(&body)?)?;
    let response = if job.is_light() {
        // Answering in place costs less than handing a few microseconds of work to another
        // thread and back; only heavier searches go to the blocking pool.
        job.run(&state.search_limits.light_budget())
    } else {
        let _slot = state.admission.slot().await?;
        let cancel = CancelOnDrop::new();
        let budget = state.search_limits.budget(Some(cancel.flag()));
        state
            .metrics
            .spawn_blocking(move || job.run(&budget))
            .await
            .map_err(super::problem::task_failed)?
    };
    let response = response?;
    state.metrics.add_nodes(response.algorithm, response.nodes);
    Ok(Json(response))
}
