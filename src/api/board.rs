//! A board as a request gives it: text (`"X.O/.X./..O"`), or an array of cells, flat or in
//! rows, each cell `"X"`, `"O"`, `""` or `null`.
//!
//! The JSON types are checked while decoding, as every other field's are: a board that is a
//! number, or a cell that is `true`, is a 400 naming it (`board`, `board[0][1]`). What only a
//! game can judge (a letter other than X or O, a row of the wrong length, a board of rows with
//! a single cell among them) is checked afterwards, and is a 422.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, SeqAccess};

use super::Problem;
use crate::game::{BoardError, Game, ordinal};

/// A board, decoded but not yet read as a position.
#[derive(Clone, Debug, PartialEq)]
pub enum BoardSpec {
    /// The text form.
    Text(String),
    /// An array of cells, or of rows of cells (checked when read: see [`BoardSpec::position`]).
    Array(Vec<Item>),
}

/// An element of a board given as an array: a cell, or a row of cells.
#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    Cell(Cell),
    Row(Vec<Cell>),
}

/// One cell of a board given as an array.
#[derive(Clone, Debug, PartialEq)]
pub enum Cell {
    /// `""`, `"."` or `null`.
    Empty,
    /// `"X"` or `"x"`.
    X,
    /// `"O"` or `"o"`.
    O,
    /// Any other string: the right type, but not a cell (a 422 once the board is read).
    Other(String),
}

impl BoardSpec {
    /// The position this board describes.
    pub fn position<G: Game>(&self) -> Result<G, Problem> {
        let parse = |text: &str| {
            text.parse()
                .map_err(|error: BoardError| Problem::invalid("board", error.to_string()))
        };
        match self {
            // Text is parsed where it lies; an array is first written as text.
            BoardSpec::Text(text) => parse(text),
            BoardSpec::Array(items) => parse(&array_text::<G>(items)?),
        }
    }
}

/// The text form of a board given as an array: of cells, or of rows of cells. A board in rows
/// has all its rows, each whole, so that an error names the row at fault rather than the total.
fn array_text<G: Game>(items: &[Item]) -> Result<String, Problem> {
    let in_rows = items.iter().any(|item| matches!(item, Item::Row(_)));
    if in_rows && items.len() != G::ROWS {
        return Err(Problem::invalid(
            "board",
            format!(
                "board: a {} board has {} rows, this one has {}",
                G::NAME,
                G::ROWS,
                items.len()
            ),
        ));
    }
    let mut text = String::with_capacity(G::ROWS * (G::COLUMNS + 1));
    for (index, item) in items.iter().enumerate() {
        match item {
            Item::Row(row) if row.len() == G::COLUMNS => {
                if index > 0 {
                    text.push('/');
                }
                for (column, cell) in row.iter().enumerate() {
                    text.push(cell.text(|| format!("board[{index}][{column}]"))?);
                }
            }
            Item::Row(row) => {
                let field = format!("board[{index}]");
                let detail = format!(
                    "{field}, the {} row: a row of a {} board has {} cells, this one has {}",
                    ordinal(index + 1),
                    G::NAME,
                    G::COLUMNS,
                    row.len()
                );
                return Err(Problem::invalid(&field, detail));
            }
            Item::Cell(_) if in_rows => {
                let field = format!("board[{index}]");
                let detail = format!(
                    "{field}, the {} item: a board of rows holds only rows, not single cells",
                    ordinal(index + 1)
                );
                return Err(Problem::invalid(&field, detail));
            }
            Item::Cell(cell) => text.push(cell.text(|| format!("board[{index}]"))?),
        }
    }
    Ok(text)
}

impl Cell {
    /// The cell's character in the text form; `field` names it, and is only written out for
    /// an error.
    fn text(&self, field: impl FnOnce() -> String) -> Result<char, Problem> {
        match self {
            Cell::Empty => Ok('.'),
            Cell::X => Ok('X'),
            Cell::O => Ok('O'),
            Cell::Other(found) => {
                let field = field();
                let detail =
                    format!("{field}: a cell is \"X\", \"O\", \"\" or null, not {found:?}");
                Err(Problem::invalid(&field, detail))
            }
        }
    }

    fn parse(text: &str) -> Cell {
        match text {
            "" | "." => Cell::Empty,
            "X" | "x" => Cell::X,
            "O" | "o" => Cell::O,
            other => Cell::Other(other.to_owned()),
        }
    }
}

/// What a board, an element of one and a cell may be, for serde's "invalid type: ..., expected
/// ..." (a 400).
const BOARD: &str = "a board: a string such as \"X.O/.X./..O\" or an array of cells";
const ITEM: &str = "a cell (\"X\", \"O\", \"\" or null) or a row of cells";
const CELL: &str = "a cell: \"X\", \"O\", \"\" or null";

impl<'de> Deserialize<'de> for BoardSpec {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl<'de> de::Visitor<'de> for Visitor {
            type Value = BoardSpec;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(BOARD)
            }

            fn visit_str<E: de::Error>(self, text: &str) -> Result<BoardSpec, E> {
                Ok(BoardSpec::Text(text.to_owned()))
            }

            fn visit_string<E: de::Error>(self, text: String) -> Result<BoardSpec, E> {
                Ok(BoardSpec::Text(text))
            }

            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<BoardSpec, A::Error> {
                elements(seq).map(BoardSpec::Array)
            }
        }
        deserializer.deserialize_any(Visitor)
    }
}

impl<'de> Deserialize<'de> for Item {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl<'de> de::Visitor<'de> for Visitor {
            type Value = Item;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(ITEM)
            }

            fn visit_str<E: de::Error>(self, text: &str) -> Result<Item, E> {
                Ok(Item::Cell(Cell::parse(text)))
            }

            fn visit_unit<E: de::Error>(self) -> Result<Item, E> {
                Ok(Item::Cell(Cell::Empty))
            }

            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Item, A::Error> {
                elements(seq).map(Item::Row)
            }
        }
        deserializer.deserialize_any(Visitor)
    }
}

impl<'de> Deserialize<'de> for Cell {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl de::Visitor<'_> for Visitor {
            type Value = Cell;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(CELL)
            }

            fn visit_str<E: de::Error>(self, text: &str) -> Result<Cell, E> {
                Ok(Cell::parse(text))
            }

            fn visit_unit<E: de::Error>(self) -> Result<Cell, E> {
                Ok(Cell::Empty)
            }
        }
        deserializer.deserialize_any(Visitor)
    }
}

/// The elements of an array, each decoded as a `T`.
fn elements<'de, A: SeqAccess<'de>, T: Deserialize<'de>>(mut seq: A) -> Result<Vec<T>, A::Error> {
    // The hint is the client's word: it sizes the first allocation only up to a board's worth.
    let mut elements = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(64));
    while let Some(element) = seq.next_element()? {
        elements.push(element);
    }
    Ok(elements)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::TicTacToe;
    use serde_json::{Value, json};

    fn decode(board: Value) -> Result<BoardSpec, serde_json::Error> {
        serde_json::from_value(board)
    }

    fn position(board: Value) -> Result<TicTacToe, Problem> {
        decode(board)
            .expect("a board of the right types")
            .position()
    }

    #[test]
    fn boards_in_every_form() {
        let expected: TicTacToe = "X.O/.X./..O".parse().unwrap();
        assert_eq!(position(json!("X.O.X...O")), Ok(expected));
        assert_eq!(
            position(json!(["X", "", "O", null, "X", ".", "", "", "O"])),
            Ok(expected)
        );
        assert_eq!(
            position(json!([["X", "", "O"], ["", "x", null], ["", "", "o"]])),
            Ok(expected)
        );
    }

    #[test]
    fn a_value_of_the_wrong_type_does_not_decode() {
        for board in [
            json!(7),
            json!(true),
            json!({"cells": "X........"}),
            json!(["X", 1, "", "", "", "", "", "", ""]),
            json!([["X", "", "O"], ["", false, ""], ["", "", ""]]),
            json!([[["X"]], [], []]),
        ] {
            let error = decode(board.clone()).unwrap_err();
            assert!(
                error.to_string().starts_with("invalid type"),
                "{board}: {error}"
            );
        }
        // An empty board is the right type (a 422 once read).
        assert!(decode(json!([])).is_ok());
    }

    #[test]
    fn a_string_that_is_not_a_cell_is_named_by_its_place() {
        let problem = position(json!([["X", "Q", "O"], ["", "", ""], ["", "", ""]])).unwrap_err();
        assert_eq!(
            (problem.status, problem.field.as_deref()),
            (422, Some("board[0][1]"))
        );
        assert!(problem.detail.ends_with("not \"Q\""), "{problem}");
        let problem = position(json!(["X", "", "O", "", "XO", "", "", "", ""])).unwrap_err();
        assert_eq!(problem.field.as_deref(), Some("board[4]"));
    }

    #[test]
    fn a_board_in_rows_has_every_row_whole() {
        let problem = |board: Value| {
            let problem = position(board).unwrap_err();
            (problem.field.unwrap_or_default(), problem.detail)
        };
        // Nine cells in all, but the second row is short and the third long.
        let (field, detail) = problem(json!([["X", "", "O"], ["", "X"], ["", "", "", "O"]]));
        assert_eq!(field, "board[1]");
        assert!(detail.contains("has 3 cells, this one has 2"), "{detail}");
        let (field, detail) = problem(json!([["X", "", "O"], ["", "X", ""]]));
        assert_eq!(field, "board");
        assert!(detail.contains("has 3 rows, this one has 2"), "{detail}");
        let (field, detail) = problem(json!([["X", "", "O"], "X", ["", "", ""]]));
        assert_eq!(field, "board[1]");
        assert!(detail.contains("only rows"), "{detail}");
        // The text form says which row is wrong too.
        let (field, detail) = problem(json!("X.O/.X/...O"));
        assert_eq!(field, "board");
        assert!(detail.contains("the 2nd row"), "{detail}");
    }
}
