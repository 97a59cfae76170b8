//! Othello's exact endgame solver: the final disc difference under perfect play, and a move
//! that achieves it, as Edax finds them.
//!
//! A negamax alpha-beta search on the two bitboards, to the end of the game, with the
//! techniques that make endgame solvers fast, each where it pays:
//!
//! - **Null windows.** Every move after the first is searched with the window (alpha, alpha + 1),
//!   which only asks whether it is better, and again with the full window only when it is
//!   (principal variation search). Most of the tree is then searched with null windows, which
//!   cut most.
//! - **A transposition table** (`table.rs`) of lower and upper bounds and the best move, for
//!   positions with enough empty squares to be worth it.
//! - **Move ordering** (`order.rs`): the table's move, then fewest replies first, and where the
//!   subtrees are large, shallow searches with the `mobility` evaluation (`estimate.rs`).
//! - **Enhanced transposition cutoff**: where the subtrees are large, the table is asked about
//!   each child before any is searched; a child already known to be bad enough for the
//!   opponent cuts the node at once.
//! - **Iterative widening at the root.** The root is searched first with a window a few discs
//!   either side of the evaluation's guess, widened only on the side where it fails: a narrow
//!   window cuts more than the full one.
//! - **Stability.** Discs that can never be turned over bound the score: where the opponent's
//!   stable discs already keep the mover's best below the window, the node is cut at once.
//! - **The last empties** (`last.rs`) by parity, without the table or the ordering, the last
//!   square counted, not searched.
//! - **Threads** (`threads.rs`): where a solve has several, a node of many empty squares shares
//!   its later moves with the idle ones once its first is searched (Young Brothers Wait).
//!
//! Multi-ProbCut's passes at rising confidence, Edax's way to the exact value, do not pay
//! with Sente's evaluations: their error about the exact value ([`spread`]) is two to three
//! times Edax's, so that a probable cut needs a margin it rarely has, and each pass costs about
//! what the exact one does (docs/othello.md has the measurement).
//!
//! Scores are from the side to move: its discs minus the opponent's at the end, the empty
//! squares going to the winner.

mod estimate;
mod last;
mod order;
pub mod samples;
pub mod spread;
mod table;
#[cfg(test)]
mod tests;
mod threads;

use super::bits::{moves, stable};
use super::evaluation::expected_margin;
use super::{Othello, PASS, final_margin};
use crate::game::Rules;
use crate::search::kit::Meter;
use crate::search::{Budget, Cutoff};
use order::Child;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::Instant;
use table::{Entry, Table};
use threads::{SPLIT_FROM, Team};

/// At this many empty squares or fewer a node is searched without the table or the ordering
/// by replies, by parity: there a subtree is too small to repay them (Edax's threshold too).
const SHALLOW: u32 = 7;
/// From this many empty squares the children are looked up in the table before any is
/// searched (enhanced transposition cutoff): a look-up a child, repaid only by large subtrees.
const ETC_FROM: u32 = 15;
/// The root's first window: the guess, give or take this.
const WIDTH: i32 = 7;

/// A solved position: its exact margin for the side to move, and a move that gets it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Solved {
    /// The final disc difference for the side to move under perfect play.
    pub margin: i32,
    /// A best move: a square, or [`PASS`].
    pub best: u8,
    pub nodes: u64,
}

/// The solver's state on one thread: the table (every thread's), the nodes searched, the
/// budget.
pub struct Solver {
    table: Arc<Table>,
    /// This thread's nodes.
    nodes: u64,
    meter: Meter,
    /// Why the solver stopped early, if it did: its values are then meaningless.
    pub stopped_by: Option<Cutoff>,
    /// The solve's threads, where it has more than one.
    team: Option<Arc<Team>>,
    /// The flags of the split nodes this thread is searching under (`threads.rs`), outermost
    /// first: once one is set, this thread's values below it are not needed.
    cuts: Vec<Arc<AtomicBool>>,
    /// Whether one of `cuts` is set: the thread returns to the node that split.
    cut: bool,
}

impl Solver {
    /// A solver within `budget`, and its own `time_limit` if it has one.
    pub fn new(budget: &Budget, time_limit: Option<Instant>) -> Solver {
        let mut meter = Meter::new(budget);
        meter.set_time_limit(time_limit);
        Solver {
            table: Arc::new(Table::new()),
            nodes: 0,
            meter,
            stopped_by: None,
            team: None,
            cuts: Vec::new(),
            cut: false,
        }
    }

    /// The solver on `threads` threads (at least one): the budget's node limit then holds
    /// for all of them together.
    pub fn with_threads(mut self, threads: usize) -> Solver {
        if threads > 1 {
            self.meter.join_team(Arc::new(AtomicU64::new(0)));
            self.team = Some(Arc::new(Team::new(threads)));
        }
        self
    }

    /// Whether the budget or the time has run out (the meter looks every so many nodes), or
    /// a split node above has been cut.
    #[inline]
    fn stopped(&mut self) -> bool {
        if self.meter.tick(self.nodes) {
            self.stopped_by = self.meter.stopped_by;
        }
        self.halted()
    }

    /// Whether this thread's values are not needed: the solve is stopped, or a split node
    /// above it is cut.
    #[inline]
    fn halted(&mut self) -> bool {
        if !self.cut && !self.cuts.is_empty() {
            self.cut = self.cuts.iter().any(|cut| cut.load(Relaxed));
        }
        self.stopped_by.is_some() || self.cut
    }

    /// The nodes searched so far, by every thread.
    pub fn nodes(&mut self) -> u64 {
        self.meter.add_to_team(self.nodes)
    }

    /// The line from `position` after `best`: the table's best moves while it has them.
    pub fn line(&self, position: &Othello, best: u8) -> Vec<u8> {
        let mut line = vec![best];
        let mut game = position.play(best);
        while line.len() < 60 {
            let (mover, other) = game.sides();
            let next = if let Some(entry) = self.table.get(mover, other) {
                entry.best
            } else if moves(mover, other) == 0 && moves(other, mover) != 0 {
                PASS
            } else {
                break;
            };
            if !game.legal_moves().any(|mv| mv == next) {
                break;
            }
            line.push(next);
            game = game.play(next);
        }
        line
    }

    /// Solves `position` exactly, or stops when the budget runs out (`stopped_by`).
    pub fn solve(&mut self, position: &Othello) -> Solved {
        let (mover, other) = position.sides();
        let empties = position.empties().count_ones();
        match Arc::get_mut(&mut self.table) {
            Some(table) => table.fit(empties),
            // Unreachable: the helpers' handles end with the split nodes they help.
            None => {
                let mut table = Table::new();
                table.fit(empties);
                self.table = Arc::new(table);
            }
        }
        let start = self.nodes();
        let (margin, best) = if moves(mover, other) == 0 && moves(other, mover) == 0 {
            (final_margin(mover, other), PASS)
        } else {
            self.root(mover, other)
        };
        Solved {
            margin,
            best,
            nodes: self.nodes() - start,
        }
    }

    /// The root, searched first with a narrow window around the evaluation's guess, widened
    /// on the side it fails (iterative widening): most of the tree is then searched with
    /// windows a few discs wide, which cut more than the full one.
    fn root(&mut self, mover: u64, other: u64) -> (i32, u8) {
        // Margins are even (the discs and the empty squares make 64), so odd bounds waste
        // nothing: this window holds the guess and the even values either side of it.
        let guess = (expected_margin(mover, other) as i32 / 2 * 2).clamp(-64, 64);
        let (mut low, mut high) = (guess - WIDTH, guess + WIDTH);
        loop {
            let (value, best) = self.root_window(mover, other, low, high);
            if self.stopped_by.is_some() || (low < value && value < high) {
                return (value, best);
            }
            // Fail-soft: the value bounds the margin on the side it failed.
            (low, high) = if value <= low {
                (-65, value + 1)
            } else {
                (value - 1, 65)
            };
        }
    }

    /// Every move of the root within the window (low, high), the best kept; fail-soft.
    fn root_window(&mut self, mover: u64, other: u64, low: i32, high: i32) -> (i32, u8) {
        let placements = moves(mover, other);
        if placements == 0 {
            self.nodes += 1;
            return (-self.search(other, mover, -high, -low), PASS);
        }
        self.nodes += 1;
        let empties = (!(mover | other)).count_ones();
        let table_move = self
            .table
            .get(mover, other)
            .map_or(PASS, |entry| entry.best);
        let sort = order::sort_depth(empties).map(|depth| (depth, low));
        let (list, count) = self.ordered(mover, other, placements, table_move, sort);
        let (best_value, mut best) = self.searched(&list[..count], low, high, empties);
        if best == PASS {
            // Stopped before any move had a value: the likeliest is the answer.
            best = list[0].square;
        }
        if !self.halted() {
            self.remember(mover, other, best_value, (low, high), best);
        }
        (best_value, best)
    }

    /// Keeps in the table what a search of the position within the window (`low`, `high`)
    /// found, fail-soft: an upper bound where it failed low, a lower one where it failed high,
    /// else the exact value.
    fn remember(&self, mover: u64, other: u64, value: i32, (low, high): (i32, i32), best: u8) {
        let bounds = if value <= low {
            (-64, value)
        } else if value >= high {
            (value, 64)
        } else {
            (value, value)
        };
        self.table.put(Entry::new(mover, other, bounds, best));
    }

    /// The value of the position for `mover`, searched to the end with the window (alpha,
    /// beta), fail-soft.
    fn search(&mut self, mover: u64, other: u64, mut alpha: i32, mut beta: i32) -> i32 {
        let empties = !(mover | other);
        let count = empties.count_ones();
        if count <= SHALLOW {
            return last::search(
                &mut self.nodes,
                mover,
                other,
                alpha,
                beta,
                empties,
                last::odd_quadrants(empties),
            );
        }
        self.nodes += 1;
        if self.stopped() {
            return 0;
        }
        // Stability: the most the mover can end with is every disc but the opponent's stable
        // ones. Worth computing only where that could be below the window, which the
        // opponent's disc count alone already rules out in most nodes.
        if 64 - 2 * other.count_ones() as i32 <= alpha {
            let most = 64 - 2 * stable(other, mover).count_ones() as i32;
            if most <= alpha {
                return most;
            }
        }
        let mut table_move = PASS;
        if let Some(entry) = self.table.get(mover, other) {
            table_move = entry.best;
            let (lower, upper) = (i32::from(entry.lower), i32::from(entry.upper));
            if lower >= beta {
                return lower;
            }
            if upper <= alpha {
                return upper;
            }
            alpha = alpha.max(lower);
            beta = beta.min(upper);
        }
        let placements = moves(mover, other);
        if placements == 0 {
            return if moves(other, mover) == 0 {
                final_margin(mover, other)
            } else {
                -self.search(other, mover, -beta, -alpha)
            };
        }
        let (alpha_before, beta_before) = (alpha, beta);
        let sort = order::sort_depth(count).map(|depth| (depth, alpha));
        let (list, moves_count) = self.ordered(mover, other, placements, table_move, sort);
        if count >= ETC_FROM {
            for child in &list[..moves_count] {
                if let Some(entry) = self.table.get(child.mover, child.other)
                    && -i32::from(entry.upper) >= beta
                {
                    return -i32::from(entry.upper);
                }
            }
        }
        let (best, best_move) = self.searched(&list[..moves_count], alpha, beta, count);
        if !self.halted() {
            self.remember(mover, other, best, (alpha_before, beta_before), best_move);
        }
        best
    }

    /// A node's `children` (ordered, the first most likely best) searched within (`alpha`,
    /// `beta`), fail-soft: the best value and its move. The first with the whole window, the
    /// others with a null window first (principal variation search); at a node of
    /// `empties` from [`SPLIT_FROM`], those after the first shared with idle threads.
    fn searched(
        &mut self,
        children: &[Child],
        mut alpha: i32,
        beta: i32,
        empties: u32,
    ) -> (i32, u8) {
        let (mut best, mut best_move) = (-65, PASS);
        for (index, child) in children.iter().enumerate() {
            if index == 1
                && empties >= SPLIT_FROM
                && let Some(helpers) = self.helpers_for(children.len() - 1)
            {
                let (value, square) = self.split(&children[1..], helpers, alpha, beta);
                if value > best {
                    (best, best_move) = (value, square);
                }
                break;
            }
            let value = if index == 0 {
                -self.search(child.mover, child.other, -beta, -alpha)
            } else {
                let probe = -self.search(child.mover, child.other, -alpha - 1, -alpha);
                if probe > alpha && probe < beta {
                    -self.search(child.mover, child.other, -beta, -alpha)
                } else {
                    probe
                }
            };
            if self.halted() {
                break;
            }
            if value > best {
                (best, best_move) = (value, child.square);
                if value > alpha {
                    alpha = value;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        (best, best_move)
    }
}
