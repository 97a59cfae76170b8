//! The transposition table: what the search found about a position, found again when the
//! position comes back by another order of moves, at the next iteration, or on another thread.
//!
//! One table is shared by every thread of a search (Lazy SMP, `threads.rs`), without a lock:
//! each slot is two atomic words, the entry packed into one (`data`) and its key XORed with it
//! in the other (`check`), as Hyatt and Mann's lockless hashing does. Two threads writing one
//! slot at once may leave the data of one beside the check of the other; such a torn slot
//! reads as another key (`check ^ data` is then neither key) and is never used. The words are
//! written and read `Relaxed`: a slot stands alone, and its two words check each other, so no
//! ordering between slots is needed.

use std::marker::PhantomData;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use crate::search::tables::Pool;
use crate::search::{PROVEN, Value};

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Bound {
    Exact,
    /// The value is at least this (the search failed high).
    Lower,
    /// The value is at most this (every move failed low).
    Upper,
}

/// A move as the table keeps it: in 32 bits, and back. Every game's move on the kit packs so
/// (shogi's is already a `u32`, Othello's and gomoku's a cell).
pub trait Packed: Copy {
    fn pack(self) -> u32;
    /// The move `pack` gave these bits for.
    fn unpack(bits: u32) -> Self;
}

impl Packed for u8 {
    fn pack(self) -> u32 {
        u32::from(self)
    }

    fn unpack(bits: u32) -> u8 {
        bits as u8
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) struct Entry<M> {
    pub key: u64,
    pub mv: Option<M>,
    /// The value, relative to the node for mates (see [`to_table`]).
    pub value: i16,
    pub depth: i8,
    pub bound: Bound,
}

impl<M> Entry<M> {
    /// The stored value, if it settles a search `depth` deep within (`alpha`, `beta`).
    pub fn cutoff(&self, depth: i32, ply: usize, alpha: Value, beta: Value) -> Option<Value> {
        if i32::from(self.depth) < depth {
            return None;
        }
        let value = from_table(self.value, ply);
        let usable = match self.bound {
            Bound::Exact => true,
            Bound::Lower => value >= beta,
            Bound::Upper => value <= alpha,
        };
        usable.then_some(value)
    }
}

/// Where each field sits in the data word: the move in the low 32 bits, then the value, the
/// depth, the bound, whether there is a move, and whether the slot holds an entry at all (an
/// empty slot is all zeros).
const VALUE_SHIFT: u32 = 32;
const DEPTH_SHIFT: u32 = 48;
const BOUND_SHIFT: u32 = 56;
const HAS_MOVE: u64 = 1 << 58;
const OCCUPIED: u64 = 1 << 59;

impl<M: Packed> Entry<M> {
    fn to_data(self) -> u64 {
        let bound = match self.bound {
            Bound::Exact => 0,
            Bound::Lower => 1,
            Bound::Upper => 2,
        };
        let mv = self.mv.map_or(0, |mv| u64::from(mv.pack()) | HAS_MOVE);
        mv | u64::from(self.value as u16) << VALUE_SHIFT
            | u64::from(self.depth as u8) << DEPTH_SHIFT
            | bound << BOUND_SHIFT
            | OCCUPIED
    }

    fn of_data(key: u64, data: u64) -> Entry<M> {
        Entry {
            key,
            mv: (data & HAS_MOVE != 0).then(|| M::unpack(data as u32)),
            value: (data >> VALUE_SHIFT) as u16 as i16,
            depth: (data >> DEPTH_SHIFT) as u8 as i8,
            bound: match (data >> BOUND_SHIFT) & 3 {
                0 => Bound::Exact,
                1 => Bound::Lower,
                _ => Bound::Upper,
            },
        }
    }
}

/// One slot: the entry's data, and its key XORed with it.
#[derive(Default)]
pub struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// What the pool fills a table with: only empty slots are ever cloned.
impl Clone for Slot {
    fn clone(&self) -> Slot {
        Slot {
            check: AtomicU64::new(self.check.load(Relaxed)),
            data: AtomicU64::new(self.data.load(Relaxed)),
        }
    }
}

impl Slot {
    /// The key and data it holds, if it holds an entry; a torn slot gives a key no position
    /// has (or, as rarely as two keys agree, another's).
    fn read(&self) -> Option<(u64, u64)> {
        let data = self.data.load(Relaxed);
        let check = self.check.load(Relaxed);
        (data & OCCUPIED != 0).then_some((check ^ data, data))
    }

    fn write(&self, key: u64, data: u64) {
        self.data.store(data, Relaxed);
        self.check.store(key ^ data, Relaxed);
    }
}

/// A power of two of slots, indexed by a key's top bits; a new entry replaces the old one in
/// its slot unless the old one is of the same position and searched deeper. Shared by the
/// threads of a search: every method takes `&self`.
pub struct Table<M: Packed> {
    /// The size it was asked for.
    mib: u32,
    slots: Vec<Slot>,
    /// How far a key is shifted to index the table: 64 less the table's bits.
    shift: u32,
    moves: PhantomData<fn() -> M>,
}

/// The table's slots, as many as `mib` holds, rounded down to a power of two.
fn bits(mib: u32) -> u32 {
    let bytes = mib as usize * (1 << 20);
    (bytes / std::mem::size_of::<Slot>()).max(1).ilog2()
}

impl<M: Packed> Table<M> {
    /// As many slots as `mib` holds, rounded down to a power of two: an idle table of that
    /// size, or a new one.
    pub fn new(mib: u32) -> Table<M> {
        let bits = bits(mib);
        Table {
            mib,
            slots: Pool::<Slot>::of().take(1 << bits, Slot::default()),
            shift: 64 - bits,
            moves: PhantomData,
        }
    }

    /// Forgets every entry: a new game begins.
    pub fn clear(&self) {
        for slot in &self.slots {
            slot.write(0, 0);
        }
    }

    pub fn mib(&self) -> u32 {
        self.mib
    }

    fn slot(&self, key: u64) -> &Slot {
        &self.slots[(key >> self.shift) as usize]
    }

    pub(super) fn probe(&self, key: u64) -> Option<Entry<M>> {
        let (found, data) = self.slot(key).read()?;
        (found == key).then(|| Entry::of_data(key, data))
    }

    pub(super) fn store(&self, entry: Entry<M>) {
        let slot = self.slot(entry.key);
        let keep = slot.read().is_some_and(|(key, data)| {
            key == entry.key
                && Entry::<M>::of_data(key, data).depth > entry.depth
                && entry.bound != Bound::Exact
        });
        if !keep {
            slot.write(entry.key, entry.to_data());
        }
    }
}

impl<M: Packed> Drop for Table<M> {
    fn drop(&mut self) {
        Pool::<Slot>::of().give_back(std::mem::take(&mut self.slots), Slot::default());
    }
}

/// Mate scores are stored relative to the node, not the root, so that an entry reached at a
/// different ply still says how far the mate is.
pub(super) fn to_table(value: Value, ply: usize) -> i16 {
    let value = if value >= PROVEN {
        value + ply as Value
    } else if value <= -PROVEN {
        value - ply as Value
    } else {
        value
    };
    value as i16
}

fn from_table(value: i16, ply: usize) -> Value {
    let value = Value::from(value);
    if value >= PROVEN {
        value - ply as Value
    } else if value <= -PROVEN {
        value + ply as Value
    } else {
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicBool;

    /// Every field comes back as it was packed, at its extremes.
    #[test]
    fn an_entry_packs_and_unpacks_whole() {
        for (mv, value, depth, bound) in [
            (None, 0, 0, Bound::Exact),
            (Some(255u8), i16::MIN, i8::MIN, Bound::Lower),
            (Some(0), i16::MAX, i8::MAX, Bound::Upper),
            (Some(17), -1, -1, Bound::Exact),
        ] {
            let entry = Entry {
                key: 0xdead_beef_0123_4567,
                mv,
                value,
                depth,
                bound,
            };
            assert_eq!(Entry::of_data(entry.key, entry.to_data()), entry);
        }
    }

    /// The data each writer stores for `key`: its fields all follow from the key, so a reader
    /// can tell a whole entry from one whose fields come from two writes.
    fn entry_of(key: u64) -> Entry<u8> {
        Entry {
            key,
            mv: Some((key >> 8) as u8),
            value: (key >> 16) as i16,
            depth: (key >> 32) as i8,
            bound: Bound::Exact,
        }
    }

    /// The keys the hammer writes and reads: spread over the 64 bits, so that each field of
    /// their entries differs from key to key.
    fn keys() -> Vec<u64> {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        (0..256)
            .map(|_| {
                state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
                let mut z = state;
                z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
                z ^ (z >> 31)
            })
            .collect()
    }

    /// Threads write and read a table of four slots at once, each key's entry a function of the
    /// key: every entry a probe returns is the one written for its key, never a slot torn
    /// between two writes (the data of one beside the key of another). A slot of a key word and
    /// a data word without the XOR fails it: it was tried.
    #[test]
    fn a_table_hammered_by_many_threads_never_gives_a_torn_entry() {
        let mut table = Table::<u8>::new(1);
        // Four slots: every write contends with the others.
        table.shift = 62;
        let table = &table;
        let keys = &keys();
        let stop = &AtomicBool::new(false);
        let (found, torn) = std::thread::scope(|scope| {
            for writer in 0..3 {
                scope.spawn(move || {
                    let mut at = writer * 7;
                    while !stop.load(Relaxed) {
                        at = (at + 13) % keys.len();
                        table.store(entry_of(keys[at]));
                    }
                });
            }
            let readers: Vec<_> = (0..3)
                .map(|reader| {
                    scope.spawn(move || {
                        let (mut found, mut torn) = (0u64, 0u64);
                        for round in 0..3_000_000usize {
                            let key = keys[(round * 31 + reader) % keys.len()];
                            if let Some(entry) = table.probe(key) {
                                found += 1;
                                torn += u64::from(entry != entry_of(key));
                            }
                        }
                        (found, torn)
                    })
                })
                .collect();
            let counts: Vec<(u64, u64)> = readers
                .into_iter()
                .map(|reader| reader.join().expect("a reader"))
                .collect();
            stop.store(true, Relaxed);
            counts
                .into_iter()
                .fold((0, 0), |(found, torn), (f, t)| (found + f, torn + t))
        });
        assert!(found > 1_000, "the readers found entries: {found}");
        assert_eq!(torn, 0, "{torn} of {found} entries found were torn");
    }
}
