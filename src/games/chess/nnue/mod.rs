//! An efficiently updatable neural network (NNUE) that evaluates chess positions, learnt from
//! Sente's own games (docs/chess.md#the-network).
//!
//! The net is the shape engines such as Svart, Carp and akimbo started with:
//!
//! ```text
//!   768 inputs, seen by the side to move   ->  HIDDEN  -\
//!                                                        clipped ReLU, joined  ->  1 output
//!   768 inputs, seen by its opponent       ->  HIDDEN  -/
//! ```
//!
//! An input is a piece on a square: (own or the opponent's, role, square), 2 x 6 x 64 = 768,
//! with the squares of Black's view turned upside down, so that both sides see the board as
//! if they played up it and share one set of first-layer weights. At most 32 inputs are on.
//!
//! Two things make it cheap enough for a search of millions of nodes a second:
//! - the first layer's sums (the *accumulator*, one per side) are kept from position to
//!   position: a move turns off two or three inputs and turns on one or two, so the sums
//!   change by adding and subtracting that many weight rows, never the whole layer
//!   ([`accumulator`]);
//! - every weight is a 16-bit integer (quantised): the first layer's scaled by [`QA`] and
//!   clipped to [0, QA] as its activation, the output's by [`QB`]. The output is then
//!   `QA * QB` times the trained float, and [`SCALE`] times that float is centipawns.

pub mod accumulator;
pub mod network;
pub mod train;

use shakmaty::{Color, Position, Role, Square};

pub use accumulator::Accumulator;
pub use network::{Network, current, load, shipped};

/// Inputs per side: (own or the opponent's) x role x square.
pub const INPUTS: usize = 768;
/// Neurons of the hidden layer, per side.
pub const HIDDEN: usize = 128;
/// The first layer's scale: its weights times QA, its activations clipped to [0, QA].
pub const QA: i32 = 255;
/// The output layer's scale.
pub const QB: i32 = 64;
/// Centipawns per unit of the net's float output: the scale its training targets use,
/// `sigmoid(centipawns / SCALE)`.
pub const SCALE: i32 = 400;

/// The input of a `piece` of `color` on `square`, as `perspective` sees the board.
#[inline]
pub fn input(perspective: Color, color: Color, role: Role, square: Square) -> usize {
    let (theirs, square) = match perspective {
        Color::White => (color != perspective, square),
        Color::Black => (color != perspective, square.flip_vertical()),
    };
    usize::from(theirs) * 384 + (role as usize - 1) * 64 + square as usize
}

/// The side to move's evaluation of `position` in centipawns by the [`current`] net, its sums
/// computed afresh (a search keeps them instead: [`Accumulator`]).
pub fn evaluate(position: &shakmaty::Chess) -> i32 {
    let network = current();
    network.evaluate(
        &Accumulator::of(&network, position.board()),
        position.turn(),
    )
}

/// Which side's sums an accumulator keeps first: White's, then Black's.
#[inline]
fn side(color: Color) -> usize {
    match color {
        Color::White => 0,
        Color::Black => 1,
    }
}
