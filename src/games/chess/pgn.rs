//! PGN (Portable Game Notation), chess's record format, as match runners write it: the Seven
//! Tag Roster, `SetUp` and `FEN` for a game that starts from a position of its own,
//! `Termination`, `PlyCount`, the moves in SAN, and each move's evaluation and time in a
//! comment as fastchess writes it, `{+0.31/12 0.101s}` (pawns from the mover's side, or `+M5`
//! for a mate, then the depth). A PGN file holds games one after another, so a tournament's
//! games make one file (`sente tournament --pgn`, `Accept: application/x-chess-pgn`).

use std::fmt::Write;

use super::Chess;
use crate::game::{
    Notation, Player, ReadRecord, RecordError, RecordFormat, RecordedGame, RecordedMove, Rules,
    TextEncoding,
};

/// Chess's record format, as `GET /games` lists it and `POST /record` writes it.
pub const FORMAT: RecordFormat = RecordFormat {
    name: "PGN",
    extension: "pgn",
    encoding: TextEncoding::Utf8,
    media_type: "application/x-chess-pgn",
    collects: true,
    description: "Portable Game Notation, as every chess program and database reads it: the \
                  tags, the moves in SAN, each engine move's evaluation, depth and time in a \
                  comment.",
    write,
    read,
};

/// The first game of a PGN text: its `FEN` tag's position (or the start) and its main line,
/// variations and comments skipped.
pub fn read(text: &str) -> Result<ReadRecord, RecordError> {
    match super::book::first_pgn_game(text) {
        Ok(Some(game)) if game.board.is_some() || !game.moves.is_empty() => Ok(ReadRecord {
            board: game.board,
            moves: game.moves,
        }),
        Ok(_) => Err(RecordError::Foreign),
        Err(error) => Err(RecordError::Unreadable(error.to_string())),
    }
}

/// `game` as one PGN game, ending with a blank line.
pub fn write(game: &RecordedGame<'_>) -> String {
    let start: Chess = game.start.parse().unwrap_or_else(|_| Chess::start());
    let white_first = start.side_to_move() == Player::X;
    let [first, second] = game.players;
    let (white, black) = if white_first {
        (first, second)
    } else {
        (second, first)
    };
    let result = match game.winner {
        Some(winner) if (winner == Player::X) == white_first => "1-0",
        Some(_) => "0-1",
        None if game.ending == "interrupted" => "*",
        None => "1/2-1/2",
    };
    let mut pgn = String::new();
    let mut tag = |name: &str, value: &str| {
        let value = value.replace('\\', "\\\\").replace('"', "\\\"");
        let _ = writeln!(pgn, "[{name} \"{value}\"]");
    };
    tag("Event", or_unknown(game.event));
    tag("Site", "?");
    tag("Date", &date(game.date));
    tag(
        "Round",
        &game
            .index
            .map_or_else(|| "?".to_owned(), |index| (index + 1).to_string()),
    );
    tag("White", or_unknown(white));
    tag("Black", or_unknown(black));
    tag("Result", result);
    if game.start != Chess::start().to_string() {
        tag("SetUp", "1");
        tag("FEN", game.start);
    }
    tag("Termination", termination(game.ending));
    tag("PlyCount", &game.moves.len().to_string());
    pgn.push('\n');

    let mut words = Vec::new();
    let mut position = start;
    let fullmove = position.ply() / 2 + 1;
    for (ply, recorded) in game.moves.iter().enumerate() {
        // A move the rules do not read (a record not of chess) ends the moves there.
        let Ok(mv) = position.read_move(&Notation::Text(recorded.text.clone())) else {
            break;
        };
        let white_moves = (ply % 2 == 0) == white_first;
        let number = fullmove + (ply + usize::from(!white_first)) / 2;
        if white_moves {
            words.push(format!("{number}."));
        } else if ply == 0 {
            words.push(format!("{number}..."));
        }
        words.push(position.san_of(mv));
        words.extend(comment(recorded));
        position = position.play(mv);
    }
    if game.ending != "interrupted" {
        let mut end = format!("{{{}", game.ending.replace('_', " "));
        if let Some(detail) = game.detail {
            let _ = write!(end, ": {}", detail.replace(['{', '}'], ""));
        }
        end.push('}');
        words.push(end);
    }
    words.push(result.to_owned());
    // Export format: lines of at most 80 characters.
    let mut line = String::new();
    for word in words {
        if !line.is_empty() && line.len() + 1 + word.len() > 80 {
            pgn.push_str(&line);
            pgn.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&word);
    }
    pgn.push_str(&line);
    pgn.push_str("\n\n");
    pgn
}

/// PGN's `?` for a tag whose value is not known.
fn or_unknown(text: &str) -> &str {
    if text.trim().is_empty() { "?" } else { text }
}

/// The records' `2026/11/28 10:00:00` as PGN's `2026.11.28`, or `????.??.??`.
fn date(written: &str) -> String {
    let day: String = written
        .chars()
        .take(10)
        .map(|c| if matches!(c, '/' | '-') { '.' } else { c })
        .collect();
    let well_formed = day.len() == 10
        && day.chars().enumerate().all(|(i, c)| {
            if i == 4 || i == 7 {
                c == '.'
            } else {
                c.is_ascii_digit()
            }
        });
    if well_formed {
        day
    } else {
        "????.??.??".to_owned()
    }
}

/// A move's comment: its evaluation and depth where its player gave them, and its time; none
/// for a move of which nothing is known.
fn comment(mv: &RecordedMove) -> Option<String> {
    let evaluation = match (mv.mate, mv.cp) {
        (Some(mate), _) => Some(format!(
            "{}M{}",
            if mate < 0 { "-" } else { "+" },
            mate.abs()
        )),
        (None, Some(cp)) => Some(format!("{:+.2}", f64::from(cp) / 100.0)),
        (None, None) => None,
    };
    let seconds = mv.time_ms / 1e3;
    match evaluation {
        Some(evaluation) => Some(format!(
            "{{{evaluation}/{} {seconds:.3}s}}",
            mv.depth.unwrap_or(0)
        )),
        None if mv.time_ms > 0.0 => Some(format!("{{{seconds:.3}s}}")),
        None => None,
    }
}

/// PGN's `Termination` for an ending's name.
fn termination(ending: &str) -> &'static str {
    match ending {
        "max_plies" | "draw_adjudication" | "resign_adjudication" => "adjudication",
        "time_forfeit" => "time forfeit",
        "illegal_move" => "rules infraction",
        "engine_crash" => "abandoned",
        "interrupted" => "unterminated",
        _ => "normal",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(text: &str, cp: Option<i32>, mate: Option<i32>) -> RecordedMove {
        RecordedMove {
            text: text.into(),
            time_ms: 101.0,
            cp,
            mate,
            depth: Some(12),
            ..RecordedMove::default()
        }
    }

    #[test]
    fn a_game_from_a_position_with_black_to_move() {
        let moves = [mv("e7e5", Some(31), None), mv("Nf3", None, Some(-3))];
        let pgn = write(&RecordedGame {
            index: Some(4),
            event: "test",
            date: "2026/11/24 10:00:00",
            start: "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
            moves: &moves,
            players: ["sente \"A\"", "stockfish"],
            winner: None,
            ending: "max_plies",
            detail: None,
        });
        // The first mover played Black.
        assert!(
            pgn.contains("[White \"stockfish\"]\n[Black \"sente \\\"A\\\"\"]"),
            "{pgn}"
        );
        assert!(
            pgn.starts_with("[Event \"test\"]\n[Site \"?\"]\n[Date \"2026.11.24\"]\n[Round \"5\"]"),
            "{pgn}"
        );
        assert!(pgn.contains("[SetUp \"1\"]\n[FEN \"rnbqkbnr/"), "{pgn}");
        assert!(
            pgn.contains("[Termination \"adjudication\"]\n[PlyCount \"2\"]"),
            "{pgn}"
        );
        assert!(
            pgn.ends_with(
                "1... e5 {+0.31/12 0.101s} 2. Nf3 {-M3/12 0.101s} {max plies} 1/2-1/2\n\n"
            ),
            "{pgn}"
        );
    }

    #[test]
    fn a_game_from_the_start_unfinished_and_unknown() {
        let moves = [
            RecordedMove {
                text: "e2e4".into(),
                ..RecordedMove::default()
            },
            mv("c7c5", None, None),
        ];
        let pgn = write(&RecordedGame {
            index: None,
            event: "",
            date: "not a date",
            start: &Chess::start().to_string(),
            moves: &moves,
            players: ["", ""],
            winner: None,
            ending: "interrupted",
            detail: None,
        });
        assert!(!pgn.contains("FEN"), "{pgn}");
        assert!(pgn.contains("[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"?\"]"));
        assert!(pgn.contains("[Result \"*\"]\n[Termination \"unterminated\"]"));
        assert!(pgn.ends_with("\n1. e4 c5 {0.101s} *\n\n"), "{pgn}");
    }

    #[test]
    fn a_mate_is_a_win_for_its_side() {
        let moves: Vec<RecordedMove> = ["f2f3", "e7e5", "g2g4", "d8h4"]
            .map(|text| mv(text, None, None))
            .into();
        let pgn = write(&RecordedGame {
            index: Some(0),
            event: "Sente",
            date: "2026/11/24",
            start: &Chess::start().to_string(),
            moves: &moves,
            players: ["White", "Black"],
            winner: Some(Player::O),
            ending: "checkmate",
            detail: None,
        });
        assert!(pgn.contains("[Result \"0-1\"]\n[Termination \"normal\"]"));
        assert!(
            pgn.contains("2. g4 {0.101s} Qh4# {0.101s} {checkmate} 0-1"),
            "{pgn}"
        );
    }
}
