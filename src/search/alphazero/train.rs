//! The policy-value network's trainer: AlphaZero's loss, (z - v)^2 - pi . log p, on the
//! positions self-play wrote (`selfplay.rs`), by Adam over minibatches on the CPU's cores.
//!
//! The window of recent games AlphaZero trains on is the files given: the last generations'.
//! A run goes on from the current network (`--from`) or starts afresh; either way the next
//! network is a candidate until Sente's SPRT says it is stronger than the current one.

use std::time::Instant;

use rand::SeedableRng;
use rand::seq::SliceRandom;

use super::networks;
use super::selfplay::{Example, read};
use crate::game::Game;
use crate::learn::policy_value::{Activations, PolicyValueNet};
use crate::learn::{
    Adam, Epoch, Trainer, TrainingOptions, TrainingReport, gradient, learning_rate, mean_gradient,
};
use crate::search::SearchRng;

/// The hidden layers' width of a network started afresh, by default.
pub const DEFAULT_HIDDEN: usize = 128;

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
    if let Some(hidden) = options.hidden {
        crate::learn::policy_value::fits(G::NETWORK_INPUTS, hidden, G::MOVE_IDS)?;
    }
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
    let mut net = match &options.from {
        Some(path) => networks::from_file::<G>(path)?,
        None => PolicyValueNet::random(
            G::NAME,
            G::NETWORK_INPUTS,
            options.hidden.unwrap_or(DEFAULT_HIDDEN),
            G::MOVE_IDS,
            &mut rng,
        ),
    };
    if options.from.is_some() && options.hidden.is_some_and(|hidden| hidden != net.hidden) {
        return Err(format!(
            "the network to go on from has {} hidden, not the {} asked",
            net.hidden,
            options.hidden.unwrap_or_default()
        ));
    }
    let mut adam = Adam::new(net.parameters());
    let threads = options.threads.max(1);
    let mut gradients = vec![vec![0.0f32; net.parameters()]; threads];
    let batch = options.batch.max(1);
    let (mut training_loss, mut validation_loss) = (Vec::new(), Vec::new());
    for epoch in 0..options.epochs {
        examples.shuffle(&mut rng);
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
            &activations,
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
