//! One game's review: its positions, each searched once by the engine (the second line too
//! where the move played was the engine's), and each ply judged from the values of the
//! positions before and after it.

use std::time::Duration;

use super::lichess::{Class, LOSS_CAP_CP, THRESHOLDS, move_accuracy, summary, turning_points};
use super::{
    DEFAULT_TIME_LIMIT_MS, MAX_PLIES, Review, ReviewRequest, ReviewResponse, ReviewRun,
    ReviewedPly, Valued,
};
use crate::api::Problem;
use crate::api::scored_move::{Judgement, ScoredMove};
use crate::game::{EvaluationUnits, Game, Outcome, Player};
use crate::search::{self, Algorithm, Budget, Solve, Strategy};

/// A review of a game of `G`.
pub(super) struct GameReview<G: Game> {
    /// The start and the position after each move.
    positions: Vec<G>,
    moves: Vec<G::Move>,
    strategy: Strategy,
    seed: u64,
    time_limit_ms: Option<u64>,
}

impl<G: Solve> GameReview<G> {
    pub(super) fn new(review: &ReviewRequest) -> Result<Self, Problem> {
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
        if request.player.given("threads").is_some() && strategy.threads() > 1 {
            return Err(Problem::invalid(
                "threads",
                "a review searches its positions in parallel, one thread each: threads does not \
                 apply (the review's own threads are the command line's --threads)",
            ));
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
                super::record::read_record::<G>(record, review.format.as_deref())?
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
                .map_err(crate::api::search_problem)?;
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
        let mut strategy = self.strategy.clone();
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
        let win_before = G::win_probability(before.judgement.score);
        let win_after = G::win_probability(played_judgement.score);
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
                .is_some_and(|second| win_before - G::win_probability(second) >= THRESHOLDS[2]);
        Some(ReviewedPly {
            ply: index + 1,
            side: mover,
            side_name: crate::api::side_name::<G>(mover),
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
                Some(G::win_probability(score))
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
