//! Perft: the number of move paths of a given length from a position, the standard check of a
//! move generator against published figures (and a measure of its speed).

use super::Game;

/// The number of move sequences `depth` plies long from `game` that the rules of movement allow
/// ([`Rules::perft_moves`](crate::game::Rules::perft_moves): chess's draws by rule do not stop the count). A game that ends sooner
/// counts as the game's published figures count it ([`Rules::PERFT_COUNTS_FINISHED_GAMES`](crate::game::Rules::PERFT_COUNTS_FINISHED_GAMES)): as
/// no path (chess) or as one (Othello).
///
/// The last ply is counted, not played: the moves' number is all it needs, which is how
/// published perft figures are usually timed.
pub fn perft<G: Game>(game: &G, depth: u32) -> u64 {
    let finished = u64::from(G::PERFT_COUNTS_FINISHED_GAMES);
    match depth {
        0 => 1,
        1 => match game.count_perft_moves() {
            0 => finished,
            moves => moves as u64,
        },
        _ => {
            let moves = game.perft_moves();
            if moves.len() == 0 {
                return finished;
            }
            // One slot for the children, each written into it in turn.
            let mut child = game.clone();
            let mut paths = 0;
            for mv in moves {
                game.play_into(mv, &mut child);
                paths += perft(&child, depth - 1);
            }
            paths
        }
    }
}
