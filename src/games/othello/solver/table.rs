//! The solver's transposition table: bounds on a position's final margin and the best move
//! found.
//!
//! Transpositions are frequent in Othello endgames, where the same squares are filled in
//! different orders. An entry holds the whole position (both bitboards), so that a hit is never
//! another position's. Two entries share a bucket, as in Edax's and Stockfish's early tables:
//! the first keeps the position with the most empty squares (the largest subtree, the most
//! work to lose), the second the latest of the rest, so that the large subtrees near the root
//! survive the many small ones below them.

use super::super::Othello;
use crate::game::Player;

/// An entry: the position, bounds on its value, its best move.
#[derive(Copy, Clone, Default)]
pub struct Entry {
    pub mover: u64,
    pub other: u64,
    pub lower: i8,
    pub upper: i8,
    /// A square, or `PASS`.
    pub best: u8,
    /// The position's empty squares; 0 in an unused entry.
    empties: u8,
}

impl Entry {
    pub fn new(mover: u64, other: u64, (lower, upper): (i32, i32), best: u8) -> Entry {
        Entry {
            mover,
            other,
            lower: lower as i8,
            upper: upper as i8,
            best,
            empties: (!(mover | other)).count_ones() as u8,
        }
    }
}

/// The largest size, as a power of two of buckets (two entries of 24 bytes each): 96 MiB.
const MAX_BITS: u32 = 21;
/// The smallest size.
const MIN_BITS: u32 = 9;

/// The entries, two to a bucket.
pub struct Table {
    buckets: Vec<[Entry; 2]>,
    /// `1 << bits` buckets.
    bits: u32,
}

impl Table {
    pub fn new() -> Table {
        Table {
            buckets: Vec::new(),
            bits: 0,
        }
    }

    /// Grows the table for a position of `empties` empty squares, if it is smaller than such a
    /// tree needs: a tree about doubles with each empty square, and so does the table it
    /// needs; a small endgame does not pay for clearing a large table.
    pub fn fit(&mut self, empties: u32) {
        let bits = empties.clamp(MIN_BITS, MAX_BITS);
        if bits > self.bits {
            self.buckets = vec![[Entry::default(); 2]; 1 << bits];
            self.bits = bits;
        }
    }

    fn bucket(&self, mover: u64, other: u64) -> usize {
        (Othello::key_of(mover, other, Player::X) >> (64 - self.bits)) as usize
    }

    /// The entry of the position, if the table holds it.
    #[inline]
    pub fn get(&self, mover: u64, other: u64) -> Option<Entry> {
        self.buckets[self.bucket(mover, other)]
            .into_iter()
            .find(|entry| entry.mover == mover && entry.other == other)
    }

    /// Keeps `entry`: in place of the same position's; else in the first slot if it has at
    /// least as many empties as the position there (which moves to the second), else in the
    /// second.
    #[inline]
    pub fn put(&mut self, entry: Entry) {
        let index = self.bucket(entry.mover, entry.other);
        let bucket = &mut self.buckets[index];
        let same = |kept: &Entry| kept.mover == entry.mover && kept.other == entry.other;
        if same(&bucket[0]) {
            bucket[0] = entry;
        } else if same(&bucket[1]) {
            if entry.empties >= bucket[0].empties {
                bucket[1] = bucket[0];
                bucket[0] = entry;
            } else {
                bucket[1] = entry;
            }
        } else if entry.empties >= bucket[0].empties {
            bucket[1] = bucket[0];
            bucket[0] = entry;
        } else {
            bucket[1] = entry;
        }
    }
}
