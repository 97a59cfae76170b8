//! The exact algorithms as searchers, and the choice among equally good moves.
//!
//! The exact algorithms search each root move on its own with the full window, so every
//! move's value is exact (a plain search only bounds the moves that do not improve on the
//! best). That costs more nodes, which is why tie-breaks other than `first` are opt-in.

use std::time::{Duration, Instant};

use rand::{RngExt, SeedableRng};

use super::alphabeta::{self, AlphaBeta, AlphaBetaParams, Enhancements};
use super::minimax::{self, Minimax};
use super::negamax::{self, Negamax};
use super::searcher::Searcher;
use super::{
    Analysis, Budget, Cutoff, INFINITY, MoveAnalysis, PROVEN, Score, SearchResult, SearchRng,
    Tiebreak, Value, depth_limit, exact_score, stopped_search_result,
};
use crate::game::{Game, Player};

/// An exact algorithm: its plain search, and every root move's exact value.
pub(super) trait Exact<G: Game> {
    /// The search as the tutorials teach it: the first best move in move order.
    fn search(&self, game: &G, budget: &Budget) -> SearchResult<G::Move>;
    /// Every move of `moves` (the root's) searched on its own.
    fn values(&self, game: &G, moves: &[G::Move], budget: &Budget) -> ExactValues<G::Move>;
}

/// Minimax, `depth` plies deep, scoring leaves with the game's evaluation `E`.
pub(super) struct MinimaxSearch<const E: u8> {
    pub depth: Option<u32>,
}

impl<G: Game, const E: u8> Exact<G> for MinimaxSearch<E> {
    fn search(&self, game: &G, budget: &Budget) -> SearchResult<G::Move> {
        minimax::search::<G, E>(game, self.depth, budget)
    }

    fn values(&self, game: &G, moves: &[G::Move], budget: &Budget) -> ExactValues<G::Move> {
        minimax_values::<G, E>(game, moves, self.depth, budget)
    }
}

/// Negamax, `depth` plies deep, scoring leaves with the game's evaluation `E`.
pub(super) struct NegamaxSearch<const E: u8> {
    pub depth: Option<u32>,
}

impl<G: Game, const E: u8> Exact<G> for NegamaxSearch<E> {
    fn search(&self, game: &G, budget: &Budget) -> SearchResult<G::Move> {
        negamax::search::<G, E>(game, self.depth, budget)
    }

    fn values(&self, game: &G, moves: &[G::Move], budget: &Budget) -> ExactValues<G::Move> {
        negamax_values::<G, E>(game, moves, self.depth, budget)
    }
}

/// Alphabeta with its enhancements.
pub(super) struct AlphaBetaSearch(pub AlphaBetaParams);

impl<G: Game> Exact<G> for AlphaBetaSearch {
    fn search(&self, game: &G, budget: &Budget) -> SearchResult<G::Move> {
        alphabeta::search(game, &self.0, budget)
    }

    fn values(&self, game: &G, moves: &[G::Move], budget: &Budget) -> ExactValues<G::Move> {
        alphabeta_values(game, moves, depth_limit(self.0.depth), &self.0, budget)
    }
}

/// An exact algorithm and how it chooses among equally good moves: a [`Searcher`].
pub(super) struct Tied<X> {
    exact: X,
    tiebreak: Tiebreak,
    seed: u64,
}

/// `exact`, breaking ties by `tiebreak` (drawing from `seed` when at random).
pub(super) fn with_tiebreak<X>(exact: X, tiebreak: Tiebreak, seed: u64) -> Tied<X> {
    Tied {
        exact,
        tiebreak,
        seed,
    }
}

impl<G: Game, X: Exact<G>> Searcher<G> for Tied<X> {
    fn best_move(&self, game: &G, budget: &Budget) -> SearchResult<G::Move> {
        match self.tiebreak {
            Tiebreak::First => self.exact.search(game, budget),
            tiebreak => choose_among_ties(game, &self.exact, tiebreak, self.seed, budget),
        }
    }

    fn every_move(&self, game: &G, budget: &Budget) -> Analysis<G::Move> {
        let moves: Vec<G::Move> = game.legal_moves().collect();
        let exact = self.exact.values(game, &moves, budget);
        let moves = exact
            .values
            .into_iter()
            .map(|value| {
                let score = exact_score(game, value.value, value.hit_horizon);
                let mut analysis = MoveAnalysis::new(value.mv, score, None);
                analysis.pv = value.line;
                (f64::from(value.value), analysis)
            })
            .collect();
        Analysis::ranked(moves, exact.nodes, exact.stopped_by)
    }
}

/// A root move's exact value, with the line it leads to.
pub(super) struct MoveValue<M> {
    pub mv: M,
    pub value: Value,
    pub hit_horizon: bool,
    pub line: Vec<M>,
}

pub(super) struct ExactValues<M> {
    /// The moves searched to the end (every move, unless a limit stopped the search).
    pub values: Vec<MoveValue<M>>,
    pub nodes: u64,
    pub stopped_by: Option<Cutoff>,
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
pub(super) fn alphabeta_values<G: Game>(
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
fn choose_among_ties<G: Game>(
    game: &G,
    exact: &impl Exact<G>,
    tiebreak: Tiebreak,
    seed: u64,
    budget: &Budget,
) -> SearchResult<G::Move> {
    let moves: Vec<G::Move> = game.legal_moves().collect();
    let ExactValues {
        values,
        mut nodes,
        stopped_by,
    } = exact.values(game, &moves, budget);
    let Some(best) = values.iter().map(|value| value.value).max() else {
        let cutoff = stopped_by.expect("only a stop leaves no move valued");
        return stopped_search_result(game, 0, nodes, Vec::new(), cutoff);
    };
    let ties: Vec<&MoveValue<G::Move>> =
        values.iter().filter(|value| value.value == best).collect();
    let chosen = match tiebreak {
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
        && values.len() < moves.len()
    {
        return stopped_search_result(game, chosen.value, nodes, chosen.line.clone(), cutoff);
    }
    let Score {
        score,
        exact,
        plies_to_end,
    } = exact_score(game, chosen.value, chosen.hit_horizon);
    SearchResult {
        best_move: chosen.mv,
        score,
        exact,
        plies_to_end,
        nodes,
        pv: chosen.line.clone(),
        depth: None,
        seldepth: None,
        margin: None,
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
