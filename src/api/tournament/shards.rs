//! Shards' results as files from other machines: each checked whole ([`check_shard`]) before
//! the tournament merges them into the answer one run would have given.

use super::{MAX_FIRST_GAME, MAX_GAMES, MAX_NODES_PER_MOVE, SprtSpec, sprt};
use crate::game::text::excerpt;
use crate::game::{Game, Outcome};
use crate::games::ForGame;
use crate::search::Solve;
use crate::tournament::report::Report;
use crate::tournament::results::{Ending, GameRecord, GameResult};
use crate::tournament::shards::{self, MAX_SHARDS, ShardError, ShardFault, ShardFile};

/// The most plies a game of a shard may have played, when its tournament set no cap: beyond
/// any game the rules let finish (chess's fifty-move rule ends the longest).
const MAX_GAME_PLIES: u32 = 100_000;

/// The longest a shard may say it took: a year.
const MAX_SHARD_MS: f64 = 365.0 * 24.0 * 3600.0 * 1e3;

/// Merges shards' results into the answer one run of their tournament would give, each checked
/// whole first ([`check_shard`]): a shard is input from another machine.
pub fn merge(shards: Vec<(String, ShardFile)>) -> Result<Report, ShardError> {
    for (name, shard) in &shards {
        check_shard(shard).map_err(|fault| ShardError::Invalid {
            name: name.clone(),
            fault,
        })?;
    }
    shards::merge(shards)
}

/// Checks one shard whole: its setup, that it is one of its count, and each game: within the
/// shard, none missing (but after an SPRT's decision), each result possible (A's half points,
/// the ending, the moves and nodes) and its record, if kept, the game's own.
pub fn check_shard(shard: &ShardFile) -> Result<(), ShardFault> {
    let setup = &shard.setup;
    if crate::api::game(Some(&setup.game)).is_err() {
        return Err(ShardFault::new(
            "setup.game",
            format!("no game is called {:?}", excerpt(&setup.game)),
        ));
    }
    check_whole(shard)?;
    crate::games::for_game(&setup.game, Replay(shard)).expect("the game was found above")
}

/// What every game's shard must be, whatever its game.
fn check_whole(shard: &ShardFile) -> Result<(), ShardFault> {
    let setup = &shard.setup;
    if let Some(test) = setup.sprt {
        sprt(SprtSpec {
            elo0: test.elo0,
            elo1: test.elo1,
            alpha: test.alpha,
            beta: test.beta,
            elo_model: None,
        })
        .map_err(|problem| ShardFault::new("setup.sprt", problem.detail))?;
    }
    let games = &setup.games;
    if games.start > games.end
        || games.end - games.start > MAX_GAMES
        || games.start > MAX_FIRST_GAME
    {
        return Err(ShardFault::new(
            "setup.games",
            format!(
                "{}..{} is not a tournament's games (at most {MAX_GAMES}, from at \
             most {MAX_FIRST_GAME})",
                games.start, games.end
            ),
        ));
    }
    let [index, count] = shard.shard;
    if count == 0 || count > MAX_SHARDS || index >= count {
        return Err(ShardFault::new(
            "shard",
            format!("{index}/{count} is not a shard (I/N with 0 <= I < N <= {MAX_SHARDS})"),
        ));
    }
    if !(0.0..=MAX_SHARD_MS).contains(&shard.elapsed_ms) {
        return Err(ShardFault::new(
            "elapsed_ms",
            format!("{} is not a time a shard took", shard.elapsed_ms),
        ));
    }
    let range = shards::shard(games, index, count);
    let results = &shard.results;
    if let Some(outside) = results.games.keys().find(|game| !range.contains(game)) {
        return Err(ShardFault::new(
            format!("game {outside}"),
            format!(
                "not a game of shard {index}/{count}, which plays {}..{}",
                range.start, range.end
            ),
        ));
    }
    // Games are played in index order, so those played are the range's first; a shard ends
    // early only when its SPRT decided.
    let played = results.games.len() as u64;
    if let Some(missing) =
        (range.start..range.start + played).find(|game| !results.games.contains_key(game))
    {
        return Err(ShardFault::new(
            format!("game {missing}"),
            "missing, though games after it were played",
        ));
    }
    if played < range.end - range.start {
        let decided = results.clone().settle(setup.sprt, &range).is_some();
        if !decided {
            return Err(ShardFault::new(
                format!("game {}", range.start + played),
                format!(
                    "missing: the shard's games end before its range does ({}..{}), and no \
                     SPRT decided",
                    range.start, range.end
                ),
            ));
        }
    }
    let max_plies = setup.max_plies.map_or(MAX_GAME_PLIES, |plies| {
        plies.min(MAX_GAME_PLIES as usize) as u32
    });
    for (&game, result) in &results.games {
        let at = |field: &str, why: String| ShardFault::new(format!("game {game}: {field}"), why);
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
        return Err(ShardFault::new(
            format!("game {game}: records"),
            "a record of a game with no result",
        ));
    }
    if !setup.records && !results.records.is_empty() {
        return Err(ShardFault::new(
            "records",
            "a shard of a tournament that keeps none",
        ));
    }
    Ok(())
}

/// Checks a shard's games by their game's rules: no game longer than the rules let one last,
/// and each record replayed from its opening, move by move, to the ending it claims, won by
/// the player it names. The records are there to be replayed (`sente positions`); one the game
/// could not have produced is refused here rather than learnt from.
struct Replay<'a>(&'a ShardFile);

impl ForGame for Replay<'_> {
    type Output = Result<(), ShardFault>;

    fn run<G: Solve>(self) -> Result<(), ShardFault> {
        let results = &self.0.results;
        for (&game, result) in &results.games {
            let plies = u64::from(result.moves[0]) + u64::from(result.moves[1]);
            if let Some(longest) = G::LONGEST_GAME
                && plies > longest as u64
            {
                return Err(ShardFault::new(
                    format!("game {game}: moves"),
                    format!(
                        "{plies} plies, where a game of {} lasts at most \
                     {longest}",
                        G::NAME
                    ),
                ));
            }
            if let Some(record) = results.records.get(&game) {
                replay::<G>(record, result).map_err(|fault| {
                    ShardFault::new(format!("game {game}: records: {}", fault.field), fault.why)
                })?;
            }
        }
        Ok(())
    }
}

/// Replays `record` by `G`'s rules: an error in words where it could not have been played.
fn replay<G: Game>(record: &GameRecord, result: &GameResult) -> Result<(), ShardFault> {
    let mut game = record
        .opening
        .parse::<G>()
        .map_err(|error| ShardFault::new("opening", error.to_string()))?;
    let first = match record.first.as_str() {
        "A" | "B" => record.first.as_str(),
        other => {
            return Err(ShardFault::new(
                "first",
                format!("A or B, not {:?}", excerpt(other)),
            ));
        }
    };
    let winner = match (record.winner.as_deref(), result.a_points) {
        (None, 1) => None,
        (Some("A"), 2) => Some("A"),
        (Some("B"), 0) => Some("B"),
        (other, points) => {
            let named = other.map_or("none".to_owned(), |name| format!("{:?}", excerpt(name)));
            return Err(ShardFault::new(
                "winner",
                format!("{named} for A's {points} half points (A, B, or none for a draw)"),
            ));
        }
    };
    let first_side = game.side_to_move();
    for (ply, played) in record.moves.iter().enumerate() {
        let mv = game
            .read_move(&played.mv)
            .map_err(|error| ShardFault::new(format!("move {}", ply + 1), error.to_string()))?;
        game = game.play(mv);
    }
    let claimed = record.ended_by;
    match game.outcome() {
        Outcome::InProgress => {
            if claimed.is_by_the_rules() {
                return Err(ShardFault::new(
                    "ended_by",
                    format!(
                        "{}, but the game is not over after its moves",
                        claimed.name()
                    ),
                ));
            }
        }
        outcome => {
            let by_rules = Ending::by_rules(game.ending(), outcome != Outcome::Draw);
            if claimed != by_rules {
                return Err(ShardFault::new(
                    "ended_by",
                    format!(
                        "{}, where the moves end the game by {}",
                        claimed.name(),
                        by_rules.name()
                    ),
                ));
            }
            let won = match outcome {
                Outcome::Won(side) if side == first_side => Some(first),
                Outcome::Won(_) => Some(if first == "A" { "B" } else { "A" }),
                _ => None,
            };
            if won != winner {
                let name = |player: Option<&str>| player.unwrap_or("none (a draw)").to_owned();
                return Err(ShardFault::new(
                    "winner",
                    format!("{}, where the moves make it {}", name(winner), name(won)),
                ));
            }
        }
    }
    Ok(())
}
