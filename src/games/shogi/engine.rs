//! The shogi engine: the `engine` algorithm on shogi, Sente's strongest shogi player.
//!
//! What the chess engine learnt, where it carries over to shogi:
//! - iterative deepening of a principal variation search, the last iteration's best move first;
//! - a transposition table keyed by the crate's Zobrist key (board, hands and side to move);
//! - a quiescence search over captures and promotions at the horizon, standing pat on the
//!   evaluation; in check, every evasion;
//! - move ordering: the table's move, captures by most valuable victim then least valuable
//!   attacker, promotions, two killer moves a ply, quiet moves (drops included) by history;
//! - null-move pruning, reverse futility pruning and late move reductions;
//! - a check extension, so that a mate behind checks is seen past the horizon. Shogi's checks
//!   are many (a drop checks from anywhere), so it only extends while the line is no longer
//!   than twice the iteration's depth;
//! - mate scores (a mate `n` plies away is worth `WIN - n`).
//!
//! What is shogi's own: a side with no legal move has lost, checked or not; repetition is judged
//! by the crate within the searched line (sennichite is a draw, the side giving perpetual check
//! loses, and a position repeated with more in hand is better for that side); a king that may
//! declare the entering-king win has won.
//!
//! It works on the crate's position directly, making and unmaking moves, rather than through
//! the game contract's copies: the crate keeps the line's history for repetition as it goes.

use std::time::{Duration, Instant};

use rsshogi::board::{Move32List, Position};
use rsshogi::movegen::{CapturePlusPro, Legal, LegalAll, generate_moves_move32};
use rsshogi::types::{Color, MOVE_NONE, Move32, Piece, RepetitionState};

use super::evaluation::{VALUES, evaluate, winning_chances};
use super::{MOVE_LIMIT, Shogi, ShogiMove};
use crate::game::{Game, in_pawns, written};
use crate::search::kit::{self, INFINITY, Meter, PROVEN, Value, WIN};
use crate::search::tables::Pool;
use crate::search::{
    Analysis, Budget, Cutoff, EngineParams, Iteration, MoveAnalysis, Score, SearchResult,
};

/// The time an engine move takes when a request gives no limit.
pub const DEFAULT_TIME_LIMIT_MS: u64 = 1_000;

/// Plies below the root the search may reach, quiescence and extensions included.
const MAX_PLY: usize = Shogi::MAX_PLIES;
/// The deepest iteration.
const MAX_DEPTH: i32 = kit::MAX_DEPTH as i32;
/// Estimates stay within this, below the proven values.
const MAX_ESTIMATE: Value = PROVEN - 100;
/// A repetition in the line where the side to move has given every check: it loses. Large but
/// not proven: the game itself ends only at the fourth occurrence.
const PERPETUAL: Value = 3_000;
/// A position repeated with more pieces in hand for the side to move.
const SUPERIOR: Value = 1_500;

/// How a table entry's value bounds the true value.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Copy, Clone)]
struct Entry {
    key: u64,
    mv: Move32,
    value: Value,
    depth: i16,
    bound: Bound,
}

const EMPTY: Entry = Entry {
    key: 0,
    mv: MOVE_NONE,
    value: 0,
    depth: -1,
    bound: Bound::Upper,
};

/// Mate values are stored relative to the node, so that a mate found at one ply reads right at
/// another.
fn to_table(value: Value, ply: usize) -> Value {
    if value >= PROVEN {
        value + ply as Value
    } else if value <= -PROVEN {
        value - ply as Value
    } else {
        value
    }
}

fn from_table(value: Value, ply: usize) -> Value {
    if value >= PROVEN {
        value - ply as Value
    } else if value <= -PROVEN {
        value + ply as Value
    } else {
        value
    }
}

struct Engine {
    position: Position,
    table: Vec<Entry>,
    killers: Vec<[Move32; 2]>,
    /// Quiet moves that cut off, by the piece they leave on the square and the square.
    history: Vec<i32>,
    pv: Vec<[Move32; MAX_PLY + 1]>,
    pv_length: [usize; MAX_PLY + 1],
    nodes: u64,
    seldepth: usize,
    root_depth: i32,
    meter: Meter,
    started: Instant,
    /// Whether the search could reach the game's length limit from its root.
    near_move_limit: bool,
}

/// The engine's idle tables, clean, for the next search to take rather than allocate.
static POOL: Pool<Entry> = Pool::new();

/// The entries of a table of `mib`: a power of two, at least 1024.
fn entries(mib: u32) -> usize {
    ((mib as usize * (1 << 20) / size_of::<Entry>()).next_power_of_two() / 2).max(1024)
}

/// The engine's table kept from one search to the next of the same game, where the caller
/// allows it (`sente usi`, until `usinewgame`): what earlier moves' searches found is found again,
/// and no search waits for a table to be made or emptied.
#[derive(Default)]
pub struct KeptTable {
    entries: Vec<Entry>,
    /// Whether a search has used it since it was made or emptied.
    dirty: bool,
}

impl KeptTable {
    /// Holds a table of `mib` from now on, made now rather than inside the next search's clock
    /// (`isready`); one of that size already held is kept as it is.
    pub fn prepare(&mut self, mib: u32) {
        if self.entries.len() != entries(mib) {
            POOL.give_back(std::mem::take(&mut self.entries), EMPTY);
            self.entries = POOL.take(entries(mib), EMPTY);
            self.dirty = false;
        }
    }

    /// Forgets every entry: a game ended, or a new one begins. Emptied now, outside any
    /// search's clock; a clean table is left as it is, so that a `usinewgame` just before the
    /// first `go` costs nothing.
    pub fn clear(&mut self) {
        if self.dirty {
            self.entries.fill(EMPTY);
            self.dirty = false;
        }
    }
}

impl Drop for KeptTable {
    fn drop(&mut self) {
        POOL.give_back(std::mem::take(&mut self.entries), EMPTY);
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        POOL.give_back(std::mem::take(&mut self.table), EMPTY);
    }
}

impl Engine {
    /// An engine for `game` with a clean table from the pool, or with `kept`'s where it holds
    /// one of the size `params` asks.
    fn new(
        game: &Shogi,
        params: &EngineParams,
        budget: &Budget,
        kept: Option<&mut KeptTable>,
    ) -> Engine {
        // The clock starts before the table is taken: should it be new, its making is
        // counted in the time, and the answer still comes in time.
        let started = Instant::now();
        let size = entries(params.hash_mb);
        let table = match kept {
            Some(kept) if kept.entries.len() == size => std::mem::take(&mut kept.entries),
            _ => POOL.take(size, EMPTY),
        };
        Engine {
            position: game.position.clone_for_search(),
            table,
            killers: vec![[MOVE_NONE; 2]; MAX_PLY + 2],
            history: vec![0; 32 * 81],
            pv: vec![[MOVE_NONE; MAX_PLY + 1]; MAX_PLY + 1],
            pv_length: [0; MAX_PLY + 1],
            nodes: 0,
            seldepth: 0,
            root_depth: 1,
            meter: Meter::new(&budget.with_max_nodes(params.nodes)),
            started,
            near_move_limit: usize::from(game.position.game_ply()) + MAX_PLY
                > usize::from(MOVE_LIMIT),
        }
    }

    fn slot(&self, key: u64) -> usize {
        (key as usize) & (self.table.len() - 1)
    }

    fn probe(&self, key: u64) -> Option<Entry> {
        let entry = self.table[self.slot(key)];
        (entry.key == key && entry.depth >= 0).then_some(entry)
    }

    fn store(&mut self, key: u64, mv: Move32, value: Value, depth: i32, bound: Bound, ply: usize) {
        let slot = self.slot(key);
        let old = self.table[slot];
        if old.key != key || depth as i16 >= old.depth || bound == Bound::Exact {
            self.table[slot] = Entry {
                key,
                mv: if mv == MOVE_NONE && old.key == key {
                    old.mv
                } else {
                    mv
                },
                value: to_table(value, ply),
                depth: depth as i16,
                bound,
            };
        }
    }

    /// Counts a node at `ply` and clears its line; true if the search must stop.
    fn enter(&mut self, ply: usize) -> bool {
        self.pv_length[ply] = 0;
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        self.meter.tick(self.nodes)
    }

    fn update_pv(&mut self, ply: usize, mv: Move32) {
        self.pv[ply][0] = mv;
        let child = self.pv_length[ply + 1];
        for index in 0..child {
            self.pv[ply][index + 1] = self.pv[ply + 1][index];
        }
        self.pv_length[ply] = child + 1;
    }

    fn line(&self, ply: usize) -> Vec<ShogiMove> {
        self.pv[ply][..self.pv_length[ply]]
            .iter()
            .map(|mv| ShogiMove(mv.to_move().raw()))
            .collect()
    }

    fn evaluate(&self) -> Value {
        evaluate(&self.position).clamp(-MAX_ESTIMATE, MAX_ESTIMATE)
    }

    /// The value of the line's repetition at `ply`, if the position repeats one in the line (or
    /// in the game, a fourth time).
    fn repetition(&self, ply: usize) -> Option<Value> {
        match self.position.repetition_state_with_ply(ply.max(1)) {
            RepetitionState::None => None,
            RepetitionState::Draw => Some(0),
            RepetitionState::Win => Some(PERPETUAL),
            RepetitionState::Lose => Some(-PERPETUAL),
            RepetitionState::Superior => Some(SUPERIOR),
            RepetitionState::Inferior => Some(-SUPERIOR),
        }
    }

    /// Whether the line has reached the game's length limit: drawn, whatever the board says (so
    /// no mate is claimed that the game would not live to see).
    fn past_move_limit(&self) -> bool {
        self.position.game_ply() > MOVE_LIMIT
    }

    /// How promising a move is, for ordering: the table's move first, then captures (most
    /// valuable victim, then least valuable attacker), promotions, killers, history.
    fn order(&self, mv: Move32, best: Move32, ply: usize) -> i32 {
        if mv == best {
            return 1 << 30;
        }
        let mut score = 0;
        if !mv.is_drop() {
            let victim = self.position.piece_on(mv.to_sq());
            if victim != Piece::NONE {
                let attacker = self.position.piece_on(mv.from_sq());
                return (1 << 28) + VALUES[victim.piece_type().to_index()] * 16
                    - VALUES[attacker.piece_type().to_index()].min(2000) / 16
                    + if mv.is_promotion() { 1000 } else { 0 };
            }
            if mv.is_promotion() {
                score += 1 << 27;
            }
        }
        if score == 0 {
            if self.killers[ply][0] == mv {
                return 1 << 26;
            }
            if self.killers[ply][1] == mv {
                return (1 << 26) - 1;
            }
        }
        score + self.history[history_index(mv)]
    }

    fn is_quiet(&self, mv: Move32) -> bool {
        !mv.is_promotion() && (mv.is_drop() || self.position.piece_on(mv.to_sq()) == Piece::NONE)
    }

    #[allow(clippy::too_many_arguments)]
    fn search(
        &mut self,
        depth: i32,
        ply: usize,
        mut alpha: Value,
        beta: Value,
        null_ok: bool,
    ) -> Value {
        if depth <= 0 {
            return self.quiesce(ply, alpha, beta);
        }
        if self.enter(ply) {
            return 0;
        }
        let pv_node = beta - alpha > 1;
        if ply > 0 {
            if let Some(value) = self.repetition(ply) {
                return value;
            }
            if self.past_move_limit() {
                return 0;
            }
            if self.position.declaration_win_move() != MOVE_NONE {
                return WIN - ply as Value;
            }
            if ply >= MAX_PLY - 1 {
                return self.evaluate();
            }
        }
        let key = self.position.key().low_u64();
        let mut best_move = MOVE_NONE;
        if let Some(entry) = self.probe(key) {
            best_move = entry.mv;
            let value = from_table(entry.value, ply);
            // The table's key has no move number: near the limit, a value stored where the game
            // had further to go may be a mate the limit now forbids.
            if !pv_node && ply > 0 && i32::from(entry.depth) >= depth && !self.near_move_limit {
                match entry.bound {
                    Bound::Exact => return value,
                    Bound::Lower if value >= beta => return value,
                    Bound::Upper if value <= alpha => return value,
                    _ => {}
                }
            }
        }
        let in_check = self.position.is_in_check();
        if !pv_node && !in_check && ply > 0 {
            let eval = self.evaluate();
            // Reverse futility: far enough above beta that a shallow search would not fall.
            if depth <= 3 && eval - 150 * depth >= beta {
                return eval;
            }
            // A null move: if passing still beats beta, a real move surely would.
            if null_ok && depth >= 3 && eval >= beta && self.position.apply_null_move().is_ok() {
                let reduction = 3 + depth / 4;
                let value = -self.search(depth - 1 - reduction, ply + 1, -beta, -beta + 1, false);
                let _ = self.position.undo_null_move();
                if self.meter.is_stopped() {
                    return 0;
                }
                if value >= beta {
                    return if value >= PROVEN { beta } else { value };
                }
            }
        }
        let mut moves = Move32List::new();
        generate_moves_move32::<Legal>(&self.position, &mut moves);
        if moves.is_empty() {
            // No legal move: lost, in check or not.
            return -(WIN - ply as Value);
        }
        let mut scores: Vec<i32> = moves
            .iter()
            .map(|&mv| self.order(mv, best_move, ply))
            .collect();
        let mut best = -INFINITY;
        let original_alpha = alpha;
        for index in 0..moves.len() {
            let pick = (index..moves.len())
                .max_by_key(|&i| scores[i])
                .expect("a move is left");
            moves.as_mut_slice().swap(index, pick);
            scores.swap(index, pick);
            let mv = moves.as_slice()[index];
            let quiet = self.is_quiet(mv);
            self.position.apply_move32(mv);
            let gives_check = self.position.is_in_check();
            let extension =
                i32::from(gives_check && (ply as i32) < 2 * self.root_depth && depth <= 4);
            let new_depth = depth - 1 + extension;
            let value = if index == 0 {
                -self.search(new_depth, ply + 1, -beta, -alpha, true)
            } else {
                // Late quiet moves are searched shallower first; a surprise is searched again.
                let reduction = if depth >= 3 && index >= 3 && quiet && !in_check && !gives_check {
                    (1 + i32::from(index >= 8) + i32::from(depth >= 8)).min(new_depth - 1)
                } else {
                    0
                };
                let mut value =
                    -self.search(new_depth - reduction, ply + 1, -alpha - 1, -alpha, true);
                if value > alpha && reduction > 0 {
                    value = -self.search(new_depth, ply + 1, -alpha - 1, -alpha, true);
                }
                if value > alpha && value < beta {
                    value = -self.search(new_depth, ply + 1, -beta, -alpha, true);
                }
                value
            };
            self.position.undo_move32(mv).expect("the move just played");
            if self.meter.is_stopped() {
                return 0;
            }
            if value > best {
                best = value;
                best_move = mv;
                if value > alpha {
                    alpha = value;
                    self.update_pv(ply, mv);
                    if value >= beta {
                        if quiet {
                            if self.killers[ply][0] != mv {
                                self.killers[ply][1] = self.killers[ply][0];
                                self.killers[ply][0] = mv;
                            }
                            let slot = &mut self.history[history_index(mv)];
                            *slot = (*slot + depth * depth).min(1 << 20);
                        }
                        break;
                    }
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.store(key, best_move, best, depth, bound, ply);
        best
    }

    /// Captures and promotions until the position is quiet; every evasion when in check.
    fn quiesce(&mut self, ply: usize, mut alpha: Value, beta: Value) -> Value {
        if self.enter(ply) {
            return 0;
        }
        if ply > 0 && self.past_move_limit() {
            return 0;
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluate();
        }
        let in_check = self.position.is_in_check();
        let mut moves = Move32List::new();
        let stand_pat;
        if in_check {
            generate_moves_move32::<Legal>(&self.position, &mut moves);
            if moves.is_empty() {
                return -(WIN - ply as Value);
            }
            stand_pat = -INFINITY;
        } else {
            stand_pat = self.evaluate();
            if stand_pat >= beta {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            generate_moves_move32::<CapturePlusPro>(&self.position, &mut moves);
        }
        let mut scores: Vec<i32> = moves
            .iter()
            .map(|&mv| self.order(mv, MOVE_NONE, ply))
            .collect();
        let mut best = stand_pat;
        for index in 0..moves.len() {
            let pick = (index..moves.len())
                .max_by_key(|&i| scores[i])
                .expect("a move is left");
            moves.as_mut_slice().swap(index, pick);
            scores.swap(index, pick);
            let mv = moves.as_slice()[index];
            if !in_check {
                if !self.position.is_legal_after_pseudo_move32(mv) {
                    continue;
                }
                // A capture that could not lift the score to alpha even winning the piece.
                let victim = self.position.piece_on(mv.to_sq());
                let gain = if victim == Piece::NONE {
                    0
                } else {
                    2 * VALUES[victim.piece_type().to_index()]
                };
                if !mv.is_promotion() && stand_pat + gain + 200 <= alpha {
                    continue;
                }
            }
            self.position.apply_move32(mv);
            let value = -self.quiesce(ply + 1, -beta, -alpha);
            self.position.undo_move32(mv).expect("the move just played");
            if self.meter.is_stopped() {
                return 0;
            }
            if value > best {
                best = value;
                if value > alpha {
                    alpha = value;
                    if value >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// Tells whoever watches the search what the iteration `depth` plies deep found.
    fn tell(
        &self,
        game: &Shogi,
        depth: i32,
        value: Value,
        line: &[ShogiMove],
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
        let (cp, mate) = in_pawns::<Shogi>(score, exact, plies_to_end);
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
            pv: written(game, line, |_, mv| mv.usi()),
            pv_san: Some(written(game, line, Shogi::ki2)),
            multipv,
        });
    }
}

/// The history table's slot of a move: the piece it leaves on the square, and the square.
fn history_index(mv: Move32) -> usize {
    (mv.piece_after_move().to_index() & 31) * 81 + mv.to_sq().to_index() % 81
}

/// What a value says: the winning chances, or a proven result and the plies to the end.
fn judge(value: Value) -> Score {
    Score::of_engine_value(value, winning_chances)
}

/// How long the engine thinks: its time limit, or its share of the mover's clock (Gote's is
/// USI's `wtime`), plus the byoyomi a move may always take, whichever is shorter; a second
/// without either.
fn thinking_time(game: &Shogi, params: &EngineParams) -> Option<Duration> {
    let gote = game.position.turn() == Color::White;
    let clock = params.clock;
    let from_clock = match (clock.of(gote), clock.byoyomi) {
        (Some(_), byoyomi) => {
            let share = clock.share(gote, 40).unwrap_or_default();
            Some(
                share
                    + byoyomi
                        .unwrap_or_default()
                        .saturating_sub(crate::search::CLOCK_OVERHEAD),
            )
        }
        (None, Some(byoyomi)) => Some(
            byoyomi
                .saturating_sub(crate::search::CLOCK_OVERHEAD)
                .max(Duration::from_millis(1)),
        ),
        (None, None) => None,
    };
    match crate::search::tighter(from_clock, params.time_limit) {
        Some(time) => Some(time),
        None if params.depth.is_none() && params.nodes.is_none() => {
            Some(Duration::from_millis(DEFAULT_TIME_LIMIT_MS))
        }
        None => None,
    }
}

/// Iterative deepening: `iterate` searches one depth and says what it found and whether it is
/// proven. Stops at a proof, at the deepest iteration, when the budget runs out (the stopped
/// iteration is thrown away), or when half the time is gone (another iteration would not end).
fn deepen<T>(
    engine: &mut Engine,
    params: &EngineParams,
    time: Option<Duration>,
    mut iterate: impl FnMut(&mut Engine, i32) -> (T, bool),
) -> (Option<(T, i32)>, Option<Cutoff>) {
    let max_depth = params
        .depth
        .map_or(MAX_DEPTH, |depth| depth as i32)
        .min(MAX_DEPTH);
    let mut completed = None;
    for depth in 1..=max_depth {
        engine.root_depth = depth;
        // The first iteration is not timed, so that there is always a move to answer with.
        engine
            .meter
            .set_time_limit(time.filter(|_| depth > 1).map(|time| engine.started + time));
        let (found, proven) = iterate(engine, depth);
        if let Some(cutoff) = engine.meter.stopped_by {
            return (completed, Some(cutoff));
        }
        completed = Some((found, depth));
        if proven {
            break;
        }
        if let Some(time) = time
            && engine.started.elapsed() * 2 >= time
        {
            return (completed, (depth < max_depth).then_some(Cutoff::TimeLimit));
        }
    }
    (completed, None)
}

fn proven_within(value: Value, depth: i32) -> bool {
    value.abs() >= PROVEN && (WIN - value.abs()) <= depth
}

/// The engine's move in `game`.
pub(super) fn search(
    game: &Shogi,
    params: &EngineParams,
    budget: &Budget,
) -> SearchResult<ShogiMove> {
    search_keeping(game, params, budget, None)
}

/// The engine's move in `game`, searched with the table `kept` holds where it has one of the
/// size asked, which it then keeps.
pub(super) fn search_keeping(
    game: &Shogi,
    params: &EngineParams,
    budget: &Budget,
    mut kept: Option<&mut KeptTable>,
) -> SearchResult<ShogiMove> {
    let started = Instant::now();
    if game.position.declaration_win_move() != MOVE_NONE {
        return SearchResult {
            best_move: ShogiMove::DECLARE,
            score: 1.0,
            exact: true,
            plies_to_end: Some(1),
            nodes: 1,
            pv: vec![ShogiMove::DECLARE],
            depth: Some(1),
            seldepth: Some(1),
            margin: None,
            elapsed: started.elapsed(),
            stopped_by: None,
        };
    }
    let time = thinking_time(game, params);
    let mut engine = Engine::new(game, params, budget, kept.as_deref_mut());
    let (completed, stopped_by) = deepen(&mut engine, params, time, |engine, depth| {
        let value = engine.search(depth, 0, -INFINITY, INFINITY, true);
        let line = engine.line(0);
        if !engine.meter.is_stopped() {
            engine.tell(game, depth, value, &line, None);
        }
        ((value, line), proven_within(value, depth))
    });
    if let Some(kept) = kept {
        kept.entries = std::mem::take(&mut engine.table);
        kept.dirty = true;
    }
    let ((value, pv), depth) = match completed {
        Some(((value, line), depth)) if !line.is_empty() => ((value, line), depth),
        _ => {
            // Stopped within the first iteration: any move the pieces may make (a game drawn by
            // Sente's rules that a GUI plays on has no legal move by them).
            let Some(mv) = game.perft_moves().next() else {
                return lost(started);
            };
            ((0, vec![mv]), 0)
        }
    };
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
        stopped_by,
    }
}

/// The answer for a position where the side to move has no move at all: lost, as shogi counts
/// it. The game contract never asks; a GUI playing on past Sente's rules may.
fn lost(started: Instant) -> SearchResult<ShogiMove> {
    SearchResult {
        best_move: ShogiMove::default(),
        score: -1.0,
        exact: true,
        plies_to_end: Some(0),
        nodes: 1,
        pv: Vec::new(),
        depth: Some(0),
        seldepth: Some(0),
        margin: None,
        elapsed: started.elapsed(),
        stopped_by: None,
    }
}

/// Every legal move (or the best `multipv`) with its value, deepening within `params`: each
/// move searched with the full window at each depth, in the last iteration's order.
pub(super) fn analyze(game: &Shogi, params: &EngineParams, budget: &Budget) -> Analysis<ShogiMove> {
    let time = thinking_time(game, params);
    let mut engine = Engine::new(game, params, budget, None);
    let mut moves = Move32List::new();
    generate_moves_move32::<LegalAll>(&engine.position, &mut moves);
    let mut order: Vec<Move32> = moves.as_slice().to_vec();
    let declaration = game.position.declaration_win_move() != MOVE_NONE;
    let (completed, stopped_by) = deepen(&mut engine, params, time, |engine, depth| {
        let mut values: Vec<(Value, ShogiMove, Vec<ShogiMove>)> = Vec::with_capacity(order.len());
        if declaration {
            values.push((WIN - 1, ShogiMove::DECLARE, vec![ShogiMove::DECLARE]));
        }
        for &mv in &order {
            engine.position.apply_move32(mv);
            let value = -engine.search(depth - 1, 1, -INFINITY, INFINITY, true);
            engine
                .position
                .undo_move32(mv)
                .expect("the move just played");
            if engine.meter.is_stopped() {
                break;
            }
            let mut line = vec![ShogiMove(mv.to_move().raw())];
            line.extend(engine.line(1));
            let at = values.partition_point(|&(other, _, _)| other >= value);
            values.insert(at, (value, ShogiMove(mv.to_move().raw()), line));
        }
        if !engine.meter.is_stopped() {
            order = values
                .iter()
                .filter(|(_, mv, _)| !mv.is_declaration())
                .map(|(_, mv, _)| {
                    *moves
                        .iter()
                        .find(|m| m.to_move().raw() == mv.0)
                        .expect("a root move")
                })
                .collect();
        }
        let lines = params.multipv.map_or(values.len(), |lines| lines as usize);
        values.truncate(lines);
        let proven = values
            .iter()
            .all(|(value, _, _)| proven_within(*value, depth));
        if !engine.meter.is_stopped() {
            let ranked = values.len() > 1;
            for (rank, (value, _, line)) in (1..).zip(&values) {
                engine.tell(game, depth, *value, line, ranked.then_some(rank));
            }
        }
        (values, proven)
    });
    let (values, depth) = completed.unwrap_or((Vec::new(), 0));
    Analysis {
        moves: values
            .into_iter()
            .map(|(value, mv, pv)| {
                let Score {
                    score,
                    exact,
                    plies_to_end,
                } = judge(value);
                MoveAnalysis {
                    mv,
                    score,
                    exact,
                    plies_to_end,
                    visits: None,
                    prior: None,
                    value: None,
                    pv,
                    margin: None,
                    depth: Some(depth as u32),
                }
            })
            .collect(),
        nodes: engine.nodes,
        elapsed: engine.started.elapsed(),
        stopped_by,
    }
}
