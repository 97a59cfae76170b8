//! Opening books as chess programs write them: EPD (a position a line) and PGN (games whose
//! moves lead to the opening), read into positions a tournament starts from. PGN is read by
//! `pgn-reader`, the SAN by shakmaty; the main line of each game is its opening, variations are
//! skipped.

use std::ops::ControlFlow;

use pgn_reader::{RawTag, Reader, SanPlus, Visitor};
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Position};

use crate::game::text::excerpt;
use crate::game::{self, BookError, BookOpening};

/// The chess books, by extension, as chess's declaration lists them.
pub const BOOKS: [game::Book; 2] = [
    game::Book {
        extension: "epd",
        read: read_epd,
    },
    game::Book {
        extension: "pgn",
        read: read_pgn,
    },
];

/// Reads an EPD book: each line a position's first four FEN fields (placement, side, castling,
/// en passant), with operations after them ignored. Blank lines and `#` comments are skipped.
/// More than `max` openings is an error, said as soon as the one too many is read.
pub fn read_epd(text: &str, max: usize) -> Result<Vec<BookOpening>, BookError> {
    let mut openings = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if openings.len() == max {
            return Err(too_many(max, index + 1));
        }
        let fields: Vec<&str> = line.split_whitespace().take(4).collect();
        if fields.len() < 4 {
            return Err(at_line(
                index,
                format!(
                    "an EPD line starts with four FEN fields (placement, side to move, \
                     castling, en passant), got {:?}",
                    excerpt(line)
                ),
            ));
        }
        let fen = format!("{} 0 1", fields.join(" "));
        Fen::from_ascii(fen.as_bytes())
            .map_err(|error| at_line(index, error.to_string()))?
            .into_position::<shakmaty::Chess>(CastlingMode::Standard)
            .map_err(|error| at_line(index, error.to_string()))?;
        openings.push(BookOpening {
            board: Some(fen),
            moves: Vec::new(),
            line: index + 1,
        });
    }
    Ok(openings)
}

/// Reads a PGN book: each game's main line, from its `FEN` tag or the start.
/// More than `max` openings is an error, said as soon as the one too many is read.
pub fn read_pgn(text: &str, max: usize) -> Result<Vec<BookOpening>, BookError> {
    let starts = game_lines(text);
    let mut reader = Reader::new(text.as_bytes());
    let mut book = Book {
        game: 0,
        starts: &starts,
    };
    let mut openings = Vec::new();
    while let Some(opening) = reader
        .read_game(&mut book)
        .map_err(|error| BookError::Reader(error.to_string()))?
    {
        if openings.len() == max {
            let line = starts.get(max).copied().unwrap_or(0);
            return Err(too_many(max, line));
        }
        openings.push(opening?);
    }
    Ok(openings)
}

/// The first game of a PGN text, its main line from its `FEN` tag or the start; `None` where
/// the text holds no game.
pub fn first_pgn_game(text: &str) -> Result<Option<BookOpening>, BookError> {
    let starts = game_lines(text);
    let mut book = Book {
        game: 0,
        starts: &starts,
    };
    match Reader::new(text.as_bytes()).read_game(&mut book) {
        Ok(game) => game.transpose(),
        Err(error) => Err(BookError::Reader(error.to_string())),
    }
}

fn too_many(max: usize, line: usize) -> BookError {
    BookError::TooMany { line, max }
}

/// What is wrong with the line at `index` (from 0).
fn at_line(index: usize, why: String) -> BookError {
    BookError::Unreadable {
        at: format!("line {}", index + 1),
        why,
    }
}

/// The line each game of a PGN text begins on: the first tag line after movetext (or the first
/// line of moves of a game without tags).
fn game_lines(text: &str) -> Vec<usize> {
    let mut starts = Vec::new();
    let mut in_tags = false;
    let mut in_moves = false;
    for (index, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        if line.starts_with('[') {
            if !in_tags {
                starts.push(index + 1);
            }
            in_tags = true;
            in_moves = false;
        } else {
            if !in_tags && !in_moves {
                starts.push(index + 1);
            }
            in_tags = false;
            in_moves = !ends_game(line);
        }
    }
    starts
}

/// Whether a line of moves ends its game with a result.
fn ends_game(line: &str) -> bool {
    ["1-0", "0-1", "1/2-1/2", "*"]
        .iter()
        .any(|result| line.ends_with(result))
}

struct Book<'a> {
    game: usize,
    starts: &'a [usize],
}

impl Book<'_> {
    fn error(&self, why: String) -> BookError {
        let at = match self.starts.get(self.game - 1) {
            Some(line) => format!("game {} (line {line})", self.game),
            None => format!("game {}", self.game),
        };
        BookError::Unreadable { at, why }
    }
}

struct Line {
    fen: Option<String>,
    position: shakmaty::Chess,
    moves: Vec<String>,
}

impl Visitor for Book<'_> {
    type Tags = Option<String>;
    type Movetext = Line;
    type Output = Result<BookOpening, BookError>;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        self.game += 1;
        ControlFlow::Continue(None)
    }

    fn tag(
        &mut self,
        fen: &mut Self::Tags,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<Self::Output> {
        if name == b"FEN" {
            *fen = Some(value.decode_utf8_lossy().into_owned());
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, fen: Self::Tags) -> ControlFlow<Self::Output, Self::Movetext> {
        let position = match &fen {
            None => shakmaty::Chess::default(),
            Some(text) => {
                let position = Fen::from_ascii(text.as_bytes())
                    .map_err(|error| error.to_string())
                    .and_then(|fen| {
                        fen.into_position(CastlingMode::Standard)
                            .map_err(|error| error.to_string())
                    });
                match position {
                    Ok(position) => position,
                    Err(error) => {
                        return ControlFlow::Break(Err(
                            self.error(format!("FEN {:?}: {error}", excerpt(text)))
                        ));
                    }
                }
            }
        };
        ControlFlow::Continue(Line {
            fen,
            position,
            moves: Vec::new(),
        })
    }

    fn san(&mut self, line: &mut Self::Movetext, san: SanPlus) -> ControlFlow<Self::Output> {
        match san.san.to_move(&line.position) {
            Ok(mv) => {
                line.moves
                    .push(UciMove::from_move(mv, CastlingMode::Standard).to_string());
                line.position.play_unchecked(mv);
                ControlFlow::Continue(())
            }
            Err(error) => ControlFlow::Break(Err(
                self.error(format!("ply {} ({san}): {error}", line.moves.len() + 1))
            )),
        }
    }

    fn end_game(&mut self, line: Self::Movetext) -> Self::Output {
        Ok(BookOpening {
            board: line.fen,
            moves: line.moves,
            line: self.starts.get(self.game - 1).copied().unwrap_or(0),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_epd_book_gives_its_positions_and_names_a_bad_line() {
        let book = "# two openings\nrnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - id \"e4\";\n\n\
                    rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq -\n";
        let openings = read_epd(book, 10).unwrap();
        assert_eq!(openings.len(), 2);
        assert_eq!(
            openings[0].board.as_deref(),
            Some("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
        );
        assert_eq!(openings[1].line, 4);
        let error = read_epd("8/8/8/8/8/8/8/8 w - -\n", 10)
            .unwrap_err()
            .to_string();
        assert!(error.starts_with("line 1: "), "{error}");
        let error = read_epd("\nrnbqkbnr w\n", 10).unwrap_err().to_string();
        assert!(error.starts_with("line 2: "), "{error}");
        // A long line is quoted only in part.
        let error = read_epd(&format!("{} w\n", "x".repeat(1_000_000)), 10)
            .unwrap_err()
            .to_string();
        assert!(error.len() < 200 && error.contains("xxx...\""), "{error}");
        // One opening too many is refused where it is.
        let error = read_epd(book, 1).unwrap_err().to_string();
        assert_eq!(
            error,
            "line 4: more than 1 openings, the most a tournament takes"
        );
    }

    #[test]
    fn a_pgn_book_gives_each_main_line_and_names_the_game_and_line_at_fault() {
        let book = "[Event \"one\"]\n[Site \"?\"]\n\n1. e4 e5 (1... c5 2. Nf3) 2. Nf3 Nc6 *\n\n\
                    [Event \"two\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n\n1. e4 Kd7 1/2-1/2\n";
        let openings = read_pgn(book, 10).unwrap();
        assert_eq!(openings.len(), 2);
        assert_eq!(openings[0].moves, ["e2e4", "e7e5", "g1f3", "b8c6"]);
        assert_eq!((openings[0].board.as_deref(), openings[0].line), (None, 1));
        assert_eq!(openings[1].moves, ["e2e4", "e8d7"]);
        assert_eq!(openings[1].line, 6);
        let error = read_pgn(
            "[Event \"a\"]\n\n1. e4 e5 *\n\n[Event \"b\"]\n\n1. e4 Ke7 2. Qh5 *\n",
            10,
        )
        .unwrap_err()
        .to_string();
        assert_eq!(error.split(':').next(), Some("game 2 (line 5)"), "{error}");
        assert!(error.contains("ply 2 (Ke7)"), "{error}");
        let error = read_pgn(book, 1).unwrap_err().to_string();
        assert!(error.starts_with("line 6: more than 1 openings"), "{error}");
    }
}
