//! The last few empty squares: no table and no ordering by replies, where a subtree is too
//! small to repay them; the squares of quadrants with an odd number of empties first (parity:
//! the last move in a region is usually an advantage), and the last square counted.

use super::super::bits::{flips, moves};
use super::super::final_margin;
use crate::game::Bits;

/// The four quadrants of the board, for parity.
const QUADRANTS: [u64; 4] = [
    0x0000_0000_0F0F_0F0F,
    0x0000_0000_F0F0_F0F0,
    0x0F0F_0F0F_0000_0000,
    0xF0F0_F0F0_0000_0000,
];

/// The score with one empty square left, `square`: the mover fills it if it can, else the
/// opponent does, else it goes to whoever leads. No search: 63 discs are on the board, so the
/// difference is odd and someone leads.
pub fn last_square(mover: u64, other: u64, square: u8) -> i32 {
    let mine = mover.count_ones() as i32;
    let flipped = flips(mover, other, square);
    if flipped != 0 {
        return 2 * (mine + flipped.count_ones() as i32 + 1) - 64;
    }
    let flipped = flips(other, mover, square);
    if flipped != 0 {
        return 2 * (mine - flipped.count_ones() as i32) - 64;
    }
    let difference = 2 * mine - 63;
    difference + difference.signum()
}

/// The squares of the quadrants with an odd number of empties: the parity that the last
/// empties are ordered by. Computed once where the search turns shallow, then kept by toggling
/// a square's quadrant with each move ([`quadrant`]).
pub fn odd_quadrants(empties: u64) -> u64 {
    QUADRANTS
        .into_iter()
        .filter(|&quadrant| (empties & quadrant).count_ones() % 2 == 1)
        .fold(0, |odd, quadrant| odd | quadrant)
}

/// The quadrant that holds `square`: bit 2 of the column and of the row pick it.
fn quadrant(square: u8) -> u64 {
    QUADRANTS[usize::from((square >> 2 & 1) | (square >> 4 & 2))]
}

/// The value of the position for `mover` with the window (alpha, beta), fail-soft: `empties`
/// its empty squares, `odd` the squares of its odd quadrants. Counts its nodes in `nodes`.
pub fn search(
    nodes: &mut u64,
    mover: u64,
    other: u64,
    mut alpha: i32,
    beta: i32,
    empties: u64,
    odd: u64,
) -> i32 {
    *nodes += 1;
    // One empty square (a single bit set): counted, not searched.
    if empties != 0 && empties & (empties - 1) == 0 {
        return last_square(mover, other, empties.trailing_zeros() as u8);
    }
    let mut best = -65;
    for group in [empties & odd, empties & !odd] {
        for square in Bits(group) {
            let flipped = flips(mover, other, square);
            if flipped == 0 {
                continue;
            }
            let value = -search(
                nodes,
                other ^ flipped,
                mover | flipped | 1 << square,
                -beta,
                -alpha,
                empties & !(1 << square),
                odd ^ quadrant(square),
            );
            if value > best {
                best = value;
                if value > alpha {
                    alpha = value;
                    if alpha >= beta {
                        return best;
                    }
                }
            }
        }
    }
    if best > -65 {
        return best;
    }
    // No square for the mover: the opponent's, or the end.
    if moves(other, mover) == 0 {
        final_margin(mover, other)
    } else {
        -search(nodes, other, mover, -beta, -alpha, empties, odd)
    }
}
