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

pub mod csa;
pub mod kif;

use crate::game::{Player, RecordFormat, RecordedGame, RecordedMove, TextEncoding};

use super::{Shogi, ShogiMove};
use crate::game::{Game, Notation};

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
    },
    RecordFormat {
        name: "KIFU",
        extension: "kifu",
        encoding: TextEncoding::Utf8,
        media_type: "text/plain",
        collects: false,
        description: "KIF in UTF-8 (.kifu)",
        write: kif::write_utf8,
    },
    RecordFormat {
        name: "CSA",
        extension: "csa",
        encoding: TextEncoding::Utf8,
        media_type: "text/plain",
        collects: false,
        description: "CSA 3.0, as the computer-shogi servers and their clients write it",
        write: csa::write,
    },
];

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
