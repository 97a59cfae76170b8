//! `POST /analyze`: answered as JSON, or as a stream of the search's iterations and then the
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
use crate::api::analyze::{AnalyzeJob, AnalyzeResponse};
use crate::api::request::MoveRequest;
use crate::api::{Budget, Watch};

pub async fn post_analyze(
    State(state): State<AppState>,
    Extension(client): Extension<Client>,
    headers: HeaderMap,
    JsonBody(body): JsonBody,
) -> Result<Response, Problem> {
    let job = AnalyzeJob::new(MoveRequest::from_json(&body)?)?;
    if ndjson::accepts(&headers, NDJSON) {
        return Ok(ndjson::watched(|watch| {
            analyze(state, client, job, Some(watch))
        }));
    }
    Ok(Json(analyze(state, client, job, None).await?).into_response())
}

async fn analyze(
    state: AppState,
    client: Client,
    job: AnalyzeJob,
    watch: Option<Watch>,
) -> Result<AnalyzeResponse, Problem> {
    // Analysis searches every move on its own: always heavy, blocking work.
    let threads = job.threads();
    let response = super::heavy::run_one(&state, &client, Work::Analyze, threads, move |budget| {
        job.run(&Budget {
            watch: watch.clone(),
            ..budget.clone()
        })
    })
    .await??;
    state.metrics.add_nodes(response.algorithm, response.nodes);
    Ok(response)
}
