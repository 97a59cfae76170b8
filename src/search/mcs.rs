//! Primitive Monte Carlo search: for each legal move, `playouts` random games after it; the move
//! with the best total wins.

use rand::SeedableRng;

use super::playout::random_playout;
use super::{SearchResult, SearchRng, terminal_value};
use crate::game::Game;

pub(super) fn search<G: Game>(game: &G, playouts: u32, seed: u64) -> SearchResult<G::Move> {
    let mut rng = SearchRng::seed_from_u64(seed);
    let me = game.side_to_move();
    let playouts = playouts.max(1);
    let mut nodes = 1;
    let mut best: Option<(G::Move, i64, bool)> = None;
    for mv in game.legal_moves() {
        let child = game.play(mv);
        nodes += 1;
        let outcome = child.outcome();
        // A move that ends the game needs no sampling: every playout from it ends the same way.
        let (total, proven) = if outcome.is_over() {
            let value = i64::from(terminal_value(outcome, me).signum());
            (value * i64::from(playouts), true)
        } else {
            let mut total = 0;
            for _ in 0..playouts {
                let outcome = random_playout(child, &mut rng, &mut nodes);
                total += i64::from(terminal_value(outcome, me).signum());
            }
            (total, false)
        };
        if best.is_none_or(|(_, best_total, _)| total > best_total) {
            best = Some((mv, total, proven));
        }
    }
    let (best_move, total, proven) = best.expect("the game is in progress, so it has a move");
    let n = f64::from(playouts);
    let mean = total as f64 / n;
    // Only an immediate win is proven; any other mean is shrunk as if one more playout had been
    // drawn, which keeps a sample that happened to win every time strictly below 1.
    let exact = proven && mean == 1.0;
    let score = if exact { 1.0 } else { total as f64 / (n + 1.0) };
    SearchResult {
        best_move,
        score,
        exact,
        nodes,
        pv: Vec::new(),
        elapsed: Default::default(),
    }
}
