//! The solver's transposition table: bounds on a position's final margin and the best move
//! found, shared by every thread of a solve.
//!
//! Transpositions are frequent in Othello endgames, where the same squares are filled in
//! different orders. An entry holds the whole position (both bitboards), so that a hit is never
//! another position's. Two entries share a bucket, as in Edax's and Stockfish's early tables:
//! the first keeps the position with the most empty squares (the largest subtree, the most
//! work to lose), the second the latest of the rest, so that the large subtrees near the root
//! survive the many small ones below them.
//!
//! The threads share it without a lock, as the engine kit's table does (Hyatt and Mann's
//! lockless hashing): a slot is three atomic words, the entry's data in one and each side's
//! discs XORed with the data in the others. Two threads writing one slot at once may leave
//! words of both; such a torn slot reads as a position whose discs are the XOR of one
//! entry's and another's data, which is not the position asked for (unless two different
//! data words differ by exactly the XOR of two positions, a chance of 2^-64 a read), and so is
//! never used. Words are read and written `Relaxed`: a slot stands alone, its words check each
//! other, and no ordering between slots is needed. On x86 and ARM a relaxed atomic load or
//! store is a plain one, so one thread pays nothing for the sharing.

use super::super::Othello;
use crate::game::Player;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// An entry: the position, bounds on its value, its best move.
#[derive(Copy, Clone, Default, Debug, PartialEq, Eq)]
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

    /// The bounds, the move and the empties in one word (the low 32 bits).
    fn data(&self) -> u64 {
        u64::from(u32::from_le_bytes([
            self.lower as u8,
            self.upper as u8,
            self.best,
            self.empties,
        ]))
    }
}

/// One entry's place: its data, and the discs of each side XORed with it.
#[derive(Default)]
struct Slot {
    mover: AtomicU64,
    other: AtomicU64,
    data: AtomicU64,
}

impl Slot {
    /// The entry the slot holds, whole (the position asked for or another), or `None` if it
    /// is torn or empty.
    #[inline]
    fn read(&self) -> Entry {
        let data = self.data.load(Relaxed);
        let [lower, upper, best, empties] = (data as u32).to_le_bytes();
        Entry {
            mover: self.mover.load(Relaxed) ^ data,
            other: self.other.load(Relaxed) ^ data,
            lower: lower as i8,
            upper: upper as i8,
            best,
            empties,
        }
    }

    #[inline]
    fn write(&self, entry: &Entry) {
        let data = entry.data();
        self.mover.store(entry.mover ^ data, Relaxed);
        self.other.store(entry.other ^ data, Relaxed);
        self.data.store(data, Relaxed);
    }
}

/// The largest size, as a power of two of buckets (two entries of 24 bytes each): 96 MiB.
const MAX_BITS: u32 = 21;
/// The smallest size.
const MIN_BITS: u32 = 9;

/// The entries, two to a bucket.
pub struct Table {
    buckets: Box<[[Slot; 2]]>,
    /// `1 << bits` buckets.
    bits: u32,
}

impl Table {
    pub fn new() -> Table {
        Table {
            buckets: Box::new([]),
            bits: 0,
        }
    }

    /// Grows the table for a position of `empties` empty squares, if it is smaller than such a
    /// tree needs: a tree about doubles with each empty square, and so does the table it
    /// needs; a small endgame does not pay for clearing a large table.
    pub fn fit(&mut self, empties: u32) {
        let bits = empties.clamp(MIN_BITS, MAX_BITS);
        if bits > self.bits {
            self.buckets = (0..1usize << bits).map(|_| Default::default()).collect();
            // The allocator hands out zeroed pages mapped to one shared page of zeros; the
            // first write to each then faults, and on several threads each such fault stops
            // every core to flush its mappings. Written here, on one thread, they fault once
            // each before the search starts.
            for slot in self.buckets.iter().flatten() {
                slot.data.store(0, Relaxed);
            }
            self.bits = bits;
        }
    }

    #[inline]
    fn bucket(&self, mover: u64, other: u64) -> &[Slot; 2] {
        &self.buckets[(Othello::key_of(mover, other, Player::X) >> (64 - self.bits)) as usize]
    }

    /// The entry of the position, if the table holds it whole.
    #[inline]
    pub fn get(&self, mover: u64, other: u64) -> Option<Entry> {
        self.bucket(mover, other)
            .iter()
            .map(Slot::read)
            .find(|entry| entry.mover == mover && entry.other == other)
    }

    /// Keeps `entry`: in place of the same position's; else in the first slot if it has at
    /// least as many empties as the position there (which moves to the second), else in the
    /// second.
    #[inline]
    pub fn put(&self, entry: Entry) {
        let bucket = self.bucket(entry.mover, entry.other);
        let first = bucket[0].read();
        if first.mover == entry.mover && first.other == entry.other {
            bucket[0].write(&entry);
        } else if entry.empties >= first.empties {
            bucket[1].write(&first);
            bucket[0].write(&entry);
        } else {
            bucket[1].write(&entry);
        }
    }
}
