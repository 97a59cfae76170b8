//! Chess evaluations, apart from the rules: the tutorial's material count (the default, so
//! that the classic algorithms play as taught), and PeSTO's tapered
//! piece-square tables (Ronald Friederich's published values, as tuned for his engine PeSTO
//! and given on the Chess Programming Wiki).
//!
//! Both count centipawns for the side to move and turn them into Sente's common scale, the
//! side to move's winning chances in (-1, 1), as lichess does:
//! `score = 2 / (1 + exp(-0.00368208 * cp)) - 1`. [`centipawns`] is its inverse.

use shakmaty::{Bitboard, Board, Color, Position, Role};

use super::Chess;
use crate::game::Evaluation;

pub(super) const EVALUATIONS: &[Evaluation<Chess>] = &[
    Evaluation {
        name: "material",
        description: "Material as the chess tutorial counts it: pawn 1, knight 3, bishop 3, \
                      rook 5, queen 9.",
        evaluate: |chess| winning_chances(material(chess.position())),
    },
    Evaluation {
        name: "pesto",
        description: "PeSTO's tapered evaluation: piece values and piece-square tables for the \
                      middlegame and the endgame, blended by the material left on the board.",
        evaluate: |chess| winning_chances(pesto(chess.position())),
    },
    Evaluation {
        name: "nnue",
        description: "The network learnt from Sente's own games (NNUE): 768 inputs a side, \
                      one hidden layer, quantised (docs/chess.md#the-network).",
        evaluate: |chess| winning_chances(super::nnue::evaluate(chess.position())),
    },
];

/// lichess's scale: how much a centipawn moves the winning chances.
const SCALE: f64 = 0.003_682_08;

/// The side to move's winning chances in (-1, 1) for an advantage of `cp` centipawns.
pub fn winning_chances(cp: i32) -> f64 {
    2.0 / (1.0 + (-SCALE * f64::from(cp)).exp()) - 1.0
}

/// The advantage in centipawns that `score` (winning chances) stands for.
pub fn centipawns(score: f64) -> i32 {
    let score = score.clamp(-0.999_999, 0.999_999);
    (((1.0 + score) / (1.0 - score)).ln() / SCALE).round() as i32
}

/// The tutorial's piece values, in centipawns, pawn to queen.
const MATERIAL: [i32; 5] = [100, 300, 300, 500, 900];

const ROLES: [Role; 6] = [
    Role::Pawn,
    Role::Knight,
    Role::Bishop,
    Role::Rook,
    Role::Queen,
    Role::King,
];

/// White's pieces of `role` minus Black's, by `count`.
fn balance(board: &Board, role: Role, count: impl Fn(Bitboard) -> i32) -> i32 {
    let pieces = board.by_role(role);
    count(pieces & board.by_color(Color::White)) - count(pieces & board.by_color(Color::Black))
}

/// Material for the side to move, in centipawns.
pub fn material(position: &shakmaty::Chess) -> i32 {
    let board = position.board();
    let white: i32 = ROLES[..5]
        .iter()
        .zip(MATERIAL)
        .map(|(&role, value)| value * balance(board, role, |pieces| pieces.count() as i32))
        .sum();
    position.turn().fold_wb(white, -white)
}

/// Piece values for the middlegame and the endgame, pawn to king.
const MG_VALUE: [i32; 6] = [82, 337, 365, 477, 1025, 0];
const EG_VALUE: [i32; 6] = [94, 281, 297, 512, 936, 0];
/// How much each piece counts toward the middlegame: a full board is 24.
const PHASE: [i32; 6] = [0, 1, 1, 2, 4, 0];

/// The engine's evaluation for the side to move, in centipawns: PeSTO's tables and the terms
/// beyond them ([`terms`](super::terms)), tapered alike.
pub fn engine(position: &shakmaty::Chess) -> i32 {
    let (mg, eg, phase) = tables(position.board());
    let (terms_mg, terms_eg) = super::terms::white(position.board());
    taper(position, mg + terms_mg, eg + terms_eg, phase)
}

/// PeSTO for the side to move, in centipawns.
pub fn pesto(position: &shakmaty::Chess) -> i32 {
    let (mg, eg, phase) = tables(position.board());
    taper(position, mg, eg, phase)
}

/// The blend of a middlegame and an endgame value (White's) by the phase, for the side to
/// move.
fn taper(position: &shakmaty::Chess, mg: i32, eg: i32, phase: i32) -> i32 {
    let white = (mg * phase + eg * (24 - phase)) / 24;
    position.turn().fold_wb(white, -white)
}

/// PeSTO's middlegame and endgame values for White, and the phase: 24 for a full board's
/// pieces, 0 for kings and pawns.
fn tables(board: &Board) -> (i32, i32, i32) {
    let (mut mg, mut eg, mut phase) = (0, 0, 0);
    for (index, &role) in ROLES.iter().enumerate() {
        for color in Color::ALL {
            let sign = color.fold_wb(1, -1);
            for square in board.by_role(role) & board.by_color(color) {
                // The tables are written from White's side with a8 first: a white piece on a
                // square (a1 = 0) is read at the square mirrored vertically, a black one as is.
                let at = usize::from(square) ^ color.fold_wb(56, 0);
                mg += sign * (MG_VALUE[index] + MG_TABLES[index][at]);
                eg += sign * (EG_VALUE[index] + EG_TABLES[index][at]);
                phase += PHASE[index];
            }
        }
    }
    // Promotions can take the phase past a full board's.
    (mg, eg, phase.min(24))
}

/// A move's static promise, for ordering: captures of big pieces by small ones first
/// (MVV-LVA), then promotions.
pub fn move_priority(mv: shakmaty::Move) -> i32 {
    let victim = mv.capture().map_or(0, |role| value(role) * 10);
    let attacker = if mv.is_capture() {
        value(mv.role()) / 100
    } else {
        0
    };
    let promotion = mv.promotion().map_or(0, value);
    victim - attacker + promotion
}

/// A piece's material value, the king's as large as any.
fn value(role: Role) -> i32 {
    match role {
        Role::King => 2000,
        role => MATERIAL[role as usize - 1],
    }
}

#[rustfmt::skip]
const MG_TABLES: [[i32; 64]; 6] = [
    [
          0,   0,   0,   0,   0,   0,  0,   0,
         98, 134,  61,  95,  68, 126, 34, -11,
         -6,   7,  26,  31,  65,  56, 25, -20,
        -14,  13,   6,  21,  23,  12, 17, -23,
        -27,  -2,  -5,  12,  17,   6, 10, -25,
        -26,  -4,  -4, -10,   3,   3, 33, -12,
        -35,  -1, -20, -23, -15,  24, 38, -22,
          0,   0,   0,   0,   0,   0,  0,   0,
    ],
    [
        -167, -89, -34, -49,  61, -97, -15, -107,
         -73, -41,  72,  36,  23,  62,   7,  -17,
         -47,  60,  37,  65,  84, 129,  73,   44,
          -9,  17,  19,  53,  37,  69,  18,   22,
         -13,   4,  16,  13,  28,  19,  21,   -8,
         -23,  -9,  12,  10,  19,  17,  25,  -16,
         -29, -53, -12,  -3,  -1,  18, -14,  -19,
        -105, -21, -58, -33, -17, -28, -19,  -23,
    ],
    [
        -29,   4, -82, -37, -25, -42,   7,  -8,
        -26,  16, -18, -13,  30,  59,  18, -47,
        -16,  37,  43,  40,  35,  50,  37,  -2,
         -4,   5,  19,  50,  37,  37,   7,  -2,
         -6,  13,  13,  26,  34,  12,  10,   4,
          0,  15,  15,  15,  14,  27,  18,  10,
          4,  15,  16,   0,   7,  21,  33,   1,
        -33,  -3, -14, -21, -13, -12, -39, -21,
    ],
    [
         32,  42,  32,  51, 63,  9,  31,  43,
         27,  32,  58,  62, 80, 67,  26,  44,
         -5,  19,  26,  36, 17, 45,  61,  16,
        -24, -11,   7,  26, 24, 35,  -8, -20,
        -36, -26, -12,  -1,  9, -7,   6, -23,
        -45, -25, -16, -17,  3,  0,  -5, -33,
        -44, -16, -20,  -9, -1, 11,  -6, -71,
        -19, -13,   1,  17, 16,  7, -37, -26,
    ],
    [
        -28,   0,  29,  12,  59,  44,  43,  45,
        -24, -39,  -5,   1, -16,  57,  28,  54,
        -13, -17,   7,   8,  29,  56,  47,  57,
        -27, -27, -16, -16,  -1,  17,  -2,   1,
         -9, -26,  -9, -10,  -2,  -4,   3,  -3,
        -14,   2, -11,  -2,  -5,   2,  14,   5,
        -35,  -8,  11,   2,   8,  15,  -3,   1,
         -1, -18,  -9,  10, -15, -25, -31, -50,
    ],
    [
        -65,  23,  16, -15, -56, -34,   2,  13,
         29,  -1, -20,  -7,  -8,  -4, -38, -29,
         -9,  24,   2, -16, -20,   6,  22, -22,
        -17, -20, -12, -27, -30, -25, -14, -36,
        -49,  -1, -27, -39, -46, -44, -33, -51,
        -14, -14, -22, -46, -44, -30, -15, -27,
          1,   7,  -8, -64, -43, -16,   9,   8,
        -15,  36,  12, -54,   8, -28,  24,  14,
    ],
];

#[rustfmt::skip]
const EG_TABLES: [[i32; 64]; 6] = [
    [
          0,   0,   0,   0,   0,   0,   0,   0,
        178, 173, 158, 134, 147, 132, 165, 187,
         94, 100,  85,  67,  56,  53,  82,  84,
         32,  24,  13,   5,  -2,   4,  17,  17,
         13,   9,  -3,  -7,  -7,  -8,   3,  -1,
          4,   7,  -6,   1,   0,  -5,  -1,  -8,
         13,   8,   8,  10,  13,   0,   2,  -7,
          0,   0,   0,   0,   0,   0,   0,   0,
    ],
    [
        -58, -38, -13, -28, -31, -27, -63, -99,
        -25,  -8, -25,  -2,  -9, -25, -24, -52,
        -24, -20,  10,   9,  -1,  -9, -19, -41,
        -17,   3,  22,  22,  22,  11,   8, -18,
        -18,  -6,  16,  25,  16,  17,   4, -18,
        -23,  -3,  -1,  15,  10,  -3, -20, -22,
        -42, -20, -10,  -5,  -2, -20, -23, -44,
        -29, -51, -23, -15, -22, -18, -50, -64,
    ],
    [
        -14, -21, -11,  -8, -7,  -9, -17, -24,
         -8,  -4,   7, -12, -3, -13,  -4, -14,
          2,  -8,   0,  -1, -2,   6,   0,   4,
         -3,   9,  12,   9, 14,  10,   3,   2,
         -6,   3,  13,  19,  7,  10,  -3,  -9,
        -12,  -3,   8,  10, 13,   3,  -7, -15,
        -14, -18,  -7,  -1,  4,  -9, -15, -27,
        -23,  -9, -23,  -5, -9, -16,  -5, -17,
    ],
    [
        13, 10, 18, 15, 12,  12,   8,   5,
        11, 13, 13, 11, -3,   3,   8,   3,
         7,  7,  7,  5,  4,  -3,  -5,  -3,
         4,  3, 13,  1,  2,   1,  -1,   2,
         3,  5,  8,  4, -5,  -6,  -8, -11,
        -4,  0, -5, -1, -7, -12,  -8, -16,
        -6, -6,  0,  2, -9,  -9, -11,  -3,
        -9,  2,  3, -1, -5, -13,   4, -20,
    ],
    [
         -9,  22,  22,  27,  27,  19,  10,  20,
        -17,  20,  32,  41,  58,  25,  30,   0,
        -20,   6,   9,  49,  47,  35,  19,   9,
          3,  22,  24,  45,  57,  40,  57,  36,
        -18,  28,  19,  47,  31,  34,  39,  23,
        -16, -27,  15,   6,   9,  17,  10,   5,
        -22, -23, -30, -16, -16, -23, -36, -32,
        -33, -28, -22, -43,  -5, -32, -20, -41,
    ],
    [
        -74, -35, -18, -18, -11,  15,   4, -17,
        -12,  17,  14,  17,  17,  38,  23,  11,
         10,  17,  23,  15,  20,  45,  44,  13,
         -8,  22,  24,  27,  26,  33,  26,   3,
        -18,  -4,  21,  24,  27,  23,   9, -11,
        -19,  -3,  11,  21,  23,  16,   7,  -9,
        -27, -11,   4,  13,  14,   4,  -5, -17,
        -53, -34, -21, -11, -28, -14, -24, -43,
    ],
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_is_level_and_the_scale_inverts() {
        let start = shakmaty::Chess::default();
        assert_eq!(material(&start), 0);
        assert_eq!(pesto(&start), 0);
        for cp in [-900, -35, 0, 1, 250, 1200] {
            assert_eq!(centipawns(winning_chances(cp)), cp);
        }
        assert!((winning_chances(100) - 0.182).abs() < 0.001);
    }
}
