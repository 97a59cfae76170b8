//! Tournaments split into shards played apart (`sente tournament --shard I/N`), and their
//! results merged into the answer one run would have given. A shard is input from another
//! machine: each is checked whole before it is merged ([`check_shard`]).

use std::collections::BTreeMap;
use std::ops::Range;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::{
    MAX_FIRST_GAME, MAX_GAMES, MAX_NODES_PER_MOVE, Results, Setup, SprtSpec, TournamentResponse,
    report, sprt,
};
use crate::game::text::excerpt;
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

/// The most plies a game of a shard may have played, when its tournament set no cap: beyond
/// any game the rules let finish (chess's fifty-move rule ends the longest).
const MAX_GAME_PLIES: u32 = 100_000;

/// The longest a shard may say it took: a year.
const MAX_SHARD_MS: f64 = 365.0 * 24.0 * 3600.0 * 1e3;

/// Merges shards' results into the answer one run of their tournament would give: they must
/// be of one setup, and together cover its games. Each comes with the name it is called by
/// (its file), and is checked whole first ([`check_shard`]): a shard is input from another
/// machine.
pub fn merge(shards: Vec<(String, ShardFile)>) -> Result<TournamentResponse, String> {
    for (name, shard) in &shards {
        check_shard(shard).map_err(|why| format!("{name}: {why}"))?;
    }
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
    Ok(report(
        &setup,
        results,
        Duration::from_secs_f64(elapsed / 1e3),
        None,
    ))
}

/// Checks one shard whole: its setup, that it is one of its count, and each game: within the
/// shard, none missing (but after an SPRT's decision), each result possible (A's half points,
/// the ending, the moves and nodes) and its record, if kept, the game's own.
pub fn check_shard(shard: &ShardFile) -> Result<(), String> {
    let setup = &shard.setup;
    if crate::api::game(Some(&setup.game)).is_err() {
        return Err(format!(
            "setup.game: no game is called {:?}",
            excerpt(&setup.game)
        ));
    }
    if let Some(test) = setup.sprt {
        sprt(SprtSpec {
            elo0: test.elo0,
            elo1: test.elo1,
            alpha: test.alpha,
            beta: test.beta,
            elo_model: None,
        })
        .map_err(|problem| format!("setup.sprt: {}", problem.detail))?;
    }
    let games = &setup.games;
    if games.start > games.end
        || games.end - games.start > MAX_GAMES
        || games.start > MAX_FIRST_GAME
    {
        return Err(format!(
            "setup.games: {}..{} is not a tournament's games (at most {MAX_GAMES}, from at \
             most {MAX_FIRST_GAME})",
            games.start, games.end
        ));
    }
    let [index, count] = shard.shard;
    if count == 0 || count > MAX_SHARDS || index >= count {
        return Err(format!(
            "shard: {index}/{count} is not a shard (I/N with 0 <= I < N <= {MAX_SHARDS})"
        ));
    }
    if !(0.0..=MAX_SHARD_MS).contains(&shard.elapsed_ms) {
        return Err(format!(
            "elapsed_ms: {} is not a time a shard took",
            shard.elapsed_ms
        ));
    }
    let range = self::shard(games, index, count);
    let results = &shard.results;
    if let Some(outside) = results.games.keys().find(|game| !range.contains(game)) {
        return Err(format!(
            "game {outside}: not a game of shard {index}/{count}, which plays {}..{}",
            range.start, range.end
        ));
    }
    // Games are played in index order, so those played are the range's first; a shard ends
    // early only when its SPRT decided.
    let played = results.games.len() as u64;
    if let Some(missing) =
        (range.start..range.start + played).find(|game| !results.games.contains_key(game))
    {
        return Err(format!(
            "game {missing}: missing, though games after it were played"
        ));
    }
    if played < range.end - range.start {
        let decided = results.clone().settle(setup.sprt, &range).is_some();
        if !decided {
            return Err(format!(
                "game {}: missing: the shard's games end before its range does ({}..{}), and \
                 no SPRT decided",
                range.start + played,
                range.start,
                range.end
            ));
        }
    }
    let max_plies = setup.max_plies.map_or(MAX_GAME_PLIES, |plies| {
        plies.min(MAX_GAME_PLIES as usize) as u32
    });
    for (&game, result) in &results.games {
        let at = |field: &str, why: String| format!("game {game}: {field}: {why}");
        if result.a_points > 2 {
            return Err(at(
                "a_points",
                format!("A's half points are 0, 1 or 2, got {}", result.a_points),
            ));
        }
        if result.ending.is_draw() != (result.a_points == 1) {
            return Err(at(
                "a_points",
                format!(
                    "{} for a game ended by {}",
                    result.a_points,
                    result.ending.name()
                ),
            ));
        }
        let [a, b] = result.moves;
        if a.abs_diff(b) > 1 || u64::from(a) + u64::from(b) > u64::from(max_plies) {
            return Err(at(
                "moves",
                format!(
                    "[{a}, {b}] is not a game's moves (turn about, at most {max_plies} in all)"
                ),
            ));
        }
        for seat in 0..2 {
            let most = u64::from(result.moves[seat]).max(1) * MAX_NODES_PER_MOVE;
            if result.nodes[seat] > most {
                return Err(at(
                    "nodes",
                    format!(
                        "{} in {} moves is more than any search may visit",
                        result.nodes[seat], result.moves[seat]
                    ),
                ));
            }
        }
        match (setup.records, results.records.get(&game)) {
            (true, None) => return Err(at("records", "missing: the tournament keeps them".into())),
            (true, Some(record)) => {
                if record.index != game || record.ended_by != result.ending {
                    return Err(at(
                        "records",
                        "not this game's record (its index or ending differs)".into(),
                    ));
                }
                if record.moves.len() as u64 != u64::from(a) + u64::from(b) {
                    return Err(at(
                        "records",
                        format!(
                            "{} moves recorded for {} played",
                            record.moves.len(),
                            u64::from(a) + u64::from(b)
                        ),
                    ));
                }
            }
            (false, _) => {}
        }
    }
    if let Some(game) = results
        .records
        .keys()
        .find(|game| !results.games.contains_key(game))
    {
        return Err(format!(
            "game {game}: records: a record of a game with no result"
        ));
    }
    if !setup.records && !results.records.is_empty() {
        return Err("records: a shard of a tournament that keeps none".into());
    }
    Ok(())
}
