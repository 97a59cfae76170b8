//! CSA, the record format of the computer-shogi servers (floodgate) and their clients, version
//! 3.0 (UTF-8, its first line says so):
//!
//! ```text
//! 'CSA encoding=UTF-8
//! V3.0
//! N+Sente
//! N-gps
//! $START_TIME:2026/11/28 10:00:00
//! PI
//! +
//! +7776FU
//! T1
//! '** 120 -3334FU +2726FU
//! %TORYO
//! ```
//!
//! A move is its side (`+` Sente, `-` Gote), the square left (`00` for a drop), the square
//! reached and the piece as it stands after the move (`UM` a horse); `T` its whole seconds;
//! floodgate's comment `'**` the engine's score from Sente's view and its line after the move.
//! A start that is not the start is written square by square (`P1-KY-KE...`, hands as
//! `P+00KA`).

use std::fmt::Write;

use rsshogi::types::{Color, Piece, PieceType, Square};

use super::{SenteScore, replay, sente_score, sente_won, sides, whole_seconds};
use crate::game::{Player, RecordedGame, Rules};
use crate::games::shogi::{Shogi, ShogiMove};

/// A piece as CSA writes it: two capital letters.
fn code(piece: PieceType) -> &'static str {
    match piece {
        PieceType::PAWN => "FU",
        PieceType::LANCE => "KY",
        PieceType::KNIGHT => "KE",
        PieceType::SILVER => "GI",
        PieceType::GOLD => "KI",
        PieceType::BISHOP => "KA",
        PieceType::ROOK => "HI",
        PieceType::KING => "OU",
        PieceType::PRO_PAWN => "TO",
        PieceType::PRO_LANCE => "NY",
        PieceType::PRO_KNIGHT => "NK",
        PieceType::PRO_SILVER => "NG",
        PieceType::HORSE => "UM",
        PieceType::DRAGON => "RY",
        _ => "??",
    }
}

fn square(square: Square) -> String {
    format!(
        "{}{}",
        square.file().to_index() + 1,
        square.rank().to_index() + 1
    )
}

fn side(position: &Shogi) -> char {
    if position.position().turn() == Color::Black {
        '+'
    } else {
        '-'
    }
}

/// A move in CSA's notation (`+7776FU`, `-0055KA`); `None` for a declaration, which CSA
/// writes as the game's ending (`%KACHI`).
pub(in crate::games::shogi) fn csa_move(position: &Shogi, mv: ShogiMove) -> Option<String> {
    if mv.is_declaration() {
        return None;
    }
    let mv = mv.get();
    let to = mv.to_sq();
    let (from, piece) = match mv.dropped_piece() {
        Some(piece) => ("00".to_owned(), piece),
        None => {
            let from = mv.from_sq();
            let piece = position.position().piece_on(from).piece_type();
            let piece = if mv.is_promotion() {
                piece.promote()
            } else {
                piece
            };
            (square(from), piece)
        }
    };
    Some(format!(
        "{}{from}{}{}",
        side(position),
        square(to),
        code(piece)
    ))
}

/// The board square by square, the hands and the side to move, for a start that is not the
/// start.
fn board(position: &Shogi) -> String {
    let mut text = String::new();
    for row in 0..9 {
        let _ = write!(text, "P{}", row + 1);
        for col in 0..9 {
            let piece = position
                .position()
                .piece_on(crate::games::shogi::square_at(row, col));
            if piece == Piece::NONE {
                text.push_str(" * ");
            } else {
                let colour = if piece.color() == Color::Black {
                    '+'
                } else {
                    '-'
                };
                let _ = write!(text, "{colour}{}", code(piece.piece_type()));
            }
        }
        text.push('\n');
    }
    for (mark, hand) in ['+', '-'].into_iter().zip(position.hands()) {
        if hand.is_empty() {
            continue;
        }
        let _ = write!(text, "P{mark}");
        for (piece, count) in hand {
            for _ in 0..count {
                let _ = write!(text, "00{}", code(piece));
            }
        }
        text.push('\n');
    }
    let _ = writeln!(text, "{}", side(position));
    text
}

/// One game as CSA.
pub fn write(game: &RecordedGame<'_>) -> String {
    let mut csa = String::new();
    let (start, played) = replay(game);
    let (sente, gote, gote_first) = sides(game, &start);
    csa.push_str("'CSA encoding=UTF-8\nV3.0\n");
    // A name is a line's rest: a line break in one would end it.
    let one_line = |name: &str| name.replace(['\r', '\n'], " ");
    let _ = writeln!(csa, "N+{}", one_line(sente));
    let _ = writeln!(csa, "N-{}", one_line(gote));
    match game.index {
        Some(index) => _ = writeln!(csa, "$EVENT:{} {}", one_line(game.event), index + 1),
        None => _ = writeln!(csa, "$EVENT:{}", one_line(game.event)),
    }
    let _ = writeln!(csa, "$START_TIME:{}", game.date);
    if start == Shogi::start() {
        csa.push_str("PI\n+\n");
    } else {
        csa.push_str(&board(&start));
    }
    for (position, mv, recorded) in &played {
        let Some(text) = csa_move(position, *mv) else {
            break;
        };
        let _ = writeln!(csa, "{text}\nT{}", whole_seconds(recorded.time_ms));
        let score = match sente_score(position, recorded) {
            Some(SenteScore::Centipawns(cp)) => cp,
            // Floodgate's convention for a mate: a score beyond any evaluation.
            Some(SenteScore::MateIn(plies)) => plies.signum() * (100_000 - plies.abs()),
            None => continue,
        };
        let mut after = position.play(*mv);
        let mut words = Vec::with_capacity(recorded.pv.len());
        for text in recorded.pv.iter().skip(1) {
            let Ok(next) = after.read_move(&crate::game::Notation::Text(text.clone())) else {
                break;
            };
            let Some(word) = csa_move(&after, next) else {
                break;
            };
            words.push(word);
            after = after.play(next);
        }
        let _ = writeln!(
            csa,
            "'** {score}{}{}",
            if words.is_empty() { "" } else { " " },
            words.join(" ")
        );
    }
    // CSA's endings name no winner: the side to move is the one that resigned, was mated, ran
    // out of time or moved illegally; the one that moved last, for a perpetual check or a
    // declaration. A winner the ending does not imply (an adjudication) is said in a comment,
    // and the game written as interrupted.
    let declared = played.last().is_some_and(|(_, mv, _)| mv.is_declaration());
    let ending = if declared { "declaration" } else { game.ending };
    let sente_to_move = match played.last() {
        Some((position, mv, _)) if !mv.is_declaration() => position.side_to_move() == Player::O,
        Some((position, _, _)) => position.side_to_move() == Player::X,
        None => start.side_to_move() == Player::X,
    };
    let (code, side_to_move_wins) = match ending {
        "checkmate" => ("%TSUMI", false),
        "sennichite" => ("%SENNICHITE", false),
        "perpetual_check" => ("%OUTE_SENNICHITE", true),
        "declaration" => ("%KACHI", true),
        "time_forfeit" => ("%TIME_UP", false),
        "illegal_move" => ("%ILLEGAL_MOVE", false),
        "interrupted" => ("%CHUDAN", false),
        _ if game.winner.is_none() => ("%JISHOGI", false),
        _ => ("%TORYO", false),
    };
    let code = match sente_won(game, gote_first) {
        Some(sente) if code != "%SENNICHITE" && code != "%JISHOGI" && code != "%CHUDAN" => {
            if (sente == sente_to_move) == side_to_move_wins {
                code
            } else {
                let winner = if sente { "Sente" } else { "Gote" };
                let _ = writeln!(csa, "'{winner} won: {ending}");
                "%CHUDAN"
            }
        }
        _ => code,
    };
    let _ = writeln!(csa, "{code}");
    csa
}
