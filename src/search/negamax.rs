//! Negamax: minimax written once, with values in the side to move's frame.
//!
//! ```text
//! negamax(node, depth):
//!     if depth = 0 or node is terminal: return value(node) for the side to move
//!     return max over children of -negamax(child, depth - 1)
//! ```

use super::{
    Budget, INFINITY, Meter, PvTable, SearchResult, Value, depth_limit, evaluation,
    fixed_depth_result, heuristic, terminal_value,
};
use crate::game::{Game, Turn};
use crate::search::Algorithm;
use crate::search::record::{Chance, Record, Stops};

/// The `negamax` algorithm's record.
pub(super) const RECORD: Record = Record {
    algorithm: Algorithm::Negamax,
    name: "negamax",
    description: "Negamax: one signed recursion, score = -negamax(child).",
    stops: Stops::FullWidth,
    breaks_ties: true,
    depth_limited: true,
    chance: Chance::TieBreak,
    samples: None,
};

/// The searcher; `E` is the evaluation that scores the leaves at the depth limit (an index
/// into the game's evaluations, a constant: see [`MAX_EVALUATIONS`](super::MAX_EVALUATIONS)).
pub(super) struct Negamax<G: Game, const E: u8> {
    pub(super) nodes: u64,
    pub(super) hit_horizon: bool,
    pv: PvTable<G::Move>,
    pub(super) meter: Meter,
}

impl<G: Game, const E: u8> Negamax<G, E> {
    pub(super) fn value(&mut self, game: &G, depth: u32, ply: usize) -> Value {
        self.nodes += 1;
        self.pv.clear(ply);
        // At the depth limit only the outcome matters; above it the moves, generated once.
        if depth == 0 {
            let outcome = game.outcome();
            if outcome.is_over() {
                return terminal_value(outcome, game.side_to_move(), ply);
            }
            return self.leaf(game);
        }
        let moves = match game.turn() {
            Turn::Over(outcome) => return terminal_value(outcome, game.side_to_move(), ply),
            Turn::Moves(moves) => moves,
        };
        // Only nodes with children look at the budget: a leaf costs nothing to finish.
        if self.meter.tick(self.nodes) {
            return 0;
        }
        let mut best = -INFINITY;
        // One slot for the children, each written into it in turn (see `Game::play_into`).
        let mut child = game.clone();
        for mv in moves {
            game.play_into(mv, &mut child);
            let value = -self.value(&child, depth - 1, ply + 1);
            // A stopped search's values are meaningless: the root keeps the best of the moves
            // it completed. (Below the root, every node after the stop returns at once.)
            if ply == 0 && self.meter.is_stopped() {
                break;
            }
            if value > best {
                best = value;
                self.pv.update(ply, mv);
            }
        }
        best
    }
}

impl<G: Game, const E: u8> Negamax<G, E> {
    /// A leaf at the depth limit, scored by the evaluation.
    fn leaf(&mut self, game: &G) -> Value {
        self.hit_horizon = true;
        heuristic(game, evaluation::<G>(E))
    }

    /// The principal variation last found from `ply`.
    pub(super) fn line(&self, ply: usize) -> Vec<G::Move> {
        self.pv.line(ply)
    }

    pub(super) fn new(max_plies: usize, budget: &Budget) -> Self {
        Negamax {
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
    let mut negamax = Negamax::<G, E>::new(G::MAX_PLIES, budget);
    let value = negamax.value(game, depth_limit(depth), 0);
    fixed_depth_result(
        game,
        value,
        negamax.hit_horizon,
        negamax.nodes,
        negamax.pv.root_line(),
        negamax.meter.stopped_by,
    )
}
