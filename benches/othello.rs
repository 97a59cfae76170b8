//! Othello: perft through Sente's game contract against a direct perft on the same bitboards
//! (the contract's overhead), and perft 10 from the start, the published 24,571,284; and the
//! endgame solver on the FFO test positions (`../shared/data/othello/`), one at a time.
//!
//!   cargo bench --bench othello                 # perft
//!   cargo bench --bench othello -- ffo 40 59    # the solver on FFO #40 to #59
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

/// FFO positions #`first` to #`last`, each solved from scratch with its own table: the exact
/// score and move against the file's, nodes and time.
fn ffo(first: usize, last: usize) {
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
        let solved = Solver::new(&Budget::unlimited(), None).solve(&position);
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
        ffo(number(1, 40), number(2, 59));
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
