//! Gomoku, free-style: on a 15 x 15 board, five or more in a row wins; X moves first; a full
//! board without five is a draw.
//!
//! The board is two 225-bit sets (four `u64` words each), one per side, cells numbered
//! row-major from the top-left (`cell = row * 15 + column`). A win can only be made by the
//! move just played, so it is found when that move is played, by counting along the four lines
//! through its cell, and kept in the position: `outcome` is then free.
//!
//! Moves are written in the usual notation: a column letter `a`-`o` from the left and a row
//! number 1-15 from the bottom, so the centre is `h8` and the top-left corner `a15`.

mod evaluation;

use crate::game::{Drawing, Inputs, Knowledge, LEVELS, Level, Rules};
use std::fmt;
use std::str::FromStr;

use crate::game::{
    BoardError, Declaration, EngineDeclaration, Evaluation, Limits, MoveError, Notation, Outcome,
    Player, text,
};
use crate::search::engine::{self as kit, GameBoard, QUIET_GAME_STEP_NAMES, ThroughGame};
use crate::search::{Solve, Value};

/// The board's side.
pub const SIZE: usize = 15;
const CELLS: usize = SIZE * SIZE;
/// Stones in a row that win.
const WIN_LENGTH: usize = 5;

/// A set of cells: bit `cell % 64` of word `cell / 64`.
type Cells = [u64; 4];

/// The four directions a line runs in, as (row, column) steps: across, down, and the two
/// diagonals.
const DIRECTIONS: [(isize, isize); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];

#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Gomoku {
    /// The stones of X and of O.
    stones: [Cells; 2],
    moves: u8,
    outcome: Outcome,
    /// The Zobrist hash of the stones: the key of the position.
    hash: u64,
}

/// The Zobrist keys of (side, cell), from a fixed splitmix64 stream, made when compiling.
const ZOBRIST: [[u64; CELLS]; 2] = {
    let mut keys = [[0; CELLS]; 2];
    let mut state: u64 = 0x05EE_D0F6_00C0;
    let mut side = 0;
    while side < 2 {
        let mut cell = 0;
        while cell < CELLS {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            keys[side][cell] = z ^ (z >> 31);
            cell += 1;
        }
        side += 1;
    }
    keys
};

/// The cells of the board: the first 225 bits.
const BOARD: Cells = [u64::MAX, u64::MAX, u64::MAX, (1 << (CELLS - 192)) - 1];

fn has(cells: &Cells, cell: usize) -> bool {
    cells[cell / 64] & (1 << (cell % 64)) != 0
}

fn index(player: Player) -> usize {
    match player {
        Player::X => 0,
        Player::O => 1,
    }
}

/// The cell `steps` steps from (`row`, `column`) along `direction`, if it is on the board.
fn step(row: usize, column: usize, direction: (isize, isize), steps: isize) -> Option<usize> {
    let row = row.checked_add_signed(direction.0 * steps)?;
    let column = column.checked_add_signed(direction.1 * steps)?;
    (row < SIZE && column < SIZE).then_some(row * SIZE + column)
}

impl Gomoku {
    /// The stones of `player`.
    fn stones_of(&self, player: Player) -> &Cells {
        &self.stones[index(player)]
    }

    fn empty(&self) -> Cells {
        let [x, o] = &self.stones;
        std::array::from_fn(|word| BOARD[word] & !(x[word] | o[word]))
    }

    /// Whether `player`'s stone on `cell` is part of five or more in a row.
    fn makes_five(&self, player: Player, cell: usize) -> bool {
        let stones = self.stones_of(player);
        let (row, column) = (cell / SIZE, cell % SIZE);
        DIRECTIONS.iter().any(|&direction| {
            let run = |sign: isize| {
                (1..)
                    .map_while(|steps| step(row, column, direction, sign * steps))
                    .take_while(|&cell| has(stones, cell))
                    .count()
            };
            1 + run(1) + run(-1) >= WIN_LENGTH
        })
    }

    /// Whether `player` has five in a row anywhere.
    fn has_five(&self, player: Player) -> bool {
        (0..CELLS).any(|cell| has(self.stones_of(player), cell) && self.makes_five(player, cell))
    }

    /// The cell's stone, if any.
    fn at(&self, cell: usize) -> Option<Player> {
        if has(&self.stones[0], cell) {
            Some(Player::X)
        } else if has(&self.stones[1], cell) {
            Some(Player::O)
        } else {
            None
        }
    }
}

/// The empty cells, lowest first.
#[derive(Clone, Debug)]
pub struct EmptyCells {
    cells: Cells,
    word: usize,
}

impl Iterator for EmptyCells {
    type Item = u8;

    #[inline]
    fn next(&mut self) -> Option<u8> {
        while self.word < 4 {
            let bits = self.cells[self.word];
            if bits != 0 {
                self.cells[self.word] = bits & (bits - 1);
                return Some((self.word * 64 + bits.trailing_zeros() as usize) as u8);
            }
            self.word += 1;
        }
        None
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.cells[self.word.min(4)..]
            .iter()
            .map(|word| word.count_ones() as usize)
            .sum();
        (n, Some(n))
    }

    /// Skips whole words by their counts: a random playout draws the n-th of up to 225 moves.
    fn nth(&mut self, mut n: usize) -> Option<u8> {
        while self.word < 4 {
            let count = self.cells[self.word].count_ones() as usize;
            if n < count {
                break;
            }
            n -= count;
            self.cells[self.word] = 0;
            self.word += 1;
        }
        for _ in 0..n {
            self.next()?;
        }
        self.next()
    }
}

impl ExactSizeIterator for EmptyCells {}

/// The levels (docs/levels.md): a one-move look that strays at the bottom, the full engine
/// on its time or clock at the top.
const LEVEL_TABLE: [Level; LEVELS] = [
    Level::at_depth(1).among(5, 0.1),
    Level::at_depth(1).among(4, 0.05),
    Level::at_depth(2).among(4, 0.04),
    Level::within_nodes(8_000).among(3, 0.01),
    Level::within_nodes(20_000).among(2, 0.004),
    Level::within_nodes(40_000),
    Level::within_nodes(100_000),
    Level::full(None),
];

/// What `sente bench` searches of gomoku's engine: the start, then positions of Sente's own games
/// at depth 8 (docs/testing.md#the-search-signature).
const BENCH: crate::game::Bench = crate::game::Bench {
    positions: &[
        ".............../..........OO.../..........O.X../.........X...O./.............../.............../.............../.............../.............X./.............../.............../.............../..........X..../.............../...............",
        ".............../..........OOX../.........XOOX../........OXXXOO./.........OOX.X./............O../.............../.............../.............X./.............../.............../.............../..........X..../.............../...............",
        ".............../.......XOOOOX../......OOOXOOX../......XOOXXXOO./......X.XOOXXX./..........X.O../.............../.............../.............X./.............../.............../.............../..........X..../.............../...............",
        ".....X........./......OXOOOOX../....XOOOOXOOX../.....OXOOXXXOO./......X.XOOXXX./.....XXXO.X.O../......X......../.....OO......../.............X./.............../.............../.............../..........X..../.............../...............",
    ],
    depth: 8,
};

impl Rules for Gomoku {
    type Move = u8;

    type Moves = EmptyCells;

    const NAME: &'static str = "gomoku";

    const DECLARATION: Declaration = Declaration {
        title: "Gomoku",
        moves: "a cell written as a column letter a-o from the left and a row number 1-15 from \
                the bottom, as \"h8\" (the centre); the answer's row counts from the top",
        board: "15 rows of 15 cells, top row first: X or x, O or o, and '.', '-' or '_' for \
                empty; rows may be separated by '/' or line breaks, and then each has 15 cells. \
                Or an array of cells (flat, or 15 rows of 15), each \"X\", \"O\", \"\" or null.",
        // The default players think for a second a move, and a game lasts dozens of moves.
        tournament_games: 2,
        limits: Limits {
            // 225 moves a ply: two plies are 50,400 leaves, three would be over 11 million.
            full_width_depth: Some(2),
            ..Limits::DEFAULT
        },
        engine: EngineDeclaration {
            description: "Sente's gomoku engine: the engine kit's search (as chess's, less the \
                          steps gomoku has no use for) over the threats evaluation, deepening \
                          within the time.",
            knobs: &[
                ("level", ""),
                ("depth", ""),
                ("time_limit_ms", ""),
                ("movetime", ""),
                ("hash_mb", ""),
                ("threads", ""),
                ("nodes", ""),
                ("multipv", ""),
                (
                    "without",
                    "The kit's steps gomoku takes (docs/architecture.md).",
                ),
            ],
            steps: &QUIET_GAME_STEP_NAMES,
            bench: BENCH,
        },
        levels: LEVEL_TABLE,
        measured_levels: include_str!("levels.json"),
        ..Declaration::DEFAULT
    };

    const MAX_PLIES: usize = CELLS;

    const LONGEST_GAME: Option<usize> = Some(CELLS);

    const MOVE_IDS: usize = CELLS;

    fn start() -> Self {
        Gomoku {
            stones: [[0; 4]; 2],
            moves: 0,
            outcome: Outcome::InProgress,
            hash: 0,
        }
    }

    fn side_to_move(&self) -> Player {
        if self.moves.is_multiple_of(2) {
            Player::X
        } else {
            Player::O
        }
    }

    fn legal_moves(&self) -> EmptyCells {
        let cells = if self.outcome.is_over() {
            [0; 4]
        } else {
            self.empty()
        };
        EmptyCells { cells, word: 0 }
    }

    fn play(&self, cell: u8) -> Self {
        let cell = usize::from(cell);
        let player = self.side_to_move();
        let mut next = *self;
        next.stones[index(player)][cell / 64] |= 1 << (cell % 64);
        next.moves += 1;
        next.hash ^= ZOBRIST[index(player)][cell];
        next.outcome = if next.makes_five(player, cell) {
            Outcome::Won(player)
        } else if usize::from(next.moves) == CELLS {
            Outcome::Draw
        } else {
            Outcome::InProgress
        };
        next
    }

    fn outcome(&self) -> Outcome {
        self.outcome
    }

    fn move_id(cell: u8) -> u16 {
        u16::from(cell)
    }

    fn parse_move(&self, index: usize) -> Result<u8, MoveError> {
        if self.outcome.is_over() {
            return Err(MoveError::GameOver);
        }
        if index >= CELLS {
            return Err(MoveError::OutOfRange {
                index,
                first: 0,
                last: CELLS - 1,
            });
        }
        if self.at(index).is_some() {
            return Err(MoveError::Illegal {
                index,
                reason: "the cell is taken",
            });
        }
        Ok(index as u8)
    }

    /// A column letter and a row number from the bottom: `h8` is the centre.
    fn notation(&self, cell: u8) -> Notation {
        let (row, column) = (usize::from(cell) / SIZE, usize::from(cell) % SIZE);
        Notation::Text(format!("{}{}", (b'a' + column as u8) as char, SIZE - row))
    }

    fn read_move(&self, written: &Notation) -> Result<u8, MoveError> {
        let unreadable = || MoveError::Unreadable {
            written: written.to_string(),
            expected: "gomoku writes a move as a column letter a-o and a row number 1-15 from \
                       the bottom, as \"h8\"",
        };
        let Notation::Text(text) = written else {
            return Err(unreadable());
        };
        let text = text.trim().to_ascii_lowercase();
        let mut chars = text.chars();
        let column = chars
            .next()
            .filter(|letter| ('a'..='o').contains(letter))
            .ok_or_else(unreadable)?;
        let row: usize = chars.as_str().parse().map_err(|_| unreadable())?;
        if !(1..=SIZE).contains(&row) {
            return Err(unreadable());
        }
        let cell = (SIZE - row) * SIZE + (column as usize - 'a' as usize);
        self.parse_move(cell).map_err(|error| match error {
            MoveError::Illegal { reason, .. } => MoveError::Unreadable {
                written: written.to_string(),
                expected: reason,
            },
            other => other,
        })
    }

    fn ply(&self) -> usize {
        usize::from(self.moves)
    }

    /// Only a full board is a draw.
    fn draw_length(&self) -> Option<usize> {
        Some(CELLS - self.ply())
    }

    fn key(&self) -> u64 {
        self.hash
    }
}

impl Drawing for Gomoku {
    const ROWS: usize = SIZE;

    const COLUMNS: usize = SIZE;

    /// From the stones, not the text: every answer draws all 225 cells.
    fn cell(&self, row: usize, col: usize) -> Option<(Player, char)> {
        if row >= SIZE || col >= SIZE {
            return None;
        }
        let cell = row * SIZE + col;
        [Player::X, Player::O]
            .into_iter()
            .find(|&player| has(&self.stones[index(player)], cell))
            .map(|player| (player, if player == Player::X { 'X' } else { 'O' }))
    }

    /// The five (or more) in a row of the winner.
    fn winning_cells(&self) -> Vec<(usize, usize)> {
        let Outcome::Won(winner) = self.outcome else {
            return Vec::new();
        };
        let stones = self.stones_of(winner);
        for cell in (0..CELLS).filter(|&cell| has(stones, cell)) {
            let (row, column) = (cell / SIZE, cell % SIZE);
            for &direction in &DIRECTIONS {
                let run: Vec<usize> = (0..)
                    .map_while(|steps| step(row, column, direction, steps))
                    .take_while(|&cell| has(stones, cell))
                    .collect();
                if run.len() >= WIN_LENGTH {
                    return run.iter().map(|&cell| (cell / SIZE, cell % SIZE)).collect();
                }
            }
        }
        Vec::new()
    }
}

impl Knowledge for Gomoku {
    const EVALUATIONS: &'static [Evaluation<Self>] = &[Evaluation {
        name: "threats",
        description: "Runs of stones along every line, worth more the longer and the more open \
                      their ends (open and closed fours, threes, twos), the side to move's \
                      counting half again as much.",
        evaluate: evaluation::threats,
    }];

    const REACHABLE_POSITIONS: Option<usize> = None;

    /// Near the stones first, then near the centre: moves far from every stone rarely matter.
    fn move_priority(&self, cell: u8) -> i32 {
        let (row, column) = (usize::from(cell) / SIZE, usize::from(cell) % SIZE);
        let mut neighbours = 0;
        for dr in -2..=2 {
            for dc in -2..=2 {
                if let Some(near) = step(row, column, (dr, dc), 1)
                    && self.at(near).is_some()
                {
                    neighbours += if dr.abs() <= 1 && dc.abs() <= 1 { 4 } else { 1 };
                }
            }
        }
        let centre = SIZE / 2;
        let distance = row.abs_diff(centre).max(column.abs_diff(centre)) as i32;
        neighbours * 16 - distance
    }
}

impl Inputs for Gomoku {}

/// The solver is the default (alphabeta with every enhancement, deepening within the time
/// limit); the engine is the kit's search.
impl Solve for Gomoku {
    kit::engine_on_the_kit!(GameBoard<Gomoku>);
}

impl ThroughGame for Gomoku {
    /// About an open two's worth.
    const PAWN: Value = 300;
    const ENGINE_EVALUATION: u8 = 0;
}

impl fmt::Display for Gomoku {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in 0..SIZE {
            if row > 0 {
                f.write_str("/")?;
            }
            for column in 0..SIZE {
                f.write_str(match self.at(row * SIZE + column) {
                    Some(Player::X) => "X",
                    Some(Player::O) => "O",
                    None => ".",
                })?;
            }
        }
        Ok(())
    }
}

impl fmt::Debug for Gomoku {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Gomoku({self})")
    }
}

impl FromStr for Gomoku {
    type Err = BoardError;

    /// Reads a board, refusing positions no game reaches: stone counts that do not alternate,
    /// five in a row for both, or for the side that did not move last.
    fn from_str(board: &str) -> Result<Self, BoardError> {
        let mut position = Gomoku::start();
        text::scan(board, Self::NAME, SIZE, SIZE, |cell, player| {
            position.stones[index(player)][cell / 64] |= 1 << (cell % 64);
            position.hash ^= ZOBRIST[index(player)][cell];
        })?;
        let count = |player| -> u32 {
            position
                .stones_of(player)
                .iter()
                .map(|word| word.count_ones())
                .sum()
        };
        let (x, o) = (count(Player::X), count(Player::O));
        if x != o && x != o + 1 {
            return Err(BoardError::Impossible(format!(
                "X has {x} stones and O {o}: X moves first, so X has as many as O or one more"
            )));
        }
        position.moves = (x + o) as u8;
        let last = position.side_to_move().opponent();
        let (x_five, o_five) = (position.has_five(Player::X), position.has_five(Player::O));
        position.outcome = match (x_five, o_five) {
            (true, true) => {
                return Err(BoardError::Impossible(
                    "both sides have five in a row: the game ended with the first".into(),
                ));
            }
            (true, false) | (false, true) => {
                let winner = if x_five { Player::X } else { Player::O };
                if winner != last {
                    return Err(BoardError::Impossible(format!(
                        "{winner} has five in a row, but {last} moved last: the game ended with \
                         {winner}'s move"
                    )));
                }
                Outcome::Won(winner)
            }
            (false, false) if usize::from(position.moves) == CELLS => Outcome::Draw,
            (false, false) => Outcome::InProgress,
        };
        Ok(position)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_from_the_stones_are_the_texts() {
        let game = play(&["h8", "a1", "o15", "b2", "c14"]);
        for (row, col) in (0..16).flat_map(|row| (0..16).map(move |col| (row, col))) {
            let drawn = crate::game::cell_in_text(&game.to_string(), row, col);
            assert_eq!(game.cell(row, col), drawn, "{row},{col}");
        }
    }

    fn play(moves: &[&str]) -> Gomoku {
        let mut game = Gomoku::start();
        for written in moves {
            let mv = game.read_move(&Notation::Text((*written).into())).unwrap();
            game = game.play(mv);
        }
        game
    }

    #[test]
    fn notation_round_trips_and_names_the_centre_h8() {
        let game = Gomoku::start();
        let centre = game.read_move(&Notation::Text("h8".into())).unwrap();
        assert_eq!(game.move_cell(centre), Some((7, 7)));
        assert_eq!(game.notation(0), Notation::Text("a15".into()));
        assert_eq!(game.notation(224), Notation::Text("o1".into()));
        for cell in game.legal_moves() {
            assert_eq!(game.read_move(&game.notation(cell)), Ok(cell));
        }
        for bad in ["p1", "a0", "a16", "h", "88", ""] {
            assert!(
                game.read_move(&Notation::Text(bad.into())).is_err(),
                "{bad}"
            );
        }
        assert!(game.read_move(&Notation::Number(112)).is_err());
    }

    #[test]
    fn five_in_a_row_wins_and_six_does_too() {
        // X on row 8 from a to e; O below.
        let game = play(&["a8", "a7", "b8", "b7", "c8", "c7", "d8", "d7"]);
        assert_eq!(game.outcome(), Outcome::InProgress);
        assert_eq!(
            game.play(game.read_move(&Notation::Text("e8".into())).unwrap())
                .outcome(),
            Outcome::Won(Player::X)
        );
        // O's five along the bottom row, while X's row 8 has a gap at d8.
        let game = play(&["a8", "a1", "b8", "b1", "c8", "c1", "e8", "d1", "f8", "e1"]);
        assert_eq!(game.outcome(), Outcome::Won(Player::O));
        // Free-style: filling the gap makes six in a row, which wins as well.
        let game = play(&[
            "a8", "a1", "b8", "b1", "c8", "c3", "e8", "d1", "f8", "e3", "d8",
        ]);
        assert_eq!(game.outcome(), Outcome::Won(Player::X));
        // Diagonals both ways.
        let game = play(&["a1", "a2", "b2", "a3", "c3", "a4", "d4", "a5", "e5"]);
        assert_eq!(game.outcome(), Outcome::Won(Player::X));
        let game = play(&["o1", "a2", "n2", "a3", "m3", "a4", "l4", "a5", "k5"]);
        assert_eq!(game.outcome(), Outcome::Won(Player::X));
    }

    #[test]
    fn boards_print_and_read_back_and_impossible_ones_are_refused() {
        let game = play(&["h8", "h9", "i8", "j10"]);
        let text = game.to_string();
        assert_eq!(text.len(), CELLS + SIZE - 1);
        let read: Gomoku = text.parse().unwrap();
        assert_eq!(read, game);
        assert_eq!(read.key(), game.key());
        let start: Gomoku = ".".repeat(CELLS).parse().unwrap();
        assert_eq!(start, Gomoku::start());
        let mut o_ahead = ".".repeat(CELLS);
        o_ahead.replace_range(0..1, "O");
        assert!(matches!(
            o_ahead.parse::<Gomoku>(),
            Err(BoardError::Impossible(_))
        ));
        assert!(matches!(
            "X".parse::<Gomoku>(),
            Err(BoardError::TooFewCells { .. })
        ));
    }

    #[test]
    fn every_empty_cell_is_a_move_and_nth_agrees_with_next() {
        let game = play(&["h8", "h9", "a1"]);
        let moves: Vec<_> = game.legal_moves().collect();
        assert_eq!(moves.len(), CELLS - 3);
        assert_eq!(game.legal_moves().len(), CELLS - 3);
        for n in [0, 1, 63, 64, 100, 200, CELLS - 4] {
            assert_eq!(game.legal_moves().nth(n), Some(moves[n]), "{n}");
        }
        assert_eq!(game.legal_moves().nth(CELLS - 3), None);
    }
}
