//! `POST /move`: answered as JSON, or as a stream of the search's iterations and then the
//! answer (`Accept: application/x-ndjson`).

use axum::Extension;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};

use super::AppState;
use super::body::JsonBody;
use super::json::Json;
use super::ndjson::{self, NDJSON};
use super::share::{Client, Work};
use crate::api::Problem;
use crate::api::choose_move::{MoveJob, MoveResponse};
use crate::api::request::MoveRequest;
use crate::api::{Budget, Watch};

pub async fn post_move(
    State(state): State<AppState>,
    Extension(client): Extension<Client>,
    headers: HeaderMap,
    JsonBody(body): JsonBody,
) -> Result<Response, Problem> {
    let job = MoveJob::new(MoveRequest::from_json(&body)?)?;
    if ndjson::accepts(&headers, NDJSON) {
        return Ok(ndjson::watched(|watch| {
            choose(state, client, job, Some(watch))
        }));
    }
    Ok(Json(choose(state, client, job, None).await?).into_response())
}

async fn choose(
    state: AppState,
    client: Client,
    job: MoveJob,
    watch: Option<Watch>,
) -> Result<MoveResponse, Problem> {
    let response = if job.is_light() {
        // Answering in place costs less than handing a few microseconds of work to another
        // thread and back; only heavier searches go to the blocking pool.
        job.run(&state.search_limits.light_budget())
    } else {
        let threads = job.threads();
        super::heavy::run_one(&state, &client, Work::Move, threads, move |budget| {
            job.run(&Budget {
                watch: watch.clone(),
                ..budget.clone()
            })
        })
        .await?
    };
    let response = response?;
    state.metrics.add_nodes(response.algorithm, response.nodes);
    Ok(response)
}
