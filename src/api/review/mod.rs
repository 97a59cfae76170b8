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
//!
//! The files: this one, the request, the answer and the run; `game_review.rs`, one game's
//! positions searched and each ply judged from their values; `lichess.rs`, the classes and
//! lichess's formulas (accuracy, volatility, turning points); `record.rs`, a record read by the
//! game's reader.

mod game_review;
mod lichess;
mod record;

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde::Serialize;
use serde::de::MapAccess;

use self::game_review::GameReview;
pub use self::lichess::{Class, LOSS_CAP_CP, THRESHOLDS, move_accuracy};
use super::Problem;
use super::knobs;
use super::object::{Object, decode, deserialize_as_object, value};
use super::request::{MoveRequest, SEARCH_FIELDS, SEARCH_OWN_FIELDS};
use super::scored_move::{Judgement, ScoredMove};
use crate::game::Player;
use crate::games::ForGame;
use crate::rounded;
use crate::search::{Algorithm, Budget, Solve};

/// The most plies a review takes: a long game of any of the games, far past a usual one.
pub const MAX_PLIES: usize = 1_000;

/// Each position's search, where the request gives no time: a tenth of a minute for a
/// 40-move chess game on two cores, deep enough to see a piece hang.
pub const DEFAULT_TIME_LIMIT_MS: u64 = 500;

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
const REVIEW_OWN_FIELDS: [&str; SEARCH_OWN_FIELDS.len() + 2] =
    crate::api::object::fields(&SEARCH_OWN_FIELDS, &["record", "format"]);

const REVIEW_FIELDS: [&str; SEARCH_FIELDS.len() + 2] =
    crate::api::object::fields(&SEARCH_FIELDS, &["record", "format"]);

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
        crate::api::with_game(request.request.game.as_deref(), Prepare(&request))?
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
        // Between two positions: where the worker may let a waiting client have its core.
        budget.pause_point();
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

#[cfg(test)]
mod tests {
    use super::*;

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
