//! The contract a game's strongest play fulfils: its solver and its engine, by default built
//! from the searches here, or written in the game's folder.

use std::time::Duration;

use super::dispatch::dispatch;
use super::searcher::{BestMove, EveryMove};
use super::{
    AlphaBetaParams, Analysis, Budget, EngineParams, SearchResult, Strategy, analysis,
    default_solver,
};
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
        analysis::solver_analysis(self, time_limit, budget)
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
            Some(strategy) => dispatch(&strategy, 0, BestMove(self, budget)),
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
            Some(strategy) => dispatch(&strategy, 0, EveryMove(self, budget)),
            None => self.solver_analysis(params.time_limit, budget),
        }
    }
}

/// The default engine's search when `params` limit its depth: alphabeta with every
/// enhancement, that deep.
fn depth_limited(params: &EngineParams) -> Option<Strategy> {
    let depth = params.depth?;
    Some(Strategy::alphabeta(AlphaBetaParams {
        depth: Some(depth),
        ..AlphaBetaParams::strongest(params.time_limit)
    }))
}
