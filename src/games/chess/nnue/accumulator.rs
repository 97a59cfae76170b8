//! The first layer's sums, kept from position to position.
//!
//! Chess's moves as the inputs they turn off and on ([`crate::learn::nnue::accumulator`]): a
//! quiet move turns one off (the piece on its square) and one on (the piece on its new
//! square); a capture also turns off the captured piece; castling moves two pieces; a
//! promotion turns on a piece of another role.

use shakmaty::{Board, CastlingSide, Color, Move, Role, Square};

pub use crate::learn::nnue::Changes;

use super::{Accumulator, HIDDEN, Network, input};

/// A search's sums along its line.
pub type Stack = crate::learn::nnue::Stack<HIDDEN>;

/// A piece on a square, in both sides' views.
fn seen(color: Color, role: Role, square: Square) -> [u16; 2] {
    [Color::White, Color::Black].map(|perspective| input(perspective, color, role, square) as u16)
}

/// The sums of `board`'s pieces, computed afresh.
pub fn of(network: &Network, board: &Board) -> Accumulator {
    Accumulator::of(
        network,
        board
            .clone()
            .into_iter()
            .map(|(square, piece)| seen(piece.color, piece.role, square)),
    )
}

/// What `mv`, made by `turn`, changes.
pub fn changes(turn: Color, mv: &Move) -> Changes {
    let mut changes = Changes::NONE;
    let them = turn.other();
    match *mv {
        Move::Normal {
            role,
            from,
            capture,
            to,
            promotion,
        } => {
            changes.turn_off(seen(turn, role, from));
            changes.turn_on(seen(turn, promotion.unwrap_or(role), to));
            if let Some(victim) = capture {
                changes.turn_off(seen(them, victim, to));
            }
        }
        Move::EnPassant { from, to } => {
            changes.turn_off(seen(turn, Role::Pawn, from));
            changes.turn_on(seen(turn, Role::Pawn, to));
            // The pawn taken stands beside the capturer, on the square it passed over.
            let passed = Square::from_coords(to.file(), from.rank());
            changes.turn_off(seen(them, Role::Pawn, passed));
        }
        Move::Castle { king, rook } => {
            // shakmaty writes castling as the king taking its own rook (Chess960's way).
            let side = CastlingSide::from_king_side(king < rook);
            changes.turn_off(seen(turn, Role::King, king));
            changes.turn_off(seen(turn, Role::Rook, rook));
            changes.turn_on(seen(turn, Role::King, side.king_to(turn)));
            changes.turn_on(seen(turn, Role::Rook, side.rook_to(turn)));
        }
        Move::Put { role, to } => changes.turn_on(seen(turn, role, to)),
    }
    changes
}

#[cfg(test)]
mod tests {
    use rand::{RngExt, SeedableRng};
    use shakmaty::{Chess, Position};

    use super::*;
    use crate::games::chess::nnue::INPUTS;
    use crate::search::SearchRng;

    #[test]
    fn sums_kept_move_by_move_are_the_sums_computed_afresh() {
        assert_eq!(Network::zeros().w1.len(), INPUTS);
        let mut rng = SearchRng::seed_from_u64(3);
        let network = Network::random(&mut rng);
        let (mut castles, mut en_passants, mut promotions) = (0, 0, 0);
        for _ in 0..200 {
            let mut position = Chess::default();
            let mut stack = Stack::new(of(&network, position.board()), 400);
            for ply in 0..300 {
                let moves = position.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let mv = moves[rng.random_range(0..moves.len())];
                castles += usize::from(mv.is_castle());
                en_passants += usize::from(mv.is_en_passant());
                promotions += usize::from(mv.is_promotion());
                stack.push(ply + 1, changes(position.turn(), &mv));
                position.play_unchecked(mv);
                // Every other ply is left for the next to bring up to date, as a search's
                // cut nodes are.
                if ply % 2 == 1 {
                    let kept = *stack.at(&network, ply + 1);
                    assert_eq!(kept, of(&network, position.board()), "{mv:?}");
                    let mover = super::super::side(position.turn());
                    assert_eq!(
                        network.evaluate(&kept, mover),
                        network.evaluate(&of(&network, position.board()), mover)
                    );
                }
            }
        }
        assert!(castles > 0 && en_passants > 0 && promotions > 0);
    }

    #[test]
    fn a_net_reads_back_as_it_was_written() {
        let network = Network::random(&mut SearchRng::seed_from_u64(5));
        assert_eq!(Network::read(&network.to_bytes()).unwrap(), network);
        let mut wrong = network.to_bytes();
        wrong.pop();
        assert!(
            Network::read(&wrong)
                .unwrap_err()
                .to_string()
                .contains("hidden neurons")
        );
        assert!(
            Network::read(b"PK\x03\x04")
                .unwrap_err()
                .to_string()
                .contains("SENTENN1")
        );
        assert!(crate::games::chess::nnue::shipped().w1.len() == INPUTS);
    }
}
