//! `sente positions`: the training positions of recorded games, from the files a tournament
//! writes (its answer with `--records`, or a shard's results, `--shard I/N --records`), one a
//! line as [`crate::tournament::positions`] writes them.

use std::io::Write;

use serde::Deserialize;

use crate::games::ForGame;
use crate::learn::LearnError;
use crate::search::Solve;
use crate::tournament::GameRecord;
use crate::tournament::positions::{Harvest, positions};
use crate::tournament::shards::ShardFile;

/// What a file held, counted.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub games: u64,
    /// Games whose result was not the board's (capped, forfeited, failed).
    pub undecided: u64,
    pub positions: u64,
}

/// A tournament's answer, as far as its records go.
#[derive(Deserialize)]
struct Answer {
    game: String,
    records: Option<Vec<GameRecord>>,
}

/// The game and the recorded games of a file's text: a shard's results, or a tournament's
/// answer with its records.
pub fn read(text: &[u8]) -> Result<(String, Vec<GameRecord>), LearnError> {
    if let Ok(shard) = serde_json::from_slice::<ShardFile>(text) {
        if !shard.setup.records {
            return Err(LearnError::Data(
                "a shard of a tournament that kept no records: play it with --records".to_owned(),
            ));
        }
        return Ok((
            shard.setup.game,
            shard.results.records.into_values().collect(),
        ));
    }
    let answer: Answer = serde_json::from_slice(text).map_err(|error| {
        LearnError::Data(format!(
            "neither a tournament's answer nor a shard's results ({error})"
        ))
    })?;
    let records = answer.records.ok_or_else(|| {
        LearnError::Data("a tournament's answer without records: play it with --records".to_owned())
    })?;
    Ok((answer.game, records))
}

/// Writes the training positions of `records`, games of `game`, to `out`, a line each.
pub fn write(game: &str, records: &[GameRecord], out: &mut dyn Write) -> Result<Tally, LearnError> {
    struct Harvesting<'a>(&'a [GameRecord], &'a mut dyn Write);
    impl ForGame for Harvesting<'_> {
        type Output = Result<Tally, LearnError>;
        fn run<G: Solve>(self) -> Self::Output {
            let Harvesting(records, out) = self;
            let mut tally = Tally::default();
            for record in records {
                tally.games += 1;
                match positions::<G>(record)? {
                    Harvest::Undecided => tally.undecided += 1,
                    Harvest::Positions(found) => {
                        for position in found {
                            writeln!(out, "{position}").map_err(|source| LearnError::Write {
                                what: "writing the positions",
                                source,
                            })?;
                            tally.positions += 1;
                        }
                    }
                }
            }
            Ok(tally)
        }
    }
    crate::games::for_game(game, Harvesting(records, out))
        .unwrap_or_else(|| Err(crate::api::catalogue::unknown_game(game)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_without_records_says_how_to_make_one() {
        let answer = br#"{"game": "tictactoe", "games": 2}"#;
        assert!(read(answer).unwrap_err().to_string().contains("--records"));
        assert!(
            read(b"[1, 2]")
                .unwrap_err()
                .to_string()
                .starts_with("neither")
        );
        let mut out = Vec::new();
        assert!(
            write("nonsense", &[], &mut out)
                .unwrap_err()
                .to_string()
                .contains("nonsense")
        );
    }
}
