//! The rules of a game: the required core of the contract, and the rules' defaults.

use std::fmt::{Debug, Display};
use std::hash::{Hash, Hasher};
use std::str::FromStr;

use super::{
    BoardError, Declaration, MoveError, MoveSequenceError, Notation, Outcome, Player, Turn,
};

/// The rules of a game: what a new game must say (the items without a default: its moves, how
/// one is played, who is to move and who has won, its name and declaration), and the rules'
/// answers that have one.
///
/// Positions are immutable: [`Rules::play`] returns the next position. Moves are small `Copy`
/// values with a compact id ([`Rules::move_id`], below [`Rules::MOVE_IDS`]) for tables, which is
/// also the cell or column number used in the text API.
pub trait Rules:
    Clone + Eq + Hash + Debug + Display + FromStr<Err = BoardError> + Send + Sync + 'static
{
    type Move: Copy + Eq + Hash + Debug + Default + Send + Sync + 'static;

    /// The legal moves, in the game's natural order (the order ties are broken in).
    type Moves: ExactSizeIterator<Item = Self::Move>;

    /// The name used in the API: lowercase letters and digits.
    const NAME: &'static str;

    /// What the service says of the game, and the limits it sets on searches of it.
    const DECLARATION: Declaration;

    /// Upper bound on the number of plies in a game; sizes per-ply buffers.
    const MAX_PLIES: usize;

    /// Number of distinct move ids: [`Rules::move_id`] is below it.
    const MOVE_IDS: usize;

    /// The most plies a game lasts by its rules, where they bound it (a full board, shogi's
    /// move limit); `None` where they do not in practice (chess). What a tournament's results
    /// from another machine may claim is checked against it.
    const LONGEST_GAME: Option<usize> = None;

    /// Whether perft counts a game that ends before the depth as one path, as Othello's
    /// published figures (and Edax) do, rather than as none, as chess's do.
    const PERFT_COUNTS_FINISHED_GAMES: bool = false;

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

    /// The number of [`Rules::perft_moves`], which a game may count without building the
    /// iterator.
    fn count_perft_moves(&self) -> usize {
        self.perft_moves().len()
    }

    /// The position after `mv`, which must be one of [`Rules::legal_moves`].
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

    /// The move's compact id, below [`Rules::MOVE_IDS`]; in the API, the cell or column number.
    fn move_id(mv: Self::Move) -> u16;

    /// The move with API index `index`, if it is legal in this position. By default the legal
    /// move whose id is `index`.
    fn parse_move(&self, index: usize) -> Result<Self::Move, MoveError> {
        if self.outcome().is_over() {
            return Err(MoveError::GameOver);
        }
        if index >= Self::MOVE_IDS {
            return Err(MoveError::OutOfRange {
                index,
                first: 0,
                last: Self::MOVE_IDS - 1,
            });
        }
        self.legal_moves()
            .find(|&mv| usize::from(Self::move_id(mv)) == index)
            .ok_or(MoveError::Illegal {
                index,
                reason: "it is not one of the legal moves here",
            })
    }

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

    /// Number of moves played so far.
    fn ply(&self) -> usize;

    /// The most plies a search from here looks ahead: the plies left to the end of the game
    /// where the rules bound its length, else [`Rules::MAX_PLIES`], the game's search horizon.
    fn plies_left(&self) -> usize {
        Self::MAX_PLIES - self.ply()
    }

    /// The rule that ended the game (`checkmate`, `stalemate`, `threefold_repetition`, ...),
    /// for games whose rules end games in more than one way; `None` while in progress.
    fn ending(&self) -> Option<&'static str> {
        None
    }

    /// The rule under which a player may claim a draw here though play may go on (chess's
    /// fifty-move rule and threefold repetition), for games that have such draws: the game is
    /// [over](Rules::outcome) for a tournament, which ends it as match runners do, but a
    /// position to analyse.
    fn claimable_draw(&self) -> Option<&'static str> {
        None
    }

    /// Play goes on past a draw that could be claimed here ([`Rules::claimable_draw`]): the
    /// position is then in progress, and the rules apply again after the next move.
    fn play_on(&mut self) {}

    /// How many plies a game drawn from here lasts, when the rules fix it (a draw that can only
    /// be a full board); `None` when they do not. A proven draw's `plies_to_end` is this.
    fn draw_length(&self) -> Option<usize> {
        None
    }

    /// A number that identifies the position: equal keys, equal positions. By default the
    /// position's `Hash`, through the standard library's hasher: a game whose tables matter
    /// keeps a Zobrist hash in its position instead, which costs nothing to read.
    fn key(&self) -> u64 {
        let mut hasher = std::hash::DefaultHasher::new();
        self.hash(&mut hasher);
        hasher.finish()
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
