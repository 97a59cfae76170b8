//! `GET /games` and `GET /algorithms`: what the service offers.

use serde::Serialize;

use super::GameKind;
use super::knobs::{self, Knob};
use crate::game::{ConnectFour, Game, TicTacToe};
use crate::search::Algorithm;

#[derive(Clone, Debug, Serialize)]
pub struct GameInfo {
    pub name: &'static str,
    pub rows: usize,
    pub columns: usize,
    /// How a move is numbered.
    pub moves: &'static str,
    /// How a board is written.
    pub board: &'static str,
    /// The empty board, in text form.
    pub start: String,
    /// Games a tournament plays when its request does not say.
    pub tournament_games: u64,
}

pub fn games() -> Vec<GameInfo> {
    GameKind::ALL
        .into_iter()
        .map(|game| match game {
            GameKind::TicTacToe => GameInfo {
                name: game.name(),
                rows: TicTacToe::ROWS,
                columns: TicTacToe::COLUMNS,
                moves: "a cell index 0..8, row-major from the top-left (row = move / 3, col = move % 3)",
                board: "9 cells row-major: X or x, O or o, and '.', '-' or '_' for empty; rows may \
                        be separated by '/' or line breaks, and then each has 3 cells. Or an array \
                        of cells (flat, or 3 rows of 3), each \"X\", \"O\", \"\" or null.",
                start: TicTacToe::start().to_string(),
                tournament_games: super::match_play::default_games(game),
            },
            GameKind::ConnectFour => GameInfo {
                name: game.name(),
                rows: ConnectFour::ROWS,
                columns: ConnectFour::COLUMNS,
                moves: "a column 0..6, left to right; the disc falls to the lowest free cell, \
                        and the answer's row is where it landed (0 = bottom)",
                board: "6 rows of 7 cells, top row first: X or x, O or o, and '.', '-' or '_' \
                        for empty; rows may be separated by '/' or line breaks, and then each \
                        has 7 cells. Or an array of cells (flat, or 6 rows of 7), each \"X\", \
                        \"O\", \"\" or null.",
                start: ConnectFour::start().to_string(),
                tournament_games: super::match_play::default_games(game),
            },
        })
        .collect()
}

#[derive(Clone, Debug, Serialize)]
pub struct AlgorithmInfo {
    pub name: &'static str,
    /// The game whose defaults and limits the knobs give.
    pub game: &'static str,
    pub description: &'static str,
    pub randomized: bool,
    pub knobs: Vec<Knob>,
}

/// The algorithms, with their knobs' defaults and limits on `game`.
pub fn algorithms(game: GameKind) -> Vec<AlgorithmInfo> {
    Algorithm::ALL
        .into_iter()
        .map(|algorithm| AlgorithmInfo {
            name: algorithm.name(),
            game: game.name(),
            description: knobs::description(algorithm),
            randomized: crate::search::Strategy::with_defaults(algorithm).is_randomized(),
            knobs: knobs::knobs(algorithm, game),
        })
        .collect()
}
