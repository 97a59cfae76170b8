//! Search algorithms, generic over [`Game`](crate::game::Game), one file each, and what they share, one concept a
//! file: the settings a search is given (`strategy.rs`, the engine's in `engine.rs`), its
//! values (`value.rs`), what it answers (`result.rs`), its limits (`budget.rs`), the searcher
//! every algorithm is set up as (`searcher.rs`) and the one dispatcher to them (`dispatch.rs`),
//! a game's strongest play (`solve.rs`), and the entry the rest of the crate calls (`entry.rs`:
//! search, analyze, a level's choice, a review's search that remembers). This file is the front
//! door: it declares the files and says what the crate may use of them, and does nothing else.
//!
//! Every algorithm is written as the classic tutorials teach it, so that its node count can be
//! compared with theirs, and made fast by the data it runs on (`Copy` bitboard positions, no
//! allocation per node) rather than by changing the algorithm.
//!
//! The API's `score` is +1/0/-1 for proven values (with `plies_to_end`) and the value divided
//! by [`WIN`] for estimates.

mod algorithms;
pub(crate) mod alphabeta;
pub mod alphazero;
mod analysis;
mod budget;
mod default_solver;
mod dispatch;
pub mod engine;
mod entry;
mod exact;
pub mod level;
mod mcs;
mod mcts;
mod minimax;
mod negamax;
mod playout;
mod pv;
mod random;
mod record;
mod result;
mod searcher;
pub mod seed;
mod solve;
mod strategy;
mod table;
pub mod tables;
mod tiebreak;
mod value;
mod watch;

pub use algorithms::UnknownAlgorithm;
pub use alphabeta::{AlphaBetaParams, Enhancements};
pub use alphazero::{AlphaZeroParams, DEFAULT_C_PUCT};
pub use analysis::{Analysis, MoveAnalysis};
pub(crate) use budget::Meter;
pub use budget::{Budget, Cutoff, Pause, Yield, tighter};
pub(crate) use engine::CLOCK_OVERHEAD;
pub use engine::{
    Clock, DEFAULT_HASH_MB, EngineOptions, EngineParams, MAX_ELO, MAX_THREADS, MIN_ELO, UNLIMITED,
    share,
};
pub use entry::{
    analyze, analyze_within, choose_within, search, search_remembering, search_within,
};
pub use mcts::{
    DEFAULT_EXPAND_THRESHOLD, DEFAULT_SIMULATIONS, DEFAULT_UCT_C, MAX_TREE_NODES, MctsParams,
};
use pv::PvTable;
pub use record::{Algorithm, Chance, Record, Samples, Stops};
pub use result::{Score, SearchError, SearchResult, panic_message};
pub(crate) use result::{
    exact_score, exact_search_result, fixed_depth_result, stopped_search_result,
};
pub use seed::SearchRng;
pub use solve::Solve;
pub use strategy::{DEFAULT_PLAYOUTS, Strategy};
pub use tiebreak::Tiebreak;
pub(crate) use value::{
    Evaluate, INFINITY, PROVEN, depth_limit, evaluation, heuristic, scaled, terminal_value,
    with_evaluation,
};
pub use value::{EvaluationIndex, MAX_DEPTH, MAX_EVALUATIONS, Value, WIN};
pub use watch::{Iteration, Watch};

/// What a game's own solver builds on, kept beside its rules in the game's folder: the budget's
/// meter, search values, alphabeta as a fallback.
pub(crate) mod kit {
    pub(crate) use super::budget::Meter;
    pub(crate) use super::{Value, WIN, alphabeta, exact_score, exact_search_result};
}
