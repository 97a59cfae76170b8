//! `POST /tournament`: games played by one worker per core on tokio's blocking pool, answered
//! as JSON, as a stream of progress lines (`Accept: application/x-ndjson`), or as one file of
//! the game's record format that holds many games (chess's PGN, `Accept:
//! application/x-chess-pgn`).

use std::sync::Arc;
use std::time::Instant;

use axum::Extension;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Response};

use super::AppState;
use super::body::JsonBody;
use super::heavy::HoldingSlot;
use super::json::Json;
use super::ndjson::{self, NDJSON};
use super::share::{Client, Slot, Work};
use crate::api::Problem;
use crate::api::tournament::{
    LOOK_INTERVAL, Progress, Report, Results, Run, TournamentJob, TournamentRequest,
    games_file_media_types,
};

/// The answer's form, from the request's `Accept`.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Form {
    Json,
    Progress,
    /// The games in one file of the record format of this media type.
    GamesFile(&'static str),
}

impl Form {
    fn of(headers: &HeaderMap) -> Form {
        if ndjson::accepts(headers, NDJSON) {
            return Form::Progress;
        }
        games_file_media_types()
            .into_iter()
            .find(|media_type| ndjson::accepts(headers, media_type))
            .map_or(Form::Json, Form::GamesFile)
    }
}

pub async fn post_tournament(
    State(state): State<AppState>,
    Extension(client): Extension<Client>,
    headers: HeaderMap,
    JsonBody(body): JsonBody,
) -> Result<Response, Problem> {
    let form = Form::of(&headers);
    let mut request = TournamentRequest::from_json(&body)?;
    if matches!(form, Form::GamesFile(_)) {
        request.records = Some(true);
    }
    let job = Arc::new(TournamentJob::new(request, &state.engines, &[])?);
    let games_file = job.collecting_format();
    if let Form::GamesFile(media_type) = form
        && games_file.is_none_or(|format| format.media_type != media_type)
    {
        return Err(Problem::http(
            406,
            format!(
                "{media_type} is not a form of {}'s games; its answers are JSON (application/json or {NDJSON}){}",
                job.setup().game,
                games_file.map_or_else(String::new, |format| format!(
                    ", or its games as one {} file ({})",
                    format.name, format.media_type
                ))
            ),
        ));
    }
    let recorded = job.setup().games.end - job.setup().games.start;
    if job.setup().records && recorded > state.max_recorded_games {
        let max = state.max_recorded_games;
        return Err(Problem::invalid(
            "records",
            format!(
                "an answer records at most {max} games (max_recorded_games in GET /limits), and this tournament has {recorded}: ask for {max} games or fewer, play the rest in more requests (first_game), or leave out records; the command line (sente tournament --records, --pgn) records any number"
            ),
        ));
    }
    let cores = super::heavy::cores(&state, job.threads())?;
    let run = Arc::new(job.run(job.setup().games.clone()));
    let started = Instant::now();
    let slot = super::heavy::admit(&state, &client, Work::Tournament, cores).await?;
    // The slot the games end in is held until the answer has been sent, not only played: a
    // large answer waiting for a slow client counts as the work it is.
    let (ended_in, held) = tokio::sync::oneshot::channel();
    let play = play(
        state.clone(),
        client,
        Arc::clone(&job),
        Arc::clone(&run),
        slot,
        ended_in,
    );
    let response = match form {
        Form::Json => {
            play.await?;
            Json(answer(&state, &job, run.results(), started)).into_response()
        }
        Form::GamesFile(media_type) => {
            play.await?;
            let format = games_file.expect("checked above");
            let file = job.games_file(&run.results(), format);
            let content_type = HeaderValue::from_static(media_type);
            ([(header::CONTENT_TYPE, content_type)], file).into_response()
        }
        // A stream's slot goes when its games end, its last line with it.
        Form::Progress => return Ok(stream(state, job, run, started, play)),
    };
    Ok(HoldingSlot::answer(response, held.await.ok().flatten()))
}

/// Plays the run's games on one worker per core, within the tournament time limit, and
/// sends the slot the games ended in to `ended_in`.
async fn play(
    state: AppState,
    client: Client,
    job: Arc<TournamentJob>,
    run: Arc<Run>,
    slot: Slot,
    ended_in: tokio::sync::oneshot::Sender<Option<Slot>>,
) -> Result<(), Problem> {
    let _in_flight = state.metrics.tournament_started();
    // One worker per core, a game's searches on as many threads as its players take: a
    // tournament never takes more threads than there are cores.
    let workers = vec![(); (state.cores / slot.cores()).max(1)];
    let parts = super::heavy::run_parts(
        &state,
        &client,
        Work::Tournament,
        slot,
        state.tournament_time_limit,
        workers,
        move |(), budget| job.work(&run, budget),
    )
    .await?;
    let _ = ended_in.send(parts.slot);
    Ok(())
}

/// The answer, counted in the metrics.
fn answer(state: &AppState, job: &TournamentJob, results: Results, started: Instant) -> Report {
    let report = job.setup().report(results, started.elapsed(), None);
    state.metrics.add_games(report.games);
    for player in &report.players {
        if let Some(algorithm) = player.player.algorithm {
            state.metrics.add_nodes(algorithm, player.nodes);
        }
    }
    report
}

/// The tournament as a stream of lines: its totals as games finish (`{"progress": ...}`), then
/// its answer. A client that goes away drops the stream, which drops `play`, which cancels the
/// games.
fn stream(
    state: AppState,
    job: Arc<TournamentJob>,
    run: Arc<Run>,
    started: Instant,
    play: impl Future<Output = Result<(), Problem>> + Send + 'static,
) -> Response {
    ndjson::stream(move |lines| async move {
        tokio::pin!(play);
        let mut looks = tokio::time::interval(LOOK_INTERVAL);
        let mut progress = Progress::default();
        let last = loop {
            tokio::select! {
                outcome = &mut play => break outcome,
                _ = looks.tick() => {
                    let Some(results) = progress.due(&run) else {
                        continue;
                    };
                    let progress = job.setup().progress(results, started.elapsed());
                    if lines.send(ndjson::line("progress", &progress)).is_err() {
                        return;
                    }
                }
            }
        };
        let last = match last {
            Ok(()) => ndjson::line("result", &answer(&state, &job, run.results(), started)),
            Err(problem) => ndjson::line("problem", &problem),
        };
        let _ = lines.send(last);
    })
}
