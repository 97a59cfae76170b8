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
//! - **A transposition table** of lower and upper bounds and the best move, for positions with
//!   enough empty squares to be worth it: transpositions are frequent in Othello endgames,
//!   where the same squares are filled in different orders.
//! - **Fastest first, and the evaluation.** Moves are tried in the order of the opponent's
//!   mobility after them, fewest replies first (corners counting double): a move that leaves
//!   the opponent few replies is likely best, and its subtree is small. Where enough squares
//!   are empty for the subtrees to be large, the `mobility` evaluation of the position after
//!   the move joins the replies in the order: it knows corners, stable discs and the frontier,
//!   which the replies alone miss. The table's move goes before them all.
//! - **Iterative widening at the root.** The root is searched first with a window a few discs
//!   either side of the evaluation's guess, widened only on the side where it fails: a narrow
//!   window cuts more than the full one.
//! - **Parity** in the last few empties, where ordering by mobility costs more than it saves:
//!   the empty squares of quadrants with an odd number of them first, since the last move in a
//!   region is usually an advantage.
//! - **Stability.** Discs that can never be turned over bound the score: where the opponent's
//!   stable discs already keep the mover's best below the window, the node is cut at once.
//! - **The last square** is counted, not searched: the one move, or the opponent's, or none.
//!
//! Scores are from the side to move: its discs minus the opponent's at the end, the empty
//! squares going to the winner.

use super::bits::{flips, moves, stable};
use super::evaluation::expected_margin;
use super::{Othello, PASS, final_margin};
use crate::game::{Bits, Rules};
use crate::search::kit::Meter;
use crate::search::{Budget, Cutoff};
use std::time::Instant;

/// At this many empty squares or fewer a node is searched without the table or the ordering
/// by replies, by parity: there a subtree is too small to repay them (Edax's threshold too).
const SHALLOW: u32 = 7;
/// From this many empty squares the moves are ordered by the evaluation of the position after
/// them as well as by the replies they leave: there the subtrees are large enough to pay for it.
const EVALUATED: u32 = 12;
/// What one reply more weighs against one disc of expected margin, in that ordering.
const REPLY_WEIGHT: i32 = 4;
/// The root's first window: the evaluation's guess, give or take this.
const WIDTH: i32 = 7;
/// The table's largest size, as a power of two of entries (24 bytes each): 48 MiB.
const TABLE_BITS: u32 = 21;
/// The table's smallest size.
const MIN_TABLE_BITS: u32 = 10;
/// The four quadrants of the board, for parity.
const QUADRANTS: [u64; 4] = [
    0x0000_0000_0F0F_0F0F,
    0x0000_0000_F0F0_F0F0,
    0x0F0F_0F0F_0000_0000,
    0xF0F0_F0F0_0000_0000,
];
const CORNERS: u64 = 0x8100_0000_0000_0081;

/// A solved position: its exact margin for the side to move, and a move that gets it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Solved {
    /// The final disc difference for the side to move under perfect play.
    pub margin: i32,
    /// A best move: a square, or [`PASS`].
    pub best: u8,
    pub nodes: u64,
}

/// A table entry: the position it holds, bounds on its value, its best move.
#[derive(Copy, Clone, Default)]
struct Entry {
    mover: u64,
    other: u64,
    lower: i8,
    upper: i8,
    best: u8,
}

/// The solver's state: its table, the nodes searched, the budget.
pub struct Solver {
    /// Sized by the largest position solved yet, so that a small endgame does not pay for
    /// clearing a large table.
    table: Vec<Entry>,
    /// The table holds `1 << table_bits` entries.
    table_bits: u32,
    pub nodes: u64,
    meter: Meter,
    /// Why the solver stopped early, if it did: its values are then meaningless.
    pub stopped_by: Option<Cutoff>,
}

/// The score with one empty square left, `square`: the mover fills it if it can, else the
/// opponent does, else it goes to whoever leads. No search: 63 discs are on the board, so the
/// difference is odd and someone leads.
fn last_square(mover: u64, other: u64, square: u8) -> i32 {
    let mine = mover.count_ones() as i32;
    let flipped = flips(mover, other, square);
    if flipped != 0 {
        return 2 * (mine + flipped.count_ones() as i32 + 1) - 64;
    }
    let flipped = flips(other, mover, square);
    if flipped != 0 {
        return 2 * (mine - flipped.count_ones() as i32) - 64;
    }
    let difference = 2 * mine - 63;
    difference + difference.signum()
}

/// The squares of the quadrants with an odd number of empties: the parity that the last
/// empties are ordered by. Computed once where the search turns shallow, then kept by toggling
/// a square's quadrant with each move ([`quadrant`]).
fn odd_quadrants(empties: u64) -> u64 {
    QUADRANTS
        .into_iter()
        .filter(|&quadrant| (empties & quadrant).count_ones() % 2 == 1)
        .fold(0, |odd, quadrant| odd | quadrant)
}

/// The quadrant that holds `square`: bit 2 of the column and of the row pick it.
fn quadrant(square: u8) -> u64 {
    QUADRANTS[usize::from((square >> 2 & 1) | (square >> 4 & 2))]
}

impl Solver {
    /// A solver within `budget`, and its own `time_limit` if it has one.
    pub fn new(budget: &Budget, time_limit: Option<Instant>) -> Solver {
        let mut meter = Meter::new(budget);
        meter.set_time_limit(time_limit);
        Solver {
            table: Vec::new(),
            table_bits: 0,
            nodes: 0,
            meter,
            stopped_by: None,
        }
    }

    /// Whether the budget or the time has run out (the meter looks every so many nodes).
    #[inline]
    fn stopped(&mut self) -> bool {
        if self.meter.tick(self.nodes) {
            self.stopped_by = self.meter.stopped_by;
        }
        self.stopped_by.is_some()
    }

    /// The line from `position` after `best`: the table's best moves while it has them.
    pub fn line(&self, position: &Othello, best: u8) -> Vec<u8> {
        let mut line = vec![best];
        let mut game = position.play(best);
        while line.len() < 60 {
            let (mover, other) = game.sides();
            let entry = self.table[self.slot(mover, other)];
            let known = entry.mover == mover && entry.other == other;
            let next = if known {
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

    fn slot(&self, mover: u64, other: u64) -> usize {
        (Othello::key_of(mover, other, crate::game::Player::X) >> (64 - self.table_bits)) as usize
    }

    /// Solves `position` exactly, or stops when the budget runs out (`stopped_by`).
    pub fn solve(&mut self, position: &Othello) -> Solved {
        let (mover, other) = position.sides();
        // A tree about doubles with each empty square, and so does the table it needs.
        let bits = (position.empties().count_ones() + 1).clamp(MIN_TABLE_BITS, TABLE_BITS);
        if bits > self.table_bits {
            self.table = vec![Entry::default(); 1 << bits];
            self.table_bits = bits;
        }
        let start = self.nodes;
        let placements = moves(mover, other);
        let (margin, best) = if placements == 0 {
            if moves(other, mover) == 0 {
                (final_margin(mover, other), PASS)
            } else {
                self.nodes += 1;
                (-self.search(other, mover, -64, 64), PASS)
            }
        } else {
            self.root(mover, other, placements)
        };
        Solved {
            margin,
            best,
            nodes: self.nodes - start,
        }
    }

    /// The root, searched first with a narrow window around the evaluation's guess, widened
    /// on the side it fails (iterative widening): most of the tree is then searched with
    /// windows a few discs wide, which cut more than the full one.
    fn root(&mut self, mover: u64, other: u64, placements: u64) -> (i32, u8) {
        // Margins are even (the discs and the empty squares make 64), so odd bounds waste
        // nothing: this window holds the guess and the even values either side of it.
        let guess = (expected_margin(mover, other) as i32 / 2 * 2).clamp(-64, 64);
        let (mut low, mut high) = (guess - WIDTH, guess + WIDTH);
        loop {
            let (value, best) = self.root_window(mover, other, placements, low, high);
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
    fn root_window(
        &mut self,
        mover: u64,
        other: u64,
        placements: u64,
        low: i32,
        high: i32,
    ) -> (i32, u8) {
        self.nodes += 1;
        let (list, count) = self.ordered(mover, other, placements, PASS, true);
        let mut alpha = low;
        let mut best_value = -65;
        let mut best = list[0].2;
        for (index, &(child_mover, child_other, square, _)) in list[..count].iter().enumerate() {
            let value = if index == 0 {
                -self.search(child_mover, child_other, -high, -alpha)
            } else {
                let probe = -self.search(child_mover, child_other, -alpha - 1, -alpha);
                if probe > alpha && probe < high {
                    -self.search(child_mover, child_other, -high, -alpha)
                } else {
                    probe
                }
            };
            if self.stopped_by.is_some() {
                break;
            }
            if value > best_value {
                best_value = value;
                best = square;
                if value > alpha {
                    alpha = value;
                    if alpha >= high {
                        break;
                    }
                }
            }
        }
        (best_value, best)
    }

    /// The children of a position after each of `placements`, the table's move first and the
    /// rest fewest replies first: (the child's mover, its other side, the square, the rank).
    #[allow(clippy::type_complexity)]
    fn ordered(
        &self,
        mover: u64,
        other: u64,
        placements: u64,
        table_move: u8,
        evaluated: bool,
    ) -> ([(u64, u64, u8, i32); 32], usize) {
        let mut list = [(0, 0, 0, 0); 32];
        let mut count = 0;
        for square in Bits(placements) {
            let flipped = flips(mover, other, square);
            let (next_other, next_mover) = (mover | flipped | 1 << square, other ^ flipped);
            let replies = moves(next_mover, next_other);
            let fastest = replies.count_ones() as i32 + (replies & CORNERS).count_ones() as i32;
            let rank = if square == table_move {
                -1000
            } else if evaluated {
                // The opponent's expected margin after the move, in discs, and the replies.
                REPLY_WEIGHT * fastest + expected_margin(next_mover, next_other) as i32
            } else {
                fastest
            };
            // Insertion into the sorted list: a few dozen moves at most.
            let mut at = count;
            while at > 0 && list[at - 1].3 > rank {
                list[at] = list[at - 1];
                at -= 1;
            }
            list[at] = (next_mover, next_other, square, rank);
            count += 1;
        }
        (list, count)
    }

    /// The value of the position for `mover`, searched to the end with the window (alpha,
    /// beta), fail-soft.
    fn search(&mut self, mover: u64, other: u64, mut alpha: i32, mut beta: i32) -> i32 {
        let empties = !(mover | other);
        let count = empties.count_ones();
        if count <= SHALLOW {
            return self.shallow(mover, other, alpha, beta, empties, odd_quadrants(empties));
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
        let slot = self.slot(mover, other);
        let entry = self.table[slot];
        let mut table_move = PASS;
        if entry.mover == mover && entry.other == other {
            let (lower, upper) = (i32::from(entry.lower), i32::from(entry.upper));
            if lower >= beta {
                return lower;
            }
            if upper <= alpha {
                return upper;
            }
            alpha = alpha.max(lower);
            beta = beta.min(upper);
            table_move = entry.best;
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
        let (list, moves_count) =
            self.ordered(mover, other, placements, table_move, count >= EVALUATED);
        let mut best = -65;
        let mut best_move = PASS;
        for (index, &(child_mover, child_other, square, _)) in
            list[..moves_count].iter().enumerate()
        {
            let value = if index == 0 {
                -self.search(child_mover, child_other, -beta, -alpha)
            } else {
                let probe = -self.search(child_mover, child_other, -alpha - 1, -alpha);
                if probe > alpha && probe < beta {
                    -self.search(child_mover, child_other, -beta, -alpha)
                } else {
                    probe
                }
            };
            if value > best {
                best = value;
                best_move = square;
                if value > alpha {
                    alpha = value;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        if self.stopped_by.is_some() {
            return best;
        }
        let (lower, upper) = if best <= alpha_before {
            (-64, best)
        } else if best >= beta_before {
            (best, 64)
        } else {
            (best, best)
        };
        self.table[slot] = Entry {
            mover,
            other,
            lower: lower as i8,
            upper: upper as i8,
            best: best_move,
        };
        best
    }

    /// The last few empties: no table, the squares of odd quadrants first (`odd`: their
    /// squares), the last one counted.
    fn shallow(
        &mut self,
        mover: u64,
        other: u64,
        mut alpha: i32,
        beta: i32,
        empties: u64,
        odd: u64,
    ) -> i32 {
        self.nodes += 1;
        // One empty square (a single bit set): counted, not searched.
        if empties != 0 && empties & (empties - 1) == 0 {
            return last_square(mover, other, empties.trailing_zeros() as u8);
        }
        let mut best = -65;
        for group in [empties & odd, empties & !odd] {
            for square in Bits(group) {
                let flipped = flips(mover, other, square);
                if flipped == 0 {
                    continue;
                }
                let value = -self.shallow(
                    other ^ flipped,
                    mover | flipped | 1 << square,
                    -beta,
                    -alpha,
                    empties & !(1 << square),
                    odd ^ quadrant(square),
                );
                if value > best {
                    best = value;
                    if value > alpha {
                        alpha = value;
                        if alpha >= beta {
                            return best;
                        }
                    }
                }
            }
        }
        if best > -65 {
            return best;
        }
        // No square for the mover: the opponent's, or the end.
        if moves(other, mover) == 0 {
            final_margin(mover, other)
        } else {
            -self.shallow(other, mover, -beta, -alpha, empties, odd)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The exact value by plain negamax over the contract: slow, obviously right.
    fn negamax(game: &Othello) -> i32 {
        let moves: Vec<u8> = game.legal_moves().collect();
        if moves.is_empty() {
            return game.final_margin();
        }
        moves
            .iter()
            .map(|&mv| -negamax(&game.play(mv)))
            .max()
            .unwrap()
    }

    /// Positions from random games, with `empties` squares left.
    fn endgames(empties: u32, count: usize) -> Vec<Othello> {
        let mut state = 7u64;
        let mut found = Vec::new();
        while found.len() < count {
            let mut game = Othello::start();
            while game.empties().count_ones() > empties {
                let moves: Vec<u8> = game.legal_moves().collect();
                if moves.is_empty() {
                    break;
                }
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                game = game.play(moves[(state >> 33) as usize % moves.len()]);
            }
            if game.empties().count_ones() == empties && !game.outcome().is_over() {
                found.push(game);
            }
        }
        found
    }

    #[test]
    fn the_solver_agrees_with_plain_negamax_and_its_move_gets_the_margin() {
        for empties in [1, 2, 5, 7, 9, 10] {
            for position in endgames(empties, 12) {
                let solved = Solver::new(&Budget::unlimited(), None).solve(&position);
                let exact = negamax(&position);
                assert_eq!(solved.margin, exact, "{position}");
                let after = position.play(solved.best);
                assert_eq!(-negamax(&after), exact, "{position}: {}", solved.best);
            }
        }
    }

    /// The `solver` algorithm on Othello: exact, with the margin, a line of legal moves; and a
    /// time limit too short for the position stops it, inexact.
    #[test]
    fn the_solver_algorithm_answers_the_exact_margin_and_a_legal_line() {
        use crate::search::Solve;
        for position in endgames(9, 4) {
            let exact = negamax(&position);
            let result = position.solve(
                Some(std::time::Duration::from_secs(10)),
                &Budget::unlimited(),
            );
            assert!(result.exact && result.stopped_by.is_none(), "{position}");
            assert_eq!(result.margin, Some(exact), "{position}");
            assert_eq!(result.score, f64::from(exact.signum()));
            assert_eq!(result.pv[0], result.best_move);
            let mut game = position;
            for &mv in &result.pv {
                assert!(
                    game.legal_moves().any(|legal| legal == mv),
                    "{position}: {:?}",
                    result.pv
                );
                game = game.play(mv);
            }
        }
        let position = endgames(18, 1)[0];
        let result = position.solve(
            Some(std::time::Duration::from_millis(1)),
            &Budget::unlimited(),
        );
        assert_eq!(result.stopped_by, Some(Cutoff::TimeLimit));
        assert!(!result.exact && result.margin.is_none());
        assert!(
            position
                .legal_moves()
                .any(|legal| legal == result.best_move)
        );
    }

    #[test]
    fn the_last_square_goes_to_whoever_can_fill_it_or_to_the_leader() {
        // Black fills a1 and turns b1 over: all 64 discs are Black's.
        let mut cells = vec!["X"; 64];
        cells[0] = "-";
        cells[1] = "O";
        let game: Othello = format!("{} X", cells.concat()).parse().unwrap();
        let solved = Solver::new(&Budget::unlimited(), None).solve(&game);
        assert_eq!((solved.margin, solved.best), (64, 0));
        // Nobody can fill it: the leader gets it.
        let mut cells = vec!["X"; 64];
        cells[0] = "-";
        let game: Othello = format!("{} O", cells.concat()).parse().unwrap();
        assert_eq!(
            Solver::new(&Budget::unlimited(), None).solve(&game).margin,
            -64
        );
    }
}
