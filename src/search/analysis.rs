//! Every legal move with its value (`POST /analyze`): what every algorithm answers when asked
//! for each move's.

use std::time::Duration;

use super::{Cutoff, Score};

/// One legal move and what the algorithm thinks of it.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveAnalysis<M> {
    pub mv: M,
    /// The value of the position after the move, for the side to move before it.
    pub score: f64,
    pub exact: bool,
    pub plies_to_end: Option<u32>,
    /// For mcts and alphazero: the simulations that went through the move.
    pub visits: Option<u32>,
    /// For alphazero: the network's prior for the move.
    pub prior: Option<f32>,
    /// For alphazero: the network's value of the position after the move, for the side that
    /// plays it; `None` when the search never reached it, or it ends the game.
    pub value: Option<f32>,
    /// The line the move leads to, starting with it, for the searches that have one.
    pub pv: Vec<M>,
    /// For games scored by their discs (Othello): the proven final disc difference after the
    /// move, for the side to move before it.
    pub margin: Option<i32>,
    /// The depth the move was valued at, for analyses that deepen line by line (the chess
    /// engine's).
    pub depth: Option<u32>,
}

impl<M> MoveAnalysis<M> {
    /// `mv`, scored so, without a line.
    pub(crate) fn new(
        mv: M,
        Score {
            score,
            exact,
            plies_to_end,
        }: Score,
        visits: Option<u32>,
    ) -> Self {
        MoveAnalysis {
            mv,
            score,
            exact,
            plies_to_end,
            visits,
            prior: None,
            value: None,
            pv: Vec::new(),
            margin: None,
            depth: None,
        }
    }
}

/// Every legal move, best first.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis<M> {
    /// Every legal move; when a limit stopped an exact analysis, only the moves it completed.
    pub moves: Vec<MoveAnalysis<M>>,
    pub nodes: u64,
    pub elapsed: Duration,
    pub stopped_by: Option<Cutoff>,
}

impl<M> Analysis<M> {
    /// The moves ranked by their keys, higher first; equally good moves keep the game's move
    /// order.
    pub(super) fn ranked(
        mut moves: Vec<(f64, MoveAnalysis<M>)>,
        nodes: u64,
        stopped_by: Option<Cutoff>,
    ) -> Self {
        moves.sort_by(|a, b| b.0.total_cmp(&a.0));
        Analysis {
            moves: moves.into_iter().map(|(_, analysis)| analysis).collect(),
            nodes,
            elapsed: Duration::ZERO,
            stopped_by,
        }
    }
}
