//! An algorithm set up to search, and the two questions asked of it: the move to play
//! (`/move`) and every move's value (`/analyze`). Every algorithm implements [`Searcher`]; the
//! dispatcher (`dispatch.rs`) builds the one a strategy names and asks it, so that the
//! algorithms and the dispatcher each import this file and not one another.

use super::{Analysis, Budget, SearchResult};
use crate::game::Game;

/// An algorithm set up to search: what `/move` and `/analyze` ask of it.
pub(super) trait Searcher<G: Game> {
    /// The move to play.
    fn best_move(&self, game: &G, budget: &Budget) -> SearchResult<G::Move>;
    /// Every legal move with its value, best first.
    fn every_move(&self, game: &G, budget: &Budget) -> Analysis<G::Move>;
}

/// A question for a searcher, whatever its type.
pub(super) trait Ask<G: Game> {
    type Answer;
    fn ask(self, searcher: &impl Searcher<G>) -> Self::Answer;
}

/// The move to play in a game.
pub(super) struct BestMove<'a, G>(pub &'a G, pub &'a Budget);

impl<G: Game> Ask<G> for BestMove<'_, G> {
    type Answer = SearchResult<G::Move>;
    fn ask(self, searcher: &impl Searcher<G>) -> Self::Answer {
        searcher.best_move(self.0, self.1)
    }
}

/// Every move's value in a game.
pub(super) struct EveryMove<'a, G>(pub &'a G, pub &'a Budget);

impl<G: Game> Ask<G> for EveryMove<'_, G> {
    type Answer = Analysis<G::Move>;
    fn ask(self, searcher: &impl Searcher<G>) -> Self::Answer {
        searcher.every_move(self.0, self.1)
    }
}
