//! Every legal move with its value (`POST /analyze`), and the choice among equally good moves.
//!
//! The exact algorithms search each root move on its own with the full window, so every
//! move's value is exact (a plain search only bounds the moves that do not improve on the
//! best). That costs more nodes, which is why tie-breaks other than `first` are opt-in.

use std::time::{Duration, Instant};

use rand::{RngExt, SeedableRng};

use super::alphabeta::{AlphaBeta, AlphaBetaParams, Enhancements};
use super::default_solver::perfect_table;
use super::minimax::Minimax;
use super::negamax::Negamax;
use super::{
    Budget, Cutoff, INFINITY, PROVEN, SearchError, SearchResult, SearchRng, Solve, Strategy,
    Tiebreak, Value, depth_limit, judge, mcs, mcts, stopped_search_result, with_evaluation,
};
use crate::game::{Game, Player};

/// One legal move and what the algorithm thinks of it.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveAnalysis<M> {
    pub mv: M,
    /// The value of the position after the move, for the side to move before it.
    pub score: f64,
    pub exact: bool,
    pub plies_to_end: Option<u32>,
    /// For mcts: the simulations that went through the move.
    pub visits: Option<u32>,
    /// The line the move leads to, starting with it, for the searches that have one.
    pub pv: Vec<M>,
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

/// Analyses every legal move of `game` with `strategy`.
pub fn analyze<G: Solve>(
    game: &G,
    strategy: &Strategy,
    seed: u64,
) -> Result<Analysis<G::Move>, SearchError> {
    analyze_within(game, strategy, seed, &Budget::unlimited())
}

/// [`analyze`], stopping early if `budget` runs out.
pub fn analyze_within<G: Solve>(
    game: &G,
    strategy: &Strategy,
    seed: u64,
    budget: &Budget,
) -> Result<Analysis<G::Move>, SearchError> {
    if game.outcome().is_over() {
        return Err(SearchError::GameOver);
    }
    let started = Instant::now();
    if let Strategy::Engine(params) = *strategy {
        let mut analysis = game.engine_analysis(&params, budget);
        analysis.elapsed = started.elapsed();
        return Ok(analysis);
    }
    // Each move with a sort key (higher is better) and its analysis.
    let (mut moves, nodes, stopped_by): (Vec<Ranked<G::Move>>, u64, _) = match *strategy {
        Strategy::Random => (
            game.legal_moves()
                .map(|mv| (0.0, analysis(mv, (0.0, false, None), None)))
                .collect(),
            1,
            None,
        ),
        Strategy::Mcs {
            playouts,
            time_limit,
        } => {
            let sample = mcs::sample(game, playouts, time_limit, seed, budget);
            let moves = sample
                .arms
                .iter()
                .map(|arm| {
                    (
                        arm.total as f64,
                        analysis(arm.mv, arm.judge(sample.rounds), None),
                    )
                })
                .collect();
            (moves, sample.nodes, sample.stopped_by)
        }
        Strategy::Mcts(params) => {
            let grown = mcts::grow(game, &params, seed, budget);
            let moves = grown
                .tree
                .root_children()
                .iter()
                .map(|child| {
                    (
                        f64::from(child.visits),
                        analysis(child.mv, child.judge(), Some(child.visits)),
                    )
                })
                .collect();
            (moves, grown.nodes, grown.stopped_by)
        }
        _ => {
            let exact = exact_values(game, strategy, budget);
            let moves = exact
                .values
                .iter()
                .map(|value| {
                    let judgement = judge(game, value.value, value.hit_horizon);
                    let mut analysis = analysis(value.mv, judgement, None);
                    analysis.pv = value.line.clone();
                    (f64::from(value.value), analysis)
                })
                .collect();
            (moves, exact.nodes, exact.stopped_by)
        }
    };
    // Stable: equally good moves keep the game's move order.
    moves.sort_by(|a, b| b.0.total_cmp(&a.0));
    Ok(Analysis {
        moves: moves.into_iter().map(|(_, analysis)| analysis).collect(),
        nodes,
        elapsed: started.elapsed(),
        stopped_by,
    })
}

/// Every legal move of a game in progress valued by an exact algorithm, best first.
pub(super) fn exact_analysis<G: Solve>(
    game: &G,
    strategy: &Strategy,
    budget: &Budget,
) -> Analysis<G::Move> {
    analyze_within(game, strategy, 0, budget).unwrap_or(Analysis {
        moves: Vec::new(),
        nodes: 0,
        elapsed: Duration::ZERO,
        stopped_by: None,
    })
}

/// A move's analysis with the key it is sorted by, higher first.
type Ranked<M> = (f64, MoveAnalysis<M>);

fn analysis<M>(
    mv: M,
    (score, exact, plies_to_end): (f64, bool, Option<u32>),
    visits: Option<u32>,
) -> MoveAnalysis<M> {
    MoveAnalysis {
        mv,
        score,
        exact,
        plies_to_end,
        visits,
        pv: Vec::new(),
    }
}

/// A root move's exact value, with the line it leads to.
struct MoveValue<M> {
    mv: M,
    value: Value,
    hit_horizon: bool,
    line: Vec<M>,
}

struct ExactValues<M> {
    /// The moves searched to the end (every move, unless a limit stopped the search).
    values: Vec<MoveValue<M>>,
    nodes: u64,
    stopped_by: Option<Cutoff>,
}

/// Searches every root move with the exact algorithm of `strategy`.
fn exact_values<G: Solve>(game: &G, strategy: &Strategy, budget: &Budget) -> ExactValues<G::Move> {
    let moves: Vec<G::Move> = game.legal_moves().collect();
    match *strategy {
        Strategy::Minimax {
            depth, evaluation, ..
        } => with_evaluation!(evaluation, E => minimax_values::<G, E>(game, &moves, depth, budget)),
        Strategy::Negamax {
            depth, evaluation, ..
        } => with_evaluation!(evaluation, E => negamax_values::<G, E>(game, &moves, depth, budget)),
        Strategy::AlphaBeta(params, _) => {
            alphabeta_values(game, &moves, depth_limit(params.depth), &params, budget)
        }
        Strategy::Solver { time_limit, .. } => match perfect_table::<G>() {
            Some(table) => {
                let values = moves
                    .iter()
                    .map(|&mv| {
                        let child = game.play(mv);
                        let value = -table.value(&child, 1);
                        let mut line = vec![mv];
                        if !child.outcome().is_over() {
                            line.extend(child.solve(None, &Budget::unlimited()).pv);
                        }
                        MoveValue {
                            mv,
                            value,
                            hit_horizon: false,
                            line,
                        }
                    })
                    .collect();
                // One table lookup per move, and the root's.
                ExactValues {
                    values,
                    nodes: 1 + moves.len() as u64,
                    stopped_by: None,
                }
            }
            None => alphabeta_values(
                game,
                &moves,
                u32::MAX,
                &AlphaBetaParams::strongest(time_limit),
                budget,
            ),
        },
        Strategy::Random | Strategy::Mcs { .. } | Strategy::Mcts(_) | Strategy::Engine(_) => {
            unreachable!("only exact algorithms have exact values")
        }
    }
}

/// Every root move's value by minimax, `depth` plies deep.
fn minimax_values<G: Game, const E: u8>(
    game: &G,
    moves: &[G::Move],
    depth: Option<u32>,
    budget: &Budget,
) -> ExactValues<G::Move> {
    let depth = depth_limit(depth);
    let mut searcher = Minimax::<G, E>::new(G::MAX_PLIES, budget);
    searcher.nodes = 1;
    let x_to_move = game.side_to_move() == Player::X;
    let mut values = Vec::with_capacity(moves.len());
    for &mv in moves {
        let child = game.play(mv);
        searcher.hit_horizon = false;
        let value = searcher.value(&child, depth - 1, 1, !x_to_move);
        if searcher.meter.is_stopped() {
            break;
        }
        let value = if x_to_move { value } else { -value };
        values.push(MoveValue {
            mv,
            value,
            hit_horizon: searcher.hit_horizon,
            line: line(mv, searcher.line(1)),
        });
    }
    ExactValues {
        values,
        nodes: searcher.nodes,
        stopped_by: searcher.meter.stopped_by,
    }
}

/// Every root move's value by negamax, `depth` plies deep.
fn negamax_values<G: Game, const E: u8>(
    game: &G,
    moves: &[G::Move],
    depth: Option<u32>,
    budget: &Budget,
) -> ExactValues<G::Move> {
    let depth = depth_limit(depth);
    let mut searcher = Negamax::<G, E>::new(G::MAX_PLIES, budget);
    searcher.nodes = 1;
    let mut values = Vec::with_capacity(moves.len());
    for &mv in moves {
        searcher.hit_horizon = false;
        let value = -searcher.value(&game.play(mv), depth - 1, 1);
        if searcher.meter.is_stopped() {
            break;
        }
        values.push(MoveValue {
            mv,
            value,
            hit_horizon: searcher.hit_horizon,
            line: line(mv, searcher.line(1)),
        });
    }
    ExactValues {
        values,
        nodes: searcher.nodes,
        stopped_by: searcher.meter.stopped_by,
    }
}

/// Every root move's value by alphabeta; with a time limit, deepening iteratively over all
/// moves together, the last complete iteration counting.
fn alphabeta_values<G: Game>(
    game: &G,
    moves: &[G::Move],
    limit: u32,
    params: &AlphaBetaParams,
    budget: &Budget,
) -> ExactValues<G::Move> {
    let time_limit = params.time_limit;
    let mut searcher = AlphaBeta::<G>::new(game, params.enhancements, budget)
        .evaluating(super::evaluation(params.evaluation));
    searcher.nodes = 1;
    let remaining = game.plies_left() as u32;
    let deadline = time_limit.map(|limit| Instant::now() + limit);
    let first_depth = if deadline.is_some() { 1 } else { limit };
    let deepest = limit.min(remaining).max(first_depth);
    let mut completed = Vec::new();
    let mut stopped_by = None;
    for depth in first_depth..=deepest {
        searcher.set_time_limit(if depth > 1 { deadline } else { None });
        let mut values = Vec::with_capacity(moves.len());
        let mut all_complete = true;
        for &mv in moves {
            searcher.hit_horizon = false;
            let value = -searcher.value(&game.play(mv), depth - 1, 1, -INFINITY, INFINITY);
            if searcher.stopped_by().is_some() {
                break;
            }
            all_complete &= !searcher.hit_horizon;
            values.push(MoveValue {
                mv,
                value,
                hit_horizon: searcher.hit_horizon,
                line: line(mv, searcher.line(1)),
            });
        }
        if let Some(cutoff) = searcher.stopped_by() {
            stopped_by = Some(cutoff);
            // With nothing complete yet, the moves that were: better than none.
            if completed.is_empty() {
                completed = values;
            }
            break;
        }
        completed = values;
        if all_complete {
            break;
        }
        if depth < deepest && deadline.is_some_and(|deadline| Instant::now() >= deadline) {
            stopped_by = Some(Cutoff::TimeLimit);
            break;
        }
    }
    ExactValues {
        values: completed,
        nodes: searcher.nodes,
        stopped_by,
    }
}

fn line<M: Copy>(mv: M, rest: Vec<M>) -> Vec<M> {
    let mut line = Vec::with_capacity(rest.len() + 1);
    line.push(mv);
    line.extend(rest);
    line
}

/// The move an exact algorithm plays when its tie-break is not `first`: every move is valued
/// exactly, and among the best the tie-break chooses.
pub(super) fn choose_among_ties<G: Solve>(
    game: &G,
    strategy: &Strategy,
    seed: u64,
    budget: &Budget,
) -> SearchResult<G::Move> {
    let ExactValues {
        values,
        mut nodes,
        stopped_by,
    } = exact_values(game, strategy, budget);
    let Some(best) = values.iter().map(|value| value.value).max() else {
        let cutoff = stopped_by.expect("only a stop leaves no move valued");
        return stopped_search_result(game, 0, nodes, Vec::new(), cutoff);
    };
    let ties: Vec<&MoveValue<G::Move>> =
        values.iter().filter(|value| value.value == best).collect();
    let chosen = match strategy.tiebreak() {
        Tiebreak::First => ties[0],
        Tiebreak::Random => {
            let mut rng = SearchRng::seed_from_u64(seed);
            ties[rng.random_range(0..ties.len() as u32) as usize]
        }
        Tiebreak::Traps => {
            let mut searcher = AlphaBeta::<G>::new(game, Enhancements::ALL, budget);
            let mut most = ties[0];
            let mut most_traps = None;
            for &tie in &ties {
                let traps = count_traps(game, tie.mv, &mut searcher);
                if most_traps.is_none_or(|most| traps > most) {
                    most = tie;
                    most_traps = Some(traps);
                }
            }
            nodes += searcher.nodes;
            most
        }
    };
    // Stopped before every move had a value: the best of those that have one is only a bound.
    if let Some(cutoff) = stopped_by
        && values.len() < game.legal_moves().count()
    {
        return stopped_search_result(game, chosen.value, nodes, chosen.line.clone(), cutoff);
    }
    let (score, exact, plies_to_end) = judge(game, chosen.value, chosen.hit_horizon);
    SearchResult {
        best_move: chosen.mv,
        score,
        exact,
        plies_to_end,
        nodes,
        pv: chosen.line.clone(),
        depth: None,
        elapsed: Duration::ZERO,
        stopped_by,
    }
}

/// The opponent's replies to `mv` that lose for them: after which the side to move at the root
/// has a proven win.
fn count_traps<G: Game>(game: &G, mv: G::Move, searcher: &mut AlphaBeta<G>) -> usize {
    let child = game.play(mv);
    child
        .legal_moves()
        .filter(|&reply| {
            let position = child.play(reply);
            searcher.value(&position, u32::MAX, 2, -INFINITY, INFINITY) >= PROVEN
        })
        .count()
}
