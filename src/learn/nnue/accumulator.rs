//! The first layer's sums, kept from position to position.
//!
//! A move changes few inputs: a quiet move turns one off (the piece on its square) and one on
//! (the piece on its new square); a capture also turns off the captured piece (and in shogi
//! turns on a piece in the capturer's hand); a drop turns a piece in hand off and the piece on
//! its square on. The sums after a move are the sums before it with those weight rows added
//! and taken away, a small part of the work of summing every input afresh. A search keeps a
//! [`Stack`] of them, a ply an entry, and brings an entry up to date only when its position
//! is evaluated: a node cut off before its evaluation costs nothing.

use super::{Features, Network, QA, QB};

/// Both sides' sums of the first layer for one position: the first player's, then the
/// second's.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C, align(64))]
pub struct Accumulator<const H: usize> {
    pub values: [[i16; H]; 2],
}

/// An input as each side sees it: the first player's index, then the second's.
pub type Seen = [u16; 2];

/// The inputs a move turns off and on.
#[derive(Clone, Copy, Debug)]
pub struct Changes {
    off: [Seen; 3],
    offs: u8,
    on: [Seen; 2],
    ons: u8,
}

impl Changes {
    /// No change: a null move's.
    pub const NONE: Changes = Changes {
        off: [[0; 2]; 3],
        offs: 0,
        on: [[0; 2]; 2],
        ons: 0,
    };

    /// Turns `input` off (at most three a move).
    #[inline]
    pub fn turn_off(&mut self, input: Seen) {
        self.off[usize::from(self.offs)] = input;
        self.offs += 1;
    }

    /// Turns `input` on (at most two a move).
    #[inline]
    pub fn turn_on(&mut self, input: Seen) {
        self.on[usize::from(self.ons)] = input;
        self.ons += 1;
    }
}

impl<const H: usize> Accumulator<H> {
    /// The sums of the inputs `on`, computed afresh.
    pub fn of<F: Features>(
        network: &Network<F, H>,
        on: impl IntoIterator<Item = Seen>,
    ) -> Accumulator<H> {
        let mut sums = Accumulator {
            values: [network.b1; 2],
        };
        for input in on {
            sums.update(network, input, add);
        }
        sums
    }

    /// The sums after a move that makes `changes`.
    pub fn after<F: Features>(&self, network: &Network<F, H>, changes: &Changes) -> Self {
        let mut sums = *self;
        for &input in &changes.on[..usize::from(changes.ons)] {
            sums.update(network, input, add);
        }
        for &input in &changes.off[..usize::from(changes.offs)] {
            sums.update(network, input, subtract);
        }
        sums
    }

    /// Adds (or takes away) an input's row, in both sides' views.
    #[inline]
    fn update<F: Features>(
        &mut self,
        network: &Network<F, H>,
        seen: Seen,
        op: fn(i16, i16) -> i16,
    ) {
        for (values, input) in self.values.iter_mut().zip(seen) {
            let row = &network.w1[usize::from(input)];
            for (sum, &weight) in values.iter_mut().zip(row) {
                *sum = op(*sum, weight);
            }
        }
    }
}

#[inline]
fn add(sum: i16, weight: i16) -> i16 {
    sum.wrapping_add(weight)
}

#[inline]
fn subtract(sum: i16, weight: i16) -> i16 {
    sum.wrapping_sub(weight)
}

/// The output layer reads the accumulator: it is written here, beside the sums it reads, so
/// that the net's file (`network.rs`) knows nothing of them.
impl<F: Features, const H: usize> Network<F, H> {
    /// The evaluation for the side to move, in centipawns, from the sums of both sides;
    /// `mover` is its index in them (0 for the first player).
    #[inline]
    pub fn evaluate(&self, sums: &Accumulator<H>, mover: usize) -> i32 {
        let ours = &sums.values[mover];
        let theirs = &sums.values[1 - mover];
        let output = self.b2 + dot(ours, &self.w2[0]) + dot(theirs, &self.w2[1]);
        output * F::SCALE / (QA * QB)
    }
}

/// The hidden sums, clipped to [0, QA], times the output's weights.
#[inline]
fn dot<const H: usize>(sums: &[i16; H], weights: &[i16; H]) -> i32 {
    sums.iter()
        .zip(weights)
        .map(|(&sum, &weight)| i32::from(sum.clamp(0, QA as i16)) * i32::from(weight))
        .sum()
}

/// A search's sums, one entry a ply, each brought up to date from the one before it when its
/// position is first evaluated.
pub struct Stack<const H: usize> {
    sums: Vec<Accumulator<H>>,
    /// The move into each ply's position, not yet applied to its sums.
    pending: Vec<Changes>,
    /// Whether each ply's sums are up to date.
    current: Vec<bool>,
}

impl<const H: usize> Stack<H> {
    /// A stack of `plies` entries, the first `root`.
    pub fn new(root: Accumulator<H>, plies: usize) -> Stack<H> {
        let mut current = vec![false; plies];
        current[0] = true;
        Stack {
            sums: vec![root; plies],
            pending: vec![Changes::NONE; plies],
            current,
        }
    }

    /// The position at `ply` follows the one before it by `changes`.
    #[inline]
    pub fn push(&mut self, ply: usize, changes: Changes) {
        self.pending[ply] = changes;
        self.current[ply] = false;
    }

    /// The sums at `ply`, brought up to date.
    pub fn at<F: Features>(&mut self, network: &Network<F, H>, ply: usize) -> &Accumulator<H> {
        let mut base = ply;
        while !self.current[base] {
            base -= 1;
        }
        for next in base + 1..=ply {
            self.sums[next] = self.sums[next - 1].after(network, &self.pending[next]);
            self.current[next] = true;
        }
        &self.sums[ply]
    }
}
