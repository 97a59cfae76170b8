//! Learning from Sente's own games: what every trainer shares. A game that learns declares a
//! [`Trainer`] (chess's and shogi's evaluation networks, [`nnue`]); `sente train` runs it on
//! positions written by `sente positions` and writes the weights the game then reads into the
//! binary.
//!
//! The trainers are plain loops of our own over the CPU's cores, not a framework's graphs: the
//! nets are small and their inputs sparse (a chess position turns on at most 32 of 768), so a
//! loop that adds the rows of the inputs that are on does a fraction of the work of the dense
//! matrix products a framework would run (docs/chess.md#the-network measured both).

mod error;
pub mod fit;
pub mod nnue;
pub mod policy_value;
pub mod residual;
pub mod run;
pub mod sparse;
pub mod weights;

pub use error::LearnError;

use std::path::PathBuf;
use std::time::Duration;

use serde::Serialize;

/// The random number generator of training (first weights, shuffles) and of every randomised
/// search (`search::SearchRng` is this one): Xoshiro256++ is fast (a playout draws one number
/// per move) and, unlike `rand`'s `SmallRng`, its output is fixed by its definition, so a seed
/// means the same weights and the same games on every platform.
pub type SeededRng = rand_xoshiro::Xoshiro256PlusPlus;

/// What a training run is given.
#[derive(Clone, Debug)]
pub struct TrainingOptions {
    /// The files of positions, as `sente positions` writes them.
    pub data: Vec<PathBuf>,
    /// Where the trained weights are written.
    pub output: PathBuf,
    /// Passes over the data.
    pub epochs: u32,
    /// Positions a step of the optimiser averages over.
    pub batch: usize,
    /// Adam's step size at the start; it falls to a tenth by the end along a cosine.
    pub learning_rate: f32,
    /// How much of the target is the game's result, the rest the search's score: 0 learns the
    /// scores alone, 1 the results alone.
    pub result_weight: f32,
    /// Whether each epoch sees each position, at random, as it is or mirrored where the game
    /// allows it (chess: the a-file for the h-file).
    pub mirror: bool,
    /// Seeds the first weights and the order of the positions.
    pub seed: u64,
    /// Threads to compute the gradients on.
    pub threads: usize,
    /// Weights to go on training from (a generation's best), in the file the game reads;
    /// `None` starts from random weights.
    pub from: Option<PathBuf>,
    /// The hidden layers' width of a network started afresh, for trainers whose shape is free
    /// (a policy-value network's residual tower: its channels).
    pub hidden: Option<usize>,
    /// A policy-value network started afresh as a residual tower of this many blocks, rather
    /// than a perceptron.
    pub blocks: Option<usize>,
    /// How much of a policy-value network's value target is the search's value of the position,
    /// the rest the game's result (where self-play wrote the search's value).
    pub search_value_weight: f32,
    /// An evaluation network's king buckets (its inputs read by where each side's king
    /// stands): 1 for none, or the game's count; `None`: as the net it goes on from, else 1.
    pub king_buckets: Option<usize>,
}

impl TrainingOptions {
    /// The defaults the shipped nets were trained with, for `data` and `output`.
    pub fn new(data: Vec<PathBuf>, output: PathBuf) -> TrainingOptions {
        TrainingOptions {
            data,
            output,
            epochs: 20,
            batch: 4_096,
            learning_rate: 0.001,
            result_weight: 0.0,
            mirror: true,
            seed: 1,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            from: None,
            hidden: None,
            king_buckets: None,
            blocks: None,
            search_value_weight: 0.0,
        }
    }
}

/// What a training run did.
#[derive(Clone, Debug, Serialize)]
pub struct TrainingReport {
    /// Positions trained on, and held out to measure the loss on.
    pub positions: usize,
    pub validation_positions: usize,
    /// The mean loss on the held-out positions after each epoch.
    pub validation_loss: Vec<f64>,
    /// The mean loss on the trained positions in each epoch.
    pub training_loss: Vec<f64>,
    #[serde(serialize_with = "seconds")]
    pub elapsed: Duration,
    /// Where the weights went, and their size in bytes.
    pub output: PathBuf,
    pub bytes: usize,
}

fn seconds<S: serde::Serializer>(elapsed: &Duration, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_f64((elapsed.as_secs_f64() * 10.0).round() / 10.0)
}

/// Stops a run whose loss is no longer a number (data or a network that overflows, a step size
/// that diverges): nothing it could write would be worth reading.
pub fn check_loss(epoch: u32, training: f64, validation: f64) -> Result<(), LearnError> {
    if training.is_finite() && validation.is_finite() {
        return Ok(());
    }
    Err(LearnError::Diverged {
        epoch,
        training,
        validation,
    })
}

/// One pass over the data, as a trainer tells it when it is done.
#[derive(Clone, Debug)]
pub struct Epoch {
    /// From 1.
    pub number: u32,
    pub training_loss: f64,
    pub validation_loss: f64,
    /// Since the training started.
    pub elapsed: Duration,
}

/// A game's trainer, as its declaration gives it: trains on the options' data, telling
/// `on_epoch` of each pass, and writes the weights.
#[derive(Clone, Copy, Debug)]
pub struct Trainer {
    /// What it trains.
    pub description: &'static str,
    pub train: Train,
    /// The engine evaluation's weights it makes; `None` for a policy-value network, which
    /// `alphazero`'s `net` knob names instead.
    pub weights: Option<LearntWeights>,
}

/// The weights of a learnt evaluation, as the engine plays them and `sente learn` passes them
/// from one generation to the next.
#[derive(Clone, Copy, Debug)]
pub struct LearntWeights {
    /// The evaluation that reads them (`nnue`, `patterns`), by its name in the game's list.
    pub evaluation: &'static str,
    /// The shipped file's name in the game's folder (`sente.nnue`); a generation's file takes
    /// its extension.
    pub file: &'static str,
    /// The shipped weights, as read into the binary.
    pub shipped: &'static [u8],
    /// Reads weights from a file, checked, as a value under a name for the `weights` knob.
    pub load: fn(name: &str, path: &std::path::Path) -> Result<weights::NamedWeights, LearnError>,
    /// The king buckets a net of them may have beside none (1: the game has no such net).
    pub king_buckets: usize,
}

/// A trainer's run: the options, and what to tell of each epoch.
pub type Train = fn(&TrainingOptions, &mut dyn FnMut(&Epoch)) -> Result<TrainingReport, LearnError>;

/// The logistic function.
#[inline]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}
