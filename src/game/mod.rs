//! Games: the rules of two-player, zero-sum, perfect-information games, and nothing else.
//!
//! A position is a `Clone` value that searches copy instead of making and unmaking moves; the
//! small games are plain `Copy` bitboards, for which a clone is a copy. This module knows nothing about search: it says what
//! the legal moves are, what a move does, who has won, how a board is written, and offers a
//! static estimate of a position ([`Game::EVALUATIONS`]) as game knowledge that searches may use.

pub mod date;
mod declaration;
pub mod perft;
pub mod reachable;
mod symmetry;
pub mod text;

pub use declaration::{
    Book, BookOpening, DEFAULT_TIME_LIMIT_MS, Declaration, EngineDeclaration, Evaluation,
    EvaluationUnits, LEVEL_NAMES, LEVELS, Level, Limits, Network, Protocol, ReadRecord,
    RecordError, RecordFormat, RecordedGame, RecordedMove, TextEncoding,
};
pub use symmetry::Symmetry;

use std::fmt::{self, Debug, Display};
use std::hash::Hash;
use std::str::FromStr;

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
/// first and `/` between rows: [`Game::cell`]'s default, and what a game that reads its cells
/// from its own data is checked against.
pub fn cell_in_text(text: &str, row: usize, col: usize) -> Option<(Player, char)> {
    match text.split('/').nth(row)?.chars().nth(col)? {
        'X' => Some((Player::X, 'X')),
        'O' => Some((Player::O, 'O')),
        _ => None,
    }
}

/// The rules of a game.
///
/// Positions are immutable: [`Game::play`] returns the next position. Moves are small `Copy`
/// values with a compact id ([`Game::move_id`], below [`Game::MOVE_IDS`]) for tables, which is
/// also the cell or column number used in the text API.
pub trait Game:
    Clone + Eq + Hash + Debug + Display + FromStr<Err = BoardError> + Send + Sync + 'static
{
    type Move: Copy + Eq + Hash + Debug + Default + Send + Sync + 'static;
    /// The legal moves, in the game's natural order (the order ties are broken in).
    type Moves: ExactSizeIterator<Item = Self::Move>;

    /// The name used in the API: lowercase letters and digits.
    const NAME: &'static str;
    /// What the service says of the game, and the limits it sets on searches of it.
    const DECLARATION: Declaration;
    /// The board's size, as its text form writes it: `ROWS` rows of `COLUMNS` cells.
    const ROWS: usize;
    const COLUMNS: usize;
    /// Upper bound on the number of plies in a game; sizes per-ply buffers.
    const MAX_PLIES: usize;
    /// Number of distinct move ids: [`Game::move_id`] is below it.
    const MOVE_IDS: usize;
    /// The most plies a game lasts by its rules, where they bound it (a full board, shogi's
    /// move limit); `None` where they do not in practice (chess). What a tournament's results
    /// from another machine may claim is checked against it.
    const LONGEST_GAME: Option<usize> = None;
    /// Whether perft counts a game that ends before the depth as one path, as Othello's
    /// published figures (and Edax) do, rather than as none, as chess's do.
    const PERFT_COUNTS_FINISHED_GAMES: bool = false;
    /// The number of positions reachable from the start, when it is small enough to tabulate
    /// every one of them; `None` for larger games.
    const REACHABLE_POSITIONS: Option<usize>;

    /// The empty starting position.
    fn start() -> Self;

    fn side_to_move(&self) -> Player;

    /// The legal moves; none once the game is over.
    fn legal_moves(&self) -> Self::Moves;

    /// The moves perft counts: those the rules of movement allow, whatever a rule that ends a
    /// game without a move says (chess's fifty moves, repetition and dead positions, which
    /// published perft figures ignore). By default the legal moves.
    fn perft_moves(&self) -> Self::Moves {
        self.legal_moves()
    }

    /// The number of [`Game::perft_moves`], which a game may count without building the
    /// iterator.
    fn count_perft_moves(&self) -> usize {
        self.perft_moves().len()
    }

    /// The position after `mv`, which must be one of [`Game::legal_moves`].
    fn play(&self, mv: Self::Move) -> Self;

    /// Writes the position after `mv` into `next`, a slot the caller owns and reuses: a large
    /// position is then written once, where returning one writes it and moves it. By default
    /// `*next = self.play(mv)`.
    #[inline]
    fn play_into(&self, mv: Self::Move, next: &mut Self) {
        *next = self.play(mv);
    }

    fn outcome(&self) -> Outcome;

    /// The legal moves, or how the game ended when there are none: what a search asks at each
    /// node, so that the moves are generated once. By default the legal moves, and the outcome
    /// only when there are none; a game whose outcome costs a move generation (chess's mate,
    /// Othello's end) gives both from one.
    #[inline]
    fn turn(&self) -> Turn<Self::Moves> {
        let moves = self.legal_moves();
        if moves.len() == 0 {
            Turn::Over(self.outcome())
        } else {
            Turn::Moves(moves)
        }
    }

    /// The game's evaluations, apart from its rules: the first is the default, the others
    /// are chosen by the `evaluation` knob.
    const EVALUATIONS: &'static [Evaluation<Self>];

    /// The move's compact id, below [`Game::MOVE_IDS`]; in the API, the cell or column number.
    fn move_id(mv: Self::Move) -> u16;

    /// The move with API index `index`, if it is legal in this position.
    fn parse_move(&self, index: usize) -> Result<Self::Move, MoveError>;

    /// The move in the game's notation; by default its id, as a number.
    fn notation(&self, mv: Self::Move) -> Notation {
        Notation::Number(i64::from(Self::move_id(mv)))
    }

    /// The move `written` in the game's notation, if it is legal here. By default a number,
    /// the move's id (text holding one is read as it).
    fn read_move(&self, written: &Notation) -> Result<Self::Move, MoveError> {
        let number = match written {
            Notation::Number(number) => *number,
            Notation::Text(text) => text.trim().parse().map_err(|_| MoveError::Unreadable {
                written: written.to_string(),
                expected: Self::DECLARATION.moves,
            })?,
        };
        let index = usize::try_from(number).map_err(|_| MoveError::Unreadable {
            written: written.to_string(),
            expected: "a move's number is not negative",
        })?;
        self.parse_move(index)
    }

    /// The (row, column) of the cell the move fills, row 0 the top row as the board is drawn
    /// (the board's text, top row first), whichever way the game numbers its ranks; `None` for
    /// a move that fills no cell (a pass).
    fn move_cell(&self, mv: Self::Move) -> Option<(usize, usize)>;

    /// Number of moves played so far.
    fn ply(&self) -> usize;

    /// The most plies a search from here looks ahead: the plies left to the end of the game
    /// where the rules bound its length, else [`Game::MAX_PLIES`], the game's search horizon.
    fn plies_left(&self) -> usize {
        Self::MAX_PLIES - self.ply()
    }

    /// What stands on a cell (rows counted as [`Game::move_cell`] counts them): the side it
    /// belongs to and a letter for it, `X` or `O` for stones and discs, the piece's letter for
    /// games with pieces (chess's `K`, `Q`, `R`, `B`, `N`, `P`). By default read from the
    /// board's text form, rows of X, O and empty cells top row first.
    fn cell(&self, row: usize, col: usize) -> Option<(Player, char)> {
        cell_in_text(&self.to_string(), row, col)
    }

    /// The square a move starts from, for games whose pieces move (as [`Game::move_cell`]
    /// numbers cells); `None` for games that fill cells.
    fn move_origin(&self, mv: Self::Move) -> Option<(usize, usize)> {
        let _ = mv;
        None
    }

    /// The pieces `side` holds in hand, to drop on the board as a move (shogi's captured
    /// pieces), each as [`Game::cell`] draws it and how many; empty for games without hands.
    fn hand(&self, side: Player) -> Vec<(char, u32)> {
        let _ = side;
        Vec::new()
    }

    /// The piece a move drops from the hand (as [`Game::hand`] draws it), for games whose
    /// pieces in hand are dropped: such a move has a cell but no [origin](Game::move_origin).
    fn move_drop(&self, mv: Self::Move) -> Option<char> {
        let _ = mv;
        None
    }

    /// The rule that ended the game (`checkmate`, `stalemate`, `threefold_repetition`, ...),
    /// for games whose rules end games in more than one way; `None` while in progress.
    fn ending(&self) -> Option<&'static str> {
        None
    }

    /// The rule under which a player may claim a draw here though play may go on (chess's
    /// fifty-move rule and threefold repetition), for games that have such draws: the game is
    /// [over](Game::outcome) for a tournament, which ends it as match runners do, but a
    /// position to analyse.
    fn claimable_draw(&self) -> Option<&'static str> {
        None
    }

    /// Play goes on past a draw that could be claimed here ([`Game::claimable_draw`]): the
    /// position is then in progress, and the rules apply again after the next move.
    fn play_on(&mut self) {}

    /// The move in the notation players write (chess's SAN), where it differs from
    /// [`Game::notation`].
    fn san(&self, mv: Self::Move) -> Option<String> {
        let _ = mv;
        None
    }

    /// The advantage a score (the side to move's winning chances, in (-1, 1)) stands for in
    /// centipawns, for games whose players count in pawns.
    fn centipawns(score: f64) -> Option<i32> {
        let _ = score;
        None
    }

    /// The final disc difference a score (the side to move's winning chances, in (-1, 1))
    /// stands for, for games scored by their discs (Othello): the evaluation's estimate of
    /// the margin, read back from the score it was mapped to.
    fn discs(score: f64) -> Option<f64> {
        let _ = score;
        None
    }

    /// The cells of the line that won the game, as [`Game::move_cell`] numbers them, for a
    /// front end to show; empty while nobody has won, or when the game has no such line.
    fn winning_cells(&self) -> Vec<(usize, usize)> {
        Vec::new()
    }

    /// How many plies a game drawn from here lasts, when the rules fix it (a draw that can only
    /// be a full board); `None` when they do not. A proven draw's `plies_to_end` is this.
    fn draw_length(&self) -> Option<usize> {
        None
    }

    /// A number that identifies the position: equal keys, equal positions.
    fn key(&self) -> u64;

    /// The smallest [`Game::key`] among the position's symmetric images (rotations and
    /// reflections that preserve the rules), so that symmetric positions share one key.
    fn symmetric_key(&self) -> u64 {
        self.key()
    }

    /// A static guess at how promising a move is, higher first (the centre before the edges):
    /// what a search tries first when it knows nothing better.
    fn move_priority(&self, mv: Self::Move) -> i32 {
        let _ = mv;
        0
    }

    /// Whether `mv` is played in the middle of a fight for material (a capture, a promotion, an
    /// answer to a check): a search's score there tells what the fight comes to, which no
    /// static evaluation of the position could know, so training positions leave it out.
    fn is_tactical(&self, mv: Self::Move) -> bool {
        let _ = mv;
        false
    }

    /// How many inputs a network reading the position has ([`Game::network_inputs`]): by
    /// default two a cell.
    const NETWORK_INPUTS: usize = 2 * Self::ROWS * Self::COLUMNS;

    /// The inputs of a network reading the position (AlphaZero's) that are on, each below
    /// [`Game::NETWORK_INPUTS`], written into `active` (cleared first). Seen from the side to
    /// move, so that one network plays both sides: by default input `2 * cell` for a stone of
    /// the side to move on `cell` (counted `row * COLUMNS + col`, as [`Game::cell`] counts
    /// rows), `2 * cell + 1` for one of its opponent's. A game computes them from its own data
    /// where [`Game::cell`] would be slow.
    fn network_inputs(&self, active: &mut Vec<u16>) {
        active.clear();
        let me = self.side_to_move();
        for row in 0..Self::ROWS {
            for col in 0..Self::COLUMNS {
                if let Some((owner, _)) = self.cell(row, col) {
                    let cell = row * Self::COLUMNS + col;
                    active.push((2 * cell + usize::from(owner != me)) as u16);
                }
            }
        }
    }

    /// The board's symmetries a network may learn and search with ([`Symmetry`]), beside the
    /// identity: transforms of [`Game::network_inputs`]'s grid that keep the rules, the moves'
    /// ids mapped by [`Game::network_move_image`]. None by default.
    const NETWORK_SYMMETRIES: &'static [Symmetry] = &[];

    /// Move id `id`'s image under `symmetry`: by default an id below `ROWS * COLUMNS` names the
    /// cell it is played on (`row * COLUMNS + column`) and goes where the cell goes, and any other
    /// (a pass) stays.
    fn network_move_image(id: u16, symmetry: Symmetry) -> u16 {
        let cells = Self::ROWS * Self::COLUMNS;
        if usize::from(id) < cells {
            symmetry.cell_index::<Self>(usize::from(id)) as u16
        } else {
            id
        }
    }

    /// Plays `indices` from the start position, checking each move.
    fn from_moves(indices: &[usize]) -> Result<Self, MoveSequenceError> {
        let mut game = Self::start();
        for (position, &index) in indices.iter().enumerate() {
            let mv = game
                .parse_move(index)
                .map_err(|error| MoveSequenceError { position, error })?;
            game = game.play(mv);
        }
        Ok(game)
    }
}

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
