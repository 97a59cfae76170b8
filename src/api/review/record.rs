//! A review's game from its record: read by the reader of one of the game's record formats,
//! each move then read by the game's rules, a refusal naming the ply.

use crate::api::Problem;
use crate::api::board::BoardSpec;
use crate::game::{Game, Notation, RecordError};

/// The game a record holds: where it starts and its moves, read by the reader of the format
/// `format` names (one of the game's, any case), or by the first of the game's readers that
/// takes it for its format. A move that cannot be read is refused with its ply.
pub(super) fn read_record<G: Game>(
    record: &str,
    format: Option<&str>,
) -> Result<(G, Vec<G::Move>), Problem> {
    let formats = G::DECLARATION.records;
    let names = || {
        formats
            .iter()
            .map(|format| format.name)
            .collect::<Vec<_>>()
            .join(", ")
    };
    if formats.is_empty() {
        return Err(Problem::invalid(
            "record",
            format!(
                "{} has no record format Sente reads: give the game's moves",
                G::DECLARATION.title
            ),
        ));
    }
    let tried: Vec<_> = match format {
        Some(name) => {
            let format = formats
                .iter()
                .find(|format| format.name.eq_ignore_ascii_case(name))
                .ok_or_else(|| {
                    Problem::invalid(
                        "format",
                        format!(
                            "{} records are {}, not {:?}",
                            G::DECLARATION.title,
                            names(),
                            crate::game::text::excerpt(name)
                        ),
                    )
                })?;
            vec![format]
        }
        None => formats.iter().collect(),
    };
    let mut read = None;
    for format in tried {
        match (format.read)(record) {
            Ok(game) => {
                read = Some(game);
                break;
            }
            Err(RecordError::Foreign) => {}
            Err(RecordError::Unreadable(why)) => {
                return Err(Problem::invalid(
                    "record",
                    format!("the record, read as {}: {why}", format.name),
                ));
            }
        }
    }
    let Some(game) = read else {
        return Err(Problem::invalid(
            "record",
            format!(
                "the record is not one Sente reads for {}: {}",
                G::DECLARATION.title,
                names()
            ),
        ));
    };
    let start: G = match &game.board {
        Some(board) => BoardSpec::Text(board.clone())
            .position()
            .map_err(|problem| {
                Problem::invalid("record", format!("the record's start: {}", problem.detail))
            })?,
        None => G::start(),
    };
    let mut position = start.clone();
    let mut moves = Vec::with_capacity(game.moves.len());
    for (index, written) in game.moves.iter().enumerate() {
        let mv = position
            .read_move(&Notation::Text(written.clone()))
            .map_err(|error| {
                Problem::invalid(
                    "record",
                    format!("the record's ply {} ({written}): {error}", index + 1),
                )
            })?;
        moves.push(mv);
        position = position.play(mv);
    }
    Ok((start, moves))
}
