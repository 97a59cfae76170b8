//! The chess engine: the `engine` algorithm on chess, Sente's strongest chess player.
//!
//! Iterative deepening (with aspiration windows) of a principal variation search, with
//! - a quiescence search at the horizon, over captures and queen promotions, so that a leaf is
//!   never scored in the middle of an exchange (the horizon effect); captures that lose
//!   material by static exchange, or cannot reach alpha, are left out;
//! - a transposition table keyed by the Zobrist key ([`table`]), whose move is tried first;
//! - move ordering ([`ordering`]): the table's move, captures that do not lose material by
//!   exchange ([`exchange`]), the two killer moves of the ply, quiet moves by history, captures
//!   that lose;
//! - pruning where a node is unlikely to matter: null moves, reverse futility, late move and
//!   futility pruning near the horizon, and late move reductions (each step can be turned off,
//!   [`Step`], which is how `docs/chess.md` measured what each gains);
//! - a check extension, so that a mate behind a series of checks is not cut off by the horizon;
//! - a static evaluation corrected by what searches found it got wrong about the same pawn
//!   structure ([`correction`]);
//! - mate scores: a mate `n` plies from the root is worth `WIN - n`, so the engine takes the
//!   fastest mate and delays being mated; draws by repetition (within the game and the search
//!   line), the fifty-move rule and insufficient material are worth 0.
//!
//! It works on shakmaty's position directly, not through the game contract: a search keeps its
//! line's keys on a stack of its own rather than in each position.

mod correction;
mod exchange;
mod ordering;
mod search;
mod steps;
mod strength;
mod table;
mod time;

pub use steps::Step;

use shakmaty::{Move, Position};

use self::search::Engine;
use self::table::Table;
use super::evaluation::winning_chances;
use super::{Chess, ChessMove};
use crate::game::{Game, in_pawns, written};
use crate::search::kit::{self, INFINITY, PROVEN, Value, WIN};
use crate::search::{
    Analysis, Budget, Cutoff, EngineParams, EvaluationIndex, Iteration, MoveAnalysis, Score,
    SearchResult,
};

/// The time an engine move takes when a request gives no limit.
pub const DEFAULT_TIME_LIMIT_MS: u64 = 1_000;

/// Plies below the root the search may reach, quiescence and extensions included.
const MAX_PLY: usize = Chess::MAX_PLIES;
/// The deepest iteration.
const MAX_DEPTH: i32 = kit::MAX_DEPTH as i32;

/// What the engine scores its positions with: one of the game's evaluations, by the name the
/// `evaluation` knob gives it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Scorer {
    /// The network learnt from Sente's games, its sums kept move by move ([`nnue`]).
    Network,
    /// PeSTO's tables, with the engine's terms beyond them unless `without=terms`.
    Pesto,
    /// The tutorial's material count.
    Material,
}

/// The evaluation the engine uses when a request names none: the network, which beat `pesto`
/// in an SPRT at a time per move (docs/chess.md#the-network).
pub const DEFAULT_EVALUATION: &str = "nnue";

impl Scorer {
    /// The scorer of the game's evaluation number `index`, the engine's own without one.
    fn of(index: Option<EvaluationIndex>) -> Scorer {
        let evaluation = index.and_then(|index| Chess::EVALUATIONS.get(usize::from(index)));
        match evaluation.map_or(DEFAULT_EVALUATION, |evaluation| evaluation.name) {
            "nnue" => Scorer::Network,
            "material" => Scorer::Material,
            _ => Scorer::Pesto,
        }
    }
}

impl Engine {
    /// Readies the iteration `depth` plies deep. The first is not timed, so that there is
    /// always a move to answer with; only the service's budget can stop it.
    fn begin_iteration(&mut self, depth: i32) {
        let deadline = self.started + self.plan.maximum;
        self.meter.set_time_limit((depth > 1).then_some(deadline));
    }

    /// Tells whoever watches the search what the iteration `depth` plies deep found: `value`
    /// and its line from the root `game`, the line ranked `multipv` where there are several.
    fn tell(
        &self,
        game: &Chess,
        depth: i32,
        value: Value,
        line: &[ChessMove],
        multipv: Option<u32>,
    ) {
        let Some(watch) = &self.meter.watch() else {
            return;
        };
        let Score {
            score,
            exact,
            plies_to_end,
        } = judge(value);
        let (cp, mate) = in_pawns::<Chess>(score, exact, plies_to_end);
        let elapsed = self.started.elapsed();
        watch.tell(&Iteration {
            depth: depth as u32,
            seldepth: self.seldepth as u32,
            score,
            cp: cp.filter(|_| mate.is_none()),
            mate,
            score_for: game.side_to_move(),
            nodes: self.nodes,
            nps: Iteration::nps(self.nodes, elapsed),
            time_ms: elapsed.as_millis() as u64,
            pv: written(game, line, |_, mv| Chess::uci_of(mv)),
            pv_san: Some(written(game, line, Chess::san_of)),
            multipv,
        });
    }

    /// Whether to stop deepening after an iteration, as the time plan says.
    fn out_of_time(&self) -> bool {
        let elapsed = self.started.elapsed();
        // A time per move not spent is lost: the iterations go on until it is up, and the
        // last one, stopped, still answers with what it found.
        if self.plan.is_per_move() && self.uses(Step::WholeTime) {
            return elapsed >= self.plan.maximum;
        }
        !self.plan.deepen_further(elapsed, self.steady, self.fell)
    }
}

/// What a value says: the winning chances, or a proven result and the plies to the end.
fn judge(value: Value) -> Score {
    Score::of_engine_value(value, winning_chances)
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
fn deepen<T>(
    engine: &mut Engine,
    mut iterate: impl FnMut(&mut Engine, i32) -> (T, bool),
) -> Deepened<T> {
    let mut completed = None;
    let mut stopped_by = None;
    let max_depth = engine.max_depth;
    for depth in 1..=max_depth {
        engine.begin_iteration(depth);
        let (found, proven) = iterate(engine, depth);
        if let Some(cutoff) = engine.meter.stopped_by {
            stopped_by = Some(cutoff);
            break;
        }
        completed = Some((found, depth));
        if proven {
            break;
        }
        if engine.out_of_time() {
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

/// The root searched `depth` plies deep. From the fifth iteration on, it first searches a
/// narrow window around the last iteration's value, which cuts more; a value outside the window
/// is only a bound, and the window widens on that side until the value falls inside.
fn aspire(
    engine: &mut Engine,
    root: &shakmaty::Chess,
    key: u64,
    depth: i32,
    last: Option<Value>,
) -> Value {
    let guess =
        last.filter(|value| engine.uses(Step::Aspiration) && depth >= 5 && value.abs() < PROVEN);
    let Some(guess) = guess else {
        return engine.search(root, key, depth, 0, -INFINITY, INFINITY, true);
    };
    let mut window = 25;
    let (mut alpha, mut beta) = (guess - window, guess + window);
    loop {
        let value = engine.search(root, key, depth, 0, alpha, beta, true);
        if engine.meter.is_stopped() {
            return value;
        }
        window *= 2;
        if value <= alpha {
            alpha = if window > 500 {
                -INFINITY
            } else {
                value - window
            };
        } else if value >= beta {
            beta = if window > 500 {
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

/// The engine's move in `game`, deepening within `params` (by default a second).
pub(super) fn search(
    game: &Chess,
    params: &EngineParams,
    budget: &Budget,
) -> SearchResult<ChessMove> {
    search_keeping(game, params, budget, &mut KeptTable::default())
}

/// The engine's transposition table, kept from one search to the next of the same game, where
/// the caller allows it (`sente uci`, until `ucinewgame`): what earlier moves' searches found
/// about the positions still ahead is found again at once.
#[derive(Default)]
pub struct KeptTable(Option<Table>, bool);

impl KeptTable {
    /// Forgets what it holds: a new game begins. Emptied now, outside any search's clock; a
    /// table no search has used since it was made or emptied is left as it is, so that a
    /// `ucinewgame` just before the first `go` costs nothing.
    pub fn clear(&mut self) {
        if let Some(table) = &mut self.0
            && self.1
        {
            table.clear();
        }
        self.1 = false;
    }

    /// Holds a table of `mib` from now on, made now rather than inside the next search's
    /// clock (`isready`, after `setoption name Hash`).
    pub fn prepare(&mut self, mib: u32) {
        if self.0.as_ref().is_none_or(|table| table.mib() != mib) {
            self.0 = None;
            self.0 = Some(Table::new(mib));
            self.1 = false;
        }
    }
}

/// The engine's move in `game`, searched with the table `kept` holds (a new one if it holds
/// none, or one of another size), which it then keeps.
pub fn search_keeping(
    game: &Chess,
    params: &EngineParams,
    budget: &Budget,
    kept: &mut KeptTable,
) -> SearchResult<ChessMove> {
    if let Some(elo) = params.elo {
        return strength::play(game, params, budget, elo, kept);
    }
    let mut engine = Engine::new(game, params, budget, kept.0.take());
    let result = deepen_root(game, &mut engine);
    kept.0 = Some(engine.table);
    kept.1 = true;
    result
}

fn deepen_root(game: &Chess, engine: &mut Engine) -> SearchResult<ChessMove> {
    let root = game.position();
    let mut last: Option<(Value, Option<Move>)> = None;
    let deepened = deepen(engine, |engine, depth| {
        engine.root_move = None;
        let value = aspire(engine, root, game.key, depth, last.map(|(value, _)| value));
        let best = engine.pv[0][0];
        if let Some((last_value, last_best)) = last {
            engine.steady = if best == last_best {
                engine.steady + 1
            } else {
                0
            };
            engine.fell = value < last_value - 30;
        }
        last = Some((value, best));
        let line = engine.line(0);
        if !engine.meter.is_stopped() {
            engine.tell(game, depth, value, &line, None);
        }
        ((value, line), proven_within(value, depth))
    });
    let ((mut value, mut pv), depth) = match deepened.completed {
        Some(completed) => completed,
        None => {
            // Stopped by the service's budget within the first iteration: any legal move.
            let mv = game
                .legal_moves()
                .next()
                .expect("a game in progress has a move");
            ((0, vec![mv]), 0)
        }
    };
    // An iteration stopped part way may already have shown a move better than the last one's
    // best (a root move searched whole, with a value above the others'): that move, rather
    // than the time spent on it thrown away.
    if deepened.stopped_by.is_some()
        && engine.uses(Step::WholeTime)
        && let Some((mv, found)) = engine.root_move
        && pv.first() != Some(&ChessMove(Some(mv)))
        && depth > 0
    {
        let line = engine.line(0);
        pv = if line.first() == Some(&ChessMove(Some(mv))) {
            line
        } else {
            vec![ChessMove(Some(mv))]
        };
        value = found;
    }
    let Score {
        score,
        exact,
        plies_to_end,
    } = judge(value);
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
        stopped_by: deepened.stopped_by,
    }
}

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
pub(super) fn analyze(game: &Chess, params: &EngineParams, budget: &Budget) -> Analysis<ChessMove> {
    let mut engine = Engine::new(game, params, budget, None);
    let root = game.position();
    let mut moves: Vec<Move> = root.legal_moves().to_vec();
    let lines = params
        .multipv
        .map_or(moves.len(), |lines| lines as usize)
        .min(moves.len());
    engine.keys.push(game.key);
    let deepened = deepen(&mut engine, |engine, depth| {
        // (value, whether only a bound, move, line)
        let mut values: Vec<(Value, bool, Move, Vec<ChessMove>)> = Vec::with_capacity(moves.len());
        for (index, &mv) in moves.iter().enumerate() {
            let child = engine.play(root, mv, 0);
            let key = super::key::after(root, game.key, mv, &child);
            let mut bound = false;
            let value = if index < lines {
                -engine.search(&child, key, depth - 1, 1, -INFINITY, INFINITY, true)
            } else {
                // The worst line kept so far: `values` is sorted, its first `lines` exact.
                let worst = values[lines - 1].0;
                let probe = -engine.search(&child, key, depth - 1, 1, -worst - 1, -worst, true);
                if probe > worst && !engine.meter.is_stopped() {
                    -engine.search(&child, key, depth - 1, 1, -INFINITY, INFINITY, true)
                } else {
                    bound = true;
                    probe
                }
            };
            if engine.meter.is_stopped() {
                break;
            }
            let mut line = vec![ChessMove(Some(mv))];
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
                engine.tell(game, depth, *value, line, ranked.then_some(rank));
            }
        }
        (values, proven)
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
                } = judge(value);
                MoveAnalysis {
                    mv: ChessMove(Some(mv)),
                    score,
                    exact,
                    plies_to_end,
                    visits: None,
                    prior: None,
                    value: None,
                    pv: line,
                    margin: None,
                    depth: Some(depth as u32),
                }
            })
            .collect(),
        nodes: engine.nodes,
        elapsed: engine.started.elapsed(),
        stopped_by: deepened.stopped_by,
    }
}
