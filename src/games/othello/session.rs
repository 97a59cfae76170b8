//! What Othello's two protocols share ([`super::gtp`], [`super::nboard`]): the game as the
//! controller plays it, move by move so that a move can be taken back, and the engine's
//! answer within the time or depth the controller set.
//!
//! Both protocols are answered a line at a time, in order, by the one loop of every text
//! protocol ([`run`](crate::protocols::run)): a search lasts at most its time
//! limit, so a controller waits for nothing longer. The lines are read on a thread of their
//! own, so that the end of the input (the controller gone) stops the search of the last command
//! within its current node count, rather than after minutes of a long clock.

use std::io::{self, Write};
use std::time::Duration;

use super::{Othello, PASS, evaluation};
use crate::game::{Notation, Player, Rules};
use crate::search::{Budget, EngineOptions, EngineParams, SearchResult, Solve};

/// The time a move takes when the controller sets none: every game's default.
pub const DEFAULT_MOVE_TIME: Duration = Duration::from_millis(crate::game::DEFAULT_TIME_LIMIT_MS);

/// The longest a move may be given, whatever the clock says.
pub const MAX_MOVE_TIME: Duration = Duration::from_secs(600);

/// The longest clock read: a longer one (GTP allows any number of seconds, `1e300`) is read as
/// this, the UCI and USI sessions' cap.
pub const MAX_CLOCK: Duration = crate::protocols::MAX_CLOCK;

/// The time a move takes when its clock has no time left: a move at once, still searched.
pub const NO_TIME_LEFT: Duration = Duration::from_millis(10);

/// The game so far: every position since the start, the last the current.
#[derive(Debug)]
pub struct Played {
    positions: Vec<Othello>,
}

impl Played {
    /// The start.
    pub fn new() -> Played {
        Played::from(Othello::start())
    }

    /// A game from `position`.
    pub fn from(position: Othello) -> Played {
        Played {
            positions: vec![position],
        }
    }

    /// The current position.
    pub fn position(&self) -> &Othello {
        self.positions.last().expect("a position at least")
    }

    /// Plays `written` for `side` (the side to move when `None`); when `side` is not to move
    /// but the side to move can only pass, the pass is played first, as GUIs that leave passes
    /// out expect. An error in words when the move is not legal.
    pub fn play(&mut self, side: Option<Player>, written: &str) -> Result<(), String> {
        let mut position = *self.position();
        let written = written.trim();
        let pass = written.eq_ignore_ascii_case("pass") || written.eq_ignore_ascii_case("pa");
        if position.outcome().is_over() {
            // A referee passes the turn on after the end (gogui-twogtp does): a pass changes
            // nothing, and is kept so that `undo` takes it back.
            if pass {
                self.positions.push(position);
                return Ok(());
            }
            return Err(format!("{written}: the game is over"));
        }
        if let Some(side) = side
            && side != position.side_to_move()
        {
            let passes = position.placements() == 0 && !position.outcome().is_over();
            if !passes {
                return Err(format!(
                    "it is {}'s move, not {}'s",
                    colour(position.side_to_move()),
                    colour(side)
                ));
            }
            position = position.play(PASS);
            self.positions.push(position);
        }
        let text = if pass { "pass" } else { written };
        match position.read_move(&Notation::Text(text.to_owned())) {
            Ok(mv) => {
                self.positions.push(position.play(mv));
                Ok(())
            }
            Err(error) => {
                if side.is_some_and(|side| side != self.position().side_to_move()) {
                    // The pass played for a move that turned out illegal is taken back.
                    self.positions.pop();
                }
                Err(format!("{written}: {error}"))
            }
        }
    }

    /// The position the game started from.
    pub fn start(&self) -> &Othello {
        &self.positions[0]
    }

    /// The moves played from the start, passes among them, each found as the move that made
    /// the next position (a game played through [`Played::play`] records no other history).
    pub fn moves(&self) -> Vec<u8> {
        self.positions
            .windows(2)
            .map(|pair| {
                let (before, after) = (&pair[0], &pair[1]);
                before
                    .legal_moves()
                    .into_iter()
                    .find(|&mv| before.play(mv) == *after)
                    .unwrap_or(PASS)
            })
            .collect()
    }

    /// Takes the last move back; false at the start.
    pub fn undo(&mut self) -> bool {
        if self.positions.len() == 1 {
            return false;
        }
        self.positions.pop();
        true
    }
}

impl Default for Played {
    fn default() -> Played {
        Played::new()
    }
}

/// A side's colour as the protocols write it.
pub fn colour(side: Player) -> &'static str {
    match side {
        Player::X => "black",
        Player::O => "white",
    }
}

/// The engine's params for `position`: within `time_limit`, and to `depth` plies in the
/// midgame if given (the solver still finishes the endgames it can within the time).
pub fn params(position: &Othello, time_limit: Duration, depth: Option<u32>) -> EngineParams {
    let mut params = EngineParams::new(Some(time_limit), None, EngineOptions::DEFAULT);
    if position.empties().count_ones() > super::solved_empties(time_limit) {
        params.depth = depth;
    }
    params
}

/// The engine's answer for `position`, within [`params`], stopped by `budget` (the end of the
/// input).
pub fn think(
    position: &Othello,
    time_limit: Duration,
    depth: Option<u32>,
    budget: &Budget,
) -> SearchResult<u8> {
    position.engine(&params(position, time_limit, depth), budget)
}

/// The value in discs a protocol reports for a move valued `score` (`exact` where proven), with
/// its proven `margin` if it has one and `line` from `position`, the move first: the margin; for
/// a result proven without one, the margin at the end of its line (a proven line ends the game),
/// or the least a win or loss can be (2 discs) where the line stops short; else the evaluation's
/// estimate. Never the ±64 a win's score would map to.
pub fn discs(position: &Othello, score: f64, exact: bool, margin: Option<i32>, line: &[u8]) -> f64 {
    if let Some(margin) = margin {
        return f64::from(margin);
    }
    if !exact {
        return evaluation::discs_of_score(score);
    }
    let mut end = *position;
    for &mv in line {
        if end.outcome().is_over() || !end.legal_moves().any(|legal| legal == mv) {
            break;
        }
        end = end.play(mv);
    }
    if end.outcome().is_over() {
        let margin = end.final_margin();
        return f64::from(if end.side_to_move() == position.side_to_move() {
            margin
        } else {
            -margin
        });
    }
    // A proven result whose line stops short: the least margin of a win or a loss.
    if score > 0.0 {
        2.0
    } else if score < 0.0 {
        -2.0
    } else {
        0.0
    }
}

/// Writes `text` and flushes it, as a controller on a pipe needs.
pub fn say(output: &mut impl Write, text: &str) -> io::Result<()> {
    output.write_all(text.as_bytes())?;
    output.flush()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};

    /// A win proven without its margin is reported as the margin its line ends the game with,
    /// or 2 discs where the line stops short: never the 64 a win's score maps to.
    #[test]
    fn a_proven_value_in_discs_is_a_margin_not_the_sentinel() {
        let mut rng = crate::search::SearchRng::seed_from_u64(5);
        for _ in 0..50 {
            let mut position = Othello::start();
            while position.empties().count_ones() > 8 && !position.outcome().is_over() {
                let moves: Vec<u8> = position.legal_moves().collect();
                position = position.play(moves[rng.random_range(0..moves.len())]);
            }
            if position.outcome().is_over() {
                continue;
            }
            let mut end = position;
            let mut line = Vec::new();
            while !end.outcome().is_over() {
                let moves: Vec<u8> = end.legal_moves().collect();
                let mv = moves[rng.random_range(0..moves.len())];
                line.push(mv);
                end = end.play(mv);
            }
            let margin = if end.side_to_move() == position.side_to_move() {
                end.final_margin()
            } else {
                -end.final_margin()
            };
            let score = f64::from(margin.signum());
            assert_eq!(
                discs(&position, score, true, None, &line),
                f64::from(margin)
            );
            assert_eq!(discs(&position, score, true, Some(12), &line), 12.0);
            let short = discs(&position, score, true, None, &line[..1]);
            assert_eq!(short, f64::from(2 * margin.signum()), "{position}");
            // An estimate is the evaluation's.
            let estimate = discs(&position, 0.5, false, None, &line);
            assert_eq!(estimate, evaluation::discs_of_score(0.5));
        }
    }

    /// After the end a pass is accepted (a referee passes the turn on) and a move is refused
    /// because the game is over, not because of whose move it is.
    #[test]
    fn after_the_end_a_pass_is_accepted_and_a_move_refused_for_the_right_reason() {
        let over: Othello = format!("{} O", "X".repeat(64)).parse().unwrap();
        assert!(over.outcome().is_over());
        let mut played = Played::from(over);
        played.play(Some(Player::O), "pass").unwrap();
        played.play(Some(Player::X), "PASS").unwrap();
        let error = played.play(Some(Player::X), "a1").unwrap_err();
        assert!(error.contains("the game is over"), "{error}");
        assert!(played.undo() && played.undo() && !played.undo());
    }
}
