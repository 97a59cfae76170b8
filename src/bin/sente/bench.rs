//! `sente bench`: the engine kit's games searched to a fixed depth, the node total and the
//! speed printed as engine developers read a bench (Stockfish's words, OpenBench's last line).

use clap::Args;

use sente::api::bench::{BenchRequest, run};

#[derive(Args)]
pub struct BenchArgs {
    /// Threads each search runs on; the node total is the search's signature at one.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: u32,
    /// Each search's transposition table, in MiB.
    #[arg(long, default_value_t = sente::search::DEFAULT_HASH_MB, value_parser = clap::value_parser!(u32).range(1..=65_536))]
    hash: u32,
    /// Every game's depth in place of its own.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
    depth: Option<u32>,
    /// One game on the kit [default: every one].
    #[arg(long)]
    game: Option<String>,
    /// Print the answer as JSON.
    #[arg(long)]
    json: bool,
}

pub fn run_bench(args: BenchArgs) -> Result<(), String> {
    let answer = run(&BenchRequest {
        threads: args.threads,
        hash_mb: args.hash,
        depth: args.depth,
        game: args.game,
    })
    .map_err(|problem| problem.detail)?;
    if args.json {
        super::print_json(&answer)
    } else {
        print!("{}", answer.text());
        Ok(())
    }
}
