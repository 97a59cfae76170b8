//! Scores Connect Four's alphazero against Pons' solver on his test sets
//! (`../shared/data/connect4/`, docs/alphazero.md): for each set, the share of positions whose
//! move is optimal (it keeps the position's win, draw or loss, as the solver values every
//! move) for the raw policy's favourite move and for alphazero at each time given; and how
//! often the value head's sign agrees with the solver's result (above 1/3 a win, below -1/3 a
//! loss, between a draw).
//!
//!     cargo run --release --features examples --example score-connect4 -- [--net FILE] [--per-set N]
//!         [--times-ms 100,1000] [--threads T] [--data DIR]
//!
//! N positions of each set (50 by default), spread evenly over it; each thread takes its share
//! of the positions, so give every thread a core of its own for the timed searches.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use sente::game::Outcome;
use sente::game::Rules;
use sente::games::ConnectFour;
use sente::games::connect_four::solver::Solver;
use sente::learn::policy_value::PolicyValueNet;
use sente::learn::weights::NamedWeights;
use sente::search::alphazero::{self, networks};
use sente::search::{Algorithm, AlphaZeroParams, Strategy, search};

const SETS: [&str; 6] = [
    "Test_L3_R1",
    "Test_L2_R1",
    "Test_L2_R2",
    "Test_L1_R1",
    "Test_L1_R2",
    "Test_L1_R3",
];

struct Options {
    net: Option<PathBuf>,
    per_set: usize,
    times: Vec<u64>,
    threads: usize,
    data: PathBuf,
}

fn options() -> Options {
    let mut options = Options {
        net: None,
        per_set: 50,
        times: vec![100, 1000],
        threads: 2,
        data: PathBuf::from("../shared/data/connect4"),
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args
            .next()
            .unwrap_or_else(|| panic!("{flag} wants a value"));
        match flag.as_str() {
            "--net" => options.net = Some(value.into()),
            "--per-set" => options.per_set = value.parse().expect("--per-set N"),
            "--times-ms" => {
                options.times = value
                    .split(',')
                    .filter(|ms| !ms.is_empty())
                    .map(|ms| ms.parse().expect("--times-ms 100,1000"))
                    .collect()
            }
            "--threads" => options.threads = value.parse().expect("--threads T"),
            "--data" => options.data = value.into(),
            other => panic!("unknown flag {other}"),
        }
    }
    options
}

/// What one position came to: the raw policy's move optimal, the value head's sign right, and
/// alphazero's move optimal at each time.
struct Scored {
    /// Whether the position is lost: then every move is, and it is not counted for the moves.
    lost: bool,
    policy: bool,
    value: bool,
    timed: Vec<bool>,
}

fn score(position: &ConnectFour, known: i32, read: Option<&NamedWeights>, times: &[u64]) -> Scored {
    let net = match read.and_then(NamedWeights::get::<Arc<PolicyValueNet>>) {
        Some(net) => Arc::clone(net),
        None => networks::network::<ConnectFour>(0).unwrap(),
    };
    // Optimal: the move keeps the position's result, as a weak solver of the child tells (in
    // a lost position every move is, and such positions are not counted for the moves).
    let mut solver = Solver::default();
    let mut optimal = |mv: u8| {
        let child = position.play(mv);
        if child.outcome().is_over() {
            return child.outcome() != Outcome::Draw || known == 0;
        }
        match known.signum() {
            1 => !solver.above(&child, -1).unwrap(),
            0 => !solver.above(&child, 0).unwrap(),
            _ => true,
        }
    };
    let (favourite, value) = alphazero::favourite(&net, position);
    let sign = |value: f64| {
        if value > 1.0 / 3.0 {
            1
        } else if value < -1.0 / 3.0 {
            -1
        } else {
            0
        }
    };
    let timed = times
        .iter()
        .map(|&ms| {
            let strategy = Strategy {
                time_limit: Some(Duration::from_millis(ms)),
                alphazero: AlphaZeroParams {
                    simulations: u32::MAX,
                    read: read.cloned(),
                    ..AlphaZeroParams::DEFAULT
                },
                ..Strategy::with_defaults(Algorithm::AlphaZero)
            };
            optimal(search(position, &strategy, 0).unwrap().best_move)
        })
        .collect();
    Scored {
        lost: known < 0,
        policy: optimal(favourite),
        value: sign(f64::from(value)) == known.signum(),
        timed,
    }
}

fn main() {
    let options = options();
    // The network scored: the shipped best, or the file's, played in its place.
    let read = options
        .net
        .as_ref()
        .map(|path| networks::read::<ConnectFour>("scored", path).expect("a connect4 network"));
    println!(
        "| set | positions | raw policy optimal | value head agrees |{}",
        options
            .times
            .iter()
            .map(|ms| format!(" alphazero {ms} ms optimal |"))
            .collect::<String>()
    );
    println!("|---|---|---|---|{}", "---|".repeat(options.times.len()));
    let mut totals = (0, 0, 0, vec![0; options.times.len()], 0);
    for set in SETS {
        let text = std::fs::read_to_string(options.data.join(set))
            .unwrap_or_else(|error| panic!("{}: {error}", options.data.join(set).display()));
        let lines: Vec<&str> = text.lines().collect();
        let step = (lines.len() / options.per_set.max(1)).max(1);
        let positions: Vec<(ConnectFour, i32)> = lines
            .iter()
            .step_by(step)
            .take(options.per_set)
            .map(|line| {
                let mut fields = line.split_whitespace();
                let moves = fields.next().expect("moves");
                let known = fields
                    .next()
                    .and_then(|score| score.parse().ok())
                    .expect("a score");
                let position = ConnectFour::from_pons_moves(moves).expect("a position of the set");
                (position, known)
            })
            .collect();
        let share = positions.len().div_ceil(options.threads.max(1));
        let scored: Vec<Scored> = std::thread::scope(|scope| {
            let handles: Vec<_> = positions
                .chunks(share)
                .map(|part| {
                    let (times, read) = (&options.times, read.as_ref());
                    scope.spawn(move || {
                        part.iter()
                            .map(|(position, known)| score(position, *known, read, times))
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            handles
                .into_iter()
                .flat_map(|handle| handle.join().unwrap())
                .collect()
        });
        let count = scored.len();
        let open = scored.iter().filter(|s| !s.lost).count();
        let policy = scored.iter().filter(|s| !s.lost && s.policy).count();
        let value = scored.iter().filter(|s| s.value).count();
        let timed: Vec<usize> = (0..options.times.len())
            .map(|t| scored.iter().filter(|s| !s.lost && s.timed[t]).count())
            .collect();
        let percent = |n: usize, of: usize| format!("{:.1}%", 100.0 * n as f64 / of.max(1) as f64);
        println!(
            "| {set} | {count} ({open} not lost) | {} | {} |{}",
            percent(policy, open),
            percent(value, count),
            timed
                .iter()
                .map(|&n| format!(" {} |", percent(n, open)))
                .collect::<String>()
        );
        totals.4 += open;
        totals.0 += count;
        totals.1 += policy;
        totals.2 += value;
        for (total, n) in totals.3.iter_mut().zip(&timed) {
            *total += n;
        }
    }
    let percent = |n: usize, of: usize| format!("{:.1}%", 100.0 * n as f64 / of.max(1) as f64);
    println!(
        "| all | {} ({} not lost) | {} | {} |{}",
        totals.0,
        totals.4,
        percent(totals.1, totals.4),
        percent(totals.2, totals.0),
        totals
            .3
            .iter()
            .map(|&n| format!(" {} |", percent(n, totals.4)))
            .collect::<String>()
    );
}
