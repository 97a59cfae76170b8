//! Search algorithms, generic over [`Game`], one file each.
//!
//! Every algorithm is written as the classic tutorials teach it, so that its node count can be
//! compared with theirs, and made fast by the data it runs on (`Copy` bitboard positions, no
//! allocation per node) rather than by changing the algorithm.
//!
//! Values inside the exact searches are integers in the side to move's frame. A proven win is
//! worth [`WIN`] minus the plies from the root to the end of the game, so that a faster win is
//! worth more and a slower loss less; a draw is 0; heuristic estimates lie strictly between
//! `-PROVEN` and `PROVEN`. The API's `score` is +1/0/-1 for proven values (with `plies_to_end`)
//! and the value divided by [`WIN`] for estimates.

pub(crate) mod alphabeta;
mod analysis;
mod budget;
mod dispatch;
mod mcs;
mod mcts;
mod minimax;
mod negamax;
mod playout;
mod pv;

mod default_solver;
mod random;
pub mod seed;
mod table;
mod watch;

use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

use crate::game::{Game, Outcome, Player};

pub use alphabeta::{AlphaBetaParams, Enhancements};
pub use analysis::{Analysis, MoveAnalysis};
use budget::Meter;
pub use budget::{Budget, Cutoff};
pub use mcts::{
    DEFAULT_EXPAND_THRESHOLD, DEFAULT_SIMULATIONS, DEFAULT_UCT_C, MAX_TREE_NODES, MctsParams,
};
use pv::PvTable;
pub use watch::{Iteration, Watch};

/// What a game's own solver builds on, kept beside its rules in the game's folder: the budget's
/// meter, search values, alphabeta as a fallback.
pub(crate) mod kit {
    pub(crate) use super::budget::Meter;
    pub(crate) use super::{
        INFINITY, MAX_DEPTH, PROVEN, Value, WIN, alphabeta, exact_score, exact_search_result,
    };
}

/// A search value in the side to move's frame.
pub type Value = i32;

/// The value of a win for the side to move at the root, less one per ply to the end.
pub const WIN: Value = 10_000;

/// Values at least this large (in absolute value) are proven; estimates stay below it.
pub(crate) const PROVEN: Value = WIN - 1_000;

/// Above every value, so that `-INFINITY` is below every value.
pub(crate) const INFINITY: Value = WIN + 1;

/// The deepest a depth-limited or deepening search goes.
pub const MAX_DEPTH: u32 = 64;

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
    Solver,
    Engine,
}

impl Algorithm {
    /// Every algorithm, in declaration order: `algorithm as usize` is its index here (checked
    /// when compiling, below).
    pub const ALL: [Algorithm; 8] = [
        Algorithm::Random,
        Algorithm::Minimax,
        Algorithm::Negamax,
        Algorithm::AlphaBeta,
        Algorithm::Mcs,
        Algorithm::Mcts,
        Algorithm::Solver,
        Algorithm::Engine,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Random => "random",
            Algorithm::Minimax => "minimax",
            Algorithm::Negamax => "negamax",
            Algorithm::AlphaBeta => "alphabeta",
            Algorithm::Mcs => "mcs",
            Algorithm::Mcts => "mcts",
            Algorithm::Solver => "solver",
            Algorithm::Engine => "engine",
        }
    }
}

const _: () = {
    let mut index = 0;
    while index < Algorithm::ALL.len() {
        assert!(Algorithm::ALL[index] as usize == index);
        index += 1;
    }
};

/// Written as its name: the answers carry the algorithm itself, and the JSON spells it as the
/// API does.
impl serde::Serialize for Algorithm {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl<'de> serde::Deserialize<'de> for Algorithm {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = String::deserialize(deserializer)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An algorithm name that is not one of [`Algorithm::ALL`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown algorithm {0:?}: expected one of random, minimax, negamax, alphabeta, mcs, mcts, solver, engine"
)]
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

/// How to choose among moves of the same value.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Tiebreak {
    /// The first in move order: the textbook behaviour.
    #[default]
    First,
    /// A uniformly random one, drawn from the seed.
    Random,
    /// The one that leaves the opponent the most replies that lose: the most chances to go
    /// wrong. Among those, the first.
    Traps,
}

impl Tiebreak {
    pub const ALL: [Tiebreak; 3] = [Tiebreak::First, Tiebreak::Random, Tiebreak::Traps];

    pub fn name(self) -> &'static str {
        match self {
            Tiebreak::First => "first",
            Tiebreak::Random => "random",
            Tiebreak::Traps => "traps",
        }
    }
}

impl FromStr for Tiebreak {
    type Err = String;

    fn from_str(name: &str) -> Result<Self, String> {
        Tiebreak::ALL
            .into_iter()
            .find(|tiebreak| tiebreak.name() == name)
            .ok_or_else(|| format!("unknown tiebreak {name:?}: expected first, random or traps"))
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
        tiebreak: Tiebreak,
        evaluation: EvaluationIndex,
    },
    Negamax {
        depth: Option<u32>,
        tiebreak: Tiebreak,
        evaluation: EvaluationIndex,
    },
    AlphaBeta(AlphaBetaParams, Tiebreak),
    /// The strongest exact play the game has: a table of every position for games small
    /// enough, else alphabeta with every enhancement, deepening until `time_limit`.
    Solver {
        time_limit: Option<Duration>,
        tiebreak: Tiebreak,
    },
    Mcs {
        playouts: u32,
        time_limit: Option<Duration>,
    },
    Mcts(MctsParams),
    /// The game's strongest player within its limits: its own engine where it has one
    /// (chess), else its solver.
    Engine(EngineParams),
}

/// What the `engine` algorithm is given: how long it may think, and with how much memory.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct EngineParams {
    /// Deepen until this much time has passed (the engine's own default without it).
    pub time_limit: Option<Duration>,
    /// The deepest iteration, in plies (as deep as it has time for without it).
    pub depth: Option<u32>,
    /// The size of the engine's transposition table, in MiB (rounded down to a power of two
    /// of entries), as UCI's `Hash` option gives it.
    pub hash_mb: u32,
    /// One of the engine's steps turned off, to measure what it gains (a self-play SPRT of
    /// the engine against itself without it).
    pub without: Option<Step>,
    /// The most nodes to search.
    pub nodes: Option<u64>,
    /// The players' clocks, as UCI's `go` gives them: the engine shares out the time of the
    /// side to move.
    pub clock: Clock,
    /// How many of the best moves an analysis gives (UCI's and lichess's `MultiPV`); every
    /// legal move without it. A move's choice is the same whatever it is.
    pub multipv: Option<u32>,
}

/// What is left on each player's clock, their increments, and the moves until the next time
/// control, as UCI names them; each is optional.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct Clock {
    pub wtime: Option<Duration>,
    pub btime: Option<Duration>,
    pub winc: Option<Duration>,
    pub binc: Option<Duration>,
    pub movestogo: Option<u32>,
}

impl Clock {
    /// The time left and the increment of one side, if its clock is given.
    pub fn of(&self, white: bool) -> Option<(Duration, Duration)> {
        let (left, increment) = if white {
            (self.wtime, self.winc)
        } else {
            (self.btime, self.binc)
        };
        left.map(|left| (left, increment.unwrap_or_default()))
    }

    /// The time one side's clock allows a move, if its clock is given: what is left (less a
    /// margin for passing the answer on) over the moves to go (`movestogo`, or `moves` when
    /// it is not given), and most of the increment; never more than half of what is left.
    pub fn share(&self, white: bool, moves: u32) -> Option<Duration> {
        let (left, increment) = self.of(white)?;
        let left = left
            .saturating_sub(CLOCK_OVERHEAD)
            .max(Duration::from_millis(1));
        let moves = self.movestogo.unwrap_or(moves).clamp(1, 50);
        Some((left / moves + increment * 3 / 4).min(left / 2))
    }
}

/// Kept back from a clock for what the answer takes beyond the search: writing it, and the
/// time a match runner or the network takes to pass it on.
pub(crate) const CLOCK_OVERHEAD: Duration = Duration::from_millis(20);

/// The parts of the chess engine's search that can be turned off one at a time, each kept
/// because a self-play SPRT said it gains (`docs/chess.md` has the table).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// Aspiration windows: each iteration first searches a narrow window around the last
    /// iteration's value.
    Aspiration,
    /// Null-move pruning: a position still above beta when the side to move passes is cut.
    NullMove,
    /// Late move reductions: quiet moves late in the order are searched less deep first.
    Reductions,
    /// Reverse futility pruning: near the horizon, a static evaluation far above beta cuts.
    ReverseFutility,
    /// Late move pruning and futility pruning: near the horizon, quiet moves late in the order,
    /// or that cannot lift a hopeless evaluation to alpha, are not searched.
    LateMovePruning,
    /// Static exchange evaluation: captures that lose material are searched last, skipped
    /// near the horizon and in quiescence.
    Exchange,
    /// The evaluation's terms beyond PeSTO's tables: mobility, king safety, pawn structure,
    /// passed pawns, the bishop pair.
    Terms,
}

impl Step {
    pub const ALL: [Step; 7] = [
        Step::Aspiration,
        Step::NullMove,
        Step::Reductions,
        Step::ReverseFutility,
        Step::LateMovePruning,
        Step::Exchange,
        Step::Terms,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Step::Aspiration => "aspiration",
            Step::NullMove => "null_move",
            Step::Reductions => "reductions",
            Step::ReverseFutility => "reverse_futility",
            Step::LateMovePruning => "late_move_pruning",
            Step::Exchange => "exchange",
            Step::Terms => "terms",
        }
    }
}

/// The engine's table size when a request gives none.
pub const DEFAULT_HASH_MB: u32 = 8;

impl Default for EngineParams {
    fn default() -> Self {
        EngineParams {
            time_limit: None,
            depth: None,
            hash_mb: DEFAULT_HASH_MB,
            without: None,
            nodes: None,
            clock: Clock::default(),
            multipv: None,
        }
    }
}

impl EngineParams {
    /// Thinking for `time_limit`, the rest by default.
    pub fn for_time(time_limit: Duration) -> Self {
        EngineParams {
            time_limit: Some(time_limit),
            ..EngineParams::default()
        }
    }
}

impl Strategy {
    /// The algorithm with its default parameters.
    pub fn with_defaults(algorithm: Algorithm) -> Strategy {
        match algorithm {
            Algorithm::Random => Strategy::Random,
            Algorithm::Minimax => Strategy::Minimax {
                depth: None,
                tiebreak: Tiebreak::First,
                evaluation: 0,
            },
            Algorithm::Negamax => Strategy::Negamax {
                depth: None,
                tiebreak: Tiebreak::First,
                evaluation: 0,
            },
            Algorithm::AlphaBeta => {
                Strategy::AlphaBeta(AlphaBetaParams::default(), Tiebreak::First)
            }
            Algorithm::Solver => Strategy::Solver {
                time_limit: None,
                tiebreak: Tiebreak::First,
            },
            Algorithm::Mcs => Strategy::Mcs {
                playouts: DEFAULT_PLAYOUTS,
                time_limit: None,
            },
            Algorithm::Mcts => Strategy::Mcts(MctsParams::default()),
            Algorithm::Engine => Strategy::Engine(EngineParams::default()),
        }
    }

    /// A sampler (mcs, mcts) with no count of its own: it samples until its time, or its
    /// budget, stops it. Other strategies are unchanged.
    pub fn sampling_until_stopped(self) -> Strategy {
        match self {
            Strategy::Mcs { time_limit, .. } => Strategy::Mcs {
                playouts: u32::MAX,
                time_limit,
            },
            Strategy::Mcts(params) => Strategy::Mcts(MctsParams {
                simulations: u32::MAX,
                ..params
            }),
            other => other,
        }
    }

    pub fn algorithm(&self) -> Algorithm {
        match self {
            Strategy::Random => Algorithm::Random,
            Strategy::Minimax { .. } => Algorithm::Minimax,
            Strategy::Negamax { .. } => Algorithm::Negamax,
            Strategy::AlphaBeta(..) => Algorithm::AlphaBeta,
            Strategy::Solver { .. } => Algorithm::Solver,
            Strategy::Mcs { .. } => Algorithm::Mcs,
            Strategy::Mcts(_) => Algorithm::Mcts,
            Strategy::Engine(_) => Algorithm::Engine,
        }
    }

    /// Whether the seed changes the result: the API reports the seed only for these.
    pub fn is_randomized(&self) -> bool {
        matches!(
            self,
            Strategy::Random | Strategy::Mcs { .. } | Strategy::Mcts(_)
        ) || self.tiebreak() == Tiebreak::Random
    }

    /// The strategy aiming to spend about `time` on a move, where it can deepen or sample
    /// within a time limit (a shorter limit of its own stays); the others are unchanged.
    pub fn within(mut self, time: Duration) -> Strategy {
        if let Some(limit) = self.time_limit_mut() {
            *limit = Some(limit.map_or(time, |own| own.min(time)));
        }
        self
    }

    /// The strategy with no time limit of its own: a deepening search then deepens to its
    /// depth, or to the end of the game.
    pub fn without_time_limit(mut self) -> Strategy {
        if let Some(limit) = self.time_limit_mut() {
            *limit = None;
        }
        self
    }

    /// The strategy's own time limit, for the strategies that take one.
    fn time_limit_mut(&mut self) -> Option<&mut Option<Duration>> {
        match self {
            Strategy::Solver { time_limit, .. } | Strategy::Mcs { time_limit, .. } => {
                Some(time_limit)
            }
            Strategy::Mcts(params) => Some(&mut params.time_limit),
            Strategy::AlphaBeta(params, _) => Some(&mut params.time_limit),
            Strategy::Engine(params) => Some(&mut params.time_limit),
            Strategy::Random | Strategy::Minimax { .. } | Strategy::Negamax { .. } => None,
        }
    }

    /// The strategy playing on a clock with `left` and `increment` for the side to move, if
    /// it shares out a clock itself (the engine); the others are given a time per move.
    pub fn on_clock(self, left: Duration, increment: Duration) -> Option<Strategy> {
        match self {
            Strategy::Engine(mut params) => {
                params.clock = Clock {
                    wtime: Some(left),
                    btime: Some(left),
                    winc: Some(increment),
                    binc: Some(increment),
                    movestogo: None,
                };
                Some(Strategy::Engine(params))
            }
            _ => None,
        }
    }

    /// Which of the game's evaluations a depth-limited search scores its leaves with.
    pub fn evaluation(&self) -> EvaluationIndex {
        match *self {
            Strategy::Minimax { evaluation, .. } | Strategy::Negamax { evaluation, .. } => {
                evaluation
            }
            Strategy::AlphaBeta(params, _) => params.evaluation,
            _ => 0,
        }
    }

    /// How an exact algorithm breaks ties (`First` for the others).
    pub fn tiebreak(&self) -> Tiebreak {
        match *self {
            Strategy::Minimax { tiebreak, .. }
            | Strategy::Negamax { tiebreak, .. }
            | Strategy::AlphaBeta(_, tiebreak)
            | Strategy::Solver { tiebreak, .. } => tiebreak,
            _ => Tiebreak::First,
        }
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
    /// For a proven result, the plies until the game ends under perfect play: the fastest win,
    /// the slowest loss; a draw lasts until the board is full.
    pub plies_to_end: Option<u32>,
    /// Game states visited or created, the root included.
    pub nodes: u64,
    /// The principal variation from the root, starting with `best_move`; empty when the
    /// algorithm has none.
    pub pv: Vec<M>,
    /// The depth of the last completed iteration, for the deepening searches.
    pub depth: Option<u32>,
    /// The deepest ply the search reached, quiescence and extensions included (the chess
    /// engine's).
    pub seldepth: Option<u32>,
    /// For games scored by their discs (Othello), a proven result's final disc difference for
    /// the side to move under perfect play, the empty squares going to the winner.
    pub margin: Option<i32>,
    pub elapsed: Duration,
    /// Set when a limit stopped the search before it finished what it was asked: the result
    /// is then the best it had completed, exact only if that part proved it.
    pub stopped_by: Option<Cutoff>,
}

/// Why no search was run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SearchError {
    #[error("the game is already over: there is no move to search")]
    GameOver,
}

/// A game's `solver`: the strongest exact play it has.
///
/// By default a perfect table for games small enough to enumerate, else alphabeta with every
/// enhancement, deepening within the time limit. A game with a solver of its own implements
/// it in its folder, beside its rules.
pub trait Solve: Game {
    fn solve(&self, time_limit: Option<Duration>, budget: &Budget) -> SearchResult<Self::Move> {
        default_solver::search(self, time_limit, budget)
    }

    /// Every legal move valued by the solver, best first; by default the exact values of the
    /// search [`Solve::solve`] runs.
    fn solver_analysis(
        &self,
        time_limit: Option<Duration>,
        budget: &Budget,
    ) -> Analysis<Self::Move> {
        analysis::solver_analysis(self, time_limit, budget)
    }

    /// Computes now what the solver builds once (a perfect table, a large transposition
    /// table), so that no request waits for it.
    fn warm_up() {
        default_solver::warm_up::<Self>();
    }

    /// The `engine` algorithm: the strongest player the game has within `params`; by default
    /// its solver, or alphabeta with every enhancement when the depth is limited.
    fn engine(&self, params: &EngineParams, budget: &Budget) -> SearchResult<Self::Move> {
        match depth_limited(params) {
            Some(strategy) => dispatch::dispatch(&strategy, 0, dispatch::BestMove(self, budget)),
            None => self.solve(params.time_limit, budget),
        }
    }

    /// Every legal move valued by the engine; by default the solver's (as [`Solve::engine`]
    /// searches).
    fn engine_analysis(&self, params: &EngineParams, budget: &Budget) -> Analysis<Self::Move> {
        match depth_limited(params) {
            Some(strategy) => dispatch::dispatch(&strategy, 0, dispatch::EveryMove(self, budget)),
            None => self.solver_analysis(params.time_limit, budget),
        }
    }
}

/// The default engine's search when `params` limit its depth: alphabeta with every
/// enhancement, that deep.
fn depth_limited(params: &EngineParams) -> Option<Strategy> {
    let depth = params.depth?;
    Some(Strategy::AlphaBeta(
        AlphaBetaParams {
            depth: Some(depth),
            ..AlphaBetaParams::strongest(params.time_limit)
        },
        Tiebreak::First,
    ))
}

/// Searches `game` with `strategy`; `seed` drives every random choice, so the same inputs
/// always give the same result.
pub fn search<G: Solve>(
    game: &G,
    strategy: &Strategy,
    seed: u64,
) -> Result<SearchResult<G::Move>, SearchError> {
    search_within(game, strategy, seed, &Budget::unlimited())
}

/// [`search`], stopping early if `budget` runs out (see [`SearchResult::stopped_by`]).
pub fn search_within<G: Solve>(
    game: &G,
    strategy: &Strategy,
    seed: u64,
    budget: &Budget,
) -> Result<SearchResult<G::Move>, SearchError> {
    if game.outcome().is_over() {
        return Err(SearchError::GameOver);
    }
    let started = Instant::now();
    let mut result = dispatch::dispatch(strategy, seed, dispatch::BestMove(game, budget));
    result.elapsed = started.elapsed();
    Ok(result)
}

/// Analyses every legal move of `game` with `strategy`: each with its value, best first.
pub fn analyze<G: Solve>(
    game: &G,
    strategy: &Strategy,
    seed: u64,
) -> Result<Analysis<G::Move>, SearchError> {
    analyze_within(game, strategy, seed, &Budget::unlimited())
}

/// [`analyze`], stopping early if `budget` runs out.
pub fn analyze_within<G: Solve>(
    game: &G,
    strategy: &Strategy,
    seed: u64,
    budget: &Budget,
) -> Result<Analysis<G::Move>, SearchError> {
    if game.outcome().is_over() {
        return Err(SearchError::GameOver);
    }
    let started = Instant::now();
    let mut analysis = dispatch::dispatch(strategy, seed, dispatch::EveryMove(game, budget));
    analysis.elapsed = started.elapsed();
    // An engine whose analysis searches every move answers the lines asked for.
    if let Strategy::Engine(EngineParams {
        multipv: Some(lines),
        ..
    }) = strategy
    {
        analysis.moves.truncate(*lines as usize);
    }
    Ok(analysis)
}

/// The value of a finished game for the side to move in it, `ply` plies below the root.
#[inline]
fn terminal_value(outcome: Outcome, to_move: Player, ply: usize) -> Value {
    let win = WIN - ply as Value;
    match outcome {
        Outcome::Won(winner) if winner == to_move => win,
        Outcome::Won(_) => -win,
        Outcome::Draw | Outcome::InProgress => 0,
    }
}

/// A game's static estimate of a position for the side to move (one of its
/// [`EVALUATIONS`](Game::EVALUATIONS)).
pub(crate) type Evaluate<G> = fn(&G) -> f64;

/// Which of a game's evaluations a search uses: an index into [`Game::EVALUATIONS`].
pub type EvaluationIndex = u8;

/// The most evaluations a game may offer: the searches that use one are compiled for each, so
/// that scoring a leaf is a direct call the compiler can inline, not a call through a pointer
/// that weighs on every node, searches to the end that never score a leaf included (`cargo
/// bench --bench tictactoe -- "full tree"` shows it).
pub const MAX_EVALUATIONS: usize = 4;

/// Runs `$body` with `$e` a constant: the evaluation index `$index`, as a const generic.
macro_rules! with_evaluation {
    ($index:expr, $e:ident => $body:expr) => {
        match $index {
            0 => {
                const $e: u8 = 0;
                $body
            }
            1 => {
                const $e: u8 = 1;
                $body
            }
            2 => {
                const $e: u8 = 2;
                $body
            }
            _ => {
                const $e: u8 = 3;
                $body
            }
        }
    };
}
pub(crate) use with_evaluation;

/// The game's evaluation number `index`, its first if it has no such one.
pub(crate) fn evaluation<G: Game>(index: EvaluationIndex) -> Evaluate<G> {
    const {
        assert!(
            !G::EVALUATIONS.is_empty() && G::EVALUATIONS.len() <= MAX_EVALUATIONS,
            "a game offers one evaluation or more, up to MAX_EVALUATIONS"
        );
    }
    G::EVALUATIONS
        .get(usize::from(index))
        .unwrap_or(&G::EVALUATIONS[0])
        .evaluate
}

/// The game's static estimate, as a value strictly between the proven ones.
#[inline]
fn heuristic<G: Game>(game: &G, evaluate: Evaluate<G>) -> Value {
    let limit = PROVEN - 1;
    ((evaluate(game) * f64::from(limit)).round() as Value).clamp(-limit, limit)
}

/// A depth limit in plies, `None` meaning to the end of the game; a limit below 1 would leave
/// no move to choose, so it is raised to 1.
fn depth_limit(depth: Option<u32>) -> u32 {
    depth.map_or(u32::MAX, |depth| depth.max(1))
}

/// What an exact search's value says, for the API: the score, whether it is proven, and the
/// plies to the end.
pub(crate) fn exact_score<G: Game>(
    game: &G,
    value: Value,
    hit_horizon: bool,
) -> (f64, bool, Option<u32>) {
    if value.abs() >= PROVEN {
        // A heuristic leaf never produces a proven value, so a proven win or loss stands even
        // when the horizon was reached.
        let plies = (WIN - value.abs()) as u32;
        (f64::from(value.signum()), true, Some(plies))
    } else if !hit_horizon {
        // Searched to the end and neither side wins: a draw, as long as the rules make it.
        (0.0, true, game.draw_length().map(|plies| plies as u32))
    } else {
        (f64::from(value) / f64::from(WIN), false, None)
    }
}

/// The outcome of a fixed-depth exact search, turned into a result.
pub(crate) fn exact_search_result<G: Game>(
    game: &G,
    value: Value,
    hit_horizon: bool,
    nodes: u64,
    pv: Vec<G::Move>,
) -> SearchResult<G::Move> {
    let (score, exact, plies_to_end) = exact_score(game, value, hit_horizon);
    SearchResult {
        best_move: pv[0],
        score,
        exact,
        plies_to_end,
        nodes,
        pv,
        depth: None,
        seldepth: None,
        margin: None,
        elapsed: Duration::ZERO,
        stopped_by: None,
    }
}

/// The outcome of a fixed-depth search: exact as far as it looked, or, if a limit stopped it,
/// the best of what it completed.
fn fixed_depth_result<G: Game>(
    game: &G,
    value: Value,
    hit_horizon: bool,
    nodes: u64,
    pv: Vec<G::Move>,
    stopped_by: Option<Cutoff>,
) -> SearchResult<G::Move> {
    match stopped_by {
        Some(cutoff) => stopped_search_result(game, value, nodes, pv, cutoff),
        None => exact_search_result(game, value, hit_horizon, nodes, pv),
    }
}

/// The answer of a fixed-depth search that a limit stopped: the best of the root moves it
/// searched to the end, with their line; or, when it had not finished one, the best move by a
/// one-ply look (one node per move, never stopped), so that there is always a move.
///
/// The value is only a bound (the moves not searched might be better), so it is not exact.
fn stopped_search_result<G: Game>(
    game: &G,
    value: Value,
    nodes: u64,
    pv: Vec<G::Move>,
    stopped_by: Cutoff,
) -> SearchResult<G::Move> {
    let (value, nodes, pv) = if pv.is_empty() {
        let mut look = negamax::Negamax::<G, 0>::new(G::MAX_PLIES, &Budget::unlimited());
        let value = look.value(game, 1, 0);
        (value, nodes + look.nodes, look.line(0))
    } else {
        (value, nodes, pv)
    };
    SearchResult {
        best_move: pv[0],
        score: f64::from(value) / f64::from(WIN),
        exact: false,
        plies_to_end: None,
        nodes,
        pv,
        depth: None,
        seldepth: None,
        margin: None,
        elapsed: Duration::ZERO,
        stopped_by: Some(stopped_by),
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
