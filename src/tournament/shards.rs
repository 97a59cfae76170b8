//! Tournaments split into shards played apart (`sente tournament --shard I/N`, a Kubernetes
//! Job's pods), and their results merged into the report one run would have given.

use std::collections::BTreeMap;
use std::ops::Range;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::report::{Report, Setup};
use super::results::Results;
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

/// Merges shards' results into the report one run of their tournament would give: they must
/// be of one setup, and together cover its games. Each comes with the name it is called by
/// (its file). A shard is input from another machine: each must have been checked whole
/// before (`api::tournament::check_shard`).
pub fn merge(shards: Vec<(String, ShardFile)>) -> Result<Report, String> {
    let mut shards = shards.into_iter();
    let (first_name, first) = shards.next().ok_or("no shard to merge")?;
    let setup = first.setup.clone();
    let count = first.shard[1];
    let mut seen: BTreeMap<u64, String> = BTreeMap::new();
    let mut results = Results::default();
    let mut elapsed: f64 = 0.0;
    for (name, shard) in std::iter::once((first_name, first)).chain(shards) {
        if shard.setup != setup {
            return Err(format!(
                "{name}: shard {}/{} is of another tournament (its setup differs)",
                shard.shard[0], shard.shard[1]
            ));
        }
        let [index, of] = shard.shard;
        if of != count {
            return Err(format!(
                "{name}: shard {index}/{of} is not one of {count}, as the first shard is"
            ));
        }
        if let Some(other) = seen.insert(index, name.clone()) {
            return Err(format!(
                "{name}: shard {index}/{of} is given twice (also {other})"
            ));
        }
        results
            .merge(shard.results)
            .map_err(|overlap| format!("{name}: {overlap}"))?;
        elapsed = elapsed.max(shard.elapsed_ms);
    }
    let missing: Vec<String> = (0..count)
        .filter(|index| !seen.contains_key(index))
        .take(10)
        .map(|index| format!("{index}/{count}"))
        .collect();
    if !missing.is_empty() {
        return Err(format!("missing shards: {}", missing.join(", ")));
    }
    Ok(setup.report(results, Duration::from_secs_f64(elapsed / 1e3), None))
}
