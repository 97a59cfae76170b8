//! The policy-value network's trainer: AlphaZero's loss, (z - v)^2 - pi . log p, on the
//! positions self-play wrote (`selfplay.rs`), by Adam over minibatches on the CPU's cores.
//!
//! The window of recent games AlphaZero trains on is the files given: the last generations'.
//! A run goes on from the current network (`--from`) or starts afresh; either way the next
//! network is a candidate until Sente's SPRT says it is stronger than the current one.

use std::time::Instant;

use std::marker::PhantomData;

use rand::{RngExt, SeedableRng};

use super::networks;
use super::selfplay::{Example, read};
use crate::game::Game;
use crate::learn::LearnError;
use crate::learn::fit::{self, Fit};
use crate::learn::policy_value::{Activations, PolicyValueNet, Shape};
use crate::learn::residual::Tower;
use crate::learn::{Epoch, Trainer, TrainingOptions, TrainingReport};
use crate::search::SearchRng;

/// The hidden layers' width of a network started afresh, by default.
pub const DEFAULT_HIDDEN: usize = 128;
/// A residual tower's channels, by default.
pub const DEFAULT_CHANNELS: usize = 32;

/// A weight's bound, so that no step can run away.
const CLIP: f32 = 8.0;

/// The trainer of `G`'s policy-value networks, as `sente train` runs it for games that declare
/// no trainer of their own.
pub fn trainer<G: Game>() -> Trainer {
    Trainer {
        description: "AlphaZero's policy-value network: two hidden layers of ReLU, a policy \
                      over the move ids and a tanh value, learnt from self-play's visits and \
                      results (docs/alphazero.md).",
        train: train::<G>,
        weights: None,
    }
}

/// Trains a network on `options.data` (self-play's lines) and writes it to `options.output`.
pub fn train<G: Game>(
    options: &TrainingOptions,
    on_epoch: &mut dyn FnMut(&Epoch),
) -> Result<TrainingReport, LearnError> {
    if options.king_buckets.is_some_and(|buckets| buckets != 1) {
        return Err(LearnError::Options(
            "a policy-value network reads the board whole: --king-buckets is for evaluation \
             networks"
                .to_owned(),
        ));
    }
    if options.result_weight != 0.0 {
        return Err(LearnError::Options(
            "a policy-value network learns the game's result and the search's visits both: \
             --result-weight is for evaluation networks"
                .to_owned(),
        ));
    }
    networks::playable::<G>()?;
    if !(0.0..=1.0).contains(&options.search_value_weight) {
        return Err(LearnError::Options(format!(
            "the search's value weighs 0 to 1 of the value's target, not {}",
            options.search_value_weight
        )));
    }
    let shape = new_shape::<G>(options)?;
    let started = Instant::now();
    let mut rng = SearchRng::seed_from_u64(options.seed);
    let mut examples = examples::<G>(options)?;
    let held_out = fit::hold_out(&mut examples)?;
    let net = match (&options.from, shape) {
        (Some(path), _) => networks::from_file::<G>(path)?,
        (None, Shape::Perceptron { hidden }) => {
            PolicyValueNet::random(G::NAME, G::NETWORK_INPUTS, hidden, G::MOVE_IDS, &mut rng)
        }
        (None, Shape::Residual(tower)) => {
            PolicyValueNet::random_tower(G::NAME, G::NETWORK_INPUTS, tower, &mut rng)
        }
    };
    let asked = options.hidden.is_some() || options.blocks.is_some();
    if options.from.is_some() && asked && net.shape != shape {
        return Err(LearnError::Options(format!(
            "the network to go on from is {}, not {shape} as asked",
            net.shape
        )));
    }
    for example in &mut examples {
        example.result = (1.0 - options.search_value_weight) * example.result
            + options.search_value_weight * example.search_value.unwrap_or(example.result);
    }
    let mut fitting = Fitting::<G> {
        net,
        game: PhantomData,
    };
    let losses = fit::fit(
        &mut fitting,
        &mut examples,
        &held_out,
        options,
        &mut rng,
        started,
        on_epoch,
    )?;
    let net = fitting.net;
    // What is written is what Sente reads: checked as a file of it would be.
    let net = networks::check::<G>(net).map_err(|error| {
        LearnError::Weights(format!(
            "the trained network is not one Sente could play: {error}"
        ))
    })?;
    let bytes = net.to_bytes();
    crate::files::write_bytes(&options.output, &bytes)?;
    Ok(TrainingReport {
        positions: examples.len(),
        validation_positions: held_out.len(),
        validation_loss: losses.validation,
        training_loss: losses.training,
        elapsed: started.elapsed(),
        output: options.output.clone(),
        bytes: bytes.len(),
    })
}

/// The shape of a network started afresh: a residual tower where blocks are asked (over the
/// game's grid, its inputs two a cell), else a perceptron.
fn new_shape<G: Game>(options: &TrainingOptions) -> Result<Shape, LearnError> {
    let Some(blocks) = options.blocks else {
        let hidden = options.hidden.unwrap_or(DEFAULT_HIDDEN);
        crate::learn::policy_value::fits(G::NETWORK_INPUTS, hidden, G::MOVE_IDS)?;
        return Ok(Shape::Perceptron { hidden });
    };
    let tower = Tower {
        rows: G::ROWS,
        columns: G::COLUMNS,
        channels: options.hidden.unwrap_or(DEFAULT_CHANNELS),
        blocks,
        moves: G::MOVE_IDS,
    };
    tower.fits()?;
    if G::NETWORK_INPUTS != 2 * tower.cells() {
        return Err(LearnError::NotLearnt(format!(
            "{}'s network inputs are not two a cell of its {}x{} grid: a residual tower cannot \
             read them",
            G::NAME,
            G::ROWS,
            G::COLUMNS
        )));
    }
    Ok(Shape::Residual(tower))
}

/// The positions of the data files, streamed; a line that is not a self-play position of `G`
/// is an error naming its file and line (a network learnt from a part of the data, silently,
/// would not be the one asked for).
fn examples<G: Game>(options: &TrainingOptions) -> Result<Vec<Example>, LearnError> {
    let mut examples = Vec::new();
    for path in &options.data {
        crate::files::for_each_line(path, |_, line| {
            if !line.trim().is_empty() {
                let example = read::<G>(line).map_err(|error| {
                    LearnError::Data(format!("not a self-play position of {}: {error}", G::NAME))
                })?;
                examples.push(example);
            }
            Ok::<_, LearnError>(())
        })?;
    }
    Ok(examples)
}

/// The summed loss of `examples`, their gradient added into `gradient`.
fn part_gradient(net: &PolicyValueNet, examples: &[Example], gradient: &mut [f32]) -> f64 {
    let mut activations = Activations::default();
    let mut total = 0.0;
    for example in examples {
        net.forward(&example.active, &mut activations);
        total += f64::from(net.backward(
            &example.active,
            &mut activations,
            &example.legal,
            &example.policy,
            example.result,
            gradient,
        ));
    }
    total
}

/// A network of `G`'s, as the loop fits it.
struct Fitting<G> {
    net: PolicyValueNet,
    game: PhantomData<fn() -> G>,
}

impl<G: Game> Fit for Fitting<G> {
    type Sample = Example;

    fn weights(&mut self) -> &mut [f32] {
        &mut self.net.weights
    }

    fn add_gradient(&self, examples: &[Example], gradient: &mut [f32]) -> f64 {
        part_gradient(&self.net, examples, gradient)
    }

    fn loss(&self, examples: &[Example]) -> f64 {
        let mut gradient = vec![0.0; self.net.parameters()];
        part_gradient(&self.net, examples, &mut gradient)
    }

    /// Each position as one of its images, drawn afresh each epoch: the group's elements
    /// composed with a uniform draw stay uniform.
    fn augment(&self, example: &mut Example, rng: &mut SearchRng) {
        let symmetries = G::NETWORK_SYMMETRIES;
        let draw = rng.random_range(0..=symmetries.len());
        if let Some(&symmetry) = symmetries.get(draw.wrapping_sub(1)) {
            symmetry.apply::<G>(&mut example.active, &mut example.legal);
        }
    }

    fn clip(&self) -> f32 {
        CLIP
    }
}
