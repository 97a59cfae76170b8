//! Connect Four's strong solver, after Pascal Pons' ("Solving Connect 4: how to build a perfect
//! AI", and his published solver), step for step so that its node counts compare with his.
//!
//! - Negamax with alpha-beta on Pons' score: for the side to move, 22 minus the number of discs
//!   the winner has played when it completes four (positive: the side to move wins; a faster
//!   win scores higher), 0 for a draw.
//! - The score is found by null-window searches that narrow [min, max] around it (`solve`),
//!   probing first near 0, where most positions lie.
//! - Moves that lose at once are pruned (`non_losing_moves`): if the opponent threatens a cell
//!   we must take it, two such threats lose, and we never play just below an opponent's
//!   winning cell.
//! - Moves are tried by the number of winning cells they create, centre first on ties
//!   (`move_sorter`).
//! - The transposition table (`table`) stores upper bounds (every move failed low) and lower
//!   bounds (a cutoff), one byte each.
//!
//! The solver answers the score of a position; the move is the child with the best score.

use std::time::{Duration, Instant};

use super::move_sorter::MoveSorter;
use super::table::PooledTable;
use super::{ConnectFour, HEIGHT, WIDTH};
use crate::game::Rules;
use crate::search::kit::{Meter, Value, WIN, alphabeta, exact_score, exact_search_result};
use crate::search::{
    AlphaBetaParams, Analysis, Budget, MoveAnalysis, SearchResult, Strategy, analyze_within,
};

const CELLS: i32 = (WIDTH * HEIGHT) as i32;
/// The lowest and highest scores a position can have.
const MIN_SCORE: i32 = -CELLS / 2 + 3;
const MAX_SCORE: i32 = (CELLS + 1) / 2 - 3;
/// Columns from the centre outwards.
const COLUMN_ORDER: [usize; WIDTH] = [3, 2, 4, 1, 5, 0, 6];

fn column_mask(column: usize) -> u64 {
    ((1 << HEIGHT) - 1) << (column * (HEIGHT + 1))
}

/// The cells the side to move can play without letting the opponent win at once.
#[inline]
fn non_losing_moves(position: &ConnectFour) -> u64 {
    let mut possible = position.playable_cells();
    let opponent_wins = position.opponent_winning_cells();
    let forced = possible & opponent_wins;
    if forced != 0 {
        if forced & (forced - 1) != 0 {
            // Two cells to block at once: lost.
            return 0;
        }
        possible = forced;
    }
    // Playing just below an opponent's winning cell would let it play there.
    possible & !(opponent_wins >> 1)
}

/// How good a move looks: the winning cells the side to move has after it.
#[inline]
fn move_score(position: &ConnectFour, cell: u64) -> i32 {
    let (current, _) = position.discs();
    sparse_count(super::winning_cells(current | cell, position.mask()))
}

/// The set bits of a mask that has few of them, one loop turn each. A move rarely creates
/// more than two or three winning cells, and without the `popcnt` instruction (outside the
/// x86-64 baseline) `count_ones` costs a dozen operations whatever the mask.
#[inline]
fn sparse_count(mut mask: u64) -> i32 {
    let mut count = 0;
    while mask != 0 {
        mask &= mask - 1;
        count += 1;
    }
    count
}

/// A solver: its table and node count, for one request.
pub struct Solver {
    table: PooledTable,
    pub nodes: u64,
    meter: Meter,
}

impl Default for Solver {
    fn default() -> Self {
        Solver::new(&Budget::unlimited(), None)
    }
}

impl Solver {
    /// A solver with a cleared table that gives up when `budget` runs out or at `time_limit`.
    pub fn new(budget: &Budget, time_limit: Option<Instant>) -> Self {
        let mut meter = Meter::new(budget);
        meter.set_time_limit(time_limit);
        Solver {
            table: PooledTable::take(),
            nodes: 0,
            meter,
        }
    }

    fn negamax(&mut self, position: &ConnectFour, mut alpha: i32, mut beta: i32) -> i32 {
        self.nodes += 1;
        if self.meter.tick(self.nodes) {
            return 0;
        }
        let possible = non_losing_moves(position);
        let moves = position.moves_played() as i32;
        if possible == 0 {
            return -(CELLS - moves) / 2;
        }
        if moves >= CELLS - 2 {
            return 0;
        }
        // The opponent cannot win with its next disc, so the worst is losing after that.
        let min = -(CELLS - 2 - moves) / 2;
        if alpha < min {
            alpha = min;
            if alpha >= beta {
                return alpha;
            }
        }
        // We cannot win with our next disc (the parent made sure), so the best is winning after.
        let max = (CELLS - 1 - moves) / 2;
        if beta > max {
            beta = max;
            if alpha >= beta {
                return beta;
            }
        }
        let key = position.pons_key();
        let stored = i32::from(self.table.get(key));
        if stored != 0 {
            if stored > MAX_SCORE - MIN_SCORE + 1 {
                let min = stored + 2 * MIN_SCORE - MAX_SCORE - 2;
                if alpha < min {
                    alpha = min;
                    if alpha >= beta {
                        return alpha;
                    }
                }
            } else {
                let max = stored + MIN_SCORE - 1;
                if beta > max {
                    beta = max;
                    if alpha >= beta {
                        return beta;
                    }
                }
            }
        }
        let mut moves = MoveSorter::new();
        for &column in COLUMN_ORDER.iter().rev() {
            let cell = possible & column_mask(column);
            if cell != 0 {
                moves.add(cell, move_score(position, cell));
                self.table.prefetch(position.play_cell(cell).pons_key());
            }
        }
        for cell in moves {
            let score = -self.negamax(&position.play_cell(cell), -beta, -alpha);
            if self.meter.is_stopped() {
                return 0;
            }
            if score >= beta {
                // A lower bound, encoded above the upper bounds' range.
                self.table
                    .put(key, (score + MAX_SCORE - 2 * MIN_SCORE + 2) as u8);
                return score;
            }
            if score > alpha {
                alpha = score;
            }
        }
        self.table.put(key, (alpha - MIN_SCORE + 1) as u8);
        alpha
    }

    /// The exact score of `position` (Pons' scale), or `None` if a limit stopped it first.
    pub fn solve(&mut self, position: &ConnectFour) -> Option<i32> {
        let moves = position.moves_played() as i32;
        if position.can_win_next() {
            return Some((CELLS + 1 - moves) / 2);
        }
        let mut min = -(CELLS - moves) / 2;
        let mut max = (CELLS + 1 - moves) / 2;
        while min < max {
            // Probe near 0 first: most positions are close to a draw, and a window near the
            // score prunes the most.
            let mut med = min + (max - min) / 2;
            if med <= 0 && min / 2 < med {
                med = min / 2;
            } else if med >= 0 && max / 2 > med {
                med = max / 2;
            }
            let result = self.negamax(position, med, med + 1);
            if self.meter.is_stopped() {
                return None;
            }
            if result <= med {
                max = result;
            } else {
                min = result;
            }
        }
        Some(min)
    }
}

impl Solver {
    /// Whether `position`'s score is above `score`, by one null-window search: what a weak
    /// solver asks (above -1: not lost; above 0: won), far cheaper than the exact score; `None`
    /// if a limit stopped it first.
    pub fn above(&mut self, position: &ConnectFour, score: i32) -> Option<bool> {
        if position.can_win_next() {
            return Some((CELLS + 1 - position.moves_played() as i32) / 2 > score);
        }
        let result = self.negamax(position, score, score + 1);
        (!self.meter.is_stopped()).then_some(result > score)
    }
}

/// Plies to the end of the game under perfect play, from Pons' score at `position`.
pub fn plies_to_end(position: &ConnectFour, score: i32) -> u32 {
    let played = position.moves_played() as i32;
    if score == 0 {
        return (CELLS - played) as u32;
    }
    // The winner completes four with its d-th disc: X's d-th disc is ply 2d - 1, O's ply 2d.
    let discs = (CELLS / 2 + 1) - score.abs();
    let x_to_move = played % 2 == 0;
    let winner_is_x = (score > 0) == x_to_move;
    let end = if winner_is_x {
        2 * discs - 1
    } else {
        2 * discs
    };
    (end - played) as u32
}

/// The first column that wins at once, if any.
fn winning_column(position: &ConnectFour) -> Option<u8> {
    let winning = position.winning_cells() & position.playable_cells();
    (0..WIDTH)
        .find(|&column| winning & column_mask(column) != 0)
        .map(|column| column as u8)
}

/// Makes the pool's first table now, so that no request pays for writing it.
pub fn warm_up() {
    drop(Solver::default());
}

/// The exact value of playing `column`, for the side to move before it, or `None` if a limit
/// stopped the solver first.
fn move_value(position: &ConnectFour, column: u8, solver: &mut Solver) -> Option<Value> {
    let child = position.play(column);
    Some(match child.outcome() {
        // A win at once; or the board's last cell, a draw.
        crate::game::Outcome::Won(_) => WIN - 1,
        crate::game::Outcome::Draw => 0,
        crate::game::Outcome::InProgress => {
            let child_score = solver.solve(&child)?;
            // The root's score is the child's negated; the game ends one ply later.
            let plies = plies_to_end(&child, child_score) as Value + 1;
            match child_score.signum() {
                -1 => WIN - plies,
                1 => -(WIN - plies),
                _ => 0,
            }
        }
    })
}

/// The best move and its exact value, or `None` if the deadline passed.
fn best_move(position: &ConnectFour, solver: &mut Solver) -> Option<(u8, Value)> {
    let mut best: Option<(u8, Value)> = None;
    for column in position.legal_moves() {
        let value = move_value(position, column, solver)?;
        if best.is_none_or(|(_, best_value)| value > best_value) {
            best = Some((column, value));
        }
    }
    best
}

/// Time kept back from the solver for the alphabeta fallback (see [`search`]).
const FALLBACK_RESERVE: Duration = Duration::from_millis(2);

/// The `solver` algorithm on Connect Four: the exact best move within `time_limit`, else the
/// best move of the deepest completed iteration of alphabeta (all enhancements) in the time
/// left, not exact.
pub(super) fn search(
    position: &ConnectFour,
    time_limit: Option<Duration>,
    budget: &Budget,
) -> SearchResult<u8> {
    // A win now needs no search, nor a table.
    if let Some(column) = winning_column(position) {
        return exact_search_result(position, WIN - 1, false, 1, vec![column]);
    }
    let started = Instant::now();
    // The fallback below needs a little time whatever its limit (a fresh table, a first
    // iteration): the solver stops that much early (FALLBACK_RESERVE), so that the answer
    // keeps to the time limit.
    let deadline = time_limit.map(|limit| started + limit - FALLBACK_RESERVE.min(limit / 10));
    let mut solver = Solver::new(budget, deadline);
    if let Some((column, value)) = best_move(position, &mut solver) {
        return exact_search_result(position, value, false, solver.nodes + 1, vec![column]);
    }
    // The time left (and the nodes left: the budget is for the whole search) go to alphabeta,
    // which always completes its first iteration unless the budget itself has run out.
    let spent = started.elapsed();
    let left = time_limit.map_or(Duration::ZERO, |limit| limit.saturating_sub(spent));
    let rest = Budget {
        max_nodes: budget.max_nodes.map(|max| max.saturating_sub(solver.nodes)),
        ..budget.clone()
    };
    let mut result = alphabeta::search(
        position,
        &AlphaBetaParams::strongest(Some(left.max(Duration::from_millis(1)))),
        &rest,
    );
    result.nodes += solver.nodes;
    result
}

/// The share of the time limit the solver may take in an analysis before alphabeta values the
/// moves it has not solved with the rest.
const ANALYSIS_SOLVER_SHARE: f64 = 0.75;

/// The `solver` algorithm's analysis on Connect Four: every move's exact value, each child
/// solved with one table (they share much of their trees), centre first, within most of
/// `time_limit`. If that is not enough, alphabeta (all enhancements) values every move in the
/// time left, and the moves solved keep their exact values.
pub(super) fn analysis(
    position: &ConnectFour,
    time_limit: Option<Duration>,
    budget: &Budget,
) -> Analysis<u8> {
    let started = Instant::now();
    let deadline = time_limit.map(|limit| started + limit.mul_f64(ANALYSIS_SOLVER_SHARE));
    let mut solver = Solver::new(budget, deadline);
    let mut solved = Vec::new();
    let legal = COLUMN_ORDER
        .into_iter()
        .filter(|&column| position.can_play(column));
    for column in legal.map(|column| column as u8) {
        let Some(value) = move_value(position, column, &mut solver) else {
            break;
        };
        let mut analysis = MoveAnalysis::new(column, exact_score(position, value, false), None);
        analysis.pv = vec![column];
        solved.push((value, analysis));
    }
    // What the solver could not prove in its share of the time, alphabeta values in the rest:
    // it values every move, and those already proven keep the solver's values.
    let (estimated, nodes, stopped_by) = if solved.len() == position.legal_moves().count() {
        (Vec::new(), 1, None)
    } else {
        let left = time_limit.map(|limit| limit.saturating_sub(started.elapsed()));
        let rest = Budget {
            max_nodes: budget.max_nodes.map(|max| max.saturating_sub(solver.nodes)),
            ..budget.clone()
        };
        let strongest = Strategy::alphabeta(AlphaBetaParams::strongest(
            left.map(|left| left.max(Duration::from_millis(1))),
        ));
        let analysis = analyze_within(position, &strongest, 0, &rest)
            .expect("a game in progress has moves to analyse");
        let unsolved = analysis
            .moves
            .into_iter()
            .filter(|unsolved| solved.iter().all(|(_, exact)| exact.mv != unsolved.mv))
            .collect();
        (unsolved, analysis.nodes, analysis.stopped_by)
    };
    // Best first, ties in the columns' order: each move by its value, a faster win and a slower
    // loss first among the proven ones.
    let mut moves: Vec<(Value, MoveAnalysis<u8>)> = solved;
    moves.extend(
        estimated
            .into_iter()
            .map(|valued| (value_of(&valued), valued)),
    );
    moves.sort_by_key(|(value, analysis)| (std::cmp::Reverse(*value), analysis.mv));
    Analysis {
        moves: moves.into_iter().map(|(_, analysis)| analysis).collect(),
        nodes: solver.nodes + nodes,
        elapsed: started.elapsed(),
        stopped_by,
    }
}

/// The search value a move's analysis says: a proven win or loss by its plies to the end, an
/// estimate by its score.
fn value_of(analysis: &MoveAnalysis<u8>) -> Value {
    match analysis.plies_to_end {
        Some(plies) if analysis.exact && analysis.score != 0.0 => {
            analysis.score.signum() as Value * (WIN - plies as Value)
        }
        _ => (analysis.score * f64::from(WIN)).round() as Value,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn from_columns(digits: &str) -> ConnectFour {
        ConnectFour::from_pons_moves(digits).unwrap()
    }

    #[test]
    fn solves_the_first_lines_of_the_end_easy_set() {
        // The first three lines of Test_L3_R1 (the full sets are checked in tests/).
        for (moves, expected) in [
            ("2252576253462244111563365343671351441", -1),
            ("7422341735647741166133573473242566", 1),
            ("23163416124767223154467471272416755633", 0),
        ] {
            let position = from_columns(moves);
            assert_eq!(
                Solver::default().solve(&position),
                Some(expected),
                "{moves}"
            );
        }
    }

    #[test]
    fn plies_to_end_follow_from_the_score() {
        // X to move and wins with its next disc, its 4th: the game ends at ply 7.
        let position = from_columns("121212");
        assert_eq!(Solver::default().solve(&position), Some(22 - 4));
        assert_eq!(plies_to_end(&position, 18), 1);
        let result = search(&position, None, &Budget::unlimited());
        assert_eq!(
            (result.best_move, result.score, result.plies_to_end),
            (0, 1.0, Some(1))
        );
    }

    /// Each move's value as the solver proves it, from the child's exact score.
    fn proven(position: &ConnectFour, column: u8) -> Value {
        move_value(position, column, &mut Solver::default()).unwrap()
    }

    #[test]
    fn an_analysis_proves_every_move_and_ranks_them() {
        // The first line of Test_L2_R1 (25 moves played, won by the side to move) and a drawn
        // line of Test_L3_R1: every move proven, valued as /move values it, best first.
        for moves in [
            "5554224333234511764415115",
            "23163416124767223154467471272416755633",
        ] {
            let position = from_columns(moves);
            let analysis = analysis(&position, None, &Budget::unlimited());
            assert_eq!(analysis.stopped_by, None, "{moves}");
            assert_eq!(
                analysis.moves.len(),
                position.legal_moves().count(),
                "{moves}"
            );
            let values: Vec<Value> = analysis
                .moves
                .iter()
                .map(|scored| {
                    assert!(scored.exact, "{moves}: {scored:?}");
                    let value = proven(&position, scored.mv);
                    let expected = exact_score(&position, value, false);
                    assert_eq!(
                        (scored.score, scored.plies_to_end),
                        (expected.score, expected.plies_to_end),
                        "{moves}: column {}",
                        scored.mv
                    );
                    value
                })
                .collect();
            assert!(values.is_sorted_by(|a, b| a >= b), "{moves}: {values:?}");
            let best = search(&position, None, &Budget::unlimited());
            assert_eq!(proven(&position, best.best_move), values[0], "{moves}");
        }
    }

    #[test]
    fn an_analysis_out_of_time_keeps_the_moves_it_proved_and_estimates_the_rest() {
        // Four moves in: no solve finishes in 20 ms.
        let position = from_columns("4453");
        let analysis = analysis(
            &position,
            Some(Duration::from_millis(20)),
            &Budget::unlimited(),
        );
        assert_eq!(analysis.moves.len(), WIDTH);
        assert!(analysis.moves.iter().any(|scored| !scored.exact));
        assert!(analysis.stopped_by.is_some());
        // An estimate lies strictly between a proven loss and a proven win, and is ranked so.
        let rank = |scored: &MoveAnalysis<u8>| match scored.exact {
            true if scored.score > 0.0 => 2,
            true if scored.score < 0.0 => -2,
            _ => scored.score.signum() as i32,
        };
        let ranks: Vec<i32> = analysis.moves.iter().map(rank).collect();
        assert!(ranks.is_sorted_by(|a, b| a >= b), "{ranks:?}");
    }
}
