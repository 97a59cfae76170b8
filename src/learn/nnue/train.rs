//! A net's trainer: a plain loop over the positions of Sente's games, on the CPU's cores.
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

use std::time::Instant;

use rand::SeedableRng;
use rand::seq::SliceRandom;

use super::{Features, Network, QA, QB};
use crate::learn::{Adam, Epoch, TrainingOptions, TrainingReport, learning_rate, sigmoid};

/// The largest a float weight may grow: its quantised first-layer form, times the inputs a
/// position turns on, must stay within 16 bits for the games' sizes (`40 * 1.98 * QA` is
/// 20,196), as must the output's `1.98 * QB`.
const CLIP: f32 = 1.98;

/// The last fiftieth of the data is held out, to measure the loss on games not trained on:
/// a game's positions are consecutive in the files, and so alike that holding out positions
/// drawn at random would measure how well the net remembers the games it learnt.
const HELD_OUT: usize = 50;

/// The largest score a line may give, in centipawns: far past any evaluation (mates are never
/// written), so that one wild number cannot swamp the loss.
const MAX_SCORE: f32 = 100_000.0;

/// A position as the trainer keeps it: its inputs are a run of the trainer's one list.
#[derive(Clone, Copy)]
struct Sample {
    /// Where its inputs start in the list, as the first player sees them; the second player's
    /// view of each is [`Features::flip`]ped.
    start: u32,
    count: u8,
    first_to_move: bool,
    /// Whether this epoch sees the board mirrored, where the game is the same game mirrored:
    /// a mirrored position is one more to learn from.
    mirrored: bool,
    /// What `sigmoid(output)` should be, the side to move's.
    target: f32,
}

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

/// The data's positions: each sample's inputs are a run of `inputs`.
struct Data {
    samples: Vec<Sample>,
    inputs: Vec<u16>,
}

/// Trains a net of `F`'s inputs and `H` hidden neurons on `options.data` and writes it to
/// `options.output`.
pub fn train<F: Features, const H: usize>(
    options: &TrainingOptions,
    on_epoch: &mut dyn FnMut(&Epoch),
) -> Result<TrainingReport, String> {
    if options.from.is_some() || options.hidden.is_some() {
        return Err(
            "the evaluation network's shape is fixed and it trains from scratch: \
                    --from and --hidden are for policy-value networks"
                .to_owned(),
        );
    }
    let started = Instant::now();
    let mut rng = crate::search::SearchRng::seed_from_u64(options.seed);
    let Data {
        mut samples,
        inputs,
    } = read::<F>(options)?;
    if samples.len() < 2 * HELD_OUT {
        return Err(format!(
            "{} positions: too few to train on (give at least {})",
            samples.len(),
            2 * HELD_OUT
        ));
    }
    let held_out = samples.split_off(samples.len() - samples.len() / HELD_OUT);

    let layout = Layout::<H> { inputs: F::INPUTS };
    let mut weights = first_weights(&layout, &mut rng);
    let mut adam = Adam::new(layout.weights());
    let threads = options.threads.max(1);
    let mut gradients = vec![vec![0.0f32; layout.weights()]; threads];
    let batch = options.batch.max(1);
    let (mut training_loss, mut validation_loss) = (Vec::new(), Vec::new());
    let trainer = Trainer::<F, H> {
        layout,
        inputs: &inputs,
        features: std::marker::PhantomData,
    };
    for epoch in 0..options.epochs {
        samples.shuffle(&mut rng);
        if options.mirror && F::MIRRORS {
            use rand::RngExt;
            samples
                .iter_mut()
                .for_each(|sample| sample.mirrored = rng.random());
        }
        let rate = learning_rate(options.learning_rate, epoch, options.epochs);
        let mut total = 0.0;
        for positions in samples.chunks(batch) {
            total += crate::learn::gradient(positions, &mut gradients, |part, gradient| {
                trainer.part_gradient(&weights, part, gradient)
            });
            let mean = crate::learn::mean_gradient(&mut gradients, positions.len());
            adam.step(&mut weights, mean, rate, CLIP);
        }
        training_loss.push(total / samples.len() as f64);
        validation_loss.push(trainer.loss(&weights, &held_out));
        crate::learn::check_loss(
            epoch + 1,
            training_loss[epoch as usize],
            validation_loss[epoch as usize],
        )?;
        on_epoch(&Epoch {
            number: epoch + 1,
            training_loss: training_loss[epoch as usize],
            validation_loss: validation_loss[epoch as usize],
            elapsed: started.elapsed(),
        });
    }
    let bytes = trainer.quantised(&weights).to_bytes();
    // What is written is what Sente reads.
    Network::<F, H>::read(&bytes)
        .map_err(|error| format!("the trained net does not read back: {error}"))?;
    crate::files::write_bytes(&options.output, &bytes)?;
    Ok(TrainingReport {
        positions: samples.len(),
        validation_positions: held_out.len(),
        validation_loss,
        training_loss,
        elapsed: started.elapsed(),
        output: options.output.clone(),
        bytes: bytes.len(),
    })
}

/// The positions of the data files, streamed, with their targets; a line that is not a
/// position is an error naming its file and line.
fn read<F: Features>(options: &TrainingOptions) -> Result<Data, String> {
    let mut data = Data {
        samples: Vec::new(),
        inputs: Vec::new(),
    };
    for path in &options.data {
        crate::files::for_each_line(path, |_, line| {
            if !line.trim().is_empty() {
                let sample = sample::<F>(line, options.result_weight, &mut data.inputs)?;
                data.samples.push(sample);
            }
            Ok(())
        })?;
    }
    Ok(data)
}

/// A line `BOARD | SCORE | RESULT` (the first player's centipawns and points) as a sample, its
/// inputs pushed onto `inputs`.
fn sample<F: Features>(
    line: &str,
    result_weight: f32,
    inputs: &mut Vec<u16>,
) -> Result<Sample, String> {
    const SHAPE: &str = "a position is BOARD | SCORE | RESULT, as sente positions writes it";
    let fields: Vec<&str> = line.split('|').map(str::trim).collect();
    let [board, score, result] = fields[..] else {
        return Err(format!("{} fields: {SHAPE}", fields.len()));
    };
    let score: f32 = score
        .parse()
        .ok()
        .filter(|score: &f32| score.is_finite() && score.abs() <= MAX_SCORE)
        .ok_or_else(|| {
            format!("the score is centipawns within ±{MAX_SCORE}, not {score:?}: {SHAPE}")
        })?;
    let result: f32 = result
        .parse()
        .ok()
        .filter(|result| [0.0, 0.5, 1.0].contains(result))
        .ok_or_else(|| {
            format!("the result is 1.0, 0.5 or 0.0 (the first player's points), not {result:?}")
        })?;
    let start = inputs.len();
    let first_to_move = F::read_board(board, inputs).inspect_err(|_| inputs.truncate(start))?;
    let count = inputs.len() - start;
    if count > F::MAX_ACTIVE {
        inputs.truncate(start);
        return Err(format!(
            "{count} inputs on: more than a position of the game turns on ({})",
            F::MAX_ACTIVE
        ));
    }
    let (score, result) = if first_to_move {
        (score, result)
    } else {
        (-score, 1.0 - result)
    };
    Ok(Sample {
        start: u32::try_from(start).map_err(|_| "more positions than a trainer holds")?,
        count: count as u8,
        first_to_move,
        mirrored: false,
        target: result_weight * result + (1.0 - result_weight) * sigmoid(score / F::SCALE as f32),
    })
}

/// Small random weights: the first layer's such that a position's sums start near the
/// activation's range, the output's near zero.
fn first_weights<const H: usize>(
    layout: &Layout<H>,
    rng: &mut crate::search::SearchRng,
) -> Vec<f32> {
    use rand::RngExt;
    let mut weights = vec![0.0; layout.weights()];
    for weight in &mut weights[Layout::<H>::W1..layout.b1()] {
        *weight = rng.random_range(-0.15..0.15);
    }
    for weight in &mut weights[layout.w2()..layout.b2()] {
        *weight = rng.random_range(-0.06..0.06);
    }
    weights
}

/// What the passes share: where the weights are, and the samples' inputs.
struct Trainer<'a, F, const H: usize> {
    layout: Layout<H>,
    inputs: &'a [u16],
    features: std::marker::PhantomData<fn() -> F>,
}

impl<F: Features, const H: usize> Trainer<'_, F, H> {
    /// The side to move's inputs, then its opponent's.
    #[inline]
    fn views<'s>(&'s self, sample: &Sample) -> [impl Iterator<Item = usize> + 's; 2] {
        let mirrored = sample.mirrored;
        let start = sample.start as usize;
        let first = self.inputs[start..start + usize::from(sample.count)]
            .iter()
            .map(move |&input| if mirrored { F::mirror(input) } else { input });
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
    fn forward(&self, weights: &[f32], sample: &Sample, sums: &mut [[f32; H]; 2]) -> f32 {
        let layout = &self.layout;
        let mut output = weights[layout.b2()];
        for (side, inputs) in self.views(sample).into_iter().enumerate() {
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

    /// The summed loss of `positions`, their gradient in `gradient`.
    fn part_gradient(&self, weights: &[f32], positions: &[Sample], gradient: &mut [f32]) -> f64 {
        let layout = &self.layout;
        gradient.fill(0.0);
        let mut sums = [[0.0; H]; 2];
        let mut total = 0.0;
        for sample in positions {
            let predicted = sigmoid(self.forward(weights, sample, &mut sums));
            let error = predicted - sample.target;
            total += f64::from(error * error);
            // d(error^2)/d(output), through the sigmoid.
            let d_output = 2.0 * error * predicted * (1.0 - predicted);
            gradient[layout.b2()] += d_output;
            for (side, inputs) in self.views(sample).into_iter().enumerate() {
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
                for input in inputs {
                    let row = &mut gradient[Layout::<H>::W1 + input * H..][..H];
                    row.iter_mut().zip(&d_sums).for_each(|(g, d)| *g += d);
                }
            }
        }
        total
    }

    /// The mean loss of `positions`.
    fn loss(&self, weights: &[f32], positions: &[Sample]) -> f64 {
        let mut sums = [[0.0; H]; 2];
        let total: f64 = positions
            .iter()
            .map(|sample| {
                let error = sigmoid(self.forward(weights, sample, &mut sums)) - sample.target;
                f64::from(error * error)
            })
            .sum();
        total / positions.len().max(1) as f64
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
