//! Othello: perft through Sente's game contract against a direct perft on the same bitboards
//! (the contract's overhead), and perft 10 from the start, the published 24,571,284.
//!
//!   cargo bench --bench othello
//!
//! Timed runs alternate the two (A B B A), so that a machine that drifts affects both alike.

use std::hint::black_box;
use std::time::{Duration, Instant};

use sente::game::perft::perft;
use sente::game::{Game, Player};
use sente::games::Othello;
use sente::games::othello::bits::{flips, moves};

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

fn main() {
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
