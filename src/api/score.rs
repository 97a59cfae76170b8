//! A score in the units of the game's players, beside Sente's common scale: for chess,
//! centipawns (`cp`) or moves to mate (`mate`), as chess APIs answer.

use crate::game::Game;

/// `cp` and `mate` for a score of the side to move, when the game counts in pawns: `mate` is
/// the moves (not plies) to a proven mate, positive when the side to move mates; `cp` the
/// centipawns an unproven score stands for.
pub(super) fn in_pawns<G: Game>(
    score: f64,
    exact: bool,
    plies_to_end: Option<u32>,
) -> (Option<i32>, Option<i32>) {
    let Some(cp) = G::centipawns(score) else {
        return (None, None);
    };
    match plies_to_end {
        Some(plies) if exact && score != 0.0 => {
            // The side that mates makes the last move: a win in p plies is (p + 1) / 2 of its
            // moves, a loss in p plies p / 2 of the opponent's.
            let plies = plies as i32;
            let mate = if score > 0.0 {
                (plies + 1) / 2
            } else {
                -(plies / 2)
            };
            (None, Some(mate))
        }
        _ if exact => (Some(0), None),
        _ => (Some(cp), None),
    }
}
