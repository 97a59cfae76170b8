//! Training positions from recorded games, as evaluation trainers read them: each position a
//! player moved from, the score its search gave it and the game's result, one a line,
//!
//! ```text
//! BOARD | SCORE | RESULT
//! ```
//!
//! with the board in the game's text form (a FEN for chess), the score in the game's units
//! (centipawns for chess and shogi, discs for Othello, hundredths of Sente's score elsewhere) and
//! the result in points (1.0, 0.5, 0.0), both from the first player's view (White's): the text
//! format Rust trainers such as bullet read. (Othello's score is the final disc difference: the
//! search's estimate, or the solver's exact margin where it solved the position.) A game's
//! positions say what its result was worth only where the board decided it, so games capped at a
//! ply limit, forfeited on time or lost to an engine's failure give none; and a proven score (a
//! mate) says nothing an evaluation could learn, so those positions are left out, as are those the
//! game calls tactical (a chess position in check, or whose move captures or promotes: its score is
//! the fight's outcome, not the position's worth). The opening's drawn moves are not the players'.

use std::fmt;

use super::results::GameRecord;
use super::score_units;
use crate::game::{Game, Player};
use crate::learn::LearnError;

/// One position of a game, as a trainer reads it.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainingPosition {
    /// The board in the game's text form.
    pub board: String,
    /// The mover's search score, from the first player's view, in the game's units.
    pub score: i32,
    /// The game's points for the first player: 1.0, 0.5 or 0.0.
    pub result: f32,
}

impl fmt::Display for TrainingPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} | {} | {:.1}", self.board, self.score, self.result)
    }
}

/// What [`positions`] made of a game.
#[derive(Clone, Debug, PartialEq)]
pub enum Harvest {
    /// Its positions (none, when every move's score was proven or missing).
    Positions(Vec<TrainingPosition>),
    /// Its result was not the board's: capped, forfeited, or lost to a failure.
    Undecided,
}

/// The training positions of `record`, a game of `G`; an error in words when the record is not
/// one of `G`'s games (its opening or a move does not read).
pub fn positions<G: Game>(record: &GameRecord) -> Result<Harvest, LearnError> {
    if !record.ended_by.is_decided_on_the_board() {
        return Ok(Harvest::Undecided);
    }
    let game = record.index;
    let mut position: G = record
        .opening
        .parse()
        .map_err(|error| LearnError::Data(format!("game {game}: its opening: {error}")))?;
    // The seat that won, and the side it played: the first mover's side if it moved first.
    let first_side = position.side_to_move();
    let result = match &record.winner {
        None => 0.5,
        Some(winner) => {
            let side = if *winner == record.first {
                first_side
            } else {
                first_side.opponent()
            };
            if side == Player::X { 1.0 } else { 0.0 }
        }
    };
    let mut found = Vec::new();
    for (ply, played) in record.moves.iter().enumerate() {
        let mover = position.side_to_move();
        let score = match (played.mate, played.cp, played.margin, played.score) {
            (Some(_), ..) => None,
            (None, Some(cp), ..) => Some(cp),
            // A solved margin is the best label there is: the score perfect play comes to.
            (None, None, Some(margin), _) => Some(margin),
            (None, None, None, Some(score)) if score.abs() < 1.0 => Some(score_units::<G>(score)),
            _ => None,
        };
        let mv = position
            .read_move(&played.mv)
            .map_err(|error| LearnError::Data(format!("game {game}, move {}: {error}", ply + 1)))?;
        if let Some(score) = score.filter(|_| !position.is_tactical(mv)) {
            found.push(TrainingPosition {
                board: position.to_string(),
                score: if mover == Player::X { score } else { -score },
                result,
            });
        }
        position = position.play(mv);
    }
    Ok(Harvest::Positions(found))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{Chess, TicTacToe};
    use crate::search::{AlphaBetaParams, Strategy};
    use crate::tournament::Tournament;

    #[test]
    fn a_game_gives_each_scored_position_with_the_first_players_score_and_result() {
        let depth_two = Strategy::alphabeta(AlphaBetaParams::textbook(Some(2)));
        let mut tournament = Tournament::<TicTacToe>::between([depth_two.clone(), depth_two], 3);
        tournament.records = true;
        let (_, record) = tournament.play_game(0);
        let record = record.expect("records were asked for");
        let Ok(Harvest::Positions(found)) = positions::<TicTacToe>(&record) else {
            panic!("{record:?}");
        };
        // Every move was searched to a depth, so scored; a proven one (a win seen) is left
        // out.
        let proven = record
            .moves
            .iter()
            .filter(|played| played.score.is_some_and(|score| score.abs() >= 1.0))
            .count();
        assert_eq!(found.len() + proven, record.moves.len(), "{record:?}");
        let first: TicTacToe = found[0].board.parse().unwrap();
        assert_eq!(first, record.opening.parse::<TicTacToe>().unwrap());
        let result = match (&record.winner, record.first.as_str()) {
            (None, _) => 0.5,
            (Some(winner), first) if winner == first => 1.0,
            _ => 0.0,
        };
        assert!(found.iter().all(|position| position.result == result));
        assert_eq!(
            found[0].to_string(),
            format!("{} | {} | {result:.1}", found[0].board, found[0].score)
        );
    }

    #[test]
    fn a_capped_game_and_a_game_of_another_game_give_nothing() {
        let mut tournament = Tournament::<Chess>::between(
            [0, 1].map(|_| Strategy::with_defaults(crate::search::Algorithm::Random)),
            9,
        );
        tournament.records = true;
        tournament.max_plies = Some(6);
        let (_, record) = tournament.play_game(0);
        let record = record.unwrap();
        assert_eq!(positions::<Chess>(&record).unwrap(), Harvest::Undecided);
        let mut other = record;
        other.ended_by = crate::tournament::Ending::Drawn;
        assert!(positions::<TicTacToe>(&other).is_err());
    }
}
