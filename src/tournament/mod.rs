//! Tournaments: many games between two players, as engine developers run them (fishtest,
//! OpenBench, fastchess) and as the classic tutorial evaluates its algorithms.
//!
//! Game `i` starts from the opening of pair `i / 2` ([`openings`]), with player A moving first
//! when `i` is even, and every random choice in it comes from a seed derived from (tournament
//! seed, `i`). A game's result therefore depends on nothing but its index (and, for players
//! under a clock, on the machine's speed), so any split of the games (threads, parts on a
//! blocking pool, shards on other machines) adds up to exactly the same [`Results`].
//!
//! - [`player`]: who plays (Sente's searches, external engines) under which time control;
//! - [`engines`]: driving an external engine's process, in UCI or xboard;
//! - [`openings`], [`adjudication`]: where games start, and when they end early;
//! - [`results`]: each game's result, the totals, and where an SPRT stops;
//! - [`statistics`]: Elo with its interval, LOS, the SPRT's test;
//! - [`report`]: the answer, and the games as files of the game's record formats.

pub mod adjudication;
pub mod engines;
pub mod openings;
pub mod player;
pub mod positions;
pub mod report;
pub mod results;
pub mod run;
pub mod shards;
pub mod statistics;
pub mod time_control;

use std::ops::Range;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use crate::game::{Game, Notation, Outcome, Player as Side, in_pawns, written};
use crate::search::{self, Budget, Solve, Strategy, seed};
use adjudication::{Adjudged, Adjudication};
use engines::{Ask, Engine, Failure, describe};
use openings::{Opening, Openings};
use player::{Player, PlayerKind};
pub use results::{Ending, GameRecord, GameResult, MoveRecord, Results, Seat, Tally};
pub use run::Run;
use statistics::Sprt;
use time_control::TimeControl;

/// A tournament's configuration.
#[derive(Clone, Debug)]
pub struct Tournament<G: Game> {
    pub players: [Player; 2],
    pub seed: u64,
    pub openings: Openings<G>,
    /// Plies after which a game still in progress is adjudicated a draw; `None` for none.
    pub max_plies: Option<usize>,
    pub adjudication: Adjudication,
    /// The test that stops the tournament once it has decided.
    pub sprt: Option<Sprt>,
    /// Whether to keep every game's record.
    pub records: bool,
}

impl<G: Solve> Tournament<G> {
    /// Two of Sente's searches from the start position, with nothing else set.
    pub fn between(players: [Strategy; 2], seed: u64) -> Tournament<G> {
        Tournament {
            players: players.map(Player::search),
            seed,
            openings: Openings::Listed(vec![Opening::at(G::start())]),
            max_plies: None,
            adjudication: Adjudication::default(),
            sprt: None,
            records: false,
        }
    }
}

/// A score in the units adjudication and balanced openings use: the game's centipawns where
/// it counts in pawns (chess), else hundredths of Sente's score (-100 lost, 100 won).
pub fn score_units<G: Game>(score: f64) -> i32 {
    G::centipawns(score)
        .or_else(|| G::discs(score).map(|discs| discs.round() as i32))
        .unwrap_or((score * 100.0).round() as i32)
}

/// A proven win's score in centipawns, less the moves to mate: beyond any evaluation.
const MATE_UNITS: i32 = 100_000;

/// A mate in `mate` moves (negative when mated) in the units of [`score_units`].
fn mate_units(mate: i32) -> i32 {
    mate.signum() * (MATE_UNITS - mate.abs())
}

/// The engines a worker runs for the two seats: started when first needed, restarted after a
/// failure in a game, killed when the worker ends. An engine that fails to start (it cannot be
/// run, or does not answer its handshake in time) is not tried again: the worker's later
/// games of its seat are lost at once, with the same reason, rather than each waiting for it.
#[derive(Default)]
pub struct Engines {
    running: [Option<Engine>; 2],
    failed_to_start: [Option<String>; 2],
}

/// What a player did on its turn.
enum Turn<M> {
    Moved(M, MoveRecord, Option<i32>),
    /// It lost the game: how, and what happened.
    Lost(Ending, String),
    /// The tournament's budget ran out: the game is given up.
    GivenUp,
}

impl<G: Solve> Tournament<G> {
    /// Plays game `index` to the end.
    pub fn play_game(&self, index: u64) -> (GameResult, Option<GameRecord>) {
        self.play_game_until(index, &mut Engines::default(), &Budget::unlimited())
            .expect("a game that is never stopped is played to the end")
    }

    /// Plays game `index`, giving it up (`None`) if `budget` runs out: its deadline and
    /// cancellation are checked between moves (a game of slow players can last far longer than
    /// one search) and inside every search, and its node limit holds for each search.
    pub fn play_game_until(
        &self,
        index: u64,
        engines: &mut Engines,
        budget: &Budget,
    ) -> Option<(GameResult, Option<GameRecord>)> {
        // Between two games, and below between two moves: where the worker may let a waiting
        // client have its core (nothing of a game is timed there).
        budget.pause_point();
        let first: Seat = (index % 2) as Seat;
        let game_seed = seed::derive(self.seed, index);
        // Drawing an opening searches: the budget holds for it too.
        let pair = if self.openings.per_game() {
            index
        } else {
            index / 2
        };
        let opening = self.openings.for_pair_within(self.seed, pair, budget)?;
        let first_side = opening.position.side_to_move();
        let seat_of = |side: Side| if side == first_side { first } else { 1 - first };
        let mut game = opening.position.clone();
        let mut clocks = [0, 1].map(|seat| self.players[seat].limits.time.start());
        let mut played: Vec<G::Move> = Vec::new();
        let mut records: Vec<MoveRecord> = Vec::new();
        let mut scores: Vec<Option<i32>> = Vec::new();
        let mut nodes = [0; 2];
        let mut ended: Option<(Option<Seat>, Ending, Option<String>)> = None;
        if budget.is_due() {
            return None;
        }
        for seat in 0..2 {
            match self.ready(seat, engines, budget) {
                Ok(()) => {}
                Err(Failure::Stopped) => return None,
                Err(failure) => {
                    ended = Some((Some(1 - seat), Ending::EngineCrash, Some(describe(failure))));
                    break;
                }
            }
        }
        while ended.is_none() {
            if game.outcome().is_over() {
                let winner = match game.outcome() {
                    Outcome::Won(side) => Some(seat_of(side)),
                    _ => None,
                };
                let ending = Ending::by_rules(game.ending(), winner.is_some());
                ended = Some((winner, ending, None));
                break;
            }
            if self.max_plies.is_some_and(|max| played.len() >= max) {
                ended = Some((None, Ending::MaxPlies, None));
                break;
            }
            budget.pause_point();
            let seat = seat_of(game.side_to_move());
            let move_seed = seed::derive(game_seed, played.len() as u64);
            let turn = self.turn(
                seat, &opening, &game, &played, clocks, engines, move_seed, budget,
            );
            match turn {
                Turn::GivenUp => return None,
                Turn::Lost(ending, detail) => {
                    ended = Some((Some(1 - seat), ending, Some(detail)));
                }
                Turn::Moved(mv, record, score) => {
                    let spent = Duration::from_secs_f64(record.time_ms / 1e3);
                    if let (Some(clock), TimeControl::Clock { increment, .. }) =
                        (&mut clocks[seat], self.players[seat].limits.time)
                    {
                        *clock = clock.saturating_sub(spent) + increment;
                    }
                    nodes[seat] += record.nodes;
                    if self.records {
                        records.push(record);
                    }
                    scores.push(score);
                    played.push(mv);
                    // The rules are a crate's: should one fail on a move, the mover's game is
                    // lost rather than the worker (and the tournament waiting on it).
                    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| game.play(mv))) {
                        Ok(next) => game = next,
                        Err(panic) => {
                            let detail = format!(
                                "the rules failed on the move: {}",
                                search::panic_message(panic.as_ref())
                            );
                            ended = Some((Some(1 - seat), Ending::EngineCrash, Some(detail)));
                            break;
                        }
                    }
                    if !game.outcome().is_over() {
                        match self.adjudication.judge(&scores) {
                            Some(Adjudged::Draw) => {
                                ended = Some((None, Ending::DrawAdjudication, None));
                            }
                            Some(Adjudged::Win(parity)) => {
                                // The game's even plies are its first player's.
                                let winner = if parity == 0 { first } else { 1 - first };
                                ended = Some((Some(winner), Ending::ResignAdjudication, None));
                            }
                            None => {}
                        }
                    }
                }
            }
        }
        let (winner, ending, detail) = ended.expect("the loop ends with the game");
        let a_points = match winner {
            Some(0) => 2,
            Some(_) => 0,
            None => 1,
        };
        let plies = played.len() as u32;
        let moves_of = |seat: Seat| {
            if seat == first {
                plies.div_ceil(2)
            } else {
                plies / 2
            }
        };
        let result = GameResult {
            a_points,
            ending,
            nodes,
            moves: [moves_of(0), moves_of(1)],
        };
        let record = self.records.then(|| {
            let label = |seat: Seat| if seat == 0 { "A" } else { "B" }.to_owned();
            GameRecord {
                index,
                opening: opening.position.to_string(),
                from_start: opening.position == G::start(),
                opening_moves: written(&opening.base, &opening.moves, G::notation),
                first: label(first),
                moves: records,
                winner: winner.map(label),
                result: match winner {
                    None => "1/2-1/2",
                    Some(seat) if seat == first => "1-0",
                    Some(_) => "0-1",
                }
                .to_owned(),
                ended_by: ending,
                detail,
            }
        });
        Some((result, record))
    }

    /// Starts the engine of `seat`, if it plays with one and it is not running, and tells it a
    /// new game begins (a fresh engine too: an xboard engine plays nothing until told `force`).
    fn ready(&self, seat: Seat, engines: &mut Engines, budget: &Budget) -> Result<(), Failure> {
        let PlayerKind::Uci { engine, options } = &self.players[seat].kind else {
            return Ok(());
        };
        if let Some(reason) = &engines.failed_to_start[seat] {
            return Err(Failure::Crashed(reason.clone()));
        }
        let slot = &mut engines.running[seat];
        let running = match slot {
            Some(running) => running,
            None => match Engine::start(engine, options, budget) {
                Ok(started) => slot.insert(started),
                Err(Failure::Stopped) => return Err(Failure::Stopped),
                Err(failure) => {
                    let reason = format!("did not start: {}", describe(failure));
                    engines.failed_to_start[seat] = Some(reason.clone());
                    return Err(Failure::Crashed(reason));
                }
            },
        };
        let result = running.new_game(budget);
        if result.is_err() {
            *slot = None;
        }
        result
    }

    /// The move of the player in `seat` in `game`, reached by `played` from the opening, its
    /// clocks standing at `clocks`.
    #[allow(clippy::too_many_arguments)]
    fn turn(
        &self,
        seat: Seat,
        opening: &Opening<G>,
        game: &G,
        played: &[G::Move],
        clocks: [Option<Duration>; 2],
        engines: &mut Engines,
        move_seed: u64,
        budget: &Budget,
    ) -> Turn<G::Move> {
        let limits = &self.players[seat].limits;
        let margin = match &self.players[seat].kind {
            PlayerKind::Uci { engine, .. } => engine.move_margin,
            PlayerKind::Search(_) => time_control::MOVE_TIME_MARGIN,
        };
        let allotment = limits.time.allot(clocks[seat], margin);
        let started = Instant::now();
        let flagged = |spent: Duration| {
            Turn::Lost(
                Ending::TimeForfeit,
                format!(
                    "took {:.3} s, {:.3} s allowed",
                    spent.as_secs_f64(),
                    allotment.flag.as_secs_f64()
                ),
            )
        };
        match &self.players[seat].kind {
            PlayerKind::Search(strategy) => {
                let clocked = allotment
                    .clock
                    .and_then(|(left, increment)| strategy.clone().on_clock(left, increment));
                let strategy = match (clocked, allotment.aim) {
                    (Some(clocked), _) => clocked,
                    (None, Some(aim)) => strategy.clone().within(aim),
                    (None, None) => strategy.clone(),
                };
                let flag = (limits.time != TimeControl::None).then(|| started + allotment.flag);
                let move_budget = Budget {
                    deadline: search::tighter(budget.deadline, flag),
                    ..budget.with_max_nodes(limits.nodes)
                };
                let result = match search::search_within(game, &strategy, move_seed, &move_budget) {
                    Ok(result) => result,
                    // A search that failed (a panic, caught) loses the game, as an engine that
                    // crashed does: the tournament goes on.
                    Err(error) => return Turn::Lost(Ending::EngineCrash, error.to_string()),
                };
                // A move cut short by the tournament's deadline or a cancellation is not the
                // player's choice, so the game is given up rather than counted with it.
                if budget.is_due() {
                    return Turn::GivenUp;
                }
                let spent = started.elapsed();
                if limits.time != TimeControl::None && spent > allotment.flag {
                    return flagged(spent);
                }
                let (cp, mate) = in_pawns::<G>(result.score, result.exact, result.plies_to_end);
                let units = match mate {
                    Some(mate) => mate_units(mate),
                    None => score_units::<G>(result.score),
                };
                let record = MoveRecord {
                    mv: game.notation(result.best_move),
                    san: game.san(result.best_move),
                    score: Some(result.score),
                    cp,
                    mate,
                    margin: result.margin.filter(|_| result.exact),
                    depth: result.depth,
                    nodes: result.nodes,
                    time_ms: spent.as_secs_f64() * 1e3,
                };
                Turn::Moved(result.best_move, record, Some(units))
            }
            PlayerKind::Uci { .. } => {
                let Some(engine) = engines.running[seat].as_mut() else {
                    return Turn::Lost(Ending::EngineCrash, "the engine is not running".into());
                };
                let moves: Vec<String> = written(&opening.base, &opening.moves, G::notation)
                    .into_iter()
                    .chain(written(&opening.position, played, G::notation))
                    .map(Notation::into_text)
                    .collect();
                let start = (opening.base != G::start()).then(|| opening.base.to_string());
                let ask = Ask {
                    start: start.as_deref(),
                    moves: &moves,
                    white: game.side_to_move() == Side::X,
                    limits,
                    clocks: [clocks[seat], clocks[1 - seat]],
                    // Past its flag the engine has lost on time; it is then stopped.
                    deadline: started + allotment.flag,
                };
                let thought = engine.think(&ask, budget);
                let spent = started.elapsed();
                let thought = match thought {
                    Ok(thought) => thought,
                    Err(Failure::Stopped) => return Turn::GivenUp,
                    Err(failure) => {
                        engines.running[seat] = None;
                        return match failure {
                            Failure::TimedOut(_) => flagged(spent),
                            Failure::Resigned => {
                                Turn::Lost(Ending::Resigned, "the engine resigned".into())
                            }
                            other => Turn::Lost(Ending::EngineCrash, describe(other)),
                        };
                    }
                };
                if limits.time != TimeControl::None && spent > allotment.flag {
                    return flagged(spent);
                }
                let best = Notation::Text(thought.best_move.clone());
                let Ok(mv) = game.read_move(&best) else {
                    // What an engine that played an illegal move thinks of the game is not to
                    // be trusted for the next: it starts afresh.
                    engines.running[seat] = None;
                    return Turn::Lost(
                        Ending::IllegalMove,
                        // An engine may write anything: a record keeps only the start of it.
                        format!(
                            "played {:?}, not a legal move",
                            crate::game::text::excerpt(&thought.best_move)
                        ),
                    );
                };
                let units = match (thought.mate, thought.centipawns) {
                    (Some(mate), _) => Some(mate_units(mate)),
                    (None, cp) => cp,
                };
                let record = MoveRecord {
                    mv: game.notation(mv),
                    san: game.san(mv),
                    score: None,
                    cp: thought.centipawns,
                    mate: thought.mate,
                    margin: None,
                    depth: thought.depth,
                    nodes: thought.nodes.unwrap_or(0),
                    time_ms: spent.as_secs_f64() * 1e3,
                };
                Turn::Moved(mv, record, units)
            }
        }
    }
}

impl<G: Solve> Tournament<G> {
    /// Plays games of `run`, a pair at a time, until they are all taken or `budget` runs out:
    /// one worker's share. Any number of workers may share a run.
    pub fn work(&self, run: &Run, budget: &Budget) {
        let budget = Budget {
            halted: Some(Arc::clone(&run.halted)),
            ..budget.clone()
        };
        let mut engines = Engines::default();
        loop {
            let pair = run.next_pair.fetch_add(1, Ordering::Relaxed);
            let pair_games = (2 * pair).max(run.games.start)..(2 * pair + 2).min(run.games.end);
            if pair_games.is_empty() {
                return;
            }
            for index in pair_games {
                let Some((result, record)) = self.play_game_until(index, &mut engines, &budget)
                else {
                    return;
                };
                run.record(index, result, record);
            }
        }
    }

    /// Plays the games whose indices are in `games`.
    pub fn play(&self, games: Range<u64>) -> Results {
        self.play_parallel(games, 1)
    }

    /// Plays the games in `games` on `threads` OS threads.
    pub fn play_parallel(&self, games: Range<u64>, threads: usize) -> Results {
        let run = Run::new(games, self.sprt);
        run::play_on_threads(
            &run,
            threads,
            |run| self.work(run, &Budget::unlimited()),
            |_| {},
        )
    }
}

#[cfg(test)]
mod tests;
