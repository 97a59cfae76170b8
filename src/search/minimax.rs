//! Minimax as the textbook writes it: a max player and a min player.
//!
//! ```text
//! minimax(node, depth, maximizing):
//!     if depth = 0 or node is terminal: return value(node)
//!     if maximizing: return max over children of minimax(child, depth - 1, false)
//!     else:          return min over children of minimax(child, depth - 1, true)
//! ```
//!
//! Values are in the first player's (X's) frame throughout: X maximises, O minimises. The
//! result is turned into the side to move's frame at the root.

use super::{
    Budget, Evaluate, INFINITY, Meter, PvTable, SearchResult, Value, WIN, depth_limit,
    fixed_depth_result, heuristic,
};
use crate::game::{Game, Outcome, Player};

pub(super) struct Minimax<G: Game> {
    pub(super) nodes: u64,
    pub(super) hit_horizon: bool,
    pv: PvTable<G::Move>,
    pub(super) meter: Meter,
    /// What scores the leaves at the depth limit.
    evaluate: Evaluate<G>,
}

impl<G: Game> Minimax<G> {
    pub(super) fn value(&mut self, game: &G, depth: u32, ply: usize, maximizing: bool) -> Value {
        self.nodes += 1;
        self.pv.clear(ply);
        match game.outcome() {
            Outcome::Won(Player::X) => return WIN - ply as Value,
            Outcome::Won(Player::O) => return -(WIN - ply as Value),
            Outcome::Draw => return 0,
            Outcome::InProgress => {}
        }
        if depth == 0 {
            self.hit_horizon = true;
            // The evaluation is in the side to move's frame; X's frame is what minimax needs.
            return match game.side_to_move() {
                Player::X => heuristic(game, self.evaluate),
                Player::O => -heuristic(game, self.evaluate),
            };
        }
        // Only nodes with children look at the budget: a leaf costs nothing to finish, and
        // leaves are half the nodes.
        if self.meter.tick(self.nodes) {
            return 0;
        }
        if maximizing {
            let mut best = -INFINITY;
            for mv in game.legal_moves() {
                let value = self.value(&game.play(mv), depth - 1, ply + 1, false);
                // A stopped search's values are meaningless: the root keeps the best of the
                // moves it completed. (Below the root, every node after the stop returns at
                // once: nothing more to check there.)
                if ply == 0 && self.meter.is_stopped() {
                    break;
                }
                if value > best {
                    best = value;
                    self.pv.update(ply, mv);
                }
            }
            best
        } else {
            let mut best = INFINITY;
            for mv in game.legal_moves() {
                let value = self.value(&game.play(mv), depth - 1, ply + 1, true);
                if ply == 0 && self.meter.is_stopped() {
                    break;
                }
                if value < best {
                    best = value;
                    self.pv.update(ply, mv);
                }
            }
            best
        }
    }
}

impl<G: Game> Minimax<G> {
    /// The principal variation last found from `ply`.
    pub(super) fn line(&self, ply: usize) -> Vec<G::Move> {
        self.pv.line(ply)
    }

    pub(super) fn new(max_plies: usize, evaluate: Evaluate<G>, budget: &Budget) -> Self {
        Minimax {
            nodes: 0,
            hit_horizon: false,
            pv: PvTable::new(max_plies),
            meter: Meter::new(budget),
            evaluate,
        }
    }
}

pub(super) fn search<G: Game>(
    game: &G,
    depth: Option<u32>,
    evaluate: Evaluate<G>,
    budget: &Budget,
) -> SearchResult<G::Move> {
    let mut minimax = Minimax::new(G::MAX_PLIES, evaluate, budget);
    let x_to_move = game.side_to_move() == Player::X;
    let value = minimax.value(game, depth_limit(depth), 0, x_to_move);
    let value = if x_to_move { value } else { -value };
    fixed_depth_result(
        game,
        value,
        minimax.hit_horizon,
        minimax.nodes,
        minimax.pv.root_line(),
        minimax.meter.stopped_by,
    )
}
