//! The engine kit: one search that chess, shogi, Othello's midgame and gomoku play through, each
//! game giving it its position by a small contract ([`Board`], `contract.rs`).
//!
//! Iterative deepening (with aspiration windows) of a principal variation search, with
//! - a quiescence search at the horizon, over the moves the game calls noisy (captures and
//!   promotions), so that a leaf is never scored in the middle of an exchange (the horizon
//!   effect); captures that lose material by static exchange, or cannot reach alpha, are left
//!   out;
//! - one transposition table keyed by the game's key (`table.rs`), whose move is tried first;
//! - move ordering (`ordering.rs`): the table's move, captures that do not lose material, the two
//!   killer moves of the ply, quiet moves by history, captures that lose;
//! - pruning where a node is unlikely to matter: null moves (verified deep in the tree),
//!   reverse futility, late move and futility pruning near the horizon, and late move
//!   reductions;
//! - a check extension, so that a mate behind a series of checks is not cut off by the horizon;
//! - a static evaluation corrected by what searches found it got wrong about the same structure
//!   (`correction.rs`);
//! - mate scores: a mate `n` plies from the root is worth `WIN - n`, so the engine takes the
//!   fastest mate and delays being mated; what the rules decide (repetitions, length limits) is
//!   the game's to say;
//! - a time plan (`time.rs`), MultiPV analysis, the watch lines, node and depth limits, a
//!   level or strength (`strength.rs`, the level's cut and draw in `search/level.rs`).
//!
//! Each step is a [`Step`]: a game turns on those that serve it ([`Board::STEPS`]), and the
//! `without` knob turns one off, which is how a step's gain is measured. What the search keeps
//! from one move to the next of a game (its table, its histories, its corrections) is a [`Kept`],
//! held by the protocols' sessions.

mod contract;
mod correction;
mod game_board;
mod ordering;
mod params;
mod search;
mod steps;
mod strength;
use strength::at_level;
pub mod swap_list;
mod table;
mod threads;
mod time;

pub use contract::Board;
pub use game_board::{GameBoard, QUIET_GAME_STEP_NAMES, QUIET_GAME_STEPS, ThroughGame};
pub(crate) use params::CLOCK_OVERHEAD;
pub use params::{
    Clock, DEFAULT_HASH_MB, EngineOptions, EngineParams, MAX_ELO, MAX_THREADS, MIN_ELO, UNLIMITED,
    share,
};
pub use steps::Step;
pub use table::Packed;

use self::search::{Engine, Memories};
use crate::game::{Drawing, Rules, in_pawns, written};
use crate::search::Algorithm;
use crate::search::record::{Chance, Record, Stops};
use crate::search::{
    Analysis, Budget, Cutoff, INFINITY, Iteration, MoveAnalysis, PROVEN, Score, SearchResult,
    Value, WIN,
};

/// The `engine` algorithm's record.
pub(super) const RECORD: Record = Record {
    algorithm: Algorithm::Engine,
    name: "engine",
    description: "The game's strongest player within its time, clock, depth or nodes, as the game \
                  declares it (GET /algorithms?game= says what it is on each game).",
    stops: Stops::Deepening,
    breaks_ties: false,
    depth_limited: true,
    chance: Chance::Level,
    samples: None,
};

/// `Solve`'s engine on the kit, for a game whose kit board is `$board`: its `Memory` (what the
/// kit keeps between a game's searches) and the three engine methods, each the kit's
/// function of that name. Written inside `impl Solve for NAME { ... }`, beside any method the
/// game writes itself (its solver): what gomoku and chess write, and a game from outside the
/// crate (`tests/nim.rs`).
#[macro_export]
macro_rules! engine_on_the_kit {
    ($board:ty) => {
        type Memory = $crate::search::engine::Kept<$board>;

        fn engine_remembering(
            &self,
            params: &$crate::search::EngineParams,
            budget: &$crate::search::Budget,
            memory: &mut Self::Memory,
        ) -> $crate::search::SearchResult<Self::Move> {
            $crate::search::engine::search_keeping::<$board>(self, params, budget, memory)
        }

        fn engine(
            &self,
            params: &$crate::search::EngineParams,
            budget: &$crate::search::Budget,
        ) -> $crate::search::SearchResult<Self::Move> {
            $crate::search::engine::search::<$board>(self, params, budget)
        }

        fn engine_analysis(
            &self,
            params: &$crate::search::EngineParams,
            budget: &$crate::search::Budget,
        ) -> $crate::search::Analysis<Self::Move> {
            $crate::search::engine::analyze::<$board>(self, params, budget)
        }
    };
}
// Exported at the crate's root, as every `macro_export` is; named here, beside the kit.
pub use super::super::engine_on_the_kit;

/// What the engine keeps from one search to the next of the same game, where the caller allows
/// it (`sente uci` and `sente usi`, until a new game): its transposition table, its histories of
/// quiet moves and its corrections of the evaluation. What earlier moves' searches found about
/// the positions still ahead is found again at once.
pub struct Kept<B: Board> {
    memories: Option<Memories<B::Move>>,
    /// Whether a search has used them since they were made or emptied.
    dirty: bool,
}

impl<B: Board> Default for Kept<B> {
    fn default() -> Self {
        Kept {
            memories: None,
            dirty: false,
        }
    }
}

impl<B: Board> Kept<B> {
    /// Forgets what it holds: a new game begins. Emptied now, outside any search's clock;
    /// memories no search has used since they were made are left as they are, so that a new
    /// game announced just before the first `go` costs nothing.
    pub fn clear(&mut self) {
        if let Some(memories) = &mut self.memories
            && self.dirty
        {
            memories.clear();
        }
        self.dirty = false;
    }

    /// Holds memories with a table of `mib` from now on, made now rather than inside the next
    /// search's clock (`isready`, after the `Hash` option).
    pub fn prepare(&mut self, mib: u32) {
        if self
            .memories
            .as_ref()
            .is_none_or(|kept| kept.table.mib() != mib)
        {
            self.memories = None;
            self.memories = Some(Memories::new::<B>(mib));
            self.dirty = false;
        }
    }
}

/// The engine's move in `game`, deepening within `params` (by default the game's time a move).
pub fn search<B: Board>(
    game: &B::Game,
    params: &EngineParams,
    budget: &Budget,
) -> SearchResult<<B::Game as Rules>::Move> {
    search_keeping::<B>(game, params, budget, &mut Kept::default())
}

/// The engine's move in `game`, searched with the memories `kept` holds (new ones if it holds
/// none, or a table of another size), which it then keeps.
pub fn search_keeping<B: Board>(
    game: &B::Game,
    params: &EngineParams,
    budget: &Budget,
    kept: &mut Kept<B>,
) -> SearchResult<<B::Game as Rules>::Move> {
    if let Some(level) =
        crate::search::level::handicap(&<B::Game as Rules>::DECLARATION, &params.options())
    {
        return at_level(game, params, &level, budget, kept);
    }
    let mut engine = Engine::<B>::new(game, params, budget, kept.memories.take());
    let mut result = threads::with_helpers(game, params, budget, &mut engine, |engine| {
        deepen_root(game, engine)
    });
    result.nodes = engine.total_nodes();
    kept.memories = Some(engine.into_memories());
    kept.dirty = true;
    result
}

/// What the deepening loop ends with: the last iteration that completed (its result and depth),
/// and why it stopped before the deepest, if it did.
struct Deepened<T> {
    completed: Option<(T, i32)>,
    stopped_by: Option<Cutoff>,
}

/// Iterative deepening, for the engine's move and its analysis alike: `iterate` searches one
/// depth and says what it found and whether that is proven (no deeper search can change it).
/// The loop stops at a proof, at the deepest iteration, when the service's budget runs out (the
/// iteration it stopped is thrown away), or when the time left could not finish another.
fn deepen<B: Board, T>(
    engine: &mut Engine<B>,
    mut iterate: impl FnMut(&mut Engine<B>, i32) -> (T, bool),
) -> Deepened<T> {
    let mut completed = None;
    let mut stopped_by = None;
    let max_depth = engine.max_depth;
    for depth in 1..=max_depth {
        // The first iteration is not timed, so that there is always a move to answer with;
        // only the service's budget can stop it.
        let deadline = engine.started + engine.plan.maximum;
        engine.meter.set_time_limit((depth > 1).then_some(deadline));
        engine.root_depth = depth;
        let (found, proven) = iterate(engine, depth);
        if let Some(cutoff) = engine.meter.stopped_by {
            stopped_by = Some(cutoff);
            break;
        }
        completed = Some((found, depth));
        if proven {
            break;
        }
        if out_of_time(engine) {
            if depth < max_depth {
                stopped_by = Some(Cutoff::TimeLimit);
            }
            break;
        }
    }
    Deepened {
        completed,
        stopped_by,
    }
}

/// Whether to stop deepening after an iteration, as the time plan says.
fn out_of_time<B: Board>(engine: &Engine<B>) -> bool {
    let elapsed = engine.started.elapsed();
    // A time per move not spent is lost: the iterations go on until it is up, and the last
    // one, stopped, still answers with what it found.
    if engine.plan.is_per_move() && engine.uses(Step::WholeTime) {
        return elapsed >= engine.plan.maximum;
    }
    !engine
        .plan
        .deepen_further(elapsed, engine.steady, engine.fell)
}

/// The root searched `depth` plies deep. From the fifth iteration on, it first searches a
/// narrow window around the last iteration's value, which cuts more; a value outside the window
/// is only a bound, and the window widens on that side until the value falls inside.
fn aspire<B: Board>(engine: &mut Engine<B>, depth: i32, last: Option<Value>) -> Value {
    let guess =
        last.filter(|value| engine.uses(Step::Aspiration) && depth >= 5 && value.abs() < PROVEN);
    let Some(guess) = guess else {
        return engine.search(depth, 0, -INFINITY, INFINITY, true);
    };
    let mut window = B::PAWN / 4;
    let widest = B::PAWN * 5;
    let (mut alpha, mut beta) = (guess - window, guess + window);
    loop {
        let value = engine.search(depth, 0, alpha, beta, true);
        if engine.meter.is_stopped() {
            return value;
        }
        window *= 2;
        if value <= alpha {
            alpha = if window > widest {
                -INFINITY
            } else {
                value - window
            };
        } else if value >= beta {
            beta = if window > widest {
                INFINITY
            } else {
                value + window
            };
        } else {
            return value;
        }
    }
}

/// Whether `value`, found by an iteration `depth` plies deep, is a mate that no deeper search
/// can change: one within the depth searched.
fn proven_within(value: Value, depth: i32) -> bool {
    value.abs() >= PROVEN && (WIN - value.abs()) <= depth
}

/// What a value says: the winning chances, or a proven result and the plies to the end.
fn judge<B: Board>(value: Value) -> Score {
    Score::of_engine_value(value, B::winning_chances)
}

/// Tells whoever watches the search what the iteration `depth` plies deep found: `value` and
/// its line from the root `game`, the line ranked `multipv` where there are several.
fn tell<B: Board>(
    engine: &Engine<B>,
    game: &B::Game,
    depth: i32,
    value: Value,
    line: &[<B::Game as Rules>::Move],
    multipv: Option<u32>,
) {
    let Some(watch) = &engine.meter.watch() else {
        return;
    };
    let Score {
        score,
        exact,
        plies_to_end,
    } = judge::<B>(value);
    let (cp, mate) = in_pawns::<B::Game>(score, exact, plies_to_end);
    let elapsed = engine.started.elapsed();
    let readable: Option<Vec<String>> = written(game, line, |game, mv| game.san(mv))
        .into_iter()
        .collect();
    watch.tell(&Iteration {
        depth: depth as u32,
        seldepth: engine.seldepth as u32,
        score,
        cp: cp.filter(|_| mate.is_none()),
        mate,
        score_for: game.side_to_move(),
        nodes: engine.total_nodes(),
        nps: Iteration::nps(engine.total_nodes(), elapsed),
        time_ms: elapsed.as_millis() as u64,
        pv: written(game, line, B::protocol_text),
        pv_san: readable.filter(|line| !line.is_empty()),
        multipv,
    });
}

/// A line of the search's moves as the game's.
fn game_line<B: Board>(line: &[B::Move]) -> Vec<<B::Game as Rules>::Move> {
    line.iter().map(|&mv| B::game_move(mv)).collect()
}

fn deepen_root<B: Board>(
    game: &B::Game,
    engine: &mut Engine<B>,
) -> SearchResult<<B::Game as Rules>::Move> {
    let mut last: Option<(Value, Option<B::Move>)> = None;
    let deepened = deepen(engine, |engine, depth| {
        engine.root_move = None;
        let value = aspire(engine, depth, last.map(|(value, _)| value));
        let best = engine.best_root_move();
        if let Some((last_value, last_best)) = last {
            engine.steady = if best == last_best {
                engine.steady + 1
            } else {
                0
            };
            engine.fell = value < last_value - B::PAWN * 3 / 10;
        }
        last = Some((value, best));
        let line = engine.line(0);
        if !engine.meter.is_stopped() {
            tell(engine, game, depth, value, &game_line::<B>(&line), None);
        }
        ((value, line), proven_within(value, depth))
    });
    let ((mut value, mut pv), depth) = match deepened.completed {
        Some(completed) => completed,
        None => {
            // Stopped by the service's budget within the first iteration: any legal move.
            let mut moves = Vec::new();
            engine.board.legal_moves(&mut moves);
            let mv = *moves.first().expect("a game in progress has a move");
            ((0, vec![mv]), 0)
        }
    };
    // An iteration stopped part way may already have shown a move better than the last one's
    // best (a root move searched whole, with a value above the others'): that move, rather
    // than the time spent on it thrown away.
    if deepened.stopped_by.is_some()
        && engine.uses(Step::WholeTime)
        && let Some((mv, found)) = engine.root_move
        && pv.first() != Some(&mv)
        && depth > 0
    {
        let line = engine.line(0);
        pv = if line.first() == Some(&mv) {
            line
        } else {
            vec![mv]
        };
        value = found;
    }
    let Score {
        score,
        exact,
        plies_to_end,
    } = judge::<B>(value);
    let pv = game_line::<B>(&pv);
    SearchResult {
        best_move: pv[0],
        score,
        exact,
        plies_to_end,
        nodes: engine.nodes,
        pv,
        depth: Some(depth as u32),
        seldepth: Some(engine.seldepth as u32),
        margin: None,
        elapsed: engine.started.elapsed(),
        stopped_by: engine.reported(deepened.stopped_by),
    }
}

/// A root move's line in an analysis: its value, whether that is only a bound, the move, and
/// the line it leads.
type Line<M> = (Value, bool, M, Vec<M>);

/// The best `params.multipv` moves of `game` (every legal move without it) with their values,
/// deepening within `params` until every line asked for is proven.
///
/// At each depth, the moves in the last iteration's order: the first `multipv` with a full
/// window, so that their values are the engine's and not bounds; each other move with a null
/// window at the value of the worst line kept, which only asks whether it is better. One that
/// is joins the lines, searched again with the full window; the others are only bounded, and
/// not answered. A line proven within the depth (a mate no deeper search can change) stays so,
/// and the moves that failed below it cannot mate sooner within that depth: once every line
/// kept is proven, nothing deeper can change the answer.
pub fn analyze<B: Board>(
    game: &B::Game,
    params: &EngineParams,
    budget: &Budget,
) -> Analysis<<B::Game as Rules>::Move> {
    let mut engine = Engine::<B>::new(game, params, budget, None);
    let deepened = threads::with_helpers(game, params, budget, &mut engine, |engine| {
        analyze_lines(game, params, engine)
    });
    let (completed, depth) = deepened.completed.unwrap_or((Vec::new(), 0));
    Analysis {
        moves: completed
            .into_iter()
            .map(|(value, _, mv, line)| {
                let Score {
                    score,
                    exact,
                    plies_to_end,
                } = judge::<B>(value);
                MoveAnalysis {
                    mv: B::game_move(mv),
                    score,
                    exact,
                    plies_to_end,
                    visits: None,
                    prior: None,
                    value: None,
                    pv: game_line::<B>(&line),
                    margin: None,
                    depth: Some(depth as u32),
                }
            })
            .collect(),
        nodes: engine.total_nodes(),
        elapsed: engine.started.elapsed(),
        stopped_by: engine.reported(deepened.stopped_by),
    }
}

/// The analysis's iterations, each the lines asked for (see [`analyze`]).
fn analyze_lines<B: Board>(
    game: &B::Game,
    params: &EngineParams,
    engine: &mut Engine<B>,
) -> Deepened<Vec<Line<B::Move>>> {
    let mut moves = Vec::new();
    engine.board.legal_moves(&mut moves);
    let lines = params
        .multipv
        .map_or(moves.len(), |lines| lines as usize)
        .min(moves.len());
    deepen(engine, |engine, depth| {
        let mut values: Vec<Line<B::Move>> = Vec::with_capacity(moves.len());
        for (index, &mv) in moves.iter().enumerate() {
            engine.board.make(mv);
            let mut bound = false;
            let value = if index < lines {
                -engine.search(depth - 1, 1, -INFINITY, INFINITY, true)
            } else {
                // The worst line kept so far: `values` is sorted, its first `lines` exact.
                let worst = values[lines - 1].0;
                let probe = -engine.search(depth - 1, 1, -worst - 1, -worst, true);
                if probe > worst && !engine.meter.is_stopped() {
                    -engine.search(depth - 1, 1, -INFINITY, INFINITY, true)
                } else {
                    bound = true;
                    probe
                }
            };
            engine.board.unmake(mv);
            if engine.meter.is_stopped() {
                break;
            }
            let mut line = vec![mv];
            line.extend(engine.line(1));
            // Best first, and of equal values the exact one: the first `lines` stay exact.
            let at = values.partition_point(|&(other, other_bound, _, _)| {
                other > value || (other == value && (!other_bound || bound))
            });
            values.insert(at, (value, bound, mv, line));
        }
        // The next iteration searches the moves in this order.
        if !engine.meter.is_stopped() {
            moves = values.iter().map(|&(_, _, mv, _)| mv).collect();
        }
        values.truncate(lines);
        let proven = values
            .iter()
            .all(|(value, _, _, _)| proven_within(*value, depth));
        // Every line kept, ranked, where there are several: a GUI's MultiPV shows them all.
        if !engine.meter.is_stopped() {
            let ranked = values.len() > 1;
            for (rank, (value, _, _, line)) in (1..).zip(&values) {
                let line = game_line::<B>(line);
                tell(engine, game, depth, *value, &line, ranked.then_some(rank));
            }
        }
        (values, proven)
    })
}
