//! The policy-value network's trainer: AlphaZero's loss, (z - v)^2 - pi . log p, on the
//! positions self-play wrote (`selfplay.rs`), by Adam over minibatches on the CPU's cores.
//!
//! The window of recent games AlphaZero trains on is the files given: the last generations'.
//! A run goes on from the current network (`--from`) or starts afresh; either way the next
//! network is a candidate until Sente's SPRT says it is stronger than the current one.

use std::time::Instant;

use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};

use super::networks;
use super::selfplay::{Example, read};
use crate::game::Game;
use crate::learn::policy_value::{Activations, PolicyValueNet, Shape};
use crate::learn::residual::Tower;
use crate::learn::{
    Adam, Epoch, Trainer, TrainingOptions, TrainingReport, gradient, learning_rate, mean_gradient,
};
use crate::search::SearchRng;

/// The hidden layers' width of a network started afresh, by default.
pub const DEFAULT_HIDDEN: usize = 128;
/// A residual tower's channels, by default.
pub const DEFAULT_CHANNELS: usize = 32;

/// A weight's bound, so that no step can run away.
const CLIP: f32 = 8.0;

/// One position in this many is held out to measure the loss on (consecutive games' positions
/// are alike, so the held-out ones are whole stretches of the files: the last fiftieth).
const HELD_OUT: usize = 50;

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
) -> Result<TrainingReport, String> {
    if options.result_weight != 0.0 {
        return Err(
            "a policy-value network learns the game's result and the search's visits both: \
             --result-weight is for evaluation networks"
                .to_owned(),
        );
    }
    networks::playable::<G>()?;
    if !(0.0..=1.0).contains(&options.search_value_weight) {
        return Err(format!(
            "the search's value weighs 0 to 1 of the value's target, not {}",
            options.search_value_weight
        ));
    }
    let shape = new_shape::<G>(options)?;
    let started = Instant::now();
    let mut rng = SearchRng::seed_from_u64(options.seed);
    let mut examples = examples::<G>(options)?;
    if examples.len() < 2 * HELD_OUT {
        return Err(format!(
            "{} positions: too few to train on (give at least {})",
            examples.len(),
            2 * HELD_OUT
        ));
    }
    let held_out = examples.split_off(examples.len() - examples.len() / HELD_OUT);
    let mut net = match (&options.from, shape) {
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
        return Err(format!(
            "the network to go on from is {}, not {shape} as asked",
            net.shape
        ));
    }
    for example in &mut examples {
        example.result = (1.0 - options.search_value_weight) * example.result
            + options.search_value_weight * example.search_value.unwrap_or(example.result);
    }
    let mut adam = Adam::new(net.parameters());
    let threads = options.threads.max(1);
    let mut gradients = vec![vec![0.0f32; net.parameters()]; threads];
    let batch = options.batch.max(1);
    let (mut training_loss, mut validation_loss) = (Vec::new(), Vec::new());
    for epoch in 0..options.epochs {
        examples.shuffle(&mut rng);
        if options.mirror {
            // Each position as one of its images, drawn afresh each epoch: the group's elements
            // composed with a uniform draw stay uniform.
            let symmetries = G::NETWORK_SYMMETRIES;
            for example in &mut examples {
                let draw = rng.random_range(0..=symmetries.len());
                if let Some(&symmetry) = symmetries.get(draw.wrapping_sub(1)) {
                    symmetry.apply::<G>(&mut example.active, &mut example.legal);
                }
            }
        }
        let rate = learning_rate(options.learning_rate, epoch, options.epochs);
        let mut total = 0.0;
        for positions in examples.chunks(batch) {
            total += gradient(positions, &mut gradients, |part, gradient| {
                part_gradient(&net, part, gradient)
            });
            let mean = mean_gradient(&mut gradients, positions.len());
            adam.step(&mut net.weights, mean, rate, CLIP);
        }
        training_loss.push(total / examples.len() as f64);
        validation_loss.push(loss(&net, &held_out));
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
    // What is written is what Sente reads: checked as a file of it would be.
    let net = networks::check::<G>(net)
        .map_err(|error| format!("the trained network is not one Sente could play: {error}"))?;
    let bytes = net.to_bytes();
    crate::files::write_bytes(&options.output, &bytes)?;
    Ok(TrainingReport {
        positions: examples.len(),
        validation_positions: held_out.len(),
        validation_loss,
        training_loss,
        elapsed: started.elapsed(),
        output: options.output.clone(),
        bytes: bytes.len(),
    })
}

/// The shape of a network started afresh: a residual tower where blocks are asked (over the
/// game's grid, its inputs two a cell), else a perceptron.
fn new_shape<G: Game>(options: &TrainingOptions) -> Result<Shape, String> {
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
        return Err(format!(
            "{}'s network inputs are not two a cell of its {}x{} grid: a residual tower cannot \
             read them",
            G::NAME,
            G::ROWS,
            G::COLUMNS
        ));
    }
    Ok(Shape::Residual(tower))
}

/// The positions of the data files, streamed; a line that is not a self-play position of `G`
/// is an error naming its file and line (a network learnt from a part of the data, silently,
/// would not be the one asked for).
fn examples<G: Game>(options: &TrainingOptions) -> Result<Vec<Example>, String> {
    let mut examples = Vec::new();
    for path in &options.data {
        crate::files::for_each_line(path, |_, line| {
            if !line.trim().is_empty() {
                let example = read::<G>(line)
                    .map_err(|error| format!("not a self-play position of {}: {error}", G::NAME))?;
                examples.push(example);
            }
            Ok(())
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

/// The mean loss on `examples`.
fn loss(net: &PolicyValueNet, examples: &[Example]) -> f64 {
    let mut gradient = vec![0.0; net.parameters()];
    part_gradient(net, examples, &mut gradient) / examples.len().max(1) as f64
}
