//! Search algorithms, generic over [`Game`], one file each.
//!
//! Every algorithm is written as the classic tutorials teach it, so that its node count can be
//! compared with theirs, and made fast by the data it runs on (`Copy` bitboard positions, no
//! allocation per node) rather than by changing the algorithm.
//!
//! Values inside the exact searches are integers in the side to move's frame: [`WIN`] for a
//! proven win, `-WIN` for a proven loss, 0 for a draw, and heuristic estimates strictly in
//! between. They become the API's `score` in [-1, 1] by dividing by [`WIN`].

mod alphabeta;
mod mcs;
mod mcts;
mod minimax;
mod negamax;
mod playout;
mod pv;

mod random;
pub mod seed;

use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

use crate::game::{Game, Outcome, Player};

pub use mcts::{
    DEFAULT_EXPAND_THRESHOLD, DEFAULT_SIMULATIONS, DEFAULT_UCT_C, MAX_TREE_NODES, MctsParams,
};
use pv::PvTable;

/// A search value in the side to move's frame.
pub type Value = i32;

/// The value of a proven win for the side to move.
pub const WIN: Value = 1000;

/// Above every value, so that `-INFINITY` is below every value.
const INFINITY: Value = WIN + 1;

/// The random number generator of every randomised algorithm.
///
/// Xoshiro256++ is fast (a playout draws one number per move) and, unlike `rand`'s `SmallRng`,
/// its output is fixed by its definition, so a seed means the same games on every platform.
pub type SearchRng = rand_xoshiro::Xoshiro256PlusPlus;

/// The names of the algorithms, as the API spells them.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    Random,
    Minimax,
    Negamax,
    AlphaBeta,
    Mcs,
    Mcts,
}

impl Algorithm {
    pub const ALL: [Algorithm; 6] = [
        Algorithm::Random,
        Algorithm::Minimax,
        Algorithm::Negamax,
        Algorithm::AlphaBeta,
        Algorithm::Mcs,
        Algorithm::Mcts,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Random => "random",
            Algorithm::Minimax => "minimax",
            Algorithm::Negamax => "negamax",
            Algorithm::AlphaBeta => "alphabeta",
            Algorithm::Mcs => "mcs",
            Algorithm::Mcts => "mcts",
        }
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An algorithm name that is not one of [`Algorithm::ALL`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown algorithm {0:?}: expected one of random, minimax, negamax, alphabeta, mcs, mcts")]
pub struct UnknownAlgorithm(pub String);

impl FromStr for Algorithm {
    type Err = UnknownAlgorithm;

    fn from_str(name: &str) -> Result<Self, UnknownAlgorithm> {
        Algorithm::ALL
            .into_iter()
            .find(|algorithm| algorithm.name() == name)
            .ok_or_else(|| UnknownAlgorithm(name.to_owned()))
    }
}

/// Default number of random playouts per legal move for `mcs`.
pub const DEFAULT_PLAYOUTS: u32 = 10;

/// An algorithm with its parameters: everything a search needs but the position and the seed.
///
/// The parameters live in the variants, so a knob that does not belong to an algorithm cannot
/// be expressed. `depth: None` searches to the end of the game. A `time_limit` stops sampling
/// early; the result then depends on the machine's speed, not only on the seed.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Strategy {
    Random,
    Minimax {
        depth: Option<u32>,
    },
    Negamax {
        depth: Option<u32>,
    },
    AlphaBeta {
        depth: Option<u32>,
    },
    Mcs {
        playouts: u32,
        time_limit: Option<Duration>,
    },
    Mcts(MctsParams),
}

impl Strategy {
    /// The algorithm with its default parameters.
    pub fn with_defaults(algorithm: Algorithm) -> Strategy {
        match algorithm {
            Algorithm::Random => Strategy::Random,
            Algorithm::Minimax => Strategy::Minimax { depth: None },
            Algorithm::Negamax => Strategy::Negamax { depth: None },
            Algorithm::AlphaBeta => Strategy::AlphaBeta { depth: None },
            Algorithm::Mcs => Strategy::Mcs {
                playouts: DEFAULT_PLAYOUTS,
                time_limit: None,
            },
            Algorithm::Mcts => Strategy::Mcts(MctsParams::default()),
        }
    }

    pub fn algorithm(&self) -> Algorithm {
        match self {
            Strategy::Random => Algorithm::Random,
            Strategy::Minimax { .. } => Algorithm::Minimax,
            Strategy::Negamax { .. } => Algorithm::Negamax,
            Strategy::AlphaBeta { .. } => Algorithm::AlphaBeta,
            Strategy::Mcs { .. } => Algorithm::Mcs,
            Strategy::Mcts(_) => Algorithm::Mcts,
        }
    }

    /// Whether the seed changes the result: the API reports the seed only for these.
    pub fn is_randomized(&self) -> bool {
        matches!(
            self,
            Strategy::Random | Strategy::Mcs { .. } | Strategy::Mcts(_)
        )
    }
}

/// What a search found and what it cost.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult<M> {
    /// The chosen move: the first best one in move order.
    pub best_move: M,
    /// The value of the position for the side to move: +1 win, 0 draw, -1 loss when `exact`;
    /// heuristic or sampled values lie strictly inside (-1, 1).
    pub score: f64,
    /// Whether `score` is proven.
    pub exact: bool,
    /// Game states visited or created, the root included.
    pub nodes: u64,
    /// The principal variation from the root, starting with `best_move`; empty when the
    /// algorithm has none.
    pub pv: Vec<M>,
    pub elapsed: Duration,
}

/// Why no search was run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SearchError {
    #[error("the game is already over: there is no move to search")]
    GameOver,
}

/// Searches `game` with `strategy`; `seed` drives every random choice, so the same inputs
/// always give the same result.
pub fn search<G: Game>(
    game: &G,
    strategy: &Strategy,
    seed: u64,
) -> Result<SearchResult<G::Move>, SearchError> {
    if game.outcome().is_over() {
        return Err(SearchError::GameOver);
    }
    let started = Instant::now();
    let mut result = match *strategy {
        Strategy::Random => random::search(game, seed),
        Strategy::Minimax { depth } => minimax::search(game, depth),
        Strategy::Negamax { depth } => negamax::search(game, depth),
        Strategy::AlphaBeta { depth } => alphabeta::search(game, depth),
        Strategy::Mcs {
            playouts,
            time_limit,
        } => mcs::search(game, playouts, time_limit, seed),
        Strategy::Mcts(params) => mcts::search(game, &params, seed),
    };
    result.elapsed = started.elapsed();
    Ok(result)
}

/// The value of a finished game for the side to move in it.
#[inline]
fn terminal_value(outcome: Outcome, to_move: Player) -> Value {
    match outcome {
        Outcome::Won(winner) if winner == to_move => WIN,
        Outcome::Won(_) => -WIN,
        Outcome::Draw | Outcome::InProgress => 0,
    }
}

/// The game's static estimate, as a value strictly between the proven ones.
#[inline]
fn heuristic<G: Game>(game: &G) -> Value {
    let limit = WIN - 1;
    ((game.evaluate() * f64::from(limit)).round() as Value).clamp(-limit, limit)
}

/// A depth limit in plies, `None` meaning to the end of the game; a limit below 1 would leave
/// no move to choose, so it is raised to 1.
fn depth_limit(depth: Option<u32>) -> u32 {
    depth.map_or(u32::MAX, |depth| depth.max(1))
}

/// The outcome of a fixed-depth exact search, turned into a result.
fn exact_search_result<M>(
    value: Value,
    hit_horizon: bool,
    nodes: u64,
    pv: Vec<M>,
) -> SearchResult<M>
where
    M: Copy,
{
    SearchResult {
        best_move: pv[0],
        score: f64::from(value) / f64::from(WIN),
        // A heuristic leaf can never produce +-WIN, so a proven win or loss stands even when
        // the horizon was reached; any other value is exact only if no leaf was estimated.
        exact: !hit_horizon || value.abs() == WIN,
        nodes,
        pv,
        elapsed: Duration::ZERO,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn algorithm_names_round_trip() {
        for algorithm in Algorithm::ALL {
            assert_eq!(algorithm.name().parse::<Algorithm>(), Ok(algorithm));
            assert_eq!(Strategy::with_defaults(algorithm).algorithm(), algorithm);
        }
        assert!("alpha-beta".parse::<Algorithm>().is_err());
    }
}
