//! `POST /tournament`: games in chunks on tokio's blocking pool.

use std::sync::Arc;
use std::time::Instant;

use axum::extract::State;

use super::AppState;
use super::body::JsonBody;
use super::json::Json;
use crate::api::Problem;
use crate::api::tournament::{TournamentJob, TournamentRequest, TournamentResponse};

pub async fn post_tournament(
    State(state): State<AppState>,
    JsonBody(body): JsonBody,
) -> Result<Json<TournamentResponse>, Problem> {
    let job = Arc::new(TournamentJob::new(TournamentRequest::from_json(&body)?)?);
    let _in_flight = state.metrics.tournament_started();
    let started = Instant::now();
    // One contiguous chunk per core: the games of a chunk run one after another on one
    // blocking thread, so a tournament never takes more threads than there are cores.
    let parts = job.parts(state.cores);
    let player = Arc::clone(&job);
    let tallies = super::heavy::run_parts(
        &state,
        state.tournament_time_limit,
        parts,
        move |games, budget| player.play(games, budget),
    )
    .await?;
    let report = job.report(&tallies, started.elapsed());
    state.metrics.add_games(report.games);
    for player in &report.players {
        state.metrics.add_nodes(player.algorithm, player.nodes);
    }
    Ok(Json(report))
}
