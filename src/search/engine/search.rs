//! The search itself: a principal variation search to the horizon, then quiescence.

use std::sync::Arc;
use std::time::Instant;

use super::contract::Board;
use super::correction::{Corrections, slot};
use super::ordering::{MAX_HISTORY, Memory, Picker};
use super::table::{Bound, Entry, Packed, Table, to_table};
use super::time::Plan;
use super::{EngineParams, Step};
use crate::game::Rules;
use crate::search::{Budget, Cutoff, INFINITY, MAX_DEPTH, Meter, PROVEN, Value, WIN};

/// What a search keeps from one search to the next of the same game, where its caller keeps
/// it (`sente uci` and `sente usi` until a new game): its table, what it learnt about quiet
/// moves (histories), and what it learnt its evaluation gets wrong (correction history).
pub(super) struct Memories<M: Packed + Send + 'static> {
    /// Shared by the threads of a search.
    pub table: Arc<Table<M>>,
    pub memory: Memory<M>,
    pub corrections: Corrections,
}

impl<M: Packed + PartialEq + Send + 'static> Memories<M> {
    /// Empty memories for a game `B`, with a table of `mib`.
    pub fn new<B: Board<Move = M>>(mib: u32) -> Memories<M> {
        Memories::sharing::<B>(Arc::new(Table::new(mib)))
    }

    /// Empty memories for a game `B` but for `table`, which another thread's search shares.
    pub fn sharing<B: Board<Move = M>>(table: Arc<Table<M>>) -> Memories<M> {
        Memories {
            table,
            memory: Memory::new(max_ply::<B>() + 1, B::HISTORY_SLOTS),
            corrections: Corrections::new(B::PAWN),
        }
    }

    /// Forgets everything: a new game begins.
    pub fn clear(&mut self) {
        self.table.clear();
        self.memory.clear();
        self.corrections.clear();
    }
}

/// A node's buffers: its moves, their ranks, and the history slots of the quiet moves searched
/// (which a cutoff by a later move penalises). One set a ply, so that no node allocates.
struct Buffers<M> {
    moves: Vec<M>,
    ranks: Vec<i32>,
    quiets: Vec<usize>,
}

impl<M> Default for Buffers<M> {
    fn default() -> Self {
        Buffers {
            moves: Vec::new(),
            ranks: Vec::new(),
            quiets: Vec::new(),
        }
    }
}

pub(super) struct Engine<B: Board> {
    pub board: B,
    pub table: Arc<Table<B::Move>>,
    memory: Memory<B::Move>,
    corrections: Corrections,
    buffers: Vec<Buffers<B::Move>>,
    /// The static evaluation at each ply of the line, to tell whether the side to move is
    /// improving on its position two plies before.
    evals: Vec<Value>,
    /// The principal variation from each ply, `MAX_PLY + 1` moves a ply.
    pv: Vec<Option<B::Move>>,
    pv_length: Vec<usize>,
    pub nodes: u64,
    /// The deepest ply reached, quiescence included.
    pub seldepth: usize,
    pub meter: Meter,
    /// The engine's own node count (its `nodes`, or its level's) and the service's budget,
    /// which together say whether a node limit reached cut the search short.
    own_nodes: Option<u64>,
    service_budget: Budget,
    /// When the search started, and how long it may take.
    pub started: Instant,
    pub plan: Plan,
    /// How many iterations in a row the best move has stayed the same, and whether the value
    /// fell in the last one: what the time plan reads.
    pub steady: u32,
    pub fell: bool,
    /// The best root move the iteration in progress has found so far, and its value: where
    /// time stops an iteration, a move it has shown better than the last iteration's best.
    pub root_move: Option<(B::Move, Value)>,
    /// The deepest iteration, and the one in progress.
    pub max_depth: i32,
    pub root_depth: i32,
    /// The steps it takes, a bit each ([`Step`]'s number): its game's, less the one turned
    /// off. Asked at every node, so a mask rather than a list.
    steps: u32,
    /// Whether the table's values may cut (see [`Board::table_trusted`]).
    table_trusted: bool,
    /// Late move reductions by depth and move number: both logarithmic, so that deep nodes
    /// and late moves are reduced most but never to nothing.
    reductions: Box<[[i8; 64]; 64]>,
}

/// Plies below the root a search of `B` may reach, quiescence and extensions included.
pub(super) const fn max_ply<B: Board>() -> usize {
    <B::Game as Rules>::MAX_PLIES
}

/// `centipawns` on the game's scale, where its pawn is worth [`Board::PAWN`].
const fn scaled<B: Board>(centipawns: Value) -> Value {
    centipawns * B::PAWN / 100
}

impl<B: Board> Engine<B> {
    /// Why the search stopped short, as its answer says it: not its own node count, which is
    /// the length it was asked for.
    pub fn reported(&self, stopped_by: Option<Cutoff>) -> Option<Cutoff> {
        Cutoff::reported(stopped_by, self.own_nodes, &self.service_budget)
    }

    /// An engine for `game` with memories of its own, or with `kept`: those kept from earlier
    /// searches of the same game, if their table's size is what `params` asks.
    pub fn new(
        game: &B::Game,
        params: &EngineParams,
        budget: &Budget,
        kept: Option<Memories<B::Move>>,
    ) -> Engine<B> {
        // The clock starts before the table is taken: should it be new, its making is counted
        // in the time, and the answer still comes in time.
        let started = Instant::now();
        let board = B::new(game, params);
        let mut reductions = Box::new([[0; 64]; 64]);
        for (depth, row) in reductions.iter_mut().enumerate().skip(1) {
            for (moves, reduction) in row.iter_mut().enumerate().skip(1) {
                let plies = 0.75 + (depth as f64).ln() * (moves as f64).ln() / 2.25;
                *reduction = plies as i8;
            }
        }
        let max_ply = max_ply::<B>();
        let Memories {
            table,
            mut memory,
            corrections,
        } = match kept {
            Some(kept) if kept.table.mib() == params.hash_mb => kept,
            _ => Memories::new::<B>(params.hash_mb),
        };
        memory.next_search();
        Engine {
            plan: Plan::new(
                params,
                board.side() == 1,
                std::time::Duration::from_millis(
                    <B::Game as Rules>::DECLARATION
                        .limits
                        .default_time_limit_ms
                        .unwrap_or(crate::game::DEFAULT_TIME_LIMIT_MS),
                ),
            ),
            table_trusted: board.table_trusted(),
            board,
            table,
            memory,
            corrections,
            buffers: (0..max_ply + 2).map(|_| Buffers::default()).collect(),
            evals: vec![0; max_ply + 2],
            pv: vec![None; (max_ply + 1) * (max_ply + 1)],
            pv_length: vec![0; max_ply + 2],
            nodes: 0,
            seldepth: 0,
            meter: Meter::new(&budget.with_max_nodes(params.nodes)),
            own_nodes: params.nodes,
            service_budget: budget.clone(),
            started,
            steady: 0,
            fell: false,
            root_move: None,
            max_depth: params.depth.map_or(MAX_DEPTH as i32, |depth| {
                (depth as i32).clamp(1, MAX_DEPTH as i32)
            }),
            root_depth: 1,
            steps: B::STEPS
                .iter()
                .filter(|&&step| Some(step) != params.without.and_then(Step::named))
                .fold(0, |mask, &step| mask | 1 << step as u32),
            reductions,
        }
    }

    /// What the engine keeps for the next search of its game.
    pub fn into_memories(self) -> Memories<B::Move> {
        Memories {
            table: self.table,
            memory: self.memory,
            corrections: self.corrections,
        }
    }

    /// The static evaluation of the position, for the side to move, kept below the mate
    /// scores.
    fn evaluate(&mut self) -> Value {
        self.board.evaluate().clamp(-PROVEN + 1, PROVEN - 1)
    }

    /// `eval`, the static evaluation of the position, corrected by what searches found it got
    /// wrong in positions of its structure ([`Step::CorrectionHistory`]).
    fn corrected(&self, eval: Value) -> Value {
        if !self.uses(Step::CorrectionHistory) {
            return eval;
        }
        let corrected =
            self.corrections
                .correct(self.board.side(), slot(self.board.structure_key()), eval);
        corrected.clamp(-PROVEN + 1, PROVEN - 1)
    }

    /// Whether the search takes `step`: its game's, and not turned off.
    pub fn uses(&self, step: Step) -> bool {
        self.steps & (1 << step as u32) != 0
    }

    fn update_pv(&mut self, ply: usize, mv: B::Move) {
        let width = max_ply::<B>() + 1;
        let child = self.pv_length[ply + 1].min(max_ply::<B>() - ply);
        self.pv[ply * width] = Some(mv);
        for index in 0..child {
            self.pv[ply * width + index + 1] = self.pv[(ply + 1) * width + index];
        }
        self.pv_length[ply] = child + 1;
    }

    /// The principal variation from `ply`.
    pub fn line(&self, ply: usize) -> Vec<B::Move> {
        let width = max_ply::<B>() + 1;
        self.pv[ply * width..ply * width + self.pv_length[ply]]
            .iter()
            .map_while(|&mv| mv)
            .collect()
    }

    /// The nodes of the whole search: this thread's, with its helpers' where it has some.
    pub fn total_nodes(&self) -> u64 {
        self.meter.total_nodes(self.nodes)
    }

    /// The first move of the principal variation from the root, if any.
    pub fn best_root_move(&self) -> Option<B::Move> {
        self.pv[0]
    }

    /// Counts a node at `ply` and clears its line; true if the search must stop.
    fn enter(&mut self, ply: usize) -> bool {
        self.pv_length[ply] = 0;
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        self.meter.tick(self.nodes)
    }

    /// The value of the position for the side to move, searched `depth` plies deep (and then
    /// to quiet positions), within the window (`alpha`, `beta`). A window wider than a point is
    /// a node of the principal variation, searched in full; the others only need to say on
    /// which side of the window they fall, which is what lets the search prune.
    pub fn search(
        &mut self,
        depth: i32,
        ply: usize,
        mut alpha: Value,
        mut beta: Value,
        null_allowed: bool,
    ) -> Value {
        let pv_node = beta - alpha > 1;
        if self.enter(ply) {
            return 0;
        }
        if ply > 0 {
            if let Some(value) = self.board.decided(ply, false) {
                return value;
            }
            // No line from here can do better than mating at once or worse than being mated
            // now: a window outside that is already decided.
            alpha = alpha.max(-(WIN - ply as Value));
            beta = beta.min(WIN - ply as Value - 1);
            if alpha >= beta {
                return alpha;
            }
        }
        let in_check = self.board.in_check();
        if ply >= max_ply::<B>() - 1 {
            return self.evaluate();
        }
        // A position in check is searched a ply deeper: its moves are few and forced (where
        // checks are many, only while the line is short).
        let extend = in_check
            && B::CHECK_EXTENSION_REACH_PERCENT
                .is_none_or(|reach| 100 * (ply as i32) < reach * self.root_depth);
        let mut depth = if extend { depth.max(0) + 1 } else { depth };
        if depth <= 0 {
            return self.quiescence(ply, alpha, beta);
        }

        let key = self.board.key();
        let entry = self.table.probe(key);
        if let Some(entry) = entry
            && !pv_node
            && self.table_trusted
            && let Some(value) = entry.cutoff(depth, ply, alpha, beta)
        {
            return value;
        }

        // A mate in one, where the game finds it cheaply: the node is won at once, whatever
        // depth is left, and the full search would find it only a ply deeper, and only if
        // no pruning skipped the mating move (a quiet drop near the horizon). Safe: the mate
        // is proven, and the window above already allows a mate at the next ply.
        if ply > 0
            && !in_check
            && entry.is_none()
            && let Some(mv) = self.board.mate_in_one()
        {
            let value = WIN - ply as Value - 1;
            self.pv_length[ply + 1] = 0;
            self.update_pv(ply, mv);
            self.table.store(Entry {
                key,
                mv: Some(mv),
                value: to_table(value, ply),
                depth: (depth + 6).min(i32::from(i8::MAX)) as i8,
                bound: Bound::Exact,
            });
            return value;
        }

        let (raw_eval, eval) = if in_check {
            (-INFINITY, -INFINITY)
        } else {
            let raw = self.evaluate();
            (raw, self.corrected(raw))
        };
        self.evals[ply] = eval;
        let improving = !in_check && (ply < 2 || eval > self.evals[ply - 2]);

        if !pv_node && !in_check && beta.abs() < PROVEN {
            // Reverse futility: so far above beta this close to the horizon that no move of
            // the opponent's is likely to bring it back, unless it mates. The evaluation
            // knows nothing of a mate on the next move, and a cut then calls a node about to
            // be mated good, the error that walks into a mating attack: the game is asked
            // last, where the cut would otherwise be made (`Board::mate_threat`: the side to
            // move passes, the opponent looks for a mate in one). The move prunings below are
            // left alone under a threat: they can only make a node look worse than it is, and
            // searching every quiet move of every threatened node near the horizon (in a
            // mating attack, all of the defender's) costs more than that error does.
            let margin = scaled::<B>(80) * (depth - Value::from(improving));
            if self.uses(Step::ReverseFutility)
                && depth <= 7
                && eval - margin >= beta
                && !self.board.mate_threat()
            {
                return eval;
            }
            // Null move: if passing still leaves the side to move above beta, a real move
            // would too (zugzwang aside, which the game says where it is likely).
            if self.uses(Step::NullMove)
                && null_allowed
                && depth >= 3
                && eval >= beta
                && self.board.null_move_safe()
            {
                let reduction = 3 + depth / 4 + ((eval - beta) / scaled::<B>(200)).min(3);
                let value = self.null_move(depth - 1 - reduction, ply, beta);
                if self.meter.is_stopped() {
                    return 0;
                }
                // Passing is no move in zugzwang, where every real move is worse than none,
                // and there a cut would hide the line the opponent wins by. Deep cuts, whose
                // error would cost most, are verified by searching the node itself, as deep
                // as the pass was, without passing; shallow ones are cheap to be wrong about.
                let verified = value >= beta
                    && (depth < VERIFICATION_DEPTH
                        || !self.uses(Step::Verification)
                        || self.search(depth - 1 - reduction, ply, beta - 1, beta, false) >= beta);
                if self.meter.is_stopped() {
                    return 0;
                }
                if verified {
                    // A mate found after a pass is no proof: the pass was not a move.
                    return if value >= PROVEN { beta } else { value };
                }
            }
        }

        let table_move = entry.and_then(|entry| entry.mv);
        // A node the table knows nothing of is searched a ply shallower: the next iteration
        // will find its move in the table.
        if self.uses(Step::Reductions) && table_move.is_none() && depth >= 4 {
            depth -= 1;
        }

        let mut buffers = std::mem::take(&mut self.buffers[ply]);
        buffers.moves.clear();
        self.board.legal_moves(&mut buffers.moves);
        if buffers.moves.is_empty() {
            self.buffers[ply] = buffers;
            return self.board.no_moves(in_check, ply);
        }
        let mut quiets = std::mem::take(&mut buffers.quiets);
        quiets.clear();
        let mut picker = Picker::new(buffers.moves, buffers.ranks);
        let exchanges = self.uses(Step::Exchange);
        picker.rank(&self.board, table_move, &self.memory, ply, exchanges);

        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        let mut searched = 0;
        let mut stopped = false;
        while let Some((mv, rank)) = picker.next() {
            let quiet = self.board.is_quiet(mv);
            let prunable = !pv_node && !in_check && searched > 0 && best > -PROVEN;
            if prunable && quiet && self.uses(Step::LateMovePruning) {
                // Late move pruning: this close to the horizon, quiet moves this late in the
                // order almost never cut.
                let late = (3 + depth * depth) / if improving { 1 } else { 2 };
                if depth <= 4 && quiets.len() as i32 >= late {
                    continue;
                }
            }
            if prunable
                && !quiet
                && exchanges
                && depth <= 5
                && Picker::<B::Move>::is_bad_capture(rank)
                && self.board.exchange(mv) < -scaled::<B>(100) * depth
            {
                continue;
            }
            let slot = if quiet {
                self.board.history_slot(mv)
            } else {
                0
            };
            self.board.make(mv);
            let gives_check = self.board.in_check();
            // Futility: a quiet move cannot lift an evaluation this far below alpha this
            // close to the horizon, unless it checks.
            if prunable
                && quiet
                && !gives_check
                && self.uses(Step::LateMovePruning)
                && depth <= 5
                && eval + scaled::<B>(100 + 90 * depth) <= alpha
            {
                self.board.unmake(mv);
                continue;
            }
            let value = if searched == 0 {
                -self.search(depth - 1, ply + 1, -beta, -alpha, true)
            } else {
                let mut reduction = 0;
                if self.uses(Step::Reductions)
                    && depth >= 3
                    && searched > usize::from(pv_node)
                    && quiet
                    && !in_check
                    && !gives_check
                {
                    reduction =
                        i32::from(self.reductions[(depth as usize).min(63)][searched.min(63)]);
                    reduction -= i32::from(pv_node);
                    reduction += i32::from(!improving);
                    reduction -= i32::from(self.memory.is_killer(ply, mv));
                    reduction -= self.memory.history(slot) * 2 / MAX_HISTORY;
                    reduction = reduction.clamp(0, depth - 2);
                }
                // The first move is most likely best: the others need only be shown worse,
                // which a null window (and, for late quiet moves, less depth) does cheaply;
                // one that is not is searched again in full.
                let mut value =
                    -self.search(depth - 1 - reduction, ply + 1, -alpha - 1, -alpha, true);
                if reduction > 0 && value > alpha {
                    value = -self.search(depth - 1, ply + 1, -alpha - 1, -alpha, true);
                }
                if value > alpha && value < beta {
                    value = -self.search(depth - 1, ply + 1, -beta, -alpha, true);
                }
                value
            };
            self.board.unmake(mv);
            searched += 1;
            if self.meter.is_stopped() {
                stopped = true;
                break;
            }
            if value > best {
                best = value;
                best_move = Some(mv);
                if value > alpha {
                    alpha = value;
                    self.update_pv(ply, mv);
                    if ply == 0 {
                        self.root_move = Some((mv, value));
                    }
                    if alpha >= beta {
                        if quiet {
                            self.memory.reward(ply, depth, mv, slot, &quiets);
                        }
                        break;
                    }
                }
            }
            if quiet {
                quiets.push(slot);
            }
        }
        let (moves, ranks) = picker.into_buffers();
        self.buffers[ply] = Buffers {
            moves,
            ranks,
            quiets,
        };
        if stopped {
            return 0;
        }

        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        // What the search found says what the static evaluation should have been, unless it is
        // a bound on the evaluation's own side, or a capture's gain that no evaluation sees.
        let informative = match bound {
            Bound::Exact => true,
            Bound::Lower => best > eval,
            Bound::Upper => best < eval,
        };
        if self.uses(Step::CorrectionHistory)
            && !in_check
            && informative
            && best.abs() < PROVEN
            && best_move.is_none_or(|mv| self.board.is_quiet(mv))
        {
            let slot = slot(self.board.structure_key());
            self.corrections
                .learn(self.board.side(), slot, depth, best, raw_eval);
        }
        self.table.store(Entry {
            key,
            mv: best_move,
            value: to_table(best, ply),
            depth: depth.min(i32::from(i8::MAX)) as i8,
            bound,
        });
        best
    }

    /// The value of the position after the side to move passes, searched `depth` plies deep
    /// with a null window at `beta`; below beta where the game forbids passing.
    fn null_move(&mut self, depth: i32, ply: usize, beta: Value) -> Value {
        if !self.board.make_null() {
            return -INFINITY;
        }
        let value = -self.search(depth, ply + 1, -beta, -beta + 1, false);
        self.board.unmake_null();
        value
    }

    /// The value of the position once the captures are over: the side to move may stand on
    /// the static evaluation or capture; in check it must answer the check.
    fn quiescence(&mut self, ply: usize, mut alpha: Value, beta: Value) -> Value {
        if self.enter(ply) {
            return 0;
        }
        if let Some(value) = self.board.decided(ply, true) {
            return value;
        }
        if ply >= max_ply::<B>() - 1 {
            return self.evaluate();
        }
        let in_check = self.board.in_check();
        let mut buffers = std::mem::take(&mut self.buffers[ply]);
        buffers.moves.clear();
        let mut best = -INFINITY;
        let mut eval = -INFINITY;
        if in_check {
            self.board.legal_moves(&mut buffers.moves);
            if buffers.moves.is_empty() {
                self.buffers[ply] = buffers;
                return self.board.no_moves(true, ply);
            }
        } else {
            let raw = self.evaluate();
            eval = self.corrected(raw);
            if eval >= beta {
                self.buffers[ply] = buffers;
                return eval;
            }
            // A mate in one, where the game finds it cheaply: captures alone would not see it.
            if self.board.mate_in_one().is_some() {
                self.buffers[ply] = buffers;
                return WIN - ply as Value - 1;
            }
            best = eval;
            alpha = alpha.max(eval);
            self.board.noisy_moves(&mut buffers.moves);
        }
        let exchanges = self.uses(Step::Exchange);
        let quiets = std::mem::take(&mut buffers.quiets);
        let mut picker = Picker::new(buffers.moves, buffers.ranks);
        picker.rank(&self.board, None, &self.memory, ply, exchanges);
        let mut stopped = false;
        while let Some((mv, rank)) = picker.next() {
            if !in_check {
                // Delta pruning: even winning the piece outright would not reach alpha.
                if let Some(gain) = self.board.gain(mv)
                    && eval + gain + scaled::<B>(200) <= alpha
                {
                    continue;
                }
                // A capture that loses material by exchange is no way out of trouble.
                if exchanges && Picker::<B::Move>::is_bad_capture(rank) {
                    continue;
                }
            }
            self.board.make(mv);
            let value = -self.quiescence(ply + 1, -beta, -alpha);
            self.board.unmake(mv);
            if self.meter.is_stopped() {
                stopped = true;
                break;
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
        let (moves, ranks) = picker.into_buffers();
        self.buffers[ply] = Buffers {
            moves,
            ranks,
            quiets,
        };
        if stopped { 0 } else { best }
    }
}

/// The depth from which a null move's cut is verified (see [`Step::Verification`]).
const VERIFICATION_DEPTH: i32 = 8;
