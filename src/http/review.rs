//! `POST /review`: every position of a game searched on the blocking pool, one worker a core
//! taking the next position not yet taken, within the service's tournament time limit; the
//! positions not reached by then are left out of the answer (`complete: false`).

use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use axum::extract::State;
use axum::response::{IntoResponse, Response};

use super::AppState;
use super::body::JsonBody;
use super::json::Json;
use crate::api::Problem;
use crate::api::request::MoveRequest;
use crate::api::review::{ReviewJob, Valued};

pub async fn post_review(
    State(state): State<AppState>,
    JsonBody(body): JsonBody,
) -> Result<Response, Problem> {
    let job = Arc::new(ReviewJob::new(MoveRequest::from_json(&body)?)?);
    let started = Instant::now();
    let positions = job.positions();
    let values: Arc<Mutex<Vec<Option<Valued>>>> = Arc::new(Mutex::new(vec![None; positions]));
    // Each worker takes the next position not taken, in the game's order: a review cut short
    // by the limit keeps the game's start.
    let next = Arc::new(AtomicUsize::new(0));
    let workers = vec![(); state.cores.min(positions).max(1)];
    let slot = Arc::new(state.admission.slot().await?);
    let (job_ref, values_ref) = (Arc::clone(&job), Arc::clone(&values));
    let results = super::heavy::run_parts(
        &state,
        slot,
        state.tournament_time_limit,
        workers,
        move |(), budget| -> Result<(), Problem> {
            loop {
                let taken = next.fetch_add(1, Ordering::Relaxed);
                if taken >= positions || budget.is_due() {
                    return Ok(());
                }
                let valued = job_ref.value(taken, budget)?;
                // A search the service's deadline or the client cut short is not a value.
                if matches!(valued.stopped_by, Some("deadline" | "cancelled")) {
                    return Ok(());
                }
                values_ref.lock().expect("no worker panics holding it")[taken] = Some(valued);
            }
        },
    )
    .await?;
    results.into_iter().collect::<Result<(), Problem>>()?;
    let values = std::mem::take(&mut *values.lock().expect("the workers are done"));
    let answer = job.answer(values, started.elapsed());
    state.metrics.add_nodes(answer.algorithm, answer.nodes);
    Ok(Json(answer).into_response())
}
