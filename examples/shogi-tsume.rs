//! Sente's problem sets, timed (docs/shogi.md#mates): by the tsume solver (how many it mates,
//! at the shortest length or not, and its speed), or with `--engine` by the engine's own
//! search, the tsume solver before it left out, to the depth the problem's mate needs and four
//! plies more (how many it proves mated at their length, in what time): run on two builds, what
//! a change to the search finds and how fast.
//!
//!     cargo run --release --features examples --example shogi-tsume [-- [--engine] SET.txt...]
//!
//! A set is a problem a line, the mate's length in plies, a tab and the moves from the start,
//! as `scripts/shogi-tsume.py` writes it; by default `data/shogi/tsume.txt` and
//! `data/shogi/tsume-long.txt`. The solver takes a million nodes at most a problem, the engine
//! ten seconds.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use sente::game::Notation;
use sente::game::Rules;
use sente::games::Shogi;
use sente::games::shogi::mate::{MAX_PLIES, solve_game};
use sente::search::{Budget, EngineParams, Solve};

/// How one problem went: mated, mated at the problem's length, nodes, time.
type Solved = (bool, bool, u64, Duration);

fn main() {
    let mut sets: Vec<String> = std::env::args().skip(1).collect();
    let engine = sets.first().is_some_and(|arg| arg == "--engine");
    if engine {
        sets.remove(0);
    }
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
            let (mated, shortest, nodes, elapsed) = if engine {
                by_engine(&game, plies)
            } else {
                by_solver(&game, plies)
            };
            let row = rows.entry(plies).or_default();
            row.0 += 1;
            row.1 += usize::from(mated);
            row.2 += usize::from(shortest);
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

/// The tsume solver, a million nodes at most.
fn by_solver(game: &Shogi, plies: usize) -> Solved {
    let started = Instant::now();
    let (mate, _, nodes) = solve_game(game, &Budget::unlimited(), 1_000_000, MAX_PLIES);
    let elapsed = started.elapsed();
    let shortest = mate.as_ref().is_some_and(|line| line.len() == plies);
    (mate.is_some(), shortest, nodes, elapsed)
}

/// The engine's search alone (the tsume solver before it left out), to the mate's length and
/// four plies more, ten seconds at most.
fn by_engine(game: &Shogi, plies: usize) -> Solved {
    let params = EngineParams {
        depth: Some(plies as u32 + 4),
        time_limit: Some(Duration::from_secs(10)),
        without: Some("tsume"),
        ..EngineParams::default()
    };
    let started = Instant::now();
    let result = game.engine(&params, &Budget::unlimited());
    let elapsed = started.elapsed();
    let mated = result.exact && result.score > 0.0;
    let shortest = mated && result.plies_to_end == Some(plies as u32);
    (mated, shortest, result.nodes, elapsed)
}
