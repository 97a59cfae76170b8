//! Every position a game can reach from its start, for the games small enough to enumerate
//! ([`Knowledge::REACHABLE_POSITIONS`](crate::game::Knowledge::REACHABLE_POSITIONS)): what a perfect table tabulates, and what the tests check
//! every search against.

use std::collections::HashSet;

use super::Game;

/// Every position reachable from the start, each once (positions are equal when the rules
/// cannot tell them apart: `Eq`), finished ones included, in the order a depth-first walk
/// first meets them, the start first. The caller must know the game is small.
pub fn reachable<G: Game>() -> Vec<G> {
    let mut seen = HashSet::new();
    let mut order = Vec::new();
    let mut frontier = vec![G::start()];
    while let Some(position) = frontier.pop() {
        if !seen.insert(position.clone()) {
            continue;
        }
        if !position.outcome().is_over() {
            frontier.extend(position.legal_moves().map(|mv| position.play(mv)));
        }
        order.push(position);
    }
    order
}
