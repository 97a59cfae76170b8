//! Othello: perft through Sente's game contract against a direct perft on the same bitboards
//! (the contract's overhead), and perft 10 from the start, the published 24,571,284; and the
//! endgame solver on the FFO test positions (`../shared/data/othello/`), one at a time.
//!
//!   cargo bench --bench othello                 # perft
//!   cargo bench --bench othello -- ffo 40 59    # the solver on FFO #40 to #59
//!   cargo bench --bench othello -- endgames 2026  # 260 drawn endgames, 10 s each
//!   cargo bench --bench othello -- spread 100  # the evaluation's error, ProbCut's statistics
//!
//! Timed runs alternate the two (A B B A), so that a machine that drifts affects both alike.

use std::hint::black_box;
use std::time::{Duration, Instant};

use sente::game::Player;
use sente::game::Rules;
use sente::game::perft::perft;
use sente::games::Othello;
use sente::games::othello::bits::{flips, moves};
use sente::games::othello::solver::Solver;
use sente::search::Budget;

/// perft written straight on the two bitboards, as an Othello program writes it: a pass is a
/// ply, and a finished game one path, as the published figures count.
fn direct(mover: u64, other: u64, depth: u32) -> u64 {
    let squares = moves(mover, other);
    if squares == 0 {
        // A finished game is one path; otherwise the one move is a pass.
        let finished = moves(other, mover) == 0;
        return if finished || depth == 1 {
            1
        } else {
            direct(other, mover, depth - 1)
        };
    }
    if depth == 1 {
        return u64::from(squares.count_ones());
    }
    let mut paths = 0;
    let mut rest = squares;
    while rest != 0 {
        let square = rest.trailing_zeros() as u8;
        rest &= rest - 1;
        let flipped = flips(mover, other, square);
        paths += direct(other ^ flipped, mover | flipped | 1 << square, depth - 1);
    }
    paths
}

fn time(run: impl Fn() -> u64) -> (u64, Duration) {
    let started = Instant::now();
    let nodes = run();
    (nodes, started.elapsed())
}

/// FFO positions #`first` to #`last`, each solved from scratch with its own table on
/// `threads` threads: the exact score and move against the file's, nodes and time.
fn ffo(first: usize, last: usize, threads: usize) {
    let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/othello");
    let mut lines = Vec::new();
    for (file, from) in [
        ("fforum-1-19.obf", 1),
        ("fforum-20-39.obf", 20),
        ("fforum-40-59.obf", 40),
        ("fforum-60-79.obf", 60),
    ] {
        let text = std::fs::read_to_string(folder.join(file)).unwrap_or_else(|error| {
            panic!(
                "{}: {error} (the FFO set is in ../shared)",
                folder.join(file).display()
            )
        });
        for (index, line) in text
            .lines()
            .filter(|line| !line.trim().is_empty())
            .enumerate()
        {
            lines.push((from + index, line.to_owned()));
        }
    }
    println!("| # | empties | score | best (FFO) | Sente | nodes | time s | M nodes/s |");
    println!("|---|---|---|---|---|---|---|---|");
    let (mut nodes, mut time) = (0, Duration::ZERO);
    for (number, line) in lines
        .iter()
        .filter(|(number, _)| (first..=last).contains(number))
    {
        let position: Othello = line.parse().expect("an FFO line");
        let scores: Vec<(&str, i32)> = line
            .split(';')
            .skip(1)
            .filter_map(|entry| {
                let (square, score) = entry.trim().split_once(':')?;
                Some((square, score.parse().ok()?))
            })
            .collect();
        let best_score = scores[0].1;
        let best: Vec<String> = scores
            .iter()
            .filter(|(_, score)| *score == best_score)
            .map(|(square, _)| square.to_ascii_lowercase())
            .collect();
        let started = Instant::now();
        let solved = Solver::new(&Budget::unlimited(), None)
            .with_threads(threads)
            .solve(&position);
        let elapsed = started.elapsed();
        let mv = position.notation(solved.best).into_text();
        assert_eq!(solved.margin, best_score, "#{number}");
        assert!(best.contains(&mv), "#{number}: {mv} is not among {best:?}");
        nodes += solved.nodes;
        time += elapsed;
        println!(
            "| {number} | {} | {:+} | {} | {mv} | {} | {:.2} | {:.1} |",
            position.empties().count_ones(),
            solved.margin,
            best.join("/"),
            solved.nodes,
            elapsed.as_secs_f64(),
            solved.nodes as f64 / elapsed.as_secs_f64() / 1e6
        );
    }
    println!(
        "| #{first}-#{last} | | | | | {nodes} | {:.2} | {:.1} |",
        time.as_secs_f64(),
        nodes as f64 / time.as_secs_f64() / 1e6
    );
}

/// Measures ProbCut's statistics: `count` endgames of each of 10 to 22 empties (even), solved
/// exactly, against the evaluation and the shallow search (and the learnt patterns).
fn spread(count: usize) {
    use sente::games::othello::solver::spread;
    println!(
        "| empties | positions | depth | sigma, evaluation | sigma, shallow search | sigma, patterns |"
    );
    println!("|---|---|---|---|---|---|");
    let (_, evaluation, deep) = spread::fit(&[10, 12, 14, 16, 18, 20, 22], count, 1, |s| {
        println!(
            "| {} | {} | {} | {:.2} | {:.2} | {:.2} |",
            s.empties,
            s.positions,
            spread::depth(s.empties),
            s.evaluation,
            s.deep,
            s.patterns
        );
    });
    println!(
        "sigma = a + b * empties: evaluation ({:.2}, {:.3}), shallow search ({:.2}, {:.3})",
        evaluation.0, evaluation.1, deep.0, deep.1
    );
}

/// 20 endgames of each of 12 to 24 empties (260), drawn with `seed` (never the FFO positions
/// nor the seeds the solver was tuned with), each solved with at most `limit` seconds: how
/// many are exact within it, and the slowest of each number of empties.
fn endgames(seed: u64, limit: f64) {
    use sente::games::othello::solver::samples;
    println!("| empties | endgames | exact within {limit} s | slowest s | its nodes | mean s |");
    println!("|---|---|---|---|---|---|");
    let (mut all, mut exact, mut slowest) = (0, 0, 0.0f64);
    for empties in 12..=24 {
        let drawn = samples::endgames(seed + u64::from(empties), empties, 20);
        let (mut solved, mut worst, mut worst_nodes, mut total) = (0, 0.0f64, 0, 0.0);
        for position in &drawn {
            let started = Instant::now();
            let deadline = started + Duration::from_secs_f64(limit);
            let mut solver = Solver::new(&Budget::unlimited(), Some(deadline));
            let result = solver.solve(position);
            let elapsed = started.elapsed().as_secs_f64();
            if solver.stopped_by.is_none() {
                solved += 1;
            }
            if elapsed > worst {
                (worst, worst_nodes) = (elapsed, result.nodes);
            }
            total += elapsed;
        }
        println!(
            "| {empties} | {} | {solved} | {worst:.2} | {worst_nodes} | {:.3} |",
            drawn.len(),
            total / drawn.len() as f64
        );
        all += drawn.len();
        exact += solved;
        slowest = slowest.max(worst);
    }
    println!("| 12-24 | {all} | {exact} | {slowest:.2} | | |");
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|arg| !arg.starts_with("--"))
        .collect();
    if args.first().map(String::as_str) == Some("ffo") {
        let number = |index: usize, default| {
            args.get(index)
                .and_then(|n: &String| n.parse().ok())
                .unwrap_or(default)
        };
        ffo(number(1, 40), number(2, 59), number(3, 1));
        return;
    }
    if args.first().map(String::as_str) == Some("endgames") {
        let seed = args.get(1).and_then(|n| n.parse().ok()).unwrap_or(2026);
        endgames(seed, 10.0);
        return;
    }
    if args.first().map(String::as_str) == Some("spread") {
        let count = args.get(1).and_then(|n| n.parse().ok()).unwrap_or(100);
        spread(count);
        return;
    }
    let start = Othello::start();
    assert_eq!(start.side_to_move(), Player::X);
    let (mover, other) = start.sides();
    println!("perft: Sente's contract against a direct bitboard perft, A B B A, best of 3 rounds");
    for depth in [9, 10] {
        let contract = || perft(black_box(&start), depth);
        let own = || direct(black_box(mover), black_box(other), depth);
        let (mut ours, mut theirs) = (Duration::MAX, Duration::MAX);
        let mut leaves = 0;
        for _ in 0..3 {
            let (a, first) = time(contract);
            let (b, second) = time(own);
            let (c, third) = time(own);
            let (d, fourth) = time(contract);
            assert!(a == b && b == c && c == d, "depth {depth}: {a} {b}");
            leaves = a;
            ours = ours.min((first + fourth) / 2);
            theirs = theirs.min((second + third) / 2);
        }
        println!(
            "  start depth {depth} ({leaves} leaves): contract {:.1} ms ({:.0} M leaves/s), \
             direct {:.1} ms, overhead {:+.1}%",
            ours.as_secs_f64() * 1e3,
            leaves as f64 / ours.as_secs_f64() / 1e6,
            theirs.as_secs_f64() * 1e3,
            (ours.as_secs_f64() / theirs.as_secs_f64() - 1.0) * 100.0
        );
    }
}
