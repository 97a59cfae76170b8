//! `POST /analyze`: every legal move with its score, best first.

use serde::Serialize;

use super::Problem;
use crate::game::Notation;
use crate::search::{self, Algorithm, Budget, Solve, Strategy};

/// The answer to an analysis request.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AnalyzeResponse {
    pub game: &'static str,
    pub algorithm: Algorithm,
    /// The seed used, for randomised algorithms.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    pub nodes: u64,
    pub elapsed_us: u64,
    /// Why the analysis stopped early, if it did (as in the answer to `/move`); an exact
    /// algorithm stopped before valuing every move lists only those it valued.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped_by: Option<&'static str>,
    /// Every legal move, best first (most visited first for mcts).
    pub moves: Vec<MoveScore>,
}

/// One legal move and its value for the side to move.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MoveScore {
    #[serde(rename = "move")]
    pub mv: Notation,
    /// The move in the notation players write, for games that have one (chess's SAN).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub san: Option<String>,
    pub row: usize,
    pub col: usize,
    pub score: f64,
    pub exact: bool,
    pub plies_to_end: Option<u32>,
    /// As in the answer to `/move`: centipawns, or moves to mate, for games counted in pawns.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cp: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mate: Option<i32>,
    /// The line the move leads to, starting with it, for the searches that have one.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub pv: Vec<Notation>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pv_san: Option<Vec<String>>,
    /// Simulations through the move, for mcts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub visits: Option<u32>,
}

/// Values every legal move of `game`, and shapes the answer.
pub(super) fn run<G: Solve>(
    game: &G,
    strategy: &Strategy,
    seed: u64,
    budget: &Budget,
) -> Result<AnalyzeResponse, Problem> {
    let analysis = search::analyze_within(game, strategy, seed, budget)
        .map_err(|error| Problem::invalid("board", error.to_string()))?;
    Ok(AnalyzeResponse {
        game: G::NAME,
        algorithm: strategy.algorithm(),
        seed: strategy.is_randomized().then_some(seed),
        nodes: analysis.nodes,
        elapsed_us: analysis.elapsed.as_micros() as u64,
        stopped_by: analysis.stopped_by.map(|cutoff| cutoff.name()),
        moves: analysis
            .moves
            .iter()
            .map(|entry| {
                let (row, col) = game.move_cell(entry.mv);
                let (cp, mate) =
                    super::score::in_pawns::<G>(entry.score, entry.exact, entry.plies_to_end);
                MoveScore {
                    mv: game.notation(entry.mv),
                    san: game.san(entry.mv),
                    row,
                    col,
                    score: entry.score,
                    exact: entry.exact,
                    plies_to_end: entry.plies_to_end,
                    cp,
                    mate,
                    pv: super::choose_move::line_notation(game, &entry.pv),
                    pv_san: (!entry.pv.is_empty())
                        .then(|| super::choose_move::line_san(game, &entry.pv))
                        .flatten(),
                    visits: entry.visits,
                }
            })
            .collect(),
    })
}
