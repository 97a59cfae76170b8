//! Nega-alpha: negamax with an (alpha, beta) window, and the enhancements that make it fast.
//!
//! ```text
//! alphabeta(node, depth, alpha, beta):
//!     if depth = 0 or node is terminal: return value(node) for the side to move
//!     best = -inf
//!     for each child:
//!         best = max(best, -alphabeta(child, depth - 1, -beta, -alpha))
//!         alpha = max(alpha, best)
//!         if alpha >= beta: break        (the opponent will not allow this line)
//!     return best
//! ```
//!
//! With every [`Enhancements`] switched off this is exactly the textbook search above (the
//! fail-soft form, which visits the nodes the fail-hard form visits), moves in the game's
//! natural order, so its node count stays comparable with the tutorials'. Each enhancement can
//! be switched on alone, to measure what it buys:
//!
//! - `transposition_table`: positions met again by another move order are looked up instead of
//!   searched again ([`TranspositionTable`]), with exact, lower- and upper-bound entries.
//! - `symmetry`: positions that are mirror images share one table entry, and of sibling moves
//!   that lead to mirror-image positions only the first is searched (on an empty square
//!   board, the moves of one eighth of it).
//! - `ordering`: the table's best move first, then killer moves (that caused a cutoff at the
//!   same ply), then by history (cutoffs caused anywhere) and the game's static priority
//!   (centre first). Good moves first make the cutoffs come early.
//! - `pvs`: principal variation search. After the first move, each move is first tried with a
//!   null window (alpha, alpha + 1), which only asks "is it better?", and searched again with
//!   the full window only when it is.
//!
//! A time limit turns on iterative deepening: depth 1, 2, ... until the game is searched to the
//! end or the time runs out; the answer is then the best move of the last completed iteration.

use std::time::{Duration, Instant};

use super::table::{Bound, TranspositionTable};
use super::{
    Budget, Cutoff, Evaluate, EvaluationIndex, INFINITY, Meter, PvTable, SearchResult, Value,
    depth_limit, evaluation, exact_search_result, fixed_depth_result, heuristic,
    stopped_search_result, terminal_value,
};
use crate::game::{Game, Turn};
use crate::search::Algorithm;
use crate::search::record::{Chance, Record, Stops};

/// The `alphabeta` algorithm's record.
pub(super) const RECORD: Record = Record {
    algorithm: Algorithm::AlphaBeta,
    name: "alphabeta",
    description: "Nega-alpha: negamax with an (alpha, beta) window and cutoffs when alpha >= beta.",
    stops: Stops::Deepening,
    breaks_ties: true,
    depth_limited: true,
    chance: Chance::TieBreak,
    samples: None,
};

/// The enhancements of [`Enhancements`], each on or off.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Enhancements {
    pub transposition_table: bool,
    pub symmetry: bool,
    pub ordering: bool,
    pub pvs: bool,
}

impl Enhancements {
    pub const NONE: Enhancements = Enhancements {
        transposition_table: false,
        symmetry: false,
        ordering: false,
        pvs: false,
    };
    pub const ALL: Enhancements = Enhancements {
        transposition_table: true,
        symmetry: true,
        ordering: true,
        pvs: true,
    };
}

/// How an alphabeta search is configured.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct AlphaBetaParams {
    /// Plies to search; `None` to the end of the game.
    pub depth: Option<u32>,
    pub enhancements: Enhancements,
    /// Deepen iteratively until this much time has passed.
    pub time_limit: Option<Duration>,
    /// Which of the game's evaluations scores the leaves at the depth limit.
    pub evaluation: EvaluationIndex,
}

impl AlphaBetaParams {
    /// The strongest search, the solvers' fallback: every enhancement, to the end of the game
    /// or until `time_limit`, the game's default evaluation.
    pub const fn strongest(time_limit: Option<Duration>) -> Self {
        AlphaBetaParams {
            depth: None,
            enhancements: Enhancements::ALL,
            time_limit,
            evaluation: 0,
        }
    }

    /// The textbook search, `depth` plies deep: no enhancement, no time limit.
    pub const fn textbook(depth: Option<u32>) -> Self {
        AlphaBetaParams {
            depth,
            enhancements: Enhancements::NONE,
            time_limit: None,
            evaluation: 0,
        }
    }
}

/// The alphabeta searcher: its settings and what it keeps between nodes.
///
/// `ENHANCED: false` is the textbook search: the compiler drops every enhancement's branch
/// from it, so it runs as fast as if they had never been written (checking the switches at
/// run time doubled its time per node).
pub(super) struct AlphaBeta<G: Game, const ENHANCED: bool = true> {
    enhancements: Enhancements,
    pub(super) nodes: u64,
    pub(super) hit_horizon: bool,
    pv: PvTable<G::Move>,
    table: Option<TranspositionTable>,
    /// Two moves per ply that caused a cutoff there most recently.
    killers: Vec<[Option<G::Move>; 2]>,
    /// Per move id: how much cutoffs this move has caused, deeper ones counting more.
    history: Vec<u32>,
    /// Per ply, the buffer a node sorts its moves in (with their ranks), kept between nodes so
    /// that ordering allocates nothing once every ply has had its turn.
    move_lists: Vec<Vec<(i64, G::Move)>>,
    /// The budget, and the iteration's deadline under a time limit. Once it says stop, the
    /// values since are meaningless.
    meter: Meter,
    /// What scores the leaves at the depth limit: the game's first evaluation unless told.
    evaluate: Evaluate<G>,
}

impl<G: Game, const ENHANCED: bool> AlphaBeta<G, ENHANCED> {
    /// A searcher for the positions below `root`: its table is sized for the plies left there.
    pub(super) fn new(root: &G, enhancements: Enhancements, budget: &Budget) -> Self {
        let enhancements = if ENHANCED {
            enhancements
        } else {
            Enhancements::NONE
        };
        AlphaBeta {
            enhancements,
            nodes: 0,
            hit_horizon: false,
            pv: PvTable::new(G::MAX_PLIES),
            table: (enhancements.transposition_table || enhancements.symmetry)
                .then(|| TranspositionTable::for_plies(root.plies_left())),
            // Only move ordering reads them; a search without it allocates neither.
            killers: if enhancements.ordering {
                vec![[None; 2]; G::MAX_PLIES + 2]
            } else {
                Vec::new()
            },
            history: if enhancements.ordering {
                vec![0; G::MOVE_IDS]
            } else {
                Vec::new()
            },
            move_lists: if enhancements.ordering {
                vec![Vec::new(); G::MAX_PLIES + 2]
            } else {
                Vec::new()
            },
            meter: Meter::new(budget),
            evaluate: evaluation::<G>(0),
        }
    }

    /// The searcher, scoring its leaves with `evaluate`.
    pub(super) fn evaluating(mut self, evaluate: Evaluate<G>) -> Self {
        self.evaluate = evaluate;
        self
    }

    /// The value of `game` at `ply` plies from the root, searched `depth` plies deep.
    pub(super) fn value(
        &mut self,
        game: &G,
        depth: u32,
        ply: usize,
        mut alpha: Value,
        mut beta: Value,
    ) -> Value {
        self.nodes += 1;
        self.pv.clear(ply);
        // At the depth limit only the outcome matters; above it the moves, generated once.
        if depth == 0 {
            let outcome = game.outcome();
            if outcome.is_over() {
                return terminal_value(outcome, game.side_to_move(), ply);
            }
            self.hit_horizon = true;
            return heuristic(game, self.evaluate);
        }
        let moves = match game.turn() {
            Turn::Over(outcome) => return terminal_value(outcome, game.side_to_move(), ply),
            Turn::Moves(moves) => moves,
        };
        // Only nodes with children look at the budget: a leaf costs nothing to finish.
        if self.meter.tick(self.nodes) {
            return 0;
        }

        let alpha_before = alpha;
        let mut table_move = None;
        if ENHANCED && let Some(table) = &self.table {
            let entry_depth = entry_depth(game, depth);
            let key = self.table_key(game);
            if let Some(entry) = table.probe(key) {
                // The move is stored in the position's own orientation, so it is only
                // meaningful when symmetric positions do not share entries.
                if !self.enhancements.symmetry {
                    table_move = entry.move_id();
                }
                // Never at the root: it must search to name its best move and line.
                if entry.depth >= entry_depth && ply > 0 {
                    if entry.depth != u8::MAX {
                        self.hit_horizon = true;
                    }
                    let value = TranspositionTable::value_from_entry(entry.value, ply);
                    match entry.bound {
                        Bound::Exact => return value,
                        Bound::Lower => alpha = alpha.max(value),
                        Bound::Upper => beta = beta.min(value),
                    }
                    if alpha >= beta {
                        return value;
                    }
                }
            }
        }

        // Each enhancement costs only when it is on: the textbook search walks the moves as the
        // game yields them, with nothing collected or sorted.
        let mut moves = if ENHANCED && self.enhancements.ordering {
            let mut sorted = std::mem::take(&mut self.move_lists[ply]);
            self.order(game, moves, &mut sorted, ply, table_move);
            MoveOrder::<G>::Sorted(sorted, 0)
        } else {
            MoveOrder::Natural(moves)
        };
        let mut seen = (ENHANCED && self.enhancements.symmetry).then(SiblingKeys::new);
        let mut best = -INFINITY;
        let mut best_move = None;
        let mut searched = 0;
        // One slot for the children, each written into it in turn (see `Game::play_into`).
        let mut child = game.clone();
        for mv in moves.by_ref() {
            game.play_into(mv, &mut child);
            if ENHANCED
                && let Some(seen) = &mut seen
                && !seen.insert(child.symmetric_key())
            {
                continue;
            }
            searched += 1;
            let value = if !ENHANCED || searched == 1 || !self.enhancements.pvs {
                -self.value(&child, depth - 1, ply + 1, -beta, -alpha)
            } else {
                let probe = -self.value(&child, depth - 1, ply + 1, -alpha - 1, -alpha);
                if probe > alpha && probe < beta {
                    -self.value(&child, depth - 1, ply + 1, -beta, -alpha)
                } else {
                    probe
                }
            };
            // Stopped: this value is meaningless, and nothing may be stored in the table; the
            // root keeps the best of the moves it completed. (Without a table, nodes below the
            // root need not look: every node after the stop returns at once.)
            if (ENHANCED || ply == 0) && self.meter.is_stopped() {
                return best;
            }
            if value > best {
                best = value;
                best_move = Some(mv);
                // Only a value inside the window is exact, and only then is the line below it
                // a principal variation. At the root the window starts infinite, so the first
                // move always lands here and the root's line is never empty.
                if value > alpha {
                    alpha = value;
                    self.pv.update(ply, mv);
                    if alpha >= beta {
                        if ENHANCED && self.enhancements.ordering {
                            self.remember_cutoff(mv, ply, depth);
                        }
                        break;
                    }
                }
            }
        }
        if let MoveOrder::Sorted(list, _) = moves {
            self.move_lists[ply] = list;
        }

        if ENHANCED && self.table.is_some() {
            let bound = if best <= alpha_before {
                Bound::Upper
            } else if best >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            let key = self.table_key(game);
            let move_id = best_move.map(G::move_id);
            let entry_depth = entry_depth(game, depth);
            if let Some(table) = &mut self.table {
                table.store(key, best, ply, entry_depth, bound, move_id);
            }
        }
        best
    }

    fn table_key(&self, game: &G) -> u64 {
        if self.enhancements.symmetry {
            game.symmetric_key()
        } else {
            game.key()
        }
    }

    /// Fills `moves` with the legal moves `legal`, sorted: table move, killers, then history
    /// and static priority.
    fn order(
        &self,
        game: &G,
        legal: G::Moves,
        moves: &mut Vec<(i64, G::Move)>,
        ply: usize,
        table_move: Option<u16>,
    ) {
        let killers = self.killers[ply];
        let rank = |mv: G::Move| -> i64 {
            let id = G::move_id(mv);
            if table_move == Some(id) {
                i64::MAX
            } else if killers[0] == Some(mv) {
                i64::MAX - 1
            } else if killers[1] == Some(mv) {
                i64::MAX - 2
            } else {
                // History dominates; the static priority breaks ties among moves it has not
                // yet seen cut.
                i64::from(self.history[usize::from(id)]) * 16 + i64::from(game.move_priority(mv))
            }
        };
        moves.clear();
        moves.extend(legal.map(|mv| (rank(mv), mv)));
        // Stable, so ties keep the natural order. Insertion sort for the handful of moves of
        // small games; the library's sort (which allocates) for games with hundreds.
        if moves.len() <= 32 {
            for i in 1..moves.len() {
                let mut j = i;
                while j > 0 && moves[j].0 > moves[j - 1].0 {
                    moves.swap(j, j - 1);
                    j -= 1;
                }
            }
        } else {
            moves.sort_by_key(|&(rank, _)| std::cmp::Reverse(rank));
        }
    }

    fn remember_cutoff(&mut self, mv: G::Move, ply: usize, depth: u32) {
        let killers = &mut self.killers[ply];
        if killers[0] != Some(mv) {
            killers[1] = killers[0];
            killers[0] = Some(mv);
        }
        let depth = depth.min(G::MAX_PLIES as u32);
        let entry = &mut self.history[usize::from(G::move_id(mv))];
        *entry = entry.saturating_add(depth * depth);
    }

    pub(super) fn root_line(&self) -> Vec<G::Move> {
        self.pv.root_line()
    }

    /// The principal variation last found from `ply`.
    pub(super) fn line(&self, ply: usize) -> Vec<G::Move> {
        self.pv.line(ply)
    }

    /// Sets the deadline of the iterations to come (the budget's stays).
    pub(super) fn set_time_limit(&mut self, deadline: Option<Instant>) {
        self.meter.set_time_limit(deadline);
    }

    /// Why the search stopped, if it did: its values since are meaningless.
    pub(super) fn stopped_by(&self) -> Option<Cutoff> {
        self.meter.stopped_by
    }
}

/// The depth a table entry records for a search `depth` plies deep from `game`.
///
/// A search as deep as the game is long reaches no horizon, so its result holds for any depth:
/// such entries are stored as complete (`u8::MAX`).
fn entry_depth<G: Game>(game: &G, depth: u32) -> u8 {
    if depth as usize >= game.plies_left() {
        u8::MAX
    } else {
        depth.min(254) as u8
    }
}

/// One search `limit` plies deep.
fn search_to<G: Game, const ENHANCED: bool>(
    mut searcher: AlphaBeta<G, ENHANCED>,
    game: &G,
    limit: u32,
) -> SearchResult<G::Move> {
    let value = searcher.value(game, limit, 0, -INFINITY, INFINITY);
    let pv = searcher.root_line();
    let stopped_by = searcher.stopped_by();
    fixed_depth_result(
        game,
        value,
        searcher.hit_horizon,
        searcher.nodes,
        pv,
        stopped_by,
    )
}

/// The moves of a node in the order they are searched.
enum MoveOrder<G: Game> {
    /// As the game yields them: the textbook order.
    Natural(G::Moves),
    /// Sorted (with their ranks), with the position of the next one.
    Sorted(Vec<(i64, G::Move)>, usize),
}

impl<G: Game> Iterator for MoveOrder<G> {
    type Item = G::Move;

    #[inline]
    fn next(&mut self) -> Option<G::Move> {
        match self {
            MoveOrder::Natural(moves) => moves.next(),
            MoveOrder::Sorted(moves, next) => {
                let mv = moves.get(*next).map(|&(_, mv)| mv);
                *next += 1;
                mv
            }
        }
    }
}

/// The symmetric keys of the children searched so far at a node: the first 64, which covers
/// every move of the small games; past them, siblings are searched without the check.
struct SiblingKeys {
    keys: [u64; 64],
    len: usize,
}

impl SiblingKeys {
    fn new() -> Self {
        SiblingKeys {
            keys: [0; 64],
            len: 0,
        }
    }

    /// Records `key`; false if a sibling already had it.
    fn insert(&mut self, key: u64) -> bool {
        if self.keys[..self.len].contains(&key) {
            return false;
        }
        if self.len < self.keys.len() {
            self.keys[self.len] = key;
            self.len += 1;
        }
        true
    }
}

pub(crate) fn search<G: Game>(
    game: &G,
    params: &AlphaBetaParams,
    budget: &Budget,
) -> SearchResult<G::Move> {
    let limit = depth_limit(params.depth);
    let Some(time_limit) = params.time_limit else {
        return if params.enhancements == Enhancements::NONE {
            search_to(
                AlphaBeta::<G, false>::new(game, Enhancements::NONE, budget)
                    .evaluating(evaluation::<G>(params.evaluation)),
                game,
                limit,
            )
        } else {
            search_to(
                AlphaBeta::<G, true>::new(game, params.enhancements, budget)
                    .evaluating(evaluation::<G>(params.evaluation)),
                game,
                limit,
            )
        };
    };
    // The time limit counts from the call, table allocation included.
    let started = Instant::now();
    let mut searcher = AlphaBeta::<G>::new(game, params.enhancements, budget)
        .evaluating(evaluation::<G>(params.evaluation));

    // Iterative deepening. The table, killers and history carry over from one iteration to
    // the next, which is what makes the deeper iterations cheap. The first iteration runs
    // without the time limit, so there is always a move to answer with (only the budget can
    // stop it).
    let deadline = started + time_limit;
    let mut completed: Option<SearchResult<G::Move>> = None;
    let mut stopped_by = None;
    let deepest = limit.min(game.plies_left() as u32);
    for depth in 1..=deepest {
        searcher.set_time_limit((depth > 1).then_some(deadline));
        searcher.hit_horizon = false;
        let value = searcher.value(game, depth, 0, -INFINITY, INFINITY);
        if let Some(cutoff) = searcher.stopped_by() {
            stopped_by = Some(cutoff);
            break;
        }
        let pv = searcher.root_line();
        let result = exact_search_result(game, value, searcher.hit_horizon, searcher.nodes, pv);
        // Searched to the end of the game (or a proven result): no deeper search can change it.
        let done = !searcher.hit_horizon || result.exact;
        completed = Some(result);
        if done {
            break;
        }
        if depth < deepest && Instant::now() >= deadline {
            stopped_by = Some(Cutoff::TimeLimit);
            break;
        }
    }
    // A result that stopped at the horizon is exact only if proven, as for any depth limit.
    let mut result = match completed {
        Some(result) => result,
        None => stopped_search_result(
            game,
            0,
            searcher.nodes,
            Vec::new(),
            stopped_by.expect("only a stop leaves no iteration completed"),
        ),
    };
    result.nodes = result.nodes.max(searcher.nodes);
    result.stopped_by = stopped_by;
    result
}
