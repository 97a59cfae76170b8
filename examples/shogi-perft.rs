//! perft through Sente's game contract beside the rsshogi crate's own perft, side by side in one
//! run: the contract's cost over the crate's (docs/shogi.md#perft).
//!
//!     cargo run --release --features examples --example shogi-perft [-- ROUNDS]
//!
//! Each position is counted ROUNDS times (default 5) by each, alternately, and the best time of
//! each is kept.

use std::time::{Duration, Instant};

use sente::game::perft::perft;
use sente::games::Shogi;

fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .and_then(|rounds| rounds.parse().ok())
        .unwrap_or(5);
    let positions = [
        ("the start", sente::games::shogi::START, 5),
        (
            "a middle game, pieces in hand",
            "ln1g3nl/1r1sk1gs1/p1ppppbpp/6p2/9/4P1P2/PPSP1P1PP/1B2G1SR1/LN1GK2NL b Pp 1",
            4,
        ),
        (
            "the start, a piece of each kind taken into hand",
            "4kgsnl/9/1pppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b RBGSNLP 1",
            3,
        ),
    ];
    println!("| position | depth | nodes | crate | contract | contract / crate |");
    println!("|---|---|---|---|---|---|");
    for (name, sfen, depth) in positions {
        let game: Shogi = sfen.parse().expect("a SFEN");
        let mut best = [Duration::MAX; 2];
        let mut counts = [0; 2];
        for _ in 0..rounds {
            let mut position = game.position().clone();
            let started = Instant::now();
            counts[0] = rsshogi::board::perft::compute_perft(&mut position, depth as u8);
            best[0] = best[0].min(started.elapsed());
            let started = Instant::now();
            counts[1] = perft(&game, depth);
            best[1] = best[1].min(started.elapsed());
        }
        assert_eq!(counts[0], counts[1], "{name}");
        println!(
            "| {name} | {depth} | {} | {:.3} s | {:.3} s | {:.2} |",
            counts[0],
            best[0].as_secs_f64(),
            best[1].as_secs_f64(),
            best[1].as_secs_f64() / best[0].as_secs_f64()
        );
    }
}
