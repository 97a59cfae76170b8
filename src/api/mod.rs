//! The API's requests and responses, independent of HTTP: decoding and checking requests,
//! running them on the engine, and shaping the answers. The HTTP layer and the command line
//! both call this, so `sente move` prints exactly what `POST /move` answers.
//!
//! One file per command ([`play`] for `/move`, [`analyze`] for `/analyze`, [`match_play`] for
//! `/tournament`,
//! [`catalogue`] for `/games` and `/algorithms`), with [`request`] the requests, decoded field by
//! field by `object`, [`board`] the board a request gives, [`knobs`] checking each algorithm's
//! parameters, and [`Problem`] the one error type.

pub mod analyze;
pub mod board;
pub mod catalogue;
pub mod knobs;
pub mod match_play;
pub mod names;
mod object;
pub mod play;
mod problem;
pub mod request;

pub use problem::{PROBLEM_TYPES, Problem, ProblemType};

use crate::game::{ConnectFour, Game, Outcome, Player, TicTacToe};

/// Computes now what the served games build once (tic-tac-toe's perfect table, Connect Four's
/// first solver table), so that no request waits for it.
pub fn warm_up() {
    crate::search::warm_up::<TicTacToe>();
    crate::search::connect_four::warm_up();
}

/// The games the API serves.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GameKind {
    TicTacToe,
    ConnectFour,
}

impl GameKind {
    pub const ALL: [GameKind; 2] = [GameKind::TicTacToe, GameKind::ConnectFour];

    pub fn name(self) -> &'static str {
        match self {
            GameKind::TicTacToe => crate::game::TicTacToe::NAME,
            GameKind::ConnectFour => crate::game::ConnectFour::NAME,
        }
    }

    /// The game named in a request, tic-tac-toe when none is.
    pub fn parse(name: Option<&str>) -> Result<GameKind, Problem> {
        let Some(name) = name else {
            return Ok(GameKind::TicTacToe);
        };
        GameKind::ALL
            .into_iter()
            .find(|game| game.name() == name)
            .ok_or_else(|| {
                let names: Vec<_> = GameKind::ALL.iter().map(|game| game.name()).collect();
                names::unknown("game", "game", name, &names)
            })
    }
}

/// A position of one of the served games: where the API leaves generic code.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum AnyGame {
    TicTacToe(TicTacToe),
    ConnectFour(ConnectFour),
}

impl AnyGame {
    /// The position `spec` describes in game `kind`, refused if the game is already over:
    /// there is no move to make in it.
    pub fn playable(kind: GameKind, spec: &request::PositionSpec) -> Result<AnyGame, Problem> {
        Ok(match kind {
            GameKind::TicTacToe => AnyGame::TicTacToe(playable_position(spec)?),
            GameKind::ConnectFour => AnyGame::ConnectFour(playable_position(spec)?),
        })
    }

    pub fn kind(&self) -> GameKind {
        match self {
            AnyGame::TicTacToe(_) => GameKind::TicTacToe,
            AnyGame::ConnectFour(_) => GameKind::ConnectFour,
        }
    }
}

/// Runs `$body` with `$game` bound to the concrete position inside an [`AnyGame`].
macro_rules! with_game {
    ($any:expr, $game:ident => $body:expr) => {
        match $any {
            $crate::api::AnyGame::TicTacToe($game) => $body,
            $crate::api::AnyGame::ConnectFour($game) => $body,
        }
    };
}
pub(crate) use with_game;

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

/// The position a request describes, refused if the game is already over: there is no move
/// to make in it.
fn playable_position<G: Game>(position: &request::PositionSpec) -> Result<G, Problem> {
    let game: G = position.position()?;
    if game.outcome().is_over() {
        let field = if position.board.is_some() {
            "board"
        } else {
            "moves"
        };
        return Err(Problem::invalid(
            field,
            format!(
                "the game is already over ({}): there is no move to make",
                match game.outcome() {
                    Outcome::Won(player) => format!("{player} has won"),
                    _ => "drawn".to_owned(),
                }
            ),
        ));
    }
    Ok(game)
}
