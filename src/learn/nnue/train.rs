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
    inputs: usize,
}

impl<const H: usize> Layout<H> {
    const W1: usize = 0;
    fn b1(&self) -> usize {
        Self::W1 + self.inputs * H
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
    let model = Net::<F, H> {
        layout: Layout { inputs: F::INPUTS },
        features: std::marker::PhantomData,
    };
    sparse::train(&model, options, on_epoch)
}

/// The net's model for the loop: where its layers' weights are.
struct Net<F, const H: usize> {
    layout: Layout<H>,
    features: std::marker::PhantomData<fn() -> F>,
}

impl<F: Features, const H: usize> Net<F, H> {
    /// The side to move's inputs, then its opponent's.
    #[inline]
    fn views<'s>(
        &self,
        sample: &Sample,
        inputs: &'s [u32],
    ) -> [impl Iterator<Item = usize> + 's; 2] {
        let mirrored = sample.mirrored;
        let first = sample.inputs(inputs).iter().map(move |&input| {
            let input = input as u16;
            if mirrored { F::mirror(input) } else { input }
        });
        let view = move |flipped: bool| {
            first
                .clone()
                .map(move |input| usize::from(if flipped { F::flip(input) } else { input }))
        };
        [view(!sample.first_to_move), view(sample.first_to_move)]
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
                let row = &weights[Layout::<H>::W1 + input * H..][..H];
                sum.iter_mut().zip(row).for_each(|(s, w)| *s += w);
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
        let mut network = Network::<F, H>::zeros();
        for (input, row) in network.w1.iter_mut().enumerate() {
            for (j, weight) in row.iter_mut().enumerate() {
                *weight = scaled(weights[Layout::<H>::W1 + input * H + j], QA);
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
        let mut read = Vec::with_capacity(F::MAX_ACTIVE);
        let first_to_move = F::read_board(board, &mut read)?;
        inputs.extend(read.into_iter().map(u32::from));
        Ok(first_to_move)
    }

    fn max_active(&self) -> usize {
        F::MAX_ACTIVE
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
    /// step of the scale.
    fn read_weights(&self, bytes: &[u8]) -> Result<Vec<f32>, LearnError> {
        let network = Network::<F, H>::read(bytes)?;
        let layout = &self.layout;
        let mut weights = vec![0.0; layout.weights()];
        let unscaled = |weight: i16, scale: i32| f32::from(weight) / scale as f32;
        for (input, row) in network.w1.iter().enumerate() {
            for (j, &weight) in row.iter().enumerate() {
                weights[Layout::<H>::W1 + input * H + j] = unscaled(weight, QA);
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
                let row = &mut gradient[Layout::<H>::W1 + input * H..][..H];
                row.iter_mut().zip(&d_sums).for_each(|(g, d)| *g += d);
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
