//! Negamax: minimax written once, with values in the side to move's frame.
//!
//! ```text
//! negamax(node, depth):
//!     if depth = 0 or node is terminal: return value(node) for the side to move
//!     return max over children of -negamax(child, depth - 1)
//! ```

use super::{
    INFINITY, PvTable, SearchResult, Value, depth_limit, exact_search_result, heuristic,
    terminal_value,
};
use crate::game::Game;

struct Negamax<M> {
    nodes: u64,
    hit_horizon: bool,
    pv: PvTable<M>,
}

impl<M: Copy + Default> Negamax<M> {
    fn value<G: Game<Move = M>>(&mut self, game: &G, depth: u32, ply: usize) -> Value {
        self.nodes += 1;
        self.pv.clear(ply);
        let outcome = game.outcome();
        if outcome.is_over() {
            return terminal_value(outcome, game.side_to_move());
        }
        if depth == 0 {
            self.hit_horizon = true;
            return heuristic(game);
        }
        let mut best = -INFINITY;
        for mv in game.legal_moves() {
            let value = -self.value(&game.play(mv), depth - 1, ply + 1);
            if value > best {
                best = value;
                self.pv.update(ply, mv);
            }
        }
        best
    }
}

pub(super) fn search<G: Game>(game: &G, depth: Option<u32>) -> SearchResult<G::Move> {
    let mut negamax = Negamax {
        nodes: 0,
        hit_horizon: false,
        pv: PvTable::new(G::MAX_PLIES),
    };
    let value = negamax.value(game, depth_limit(depth), 0);
    exact_search_result(
        value,
        negamax.hit_horizon,
        negamax.nodes,
        negamax.pv.root_line(),
    )
}
