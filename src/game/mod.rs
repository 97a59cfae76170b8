//! Games: the rules of two-player, zero-sum, perfect-information games, and nothing else.
//!
//! A position is a `Clone` value that searches copy instead of making and unmaking moves; the
//! small games are plain `Copy` bitboards, for which a clone is a copy. This module knows nothing about search: it says what
//! the legal moves are, what a move does, who has won, how a board is written, and offers a
//! static estimate of a position ([`Knowledge::EVALUATIONS`]) as game knowledge that searches may use.

pub mod date;
mod declaration;
mod drawing;
mod inputs;
mod knowledge;
pub mod perft;
pub mod reachable;
mod rules;
mod symmetry;
pub mod text;

pub use declaration::{
    Bench, Book, BookError, BookOpening, DEFAULT_TIME_LIMIT_MS, Declaration, EngineDeclaration,
    Evaluation, EvaluationUnits, LEVEL_NAMES, LEVELS, Level, Limits, Network, Protocol, ReadRecord,
    RecordError, RecordFormat, RecordedGame, RecordedMove, TextEncoding,
};
pub use drawing::Drawing;
pub use inputs::Inputs;
pub use knowledge::Knowledge;
pub use rules::Rules;
pub use symmetry::Symmetry;

use std::fmt::{self, Display};

/// One of the two sides. X always moves first.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    X,
    O,
}

impl Player {
    pub fn opponent(self) -> Player {
        match self {
            Player::X => Player::O,
            Player::O => Player::X,
        }
    }
}

/// Written as in the boards' text, `"X"` or `"O"`.
impl serde::Serialize for Player {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(match self {
            Player::X => "X",
            Player::O => "O",
        })
    }
}

impl Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Player::X => "X",
            Player::O => "O",
        })
    }
}

/// Where a game stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    InProgress,
    Won(Player),
    Draw,
}

impl Outcome {
    pub fn is_over(self) -> bool {
        self != Outcome::InProgress
    }
}

/// What the side to move has: its legal moves, or the end of the game.
#[derive(Clone, Debug)]
pub enum Turn<M> {
    Moves(M),
    Over(Outcome),
}

/// What stands on a cell of a board written as rows of `X`, `O` and empty cells, top row
/// first and `/` between rows: [`Drawing::cell`]'s default, and what a game that reads its cells
/// from its own data is checked against.
pub fn cell_in_text(text: &str, row: usize, col: usize) -> Option<(Player, char)> {
    match text.split('/').nth(row)?.chars().nth(col)? {
        'X' => Some((Player::X, 'X')),
        'O' => Some((Player::O, 'O')),
        _ => None,
    }
}

/// A game: its rules ([`Rules`], the required core), what a front end draws of it
/// ([`Drawing`]), what searches may know of it ([`Knowledge`]) and what a network reads of it
/// ([`Inputs`]), each part a trait of its own with the defaults a simple game needs. Every type
/// with the four parts is a `Game`: generic code asks for this one bound.
pub trait Game: Rules + Drawing + Knowledge + Inputs {}

impl<G: Rules + Drawing + Knowledge + Inputs> Game for G {}

/// Why a board's text form was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// `position` counts from 0; the message counts as people do.
    #[error(
        "unexpected character {found:?}, the {} character of the text: a cell is X, O, '.', '-' or '_', and rows may be separated by '/' or line breaks",
        ordinal(position + 1)
    )]
    BadCharacter { found: char, position: usize },
    /// `row` counts from 1 at the top of the text.
    #[error(
        "the {} row of the text (from the top) has {found} cells, but a {game} row has {expected}",
        ordinal(*row)
    )]
    RowLength {
        row: usize,
        found: usize,
        expected: usize,
        game: &'static str,
    },
    #[error("the board has {found} cells, more than the {expected} of a {game} board")]
    TooManyCells {
        found: usize,
        expected: usize,
        game: &'static str,
    },
    #[error("the board has {found} cells, fewer than the {expected} of a {game} board")]
    TooFewCells {
        found: usize,
        expected: usize,
        game: &'static str,
    },
    #[error("impossible position: {0}")]
    Impossible(String),
    /// Text in the game's own notation (a chess FEN) that is not well formed: says what.
    #[error("{0}")]
    Notation(String),
}

/// Why a move index was rejected in a position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    #[error("the game is already over")]
    GameOver,
    /// A number outside the game's moves, which are `first..=last` (a game need not number
    /// them from 0).
    #[error("move {index} is out of range: moves are numbered {first} to {last}")]
    OutOfRange {
        index: usize,
        first: usize,
        last: usize,
    },
    #[error("move {index} is not legal: {reason}")]
    Illegal { index: usize, reason: &'static str },
    #[error("{written} is not a move: {expected}")]
    Unreadable {
        written: String,
        expected: &'static str,
    },
}

/// A move as a game writes it in requests and answers: a number (a cell, a column) or text
/// (`"h8"`), each game in its own standard notation. JSON carries either as it is.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(untagged)]
pub enum Notation {
    Number(i64),
    Text(String),
}

impl Display for Notation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Notation::Number(number) => write!(f, "{number}"),
            Notation::Text(text) => write!(f, "{text:?}"),
        }
    }
}

impl Notation {
    /// The move as plain text (a number in digits), as protocols that are not JSON write it.
    pub fn into_text(self) -> String {
        match self {
            Notation::Number(number) => number.to_string(),
            Notation::Text(text) => text,
        }
    }
}

/// Each move of a line from `game` written by `write` in the position it is played in.
pub fn written<G: Game, T>(game: &G, line: &[G::Move], write: impl Fn(&G, G::Move) -> T) -> Vec<T> {
    let mut position = game.clone();
    line.iter()
        .map(|&mv| {
            let written = write(&position, mv);
            position = position.play(mv);
            written
        })
        .collect()
}

/// `cp` and `mate` for a score of the side to move, when the game counts in pawns: `mate` is
/// the moves (not plies) to a proven mate, positive when the side to move mates; `cp` the
/// centipawns an unproven score stands for.
pub fn in_pawns<G: Game>(
    score: f64,
    exact: bool,
    plies_to_end: Option<u32>,
) -> (Option<i32>, Option<i32>) {
    let Some(cp) = G::centipawns(score) else {
        return (None, None);
    };
    match plies_to_end {
        Some(plies) if exact && score != 0.0 => {
            // The side that mates makes the last move: a win in p plies is (p + 1) / 2 of its
            // moves, a loss in p plies p / 2 of the opponent's.
            let plies = plies as i32;
            let mate = if score > 0.0 {
                (plies + 1) / 2
            } else {
                -(plies / 2)
            };
            (None, Some(mate))
        }
        _ if exact => (Some(0), None),
        _ => (Some(cp), None),
    }
}

/// Reads a number (a whole one, however JSON writes it) or a string; anything else is "a move
/// written as a number or as text", in the request's 400.
impl<'de> serde::Deserialize<'de> for Notation {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = Notation;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a move, written as a number or as text")
            }

            fn visit_i64<E: serde::de::Error>(self, value: i64) -> Result<Notation, E> {
                Ok(Notation::Number(value))
            }

            fn visit_u64<E: serde::de::Error>(self, value: u64) -> Result<Notation, E> {
                Ok(Notation::Number(i64::try_from(value).unwrap_or(i64::MAX)))
            }

            fn visit_f64<E: serde::de::Error>(self, value: f64) -> Result<Notation, E> {
                if value.is_finite() && value.fract() == 0.0 {
                    Ok(Notation::Number(value as i64))
                } else {
                    Err(E::invalid_type(serde::de::Unexpected::Float(value), &self))
                }
            }

            fn visit_str<E: serde::de::Error>(self, value: &str) -> Result<Notation, E> {
                Ok(Notation::Text(value.to_owned()))
            }
        }
        deserializer.deserialize_any(Visitor)
    }
}

/// A move sequence that could not be replayed, with the 0-based position of the bad move (it
/// says it as people count: the first move is the 1st).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the {} move: {error}", ordinal(position + 1))]
pub struct MoveSequenceError {
    pub position: usize,
    pub error: MoveError,
}

/// `n` as an ordinal: 1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st...
pub fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// Iterator over the set bits of a mask, lowest first, as bit indices.
///
/// Clearing the lowest set bit with `m & (m - 1)` makes each step a couple of instructions,
/// and `len` is a popcount, so a random move is drawn without collecting the moves.
#[derive(Copy, Clone, Debug)]
pub struct Bits(pub u64);

impl Iterator for Bits {
    type Item = u8;

    #[inline]
    fn next(&mut self) -> Option<u8> {
        if self.0 == 0 {
            return None;
        }
        let index = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(index)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }

    #[inline]
    fn nth(&mut self, n: usize) -> Option<u8> {
        for _ in 0..n {
            if self.0 == 0 {
                return None;
            }
            self.0 &= self.0 - 1;
        }
        self.next()
    }
}

impl ExactSizeIterator for Bits {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinals_are_written_as_people_count() {
        let written: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111]
            .into_iter()
            .map(ordinal)
            .collect();
        assert_eq!(
            written,
            [
                "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd",
                "101st", "111th"
            ]
        );
    }

    #[test]
    fn bits_iterates_lowest_first_and_knows_its_length() {
        let bits = Bits(0b1010_0110);
        assert_eq!(bits.len(), 4);
        assert_eq!(bits.collect::<Vec<_>>(), vec![1, 2, 5, 7]);
        assert_eq!(Bits(0b1010_0110).nth(2), Some(5));
        assert_eq!(Bits(0b1010_0110).nth(4), None);
    }
}
