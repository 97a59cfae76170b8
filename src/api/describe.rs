//! `POST /position`: what a position is, as the game's rules say, for a front end that draws it
//! and offers its player the legal moves without coding the rules itself.

use serde::Serialize;
use serde::de::{self, MapAccess};

use super::object::{Object, decode, deserialize_as_object, value};
use super::request::PositionSpec;
use super::{Problem, Status};
use crate::game::{Game, Notation, Player};
use crate::games::ForGame;
use crate::search::Solve;

/// A `POST /position` request: a game and a position in it, finished or not.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PositionRequest {
    pub game: Option<String>,
    pub position: PositionSpec,
}

impl PositionRequest {
    pub fn from_json(body: &[u8]) -> Result<Self, Problem> {
        decode(body)
    }
}

impl Object for PositionRequest {
    const EXPECTING: &'static str = "a position request: a JSON object";
    const FIELDS: &'static [&'static str] = &["game", "board", "moves"];

    fn read_field<'de, A: MapAccess<'de>>(
        &mut self,
        key: &'static str,
        map: &mut A,
    ) -> Result<(), A::Error> {
        match key {
            "game" => self.game = value(key, map)?,
            "board" | "moves" => self.position.read_field(key, map)?,
            _ => return Err(de::Error::unknown_field(key, Self::FIELDS)),
        }
        Ok(())
    }
}

deserialize_as_object!(PositionRequest);

/// The answer: the game, the moves the request gave, and the position as a front end draws it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PositionResponse {
    pub game: &'static str,
    /// The moves the request gave, in its order, each as the game writes it and as players do,
    /// whatever notation the request used (a pasted KIF's moves come back in USI and KI2).
    pub moves: Vec<PlayedMove>,
    #[serde(flatten)]
    pub position: PositionView,
}

/// A move as the game writes it (`move`) and as its players do (`san`), where they differ.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayedMove {
    #[serde(rename = "move")]
    pub mv: Notation,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub san: Option<String>,
}

/// A position as a front end draws it and offers its player the moves, without coding the
/// rules or reading the board's text: the same fields in the answers to `/position`, `/move`
/// (the position after the move) and `/analyze` (the position analysed). Every `row` counts
/// from the top, as `cells` does: `cells[row][col]`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PositionView {
    /// The board in text form.
    pub board: String,
    /// What stands on each cell, top row first.
    pub cells: Vec<Vec<Option<Occupant>>>,
    pub status: Status,
    /// The side that won, as the game calls it, once one has.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winner: Option<&'static str>,
    /// The rule that ended the game, for games that end in more than one way.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ending: Option<&'static str>,
    /// Who is to move; `null` once the game is over.
    pub side_to_move: Option<Player>,
    /// The same side as the game calls it; `null` once the game is over.
    pub side_to_move_name: Option<&'static str>,
    /// Moves played so far.
    pub ply: usize,
    /// The legal moves, in the game's order, each with its squares; empty once the game is
    /// over.
    pub legal_moves: Vec<LegalMove>,
    /// The cells of the line that won, when one did.
    pub winning_line: Vec<Cell>,
    /// The pieces each side holds in hand, for games whose captured pieces are dropped back
    /// (shogi's); left out for the others.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hands: Option<Hands>,
}

/// The pieces in hand of each side, by the sides' letters in the boards' text.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Hands {
    #[serde(rename = "X")]
    pub x: Vec<InHand>,
    #[serde(rename = "O")]
    pub o: Vec<InHand>,
}

/// A kind of piece in hand, drawn as the cells draw it, and how many.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct InHand {
    pub piece: char,
    pub count: u32,
}

/// A legal move and its squares.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LegalMove {
    #[serde(rename = "move")]
    pub mv: Notation,
    /// The move in the notation players write, for games that have one (chess's SAN).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub san: Option<String>,
    #[serde(flatten)]
    pub squares: Squares,
}

/// Where a move happens on the board, as a front end draws or animates it: the cell it
/// fills, where the piece comes from, or what a drop puts down. Rows count from the top, as
/// `cells` does.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Squares {
    /// The cell the move fills (a piece's destination); `null` for a move that fills none (a
    /// pass).
    pub row: Option<usize>,
    pub col: Option<usize>,
    /// The square the piece moves from, for games whose pieces move.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<Cell>,
    /// The piece a drop puts on the board from the hand (as the cells draw it), for games
    /// whose pieces in hand are dropped: such a move has no `from`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub drop: Option<char>,
}

impl Squares {
    /// The squares of `mv`, legal in `game`.
    pub fn of<G: Game>(game: &G, mv: G::Move) -> Squares {
        let (row, col) = game.move_cell(mv).unzip();
        Squares {
            row,
            col,
            from: game.move_origin(mv).map(|(row, col)| Cell { row, col }),
            drop: game.move_drop(mv),
        }
    }
}

/// What stands on a cell: whose it is, and what (`X` or `O` for stones, the piece's letter
/// where pieces move).
#[derive(Clone, Debug, PartialEq)]
pub struct Occupant {
    pub side: Player,
    pub piece: char,
}

/// The fields of an [`Occupant`], as serde writes them.
#[derive(Serialize)]
struct OccupantFields {
    side: Player,
    piece: char,
}

/// An occupant's JSON for each side and each ASCII piece, written once by serde on first use
/// and copied after: a board is mostly the same few occupants, and serde_json spends on each
/// field of each cell (its key escaped, its value written) several times what copying its
/// finished text costs, which made the cells most of the cost of encoding `/move`'s answer.
static OCCUPANT_JSON: [[std::sync::OnceLock<Box<serde_json::value::RawValue>>; 128]; 2] =
    [const { [const { std::sync::OnceLock::new() }; 128] }; 2];

impl Serialize for Occupant {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let fields = OccupantFields {
            side: self.side,
            piece: self.piece,
        };
        let Some(cache) = OCCUPANT_JSON[self.side as usize].get(self.piece as usize) else {
            return fields.serialize(serializer);
        };
        cache
            .get_or_init(|| serde_json::value::to_raw_value(&fields).expect("an occupant is JSON"))
            .serialize(serializer)
    }
}

/// A cell of the board, its row counted from the top.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Cell {
    pub row: usize,
    pub col: usize,
}

impl PositionView {
    /// `game` as a front end draws it.
    pub fn of<G: Game>(game: &G) -> PositionView {
        let over = game.outcome().is_over();
        PositionView {
            board: game.to_string(),
            cells: (0..G::ROWS)
                .map(|row| {
                    (0..G::COLUMNS)
                        .map(|col| {
                            game.cell(row, col)
                                .map(|(side, piece)| Occupant { side, piece })
                        })
                        .collect()
                })
                .collect(),
            status: game.outcome().into(),
            winner: super::winner_name::<G>(game.outcome()),
            ending: game.ending(),
            side_to_move: (!over).then(|| game.side_to_move()),
            side_to_move_name: (!over).then(|| super::side_name::<G>(game.side_to_move())),
            ply: game.ply(),
            legal_moves: game
                .legal_moves()
                .map(|mv| LegalMove {
                    mv: game.notation(mv),
                    san: game.san(mv),
                    squares: Squares::of(game, mv),
                })
                .collect(),
            winning_line: game
                .winning_cells()
                .into_iter()
                .map(|(row, col)| Cell { row, col })
                .collect(),
            hands: hands(game),
        }
    }
}

/// Each side's pieces in hand, where the game has hands.
fn hands<G: Game>(game: &G) -> Option<Hands> {
    let hand = |side| {
        game.hand(side)
            .into_iter()
            .map(|(piece, count)| InHand { piece, count })
            .collect::<Vec<_>>()
    };
    let (x, o) = (hand(Player::X), hand(Player::O));
    // A game with hands answers them, empty or not: its start, with empty hands, says so.
    (G::DECLARATION.hands || !x.is_empty() || !o.is_empty()).then_some(Hands { x, o })
}

impl PositionRequest {
    /// The position described, finished or not.
    pub fn describe(&self) -> Result<PositionResponse, Problem> {
        struct Describe<'a>(&'a PositionSpec);
        impl ForGame for Describe<'_> {
            type Output = Result<PositionResponse, Problem>;
            fn run<G: Solve>(self) -> Self::Output {
                let (mut position, read) = self.0.moves_read::<G>()?;
                let mut moves = Vec::with_capacity(read.len());
                for mv in read {
                    moves.push(PlayedMove {
                        mv: position.notation(mv),
                        san: position.san(mv),
                    });
                    position = position.play(mv);
                }
                Ok(PositionResponse {
                    game: G::NAME,
                    moves,
                    position: PositionView::of(&position),
                })
            }
        }
        super::with_game(self.game.as_deref(), Describe(&self.position))?
    }
}
