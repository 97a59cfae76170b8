//! The one dispatcher from a [`Strategy`] to its algorithm, for `/move` and `/analyze` alike.
//!
//! Each algorithm is set up as a [`Searcher`], which answers both questions: the move to play
//! and every move's value. [`dispatch`] builds the searcher a strategy names (minimax and
//! negamax compiled for the evaluation it names) and hands it to the question asked, so that
//! adding an algorithm is one arm here and its two answers beside it.

use super::analysis::{
    AlphaBetaSearch, MinimaxSearch, NegamaxSearch, SolverSearch, Tied, with_tiebreak,
};
use super::{
    Analysis, Budget, EngineParams, SearchResult, Solve, Strategy, mcs, mcts, random,
    with_evaluation,
};

/// An algorithm set up to search: what `/move` and `/analyze` ask of it.
pub(super) trait Searcher<G: Solve> {
    /// The move to play.
    fn best_move(&self, game: &G, budget: &Budget) -> SearchResult<G::Move>;
    /// Every legal move with its value, best first.
    fn every_move(&self, game: &G, budget: &Budget) -> Analysis<G::Move>;
}

/// A question for a searcher, whatever its type.
pub(super) trait Ask<G: Solve> {
    type Answer;
    fn ask(self, searcher: &impl Searcher<G>) -> Self::Answer;
}

/// The move to play in a game.
pub(super) struct BestMove<'a, G>(pub &'a G, pub &'a Budget);

impl<G: Solve> Ask<G> for BestMove<'_, G> {
    type Answer = SearchResult<G::Move>;
    fn ask(self, searcher: &impl Searcher<G>) -> Self::Answer {
        searcher.best_move(self.0, self.1)
    }
}

/// Every move's value in a game.
pub(super) struct EveryMove<'a, G>(pub &'a G, pub &'a Budget);

impl<G: Solve> Ask<G> for EveryMove<'_, G> {
    type Answer = Analysis<G::Move>;
    fn ask(self, searcher: &impl Searcher<G>) -> Self::Answer {
        searcher.every_move(self.0, self.1)
    }
}

/// Asks `question` of the algorithm `strategy` names, drawing from `seed`.
pub(super) fn dispatch<G: Solve, A: Ask<G>>(
    strategy: &Strategy,
    seed: u64,
    question: A,
) -> A::Answer {
    match *strategy {
        Strategy::Random => question.ask(&random::Random { seed }),
        Strategy::Minimax {
            depth,
            tiebreak,
            evaluation,
        } => with_evaluation!(evaluation, E => question.ask(&with_tiebreak(
            MinimaxSearch::<E> { depth },
            tiebreak,
            seed
        ))),
        Strategy::Negamax {
            depth,
            tiebreak,
            evaluation,
        } => with_evaluation!(evaluation, E => question.ask(&with_tiebreak(
            NegamaxSearch::<E> { depth },
            tiebreak,
            seed
        ))),
        Strategy::AlphaBeta(params, tiebreak) => {
            question.ask(&with_tiebreak(AlphaBetaSearch(params), tiebreak, seed))
        }
        Strategy::Solver {
            time_limit,
            tiebreak,
        } => question.ask(&Solver {
            exact: with_tiebreak(SolverSearch { time_limit }, tiebreak, seed),
            time_limit,
        }),
        Strategy::Mcs {
            playouts,
            time_limit,
        } => question.ask(&mcs::Mcs {
            playouts,
            time_limit,
            seed,
        }),
        Strategy::Mcts(params) => question.ask(&mcts::Mcts { params, seed }),
        Strategy::Engine(params) => question.ask(&Engine(params)),
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
