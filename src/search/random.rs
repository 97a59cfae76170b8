//! A uniformly random legal move.

use rand::{RngExt, SeedableRng};

use super::{SearchResult, SearchRng};
use crate::game::Game;

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
        elapsed: Default::default(),
        stopped_by: None,
    }
}
