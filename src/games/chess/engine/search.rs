//! The search itself: a principal variation search to the horizon, then quiescence.

use std::sync::Arc;
use std::time::{Duration, Instant};

use shakmaty::zobrist::{Zobrist64, ZobristValue};
use shakmaty::{Color, Move, MoveList, Position, Role};

use super::Step;
use super::correction::{Corrections, pawn_slot};
use super::exchange::{exchange, value as piece_value};
use super::ordering::{MAX_HISTORY, Memory, Picker};
use super::table::{Bound, Entry, Table, to_table};
use super::time::Plan;
use super::{MAX_DEPTH, MAX_PLY, Scorer};
use crate::games::chess::evaluation;
use crate::games::chess::nnue::{
    self,
    accumulator::{Changes, Stack},
};
use crate::games::chess::{Chess, ChessMove, key};
use crate::search::kit::{INFINITY, Meter, PROVEN, Value, WIN};
use crate::search::{Budget, EngineParams};

pub(super) struct Engine {
    pub table: Table,
    memory: Memory,
    /// The keys of the positions before the current one: the game's since its last capture
    /// or pawn move, then the search line's.
    pub keys: Vec<u64>,
    /// Where in `keys` the last null move was: no position before it can be repeated, since
    /// a null move is no move of the game.
    null_barrier: usize,
    /// The static evaluation at each ply of the line, to tell whether the side to move is
    /// improving on its position two plies before.
    evals: [Value; MAX_PLY + 2],
    pub pv: Vec<[Option<Move>; MAX_PLY + 1]>,
    pub pv_length: [usize; MAX_PLY + 2],
    pub nodes: u64,
    /// The deepest ply reached, quiescence included.
    pub seldepth: usize,
    pub meter: Meter,
    /// When the search started, and how long it may take.
    pub started: Instant,
    pub plan: Plan,
    /// How many iterations in a row the best move has stayed the same, and whether the value
    /// fell in the last one: what the time plan reads.
    pub steady: u32,
    pub fell: bool,
    /// The best root move the iteration in progress has found so far, and its value: where
    /// time stops an iteration, a move it has shown better than the last iteration's best.
    pub root_move: Option<(Move, Value)>,
    /// The deepest iteration.
    pub max_depth: i32,
    without: Option<Step>,
    scorer: Scorer,
    /// The network and its sums along the line, when it scores.
    network: Arc<nnue::Network>,
    sums: Option<Stack>,
    /// Late move reductions by depth and move number: both logarithmic, so that deep nodes
    /// and late moves are reduced most but never to nothing.
    reductions: Box<[[i8; 64]; 64]>,
    corrections: Corrections,
}

impl Engine {
    /// An engine for `game` with a table of its own, or with `table`: one kept from earlier
    /// searches of the same game, if its size is what `params` asks.
    pub fn new(
        game: &Chess,
        params: &EngineParams,
        budget: &Budget,
        table: Option<Table>,
    ) -> Engine {
        // The clock starts before the table is taken: should it be new, its making is counted
        // in the time, and the answer still comes in time.
        let started = Instant::now();
        let scorer = Scorer::of(params.evaluation);
        let network = nnue::current();
        let mut reductions = Box::new([[0; 64]; 64]);
        for (depth, row) in reductions.iter_mut().enumerate().skip(1) {
            for (moves, reduction) in row.iter_mut().enumerate().skip(1) {
                let plies = 0.75 + (depth as f64).ln() * (moves as f64).ln() / 2.25;
                *reduction = plies as i8;
            }
        }
        Engine {
            table: table
                .filter(|table| table.mib() == params.hash_mb)
                .unwrap_or_else(|| Table::new(params.hash_mb)),
            memory: Memory::new(MAX_PLY + 1),
            keys: game.earlier_keys(),
            null_barrier: 0,
            evals: [0; MAX_PLY + 2],
            pv: vec![[None; MAX_PLY + 1]; MAX_PLY + 1],
            pv_length: [0; MAX_PLY + 2],
            nodes: 0,
            seldepth: 0,
            meter: Meter::new(&budget.with_max_nodes(params.nodes)),
            started,
            plan: Plan::new(
                params,
                game.position().turn() == Color::White,
                Duration::from_millis(super::DEFAULT_TIME_LIMIT_MS),
            ),
            steady: 0,
            fell: false,
            root_move: None,
            max_depth: params
                .depth
                .map_or(MAX_DEPTH, |depth| (depth as i32).clamp(1, MAX_DEPTH)),
            without: params.without.and_then(Step::named),
            scorer,
            sums: (scorer == Scorer::Network)
                .then(|| Stack::new(&network, game.position().board(), MAX_PLY + 2)),
            network,
            reductions,
            corrections: Corrections::new(),
        }
    }

    /// The static evaluation of `position`, `ply` plies from the root, for the side to move,
    /// kept below the mate scores.
    fn evaluate(&mut self, position: &shakmaty::Chess, ply: usize) -> Value {
        let terms = self.uses(Step::Terms);
        let value = match (self.scorer, &mut self.sums) {
            (Scorer::Network, Some(sums)) => {
                let network = &*self.network;
                network.evaluate(sums.at(network, ply), position.turn())
            }
            (Scorer::Network, None) => nnue::evaluate(position),
            (Scorer::Pesto, _) if terms => evaluation::engine(position),
            (Scorer::Pesto, _) => evaluation::pesto(position),
            (Scorer::Material, _) => evaluation::material(position),
        };
        value.clamp(-PROVEN + 1, PROVEN - 1)
    }

    /// `eval`, the static evaluation of `position`, corrected by what searches found it got
    /// wrong in positions of its pawn structure ([`Step::CorrectionHistory`]).
    fn corrected(&self, position: &shakmaty::Chess, eval: Value) -> Value {
        if !self.uses(Step::CorrectionHistory) {
            return eval;
        }
        let corrected = self
            .corrections
            .correct(position.turn(), pawn_slot(position), eval);
        corrected.clamp(-PROVEN + 1, PROVEN - 1)
    }

    /// `position` after `mv`, the position `ply + 1` plies from the root; the network's sums
    /// are told of the move.
    pub fn play(&mut self, position: &shakmaty::Chess, mv: Move, ply: usize) -> shakmaty::Chess {
        let mut child = position.clone();
        child.play_unchecked(mv);
        if let Some(sums) = &mut self.sums {
            sums.push(ply + 1, Changes::of(position.turn(), &mv));
        }
        child
    }

    pub fn uses(&self, step: Step) -> bool {
        self.without != Some(step)
    }

    /// Whether the position with `key` (and `halfmoves` on its clock) repeats one of the line:
    /// only positions since the last capture or pawn move (or null move) can, and only every
    /// second one has the same side to move.
    fn repeats(&self, key: u64, halfmoves: u32) -> bool {
        let reach = (halfmoves as usize).min(self.keys.len() - self.null_barrier);
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

    /// The principal variation from `ply`.
    pub fn line(&self, ply: usize) -> Vec<ChessMove> {
        self.pv[ply][..self.pv_length[ply]]
            .iter()
            .map_while(|&mv| mv.map(|mv| ChessMove(Some(mv))))
            .collect()
    }

    /// Counts a node at `ply` and clears its line; true if the search must stop.
    fn enter(&mut self, ply: usize) -> bool {
        self.pv_length[ply] = 0;
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        self.meter.tick(self.nodes)
    }

    /// The value of `position` for the side to move, searched `depth` plies deep (and then to
    /// quiet positions), within the window (`alpha`, `beta`). A window wider than a point is a
    /// node of the principal variation, searched in full; the others only need to say on which
    /// side of the window they fall, which is what lets the search prune.
    #[allow(clippy::too_many_arguments)]
    pub fn search(
        &mut self,
        position: &shakmaty::Chess,
        key: u64,
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
            if position.halfmoves() >= 100
                || Chess::lacks_mating_material(position)
                || self.repeats(key, position.halfmoves())
            {
                return 0;
            }
            // No line from here can do better than mating at once or worse than being mated
            // now: a window outside that is already decided.
            alpha = alpha.max(-(WIN - ply as Value));
            beta = beta.min(WIN - ply as Value - 1);
            if alpha >= beta {
                return alpha;
            }
        }
        let in_check = position.is_check();
        if ply >= MAX_PLY - 1 {
            return self.evaluate(position, ply);
        }
        // A position in check is searched a ply deeper: its moves are few and forced.
        let mut depth = if in_check { depth.max(0) + 1 } else { depth };
        if depth <= 0 {
            return self.quiescence(position, ply, alpha, beta);
        }

        let entry = self.table.probe(key);
        if let Some(entry) = entry
            && !pv_node
            && let Some(value) = entry.cutoff(depth, ply, alpha, beta)
        {
            return value;
        }

        let (raw_eval, eval) = if in_check {
            (-INFINITY, -INFINITY)
        } else {
            let raw = self.evaluate(position, ply);
            (raw, self.corrected(position, raw))
        };
        self.evals[ply] = eval;
        let improving = !in_check && (ply < 2 || eval > self.evals[ply - 2]);

        if !pv_node && !in_check && beta.abs() < PROVEN {
            // Reverse futility: so far above beta this close to the horizon that no move of
            // the opponent's is likely to bring it back.
            let margin = 80 * (depth - Value::from(improving));
            if self.uses(Step::ReverseFutility) && depth <= 7 && eval - margin >= beta {
                return eval;
            }
            // Null move: if passing still leaves the side to move above beta, a real move
            // would too (zugzwang aside, which needs few pieces: not tried without them).
            if self.uses(Step::NullMove)
                && null_allowed
                && depth >= 3
                && eval >= beta
                && has_pieces(position)
            {
                let reduction = 3 + depth / 4 + ((eval - beta) / 200).min(3);
                let value = self.null_move(position, key, depth - 1 - reduction, ply, beta);
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
                        || self.search(
                            position,
                            key,
                            depth - 1 - reduction,
                            ply,
                            beta - 1,
                            beta,
                            false,
                        ) >= beta);
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

        let moves = position.legal_moves();
        if moves.is_empty() {
            return if in_check { -(WIN - ply as Value) } else { 0 };
        }
        let turn = position.turn();
        let mut picker = Picker::new(
            position,
            moves,
            table_move,
            &self.memory,
            ply,
            self.uses(Step::Exchange),
        );

        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        let mut searched = 0;
        // The quiet moves searched so far, which a cutoff by a later move penalises.
        let mut quiets = MoveList::new();
        self.keys.push(key);
        while let Some((mv, rank)) = picker.next() {
            let quiet = !mv.is_capture() && mv.promotion().is_none();
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
                && self.uses(Step::Exchange)
                && depth <= 5
                && Picker::is_bad_capture(rank)
                && exchange(position, mv) < -100 * depth
            {
                continue;
            }
            let child = self.play(position, mv, ply);
            let gives_check = child.is_check();
            // Futility: a quiet move cannot lift an evaluation this far below alpha this
            // close to the horizon, unless it checks.
            if prunable
                && quiet
                && !gives_check
                && self.uses(Step::LateMovePruning)
                && depth <= 5
                && eval + 100 + 90 * depth <= alpha
            {
                continue;
            }
            let child_key = key::after(position, key, mv, &child);
            let value = if searched == 0 {
                -self.search(&child, child_key, depth - 1, ply + 1, -beta, -alpha, true)
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
                    reduction -= self.memory.history(turn, mv) * 2 / MAX_HISTORY;
                    reduction = reduction.clamp(0, depth - 2);
                }
                // The first move is most likely best: the others need only be shown worse,
                // which a null window (and, for late quiet moves, less depth) does cheaply;
                // one that is not is searched again in full.
                let mut value = -self.search(
                    &child,
                    child_key,
                    depth - 1 - reduction,
                    ply + 1,
                    -alpha - 1,
                    -alpha,
                    true,
                );
                if reduction > 0 && value > alpha {
                    value = -self.search(
                        &child,
                        child_key,
                        depth - 1,
                        ply + 1,
                        -alpha - 1,
                        -alpha,
                        true,
                    );
                }
                if value > alpha && value < beta {
                    value =
                        -self.search(&child, child_key, depth - 1, ply + 1, -beta, -alpha, true);
                }
                value
            };
            searched += 1;
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
                    if ply == 0 {
                        self.root_move = Some((mv, value));
                    }
                    if alpha >= beta {
                        if quiet {
                            self.memory.reward(turn, ply, depth, mv, &quiets);
                        }
                        break;
                    }
                }
            }
            if quiet {
                quiets.push(mv);
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
            && best_move.is_none_or(|mv| !mv.is_capture() && mv.promotion().is_none())
        {
            self.corrections
                .learn(turn, pawn_slot(position), depth, best, raw_eval);
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

    /// The value of `position` after the side to move passes, searched `depth` plies deep
    /// with a null window at `beta`.
    fn null_move(
        &mut self,
        position: &shakmaty::Chess,
        key: u64,
        depth: i32,
        ply: usize,
        beta: Value,
    ) -> Value {
        let Ok(passed) = position.clone().swap_turn() else {
            return -INFINITY;
        };
        let mut passed_key = Zobrist64(key) ^ Zobrist64::zobrist_for_white_turn();
        if let Some(square) = position.legal_ep_square() {
            passed_key ^= Zobrist64::zobrist_for_en_passant_file(square.file());
        }
        if let Some(sums) = &mut self.sums {
            sums.push(ply + 1, Changes::NONE);
        }
        self.keys.push(key);
        let barrier = std::mem::replace(&mut self.null_barrier, self.keys.len());
        let value = -self.search(
            &passed,
            passed_key.0,
            depth,
            ply + 1,
            -beta,
            -beta + 1,
            false,
        );
        self.null_barrier = barrier;
        self.keys.pop();
        value
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
        if Chess::lacks_mating_material(position) {
            return 0;
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluate(position, ply);
        }
        let in_check = position.is_check();
        let mut moves = position.legal_moves();
        let mut best = -INFINITY;
        let mut eval = -INFINITY;
        if in_check {
            if moves.is_empty() {
                return -(WIN - ply as Value);
            }
        } else {
            let raw = self.evaluate(position, ply);
            eval = self.corrected(position, raw);
            if eval >= beta {
                return eval;
            }
            best = eval;
            alpha = alpha.max(eval);
            moves.retain(|mv| mv.is_capture() || mv.promotion() == Some(Role::Queen));
        }
        let exchanges = self.uses(Step::Exchange);
        let mut picker = Picker::new(position, moves, None, &self.memory, ply, exchanges);
        while let Some((mv, rank)) = picker.next() {
            if !in_check && exchanges {
                // Delta pruning: even winning the piece outright would not reach alpha.
                let gain = mv.capture().map_or(0, piece_value)
                    + mv.promotion().map_or(0, |role| piece_value(role) - 100);
                if eval + gain + 200 <= alpha {
                    continue;
                }
                // A capture that loses material by exchange is no way out of trouble.
                if Picker::is_bad_capture(rank) {
                    continue;
                }
            }
            let child = self.play(position, mv, ply);
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

/// The depth from which a null move's cut is verified (see [`Step::Verification`]).
const VERIFICATION_DEPTH: i32 = 8;

/// Whether the side to move has a piece other than pawns and its king: without one, zugzwang
/// (where passing would be best) is common, and the null move's reasoning fails.
fn has_pieces(position: &shakmaty::Chess) -> bool {
    let board = position.board();
    let ours = board.by_color(position.turn());
    (ours & !(board.pawns() | board.kings())).any()
}
