//! Chess games as PGN (Portable Game Notation), as match runners write them: the Seven Tag
//! Roster, `SetUp` and `FEN` for a game that starts from an opening, `Termination`,
//! `PlyCount`, and each move's evaluation and time in a comment as fastchess writes it,
//! `{+0.31/12 0.101s}` (pawns from the mover's side, or `+M5` for a mate, then the depth).

use std::fmt::Write;

use super::results::{Ending, GameRecord, MoveRecord};

/// What the tags say of the match.
pub struct Match<'a> {
    pub event: &'a str,
    /// The players' names, A's then B's.
    pub players: [&'a str; 2],
    /// The date in PGN's form, `YYYY.MM.DD`.
    pub date: &'a str,
}

/// Writes `game` (a chess game's record) as one PGN game, ending with a blank line.
pub fn write(game: &GameRecord, context: &Match<'_>) -> String {
    let mut fields = game.opening.split_whitespace();
    let _placement = fields.next();
    let white_first = fields.next() != Some("b");
    let fullmove: u64 = fields.nth(3).and_then(|n| n.parse().ok()).unwrap_or(1);
    let a_first = game.first == "A";
    let [a, b] = context.players;
    let (white, black) = if a_first == white_first {
        (a, b)
    } else {
        (b, a)
    };
    let mut pgn = String::new();
    let mut tag = |name: &str, value: &str| {
        let value = value.replace('\\', "\\\\").replace('"', "\\\"");
        let _ = writeln!(pgn, "[{name} \"{value}\"]");
    };
    tag("Event", context.event);
    tag("Site", "?");
    tag("Date", context.date);
    tag("Round", &(game.index + 1).to_string());
    tag("White", white);
    tag("Black", black);
    tag("Result", &game.result);
    if !game.from_start {
        tag("SetUp", "1");
        tag("FEN", &game.opening);
    }
    tag("Termination", termination(game.ended_by));
    tag("PlyCount", &game.moves.len().to_string());
    pgn.push('\n');

    let mut words = Vec::new();
    for (ply, mv) in game.moves.iter().enumerate() {
        let white_moves = (ply % 2 == 0) == white_first;
        let number = fullmove + (ply as u64 + u64::from(!white_first)) / 2;
        if white_moves {
            words.push(format!("{number}."));
        } else if ply == 0 {
            words.push(format!("{number}..."));
        }
        words.push(mv.san.clone().unwrap_or_else(|| mv.mv.to_string()));
        words.push(comment(mv));
    }
    let mut end = format!("{{{}", game.ended_by.name().replace('_', " "));
    if let Some(detail) = &game.detail {
        let _ = write!(end, ": {}", detail.replace(['{', '}'], ""));
    }
    end.push('}');
    words.push(end);
    words.push(game.result.clone());
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

/// A move's comment: its evaluation and depth when its player gave them, and its time.
fn comment(mv: &MoveRecord) -> String {
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
        Some(evaluation) => format!("{{{evaluation}/{} {seconds:.3}s}}", mv.depth.unwrap_or(0)),
        None => format!("{{{seconds:.3}s}}"),
    }
}

/// PGN's `Termination` for an ending.
fn termination(ending: Ending) -> &'static str {
    match ending {
        Ending::Won
        | Ending::Drawn
        | Ending::Checkmate
        | Ending::Stalemate
        | Ending::InsufficientMaterial
        | Ending::FiftyMoveRule
        | Ending::ThreefoldRepetition
        | Ending::Resigned => "normal",
        Ending::MaxPlies | Ending::DrawAdjudication | Ending::ResignAdjudication => "adjudication",
        Ending::TimeForfeit => "time forfeit",
        Ending::IllegalMove => "rules infraction",
        Ending::EngineCrash => "abandoned",
    }
}

/// Today's date (UTC) in PGN's form.
pub fn today() -> String {
    let (year, month, day) = civil(seconds_now() / 86_400);
    format!("{year:04}.{month:02}.{day:02}")
}

/// Now (UTC) as the Japanese records write a game's start: `2026/11/28 10:00:00`.
pub fn now_in_records() -> String {
    let seconds = seconds_now();
    let (year, month, day) = civil(seconds / 86_400);
    let time = seconds % 86_400;
    format!(
        "{year:04}/{month:02}/{day:02} {:02}:{:02}:{:02}",
        time / 3600,
        time / 60 % 60,
        time % 60
    )
}

fn seconds_now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |since| since.as_secs()) as i64
}

/// The year, month and day of a day counted from 1970-01-01: Howard Hinnant's days-to-civil
/// algorithm.
fn civil(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_index + 2) / 5 + 1;
    let month = if month_index < 10 {
        month_index + 3
    } else {
        month_index - 9
    };
    (year_of_era + era * 400 + i64::from(month <= 2), month, day)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Notation;

    fn mv(san: &str, cp: Option<i32>, mate: Option<i32>) -> MoveRecord {
        MoveRecord {
            mv: Notation::Text(String::new()),
            san: Some(san.into()),
            score: None,
            cp,
            mate,
            margin: None,
            depth: Some(12),
            nodes: 10,
            time_ms: 101.0,
        }
    }

    #[test]
    fn a_game_from_a_position_with_black_to_move() {
        let game = GameRecord {
            index: 4,
            opening: "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1".into(),
            from_start: false,
            opening_moves: Vec::new(),
            first: "B".into(),
            moves: vec![mv("e5", Some(31), None), mv("Nf3", None, Some(-3))],
            winner: None,
            result: "1/2-1/2".into(),
            ended_by: Ending::MaxPlies,
            detail: None,
        };
        let context = Match {
            event: "test",
            players: ["sente \"A\"", "stockfish"],
            date: "2026.11.24",
        };
        let pgn = write(&game, &context);
        // B moved first, with Black: A is White.
        assert!(
            pgn.contains("[White \"sente \\\"A\\\"\"]\n[Black \"stockfish\"]"),
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
    fn dates_are_civil() {
        let today = today();
        assert_eq!(today.len(), 10);
        assert!(today.as_str() >= "2024.01.01", "{today}");
    }
}
