//! Connect Four on bitboards, after Pascal Pons' solver.
//!
//! 7 columns of 6 rows; a disc falls to the lowest free cell; four in a row (horizontally,
//! vertically or diagonally) wins; X moves first. A move is a column, 0 to 6.
//!
//! The board is two 64-bit masks in column-major order with 7 bits per column: bit
//! `7 * column + row` is the cell `row` rows above the bottom, and the 7th bit of each column is
//! a sentinel that is never set. The sentinel keeps the columns apart, so that shifting a mask
//! by 1 moves every disc one row up, by 7 one column right, by 6 and 8 along the diagonals,
//! and no shift carries a line from one column into the next.
//!
//! The masks are `current` (the discs of the side to move) and `mask` (every disc), as in Pons'
//! solver: a move is `current ^= mask; mask |= mask + bottom(column)` — adding the column's
//! bottom bit to its discs carries up to the lowest free cell — and the side that just moved
//! owns `current ^ mask`.

use crate::game::{Drawing, Inputs, Knowledge, LEVELS, Level, Rules};
use std::fmt;
use std::str::FromStr;

mod move_sorter;
pub mod solver;
mod table;

use std::time::Duration;

use crate::game::{
    Bits, BoardError, Declaration, Evaluation, Limits, MoveError, Network, Outcome, Player,
    ordinal, text,
};
use crate::search::{Analysis, Budget, SearchResult, Solve};

pub const WIDTH: usize = 7;
pub const HEIGHT: usize = 6;
/// Bits per column: the rows and the sentinel.
const STRIDE: usize = HEIGHT + 1;
const CELLS: usize = WIDTH * HEIGHT;

const fn bottom_mask(column: usize) -> u64 {
    1 << (column * STRIDE)
}

const fn top_mask(column: usize) -> u64 {
    1 << (HEIGHT - 1 + column * STRIDE)
}

const fn column_mask(column: usize) -> u64 {
    ((1 << HEIGHT) - 1) << (column * STRIDE)
}

/// The bottom cell of every column.
const BOTTOM: u64 = {
    let mut mask = 0;
    let mut column = 0;
    while column < WIDTH {
        mask |= bottom_mask(column);
        column += 1;
    }
    mask
};

/// Every playable cell (no sentinels).
const BOARD: u64 = BOTTOM * ((1 << HEIGHT) - 1);

/// Whether `discs` contain four in a row.
///
/// For each direction, with `s` the shift of one step along it: `m = discs & discs >> s` marks
/// the discs followed by another one step on, and `m & m >> 2s` the discs followed by three.
#[inline]
fn has_four(discs: u64) -> bool {
    const STEPS: [u32; 4] = [1, STRIDE as u32, STRIDE as u32 - 1, STRIDE as u32 + 1];
    STEPS.iter().any(|&step| {
        let m = discs & (discs >> step);
        m & (m >> (2 * step)) != 0
    })
}

/// The empty cells (not necessarily playable yet) that would complete four in a row for
/// `discs`, given every disc on the board in `mask`.
///
/// Each term shifts three discs of a line onto the fourth cell: for the vertical, three discs
/// stacked below; for the others, every placement of the gap among the four cells, in both
/// directions.
#[inline]
pub(crate) fn winning_cells(discs: u64, mask: u64) -> u64 {
    // Vertical: three in a column below the cell.
    let mut cells = (discs << 1) & (discs << 2) & (discs << 3);
    for step in [STRIDE, STRIDE - 1, STRIDE + 1] {
        // Two discs one and two steps away, in both directions.
        let pair = (discs << step) & (discs << (2 * step));
        cells |= pair & (discs << (3 * step));
        cells |= pair & (discs >> step);
        let pair = (discs >> step) & (discs >> (2 * step));
        cells |= pair & (discs << step);
        cells |= pair & (discs >> (3 * step));
    }
    cells & (BOARD ^ mask)
}

/// A Connect Four position.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct ConnectFour {
    /// The discs of the side to move.
    current: u64,
    /// Every disc.
    mask: u64,
    /// Discs played.
    moves: u8,
}

impl ConnectFour {
    /// The cells where a disc can be played now: the lowest free cell of each column.
    #[inline]
    pub fn playable_cells(&self) -> u64 {
        (self.mask + BOTTOM) & BOARD
    }

    /// The discs of the side to move and of the side that just moved.
    #[inline]
    pub fn discs(&self) -> (u64, u64) {
        (self.current, self.current ^ self.mask)
    }

    #[inline]
    pub fn mask(&self) -> u64 {
        self.mask
    }

    /// Whether `column` has room for a disc.
    #[inline]
    pub fn can_play(&self, column: usize) -> bool {
        self.mask & top_mask(column) == 0
    }

    /// The row (0 = bottom) a disc played in `column` lands on.
    pub fn landing_row(&self, column: usize) -> usize {
        (self.mask & column_mask(column)).count_ones() as usize
    }

    /// The empty cells where the side to move would complete four.
    #[inline]
    pub fn winning_cells(&self) -> u64 {
        winning_cells(self.current, self.mask)
    }

    /// The empty cells where the side that just moved would complete four.
    #[inline]
    pub fn opponent_winning_cells(&self) -> u64 {
        winning_cells(self.current ^ self.mask, self.mask)
    }

    /// Whether the side to move can win with its next disc.
    #[inline]
    pub fn can_win_next(&self) -> bool {
        self.winning_cells() & self.playable_cells() != 0
    }

    /// The cell a disc in `column` would occupy.
    #[inline]
    pub fn cell_of(&self, column: usize) -> u64 {
        self.playable_cells() & column_mask(column)
    }

    /// Plays the disc on `cell`, one of [`ConnectFour::playable_cells`].
    #[inline]
    pub fn play_cell(&self, cell: u64) -> Self {
        ConnectFour {
            current: self.current ^ self.mask,
            mask: self.mask | cell,
            moves: self.moves + 1,
        }
    }

    /// The key Pons' solver uses: `current + mask` sets, in each column, the bit above the top
    /// disc and the side to move's discs, which identifies the position.
    #[inline]
    pub fn pons_key(&self) -> u64 {
        self.current + self.mask
    }

    /// The position after the moves in Pons' notation: one digit per disc, the column counted
    /// from 1 (`"4453"`), as in his benchmark sets.
    pub fn from_pons_moves(digits: &str) -> Result<Self, crate::game::MoveSequenceError> {
        let mut columns = Vec::with_capacity(digits.len());
        for (position, digit) in digits.bytes().enumerate() {
            match digit {
                b'1'..=b'7' => columns.push(usize::from(digit - b'1')),
                _ => {
                    return Err(crate::game::MoveSequenceError {
                        position,
                        error: MoveError::OutOfRange {
                            index: usize::from(digit),
                            first: 1,
                            last: WIDTH,
                        },
                    });
                }
            }
        }
        Self::from_moves(&columns)
    }

    /// The discs played so far.
    pub fn moves_played(&self) -> usize {
        usize::from(self.moves)
    }

    /// The first complete line on the board, as four (row, column) cells, row 0 at the bottom.
    pub fn winning_line(&self) -> Option<[(usize, usize); 4]> {
        let (a, b) = self.discs();
        for discs in [a, b] {
            for column in 0..WIDTH {
                for row in 0..HEIGHT {
                    for (dc, dr) in [(1i32, 0i32), (0, 1), (1, 1), (1, -1)] {
                        let cells: Vec<(usize, usize)> = (0..4)
                            .map(|i| (row as i32 + dr * i, column as i32 + dc * i))
                            .take_while(|&(r, c)| {
                                (0..HEIGHT as i32).contains(&r) && (0..WIDTH as i32).contains(&c)
                            })
                            .map(|(r, c)| (r as usize, c as usize))
                            .collect();
                        if cells.len() == 4
                            && cells
                                .iter()
                                .all(|&(r, c)| discs & (1 << (c * STRIDE + r)) != 0)
                        {
                            return Some([cells[0], cells[1], cells[2], cells[3]]);
                        }
                    }
                }
            }
        }
        None
    }

    /// Mirrors a bitboard left to right.
    fn mirror(bits: u64) -> u64 {
        let mut mirrored = 0;
        for column in 0..WIDTH {
            let bits_of_column = (bits >> (column * STRIDE)) & ((1 << STRIDE) - 1);
            mirrored |= bits_of_column << ((WIDTH - 1 - column) * STRIDE);
        }
        mirrored
    }

    /// Whose disc is on (row from the bottom, column), if any.
    fn disc_at(&self, row: usize, column: usize) -> Option<Player> {
        let bit = 1u64 << (column * STRIDE + row);
        if self.mask & bit == 0 {
            return None;
        }
        let mine = self.current & bit != 0;
        let to_move = self.side_to_move();
        Some(if mine { to_move } else { to_move.opponent() })
    }
}

/// The playable columns, in column order.
fn playable_columns(position: &ConnectFour) -> u64 {
    let mut columns = 0;
    for column in 0..WIDTH {
        if position.can_play(column) {
            columns |= 1 << column;
        }
    }
    columns
}

/// The evaluation ([`Knowledge::EVALUATIONS`]): apart from the rules above.
impl ConnectFour {
    /// Threats, open lines and the centre, for the side to move, squashed into (-1, 1).
    ///
    /// - A threat (an empty cell that would complete four) is worth 8; more of them than the
    ///   opponent can block is how games are won.
    /// - Every window of four cells still open to a side (no opposing disc) is worth 1, 2 or 4
    ///   for one, two or three of its discs: open lines are future threats.
    /// - A disc in the centre column is worth 2: it belongs to the most windows.
    ///
    /// The difference `d` becomes `d / (|d| + 32)`, which keeps its sign and order.
    fn threats_value(&self) -> f64 {
        let (mine, theirs) = self.discs();
        let side = |own: u64, other: u64| -> i32 {
            let threats = winning_cells(own, self.mask).count_ones() as i32;
            let windows: i32 = WINDOWS
                .iter()
                .filter(|&&window| window & other == 0)
                .map(|&window| match (window & own).count_ones() {
                    1 => 1,
                    2 => 2,
                    3 => 4,
                    _ => 0,
                })
                .sum();
            let centre = (own & column_mask(WIDTH / 2)).count_ones() as i32;
            8 * threats + windows + 2 * centre
        };
        let d = f64::from(side(mine, theirs) - side(theirs, mine));
        d / (d.abs() + 32.0)
    }
}

/// The levels (docs/levels.md): alphabeta a ply or two deep that strays at the bottom, the
/// solver at the top.
const LEVEL_TABLE: [Level; LEVELS] = [
    Level::at_depth(1).among(7, 0.3),
    Level::at_depth(2).among(5, 0.2),
    Level::at_depth(3).among(4, 0.1),
    Level::at_depth(4).among(3, 0.05),
    Level::at_depth(6).among(2, 0.02),
    Level::at_depth(8),
    Level::at_depth(12),
    Level::full(None),
];

impl Rules for ConnectFour {
    type Move = u8;

    type Moves = Bits;

    const NAME: &'static str = "connect4";

    const DECLARATION: Declaration = Declaration {
        title: "Connect Four",
        moves: "a move is a column's number, 0 to 6 from the left; the disc falls to the lowest free cell, and the \
                answer's row is where it landed (0 = bottom)",
        board: "6 rows of 7 cells, top row first: X or x, O or o, and '.', '-' or '_' for \
                empty; rows may be separated by '/' or line breaks, and then each has 7 cells. \
                Or an array of cells (flat, or 6 rows of 7), each \"X\", \"O\", \"\" or null.",
        gravity: true,
        // The default players think for a second a move: one pair of games, each player
        // moving first once.
        tournament_games: 2,
        limits: Limits {
            // 7^9 leaves take about a second; deeper full-width searches would not finish.
            full_width_depth: Some(9),
            ..Limits::DEFAULT
        },
        networks: &[Network {
            name: "gen-22",
            description: "AlphaZero's policy-value network, 84 inputs, two layers of 256, \
                          generation 22 of its AlphaZero loop (docs/alphazero.md).",
            bytes: include_bytes!("alphazero.net"),
        }],
        levels: LEVEL_TABLE,
        measured_levels: include_str!("levels.json"),
        ..Declaration::DEFAULT
    };

    const MAX_PLIES: usize = CELLS;

    const LONGEST_GAME: Option<usize> = Some(CELLS);

    const MOVE_IDS: usize = WIDTH;

    fn start() -> Self {
        Self::default()
    }

    #[inline]
    fn side_to_move(&self) -> Player {
        if self.moves.is_multiple_of(2) {
            Player::X
        } else {
            Player::O
        }
    }

    #[inline]
    fn legal_moves(&self) -> Bits {
        if self.outcome().is_over() {
            Bits(0)
        } else {
            Bits(playable_columns(self))
        }
    }

    #[inline]
    fn play(&self, column: u8) -> Self {
        debug_assert!(
            self.can_play(usize::from(column)),
            "column {column} is full"
        );
        ConnectFour {
            current: self.current ^ self.mask,
            mask: self.mask | (self.mask + bottom_mask(usize::from(column))),
            moves: self.moves + 1,
        }
    }

    #[inline]
    fn outcome(&self) -> Outcome {
        // Only the side that just moved can have four: a position is never played past a win.
        if has_four(self.current ^ self.mask) {
            Outcome::Won(self.side_to_move().opponent())
        } else if usize::from(self.moves) == CELLS {
            Outcome::Draw
        } else {
            Outcome::InProgress
        }
    }

    fn move_id(column: u8) -> u16 {
        u16::from(column)
    }

    fn parse_move(&self, index: usize) -> Result<u8, MoveError> {
        if self.outcome().is_over() {
            return Err(MoveError::GameOver);
        }
        if index >= WIDTH {
            return Err(MoveError::OutOfRange {
                index,
                first: 0,
                last: WIDTH - 1,
            });
        }
        if !self.can_play(index) {
            return Err(MoveError::Illegal {
                index,
                reason: "the column is full",
            });
        }
        Ok(index as u8)
    }

    fn ply(&self) -> usize {
        usize::from(self.moves)
    }

    /// A drawn game fills the board: only a win ends it sooner.
    fn draw_length(&self) -> Option<usize> {
        Some(CELLS - self.ply())
    }

    fn key(&self) -> u64 {
        self.pons_key()
    }
}

impl Drawing for ConnectFour {
    const ROWS: usize = HEIGHT;

    const COLUMNS: usize = WIDTH;

    /// The cell the disc lands on, rows counted from the top as the board is drawn.
    fn move_cell(&self, column: u8) -> Option<(usize, usize)> {
        let from_bottom = self.landing_row(usize::from(column));
        Some((HEIGHT - 1 - from_bottom, usize::from(column)))
    }

    /// From the bitboards, not the text; row 0 is the top, as drawn.
    fn cell(&self, row: usize, col: usize) -> Option<(Player, char)> {
        if row >= HEIGHT || col >= WIDTH {
            return None;
        }
        let bit = 1u64 << (col * STRIDE + (HEIGHT - 1 - row));
        let mover = self.side_to_move();
        let owner = if self.current & bit != 0 {
            mover
        } else if self.mask & bit != 0 {
            mover.opponent()
        } else {
            return None;
        };
        Some((owner, if owner == Player::X { 'X' } else { 'O' }))
    }

    fn winning_cells(&self) -> Vec<(usize, usize)> {
        let line = self.winning_line().into_iter().flatten();
        line.map(|(from_bottom, column)| (HEIGHT - 1 - from_bottom, column))
            .collect()
    }
}

impl Knowledge for ConnectFour {
    const EVALUATIONS: &'static [Evaluation<Self>] = &[Evaluation {
        name: "threats",
        description: "Threats (cells that would complete four), windows of four still open \
                      and centre discs, for the side to move minus its opponent.",
        evaluate: ConnectFour::threats_value,
    }];

    const REACHABLE_POSITIONS: Option<usize> = None;

    fn symmetric_key(&self) -> u64 {
        let key = self.pons_key();
        key.min(Self::mirror(key))
    }

    /// The centre column first, then outwards: central discs take part in more lines.
    fn move_priority(&self, column: u8) -> i32 {
        -(i32::from(column) - (WIDTH / 2) as i32).abs()
    }
}

impl Inputs for ConnectFour {
    /// The default's inputs, from the bitboards: cell (row, column), rows from the bottom,
    /// is bit `column * (HEIGHT + 1) + row`.
    fn network_inputs(&self, active: &mut Vec<u16>) {
        active.clear();
        let (mine, theirs) = self.discs();
        for row in 0..HEIGHT {
            for column in 0..WIDTH {
                let bit = 1u64 << (column * (HEIGHT + 1) + row);
                let cell = (row * WIDTH + column) as u16;
                if mine & bit != 0 {
                    active.push(2 * cell);
                } else if theirs & bit != 0 {
                    active.push(2 * cell + 1);
                }
            }
        }
    }

    /// The smaller of the key and its mirror image's: Connect Four is symmetric left to right.
    /// The mirror: the rules know no left from right.
    const NETWORK_SYMMETRIES: &'static [crate::game::Symmetry] =
        &[crate::game::Symmetry::MirrorColumns];

    fn network_move_image(column: u16, _: crate::game::Symmetry) -> u16 {
        WIDTH as u16 - 1 - column
    }
}

/// Every window of four cells in a line: 69 masks.
static WINDOWS: [u64; 69] = {
    let mut windows = [0u64; 69];
    let mut count = 0;
    // (column step, row step) for horizontal, vertical and the two diagonals.
    let steps: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];
    let mut s = 0;
    while s < 4 {
        let (dc, dr) = steps[s];
        let mut column = 0;
        while column < WIDTH as i32 {
            let mut row = 0;
            while row < HEIGHT as i32 {
                let end_column = column + 3 * dc;
                let end_row = row + 3 * dr;
                if end_column >= 0
                    && end_column < WIDTH as i32
                    && end_row >= 0
                    && end_row < HEIGHT as i32
                {
                    let mut window = 0u64;
                    let mut i = 0;
                    while i < 4 {
                        window |=
                            1 << ((column + i * dc) as usize * STRIDE + (row + i * dr) as usize);
                        i += 1;
                    }
                    windows[count] = window;
                    count += 1;
                }
                row += 1;
            }
            column += 1;
        }
        s += 1;
    }
    windows
};

impl FromStr for ConnectFour {
    type Err = BoardError;

    /// Reads the text form every game shares: 6 rows of 7 cells, top row first, `X`, `O` or
    /// `.`, the rows whole and optionally separated by `/` or line breaks. Refuses floating
    /// discs, impossible counts and wins that cannot have happened (both sides, or not by the
    /// side that moved last).
    fn from_str(board: &str) -> Result<Self, BoardError> {
        // The text numbers cells row-major from the top; a disc's bit is its column's base
        // plus its height from the bottom.
        let cells = text::read(board, Self::NAME, Self::ROWS, Self::COLUMNS)?;
        let bit = |cell: u8| {
            let (row_from_top, column) = (cell as usize / WIDTH, cell as usize % WIDTH);
            1u64 << (column * STRIDE + (HEIGHT - 1 - row_from_top))
        };
        let x = Bits(cells.x).map(bit).fold(0, |set, bit| set | bit);
        let o = Bits(cells.o).map(bit).fold(0, |set, bit| set | bit);
        let mask = x | o;
        // A disc floats when the cell below it (in the same column) is empty.
        let floating = mask & !BOTTOM & !(mask << 1);
        if floating != 0 {
            let bit = floating.trailing_zeros() as usize;
            let disc = if x >> bit & 1 == 1 { 'X' } else { 'O' };
            // The column as a move names it; the row as people count, said from where discs
            // fall: "row 4" alone could be the text's fourth line as well.
            return Err(BoardError::Impossible(format!(
                "the {disc} in column {} (columns are numbered 0 to 6, as moves are), {} from \
                 the bottom, floats above an empty cell",
                bit / STRIDE,
                ordinal(bit % STRIDE + 1)
            )));
        }
        let (xs, os) = (x.count_ones(), o.count_ones());
        if os > xs || xs > os + 1 {
            return Err(BoardError::Impossible(format!(
                "X has {xs} discs and O has {os}; X moves first, so X has as many as O or one more"
            )));
        }
        // A game ends at the first four, so only the side that moved last can have one. A
        // finished game is a board like any other; asking for a move in it is refused later.
        match (has_four(x), has_four(o)) {
            (true, true) => {
                return Err(BoardError::Impossible(
                    "both X and O have four in a row".into(),
                ));
            }
            (true, false) if xs == os => {
                return Err(BoardError::Impossible(
                    "X has four in a row, but O moved last; the game ended before O's move".into(),
                ));
            }
            (false, true) if xs > os => {
                return Err(BoardError::Impossible(
                    "O has four in a row, but X moved last; the game ended before X's move".into(),
                ));
            }
            _ => {}
        }
        let moves = (xs + os) as u8;
        let current = if moves.is_multiple_of(2) { x } else { o };
        Ok(ConnectFour {
            current,
            mask,
            moves,
        })
    }
}

impl fmt::Display for ConnectFour {
    /// Six rows of seven cells, top row first, separated by `/`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Built on the stack and written at once: every answer of the API carries a board.
        let mut text = [b'/'; CELLS + HEIGHT - 1];
        for row in 0..HEIGHT {
            for column in 0..WIDTH {
                // Row HEIGHT - 1 (the top) comes first, each row followed by its separator.
                let at = (HEIGHT - 1 - row) * (WIDTH + 1) + column;
                text[at] = match self.disc_at(row, column) {
                    Some(Player::X) => b'X',
                    Some(Player::O) => b'O',
                    None => b'.',
                };
            }
        }
        f.write_str(std::str::from_utf8(&text).expect("the board text is ASCII"))
    }
}

impl fmt::Debug for ConnectFour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ConnectFour({self})")
    }
}

/// Pons' solver (`solver.rs`), for the best move and for every move, within the time limit,
/// with alphabeta as its fallback.
impl Solve for ConnectFour {
    type Memory = ();

    fn solve(&self, time_limit: Option<Duration>, budget: &Budget) -> SearchResult<u8> {
        solver::search(self, time_limit, budget)
    }

    fn solver_analysis(&self, time_limit: Option<Duration>, budget: &Budget) -> Analysis<u8> {
        solver::analysis(self, time_limit, budget)
    }

    fn warm_up() {
        solver::warm_up();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_from_the_bitboards_are_the_texts() {
        for digits in ["", "4453", "44444412"] {
            let game = from_columns(digits);
            for (row, col) in (0..7).flat_map(|row| (0..8).map(move |col| (row, col))) {
                let drawn = crate::game::cell_in_text(&game.to_string(), row, col);
                assert_eq!(game.cell(row, col), drawn, "{digits} {row},{col}");
            }
        }
    }

    fn from_columns(digits: &str) -> ConnectFour {
        ConnectFour::from_pons_moves(digits).unwrap()
    }

    #[test]
    fn discs_fall_and_print_top_row_first() {
        let game = from_columns("4453");
        assert_eq!(
            game.to_string(),
            "......./......./......./......./...O.../..OXX.."
        );
        assert_eq!(game.to_string().parse::<ConnectFour>(), Ok(game));
        // The third disc of column 3 lands on the third row from the bottom, row 3 from the top.
        assert_eq!(game.move_cell(3), Some((3, 3)));
        assert_eq!(game.side_to_move(), Player::X);
    }

    #[test]
    fn four_in_a_row_in_every_direction() {
        for (moves, winner) in [
            ("1212121", Player::X),     // vertical, column 1
            ("1122334", Player::X),     // horizontal, bottom row
            ("12233434414", Player::X), // diagonal, up to the right
            ("76655454474", Player::X), // its mirror image, up to the left
            ("12121232", Player::O),    // vertical, column 2
        ] {
            let game = from_columns(moves);
            assert_eq!(game.outcome(), Outcome::Won(winner), "{moves}");
            assert!(game.winning_line().is_some(), "{moves}");
            let before = from_columns(&moves[..moves.len() - 1]);
            assert_eq!(
                before.outcome(),
                Outcome::InProgress,
                "{moves} minus the last move"
            );
        }
    }

    #[test]
    fn winning_cells_find_every_threat() {
        // X on the bottom row in columns 1 to 3, O stacked three high in column 7.
        let game = from_columns("172737");
        assert_eq!(game.winning_cells(), bottom_mask(3));
        assert_eq!(game.opponent_winning_cells(), 1 << (6 * STRIDE + 3));
        assert!(game.can_win_next());
        assert!(!from_columns("1727").can_win_next());
    }

    #[test]
    fn rejects_impossible_boards() {
        let reason = |text: &str| match text.parse::<ConnectFour>() {
            Err(BoardError::Impossible(reason)) => reason,
            other => panic!("{text}: {other:?}"),
        };
        // The floating disc is named and placed as an answer places a move.
        assert!(
            reason("......./......./......./......./...X.../.......")
                .starts_with("the X in column 3 (columns are numbered 0 to 6, as moves are), 2nd from the bottom, floats above an empty cell")
        );
        assert!(
            reason("O....../X....../......./......./......./......X").starts_with(
                "the X in column 0 (columns are numbered 0 to 6, as moves are), 5th from"
            )
        );
        assert!(
            reason("......./......./......./......./......./OO.....").contains("X moves first")
        );
        assert!(reason("......./......./......./......./XXX..../OOOOXX.").contains("X moved last"));
        // A finished game is a board like any other.
        let won: ConnectFour = "......./......./......./......./......./XXXXOOO"
            .parse()
            .unwrap();
        assert_eq!(won.outcome(), Outcome::Won(Player::X));
        assert!(matches!(
            "......./......./.......".parse::<ConnectFour>(),
            Err(BoardError::TooFewCells { found: 21, .. })
        ));
        let full_column = ConnectFour::from_moves(&[0, 0, 0, 0, 0, 0, 0]).unwrap_err();
        assert!(
            full_column.to_string().contains("column is full"),
            "{full_column}"
        );
    }

    #[test]
    fn mirror_images_share_a_key() {
        assert_eq!(
            from_columns("1").symmetric_key(),
            from_columns("7").symmetric_key()
        );
        assert_ne!(from_columns("1").key(), from_columns("7").key());
        assert_ne!(
            from_columns("1").symmetric_key(),
            from_columns("2").symmetric_key()
        );
    }
}
