//! The search algorithms on tic-tac-toe: exact node counts, agreement of the exact searches on
//! every reachable position, and the strength of the players.

use sente::game::Outcome;
use sente::game::Rules;
use sente::games::TicTacToe;
use sente::search::{Algorithm, AlphaBetaParams, MctsParams, Strategy, Tiebreak, search};
use sente::tournament::Tournament;

fn minimax() -> Strategy {
    Strategy {
        depth: None,
        tiebreak: Tiebreak::First,
        evaluation: Some(0),
        ..Strategy::with_defaults(Algorithm::Minimax)
    }
}

/// Negamax as the tutorial teaches it, to the end of the game.
pub(crate) fn negamax() -> Strategy {
    Strategy {
        depth: None,
        tiebreak: Tiebreak::First,
        evaluation: Some(0),
        ..Strategy::with_defaults(Algorithm::Negamax)
    }
}

fn alphabeta() -> Strategy {
    Strategy::alphabeta(AlphaBetaParams::textbook(None))
}

fn mcs10() -> Strategy {
    Strategy {
        playouts: 10,
        time_limit: None,
        ..Strategy::with_defaults(Algorithm::Mcs)
    }
}

/// Every position reachable from the empty board.
fn reachable_positions() -> Vec<TicTacToe> {
    sente::game::reachable::reachable()
}

#[test]
fn full_tree_minimax_and_negamax_visit_549946_nodes_and_find_a_draw() {
    for strategy in [minimax(), negamax()] {
        let result = search(&TicTacToe::start(), &strategy, 0).unwrap();
        assert_eq!(result.nodes, 549_946, "{strategy:?}");
        assert_eq!(result.score, 0.0, "{strategy:?}");
        assert!(result.exact);
        assert_eq!(result.best_move, 0, "the first of the equally drawn moves");
        assert_eq!(
            result.pv.len(),
            9,
            "a drawn game fills the board: {:?}",
            result.pv
        );
    }
}

#[test]
fn there_are_5478_reachable_positions_958_of_them_terminal() {
    let positions = reachable_positions();
    assert_eq!(positions.len(), 5478);
    let terminal = positions.iter().filter(|p| p.outcome().is_over()).count();
    assert_eq!(terminal, 958);
}

#[test]
fn exact_searches_agree_on_every_reachable_position_and_their_move_achieves_the_value() {
    let mut checked = 0;
    for position in reachable_positions() {
        if position.outcome().is_over() {
            assert!(search(&position, &alphabeta(), 0).is_err());
            continue;
        }
        let results =
            [minimax(), negamax(), alphabeta()].map(|s| search(&position, &s, 0).unwrap());
        for result in &results {
            assert!(result.exact);
            assert_eq!(result.score, results[1].score, "{position}: {results:?}");
            // The move's value, searched afresh from the child, is the position's value.
            let child = position.play(result.best_move);
            let child_value = if child.outcome().is_over() {
                match child.outcome() {
                    Outcome::Won(_) => -1.0,
                    _ => 0.0,
                }
            } else {
                search(&child, &negamax(), 0).unwrap().score
            };
            assert_eq!(
                -child_value, result.score,
                "{position}: move {}",
                result.best_move
            );
            assert_eq!(result.pv[0], result.best_move);
        }
        assert!(results[2].nodes <= results[1].nodes);
        assert_eq!(results[0].nodes, results[1].nodes);
        checked += 1;
    }
    assert_eq!(checked, 5478 - 958);
}

#[test]
fn the_principal_variation_is_played_out_to_the_proven_result() {
    // X to move wins by completing the top row; O to move must block.
    let position: TicTacToe = "XX.OO....".parse().unwrap();
    let result = search(&position, &alphabeta(), 0).unwrap();
    assert_eq!(
        (result.best_move, result.score, result.pv.clone()),
        (2, 1.0, vec![2])
    );
    let position: TicTacToe = "XX..O....".parse().unwrap();
    let result = search(&position, &minimax(), 0).unwrap();
    assert_eq!(result.best_move, 2, "O must block");
    let mut game = position;
    for &mv in &result.pv {
        game = game.play(mv);
    }
    assert!(game.outcome().is_over());
}

#[test]
fn depth_limited_searches_are_heuristic_unless_proven() {
    for strategy in [
        Strategy {
            depth: Some(2),
            tiebreak: Tiebreak::First,
            evaluation: Some(0),
            ..Strategy::with_defaults(Algorithm::Minimax)
        },
        Strategy {
            depth: Some(2),
            tiebreak: Tiebreak::First,
            evaluation: Some(0),
            ..Strategy::with_defaults(Algorithm::Negamax)
        },
        Strategy::alphabeta(AlphaBetaParams::textbook(Some(2))),
    ] {
        let result = search(&TicTacToe::start(), &strategy, 0).unwrap();
        assert!(!result.exact, "{strategy:?}");
        assert!(result.score > -1.0 && result.score < 1.0);
        assert_eq!(
            result.best_move, 4,
            "open lines favour the centre: {strategy:?}"
        );
        // A win within the horizon is proven even at depth 1.
        let winning: TicTacToe = "XX.OO....".parse().unwrap();
        let result = search(&winning, &strategy, 0).unwrap();
        assert_eq!(
            (result.best_move, result.score, result.exact),
            (2, 1.0, true)
        );
    }
}

#[test]
fn randomised_algorithms_repeat_for_a_seed() {
    let position: TicTacToe = "X...O....".parse().unwrap();
    for strategy in [
        Strategy::with_defaults(Algorithm::Random),
        mcs10(),
        Strategy::mcts(MctsParams::default()),
    ] {
        let a = search(&position, &strategy, 99).unwrap();
        let b = search(&position, &strategy, 99).unwrap();
        assert_eq!(
            (a.best_move, a.score, a.nodes, &a.pv),
            (b.best_move, b.score, b.nodes, &b.pv)
        );
        assert!(
            !a.exact && a.score > -1.0 && a.score < 1.0,
            "{strategy:?}: {a:?}"
        );
        let moves: std::collections::HashSet<_> = (0..50)
            .map(|seed| search(&position, &strategy, seed).unwrap().best_move)
            .collect();
        if strategy == Strategy::with_defaults(Algorithm::Random) {
            assert_eq!(moves.len(), 7, "random reaches every legal move");
        }
    }
}

#[test]
fn monte_carlo_searches_take_an_immediate_win_as_proven() {
    let winning: TicTacToe = "XX.OO....".parse().unwrap();
    for strategy in [mcs10(), Strategy::mcts(MctsParams::default())] {
        let result = search(&winning, &strategy, 5).unwrap();
        assert_eq!(
            (result.best_move, result.score, result.exact),
            (2, 1.0, true),
            "{strategy:?}"
        );
    }
}

#[test]
fn mcs_counts_the_root_each_child_and_each_playout_position() {
    // One move left: the root, the child (terminal), no playout positions.
    let last: TicTacToe = "XOX/XOO/OX.".parse().unwrap();
    let result = search(&last, &mcs10(), 1).unwrap();
    assert_eq!(result.nodes, 2);
    // Two moves left, neither ending the game: each playout creates the one final position.
    let two: TicTacToe = "XXO/OOX/X..".parse().unwrap();
    let result = search(&two, &mcs10(), 1).unwrap();
    assert_eq!(result.nodes, 1 + 2 + 2 * 10);
}

#[test]
fn alphabeta_never_loses_against_random_in_10000_games() {
    let tournament = Tournament::<TicTacToe>::between(
        [alphabeta(), Strategy::with_defaults(Algorithm::Random)],
        2026,
    );
    let tally = tournament.play_parallel(0..10_000, 2).tally();
    let alphabeta = &tally.players[0];
    assert_eq!(
        alphabeta.as_first.losses + alphabeta.as_second.losses,
        0,
        "{tally:?}"
    );
    assert_eq!(alphabeta.as_first.games(), 5000);
    assert_eq!(alphabeta.as_second.games(), 5000);
    assert!(alphabeta.as_first.wins > 4500, "{tally:?}");
}

#[test]
fn mcts_with_1000_simulations_scores_at_least_95_percent_against_random() {
    let mcts = Strategy::mcts(MctsParams {
        simulations: 1000,
        ..MctsParams::default()
    });
    let tournament =
        Tournament::<TicTacToe>::between([mcts, Strategy::with_defaults(Algorithm::Random)], 7);
    let results = tournament.play_parallel(0..1000, 2);
    let mcts = results.tally().players[0].total();
    let score_rate = (mcts.wins as f64 + 0.5 * mcts.draws as f64) / 1000.0;
    assert!(score_rate >= 0.95, "{mcts:?}");
    // Same seed, same games.
    assert_eq!(tournament.play_parallel(0..1000, 2), results);
}

#[test]
fn a_time_limit_stops_sampling_early() {
    use std::time::Duration;
    let limit = Some(Duration::from_millis(20));
    let mcts = Strategy {
        time_limit: limit,
        ..Strategy::mcts(MctsParams {
            simulations: u32::MAX,
            ..MctsParams::default()
        })
    };
    let mcs = Strategy {
        playouts: u32::MAX,
        time_limit: limit,
        ..Strategy::with_defaults(Algorithm::Mcs)
    };
    for strategy in [mcts, mcs] {
        let result = search(&TicTacToe::start(), &strategy, 3).unwrap();
        // Generous: the point is that it stops, not how precisely (shared, noisy machines).
        assert!(
            result.elapsed < Duration::from_secs(2),
            "{strategy:?}: {:?}",
            result.elapsed
        );
        assert!(
            result.nodes > 100,
            "it searched before stopping: {result:?}"
        );
    }
}
