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
    /// A file of positions of --game, one a line in its text form (a FEN for chess), searched
    /// in place of its bench's.
    #[arg(long, requires = "game")]
    positions: Option<std::path::PathBuf>,
    /// Print the answer as JSON.
    #[arg(long)]
    json: bool,
}

pub fn run_bench(args: BenchArgs) -> Result<(), String> {
    let positions = match &args.positions {
        None => None,
        Some(path) => Some(
            std::fs::read_to_string(path)
                .map_err(|error| format!("--positions {}: {error}", path.display()))?
                .lines()
                .map(str::trim)
                .filter(|line| !line.is_empty() && !line.starts_with('#'))
                .map(str::to_owned)
                .collect(),
        ),
    };
    let answer = run(&BenchRequest {
        threads: args.threads,
        hash_mb: args.hash,
        depth: args.depth,
        game: args.game,
        positions,
    })
    .map_err(|problem| problem.detail)?;
    if args.json {
        super::print_json(&answer)
    } else {
        print!("{}", answer.text());
        Ok(())
    }
}
