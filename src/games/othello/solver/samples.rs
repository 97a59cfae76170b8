//! Endgames drawn for measurement: positions of a given number of empty squares from games
//! of 8 to 16 random moves, then moves chosen by a search of two plies with the `mobility`
//! evaluation (one in ten at random), so that they are positions of games played, not of
//! random ones (where one side has long since lost), and never the FFO positions the solver
//! is timed on.

use super::super::{Othello, PASS, mix};
use super::estimate::{DISC, estimate};
use crate::game::Rules;

/// A small generator of its own (SplitMix64, through the keys' finaliser `mix`), so that a
/// seed draws the same endgames on every machine and every version of the `rand` crate.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        mix(self.0)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// `count` endgames of `empties` empty squares drawn with `seed`, not over, the side to move
/// with a move.
pub fn endgames(seed: u64, empties: u32, count: usize) -> Vec<Othello> {
    let mut rng = SplitMix(seed);
    let mut found = Vec::new();
    while found.len() < count {
        let mut game = Othello::start();
        let random_plies = 8 + rng.below(9);
        let mut plies = 0;
        while game.empties().count_ones() > empties && !game.outcome().is_over() {
            let moves: Vec<u8> = game.legal_moves().collect();
            let mv = if moves == [PASS] {
                PASS
            } else if plies < random_plies || rng.below(10) == 0 {
                moves[rng.below(moves.len())]
            } else {
                // The move whose position a search of two plies likes least for the opponent.
                *moves
                    .iter()
                    .min_by_key(|&&mv| {
                        let (mover, other) = game.play(mv).sides();
                        estimate(&mut 0, mover, other, -65 * DISC, 65 * DISC, 1)
                    })
                    .expect("a move")
            };
            game = game.play(mv);
            plies += 1;
        }
        if game.empties().count_ones() == empties
            && !game.outcome().is_over()
            && game.placements() != 0
        {
            found.push(game);
        }
    }
    found
}
