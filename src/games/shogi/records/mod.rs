//! Shogi's game records, in the formats its players' software reads and writes:
//!
//! - [`kif`]: KIF, the format of Japanese GUIs (ShogiHome, ShogiGUI, Kifu for Windows) and game
//!   databases: Japanese text, a move a line with its time, the engine's evaluation in a
//!   comment after it as ShogiGUI writes it. A `.kif` is Shift_JIS (code page 932), which
//!   every reader assumes of that extension; a `.kifu` is the same text in UTF-8.
//! - [`csa`]: CSA, the format of the computer-shogi servers (floodgate) and their clients:
//!   ASCII moves (`+7776FU`), times (`T1`), the evaluation in floodgate's comment (`'** 120`).
//!
//! Both name the sides Sente (▲, `+`) and Gote (△, `-`), score from Sente's view, and write
//! one game a file.
//!
//! They are read (`POST /review`'s `record`) by rsshogi's readers, which know every variant
//! players' software writes (handicaps, board diagrams, KI2's moves without their squares); a
//! KIF reader reads KI2 too, which shares its header.

pub mod csa;
pub mod kif;

use crate::game::{
    Player, ReadRecord, RecordError, RecordFormat, RecordedGame, RecordedMove, Rules, TextEncoding,
};

use super::{Shogi, ShogiMove};
use crate::game::Notation;

/// The formats shogi declares, KIF first (the usual one).
pub const FORMATS: &[RecordFormat] = &[
    RecordFormat {
        name: "KIF",
        extension: "kif",
        encoding: TextEncoding::ShiftJis,
        media_type: "text/plain",
        collects: false,
        description: "KIF in Shift_JIS, as ShogiHome, ShogiGUI, Kifu for Windows and game \
                      databases read a .kif",
        write: kif::write_shift_jis,
        read: read_kif,
    },
    RecordFormat {
        name: "KIFU",
        extension: "kifu",
        encoding: TextEncoding::Utf8,
        media_type: "text/plain",
        collects: false,
        description: "KIF in UTF-8 (.kifu)",
        write: kif::write_utf8,
        read: read_kif,
    },
    RecordFormat {
        name: "CSA",
        extension: "csa",
        encoding: TextEncoding::Utf8,
        media_type: "text/plain",
        collects: false,
        description: "CSA 3.0, as the computer-shogi servers and their clients write it",
        write: csa::write,
        read: read_csa,
    },
];

/// A KIF or KI2 record: KIF where a line starts with a move's number (`   1 ７六歩(77)`), KI2
/// where moves start with the side's mark (`▲７六歩`).
fn read_kif(text: &str) -> Result<ReadRecord, RecordError> {
    let numbered = text.lines().any(|line| {
        let line = line.trim_start();
        line.starts_with(|c: char| c.is_ascii_digit())
            && line
                .split_whitespace()
                .nth(1)
                .is_some_and(|mv| !mv.is_ascii())
    });
    let marked = text.contains(['▲', '△', '☗', '☖']);
    let record = if numbered {
        rsshogi::records::parse_kif_str(text).map_err(|error| unreadable(&error))
    } else if marked {
        rsshogi::records::parse_ki2_str(text)
            .map_err(|error| ki2_ply_at_fault(text).unwrap_or_else(|| unreadable(&error)))
    } else {
        return Err(RecordError::Foreign);
    };
    read_record(record?)
}

/// The first KI2 move of `text` that cannot be played, with its ply: rsshogi's reader names
/// the line at fault, and a KI2 line holds many moves. `None` where every move reads (the
/// reader refused something else), or the record starts from another position than the usual.
fn ki2_ply_at_fault(text: &str) -> Option<RecordError> {
    if text.contains("手合割") && !text.contains("平手") || text.contains("先手の持駒") {
        return None;
    }
    let moves = text
        .lines()
        .filter(|line| !line.contains('：') && !line.trim_start().starts_with(['*', '#', '&']))
        .collect::<Vec<_>>()
        .join(" ")
        .replace("同\u{3000}", "同")
        .replace("同 ", "同");
    let mut position = Shogi::start();
    let words = moves
        .split(['▲', '△', '☗', '☖'])
        .skip(1)
        .filter_map(|word| word.split_whitespace().next());
    for (index, word) in words.enumerate() {
        match position.read_move(&Notation::Text(word.to_owned())) {
            Ok(mv) => position = position.play(mv),
            Err(error) => {
                return Some(RecordError::Unreadable(format!(
                    "ply {} ({word}): {error}",
                    index + 1
                )));
            }
        }
    }
    None
}

/// A CSA record: its lines of moves (`+7776FU`), of the board (`PI`, `P1`...) or of its version
/// (`V2.2`).
fn read_csa(text: &str) -> Result<ReadRecord, RecordError> {
    let csa = text.lines().map(str::trim).any(|line| {
        line.starts_with("PI")
            || line.starts_with("P1")
            || line.starts_with("V2")
            || (line.len() >= 7
                && line.starts_with(['+', '-'])
                && line.as_bytes()[1..5].iter().all(u8::is_ascii_digit))
    });
    if !csa {
        return Err(RecordError::Foreign);
    }
    let record = rsshogi::records::parse_csa_str(text).map_err(|error| unreadable(&error))?;
    read_record(record)
}

/// A reader's error, its ply counted from 1 where it names the move at fault.
fn unreadable(error: &dyn std::fmt::Display) -> RecordError {
    let said = error.to_string();
    let detail = match said
        .strip_prefix("illegal move at index ")
        .and_then(|index| index.parse::<usize>().ok())
    {
        Some(index) => format!("ply {}: the move is not legal there", index + 1),
        None => said,
    };
    RecordError::Unreadable(detail)
}

/// The record's start (none for the usual one) and its main line in USI.
fn read_record(record: rsshogi::records::Record) -> Result<ReadRecord, RecordError> {
    let start = record.initial_position();
    let board = (!start.is_startpos() && start.to_sfen() != super::START)
        .then(|| start.to_sfen().to_owned());
    Ok(ReadRecord {
        board,
        moves: record
            .main_moves()
            .map(|entry| entry.mv().to_usi())
            .collect(),
    })
}

/// Who played Sente and who Gote, and whether Gote moved first (a record from a position with
/// Gote to move).
fn sides<'a>(game: &RecordedGame<'a>, start: &Shogi) -> (&'a str, &'a str, bool) {
    let gote_first = start.side_to_move() == Player::O;
    let [first, second] = game.players;
    if gote_first {
        (second, first, true)
    } else {
        (first, second, false)
    }
}

/// The winner's side, if any: `Some(true)` for Sente.
fn sente_won(game: &RecordedGame<'_>, gote_first: bool) -> Option<bool> {
    game.winner
        .map(|winner| (winner == Player::X) != gote_first)
}

/// The moves of `game` that can be read, each with the position it was played from: a move
/// that cannot (a record not of shogi) ends the list there.
fn replay<'a>(game: &RecordedGame<'a>) -> (Shogi, Vec<(Shogi, ShogiMove, &'a RecordedMove)>) {
    let start: Shogi = game.start.parse().unwrap_or_else(|_| Shogi::start());
    let mut position = start.clone();
    let mut played = Vec::with_capacity(game.moves.len());
    for recorded in game.moves {
        let Ok(mv) = position.read_move(&Notation::Text(recorded.text.clone())) else {
            break;
        };
        let next = position.play(mv);
        played.push((position, mv, recorded));
        position = next;
    }
    (start, played)
}

/// The engine's line from `position` (its first move the one played), as far as it reads, in
/// `write`'s notation.
fn line(
    position: &Shogi,
    pv: &[String],
    mut write: impl FnMut(&Shogi, ShogiMove) -> String,
) -> Vec<String> {
    let mut position = position.clone();
    let mut words = Vec::with_capacity(pv.len());
    for text in pv {
        let Ok(mv) = position.read_move(&Notation::Text(text.clone())) else {
            break;
        };
        words.push(write(&position, mv));
        position = position.play(mv);
    }
    words
}

/// A move's score from Sente's view, in centipawns, or its mate in plies (positive when Sente
/// mates), where the move has one.
enum SenteScore {
    Centipawns(i32),
    MateIn(i32),
}

fn sente_score(position: &Shogi, recorded: &RecordedMove) -> Option<SenteScore> {
    let sign = if position.side_to_move() == Player::X {
        1
    } else {
        -1
    };
    if let Some(mate) = recorded.mate {
        // A mate in n moves of the mover's is 2n - 1 plies; being mated in n, 2n; unless the
        // search counted the plies itself.
        let plies = recorded
            .plies_to_end
            .map_or(if mate > 0 { 2 * mate - 1 } else { -2 * mate }, |plies| {
                plies as i32
            });
        return Some(SenteScore::MateIn(sign * mate.signum() * plies));
    }
    recorded.cp.map(|cp| SenteScore::Centipawns(sign * cp))
}

/// Seconds, as the records write a move's time: whole ones, rounded down, as clocks count them.
fn whole_seconds(time_ms: f64) -> u64 {
    if time_ms.is_finite() && time_ms > 0.0 {
        (time_ms / 1e3) as u64
    } else {
        0
    }
}

#[cfg(test)]
mod tests;
