//! A uniformly random legal move.

use rand::{RngExt, SeedableRng};

use super::searcher::Searcher;
use super::{Analysis, Budget, MoveAnalysis, Score, SearchResult, SearchRng};
use crate::game::Game;
use crate::search::Algorithm;
use crate::search::record::{Chance, Record, Stops};

/// The `random` algorithm's record.
pub(super) const RECORD: Record = Record {
    algorithm: Algorithm::Random,
    name: "random",
    description: "A uniformly random legal move.",
    stops: Stops::AtOnce,
    breaks_ties: false,
    depth_limited: false,
    chance: Chance::Always,
    samples: None,
};

pub(super) fn search<G: Game>(game: &G, seed: u64) -> SearchResult<G::Move> {
    let mut rng = SearchRng::seed_from_u64(seed);
    let mut moves = game.legal_moves();
    let pick = rng.random_range(0..moves.len() as u32) as usize;
    let best_move = moves.nth(pick).expect("pick < number of legal moves");
    SearchResult {
        best_move,
        // Nothing was learnt about the position: no estimate, so the neutral one.
        score: 0.0,
        exact: false,
        plies_to_end: None,
        nodes: 1,
        pv: Vec::new(),
        depth: None,
        seldepth: None,
        margin: None,
        elapsed: Default::default(),
        stopped_by: None,
    }
}

/// A uniformly random move, drawn from `seed`, as a [`Searcher`].
pub(super) struct Random {
    pub seed: u64,
}

impl<G: Game> Searcher<G> for Random {
    fn best_move(&self, game: &G, _: &Budget) -> SearchResult<G::Move> {
        search(game, self.seed)
    }

    /// Every move, unvalued: the neutral estimate, in the game's move order.
    fn every_move(&self, game: &G, _: &Budget) -> Analysis<G::Move> {
        let moves = game
            .legal_moves()
            .map(|mv| (0.0, MoveAnalysis::new(mv, Score::estimate(0.0), None)))
            .collect();
        Analysis::ranked(moves, 1, None)
    }
}
