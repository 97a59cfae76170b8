//! `sente perft`: the move paths of a position counted, to check the rules against published
//! figures.

use std::time::Instant;

use clap::Args;

use super::{flagged, print_json};

#[derive(Args)]
pub(crate) struct PerftArgs {
    /// The position, in the game's text form (a FEN for chess); it may start with '-' (an
    /// Othello board).
    #[arg(allow_hyphen_values = true)]
    board: String,
    /// Plies to count.
    depth: u32,
    /// The game [default: the first in GET /games's order whose boards read this one: chess for
    /// a FEN].
    #[arg(long)]
    game: Option<String>,
}

pub(crate) fn run(args: PerftArgs) -> Result<(), String> {
    let game = match &args.game {
        Some(name) => sente::api::game(Some(name)).map_err(flagged)?,
        None => sente::api::perft::game_of_board(&args.board).ok_or_else(|| {
            format!(
                "no game reads {:?} as a board: give --game, and the board in its text form",
                args.board
            )
        })?,
    };
    let started = Instant::now();
    let nodes = sente::api::perft::perft(&game, &args.board, args.depth)
        .map_err(|problem| problem.detail)?;
    let elapsed = started.elapsed();
    print_json(&serde_json::json!({
        "game": game.name,
        "board": args.board,
        "depth": args.depth,
        "nodes": nodes,
        "elapsed_us": elapsed.as_micros() as u64,
        "nodes_per_second": (nodes as f64 / elapsed.as_secs_f64().max(1e-9)).round() as u64,
    }))
}
