//! `POST /move`.

use axum::extract::State;

use super::AppState;
use super::body::JsonBody;
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
        super::heavy::run_one(&state, move |budget| job.run(budget)).await?
    };
    let response = response?;
    state.metrics.add_nodes(response.algorithm, response.nodes);
    Ok(Json(response))
}
