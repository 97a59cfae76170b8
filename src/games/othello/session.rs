//! What Othello's two protocols share ([`super::gtp`], [`super::nboard`]): the game as the
//! controller plays it, move by move so that a move can be taken back, and the engine's
//! answer within the time or depth the controller set.
//!
//! Both protocols are read a line at a time and answered before the next line is read: a
//! search lasts at most its time limit, so a controller waits for nothing longer.

use std::io::{self, BufRead, Write};
use std::time::Duration;

use super::{Othello, PASS};
use crate::game::{Game, Notation, Player};
use crate::lines;
use crate::search::{Budget, EngineOptions, EngineParams, SearchResult, Solve};

/// The longest line read; past it a line is skipped, as an engine ignores what it does not
/// understand.
const MAX_LINE_BYTES: usize = 1 << 20;

/// The time a move takes when the controller sets none.
pub const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(1);

/// The longest a move may be given, whatever the clock says.
pub const MAX_MOVE_TIME: Duration = Duration::from_secs(600);

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
        let written = written.trim();
        let text = if written.eq_ignore_ascii_case("pass") || written.eq_ignore_ascii_case("pa") {
            "pass"
        } else {
            written
        };
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

/// The engine's answer for `position`, within [`params`].
pub fn think(position: &Othello, time_limit: Duration, depth: Option<u32>) -> SearchResult<u8> {
    position.engine(&params(position, time_limit, depth), &Budget::unlimited())
}

/// A line of a protocol's input.
pub enum Line<'a> {
    Text(&'a str),
    /// A line that was too long or not UTF-8: ignored, as engines ignore what they do not
    /// understand.
    Unreadable,
    End,
}

/// The next line of `input`, read into `bytes`.
pub fn read<'a>(input: &mut impl BufRead, bytes: &'a mut Vec<u8>) -> io::Result<Line<'a>> {
    match lines::read_line(input, bytes, MAX_LINE_BYTES)? {
        lines::Read::End => Ok(Line::End),
        lines::Read::TooLong => {
            lines::skip_line(input)?;
            Ok(Line::Unreadable)
        }
        lines::Read::Line => Ok(std::str::from_utf8(lines::text(bytes))
            .map(|line| Line::Text(line.trim()))
            .unwrap_or(Line::Unreadable)),
    }
}

/// Writes `text` and flushes it, as a controller on a pipe needs.
pub fn say(output: &mut impl Write, text: &str) -> io::Result<()> {
    output.write_all(text.as_bytes())?;
    output.flush()
}
