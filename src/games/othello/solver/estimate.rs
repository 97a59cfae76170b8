//! Shallow searches with an evaluation: what the solver orders its moves by where the
//! subtrees are large (as Edax and Egaroucid do), and what Multi-ProbCut's shallow searches
//! are. A plain fail-soft alpha-beta a few plies deep, the `mobility` evaluation at its
//! leaves, in 256ths of a disc; the replies fewest first where a subtree is deep enough to
//! repay it.
//!
//! `mobility`, not the learnt patterns: with the patterns at the leaves the solver searched
//! twice the nodes on FFO #40-#44 (docs/othello.md has the figures); their values are as near
//! the exact ones, but they tell a node's children apart worse.

use super::super::bits::{flips, moves};
use super::super::evaluation::expected_margin;
use super::super::final_margin;
use crate::game::Bits;

/// A disc in the patterns' units.
pub const DISC: i32 = 256;

/// The most a value can be: all 64 discs.
pub const MOST: i32 = 64 * DISC;

/// The `mobility` evaluation's expected margin for `mover`, in 256ths of a disc.
#[inline]
pub fn evaluate(mover: u64, other: u64) -> i32 {
    ((expected_margin(mover, other) * DISC as f32) as i32).clamp(-MOST, MOST)
}

/// The value of the position for `mover` searched `depth` plies with the patterns at the
/// leaves and the window (alpha, beta), fail-soft, in 256ths of a disc. A pass is not a ply;
/// the end of the game is its margin. Counts its nodes in `nodes`.
pub fn estimate(
    nodes: &mut u64,
    mover: u64,
    other: u64,
    mut alpha: i32,
    beta: i32,
    depth: u32,
) -> i32 {
    *nodes += 1;
    if depth == 0 {
        return evaluate(mover, other);
    }
    let placements = moves(mover, other);
    if placements == 0 {
        return if moves(other, mover) == 0 {
            final_margin(mover, other) * DISC
        } else {
            -estimate(nodes, other, mover, -beta, -alpha, depth)
        };
    }
    let mut children = [(0u64, 0u64, 0u32); 32];
    let mut count = 0;
    for square in Bits(placements) {
        let flipped = flips(mover, other, square);
        let (next_mover, next_other) = (other ^ flipped, mover | flipped | 1 << square);
        // Fewest replies first where the subtree is deep enough for the order to pay.
        let replies = if depth >= 3 {
            moves(next_mover, next_other).count_ones()
        } else {
            0
        };
        let mut at = count;
        while at > 0 && children[at - 1].2 > replies {
            children[at] = children[at - 1];
            at -= 1;
        }
        children[at] = (next_mover, next_other, replies);
        count += 1;
    }
    let mut best = -MOST - 1;
    for &(next_mover, next_other, _) in &children[..count] {
        let value = -estimate(nodes, next_mover, next_other, -beta, -alpha, depth - 1);
        if value > best {
            best = value;
            if value > alpha {
                alpha = value;
                if alpha >= beta {
                    break;
                }
            }
        }
    }
    best
}
