//! Chess's evaluation network, learnt from Sente's own games (docs/chess.md#the-network): the
//! kit of [`crate::learn::nnue`] with chess's inputs.
//!
//! An input is a piece on a square: (own or the opponent's, role, square), 2 x 6 x 64 = 768,
//! with the squares of Black's view turned upside down, so that both sides see the board as
//! if they played up it and share one set of first-layer weights. At most 32 inputs are on.

pub mod accumulator;

use shakmaty::fen::Fen;
use shakmaty::{Color, Role, Square};

use crate::learn::LearnError;
use crate::learn::nnue::{self, Features, Slot};
use crate::learn::weights::NamedWeights;

/// Inputs per side: (own or the opponent's) x role x square.
pub const INPUTS: usize = 768;
/// Neurons of the hidden layer, per side.
pub const HIDDEN: usize = 128;

/// Chess's inputs.
pub struct ChessFeatures;

/// Chess's net.
pub type Network = nnue::Network<ChessFeatures, HIDDEN>;
/// Both sides' sums of its first layer.
pub type Accumulator = nnue::Accumulator<HIDDEN>;

/// The net Sente ships, learnt as docs/chess.md#the-network says, or one read in its place.
static NET: Slot<ChessFeatures, HIDDEN> = Slot::new("chess", SHIPPED);
const SHIPPED: &[u8] = include_bytes!("sente.nnue");

/// The net as `sente learn` makes its generations and the `weights` knob plays them.
pub const WEIGHTS: crate::learn::LearntWeights =
    nnue::learnt_weights!(ChessFeatures, NET, SHIPPED, "sente.nnue");

impl Features for ChessFeatures {
    const MAGIC: &'static [u8; 8] = b"SENTENN1";
    const INPUTS: usize = INPUTS;
    const MAX_ACTIVE: usize = 32;
    const SCALE: i32 = 400;
    /// The same game but for castling, which the inputs do not see.
    const MIRRORS: bool = true;

    fn read_board(board: &str, inputs: &mut Vec<u16>) -> Result<bool, LearnError> {
        let fen: Fen = board
            .parse()
            .map_err(|error| LearnError::Data(format!("the FEN: {error}")))?;
        let setup = fen.as_setup();
        if setup.board.occupied().count() > 32 {
            return Err(LearnError::Data(
                "more than 32 pieces: not a chess position".to_owned(),
            ));
        }
        for (square, piece) in setup.board.clone() {
            inputs.push(input(Color::White, piece.color, piece.role, square) as u16);
        }
        Ok(setup.turn == Color::White)
    }

    /// Own and the opponent's swapped, the board upside down.
    #[inline]
    fn flip(input: u16) -> u16 {
        (if input < 384 {
            input + 384
        } else {
            input - 384
        }) ^ 56
    }

    /// The file is the input's lowest three bits.
    #[inline]
    fn mirror(input: u16, _buckets: usize) -> u16 {
        input ^ 7
    }
}

/// The net a search plays with: the one its settings carry (the `weights` knob, UCI's
/// `EvalFile`), else the shipped one.
pub fn playing(weights: Option<&NamedWeights>) -> std::sync::Arc<Network> {
    NET.playing(weights)
}

/// The net Sente ships.
pub fn shipped() -> &'static std::sync::Arc<Network> {
    NET.shipped()
}

/// Reads the net in the file at `path` as UCI's `EvalFile` names it.
pub fn load_eval_file(path: &std::path::Path) -> Result<NamedWeights, LearnError> {
    NET.load("EvalFile", path)
}

/// Trains chess's net (`sente train --game chess`).
pub fn train(
    options: &crate::learn::TrainingOptions,
    on_epoch: &mut dyn FnMut(&crate::learn::Epoch),
) -> Result<crate::learn::TrainingReport, LearnError> {
    nnue::train::train::<ChessFeatures, HIDDEN>(options, on_epoch)
}

/// The input of a `piece` of `color` on `square`, as `perspective` sees the board.
#[inline]
pub fn input(perspective: Color, color: Color, role: Role, square: Square) -> usize {
    let (theirs, square) = match perspective {
        Color::White => (color != perspective, square),
        Color::Black => (color != perspective, square.flip_vertical()),
    };
    usize::from(theirs) * 384 + (role as usize - 1) * 64 + square as usize
}

/// The side to move's evaluation of `position` in centipawns by `network`, its sums computed
/// afresh (a search keeps them instead: [`accumulator::Stack`]).
pub fn evaluate_with(network: &Network, position: &shakmaty::Chess) -> i32 {
    use shakmaty::Position;
    network.evaluate(
        &accumulator::of(network, position.board()),
        side(position.turn()),
    )
}

/// [`evaluate_with`] the shipped net: the `nnue` evaluation of the algorithms other than the
/// engine, which carry no weights.
pub fn evaluate(position: &shakmaty::Chess) -> i32 {
    evaluate_with(shipped(), position)
}

/// Which side's sums an accumulator keeps first: White's, then Black's.
#[inline]
pub fn side(color: Color) -> usize {
    match color {
        Color::White => 0,
        Color::Black => 1,
    }
}

#[cfg(test)]
mod tests;
