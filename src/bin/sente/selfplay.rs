//! `sente selfplay`: a policy-value network plays a game against itself and writes the
//! positions `sente train` learns from; `--shard I/N` plays a share of a run, as tournaments
//! are split over machines.

use crate::Failure;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use clap::Args;

use sente::learn::run::selfplay::{SelfPlayRequest, run};

#[derive(Args)]
pub struct SelfPlayArgs {
    /// The game, one of those GET /games lists.
    #[arg(long)]
    game: String,
    /// The network's file, as `sente train` writes it [default: the game's best shipped
    /// network, or a new random one where it ships none: the first generation].
    #[arg(long)]
    net: Option<PathBuf>,
    /// Games in the whole run (all shards together).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    games: u64,
    /// Simulations a move.
    #[arg(long, default_value_t = 400, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    simulations: u32,
    /// Plies whose move is drawn in proportion to visits (exploration); the most visited after.
    #[arg(long, default_value_t = 8)]
    temperature_plies: usize,
    /// The Dirichlet noise's alpha on the root's priors (a quarter of each prior is noise).
    #[arg(long, default_value_t = 1.0)]
    noise_alpha: f64,
    #[command(flatten)]
    tricks: TricksArgs,
    /// Seeds every game (game I from the seed and I, whichever shard plays it).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Play shard I of N (I from 0): a share of the run's games.
    #[arg(long, value_name = "I/N")]
    shard: Option<String>,
    /// Threads to play on [default: all cores].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=256))]
    threads: Option<u64>,
    /// Where to write the positions.
    #[arg(long)]
    output: PathBuf,
}

pub fn run_selfplay(args: SelfPlayArgs) -> Result<(), Failure> {
    if !(args.noise_alpha > 0.0 && args.noise_alpha <= 100.0) {
        return Err(format!(
            "--noise-alpha is above 0 and at most 100, got {}",
            args.noise_alpha
        )
        .into());
    }
    let games = 0..args.games;
    let games = match &args.shard {
        None => games,
        Some(text) => {
            let (index, count) = crate::tournament::parse_shard(text)?;
            sente::tournament::shards::shard(&games, index, count)
        }
    };
    let threads = args
        .threads
        .map(|threads| threads as usize)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let total = games.end - games.start;
    let played = AtomicU64::new(0);
    let started = Instant::now();
    let request = SelfPlayRequest {
        game: args.game,
        net: args.net,
        games,
        simulations: args.simulations,
        temperature_plies: args.temperature_plies,
        noise_alpha: args.noise_alpha,
        tricks: args.tricks.tricks(),
        seed: args.seed,
        threads,
    };
    let on_game = || {
        let done = played.fetch_add(1, Ordering::Relaxed) + 1;
        if done.is_multiple_of(100) || done == total {
            eprintln!(
                "{done} of {total} games, {:.1} s",
                started.elapsed().as_secs_f64()
            );
        }
    };
    // Written whole or not at all: a run that fails (a network that does not read, even the
    // output's own file) leaves the old file as it was.
    let report = sente::files::write_atomically(&args.output, |out| run(request, out, &on_game))?;
    Ok(crate::print_json(&report)?)
}

/// KataGo's self-play tricks (docs/alphazero.md measures each).
#[derive(Args, Clone, Debug)]
pub struct TricksArgs {
    /// Playout cap randomization: most moves searched with this many simulations, without
    /// noise, and not written; a share (--full-share) with --simulations, written.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub fast_simulations: Option<u32>,
    /// The share of moves searched in full where --fast-simulations is given.
    #[arg(long, default_value_t = 0.25)]
    pub full_share: f64,
    /// Forced playouts at the root of full searches, and the policy's target pruned of them.
    #[arg(long)]
    pub forced_playouts: bool,
    /// First play urgency: an unvisited move's Q is its parent's less FPU x sqrt(the visited
    /// moves' priors); -1: 0, as AlphaZero's paper.
    #[arg(long, default_value_t = sente::search::alphazero::DEFAULT_FPU, allow_negative_numbers = true)]
    pub fpu: f64,
}

impl TricksArgs {
    pub fn tricks(&self) -> sente::search::alphazero::selfplay::Tricks {
        sente::search::alphazero::selfplay::Tricks {
            fast_simulations: self.fast_simulations,
            full_share: self.full_share,
            forced_playouts: self.forced_playouts,
            fpu: self.fpu,
        }
    }
}
