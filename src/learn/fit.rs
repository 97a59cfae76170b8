//! The one loop every trainer fits its weights with: a few positions held out, then epochs of
//! shuffled batches whose gradient is computed on every core and stepped by Adam along a
//! falling rate, the loss on the held-out positions measured after each epoch, and a run whose
//! loss stops being a number stopped. What is fitted says what a sample is, and its loss and
//! gradient ([`Fit`]): the sparse models (`sparse.rs`: chess's and shogi's nets, Othello's
//! patterns) and AlphaZero's policy-value network are fitted by it alike.

use std::time::Instant;

use rand::seq::SliceRandom;

use super::{Epoch, LearnError, SeededRng, TrainingOptions, check_loss};

/// One position in this many is held out to measure the loss on, and the held-out ones are the
/// last of the data: a game's positions are consecutive in the files, and so alike that holding
/// out positions drawn at random would measure how well the model remembers the games it learnt.
pub const HELD_OUT: usize = 50;

/// What the loop fits: its weights, and its samples' loss and gradient.
pub trait Fit: Sync {
    /// A position with its targets.
    type Sample: Send + Sync;

    /// The weights the loop steps.
    fn weights(&mut self) -> &mut [f32];

    /// The summed loss of `samples`, their gradient added into `gradient`.
    fn add_gradient(&self, samples: &[Self::Sample], gradient: &mut [f32]) -> f64;

    /// The summed loss of `samples`.
    fn loss(&self, samples: &[Self::Sample]) -> f64;

    /// Turns `sample` into one of its images (a board mirrored), drawn afresh each epoch where
    /// the options ask for it; by default, none.
    fn augment(&self, _sample: &mut Self::Sample, _rng: &mut SeededRng) {}

    /// A weight's bound, so that no step can run away.
    fn clip(&self) -> f32;
}

/// The positions held out of `samples` (their last fiftieth), taken from them; an error where
/// there are too few to train on.
pub fn hold_out<S>(samples: &mut Vec<S>) -> Result<Vec<S>, LearnError> {
    if samples.len() < 2 * HELD_OUT {
        return Err(LearnError::Data(format!(
            "{} positions: too few to train on (give at least {})",
            samples.len(),
            2 * HELD_OUT
        )));
    }
    Ok(samples.split_off(samples.len() - samples.len() / HELD_OUT))
}

/// Each epoch's mean loss on the positions trained on and on those held out.
#[derive(Clone, Debug, Default)]
pub struct Losses {
    pub training: Vec<f64>,
    pub validation: Vec<f64>,
}

/// Fits `model` to `samples` for the options' epochs, telling `on_epoch` of each (its time
/// since `started`); stops with an error when the loss is no longer a number.
pub fn fit<F: Fit>(
    model: &mut F,
    samples: &mut [F::Sample],
    held_out: &[F::Sample],
    options: &TrainingOptions,
    rng: &mut SeededRng,
    started: Instant,
    on_epoch: &mut dyn FnMut(&Epoch),
) -> Result<Losses, LearnError> {
    let parameters = model.weights().len();
    let mut adam = Adam::new(parameters);
    let mut gradients = vec![vec![0.0f32; parameters]; options.threads.max(1)];
    let batch = options.batch.max(1);
    let mut losses = Losses::default();
    for epoch in 0..options.epochs {
        samples.shuffle(rng);
        if options.mirror {
            samples
                .iter_mut()
                .for_each(|sample| model.augment(sample, rng));
        }
        let rate = learning_rate(options.learning_rate, epoch, options.epochs);
        let mut total = 0.0;
        for positions in samples.chunks(batch) {
            total += gradient(positions, &mut gradients, |part, gradient| {
                model.add_gradient(part, gradient)
            });
            let mean = mean_gradient(&mut gradients, positions.len());
            let clip = model.clip();
            adam.step(model.weights(), mean, rate, clip);
        }
        let training = total / samples.len() as f64;
        let validation = model.loss(held_out) / held_out.len().max(1) as f64;
        losses.training.push(training);
        losses.validation.push(validation);
        check_loss(epoch + 1, training, validation)?;
        on_epoch(&Epoch {
            number: epoch + 1,
            training_loss: training,
            validation_loss: validation,
            elapsed: started.elapsed(),
        });
    }
    Ok(losses)
}

/// Adam (Kingma and Ba, 2015, arXiv:1412.6980): each weight's step is its gradient's running
/// mean over the root of its running mean square, so that rare inputs (a king on a8) learn as
/// fast as common ones.
struct Adam {
    first: Vec<f32>,
    second: Vec<f32>,
    steps: i32,
}

impl Adam {
    const BETA1: f32 = 0.9;
    const BETA2: f32 = 0.999;
    const EPSILON: f32 = 1e-8;

    /// An optimiser of `weights` weights.
    pub fn new(weights: usize) -> Adam {
        Adam {
            first: vec![0.0; weights],
            second: vec![0.0; weights],
            steps: 0,
        }
    }

    /// One step of `weights` down `gradient` at `rate`, each weight then kept within `clip`.
    pub fn step(&mut self, weights: &mut [f32], gradient: &[f32], rate: f32, clip: f32) {
        self.steps += 1;
        let correction1 = 1.0 - Self::BETA1.powi(self.steps);
        let correction2 = 1.0 - Self::BETA2.powi(self.steps);
        let rate = rate * correction2.sqrt() / correction1;
        for (((weight, &grad), first), second) in weights
            .iter_mut()
            .zip(gradient)
            .zip(&mut self.first)
            .zip(&mut self.second)
        {
            *first = Self::BETA1 * *first + (1.0 - Self::BETA1) * grad;
            *second = Self::BETA2 * *second + (1.0 - Self::BETA2) * grad * grad;
            *weight =
                (*weight - rate * *first / (second.sqrt() + Self::EPSILON)).clamp(-clip, clip);
        }
    }
}

/// The summed loss of `positions`, each thread's share's gradient in one of `gradients` (each
/// zeroed first): `part` computes a share's, returning its summed loss.
fn gradient<S: Sync>(
    positions: &[S],
    gradients: &mut [Vec<f32>],
    part: impl Fn(&[S], &mut [f32]) -> f64 + Sync,
) -> f64 {
    let share = positions.len().div_ceil(gradients.len()).max(1);
    let used = positions.len().div_ceil(share);
    let (used, idle) = gradients.split_at_mut(used);
    idle.iter_mut().for_each(|gradient| gradient.fill(0.0));
    let part = &part;
    std::thread::scope(|scope| {
        let handles: Vec<_> = positions
            .chunks(share)
            .zip(used)
            .map(|(positions, gradient)| {
                scope.spawn(move || {
                    gradient.fill(0.0);
                    part(positions, gradient)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|handle| handle.join().expect("a gradient thread does not panic"))
            .sum()
    })
}

/// The threads' gradients of a batch of `positions` summed into the first and divided by
/// `positions`: the batch's mean gradient.
fn mean_gradient(gradients: &mut [Vec<f32>], positions: usize) -> &[f32] {
    let scale = 1.0 / positions.max(1) as f32;
    let (sum, others) = gradients.split_first_mut().expect("a thread at least");
    for other in others.iter() {
        for (into, from) in sum.iter_mut().zip(other) {
            *into += from;
        }
    }
    sum.iter_mut().for_each(|grad| *grad *= scale);
    sum
}

/// The learning rate of `epoch` (from 0) of `epochs`: `start` falling along a cosine to a tenth
/// of it.
pub fn learning_rate(start: f32, epoch: u32, epochs: u32) -> f32 {
    let done = epoch as f32 / epochs.max(1) as f32;
    let floor = start / 10.0;
    floor + (start - floor) * 0.5 * (1.0 + (std::f32::consts::PI * done).cos())
}
