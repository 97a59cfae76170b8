//! The transposition table: what earlier searches found about a position, found again by key.
//!
//! A fixed number of entries (a power of two; it never grows, so its memory is known up front),
//! indexed by the low bits of a mixed key, each holding the full key to tell positions apart.
//! Replacement: an entry searched deeper than the new one is kept, anything else is replaced,
//! and complete entries (searched to the end of the game) count as deepest. Deep entries save
//! the most work, while letting shallower ones replace stale ones keeps the table fresh.
//!
//! Values of proven wins and losses count plies from the root; stored, they count from the
//! entry's own position, so that an entry reached at another ply means the same thing.

use super::{PROVEN, Value};

/// What an entry's value says about the position's true value.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Bound {
    /// The value itself.
    Exact,
    /// At least the value (the search failed high: a cutoff).
    Lower,
    /// At most the value (every move failed low).
    Upper,
}

#[derive(Copy, Clone, Debug)]
pub(super) struct Entry {
    key: u64,
    pub(super) value: Value,
    /// Plies searched below the position; `u8::MAX` when searched to the end of the game.
    pub(super) depth: u8,
    pub(super) bound: Bound,
    /// The id of the best move found, [`NO_MOVE`] when none is known: a plain `u16`
    /// keeps an entry at 16 bytes, where an `Option<u16>` would make it 24.
    move_id: u16,
}

/// The `move_id` of an entry that knows no best move.
const NO_MOVE: u16 = u16::MAX;

impl Entry {
    /// The id of the best move found, when known.
    pub(super) fn move_id(&self) -> Option<u16> {
        (self.move_id != NO_MOVE).then_some(self.move_id)
    }
}

pub(super) struct TranspositionTable {
    entries: Vec<Option<Entry>>,
    mask: usize,
}

impl TranspositionTable {
    /// A table with `2^bits` entries.
    pub(super) fn with_bits(bits: u32) -> Self {
        let size = 1usize << bits;
        TranspositionTable {
            entries: vec![None; size],
            mask: size - 1,
        }
    }

    /// A table sized for a search with `plies` plies left to play: 2^(plies + 3) entries, which
    /// holds every position below a small game's start, and at most 2^18 (4 MiB) for larger
    /// games: each concurrent search has its own, and the service's memory must stay bounded.
    /// Sized by the plies left rather than the game's length, a search from the middle of a
    /// small game clears a few KiB rather than many.
    pub(super) fn for_plies(plies: usize) -> Self {
        Self::with_bits((plies as u32 + 3).min(18))
    }

    fn slot(&self, key: u64) -> usize {
        // Keys of small games use few bits; multiplying by an odd constant spreads them over
        // the whole index (Fibonacci hashing).
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as usize & self.mask
    }

    pub(super) fn probe(&self, key: u64) -> Option<Entry> {
        self.entries[self.slot(key)].filter(|entry| entry.key == key)
    }

    pub(super) fn store(
        &mut self,
        key: u64,
        value: Value,
        ply: usize,
        depth: u8,
        bound: Bound,
        move_id: Option<u16>,
    ) {
        let slot = self.slot(key);
        if let Some(old) = self.entries[slot]
            && old.key != key
            && old.depth > depth
        {
            return;
        }
        self.entries[slot] = Some(Entry {
            key,
            value: value_to_entry(value, ply),
            depth,
            bound,
            move_id: move_id.unwrap_or(NO_MOVE),
        });
    }

    /// An entry's value seen from `ply` plies below the root.
    pub(super) fn value_from_entry(value: Value, ply: usize) -> Value {
        let ply = ply as Value;
        if value >= PROVEN {
            value - ply
        } else if value <= -PROVEN {
            value + ply
        } else {
            value
        }
    }
}

fn value_to_entry(value: Value, ply: usize) -> Value {
    let ply = ply as Value;
    if value >= PROVEN {
        value + ply
    } else if value <= -PROVEN {
        value - ply
    } else {
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::WIN;

    #[test]
    fn entries_are_found_by_key_and_proven_values_move_with_the_ply() {
        let mut table = TranspositionTable::with_bits(4);
        // A win 3 plies from the root, stored at ply 2: a win in 1 from the position.
        table.store(42, WIN - 3, 2, 5, Bound::Exact, Some(7));
        let entry = table.probe(42).unwrap();
        assert_eq!(entry.value, WIN - 1);
        assert_eq!(
            TranspositionTable::value_from_entry(entry.value, 4),
            WIN - 5
        );
        assert_eq!(entry.move_id(), Some(7));
        assert!(table.probe(43).is_none());
        assert_eq!(TranspositionTable::value_from_entry(12, 9), 12);
    }

    #[test]
    fn deeper_entries_are_kept() {
        let mut table = TranspositionTable::with_bits(0);
        table.store(1, 0, 0, 9, Bound::Exact, None);
        table.store(2, 0, 0, 3, Bound::Exact, None);
        assert!(table.probe(1).is_some(), "the deeper entry stays");
        table.store(2, 0, 0, 9, Bound::Exact, None);
        assert!(table.probe(2).is_some(), "an as-deep entry replaces it");
    }
}
