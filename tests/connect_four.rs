//! Connect Four's solver, checked without outside data: against a plain negamax written here
//! from the definition of Pons' score, on positions from seeded random games. The checks
//! against Pons' own benchmark sets are the reference suite (`tests/reference.rs`).

use std::time::Duration;

use sente::game::{Outcome, Rules};
use sente::games::ConnectFour;
use sente::games::connect_four::solver::{Solver, plies_to_end};
use sente::search::{Algorithm, Strategy, Tiebreak, search};

/// Positions `plies` plies into random games that are still in progress, from a fixed seed.
fn random_positions(count: usize, plies: usize, mut seed: u64) -> Vec<ConnectFour> {
    // splitmix64: a fixed, dependency-free stream, so the positions never change.
    let mut next = move || {
        seed = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = seed;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    let mut positions = Vec::new();
    while positions.len() < count {
        let mut game = ConnectFour::start();
        while game.ply() < plies && !game.outcome().is_over() {
            let moves: Vec<_> = game.legal_moves().collect();
            game = game.play(moves[next() as usize % moves.len()]);
        }
        // A position where the side to move wins at once is not worth a search.
        if game.ply() == plies && !game.outcome().is_over() && !game.can_win_next() {
            positions.push(game);
        }
    }
    positions
}

/// Pons' score by its definition, for the side to move: positive when it wins, 22 minus the
/// winner's discs at the end (so a quicker win scores more), 0 for a draw. Plain negamax with
/// an alpha-beta window and nothing else: slow, and obviously right.
fn pons_score(game: &ConnectFour, mut alpha: i32, beta: i32) -> i32 {
    match game.outcome() {
        // The player who just moved won, with (ply + 1) / 2 discs on the board.
        Outcome::Won(_) => return -(22 - (game.ply() as i32 + 1) / 2),
        Outcome::Draw => return 0,
        Outcome::InProgress => {}
    }
    for mv in game.legal_moves() {
        let score = -pons_score(&game.play(mv), -beta, -alpha);
        if score >= beta {
            return score;
        }
        alpha = alpha.max(score);
    }
    alpha
}

#[test]
fn the_solver_agrees_with_plain_negamax_near_the_end() {
    for position in random_positions(30, 24, 2026) {
        let expected = pons_score(&position, -22, 22);
        assert_eq!(
            Solver::default().solve(&position),
            Some(expected),
            "{position}"
        );
    }
}

#[test]
fn plies_to_end_agree_with_the_scores_definition() {
    for position in random_positions(40, 28, 7) {
        let score = Solver::default().solve(&position).unwrap();
        let end = position.ply() + plies_to_end(&position, score) as usize;
        assert!(end <= 42, "{position}");
        if score != 0 {
            let winner_discs = end.div_ceil(2) as i32;
            assert_eq!(22 - winner_discs, score.abs(), "{position}");
        } else {
            assert_eq!(end, 42, "a Connect Four draw fills the board: {position}");
        }
    }
}

#[test]
fn the_solver_answers_exactly_in_time_or_says_it_did_not() {
    let solver = |ms| Strategy {
        time_limit: Some(Duration::from_millis(ms)),
        tiebreak: Tiebreak::First,
        ..Strategy::with_defaults(Algorithm::Solver)
    };
    // A position in the middle game: solved well within a second, and the move achieves the
    // score.
    let position = random_positions(1, 20, 11).remove(0);
    let expected = Solver::default().solve(&position).unwrap();
    let result = search(&position, &solver(1000), 0).unwrap();
    assert!(result.exact, "{position}");
    assert_eq!(result.score, f64::from(expected.signum()), "{position}");
    let after = position.play(result.best_move);
    assert_eq!(
        Solver::default().solve(&after).map(|score| -score),
        Some(expected),
        "the move keeps the score: {position}"
    );
    // The empty board cannot be solved in 50 ms: a move all the same, not claimed exact.
    let result = search(&ConnectFour::start(), &solver(50), 0).unwrap();
    assert!(!result.exact);
    assert!(
        result.elapsed < Duration::from_secs(2),
        "{:?}",
        result.elapsed
    );
}
