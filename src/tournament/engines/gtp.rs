//! GTP, the Go Text Protocol, as Othello engines speak it (GRhino's `gtp-rhino`, Edax's `-gtp`):
//! a command a line, answered `=` and the result (or `?` and an error) then an empty line.
//!
//! The engine keeps the game itself. Before each of its moves it is given the game afresh:
//! `clear_board`, then a `play` for each move since the start (the first player is `black`;
//! passes are left out, as the colours show them), then `genmove` for its colour. Replaying costs a few commands a move and
//! never leaves the engine's board apart from the tournament's. GTP gives no way to set up a
//! position, so an engine plays only games from the start (openings played as moves). The
//! time is `time_settings` and `time_left`, in whole seconds; engines that ignore them
//! (GRhino does) think as their level says, within the move's deadline.

use std::time::{Duration, Instant};

use super::{Ask, Failure, MAX_LINE_BYTES, Process, Thought};
use crate::search::Budget;
use crate::tournament::time_control::TimeControl;

/// The longest answer read, all its lines together: a GTP answer is a move, a score or a
/// board, and one that runs on without its empty line is an engine that has failed.
pub const MAX_ANSWER_BYTES: usize = MAX_LINE_BYTES;

/// What the engine answered a command: its result, or its error. An answer longer than
/// [`MAX_ANSWER_BYTES`] is the engine's failure, read no further.
fn answer(
    process: &mut Process,
    command: &str,
    deadline: Instant,
    budget: &Budget,
) -> Result<Result<String, String>, Failure> {
    process.send(command)?;
    // The answer's first line starts with '=' or '?'; it ends at an empty line.
    let first = process.wait_for(
        |line| (line.starts_with('=') || line.starts_with('?')).then(|| line.to_owned()),
        deadline,
        budget,
    )?;
    let mut text = first[1..].trim().to_owned();
    loop {
        let line = process.next_line(deadline, budget)?;
        if line.trim().is_empty() {
            break;
        }
        if text.len() + line.len() > MAX_ANSWER_BYTES {
            return Err(Failure::Crashed(format!(
                "the engine's answer to {command:?} ran past {} KiB without the empty line that \
                 ends it",
                MAX_ANSWER_BYTES / 1024
            )));
        }
        text.push('\n');
        text.push_str(line.trim());
    }
    Ok(if first.starts_with('=') {
        Ok(text)
    } else {
        Err(text)
    })
}

/// A command the engine must accept.
fn accepted(
    process: &mut Process,
    command: &str,
    deadline: Instant,
    budget: &Budget,
) -> Result<String, Failure> {
    answer(process, command, deadline, budget)?.map_err(|error| {
        Failure::Crashed(format!("the engine refused {command:?}: {}", error.trim()))
    })
}

/// `protocol_version` and `boardsize 8`: an engine that answers both plays.
pub(super) fn handshake(
    process: &mut Process,
    deadline: Instant,
    budget: &Budget,
) -> Result<(), Failure> {
    accepted(process, "protocol_version", deadline, budget)?;
    accepted(process, "boardsize 8", deadline, budget)?;
    Ok(())
}

/// `clear_board`, answered.
pub(super) fn new_game(
    process: &mut Process,
    deadline: Instant,
    budget: &Budget,
) -> Result<(), Failure> {
    accepted(process, "clear_board", deadline, budget).map(|_| ())
}

/// The game given afresh, then `genmove`.
pub(super) fn think(
    process: &mut Process,
    ask: &Ask<'_>,
    budget: &Budget,
) -> Result<Thought, Failure> {
    if ask.start.is_some() {
        return Err(Failure::Crashed(
            "GTP cannot give the engine a position: it plays games from the start".into(),
        ));
    }
    let deadline = ask.deadline;
    accepted(process, "clear_board", deadline, budget)?;
    let colour = |first: bool| if first { "black" } else { "white" };
    for (ply, mv) in ask.moves.iter().enumerate() {
        // A pass is left out: the colour of the next `play` says who moves, and engines pass
        // for a side without a move themselves (GRhino refuses `play white PASS`).
        if !mv.eq_ignore_ascii_case("pass") {
            accepted(
                process,
                &format!("play {} {mv}", colour(ply % 2 == 0)),
                deadline,
                budget,
            )?;
        }
    }
    let mine = colour(ask.white);
    let seconds = |time: Duration| time.as_secs_f64().ceil().max(1.0) as u64;
    match ask.limits.time {
        TimeControl::PerMove(time) => {
            accepted(
                process,
                &format!("time_settings 0 {} 1", seconds(time)),
                deadline,
                budget,
            )?;
        }
        TimeControl::Clock { base, .. } => {
            accepted(
                process,
                &format!("time_settings {} 0 0", seconds(base)),
                deadline,
                budget,
            )?;
            if let Some(left) = ask.clocks[0] {
                accepted(
                    process,
                    &format!("time_left {mine} {} 0", seconds(left)),
                    deadline,
                    budget,
                )?;
            }
        }
        TimeControl::None => {}
    }
    let best = answer(process, &format!("genmove {mine}"), deadline, budget)?
        .map_err(|error| Failure::Crashed(format!("the engine said {:?}", error.trim())))?;
    if best.eq_ignore_ascii_case("resign") {
        return Err(Failure::Resigned);
    }
    Ok(Thought {
        best_move: if best.eq_ignore_ascii_case("pass") {
            "pass".to_owned()
        } else {
            best.to_ascii_lowercase()
        },
        ..Thought::default()
    })
}
