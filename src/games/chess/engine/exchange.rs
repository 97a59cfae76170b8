//! Static exchange evaluation: what a capture wins once every piece that bears on its square
//! has recaptured, least valuable first, each side free to stop when going on would lose.
//!
//! It looks at one square and no further (pins and checks elsewhere are ignored), which makes
//! it cheap enough to judge every capture: a capture that loses material by exchange is
//! searched after the quiet moves, and near the horizon not at all.

use shakmaty::{Bitboard, Color, Move, Position, Role};

use crate::search::engine::swap_list;

/// What each piece is worth in an exchange, pawn to king; the king's value makes taking it
/// (capturing into a defended square with the king) end the exchange as a loss.
const VALUE: [i32; 6] = [100, 320, 330, 500, 900, 20_000];

pub(super) fn value(role: Role) -> i32 {
    VALUE[role as usize - 1]
}

/// The material `mv` wins for the side to move, in centipawns, once the exchange on its
/// square is over.
pub(super) fn exchange(position: &shakmaty::Chess, mv: Move) -> i32 {
    let Some(from) = mv.from() else { return 0 };
    let to = mv.to();
    let board = position.board();
    let mut occupied = board.occupied() ^ Bitboard::from(from);
    let mut gains = [0; 32];
    gains[0] = mv.capture().map_or(0, value);
    let mut on_square = mv.role();
    if let Some(promoted) = mv.promotion() {
        gains[0] += value(promoted) - value(Role::Pawn);
        on_square = promoted;
    }
    if let Move::EnPassant { .. } = mv {
        occupied ^= Bitboard::from(shakmaty::Square::from_coords(to.file(), from.rank()));
    }
    let mut side: Color = !position.turn();
    let mut depth = 0;
    loop {
        // Pieces already used are gone from `occupied`, which also lets the sliders behind
        // them (x-rays) through.
        let attackers = board.attacks_to(to, side, occupied) & occupied;
        let Some((role, square)) = least_valuable(board, attackers) else {
            break;
        };
        depth += 1;
        // Each gain is what the side capturing now would have if the exchange stopped after
        // its capture: the piece it takes, less what the other side had.
        gains[depth] = value(on_square) - gains[depth - 1];
        if depth == gains.len() - 1 {
            break;
        }
        occupied ^= Bitboard::from(square);
        on_square = role;
        side = !side;
    }
    // Back from the end: each side takes the better of capturing and standing pat.
    swap_list::settle(&mut gains, depth)
}

fn least_valuable(
    board: &shakmaty::Board,
    attackers: Bitboard,
) -> Option<(Role, shakmaty::Square)> {
    Role::ALL.into_iter().find_map(|role| {
        (attackers & board.by_role(role))
            .first()
            .map(|square| (role, square))
    })
}

#[cfg(test)]
mod tests {
    use shakmaty::fen::Fen;
    use shakmaty::uci::UciMove;
    use shakmaty::{CastlingMode, Chess};

    use super::exchange;

    fn see(fen: &str, uci: &str) -> i32 {
        let position: Chess = fen
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        let mv = uci.parse::<UciMove>().unwrap().to_move(&position).unwrap();
        exchange(&position, mv)
    }

    #[test]
    fn an_undefended_piece_is_won_whole() {
        assert_eq!(
            see("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "e1e5"),
            100
        );
    }

    #[test]
    fn a_defended_pawn_taken_by_a_knight_loses_the_knight_for_it() {
        // The e5 pawn is defended by the d6 pawn: knight for pawn.
        assert_eq!(
            see("4k3/8/3p4/4p3/8/5N2/8/4K3 w - - 0 1", "f3e5"),
            100 - 320
        );
    }

    #[test]
    fn x_rays_join_the_exchange() {
        // Rook takes on e5 with a second rook behind it; Black defends with one rook: White
        // wins the pawn, loses a rook for a rook.
        assert_eq!(see("4r1k1/8/8/4p3/8/8/4R3/4R1K1 w - - 0 1", "e2e5"), 100);
        // Without the second rook the capture loses the rook for a pawn.
        assert_eq!(
            see("4r1k1/8/8/4p3/8/8/4R3/6K1 w - - 0 1", "e2e5"),
            100 - 500
        );
    }

    #[test]
    fn a_side_may_stop_rather_than_recapture_at_a_loss() {
        // Queen takes a pawn defended by a pawn: the queen is lost for it.
        assert_eq!(
            see("4k3/8/3p4/4p3/8/8/4Q3/4K3 w - - 0 1", "e2e5"),
            100 - 900
        );
        // Pawn takes a knight defended by the queen, which takes back: knight for pawn.
        assert_eq!(see("4k3/8/4q3/3n4/4P3/8/8/7K w - - 0 1", "e4d5"), 320 - 100);
        // With a bishop behind the pawn, taking back would lose the queen: Black stops.
        assert_eq!(see("4k3/8/4q3/3n4/4P3/1B6/8/7K w - - 0 1", "e4d5"), 320);
    }
}
