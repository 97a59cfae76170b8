//! `sente perft`: the number of move paths from a position, to check a game's rules against
//! published figures.

use super::request::PositionSpec;
use super::{GameRef, Problem, board, with_game};
use crate::game::perft::perft as count;
use crate::games::{ForGame, for_each_game};
use crate::search::Solve;

/// The number of move paths `depth` plies long from `board` in `game`.
pub fn perft(game: &GameRef, board: &str, depth: u32) -> Result<u64, Problem> {
    struct Count(PositionSpec, u32);
    impl ForGame for Count {
        type Output = Result<u64, Problem>;
        fn run<G: Solve>(self) -> Self::Output {
            Ok(count(&self.0.position::<G>()?, self.1))
        }
    }
    let spec = PositionSpec {
        board: Some(board::BoardSpec::Text(board.to_owned())),
        moves: None,
    };
    with_game(Some(game.name), Count(spec, depth))?
}

/// The first game, in the registry's order, whose text form reads `board`.
pub fn game_of_board(board: &str) -> Option<GameRef> {
    #[derive(Clone)]
    struct Reads<'a>(&'a str);
    impl ForGame for Reads<'_> {
        type Output = Option<GameRef>;
        fn run<G: Solve>(self) -> Option<GameRef> {
            self.0.parse::<G>().is_ok().then(GameRef::of::<G>)
        }
    }
    for_each_game(Reads(board)).into_iter().flatten().next()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_board_names_its_game() {
        let game = |board| game_of_board(board).map(|game| game.name);
        assert_eq!(game("X.O/.X./..O"), Some(crate::games::NAMES[0]));
        assert_eq!(
            game("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
            Some("chess")
        );
        assert_eq!(game("nonsense"), None);
        let chess = super::super::game(Some("chess")).unwrap();
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(perft(&chess, start, 2), Ok(400));
    }
}
