//! The fast exact search on tic-tac-toe: what each alphabeta enhancement buys, and Sente beside
//! the `minimax` crate solving the same position in the same run.
//!
//! Node counts are printed before criterion's timings (criterion reports only time).

use std::cell::Cell;
use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use sente::game::{Game, Rules};
use sente::games::{ConnectFour, TicTacToe};
use sente::search::{Algorithm, AlphaBetaParams, Enhancements, Strategy, Tiebreak, search};

fn alphabeta(enhancements: Enhancements) -> Strategy {
    Strategy::alphabeta(AlphaBetaParams {
        depth: None,
        enhancements,
        time_limit: None,
        evaluation: 0,
    })
}

fn variants() -> Vec<(&'static str, Strategy)> {
    let only = |f: fn(&mut Enhancements)| {
        let mut enhancements = Enhancements::NONE;
        f(&mut enhancements);
        alphabeta(enhancements)
    };
    vec![
        ("alphabeta textbook", alphabeta(Enhancements::NONE)),
        (
            "+ transposition table",
            only(|e| e.transposition_table = true),
        ),
        ("+ symmetry", only(|e| e.symmetry = true)),
        ("+ ordering", only(|e| e.ordering = true)),
        ("+ pvs", only(|e| e.pvs = true)),
        (
            "table + ordering",
            only(|e| {
                e.transposition_table = true;
                e.ordering = true;
            }),
        ),
        ("all enhancements", alphabeta(Enhancements::ALL)),
        (
            "solver (table lookup)",
            Strategy {
                time_limit: None,
                tiebreak: Tiebreak::First,
                ..Strategy::with_defaults(Algorithm::Solver)
            },
        ),
    ]
}

fn enhancements(c: &mut Criterion) {
    let empty = TicTacToe::start();
    <TicTacToe as sente::search::Solve>::warm_up();
    let mut group = c.benchmark_group("alphabeta enhancements, empty board");
    for (name, strategy) in variants() {
        let result = search(&empty, &strategy, 0).unwrap();
        println!(
            "{name}: {} nodes, score {}, plies to end {:?}",
            result.nodes, result.score, result.plies_to_end
        );
        group.bench_function(name, |b| b.iter(|| search(black_box(&empty), &strategy, 0)));
    }
    group.finish();
}

thread_local! {
    static PEER_NODES: Cell<u64> = const { Cell::new(0) };
}

/// A Sente game for the `minimax` crate, on Sente's own board so both search the same rules at
/// the same cost per move; every applied move counts a node.
struct Peer<G>(std::marker::PhantomData<G>);

impl<G: Game<Move = u8>> minimax::Game for Peer<G> {
    type S = G;
    type M = u8;

    fn generate_moves(state: &G, moves: &mut Vec<u8>) -> Option<minimax::Winner> {
        if let Some(winner) = Self::get_winner(state) {
            return Some(winner);
        }
        moves.extend(state.legal_moves());
        None
    }

    fn apply(state: &mut G, mv: u8) -> Option<G> {
        PEER_NODES.with(|nodes| nodes.set(nodes.get() + 1));
        Some(state.play(mv))
    }

    fn get_winner(state: &G) -> Option<minimax::Winner> {
        match state.outcome() {
            sente::game::Outcome::InProgress => None,
            sente::game::Outcome::Draw => Some(minimax::Winner::Draw),
            sente::game::Outcome::Won(_) => Some(minimax::Winner::PlayerJustMoved),
        }
    }
}

struct Neutral<G>(std::marker::PhantomData<G>);

impl<G: Game<Move = u8>> minimax::Evaluator for Neutral<G> {
    type G = Peer<G>;
    fn evaluate(&self, _: &G) -> minimax::Evaluation {
        0
    }
}

/// The crate's alpha-beta to the end of the game: its move and the nodes it took.
fn peer_solve<G: Game<Move = u8>>(state: &G) -> (Option<u8>, u64) {
    use minimax::Strategy as _;
    PEER_NODES.with(|nodes| nodes.set(1));
    let depth = (G::MAX_PLIES - state.ply()) as u8;
    let mut negamax = minimax::Negamax::new(Neutral(std::marker::PhantomData), depth);
    let mv = negamax.choose_move(state);
    (mv, PEER_NODES.with(Cell::get))
}

fn peers(c: &mut Criterion) {
    let empty = TicTacToe::start();
    let (_, peer_nodes) = peer_solve(&empty);
    println!("minimax crate Negamax (alpha-beta), depth 9: {peer_nodes} nodes");
    let mut group = c.benchmark_group("peers, tic-tac-toe from the empty board");
    group.bench_function("minimax crate Negamax", |b| {
        b.iter(|| peer_solve(black_box(&empty)))
    });
    for (name, strategy) in [
        ("sente alphabeta textbook", alphabeta(Enhancements::NONE)),
        (
            "sente alphabeta all enhancements",
            alphabeta(Enhancements::ALL),
        ),
        (
            "sente solver",
            Strategy {
                time_limit: None,
                tiebreak: Tiebreak::First,
                ..Strategy::with_defaults(Algorithm::Solver)
            },
        ),
    ] {
        let nodes = search(&empty, &strategy, 0).unwrap().nodes;
        println!("{name}: {nodes} nodes");
        group.bench_function(name, |b| b.iter(|| search(black_box(&empty), &strategy, 0)));
    }
    group.finish();
}

/// The first positions of Pons' End-Easy set (`../shared/data/connect4/Test_L3_R1`).
fn end_easy(count: usize) -> Vec<ConnectFour> {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/data/connect4/Test_L3_R1");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .take(count)
        .map(|line| {
            let moves = line.split(' ').next().unwrap();
            ConnectFour::from_pons_moves(moves).unwrap()
        })
        .collect()
}

/// Connect Four: choosing the exact best move on End-Easy positions (the crate's alpha-beta has
/// no table, so harder sets are out of its reach in a benchmark's time).
fn peers_connect_four(c: &mut Criterion) {
    let positions = end_easy(20);
    let peer_nodes: u64 = positions.iter().map(|p| peer_solve(p).1).sum();
    println!(
        "minimax crate Negamax, 20 End-Easy positions: {} nodes per position",
        peer_nodes / 20
    );
    let solver = Strategy {
        time_limit: None,
        tiebreak: Tiebreak::First,
        ..Strategy::with_defaults(Algorithm::Solver)
    };
    let alphabeta_all = alphabeta(Enhancements::ALL);
    for (name, strategy) in [
        ("sente solver", &solver),
        ("sente alphabeta all enhancements", &alphabeta_all),
    ] {
        let nodes: u64 = positions
            .iter()
            .map(|p| search(p, strategy, 0).unwrap().nodes)
            .sum();
        println!(
            "{name}, 20 End-Easy positions: {} nodes per position",
            nodes / 20
        );
    }
    let mut group = c.benchmark_group("peers, connect four, 20 End-Easy positions");
    group.sample_size(10);
    group.bench_function("minimax crate Negamax", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| peer_solve(black_box(p)).1)
                .sum::<u64>()
        })
    });
    group.bench_function("sente solver", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| search(black_box(p), &solver, 0).unwrap().nodes)
                .sum::<u64>()
        })
    });
    group.bench_function("sente alphabeta all enhancements", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| search(black_box(p), &alphabeta_all, 0).unwrap().nodes)
                .sum::<u64>()
        })
    });
    group.finish();
}

criterion_group!(benches, enhancements, peers, peers_connect_four);
criterion_main!(benches);
