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

/// The inputs a move turns off and on, and the sides whose sums it refreshes.
#[derive(Clone, Copy, Debug)]
pub struct Changes {
    off: [Seen; 3],
    offs: u8,
    on: [Seen; 2],
    ons: u8,
    /// A bit per side (1 for the first player, 2 for the second): the sides whose king moved
    /// into another bucket, whose sums are computed afresh after the move, not changed.
    refresh: u8,
}

impl Changes {
    /// No change: a null move's.
    pub const NONE: Changes = Changes {
        off: [[0; 2]; 3],
        offs: 0,
        on: [[0; 2]; 2],
        ons: 0,
        refresh: 0,
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

    /// Marks side `view`'s sums (0 for the first player) as computed afresh after the move
    /// ([`Stack::refresh`]): its king moved into another bucket, so every one of its inputs
    /// moved with it. Its side of the changes is then not applied.
    #[inline]
    pub fn refresh(&mut self, view: usize) {
        self.refresh |= 1 << view;
    }

    /// The side whose sums the move refreshes, if any (only a king moves, and only its own
    /// side's bucket).
    #[inline]
    pub fn refreshed(&self) -> Option<usize> {
        (0..2).find(|view| self.refresh & (1 << view) != 0)
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
        for seen in on {
            for (values, input) in sums.values.iter_mut().zip(seen) {
                update(values, network, input, add);
            }
        }
        sums
    }

    /// One side's sums of the inputs `on` (that side's indices), computed afresh.
    pub fn side_of<F: Features>(
        network: &Network<F, H>,
        on: impl IntoIterator<Item = u16>,
    ) -> [i16; H] {
        let mut values = network.b1;
        for input in on {
            update(&mut values, network, input, add);
        }
        values
    }

    /// The sums after a move that makes `changes` (a side it refreshes left as it was).
    pub fn after<F: Features>(&self, network: &Network<F, H>, changes: &Changes) -> Self {
        let mut next = *self;
        self.after_into(network, changes, &mut next);
        next
    }

    /// Writes into `next` the sums after a move that makes `changes`, side by side in place
    /// (a side it refreshes is left as `next` holds it: [`Stack::refresh`] put its fresh sums
    /// there).
    #[inline]
    fn after_into<F: Features>(&self, network: &Network<F, H>, changes: &Changes, next: &mut Self) {
        for (view, values) in next.values.iter_mut().enumerate() {
            if changes.refresh & (1 << view) != 0 {
                continue;
            }
            *values = self.values[view];
            for seen in &changes.on[..usize::from(changes.ons)] {
                update(values, network, seen[view], add);
            }
            for seen in &changes.off[..usize::from(changes.offs)] {
                update(values, network, seen[view], subtract);
            }
        }
    }
}

/// Adds (or takes away) an input's row in one side's sums.
#[inline]
fn update<F: Features, const H: usize>(
    values: &mut [i16; H],
    network: &Network<F, H>,
    input: u16,
    op: fn(i16, i16) -> i16,
) {
    let row = &network.w1[usize::from(input)];
    for (sum, &weight) in values.iter_mut().zip(row) {
        *sum = op(*sum, weight);
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

    /// Side `view`'s sums at `ply` are `values`, computed afresh: the move into it, pushed
    /// before, refreshes that side ([`Changes::refresh`]). Computed when the move is made,
    /// since the position is at hand then and not when the sums are next read.
    #[inline]
    pub fn refresh(&mut self, ply: usize, view: usize, values: [i16; H]) {
        self.sums[ply].values[view] = values;
    }

    /// The sums at `ply`, brought up to date.
    pub fn at<F: Features>(&mut self, network: &Network<F, H>, ply: usize) -> &Accumulator<H> {
        let mut base = ply;
        while !self.current[base] {
            base -= 1;
        }
        for next in base + 1..=ply {
            let (done, rest) = self.sums.split_at_mut(next);
            done[next - 1].after_into(network, &self.pending[next], &mut rest[0]);
            self.current[next] = true;
        }
        &self.sums[ply]
    }
}
