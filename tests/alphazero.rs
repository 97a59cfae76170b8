//! alphazero with the networks the games ship: what they play, checked against the games'
//! exact values.

use sente::game::{Rules, reachable::reachable};
use sente::games::TicTacToe;
use sente::search::alphazero::{self, networks};
use sente::search::{Algorithm, AlphaZeroParams, Strategy, analyze, search};

fn alphazero(simulations: u32) -> Strategy {
    Strategy {
        alphazero: AlphaZeroParams {
            simulations,
            ..AlphaZeroParams::DEFAULT
        },
        ..Strategy::with_defaults(Algorithm::AlphaZero)
    }
}

/// The moves of `position` that keep its exact value, as the perfect table says.
fn optimal_moves(position: &TicTacToe) -> Vec<u8> {
    let values = exact_values(position);
    values
        .iter()
        .filter(|(_, value)| *value == values[0].1)
        .map(|(mv, _)| *mv)
        .collect()
}

/// Each move's exact value in `position`, as the perfect table says, by move.
fn exact_values(position: &TicTacToe) -> Vec<(u8, f64)> {
    let solver = Strategy::with_defaults(Algorithm::Solver);
    let analysis = analyze(position, &solver, 0).unwrap();
    analysis
        .moves
        .iter()
        .map(|entry| (entry.mv, entry.score))
        .collect()
}

/// How alphazero at `simulations` does from every reachable position: the positions, those
/// whose value its move gives away (a win drawn, a draw or a win lost), and those it loses.
fn from_every_position(simulations: u32) -> (usize, Vec<String>, Vec<String>) {
    let strategy = alphazero(simulations);
    let (mut positions, mut worse, mut lost) = (0, Vec::new(), Vec::new());
    for position in reachable::<TicTacToe>() {
        if position.outcome().is_over() {
            continue;
        }
        positions += 1;
        let chosen = search(&position, &strategy, 0).unwrap().best_move;
        let values = exact_values(&position);
        let best = values[0].1;
        let value = values.iter().find(|(mv, _)| *mv == chosen).unwrap().1;
        if value < best {
            worse.push(format!("{position}: {chosen}"));
        }
        if value < 0.0 && best >= 0.0 {
            lost.push(format!("{position}: {chosen}"));
        }
    }
    (positions, worse, lost)
}

/// From every reachable position, the shipped network's alphazero never loses to the perfect
/// table at 400 simulations, whichever side it plays, and at its default 800 never gives away
/// any of a position's value.
#[test]
fn tictactoe_alphazero_never_loses_from_any_reachable_position() {
    let (positions, _, lost) = from_every_position(400);
    assert_eq!(positions, 4520);
    assert!(
        lost.is_empty(),
        "lost from {} positions: {lost:?}",
        lost.len()
    );
    let (_, worse, _) = from_every_position(800);
    assert!(
        worse.is_empty(),
        "gave value away in {} positions: {worse:?}",
        worse.len()
    );
}

/// The raw policy's favourite move (no search) is optimal in most positions; the share is
/// printed (docs/alphazero.md gives it).
#[test]
fn tictactoe_raw_policy_is_mostly_optimal() {
    let net = networks::network::<TicTacToe>(0).unwrap();
    let (mut optimal, mut positions) = (0, 0);
    for position in reachable::<TicTacToe>() {
        if position.outcome().is_over() {
            continue;
        }
        positions += 1;
        let (favourite, _) = alphazero::favourite(&net, &position);
        optimal += usize::from(optimal_moves(&position).contains(&favourite));
    }
    let share = optimal as f64 / positions as f64;
    println!(
        "raw policy optimal in {optimal} of {positions} positions ({:.1}%)",
        100.0 * share
    );
    assert!(share > 0.8, "{share}");
}
