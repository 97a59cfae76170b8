//! Perft: the number of move paths of a given length from a position, the standard check of a
//! move generator against published figures (and a measure of its speed).

use super::Game;

/// The number of legal move sequences `depth` plies long from `game`. A game that ends sooner
/// counts as the game's published figures count it ([`Game::PERFT_COUNTS_FINISHED_GAMES`]): as
/// no path (chess) or as one (Othello).
///
/// The last ply is counted, not played: the moves' number is all it needs, which is how
/// published perft figures are usually timed.
pub fn perft<G: Game>(game: &G, depth: u32) -> u64 {
    let finished = u64::from(G::PERFT_COUNTS_FINISHED_GAMES);
    match depth {
        0 => 1,
        1 => match game.count_moves() {
            0 => finished,
            moves => moves as u64,
        },
        _ => {
            // A loop rather than an iterator chain: the child is built where it is used
            // rather than built and then moved, a copy per move that shows in chess.
            let moves = game.legal_moves();
            if moves.len() == 0 {
                return finished;
            }
            let mut paths = 0;
            for mv in moves {
                let child = game.play(mv);
                paths += perft(&child, depth - 1);
            }
            paths
        }
    }
}
