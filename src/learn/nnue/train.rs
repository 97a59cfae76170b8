//! A net's trainer: the loop every sparse model shares ([`crate::learn::sparse`]), on the
//! net's layers.
//!
//! Each position's target blends what its game ended as and what the search scored it:
//! `w * result + (1 - w) * sigmoid(score / SCALE)`, both the side to move's; the net's output
//! `out` (in units of `SCALE` centipawns) is trained so that `sigmoid(out)` meets it, the
//! squared error's gradient carried back by hand through the two layers. Weights are floats
//! while training, kept within `CLIP` so that their quantised forms fit 16 bits and a
//! position's sums cannot overflow; the file written is the quantised net ([`Network`]).
//!
//! A net with king buckets is trained *factorised*, as Stockfish's trainer does: beside each
//! bucket's rows the model keeps one shared set, the rows of the net without buckets, and an
//! input's row is its bucket's plus its shared one. Every position teaches the shared rows and
//! only its kings' positions teach a bucket's, so a bucket seldom seen stays near the shared
//! net rather than near its random start; the file written holds the sums. Going on from a net
//! without buckets starts its shared rows as that net's and the buckets' at zero: the same
//! net, until the data tells the buckets apart.
//!
//! It is a loop of its own, not a framework's, because the inputs are sparse: a position
//! turns on a few dozen of hundreds or thousands of inputs, so the loop adds that many rows
//! where a framework's dense product multiplies them all (docs/chess.md#the-network measures
//! the two side by side).

use rand::RngExt;

use super::{Features, Network, QA, QB};
use crate::learn::LearnError;
use crate::learn::SeededRng;
use crate::learn::sparse::{self, Sample};
use crate::learn::{Epoch, TrainingOptions, TrainingReport, sigmoid};

/// The largest a float weight may grow: its quantised first-layer form, times the inputs a
/// position turns on, must stay within 16 bits for the games' sizes (`40 * 1.98 * QA` is
/// 20,196), as must the output's `1.98 * QB`.
const CLIP: f32 = 1.98;

/// Where each layer's weights are in the one vector the optimiser steps.
struct Layout<const H: usize> {
    /// The first layer's rows: every bucket's.
    inputs: usize,
    /// The shared rows a factorised net keeps after them (the game's inputs), or none.
    shared: usize,
}

impl<const H: usize> Layout<H> {
    const W1: usize = 0;
    /// Where an input's row starts.
    #[inline]
    fn row(input: usize) -> usize {
        Self::W1 + input * H
    }
    /// Where the shared row an input also adds starts, in a factorised net.
    #[inline]
    fn shared_row(&self, input: usize) -> Option<usize> {
        (self.shared > 0).then(|| Self::W1 + (self.inputs + input % self.shared) * H)
    }
    fn b1(&self) -> usize {
        Self::W1 + (self.inputs + self.shared) * H
    }
    fn w2(&self) -> usize {
        self.b1() + H
    }
    fn b2(&self) -> usize {
        self.w2() + 2 * H
    }
    fn weights(&self) -> usize {
        self.b2() + 1
    }
}

/// Trains a net of `F`'s inputs and `H` hidden neurons on `options.data` and writes it to
/// `options.output`.
pub fn train<F: Features, const H: usize>(
    options: &TrainingOptions,
    on_epoch: &mut dyn FnMut(&Epoch),
) -> Result<TrainingReport, LearnError> {
    if options.hidden.is_some() {
        return Err(LearnError::Options(
            "the evaluation network's shape is fixed: --hidden is for policy-value networks"
                .to_owned(),
        ));
    }
    let buckets = match (options.king_buckets, &options.from) {
        (Some(buckets), _) => buckets,
        // As the net it goes on from.
        (None, Some(from)) => {
            let bytes = crate::files::read_at_most(
                from,
                Network::<F, H>::file_bytes(F::KING_BUCKETS) as u64,
                "a net to go on from",
            )?;
            Network::<F, H>::read(&bytes)
                .map_err(|error| error.in_file(from))?
                .buckets()
        }
        (None, None) => 1,
    };
    if buckets != 1 && buckets != F::KING_BUCKETS {
        let offered = if F::KING_BUCKETS > 1 {
            format!("1 or {}", F::KING_BUCKETS)
        } else {
            "1 (it has no king-relative net)".to_owned()
        };
        return Err(LearnError::Options(format!(
            "--king-buckets {buckets}: this game's net reads its inputs in {offered}"
        )));
    }
    let model = Net::<F, H>::new(buckets);
    sparse::train(&model, options, on_epoch)
}

/// The net a training run of `buckets` king buckets starts from when it goes on from the net
/// in `bytes`, before its first step.
#[cfg(test)]
pub(crate) fn going_on_from<F: Features, const H: usize>(
    bytes: &[u8],
    buckets: usize,
) -> Result<Network<F, H>, LearnError> {
    let model = Net::<F, H>::new(buckets);
    Ok(model.quantised(&sparse::Model::read_weights(&model, bytes)?))
}

/// The net's model for the loop: where its layers' weights are.
struct Net<F, const H: usize> {
    layout: Layout<H>,
    /// King buckets: 1, or the game's [`Features::KING_BUCKETS`].
    buckets: usize,
    features: std::marker::PhantomData<fn() -> F>,
}

impl<F: Features, const H: usize> Net<F, H> {
    /// A net of `buckets` king buckets: with more than one, factorised (the game's inputs'
    /// shared rows after every bucket's).
    fn new(buckets: usize) -> Self {
        Net {
            layout: Layout {
                inputs: buckets * F::INPUTS,
                shared: if buckets > 1 { F::INPUTS } else { 0 },
            },
            buckets,
            features: std::marker::PhantomData,
        }
    }

    /// The side to move's inputs, then its opponent's: a sample keeps the first player's view
    /// and then the second's ([`Features::read_views`]).
    #[inline]
    fn views<'s>(
        &self,
        sample: &Sample,
        inputs: &'s [u32],
    ) -> [impl Iterator<Item = usize> + 's; 2] {
        let (mirrored, buckets) = (sample.mirrored, self.buckets);
        let both = sample.inputs(inputs);
        let (first, second) = both.split_at(both.len() / 2);
        let view = move |seen: &'s [u32]| {
            seen.iter().map(move |&input| {
                let input = input as u16;
                usize::from(if mirrored {
                    F::mirror(input, buckets)
                } else {
                    input
                })
            })
        };
        if sample.first_to_move {
            [view(first), view(second)]
        } else {
            [view(second), view(first)]
        }
    }

    /// The first layer's sums of `sample`, the side to move's then its opponent's, and the
    /// output.
    #[inline]
    fn forward(
        &self,
        weights: &[f32],
        sample: &Sample,
        inputs: &[u32],
        sums: &mut [[f32; H]; 2],
    ) -> f32 {
        let layout = &self.layout;
        let mut output = weights[layout.b2()];
        for (side, inputs) in self.views(sample, inputs).into_iter().enumerate() {
            let sum = &mut sums[side];
            sum.copy_from_slice(&weights[layout.b1()..layout.w2()]);
            for input in inputs {
                let row = &weights[Layout::<H>::row(input)..][..H];
                sum.iter_mut().zip(row).for_each(|(s, w)| *s += w);
                if let Some(shared) = layout.shared_row(input) {
                    let row = &weights[shared..][..H];
                    sum.iter_mut().zip(row).for_each(|(s, w)| *s += w);
                }
            }
            let out = &weights[layout.w2() + side * H..][..H];
            output += sum
                .iter()
                .zip(out)
                .map(|(s, w)| s.clamp(0.0, 1.0) * w)
                .sum::<f32>();
        }
        output
    }

    /// The float weights as the quantised net the engine reads.
    fn quantised(&self, weights: &[f32]) -> Network<F, H> {
        let layout = &self.layout;
        let scaled = |weight: f32, scale: i32| (weight * scale as f32).round() as i16;
        let mut network = Network::<F, H>::zeros_in(self.buckets);
        for (input, row) in network.w1.iter_mut().enumerate() {
            let shared = layout.shared_row(input);
            for (j, weight) in row.iter_mut().enumerate() {
                let own = weights[Layout::<H>::row(input) + j];
                // A bucket's row and its shared one are each within CLIP, so that the file's
                // sum stays within the bound a position's sums are safe under.
                let sum =
                    shared.map_or(own, |shared| (own + weights[shared + j]).clamp(-CLIP, CLIP));
                *weight = scaled(sum, QA);
            }
        }
        for (j, bias) in network.b1.iter_mut().enumerate() {
            *bias = scaled(weights[layout.b1() + j], QA);
        }
        for (side, half) in network.w2.iter_mut().enumerate() {
            for (j, weight) in half.iter_mut().enumerate() {
                *weight = scaled(weights[layout.w2() + side * H + j], QB);
            }
        }
        network.b2 = (weights[layout.b2()] * (QA * QB) as f32).round() as i32;
        network
    }
}

impl<F: Features, const H: usize> sparse::Model for Net<F, H> {
    fn read_board(&self, board: &str, inputs: &mut Vec<u32>) -> Result<bool, LearnError> {
        let mut read = Vec::with_capacity(2 * F::MAX_ACTIVE);
        let first_to_move = F::read_views(board, self.buckets, &mut read)?;
        inputs.extend(read.into_iter().map(u32::from));
        Ok(first_to_move)
    }

    /// Both sides' views.
    fn max_active(&self) -> usize {
        2 * F::MAX_ACTIVE
    }

    fn score_units(&self) -> &'static str {
        "centipawns"
    }

    /// `w * result + (1 - w) * sigmoid(score / SCALE)`.
    fn target(&self, score: f32, result: f32, result_weight: f32) -> Result<f32, LearnError> {
        Ok(result_weight * result + (1.0 - result_weight) * sigmoid(score / F::SCALE as f32))
    }

    fn mirrors(&self) -> bool {
        F::MIRRORS
    }

    fn weights(&self) -> usize {
        self.layout.weights()
    }

    /// Small random weights: the first layer's such that a position's sums start near the
    /// activation's range, the output's near zero.
    fn first_weights(&self, rng: &mut SeededRng) -> Vec<f32> {
        let layout = &self.layout;
        let mut weights = vec![0.0; layout.weights()];
        for weight in &mut weights[Layout::<H>::W1..layout.b1()] {
            *weight = rng.random_range(-0.15..0.15);
        }
        for weight in &mut weights[layout.w2()..layout.b2()] {
            *weight = rng.random_range(-0.06..0.06);
        }
        weights
    }

    /// The quantised net's weights back as floats: [`Net::quantised`] undone, to within a
    /// step of the scale. A net without king buckets goes on as one with them by its rows
    /// copied to every bucket: the same net, until training tells the buckets apart.
    fn read_weights(&self, bytes: &[u8]) -> Result<Vec<f32>, LearnError> {
        let network = Network::<F, H>::read(bytes)?;
        let read = network.buckets();
        if read != self.buckets && read != 1 {
            return Err(LearnError::Options(format!(
                "a net of {read} king buckets goes on with {read}, not {}",
                self.buckets
            )));
        }
        let layout = &self.layout;
        let mut weights = vec![0.0; layout.weights()];
        let unscaled = |weight: i16, scale: i32| f32::from(weight) / scale as f32;
        // A net without buckets becomes the shared rows, the buckets' starting at zero; a
        // net with them keeps its rows as its buckets', the shared ones at zero.
        let first_row = if read < self.buckets {
            layout.shared_row(0).expect("a factorised net")
        } else {
            Layout::<H>::W1
        };
        for (input, row) in network.w1.iter().enumerate() {
            for (j, &weight) in row.iter().enumerate() {
                weights[first_row + input * H + j] = unscaled(weight, QA);
            }
        }
        for (j, &bias) in network.b1.iter().enumerate() {
            weights[layout.b1() + j] = unscaled(bias, QA);
        }
        for (side, half) in network.w2.iter().enumerate() {
            for (j, &weight) in half.iter().enumerate() {
                weights[layout.w2() + side * H + j] = unscaled(weight, QB);
            }
        }
        weights[layout.b2()] = network.b2 as f32 / (QA * QB) as f32;
        Ok(weights)
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
        let layout = &self.layout;
        let mut sums = [[0.0; H]; 2];
        let predicted = sigmoid(self.forward(weights, sample, inputs, &mut sums));
        let error = predicted - sample.target;
        // d(error^2)/d(output), through the sigmoid.
        let d_output = 2.0 * error * predicted * (1.0 - predicted);
        gradient[layout.b2()] += d_output;
        for (side, on) in self.views(sample, inputs).into_iter().enumerate() {
            let mut d_sums = [0.0f32; H];
            let out = &weights[layout.w2() + side * H..][..H];
            let d_out = &mut gradient[layout.w2() + side * H..][..H];
            for j in 0..H {
                let sum = sums[side][j];
                d_out[j] += d_output * sum.clamp(0.0, 1.0);
                // The clipped ReLU passes a gradient only inside its range.
                if sum > 0.0 && sum < 1.0 {
                    d_sums[j] = d_output * out[j];
                }
            }
            gradient[layout.b1()..layout.w2()]
                .iter_mut()
                .zip(&d_sums)
                .for_each(|(g, d)| *g += d);
            for input in on {
                let row = &mut gradient[Layout::<H>::row(input)..][..H];
                row.iter_mut().zip(&d_sums).for_each(|(g, d)| *g += d);
                if let Some(shared) = layout.shared_row(input) {
                    let row = &mut gradient[shared..][..H];
                    row.iter_mut().zip(&d_sums).for_each(|(g, d)| *g += d);
                }
            }
        }
        f64::from(error * error)
    }

    fn loss(&self, weights: &[f32], sample: &Sample, inputs: &[u32]) -> f64 {
        let mut sums = [[0.0; H]; 2];
        let error = sigmoid(self.forward(weights, sample, inputs, &mut sums)) - sample.target;
        f64::from(error * error)
    }

    /// The quantised net, read back: what is written is what Sente reads.
    fn to_bytes(&self, weights: &[f32]) -> Result<Vec<u8>, LearnError> {
        let bytes = self.quantised(weights).to_bytes();
        Network::<F, H>::read(&bytes).map_err(|error| {
            LearnError::Weights(format!("the trained net does not read back: {error}"))
        })?;
        Ok(bytes)
    }
}
