//! Othello's learnt evaluation: a pattern evaluation in Logistello's and Edax's way.
//!
//! The board is read through 46 small windows, the *patterns*: the 3 x 3 square in each
//! corner, the 2 x 5 rectangle along each edge from each corner, each edge with its two
//! X-squares, the second, third and fourth rows and columns from each side, and the diagonals
//! of four to eight squares. A window's squares, each empty, the mover's or the opponent's, make
//! a number in base 3, its *configuration*, and each configuration has a weight: the discs it
//! is worth to the side to move at the end of the game. The position's value is the sum of its
//! 46 configurations' weights, plus a weight for each side's mobility and one for the parity of
//! the empty squares. A window and its images under the board's symmetries share one table
//! (the shapes are listed once each), and where a shape is its own image (a corner's 3 x 3
//! square reflected along its diagonal) the two readings of a configuration share one weight
//! in training. What each configuration is worth changes as the board fills, so
//! each stage of the game ([`STAGES`], by the empty squares) has tables of its own.
//!
//! The weights are learnt by Sente from its own games (`sente train --game othello`): every
//! position a player moved from, labelled with the final disc difference its search expected,
//! or the exact margin where the solver solved it (Egaroucid's recipe), fitted by least squares
//! (docs/othello.md#the-pattern-evaluation). The file they are kept in is read into the binary.
//!
//! A configuration's number is computed afresh at each evaluation: a window's squares are at
//! most ten, and the 46 numbers cost less than the moves the search generates at each node
//! (docs/othello.md measures the evaluation).

use std::sync::OnceLock;

use super::{Othello, bits};
use crate::game::Rules;
use crate::learn::LearnError;
use crate::learn::sparse::{self, Sample};
use crate::learn::weights::NamedWeights;
use crate::learn::{Epoch, TrainingOptions, TrainingReport};
use crate::search::SearchRng;

/// A pattern's shape, as its squares seen from the a1 corner, `(row, column)` from the top
/// left, in the order its configuration's digits are read (the first the lowest): the order in
/// which [`extract`] gathers their bits.
struct Shape {
    name: &'static str,
    squares: &'static [(u8, u8)],
}

/// The shapes, each once: the evaluation reads each at every image under the board's
/// symmetries that covers other squares.
const SHAPES: [Shape; 11] = [
    Shape {
        name: "corner 3x3",
        squares: &[
            (0, 0),
            (0, 1),
            (0, 2),
            (1, 0),
            (1, 1),
            (1, 2),
            (2, 0),
            (2, 1),
            (2, 2),
        ],
    },
    Shape {
        name: "corner 2x5",
        squares: &[
            (0, 0),
            (0, 1),
            (0, 2),
            (0, 3),
            (0, 4),
            (1, 0),
            (1, 1),
            (1, 2),
            (1, 3),
            (1, 4),
        ],
    },
    Shape {
        name: "edge and X-squares",
        squares: &[
            (0, 0),
            (0, 1),
            (0, 2),
            (0, 3),
            (0, 4),
            (0, 5),
            (0, 6),
            (0, 7),
            (1, 1),
            (1, 6),
        ],
    },
    Shape {
        name: "row 2",
        squares: &[
            (1, 0),
            (1, 1),
            (1, 2),
            (1, 3),
            (1, 4),
            (1, 5),
            (1, 6),
            (1, 7),
        ],
    },
    Shape {
        name: "row 3",
        squares: &[
            (2, 0),
            (2, 1),
            (2, 2),
            (2, 3),
            (2, 4),
            (2, 5),
            (2, 6),
            (2, 7),
        ],
    },
    Shape {
        name: "row 4",
        squares: &[
            (3, 0),
            (3, 1),
            (3, 2),
            (3, 3),
            (3, 4),
            (3, 5),
            (3, 6),
            (3, 7),
        ],
    },
    Shape {
        name: "diagonal 8",
        squares: &[
            (0, 0),
            (1, 1),
            (2, 2),
            (3, 3),
            (4, 4),
            (5, 5),
            (6, 6),
            (7, 7),
        ],
    },
    Shape {
        name: "diagonal 7",
        squares: &[(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 6), (6, 7)],
    },
    Shape {
        name: "diagonal 6",
        squares: &[(0, 2), (1, 3), (2, 4), (3, 5), (4, 6), (5, 7)],
    },
    Shape {
        name: "diagonal 5",
        squares: &[(0, 3), (1, 4), (2, 5), (3, 6), (4, 7)],
    },
    Shape {
        name: "diagonal 4",
        squares: &[(0, 4), (1, 5), (2, 6), (3, 7)],
    },
];

/// The bits of `discs` on shape `shape`'s squares (as seen from a1), gathered into the low bits
/// in the shape's order: shifts and masks for squares on rows, and for a diagonal the one
/// multiplication that stacks its rows' bytes onto the top byte (a diagonal has a square in
/// each column, so no two bits meet and nothing carries).
#[inline]
fn extract(shape: usize, discs: u64) -> usize {
    const COLUMNS: u64 = 0x0101_0101_0101_0101;
    let diagonal = |mask: u64, columns: u32| (discs & mask).wrapping_mul(COLUMNS) >> (64 - columns);
    (match shape {
        0 => discs & 0x7 | discs >> 5 & 0x38 | discs >> 10 & 0x1C0,
        1 => discs & 0x1F | discs >> 3 & 0x3E0,
        2 => discs & 0xFF | discs >> 1 & 0x100 | discs >> 5 & 0x200,
        3 => discs >> 8 & 0xFF,
        4 => discs >> 16 & 0xFF,
        5 => discs >> 24 & 0xFF,
        6 => diagonal(0x8040_2010_0804_0201, 8),
        7 => diagonal(0x0080_4020_1008_0402, 7),
        8 => diagonal(0x0000_8040_2010_0804, 6),
        9 => diagonal(0x0000_0080_4020_1008, 5),
        _ => diagonal(0x0000_0000_8040_2010, 4),
    }) as usize
}

/// For each set of up to ten bits, the base-3 number with a digit 1 where a bit is set: a
/// configuration is `TERNARY[mover's bits] + 2 * TERNARY[opponent's bits]`.
static TERNARY: [u32; 1024] = {
    let mut table = [0; 1024];
    let mut bits = 0;
    while bits < 1024 {
        let mut k = 0;
        while k < 10 {
            if bits >> k & 1 == 1 {
                table[bits] += power3(k);
            }
            k += 1;
        }
        bits += 1;
    }
    table
};

/// The stages of the game with tables of their own: ten empty squares a stage.
pub const STAGES: usize = 6;

/// The stage of a position with `empties` empty squares.
pub fn stage(empties: u32) -> usize {
    (empties as usize / 10).min(STAGES - 1)
}

/// Mobility counted up to this many moves a side; more counts as this many.
const MOBILITY: usize = 30;

/// The patterns as the evaluation reads them: each image of each shape.
pub struct Patterns {
    /// Each image: its squares' bits in reading order, and where its shape's table starts
    /// within a stage's tables.
    images: Vec<([u8; 10], u8, u32)>,
    /// Each image as the evaluation reads it: its shape, the symmetry of the board whose
    /// image shows it at the shape's own squares, and its table's start.
    reads: Vec<(usize, usize, u32)>,
    /// Each shape's table's start, then the mobility's and parity's weights.
    offsets: Vec<u32>,
    /// Weights in one stage's tables.
    stage_size: usize,
    /// What a configuration and its image share, for the shapes that are their own images.
    canonical: Vec<Canonical>,
}

/// A shape's configurations that are the same position read two ways, which share a weight
/// in training: the smaller of the two numbers stands for both.
struct Canonical {
    /// For each configuration, its standing-for configuration; empty for shapes with no
    /// symmetry of their own.
    of: Vec<u32>,
}

/// The board's eight symmetries on a square `(row, column)`.
fn symmetry(symmetry: usize, (row, column): (u8, u8)) -> (u8, u8) {
    let (row, column) = if symmetry & 4 != 0 {
        (column, row)
    } else {
        (row, column)
    };
    let row = if symmetry & 1 != 0 { 7 - row } else { row };
    let column = if symmetry & 2 != 0 {
        7 - column
    } else {
        column
    };
    (row, column)
}

/// 3 to the power of `n`.
const fn power3(n: usize) -> u32 {
    let mut power = 1;
    let mut i = 0;
    while i < n {
        power *= 3;
        i += 1;
    }
    power
}

impl Patterns {
    fn new() -> Patterns {
        let mut images = Vec::new();
        let mut reads = Vec::new();
        let mut offsets = Vec::new();
        let mut canonical = Vec::new();
        let mut offset = 0u32;
        for (index, shape) in SHAPES.iter().enumerate() {
            let n = shape.squares.len();
            let first = squares_of(shape, 0);
            let set = |squares: &[u8]| {
                let mut set = squares.to_vec();
                set.sort_unstable();
                set
            };
            let mut seen: Vec<Vec<u8>> = Vec::new();
            // The shape's other readings of its own squares: where each of their squares
            // stands in the first reading.
            let mut own_images: Vec<Vec<usize>> = Vec::new();
            for s in 0..8 {
                let squares = squares_of(shape, s);
                if s > 0 && set(&squares) == set(&first) {
                    let order = squares
                        .iter()
                        .map(|square| first.iter().position(|other| other == square))
                        .collect::<Option<Vec<usize>>>()
                        .expect("the same squares");
                    own_images.push(order);
                }
                if seen.contains(&set(&squares)) {
                    continue;
                }
                seen.push(set(&squares));
                let mut read = [0u8; 10];
                read[..n].copy_from_slice(&squares);
                images.push((read, n as u8, offset));
                reads.push((index, s, offset));
            }
            canonical.push(Canonical::of(n, &own_images));
            offsets.push(offset);
            offset += power3(n);
        }
        offsets.push(offset);
        let stage_size = offset as usize + 2 * (MOBILITY + 1) + 2;
        Patterns {
            images,
            reads,
            offsets,
            stage_size,
            canonical,
        }
    }

    /// The inputs a position with `mover` to move against `other` turns on, each an index
    /// into all stages' tables; `canonical` for training's shared weights.
    fn inputs(&self, mover: u64, other: u64, canonical: bool, inputs: &mut Vec<u32>) {
        let empty = !(mover | other);
        let base = (stage(empty.count_ones()) * self.stage_size) as u32;
        for (&(squares, n, offset), &(shape, ..)) in self.images.iter().zip(&self.reads) {
            let mut configuration = configuration(mover, other, &squares[..usize::from(n)]);
            if canonical && let Some(&of) = self.canonical[shape].of.get(configuration as usize) {
                configuration = of;
            }
            inputs.push(base + offset + configuration);
        }
        let patterns_end = *self.offsets.last().expect("the end") as usize;
        let mobility = |a: u64, b: u64| (bits::moves(a, b).count_ones() as usize).min(MOBILITY);
        inputs.push(base + (patterns_end + mobility(mover, other)) as u32);
        inputs.push(base + (patterns_end + MOBILITY + 1 + mobility(other, mover)) as u32);
        let parity = empty.count_ones() as usize % 2;
        inputs.push(base + (patterns_end + 2 * (MOBILITY + 1) + parity) as u32);
    }

    /// The inputs a position turns on.
    fn active(&self) -> usize {
        self.images.len() + 3
    }

    /// Every stage's weights.
    fn weights(&self) -> usize {
        STAGES * self.stage_size
    }
}

/// A shape's squares at symmetry `s`, as the evaluation reads them.
fn squares_of(shape: &Shape, s: usize) -> Vec<u8> {
    shape
        .squares
        .iter()
        .map(|&square| {
            let (row, column) = symmetry(s, square);
            row * 8 + column
        })
        .collect()
}

impl Canonical {
    /// For a shape of `n` squares whose other readings of its own squares are `orders` (for
    /// each, where each of its squares stands in the first reading).
    fn of(n: usize, orders: &[Vec<usize>]) -> Canonical {
        if orders.is_empty() {
            return Canonical { of: Vec::new() };
        }
        let of = (0..power3(n))
            .map(|configuration| {
                let digits: Vec<u32> = (0..n).map(|k| configuration / power3(k) % 3).collect();
                orders
                    .iter()
                    .map(|order| {
                        order
                            .iter()
                            .enumerate()
                            .map(|(k, &at)| digits[at] * power3(k))
                            .sum::<u32>()
                    })
                    .fold(configuration, u32::min)
            })
            .collect();
        Canonical { of }
    }
}

/// The base-3 number of `squares`: a digit each, 0 empty, 1 the mover's, 2 the opponent's,
/// the first square the lowest digit.
#[inline]
fn configuration(mover: u64, other: u64, squares: &[u8]) -> u32 {
    squares.iter().rev().fold(0, |number, &square| {
        number * 3 + (mover >> square & 1) as u32 + 2 * (other >> square & 1) as u32
    })
}

/// The patterns, built once.
fn patterns() -> &'static Patterns {
    static PATTERNS: OnceLock<Patterns> = OnceLock::new();
    PATTERNS.get_or_init(Patterns::new)
}

/// What the weights file starts with.
const MAGIC: &[u8; 8] = b"SENTEOP1";
/// A weight's units: a 256th of a disc.
const SCALE: f32 = 256.0;
/// The largest a weight may grow, in discs, so that its stored form fits 16 bits.
const CLIP: f32 = 120.0;

/// The weights Sente plays with, read into the binary.
const SHIPPED: &[u8] = include_bytes!("sente.patterns");

/// Weights read from a file: the magic, the weights' count (u32), each weight (i16), all
/// little-endian, in 256ths of a disc.
#[derive(Debug)]
pub struct Weights {
    weights: Vec<i16>,
}

impl Weights {
    /// Reads a weights file; an error in words when it is not one of this build's.
    pub fn read(bytes: &[u8]) -> Result<Weights, LearnError> {
        let expected = patterns().weights();
        let Some(rest) = bytes.strip_prefix(MAGIC) else {
            return Err(LearnError::Weights(
                "not Othello pattern weights (no SENTEOP1 at the start)".to_owned(),
            ));
        };
        let count = rest
            .get(..4)
            .map(|count| u32::from_le_bytes(count.try_into().expect("four bytes")) as usize);
        if count != Some(expected) || rest.len() != 4 + 2 * expected {
            return Err(LearnError::Weights(format!(
                "the file holds {} bytes of weights for {count:?} weights; this build reads \
                 {expected}",
                rest.len().saturating_sub(4),
            )));
        }
        let weights = rest[4..]
            .chunks_exact(2)
            .map(|pair| i16::from_le_bytes([pair[0], pair[1]]))
            .collect();
        Ok(Weights { weights })
    }

    fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = MAGIC.to_vec();
        bytes.extend((self.weights.len() as u32).to_le_bytes());
        for weight in &self.weights {
            bytes.extend(weight.to_le_bytes());
        }
        bytes
    }

    /// The final disc difference `mover`, to move against `other`, can expect, in discs.
    #[inline]
    pub fn expected_margin(&self, mover: u64, other: u64) -> f32 {
        self.evaluate(mover, other) as f32 / SCALE
    }

    /// The final disc difference the side to move (`mover`) can expect, in 256ths of a disc:
    /// the board's eight images under the symmetries are made once, and each window read from
    /// the image that shows it at its shape's own squares.
    #[inline]
    pub fn evaluate(&self, mover: u64, other: u64) -> i32 {
        let patterns = patterns();
        let empties = (!(mover | other)).count_ones();
        let weights = &self.weights[stage(empties) * patterns.stage_size..][..patterns.stage_size];
        let images = bits::symmetries(mover, other);
        let mut sum = 0;
        for &(shape, symmetry, offset) in &patterns.reads {
            let (mine, theirs) = images[symmetry];
            let configuration = TERNARY[extract(shape, mine)] + 2 * TERNARY[extract(shape, theirs)];
            sum += i32::from(weights[(offset + configuration) as usize]);
        }
        let end = *patterns.offsets.last().expect("the end") as usize;
        let mobility = |a: u64, b: u64| (bits::moves(a, b).count_ones() as usize).min(MOBILITY);
        sum += i32::from(weights[end + mobility(mover, other)]);
        sum += i32::from(weights[end + MOBILITY + 1 + mobility(other, mover)]);
        sum + i32::from(weights[end + 2 * (MOBILITY + 1) + empties as usize % 2])
    }

    /// [`Weights::evaluate`] the slow way, from the inputs training reads.
    #[cfg(test)]
    fn evaluate_inputs(&self, mover: u64, other: u64) -> i32 {
        let mut inputs = Vec::new();
        patterns().inputs(mover, other, false, &mut inputs);
        inputs
            .iter()
            .map(|&input| i32::from(self.weights[input as usize]))
            .sum()
    }
}

/// The shipped weights.
pub fn shipped() -> &'static Weights {
    static WEIGHTS: OnceLock<Weights> = OnceLock::new();
    WEIGHTS.get_or_init(|| Weights::read(SHIPPED).expect("the shipped weights read"))
}

/// The weights as `sente learn` makes their generations and the `weights` knob plays them.
pub const LEARNT: crate::learn::LearntWeights = crate::learn::LearntWeights {
    evaluation: "patterns",
    file: "sente.patterns",
    shipped: SHIPPED,
    load: |name, path| {
        let bytes = crate::files::read_at_most(path, 4 << 20, "Othello's pattern weights")?;
        let weights = Weights::read(&bytes).map_err(|error| error.in_file(path))?;
        NamedWeights::new(name, Othello::NAME, weights)
    },
    king_buckets: 1,
};

/// The weights a search plays with: those its settings carry (the `weights` knob), else the
/// shipped.
pub fn playing(weights: Option<&NamedWeights>) -> &Weights {
    weights
        .and_then(NamedWeights::get::<Weights>)
        .unwrap_or_else(|| shipped())
}

/// The final disc difference the side to move can expect, by the shipped weights.
pub fn expected_margin(mover: u64, other: u64) -> f32 {
    shipped().expected_margin(mover, other)
}

/// The shapes, their images read and each table's size, for documents and tests.
pub fn shapes() -> Vec<(&'static str, usize, u32)> {
    let patterns = patterns();
    SHAPES
        .iter()
        .zip(patterns.offsets.windows(2))
        .map(|(shape, offsets)| {
            let images = patterns
                .images
                .iter()
                .filter(|image| image.2 == offsets[0])
                .count();
            (shape.name, images, offsets[1] - offsets[0])
        })
        .collect()
}

/// The pattern weights as the training loop sees them: a linear model of the inputs, fitted
/// to the final disc difference by squared error.
struct Model;

impl sparse::Model for Model {
    fn read_board(&self, board: &str, inputs: &mut Vec<u32>) -> Result<bool, LearnError> {
        let position: Othello = board
            .parse()
            .map_err(|error| LearnError::Data(format!("{error}")))?;
        let (mover, other) = position.sides();
        patterns().inputs(mover, other, true, inputs);
        Ok(position.side_to_move() == crate::game::Player::X)
    }

    fn max_active(&self) -> usize {
        patterns().active()
    }

    fn score_units(&self) -> &'static str {
        "discs"
    }

    fn max_score(&self) -> f32 {
        64.0 // the board's squares
    }

    /// The score, in discs: the result is a win, a draw or a loss, which says nothing of
    /// the margin.
    fn target(&self, score: f32, _: f32, result_weight: f32) -> Result<f32, LearnError> {
        if result_weight != 0.0 {
            return Err(LearnError::Options(
                "Othello's patterns learn the final disc difference the searches \
                        gave, not the results: --result-weight is for the networks"
                    .to_owned(),
            ));
        }
        Ok(score.clamp(-64.0, 64.0))
    }

    fn weights(&self) -> usize {
        patterns().weights()
    }

    fn first_weights(&self, _: &mut SearchRng) -> Vec<f32> {
        vec![0.0; self.weights()]
    }

    fn read_weights(&self, bytes: &[u8]) -> Result<Vec<f32>, LearnError> {
        let stored = Weights::read(bytes)?;
        Ok(stored
            .weights
            .iter()
            .map(|&weight| f32::from(weight) / SCALE)
            .collect())
    }

    fn clip(&self) -> f32 {
        CLIP
    }

    fn add_gradient(
        &self,
        weights: &[f32],
        sample: &Sample,
        inputs: &[u32],
        gradient: &mut [f32],
    ) -> f64 {
        let on = sample.inputs(inputs);
        let error = on.iter().map(|&input| weights[input as usize]).sum::<f32>() - sample.target;
        for &input in on {
            gradient[input as usize] += 2.0 * error;
        }
        f64::from(error * error)
    }

    fn loss(&self, weights: &[f32], sample: &Sample, inputs: &[u32]) -> f64 {
        let on = sample.inputs(inputs);
        let error = on.iter().map(|&input| weights[input as usize]).sum::<f32>() - sample.target;
        f64::from(error * error)
    }

    /// Every configuration given its standing-for configuration's weight, in 256ths of a
    /// disc, read back.
    fn to_bytes(&self, weights: &[f32]) -> Result<Vec<u8>, LearnError> {
        let patterns = patterns();
        let mut stored = vec![0i16; weights.len()];
        for stage in 0..STAGES {
            let base = stage * patterns.stage_size;
            for (index, weight) in stored[base..base + patterns.stage_size]
                .iter_mut()
                .enumerate()
            {
                let shape = patterns
                    .offsets
                    .partition_point(|&offset| offset as usize <= index);
                let from = match shape.checked_sub(1) {
                    Some(shape) if shape < SHAPES.len() => {
                        let offset = patterns.offsets[shape] as usize;
                        match patterns.canonical[shape].of.get(index - offset) {
                            Some(&of) => offset + of as usize,
                            None => index,
                        }
                    }
                    _ => index,
                };
                *weight = (weights[base + from] * SCALE).round() as i16;
            }
        }
        let bytes = Weights { weights: stored }.to_bytes();
        Weights::read(&bytes).map_err(|error| {
            LearnError::Weights(format!("the weights do not read back: {error}"))
        })?;
        Ok(bytes)
    }
}

/// `sente train --game othello`: the pattern weights learnt from `sente positions`' lines.
pub fn train(
    options: &TrainingOptions,
    on_epoch: &mut dyn FnMut(&Epoch),
) -> Result<TrainingReport, LearnError> {
    if options.hidden.is_some() {
        return Err(LearnError::Options(
            "the pattern weights have no hidden layer: --hidden is for policy-value networks"
                .to_owned(),
        ));
    }
    if options.king_buckets.is_some_and(|buckets| buckets != 1) {
        return Err(LearnError::Options(
            "the pattern weights read no king: --king-buckets is for chess's and shogi's networks"
                .to_owned(),
        ));
    }
    sparse::train(&Model, options, on_epoch)
}

#[cfg(test)]
mod tests;
