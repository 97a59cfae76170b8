//! Reading a FEN, with errors that say what is wrong.
//!
//! shakmaty reads FEN and judges positions, but says only which part it could not read
//! ("invalid board part"). The fields are checked here first, so that the answer can name the
//! rank, the letter or the missing field; what makes a position impossible (kings, pawns on the
//! back ranks, castling rights, en passant, check) comes from shakmaty's verdict, in words.

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Color, PositionErrorKinds, Role};

use crate::game::BoardError;

/// Longer than any FEN: eight full ranks, castling rights and both clocks fit in 90 characters.
const MAX_LENGTH: usize = 100;

const FIELDS: [&str; 6] = [
    "the board",
    "the side to move",
    "the castling rights",
    "the en passant square",
    "the halfmove clock",
    "the move number",
];

fn invalid(message: String) -> BoardError {
    BoardError::Notation(message)
}

/// The position a FEN describes.
pub(super) fn read(text: &str) -> Result<shakmaty::Chess, BoardError> {
    let text = text.trim();
    if text.len() > MAX_LENGTH {
        return Err(invalid(format!(
            "a FEN is at most {MAX_LENGTH} characters; this one has {}",
            text.len()
        )));
    }
    if let Some(found) = text.chars().find(|c| !c.is_ascii() || c.is_ascii_control()) {
        return Err(invalid(format!("a FEN has no character {found:?}")));
    }
    let fields: Vec<&str> = text.split_ascii_whitespace().collect();
    if fields.len() < 4 {
        let missing = FIELDS[fields.len()..4].join(", ");
        return Err(invalid(format!(
            "a FEN has four fields and two optional clocks (board, side to move, castling, en \
             passant, halfmove clock, move number); this one has {}, missing {missing}",
            fields.len()
        )));
    }
    if fields.len() > 6 {
        return Err(invalid(format!(
            "a FEN has at most six fields; this one has {}",
            fields.len()
        )));
    }
    check_board(fields[0])?;
    if !matches!(fields[1], "w" | "b") {
        return Err(invalid(format!(
            "the side to move is \"w\" or \"b\", not {:?}",
            fields[1]
        )));
    }
    let castling = fields[2];
    if castling != "-" && !castling.chars().all(|c| "KQkqABCDEFGHabcdefgh".contains(c)) {
        return Err(invalid(format!(
            "castling rights are \"-\" or some of \"KQkq\", not {castling:?}"
        )));
    }
    let en_passant = fields[3];
    if en_passant != "-" {
        let bytes = en_passant.as_bytes();
        if bytes.len() != 2
            || !(b'a'..=b'h').contains(&bytes[0])
            || !matches!(bytes[1], b'3' | b'6')
        {
            return Err(invalid(format!(
                "the en passant square is \"-\" or a square on the third or sixth rank, not \
                 {en_passant:?}"
            )));
        }
    }
    for (index, clock) in fields.iter().enumerate().skip(4) {
        match clock.parse::<u32>() {
            Ok(value) if index == 5 && value == 0 => {
                return Err(invalid("the move number starts at 1, not 0".to_owned()));
            }
            Ok(_) => {}
            Err(_) => {
                return Err(invalid(format!(
                    "{} is a whole number, not {clock:?}",
                    FIELDS[index]
                )));
            }
        }
    }
    let fen = Fen::from_ascii(text.as_bytes())
        .map_err(|error| invalid(format!("this FEN cannot be read: {error}")))?;
    let kings = |color: Color| {
        (fen.as_setup().board.by_color(color) & fen.as_setup().board.kings()).count()
    };
    let (white_kings, black_kings) = (kings(Color::White), kings(Color::Black));
    fen.into_position(CastlingMode::Standard).map_err(|error| {
        let kinds = error.kinds();
        let reason = if kinds.contains(PositionErrorKinds::EMPTY_BOARD) {
            "the board is empty".to_owned()
        } else if kinds
            .intersects(PositionErrorKinds::MISSING_KING | PositionErrorKinds::TOO_MANY_KINGS)
        {
            format!(
                "each side has exactly one king, but White has {white_kings} and Black \
                 {black_kings}"
            )
        } else if kinds.contains(PositionErrorKinds::PAWNS_ON_BACKRANK) {
            "there are pawns on the first or last rank, where no pawn can stand".to_owned()
        } else if kinds.contains(PositionErrorKinds::OPPOSITE_CHECK) {
            "the side not to move is in check".to_owned()
        } else if kinds.contains(PositionErrorKinds::INVALID_CASTLING_RIGHTS) {
            "a castling right is given without its king and rook on their starting squares"
                .to_owned()
        } else if kinds.contains(PositionErrorKinds::INVALID_EP_SQUARE) {
            "the en passant square is impossible: no pawn of the side that just moved can \
             have passed it with a double step (the square and the one behind it must be \
             empty, the pawn just in front of it)"
                .to_owned()
        } else if kinds.contains(PositionErrorKinds::IMPOSSIBLE_CHECK) {
            "the check cannot have been given by a legal move (too many checkers, or checkers \
             no single move could reveal)"
                .to_owned()
        } else if kinds.contains(PositionErrorKinds::TOO_MUCH_MATERIAL) {
            "there is more material than promotions could give (at most 16 pieces a side, 8 of \
             them pawns or promoted)"
                .to_owned()
        } else {
            error.to_string()
        };
        BoardError::Impossible(reason)
    })
}

/// Checks the board field: eight ranks of eight squares, in FEN's letters.
fn check_board(board: &str) -> Result<(), BoardError> {
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != 8 {
        return Err(invalid(format!(
            "the board has {} ranks separated by '/'; a FEN gives 8, the eighth rank first",
            ranks.len()
        )));
    }
    for (index, rank) in ranks.iter().enumerate() {
        let number = 8 - index;
        let mut squares = 0;
        for c in rank.chars() {
            match c {
                '0'..='9' => squares += c as usize - '0' as usize,
                _ if Role::from_char(c.to_ascii_lowercase()).is_some() => squares += 1,
                // Crazyhouse's promoted-piece mark is not chess.
                _ => {
                    return Err(invalid(format!(
                        "rank {number} has {c:?}, which is not a piece: pieces are PNBRQK for \
                         White, pnbrqk for Black, and digits count empty squares"
                    )));
                }
            }
        }
        if squares != 8 {
            return Err(invalid(format!(
                "rank {number} has {squares} squares, not 8"
            )));
        }
    }
    Ok(())
}
