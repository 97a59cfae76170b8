//! Pons' benchmark protocol: solve every position of a test set (table cleared for each),
//! report the mean nodes and time per position, beside his published figures.
//!
//!     cargo bench --bench connect_four                     # every set, every position
//!     cargo bench --bench connect_four -- Test_L1_R3=20    # the first 20 of a set
//!
//! A plain harness rather than criterion: one pass over 1,000 positions is the measurement.

use std::path::PathBuf;
use std::time::Instant;

use sente::games::ConnectFour;
use sente::games::connect_four::solver::Solver;

/// (file, name, Pons' mean nodes, Pons' mean time in microseconds).
const SETS: [(&str, &str, f64, f64); 6] = [
    ("Test_L3_R1", "End-Easy", 51.28, 4.568),
    ("Test_L2_R1", "Middle-Easy", 449.6, 37.45),
    ("Test_L2_R2", "Middle-Medium", 39_900.0, 3_212.0),
    ("Test_L1_R1", "Begin-Easy", 3_298.0, 254.6),
    ("Test_L1_R2", "Begin-Medium", 1_201_000.0, 96_630.0),
    ("Test_L1_R3", "Begin-Hard", 65_920_000.0, 5_490_000.0),
];

fn main() {
    // `cargo bench` passes `--bench`; the other arguments are SET or SET=COUNT.
    let limits: Vec<(String, Option<usize>)> = std::env::args()
        .skip(1)
        .filter(|arg| !arg.starts_with("--"))
        .map(|arg| match arg.split_once('=') {
            Some((set, count)) => (set.to_owned(), count.parse().ok()),
            None => (arg, None),
        })
        .collect();
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data/connect4");
    // The table is made once, outside the timings, as a running service makes it once.
    drop(Solver::default());
    println!("| set | positions | mean nodes | Pons | mean time | Pons |");
    println!("|---|---|---|---|---|---|");
    for (file, name, pons_nodes, pons_us) in SETS {
        let limit = if limits.is_empty() {
            None
        } else {
            match limits.iter().find(|(set, _)| set == file) {
                Some((_, limit)) => *limit,
                None => continue,
            }
        };
        let text = std::fs::read_to_string(dir.join(file))
            .unwrap_or_else(|error| panic!("{}: {error}", dir.join(file).display()));
        let positions: Vec<(ConnectFour, i32)> = text
            .lines()
            .take(limit.unwrap_or(usize::MAX))
            .map(|line| {
                let (moves, score) = line.split_once(' ').unwrap();
                (
                    ConnectFour::from_pons_moves(moves).unwrap(),
                    score.parse().unwrap(),
                )
            })
            .collect();
        let mut nodes = 0u64;
        let started = Instant::now();
        for (position, expected) in &positions {
            let mut solver = Solver::default();
            assert_eq!(solver.solve(position), Some(*expected));
            nodes += solver.nodes;
        }
        let seconds = started.elapsed().as_secs_f64();
        let n = positions.len() as f64;
        println!(
            "| {name} ({file}) | {} | {:.1} | {} | {} | {} |",
            positions.len(),
            nodes as f64 / n,
            pons_nodes,
            micros(seconds * 1e6 / n),
            micros(pons_us),
        );
    }
}

fn micros(us: f64) -> String {
    if us >= 1e6 {
        format!("{:.2} s", us / 1e6)
    } else if us >= 1e3 {
        format!("{:.2} ms", us / 1e3)
    } else {
        format!("{us:.1} us")
    }
}
