//! AlphaZero's search (Silver et al., "A general reinforcement learning algorithm that masters
//! chess, shogi and Go through self-play", Science 2018): Monte Carlo tree search in which a
//! network replaces both of the tutorial's random parts.
//!
//! Where `mcts.rs` plays a random game from each leaf and picks children by UCB1, here each
//! simulation walks down the tree picking the child with the highest
//!
//! ```text
//! Q + c_puct * P * sqrt(N) / (1 + n)
//! ```
//!
//! (Q the child's mean value for the side choosing, P the network's prior for its move, N the
//! parent's visits, n the child's), and at the leaf it reaches asks the network once: the
//! policy's priors go to the leaf's new children, the value is backed up the path, each
//! node's side seeing it with its own sign. A leaf that ends the game backs up the game's exact
//! result instead. An unvisited child's Q is 0, as in the paper's pseudocode: the prior alone
//! ranks the moves not yet tried. The move played is the root's most visited (or one drawn in
//! proportion to visits^(1/temperature), for the varied openings of self-play).
//!
//! `networks.rs` finds a game's networks, `selfplay.rs` plays the games a network learns from,
//! `train.rs` fits the next network to them.

pub mod networks;
pub mod selfplay;
pub mod train;

use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::{RngExt, SeedableRng};

use super::searcher::Searcher;
use super::{
    Analysis, Budget, Cutoff, MAX_TREE_NODES, Meter, MoveAnalysis, Score, SearchResult, SearchRng,
    terminal_value,
};
use crate::game::{Game, Turn};
use crate::learn::policy_value::{Activations, PolicyValueNet};
use crate::learn::residual::softmax;
use crate::learn::weights::NamedWeights;
use crate::search::Algorithm;
use crate::search::record::{Chance, Record, Samples, Stops};
use crate::search::seed;

/// The `alphazero` algorithm's record.
pub(super) const RECORD: Record = Record {
    algorithm: Algorithm::AlphaZero,
    name: "alphazero",
    description: "AlphaZero's search: select by PUCT (Q + c_puct * P * sqrt(N) / (1 + n)), expand a \
                  leaf with the priors of a policy-value network Sente trained by self-play, back \
                  up the network's value (the exact result at the end of the game); the most \
                  visited move wins. On the games that ship a network.",
    stops: Stops::Sampling,
    breaks_ties: false,
    depth_limited: false,
    chance: Chance::Temperature,
    samples: Some(Samples::AlphaZeroSimulations),
};

/// Simulations a move by default: AlphaZero's 800.
pub const DEFAULT_SIMULATIONS: u32 = 800;
/// The exploration constant by default.
pub const DEFAULT_C_PUCT: f64 = 1.5;
/// First play urgency by default: below 0, the paper's (an unvisited move's Q is 0).
pub const DEFAULT_FPU: f64 = -1.0;

/// What `alphazero` is given beside the shared time limit and seed.
#[derive(Clone, Debug, PartialEq)]
pub struct AlphaZeroParams {
    pub simulations: u32,
    pub c_puct: f64,
    /// 0 plays the most visited move; above, a move drawn with chances in proportion to its
    /// visits^(1/temperature).
    pub temperature: f64,
    /// Which of the game's shipped networks ([`networks::names`]), by index: 0 is the best.
    pub net: u8,
    /// A network read from a file (the `net` knob's name for one a command read), played in
    /// place of the shipped one.
    pub read: Option<NamedWeights>,
    /// First play urgency: an unvisited move's Q is its parent's less `fpu` times the root of
    /// the priors of the moves already visited (Leela Zero's); below 0, it is 0 (the paper's).
    pub fpu: f64,
    /// Whether the network is shown each position as one of the board's images drawn at random
    /// ([`Inputs::NETWORK_SYMMETRIES`](crate::game::Inputs::NETWORK_SYMMETRIES)), as AlphaGo Zero's search was.
    pub symmetries: bool,
}

impl AlphaZeroParams {
    pub const DEFAULT: AlphaZeroParams = AlphaZeroParams {
        simulations: DEFAULT_SIMULATIONS,
        c_puct: DEFAULT_C_PUCT,
        temperature: 0.0,
        net: 0,
        read: None,
        fpu: DEFAULT_FPU,
        symmetries: false,
    };
}

/// Dirichlet noise mixed into the root's priors, so that self-play tries moves the network
/// does not yet favour: P = (1 - fraction) P + fraction Dir(alpha).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct RootNoise {
    pub alpha: f64,
    pub fraction: f64,
}

/// Simulations between two looks at the clock.
const CLOCK_INTERVAL: u32 = 32;

struct Node<G: Game> {
    state: G,
    /// The move that led here from the parent.
    mv: G::Move,
    prior: f32,
    first_child: u32,
    /// 0 while the node is a leaf.
    children: u32,
    visits: u32,
    /// The values backed up through the node, for the side that played `mv` (the parent's side
    /// to move): the side that chooses the node sees them with this sign.
    value_sum: f64,
    /// The network's value of the position, for the side that played `mv`; `None` until the
    /// node is reached, or when it ends the game.
    evaluation: Option<f32>,
}

struct Tree<G: Game> {
    nodes: Vec<Node<G>>,
    limit: usize,
}

/// The network asked of a position, with the buffers its passes reuse.
struct Evaluator<'a> {
    net: &'a PolicyValueNet,
    inputs: Vec<u16>,
    activations: Activations,
    /// Draws which of the board's images the network is shown ([`Inputs::NETWORK_SYMMETRIES`](crate::game::Inputs::NETWORK_SYMMETRIES)),
    /// as AlphaGo Zero's search did: each position is asked once, as one image drawn at random,
    /// so that the network's errors about any one image are spread over the tree rather than
    /// repeated. 0 shows the position as it is.
    images: u64,
}

impl<'a> Evaluator<'a> {
    fn new<G: Game>(net: &'a PolicyValueNet, seed: u64) -> Self {
        Evaluator {
            net,
            inputs: Vec::with_capacity(G::NETWORK_INPUTS),
            activations: Activations::default(),
            images: seed,
        }
    }

    /// The side to move's value, and the priors of `moves` (summing to 1).
    ///
    /// A network read from a file is probed before it is used ([`networks::check`]), but a
    /// position can still overflow one whose weights are large: a value that is not a number is
    /// taken as a draw and priors that are not as uniform, so that no NaN reaches the tree
    /// (where it would make every PUCT score NaN).
    fn evaluate<G: Game>(&mut self, game: &G, moves: &[G::Move]) -> (f32, Vec<f32>) {
        game.network_inputs(&mut self.inputs);
        let symmetries = G::NETWORK_SYMMETRIES;
        let image = if self.images == 0 || symmetries.is_empty() {
            None
        } else {
            // A xorshift step: cheap, and the same draws for the same seed.
            self.images ^= self.images << 13;
            self.images ^= self.images >> 7;
            self.images ^= self.images << 17;
            symmetries
                .get((self.images % (symmetries.len() as u64 + 1)) as usize)
                .copied()
        };
        if let Some(symmetry) = image {
            symmetry.apply::<G>(&mut self.inputs, &mut []);
        }
        self.net.forward(&self.inputs, &mut self.activations);
        let logits = &self.activations.logits;
        let logit = |mv: G::Move| {
            let id = G::move_id(mv);
            let id = image.map_or(id, |symmetry| G::network_move_image(id, symmetry));
            logits[usize::from(id)]
        };
        let mut priors = softmax(moves.iter().map(|&mv| logit(mv)));
        if priors.iter().any(|prior| !prior.is_finite()) {
            priors.fill(1.0 / moves.len().max(1) as f32);
        }
        let value = self.activations.value;
        let value = if value.is_nan() {
            0.0
        } else {
            value.clamp(-1.0, 1.0)
        };
        (value, priors)
    }
}

/// The network alone, without search: the legal move its policy likes best, and its value of
/// the position for the side to move (which must have a legal move).
pub fn favourite<G: Game>(net: &PolicyValueNet, game: &G) -> (G::Move, f32) {
    let mut evaluator = Evaluator::new::<G>(net, 0);
    let moves: Vec<G::Move> = game.legal_moves().collect();
    let (value, priors) = evaluator.evaluate(game, &moves);
    let best = (0..moves.len())
        .max_by(|&a, &b| priors[a].total_cmp(&priors[b]))
        .expect("a legal move");
    (moves[best], value)
}

impl<G: Game> Tree<G> {
    fn new(root: G, limit: usize) -> Self {
        Tree {
            nodes: vec![Node {
                state: root,
                mv: G::Move::default(),
                prior: 1.0,
                first_child: 0,
                children: 0,
                visits: 0,
                value_sum: 0.0,
                evaluation: None,
            }],
            limit: limit.min(MAX_TREE_NODES),
        }
    }

    /// Gives `index` its children with `priors`, when the tree has room (the root always).
    fn expand(&mut self, index: usize, moves: &[G::Move], priors: &[f32]) {
        if index > 0 && self.nodes.len() + moves.len() > self.limit {
            return;
        }
        let first_child = self.nodes.len() as u32;
        for (&mv, &prior) in moves.iter().zip(priors) {
            let state = self.nodes[index].state.play(mv);
            self.nodes.push(Node {
                state,
                mv,
                prior,
                first_child: 0,
                children: 0,
                visits: 0,
                value_sum: 0.0,
                evaluation: None,
            });
        }
        let node = &mut self.nodes[index];
        node.first_child = first_child;
        node.children = moves.len() as u32;
    }

    fn children(&self, index: usize) -> std::ops::Range<usize> {
        let node = &self.nodes[index];
        let first = node.first_child as usize;
        first..first + node.children as usize
    }

    /// The mean value of `index` for the side that chooses among its children (its own values
    /// are kept for the side that moved into it).
    fn chooser_q(&self, index: usize) -> f64 {
        let node = &self.nodes[index];
        -node.value_sum / f64::from(node.visits.max(1))
    }

    /// The Q an unvisited child of `index` is given (first play urgency, [`AlphaZeroParams::fpu`]).
    fn unvisited_q(&self, index: usize, fpu: f64) -> f64 {
        if fpu < 0.0 {
            return 0.0;
        }
        let visited: f32 = self
            .children(index)
            .filter(|&child| self.nodes[child].visits > 0)
            .map(|child| self.nodes[child].prior)
            .sum();
        self.chooser_q(index) - fpu * f64::from(visited).sqrt()
    }

    /// A child's PUCT score with `visits` visits, under a parent of `sqrt_n` root visits.
    fn puct(&self, child: usize, visits: u32, sqrt_n: f64, c_puct: f64, unvisited_q: f64) -> f64 {
        let node = &self.nodes[child];
        let q = if node.visits > 0 {
            node.value_sum / f64::from(node.visits)
        } else {
            unvisited_q
        };
        q + c_puct * f64::from(node.prior) * sqrt_n / (1.0 + f64::from(visits))
    }

    /// PUCT: the child with the highest Q + c_puct * P * sqrt(N) / (1 + n), the first on ties.
    /// Always a child, whatever the scores: a score that is not a number never wins, and the
    /// first child stands when none does, so that every descent goes down and ends.
    ///
    /// With `forced` (self-play's root, KataGo's forced playouts), a child visited fewer than
    /// sqrt(2 P N) times is chosen first, so that every move the noise favours is tried enough
    /// to be judged.
    #[inline]
    fn select(&self, index: usize, c_puct: f64, fpu: f64, forced: bool) -> usize {
        let sqrt_n = f64::from(self.nodes[index].visits).sqrt();
        if forced {
            let total: u32 = self.children(index).map(|c| self.nodes[c].visits).sum();
            let starved = self.children(index).find(|&child| {
                let node = &self.nodes[child];
                f64::from(node.visits) < forced_playouts(node.prior, total)
            });
            if let Some(child) = starved {
                return child;
            }
        }
        let unvisited_q = self.unvisited_q(index, fpu);
        let mut best = self.children(index).start;
        let mut best_score = f64::NEG_INFINITY;
        for child in self.children(index) {
            let score = self.puct(child, self.nodes[child].visits, sqrt_n, c_puct, unvisited_q);
            if score > best_score {
                best_score = score;
                best = child;
            }
        }
        best
    }

    /// The child of `index` with the most visits, the first on ties.
    fn most_visited(&self, index: usize) -> Option<usize> {
        self.children(index)
            .rev()
            .max_by_key(|&child| self.nodes[child].visits)
    }
}

impl<G: Game> Node<G> {
    /// The move's score for the side that plays it: proven when it ends the game, else its
    /// mean value, shrunk as if one more drawn simulation had been seen so that it stays
    /// strictly inside (-1, 1).
    fn score(&self) -> Score {
        let outcome = self.state.outcome();
        if outcome.is_over() {
            let value = -terminal_value(outcome, self.state.side_to_move(), 0).signum();
            return Score::proven(f64::from(value), Some(1));
        }
        Score::estimate(self.value_sum / (f64::from(self.visits) + 1.0))
    }
}

/// A searched tree and what it cost.
pub struct Grown<G: Game> {
    tree: Tree<G>,
    /// Simulations run.
    pub simulations: u64,
    pub stopped_by: Option<Cutoff>,
}

/// What one search is given.
pub struct Search<'a> {
    pub net: &'a PolicyValueNet,
    pub params: AlphaZeroParams,
    pub time_limit: Option<Duration>,
    pub noise: Option<RootNoise>,
    /// KataGo's forced playouts at the root (self-play's full searches): see [`Grown::pruned_visits`].
    pub forced_playouts: bool,
    pub seed: u64,
}

/// The playouts a root child of prior `prior` is owed when its siblings have `total`:
/// sqrt(k P total), k = 2 (Wu, "Accelerating self-play learning in Go", 2019, section 3.1).
fn forced_playouts(prior: f32, total: u32) -> f64 {
    (2.0 * f64::from(prior) * f64::from(total)).sqrt()
}

/// Runs the simulations from `game`, which must be in progress.
pub fn grow<G: Game>(game: &G, search: &Search, budget: &Budget) -> Grown<G> {
    let mut rng = SearchRng::seed_from_u64(search.seed);
    let images = if search.params.symmetries {
        seed::derive(search.seed, 2) | 1
    } else {
        0
    };
    let mut evaluator = Evaluator::new::<G>(search.net, images);
    let mut tree = Tree::new(game.clone(), MAX_TREE_NODES);
    let moves: Vec<G::Move> = game.legal_moves().collect();
    let (value, mut priors) = evaluator.evaluate(game, &moves);
    tree.nodes[0].evaluation = Some(-value);
    if let Some(noise) = search.noise {
        let sample = dirichlet(noise.alpha, priors.len(), &mut rng);
        for (prior, share) in priors.iter_mut().zip(sample) {
            *prior = ((1.0 - noise.fraction) * f64::from(*prior) + noise.fraction * share) as f32;
        }
    }
    tree.expand(0, &moves, &priors);
    tree.nodes[0].visits = 1;
    let mut meter = Meter::new(budget);
    meter.set_time_limit(search.time_limit.map(|limit| Instant::now() + limit));
    let mut path: Vec<usize> = Vec::with_capacity(G::MAX_PLIES + 1);
    let mut simulations = 1;
    let mut moves: Vec<G::Move> = Vec::new();
    while simulations < u64::from(search.params.simulations.max(1)) {
        if simulations.is_multiple_of(u64::from(CLOCK_INTERVAL)) && meter.check(simulations) {
            break;
        }
        simulations += 1;
        path.clear();
        let mut index = 0;
        path.push(index);
        while tree.nodes[index].children > 0 {
            let forced = search.forced_playouts && index == 0;
            index = tree.select(index, search.params.c_puct, search.params.fpu, forced);
            path.push(index);
        }
        // The leaf's value for its side to move: the game's result, or the network's.
        let leaf = &tree.nodes[index].state;
        let value = match leaf.turn() {
            Turn::Over(outcome) => {
                f64::from(terminal_value(outcome, leaf.side_to_move(), 0).signum())
            }
            Turn::Moves(legal) => {
                moves.clear();
                moves.extend(legal);
                let (value, priors) = evaluator.evaluate(leaf, &moves);
                tree.nodes[index].evaluation = Some(-value);
                tree.expand(index, &moves, &priors);
                f64::from(value)
            }
        };
        // Each node keeps values for the side that moved into it: the leaf's opponent first.
        let mut value = -value;
        for &node in path.iter().rev() {
            let node = &mut tree.nodes[node];
            node.visits += 1;
            node.value_sum += value;
            value = -value;
        }
    }
    Grown {
        tree,
        simulations,
        stopped_by: meter.stopped_by,
    }
}

impl<G: Game> Grown<G> {
    /// The root's moves with their visits, in move order.
    pub fn visits(&self) -> Vec<(G::Move, u32)> {
        let tree = &self.tree;
        tree.children(0)
            .map(|child| (tree.nodes[child].mv, tree.nodes[child].visits))
            .collect()
    }

    /// The root's visits as the policy's target, KataGo's policy target pruning: the forced
    /// playouts a move got beyond what PUCT would have given it are taken away again (as many
    /// as can be while its PUCT score stays below the most visited move's), and a move left
    /// with one visit is dropped, so that the target teaches what the search believed rather
    /// than what the noise made it try.
    pub fn pruned_visits(&self, c_puct: f64) -> Vec<(G::Move, u32)> {
        let tree = &self.tree;
        let best = tree.most_visited(0).expect("the root was expanded");
        let sqrt_n = f64::from(tree.nodes[0].visits).sqrt();
        let total: u32 = tree.children(0).map(|c| tree.nodes[c].visits).sum();
        let best_score = tree.puct(best, tree.nodes[best].visits, sqrt_n, c_puct, 0.0);
        tree.children(0)
            .map(|child| {
                let node = &tree.nodes[child];
                if child == best || node.visits == 0 {
                    return (node.mv, node.visits);
                }
                let floor = (f64::from(node.visits) - forced_playouts(node.prior, total))
                    .ceil()
                    .max(0.0) as u32;
                let mut visits = node.visits;
                while visits > floor
                    && tree.puct(child, visits - 1, sqrt_n, c_puct, 0.0) < best_score
                {
                    visits -= 1;
                }
                (node.mv, if visits <= 1 { 0 } else { visits })
            })
            .collect()
    }

    /// The search's value of the root for its side to move: the mean of what was backed up.
    pub fn root_value(&self) -> f64 {
        self.tree.chooser_q(0)
    }

    /// The move to play: the most visited, or at a temperature above 0 one drawn with
    /// chances in proportion to visits^(1/temperature).
    pub fn choose(&self, temperature: f64, rng: &mut SearchRng) -> usize {
        let tree = &self.tree;
        let best = tree.most_visited(0).expect("the root was expanded");
        if temperature <= 0.0 {
            return best;
        }
        let weights: Vec<f64> = tree
            .children(0)
            .map(|child| f64::from(tree.nodes[child].visits).powf(1.0 / temperature))
            .collect();
        let total: f64 = weights.iter().sum();
        if !(total.is_finite() && total > 0.0) {
            return best;
        }
        let mut draw = rng.random_range(0.0..total);
        for (offset, weight) in weights.iter().enumerate() {
            if draw < *weight {
                return tree.children(0).start + offset;
            }
            draw -= weight;
        }
        best
    }

    /// The result of playing `chosen` (a root child): its score, the most visited line from it.
    pub fn result(&self, chosen: usize) -> SearchResult<G::Move> {
        let tree = &self.tree;
        let mut pv = vec![tree.nodes[chosen].mv];
        let mut index = chosen;
        while let Some(child) = tree.most_visited(index) {
            if tree.nodes[child].visits == 0 {
                break;
            }
            pv.push(tree.nodes[child].mv);
            index = child;
        }
        let Score {
            score,
            exact,
            plies_to_end,
        } = tree.nodes[chosen].score();
        SearchResult {
            best_move: tree.nodes[chosen].mv,
            score,
            exact,
            plies_to_end,
            nodes: self.simulations,
            pv,
            depth: None,
            seldepth: None,
            margin: None,
            elapsed: Duration::ZERO,
            stopped_by: self.stopped_by,
        }
    }
}

/// A draw from the symmetric Dirichlet distribution of `count` shares with parameter `alpha`:
/// Gamma(alpha) draws, normalised.
fn dirichlet(alpha: f64, count: usize, rng: &mut SearchRng) -> Vec<f64> {
    let draws: Vec<f64> = (0..count).map(|_| gamma(alpha, rng)).collect();
    let total: f64 = draws.iter().sum();
    if total > 0.0 {
        draws.into_iter().map(|draw| draw / total).collect()
    } else {
        vec![1.0 / count as f64; count]
    }
}

/// A Gamma(alpha, 1) draw, by Marsaglia and Tsang's method ("A simple method for generating
/// gamma variables", ACM TOMS 2000); below alpha = 1, a Gamma(alpha + 1) draw times U^(1/alpha).
fn gamma(alpha: f64, rng: &mut SearchRng) -> f64 {
    if alpha < 1.0 {
        let u: f64 = rng.random_range(f64::MIN_POSITIVE..1.0);
        return gamma(alpha + 1.0, rng) * u.powf(1.0 / alpha);
    }
    let d = alpha - 1.0 / 3.0;
    let c = 1.0 / (9.0 * d).sqrt();
    loop {
        // A standard normal draw, by Box and Muller.
        let (u1, u2): (f64, f64) = (
            rng.random_range(f64::MIN_POSITIVE..1.0),
            rng.random_range(0.0..1.0),
        );
        let x = (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos();
        let v = (1.0 + c * x).powi(3);
        if v <= 0.0 {
            continue;
        }
        let u: f64 = rng.random_range(f64::MIN_POSITIVE..1.0);
        if u.ln() < 0.5 * x * x + d - d * v + d * v.ln() {
            return d * v;
        }
    }
}

/// `alphazero` with its knobs, as a [`Searcher`].
pub(super) struct AlphaZero {
    pub params: AlphaZeroParams,
    pub time_limit: Option<Duration>,
    pub seed: u64,
}

impl AlphaZero {
    fn net<G: Game>(&self) -> Arc<PolicyValueNet> {
        // A network read was checked against the game as it was read, and the knob offers a
        // game only its own; its check lets through only the indices of the shipped ones.
        if let Some(read) = self.params.read.as_ref().and_then(NamedWeights::get) {
            return Arc::clone(read);
        }
        networks::network::<G>(usize::from(self.params.net))
            .unwrap_or_else(|error| panic!("alphazero on {}: {error}", G::NAME))
    }

    fn grow<G: Game>(&self, game: &G, budget: &Budget) -> Grown<G> {
        let net = self.net::<G>();
        let search = Search {
            net: &net,
            params: self.params.clone(),
            time_limit: self.time_limit,
            noise: None,
            forced_playouts: false,
            seed: self.seed,
        };
        grow(game, &search, budget)
    }
}

impl<G: Game> Searcher<G> for AlphaZero {
    fn best_move(&self, game: &G, budget: &Budget) -> SearchResult<G::Move> {
        let grown = self.grow(game, budget);
        let mut rng = SearchRng::seed_from_u64(crate::search::seed::derive(self.seed, 1));
        let chosen = grown.choose(self.params.temperature, &mut rng);
        grown.result(chosen)
    }

    /// Every move by its visits, most visited first, with its prior and the network's value.
    fn every_move(&self, game: &G, budget: &Budget) -> Analysis<G::Move> {
        let grown = self.grow(game, budget);
        let tree = &grown.tree;
        let moves = tree
            .children(0)
            .map(|child| {
                let node = &tree.nodes[child];
                let mut analysis = MoveAnalysis::new(node.mv, node.score(), Some(node.visits));
                analysis.prior = Some(node.prior);
                analysis.value = node.evaluation;
                let line = grown.result(child).pv;
                analysis.pv = line;
                (f64::from(node.visits) + f64::from(node.prior), analysis)
            })
            .collect();
        Analysis::ranked(moves, grown.simulations, grown.stopped_by)
    }
}

#[cfg(test)]
mod tests;
