//! Zobrist keys of chess positions, kept up to date move by move.
//!
//! The key is shakmaty's Zobrist hash with the en passant file counted only when an en passant
//! capture is legal, as the repetition rule counts positions (FIDE 9.2: the same position is
//! the same pieces, side to move, castling rights and possible captures). shakmaty updates its
//! hash for simple moves only; king moves, castling and double pawn steps (a third of the
//! moves of an opening) would recompute it from the whole board, so the update is done here
//! for every move: the piece squares that changed, the castling rights that changed, and the
//! en passant files before and after.

use shakmaty::zobrist::{Zobrist64, ZobristValue};
use shakmaty::{CastlingSide, Color, EnPassantMode, Move, Position, Role, Square};

/// The key of `position`, from scratch.
pub(super) fn of(position: &shakmaty::Chess) -> u64 {
    position.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// The key of `after`, the position `mv` leads to from `before`, whose key is `key`.
pub(super) fn after(before: &shakmaty::Chess, key: u64, mv: Move, after: &shakmaty::Chess) -> u64 {
    let piece = |square: Square, role: Role, color: Color| {
        Zobrist64::zobrist_for_piece(square, role.of(color))
    };
    let us = before.turn();
    let mut key = Zobrist64(key) ^ Zobrist64::zobrist_for_white_turn();
    match mv {
        Move::Normal {
            role,
            from,
            capture,
            to,
            promotion,
        } => {
            key ^= piece(from, role, us);
            key ^= piece(to, promotion.unwrap_or(role), us);
            if let Some(captured) = capture {
                key ^= piece(to, captured, !us);
            }
        }
        Move::EnPassant { from, to } => {
            key ^= piece(from, Role::Pawn, us);
            key ^= piece(to, Role::Pawn, us);
            key ^= piece(Square::from_coords(to.file(), from.rank()), Role::Pawn, !us);
        }
        Move::Castle { king, rook } => {
            let side = CastlingSide::from_queen_side(rook < king);
            key ^= piece(king, Role::King, us);
            key ^= piece(rook, Role::Rook, us);
            key ^= piece(side.king_to(us), Role::King, us);
            key ^= piece(side.rook_to(us), Role::Rook, us);
        }
        // Drops are crazyhouse's, never chess's.
        Move::Put { .. } => return of(after),
    }
    let (old, new) = (before.castles(), after.castles());
    if old.castling_rights() != new.castling_rights() {
        for color in Color::ALL {
            for side in CastlingSide::ALL {
                if old.has(color, side) != new.has(color, side) {
                    key ^= Zobrist64::zobrist_for_castling_right(color, side);
                }
            }
        }
    }
    // Only after a double step is there an en passant square, so both checks are rare.
    for position in [before, after] {
        if position.maybe_ep_square().is_some()
            && let Some(square) = position.legal_ep_square()
        {
            key ^= Zobrist64::zobrist_for_en_passant_file(square.file());
        }
    }
    key.0
}
