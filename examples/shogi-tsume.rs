//! The tsume solver on Sente's problem sets, timed: how many it mates, at the shortest length or
//! not, and its speed (docs/shogi.md#mates).
//!
//!     cargo run --release --example shogi-tsume [-- SET.txt...]
//!
//! A set is a problem a line, the mate's length in plies, a tab and the moves from the start,
//! as `scripts/shogi-tsume.py` writes it; by default `data/shogi/tsume.txt` and
//! `data/shogi/tsume-long.txt`. Each problem is solved once, with a million nodes at most.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use sente::game::Notation;
use sente::game::Rules;
use sente::games::Shogi;
use sente::games::shogi::mate::{MAX_PLIES, solve_game};
use sente::search::Budget;

fn main() {
    let mut sets: Vec<String> = std::env::args().skip(1).collect();
    if sets.is_empty() {
        sets = vec![
            "data/shogi/tsume.txt".to_owned(),
            "data/shogi/tsume-long.txt".to_owned(),
        ];
    }
    // By the mate's length: problems, mated, mated at that length, nodes, time.
    let mut rows: BTreeMap<usize, (usize, usize, usize, u64, Duration)> = BTreeMap::new();
    for set in &sets {
        let text = match std::fs::read_to_string(set) {
            Ok(text) => text,
            Err(error) => {
                eprintln!("{set}: {error}: left out");
                continue;
            }
        };
        for line in text
            .lines()
            .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        {
            let (plies, moves) = line.split_once('\t').expect("plies, a tab, the moves");
            let plies: usize = plies.parse().expect("plies");
            let mut game = Shogi::start();
            for mv in moves.split_whitespace() {
                let mv = game.read_move(&Notation::Text(mv.into())).expect(mv);
                game = game.play(mv);
            }
            let started = Instant::now();
            let (mate, _, nodes) = solve_game(&game, &Budget::unlimited(), 1_000_000, MAX_PLIES);
            let elapsed = started.elapsed();
            let row = rows.entry(plies).or_default();
            row.0 += 1;
            row.1 += usize::from(mate.is_some());
            row.2 += usize::from(mate.as_ref().is_some_and(|line| line.len() == plies));
            row.3 += nodes;
            row.4 += elapsed;
        }
    }
    println!("| mate in | problems | mated | at that length | nodes | time | nodes/s |");
    println!("|---|---|---|---|---|---|---|");
    for (plies, (problems, mated, shortest, nodes, time)) in rows {
        println!(
            "| {plies} plies | {problems} | {mated} | {shortest} | {nodes} | {:.3} s | {:.0} |",
            time.as_secs_f64(),
            nodes as f64 / time.as_secs_f64()
        );
    }
}
