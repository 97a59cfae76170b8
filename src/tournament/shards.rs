//! Tournaments split into shards played apart (`sente tournament --shard I/N`, a Kubernetes
//! Job's pods), and their results merged into the report one run would have given.

use std::collections::BTreeMap;
use std::ops::Range;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::report::{Report, Setup};
use super::results::{Overlap, Results};
use crate::rounded;

/// Shard `index` of `count` of `games`: a contiguous share of its pairs (the last shard takes
/// an odd game left over), so that no pair is split between shards.
pub fn shard(games: &Range<u64>, index: u64, count: u64) -> Range<u64> {
    let pairs = (games.end - games.start) / 2;
    let at = |shard: u64| games.start + 2 * (pairs * shard / count);
    let end = if index + 1 == count {
        games.end
    } else {
        at(index + 1)
    };
    at(index)..end
}

/// One shard's results as `sente tournament --shard` writes them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShardFile {
    pub setup: Setup,
    /// Which shard: `[index, count]`.
    pub shard: [u64; 2],
    #[serde(serialize_with = "rounded::to::<1, _>")]
    pub elapsed_ms: f64,
    pub results: Results,
}

/// The most shards a tournament is split into.
pub const MAX_SHARDS: u64 = 1_000_000;

/// Why shards' results could not be merged; each names the shard's file where one is at fault.
#[derive(Debug, thiserror::Error)]
pub enum ShardError {
    #[error("no shard to merge")]
    NoShards,
    #[error("{name}: shard {index}/{count} is of another tournament (its setup differs)")]
    OtherTournament {
        name: String,
        index: u64,
        count: u64,
    },
    #[error("{name}: shard {index}/{count} is not one of {first_count}, as the first shard is")]
    OtherCount {
        name: String,
        index: u64,
        count: u64,
        first_count: u64,
    },
    #[error("{name}: shard {index}/{count} is given twice (also {other})")]
    GivenTwice {
        name: String,
        index: u64,
        count: u64,
        other: String,
    },
    #[error("{name}: {overlap}")]
    Overlap { name: String, overlap: Overlap },
    /// The first few missing, as `I/N`.
    #[error("missing shards: {}", .0.join(", "))]
    Missing(Vec<String>),
    /// A shard its tournament could not have played.
    #[error("{name}: {fault}")]
    Invalid { name: String, fault: ShardFault },
}

/// What is wrong with one shard: the field at fault (`game 3: moves`), and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {why}")]
pub struct ShardFault {
    pub field: String,
    pub why: String,
}

impl ShardFault {
    pub fn new(field: impl Into<String>, why: impl Into<String>) -> ShardFault {
        ShardFault {
            field: field.into(),
            why: why.into(),
        }
    }
}

/// Merges shards' results into the report one run of their tournament would give: they must
/// be of one setup, and together cover its games. Each comes with the name it is called by
/// (its file). A shard is input from another machine: each must have been checked whole
/// before (`api::tournament::check_shard`).
pub fn merge(shards: Vec<(String, ShardFile)>) -> Result<Report, ShardError> {
    let mut shards = shards.into_iter();
    let (first_name, first) = shards.next().ok_or(ShardError::NoShards)?;
    let setup = first.setup.clone();
    let first_count = first.shard[1];
    let mut seen: BTreeMap<u64, String> = BTreeMap::new();
    let mut results = Results::default();
    let mut elapsed: f64 = 0.0;
    for (name, shard) in std::iter::once((first_name, first)).chain(shards) {
        let [index, count] = shard.shard;
        if shard.setup != setup {
            return Err(ShardError::OtherTournament { name, index, count });
        }
        if count != first_count {
            return Err(ShardError::OtherCount {
                name,
                index,
                count,
                first_count,
            });
        }
        if let Some(other) = seen.insert(index, name.clone()) {
            return Err(ShardError::GivenTwice {
                name,
                index,
                count,
                other,
            });
        }
        if let Err(overlap) = results.merge(shard.results) {
            return Err(ShardError::Overlap { name, overlap });
        }
        elapsed = elapsed.max(shard.elapsed_ms);
    }
    let missing: Vec<String> = (0..first_count)
        .filter(|index| !seen.contains_key(index))
        .take(10)
        .map(|index| format!("{index}/{first_count}"))
        .collect();
    if !missing.is_empty() {
        return Err(ShardError::Missing(missing));
    }
    Ok(setup.report(results, Duration::from_secs_f64(elapsed / 1e3), None))
}
