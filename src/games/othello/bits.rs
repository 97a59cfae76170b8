//! Othello's moves and flips on bitboards.
//!
//! A square is bit `row * 8 + column`. One step east is a shift left by 1, south (a row down)
//! by 8, south-east by 9, south-west by 7; their opposites shift right. A shift east or west
//! also carries a disc on the edge column over to the other edge of the next row; the mask
//! `INNER` (columns b-g) on the discs a line may run through stops that: a line that is to be
//! flanked cannot pass through the a or h column in a direction that moves along the row, and a
//! line that ends there ends at the board's edge.
//!
//! The moves are found so, for every square at once. The flips of one move are found along the
//! eight rays from its square instead, each a precomputed set of squares ([`flips`]): the
//! solver asks for one square's flips far more often than for all the moves.

/// Columns b to g: where a line that moves along the rows may run.
const INNER: u64 = 0x7E7E_7E7E_7E7E_7E7E;

/// The eight directions: the shift, and the squares a line of discs may run through.
const DIRECTIONS: [(i32, u64); 8] = [
    (1, INNER),
    (-1, INNER),
    (8, u64::MAX),
    (-8, u64::MAX),
    (9, INNER),
    (-9, INNER),
    (7, INNER),
    (-7, INNER),
];

#[inline(always)]
fn shift(discs: u64, by: i32) -> u64 {
    if by > 0 { discs << by } else { discs >> -by }
}

/// The opponent's discs in lines that start next to one of `from` along the direction: each
/// step lengthens every line, and a line between two discs is at most six long. After two
/// single steps the lines are grown two squares a step, through the squares whose neighbour
/// along the direction is one of the opponent's too (`pairs`): four steps instead of six.
#[inline(always)]
fn lines(from: u64, through: u64, by: i32) -> u64 {
    let mut line = shift(from, by) & through;
    line |= shift(line, by) & through;
    let pairs = through & shift(through, by);
    line |= shift(line, 2 * by) & pairs;
    line |= shift(line, 2 * by) & pairs;
    line
}

/// The empty squares where a disc of `mover` would flank a line of `other`'s discs.
#[inline]
pub fn moves(mover: u64, other: u64) -> u64 {
    let empty = !(mover | other);
    let mut moves = 0;
    for (by, inner) in DIRECTIONS {
        moves |= shift(lines(mover, other & inner, by), by) & empty;
    }
    moves
}

/// The squares from `square` to the board's edge along (`rows`, `columns`), nearest first.
const fn ray(square: usize, rows: i32, columns: i32) -> u64 {
    let (mut row, mut column) = (square as i32 / 8 + rows, square as i32 % 8 + columns);
    let mut squares = 0;
    while row >= 0 && row < 8 && column >= 0 && column < 8 {
        squares |= 1 << (row * 8 + column);
        row += rows;
        column += columns;
    }
    squares
}

/// Per square, its eight rays: the first four run towards higher bits (east, south,
/// south-east, south-west), the last four towards lower bits.
static RAYS: [[u64; 8]; 64] = {
    const WAYS: [(i32, i32); 8] = [
        (0, 1),
        (1, 0),
        (1, 1),
        (1, -1),
        (0, -1),
        (-1, 0),
        (-1, -1),
        (-1, 1),
    ];
    let mut rays = [[0; 8]; 64];
    let mut square = 0;
    while square < 64 {
        let mut way = 0;
        while way < 8 {
            rays[square][way] = ray(square, WAYS[way].0, WAYS[way].1);
            way += 1;
        }
        square += 1;
    }
    rays
};

/// The discs of `other` that a disc of `mover` on `square` turns over. Along each ray from the
/// square, the first square that is not `other`'s ends the line: if it is `mover`'s, the
/// squares before it are turned. On a ray towards higher bits that first square is the lowest
/// bit of the ray's squares not held by `other` (`x & -x`), and the squares before it are the
/// ray's bits below it (`first - 1`); towards lower bits it is the highest such bit, and the
/// squares before it the ray's bits above it. One table look-up and a few operations a ray,
/// with no loop along the line: this is the solver's innermost work.
#[inline]
pub fn flips(mover: u64, other: u64, square: u8) -> u64 {
    let rays = &RAYS[usize::from(square)];
    let mut flipped = 0;
    for &ray in &rays[..4] {
        let ends = ray & !other;
        let first = ends & ends.wrapping_neg();
        if first & mover != 0 {
            flipped |= (first - 1) & ray;
        }
    }
    for &ray in &rays[4..] {
        let ends = ray & !other;
        if ends != 0 {
            let first = 1u64 << (63 - ends.leading_zeros());
            if first & mover != 0 {
                // A ray towards lower bits never holds bit 63, so `first << 1` does not wrap.
                flipped |= ray & !((first << 1) - 1);
            }
        }
    }
    flipped
}

/// Columns b to h and a to g: where a shift east or west may land without wrapping.
const NOT_A: u64 = 0xFEFE_FEFE_FEFE_FEFE;
const NOT_H: u64 = 0x7F7F_7F7F_7F7F_7F7F;

/// `discs` one step along the direction `by`, without wrapping from one row to the next.
#[inline(always)]
fn step(discs: u64, by: i32) -> u64 {
    match by {
        1 | 9 | -7 => shift(discs, by) & NOT_A,
        -1 | -9 | 7 => shift(discs, by) & NOT_H,
        _ => shift(discs, by),
    }
}

/// The squares next to a disc of `discs` in any of the eight directions, with the discs' own
/// squares: a row's neighbours across, then those squares' neighbours up and down.
#[inline]
pub fn around(discs: u64) -> u64 {
    let across = discs | step(discs, 1) | step(discs, -1);
    across | step(across, 8) | step(across, -8)
}

/// The squares of `mover` that can never be turned over, or some of them: those that, along
/// each of the four lines through them, lie on the board's edge, on a full line, or beside a
/// disc of theirs already known to be stable. Grown from nothing until it grows no more (the
/// corners come first, as the only discs on two edges at once).
pub fn stable(mover: u64, other: u64) -> u64 {
    let empty = !(mover | other);
    // Per line direction: the squares the line can be flanked along, and the full lines.
    let lines: [(i32, u64); 4] = [
        (1, 0x8181_8181_8181_8181),
        (8, 0xFF00_0000_0000_00FF),
        (9, 0xFF81_8181_8181_81FF),
        (7, 0xFF81_8181_8181_81FF),
    ];
    let mut protected = [0u64; 4];
    for (index, (by, edge)) in lines.into_iter().enumerate() {
        // The squares an empty square reaches along the line, both ways: not full.
        let mut open = empty;
        for _ in 0..7 {
            open |= step(open, by) | step(open, -by);
        }
        protected[index] = edge | !open;
    }
    let mut stable = 0;
    loop {
        let mut grown = mover;
        for (index, (by, _)) in lines.into_iter().enumerate() {
            grown &= protected[index] | step(stable, by) | step(stable, -by);
        }
        if grown == stable {
            return stable;
        }
        stable = grown;
    }
}

/// The board upside down: row 1 becomes row 8.
fn flip_rows(discs: u64) -> u64 {
    discs.swap_bytes()
}

/// The board left to right: column a becomes column h. Swaps neighbouring bits, then pairs,
/// then nibbles, within each byte (a row).
fn flip_columns(discs: u64) -> u64 {
    const K1: u64 = 0x5555_5555_5555_5555;
    const K2: u64 = 0x3333_3333_3333_3333;
    const K4: u64 = 0x0F0F_0F0F_0F0F_0F0F;
    let discs = ((discs >> 1) & K1) | ((discs & K1) << 1);
    let discs = ((discs >> 2) & K2) | ((discs & K2) << 2);
    ((discs >> 4) & K4) | ((discs & K4) << 4)
}

/// The board mirrored in its a1-h8 diagonal: rows become columns. Swaps the off-diagonal 4 x 4
/// blocks, then 2 x 2 blocks within them, then single squares (three delta swaps).
fn transpose(discs: u64) -> u64 {
    const K1: u64 = 0x5500_5500_5500_5500;
    const K2: u64 = 0x3333_0000_3333_0000;
    const K4: u64 = 0x0F0F_0F0F_0000_0000;
    let mut discs = discs;
    let t = K4 & (discs ^ (discs << 28));
    discs ^= t ^ (t >> 28);
    let t = K2 & (discs ^ (discs << 14));
    discs ^= t ^ (t >> 14);
    let t = K1 & (discs ^ (discs << 7));
    discs ^ t ^ (t >> 7)
}

/// The eight images of a board (a pair of disc sets) under the square's symmetries.
pub fn symmetries(black: u64, white: u64) -> [(u64, u64); 8] {
    let mut images = [(black, white); 8];
    for (index, image) in images.iter_mut().enumerate() {
        let transform = |mut discs: u64| {
            if index & 1 != 0 {
                discs = flip_rows(discs);
            }
            if index & 2 != 0 {
                discs = flip_columns(discs);
            }
            if index & 4 != 0 {
                discs = transpose(discs);
            }
            discs
        };
        *image = (transform(black), transform(white));
    }
    images
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Bits;

    /// Moves and flips the slow way: walking from the square in each direction.
    fn walked_flips(mover: u64, other: u64, square: u8) -> u64 {
        let (row, column) = (i32::from(square / 8), i32::from(square % 8));
        let mut flipped = 0;
        for (dr, dc) in [
            (0, 1),
            (0, -1),
            (1, 0),
            (-1, 0),
            (1, 1),
            (-1, -1),
            (1, -1),
            (-1, 1),
        ] {
            let mut line = 0;
            let (mut r, mut c) = (row + dr, column + dc);
            while (0..8).contains(&r) && (0..8).contains(&c) {
                let bit = 1u64 << (r * 8 + c);
                if other & bit != 0 {
                    line |= bit;
                } else {
                    if mover & bit != 0 {
                        flipped |= line;
                    }
                    break;
                }
                r += dr;
                c += dc;
            }
        }
        flipped
    }

    /// Boards from a fixed seed, half of them crowded (an eighth empty, as late in a game),
    /// half sparse (five eighths empty).
    fn boards() -> impl Iterator<Item = (u64, u64)> {
        let mut state = 0x0123_4567_89AB_CDEFu64;
        let mut next = move || {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            super::super::mix(state)
        };
        (0..2000).map(move |index| {
            let (a, b, c) = (next(), next(), next());
            if index % 2 == 0 {
                (a & b, (a ^ b) | (c & !a & !b))
            } else {
                (a & b & c, (a ^ b) & c)
            }
        })
    }

    #[test]
    fn moves_and_flips_agree_with_walking_every_direction() {
        for (mover, other) in boards() {
            let empty = !(mover | other);
            let mut expected_moves = 0;
            for square in 0..64u8 {
                if empty >> square & 1 == 1 {
                    let walked = walked_flips(mover, other, square);
                    if walked != 0 {
                        expected_moves |= 1 << square;
                        assert_eq!(
                            flips(mover, other, square),
                            walked,
                            "{mover:x} {other:x} {square}"
                        );
                    }
                }
            }
            assert_eq!(moves(mover, other), expected_moves, "{mover:x} {other:x}");
        }
    }

    /// Stable discs are never turned over: along random games, every disc found stable stays
    /// its side's to the end; and a corner is always stable.
    #[test]
    fn stable_discs_stay() {
        let mut state = 99u64;
        for _ in 0..200 {
            let (mut black, mut white) = (0x0000_0008_1000_0000u64, 0x0000_0010_0800_0000u64);
            let mut black_to_move = true;
            let mut known = (0u64, 0u64);
            loop {
                let (mover, other) = if black_to_move {
                    (black, white)
                } else {
                    (white, black)
                };
                let placements = moves(mover, other);
                if placements == 0 && moves(other, mover) == 0 {
                    break;
                }
                known.0 |= stable(black, white);
                known.1 |= stable(white, black);
                assert_eq!(
                    stable(black, white) & CORNER_SQUARES,
                    black & CORNER_SQUARES
                );
                if placements != 0 {
                    state = state
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    let pick = (state >> 33) as usize % placements.count_ones() as usize;
                    let square = Bits(placements).nth(pick).unwrap();
                    let flipped = flips(mover, other, square);
                    let (mover, other) = (mover | flipped | 1 << square, other ^ flipped);
                    (black, white) = if black_to_move {
                        (mover, other)
                    } else {
                        (other, mover)
                    };
                }
                assert_eq!(
                    known.0 & black,
                    known.0,
                    "a stable black disc was turned over"
                );
                assert_eq!(
                    known.1 & white,
                    known.1,
                    "a stable white disc was turned over"
                );
                black_to_move = !black_to_move;
            }
        }
    }

    const CORNER_SQUARES: u64 = 0x8100_0000_0000_0081;

    #[test]
    fn the_symmetries_are_eight_distinct_images_that_keep_disc_counts() {
        // An asymmetric board: a1, b1 and a3.
        let discs = 0b1 | 0b10 | 1 << 16;
        let images = symmetries(discs, 0);
        let mut sets: Vec<u64> = images.iter().map(|image| image.0).collect();
        sets.sort_unstable();
        sets.dedup();
        assert_eq!(sets.len(), 8);
        assert!(images.iter().all(|image| image.0.count_ones() == 3));
        // Each transform undoes itself.
        for transform in [flip_rows, flip_columns, transpose] {
            assert_eq!(
                transform(transform(0xDEAD_BEEF_0BAD_F00D)),
                0xDEAD_BEEF_0BAD_F00D
            );
        }
        // b1 goes to a2 in the diagonal mirror, and to g1 left to right.
        assert_eq!(transpose(1 << 1), 1 << 8);
        assert_eq!(flip_columns(1 << 1), 1 << 6);
    }
}
