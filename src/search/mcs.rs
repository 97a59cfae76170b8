//! Primitive Monte Carlo search: for each legal move, `playouts` random games after it; the move
//! with the best total wins.
//!
//! The playouts are played in rounds, one per move per round, so that when a time limit stops
//! the search every move has had the same number and the totals stay comparable.

use std::time::{Duration, Instant};

use rand::SeedableRng;

use super::playout::random_playout;
use super::{SearchResult, SearchRng, terminal_value};
use crate::game::Game;

pub(super) fn search<G: Game>(
    game: &G,
    playouts: u32,
    time_limit: Option<Duration>,
    seed: u64,
) -> SearchResult<G::Move> {
    let mut rng = SearchRng::seed_from_u64(seed);
    let deadline = time_limit.map(|limit| Instant::now() + limit);
    let me = game.side_to_move();
    let mut nodes = 1;
    let mut arms: Vec<Arm<G>> = game
        .legal_moves()
        .map(|mv| {
            let child = game.play(mv);
            nodes += 1;
            let outcome = child.outcome();
            Arm {
                mv,
                child,
                // A move that ends the game needs no sampling: every playout ends the same way.
                proven: outcome
                    .is_over()
                    .then(|| i64::from(terminal_value(outcome, me).signum())),
                total: 0,
            }
        })
        .collect();
    let mut rounds = 0;
    for _ in 0..playouts.max(1) {
        if rounds > 0 && deadline.is_some_and(|deadline| Instant::now() >= deadline) {
            break;
        }
        for arm in &mut arms {
            arm.total += match arm.proven {
                Some(value) => value,
                None => {
                    let outcome = random_playout(arm.child, &mut rng, &mut nodes);
                    i64::from(terminal_value(outcome, me).signum())
                }
            };
        }
        rounds += 1;
    }
    let mut best = &arms[0];
    for arm in &arms[1..] {
        if arm.total > best.total {
            best = arm;
        }
    }
    let n = f64::from(rounds);
    // Only an immediate win is proven; any other mean is shrunk as if one more drawn playout had
    // been seen, which keeps a sample that happened to win every time strictly below 1.
    let exact = best.proven == Some(1);
    let score = if exact {
        1.0
    } else {
        best.total as f64 / (n + 1.0)
    };
    SearchResult {
        best_move: best.mv,
        score,
        exact,
        nodes,
        pv: Vec::new(),
        elapsed: Default::default(),
    }
}

/// One legal move and what its playouts have scored so far.
struct Arm<G: Game> {
    mv: G::Move,
    child: G,
    /// The value of a move that ends the game.
    proven: Option<i64>,
    total: i64,
}
