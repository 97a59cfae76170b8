//! `POST /tournament`: games in chunks on tokio's blocking pool.

use std::sync::Arc;
use std::time::Instant;

use super::json::Json;
use axum::extract::State;

use super::AppState;
use super::body::JsonBody;
use crate::api::Problem;
use crate::api::match_play::{TournamentJob, TournamentResponse};
use crate::api::request::TournamentRequest;
use crate::tournament::{Tally, chunks};

pub async fn post_tournament(
    State(state): State<AppState>,
    JsonBody(body): JsonBody,
) -> Result<Json<TournamentResponse>, Problem> {
    let job = Arc::new(TournamentJob::new(TournamentRequest::from_json(&body)?)?);
    // One slot per tournament: its games run in at most one chunk per core.
    let _slot = state.admission.slot().await?;
    let _in_flight = state.metrics.tournament_started();
    let started = Instant::now();
    let deadline = started + state.tournament_time_limit;
    // One contiguous chunk per core: the games of a chunk run one after another on one
    // blocking thread, so a tournament never takes more threads than there are cores, and the
    // async workers stay free to answer other requests.
    let tasks: Vec<_> = chunks(job.games(), state.cores)
        .into_iter()
        .map(|games| {
            let job = Arc::clone(&job);
            state
                .metrics
                .spawn_blocking(move || job.play(games, Some(deadline)))
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
