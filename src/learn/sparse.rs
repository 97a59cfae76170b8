//! What every trainer of an evaluation over sparse inputs shares: the positions read from
//! `sente positions`' lines, the games held out, the passes over the data in shuffled batches,
//! the gradient computed on every core, Adam's steps, the loss told an epoch at a time, and the
//! weights written only once they read back. A model says what its inputs are, what it
//! predicts and how its gradient flows ([`Model`]): chess's and shogi's networks
//! ([`super::nnue::train`]) and Othello's pattern weights are models of this one loop.
//!
//! A position's inputs are few of many (a chess position turns on at most 32 of 768, an
//! Othello position 114 of a million pattern configurations), so each sample keeps only the
//! inputs it turns on, a run of the trainer's one list.

use std::time::Instant;

use rand::SeedableRng;

use super::fit::{self, Fit};
use super::{Epoch, TrainingOptions, TrainingReport};
use crate::learn::LearnError;
use crate::learn::SeededRng;

/// The largest file of weights a run goes on from: the largest model's, with room.
const MAX_WEIGHTS_FILE: u64 = 64 << 20;

/// The largest score a line may give, in the game's units: far past any evaluation (mates are
/// never written), so that one wild number cannot swamp the loss.
const MAX_SCORE: f32 = 100_000.0;

/// A position as the trainer keeps it: its inputs are a run of the trainer's one list.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    /// Where its inputs start in the list, and how many there are.
    pub start: u32,
    pub count: u16,
    /// Whether the first player is to move.
    pub first_to_move: bool,
    /// Whether this epoch sees the board mirrored, where the model's game is the same game
    /// mirrored: a mirrored position is one more to learn from.
    pub mirrored: bool,
    /// What the model's output is trained to meet, for the side to move ([`Model::target`]).
    pub target: f32,
}

impl Sample {
    /// The sample's inputs in `inputs`, the trainer's list.
    #[inline]
    pub fn inputs<'a>(&self, inputs: &'a [u32]) -> &'a [u32] {
        &inputs[self.start as usize..][..usize::from(self.count)]
    }
}

/// A model the loop trains: its inputs, its target, its weights and their gradient.
pub trait Model: Sync {
    /// The inputs a training line's `board` (in the game's text form) turns on, pushed onto
    /// `inputs`, as the model reads them; whether the first player is to move.
    fn read_board(&self, board: &str, inputs: &mut Vec<u32>) -> Result<bool, LearnError>;

    /// The most inputs one position turns on.
    fn max_active(&self) -> usize;

    /// What a line's score counts: `centipawns`, `discs`.
    fn score_units(&self) -> &'static str;

    /// The largest score a line may give, in those units: the game's range where it has one
    /// (Othello's 64 discs), else far past any evaluation.
    fn max_score(&self) -> f32 {
        MAX_SCORE
    }

    /// What the output is trained to meet, from the line's score (in the game's units) and
    /// result (in points), both the side to move's, the result counting `result_weight`.
    fn target(&self, score: f32, result: f32, result_weight: f32) -> Result<f32, LearnError>;

    /// Whether the game is the same game mirrored, so that each epoch may see a position so.
    fn mirrors(&self) -> bool {
        false
    }

    /// How many weights the model has, in the one vector the optimiser steps.
    fn weights(&self) -> usize;

    /// The weights it starts from.
    fn first_weights(&self, rng: &mut SeededRng) -> Vec<f32>;

    /// The weights of a file the game reads (as [`Model::to_bytes`] writes it), to go on
    /// training from.
    fn read_weights(&self, bytes: &[u8]) -> Result<Vec<f32>, LearnError>;

    /// The largest a weight may grow, so that its stored form fits.
    fn clip(&self) -> f32;

    /// The loss of `sample` (whose inputs are in `inputs`), its gradient added to `gradient`.
    fn add_gradient(
        &self,
        weights: &[f32],
        sample: &Sample,
        inputs: &[u32],
        gradient: &mut [f32],
    ) -> f64;

    /// The loss of `sample`.
    fn loss(&self, weights: &[f32], sample: &Sample, inputs: &[u32]) -> f64;

    /// The weights in the file the game reads, checked to read back.
    fn to_bytes(&self, weights: &[f32]) -> Result<Vec<u8>, LearnError>;
}

/// The data's positions: each sample's inputs are a run of `inputs`.
struct Data {
    samples: Vec<Sample>,
    inputs: Vec<u32>,
}

/// Trains `model` on `options.data` and writes its weights to `options.output`.
pub fn train<M: Model>(
    model: &M,
    options: &TrainingOptions,
    on_epoch: &mut dyn FnMut(&Epoch),
) -> Result<TrainingReport, LearnError> {
    let started = Instant::now();
    let mut rng = SeededRng::seed_from_u64(options.seed);
    let Data {
        mut samples,
        inputs,
    } = read(model, options)?;
    let held_out = fit::hold_out(&mut samples)?;
    let weights = match &options.from {
        None => model.first_weights(&mut rng),
        Some(path) => {
            let bytes =
                crate::files::read_at_most(path, MAX_WEIGHTS_FILE, "weights to go on from")?;
            let weights = model
                .read_weights(&bytes)
                .map_err(|error| error.in_file(path))?;
            if weights.len() != model.weights() {
                return Err(LearnError::Weights(format!(
                    "--from {}: {} weights, where this build's model has {}",
                    path.display(),
                    weights.len(),
                    model.weights()
                )));
            }
            weights
        }
    };
    let mut fitting = Fitting {
        model,
        weights,
        inputs: &inputs,
    };
    let losses = fit::fit(
        &mut fitting,
        &mut samples,
        &held_out,
        options,
        &mut rng,
        started,
        on_epoch,
    )?;
    let bytes = model.to_bytes(&fitting.weights)?;
    crate::files::write_bytes(&options.output, &bytes)?;
    Ok(TrainingReport {
        positions: samples.len(),
        validation_positions: held_out.len(),
        validation_loss: losses.validation,
        training_loss: losses.training,
        elapsed: started.elapsed(),
        output: options.output.clone(),
        bytes: bytes.len(),
    })
}

/// A model with its weights and the data's inputs, as the loop fits it.
struct Fitting<'a, M> {
    model: &'a M,
    weights: Vec<f32>,
    inputs: &'a [u32],
}

impl<M: Model> Fit for Fitting<'_, M> {
    type Sample = Sample;

    fn weights(&mut self) -> &mut [f32] {
        &mut self.weights
    }

    fn add_gradient(&self, samples: &[Sample], gradient: &mut [f32]) -> f64 {
        samples
            .iter()
            .map(|sample| {
                self.model
                    .add_gradient(&self.weights, sample, self.inputs, gradient)
            })
            .sum()
    }

    fn loss(&self, samples: &[Sample]) -> f64 {
        samples
            .iter()
            .map(|sample| self.model.loss(&self.weights, sample, self.inputs))
            .sum()
    }

    fn augment(&self, sample: &mut Sample, rng: &mut SeededRng) {
        use rand::RngExt;
        if self.model.mirrors() {
            sample.mirrored = rng.random();
        }
    }

    fn clip(&self) -> f32 {
        self.model.clip()
    }
}

/// The positions of the data files, streamed, with their targets; a line that is not a
/// position is an error naming its file and line.
fn read<M: Model>(model: &M, options: &TrainingOptions) -> Result<Data, LearnError> {
    let mut data = Data {
        samples: Vec::new(),
        inputs: Vec::new(),
    };
    for path in &options.data {
        crate::files::for_each_line(path, |_, line| {
            if !line.trim().is_empty() {
                let sample = sample(model, line, options.result_weight, &mut data.inputs)?;
                data.samples.push(sample);
            }
            Ok::<_, LearnError>(())
        })?;
    }
    Ok(data)
}

/// A line `BOARD | SCORE | RESULT` (the first player's score and points) as a sample, its
/// inputs pushed onto `inputs`.
fn sample<M: Model>(
    model: &M,
    line: &str,
    result_weight: f32,
    inputs: &mut Vec<u32>,
) -> Result<Sample, LearnError> {
    const SHAPE: &str = "a position is BOARD | SCORE | RESULT, as sente positions writes it";
    let fields: Vec<&str> = line.split('|').map(str::trim).collect();
    let [board, score, result] = fields[..] else {
        return Err(LearnError::Data(format!(
            "{} fields: {SHAPE}",
            fields.len()
        )));
    };
    // The board first, as the line reads: a line of another game is said to be one.
    let start = inputs.len();
    let first_to_move = model
        .read_board(board, inputs)
        .inspect_err(|_| inputs.truncate(start))?;
    let score: Result<f32, LearnError> = score
        .parse()
        .ok()
        .filter(|score: &f32| score.is_finite() && score.abs() <= model.max_score())
        .ok_or_else(|| {
            LearnError::Data(format!(
                "the score is {} within ±{}, not {score:?}: {SHAPE}",
                model.score_units(),
                model.max_score()
            ))
        });
    let result: Result<f32, LearnError> = result
        .parse()
        .ok()
        .filter(|result| [0.0, 0.5, 1.0].contains(result))
        .ok_or_else(|| {
            LearnError::Data(format!(
                "the result is 1.0, 0.5 or 0.0 (the first player's points), not {result:?}"
            ))
        });
    let (score, result) = match (score, result) {
        (Ok(score), Ok(result)) => (score, result),
        (Err(error), _) | (_, Err(error)) => {
            inputs.truncate(start);
            return Err(error);
        }
    };
    let count = inputs.len() - start;
    if count > model.max_active() {
        inputs.truncate(start);
        return Err(LearnError::Data(format!(
            "{count} inputs on: more than a position of the game turns on ({})",
            model.max_active()
        )));
    }
    let (score, result) = if first_to_move {
        (score, result)
    } else {
        (-score, 1.0 - result)
    };
    Ok(Sample {
        start: u32::try_from(start)
            .map_err(|_| LearnError::Data("more positions than a trainer holds".to_owned()))?,
        count: count as u16,
        first_to_move,
        mirrored: false,
        target: model.target(score, result, result_weight)?,
    })
}
