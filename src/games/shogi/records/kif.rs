//! KIF, the record format Japanese GUIs (ShogiHome, ShogiGUI, Shogidokoro, Kifu for Windows)
//! and game databases read: a header in Japanese, the board as a diagram when the game did not
//! start from the start, then a line a move: its number, the move in KIF's notation
//! (`７六歩(77)`: the square reached, the piece, `成` or `打`, the square left) and its time
//! (`( 0:01/00:00:01)`: this move's, then the mover's total so far). An engine's move is
//! followed by its evaluation in a comment as ShogiGUI writes it during a game, which
//! ShogiHome and cshogi read too:
//!
//! ```text
//!    1 ７六歩(77)   ( 0:01/00:00:01)
//! **対局 時間 00:01.2 深さ 12 ノード数 123456 評価値 120 読み筋 ▲７六歩(77) △３四歩(33)
//! ```
//!
//! the score from Sente's view, a mate as `+詰5` (Sente mates in 5 plies) or `-詰4`.

use std::fmt::Write;

use rsshogi::types::{Color, PieceType, Square};

use super::{SenteScore, line, replay, sente_score, sente_won, sides, whole_seconds};
use crate::game::{RecordedGame, Rules};
use crate::games::shogi::{Shogi, ShogiMove};

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
            let piece = game
                .position()
                .piece_on(crate::games::shogi::square_at(row, col));
            if piece == rsshogi::types::Piece::NONE {
                text.push_str(" ・");
            } else {
                text.push(if piece.color() == Color::White {
                    'v'
                } else {
                    ' '
                });
                text.push(crate::games::shogi::kanji(piece.piece_type()));
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

/// `game` as a `.kif`: KIF whose header line says Shift_JIS, as [`RecordFormat::bytes`]
/// encodes it.
///
/// [`RecordFormat::bytes`]: crate::game::RecordFormat::bytes
pub fn write_shift_jis(game: &RecordedGame<'_>) -> String {
    write(game, "Shift_JIS")
}

/// `game` as a `.kifu`: the same text in UTF-8.
pub fn write_utf8(game: &RecordedGame<'_>) -> String {
    write(game, "UTF-8")
}

/// One game as KIF, ending with a blank line, its header saying `encoding` (KIF 2.0's line).
fn write(game: &RecordedGame<'_>, encoding: &str) -> String {
    let mut kif = String::new();
    let (start, played) = replay(game);
    let (sente, gote, gote_first) = sides(game, &start);
    let _ = writeln!(kif, "#KIF version=2.0 encoding={encoding}");
    let _ = writeln!(kif, "# KIF形式棋譜ファイル Generated by Sente");
    let _ = writeln!(kif, "開始日時：{}", game.date);
    match game.index {
        Some(index) => _ = writeln!(kif, "棋戦：{} 第{}局", game.event, index + 1),
        None => _ = writeln!(kif, "棋戦：{}", game.event),
    }
    if start == Shogi::start() {
        kif.push_str("手合割：平手\n");
    } else {
        kif.push_str(&diagram(&start));
    }
    let _ = writeln!(kif, "先手：{sente}");
    let _ = writeln!(kif, "後手：{gote}");
    kif.push_str("手数----指手---------消費時間--\n");
    let mut previous = None;
    // Each side's total, as KIF's second time is the mover's own.
    let mut totals = [0u64; 2];
    for (ply, (position, mv, recorded)) in played.iter().enumerate() {
        let seconds = whole_seconds(recorded.time_ms);
        let total = &mut totals[ply % 2];
        *total += seconds;
        let _ = writeln!(
            kif,
            "{:>4} {}   ({:>2}:{:02}/{:02}:{:02}:{:02})",
            ply + 1,
            kif_move(position, *mv, previous),
            seconds / 60,
            seconds % 60,
            *total / 3600,
            *total / 60 % 60,
            *total % 60
        );
        if let Some(comment) = engine_comment(position, recorded, previous) {
            let _ = writeln!(kif, "{comment}");
        }
        previous = (!mv.is_declaration()).then(|| mv.get().to_sq());
    }
    // How it ended, in KIF's words, and who won.
    let plies = played.len();
    let last = plies + 1;
    let winner = match sente_won(game, gote_first) {
        Some(true) => "先手",
        Some(false) => "後手",
        None => "",
    };
    let declared = played.last().is_some_and(|(_, mv, _)| mv.is_declaration());
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
        "interrupted" => ("中断", format!("まで{plies}手で中断")),
        _ if winner.is_empty() => ("持将棋", format!("まで{plies}手で持将棋")),
        _ => ("投了", format!("まで{plies}手で{winner}の勝ち")),
    };
    let _ = writeln!(kif, "{last:>4} {closing}");
    let _ = writeln!(kif, "{summary}");
    kif.push('\n');
    kif
}

/// An engine's move's comment as ShogiGUI writes it during a game (`**対局 時間 00:01.2 深さ
/// 12 ノード数 123456 評価値 120 読み筋 ▲７六歩(77) △３四歩(33)`), where the move has
/// what an engine says: none for a move a person played.
fn engine_comment(
    position: &Shogi,
    recorded: &crate::game::RecordedMove,
    previous: Option<Square>,
) -> Option<String> {
    let score = sente_score(position, recorded);
    if score.is_none() && recorded.depth.is_none() && recorded.nodes.is_none() {
        return None;
    }
    let mut comment = "**対局".to_owned();
    let tenths = if recorded.time_ms.is_finite() {
        (recorded.time_ms.max(0.0) / 100.0).round() as u64
    } else {
        0
    };
    let _ = write!(
        comment,
        " 時間 {:02}:{:02}.{}",
        tenths / 600,
        tenths / 10 % 60,
        tenths % 10
    );
    if let Some(depth) = recorded.depth {
        let _ = write!(comment, " 深さ {depth}");
    }
    if let Some(nodes) = recorded.nodes {
        let _ = write!(comment, " ノード数 {nodes}");
    }
    match score {
        Some(SenteScore::Centipawns(cp)) => {
            let _ = write!(comment, " 評価値 {cp}");
        }
        Some(SenteScore::MateIn(plies)) => {
            let _ = write!(
                comment,
                " {}詰{}",
                if plies > 0 { '+' } else { '-' },
                plies.abs()
            );
        }
        None => {}
    }
    let mut last = previous;
    let pv = line(position, &recorded.pv, |at, mv| {
        let mark = if at.side_to_move() == crate::game::Player::X {
            "▲"
        } else {
            "△"
        };
        let text = format!("{mark}{}", kif_move(at, mv, last));
        last = (!mv.is_declaration()).then(|| mv.get().to_sq());
        text
    });
    if !pv.is_empty() {
        let _ = write!(comment, " 読み筋 {}", pv.join(" "));
    }
    Some(comment)
}
