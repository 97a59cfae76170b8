//! `sente positions`: the training positions of recorded games, a line each.

use crate::Failure;
use clap::Args;
use sente::learn::LearnError;

#[derive(Args)]
pub(crate) struct PositionsArgs {
    /// The files of recorded games.
    #[arg(required = true)]
    files: Vec<std::path::PathBuf>,
    /// Write the positions to this file rather than to stdout.
    #[arg(long)]
    output: Option<std::path::PathBuf>,
}

/// The training positions of the files' games, to `--output` or stdout; what was written, on
/// stderr.
pub(crate) fn run(args: PositionsArgs) -> Result<(), Failure> {
    use std::io::Write;
    let harvest = |out: &mut (dyn Write + Send)| {
        let mut total = sente::learn::run::positions::Tally::default();
        for path in &args.files {
            let text = sente::files::read_json(path, "a tournament's answer or a shard's results")?;
            let (game, records) =
                sente::learn::run::positions::read(&text).map_err(|error| error.in_file(path))?;
            let tally = sente::learn::run::positions::write(&game, &records, out)
                .map_err(|error| error.in_file(path))?;
            total.games += tally.games;
            total.undecided += tally.undecided;
            total.positions += tally.positions;
        }
        out.flush().map_err(|source| LearnError::Write {
            what: "writing the positions",
            source,
        })?;
        Ok::<_, LearnError>(total)
    };
    // A file is written whole or not at all: a run that fails leaves the old one.
    let total = match &args.output {
        Some(path) => sente::files::write_atomically(path, harvest)
            .map_err(|error| format!("--output {error}"))?,
        None => harvest(&mut std::io::BufWriter::new(std::io::stdout()))?,
    };
    eprintln!(
        "{} positions from {} games ({} left out: capped, forfeited or failed)",
        total.positions, total.games, total.undecided
    );
    Ok(())
}
