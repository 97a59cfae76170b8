//! The order the solver tries a node's moves in: the table's move first, then the move most
//! likely best. How much it is worth knowing which move is best grows with the subtree, and
//! so does the work spent finding out:
//!
//! - **Fastest first** everywhere: fewest replies for the opponent after the move (corners
//!   counting double), since a move that leaves few replies is likely good and its subtree is
//!   small. A move that takes all the opponent's discs goes first of all.
//! - From [`EVALUATED`] empties, the `mobility` evaluation of the position after the move
//!   joins the replies: it knows corners, stable discs and the frontier.
//! - From [`SORTED`] empties, a shallow search of the position after each move with that
//!   evaluation ([`estimate`]) in its place, deeper as the empties grow: Edax's
//!   `movelist_evaluate`, whose weights these are (a disc of the search's value weighs a
//!   reply, a quarter of it at depth 0 and half at depths 1 and 2, where the value is the
//!   rougher).

use super::super::bits::{flips, moves};
use super::super::evaluation::expected_margin;
use super::Solver;
use super::estimate::{DISC, MOST, estimate};
use crate::game::Bits;

/// From this many empty squares the moves are ordered by the `mobility` evaluation of the
/// position after them as well as by the replies they leave.
pub const EVALUATED: u32 = 12;
/// From this many empty squares the moves are ordered by shallow searches.
pub const SORTED: u32 = 15;
/// What one reply more weighs against one disc of expected margin, in the `mobility` order.
const REPLY_WEIGHT: i32 = 4;
/// The shallow searches' window reaches this many discs below the node's alpha: a move
/// much worse than that is not worth an exact estimate.
const SORT_MARGIN: i32 = 8;
const CORNERS: u64 = 0x8100_0000_0000_0081;

/// A move and the position after it: (the child's mover, its other side), the square, its
/// rank (lower first).
#[derive(Copy, Clone, Default)]
pub struct Child {
    pub mover: u64,
    pub other: u64,
    pub square: u8,
    rank: i32,
}

/// The depth of the shallow searches that order a node of `empties` empty squares; `None`
/// below [`SORTED`]. Deeper as the empties grow, a ply every three, one more from 27 (Edax's
/// steps, a ply deeper than its: on FFO #45-#47 a ply more took 0.90 of the time, two plies
/// more 1.28).
pub fn sort_depth(empties: u32) -> Option<u32> {
    if empties < SORTED {
        return None;
    }
    let mut depth = (empties as i32 - 12) / 3;
    if empties >= 27 {
        depth += 1;
    }
    Some(depth.clamp(0, 6) as u32)
}

impl Solver {
    /// The children of a position after each of `placements`, best first: the table's move,
    /// then by the rank the empties call for (`sort`: the shallow searches' depth, with the
    /// node's `alpha`).
    pub(super) fn ordered(
        &mut self,
        mover: u64,
        other: u64,
        placements: u64,
        table_move: u8,
        sort: Option<(u32, i32)>,
    ) -> ([Child; 32], usize) {
        let mut list = [Child::default(); 32];
        let mut count = 0;
        let evaluated = (!(mover | other)).count_ones() >= EVALUATED;
        for square in Bits(placements) {
            let flipped = flips(mover, other, square);
            let (next_other, next_mover) = (mover | flipped | 1 << square, other ^ flipped);
            let rank = if square == table_move || next_mover == 0 {
                i32::MIN
            } else {
                let replies = moves(next_mover, next_other);
                let fastest = replies.count_ones() as i32 + (replies & CORNERS).count_ones() as i32;
                match sort {
                    Some((depth, alpha)) => {
                        let beta = (SORT_MARGIN - alpha) * DISC;
                        let value = estimate(
                            &mut self.nodes,
                            next_mover,
                            next_other,
                            -MOST - 1,
                            beta,
                            depth,
                        );
                        let weight = match depth {
                            0 => 1,
                            1 | 2 => 2,
                            _ => 4,
                        };
                        4 * DISC * fastest + weight * value
                    }
                    // The opponent's expected margin after the move, in discs, and the replies.
                    None if evaluated => {
                        REPLY_WEIGHT * fastest + expected_margin(next_mover, next_other) as i32
                    }
                    None => fastest,
                }
            };
            // Insertion into the sorted list: a few dozen moves at most.
            let mut at = count;
            while at > 0 && list[at - 1].rank > rank {
                list[at] = list[at - 1];
                at -= 1;
            }
            list[at] = Child {
                mover: next_mover,
                other: next_other,
                square,
                rank,
            };
            count += 1;
        }
        (list, count)
    }
}
