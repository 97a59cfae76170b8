//! The API's requests and responses, independent of HTTP: decoding and checking requests,
//! running them on the engine, and shaping the answers. The HTTP layer and the command line
//! both call this, so `sente move` prints exactly what `POST /move` answers.
//!
//! One file per command, which owns it from its request to its answer, and imports no other
//! command: [`choose_move`] for `/move`, [`analyze`] for `/analyze`, [`describe`] for
//! `/position`, [`review`] for `/review`, [`tournament`] for `/tournament`, [`catalogue`] for `/games` and
//! `/algorithms`, [`perft`] for `sente perft`, [`bench`](mod@bench) for `sente bench`. Beside
//! them, what the commands share:
//! [`request`] a position and a search as requests give them, decoded field by field by
//! `object`; [`board`] the board a request gives; [`knobs`] the table of the algorithms'
//! knobs; [`scored_move`] a move with its score, as the answers list them; [`names`] names
//! matched with a suggestion; and [`Problem`] the one error type.
//!
//! No code here names a game. A command checks its request inside [`with_game`], which finds
//! the game the request names in the registry ([`crate::games`]), once, and runs the command's
//! generic code on its type; what the command keeps for later (a search to run on the blocking
//! pool, a tournament to play) it keeps behind a type of its own.
//!
//! What the HTTP layer needs of the engine beyond the commands, it finds here too: the
//! [`Budget`] a search may spend, and the [`Algorithm`] an answer names (for its metrics).

pub mod analyze;
pub mod bench;
pub mod board;
pub mod catalogue;
pub mod choose_move;
pub mod describe;
pub mod knobs;
pub mod names;
mod object;
pub mod perft;
mod problem;
pub mod record;
pub mod request;
pub mod review;
pub mod scored_move;
pub mod tournament;

pub use crate::search::{Algorithm, Budget, Iteration, Pause, Watch, Yield, panic_message};
pub use problem::{PROBLEM_TYPES, Problem, ProblemType};

use crate::game::{Game, Outcome, Player};
pub use crate::games::GameRef;
use crate::games::{self, ForGame};

/// Computes now what the served games build once (a perfect table, a solver's large table),
/// so that no request waits for it.
pub fn warm_up() {
    for game in games::handles() {
        (game.warm_up)();
    }
}

/// Runs `job` for the game named `name` (the default game when `None`): the one place a
/// request's game is looked up.
pub fn with_game<J: ForGame>(name: Option<&str>, job: J) -> Result<J::Output, Problem> {
    let name = name.unwrap_or(games::DEFAULT);
    games::for_game(name, job).ok_or_else(|| names::unknown("game", "game", name, games::NAMES))
}

/// The game a request names, the default game when it names none.
pub fn game(name: Option<&str>) -> Result<GameRef, Problem> {
    let name = name.unwrap_or(games::DEFAULT);
    games::handle(name).ok_or_else(|| names::unknown("game", "game", name, games::NAMES))
}

/// The problem of a search that gave no answer: the game is over (the board's fault, 422), or
/// the search failed (Sente's, 500, with what failed).
pub(crate) fn search_problem(error: crate::search::SearchError) -> Problem {
    match error {
        crate::search::SearchError::GameOver => Problem::invalid("board", error.to_string()),
        crate::search::SearchError::Failed(_) => Problem::http(
            500,
            format!("{error}; the position and request are worth a report"),
        ),
    }
}

/// The problem of a position whose game is over: there is no move to make in it. `field` is
/// the request's field that gave the position.
pub(crate) fn game_over<G: Game>(position: &G, field: &str) -> Problem {
    let sides = G::DECLARATION.sides;
    let how = match (position.outcome(), position.ending()) {
        (Outcome::Won(player), ending) => format!(
            "{}{} has won",
            ending
                .map(|ending| format!("{}: ", ending.replace('_', " ")))
                .unwrap_or_default(),
            sides[usize::from(player == Player::O)]
        ),
        (_, Some(ending)) => format!("drawn by {}", ending.replace('_', " ")),
        _ => "drawn".to_owned(),
    };
    Problem::invalid(
        field,
        format!("the game is already over ({how}): there is no move to make"),
    )
}

/// What game `G` calls `player` (`White`, `Black`, `Sente`): the name the answers give beside
/// the board text's `X` and `O`.
pub fn side_name<G: Game>(player: Player) -> &'static str {
    G::DECLARATION.sides[usize::from(player == Player::O)]
}

/// The name of the side that won, if one did.
pub fn winner_name<G: Game>(outcome: Outcome) -> Option<&'static str> {
    match outcome {
        Outcome::Won(player) => Some(side_name::<G>(player)),
        _ => None,
    }
}

/// A game's status as the API spells it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    InProgress,
    XWon,
    OWon,
    Draw,
}

impl From<Outcome> for Status {
    fn from(outcome: Outcome) -> Status {
        match outcome {
            Outcome::InProgress => Status::InProgress,
            Outcome::Won(Player::X) => Status::XWon,
            Outcome::Won(Player::O) => Status::OWon,
            Outcome::Draw => Status::Draw,
        }
    }
}
