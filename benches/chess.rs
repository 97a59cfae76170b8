//! Chess: perft through Sente's game contract against shakmaty's own perft on the same
//! positions (the contract's overhead), the engine's nodes per second on fixed middlegame
//! positions with each evaluation, one core, and what the network's sums cost computed afresh
//! against kept move by move.
//!
//!   cargo bench --bench chess
//!
//! The overhead is printed from timed runs alternating the two (A B B A), so that a machine
//! that drifts affects both alike; criterion's own times follow.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use sente::game::Knowledge;
use sente::game::perft::perft;
use sente::games::Chess;
use sente::games::chess::TERMS;
use sente::games::chess::nnue::{self, Accumulator, accumulator};
use sente::search::{AlphaBetaParams, Budget, EngineParams, Solve, Strategy, search};
use shakmaty::Position;

/// Positions and depths whose perft takes a few hundred milliseconds.
const PERFT: [(&str, &str, u32); 3] = [
    (
        "start",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        5,
    ),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        4,
    ),
    ("endgame", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 6),
];

/// Middlegame positions for the engine's speed.
const MIDDLEGAMES: [&str; 5] = [
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8",
    "r2q1rk1/pp1nbppp/2p1pn2/3p4/2PP1B2/2N1PN2/PPQ2PPP/R3KB1R w KQ - 0 9",
    "2rq1rk1/pb1nbppp/1p2pn2/2pp4/2PP4/1PN1PN2/PB1QBPPP/2RR2K1 w - - 0 12",
];

fn time(run: impl Fn() -> u64) -> (u64, Duration) {
    let started = Instant::now();
    let nodes = run();
    (nodes, started.elapsed())
}

fn overhead() {
    println!("perft: Sente's contract against shakmaty's perft, A B B A, best of 3 rounds");
    for (name, fen, depth) in PERFT {
        let game: Chess = fen.parse().unwrap();
        let position = game.position().clone();
        let contract = || perft(black_box(&game), depth);
        let own = || shakmaty::perft(black_box(&position), depth);
        let (mut ours, mut theirs) = (Duration::MAX, Duration::MAX);
        for _ in 0..3 {
            let (a, first) = time(contract);
            let (b, second) = time(own);
            let (c, third) = time(own);
            let (d, fourth) = time(contract);
            assert!(a == b && b == c && c == d, "{name}: {a} {b}");
            ours = ours.min((first + fourth) / 2);
            theirs = theirs.min((second + third) / 2);
        }
        let leaves = perft(&game, depth);
        println!(
            "  {name} depth {depth} ({leaves} leaves): contract {:.1} ms, shakmaty {:.1} ms, \
             overhead {:+.1}%",
            ours.as_secs_f64() * 1e3,
            theirs.as_secs_f64() * 1e3,
            (ours.as_secs_f64() / theirs.as_secs_f64() - 1.0) * 100.0
        );
    }
}

/// The engine's speed on the middlegame positions, a second each: with the network, with
/// PeSTO's tables and the terms beyond them, and without the terms (what they cost in speed).
fn engine_speed() {
    let evaluation = |name: &str| {
        let index = <Chess as Knowledge>::EVALUATIONS
            .iter()
            .position(|e| e.name == name);
        Some(index.expect("one of chess's evaluations") as u8)
    };
    for (label, evaluation, without) in [
        ("engine with nnue", evaluation("nnue"), None),
        ("engine with pesto", evaluation("pesto"), None),
        (
            "engine with pesto, without its terms",
            evaluation("pesto"),
            Some(TERMS),
        ),
    ] {
        let (mut nodes, mut elapsed) = (0, Duration::ZERO);
        for fen in MIDDLEGAMES {
            let game: Chess = fen.parse().unwrap();
            let params = EngineParams {
                without,
                evaluation,
                ..EngineParams::for_time(Duration::from_secs(1))
            };
            let result = game.engine(&params, &Budget::unlimited());
            nodes += result.nodes;
            elapsed += result.elapsed;
            println!(
                "  {fen}: depth {}, seldepth {}, {} nodes, {:.2} M nodes/s",
                result.depth.unwrap_or(0),
                result.seldepth.unwrap_or(0),
                result.nodes,
                result.nodes as f64 / result.elapsed.as_secs_f64() / 1e6
            );
        }
        println!(
            "{label}: {:.2} M nodes/s over {} middlegame positions, a second each",
            nodes as f64 / elapsed.as_secs_f64() / 1e6,
            MIDDLEGAMES.len()
        );
    }
}

/// The network's first layer over the positions of the middlegames' first moves: its sums
/// computed afresh, against brought up to date after the move, and the output from them.
fn network_speed() {
    let network = nnue::playing(None);
    let mut cases = Vec::new();
    for fen in MIDDLEGAMES {
        let game: Chess = fen.parse().unwrap();
        let before = game.position().clone();
        for mv in before.legal_moves() {
            let mut after = before.clone();
            after.play_unchecked(mv);
            cases.push((before.clone(), mv, after));
        }
    }
    let rounds = 2_000;
    let per_case = |elapsed: Duration| elapsed.as_secs_f64() * 1e9 / (rounds * cases.len()) as f64;
    let started = Instant::now();
    for _ in 0..rounds {
        for (_, _, after) in &cases {
            black_box(accumulator::of(&network, black_box(after).board()));
        }
    }
    let afresh = per_case(started.elapsed());
    let kept: Vec<Accumulator> = cases
        .iter()
        .map(|(before, _, _)| accumulator::of(&network, before.board()))
        .collect();
    let started = Instant::now();
    for _ in 0..rounds {
        for ((before, mv, _), sums) in cases.iter().zip(&kept) {
            black_box(sums.after(
                &network,
                &accumulator::changes(before.turn(), black_box(mv)),
            ));
        }
    }
    let updated = per_case(started.elapsed());
    let started = Instant::now();
    for _ in 0..rounds {
        for ((_, _, after), sums) in cases.iter().zip(&kept) {
            black_box(network.evaluate(black_box(sums), nnue::side(after.turn())));
        }
    }
    let output = per_case(started.elapsed());
    println!(
        "network over {} positions: sums afresh {afresh:.0} ns, after a move {updated:.0} ns \
         ({:.1}x less), the output from them {output:.0} ns",
        cases.len(),
        afresh / updated
    );
}

fn benches(c: &mut Criterion) {
    overhead();
    network_speed();
    engine_speed();
    let mut group = c.benchmark_group("chess");
    group.sample_size(10);
    let (name, fen, _) = PERFT[0];
    let game: Chess = fen.parse().unwrap();
    let position = game.position().clone();
    group.bench_function(format!("perft {name} 4 contract"), |b| {
        b.iter(|| perft(black_box(&game), 4))
    });
    group.bench_function(format!("perft {name} 4 shakmaty"), |b| {
        b.iter(|| shakmaty::perft(black_box(&position), 4))
    });
    let tutorial = Strategy::alphabeta(AlphaBetaParams::textbook(Some(3)));
    group.bench_function("tutorial alphabeta depth 3 from the start", |b| {
        b.iter(|| search(black_box(&game), &tutorial, 0))
    });
    group.finish();
}

criterion_group!(chess, benches);
criterion_main!(chess);
