//! What a search answers: the move, its [`Score`], what it cost; and how an exact search's
//! values become one.

use std::time::Duration;

use super::budget::Cutoff;
use super::value::{PROVEN, Value, WIN, evaluation, heuristic, terminal_value};
use crate::game::{Game, Turn};

/// What a search says of a position or a move, for the side to move: +1 win, 0 draw, -1 loss
/// when `exact`; heuristic or sampled values lie strictly inside (-1, 1).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Score {
    pub score: f64,
    /// Whether `score` is proven.
    pub exact: bool,
    /// For a proven score, the plies until the game ends under perfect play.
    pub plies_to_end: Option<u32>,
}

impl Score {
    /// A proven score, with the plies to the end where the game says them.
    pub fn proven(score: f64, plies_to_end: Option<u32>) -> Score {
        Score {
            score,
            exact: true,
            plies_to_end,
        }
    }

    /// An estimate: heuristic or sampled.
    pub fn estimate(score: f64) -> Score {
        Score {
            score,
            exact: false,
            plies_to_end: None,
        }
    }

    /// What a game engine's search value says (the chess and shogi engines', in centipawns):
    /// a proven result and the plies to the end when it is a mate score (within
    /// [`PROVEN`]'s distance of [`WIN`]), else the winning chances `chances` gives it.
    pub(crate) fn of_engine_value(value: Value, chances: fn(Value) -> f64) -> Score {
        if value.abs() >= PROVEN {
            Score::proven(f64::from(value.signum()), Some((WIN - value.abs()) as u32))
        } else {
            Score::estimate(chances(value))
        }
    }
}

/// What a search found and what it cost.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult<M> {
    /// The chosen move: the first best one in move order.
    pub best_move: M,
    /// The value of the position for the side to move: +1 win, 0 draw, -1 loss when `exact`;
    /// heuristic or sampled values lie strictly inside (-1, 1).
    pub score: f64,
    /// Whether `score` is proven.
    pub exact: bool,
    /// For a proven result, the plies until the game ends under perfect play: the fastest win,
    /// the slowest loss; a draw lasts until the board is full.
    pub plies_to_end: Option<u32>,
    /// Game states visited or created, the root included.
    pub nodes: u64,
    /// The principal variation from the root, starting with `best_move`; empty when the
    /// algorithm has none.
    pub pv: Vec<M>,
    /// The depth of the last completed iteration, for the deepening searches.
    pub depth: Option<u32>,
    /// The deepest ply the search reached, quiescence and extensions included (the chess
    /// engine's).
    pub seldepth: Option<u32>,
    /// For games scored by their discs (Othello), a proven result's final disc difference for
    /// the side to move under perfect play, the empty squares going to the winner.
    pub margin: Option<i32>,
    pub elapsed: Duration,
    /// Set when a limit stopped the search before it finished what it was asked: the result
    /// is then the best it had completed, exact only if that part proved it.
    pub stopped_by: Option<Cutoff>,
}

/// Why no search was run, or why it gave no answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SearchError {
    #[error("the game is already over: there is no move to search")]
    GameOver,
    /// The search panicked: a fault of Sente's (or of a rules crate's), caught so that it is an
    /// answer rather than a dead thread.
    #[error("the search failed: {0}")]
    Failed(String),
}

/// What a caught panic said.
pub fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|text| (*text).to_owned())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".to_owned())
}

/// What an exact search's value says, for the API.
pub(crate) fn exact_score<G: Game>(game: &G, value: Value, hit_horizon: bool) -> Score {
    if value.abs() >= PROVEN {
        // A heuristic leaf never produces a proven value, so a proven win or loss stands even
        // when the horizon was reached.
        let plies = (WIN - value.abs()) as u32;
        Score::proven(f64::from(value.signum()), Some(plies))
    } else if !hit_horizon {
        // Searched to the end and neither side wins: a draw, as long as the rules make it.
        Score::proven(0.0, game.draw_length().map(|plies| plies as u32))
    } else {
        Score::estimate(f64::from(value) / f64::from(WIN))
    }
}

/// The outcome of a fixed-depth exact search, turned into a result.
pub(crate) fn exact_search_result<G: Game>(
    game: &G,
    value: Value,
    hit_horizon: bool,
    nodes: u64,
    pv: Vec<G::Move>,
) -> SearchResult<G::Move> {
    let Score {
        score,
        exact,
        plies_to_end,
    } = exact_score(game, value, hit_horizon);
    SearchResult {
        best_move: pv[0],
        score,
        exact,
        plies_to_end,
        nodes,
        pv,
        depth: None,
        seldepth: None,
        margin: None,
        elapsed: Duration::ZERO,
        stopped_by: None,
    }
}

/// The outcome of a fixed-depth search: exact as far as it looked, or, if a limit stopped it,
/// the best of what it completed.
pub(crate) fn fixed_depth_result<G: Game>(
    game: &G,
    value: Value,
    hit_horizon: bool,
    nodes: u64,
    pv: Vec<G::Move>,
    stopped_by: Option<Cutoff>,
) -> SearchResult<G::Move> {
    match stopped_by {
        Some(cutoff) => stopped_search_result(game, value, nodes, pv, cutoff),
        None => exact_search_result(game, value, hit_horizon, nodes, pv),
    }
}

/// The answer of a fixed-depth search that a limit stopped: the best of the root moves it
/// searched to the end, with their line; or, when it had not finished one, the best move by a
/// one-ply look (one node per move, never stopped), so that there is always a move.
///
/// The value is only a bound (the moves not searched might be better), so it is not exact.
pub(crate) fn stopped_search_result<G: Game>(
    game: &G,
    value: Value,
    nodes: u64,
    pv: Vec<G::Move>,
    stopped_by: Cutoff,
) -> SearchResult<G::Move> {
    let (value, nodes, pv) = if pv.is_empty() {
        let (value, looked, best) = one_ply_look(game);
        (value, nodes + looked, vec![best])
    } else {
        (value, nodes, pv)
    };
    SearchResult {
        best_move: pv[0],
        score: f64::from(value) / f64::from(WIN),
        exact: false,
        plies_to_end: None,
        nodes,
        pv,
        depth: None,
        seldepth: None,
        margin: None,
        elapsed: Duration::ZERO,
        stopped_by: Some(stopped_by),
    }
}

/// Negamax one ply deep, as the tutorial writes it: each move's position valued by its outcome
/// or the game's first evaluation, the first best move kept; its value, its nodes (the root and
/// each move's) and its move.
fn one_ply_look<G: Game>(game: &G) -> (Value, u64, G::Move) {
    let Turn::Moves(moves) = game.turn() else {
        unreachable!("a stopped search was searching a game in progress")
    };
    let evaluate = evaluation::<G>(0);
    let mut best: Option<(Value, G::Move)> = None;
    let mut nodes = 1;
    let mut child = game.clone();
    for mv in moves {
        game.play_into(mv, &mut child);
        nodes += 1;
        let outcome = child.outcome();
        let value = -if outcome.is_over() {
            terminal_value(outcome, child.side_to_move(), 1)
        } else {
            heuristic(&child, evaluate)
        };
        if best.is_none_or(|(best, _)| value > best) {
            best = Some((value, mv));
        }
    }
    let (value, mv) = best.expect("a game in progress has a move");
    (value, nodes, mv)
}
