//! The contract a game's strongest play fulfils: its solver and its engine, by default built
//! from the searches below this file (the exact searches, the perfect table), or written in
//! the game's folder; and the solver as an exact searcher, whose values the table gives.

use std::time::{Duration, Instant};

use super::default_solver::{self, perfect_table};
use super::exact::{
    AlphaBetaSearch, Exact, ExactValues, MoveValue, Tied, alphabeta_values, with_tiebreak,
};
use super::searcher::Searcher;
use super::{AlphaBetaParams, Analysis, Budget, EngineParams, SearchResult, Tiebreak};
use crate::game::Game;
use crate::search::Algorithm;
use crate::search::record::{Chance, Record, Stops};

/// The `solver` algorithm's record.
pub(super) const RECORD: Record = Record {
    algorithm: Algorithm::Solver,
    name: "solver",
    description: "The strongest exact play the game has: for a game small enough, a perfect table of \
                  every position built at start-up from the exact search, answering in constant \
                  time (nodes: 1, the lookup); a solver of the game's own where it has one; else \
                  alphabeta with every enhancement, deepening within the time limit.",
    stops: Stops::Deepening,
    breaks_ties: true,
    depth_limited: false,
    chance: Chance::TieBreak,
    samples: None,
};

/// A game's `solver`: the strongest exact play it has.
///
/// By default a perfect table for games small enough to enumerate, else alphabeta with every
/// enhancement, deepening within the time limit. A game with a solver of its own implements
/// it in its folder, beside its rules.
pub trait Solve: Game {
    /// What the engine keeps from one search to the next among positions of one game (its
    /// transposition table, its histories), where it keeps anything: `()` for an engine that
    /// starts afresh every time.
    type Memory: Default + Send;

    fn solve(&self, time_limit: Option<Duration>, budget: &Budget) -> SearchResult<Self::Move> {
        default_solver::search(self, time_limit, budget)
    }

    /// Every legal move valued by the solver, best first; by default the exact values of the
    /// search [`Solve::solve`] runs.
    fn solver_analysis(
        &self,
        time_limit: Option<Duration>,
        budget: &Budget,
    ) -> Analysis<Self::Move> {
        solver_analysis(self, time_limit, budget)
    }

    /// Computes now what the solver builds once (a perfect table, a large transposition
    /// table), so that no request waits for it.
    fn warm_up() {
        default_solver::warm_up::<Self>();
    }

    /// The `engine` algorithm: the strongest player the game has within `params`; by default
    /// its solver, or alphabeta with every enhancement when the depth is limited.
    fn engine(&self, params: &EngineParams, budget: &Budget) -> SearchResult<Self::Move> {
        match depth_limited(params) {
            Some(alphabeta) => alphabeta.best_move(self, budget),
            None => self.solve(params.time_limit, budget),
        }
    }

    /// [`Solve::engine`], with `memory` from the searches before it of neighbouring positions
    /// of the same game (a review's), which it then keeps: what they found of the positions
    /// ahead is found again at once. By default the engine as it is, remembering nothing.
    fn engine_remembering(
        &self,
        params: &EngineParams,
        budget: &Budget,
        memory: &mut Self::Memory,
    ) -> SearchResult<Self::Move> {
        let _ = memory;
        self.engine(params, budget)
    }

    /// Every legal move valued by the engine; by default the solver's (as [`Solve::engine`]
    /// searches).
    fn engine_analysis(&self, params: &EngineParams, budget: &Budget) -> Analysis<Self::Move> {
        match depth_limited(params) {
            Some(alphabeta) => alphabeta.every_move(self, budget),
            None => self.solver_analysis(params.time_limit, budget),
        }
    }
}

/// The default engine's search when `params` limit its depth: alphabeta with every
/// enhancement, that deep, the first of equally good moves.
fn depth_limited(params: &EngineParams) -> Option<Tied<AlphaBetaSearch>> {
    let depth = params.depth?;
    let alphabeta = AlphaBetaSearch(AlphaBetaParams {
        depth: Some(depth),
        ..AlphaBetaParams::strongest(params.time_limit)
    });
    Some(with_tiebreak(alphabeta, Tiebreak::First, 0))
}

/// The game's solver ([`Solve::solve`]); its values from the perfect table where the game has
/// one, else from alphabeta with every enhancement.
pub(super) struct SolverSearch {
    pub time_limit: Option<Duration>,
}

impl<G: Solve> Exact<G> for SolverSearch {
    fn search(&self, game: &G, budget: &Budget) -> SearchResult<G::Move> {
        game.solve(self.time_limit, budget)
    }

    fn values(&self, game: &G, moves: &[G::Move], budget: &Budget) -> ExactValues<G::Move> {
        let Some(table) = perfect_table::<G>() else {
            let strongest = AlphaBetaParams::strongest(self.time_limit);
            return alphabeta_values(game, moves, u32::MAX, &strongest, budget);
        };
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
}

/// Every legal move of a game in progress valued by its solver, best first.
fn solver_analysis<G: Solve>(
    game: &G,
    time_limit: Option<Duration>,
    budget: &Budget,
) -> Analysis<G::Move> {
    let started = Instant::now();
    let solver = with_tiebreak(SolverSearch { time_limit }, Tiebreak::First, 0);
    let mut analysis = solver.every_move(game, budget);
    analysis.elapsed = started.elapsed();
    analysis
}
