//! `POST /review`: every position of a game searched on the blocking pool, one worker a core
//! taking the next position not yet taken, within the service's tournament time limit; the
//! positions not reached by then are left out of the answer (`complete: false`). Answered as
//! JSON, or with `Accept: application/x-ndjson` as a line a ply as soon as it is judged
//! (`{"ply": ...}`), then the answer (`{"result": ...}`); a client that goes away stops the
//! searches.

use std::sync::Arc;

use axum::Extension;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};

use super::AppState;
use super::body::JsonBody;
use super::json::Json;
use super::ndjson::{self, Lines, NDJSON};
use super::share::{Client, Slot, Work};
use crate::api::Problem;
use crate::api::review::{ReviewJob, ReviewRequest, ReviewResponse, ReviewRun};

pub async fn post_review(
    State(state): State<AppState>,
    Extension(client): Extension<Client>,
    headers: HeaderMap,
    JsonBody(body): JsonBody,
) -> Result<Response, Problem> {
    let run = Arc::new(ReviewRun::new(ReviewJob::new(ReviewRequest::from_json(
        &body,
    )?)?));
    let slot = super::heavy::admit(&state, &client, Work::Review, 1).await?;
    if !ndjson::accepts(&headers, NDJSON) {
        let answer = review(&state, &client, slot, &run, None).await?;
        return Ok(Json(answer).into_response());
    }
    Ok(ndjson::stream(move |lines| async move {
        let last = match review(&state, &client, slot, &run, Some(lines.clone())).await {
            Ok(answer) => ndjson::line("result", &answer),
            Err(problem) => ndjson::line("problem", &problem),
        };
        let _ = lines.send(last);
    }))
}

/// Runs the review's workers, each ply sent to `lines` where there are some, and answers. A
/// client that goes away drops this future, which cancels the searches in flight.
async fn review(
    state: &AppState,
    client: &Client,
    slot: Slot,
    run: &Arc<ReviewRun>,
    lines: Option<Lines>,
) -> Result<ReviewResponse, Problem> {
    let workers = vec![(); run.workers(state.cores)];
    let working = Arc::clone(run);
    let parts = super::heavy::run_parts(
        state,
        client,
        Work::Review,
        slot,
        state.tournament_time_limit,
        workers,
        move |(), budget| {
            working.work(budget, &|ply| {
                if let Some(lines) = &lines {
                    let _ = lines.send(ndjson::line("ply", ply));
                }
            })
        },
    )
    .await?;
    parts.results.into_iter().collect::<Result<(), Problem>>()?;
    let answer = run.answer();
    state.metrics.add_nodes(answer.algorithm, answer.nodes);
    Ok(answer)
}
