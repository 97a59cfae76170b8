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

/// Each square's neighbours, the squares a line it flanks must start on: a square with no
/// disc of the opponent's beside it turns nothing, which is cheaper to see than the flips.
static NEIGHBOURS: [u64; 64] = {
    let mut table = [0; 64];
    let mut square = 0;
    while square < 64 {
        let (row, column) = (square as i32 / 8, square as i32 % 8);
        let mut near = 0u64;
        let mut dr = -1;
        while dr <= 1 {
            let mut dc = -1;
            while dc <= 1 {
                let (r, c) = (row + dr, column + dc);
                if (dr != 0 || dc != 0) && r >= 0 && r < 8 && c >= 0 && c < 8 {
                    near |= 1 << (r * 8 + c);
                }
                dc += 1;
            }
            dr += 1;
        }
        table[square] = near;
        square += 1;
    }
    table
};

/// The discs of `other` that `mover` turns on `square`: none at once where no disc of
/// `other` is beside it.
#[inline(always)]
fn flips_near(mover: u64, other: u64, square: u8) -> u64 {
    if NEIGHBOURS[usize::from(square)] & other == 0 {
        0
    } else {
        flips(mover, other, square)
    }
}

/// The score with one empty square left, `square`: the mover fills it if it can, else the
/// opponent does, else it goes to whoever leads. No search: 63 discs are on the board, so the
/// difference is odd and someone leads.
pub fn last_square(mover: u64, other: u64, square: u8) -> i32 {
    let mine = mover.count_ones() as i32;
    let flipped = flips_near(mover, other, square);
    if flipped != 0 {
        return 2 * (mine + flipped.count_ones() as i32 + 1) - 64;
    }
    let flipped = flips_near(other, mover, square);
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
    // Without its lowest square: none left for one empty square, one for two.
    let rest = empties & empties.wrapping_sub(1);
    if rest & rest.wrapping_sub(1) == 0 {
        // One empty square: counted, not searched; two: each order tried.
        let first = empties.trailing_zeros() as u8;
        return if empties == 0 {
            final_margin(mover, other)
        } else if rest == 0 {
            last_square(mover, other, first)
        } else {
            two(
                nodes,
                mover,
                other,
                alpha,
                beta,
                first,
                rest.trailing_zeros() as u8,
            )
        };
    }
    let mut best = -65;
    for group in [empties & odd, empties & !odd] {
        for square in Bits(group) {
            let flipped = flips_near(mover, other, square);
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

/// The value with two empty squares left, `first` and `second`, for the window (alpha,
/// beta), fail-soft: the mover's moves, else the opponent's, else the end; each counted to the
/// end by [`last_square`], without a loop (Edax's `solve_2`).
fn two(
    nodes: &mut u64,
    mover: u64,
    other: u64,
    alpha: i32,
    beta: i32,
    first: u8,
    second: u8,
) -> i32 {
    let mut best = -65;
    for (square, last) in [(first, second), (second, first)] {
        let flipped = flips_near(mover, other, square);
        if flipped != 0 {
            *nodes += 1;
            let value = -last_square(other ^ flipped, mover | flipped | 1 << square, last);
            if value >= beta {
                return value;
            }
            best = best.max(value);
        }
    }
    if best > -65 {
        return best;
    }
    // The mover passes: the opponent's moves, the least of them for the mover.
    let mut least = 65;
    for (square, last) in [(first, second), (second, first)] {
        let flipped = flips_near(other, mover, square);
        if flipped != 0 {
            *nodes += 1;
            let value = last_square(mover ^ flipped, other | flipped | 1 << square, last);
            if value <= alpha {
                return value;
            }
            least = least.min(value);
        }
    }
    if least < 65 {
        least
    } else {
        final_margin(mover, other)
    }
}
