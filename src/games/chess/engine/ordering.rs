//! Move ordering: alpha-beta cuts most when the best move comes first, so each node's moves
//! are ranked before they are searched, and taken best first (a selection, not a sort: a cut
//! after the first few moves leaves the rest unranked).

use shakmaty::{Color, Move, MoveList, Position, Role};

use super::exchange::{exchange, value};

/// The table's move, before everything.
const TABLE_MOVE: i32 = 1 << 30;
/// Captures that do not lose material by exchange, and queen promotions.
const GOOD_CAPTURE: i32 = 1 << 28;
const KILLER: i32 = 1 << 27;
/// Captures that lose material by exchange: after the quiet moves, whose history stays
/// within `MAX_HISTORY`.
const BAD_CAPTURE: i32 = -(1 << 28);
/// History is kept within this, above and below.
pub(super) const MAX_HISTORY: i32 = 16_384;

/// What the search learns about quiet moves as it goes, to order them.
pub(super) struct Memory {
    /// Two quiet moves a ply that caused a cutoff there: a refutation often refutes siblings.
    killers: Vec<[Option<Move>; 2]>,
    /// For each side, from and to square: how well a quiet move has done, cutoffs counting
    /// up and the quiet moves searched before a cutoff counting down.
    history: Box<[[[i32; 64]; 64]; 2]>,
}

impl Memory {
    pub fn new(plies: usize) -> Memory {
        Memory {
            killers: vec![[None; 2]; plies],
            history: Box::new([[[0; 64]; 64]; 2]),
        }
    }

    fn history_slot(&mut self, turn: Color, mv: Move) -> &mut i32 {
        let from = mv.from().map_or(0, usize::from);
        &mut self.history[turn as usize][from][usize::from(mv.to())]
    }

    pub fn history(&self, turn: Color, mv: Move) -> i32 {
        let from = mv.from().map_or(0, usize::from);
        self.history[turn as usize][from][usize::from(mv.to())]
    }

    pub fn is_killer(&self, ply: usize, mv: Move) -> bool {
        self.killers[ply].contains(&Some(mv))
    }

    /// `best` caused a cutoff at `ply`, `depth` plies from the horizon, after the quiet
    /// moves `tried` failed to.
    pub fn reward(&mut self, turn: Color, ply: usize, depth: i32, best: Move, tried: &[Move]) {
        let killers = &mut self.killers[ply];
        if killers[0] != Some(best) {
            killers[1] = killers[0];
            killers[0] = Some(best);
        }
        let bonus = (depth * depth).min(1_200);
        // Each update moves the value toward the bound by a share of the distance left, so
        // that history stays bounded and recent results weigh more than old ones.
        let update = |slot: &mut i32, bonus: i32| {
            *slot += bonus - *slot * bonus.abs() / MAX_HISTORY;
        };
        update(self.history_slot(turn, best), bonus);
        for &mv in tried {
            update(self.history_slot(turn, mv), -bonus);
        }
    }
}

fn is_quiet(mv: Move) -> bool {
    !mv.is_capture() && mv.promotion().is_none()
}

/// The moves of a node with their ranks, taken best first.
pub(super) struct Picker {
    moves: MoveList,
    ranks: [i32; 256],
    next: usize,
}

impl Picker {
    /// Ranks `moves`: the table's move, captures that do not lose material (most valuable
    /// victim first, then least valuable attacker) and queen promotions, killers, quiet
    /// moves by history, and captures that lose material.
    pub fn new(
        position: &shakmaty::Chess,
        moves: MoveList,
        table_move: Option<Move>,
        memory: &Memory,
        ply: usize,
        exchanges: bool,
    ) -> Picker {
        let mut ranks = [0; 256];
        let turn = position.turn();
        for (rank, &mv) in ranks.iter_mut().zip(moves.iter()) {
            *rank = if Some(mv) == table_move {
                TABLE_MOVE
            } else if is_quiet(mv) {
                if memory.is_killer(ply, mv) {
                    KILLER
                } else {
                    memory.history(turn, mv)
                }
            } else {
                let victim = mv.capture().map_or(0, value);
                let promotion = mv.promotion().map_or(0, value);
                let attacker = value(mv.role());
                let order = 16 * (victim + promotion) - attacker / 10;
                // Taking a piece worth at least the taker cannot lose by exchange.
                let loses =
                    exchanges && attacker > victim + promotion && exchange(position, mv) < 0;
                if loses || mv.promotion().is_some_and(|role| role != Role::Queen) {
                    BAD_CAPTURE + order
                } else {
                    GOOD_CAPTURE + order
                }
            };
        }
        Picker {
            moves,
            ranks,
            next: 0,
        }
    }

    /// The best of the moves not yet taken, and its rank.
    pub fn next(&mut self) -> Option<(Move, i32)> {
        if self.next == self.moves.len() {
            return None;
        }
        let mut best = self.next;
        for index in self.next + 1..self.moves.len() {
            if self.ranks[index] > self.ranks[best] {
                best = index;
            }
        }
        self.moves.swap(self.next, best);
        self.ranks.swap(self.next, best);
        self.next += 1;
        Some((self.moves[self.next - 1], self.ranks[self.next - 1]))
    }

    pub fn is_bad_capture(rank: i32) -> bool {
        rank < -MAX_HISTORY
    }
}
