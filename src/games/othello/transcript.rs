//! The Othello transcript: a game as its moves one after another, `f5d6c3d3c4f4...`, as players
//! write games down, WZebra and Edax print them and game databases list them. A pass is not
//! written (the side that cannot move is known from the position); the game starts from the
//! usual four discs.

use super::session::Played;
use super::{Othello, PASS, square_name};
use crate::game::{ReadRecord, RecordError, RecordFormat, RecordedGame, Rules, TextEncoding};

/// The transcript, as `GET /games` lists it and `POST /record` writes it.
pub const FORMAT: RecordFormat = RecordFormat {
    name: "transcript",
    extension: "txt",
    encoding: TextEncoding::Utf8,
    media_type: "text/plain",
    collects: false,
    description: "The moves one after another, f5d6c3d3c4..., passes left out, as players, \
                  WZebra, Edax and game databases write an Othello game from the start.",
    write,
    read,
};

/// `game`'s moves as a transcript, on one line; a game from another position than the start
/// is written from there (its start is then not in the record).
pub fn write(game: &RecordedGame<'_>) -> String {
    let mut position: Othello = game.start.parse().unwrap_or_else(|_| Othello::start());
    let mut transcript = String::new();
    for recorded in game.moves {
        let Ok(mv) = position.read_move(&crate::game::Notation::Text(recorded.text.clone())) else {
            break;
        };
        if mv != PASS {
            transcript.push_str(&square_name(mv));
        }
        position = position.play(mv);
    }
    transcript + "\n"
}

/// A transcript: pairs of a column a-h and a row 1-8 in either case, spaces, dots and move
/// numbers between them allowed, a pass written as `pass`, `pa` or `--` or not at all.
pub fn read(text: &str) -> Result<ReadRecord, RecordError> {
    let words: String = text
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_ascii_lowercase();
    let mut played = Played::new();
    let mut rest = words.as_str();
    let mut ply = 0;
    while !rest.is_empty() {
        // Move numbers and their dots (`1.f5 d6 2.c3`) are skipped where a move cannot start.
        if let Some(after) = skip_numbering(rest) {
            rest = after;
            continue;
        }
        let pass = ["pass", "pa", "ps", "--"]
            .into_iter()
            .find(|word| rest.starts_with(word));
        let (written, after) = match pass {
            Some(word) => ("pass", &rest[word.len()..]),
            None => {
                let bytes = rest.as_bytes();
                let square = bytes.len() >= 2
                    && (b'a'..=b'h').contains(&bytes[0])
                    && (b'1'..=b'8').contains(&bytes[1]);
                if !square {
                    return Err(if ply == 0 {
                        RecordError::Foreign
                    } else {
                        RecordError::Unreadable(format!(
                            "ply {}: a move is a column a-h and a row 1-8 (f5), not {:?}",
                            ply + 1,
                            crate::game::text::excerpt(rest)
                        ))
                    });
                }
                (&rest[..2], &rest[2..])
            }
        };
        let position = *played.position();
        // The pass the transcript leaves out, played where the side to move has no disc to
        // place but the game goes on.
        if written != "pass" && position.placements() == 0 && !position.outcome().is_over() {
            played
                .play(None, "pass")
                .map_err(|error| RecordError::Unreadable(format!("ply {}: {error}", ply + 1)))?;
            ply += 1;
        }
        ply += 1;
        played
            .play(None, written)
            .map_err(|error| RecordError::Unreadable(format!("ply {ply}: {error}")))?;
        rest = after;
    }
    if ply == 0 {
        return Err(RecordError::Foreign);
    }
    Ok(ReadRecord {
        board: None,
        moves: played
            .moves()
            .into_iter()
            .map(|mv| Othello::start().notation(mv).into_text())
            .collect(),
    })
}

/// `rest` after a move number and its dots, where it starts with one.
fn skip_numbering(rest: &str) -> Option<&str> {
    let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let after = &rest[digits..];
    let dots = after.len() - after.trim_start_matches('.').len();
    (digits + dots > 0).then(|| &after[dots..])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::RecordedMove;

    #[test]
    fn a_transcript_is_read_with_its_passes_and_names_the_ply_at_fault() {
        let read = read("f5d6c3d3c4f4").unwrap();
        assert_eq!(read.moves, ["f5", "d6", "c3", "d3", "c4", "f4"]);
        assert_eq!(read.board, None);
        let spaced = super::read("1. F5 D6 2. C3 d3\n3. c4 f4").unwrap();
        assert_eq!(spaced.moves, read.moves);
        assert_eq!(super::read("(;GM[Othello];)"), Err(RecordError::Foreign));
        assert_eq!(super::read(""), Err(RecordError::Foreign));
        let RecordError::Unreadable(error) = super::read("f5d6a1").unwrap_err() else {
            panic!("a1 is a square");
        };
        assert!(error.starts_with("ply 3: "), "{error}");
        let RecordError::Unreadable(error) = super::read("f5d6z9").unwrap_err() else {
            panic!("z9 is no square");
        };
        assert!(error.starts_with("ply 3: "), "{error}");
    }

    /// A whole game, passes left out, read back from what the writer wrote: the same moves,
    /// the passes put back where the side to move had none.
    #[test]
    fn a_game_written_reads_back_with_its_passes() {
        // A game of the engine against the random player, which ends with six passes.
        let game = "d3e3f4g5g4c5f3f2e2d2f5g2c1c2g3h5h4f6h6h3f1g1h1h7h2g6e1d1b3b2h8a4g7e6f7c3a2\
                    b1f8g8a1e8d8c4c6";
        let read = read(game).unwrap();
        assert_eq!(read.moves.len(), 51);
        assert_eq!(read.moves.iter().filter(|mv| *mv == "pass").count(), 6);
        let moves: Vec<RecordedMove> = read
            .moves
            .iter()
            .map(|text| RecordedMove {
                text: text.clone(),
                ..RecordedMove::default()
            })
            .collect();
        let start = Othello::start().to_string();
        let written = write(&RecordedGame {
            index: None,
            event: "",
            date: "",
            start: &start,
            moves: &moves,
            players: ["", ""],
            winner: None,
            ending: "",
            detail: None,
        });
        assert_eq!(written, format!("{game}\n"));
    }
}
