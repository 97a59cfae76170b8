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

use shakmaty::{Color, Position};

use crate::search::kit::Value;

/// Entries a side: a power of two, indexed by the pawn hash's top bits.
const ENTRIES: usize = 1 << 14;
/// Corrections are kept in this fraction of a centipawn, so that small updates add up.
const GRAIN: i32 = 256;
/// The largest correction, in centipawns, either way.
const LIMIT: i32 = 128;
/// An update's weight out of this: a deeper search moves the average further.
const WEIGHTS: i32 = 256;

pub(super) struct Corrections {
    entries: Box<[[i32; ENTRIES]; 2]>,
}

/// The slot of the pawn structure of `position` (both sides' pawns) in a side's table.
pub(super) fn pawn_slot(position: &shakmaty::Chess) -> usize {
    let board = position.board();
    let pawns = board.pawns();
    let white = (pawns & board.white()).0;
    let black = (pawns & board.black()).0;
    // A multiplicative hash of each side's pawns: odd constants spread the bits upward, and
    // the top bits index the table.
    let hash =
        white.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ black.wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    (hash >> (64 - ENTRIES.trailing_zeros())) as usize
}

impl Corrections {
    pub fn new() -> Corrections {
        Corrections {
            entries: Box::new([[0; ENTRIES]; 2]),
        }
    }

    /// `eval`, the static evaluation for `turn` of a position in pawn `slot`, corrected.
    pub fn correct(&self, turn: Color, slot: usize, eval: Value) -> Value {
        eval + self.entries[turn as usize][slot] / GRAIN
    }

    /// A search `depth` plies deep found the position (`turn` to move, pawn `slot`) worth
    /// `searched` where its uncorrected static evaluation said `eval`.
    pub fn learn(&mut self, turn: Color, slot: usize, depth: i32, searched: Value, eval: Value) {
        let entry = &mut self.entries[turn as usize][slot];
        let target = (searched - eval).clamp(-LIMIT, LIMIT) * GRAIN;
        let weight = (depth + 1).min(16);
        *entry = (*entry * (WEIGHTS - weight) + target * weight) / WEIGHTS;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_correction_moves_toward_what_the_search_found_and_stays_within_its_limit() {
        let position = shakmaty::Chess::default();
        let slot = pawn_slot(&position);
        let mut corrections = Corrections::new();
        assert_eq!(corrections.correct(Color::White, slot, 30), 30);
        for _ in 0..200 {
            corrections.learn(Color::White, slot, 10, 1_000, 30);
        }
        let corrected = corrections.correct(Color::White, slot, 30);
        assert!(
            (30 + LIMIT - 2..=30 + LIMIT).contains(&corrected),
            "{corrected}"
        );
        // The other side's table is its own.
        assert_eq!(corrections.correct(Color::Black, slot, 30), 30);
        for _ in 0..200 {
            corrections.learn(Color::White, slot, 10, 30, 30);
        }
        assert!(corrections.correct(Color::White, slot, 30).abs_diff(30) <= 1);
    }

    #[test]
    fn positions_with_the_same_pawns_share_a_slot() {
        let start = shakmaty::Chess::default();
        let knight_out: shakmaty::Chess =
            "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1"
                .parse::<shakmaty::fen::Fen>()
                .unwrap()
                .into_position(shakmaty::CastlingMode::Standard)
                .unwrap();
        let pawn_out: shakmaty::Chess =
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
                .parse::<shakmaty::fen::Fen>()
                .unwrap()
                .into_position(shakmaty::CastlingMode::Standard)
                .unwrap();
        assert_eq!(pawn_slot(&start), pawn_slot(&knight_out));
        assert_ne!(pawn_slot(&start), pawn_slot(&pawn_out));
    }
}
