//! The fast exact search on tic-tac-toe: what each alphabeta enhancement buys, and Sente beside
//! the `minimax` crate solving the same position in the same run.
//!
//! Node counts are printed before criterion's timings (criterion reports only time).

use std::cell::Cell;
use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use sente::game::{Game, TicTacToe};
use sente::search::{AlphaBetaParams, Enhancements, Strategy, Tiebreak, search};

fn alphabeta(enhancements: Enhancements) -> Strategy {
    Strategy::AlphaBeta(
        AlphaBetaParams {
            depth: None,
            enhancements,
            time_limit: None,
        },
        Tiebreak::First,
    )
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
            Strategy::Solver {
                time_limit: None,
                tiebreak: Tiebreak::First,
            },
        ),
    ]
}

fn enhancements(c: &mut Criterion) {
    let empty = TicTacToe::start();
    sente::search::warm_up::<TicTacToe>();
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

/// Tic-tac-toe for the `minimax` crate, on Sente's own board so both search the same rules at
/// the same cost per move; every applied move counts a node.
struct Peer;

impl minimax::Game for Peer {
    type S = TicTacToe;
    type M = u8;

    fn generate_moves(state: &TicTacToe, moves: &mut Vec<u8>) -> Option<minimax::Winner> {
        if let Some(winner) = Self::get_winner(state) {
            return Some(winner);
        }
        moves.extend(state.legal_moves());
        None
    }

    fn apply(state: &mut TicTacToe, mv: u8) -> Option<TicTacToe> {
        PEER_NODES.with(|nodes| nodes.set(nodes.get() + 1));
        Some(state.play(mv))
    }

    fn get_winner(state: &TicTacToe) -> Option<minimax::Winner> {
        match state.outcome() {
            sente::game::Outcome::InProgress => None,
            sente::game::Outcome::Draw => Some(minimax::Winner::Draw),
            sente::game::Outcome::Won(_) => Some(minimax::Winner::PlayerJustMoved),
        }
    }
}

struct Neutral;

impl minimax::Evaluator for Neutral {
    type G = Peer;
    fn evaluate(&self, _: &TicTacToe) -> minimax::Evaluation {
        0
    }
}

fn peer_solve(state: &TicTacToe) -> (Option<u8>, u64) {
    use minimax::Strategy as _;
    PEER_NODES.with(|nodes| nodes.set(1));
    let mut negamax = minimax::Negamax::new(Neutral, 9);
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
            Strategy::Solver {
                time_limit: None,
                tiebreak: Tiebreak::First,
            },
        ),
    ] {
        let nodes = search(&empty, &strategy, 0).unwrap().nodes;
        println!("{name}: {nodes} nodes");
        group.bench_function(name, |b| b.iter(|| search(black_box(&empty), &strategy, 0)));
    }
    group.finish();
}

criterion_group!(benches, enhancements, peers);
criterion_main!(benches);
