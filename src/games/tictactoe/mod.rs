//! Tic-tac-toe on two 9-bit bitboards.
//!
//! Cells are numbered 0..8 row-major from the top-left; bit `i` of a board is set when its side
//! holds cell `i`. X moves first, so which side is to move follows from the piece count and is
//! not stored.
//!
//! The two boards are kept as "the side to move" and "the side that just moved" rather than as
//! X and O, as Pons does for Connect Four: a move is then one OR and a swap, and the win check
//! looks at one board, without first working out whose turn it is.

use crate::game::{Drawing, Inputs, Knowledge, LEVELS, Level, Rules};
use std::fmt;
use std::str::FromStr;

use crate::game::{
    Bits, BoardError, Declaration, Evaluation, Limits, MoveError, Network, Outcome, Player, text,
};
use crate::search::Solve;

const CELLS: usize = 9;
const FULL: u16 = (1 << CELLS) - 1;

/// The eight lines: three rows, three columns, two diagonals.
const LINES: [u16; 8] = [
    0b000_000_111,
    0b000_111_000,
    0b111_000_000,
    0b001_001_001,
    0b010_010_010,
    0b100_100_100,
    0b100_010_001,
    0b001_010_100,
];

/// Bit `m` of this 512-bit set says whether the cells `m` contain a whole line.
///
/// Checking a win is then one load and a shift instead of eight mask tests, and the whole table
/// is 64 bytes: a single cache line.
const HAS_LINE: [u64; 8] = {
    let mut table = [0u64; 8];
    let mut mask = 0;
    while mask < 512 {
        let mut line = 0;
        while line < LINES.len() {
            if mask & LINES[line] as usize == LINES[line] as usize {
                table[mask >> 6] |= 1 << (mask & 63);
            }
            line += 1;
        }
        mask += 1;
    }
    table
};

/// Bit `m` of this 512-bit set says whether the cells `m` are odd in number.
///
/// The side to move follows from the parity of the pieces on the board. Without the `popcnt`
/// instruction (not in the x86-64 baseline), `count_ones` is a dozen instructions; this is one
/// load, and it halved the time of a full-tree search.
const ODD: [u64; 8] = {
    let mut table = [0u64; 8];
    let mut mask = 0;
    while mask < 512 {
        if (mask as u16).count_ones() % 2 == 1 {
            table[mask >> 6] |= 1 << (mask & 63);
        }
        mask += 1;
    }
    table
};

#[inline]
fn lookup(table: &[u64; 8], cells: u16) -> bool {
    (table[(cells >> 6) as usize] >> (cells & 63)) & 1 != 0
}

#[inline]
fn has_line(cells: u16) -> bool {
    lookup(&HAS_LINE, cells)
}

/// A tic-tac-toe position.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct TicTacToe {
    /// The cells of the side to move.
    to_move: u16,
    /// The cells of the side that moved last.
    moved: u16,
}

impl TicTacToe {
    fn from_sides(x: u16, o: u16) -> Self {
        if lookup(&ODD, x | o) {
            TicTacToe {
                to_move: o,
                moved: x,
            }
        } else {
            TicTacToe {
                to_move: x,
                moved: o,
            }
        }
    }

    /// The cells of X and of O.
    fn sides(&self) -> (u16, u16) {
        match self.side_to_move() {
            Player::X => (self.to_move, self.moved),
            Player::O => (self.moved, self.to_move),
        }
    }

    fn occupied(&self) -> u16 {
        self.to_move | self.moved
    }

    /// The cells held by `player`, as a 9-bit mask.
    pub fn cells(&self, player: Player) -> u16 {
        let (x, o) = self.sides();
        match player {
            Player::X => x,
            Player::O => o,
        }
    }

    /// The first complete line on the board, as three cell indices, if any.
    pub fn winning_line(&self) -> Option<[usize; 3]> {
        let line = LINES
            .iter()
            .find(|&&line| self.to_move & line == line || self.moved & line == line)?;
        let mut cells = Bits(u64::from(*line)).map(usize::from);
        Some([cells.next()?, cells.next()?, cells.next()?])
    }

    /// The number of lines with no cell in `blockers`: lines still winnable by the other side.
    fn open_lines(blockers: u16) -> i32 {
        LINES.iter().filter(|&&line| line & blockers == 0).count() as i32
    }
}

/// The evaluations ([`Knowledge::EVALUATIONS`]): apart from the rules above.
impl TicTacToe {
    /// Lines still open to the side to move minus lines still open to its opponent, over 9.
    ///
    /// We use open lines rather than the positional weights (centre 2, corner 1, edge 0)
    /// because the weights are only a static proxy for the number of lines through a cell
    /// (4, 3 and 2): counting the lines that are actually still winnable sees blocks and
    /// captures as they happen, and carries over unchanged to m,n,k games. The difference is at
    /// most 8, so dividing by 9 keeps the estimate strictly inside (-1, 1).
    fn open_lines_value(&self) -> f64 {
        let mine = Self::open_lines(self.moved);
        let theirs = Self::open_lines(self.to_move);
        f64::from(mine - theirs) / 9.0
    }

    /// The tutorials' positional weights (centre 2, corner 1, edge 0) of the side to move's
    /// marks minus its opponent's. A side's marks weigh at most 6 (the centre and four
    /// corners), so dividing by 7 keeps the estimate strictly inside (-1, 1).
    fn positional_value(&self) -> f64 {
        const WEIGHTS: [i32; CELLS] = [1, 0, 1, 0, 2, 0, 1, 0, 1];
        let weight = |board: u16| -> i32 {
            (0..CELLS)
                .filter(|&cell| board & (1 << cell) != 0)
                .map(|cell| WEIGHTS[cell])
                .sum()
        };
        f64::from(weight(self.to_move) - weight(self.moved)) / 7.0
    }
}

/// The levels (docs/levels.md): every move valued exactly (the game is solved in an instant),
/// and one drawn among them at a temperature that halves the chance of a losing move, or of
/// missing a win, from one level to the next; the solver at the top.
const LEVEL_TABLE: [Level; LEVELS] = [
    Level::full(None).among(9, 2.2),
    Level::full(None).among(9, 1.2),
    Level::full(None).among(9, 0.5),
    Level::full(None).among(9, 0.3),
    Level::full(None).among(9, 0.24),
    Level::full(None).among(9, 0.19),
    Level::full(None).among(9, 0.15),
    Level::full(None),
];

impl Rules for TicTacToe {
    type Move = u8;

    type Moves = Bits;

    const NAME: &'static str = "tictactoe";

    const DECLARATION: Declaration = Declaration {
        title: "Tic-tac-toe",
        moves: "a move is a cell's number, 0 to 8, row by row from the top-left (row = move / 3, \
                col = move % 3)",
        board: "9 cells row-major: X or x, O or o, and '.', '-' or '_' for empty; rows may be \
                separated by '/' or line breaks, and then each has 3 cells. Or an array of cells \
                (flat, or 3 rows of 3), each \"X\", \"O\", \"\" or null.",
        tournament_games: 100,
        // Every search of so small a tree finishes: nothing needs bounding.
        limits: Limits {
            full_width_depth: None,
            default_time_limit_ms: None,
            traps: true,
            instant_exact_search: true,
        },
        networks: &[Network {
            name: "gen-1",
            description: "AlphaZero's policy-value network, 18 inputs, two layers of 64, \
                          generation 1 of its AlphaZero loop (docs/alphazero.md).",
            bytes: include_bytes!("alphazero.net"),
        }],
        levels: LEVEL_TABLE,
        measured_levels: include_str!("levels.json"),
        ..Declaration::DEFAULT
    };

    const MAX_PLIES: usize = CELLS;

    const LONGEST_GAME: Option<usize> = Some(CELLS);

    const MOVE_IDS: usize = CELLS;

    fn start() -> Self {
        Self::default()
    }

    #[inline]
    fn side_to_move(&self) -> Player {
        // X moved first, so an odd number of pieces means X has one more: O is to move.
        if lookup(&ODD, self.occupied()) {
            Player::O
        } else {
            Player::X
        }
    }

    #[inline]
    fn legal_moves(&self) -> Bits {
        if self.outcome().is_over() {
            Bits(0)
        } else {
            Bits(u64::from(!self.occupied() & FULL))
        }
    }

    #[inline]
    fn play(&self, mv: u8) -> Self {
        debug_assert!(
            mv < 9 && self.occupied() & (1 << mv) == 0,
            "illegal move {mv}"
        );
        TicTacToe {
            to_move: self.moved,
            moved: self.to_move | 1 << mv,
        }
    }

    #[inline]
    fn outcome(&self) -> Outcome {
        // Only the side that just moved can have a line: parsing rejects any other position
        // and `play` is never called once the game is over. Every node of every search asks,
        // so the side's name is worked out only once a line is found.
        if has_line(self.moved) {
            Outcome::Won(self.side_to_move().opponent())
        } else if self.occupied() == FULL {
            Outcome::Draw
        } else {
            Outcome::InProgress
        }
    }

    fn move_id(mv: u8) -> u16 {
        u16::from(mv)
    }

    fn parse_move(&self, index: usize) -> Result<u8, MoveError> {
        if self.outcome().is_over() {
            return Err(MoveError::GameOver);
        }
        if index >= CELLS {
            return Err(MoveError::OutOfRange {
                index,
                first: 0,
                last: CELLS - 1,
            });
        }
        if self.occupied() & (1 << index) != 0 {
            return Err(MoveError::Illegal {
                index,
                reason: "the cell is already taken",
            });
        }
        Ok(index as u8)
    }

    fn ply(&self) -> usize {
        self.occupied().count_ones() as usize
    }

    /// A drawn game fills the board: no line is left to end it sooner.
    fn draw_length(&self) -> Option<usize> {
        Some(CELLS - self.ply())
    }

    fn key(&self) -> u64 {
        u64::from(self.to_move) | u64::from(self.moved) << CELLS
    }
}

impl Drawing for TicTacToe {
    const ROWS: usize = 3;

    const COLUMNS: usize = 3;

    /// From the bits, not the text: every answer draws every cell.
    fn cell(&self, row: usize, col: usize) -> Option<(Player, char)> {
        if row >= 3 || col >= 3 {
            return None;
        }
        let bit = 1 << (row * 3 + col);
        let (x, o) = self.sides();
        if x & bit != 0 {
            Some((Player::X, 'X'))
        } else if o & bit != 0 {
            Some((Player::O, 'O'))
        } else {
            None
        }
    }

    fn winning_cells(&self) -> Vec<(usize, usize)> {
        self.winning_line()
            .map(|line| line.iter().map(|&cell| (cell / 3, cell % 3)).collect())
            .unwrap_or_default()
    }
}

impl Knowledge for TicTacToe {
    const EVALUATIONS: &'static [Evaluation<Self>] = &[
        Evaluation {
            name: "open_lines",
            description: "Lines still open to the side to move minus those open to its \
                          opponent: blocks count as they happen.",
            evaluate: TicTacToe::open_lines_value,
        },
        Evaluation {
            name: "positional",
            description: "The tutorials' weights: centre 2, corner 1, edge 0, for the side \
                          to move's marks minus its opponent's.",
            evaluate: TicTacToe::positional_value,
        },
    ];

    const REACHABLE_POSITIONS: Option<usize> = Some(5478);

    fn symmetric_key(&self) -> u64 {
        SYMMETRIES
            .iter()
            .map(|image| {
                u64::from(image[self.to_move as usize])
                    | u64::from(image[self.moved as usize]) << CELLS
            })
            .min()
            .expect("the identity is among the symmetries")
    }

    /// Centre (on 4 lines), then corners (3), then edges (2).
    fn move_priority(&self, mv: u8) -> i32 {
        LINES.iter().filter(|&&line| line & (1 << mv) != 0).count() as i32
    }
}

impl Inputs for TicTacToe {
    /// The default's inputs, from the two sides' bits: cell `i` is bit `i`.
    fn network_inputs(&self, active: &mut Vec<u16>) {
        active.clear();
        for cell in 0..CELLS as u16 {
            if self.to_move >> cell & 1 != 0 {
                active.push(2 * cell);
            } else if self.moved >> cell & 1 != 0 {
                active.push(2 * cell + 1);
            }
        }
    }

    const NETWORK_SYMMETRIES: &'static [crate::game::Symmetry] = crate::game::Symmetry::SQUARE;
}

/// Where each cell goes under the square's 8 symmetries (rotations and reflections).
const CELL_IMAGES: [[usize; CELLS]; 8] = [
    [0, 1, 2, 3, 4, 5, 6, 7, 8], // identity
    [6, 3, 0, 7, 4, 1, 8, 5, 2], // rotation by 90 degrees
    [8, 7, 6, 5, 4, 3, 2, 1, 0], // rotation by 180 degrees
    [2, 5, 8, 1, 4, 7, 0, 3, 6], // rotation by 270 degrees
    [2, 1, 0, 5, 4, 3, 8, 7, 6], // mirror left-right
    [6, 7, 8, 3, 4, 5, 0, 1, 2], // mirror top-bottom
    [0, 3, 6, 1, 4, 7, 2, 5, 8], // transpose (main diagonal)
    [8, 5, 2, 7, 4, 1, 6, 3, 0], // anti-diagonal
];

/// For each symmetry, the image of every 9-bit cell set: transforming a board is then two
/// lookups instead of nine bit moves (8 KiB in all).
static SYMMETRIES: [[u16; 512]; 8] = {
    let mut tables = [[0u16; 512]; 8];
    let mut symmetry = 0;
    while symmetry < 8 {
        let mut mask = 0;
        while mask < 512 {
            let mut image = 0u16;
            let mut cell = 0;
            while cell < CELLS {
                if mask & (1 << cell) != 0 {
                    image |= 1 << CELL_IMAGES[symmetry][cell];
                }
                cell += 1;
            }
            tables[symmetry][mask] = image;
            mask += 1;
        }
        symmetry += 1;
    }
    tables
};

impl FromStr for TicTacToe {
    type Err = BoardError;

    /// Reads the text form every game shares: 3 rows of 3 cells, top row first, `X`, `O` or
    /// `.`, the rows whole and optionally separated by `/` or line breaks. Positions that
    /// cannot arise in a game are rejected.
    fn from_str(board: &str) -> Result<Self, BoardError> {
        // Cells are numbered row-major from the top-left, as this game's bits are.
        let cells = text::read(board, Self::NAME, Self::ROWS, Self::COLUMNS)?;
        let (x, o) = (cells.x as u16, cells.o as u16);
        Self::check_reachable(x, o)?;
        Ok(Self::from_sides(x, o))
    }
}

impl TicTacToe {
    fn check_reachable(x: u16, o: u16) -> Result<(), BoardError> {
        let xs = x.count_ones();
        let os = o.count_ones();
        let impossible = |reason: String| Err(BoardError::Impossible(reason));
        if os > xs {
            return impossible(format!(
                "O has {os} pieces but X has {xs}; X moves first, so O never has more"
            ));
        }
        if xs > os + 1 {
            return impossible(format!(
                "X has {xs} pieces but O has {os}; X can be at most one piece ahead"
            ));
        }
        match (has_line(x), has_line(o)) {
            (true, true) => impossible("both X and O have three in a row".into()),
            (true, false) if xs == os => impossible(
                "X has three in a row, but O moved last; the game ended before O's move".into(),
            ),
            (false, true) if xs > os => impossible(
                "O has three in a row, but X moved last; the game ended before X's move".into(),
            ),
            _ => Ok(()),
        }
    }
}

impl fmt::Display for TicTacToe {
    /// Three rows of three cells separated by `/`, e.g. `X.O/.X./..O`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (x, o) = self.sides();
        // Built on the stack and written at once: every answer of the API carries a board.
        let mut text = [b'/'; CELLS + 2];
        for cell in 0..CELLS {
            let bit = 1 << cell;
            text[cell + cell / 3] = if x & bit != 0 {
                b'X'
            } else if o & bit != 0 {
                b'O'
            } else {
                b'.'
            };
        }
        f.write_str(std::str::from_utf8(&text).expect("the board text is ASCII"))
    }
}

impl fmt::Debug for TicTacToe {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TicTacToe({self})")
    }
}

/// Solved by the default: a perfect table of every reachable position, built at start-up.
impl Solve for TicTacToe {
    type Memory = ();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_from_the_bits_are_the_texts() {
        for text in ["X.O/.X./..O", "XXX/OO./...", "........."] {
            let game = board(text);
            for (row, col) in (0..4).flat_map(|row| (0..4).map(move |col| (row, col))) {
                let drawn = crate::game::cell_in_text(&game.to_string(), row, col);
                assert_eq!(game.cell(row, col), drawn, "{text} {row},{col}");
            }
        }
    }

    fn board(text: &str) -> TicTacToe {
        text.parse().unwrap()
    }

    #[test]
    fn parses_and_prints_every_accepted_form() {
        assert_eq!(board("X.O.X...O").to_string(), "X.O/.X./..O");
        assert_eq!(board("x-o/_X./..o").to_string(), "X.O/.X./..O");
        assert_eq!(board("X.O\n.X.\r\n..O\n").to_string(), "X.O/.X./..O");
        assert_eq!(board(".........").side_to_move(), Player::X);
        assert_eq!(board("X........").side_to_move(), Player::O);
    }

    #[test]
    fn names_the_bad_character_and_its_position() {
        let error = "X.O/.Z./..O".parse::<TicTacToe>().unwrap_err();
        assert_eq!(
            error,
            BoardError::BadCharacter {
                found: 'Z',
                position: 5
            }
        );
        assert!(error.to_string().contains("'Z', the 6th character"));
    }

    #[test]
    fn rejects_wrong_sizes() {
        assert!(matches!(
            "X.O.X...O.".parse::<TicTacToe>(),
            Err(BoardError::TooManyCells { found: 10, .. })
        ));
        assert!(matches!(
            "X.O".parse::<TicTacToe>(),
            Err(BoardError::TooFewCells { found: 3, .. })
        ));
        assert!(matches!(
            "".parse::<TicTacToe>(),
            Err(BoardError::TooFewCells { found: 0, .. })
        ));
    }

    #[test]
    fn rejects_impossible_positions_with_a_reason() {
        let reason = |text: &str| match text.parse::<TicTacToe>() {
            Err(BoardError::Impossible(reason)) => reason,
            other => panic!("{text}: expected an impossible position, got {other:?}"),
        };
        assert!(reason("O........").contains("O has 1 pieces but X has 0"));
        assert!(reason("XX.......").contains("at most one piece ahead"));
        assert!(reason("XXXOOO...").contains("both X and O"));
        assert!(reason("XXXOO.O..").contains("O moved last"));
        assert!(reason("OOOXX.XX.").contains("X moved last"));
    }

    #[test]
    fn outcome_and_moves() {
        assert_eq!(board("XXX/OO./...").outcome(), Outcome::Won(Player::X));
        assert_eq!(board("XXX/OO./...").legal_moves().len(), 0);
        assert_eq!(board("OOO/XX./X..").outcome(), Outcome::Won(Player::O));
        assert_eq!(board("XOX/XOO/OXX").outcome(), Outcome::Draw);
        assert_eq!(board("X.O/.X./..O").outcome(), Outcome::InProgress);
        assert_eq!(
            board("X.O/.X./..O").legal_moves().collect::<Vec<_>>(),
            vec![1, 3, 5, 6, 7]
        );
        assert_eq!(board("XXX/OO./...").winning_line(), Some([0, 1, 2]));
        assert_eq!(board("X.O/.X./..O").winning_line(), None);
    }

    #[test]
    fn replays_moves_and_rejects_bad_ones() {
        let game = TicTacToe::from_moves(&[4, 0, 8]).unwrap();
        assert_eq!(game.to_string(), "O../.X./..X");
        let error = TicTacToe::from_moves(&[4, 4]).unwrap_err();
        assert_eq!(error.position, 1);
        assert!(error.to_string().contains("already taken"));
        let error = TicTacToe::from_moves(&[0, 3, 1, 4, 2, 5]).unwrap_err();
        assert_eq!(error.error, MoveError::GameOver);
        assert!(matches!(
            TicTacToe::from_moves(&[9]).unwrap_err().error,
            MoveError::OutOfRange {
                index: 9,
                first: 0,
                last: 8
            }
        ));
    }

    #[test]
    fn symmetric_positions_share_a_key() {
        let corner = board("X........");
        for other in ["..X......", "......X..", "........X"] {
            assert_eq!(
                board(other).symmetric_key(),
                corner.symmetric_key(),
                "{other}"
            );
            assert_ne!(board(other).key(), corner.key());
        }
        assert_ne!(board("....X....").symmetric_key(), corner.symmetric_key());
        assert_ne!(board(".X.......").symmetric_key(), corner.symmetric_key());
        // Each symmetry maps lines to lines, so it preserves the outcome.
        for image in &SYMMETRIES {
            for line in LINES {
                assert!(has_line(image[line as usize]));
            }
        }
        let priorities: Vec<i32> = (0..9)
            .map(|mv| TicTacToe::start().move_priority(mv))
            .collect();
        assert_eq!(priorities, [3, 2, 3, 2, 4, 2, 3, 2, 3]);
    }

    #[test]
    fn evaluation_counts_open_lines_for_the_side_to_move() {
        // X in the centre: all 8 lines open to X, 4 (those avoiding the centre) open to O.
        let centre = board(".../.X./...");
        assert_eq!(centre.side_to_move(), Player::O);
        assert!((centre.open_lines_value() - (4.0 - 8.0) / 9.0).abs() < 1e-12);
        assert_eq!(TicTacToe::start().open_lines_value(), 0.0);
    }
}
