//! Static exchange evaluation for shogi: what a move wins or loses in material once both sides
//! have taken on its square as long as taking pays, each side free to stop.
//!
//! What differs from chess's (`games::chess::engine::exchange`):
//! - a piece taken changes sides: the taker gains it in hand as the taken side loses it from
//!   the board, so a capture is worth the piece on the board plus the piece in hand (a
//!   promoted piece is taken as what it is, and goes to the hand unpromoted);
//! - a piece that takes into, out of or within its promotion zone is counted promoted (where
//!   it may promote, it gains by it: a promoted piece is worth more, and promoting loses
//!   nothing the exchange sees), the promotion's worth added to its capture;
//! - drops cannot take, so the pieces in hand never join an exchange; a drop is weighed as any
//!   move is, by what the other side takes on its square. (That a piece in hand may come back to
//!   defend the square later is the search's to see, not this count's.)
//!
//! Values are the evaluation's ([`VALUES`]), in the network's and the evaluation's units.

use rsshogi::board::Position;
use rsshogi::types::square::is_promotable_move;
use rsshogi::types::{Bitboard, Color, Move32, Piece, PieceType, Square};

use super::evaluation::VALUES;
use crate::search::engine::swap_list;

/// The pieces an exchange takes with, least valuable first: the taker that costs least if it
/// is taken back. The king comes last, and only where no taker is left to take it.
const TAKERS: [PieceType; 14] = [
    PieceType::PAWN,
    PieceType::LANCE,
    PieceType::KNIGHT,
    PieceType::SILVER,
    PieceType::GOLD,
    PieceType::PRO_PAWN,
    PieceType::PRO_LANCE,
    PieceType::PRO_KNIGHT,
    PieceType::PRO_SILVER,
    PieceType::BISHOP,
    PieceType::HORSE,
    PieceType::ROOK,
    PieceType::DRAGON,
    PieceType::KING,
];

/// What taking a piece of `kind` is worth to the taker: the other side loses it from the board
/// and the taker has it in hand, unpromoted.
pub(super) fn taken(kind: PieceType) -> i32 {
    VALUES[kind.to_index()] + VALUES[kind.demote().to_index()]
}

/// What promoting a piece of `kind` adds (nothing for a piece that cannot promote).
fn promotion(kind: PieceType) -> i32 {
    VALUES[kind.promote().to_index()] - VALUES[kind.to_index()]
}

/// What `mv` wins (positive) or loses (negative) once the exchanges on its square are over,
/// for the side that plays it in `position`.
pub(super) fn exchange(position: &Position, mv: Move32) -> i32 {
    let to = mv.to_sq();
    let mut occupied = position.bitboards().occupied();
    let mut gains = [0; 40];
    let victim = if mv.is_drop() {
        Piece::NONE
    } else {
        position.piece_on(to)
    };
    if victim != Piece::NONE {
        gains[0] = taken(victim.piece_type());
    }
    let mut on_square = mv.piece_after_move().piece_type();
    // A drop leaves no square: its piece comes from the hand.
    if !mv.is_drop() {
        occupied ^= Bitboard::from_square(mv.from_sq());
        if mv.is_promotion() {
            gains[0] += promotion(on_square.demote());
        }
    }
    occupied |= Bitboard::from_square(to);
    let mut side = position.turn().flip();
    let mut depth = 0;
    loop {
        // Pieces already used are gone from `occupied`, which also lets the sliders behind
        // them (x-rays, a lance behind a rook) through.
        let attackers = position.attackers_to_color(side, to, occupied) & occupied;
        let Some((kind, from)) = least_valuable(position, side, attackers) else {
            break;
        };
        if kind == PieceType::KING {
            // The king takes only where nothing takes it back.
            let defenders = position.attackers_to_color(
                side.flip(),
                to,
                occupied ^ Bitboard::from_square(from),
            ) & occupied;
            if !defenders.is_empty() {
                break;
            }
        }
        depth += 1;
        let promotes = kind.is_promotable() && is_promotable_move(side, from, to);
        let gain = taken(on_square) + if promotes { promotion(kind) } else { 0 };
        // Each gain is what the side taking now would have if the exchange stopped after its
        // capture: what it takes, less what the other side had.
        gains[depth] = gain - gains[depth - 1];
        if depth == gains.len() - 1 {
            break;
        }
        occupied ^= Bitboard::from_square(from);
        on_square = if promotes { kind.promote() } else { kind };
        side = side.flip();
    }
    // Back from the end: each side takes the better of capturing and standing pat.
    swap_list::settle(&mut gains, depth)
}

/// The least valuable of `side`'s `attackers`, its kind and square.
fn least_valuable(
    position: &Position,
    side: Color,
    attackers: Bitboard,
) -> Option<(PieceType, Square)> {
    if attackers.is_empty() {
        return None;
    }
    TAKERS.iter().find_map(|&kind| {
        (position.pieces_for(kind, side) & attackers)
            .lsb()
            .map(|square| (kind, square))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The exchange of the move written `usi` (as USI writes it) in the position `sfen`.
    fn see(sfen: &str, usi: &str) -> i32 {
        let position = Position::from_sfen(sfen).unwrap();
        let mv = position.move32_from_usi(usi).unwrap();
        assert!(position.is_legal_move32(mv), "{usi} in {sfen}");
        exchange(&position, mv)
    }

    const PAWN: i32 = 90;
    const SILVER: i32 = 495;
    const GOLD: i32 = 540;
    const LANCE: i32 = 315;
    const ROOK: i32 = 990;
    const PROMOTED_SILVER: i32 = 540;

    #[test]
    fn a_piece_taken_is_lost_from_the_board_and_gained_in_hand() {
        // The pawn on 5f takes the lone silver on 5e: Gote loses a silver, Sente has one.
        assert_eq!(see("4k4/9/9/9/4s4/4P4/9/9/4K4 b - 1", "5f5e"), 2 * SILVER);
    }

    #[test]
    fn a_silver_for_a_defended_pawn_loses_the_silver_for_the_pawn() {
        // The gold on 5d takes the silver back.
        assert_eq!(
            see("4k4/9/9/4g4/4p4/4S4/9/9/4K4 b - 1", "5f5e"),
            2 * PAWN - 2 * SILVER
        );
    }

    #[test]
    fn a_taker_that_may_promote_is_counted_promoted() {
        // The gold takes the pawn on 5g, inside Gote's zone; the silver on 4f takes the gold
        // back, and promotes: Sente loses the gold and Gote's silver gains its promotion.
        assert_eq!(
            see("4k4/9/9/9/9/5s3/4p4/4G4/4K4 b - 1", "5h5g"),
            2 * PAWN - 2 * GOLD - (PROMOTED_SILVER - SILVER)
        );
    }

    #[test]
    fn a_promoted_piece_is_taken_as_itself_and_goes_to_the_hand_unpromoted() {
        // The tokin on 5e is worth a gold on the board and a pawn in hand.
        assert_eq!(see("4k4/9/9/9/4+p4/4P4/9/9/4K4 b - 1", "5f5e"), 540 + PAWN);
    }

    #[test]
    fn x_rays_join_the_exchange() {
        // The lance takes the pawn on 1c, Gote's lance takes it back, and the rook behind
        // Sente's lance takes that, promoting to a dragon: a pawn up, a lance for a lance.
        assert_eq!(see("4k3l/9/8p/9/9/9/9/8L/4K3R b - 1", "1h1c"), 2 * PAWN);
        // Without the rook the lance is lost for the pawn.
        assert_eq!(
            see("4k3l/9/8p/9/9/9/9/8L/4K4 b - 1", "1h1c"),
            2 * PAWN - 2 * LANCE
        );
    }

    #[test]
    fn a_drop_is_weighed_by_what_takes_it() {
        // A gold dropped where Gote's pawn takes it, with nothing to take back: lost whole.
        assert_eq!(see("4k4/9/9/4p4/9/9/9/9/4K4 b G 1", "G*5e"), -2 * GOLD);
        // With Sente's pawn behind to take the pawn back: a gold for a pawn.
        assert_eq!(
            see("4k4/9/9/4p4/9/4P4/9/9/4K4 b G 1", "G*5e"),
            2 * PAWN - 2 * GOLD
        );
        // Where nothing attacks it, nothing is lost.
        assert_eq!(see("4k4/9/9/4p4/9/9/9/9/4K4 b G 1", "G*2e"), 0);
    }

    #[test]
    fn the_king_takes_only_what_is_not_defended() {
        // Gote's king on 5a may take a silver on 5b only where nothing defends it.
        assert_eq!(see("4k4/9/9/9/9/9/9/9/4K4 b S 1", "S*5b"), -2 * SILVER);
        // Defended by the gold on 4c, the silver stays: nothing is lost.
        assert_eq!(see("4k4/9/5G3/9/9/9/9/9/4K4 b S 1", "S*5b"), 0);
    }

    #[test]
    fn a_promotion_adds_its_worth_and_the_promoted_piece_is_what_is_taken_back() {
        // The pawn takes Gote's rook on 2c and promotes; the gold on 2b takes the tokin back:
        // a rook won for a pawn, the promotion's worth lost with the tokin.
        assert_eq!(
            see("4k4/7g1/7r1/7P1/9/9/9/9/4K4 b - 1", "2d2c+"),
            2 * ROOK - (540 + PAWN) + (540 - PAWN)
        );
    }
}
