//! `POST /tournament`: games in chunks on tokio's blocking pool.

use std::sync::Arc;
use std::time::Instant;

use axum::extract::State;

use super::AppState;
use super::body::JsonBody;
use super::cancel::CancelOnDrop;
use super::json::Json;
use crate::api::Problem;
use crate::api::request::TournamentRequest;
use crate::api::tournament::{TournamentJob, TournamentResponse};
use crate::search::Budget;
use crate::tournament::{Tally, chunks};

pub async fn post_tournament(
    State(state): State<AppState>,
    JsonBody(body): JsonBody,
) -> Result<Json<TournamentResponse>, Problem> {
    let job = Arc::new(TournamentJob::new(TournamentRequest::from_json(&body)?)?);
    // One slot per tournament: its games run in at most one chunk per core. The chunks share
    // it, so it is freed when the last of them ends, not when this handler does.
    let slot = Arc::new(state.admission.slot().await?);
    let _in_flight = state.metrics.tournament_started();
    let started = Instant::now();
    // If the client goes away, the guard tells the chunks to stop, in the search they are in,
    // which frees their threads (and the slot).
    let cancel = CancelOnDrop::new();
    let budget = Budget {
        deadline: Some(started + state.tournament_time_limit),
        max_nodes: state.search_limits.max_nodes,
        cancelled: Some(cancel.flag()),
    };
    // One contiguous chunk per core: the games of a chunk run one after another on one
    // blocking thread, so a tournament never takes more threads than there are cores, and the
    // async workers stay free to answer other requests.
    let tasks: Vec<_> = chunks(job.games(), state.cores)
        .into_iter()
        .map(|games| {
            let (job, budget, slot) = (Arc::clone(&job), budget.clone(), Arc::clone(&slot));
            state.metrics.spawn_blocking(move || {
                let tally = job.play(games, &budget);
                drop(slot);
                tally
            })
        })
        .collect();
    let mut tally = Tally::default();
    for task in tasks {
        let part = task.await.map_err(super::problem::task_failed)?;
        tally.merge(&part);
    }
    let report = job.report(&tally, started.elapsed());
    state.metrics.add_games(report.games);
    for player in &report.players {
        state.metrics.add_nodes(player.algorithm, player.nodes);
    }
    Ok(Json(report))
}
