//! The API's requests and responses, independent of HTTP: decoding and checking requests,
//! running them on the engine, and shaping the answers. The HTTP layer and the command line
//! both call this, so `sente move` prints exactly what `POST /move` answers.
//!
//! One file per command, which owns it from the checked request to the answer:
//! [`choose_move`] for `/move`, [`analyze`] for `/analyze`, [`tournament`] for `/tournament`,
//! [`catalogue`] for `/games` and `/algorithms`. Beside them: [`request`] the requests, decoded
//! field by field by `object`; [`board`] the board a request gives; [`knobs`] every algorithm
//! parameter, checked and described per game; [`names`] names matched with a suggestion; and
//! [`Problem`] the one error type. No code here names a game: [`game`] finds the one a request
//! names in the registry ([`crate::games`]), and `Position` runs the generic code for it.

pub mod analyze;
pub mod board;
pub mod catalogue;
pub mod choose_move;
pub mod describe;
pub mod knobs;
pub mod names;
mod object;
mod problem;
pub mod request;
mod score;
pub mod tournament;

pub use problem::{PROBLEM_TYPES, Problem, ProblemType};

use std::ops::Range;
use std::sync::Arc;

use crate::game::{Declaration, Game, Outcome, Player};
use crate::games::{self, ForGame, for_each_game};
use crate::search::{Budget, Solve, Strategy};
use crate::tournament::{Tally, Tournament};

/// Computes now what the served games build once (a perfect table, a solver's large table),
/// so that no request waits for it.
pub fn warm_up() {
    #[derive(Clone)]
    struct WarmUp;
    impl ForGame for WarmUp {
        type Output = ();
        fn run<G: Solve>(self) {
            G::warm_up();
        }
    }
    for_each_game(WarmUp);
}

/// A game a request names: its name and what it declares.
#[derive(Clone, Copy, Debug)]
pub struct GameRef {
    pub name: &'static str,
    pub declaration: Declaration,
    /// The names and descriptions of the game's evaluations, the default first.
    pub evaluations: fn() -> Vec<(&'static str, &'static str)>,
}

/// The game a request names, the default game when it names none.
pub fn game(name: Option<&str>) -> Result<GameRef, Problem> {
    struct Declared;
    impl ForGame for Declared {
        type Output = GameRef;
        fn run<G: Solve>(self) -> GameRef {
            GameRef {
                name: G::NAME,
                declaration: G::DECLARATION,
                evaluations: || {
                    G::EVALUATIONS
                        .iter()
                        .map(|evaluation| (evaluation.name, evaluation.description))
                        .collect()
                },
            }
        }
    }
    let name = name.unwrap_or(games::DEFAULT);
    games::for_game(name, Declared)
        .ok_or_else(|| names::unknown("game", "game", name, games::NAMES))
}

/// A position of whichever game a request names, with what the API does to one. The code
/// behind it is generic over the game's type (the registry picks the type once per request),
/// so no code here names a game.
pub(crate) trait Position: Send + Sync + std::fmt::Debug {
    /// The game's name.
    fn game(&self) -> &'static str;
    fn declaration(&self) -> Declaration;
    /// The number of move ids the game has: how large it is.
    fn move_ids(&self) -> usize;
    /// How the game stands.
    fn outcome(&self) -> Outcome;
    /// The rule that ended it, for games that end in more than one way.
    fn ending(&self) -> Option<&'static str>;
    /// What the position is (`POST /position`).
    fn describe(&self) -> describe::PositionResponse;
    /// The number of move paths `depth` plies long (`sente perft`).
    fn perft(&self, depth: u32) -> u64;
    /// Searches for a move (`POST /move`).
    fn run(
        &self,
        strategy: &Strategy,
        seed: u64,
        budget: &Budget,
    ) -> Result<choose_move::MoveResponse, Problem>;
    /// Values every legal move (`POST /analyze`).
    fn analyze(
        &self,
        strategy: &Strategy,
        seed: u64,
        budget: &Budget,
    ) -> Result<analyze::AnalyzeResponse, Problem>;
    /// Plays the games `games` of a tournament from `openings` (positions of this game, this
    /// one among them) until `budget` runs out.
    fn play(&self, setup: &Setup<'_>, games: Range<u64>, budget: &Budget) -> Tally;
    /// Plays the games `games` on `threads` OS threads.
    fn play_parallel(&self, setup: &Setup<'_>, games: Range<u64>, threads: usize) -> Tally;
    /// The position as a value of its game's type, for [`Position::play`] to find its
    /// openings' type.
    fn as_any(&self) -> &dyn std::any::Any;
}

/// A tournament's set-up, whatever its game.
pub(crate) struct Setup<'a> {
    pub players: [Strategy; 2],
    pub seed: u64,
    pub openings: &'a [Arc<dyn Position>],
    pub max_plies: Option<usize>,
}

impl<G: Solve> Position for G {
    fn game(&self) -> &'static str {
        G::NAME
    }

    fn declaration(&self) -> Declaration {
        G::DECLARATION
    }

    fn move_ids(&self) -> usize {
        G::MOVE_IDS
    }

    fn outcome(&self) -> Outcome {
        Game::outcome(self)
    }

    fn ending(&self) -> Option<&'static str> {
        Game::ending(self)
    }

    fn describe(&self) -> describe::PositionResponse {
        describe::describe(self)
    }

    fn perft(&self, depth: u32) -> u64 {
        crate::game::perft::perft(self, depth)
    }

    fn run(
        &self,
        strategy: &Strategy,
        seed: u64,
        budget: &Budget,
    ) -> Result<choose_move::MoveResponse, Problem> {
        choose_move::run(self, strategy, seed, budget)
    }

    fn analyze(
        &self,
        strategy: &Strategy,
        seed: u64,
        budget: &Budget,
    ) -> Result<analyze::AnalyzeResponse, Problem> {
        analyze::run(self, strategy, seed, budget)
    }

    fn play(&self, setup: &Setup<'_>, games: Range<u64>, budget: &Budget) -> Tally {
        tournament::<G>(setup).play_until(games, budget)
    }

    fn play_parallel(&self, setup: &Setup<'_>, games: Range<u64>, threads: usize) -> Tally {
        tournament::<G>(setup).play_parallel(games, threads)
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

fn tournament<G: Solve>(setup: &Setup<'_>) -> Tournament<G> {
    Tournament {
        players: setup.players,
        seed: setup.seed,
        openings: setup
            .openings
            .iter()
            .map(|opening| {
                opening
                    .as_any()
                    .downcast_ref::<G>()
                    .expect("a tournament's openings are positions of its game")
                    .clone()
            })
            .collect(),
        max_plies: setup.max_plies,
    }
}

/// The position `spec` describes in `game`, finished or not.
pub(crate) fn position(
    game: &GameRef,
    spec: &request::PositionSpec,
) -> Result<Arc<dyn Position>, Problem> {
    struct Described<'a>(&'a request::PositionSpec);
    impl ForGame for Described<'_> {
        type Output = Result<Arc<dyn Position>, Problem>;
        fn run<G: Solve>(self) -> Self::Output {
            Ok(Arc::new(self.0.position::<G>()?))
        }
    }
    games::for_game(game.name, Described(spec)).expect("a game of the registry")
}

/// The first game, in the registry's order, whose text form reads `board`.
pub fn game_of_board(board: &str) -> Option<GameRef> {
    #[derive(Clone)]
    struct Reads<'a>(&'a str);
    impl ForGame for Reads<'_> {
        type Output = bool;
        fn run<G: Solve>(self) -> bool {
            self.0.parse::<G>().is_ok()
        }
    }
    let reads = games::for_each_game(Reads(board));
    let name = games::NAMES.iter().zip(reads).find(|(_, reads)| *reads)?.0;
    game(Some(name)).ok()
}

/// The number of move paths `depth` plies long from `board` in `game` (perft).
pub fn perft(game: &GameRef, board: &str, depth: u32) -> Result<u64, Problem> {
    let spec = request::PositionSpec {
        board: Some(board::BoardSpec::Text(board.to_owned())),
        moves: None,
    };
    Ok(position(game, &spec)?.perft(depth))
}

/// The position `spec` describes in `game`, refused if the game is already over: there is no
/// move to make in it.
pub(crate) fn playable(
    game: &GameRef,
    spec: &request::PositionSpec,
) -> Result<Arc<dyn Position>, Problem> {
    let position = position(game, spec)?;
    let outcome = position.outcome();
    let sides = game.declaration.sides;
    if outcome.is_over() {
        let field = if spec.board.is_some() {
            "board"
        } else {
            "moves"
        };
        return Err(Problem::invalid(
            field,
            format!(
                "the game is already over ({}): there is no move to make",
                match (outcome, position.ending()) {
                    (Outcome::Won(player), ending) => format!(
                        "{}{} has won",
                        ending
                            .map(|ending| format!("{}: ", ending.replace('_', " ")))
                            .unwrap_or_default(),
                        sides[usize::from(player == Player::O)]
                    ),
                    (_, Some(ending)) => format!("drawn by {}", ending.replace('_', " ")),
                    _ => "drawn".to_owned(),
                }
            ),
        ));
    }
    Ok(position)
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
