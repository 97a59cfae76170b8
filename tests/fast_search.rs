//! The fast exact search: every enhancement of alphabeta, alone and together, finds the values
//! and distances of plain negamax on every reachable tic-tac-toe position; the solver answers
//! from its table; tie-breaks and analysis keep to the proven values.

use std::collections::{HashMap, HashSet};

use sente::game::Rules;
use sente::games::TicTacToe;
use sente::search::{
    Algorithm, AlphaBetaParams, Enhancements, Strategy, Tiebreak, analyze, search,
};

use crate::tictactoe_search::negamax;

fn reachable() -> Vec<TicTacToe> {
    sente::game::reachable::reachable()
}

fn alphabeta(enhancements: Enhancements) -> Strategy {
    Strategy::alphabeta(AlphaBetaParams {
        depth: None,
        enhancements,
        time_limit: None,
        evaluation: 0,
    })
}

fn solver() -> Strategy {
    Strategy {
        time_limit: None,
        tiebreak: Tiebreak::First,
        ..Strategy::with_defaults(Algorithm::Solver)
    }
}

/// Every combination of the four enhancements.
fn combinations() -> Vec<Enhancements> {
    (0..16)
        .map(|bits| Enhancements {
            transposition_table: bits & 1 != 0,
            symmetry: bits & 2 != 0,
            ordering: bits & 4 != 0,
            pvs: bits & 8 != 0,
        })
        .collect()
}

#[test]
fn every_enhancement_finds_the_value_and_distance_of_negamax_everywhere() {
    let positions: Vec<TicTacToe> = reachable()
        .into_iter()
        .filter(|p| !p.outcome().is_over())
        .collect();
    let truth: HashMap<TicTacToe, (f64, Option<u32>)> = positions
        .iter()
        .map(|p| {
            let r = search(p, &negamax(), 0).unwrap();
            (*p, (r.score, r.plies_to_end))
        })
        .collect();
    let mut strategies: Vec<Strategy> = combinations().into_iter().map(alphabeta).collect();
    strategies.push(solver());
    strategies.push(Strategy::alphabeta(AlphaBetaParams {
        depth: None,
        enhancements: Enhancements::ALL,
        time_limit: Some(std::time::Duration::from_secs(5)),
        evaluation: 0,
    }));
    for strategy in &strategies {
        for position in &positions {
            let result = search(position, strategy, 0).unwrap();
            assert!(result.exact, "{strategy:?} {position}");
            assert_eq!(
                (result.score, result.plies_to_end),
                truth[position],
                "{strategy:?} {position}"
            );
            // The move achieves the value: the child's value, one ply further, negated.
            let child = position.play(result.best_move);
            if !child.outcome().is_over() {
                let (score, plies) = truth[&child];
                assert_eq!(
                    -score, result.score,
                    "{strategy:?} {position}: move {}",
                    result.best_move
                );
                assert_eq!(
                    plies.map(|p| p + 1),
                    result.plies_to_end,
                    "{strategy:?} {position}"
                );
            }
            assert_eq!(result.pv[0], result.best_move);
        }
    }
}

#[test]
fn all_enhancements_solve_the_empty_board_in_under_1000_nodes() {
    let result = search(&TicTacToe::start(), &alphabeta(Enhancements::ALL), 0).unwrap();
    assert_eq!(
        (result.score, result.exact, result.plies_to_end),
        (0.0, true, Some(9))
    );
    assert!(result.nodes < 1000, "{} nodes", result.nodes);
    let plain = search(&TicTacToe::start(), &alphabeta(Enhancements::NONE), 0).unwrap();
    for enhancements in combinations() {
        let result = search(&TicTacToe::start(), &alphabeta(enhancements), 0).unwrap();
        assert!(
            result.nodes <= plain.nodes,
            "{enhancements:?}: {} > {}",
            result.nodes,
            plain.nodes
        );
    }
}

#[test]
fn a_proven_win_is_the_fastest_and_a_proven_loss_the_slowest() {
    // X can win at once on the 0-4-8 diagonal (cell 8), or in three plies with a fork at 1.
    let position: TicTacToe = "X.O/.X./O..".parse().unwrap();
    for strategy in [
        negamax(),
        alphabeta(Enhancements::NONE),
        alphabeta(Enhancements::ALL),
        solver(),
    ] {
        let result = search(&position, &strategy, 0).unwrap();
        assert_eq!(
            (result.best_move, result.plies_to_end),
            (8, Some(1)),
            "{strategy:?}"
        );
    }
    // A lost position whose losing moves last different lengths: the loss played is the
    // slowest, as long as the longest of them.
    let lost = reachable()
        .into_iter()
        .find(|p| {
            !p.outcome().is_over() && {
                let analysis = analyze(p, &negamax(), 0).unwrap();
                let plies: HashSet<_> = analysis.moves.iter().map(|m| m.plies_to_end).collect();
                analysis.moves[0].score == -1.0 && plies.len() > 1
            }
        })
        .expect("tic-tac-toe has such positions");
    let slowest = analyze(&lost, &negamax(), 0)
        .unwrap()
        .moves
        .iter()
        .filter_map(|m| m.plies_to_end)
        .max();
    for strategy in [
        negamax(),
        alphabeta(Enhancements::NONE),
        alphabeta(Enhancements::ALL),
        solver(),
    ] {
        let result = search(&lost, &strategy, 0).unwrap();
        assert_eq!(
            (result.score, result.plies_to_end),
            (-1.0, slowest),
            "{strategy:?} {lost}"
        );
    }
}

#[test]
fn the_solver_answers_from_its_table_with_one_node() {
    for position in reachable()
        .into_iter()
        .filter(|p| !p.outcome().is_over())
        .take(500)
    {
        let result = search(&position, &solver(), 0).unwrap();
        assert_eq!(result.nodes, 1);
        let mut game = position;
        for &mv in &result.pv {
            game = game.play(mv);
        }
        assert!(
            game.outcome().is_over(),
            "the line from the table ends the game: {position}"
        );
        assert_eq!(result.pv.len() as u32, result.plies_to_end.unwrap());
    }
}

#[test]
fn tie_breaks_choose_among_the_best_moves_only() {
    let empty = TicTacToe::start();
    for base in [negamax(), alphabeta(Enhancements::ALL), solver()] {
        let with = |tiebreak| Strategy {
            tiebreak,
            ..base.clone()
        };
        // Every first move draws: a random tie-break reaches several, each the same per seed.
        let moves: HashSet<u8> = (0..40)
            .map(|seed| {
                search(&empty, &with(Tiebreak::Random), seed)
                    .unwrap()
                    .best_move
            })
            .collect();
        assert!(moves.len() >= 5, "{base:?}: {moves:?}");
        let key = |seed| {
            let result = search(&empty, &with(Tiebreak::Random), seed).unwrap();
            (result.best_move, result.score, result.nodes, result.pv)
        };
        assert_eq!(key(3), key(3), "the same seed, the same choice");
        // A position with one winning move: every tie-break takes it.
        let winning: TicTacToe = "XX.OO....".parse().unwrap();
        for tiebreak in Tiebreak::ALL {
            let result = search(&winning, &with(tiebreak), 1).unwrap();
            assert_eq!(
                (result.best_move, result.score),
                (2, 1.0),
                "{base:?} {tiebreak:?}"
            );
        }
        // Traps: from the empty board a corner leaves O the most losing replies (7 of 8: only
        // the centre holds), more than the centre (4 of 8) or an edge.
        let traps = search(&empty, &with(Tiebreak::Traps), 0).unwrap();
        assert_eq!(traps.best_move, 0, "{base:?}");
        assert_eq!(traps.score, 0.0);
    }
}

#[test]
fn analysis_lists_every_move_best_first_with_exact_values() {
    let position: TicTacToe = "X.O/.X./O..".parse().unwrap();
    for strategy in [negamax(), alphabeta(Enhancements::ALL), solver()] {
        let analysis = analyze(&position, &strategy, 0).unwrap();
        assert_eq!(analysis.moves.len(), 5);
        assert_eq!(analysis.moves[0].mv, 8);
        assert_eq!(analysis.moves[0].plies_to_end, Some(1));
        for pair in analysis.moves.windows(2) {
            assert!(pair[0].score >= pair[1].score);
        }
        for entry in &analysis.moves {
            assert!(entry.exact);
            let child = position.play(entry.mv);
            let child_score = if child.outcome().is_over() {
                -1.0
            } else {
                search(&child, &negamax(), 0).unwrap().score
            };
            assert_eq!(entry.score, -child_score, "{strategy:?} move {}", entry.mv);
        }
    }
    let mcts = analyze(&position, &Strategy::mcts(Default::default()), 1).unwrap();
    assert_eq!(mcts.moves.len(), 5);
    assert!(mcts.moves.iter().all(|m| m.visits.is_some()));
    assert!(mcts.moves.windows(2).all(|p| p[0].visits >= p[1].visits));
}
