//! `sente train`: a game's trainer (chess's and shogi's evaluation networks, Othello's pattern
//! weights) on positions that `sente positions` wrote, its progress an epoch a line on standard error, its report as JSON.

use crate::Failure;
use std::path::PathBuf;

use clap::Args;

use sente::learn::{Epoch, TrainingOptions};

#[derive(Args)]
pub struct TrainArgs {
    /// The files of positions, as `sente positions` writes them.
    #[arg(required = true)]
    data: Vec<PathBuf>,
    /// Where to write the trained weights.
    #[arg(long)]
    output: PathBuf,
    /// The game whose trainer runs: chess's or shogi's evaluation network, Othello's pattern
    /// weights, or any other game's policy-value network.
    #[arg(long, default_value = "chess")]
    game: String,
    /// Passes over the data.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=1000))]
    epochs: u32,
    /// Positions a step averages over.
    #[arg(long, default_value_t = 4_096, value_parser = clap::value_parser!(u64).range(1..=1_048_576))]
    batch: u64,
    /// Adam's first step size, falling to a tenth by the end.
    #[arg(long, default_value_t = 0.001)]
    learning_rate: f32,
    /// How much of each target is the game's result (the rest is the search's score), 0 to 1.
    #[arg(long, default_value_t = 0.0)]
    result_weight: f32,
    /// Train on each position as it is only, never mirrored (chess's a-file for h-file, shogi's file 1 for file 9).
    #[arg(long)]
    no_mirror: bool,
    /// Seeds the first weights and the order of the positions.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Threads to train on [default: all cores].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=256))]
    threads: Option<u64>,
    /// Weights to go on training (the current generation's, in the file the game reads:
    /// a network's, Othello's patterns), rather than new random ones.
    #[arg(long)]
    from: Option<PathBuf>,
    /// The hidden layers' width of a new policy-value network [default: 128], or its residual
    /// tower's channels [default: 32].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=2048))]
    hidden: Option<u64>,
    /// A new policy-value network as a residual tower of this many blocks of 3x3 convolutions
    /// over the board, rather than a perceptron.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=20))]
    blocks: Option<u64>,
    /// An evaluation network whose inputs are read by where each side's own king stands, in
    /// the game's king buckets (shogi: 6), or 1 for none [default: as the net --from, else 1].
    /// A net without them goes on with them as its rows copied to every bucket.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=64))]
    king_buckets: Option<u64>,
    /// Train AlphaZero's policy-value network from `sente selfplay`'s lines, for a game whose
    /// trainer is another (Othello's patterns).
    #[arg(long)]
    network: bool,
    /// How much of a policy-value network's value target is the search's value of the
    /// position (where self-play wrote it), 0 to 1; the rest is the game's result.
    #[arg(long, default_value_t = 0.0)]
    search_value_weight: f32,
}

pub fn run(args: TrainArgs) -> Result<(), Failure> {
    let trainer = sente::api::catalogue::trainer(&args.game, args.network)?;
    if !(0.0..=1.0).contains(&args.result_weight) {
        return Err(format!(
            "--result-weight is between 0 and 1, got {}",
            args.result_weight
        )
        .into());
    }
    if !(args.learning_rate > 0.0 && args.learning_rate <= 1.0) {
        return Err(format!(
            "--learning-rate is above 0 and at most 1, got {}",
            args.learning_rate
        )
        .into());
    }
    let mut options = TrainingOptions::new(args.data, args.output);
    options.epochs = args.epochs;
    options.batch = args.batch as usize;
    options.learning_rate = args.learning_rate;
    options.result_weight = args.result_weight;
    options.seed = args.seed;
    options.mirror = !args.no_mirror;
    options.from = args.from;
    options.hidden = args.hidden.map(|hidden| hidden as usize);
    options.blocks = args.blocks.map(|blocks| blocks as usize);
    options.search_value_weight = args.search_value_weight;
    options.king_buckets = args.king_buckets.map(|buckets| buckets as usize);
    if let Some(threads) = args.threads {
        options.threads = threads as usize;
    }
    let report = (trainer.train)(&options, &mut |epoch: &Epoch| {
        eprintln!(
            "epoch {:>3}: training loss {:.6}, validation loss {:.6}, {:.1} s",
            epoch.number,
            epoch.training_loss,
            epoch.validation_loss,
            epoch.elapsed.as_secs_f64()
        );
    })?;
    Ok(crate::print_json(&report)?)
}
