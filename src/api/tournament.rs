//! `POST /tournament`: many games between two players.
//!
//! Checking a request gives a [`TournamentJob`]; the caller decides how to run its games (the
//! HTTP layer in chunks on tokio's blocking pool, the command line on OS threads), and the
//! totals of any split are the same.

use std::ops::Range;
use std::time::Duration;

use serde::Serialize;

use super::request::{MAX_FIRST_GAME, MAX_GAMES, PositionSpec, TournamentRequest};
use std::sync::Arc;

use super::{Position, Problem, Setup, knobs};
use crate::search::{Budget, Strategy, seed};
use crate::tournament::{PlayerSummary, Tally};

/// The answer to a tournament request.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TournamentResponse {
    pub game: &'static str,
    /// Games asked for (the request's `games`, or the game's default).
    pub games_requested: u64,
    /// Games played to their end; the totals count these only.
    pub games: u64,
    /// Whether every requested game was played.
    pub complete: bool,
    /// Why not, when it was not: `time_limit`, the server's time limit for tournaments
    /// (`tournament_time_limit_ms` in `GET /limits`). (A client that goes away gets no answer.)
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped_by: Option<&'static str>,
    pub first_game: u64,
    pub seed: u64,
    /// The positions the games started from, each played with both colours.
    pub openings: usize,
    /// The cap on plies, when the request set one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_plies: Option<usize>,
    /// Games adjudicated a draw at the cap.
    pub capped_games: u64,
    pub elapsed_ms: f64,
    pub games_per_second: f64,
    pub players: [PlayerSummary; 2],
}

/// A checked tournament request, ready to play.
#[derive(Clone, Debug)]
pub struct TournamentJob {
    openings: Vec<Arc<dyn Position>>,
    players: [Strategy; 2],
    games: Range<u64>,
    seed: u64,
    max_plies: Option<usize>,
}

/// The most openings a tournament takes, and the longest cap on plies.
pub const MAX_OPENINGS: usize = 1_000;
pub const MAX_PLIES: u64 = 10_000;

impl TournamentJob {
    pub fn new(request: TournamentRequest) -> Result<TournamentJob, Problem> {
        let game = super::game(request.game.as_deref())?;
        let [a, b] = request.players.as_slice() else {
            return Err(Problem::invalid(
                "players",
                format!(
                    "a tournament has exactly two players, got {}",
                    request.players.len()
                ),
            ));
        };
        let player =
            |spec, seat: &str| knobs::player(&game, spec).map_err(|problem| problem.within(seat));
        let players = [player(a, "players[0]")?, player(b, "players[1]")?];
        let openings = match (request.start, request.openings) {
            (Some(_), Some(_)) => {
                return Err(Problem::invalid(
                    "openings",
                    "give start (one position) or openings (several), not both",
                ));
            }
            (Some(start), None) => {
                vec![super::playable(&game, &start).map_err(|p| p.within("start"))?]
            }
            (None, Some(openings)) => {
                if openings.is_empty() || openings.len() > MAX_OPENINGS {
                    return Err(Problem::invalid(
                        "openings",
                        format!(
                            "give between 1 and {MAX_OPENINGS} openings, got {}",
                            openings.len()
                        ),
                    ));
                }
                openings
                    .iter()
                    .enumerate()
                    .map(|(index, opening)| {
                        super::playable(&game, opening)
                            .map_err(|p| p.within(&format!("openings[{index}]")))
                    })
                    .collect::<Result<_, _>>()?
            }
            (None, None) => vec![super::playable(&game, &PositionSpec::start())?],
        };
        let max_plies = knobs::optional_in_range("max_plies", request.max_plies, 1, MAX_PLIES)?
            .map(|plies| plies as usize);
        // Every opening with both colours, unless the request says otherwise.
        let default_games = if openings.len() > 1 {
            2 * openings.len() as u64
        } else {
            game.declaration.tournament_games
        };
        let games = knobs::optional_in_range("games", request.games, 1, MAX_GAMES)?
            .unwrap_or(default_games);
        let first_game =
            knobs::optional_in_range("first_game", request.first_game, 0, MAX_FIRST_GAME)?
                .unwrap_or(0);
        let seed =
            knobs::optional_in_range("seed", request.seed, 0, u64::MAX)?.unwrap_or_else(seed::draw);
        Ok(TournamentJob {
            openings,
            players,
            games: first_game..first_game + games,
            seed,
            max_plies,
        })
    }

    /// The indices of the games to play.
    pub fn games(&self) -> Range<u64> {
        self.games.clone()
    }

    /// Plays the games in `games` (a part of [`TournamentJob::games`]) until `budget` runs out.
    /// CPU-bound.
    pub fn play(&self, games: Range<u64>, budget: &Budget) -> Tally {
        self.openings[0].play(&self.setup(), games, budget)
    }

    /// Plays every game on `threads` OS threads.
    pub fn play_parallel(&self, threads: usize) -> Tally {
        self.openings[0].play_parallel(&self.setup(), self.games(), threads)
    }

    fn setup(&self) -> Setup<'_> {
        Setup {
            players: self.players,
            seed: self.seed,
            openings: &self.openings,
            max_plies: self.max_plies,
        }
    }

    /// The response for the totals of all the games, played in `elapsed`.
    pub fn report(&self, tally: &Tally, elapsed: Duration) -> TournamentResponse {
        let seconds = elapsed.as_secs_f64();
        let requested = self.games.end - self.games.start;
        let complete = tally.games == requested;
        TournamentResponse {
            game: self.openings[0].game(),
            games_requested: requested,
            games: tally.games,
            complete,
            stopped_by: (!complete).then_some("time_limit"),
            first_game: self.games.start,
            seed: self.seed,
            openings: self.openings.len(),
            max_plies: self.max_plies,
            capped_games: tally.capped,
            elapsed_ms: seconds * 1e3,
            games_per_second: if seconds > 0.0 {
                tally.games as f64 / seconds
            } else {
                0.0
            },
            players: tally.summary(&self.players),
        }
    }
}
