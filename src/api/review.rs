//! `POST /review`: a game in, each move judged by the engine out, as lichess's computer analysis
//! and chess.com's Game Review judge chess games, for every game: the value of the position
//! before each move and after it, the engine's best move, what the move cost in winning chances
//! and in the game's unit, its class (best, good, inaccuracy, mistake, blunder), each side's
//! accuracy, and the plies where the game turned.
//!
//! The game comes as moves (from the start or from a board, as `/move`'s position) or as the
//! record its players keep (`record`: PGN, KIF, KI2, CSA, GGF, an Othello transcript), read by
//! the reader of the game's format.
//!
//! Every position of the game is searched once ([`ReviewRun::work`]: the caller's workers each
//! take the next position not yet taken, the engine keeping its table from one of its positions
//! to the next); each ply is told as soon as it and those before it are judged, and the answer
//! is then put together from the positions' values ([`ReviewRun::answer`]). A move's value for
//! its mover is the next position's value, from the other side; where the move played is the
//! engine's best, the best's.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde::Serialize;
use serde::de::MapAccess;

use super::Problem;
use super::board::BoardSpec;
use super::knobs;
use super::object::{Object, decode, deserialize_as_object, value};
use super::request::{MOVE_FIELDS, MOVE_OWN_FIELDS, MoveRequest};
use super::scored_move::{Judgement, ScoredMove};
use crate::game::{EvaluationUnits, Game, Notation, Outcome, Player, RecordError};
use crate::games::ForGame;
use crate::rounded;
use crate::search::{self, Algorithm, Budget, Solve, Strategy};

/// The most plies a review takes: a long game of any of the games, far past a usual one.
pub const MAX_PLIES: usize = 1_000;

/// Each position's search, where the request gives no time: a tenth of a minute for a
/// 40-move chess game on two cores, deep enough to see a piece hang.
pub const DEFAULT_TIME_LIMIT_MS: u64 = 500;

/// The drops in the mover's winning probability (0 to 1) at which a move is an inaccuracy, a
/// mistake and a blunder: lichess's 0.1, 0.2 and 0.3 on its winning chances, which run from -1
/// to 1 (lila's `Advice.scala`), halved onto a probability.
pub const THRESHOLDS: [f64; 3] = [0.05, 0.10, 0.15];

/// A `POST /review` request: `/move`'s fields (the game, its moves, the engine's knobs), or the
/// game as a record in `record` (its format named by `format`, or found by its readers).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ReviewRequest {
    pub request: MoveRequest,
    /// The game's record, as text.
    pub record: Option<String>,
    /// The record's format, as the game names it (`PGN`, `KIF`, `CSA`, `GGF`, `transcript`).
    pub format: Option<String>,
}

/// The fields of a review request besides the player's knobs.
const REVIEW_OWN_FIELDS: [&str; MOVE_OWN_FIELDS.len() + 2] =
    super::object::fields(&MOVE_OWN_FIELDS, &["record", "format"]);

const REVIEW_FIELDS: [&str; MOVE_FIELDS.len() + 2] =
    super::object::fields(&MOVE_FIELDS, &["record", "format"]);

impl ReviewRequest {
    pub fn from_json(body: &[u8]) -> Result<Self, Problem> {
        decode(body).map_err(|problem| {
            knobs::offer_the_algorithms_fields(problem, body, &REVIEW_OWN_FIELDS)
        })
    }
}

impl Object for ReviewRequest {
    const EXPECTING: &'static str = "a review request: a JSON object";
    const FIELDS: &'static [&'static str] = &REVIEW_FIELDS;

    fn read_field<'de, A: MapAccess<'de>>(
        &mut self,
        key: &'static str,
        map: &mut A,
    ) -> Result<(), A::Error> {
        match key {
            "record" => self.record = value(key, map)?,
            "format" => self.format = value(key, map)?,
            _ => self.request.read_field(key, map)?,
        }
        Ok(())
    }
}

deserialize_as_object!(ReviewRequest);

/// What a move was, by what it cost.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Class {
    /// The engine's best move.
    Best,
    /// Not the engine's, within [`THRESHOLDS`]' first of it.
    Good,
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Class {
    pub const ALL: [Class; 5] = [
        Class::Best,
        Class::Good,
        Class::Inaccuracy,
        Class::Mistake,
        Class::Blunder,
    ];

    /// The class of a move that is not the best and lost `loss` of the mover's winning
    /// probability.
    pub fn of_loss(loss: f64) -> Class {
        match THRESHOLDS
            .iter()
            .filter(|&&threshold| loss >= threshold)
            .count()
        {
            0 => Class::Good,
            1 => Class::Inaccuracy,
            2 => Class::Mistake,
            _ => Class::Blunder,
        }
    }

    /// How chess annotates it (`?!`, `?`, `??`); none for a move that needs none.
    pub fn mark(self) -> Option<&'static str> {
        match self {
            Class::Best | Class::Good => None,
            Class::Inaccuracy => Some("?!"),
            Class::Mistake => Some("?"),
            Class::Blunder => Some("??"),
        }
    }
}

/// The answer.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ReviewResponse {
    pub game: &'static str,
    pub algorithm: Algorithm,
    /// The search each position had, where the request gave none: [`DEFAULT_TIME_LIMIT_MS`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time_limit_ms: Option<u64>,
    /// The unit of `loss_units` and `average_loss`: `cp` (chess, shogi), `discs` (Othello);
    /// none where the game has only winning chances.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub units: Option<&'static str>,
    /// Each move, in order.
    pub plies: Vec<ReviewedPly>,
    /// The first player's (`X`) then the second's.
    pub sides: [SideSummary; 2],
    /// The plies (counted from 1) after which the side ahead changed: where the game turned.
    pub turning_points: Vec<usize>,
    /// The first player's winning probability in each position, the start's first: the
    /// evaluation graph's points.
    #[serde(serialize_with = "rounded::each::<4, _>")]
    pub graph: Vec<f64>,
    pub nodes: u64,
    pub elapsed_us: u64,
    /// Whether every position was searched within the service's limit; where not, `stopped_by`
    /// says which, and the plies whose positions were not are left out.
    pub complete: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped_by: Option<&'static str>,
}

/// One move of the game, judged.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ReviewedPly {
    /// Counted from 1.
    pub ply: usize,
    /// Who played it.
    pub side: Player,
    pub side_name: &'static str,
    pub class: Class,
    /// The move's accuracy, 0 to 100, lichess's function of the drop in winning probability.
    #[serde(serialize_with = "rounded::to::<1, _>")]
    pub accuracy: f64,
    /// The mover's winning probability (0 to 1) before the move and after it.
    #[serde(serialize_with = "rounded::to::<4, _>")]
    pub win_before: f64,
    #[serde(serialize_with = "rounded::to::<4, _>")]
    pub win_after: f64,
    /// What the move cost: the mover's winning probability lost (0 to 1)...
    #[serde(serialize_with = "rounded::to::<4, _>")]
    pub loss: f64,
    /// ... and the same in the game's unit (`units`): centipawns within ±[`LOSS_CAP_CP`] (a
    /// proven win or loss counts as the cap), or discs.
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "rounded::some::<1, _>"
    )]
    pub loss_units: Option<f64>,
    /// The move played, its value for its mover and the line the engine expected after it.
    pub played: ScoredMove,
    /// The engine's best move in the position, its value and its line.
    pub best: ScoredMove,
    /// Whether it was the only move that kept the mover's chances: the engine's best, where
    /// every other move would have been a blunder (its second line at least [`THRESHOLDS`]'
    /// last below the best, by a search of two lines at a quarter of the position's time).
    pub only_move: bool,
    /// The depth of the search of the position before the move.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
}

/// What one side's moves came to.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SideSummary {
    pub side: Player,
    pub name: &'static str,
    pub moves: usize,
    /// Lichess's game accuracy: the mean of the moves' accuracies weighted by how much the game
    /// swung around them, and their harmonic mean, averaged; none without a move reviewed.
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "rounded::some::<1, _>"
    )]
    pub accuracy: Option<f64>,
    /// The average loss in the game's unit (chess's average centipawn loss), each move's
    /// capped at [`LOSS_CAP_CP`] centipawns as lichess caps it; none where the game has no
    /// unit.
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "rounded::some::<1, _>"
    )]
    pub average_loss: Option<f64>,
    pub best: usize,
    /// The best moves that were the only ones (`only_move`), counted among `best` too.
    pub only_moves: usize,
    pub good: usize,
    pub inaccuracies: usize,
    pub mistakes: usize,
    pub blunders: usize,
}

/// The most a move's loss counts in centipawns in an average, as lichess caps evaluations.
pub const LOSS_CAP_CP: f64 = 1_000.0;

/// What the search of one position found, from its side to move's view.
#[derive(Clone, Debug)]
pub struct Valued {
    pub judgement: Judgement,
    /// The best move and its line, in the position searched; none for a finished game.
    best: Option<ScoredMove>,
    /// The value of the second-best move, where the move played there was the best and a
    /// second line was searched to see whether it was the only one.
    second: Option<f64>,
    depth: Option<u32>,
    pub nodes: u64,
    pub stopped_by: Option<&'static str>,
}

/// A review request, checked: the game's positions, ready to be searched one by one.
pub struct ReviewJob {
    review: Box<dyn Review>,
}

impl std::fmt::Debug for ReviewJob {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReviewJob")
            .field("positions", &self.positions())
            .finish_non_exhaustive()
    }
}

/// A review of some game: what a run asks of it without knowing its type.
trait Review: Send + Sync {
    fn positions(&self) -> usize;
    fn work(
        &self,
        run: &ReviewRun,
        budget: &Budget,
        tell: &dyn Fn(&ReviewedPly),
    ) -> Result<(), Problem>;
    fn answer(&self, values: &[Option<Valued>], elapsed: Duration) -> ReviewResponse;
}

impl ReviewJob {
    /// Checks the request (the game, its moves from the start or from a board or its record,
    /// the engine's knobs) on the game it names.
    pub fn new(request: ReviewRequest) -> Result<ReviewJob, Problem> {
        struct Prepare<'a>(&'a ReviewRequest);
        impl ForGame for Prepare<'_> {
            type Output = Result<ReviewJob, Problem>;
            fn run<G: Solve>(self) -> Self::Output {
                Ok(ReviewJob {
                    review: Box::new(GameReview::<G>::new(self.0)?),
                })
            }
        }
        super::with_game(request.request.game.as_deref(), Prepare(&request))?
    }

    /// The positions to search: the start and the position after each move.
    pub fn positions(&self) -> usize {
        self.review.positions()
    }

    /// Searches every position on `threads` threads within `budget`, and answers: the command
    /// line's review.
    pub fn run(self, budget: &Budget, threads: usize) -> Result<ReviewResponse, Problem> {
        let run = ReviewRun::new(self);
        std::thread::scope(|scope| {
            let workers: Vec<_> = (0..run.workers(threads))
                .map(|_| scope.spawn(|| run.work(budget, &|_| {})))
                .collect();
            workers
                .into_iter()
                .try_for_each(|worker| worker.join().expect("a review's worker does not panic"))
        })?;
        Ok(run.answer())
    }
}

/// A review under way: the next position not yet taken, the values found, the plies told.
pub struct ReviewRun {
    job: ReviewJob,
    next: AtomicUsize,
    progress: Mutex<Progress>,
    started: Instant,
}

struct Progress {
    /// Each position's value, once searched.
    values: Vec<Option<Valued>>,
    /// The plies told so far: the first `told` of the game.
    told: usize,
}

impl ReviewRun {
    pub fn new(job: ReviewJob) -> ReviewRun {
        let positions = job.positions();
        ReviewRun {
            job,
            next: AtomicUsize::new(0),
            progress: Mutex::new(Progress {
                values: vec![None; positions],
                told: 0,
            }),
            started: Instant::now(),
        }
    }

    /// How many workers to run on `cores`: one a core, no more than the positions.
    pub fn workers(&self, cores: usize) -> usize {
        cores.clamp(1, self.job.positions().max(1))
    }

    /// One worker's part: takes the next position not yet taken (in the game's order, so that
    /// a review cut short keeps the game's start) and searches it, until none is left or
    /// `budget` runs out; `tell` is given each ply as soon as it and every ply before it are
    /// judged. A search the service's deadline or the client cut short is not a value. CPU-bound.
    pub fn work(&self, budget: &Budget, tell: &dyn Fn(&ReviewedPly)) -> Result<(), Problem> {
        self.job.review.work(self, budget, tell)
    }

    /// The next position for a worker to search, `None` when every one is taken or `budget`
    /// is spent.
    fn take(&self, budget: &Budget) -> Option<usize> {
        let index = self.next.fetch_add(1, Ordering::Relaxed);
        (index < self.job.positions() && !budget.is_due()).then_some(index)
    }

    /// Keeps position `index`'s value, and tells the plies it completes.
    fn found(
        &self,
        index: usize,
        valued: Valued,
        ply: impl Fn(usize, &Valued, &Valued) -> Option<ReviewedPly>,
        tell: &dyn Fn(&ReviewedPly),
    ) {
        let mut progress = self.progress.lock().expect("no worker panics holding it");
        progress.values[index] = Some(valued);
        while let [Some(before), Some(after), ..] = &progress.values[progress.told..] {
            if let Some(judged) = ply(progress.told, before, after) {
                tell(&judged);
            }
            progress.told += 1;
        }
    }

    /// The answer, from the positions searched so far (all of them, once every worker is done).
    pub fn answer(&self) -> ReviewResponse {
        let progress = self.progress.lock().expect("no worker panics holding it");
        self.job
            .review
            .answer(&progress.values, self.started.elapsed())
    }
}

/// A review of a game of `G`.
struct GameReview<G: Game> {
    /// The start and the position after each move.
    positions: Vec<G>,
    moves: Vec<G::Move>,
    strategy: Strategy,
    seed: u64,
    time_limit_ms: Option<u64>,
}

impl<G: Solve> GameReview<G> {
    fn new(review: &ReviewRequest) -> Result<Self, Problem> {
        let request = &review.request;
        let (mut strategy, seed) = request.strategy::<G>()?;
        for knob in ["level", "elo", "multipv"] {
            if request.player.given(knob).is_some() {
                return Err(Problem::invalid(
                    knob,
                    format!(
                        "a review is the engine's own judgement of every position: {knob} does \
                         not apply (give its time_limit_ms, depth or nodes)"
                    ),
                ));
            }
        }
        let mut time_limit_ms = None;
        if request.player.given("time_limit_ms").is_none() && strategy.time_limit.is_some() {
            strategy.time_limit = Some(Duration::from_millis(DEFAULT_TIME_LIMIT_MS));
            time_limit_ms = Some(DEFAULT_TIME_LIMIT_MS);
        }
        let (start, moves) = match &review.record {
            Some(record) => {
                if request.position.board.is_some() || request.position.moves.is_some() {
                    return Err(Problem::invalid(
                        "record",
                        "give the game as its record or as board and moves, not both",
                    ));
                }
                read_record::<G>(record, review.format.as_deref())?
            }
            None if review.format.is_some() => {
                return Err(Problem::invalid(
                    "format",
                    "format names the format of record, which is not given",
                ));
            }
            None => request.position.moves_read::<G>()?,
        };
        if moves.is_empty() {
            return Err(Problem::invalid(
                "moves",
                "a review needs the moves of the game: give moves (from the start, or from board)",
            ));
        }
        if moves.len() > MAX_PLIES {
            return Err(Problem::invalid(
                "moves",
                format!(
                    "a review takes at most {MAX_PLIES} moves, and the game has {}",
                    moves.len()
                ),
            ));
        }
        let mut positions = Vec::with_capacity(moves.len() + 1);
        positions.push(start);
        for &mv in &moves {
            let next = positions.last().expect("the start").play(mv);
            positions.push(next);
        }
        Ok(GameReview {
            positions,
            moves,
            strategy,
            seed,
            time_limit_ms,
        })
    }

    /// The value for `mover` of the position `valued` values (from its own side to move's
    /// view), one ply later.
    fn for_mover(&self, index: usize, valued: &Valued, mover: Player) -> Judgement {
        let position = &self.positions[index];
        let judgement = valued.judgement;
        let same = !position.outcome().is_over() && position.side_to_move() == mover;
        let over = position.outcome().is_over();
        let score = match position.outcome() {
            Outcome::Won(winner) => {
                if winner == mover {
                    1.0
                } else {
                    -1.0
                }
            }
            _ if same => judgement.score,
            _ => -judgement.score,
        };
        Judgement {
            score,
            exact: judgement.exact,
            plies_to_end: judgement.plies_to_end.map(|plies| plies + 1),
            margin: judgement
                .margin
                .map(|margin| if same || over { margin } else { -margin }),
            depth: judgement.depth,
        }
    }
}

impl<G: Solve> GameReview<G> {
    /// Searches position `index`, the engine remembering in `memory` what it found in the
    /// positions this worker searched before.
    fn value(
        &self,
        index: usize,
        budget: &Budget,
        memory: &mut G::Memory,
    ) -> Result<Valued, Problem> {
        let position = &self.positions[index];
        if position.outcome().is_over() {
            return Ok(Valued {
                judgement: finished(position),
                best: None,
                second: None,
                depth: None,
                nodes: 0,
                stopped_by: None,
            });
        }
        let result =
            search::search_remembering(position, &self.strategy, self.seed, budget, memory)
                .map_err(super::search_problem)?;
        let judgement = Judgement {
            score: result.score,
            exact: result.exact,
            plies_to_end: result.plies_to_end,
            margin: result.margin,
            depth: None,
        };
        let mut nodes = result.nodes;
        let played = self.moves.get(index).copied();
        let mut second = None;
        if played == Some(result.best_move) {
            let (value, searched) = self.second_line(position, budget);
            second = value;
            nodes += searched;
        }
        Ok(Valued {
            judgement,
            best: Some(ScoredMove::new(
                position,
                result.best_move,
                judgement,
                &result.pv,
                None,
            )),
            second,
            depth: result.depth,
            nodes,
            stopped_by: result.stopped_by.map(|cutoff| cutoff.name()),
        })
    }

    /// The value of `position`'s second-best move, and the nodes it took: the engine's second
    /// line, at a quarter of the position's time; none for a player that has no lines, or a
    /// position with one legal move.
    fn second_line(&self, position: &G, budget: &Budget) -> (Option<f64>, u64) {
        if self.strategy.algorithm != Algorithm::Engine || position.legal_moves().len() < 2 {
            return (None, 0);
        }
        let mut strategy = self.strategy;
        strategy.engine.multipv = Some(2);
        strategy.time_limit = strategy.time_limit.map(|limit| limit / 4);
        match search::analyze_within(position, &strategy, self.seed, budget) {
            Ok(analysis)
                if analysis.moves.len() >= 2
                    && analysis
                        .stopped_by
                        .is_none_or(|cutoff| cutoff.name() == "time_limit") =>
            {
                (Some(analysis.moves[1].score), analysis.nodes)
            }
            Ok(analysis) => (None, analysis.nodes),
            Err(_) => (None, 0),
        }
    }

    /// The unit of the losses: centipawns, discs, or none.
    fn units() -> Option<&'static str> {
        match G::DECLARATION.evaluation_units {
            Some(EvaluationUnits::Pawns | EvaluationUnits::Centipawns) => Some("cp"),
            Some(EvaluationUnits::Discs) => Some("discs"),
            None => None,
        }
    }

    /// A judgement's value in the game's unit.
    fn in_units(judgement: &Judgement) -> Option<f64> {
        let proven = judgement.exact && judgement.score.abs() >= 1.0;
        match Self::units() {
            // A proven win or loss counts as the cap, as lichess counts a mate.
            Some("cp") if proven => Some(LOSS_CAP_CP.copysign(judgement.score)),
            Some("cp") => G::centipawns(judgement.score)
                .map(|cp| f64::from(cp).clamp(-LOSS_CAP_CP, LOSS_CAP_CP)),
            Some(_) => judgement
                .margin
                .filter(|_| judgement.exact)
                .map(f64::from)
                .or_else(|| G::discs(judgement.score)),
            None => None,
        }
    }

    /// Ply `index + 1` judged, from the values of the positions before and after it; none
    /// where the position before had no move to search (a game over).
    fn ply(&self, index: usize, before: &Valued, after: &Valued) -> Option<ReviewedPly> {
        let best = before.best.as_ref()?;
        let mv = self.moves[index];
        let position = &self.positions[index];
        let mover = position.side_to_move();
        let after_judgement = self.for_mover(index + 1, after, mover);
        let engines = best.mv == position.notation(mv);
        // The engine's move, or one proven as good as it.
        let is_best = engines
            || (before.judgement.exact
                && after_judgement.exact
                && after_judgement.score >= before.judgement.score);
        let played_judgement = if engines {
            before.judgement
        } else {
            after_judgement
        };
        let played = if engines {
            best.clone()
        } else {
            // The line the engine expects after the move: the move, then the next position's.
            let mut line = vec![mv];
            if let Some(next) = &after.best {
                let mut reply = self.positions[index + 1].clone();
                for written in &next.pv {
                    let Ok(next_move) = reply.read_move(written) else {
                        break;
                    };
                    line.push(next_move);
                    reply = reply.play(next_move);
                }
            }
            ScoredMove::new(position, mv, played_judgement, &line, None)
        };
        let win_before = probability(before.judgement.score);
        let win_after = probability(played_judgement.score);
        let loss = if is_best {
            0.0
        } else {
            (win_before - win_after).max(0.0)
        };
        let class = if is_best {
            Class::Best
        } else {
            Class::of_loss(loss)
        };
        let loss_units = if is_best {
            Self::units().map(|_| 0.0)
        } else {
            match (
                Self::in_units(&before.judgement),
                Self::in_units(&played_judgement),
            ) {
                (Some(best), Some(played)) => Some((best - played).max(0.0)),
                _ => None,
            }
        };
        let only_move = engines
            && before
                .second
                .is_some_and(|second| win_before - probability(second) >= THRESHOLDS[2]);
        Some(ReviewedPly {
            ply: index + 1,
            side: mover,
            side_name: super::side_name::<G>(mover),
            class,
            accuracy: move_accuracy(win_before, win_after),
            win_before,
            win_after,
            loss,
            loss_units,
            played,
            best: best.clone(),
            only_move,
            depth: before.depth,
        })
    }
}

impl<G: Solve> Review for GameReview<G> {
    fn positions(&self) -> usize {
        self.positions.len()
    }

    fn work(
        &self,
        run: &ReviewRun,
        budget: &Budget,
        tell: &dyn Fn(&ReviewedPly),
    ) -> Result<(), Problem> {
        let mut memory = G::Memory::default();
        while let Some(index) = run.take(budget) {
            let valued = self.value(index, budget, &mut memory)?;
            if matches!(valued.stopped_by, Some("deadline" | "cancelled")) {
                return Ok(());
            }
            run.found(
                index,
                valued,
                |index, before, after| self.ply(index, before, after),
                tell,
            );
        }
        Ok(())
    }

    fn answer(&self, values: &[Option<Valued>], elapsed: Duration) -> ReviewResponse {
        let units = Self::units();
        let plies: Vec<ReviewedPly> = (0..self.moves.len())
            .filter_map(|index| match (&values[index], &values[index + 1]) {
                (Some(before), Some(after)) => self.ply(index, before, after),
                _ => None,
            })
            .collect();
        // The first player's winning probability in each position searched. Positions are
        // taken in order and a deadline cuts every search in flight at once, so those searched
        // are the game's first ones: the graph's index is the position's.
        let graph: Vec<f64> = self
            .positions
            .iter()
            .zip(values)
            .filter_map(|(position, valued)| {
                let valued = valued.as_ref()?;
                let score = match position.outcome() {
                    Outcome::InProgress if position.side_to_move() == Player::O => {
                        -valued.judgement.score
                    }
                    Outcome::InProgress => valued.judgement.score,
                    _ => finished(position).score * sign(position.side_to_move()),
                };
                Some(probability(score))
            })
            .collect();
        let complete = values.iter().all(Option::is_some);
        let stopped_by = values
            .iter()
            .flatten()
            .find_map(|valued| valued.stopped_by.filter(|&cutoff| cutoff != "time_limit"))
            .or((!complete).then_some("deadline"));
        ReviewResponse {
            game: G::NAME,
            algorithm: self.strategy.algorithm,
            time_limit_ms: self.time_limit_ms,
            units,
            sides: [Player::X, Player::O].map(|side| summary::<G>(side, &plies, &graph, units)),
            turning_points: turning_points(&graph),
            graph,
            plies,
            nodes: values.iter().flatten().map(|valued| valued.nodes).sum(),
            elapsed_us: elapsed.as_micros() as u64,
            complete,
            stopped_by,
        }
    }
}

/// The value of a finished position for its side to move: the game's result, proven.
fn finished<G: Game>(position: &G) -> Judgement {
    let score = match position.outcome() {
        Outcome::Won(winner) if winner == position.side_to_move() => 1.0,
        Outcome::Won(_) => -1.0,
        Outcome::Draw | Outcome::InProgress => 0.0,
    };
    Judgement {
        score,
        exact: true,
        plies_to_end: Some(0),
        margin: None,
        depth: None,
    }
}

/// 1 for the first player, -1 for the second: a side's score as the first player's.
fn sign(side: Player) -> f64 {
    match side {
        Player::X => 1.0,
        Player::O => -1.0,
    }
}

/// The game a record holds: where it starts and its moves, read by the reader of the format
/// `format` names (one of the game's, any case), or by the first of the game's readers that
/// takes it for its format. A move that cannot be read is refused with its ply.
fn read_record<G: Game>(record: &str, format: Option<&str>) -> Result<(G, Vec<G::Move>), Problem> {
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

/// The winning probability (0 to 1) a score on Sente's scale (the winning chances, -1 to 1)
/// stands for.
pub fn probability(score: f64) -> f64 {
    ((score.clamp(-1.0, 1.0) + 1.0) / 2.0).clamp(0.0, 1.0)
}

/// Lichess's accuracy of a move, from the mover's winning percentage before and after it
/// (lila's `AccuracyPercent.fromWinPercents`: an exponential fitted to its players' games, one
/// point added for the analysis's own imprecision, within 0 to 100).
pub fn move_accuracy(win_before: f64, win_after: f64) -> f64 {
    if win_after >= win_before {
        return 100.0;
    }
    let drop = 100.0 * (win_before - win_after);
    (103.166_810_071_164_9 * (-0.043_544_153_867_539_51 * drop).exp() - 3.166_924_740_191_411 + 1.0)
        .clamp(0.0, 100.0)
}

/// One side's summary, lichess's game accuracy among it (lila's `AccuracyPercent.gameAccuracy`):
/// each move's accuracy weighted by the standard deviation of the first player's winning
/// percentage over a window around it (the game's volatility there, within 0.5 and 12), the
/// weighted mean and the harmonic mean averaged.
fn summary<G: Game>(
    side: Player,
    plies: &[ReviewedPly],
    graph: &[f64],
    units: Option<&'static str>,
) -> SideSummary {
    let weights = volatility_weights(graph);
    let own: Vec<&ReviewedPly> = plies.iter().filter(|ply| ply.side == side).collect();
    let count = |class: Class| own.iter().filter(|ply| ply.class == class).count();
    let accuracy = (!own.is_empty()).then(|| {
        let weighted: (f64, f64) = own.iter().fold((0.0, 0.0), |(sum, total), ply| {
            let weight = weights.get(ply.ply - 1).copied().unwrap_or(0.5);
            (sum + ply.accuracy * weight, total + weight)
        });
        // A move of accuracy 0 would make the harmonic mean 0: it counts as 1 (of 100).
        let harmonic = own.len() as f64
            / own
                .iter()
                .map(|ply| 1.0 / ply.accuracy.max(1.0))
                .sum::<f64>();
        (weighted.0 / weighted.1 + harmonic) / 2.0
    });
    let losses: Vec<f64> = own.iter().filter_map(|ply| ply.loss_units).collect();
    SideSummary {
        side,
        name: super::side_name::<G>(side),
        moves: own.len(),
        accuracy,
        average_loss: (units.is_some() && !losses.is_empty())
            .then(|| losses.iter().sum::<f64>() / losses.len() as f64),
        best: count(Class::Best),
        only_moves: own.iter().filter(|ply| ply.only_move).count(),
        good: count(Class::Good),
        inaccuracies: count(Class::Inaccuracy),
        mistakes: count(Class::Mistake),
        blunders: count(Class::Blunder),
    }
}

/// The weight of each move (the `i`th, between positions `i` and `i + 1` of `graph`): the
/// standard deviation of the winning percentage over a window of `graph` (a tenth of the game,
/// 2 to 8 positions), the first windows repeated at the start, as lichess weighs them.
fn volatility_weights(graph: &[f64]) -> Vec<f64> {
    let percents: Vec<f64> = graph.iter().map(|p| 100.0 * p).collect();
    if percents.len() < 2 {
        return Vec::new();
    }
    let size = ((percents.len() - 1) / 10).clamp(2, 8).min(percents.len());
    let mut windows: Vec<&[f64]> = vec![&percents[..size]; size - 2];
    windows.extend(percents.windows(size));
    windows
        .iter()
        .map(|window| {
            let mean = window.iter().sum::<f64>() / window.len() as f64;
            let variance =
                window.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / window.len() as f64;
            variance.sqrt().clamp(0.5, 12.0)
        })
        .collect()
}

/// The plies after which the side ahead (its winning probability past 0.52, so that an even
/// game's noise is no turn) was the other one than the last side ahead.
fn turning_points(graph: &[f64]) -> Vec<usize> {
    let mut ahead: Option<bool> = None;
    let mut turns = Vec::new();
    for (index, &p) in graph.iter().enumerate() {
        let now = if p > 0.52 {
            Some(true)
        } else if p < 0.48 {
            Some(false)
        } else {
            None
        };
        if let Some(now) = now {
            if ahead.is_some_and(|before| before != now) {
                turns.push(index);
            }
            ahead = Some(now);
        }
    }
    turns
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_follow_lichess_thresholds_on_winning_chances() {
        assert_eq!(Class::of_loss(0.0), Class::Good);
        assert_eq!(Class::of_loss(0.049), Class::Good);
        assert_eq!(Class::of_loss(0.05), Class::Inaccuracy);
        assert_eq!(Class::of_loss(0.1), Class::Mistake);
        assert_eq!(Class::of_loss(0.15), Class::Blunder);
        assert_eq!(Class::of_loss(1.0), Class::Blunder);
        assert_eq!(Class::Blunder.mark(), Some("??"));
    }

    /// Lichess's accuracy: 100 where nothing was lost, 51.5
    /// for a drop of 15 percentage points, 0 for a drop from a win to a loss.
    #[test]
    fn a_moves_accuracy_falls_with_the_winning_percentage_it_lost() {
        assert_eq!(move_accuracy(0.6, 0.6), 100.0);
        assert_eq!(move_accuracy(0.6, 0.7), 100.0);
        let fifteen = move_accuracy(0.65, 0.50);
        assert!((fifteen - 51.5).abs() < 0.5, "{fifteen}");
        assert_eq!(move_accuracy(1.0, 0.0), 0.0);
    }

    #[test]
    fn the_game_turns_where_the_side_ahead_changes() {
        assert_eq!(turning_points(&[0.5, 0.6, 0.5, 0.4, 0.49, 0.7]), vec![3, 5]);
        assert!(turning_points(&[0.5, 0.51, 0.49, 0.9, 0.99]).is_empty());
    }

    #[test]
    fn volatility_weights_one_a_move() {
        let graph: Vec<f64> = (0..41).map(|i| 0.5 + 0.01 * f64::from(i % 7)).collect();
        assert_eq!(volatility_weights(&graph).len(), 40);
        assert_eq!(volatility_weights(&[0.5, 0.5, 0.5]).len(), 2);
        assert!(volatility_weights(&[0.5, 0.5]).iter().all(|&w| w == 0.5));
        // A review cut short before any position was searched has no graph.
        assert!(volatility_weights(&[]).is_empty());
        assert!(volatility_weights(&[0.5]).is_empty());
    }

    /// A game of tic-tac-toe reviewed by the engine (its solver: every value proven): the
    /// blunder that hands O a win is classed so, and the win that follows is best.
    #[test]
    fn a_blunder_in_tictactoe_is_found_exactly() {
        // X centre, O edge (a losing reply), X corner: X wins with best play from there.
        let request =
            ReviewRequest::from_json(br#"{"game": "tictactoe", "moves": [4, 1, 0, 8, 6, 2, 3]}"#)
                .unwrap();
        let job = ReviewJob::new(request).unwrap();
        assert_eq!(job.positions(), 8);
        let review = job.run(&Budget::unlimited(), 2).unwrap();
        assert!(review.complete);
        let classes: Vec<Class> = review.plies.iter().map(|ply| ply.class).collect();
        assert_eq!(
            classes[1],
            Class::Blunder,
            "O's edge reply loses: {classes:?}"
        );
        // The centre is as good as the corner the engine names first: proven equal, best.
        assert_eq!(classes[0], Class::Best);
        assert_eq!(review.plies[0].loss, 0.0);
        assert_eq!(review.plies[1].win_before, 0.5);
        assert_eq!(review.plies[1].win_after, 0.0);
        assert_eq!(review.graph.len(), 8);
        assert_eq!(*review.graph.last().unwrap(), 1.0, "X won");
        assert_eq!(
            review.sides[1].blunders,
            review
                .plies
                .iter()
                .filter(|ply| ply.side == Player::O && ply.class == Class::Blunder)
                .count()
        );
        assert!(review.sides[0].accuracy.unwrap() > review.sides[1].accuracy.unwrap());
    }
}
