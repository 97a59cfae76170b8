//! Reading what players write: SFEN boards, checked for positions no game reaches, and USI moves,
//! refused in a player's words (nifu, uchifuzume, a piece that could never move again) rather
//! than as "illegal".

use rsshogi::board::{Position, position_from_sfen};
use rsshogi::types::{Color, HandPiece, Move, Piece, PieceType, Rank, Square};

use super::{Shogi, ShogiMove};
use crate::game::{BoardError, MoveError, Rules};

/// A SFEN board, the move number optional; `startpos` is the start.
pub fn read_sfen(text: &str) -> Result<Position, BoardError> {
    let text = text.trim();
    let text = text.strip_prefix("sfen ").unwrap_or(text).trim();
    if text == "startpos" {
        return Ok(rsshogi::board::hirate_position());
    }
    let fields = text.split_whitespace().count();
    let full = match fields {
        3 => format!("{text} 1"),
        4 => text.to_owned(),
        _ => {
            return Err(BoardError::Notation(format!(
                "a SFEN has four fields, the board, the side to move, the pieces in hand and the \
                 move number (which may be left out), as \"{}\": this has {fields}",
                super::START
            )));
        }
    };
    let position = position_from_sfen(&full).map_err(|error| {
        BoardError::Notation(format!(
            "not a SFEN ({error}): the start is \"{}\"",
            super::START
        ))
    })?;
    check(&position)?;
    Ok(position)
}

/// How many of each piece a set holds, promoted ones counted as what they were: the board and
/// both hands together never hold more, since a capture only moves a piece to a hand. (The
/// crate's hands hold at most 3 rooks or bishops and 7 of the others: a position with more
/// than a set would overflow one at a capture.)
const SET: [(PieceType, u32, &str); 7] = [
    (PieceType::ROOK, 2, "rooks"),
    (PieceType::BISHOP, 2, "bishops"),
    (PieceType::GOLD, 4, "golds"),
    (PieceType::SILVER, 4, "silvers"),
    (PieceType::KNIGHT, 4, "knights"),
    (PieceType::LANCE, 4, "lances"),
    (PieceType::PAWN, 18, "pawns"),
];

/// Refuses what no game of shogi reaches: more of a piece than a set holds, a missing or extra
/// king, a piece that could never move again, two unpromoted pawns of a side on a file, the
/// side not to move in check.
fn check(position: &Position) -> Result<(), BoardError> {
    let impossible = |reason: String| Err(BoardError::Impossible(reason));
    for (piece, in_a_set, plural) in SET {
        let [sente, gote] = [Color::Black, Color::White].map(|color| {
            let on_board = Square::iter()
                .filter(|&square| {
                    let on = position.piece_on(square);
                    on != Piece::NONE && on.color() == color && on.piece_type().demote() == piece
                })
                .count() as u32;
            let in_hand = HandPiece::from_piece_type(piece)
                .map_or(0, |hand_piece| position.hand(color).count(hand_piece));
            on_board + in_hand
        });
        if sente + gote > in_a_set {
            return impossible(format!(
                "Sente has {sente} {} and Gote {gote}: a set has {in_a_set}, promoted ones \
                 and those in hand counted",
                if sente == 1 { name(piece) } else { plural }
            ));
        }
    }
    for color in [Color::Black, Color::White] {
        let kings = Square::iter()
            .filter(|&square| {
                position.piece_on(square) == Piece::from_parts(color, PieceType::KING)
            })
            .count();
        if kings != 1 {
            return impossible(format!("{} has {kings} kings", side(color)));
        }
        let mut pawn_files = [false; 9];
        for square in Square::iter() {
            let piece = position.piece_on(square);
            if piece == Piece::NONE || piece.color() != color {
                continue;
            }
            if let Some(ranks) = stuck(color, piece.piece_type(), square.rank()) {
                return impossible(format!(
                    "{}'s {} on {} could never move: {ranks}",
                    side(color),
                    name(piece.piece_type()),
                    square.to_usi()
                ));
            }
            if piece.piece_type() == PieceType::PAWN {
                let file = square.file().to_index();
                if pawn_files[file] {
                    return impossible(format!(
                        "{} has two unpromoted pawns on file {}: nifu",
                        side(color),
                        file + 1
                    ));
                }
                pawn_files[file] = true;
            }
        }
    }
    let waiting = position.turn().flip();
    if position.is_attacked_by(position.king_square(waiting), position.turn()) {
        return impossible(format!(
            "{}'s king is in check with {} to move",
            side(waiting),
            side(position.turn())
        ));
    }
    Ok(())
}

/// Why a piece of `color` of this type on `rank` could never move, if it could not: a pawn or
/// lance on the last rank, a knight on the last two.
fn stuck(color: Color, piece: PieceType, rank: Rank) -> Option<&'static str> {
    // Ranks counted from the side's far end: 0 is the last rank.
    let from_far_end = if color == Color::Black {
        rank.to_index()
    } else {
        8 - rank.to_index()
    };
    match piece {
        PieceType::PAWN | PieceType::LANCE if from_far_end == 0 => {
            Some("a pawn or lance on the last rank must promote")
        }
        PieceType::KNIGHT if from_far_end <= 1 => {
            Some("a knight on the last two ranks must promote")
        }
        _ => None,
    }
}

fn side(color: Color) -> &'static str {
    if color == Color::Black {
        "Sente"
    } else {
        "Gote"
    }
}

fn name(piece: PieceType) -> &'static str {
    match piece {
        PieceType::PAWN => "pawn",
        PieceType::LANCE => "lance",
        PieceType::KNIGHT => "knight",
        PieceType::SILVER => "silver",
        PieceType::GOLD => "gold",
        PieceType::BISHOP => "bishop",
        PieceType::ROOK => "rook",
        PieceType::KING => "king",
        PieceType::PRO_PAWN => "tokin",
        PieceType::PRO_LANCE => "promoted lance",
        PieceType::PRO_KNIGHT => "promoted knight",
        PieceType::PRO_SILVER => "promoted silver",
        PieceType::HORSE => "horse",
        PieceType::DRAGON => "dragon",
        _ => "piece",
    }
}

/// A USI move, legal in `shogi`, or why not in words.
pub fn read(shogi: &Shogi, text: &str) -> Result<ShogiMove, MoveError> {
    let written = text.trim();
    let refuse = |expected: &'static str| MoveError::Unreadable {
        written: format!("{written:?}"),
        expected,
    };
    if written == "win" {
        return if shogi.position.declaration_win_move() == rsshogi::types::MOVE_NONE {
            Err(refuse(
                "a win is declared only by a king in the enemy camp, not in check, with ten \
                 other pieces there and 28 points (Sente) or 27 (Gote), rooks and bishops 5, the \
                 others 1, in the camp and in hand: the 27-point rule",
            ))
        } else {
            Ok(ShogiMove::DECLARE)
        };
    }
    let japanese = || {
        read_japanese(&shogi.position, written)
            .map(|mv| mv.to_move())
            .ok_or_else(|| {
                refuse(
                    "a shogi move is written in USI: the square a piece leaves and the one it \
                     reaches, files 1-9 from Sente's right, ranks a-i from Gote's side (7g7f), \
                     + to promote (8h2b+), or a drop as the piece's letter, a star and the \
                     square (P*5e); as Japanese records write it, KI2 (▲７六歩, △同　歩, \
                     ▲５五角打) or KIF (７六歩(77)); or as CSA does (+7776FU), legal here",
                )
            })
    };
    if let Some(mv) = read_csa(shogi, written) {
        return Ok(mv);
    }
    let mv = match Move::from_usi(written).filter(|mv| mv.is_normal()) {
        Some(mv) => mv,
        None => japanese()?,
    };
    let position = &shogi.position;
    if position.is_legal_move(mv) && position.is_pseudo_legal_move(mv, true) {
        return Ok(ShogiMove(mv.raw()));
    }
    Err(MoveError::Unreadable {
        written: format!("{written:?}"),
        expected: why_illegal(position, mv),
    })
}

/// A legal move as Japanese records write it: KI2 (`▲７六歩`, `△同　歩`, `▲５五角打`, with
/// 右, 左, 上, 引, 寄 or 直 where two pieces could go; the crate reads it, the side's mark
/// optional) or a KIF move, which names the square the piece leaves in ASCII digits
/// (`７六歩(77)`, `同　歩(23)`), so that no word tells two pieces apart.
fn read_japanese(position: &Position, text: &str) -> Option<rsshogi::types::Move32> {
    let text = text
        .trim()
        .replace('☗', "▲")
        .replace('☖', "△")
        .replace(' ', "");
    let mark = if position.turn() == Color::BLACK {
        '▲'
    } else {
        '△'
    };
    let text = match text.chars().next() {
        Some('▲' | '△') => text,
        _ => format!("{mark}{text}"),
    };
    if let Some(open) = text.rfind('(').filter(|_| text.ends_with(')')) {
        let origin = &text[open + 1..text.len() - 1];
        let named = &text[..open];
        let [file, rank] = origin.as_bytes() else {
            return None;
        };
        let (file, rank) = (file.checked_sub(b'1')?, rank.checked_sub(b'1')?);
        if file > 8 || rank > 8 {
            return None;
        }
        let from = Square::from_index(usize::from(file) * 9 + usize::from(rank));
        let mut chars = named.chars().skip(1);
        let to = match chars.next()? {
            '同' => position.last_move().to_sq(),
            wide => {
                let file = "１２３４５６７８９"
                    .chars()
                    .position(|digit| digit == wide)?;
                let written = chars.next()?;
                let rank = "一二三四五六七八九"
                    .chars()
                    .position(|kanji| kanji == written)?;
                Square::from_index(file * 9 + rank)
            }
        };
        let promotes = named.ends_with('成') && !named.ends_with("不成");
        // The words KI2 adds to tell pieces apart, which KIF's square does instead.
        let plain = |text: &str| {
            text.chars()
                .filter(|c| !"右左上引寄直打不　".contains(*c))
                .collect::<String>()
        };
        return legal_moves(position).find(|mv| {
            !mv.is_drop()
                && mv.from_sq() == from
                && mv.to_sq() == to
                && mv.is_promotion() == promotes
                && mv
                    .to_ki2(position)
                    .is_some_and(|ki2| plain(&ki2) == plain(named))
        });
    }
    if !text.starts_with(mark) {
        return None;
    }
    let resolve = |text: &str| {
        let notation: rsshogi::types::Ki2Notation = text.parse().ok()?;
        notation.to_move32(position).ok()
    };
    // KIF writes 打 on every drop, KI2 only where a piece on the board could go there too.
    resolve(&text).or_else(|| resolve(text.strip_suffix('打')?).filter(|mv| mv.is_drop()))
}

/// A legal move as CSA writes it, which Sente's own `.csa` records do: the side's sign
/// (optional), the square left (`00` for a drop) and the one reached, each file then rank in
/// digits, and the piece after the move (`+7776FU`, `-0055KA`, `+2822RY` for a promotion).
fn read_csa(shogi: &Shogi, written: &str) -> Option<ShogiMove> {
    let text = written.trim();
    let bytes = text.as_bytes();
    let body = match bytes.first()? {
        b'+' | b'-' => &bytes[1..],
        _ => bytes,
    };
    let shaped = body.len() == 6
        && body[..4].iter().all(u8::is_ascii_digit)
        && body[4..].iter().all(u8::is_ascii_uppercase);
    if !shaped {
        return None;
    }
    shogi.legal_moves().find(|&mv| {
        super::records::csa::csa_move(shogi, mv)
            .is_some_and(|csa| csa == text || &csa.as_bytes()[1..] == bytes)
    })
}

/// The legal moves of `position`.
fn legal_moves(position: &Position) -> impl Iterator<Item = rsshogi::types::Move32> {
    let mut list = rsshogi::board::Move32List::new();
    rsshogi::movegen::generate_moves_move32::<rsshogi::movegen::Legal>(position, &mut list);
    list.as_slice().to_vec().into_iter()
}

/// Why a well-written move is not legal here, as a player would say it.
fn why_illegal(position: &Position, mv: Move) -> &'static str {
    let us = position.turn();
    let to = mv.to_sq();
    let target = position.piece_on(to);
    if let Some(piece) = mv.dropped_piece() {
        if !position.hand(us).has(piece) {
            return "you have no such piece in hand to drop";
        }
        if target != Piece::NONE {
            return "a piece is dropped on an empty square";
        }
        if stuck(us, piece, to.rank()).is_some() {
            return "a piece may not be dropped where it could never move: a pawn or lance on \
                    the last rank, a knight on the last two";
        }
        if piece == PieceType::PAWN && position.has_pawn_on_file(us, to.file()) {
            return "the pawn would make two unpromoted pawns on the file: nifu";
        }
        if piece == PieceType::PAWN && gives_mate(position, mv) {
            return "a pawn drop may not give mate: uchifuzume";
        }
        return "it would leave your king in check";
    }
    let from = mv.from_sq();
    let piece = position.piece_on(from);
    if piece == Piece::NONE {
        return "there is no piece on the square it moves from";
    }
    if piece.color() != us {
        return "the piece on the square it moves from is not yours";
    }
    if target != Piece::NONE && target.color() == us {
        return "a piece may not move onto a piece of its own side";
    }
    let promoted = mv.is_promotion();
    let other = if promoted {
        Move::normal(from, to)
    } else {
        Move::promotion(from, to)
    };
    let other_legal = position.is_legal_move(other) && position.is_pseudo_legal_move(other, true);
    if promoted && !piece.piece_type().is_promotable() {
        return "this piece does not promote (kings, golds and promoted pieces never do)";
    }
    if promoted && other_legal {
        return "a piece promotes only on a move into, within or out of the enemy camp (the far \
                three ranks)";
    }
    if !promoted && other_legal {
        return "the piece could never move again unpromoted: it must promote (add +)";
    }
    if position.is_pseudo_legal_move(mv, true) {
        return "it would leave your king in check";
    }
    "the piece does not move that way"
}

/// Whether dropping the pawn mates.
fn gives_mate(position: &Position, mv: Move) -> bool {
    if !position.gives_check_move(mv) {
        return false;
    }
    let mut after = position.clone();
    after.apply_move32(position.move32_from_move(mv));
    after.is_mated()
}
