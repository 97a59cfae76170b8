//! Othello (Reversi on an 8 x 8 board): Black (X) moves first, each move flanks a line of the
//! opponent's discs and turns them over, a player with no such move passes, and the game ends
//! when neither side can move. The result is the disc difference, the empty squares going to
//! the winner, as the FFO test set and Edax count it.
//!
//! The board is two 64-bit sets, the discs of the side to move and of the other side, bit
//! `row * 8 + column` for the square in column a-h and row 1-8, row 1 at the top: A1 is bit 0,
//! H1 bit 7, H8 bit 63, the order in which FFO and Edax `.obf` files write the squares. Keeping
//! the sides as "to move" and "not to move" makes a move one flip set and a swap.
//!
//! Moves and flips are found for all squares at once, one direction at a time: shifting a set
//! of discs one step along a direction and keeping the opponent's discs there grows every line
//! of opponent discs that starts beside one of ours by one square a step, and a line can be at
//! most six long. See [`bits`].

pub mod bits;
mod engine;
pub mod evaluation;
pub mod ggf;
pub mod gtp;
pub mod nboard;
pub mod patterns;
mod session;
pub mod solver;
pub mod transcript;

pub use engine::{solved_empties, solved_empties_within_nodes};

use crate::game::{Drawing, Inputs, Knowledge, LEVELS, Level, Rules};
use std::fmt;
use std::hash::{Hash, Hasher};
use std::str::FromStr;

use crate::game::{
    Bits, BoardError, Declaration, EngineDeclaration, Evaluation, Limits, MoveError, Notation,
    Outcome, Player, Turn, text,
};
use crate::search::engine::QUIET_GAME_STEP_NAMES;

/// The board's side.
const SIZE: usize = 8;
/// The move id of a pass, after the 64 squares' ids.
pub const PASS: u8 = 64;
/// The four centre squares d4, e4, d5 and e5, which start occupied and so are never empty.
const CENTRE: u64 = (1 << 27) | (1 << 28) | (1 << 35) | (1 << 36);

#[derive(Copy, Clone)]
pub struct Othello {
    /// The discs of the side to move.
    mover: u64,
    /// The discs of the side that moved last.
    other: u64,
    /// Who is to move.
    side: Player,
    /// Plies played, passes included; from a board alone, the discs placed.
    plies: u8,
}

/// The legal moves: the squares of a set, lowest first, or a single pass.
#[derive(Copy, Clone, Debug)]
pub struct Moves {
    squares: Bits,
    pass: bool,
}

impl Iterator for Moves {
    type Item = u8;

    #[inline]
    fn next(&mut self) -> Option<u8> {
        match self.squares.next() {
            Some(square) => Some(square),
            None if self.pass => {
                self.pass = false;
                Some(PASS)
            }
            None => None,
        }
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.squares.len() + usize::from(self.pass);
        (n, Some(n))
    }
}

impl ExactSizeIterator for Moves {}

impl Othello {
    /// The position with `black` and `white` discs and `side` to move.
    fn of(black: u64, white: u64, side: Player, plies: u8) -> Othello {
        let (mover, other) = match side {
            Player::X => (black, white),
            Player::O => (white, black),
        };
        Othello {
            mover,
            other,
            side,
            plies,
        }
    }

    /// The discs of Black (X) and of White (O).
    pub fn discs(&self) -> (u64, u64) {
        match self.side {
            Player::X => (self.mover, self.other),
            Player::O => (self.other, self.mover),
        }
    }

    /// The discs of the side to move and of the other side.
    pub fn sides(&self) -> (u64, u64) {
        (self.mover, self.other)
    }

    /// The squares where the side to move may place a disc.
    pub fn placements(&self) -> u64 {
        bits::moves(self.mover, self.other)
    }

    /// The empty squares.
    pub fn empties(&self) -> u64 {
        !(self.mover | self.other)
    }

    /// Whether neither side can place a disc: the game is over.
    fn finished(&self) -> bool {
        self.placements() == 0 && bits::moves(self.other, self.mover) == 0
    }

    /// The final disc difference for the side to move, the empty squares going to the winner:
    /// what a finished game scores.
    pub fn final_margin(&self) -> i32 {
        final_margin(self.mover, self.other)
    }

    /// Who won a finished game, by its discs.
    fn result(&self) -> Outcome {
        match self.final_margin() {
            0 => Outcome::Draw,
            margin if margin > 0 => Outcome::Won(self.side),
            _ => Outcome::Won(self.side.opponent()),
        }
    }

    /// What stands on `square`.
    fn at(&self, square: usize) -> Option<Player> {
        let (black, white) = self.discs();
        if black >> square & 1 == 1 {
            Some(Player::X)
        } else if white >> square & 1 == 1 {
            Some(Player::O)
        } else {
            None
        }
    }

    /// The key of Black's and White's discs with `side` to move, however the sides are kept.
    fn key_of(black: u64, white: u64, side: Player) -> u64 {
        let side = match side {
            Player::X => 0,
            Player::O => 0x9E37_79B9_7F4A_7C15,
        };
        mix(mix(black) ^ white ^ side)
    }
}

/// The final disc difference for `mover` in a finished game, the empty squares going to the
/// winner.
fn final_margin(mover: u64, other: u64) -> i32 {
    let (mine, theirs) = (mover.count_ones() as i32, other.count_ones() as i32);
    let empties = 64 - mine - theirs;
    match mine.cmp(&theirs) {
        std::cmp::Ordering::Greater => mine - theirs + empties,
        std::cmp::Ordering::Less => mine - theirs - empties,
        std::cmp::Ordering::Equal => 0,
    }
}

/// splitmix64's finaliser: a bijection of 64-bit numbers that scatters every input bit over the
/// whole output, so that keys of boards that differ in a disc differ everywhere.
#[inline]
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Equal when the rules cannot tell them apart: the same discs and the same side to move (the
/// plies played, which a board does not show, do not count).
impl PartialEq for Othello {
    fn eq(&self, other: &Othello) -> bool {
        (self.mover, self.other, self.side) == (other.mover, other.other, other.side)
    }
}

impl Eq for Othello {}

impl Hash for Othello {
    fn hash<H: Hasher>(&self, state: &mut H) {
        (self.mover, self.other, self.side).hash(state);
    }
}

/// The square's name, as `d3`.
fn square_name(square: u8) -> String {
    let (row, column) = (square / 8, square % 8);
    format!("{}{}", (b'a' + column) as char, row + 1)
}

/// What the clock knobs (wtime, btime, winc, binc, movestogo) mean to this game's engine.
const CLOCK: &str = "The Othello engine shares the mover's clock (White's is O's) over its \
                     moves left, about half the empty squares (docs/othello.md); a \
                     time_limit_ms as well caps the move.";

/// The levels (docs/levels.md): a one-move look that strays by several discs at the bottom,
/// the full engine, on its time or clock, at the top.
const LEVEL_TABLE: [Level; LEVELS] = [
    Level::at_depth(1).among(6, 0.3),
    Level::at_depth(1).among(4, 0.15),
    Level::at_depth(2).among(4, 0.08),
    Level::at_depth(3).among(3, 0.04),
    Level::within_nodes(4_000).among(3, 0.02),
    Level::within_nodes(16_000).among(2, 0.01),
    Level::within_nodes(64_000),
    Level::full(None),
];

/// What `sente bench` searches of othello's engine: the start, then positions of Sente's own games
/// at depth 14 (docs/testing.md#the-search-signature).
const BENCH: crate::game::Bench = crate::game::Bench {
    positions: &[
        "---------------------------OX------XO--------------------------- X",
        "-----------O-------XO-----XXXO----OXX-------X------------------- O",
        "-----O-----OO----OOOOO---XOXXO----OOXX-----OXX------------------ X",
        "--O--O----OOOX--XXXXXOO--XXXXXO--XXXXX-O---OOX------O----------- O",
        "--OOOOO---OOOO--XXXOOOOO-XXOXXOO-XXXXOOO--XXOO-----OO-----O----- X",
    ],
    depth: 14,
};

impl Rules for Othello {
    type Move = u8;

    type Moves = Moves;

    const NAME: &'static str = "othello";

    const DECLARATION: Declaration = Declaration {
        title: "Othello",
        sides: ["Black", "White"],
        moves: "a square as a column letter a-h and a row number 1-8 counted from the top, as \
                \"d3\"; \"pass\" when the side to move has no square (it is then the only move)",
        board: "64 cells, A1 to H8 row by row from the top-left (X Black, O White, '-' or '.' \
                empty; rows may be separated by '/' or line breaks), then a space and the side \
                to move, X or O, as in FFO and Edax .obf files (anything after a ';' is \
                ignored). The start, \"---------------------------OX------XO--------------------------- X\", \
                is the default.",
        discs: true,
        engine_protocols: &["gtp"],
        default_algorithm: "engine",
        // The default players think for a second a move, and a game lasts about sixty.
        tournament_games: 2,
        limits: Limits {
            // About ten moves a ply: six plies are a million leaves.
            full_width_depth: Some(6),
            ..Limits::DEFAULT
        },
        engine: EngineDeclaration {
            description: "Sente's Othello engine: the endgame solver (docs/othello.md) where the \
                          empty squares are few enough for the time, else the engine kit's \
                          search (as chess's, less the steps Othello has no use for) over the \
                          pattern evaluation learnt from its own games, deepening within the \
                          time; values in discs expected.",
            knobs: &[
                ("level", ""),
                (
                    "depth",
                    "Given, the midgame search that deep, however few the empty squares.",
                ),
                ("time_limit_ms", ""),
                ("movetime", ""),
                (
                    "nodes",
                    "The solver's too: it solves a position with at most 8 empty squares \
                     within 2,000 nodes, one more each time the nodes double, with three \
                     quarters of them; the midgame search has the rest.",
                ),
                ("wtime", CLOCK),
                ("btime", CLOCK),
                ("winc", CLOCK),
                ("binc", CLOCK),
                ("movestogo", CLOCK),
                ("multipv", ""),
                (
                    "weights",
                    "The midgame search's pattern weights read under a name (sente learn's generations).",
                ),
                (
                    "evaluation",
                    "The midgame search's: patterns (the default), mobility or positional.",
                ),
                ("hash_mb", "The midgame search's table."),
                ("threads", "The midgame search's and the endgame solver's."),
                (
                    "without",
                    "The midgame search's steps (docs/architecture.md).",
                ),
            ],
            steps: &QUIET_GAME_STEP_NAMES,
            bench: BENCH,
        },
        protocols: &[
            crate::game::Protocol {
                name: "gtp",
                serve: gtp::serve_stdio,
            },
            crate::game::Protocol {
                name: "nboard",
                serve: nboard::serve_stdio,
            },
        ],
        trainer: Some(crate::learn::Trainer {
            description: "The engine's pattern evaluation: 46 windows of the board (corners, \
                          edges, rows, diagonals) in 11 shapes, a weight per configuration per \
                          stage of ten empty squares, learnt by least squares on the final disc \
                          difference (docs/othello.md#the-pattern-evaluation).",
            train: patterns::train,
            weights: Some(patterns::LEARNT),
        }),
        records: &[ggf::FORMAT, transcript::FORMAT],
        evaluation_units: Some(crate::game::EvaluationUnits::Discs),
        levels: LEVEL_TABLE,
        measured_levels: include_str!("levels.json"),
        ..Declaration::DEFAULT
    };

    /// Sixty discs to place, and at most one pass before each.
    const MAX_PLIES: usize = 120;

    const LONGEST_GAME: Option<usize> = Some(Self::MAX_PLIES);

    const MOVE_IDS: usize = 65;

    const PERFT_COUNTS_FINISHED_GAMES: bool = true;

    fn start() -> Self {
        // d5 and e4 Black, d4 and e5 White.
        Othello::of((1 << 35) | (1 << 28), (1 << 27) | (1 << 36), Player::X, 0)
    }

    fn side_to_move(&self) -> Player {
        self.side
    }

    #[inline]
    fn legal_moves(&self) -> Moves {
        match self.turn() {
            Turn::Moves(moves) => moves,
            Turn::Over(_) => Moves {
                squares: Bits(0),
                pass: false,
            },
        }
    }

    #[inline]
    fn count_perft_moves(&self) -> usize {
        match self.placements().count_ones() {
            0 => usize::from(bits::moves(self.other, self.mover) != 0),
            n => n as usize,
        }
    }

    #[inline]
    fn play(&self, mv: u8) -> Self {
        let (mut mover, mut other) = (self.mover, self.other);
        if mv != PASS {
            let flipped = bits::flips(mover, other, mv);
            mover |= flipped | 1 << mv;
            other ^= flipped;
        }
        Othello {
            mover: other,
            other: mover,
            side: self.side.opponent(),
            plies: self.plies + 1,
        }
    }

    /// The moves, or the end, from at most the two sides' move generations.
    #[inline]
    fn turn(&self) -> Turn<Moves> {
        let squares = self.placements();
        if squares != 0 {
            Turn::Moves(Moves {
                squares: Bits(squares),
                pass: false,
            })
        } else if bits::moves(self.other, self.mover) != 0 {
            Turn::Moves(Moves {
                squares: Bits(0),
                pass: true,
            })
        } else {
            Turn::Over(self.result())
        }
    }

    fn outcome(&self) -> Outcome {
        if !self.finished() {
            return Outcome::InProgress;
        }
        self.result()
    }

    fn move_id(mv: u8) -> u16 {
        u16::from(mv)
    }

    fn parse_move(&self, index: usize) -> Result<u8, MoveError> {
        if self.finished() {
            return Err(MoveError::GameOver);
        }
        if index > usize::from(PASS) {
            return Err(MoveError::OutOfRange {
                index,
                first: 0,
                last: usize::from(PASS),
            });
        }
        let placements = self.placements();
        let reason = if index == usize::from(PASS) {
            if placements == 0 {
                return Ok(PASS);
            }
            "a pass is only legal when no square is"
        } else if placements >> index & 1 == 1 {
            return Ok(index as u8);
        } else if (self.mover | self.other) >> index & 1 == 1 {
            "the square is taken"
        } else if placements == 0 {
            "no square is legal here: the only move is a pass"
        } else {
            "a disc there turns no disc over"
        };
        Err(MoveError::Illegal { index, reason })
    }

    /// A column letter and a row number from the top, as `d3`; a pass is `pass`.
    fn notation(&self, mv: u8) -> Notation {
        if mv == PASS {
            Notation::Text("pass".into())
        } else {
            Notation::Text(square_name(mv))
        }
    }

    fn read_move(&self, written: &Notation) -> Result<u8, MoveError> {
        let unreadable = |expected| MoveError::Unreadable {
            written: written.to_string(),
            expected,
        };
        let Notation::Text(text) = written else {
            return Err(unreadable(
                "Othello writes a move as a column letter a-h and a row number 1-8 from the \
                 top, as \"d3\", or \"pass\"",
            ));
        };
        let text = text.trim().to_ascii_lowercase();
        let index = match text.as_bytes() {
            b"pass" | b"ps" => usize::from(PASS),
            &[column @ b'a'..=b'h', row @ b'1'..=b'8'] => {
                usize::from(row - b'1') * SIZE + usize::from(column - b'a')
            }
            _ => {
                return Err(unreadable(
                    "Othello writes a move as a column letter a-h and a row number 1-8 from \
                     the top, as \"d3\", or \"pass\"",
                ));
            }
        };
        self.parse_move(index).map_err(|error| match error {
            MoveError::Illegal { reason, .. } => unreadable(reason),
            other => other,
        })
    }

    fn ply(&self) -> usize {
        usize::from(self.plies)
    }

    /// At most a pass and a disc for each empty square.
    fn plies_left(&self) -> usize {
        2 * self.empties().count_ones() as usize
    }

    fn key(&self) -> u64 {
        let (black, white) = self.discs();
        Othello::key_of(black, white, self.side)
    }
}

impl Drawing for Othello {
    const ROWS: usize = SIZE;

    const COLUMNS: usize = SIZE;

    fn move_cell(&self, mv: u8) -> Option<(usize, usize)> {
        (mv != PASS).then_some((usize::from(mv) / SIZE, usize::from(mv) % SIZE))
    }

    fn cell(&self, row: usize, col: usize) -> Option<(Player, char)> {
        let player = self.at(row * SIZE + col)?;
        Some((player, if player == Player::X { 'X' } else { 'O' }))
    }

    fn discs(score: f64) -> Option<f64> {
        Some(evaluation::discs_of_score(score))
    }
}

impl Knowledge for Othello {
    const REACHABLE_POSITIONS: Option<usize> = None;

    const EVALUATIONS: &'static [Evaluation<Self>] = evaluation::EVALUATIONS;

    /// The smallest key among the board's eight images under the square's symmetries, every one
    /// of which the rules respect.
    fn symmetric_key(&self) -> u64 {
        let (black, white) = self.discs();
        bits::symmetries(black, white)
            .map(|(black, white)| Othello::key_of(black, white, self.side))
            .into_iter()
            .min()
            .expect("eight images")
    }

    /// Corners first and the squares that give them away last: the positional weights.
    fn move_priority(&self, mv: u8) -> i32 {
        if mv == PASS {
            0
        } else {
            evaluation::WEIGHTS[usize::from(mv)]
        }
    }
}

impl Inputs for Othello {
    /// The default's inputs, from the bitboards: square `row * 8 + column` is bit of the same
    /// number.
    fn network_inputs(&self, active: &mut Vec<u16>) {
        active.clear();
        let (mine, theirs) = self.sides();
        let mut bits = mine | theirs;
        while bits != 0 {
            let square = bits.trailing_zeros() as u16;
            active.push(2 * square + u16::from(theirs >> square & 1 == 1));
            bits &= bits - 1;
        }
    }

    /// The square's: a position's image under any is worth what it is (the start's image is
    /// the start with its colours swapped, which is as good a start).
    const NETWORK_SYMMETRIES: &'static [crate::game::Symmetry] = crate::game::Symmetry::SQUARE;
}

/// The `.obf` form: 64 cells from A1 to H8, `X`, `O` or `-`, a space and the side to move.
impl fmt::Display for Othello {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for square in 0..SIZE * SIZE {
            f.write_str(match self.at(square) {
                Some(Player::X) => "X",
                Some(Player::O) => "O",
                None => "-",
            })?;
        }
        write!(f, " {}", self.side)
    }
}

impl fmt::Debug for Othello {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Othello({self})")
    }
}

impl FromStr for Othello {
    type Err = BoardError;

    /// Reads the `.obf` form (an FFO line's scores after `;` are ignored), refusing boards with
    /// an empty centre square, which no game reaches.
    fn from_str(board: &str) -> Result<Self, BoardError> {
        let board = board.split(';').next().unwrap_or_default().trim();
        let missing_side = || {
            BoardError::Notation(
                "an Othello board is its 64 cells, then a space and the side to move, X (Black) \
                 or O (White), as \"---------------------------OX------XO--------------------------- X\""
                    .into(),
            )
        };
        let (cells, side) = board
            .rsplit_once(char::is_whitespace)
            .ok_or_else(missing_side)?;
        let side = match side {
            "X" | "x" => Player::X,
            "O" | "o" => Player::O,
            _ => return Err(missing_side()),
        };
        let read = text::read(cells.trim_end(), Self::NAME, SIZE, SIZE)?;
        let position = Othello::of(read.x, read.o, side, 0);
        if (read.x | read.o) & CENTRE != CENTRE {
            return Err(BoardError::Impossible(
                "a centre square (d4, e4, d5, e5) is empty, but the game starts with a disc on \
                 each and discs are never taken off"
                    .into(),
            ));
        }
        let placed = (read.x | read.o).count_ones() - 4;
        Ok(Othello {
            plies: placed as u8,
            ..position
        })
    }
}

#[cfg(test)]
mod tests;
