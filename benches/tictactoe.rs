//! The search algorithms' benchmarks on tic-tac-toe: full-tree searches, MCTS throughput, and a
//! tournament. Nodes per second are printed beside criterion's times, since the README states
//! them.

use std::hint::black_box;
use std::time::Instant;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use sente::game::Rules;
use sente::games::TicTacToe;
use sente::search::{Algorithm, MctsParams, Strategy, search};
use sente::tournament::Tournament;

/// Prints nodes per second over a few timed runs (criterion reports time, not nodes).
fn report_rate(name: &str, strategy: &Strategy) {
    let runs = 20;
    let started = Instant::now();
    let mut nodes = 0;
    for seed in 0..runs {
        nodes += search(&TicTacToe::start(), strategy, seed).unwrap().nodes;
    }
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "{name}: {} nodes per search, {:.1} M nodes/s",
        nodes / runs,
        nodes as f64 / seconds / 1e6
    );
}

fn searches(c: &mut Criterion) {
    let empty = TicTacToe::start();
    let mut group = c.benchmark_group("tictactoe");
    for (name, strategy) in [
        (
            "minimax full tree",
            Strategy::with_defaults(Algorithm::Minimax),
        ),
        (
            "negamax full tree",
            Strategy::with_defaults(Algorithm::Negamax),
        ),
        (
            "alphabeta empty board",
            Strategy::with_defaults(Algorithm::AlphaBeta),
        ),
    ] {
        report_rate(name, &strategy);
        group.bench_function(name, |b| b.iter(|| search(black_box(&empty), &strategy, 0)));
    }
    let mcts = Strategy::mcts(MctsParams {
        simulations: 10_000,
        ..MctsParams::default()
    });
    report_rate("mcts 10000 simulations", &mcts);
    group.throughput(Throughput::Elements(10_000));
    group.bench_function("mcts 10000 simulations", |b| {
        b.iter(|| search(black_box(&empty), &mcts, 1))
    });
    group.finish();
}

fn tournament(c: &mut Criterion) {
    let tournament = Tournament::<TicTacToe>::between(
        [
            Strategy::with_defaults(Algorithm::AlphaBeta),
            Strategy::with_defaults(Algorithm::Random),
        ],
        1,
    );
    let mut group = c.benchmark_group("tournament");
    group.sample_size(10);
    group.throughput(Throughput::Elements(10_000));
    group.bench_function("10000 alphabeta vs random games, one thread", |b| {
        b.iter(|| tournament.play(black_box(0..10_000)))
    });
    group.finish();
}

criterion_group!(benches, searches, tournament);
criterion_main!(benches);
