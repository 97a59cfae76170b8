//! The text form of a board, the same for every game: the cells row by row from the top-left,
//! `X`/`x`, `O`/`o`, and `.`, `-` or `_` for an empty cell. Rows may be separated by `/` or line
//! breaks (`"X.O/.X./..O"`), or not at all (`"X.O.X...O"`).

use std::cmp::Ordering;

use super::{BoardError, Player};

/// The pieces of a board read from text, as sets of cells numbered row-major from the top-left
/// (`cell = row * columns + column`): bit `cell` of `x` is set when X is on that cell. Each game
/// maps these onto its own bitboard layout.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Cells {
    pub x: u64,
    pub o: u64,
}

/// Reads the text form of a `rows` by `columns` board of `game` of at most 64 cells.
pub fn read(
    text: &str,
    game: &'static str,
    rows: usize,
    columns: usize,
) -> Result<Cells, BoardError> {
    debug_assert!(
        rows * columns <= 64,
        "a board of {rows} x {columns} does not fit in a u64"
    );
    let mut pieces = Cells::default();
    scan(text, game, rows, columns, |cell, player| match player {
        Player::X => pieces.x |= 1 << cell,
        Player::O => pieces.o |= 1 << cell,
    })?;
    Ok(pieces)
}

/// Reads the text form of a `rows` by `columns` board of `game`, of any size: `put` is told
/// each piece's cell, numbered row-major from the top-left.
///
/// Separators are optional, but where a text has them every row between them must be whole:
/// one row short of a cell would shift every later cell into the wrong place, and the position
/// read would quietly differ from the one meant. Empty rows (as between `\r` and `\n`, or after
/// a final line break) are not rows.
pub fn scan(
    text: &str,
    game: &'static str,
    rows: usize,
    columns: usize,
    mut put: impl FnMut(usize, Player),
) -> Result<(), BoardError> {
    let size = rows * columns;
    let (mut cells, mut row_cells, mut separated) = (0, 0, false);
    let mut rows_read = 0;
    let mut end_row = |row_cells: usize| {
        if row_cells == 0 {
            return Ok(());
        }
        rows_read += 1;
        if row_cells == columns {
            Ok(())
        } else {
            Err(BoardError::RowLength {
                row: rows_read,
                found: row_cells,
                expected: columns,
                game,
            })
        }
    };
    for (position, ch) in text.chars().enumerate() {
        match ch {
            '/' | '\n' | '\r' => {
                separated = true;
                end_row(row_cells)?;
                row_cells = 0;
                continue;
            }
            'X' | 'x' if cells < size => put(cells, Player::X),
            'O' | 'o' if cells < size => put(cells, Player::O),
            'X' | 'x' | 'O' | 'o' => {}
            '.' | '-' | '_' => {}
            found => return Err(BoardError::BadCharacter { found, position }),
        }
        cells += 1;
        row_cells += 1;
    }
    if separated {
        end_row(row_cells)?;
    }
    let (found, expected) = (cells, size);
    match cells.cmp(&size) {
        Ordering::Equal => Ok(()),
        Ordering::Greater => Err(BoardError::TooManyCells {
            found,
            expected,
            game,
        }),
        Ordering::Less => Err(BoardError::TooFewCells {
            found,
            expected,
            game,
        }),
    }
}

/// At most the first few dozen characters of `text`, with `...` where it goes on: what a
/// message quotes of a file's line or an engine's words, which may be any length.
pub fn excerpt(text: &str) -> String {
    const SHOWN: usize = 40;
    match text.char_indices().nth(SHOWN) {
        None => text.to_owned(),
        Some((at, _)) => format!("{}...", &text[..at]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ttt(text: &str) -> Result<Cells, BoardError> {
        read(text, "example", 3, 3)
    }

    #[test]
    fn reads_cells_row_major_with_or_without_separators() {
        let expected = Cells {
            x: 0b000_010_001,
            o: 0b100_000_100,
        };
        for text in [
            "X.O.X...O",
            "X.O/.X./..O",
            "x-o\n_X.\r\n..o\n",
            "X.O/.X.\n..O/",
        ] {
            assert_eq!(ttt(text), Ok(expected), "{text:?}");
        }
    }

    #[test]
    fn a_separated_row_must_be_whole() {
        // 9 cells in all, but the second row is one short and the third one long.
        assert_eq!(
            ttt("X.O/.X/...O"),
            Err(BoardError::RowLength {
                row: 2,
                found: 2,
                expected: 3,
                game: "example"
            })
        );
        assert_eq!(
            ttt("X.O/.X./..O."),
            Err(BoardError::RowLength {
                row: 3,
                found: 4,
                expected: 3,
                game: "example"
            })
        );
        // A whole board followed by a separator is one row of nine.
        assert!(matches!(
            ttt("X.O.X...O/"),
            Err(BoardError::RowLength {
                row: 1,
                found: 9,
                ..
            })
        ));
        let message = ttt("X.O/.X/...O").unwrap_err().to_string();
        assert!(
            message.contains("the 2nd row") && message.contains("has 2 cells"),
            "{message}"
        );
    }
}
