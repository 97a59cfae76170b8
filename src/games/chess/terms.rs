//! The engine's evaluation terms beyond PeSTO's tables, each a middlegame and an endgame
//! value for White, tapered with the tables' ([`evaluation::engine`](super::evaluation::engine)).
//!
//! PeSTO's tables know where each piece stands, not what it does there. These terms add what
//! the pieces do to each other: how freely they move (mobility), whether the pawns can be
//! stopped (passed pawns) or are weak (doubled, isolated), the bishop pair, rooks on open
//! files, and the shelter and attackers around each king. Their weights are classical
//! hand-set values of the size small engines use; each is centipawns.

use shakmaty::attacks::{
    bishop_attacks, king_attacks, knight_attacks, pawn_attacks, queen_attacks, rook_attacks,
};
use shakmaty::{Bitboard, Board, Color, File, Role, Square};

/// Per square a piece attacks beyond the usual number (the offset), not counting squares of
/// its own side's pieces or attacked by the other side's pawns: knight, bishop, rook, queen.
const MOBILITY_MG: [i32; 4] = [4, 5, 2, 1];
const MOBILITY_EG: [i32; 4] = [4, 5, 4, 2];
const MOBILITY_OFFSET: [i32; 4] = [4, 6, 6, 12];

/// A passed pawn by its rank from its own side (0 is the first rank).
const PASSED_MG: [i32; 8] = [0, 5, 5, 10, 20, 35, 60, 0];
const PASSED_EG: [i32; 8] = [0, 10, 15, 25, 45, 75, 120, 0];

const DOUBLED: (i32, i32) = (-10, -20);
const ISOLATED: (i32, i32) = (-10, -12);
const BISHOP_PAIR: (i32, i32) = (25, 50);
const ROOK_OPEN_FILE: (i32, i32) = (25, 10);
const ROOK_HALF_OPEN_FILE: (i32, i32) = (12, 5);
/// Each own pawn in the three files in front of the king, one or two ranks ahead.
const SHELTER: i32 = 12;
/// How much a piece attacking the squares around the other king weighs: knight, bishop,
/// rook, queen. The penalty grows with the square of the weights summed, since one attacker
/// is rarely a danger and several together are.
const KING_ATTACK_WEIGHT: [i32; 4] = [2, 2, 3, 5];
const KING_ATTACK_MAX: i32 = 300;

/// The terms for White less the terms for Black: (middlegame, endgame).
pub(super) fn white(board: &Board) -> (i32, i32) {
    let (white_mg, white_eg) = side(board, Color::White);
    let (black_mg, black_eg) = side(board, Color::Black);
    (white_mg - black_mg, white_eg - black_eg)
}

fn side(board: &Board, us: Color) -> (i32, i32) {
    let them = !us;
    let occupied = board.occupied();
    let ours = board.by_color(us);
    let our_pawns = board.pawns() & ours;
    let their_pawns = board.pawns() & board.by_color(them);
    let mut their_pawn_attacks = Bitboard::EMPTY;
    for square in their_pawns {
        their_pawn_attacks |= pawn_attacks(them, square);
    }
    let (mut mg, mut eg) = (0, 0);
    let mut add = |(m, e): (i32, i32)| {
        mg += m;
        eg += e;
    };

    // Mobility, and the attacks on the squares around the other king.
    let their_king = board.king_of(them);
    let king_zone = their_king.map_or(Bitboard::EMPTY, king_attacks);
    let free = !ours & !their_pawn_attacks;
    let mut attack_weight = 0;
    let mut attackers = 0;
    for (index, role) in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
        .into_iter()
        .enumerate()
    {
        for square in board.by_role(role) & ours {
            let attacks = match role {
                Role::Knight => knight_attacks(square),
                Role::Bishop => bishop_attacks(square, occupied),
                Role::Rook => rook_attacks(square, occupied),
                _ => queen_attacks(square, occupied),
            };
            let moves = (attacks & free).count() as i32 - MOBILITY_OFFSET[index];
            add((MOBILITY_MG[index] * moves, MOBILITY_EG[index] * moves));
            let near_king = (attacks & king_zone).count() as i32;
            if near_king > 0 {
                attackers += 1;
                attack_weight += KING_ATTACK_WEIGHT[index] * near_king;
            }
        }
    }
    // A lone attacker is no attack.
    if attackers >= 2 {
        add(((attack_weight * attack_weight / 8).min(KING_ATTACK_MAX), 0));
    }

    // Pawn structure.
    for square in our_pawns {
        let file = square.file();
        let file_mask = Bitboard::from_file(file);
        let beside = neighbour_files(file);
        if (our_pawns & beside).is_empty() {
            add(ISOLATED);
        }
        let ahead = ranks_ahead(us, square);
        if (our_pawns & file_mask & ahead).any() {
            add(DOUBLED);
        }
        if (their_pawns & (file_mask | beside) & ahead).is_empty()
            && (our_pawns & file_mask & ahead).is_empty()
        {
            let rank = u32::from(square.rank());
            let rank = us.fold_wb(rank, 7 - rank) as usize;
            add((PASSED_MG[rank], PASSED_EG[rank]));
        }
    }

    if (board.bishops() & ours).count() >= 2 {
        add(BISHOP_PAIR);
    }
    for square in board.rooks() & ours {
        let file = Bitboard::from_file(square.file());
        if (file & board.pawns()).is_empty() {
            add(ROOK_OPEN_FILE);
        } else if (file & our_pawns).is_empty() {
            add(ROOK_HALF_OPEN_FILE);
        }
    }

    // The pawns sheltering our own king, worth something only while there are pieces to
    // attack it.
    if let Some(king) = board.king_of(us) {
        let files = Bitboard::from_file(king.file()) | neighbour_files(king.file());
        let ranks = ranks_ahead(us, king) & !ranks_ahead(us, king_two_ahead(us, king));
        add((SHELTER * (our_pawns & files & ranks).count() as i32, 0));
    }
    (mg, eg)
}

fn neighbour_files(file: File) -> Bitboard {
    let mut files = Bitboard::EMPTY;
    if let Some(left) = file.offset(-1) {
        files |= Bitboard::from_file(left);
    }
    if let Some(right) = file.offset(1) {
        files |= Bitboard::from_file(right);
    }
    files
}

/// The squares on the ranks ahead of `square`, as `color` moves.
fn ranks_ahead(color: Color, square: Square) -> Bitboard {
    let rank = u32::from(square.rank());
    match color {
        Color::White if rank < 7 => Bitboard(!0u64 << (8 * (rank + 1))),
        Color::Black if rank > 0 => Bitboard(!0u64 >> (8 * (8 - rank))),
        _ => Bitboard::EMPTY,
    }
}

/// The square two ranks ahead of the king (or the last rank), which bounds its shelter.
fn king_two_ahead(color: Color, king: Square) -> Square {
    let rank = u32::from(king.rank()) as i32 + color.fold_wb(2, -2);
    let rank = rank.clamp(0, 7) as u32;
    Square::from_coords(king.file(), shakmaty::Rank::new(rank))
}

#[cfg(test)]
mod tests {
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Chess, EnPassantMode, FromSetup, Position};

    use super::white;
    use crate::games::chess::evaluation;

    fn position(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    }

    /// The same position with the colours swapped and the board mirrored.
    fn mirrored(position: &Chess) -> Chess {
        let setup = position.to_setup(EnPassantMode::Legal).into_mirrored();
        Chess::from_setup(setup, CastlingMode::Standard).unwrap()
    }

    const POSITIONS: [&str; 4] = [
        "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 9",
        "8/5pk1/6p1/3P4/1p6/1P4P1/5PK1/8 b - - 0 40",
        "r4rk1/1pq2ppp/p1n1b3/4N3/3Q4/2P5/PP3PPP/R3R1K1 w - - 0 17",
        "2kr3r/ppp2ppp/2n5/8/1bB5/2N5/PPP2PPP/R3K2R w KQ - 0 12",
    ];

    #[test]
    fn the_terms_see_both_sides_alike() {
        for fen in POSITIONS {
            let position = position(fen);
            let (mg, eg) = white(position.board());
            let (mirrored_mg, mirrored_eg) = white(mirrored(&position).board());
            assert_eq!((mg, eg), (-mirrored_mg, -mirrored_eg), "{fen}");
            // The side to move sees the same value from either side of the board.
            assert_eq!(
                evaluation::engine(&position),
                evaluation::engine(&mirrored(&position)),
                "{fen}"
            );
        }
    }

    #[test]
    fn a_passed_pawn_far_advanced_is_worth_more_in_the_endgame() {
        // White's d-pawn is passed on the sixth rank; Black has no pawn to stop it.
        let passed = position("6k1/8/3P4/8/8/8/8/6K1 w - - 0 1");
        let blocked = position("6k1/3p4/3P4/8/8/8/8/6K1 w - - 0 1");
        let (_, passed_eg) = white(passed.board());
        let (_, blocked_eg) = white(blocked.board());
        assert!(passed_eg > 50, "{passed_eg}");
        assert!(passed_eg > blocked_eg + 50, "{passed_eg} {blocked_eg}");
    }
}
