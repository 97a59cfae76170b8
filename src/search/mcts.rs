//! Monte Carlo tree search with UCT, as taught.
//!
//! Each simulation walks down the tree picking children by UCB1, plays a random game from the
//! leaf it reaches, and adds the result to every node on the way back up. The root is expanded
//! at once; any other leaf is expanded when it has been visited `expand_threshold` times. The
//! move chosen is the root child with the most visits.
//!
//! The tree is an arena (`Vec<Node>`) whose children are contiguous, so a node refers to its
//! children by one index and a count, and a simulation touches no allocator.

use std::f64::consts::SQRT_2;
use std::time::{Duration, Instant};

use rand::SeedableRng;

use super::playout::random_playout;
use super::searcher::Searcher;
use super::{
    Analysis, Budget, Cutoff, Meter, MoveAnalysis, Score, SearchResult, SearchRng, terminal_value,
};
use crate::game::{Game, Outcome};
use crate::search::Algorithm;
use crate::search::record::{Chance, Record, Samples, Stops};

/// The `mcts` algorithm's record.
pub(super) const RECORD: Record = Record {
    algorithm: Algorithm::Mcts,
    name: "mcts",
    description: "UCT: select by UCB1, expand after expand_threshold visits, random playout, back up; \
                  the most visited move wins.",
    stops: Stops::Sampling,
    breaks_ties: false,
    depth_limited: false,
    chance: Chance::Always,
    samples: Some(Samples::MctsSimulations),
};

/// Default number of simulations.
pub const DEFAULT_SIMULATIONS: u32 = 100;
/// Default exploration constant c of UCB1.
pub const DEFAULT_UCT_C: f64 = SQRT_2;
/// Default number of visits after which a leaf is expanded.
pub const DEFAULT_EXPAND_THRESHOLD: u32 = 10;

/// Upper bound on the tree's size, and its default: past it, leaves stop being expanded
/// (simulations still run and still back up through the existing tree). This bounds memory
/// whatever the knobs say.
pub const MAX_TREE_NODES: usize = 1 << 20;

#[derive(Copy, Clone, Debug, PartialEq)]
pub struct MctsParams {
    pub simulations: u32,
    pub uct_c: f64,
    pub expand_threshold: u32,
    /// The most nodes the tree keeps, at most [`MAX_TREE_NODES`]: past it, leaves stop being
    /// expanded. The root's children are always made.
    pub tree_nodes: u32,
}

/// Simulations between two looks at the clock: often enough to keep a time limit to well
/// under a millisecond, rarely enough that reading the clock costs nothing measurable.
const CLOCK_INTERVAL: u32 = 64;

impl MctsParams {
    pub const DEFAULT: MctsParams = MctsParams {
        simulations: DEFAULT_SIMULATIONS,
        uct_c: DEFAULT_UCT_C,
        expand_threshold: DEFAULT_EXPAND_THRESHOLD,
        tree_nodes: MAX_TREE_NODES as u32,
    };
}

impl Default for MctsParams {
    fn default() -> Self {
        MctsParams::DEFAULT
    }
}

pub(super) struct Node<G: Game> {
    state: G,
    /// The move that led here from the parent.
    pub(super) mv: G::Move,
    first_child: u32,
    /// 0 while the node is a leaf.
    children: u32,
    pub(super) visits: u32,
    /// Sum of the results of the simulations through this node, each +1, 0 or -1 from the
    /// point of view of the side to move at this node.
    reward: i64,
}

pub(super) struct Tree<G: Game> {
    nodes: Vec<Node<G>>,
    /// The most nodes it grows to (but for the root's children).
    limit: usize,
}

impl<G: Game> Tree<G> {
    fn new(root: G, limit: u32) -> Self {
        let mut nodes = Vec::with_capacity(64);
        nodes.push(Node {
            state: root,
            mv: G::Move::default(),
            first_child: 0,
            children: 0,
            visits: 0,
            reward: 0,
        });
        Tree {
            nodes,
            limit: (limit as usize).min(MAX_TREE_NODES),
        }
    }

    /// Adds the children of `index`; returns how many positions were created.
    fn expand(&mut self, index: usize) -> u64 {
        let state = self.nodes[index].state.clone();
        let moves = state.legal_moves();
        let count = moves.len();
        if count == 0 || (index > 0 && self.nodes.len() + count > self.limit) {
            return 0;
        }
        let first_child = self.nodes.len() as u32;
        for mv in moves {
            self.nodes.push(Node {
                state: state.play(mv),
                mv,
                first_child: 0,
                children: 0,
                visits: 0,
                reward: 0,
            });
        }
        let node = &mut self.nodes[index];
        node.first_child = first_child;
        node.children = count as u32;
        count as u64
    }

    /// UCB1 = -w/n + c * sqrt(ln t / n): the child's mean result seen from the parent (hence
    /// the minus) plus an exploration bonus; t is the parent's visits. An unvisited child is
    /// taken first, the first one in move order.
    #[inline]
    fn select(&self, index: usize, c: f64) -> usize {
        let node = &self.nodes[index];
        let first = node.first_child as usize;
        let children = &self.nodes[first..first + node.children as usize];
        let ln_t = f64::from(node.visits).ln();
        let mut best = first;
        let mut best_ucb = f64::NEG_INFINITY;
        for (offset, child) in children.iter().enumerate() {
            if child.visits == 0 {
                return first + offset;
            }
            let n = f64::from(child.visits);
            let ucb = -(child.reward as f64) / n + c * (ln_t / n).sqrt();
            if ucb > best_ucb {
                best_ucb = ucb;
                best = first + offset;
            }
        }
        best
    }

    /// The root child with the most visits, the first one on ties.
    fn most_visited_child(&self, index: usize) -> Option<usize> {
        let node = &self.nodes[index];
        let first = node.first_child as usize;
        (first..first + node.children as usize)
            .rev()
            .max_by_key(|&child| self.nodes[child].visits)
    }
}

/// Runs the simulations; returns the tree and the positions created.
pub(super) fn grow<G: Game>(game: &G, mcts: &Mcts, budget: &Budget) -> Grown<G> {
    let params = &mcts.params;
    let mut rng = SearchRng::seed_from_u64(mcts.seed);
    let threshold = params.expand_threshold.max(1);
    let mut tree = Tree::new(game.clone(), params.tree_nodes);
    let mut nodes = 1 + tree.expand(0);
    let mut path: Vec<usize> = Vec::with_capacity(G::MAX_PLIES + 1);
    let mut meter = Meter::new(budget);
    meter.set_time_limit(mcts.time_limit.map(|limit| Instant::now() + limit));
    for simulation in 0..params.simulations.max(1) {
        if simulation % CLOCK_INTERVAL == CLOCK_INTERVAL - 1 && meter.check(nodes) {
            break;
        }
        path.clear();
        let mut index = 0;
        path.push(index);
        while tree.nodes[index].children > 0 {
            index = tree.select(index, params.uct_c);
            path.push(index);
        }
        let leaf = &tree.nodes[index].state;
        let leaf_outcome = leaf.outcome();
        let leaf_side = leaf.side_to_move();
        let outcome = match leaf_outcome {
            Outcome::InProgress => random_playout(leaf.clone(), &mut rng, &mut nodes),
            over => over,
        };
        let mut reward = i64::from(terminal_value(outcome, leaf_side, 0).signum());
        for &node in path.iter().rev() {
            let node = &mut tree.nodes[node];
            node.visits += 1;
            node.reward += reward;
            reward = -reward;
        }
        if leaf_outcome == Outcome::InProgress && tree.nodes[index].visits >= threshold {
            nodes += tree.expand(index);
        }
    }
    Grown {
        tree,
        nodes,
        stopped_by: meter.stopped_by,
    }
}

/// A grown tree, the positions created, and why the simulations stopped early, if they did.
pub(super) struct Grown<G: Game> {
    pub(super) tree: Tree<G>,
    pub(super) nodes: u64,
    pub(super) stopped_by: Option<Cutoff>,
}

impl<G: Game> Tree<G> {
    /// The root's children, in move order.
    pub(super) fn root_children(&self) -> &[Node<G>] {
        let root = &self.nodes[0];
        let first = root.first_child as usize;
        &self.nodes[first..first + root.children as usize]
    }
}

impl<G: Game> Node<G> {
    /// The move's score for the side to move at its parent, whether it is proven, and its plies
    /// to the end when it is.
    ///
    /// The node's reward is from the opponent's point of view. Only a move that ends the game
    /// is proven; any other mean is shrunk as if one more drawn simulation had been seen, so it
    /// stays strictly inside (-1, 1).
    pub(super) fn mean(&self) -> Score {
        let outcome = self.state.outcome();
        if outcome.is_over() {
            let value = -terminal_value(outcome, self.state.side_to_move(), 0).signum();
            return Score::proven(f64::from(value), Some(1));
        }
        let n = f64::from(self.visits);
        Score::estimate(-(self.reward as f64) / (n + 1.0))
    }
}

pub(super) fn search<G: Game>(game: &G, mcts: &Mcts, budget: &Budget) -> SearchResult<G::Move> {
    let Grown {
        tree,
        nodes,
        stopped_by,
    } = grow(game, mcts, budget);
    let best = tree.most_visited_child(0).expect("the root was expanded");
    let mut pv = vec![tree.nodes[best].mv];
    let mut index = best;
    while let Some(child) = tree.most_visited_child(index) {
        if tree.nodes[child].visits == 0 {
            break;
        }
        pv.push(tree.nodes[child].mv);
        index = child;
    }

    let child = &tree.nodes[best];
    let Score {
        score,
        exact,
        plies_to_end,
    } = child.mean();
    SearchResult {
        best_move: child.mv,
        score,
        exact,
        plies_to_end,
        nodes,
        pv,
        depth: None,
        seldepth: None,
        margin: None,
        elapsed: Default::default(),
        stopped_by,
    }
}

/// UCT with its knobs, as a [`Searcher`].
pub(super) struct Mcts {
    pub params: MctsParams,
    /// Stop early when this much time has passed.
    pub time_limit: Option<Duration>,
    pub seed: u64,
}

impl<G: Game> Searcher<G> for Mcts {
    fn best_move(&self, game: &G, budget: &Budget) -> SearchResult<G::Move> {
        search(game, self, budget)
    }

    /// Every move by its visits, most visited first.
    fn every_move(&self, game: &G, budget: &Budget) -> Analysis<G::Move> {
        let grown = grow(game, self, budget);
        let moves = grown
            .tree
            .root_children()
            .iter()
            .map(|child| {
                let analysis = MoveAnalysis::new(child.mv, child.mean(), Some(child.visits));
                (f64::from(child.visits), analysis)
            })
            .collect();
        Analysis::ranked(moves, grown.nodes, grown.stopped_by)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Rules;
    use crate::games::TicTacToe;

    /// `tree_nodes` bounds the tree: the root's nine children are always made, and past the
    /// bound no leaf is expanded, however many simulations run through it.
    #[test]
    fn the_tree_stops_growing_at_its_bound() {
        let grown = |tree_nodes| {
            let mcts = Mcts {
                params: MctsParams {
                    simulations: 2_000,
                    tree_nodes,
                    ..MctsParams::DEFAULT
                },
                time_limit: None,
                seed: 1,
            };
            grow(&TicTacToe::start(), &mcts, &Budget::unlimited())
                .tree
                .nodes
                .len()
        };
        assert_eq!(grown(1), 10);
        assert!((10..=20).contains(&grown(20)), "{}", grown(20));
        assert!(grown(MAX_TREE_NODES as u32) > 200);
    }
}
