//! Perft: the number of move paths of a given length from a position, the standard check of a
//! move generator against published figures (and a measure of its speed).

use super::Game;

/// The number of legal move sequences `depth` plies long from `game`; lines that end sooner
/// (mate, or a draw by the rules) are not counted.
///
/// The last ply is counted, not played: the moves' number is all it needs, which is how
/// published perft figures are usually timed.
pub fn perft<G: Game>(game: &G, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => game.count_moves() as u64,
        _ => {
            // A loop rather than an iterator chain: the child is built where it is used
            // rather than built and then moved, a copy per move that shows in chess.
            let mut paths = 0;
            for mv in game.legal_moves() {
                let child = game.play(mv);
                paths += perft(&child, depth - 1);
            }
            paths
        }
    }
}
