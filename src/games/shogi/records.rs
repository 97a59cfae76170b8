//! Shogi's game records as KIF, the format Japanese GUIs (ShogiHome, Shogidokoro, Kifu for
//! Windows) and game databases read: a header in Japanese, the board as a diagram when the game
//! did not start from the start, then a line a move: its number, the move in KIF's notation
//! (`７六歩(77)`: the square reached, the piece, `成` or `打`, the square left), and the time
//! it took. The text is UTF-8, which the KIF 2.0 header line says.

use std::fmt::Write;

use rsshogi::types::{Color, PieceType, Square};

use super::{Shogi, ShogiMove};
use crate::game::{Game, Notation, Player, RecordedGame};

/// A piece's name as KIF writes it (two characters for the promoted lance, knight, silver).
fn name(piece: PieceType) -> &'static str {
    match piece {
        PieceType::PAWN => "歩",
        PieceType::LANCE => "香",
        PieceType::KNIGHT => "桂",
        PieceType::SILVER => "銀",
        PieceType::GOLD => "金",
        PieceType::BISHOP => "角",
        PieceType::ROOK => "飛",
        PieceType::KING => "玉",
        PieceType::PRO_PAWN => "と",
        PieceType::PRO_LANCE => "成香",
        PieceType::PRO_KNIGHT => "成桂",
        PieceType::PRO_SILVER => "成銀",
        PieceType::HORSE => "馬",
        PieceType::DRAGON => "龍",
        _ => "?",
    }
}

const WIDE_DIGITS: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];
const KANJI_NUMBERS: [&str; 19] = [
    "", "一", "二", "三", "四", "五", "六", "七", "八", "九", "十", "十一", "十二", "十三", "十四",
    "十五", "十六", "十七", "十八",
];

/// A square as KIF writes it: the file in a full-width digit, the rank in kanji (`７六`).
fn square(square: Square) -> String {
    format!(
        "{}{}",
        WIDE_DIGITS[square.file().to_index()],
        KANJI_NUMBERS[square.rank().to_index() + 1]
    )
}

/// A move in KIF's notation, `previous` being the square the last move reached (`同`).
fn kif_move(game: &Shogi, mv: ShogiMove, previous: Option<Square>) -> String {
    if mv.is_declaration() {
        return "入玉宣言".to_owned();
    }
    let mv = mv.get();
    let to = mv.to_sq();
    let target = if previous == Some(to) {
        "同　".to_owned()
    } else {
        square(to)
    };
    match mv.dropped_piece() {
        Some(piece) => format!("{target}{}打", name(piece)),
        None => {
            let from = mv.from_sq();
            let piece = game.position().piece_on(from).piece_type();
            format!(
                "{target}{}{}({}{})",
                name(piece),
                if mv.is_promotion() { "成" } else { "" },
                from.file().to_index() + 1,
                from.rank().to_index() + 1
            )
        }
    }
}

/// The board as KIF's diagram (BOD), for a game that did not start from the start.
fn diagram(game: &Shogi) -> String {
    let mut text = String::new();
    let hand = |color: Color| {
        let [sente, gote] = game.hands();
        let pieces = if color == Color::Black { sente } else { gote };
        if pieces.is_empty() {
            return "なし".to_owned();
        }
        pieces
            .iter()
            .map(|&(piece, count)| {
                if count > 1 {
                    format!("{}{}", name(piece), KANJI_NUMBERS[count as usize])
                } else {
                    name(piece).to_owned()
                }
            })
            .collect::<Vec<_>>()
            .join("　")
    };
    let _ = writeln!(text, "後手の持駒：{}", hand(Color::White));
    text.push_str("  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n");
    for row in 0..9 {
        text.push('|');
        for col in 0..9 {
            let piece = game.position().piece_on(super::square_at(row, col));
            if piece == rsshogi::types::Piece::NONE {
                text.push_str(" ・");
            } else {
                text.push(if piece.color() == Color::White {
                    'v'
                } else {
                    ' '
                });
                text.push(super::kanji(piece.piece_type()));
            }
        }
        let _ = writeln!(text, "|{}", KANJI_NUMBERS[row + 1]);
    }
    text.push_str("+---------------------------+\n");
    let _ = writeln!(text, "先手の持駒：{}", hand(Color::Black));
    if game.position().turn() == Color::White {
        text.push_str("後手番\n");
    }
    text
}

/// `game` (a tournament's game of shogi) as KIF: one game, ending with a blank line. A move
/// that cannot be read (a record not of shogi) ends the moves there.
pub fn write(game: &RecordedGame<'_>) -> String {
    let mut kif = String::new();
    let start: Shogi = game.start.parse().unwrap_or_else(|_| Shogi::start());
    // The players' names by side: the game's first mover is whoever the start has to move.
    let gote_first = start.side_to_move() == Player::O;
    let [first, second] = game.players;
    let (sente, gote) = if gote_first {
        (second, first)
    } else {
        (first, second)
    };
    // UTF-8, said as KIF 2.0 says it: GUIs otherwise read a `.kif` as Shift_JIS (a `.kifu`
    // is UTF-8 by name).
    let _ = writeln!(kif, "#KIF version=2.0 encoding=UTF-8");
    let _ = writeln!(kif, "# KIF形式棋譜ファイル Generated by Sente");
    let _ = writeln!(kif, "開始日時：{}", game.date.replace('.', "/"));
    let _ = writeln!(kif, "棋戦：{} 第{}局", game.event, game.index + 1);
    if start == Shogi::start() {
        kif.push_str("手合割：平手\n");
    } else {
        kif.push_str(&diagram(&start));
    }
    let _ = writeln!(kif, "先手：{sente}");
    let _ = writeln!(kif, "後手：{gote}");
    kif.push_str("手数----指手---------消費時間--\n");
    let mut position = start;
    let mut previous = None;
    let mut total = 0.0;
    let mut plies = 0;
    for (ply, written) in game.moves.iter().enumerate() {
        let Ok(mv) = position.read_move(&Notation::Text(written.clone())) else {
            break;
        };
        let seconds = game.times_ms.get(ply).copied().unwrap_or(0.0) / 1e3;
        total += seconds;
        let total_seconds = total.round() as u64;
        let _ = writeln!(
            kif,
            "{:>4} {}   ( {}:{:02}/{:02}:{:02}:{:02})",
            ply + 1,
            kif_move(&position, mv, previous),
            seconds as u64 / 60,
            seconds as u64 % 60,
            total_seconds / 3600,
            total_seconds / 60 % 60,
            total_seconds % 60
        );
        previous = (!mv.is_declaration()).then(|| mv.get().to_sq());
        position = position.play(mv);
        plies = ply + 1;
    }
    // How it ended, in KIF's words, and who won.
    let last = plies + 1;
    let winner = match game.winner {
        Some(Player::X) if !gote_first => "先手",
        Some(Player::X) => "後手",
        Some(Player::O) if !gote_first => "後手",
        Some(Player::O) => "先手",
        None => "",
    };
    let declared = game.moves.last().is_some_and(|mv| mv == "win");
    let ending = if declared { "declaration" } else { game.ending };
    let (closing, summary) = match ending {
        "checkmate" => ("詰み", format!("まで{plies}手で{winner}の勝ち")),
        "sennichite" => ("千日手", format!("まで{plies}手で千日手")),
        "perpetual_check" => (
            "反則負け",
            format!("まで{plies}手で{winner}の勝ち（連続王手の千日手）"),
        ),
        "declaration" => ("入玉勝ち", format!("まで{plies}手で{winner}の勝ち")),
        "time_forfeit" => ("切れ負け", format!("まで{plies}手で{winner}の勝ち")),
        "illegal_move" => ("反則負け", format!("まで{plies}手で{winner}の勝ち")),
        _ if winner.is_empty() => ("持将棋", format!("まで{plies}手で引き分け")),
        _ => ("投了", format!("まで{plies}手で{winner}の勝ち")),
    };
    let _ = writeln!(kif, "{last:>4} {closing}");
    let _ = writeln!(kif, "{summary}");
    kif.push('\n');
    kif
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_is_written_as_kif() {
        let moves: Vec<String> = ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"]
            .map(str::to_owned)
            .to_vec();
        let kif = write(&RecordedGame {
            index: 0,
            event: "Sente tournament",
            date: "2026.11.27",
            start: super::super::START,
            moves: &moves,
            times_ms: &[1000.0, 2000.0, 0.0, 0.0, 500.0],
            players: ["engine", "gps"],
            winner: Some(Player::X),
            ending: "resigned",
        });
        assert!(
            kif.contains("手合割：平手\n先手：engine\n後手：gps\n"),
            "{kif}"
        );
        assert!(kif.contains("   1 ７六歩(77)   ( 0:01/00:00:01)"), "{kif}");
        assert!(kif.contains("   3 ２二角成(88)"), "{kif}");
        assert!(kif.contains("   4 同　銀(31)"), "{kif}");
        assert!(kif.contains("   5 ４五角打"), "{kif}");
        assert!(kif.contains("   6 投了\nまで5手で先手の勝ち"), "{kif}");
        // From another position: its diagram, and the side to move first named Gote.
        let kif = write(&RecordedGame {
            start: "4k4/9/4P4/9/9/9/9/9/4K4 w G 1",
            moves: &["5a4a".to_owned()],
            times_ms: &[],
            winner: None,
            ending: "move_limit",
            ..RecordedGame {
                index: 1,
                event: "e",
                date: "d",
                start: "",
                moves: &[],
                times_ms: &[],
                players: ["a", "b"],
                winner: None,
                ending: "",
            }
        });
        assert!(
            kif.contains("先手の持駒：金\n後手番\n先手：b\n後手：a"),
            "{kif}"
        );
        assert!(kif.contains("| ・ ・ ・ ・v玉 ・ ・ ・ ・|一"), "{kif}");
        assert!(kif.contains("まで1手で引き分け"), "{kif}");
    }
}
