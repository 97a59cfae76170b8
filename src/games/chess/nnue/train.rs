//! The net's trainer: a plain loop over the positions of Sente's games, on the CPU's cores.
//!
//! Each position's target blends what its game ended as and what the search scored it:
//! `w * result + (1 - w) * sigmoid(score / SCALE)`, both the side to move's; the net's output
//! `out` (in units of `SCALE` centipawns) is trained so that `sigmoid(out)` meets it, the
//! squared error's gradient carried back by hand through the two layers. Weights are floats
//! while training, kept within `CLIP` so that their quantised forms fit 16 bits and a
//! position's sums cannot overflow; the file written is the quantised net
//! ([`Network`]).

use std::time::Instant;

use rand::SeedableRng;
use rand::seq::SliceRandom;
use shakmaty::Color;
use shakmaty::fen::Fen;

use super::{HIDDEN, INPUTS, Network, QA, QB, SCALE, input};
use crate::learn::{Adam, Epoch, TrainingOptions, TrainingReport, learning_rate, sigmoid};

/// The largest a float weight may grow: its quantised first-layer form, times 32 pieces, must
/// stay within 16 bits (`32 * 1.98 * QA` < 32,768), as must the output's `1.98 * QB`.
const CLIP: f32 = 1.98;

/// The last fiftieth of the data is held out, to measure the loss on games not trained on:
/// a game's positions are consecutive in the files, and so alike that holding out positions
/// drawn at random would measure how well the net remembers the games it learnt.
const HELD_OUT: usize = 50;

/// A position as the trainer keeps it.
#[derive(Clone, Copy)]
struct Sample {
    /// Its inputs as White sees the board; Black's view of each is [`flip`]ped.
    inputs: [u16; 32],
    count: u8,
    white_to_move: bool,
    /// Whether this epoch sees the board mirrored, the a-file for the h-file: chess is the
    /// same game either way but for castling, which the inputs do not see, so a mirrored
    /// position is one more to learn from.
    mirrored: bool,
    /// What `sigmoid(output)` should be, the side to move's.
    target: f32,
}

/// An input as the other side sees it: own and the opponent's swapped, the board upside down.
#[inline]
fn flip(input: u16) -> u16 {
    (if input < 384 {
        input + 384
    } else {
        input - 384
    }) ^ 56
}

/// Where each layer's weights are in the one vector the optimiser steps.
const W1: usize = 0;
const B1: usize = W1 + INPUTS * HIDDEN;
const W2: usize = B1 + HIDDEN;
const B2: usize = W2 + 2 * HIDDEN;
const WEIGHTS: usize = B2 + 1;

/// Trains a net on `options.data` and writes it to `options.output`.
pub fn train(
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
    let mut samples = read(options)?;
    if samples.len() < 2 * HELD_OUT {
        return Err(format!(
            "{} positions: too few to train on (give at least {})",
            samples.len(),
            2 * HELD_OUT
        ));
    }
    let held_out = samples.split_off(samples.len() - samples.len() / HELD_OUT);

    let mut weights = first_weights(&mut rng);
    let mut adam = Adam::new(WEIGHTS);
    let threads = options.threads.max(1);
    let mut gradients = vec![vec![0.0f32; WEIGHTS]; threads];
    let batch = options.batch.max(1);
    let (mut training_loss, mut validation_loss) = (Vec::new(), Vec::new());
    for epoch in 0..options.epochs {
        samples.shuffle(&mut rng);
        if options.mirror {
            use rand::RngExt;
            samples
                .iter_mut()
                .for_each(|sample| sample.mirrored = rng.random());
        }
        let rate = learning_rate(options.learning_rate, epoch, options.epochs);
        let mut total = 0.0;
        for positions in samples.chunks(batch) {
            total += gradient(&weights, positions, &mut gradients);
            let mean = crate::learn::mean_gradient(&mut gradients, positions.len());
            adam.step(&mut weights, mean, rate, CLIP);
        }
        training_loss.push(total / samples.len() as f64);
        validation_loss.push(loss(&weights, &held_out));
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
    let bytes = quantised(&weights).to_bytes();
    // What is written is what Sente reads.
    Network::read(&bytes)
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
fn read(options: &TrainingOptions) -> Result<Vec<Sample>, String> {
    let mut samples = Vec::new();
    for path in &options.data {
        crate::files::for_each_line(path, |_, line| {
            if !line.trim().is_empty() {
                samples.push(sample(line, options.result_weight)?);
            }
            Ok(())
        })?;
    }
    Ok(samples)
}

/// The largest score a line may give, in centipawns: far past any evaluation (mates are never
/// written), so that one wild number cannot swamp the loss.
const MAX_SCORE: f32 = 100_000.0;

/// A line `FEN | SCORE | RESULT` (White's centipawns and points) as a sample.
fn sample(line: &str, result_weight: f32) -> Result<Sample, String> {
    const SHAPE: &str = "a position is FEN | SCORE | RESULT, as sente positions writes it";
    let fields: Vec<&str> = line.split('|').map(str::trim).collect();
    let [fen, score, result] = fields[..] else {
        return Err(format!("{} fields: {SHAPE}", fields.len()));
    };
    let fen: Fen = fen.parse().map_err(|error| format!("the FEN: {error}"))?;
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
        .ok_or_else(|| format!("the result is 1.0, 0.5 or 0.0 (White's points), not {result:?}"))?;
    let setup = fen.as_setup();
    let white_to_move = setup.turn == Color::White;
    let mut sample = Sample {
        inputs: [0; 32],
        count: 0,
        white_to_move,
        mirrored: false,
        target: 0.0,
    };
    for (square, piece) in setup.board.clone() {
        let slot = sample
            .inputs
            .get_mut(usize::from(sample.count))
            .ok_or("more than 32 pieces: not a chess position")?;
        *slot = input(Color::White, piece.color, piece.role, square) as u16;
        sample.count += 1;
    }
    let (score, result) = if white_to_move {
        (score, result)
    } else {
        (-score, 1.0 - result)
    };
    sample.target = result_weight * result + (1.0 - result_weight) * sigmoid(score / SCALE as f32);
    Ok(sample)
}

/// Small random weights: the first layer's such that a position's sums start near the
/// activation's range, the output's near zero.
fn first_weights(rng: &mut crate::search::SearchRng) -> Vec<f32> {
    use rand::RngExt;
    let mut weights = vec![0.0; WEIGHTS];
    for weight in &mut weights[W1..B1] {
        *weight = rng.random_range(-0.15..0.15);
    }
    for weight in &mut weights[W2..B2] {
        *weight = rng.random_range(-0.06..0.06);
    }
    weights
}

/// The side to move's inputs, then its opponent's.
#[inline]
fn views(sample: &Sample) -> [impl Iterator<Item = usize> + '_; 2] {
    // The file is the input's lowest three bits.
    let file = if sample.mirrored { 7 } else { 0 };
    let white = sample.inputs[..usize::from(sample.count)]
        .iter()
        .map(move |&input| input ^ file);
    let view = move |flipped: bool| {
        white
            .clone()
            .map(move |input| usize::from(if flipped { flip(input) } else { input }))
    };
    [view(!sample.white_to_move), view(sample.white_to_move)]
}

/// The first layer's sums of `sample`, the side to move's then its opponent's, and the output.
#[inline]
fn forward(weights: &[f32], sample: &Sample, sums: &mut [[f32; HIDDEN]; 2]) -> f32 {
    let mut output = weights[B2];
    for (side, inputs) in views(sample).into_iter().enumerate() {
        let sum = &mut sums[side];
        sum.copy_from_slice(&weights[B1..W2]);
        for input in inputs {
            let row = &weights[W1 + input * HIDDEN..][..HIDDEN];
            sum.iter_mut().zip(row).for_each(|(s, w)| *s += w);
        }
        let out = &weights[W2 + side * HIDDEN..][..HIDDEN];
        output += sum
            .iter()
            .zip(out)
            .map(|(s, w)| s.clamp(0.0, 1.0) * w)
            .sum::<f32>();
    }
    output
}

/// The summed loss of `positions`, their gradient added into `gradients` (one a thread).
fn gradient(weights: &[f32], positions: &[Sample], gradients: &mut [Vec<f32>]) -> f64 {
    crate::learn::gradient(positions, gradients, |part, gradient| {
        part_gradient(weights, part, gradient)
    })
}

fn part_gradient(weights: &[f32], positions: &[Sample], gradient: &mut [f32]) -> f64 {
    gradient.fill(0.0);
    let mut sums = [[0.0; HIDDEN]; 2];
    let mut total = 0.0;
    for sample in positions {
        let predicted = sigmoid(forward(weights, sample, &mut sums));
        let error = predicted - sample.target;
        total += f64::from(error * error);
        // d(error^2)/d(output), through the sigmoid.
        let d_output = 2.0 * error * predicted * (1.0 - predicted);
        gradient[B2] += d_output;
        for (side, inputs) in views(sample).into_iter().enumerate() {
            let mut d_sums = [0.0f32; HIDDEN];
            let out = &weights[W2 + side * HIDDEN..][..HIDDEN];
            let d_out = &mut gradient[W2 + side * HIDDEN..][..HIDDEN];
            for j in 0..HIDDEN {
                let sum = sums[side][j];
                d_out[j] += d_output * sum.clamp(0.0, 1.0);
                // The clipped ReLU passes a gradient only inside its range.
                if sum > 0.0 && sum < 1.0 {
                    d_sums[j] = d_output * out[j];
                }
            }
            gradient[B1..W2]
                .iter_mut()
                .zip(&d_sums)
                .for_each(|(g, d)| *g += d);
            for input in inputs {
                let row = &mut gradient[W1 + input * HIDDEN..][..HIDDEN];
                row.iter_mut().zip(&d_sums).for_each(|(g, d)| *g += d);
            }
        }
    }
    total
}

/// The mean loss of `positions`.
fn loss(weights: &[f32], positions: &[Sample]) -> f64 {
    let mut sums = [[0.0; HIDDEN]; 2];
    let total: f64 = positions
        .iter()
        .map(|sample| {
            let error = sigmoid(forward(weights, sample, &mut sums)) - sample.target;
            f64::from(error * error)
        })
        .sum();
    total / positions.len().max(1) as f64
}

/// The float weights as the quantised net the engine reads.
fn quantised(weights: &[f32]) -> Network {
    let scaled = |weight: f32, scale: i32| (weight * scale as f32).round() as i16;
    let mut network = Network::zeros();
    for (input, row) in network.w1.iter_mut().enumerate() {
        for (j, weight) in row.iter_mut().enumerate() {
            *weight = scaled(weights[W1 + input * HIDDEN + j], QA);
        }
    }
    for (j, bias) in network.b1.iter_mut().enumerate() {
        *bias = scaled(weights[B1 + j], QA);
    }
    for (side, half) in network.w2.iter_mut().enumerate() {
        for (j, weight) in half.iter_mut().enumerate() {
            *weight = scaled(weights[W2 + side * HIDDEN + j], QB);
        }
    }
    network.b2 = (weights[B2] * (QA * QB) as f32).round() as i32;
    network
}

#[cfg(test)]
mod tests {
    use std::fs;

    use rand::RngExt;
    use shakmaty::{Chess, EnPassantMode, Position};

    use super::*;
    use crate::games::chess::evaluation::pesto;

    /// Positions of random games, each labelled with PeSTO's score (White's view): what a net
    /// can learn in seconds.
    fn labelled_positions(count: usize) -> String {
        let mut rng = crate::search::SearchRng::seed_from_u64(11);
        let mut lines = String::new();
        let mut written = 0;
        while written < count {
            let mut position = Chess::default();
            for _ in 0..rng.random_range(4..80) {
                let moves = position.legal_moves();
                if moves.is_empty() {
                    break;
                }
                position.play_unchecked(moves[rng.random_range(0..moves.len())]);
            }
            let fen = shakmaty::fen::Fen::from_position(&position, EnPassantMode::Legal);
            let score = position.turn().fold_wb(1, -1) * pesto(&position);
            lines.push_str(&format!("{fen} | {score} | 0.5\n"));
            written += 1;
        }
        lines
    }

    /// A few seconds of training on PeSTO's scores: the loss falls, on the positions trained on
    /// and on those held out, and the net written reads back and plays its part.
    #[test]
    fn a_tiny_training_run_learns() {
        let directory = std::env::temp_dir().join(format!("sente-train-{}", std::process::id()));
        fs::create_dir_all(&directory).unwrap();
        let data = directory.join("positions.txt");
        fs::write(&data, labelled_positions(4_000)).unwrap();
        let mut options = TrainingOptions::new(vec![data], directory.join("net.nnue"));
        options.epochs = 6;
        options.batch = 64;
        options.threads = 2;
        let mut told = 0;
        let report = train(&options, &mut |epoch| {
            told += 1;
            assert_eq!(epoch.number, told);
        })
        .unwrap();
        assert_eq!(told, 6);
        assert_eq!(report.positions + report.validation_positions, 4_000);
        let (training, validation) = (&report.training_loss, &report.validation_loss);
        assert!(training[5] < training[0] * 0.7, "{training:?}");
        assert!(validation[5] < validation[0], "{validation:?}");
        let network = Network::read(&fs::read(&report.output).unwrap()).unwrap();
        // A queen up is worth far more than nothing, to either side.
        let up: Chess = "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
            .parse::<shakmaty::fen::Fen>()
            .unwrap()
            .into_position(shakmaty::CastlingMode::Standard)
            .unwrap();
        let sums = crate::games::chess::nnue::Accumulator::of(&network, up.board());
        assert!(network.evaluate(&sums, Color::White) > 300);
        assert!(network.evaluate(&sums, Color::Black) < -300);
        fs::remove_dir_all(&directory).unwrap();
    }

    /// A line a trainer cannot trust stops the run before it trains, naming the file and line,
    /// and writes nothing: a NaN score trained a NaN net, a result of 7.5 a wild one.
    #[test]
    fn a_bad_line_is_refused_naming_its_file_and_line() {
        let directory = std::env::temp_dir().join(format!("sente-bad-{}", std::process::id()));
        fs::create_dir_all(&directory).unwrap();
        let data = directory.join("positions.txt");
        let output = directory.join("net.nnue");
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        for (bad, says) in [
            (format!("{start} | NaN | 0.5"), "the score is centipawns"),
            (format!("{start} | inf | 0.5"), "the score is centipawns"),
            (
                format!("{start} | 12 | 7.5"),
                "the result is 1.0, 0.5 or 0.0",
            ),
            (format!("{start} | 12"), "2 fields"),
            ("not a position | 1 | 0.5".to_owned(), "the FEN"),
        ] {
            fs::write(&data, labelled_positions(300) + &bad + "\n").unwrap();
            let options = TrainingOptions::new(vec![data.clone()], output.clone());
            let error = train(&options, &mut |_| {}).unwrap_err();
            let line = format!("{}: line 301: ", data.display());
            assert!(
                error.starts_with(&line) && error.contains(says),
                "{bad}: {error}"
            );
            assert!(!output.exists());
        }
        fs::remove_dir_all(&directory).unwrap();
    }

    #[test]
    fn too_few_positions_are_refused_in_words() {
        let data = std::env::temp_dir().join(format!("sente-few-{}.txt", std::process::id()));
        fs::write(&data, labelled_positions(10)).unwrap();
        let options = TrainingOptions::new(vec![data.clone()], data.with_extension("nnue"));
        let error = train(&options, &mut |_| {}).unwrap_err();
        assert!(error.contains("too few to train on"), "{error}");
        fs::remove_file(data).unwrap();
    }

    #[test]
    fn black_sees_the_board_upside_down_with_the_sides_swapped() {
        use shakmaty::{Role, Square};
        for (color, role, square) in [
            (Color::White, Role::Pawn, Square::E2),
            (Color::Black, Role::King, Square::G8),
            (Color::Black, Role::Queen, Square::A1),
        ] {
            let white = input(Color::White, color, role, square) as u16;
            let black = input(Color::Black, color, role, square) as u16;
            assert_eq!(flip(white), black);
            assert_eq!(flip(black), white);
        }
    }
}
