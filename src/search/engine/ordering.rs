//! Move ordering: alpha-beta cuts most when the best move comes first, so each node's moves
//! are ranked before they are searched, and taken best first (a selection, not a sort: a cut
//! after the first few moves leaves the rest unranked).

use super::contract::Board;

/// The table's move, before everything.
const TABLE_MOVE: i32 = 1 << 30;
/// Captures that do not lose material by exchange, and the best promotions.
const GOOD_CAPTURE: i32 = 1 << 28;
const KILLER: i32 = 1 << 27;
/// Captures that lose material by exchange: after the quiet moves, whose history stays
/// within `MAX_HISTORY`.
const BAD_CAPTURE: i32 = -(1 << 28);
/// History is kept within this, above and below.
pub(super) const MAX_HISTORY: i32 = 16_384;

/// What the search learns about quiet moves as it goes, to order them; kept from one search
/// to the next of a game where the caller keeps it ([`super::Kept`]).
pub(super) struct Memory<M> {
    /// Two quiet moves a ply that caused a cutoff there: a refutation often refutes siblings.
    killers: Vec<[Option<M>; 2]>,
    /// For each of the game's history slots (the side to move, and where the move goes): how
    /// well a quiet move has done, cutoffs counting up and the quiet moves searched before a
    /// cutoff counting down.
    history: Box<[i32]>,
}

impl<M: Copy + PartialEq> Memory<M> {
    pub fn new(plies: usize, slots: usize) -> Memory<M> {
        Memory {
            killers: vec![[None; 2]; plies],
            history: vec![0; slots].into_boxed_slice(),
        }
    }

    pub fn history(&self, slot: usize) -> i32 {
        self.history[slot]
    }

    pub fn is_killer(&self, ply: usize, mv: M) -> bool {
        self.killers[ply].contains(&Some(mv))
    }

    /// Ready for the next search of the same game: the killers were of other plies.
    pub fn next_search(&mut self) {
        self.killers.fill([None; 2]);
    }

    /// Forgets everything: a new game begins.
    pub fn clear(&mut self) {
        self.next_search();
        self.history.fill(0);
    }

    /// `best` (in history slot `best_slot`) caused a cutoff at `ply`, `depth` plies from the
    /// horizon, after the quiet moves in `tried` slots failed to.
    pub fn reward(&mut self, ply: usize, depth: i32, best: M, best_slot: usize, tried: &[usize]) {
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
        update(&mut self.history[best_slot], bonus);
        for &slot in tried {
            update(&mut self.history[slot], -bonus);
        }
    }
}

/// The moves of a node with their ranks, taken best first. Its buffers are the search's, one
/// pair a ply, so that no node allocates.
pub(super) struct Picker<M> {
    pub moves: Vec<M>,
    pub ranks: Vec<i32>,
    next: usize,
}

impl<M: Copy + PartialEq> Picker<M> {
    /// Empty buffers, to be filled by [`Picker::rank`].
    pub fn new(moves: Vec<M>, ranks: Vec<i32>) -> Picker<M> {
        Picker {
            moves,
            ranks,
            next: 0,
        }
    }

    /// Ranks the moves: the table's move, captures that do not lose material (most valuable
    /// victim first, then least valuable attacker) and the best promotions, killers, quiet
    /// moves by history, and captures that lose material.
    pub fn rank<B: Board<Move = M>>(
        &mut self,
        board: &B,
        table_move: Option<M>,
        memory: &Memory<M>,
        ply: usize,
        exchanges: bool,
    ) {
        self.ranks.clear();
        self.next = 0;
        for &mv in &self.moves {
            self.ranks.push(if Some(mv) == table_move {
                TABLE_MOVE
            } else if board.is_quiet(mv) {
                if memory.is_killer(ply, mv) {
                    KILLER
                } else {
                    memory.history(board.history_slot(mv)) + board.prior(mv)
                }
            } else {
                let (order, loses) = board.rank_noisy(mv, exchanges);
                if loses {
                    BAD_CAPTURE + order
                } else {
                    GOOD_CAPTURE + order
                }
            });
        }
    }

    /// The best of the moves not yet taken, and its rank.
    pub fn next(&mut self) -> Option<(M, i32)> {
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

    /// The buffers, given back to the search.
    pub fn into_buffers(self) -> (Vec<M>, Vec<i32>) {
        (self.moves, self.ranks)
    }
}
