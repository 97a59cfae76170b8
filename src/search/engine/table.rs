//! The transposition table: what the search found about a position, found again when the
//! position comes back by another order of moves, or at the next iteration.

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

#[derive(Copy, Clone)]
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

/// A power of two of entries, indexed by a key's top bits; a new entry replaces the old one in
/// its slot unless the old one is of the same position and searched deeper.
pub struct Table<M: Copy + Send + 'static> {
    /// The size it was asked for.
    mib: u32,
    entries: Vec<Option<Entry<M>>>,
    /// How far a key is shifted to index the table: 64 less the table's bits.
    shift: u32,
}

/// The table's entries, as many as `mib` holds, rounded down to a power of two.
fn bits<M>(mib: u32) -> u32 {
    let bytes = mib as usize * (1 << 20);
    (bytes / std::mem::size_of::<Option<Entry<M>>>())
        .max(1)
        .ilog2()
}

impl<M: Copy + Send + 'static> Table<M> {
    /// As many entries as `mib` holds, rounded down to a power of two: an idle table of that
    /// size, or a new one.
    pub fn new(mib: u32) -> Table<M> {
        let bits = bits::<M>(mib);
        Table {
            mib,
            entries: Pool::<Option<Entry<M>>>::of().take(1 << bits, None),
            shift: 64 - bits,
        }
    }

    /// Forgets every entry: a new game begins.
    pub fn clear(&mut self) {
        self.entries.fill(None);
    }

    pub fn mib(&self) -> u32 {
        self.mib
    }

    fn slot(&self, key: u64) -> usize {
        (key >> self.shift) as usize
    }

    pub(super) fn probe(&self, key: u64) -> Option<Entry<M>> {
        self.entries[self.slot(key)].filter(|entry| entry.key == key)
    }

    pub(super) fn store(&mut self, entry: Entry<M>) {
        let slot = self.slot(entry.key);
        let keep = self.entries[slot].is_some_and(|old| {
            old.key == entry.key && old.depth > entry.depth && entry.bound != Bound::Exact
        });
        if !keep {
            self.entries[slot] = Some(entry);
        }
    }
}

impl<M: Copy + Send + 'static> Drop for Table<M> {
    fn drop(&mut self) {
        Pool::<Option<Entry<M>>>::of().give_back(std::mem::take(&mut self.entries), None);
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
