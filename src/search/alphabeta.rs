//! Nega-alpha: negamax with an (alpha, beta) window.
//!
//! ```text
//! alphabeta(node, depth, alpha, beta):
//!     if depth = 0 or node is terminal: return value(node) for the side to move
//!     best = -inf
//!     for each child:
//!         best = max(best, -alphabeta(child, depth - 1, -beta, -alpha))
//!         alpha = max(alpha, best)
//!         if alpha >= beta: break        (the opponent will not allow this line)
//!     return best
//! ```
//!
//! This is the fail-soft form; it visits exactly the nodes the fail-hard form visits. Moves are
//! tried in the game's natural order, so the node count is the textbook's.

use super::{
    INFINITY, PvTable, SearchResult, Value, depth_limit, exact_search_result, heuristic,
    terminal_value,
};
use crate::game::Game;

struct AlphaBeta<M> {
    nodes: u64,
    hit_horizon: bool,
    pv: PvTable<M>,
}

impl<M: Copy + Default> AlphaBeta<M> {
    fn value<G: Game<Move = M>>(
        &mut self,
        game: &G,
        depth: u32,
        ply: usize,
        mut alpha: Value,
        beta: Value,
    ) -> Value {
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
            let value = -self.value(&game.play(mv), depth - 1, ply + 1, -beta, -alpha);
            if value > best {
                best = value;
                // Only a value inside the window is exact, and only then is the line below it
                // a principal variation. At the root the window starts infinite, so the first
                // move always lands here and the root's line is never empty.
                if value > alpha {
                    alpha = value;
                    self.pv.update(ply, mv);
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}

pub(super) fn search<G: Game>(game: &G, depth: Option<u32>) -> SearchResult<G::Move> {
    let mut alphabeta = AlphaBeta {
        nodes: 0,
        hit_horizon: false,
        pv: PvTable::new(G::MAX_PLIES),
    };
    let value = alphabeta.value(game, depth_limit(depth), 0, -INFINITY, INFINITY);
    exact_search_result(
        value,
        alphabeta.hit_horizon,
        alphabeta.nodes,
        alphabeta.pv.root_line(),
    )
}
