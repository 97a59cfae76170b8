//! The chess engine: the `engine` algorithm on chess, Sente's strongest chess player.
//!
//! Iterative deepening of a principal variation search, with
//! - a quiescence search at the horizon, over captures and queen promotions, so that a leaf is
//!   never scored in the middle of an exchange (the horizon effect);
//! - a transposition table keyed by the Zobrist key, whose move is tried first;
//! - move ordering: the table's move, then captures by MVV-LVA (most valuable victim, least
//!   valuable attacker), then the two killer moves of the ply, then quiet moves by history;
//! - a check extension, so that a mate behind a series of checks is not cut off by the horizon;
//! - mate scores: a mate `n` plies from the root is worth `WIN - n`, so the engine takes the
//!   fastest mate and delays being mated; draws by repetition (within the game and the search
//!   line), the fifty-move rule and insufficient material are worth 0.
//!
//! It works on shakmaty's position directly, not through the game contract: a search keeps its
//! line's keys on a stack of its own rather than in each position.

use std::time::{Duration, Instant};

use shakmaty::{Move, Position, Role};

use super::evaluation::{self, winning_chances};
use super::{Chess, ChessMove};
use crate::game::Game;
use crate::search::kit::{self, INFINITY, Meter, PROVEN, Value, WIN};
use crate::search::{Analysis, Budget, Cutoff, EngineParams, MoveAnalysis, SearchResult};

/// The time an engine move takes when a request gives no limit.
pub const DEFAULT_TIME_LIMIT_MS: u64 = 1_000;

/// Plies below the root the search may reach, quiescence and extensions included.
const MAX_PLY: usize = Chess::MAX_PLIES;
/// The deepest iteration.
const MAX_DEPTH: i32 = kit::MAX_DEPTH as i32;

#[derive(Copy, Clone, PartialEq, Eq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Copy, Clone)]
struct Entry {
    key: u64,
    mv: Option<Move>,
    value: i16,
    depth: i8,
    bound: Bound,
}

struct Engine {
    /// The transposition table: a power of two of entries, indexed by a key's top bits.
    table: Vec<Option<Entry>>,
    /// How far a key is shifted to index the table: 64 less the table's bits.
    table_shift: u32,
    killers: [[Option<Move>; 2]; MAX_PLY + 1],
    /// How often a quiet move (from, to) caused a cutoff, weighted by depth squared.
    history: Box<[[u32; 64]; 64]>,
    /// The keys of the positions before the current one: the game's since its last capture
    /// or pawn move, then the search line's.
    keys: Vec<u64>,
    pv: Vec<[Option<Move>; MAX_PLY + 1]>,
    pv_length: [usize; MAX_PLY + 2],
    nodes: u64,
    meter: Meter,
    /// When the search started, and how long it may take.
    started: Instant,
    time_limit: Duration,
    /// The deepest iteration.
    max_depth: i32,
}

/// Mate scores are stored relative to the node, not the root, so that an entry reached at a
/// different ply still says how far the mate is.
fn to_table(value: Value, ply: usize) -> i16 {
    let value = if value >= PROVEN {
        value + ply as Value
    } else if value <= -PROVEN {
        value - ply as Value
    } else {
        value
    };
    value as i16
}

fn from_table(value: i16, ply: usize) -> Value {
    let value = Value::from(value);
    if value >= PROVEN {
        value - ply as Value
    } else if value <= -PROVEN {
        value + ply as Value
    } else {
        value
    }
}

/// The static evaluation, kept below the mate scores.
fn evaluate(position: &shakmaty::Chess) -> Value {
    evaluation::pesto(position).clamp(-PROVEN + 1, PROVEN - 1)
}

impl Engine {
    fn new(game: &Chess, params: &EngineParams, budget: &Budget) -> Engine {
        let mut keys = Vec::with_capacity(256);
        let mut link = game.history.as_deref();
        while let Some(earlier) = link {
            keys.push(earlier.key);
            link = earlier.previous.as_deref();
        }
        keys.reverse();
        // As many entries as `hash_mb` holds, rounded down to a power of two.
        let bytes = params.hash_mb as usize * (1 << 20);
        let entries = (bytes / std::mem::size_of::<Option<Entry>>()).max(1);
        let bits = entries.ilog2();
        Engine {
            table: vec![None; 1 << bits],
            table_shift: 64 - bits,
            killers: [[None; 2]; MAX_PLY + 1],
            history: Box::new([[0; 64]; 64]),
            keys,
            pv: vec![[None; MAX_PLY + 1]; MAX_PLY + 1],
            pv_length: [0; MAX_PLY + 2],
            nodes: 0,
            meter: Meter::new(budget),
            started: Instant::now(),
            time_limit: params
                .time_limit
                .unwrap_or(Duration::from_millis(DEFAULT_TIME_LIMIT_MS)),
            max_depth: params.depth.map_or(MAX_DEPTH, |depth| (depth as i32).clamp(1, MAX_DEPTH)),
        }
    }

    /// Readies the iteration `depth` plies deep. The first is not timed, so that there is
    /// always a move to answer with; only the service's budget can stop it.
    fn begin_iteration(&mut self, depth: i32) {
        let deadline = self.started + self.time_limit;
        self.meter.set_time_limit((depth > 1).then_some(deadline));
    }

    /// Whether to stop deepening after an iteration: one takes several times the one before,
    /// so an iteration that could not finish in the time left is not started.
    fn out_of_time(&self) -> bool {
        self.started.elapsed() * 2 >= self.time_limit
    }

    fn slot(&self, key: u64) -> usize {
        (key >> self.table_shift) as usize
    }

    /// Whether the position with `key` (and `halfmoves` on its clock) repeats one of the line:
    /// only positions since the last capture or pawn move can, and only every second one has
    /// the same side to move.
    fn repeats(&self, key: u64, halfmoves: u32) -> bool {
        let reach = (halfmoves as usize).min(self.keys.len());
        self.keys[self.keys.len() - reach..]
            .iter()
            .rev()
            .skip(1)
            .step_by(2)
            .any(|&earlier| earlier == key)
    }

    fn update_pv(&mut self, ply: usize, mv: Move) {
        let child = self.pv_length[ply + 1].min(MAX_PLY - ply);
        self.pv[ply][0] = Some(mv);
        for index in 0..child {
            self.pv[ply][index + 1] = self.pv[ply + 1][index];
        }
        self.pv_length[ply] = child + 1;
    }

    fn line(&self) -> Vec<ChessMove> {
        self.pv[0][..self.pv_length[0]]
            .iter()
            .map_while(|&mv| mv.map(|mv| ChessMove(Some(mv))))
            .collect()
    }

    /// Orders `moves` best first: the table's move, captures by MVV-LVA, killers, history.
    fn order(&self, moves: &mut [Move], best: Option<Move>, ply: usize) {
        let rank = |mv: &Move| -> u32 {
            if Some(*mv) == best {
                u32::MAX
            } else if mv.is_capture() || mv.promotion().is_some() {
                (1 << 30) + (evaluation::move_priority(*mv) + 10_000) as u32
            } else if self.killers[ply][0] == Some(*mv) {
                (1 << 29) + 1
            } else if self.killers[ply][1] == Some(*mv) {
                1 << 29
            } else {
                let from = mv.from().map_or(0, usize::from);
                self.history[from][usize::from(mv.to())].min((1 << 29) - 1)
            }
        };
        moves.sort_by_key(|mv| std::cmp::Reverse(rank(mv)));
    }

    /// Counts a node at `ply` and clears its line; true if the search must stop.
    fn enter(&mut self, ply: usize) -> bool {
        self.pv_length[ply] = 0;
        self.nodes += 1;
        self.meter.tick(self.nodes)
    }

    /// The value of `position` for the side to move, searched `depth` plies deep (and then to
    /// quiet positions).
    fn search(
        &mut self,
        position: &shakmaty::Chess,
        key: u64,
        depth: i32,
        ply: usize,
        mut alpha: Value,
        beta: Value,
    ) -> Value {
        if self.enter(ply) {
            return 0;
        }
        if ply > 0
            && (position.halfmoves() >= 100
                || position.is_insufficient_material()
                || self.repeats(key, position.halfmoves()))
        {
            return 0;
        }
        let in_check = position.is_check();
        if ply >= MAX_PLY - 1 {
            return evaluate(position);
        }
        // A position in check is searched a ply deeper: its moves are few and forced.
        let depth = if in_check { depth.max(0) + 1 } else { depth };
        if depth <= 0 {
            return self.quiescence(position, ply, alpha, beta);
        }

        let entry = self.table[self.slot(key)].filter(|entry| entry.key == key);
        if let Some(entry) = entry
            && ply > 0
            && i32::from(entry.depth) >= depth
        {
            let value = from_table(entry.value, ply);
            let usable = match entry.bound {
                Bound::Exact => true,
                Bound::Lower => value >= beta,
                Bound::Upper => value <= alpha,
            };
            if usable {
                return value;
            }
        }

        let mut moves = position.legal_moves();
        if moves.is_empty() {
            return if in_check { -(WIN - ply as Value) } else { 0 };
        }
        self.order(&mut moves, entry.and_then(|entry| entry.mv), ply);

        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        self.keys.push(key);
        for (index, &mv) in moves.iter().enumerate() {
            let mut child = position.clone();
            child.play_unchecked(mv);
            let child_key = super::key::after(position, key, mv, &child);
            let value = if index == 0 {
                -self.search(&child, child_key, depth - 1, ply + 1, -beta, -alpha)
            } else {
                // The first move is most likely best: the others need only be shown worse,
                // which a null window does cheaply; one that is not is searched again.
                let probe = -self.search(&child, child_key, depth - 1, ply + 1, -alpha - 1, -alpha);
                if probe > alpha && probe < beta {
                    -self.search(&child, child_key, depth - 1, ply + 1, -beta, -alpha)
                } else {
                    probe
                }
            };
            if self.meter.is_stopped() {
                self.keys.pop();
                return 0;
            }
            if value > best {
                best = value;
                best_move = Some(mv);
                if value > alpha {
                    alpha = value;
                    self.update_pv(ply, mv);
                    if alpha >= beta {
                        if !mv.is_capture() && mv.promotion().is_none() {
                            let killers = &mut self.killers[ply];
                            if killers[0] != Some(mv) {
                                killers[1] = killers[0];
                                killers[0] = Some(mv);
                            }
                            let from = mv.from().map_or(0, usize::from);
                            let entry = &mut self.history[from][usize::from(mv.to())];
                            *entry = entry.saturating_add((depth * depth) as u32);
                        }
                        break;
                    }
                }
            }
        }
        self.keys.pop();

        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let slot = self.slot(key);
        self.table[slot] = Some(Entry {
            key,
            mv: best_move,
            value: to_table(best, ply),
            depth: depth.min(i32::from(i8::MAX)) as i8,
            bound,
        });
        best
    }

    /// The value of `position` once the captures are over: the side to move may stand on the
    /// static evaluation or capture; in check it must answer the check.
    fn quiescence(
        &mut self,
        position: &shakmaty::Chess,
        ply: usize,
        mut alpha: Value,
        beta: Value,
    ) -> Value {
        if self.enter(ply) {
            return 0;
        }
        let mut moves = position.legal_moves();
        let in_check = position.is_check();
        if moves.is_empty() {
            return if in_check { -(WIN - ply as Value) } else { 0 };
        }
        if position.is_insufficient_material() {
            return 0;
        }
        if ply >= MAX_PLY - 1 {
            return evaluate(position);
        }
        let mut best = -INFINITY;
        if !in_check {
            best = evaluate(position);
            if best >= beta {
                return best;
            }
            alpha = alpha.max(best);
            moves.retain(|mv| mv.is_capture() || mv.promotion() == Some(Role::Queen));
        }
        self.order(&mut moves, None, ply);
        for &mv in moves.iter() {
            let mut child = position.clone();
            child.play_unchecked(mv);
            let value = -self.quiescence(&child, ply + 1, -beta, -alpha);
            if self.meter.is_stopped() {
                return 0;
            }
            if value > best {
                best = value;
                if value > alpha {
                    alpha = value;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}

/// What a value says: the winning chances, whether proven, the plies to the end.
fn judge(value: Value) -> (f64, bool, Option<u32>) {
    if value.abs() >= PROVEN {
        (f64::from(value.signum()), true, Some((WIN - value.abs()) as u32))
    } else {
        (winning_chances(value), false, None)
    }
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
    let mut engine = Engine::new(game, params, budget);
    let root = game.position();
    let deepened = deepen(&mut engine, |engine, depth| {
        let value = engine.search(root, game.key, depth, 0, -INFINITY, INFINITY);
        ((value, engine.line()), proven_within(value, depth))
    });
    let ((value, pv), depth) = match deepened.completed {
        Some(completed) => completed,
        None => {
            // Stopped by the service's budget within the first iteration: any legal move.
            let mv = game.legal_moves().next().expect("a game in progress has a move");
            ((0, vec![mv]), 0)
        }
    };
    let (score, exact, plies_to_end) = judge(value);
    SearchResult {
        best_move: pv[0],
        score,
        exact,
        plies_to_end,
        nodes: engine.nodes,
        pv,
        depth: Some(depth as u32),
        elapsed: engine.started.elapsed(),
        stopped_by: deepened.stopped_by,
    }
}

/// Every legal move of `game` with its value, each searched with a full window so that every
/// value is the engine's, not a bound; deepening within `params`, best moves first at each
/// iteration, until every move's value is proven.
pub(super) fn analyze(game: &Chess, params: &EngineParams, budget: &Budget) -> Analysis<ChessMove> {
    let mut engine = Engine::new(game, params, budget);
    let root = game.position();
    let mut moves: Vec<Move> = root.legal_moves().to_vec();
    engine.keys.push(game.key);
    let deepened = deepen(&mut engine, |engine, depth| {
        let mut values = Vec::with_capacity(moves.len());
        for &mv in &moves {
            let mut child = root.clone();
            child.play_unchecked(mv);
            let key = super::key::after(root, game.key, mv, &child);
            let value = -engine.search(&child, key, depth - 1, 1, -INFINITY, INFINITY);
            if engine.meter.is_stopped() {
                break;
            }
            let mut line = vec![ChessMove(Some(mv))];
            line.extend(
                engine.pv[1][..engine.pv_length[1]]
                    .iter()
                    .map_while(|&mv| mv.map(|mv| ChessMove(Some(mv)))),
            );
            values.push((value, mv, line));
        }
        // Best first; the next iteration searches them in this order.
        values.sort_by_key(|(value, _, _)| std::cmp::Reverse(*value));
        if !engine.meter.is_stopped() {
            moves = values.iter().map(|(_, mv, _)| *mv).collect();
        }
        let proven = values.iter().all(|(value, _, _)| proven_within(*value, depth));
        (values, proven)
    });
    let completed = deepened.completed.map_or_else(Vec::new, |(values, _)| values);
    Analysis {
        moves: completed
            .into_iter()
            .map(|(value, mv, line)| {
                let (score, exact, plies_to_end) = judge(value);
                MoveAnalysis {
                    mv: ChessMove(Some(mv)),
                    score,
                    exact,
                    plies_to_end,
                    visits: None,
                    pv: line,
                }
            })
            .collect(),
        nodes: engine.nodes,
        elapsed: engine.started.elapsed(),
        stopped_by: deepened.stopped_by,
    }
}
