//! What a front end draws of a position and its moves beyond the rules: the grid, what stands
//! on each cell, the squares a move touches, pieces in hand, the notation players write, and
//! the units a score is counted in.

use super::{Player, Rules, cell_in_text};

/// What the answers show of a position and its moves for a front end to draw: the board's
/// grid (`ROWS` and `COLUMNS`, required), and the rest by default drawn from the text form and
/// the moves' ids.
pub trait Drawing: Rules {
    /// The board's size, as its text form writes it: `ROWS` rows of `COLUMNS` cells.
    const ROWS: usize;

    const COLUMNS: usize;

    /// The (row, column) of the cell the move fills, row 0 the top row as the board is drawn
    /// (the board's text, top row first), whichever way the game numbers its ranks; `None` for
    /// a move that fills no cell (a pass). By default a move id below `ROWS * COLUMNS` names
    /// its cell, row by row from the top left (`row * COLUMNS + column`), and any other fills
    /// none.
    fn move_cell(&self, mv: Self::Move) -> Option<(usize, usize)> {
        let id = usize::from(Self::move_id(mv));
        (id < Self::ROWS * Self::COLUMNS).then_some((id / Self::COLUMNS, id % Self::COLUMNS))
    }

    /// What stands on a cell (rows counted as [`Drawing::move_cell`] counts them): the side it
    /// belongs to and a letter for it, `X` or `O` for stones and discs, the piece's letter for
    /// games with pieces (chess's `K`, `Q`, `R`, `B`, `N`, `P`). By default read from the
    /// board's text form, rows of X, O and empty cells top row first.
    fn cell(&self, row: usize, col: usize) -> Option<(Player, char)> {
        cell_in_text(&self.to_string(), row, col)
    }

    /// The square a move starts from, for games whose pieces move (as [`Drawing::move_cell`]
    /// numbers cells); `None` for games that fill cells.
    fn move_origin(&self, mv: Self::Move) -> Option<(usize, usize)> {
        let _ = mv;
        None
    }

    /// The pieces `side` holds in hand, to drop on the board as a move (shogi's captured
    /// pieces), each as [`Drawing::cell`] draws it and how many; empty for games without hands.
    fn hand(&self, side: Player) -> Vec<(char, u32)> {
        let _ = side;
        Vec::new()
    }

    /// The piece a move drops from the hand (as [`Drawing::hand`] draws it), for games whose
    /// pieces in hand are dropped: such a move has a cell but no [origin](Drawing::move_origin).
    fn move_drop(&self, mv: Self::Move) -> Option<char> {
        let _ = mv;
        None
    }

    /// The cells of the line that won the game, as [`Drawing::move_cell`] numbers them, for a
    /// front end to show; empty while nobody has won, or when the game has no such line.
    fn winning_cells(&self) -> Vec<(usize, usize)> {
        Vec::new()
    }

    /// The move in the notation players write (chess's SAN), where it differs from
    /// [`Rules::notation`].
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

    /// How many of the game's centipawns move a side's winning probability by one logistic
    /// unit, as fitted to the results of Sente's own games (`scripts/review-calibration.py`,
    /// docs/review.md): a review reads a score through it ([`Drawing::win_probability`]).
    /// `None` where the game counts no centipawns, or where no fit replaces the score's own
    /// map.
    const FITTED_CENTIPAWNS: Option<f64> = None;

    /// The side to move's probability of winning (0 to 1) that a score (its winning chances,
    /// in (-1, 1), a proven result at -1 or 1) stands for: the score's own map, `(score + 1) /
    /// 2`, unless the game fitted a logistic of its centipawns to its results
    /// ([`Drawing::FITTED_CENTIPAWNS`]). A proven result stays a certainty.
    fn win_probability(score: f64) -> f64 {
        let score = score.clamp(-1.0, 1.0);
        let fitted = Self::FITTED_CENTIPAWNS.filter(|_| score.abs() < 1.0);
        match fitted.zip(Self::centipawns(score)) {
            Some((scale, cp)) => 1.0 / (1.0 + (-f64::from(cp) / scale).exp()),
            None => (score + 1.0) / 2.0,
        }
    }

    /// The final disc difference a score (the side to move's winning chances, in (-1, 1))
    /// stands for, for games scored by their discs (Othello): the evaluation's estimate of
    /// the margin, read back from the score it was mapped to.
    fn discs(score: f64) -> Option<f64> {
        let _ = score;
        None
    }
}
