//! The games the service plays, each in a folder of its own (its rules, its declaration, its
//! solver if it has one), and the registry: the one list of them, from which the API, the
//! catalogue, the command line and the page learn every game.
//!
//! Adding a game is a folder here, its `mod` line and a line in the `registry!` list below
//! (`docs/adding-a-game.md`). The modules are declared outside the macro, where rustfmt (which
//! does not read inside a macro's call) finds them: `cargo fmt` formats every game.

use crate::search::Solve;

/// Code written once for any game, run for the one a request names: the registry calls
/// [`ForGame::run`] with the game's type, so that everything above it stays generic.
pub trait ForGame {
    type Output;
    fn run<G: Solve>(self) -> Self::Output;
}

mod handle;

pub use handle::GameRef;

pub mod chess;
pub mod connect_four;
pub mod gomoku;
pub mod othello;
pub mod shogi;
pub mod tictactoe;

/// The registry, from one line per game (`folder => Type`): the game's type, its names in the
/// catalogue's order (the first is the default game), and the dispatch from a name to the
/// game's type.
macro_rules! registry {
    ($($folder:ident => $game:ident),+ $(,)?) => {
        $(
            pub use $folder::$game;
        )+

        /// The names of the games, in the catalogue's order; the first is the default.
        pub const NAMES: &[&str] = &[$(<$game as crate::game::Rules>::NAME),+];

        /// Runs `job` for the game named `name`; `None` when no game has that name.
        pub fn for_game<J: ForGame>(name: &str, job: J) -> Option<J::Output> {
            $(
                if name == <$game as crate::game::Rules>::NAME {
                    return Some(job.run::<$game>());
                }
            )+
            None
        }
    };
}

registry! {
    tictactoe => TicTacToe,
    connect_four => ConnectFour,
    gomoku => Gomoku,
    chess => Chess,
    othello => Othello,
    shogi => Shogi,
}

/// The game of a request that names none: the registry's first.
pub const DEFAULT: &str = NAMES[0];

/// The handle of the game named `name`; `None` when no game has that name.
pub fn handle(name: &str) -> Option<GameRef> {
    for_game(name, handle::Handle)
}

/// Every game's handle, in the registry's order.
pub fn handles() -> Vec<GameRef> {
    for_each_game(handle::Handle)
}

/// Runs `job` for every game, in the registry's order.
pub fn for_each_game<J: ForGame + Clone>(job: J) -> Vec<J::Output> {
    NAMES
        .iter()
        .map(|name| for_game(name, job.clone()).expect("a name of the registry"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Turn;

    /// Every game's contract agrees with itself along random games: `turn` gives the legal moves
    /// or the outcome, as `legal_moves` and `outcome` do; there are moves exactly while the game
    /// is in progress, and perft counts them then.
    #[derive(Clone)]
    struct Consistent;

    impl ForGame for Consistent {
        type Output = ();
        fn run<G: Solve>(self) {
            let mut state = 11u64;
            for _ in 0..20 {
                let mut game = G::start();
                for _ in 0..300 {
                    let moves: Vec<G::Move> = game.legal_moves().collect();
                    let outcome = game.outcome();
                    assert_eq!(moves.is_empty(), outcome.is_over(), "{} {game}", G::NAME);
                    // perft counts what movement allows: the legal moves, and more only where a
                    // rule that perft ignores ended the game (chess's draws by rule).
                    let perft_moves: Vec<G::Move> = game.perft_moves().collect();
                    assert_eq!(game.count_perft_moves(), perft_moves.len(), "{game}");
                    if !outcome.is_over() {
                        assert_eq!(perft_moves, moves, "{} {game}", G::NAME);
                    }
                    match game.turn() {
                        Turn::Moves(turn) => assert_eq!(turn.collect::<Vec<_>>(), moves),
                        Turn::Over(over) => assert_eq!(over, outcome, "{} {game}", G::NAME),
                    }
                    if moves.is_empty() {
                        break;
                    }
                    state = state
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    game = game.play(moves[(state >> 33) as usize % moves.len()]);
                }
            }
        }
    }

    #[test]
    fn every_games_contract_agrees_with_itself() {
        for_each_game(Consistent);
    }

    /// Every game's levels run from weak to strong (no level searches less or strays further
    /// than the one below it, rated levels rise), the top is the full engine, and a move at
    /// each level is legal, within the level's nodes, and replays from its seed.
    #[derive(Clone)]
    struct LevelsRise;

    impl ForGame for LevelsRise {
        type Output = ();
        fn run<G: Solve>(self) {
            use crate::search::{self, Algorithm, Strategy, level};
            let levels = G::DECLARATION.levels;
            level::levels_rise(&levels).unwrap_or_else(|why| panic!("{}: {why}", G::NAME));
            let top = levels[levels.len() - 1];
            assert!(
                !top.strays(),
                "{}: the top level is the engine's own move",
                G::NAME
            );
            assert_eq!(
                top.depth,
                None,
                "{}: the top level is the full engine",
                G::NAME
            );
            let game = G::start();
            for (index, entry) in (1u8..).zip(levels).take(levels.len() - 1) {
                let mut strategy = Strategy::with_defaults(Algorithm::Engine);
                strategy.engine.level = Some(index);
                let played = search::search(&game, &strategy, 7).unwrap();
                assert!(
                    game.legal_moves().any(|mv| mv == played.best_move),
                    "{}",
                    G::NAME
                );
                // The node limit is checked as nodes are counted: a few past it, at most.
                if let Some(nodes) = entry.nodes {
                    assert!(
                        played.nodes <= nodes + 64,
                        "{} level {index}: {played:?}",
                        G::NAME
                    );
                }
                let again = search::search(&game, &strategy, 7).unwrap();
                assert_eq!(
                    again.best_move,
                    played.best_move,
                    "{} level {index}",
                    G::NAME
                );
                assert!(strategy.is_randomized(), "the seed is the draw's");
            }
        }
    }

    #[test]
    fn every_games_levels_rise_from_weak_to_strong() {
        for_each_game(LevelsRise);
    }
}
