//! `POST /review`: a game in, each move judged by the engine out, as lichess's computer analysis
//! and chess.com's Game Review judge chess games, for every game: the value of the position
//! before each move and after it, the engine's best move, what the move cost in winning chances
//! and in the game's unit, its class (best, good, inaccuracy, mistake, blunder), each side's
//! accuracy, and the plies where the game turned.
//!
//! Every position of the game is searched once, on its own (the positions spread over the
//! caller's workers: [`ReviewJob::value`]); the answer is then put together from their values
//! ([`ReviewJob::answer`]). A move's value for its mover is the next position's value, from
//! the other side; where the move played is the engine's best, the best's.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use serde::Serialize;

use super::Problem;
use super::request::MoveRequest;
use super::scored_move::{Judgement, ScoredMove};
use crate::game::{EvaluationUnits, Game, Outcome, Player};
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

/// A review of some game: what the job asks of it without knowing its type.
trait Review: Send + Sync {
    fn positions(&self) -> usize;
    fn value(&self, index: usize, budget: &Budget) -> Result<Valued, Problem>;
    fn answer(&self, values: Vec<Option<Valued>>, elapsed: Duration) -> ReviewResponse;
}

impl ReviewJob {
    /// Checks the request (`/move`'s fields: the game, its moves from the start or from a
    /// board, the engine's knobs) on the game it names.
    pub fn new(request: MoveRequest) -> Result<ReviewJob, Problem> {
        struct Prepare<'a>(&'a MoveRequest);
        impl ForGame for Prepare<'_> {
            type Output = Result<ReviewJob, Problem>;
            fn run<G: Solve>(self) -> Self::Output {
                Ok(ReviewJob {
                    review: Box::new(GameReview::<G>::new(self.0)?),
                })
            }
        }
        super::with_game(request.game.as_deref(), Prepare(&request))?
    }

    /// The positions to search: the start and the position after each move.
    pub fn positions(&self) -> usize {
        self.review.positions()
    }

    /// Searches position `index` within `budget`. CPU-bound.
    pub fn value(&self, index: usize, budget: &Budget) -> Result<Valued, Problem> {
        self.review.value(index, budget)
    }

    /// The answer, from the positions' values (`None` for a position not searched).
    pub fn answer(&self, values: Vec<Option<Valued>>, elapsed: Duration) -> ReviewResponse {
        self.review.answer(values, elapsed)
    }

    /// Searches every position on `threads` threads, each taking the next position not yet
    /// taken, within `budget`, and answers: the command line's review.
    pub fn run(&self, budget: &Budget, threads: usize) -> Result<ReviewResponse, Problem> {
        let started = std::time::Instant::now();
        let next = AtomicUsize::new(0);
        let values = Mutex::new(vec![None; self.positions()]);
        std::thread::scope(|scope| {
            let workers: Vec<_> = (0..threads.clamp(1, self.positions()))
                .map(|_| {
                    scope.spawn(|| -> Result<(), Problem> {
                        loop {
                            let index = next.fetch_add(1, Ordering::Relaxed);
                            if index >= self.positions() {
                                return Ok(());
                            }
                            let valued = self.value(index, budget)?;
                            values.lock().expect("no worker panics holding it")[index] =
                                Some(valued);
                        }
                    })
                })
                .collect();
            workers
                .into_iter()
                .try_for_each(|worker| worker.join().expect("a review's worker does not panic"))
        })?;
        let values = values.into_inner().expect("the workers are done");
        Ok(self.answer(values, started.elapsed()))
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
    fn new(request: &MoveRequest) -> Result<Self, Problem> {
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
        let (start, moves) = request.position.moves_read::<G>()?;
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

    /// The value of a finished position for its side to move: the game's result, proven.
    fn finished(position: &G) -> Judgement {
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

impl<G: Solve> Review for GameReview<G> {
    fn positions(&self) -> usize {
        self.positions.len()
    }

    fn value(&self, index: usize, budget: &Budget) -> Result<Valued, Problem> {
        let position = &self.positions[index];
        if position.outcome().is_over() {
            return Ok(Valued {
                judgement: Self::finished(position),
                best: None,
                depth: None,
                nodes: 0,
                stopped_by: None,
            });
        }
        let chosen = search::choose_within(position, &self.strategy, self.seed, budget)
            .map_err(super::search_problem)?;
        let result = chosen.result;
        let judgement = Judgement {
            score: result.score,
            exact: result.exact,
            plies_to_end: result.plies_to_end,
            margin: result.margin,
            depth: None,
        };
        Ok(Valued {
            judgement,
            best: Some(ScoredMove::new(
                position,
                result.best_move,
                judgement,
                &result.pv,
                None,
            )),
            depth: result.depth,
            nodes: result.nodes,
            stopped_by: result.stopped_by.map(|cutoff| cutoff.name()),
        })
    }

    fn answer(&self, values: Vec<Option<Valued>>, elapsed: Duration) -> ReviewResponse {
        let units = match G::DECLARATION.evaluation_units {
            Some(EvaluationUnits::Pawns | EvaluationUnits::Centipawns) => Some("cp"),
            Some(EvaluationUnits::Discs) => Some("discs"),
            None => None,
        };
        let in_units = |judgement: &Judgement| -> Option<f64> {
            let proven = judgement.exact && judgement.score.abs() >= 1.0;
            match units {
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
        };
        let mut plies = Vec::new();
        for (index, &mv) in self.moves.iter().enumerate() {
            let (Some(before), Some(after)) = (&values[index], &values[index + 1]) else {
                continue;
            };
            let Some(best) = &before.best else {
                continue;
            };
            let position = &self.positions[index];
            let mover = position.side_to_move();
            let after_judgement = self.for_mover(index + 1, after, mover);
            // The engine's move, or one proven as good as it.
            let is_best = best.mv == position.notation(mv)
                || (before.judgement.exact
                    && after_judgement.exact
                    && after_judgement.score >= before.judgement.score);
            let played_judgement = if best.mv == position.notation(mv) {
                before.judgement
            } else {
                after_judgement
            };
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
            let played = if best.mv == position.notation(mv) {
                best.clone()
            } else {
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
                units.map(|_| 0.0)
            } else {
                match (in_units(&before.judgement), in_units(&played_judgement)) {
                    (Some(best), Some(played)) => Some((best - played).max(0.0)),
                    _ => None,
                }
            };
            plies.push(ReviewedPly {
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
                depth: before.depth,
            });
        }
        // The first player's winning probability in each position searched. Positions are
        // taken in order and a deadline cuts every search in flight at once, so those searched
        // are the game's first ones: the graph's index is the position's.
        let graph: Vec<f64> = self
            .positions
            .iter()
            .zip(&values)
            .filter_map(|(position, valued)| {
                let valued = valued.as_ref()?;
                let score = match position.outcome() {
                    Outcome::Won(Player::X) => 1.0,
                    Outcome::Won(Player::O) => -1.0,
                    Outcome::Draw => 0.0,
                    Outcome::InProgress if position.side_to_move() == Player::X => {
                        valued.judgement.score
                    }
                    Outcome::InProgress => -valued.judgement.score,
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
            MoveRequest::from_json(br#"{"game": "tictactoe", "moves": [4, 1, 0, 8, 6, 2, 3]}"#)
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
