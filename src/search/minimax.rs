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
    Budget, INFINITY, Meter, PvTable, SearchResult, Value, WIN, depth_limit, evaluation,
    fixed_depth_result, heuristic,
};
use crate::game::{Game, Outcome, Player, Turn};
use crate::search::Algorithm;
use crate::search::record::{Chance, Record, Stops};

/// The `minimax` algorithm's record.
pub(super) const RECORD: Record = Record {
    algorithm: Algorithm::Minimax,
    name: "minimax",
    description: "Minimax with separate max and min players, in the first player's frame.",
    stops: Stops::FullWidth,
    breaks_ties: true,
    depth_limited: true,
    chance: Chance::TieBreak,
    samples: None,
};

/// The searcher; `E` is the evaluation that scores the leaves at the depth limit (an index
/// into the game's evaluations, a constant: see [`MAX_EVALUATIONS`](super::MAX_EVALUATIONS)).
pub(super) struct Minimax<G: Game, const E: u8> {
    pub(super) nodes: u64,
    pub(super) hit_horizon: bool,
    pv: PvTable<G::Move>,
    pub(super) meter: Meter,
}

impl<G: Game, const E: u8> Minimax<G, E> {
    pub(super) fn value(&mut self, game: &G, depth: u32, ply: usize, maximizing: bool) -> Value {
        self.nodes += 1;
        self.pv.clear(ply);
        // At the depth limit only the outcome matters; above it the moves, generated once.
        let turn = if depth == 0 {
            match game.outcome() {
                Outcome::InProgress => return self.leaf(game),
                over => Turn::Over(over),
            }
        } else {
            game.turn()
        };
        let moves = match turn {
            Turn::Over(Outcome::Won(Player::X)) => return WIN - ply as Value,
            Turn::Over(Outcome::Won(Player::O)) => return -(WIN - ply as Value),
            Turn::Over(_) => return 0,
            Turn::Moves(moves) => moves,
        };
        // Only nodes with children look at the budget: a leaf costs nothing to finish, and
        // leaves are half the nodes.
        if self.meter.tick(self.nodes) {
            return 0;
        }
        if maximizing {
            let mut best = -INFINITY;
            for mv in moves {
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
            for mv in moves {
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

impl<G: Game, const E: u8> Minimax<G, E> {
    /// A leaf at the depth limit, scored by the evaluation.
    fn leaf(&mut self, game: &G) -> Value {
        self.hit_horizon = true;
        let evaluate = evaluation::<G>(E);
        // The evaluation is in the side to move's frame; X's frame is what minimax needs.
        match game.side_to_move() {
            Player::X => heuristic(game, evaluate),
            Player::O => -heuristic(game, evaluate),
        }
    }

    /// The principal variation last found from `ply`.
    pub(super) fn line(&self, ply: usize) -> Vec<G::Move> {
        self.pv.line(ply)
    }

    pub(super) fn new(max_plies: usize, budget: &Budget) -> Self {
        Minimax {
            nodes: 0,
            hit_horizon: false,
            pv: PvTable::new(max_plies),
            meter: Meter::new(budget),
        }
    }
}

pub(super) fn search<G: Game, const E: u8>(
    game: &G,
    depth: Option<u32>,
    budget: &Budget,
) -> SearchResult<G::Move> {
    let mut minimax = Minimax::<G, E>::new(G::MAX_PLIES, budget);
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
