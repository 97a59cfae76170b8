//! The one dispatcher from a [`Strategy`] to its algorithm, for `/move` and `/analyze` alike.
//!
//! [`dispatch`] builds the [`Searcher`] a strategy names (minimax and negamax compiled for the
//! evaluation it names) from the strategy's settings, and hands it to the question asked, so
//! that adding an algorithm is one arm here.

use super::exact::{AlphaBetaSearch, MinimaxSearch, NegamaxSearch, Tied, with_tiebreak};
use super::searcher::{Ask, Searcher};
use super::solve::SolverSearch;
use super::{
    Algorithm, Analysis, Budget, EngineParams, SearchResult, Solve, Strategy, alphazero, mcs, mcts,
    random, with_evaluation,
};

/// Asks `question` of the algorithm `strategy` names, drawing from `seed`.
pub(super) fn dispatch<G: Solve, A: Ask<G>>(
    strategy: &Strategy,
    seed: u64,
    question: A,
) -> A::Answer {
    let Strategy {
        depth,
        time_limit,
        tiebreak,
        evaluation,
        ..
    } = *strategy;
    let evaluation = evaluation.unwrap_or(0);
    match strategy.algorithm {
        Algorithm::Random => question.ask(&random::Random { seed }),
        Algorithm::Minimax => with_evaluation!(evaluation, E => question.ask(&with_tiebreak(
            MinimaxSearch::<E> { depth },
            tiebreak,
            seed
        ))),
        Algorithm::Negamax => with_evaluation!(evaluation, E => question.ask(&with_tiebreak(
            NegamaxSearch::<E> { depth },
            tiebreak,
            seed
        ))),
        Algorithm::AlphaBeta => question.ask(&with_tiebreak(
            AlphaBetaSearch(strategy.alphabeta_params()),
            tiebreak,
            seed,
        )),
        Algorithm::Solver => question.ask(&Solver {
            exact: with_tiebreak(SolverSearch { time_limit }, tiebreak, seed),
            time_limit,
        }),
        Algorithm::Mcs => question.ask(&mcs::Mcs {
            playouts: strategy.playouts,
            time_limit,
            seed,
        }),
        Algorithm::Mcts => question.ask(&mcts::Mcts {
            params: strategy.mcts,
            time_limit,
            seed,
        }),
        Algorithm::AlphaZero => question.ask(&alphazero::AlphaZero {
            params: strategy.alphazero.clone(),
            time_limit,
            seed,
        }),
        Algorithm::Engine => question.ask(&Engine(strategy.engine_params())),
    }
}

/// The game's solver: its move as its tie-break chooses it, every move as the game's
/// [`Solve::solver_analysis`] values them.
struct Solver {
    exact: Tied<SolverSearch>,
    time_limit: Option<std::time::Duration>,
}

impl<G: Solve> Searcher<G> for Solver {
    fn best_move(&self, game: &G, budget: &Budget) -> SearchResult<G::Move> {
        self.exact.best_move(game, budget)
    }

    fn every_move(&self, game: &G, budget: &Budget) -> Analysis<G::Move> {
        game.solver_analysis(self.time_limit, budget)
    }
}

/// The game's own engine ([`Solve::engine`]).
struct Engine(EngineParams);

impl<G: Solve> Searcher<G> for Engine {
    fn best_move(&self, game: &G, budget: &Budget) -> SearchResult<G::Move> {
        game.engine(&self.0, budget)
    }

    fn every_move(&self, game: &G, budget: &Budget) -> Analysis<G::Move> {
        game.engine_analysis(&self.0, budget)
    }
}
