//! Correction history: what the static evaluation has lately got wrong about positions of a
//! pawn structure, added to it.
//!
//! An evaluation errs the same way in positions that share a pawn structure (a weakness it does
//! not see, a blockade it overrates), and the search finds out: a node's searched value is what
//! its static evaluation should have been. The difference is averaged into a table indexed by
//! the side to move and a hash of the pawns, deeper searches weighing more, and every later
//! static evaluation of that structure is corrected by it. The pruning that compares the static
//! evaluation with the window (reverse futility, futility, the null move's condition) then
//! errs less. Only a searched value that says something about the evaluation teaches: an exact
//! one, or a bound on the side that shows the evaluation wrong.

use crate::search::Value;

/// Entries a side: a power of two, indexed by the structure key's top bits.
const ENTRIES: usize = 1 << 14;
/// Corrections are kept in this fraction of a centipawn, so that small updates add up.
const GRAIN: i32 = 256;
/// The largest correction, in hundredths of the game's pawn, either way.
const LIMIT: i32 = 128;
/// An update's weight out of this: a deeper search moves the average further.
const WEIGHTS: i32 = 256;

pub(super) struct Corrections {
    entries: Box<[[i32; ENTRIES]; 2]>,
    /// The largest correction on the game's scale.
    limit: i32,
}

/// The slot of a structure key (chess's pawns) in a side's table.
pub(super) fn slot(structure_key: u64) -> usize {
    (structure_key >> (64 - ENTRIES.trailing_zeros())) as usize
}

impl Corrections {
    /// Empty corrections for a game whose pawn is worth `pawn`.
    pub fn new(pawn: Value) -> Corrections {
        Corrections {
            entries: Box::new([[0; ENTRIES]; 2]),
            limit: LIMIT * pawn / 100,
        }
    }

    /// Forgets everything: a new game begins.
    pub fn clear(&mut self) {
        for side in self.entries.iter_mut() {
            side.fill(0);
        }
    }

    /// `eval`, the static evaluation for `side` of a position in `slot`, corrected.
    pub fn correct(&self, side: usize, slot: usize, eval: Value) -> Value {
        eval + self.entries[side][slot] / GRAIN
    }

    /// A search `depth` plies deep found the position (`side` to move, in `slot`) worth
    /// `searched` where its uncorrected static evaluation said `eval`.
    pub fn learn(&mut self, side: usize, slot: usize, depth: i32, searched: Value, eval: Value) {
        let entry = &mut self.entries[side][slot];
        let target = (searched - eval).clamp(-self.limit, self.limit) * GRAIN;
        let weight = (depth + 1).min(16);
        *entry = (*entry * (WEIGHTS - weight) + target * weight) / WEIGHTS;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_correction_moves_toward_what_the_search_found_and_stays_within_its_limit() {
        let slot = slot(0x1234_5678_9abc_def0);
        let mut corrections = Corrections::new(100);
        assert_eq!(corrections.correct(0, slot, 30), 30);
        for _ in 0..200 {
            corrections.learn(0, slot, 10, 1_000, 30);
        }
        let corrected = corrections.correct(0, slot, 30);
        assert!(
            (30 + LIMIT - 2..=30 + LIMIT).contains(&corrected),
            "{corrected}"
        );
        // The other side's table is its own.
        assert_eq!(corrections.correct(1, slot, 30), 30);
        for _ in 0..200 {
            corrections.learn(0, slot, 10, 30, 30);
        }
        assert!(corrections.correct(0, slot, 30).abs_diff(30) <= 1);
    }
}
