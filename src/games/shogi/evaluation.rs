//! What a shogi position is worth to the side to move, in centipawns (a pawn is 90, as
//! YaneuraOu counts): material, which the crate keeps move by move with pieces in hand counted
//! at their worth on the board and promoted pieces at theirs, and the safety of each king.
//!
//! Shogi's captured pieces change sides, so a capture swings material by twice the piece, and a
//! piece in hand can be dropped anywhere: it is worth a little more than the same piece on the
//! board ([`IN_HAND`]). A king is lost when the opponent's pieces gather beside it, with pieces
//! in hand to drop there; its own golds and silvers beside it are its defence ([`king_safety`]).

use rsshogi::board::Position;
use rsshogi::types::{Color, HandPiece, Move, Piece, PieceType, Square};

use super::Shogi;
use crate::game::Evaluation;

pub const EVALUATIONS: &[Evaluation<Shogi>] = &[
    Evaluation {
        name: "standard",
        description: "Material (pieces in hand counted, promoted pieces at their worth), a \
                      piece in hand's freedom, and each king's safety: its golds and silvers \
                      beside it, the enemy's pieces near it and in hand.",
        evaluate: |shogi| winning_chances(evaluate(shogi.position())),
    },
    Evaluation {
        name: "nnue",
        description: "A network learnt from Sente's own games: each side's pieces by square, \
                      promoted ones apart, and its hand by count (docs/shogi.md#the-network).",
        evaluate: |shogi| winning_chances(super::nnue::evaluate(shogi.position())),
    },
    Evaluation {
        name: "material",
        description: "Material alone, pieces in hand counted, as YaneuraOu values it.",
        evaluate: |shogi| winning_chances(material(shogi.position())),
    },
];

/// Centipawns to winning chances: the logistic that shogi engines share (600 centipawns, a
/// rook's worth, is a 73% expectation).
const SCALE: f64 = 1.0 / 600.0;

/// The side to move's winning chances in (-1, 1) for an advantage of `cp` centipawns.
pub fn winning_chances(cp: i32) -> f64 {
    2.0 / (1.0 + (-SCALE * f64::from(cp)).exp()) - 1.0
}

/// The advantage in centipawns that `score` (winning chances) stands for.
pub fn centipawns(score: f64) -> i32 {
    let score = score.clamp(-0.999_999, 0.999_999);
    (((1.0 + score) / (1.0 - score)).ln() / SCALE).round() as i32
}

/// A piece's worth on the board, by piece type (YaneuraOu's, which the crate keeps).
pub const VALUES: [i32; 16] = [
    0, 90, 315, 405, 495, 855, 990, 540, 15000, 540, 540, 540, 540, 945, 1395, 540,
];

/// What a piece in hand is worth beyond the same piece on the board, a tenth of it: it can go
/// anywhere.
const IN_HAND: i32 = 10;

/// The side to move's material: the crate's count (Sente's minus Gote's), turned.
pub fn material(position: &Position) -> i32 {
    let black = position.partial_keys().material_value;
    if position.turn() == Color::Black {
        black
    } else {
        -black
    }
}

/// The whole evaluation, for the side to move.
pub fn evaluate(position: &Position) -> i32 {
    // Sente's view until the end.
    let mut score = position.partial_keys().material_value;
    for (color, sign) in [(Color::Black, 1), (Color::White, -1)] {
        score += sign * (hand_freedom(position, color) + king_safety(position, color));
    }
    let tempo = 20;
    if position.turn() == Color::Black {
        score + tempo
    } else {
        -score + tempo
    }
}

/// The extra worth of `color`'s pieces in hand.
fn hand_freedom(position: &Position, color: Color) -> i32 {
    let hand = position.hand(color);
    HandPiece::iter()
        .map(|piece| {
            hand.count(piece).min(2) as i32 * VALUES[piece.to_piece_type().to_index()] / IN_HAND
        })
        .sum()
}

/// How safe `color`'s king is: golds and silvers beside it are worth a bonus, each enemy
/// piece within two squares a penalty, heavier for the strong ones and heavier again when the
/// enemy has pieces in hand to drop beside the king.
fn king_safety(position: &Position, color: Color) -> i32 {
    let king = position.king_square(color);
    if king.is_none() {
        return 0;
    }
    let mut defence = 0;
    let mut attack = 0;
    let enemy = color.flip();
    for square in near(king) {
        let piece = position.piece_on(square);
        if piece == Piece::NONE {
            continue;
        }
        let kind = piece.piece_type();
        if piece.color() == color {
            if matches!(
                kind,
                PieceType::GOLD
                    | PieceType::SILVER
                    | PieceType::PRO_PAWN
                    | PieceType::PRO_LANCE
                    | PieceType::PRO_KNIGHT
                    | PieceType::PRO_SILVER
            ) && king.distance(square) <= 1
            {
                defence += 1;
            }
        } else {
            attack += match kind {
                PieceType::PAWN => 1,
                PieceType::DRAGON | PieceType::HORSE | PieceType::ROOK | PieceType::BISHOP => 4,
                _ => 2,
            };
        }
    }
    let enemy_hand = position.hand(enemy);
    let droppable: u32 = [
        HandPiece::ROOK,
        HandPiece::BISHOP,
        HandPiece::GOLD,
        HandPiece::SILVER,
        HandPiece::KNIGHT,
    ]
    .iter()
    .map(|&piece| enemy_hand.count(piece))
    .sum();
    let attack = attack + attack.min(8) * droppable as i32 / 2;
    30 * defence.min(3) - 12 * attack - attack * attack / 2
}

/// The squares within two of `king`.
fn near(king: Square) -> impl Iterator<Item = Square> {
    let (file, rank) = (king.file().to_index() as i32, king.rank().to_index() as i32);
    (-2..=2).flat_map(move |df| {
        (-2..=2).filter_map(move |dr| {
            let (f, r) = (file + df, rank + dr);
            ((df, dr) != (0, 0) && (0..9).contains(&f) && (0..9).contains(&r))
                .then(|| Square::from_index((f * 9 + r) as usize))
        })
    })
}

/// Moves to try first when nothing better is known: captures of the most valuable piece, then
/// promotions.
pub fn move_priority(position: &Position, mv: Move) -> i32 {
    if mv.is_drop() || !mv.is_normal() {
        return 0;
    }
    let captured = position.piece_on(mv.to_sq());
    let capture = if captured == Piece::NONE {
        0
    } else {
        VALUES[captured.piece_type().to_index()]
    };
    capture + if mv.is_promotion() { 300 } else { 0 }
}
