//! Random playouts, shared by the Monte Carlo searches.

use rand::RngExt;

use super::SearchRng;
use crate::game::{Game, Outcome};

/// Plays uniformly random legal moves from `game` to the end and returns how it ended.
///
/// Every position the playout creates is added to `nodes`. The moves iterator knows its length
/// (a popcount for bitboard games), so a move is drawn without collecting the moves.
#[inline]
pub(super) fn random_playout<G: Game>(
    mut game: G,
    rng: &mut SearchRng,
    nodes: &mut u64,
) -> Outcome {
    loop {
        let mut moves = game.legal_moves();
        let count = moves.len();
        if count == 0 {
            return game.outcome();
        }
        let pick = rng.random_range(0..count as u32) as usize;
        let mv = moves.nth(pick).expect("pick < number of legal moves");
        game = game.play(mv);
        *nodes += 1;
    }
}
