//! Every search honours a budget from inside its loop: a node limit, a deadline and a
//! cancellation flag, and answers with a legal move and why it stopped.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use sente::game::Game;
use sente::games::{ConnectFour, TicTacToe};
use sente::search::{
    AlphaBetaParams, Budget, Cutoff, Enhancements, MctsParams, Solve, Strategy, Tiebreak,
    analyze_within, search, search_within,
};

/// Every algorithm with knobs that would take far longer than the budgets below allow.
fn heavy_strategies(game: &str) -> Vec<Strategy> {
    let slow = Some(Duration::from_secs(10));
    // Tic-tac-toe's solver is a table lookup (one node): nothing to stop.
    let solver = (game == "connect4").then_some(Strategy::Solver {
        time_limit: slow,
        tiebreak: Tiebreak::First,
    });
    let depth = (game == "tictactoe").then_some(9);
    [
        Some(Strategy::Minimax {
            depth: depth.or(Some(9)),
            tiebreak: Tiebreak::First,
            evaluation: 0,
        }),
        Some(Strategy::Negamax {
            depth: depth.or(Some(9)),
            tiebreak: Tiebreak::First,
            evaluation: 0,
        }),
        Some(Strategy::Minimax {
            depth: depth.or(Some(9)),
            tiebreak: Tiebreak::Random,
            evaluation: 0,
        }),
        Some(Strategy::AlphaBeta(
            AlphaBetaParams {
                depth: depth.or(Some(12)),
                ..AlphaBetaParams::textbook(None)
            },
            Tiebreak::First,
        )),
        Some(Strategy::AlphaBeta(
            AlphaBetaParams {
                depth: None,
                enhancements: Enhancements::ALL,
                time_limit: slow,
                evaluation: 0,
            },
            Tiebreak::First,
        )),
        solver,
        Some(Strategy::Mcs {
            playouts: 100_000,
            time_limit: slow,
        }),
        Some(Strategy::Mcts(MctsParams {
            simulations: 1_000_000,
            time_limit: slow,
            ..MctsParams::default()
        })),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// Checks `budget` stops every heavy search of `game` with `cutoff`, at a legal move.
fn stops_every_search<G: Solve>(game: G, name: &str, budget: &Budget, cutoff: Cutoff) {
    for strategy in heavy_strategies(name) {
        let started = Instant::now();
        let result = search_within(&game, &strategy, 7, budget).unwrap();
        let elapsed = started.elapsed();
        let context = format!("{name} {strategy:?}: {result:?} in {elapsed:?}");
        assert_eq!(result.stopped_by, Some(cutoff), "{context}");
        assert!(
            game.legal_moves().any(|mv| mv == result.best_move),
            "{context}"
        );
        assert!(
            !result.exact,
            "a stopped search proves nothing here: {context}"
        );
        assert!(result.score > -1.0 && result.score < 1.0, "{context}");
        // Generous, for shared machines: unstopped, these take seconds to minutes.
        assert!(elapsed < Duration::from_millis(1500), "{context}");
        if cutoff == Cutoff::NodeLimit {
            let max = budget.max_nodes.unwrap();
            // Checked every 1,024 nodes (MCTS every 64 simulations), plus the one-ply look
            // that names a move when not one root move was completed.
            assert!(result.nodes >= max, "{context}");
            assert!(result.nodes < max + 20_000, "{context}");
        }

        let analysis = analyze_within(&game, &strategy, 7, budget).unwrap();
        assert_eq!(analysis.stopped_by, Some(cutoff), "analysis, {context}");
    }
}

#[test]
fn a_node_limit_stops_every_algorithm() {
    // Below the 1,960 nodes in which alphabeta with every enhancement solves tic-tac-toe.
    let budget = |max| Budget {
        max_nodes: Some(max),
        ..Budget::default()
    };
    stops_every_search(
        TicTacToe::start(),
        "tictactoe",
        &budget(1_000),
        Cutoff::NodeLimit,
    );
    stops_every_search(
        ConnectFour::start(),
        "connect4",
        &budget(5_000),
        Cutoff::NodeLimit,
    );
}

#[test]
fn a_deadline_stops_every_algorithm() {
    let budget = || Budget {
        deadline: Some(Instant::now() + Duration::from_millis(30)),
        ..Budget::default()
    };
    // Each search gets a fresh 30 ms; Connect Four's searches all take longer than that.
    for strategy in heavy_strategies("connect4") {
        let started = Instant::now();
        let result = search_within(&ConnectFour::start(), &strategy, 7, &budget()).unwrap();
        let elapsed = started.elapsed();
        assert_eq!(result.stopped_by, Some(Cutoff::Deadline), "{strategy:?}");
        assert!(
            elapsed < Duration::from_millis(1000),
            "{strategy:?}: {elapsed:?}"
        );
    }
}

#[test]
fn a_cancelled_search_stops_at_once() {
    let budget = Budget {
        cancelled: Some(Arc::new(AtomicBool::new(true))),
        ..Budget::default()
    };
    stops_every_search(ConnectFour::start(), "connect4", &budget, Cutoff::Cancelled);
}

#[test]
fn a_search_within_its_budget_is_the_search_without_one() {
    let budget = Budget {
        max_nodes: Some(10_000_000),
        deadline: Some(Instant::now() + Duration::from_secs(600)),
        cancelled: Some(Arc::new(AtomicBool::new(false))),
    };
    let minimax = Strategy::Minimax {
        depth: None,
        tiebreak: Tiebreak::First,
        evaluation: 0,
    };
    let game = TicTacToe::start();
    let free = search(&game, &minimax, 1).unwrap();
    let within = search_within(&game, &minimax, 1, &budget).unwrap();
    assert_eq!(within.nodes, 549_946);
    assert_eq!(within.stopped_by, None);
    assert_eq!(
        (within.best_move, within.score),
        (free.best_move, free.score)
    );
    assert!(within.exact);
}

#[test]
fn a_stopped_search_still_plays_the_win_it_has_seen() {
    // The first player has three in a row on the bottom, columns 1 to 3: column 0 wins at
    // once. Minimax 9 plies deep completes that root move (a finished game) at once, and is
    // stopped deep inside the next.
    let game = ConnectFour::from_pons_moves("223344").unwrap();
    let budget = Budget {
        max_nodes: Some(2_000),
        ..Budget::default()
    };
    for strategy in [
        Strategy::Minimax {
            depth: Some(9),
            tiebreak: Tiebreak::First,
            evaluation: 0,
        },
        Strategy::Negamax {
            depth: Some(9),
            tiebreak: Tiebreak::First,
            evaluation: 0,
        },
        Strategy::AlphaBeta(AlphaBetaParams::textbook(Some(12)), Tiebreak::First),
    ] {
        let result = search_within(&game, &strategy, 1, &budget).unwrap();
        assert_eq!(result.stopped_by, Some(Cutoff::NodeLimit), "{result:?}");
        assert_eq!(result.best_move, 0, "{result:?}");
        assert!(result.score > 0.9 && !result.exact, "{result:?}");
    }
}
