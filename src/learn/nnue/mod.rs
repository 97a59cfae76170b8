//! An efficiently updatable neural network (NNUE), the evaluation a game learns from Sente's own
//! games: the net, its sums kept move by move, and its trainer, for any game that says what
//! its inputs are ([`Features`]). Chess and shogi each declare theirs in their folders.
//!
//! The net is the shape engines such as Svart, Carp and akimbo started with:
//!
//! ```text
//!   INPUTS, seen by the side to move   ->  H  -\
//!                                                clipped ReLU, joined  ->  1 output
//!   INPUTS, seen by its opponent       ->  H  -/
//! ```
//!
//! An input is a piece where it stands, as one side sees the board: its own or the opponent's,
//! so that both sides share one set of first-layer weights (the second player's view is the
//! board turned round, [`Features::flip`]). Few inputs are on at once, and a move changes few.
//!
//! A game may also read each side's inputs by where its own king stands (king-relative inputs,
//! as Stockfish's HalfKP reads every piece with its king's square): a net then has a set of
//! first-layer rows for each of a few *king buckets*, regions of the board its king may be
//! in, and a side's sums use its own king's bucket's rows ([`Features::KING_BUCKETS`]). A king
//! that moves into another bucket changes every one of its side's inputs, so that side's sums
//! are computed afresh ([`Changes::refresh`]); any other move changes few, as before.
//!
//! Two things make it cheap enough for a search of millions of nodes a second:
//! - the first layer's sums (the *accumulator*, one per side) are kept from position to
//!   position: a move turns off two or three inputs and turns on one or two, so the sums
//!   change by adding and subtracting that many weight rows, never the whole layer
//!   ([`accumulator`]);
//! - every weight is a 16-bit integer (quantised): the first layer's scaled by [`QA`] and
//!   clipped to [0, QA] as its activation, the output's by [`QB`]. The output is then
//!   `QA * QB` times the trained float, and [`Features::SCALE`] times that float is
//!   centipawns.

use crate::learn::LearnError;

pub mod accumulator;
pub mod network;
pub mod train;

pub use accumulator::{Accumulator, Changes, Stack};
pub use network::{Network, Slot};

/// The [`LearntWeights`](crate::learn::LearntWeights) of a game's net of inputs `$features`:
/// the one its `static` [`Slot`] `$slot` ships (the bytes `$shipped` of its file `$file`, in the
/// game's folder), and those read from files beside it. A macro, since what it gives are
/// functions of that one `static`.
macro_rules! learnt_weights {
    ($features:ty, $slot:ident, $shipped:ident, $file:literal) => {
        crate::learn::LearntWeights {
            evaluation: "nnue",
            file: $file,
            shipped: $shipped,
            load: |name, path| $slot.load(name, path),
            king_buckets: <$features as crate::learn::nnue::Features>::KING_BUCKETS,
        }
    };
}
pub(crate) use learnt_weights;

/// The first layer's scale: its weights times QA, its activations clipped to [0, QA].
pub const QA: i32 = 255;
/// The output layer's scale.
pub const QB: i32 = 64;

/// What a game's net reads: its inputs, and how a training line's board turns them on.
pub trait Features: 'static {
    /// What the game's net files start with, so that one game's net is never read as
    /// another's.
    const MAGIC: &'static [u8; 8];
    /// Inputs per side.
    const INPUTS: usize;
    /// The most inputs one position turns on.
    const MAX_ACTIVE: usize;
    /// Centipawns per unit of the net's float output: the scale its training targets use,
    /// `sigmoid(centipawns / SCALE)`.
    const SCALE: i32;
    /// Whether the game is the same game with its board mirrored left to right, so that a
    /// mirrored position is one more to learn from ([`Features::mirror`]).
    const MIRRORS: bool;
    /// How many king buckets a net of the game may read its inputs in, beside none (1: the
    /// game has no king-relative net). A net's file says which it is (its length).
    const KING_BUCKETS: usize = 1;

    /// The inputs on in a training line's `board` (in the game's text form), as the first
    /// player sees it, pushed onto `inputs`; whether the first player is to move.
    fn read_board(board: &str, inputs: &mut Vec<u16>) -> Result<bool, LearnError>;

    /// The inputs on in `board` as each side sees it, for a net of `buckets` king buckets
    /// (1 or [`Features::KING_BUCKETS`]): the first player's, then as many of the second's;
    /// whether the first player is to move. Without buckets, the first player's view and the
    /// same turned round ([`Features::flip`]); a game with buckets says how its kings read them.
    fn read_views(board: &str, buckets: usize, inputs: &mut Vec<u16>) -> Result<bool, LearnError> {
        if buckets != 1 {
            return Err(LearnError::Options(format!(
                "this game's net has no king buckets, not {buckets}"
            )));
        }
        let start = inputs.len();
        let first_to_move = Self::read_board(board, inputs)?;
        for index in start..inputs.len() {
            inputs.push(Self::flip(inputs[index]));
        }
        Ok(first_to_move)
    }

    /// An input as the other player sees it.
    fn flip(input: u16) -> u16;

    /// An input of a net of `buckets` king buckets with the board mirrored left to right
    /// (with its bucket, where it has them: the bucket of the king's mirrored square).
    fn mirror(input: u16, buckets: usize) -> u16;
}
