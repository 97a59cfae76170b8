//! Primitive Monte Carlo search: for each legal move, `playouts` random games after it; the move
//! with the best total wins.
//!
//! The playouts are played in rounds, one per move per round, so that when a time limit stops
//! the search every move has had the same number and the totals stay comparable.

use std::time::{Duration, Instant};

use rand::SeedableRng;

use super::playout::random_playout;
use super::searcher::Searcher;
use super::{
    Analysis, Budget, Cutoff, Meter, MoveAnalysis, Score, SearchResult, SearchRng, terminal_value,
};
use crate::game::Game;
use crate::search::Algorithm;
use crate::search::record::{Chance, Record, Samples, Stops};

/// The `mcs` algorithm's record.
pub(super) const RECORD: Record = Record {
    algorithm: Algorithm::Mcs,
    name: "mcs",
    description: "Primitive Monte Carlo: random playouts after each legal move; the best total wins.",
    stops: Stops::Sampling,
    breaks_ties: false,
    depth_limited: false,
    chance: Chance::Always,
    samples: Some(Samples::Playouts),
};

/// The playouts of every legal move.
pub(super) struct Sample<G: Game> {
    pub(super) arms: Vec<Arm<G>>,
    /// Playouts per move: `playouts`, or fewer if a limit stopped the sampling.
    pub(super) rounds: u32,
    pub(super) nodes: u64,
    pub(super) stopped_by: Option<Cutoff>,
}

/// One legal move and what its playouts have scored so far.
pub(super) struct Arm<G: Game> {
    pub(super) mv: G::Move,
    child: G,
    /// The value of a move that ends the game.
    proven: Option<i64>,
    /// Sum of the playouts' results (+1, 0, -1) for the side to move at the root.
    pub(super) total: i64,
}

impl<G: Game> Arm<G> {
    /// The move's score, whether it is proven, and its plies to the end when it is.
    ///
    /// Only a move that ends the game is proven; any other mean is shrunk as if one more drawn
    /// playout had been seen, which keeps a sample that happened to win every time strictly
    /// below 1.
    pub(super) fn mean(&self, rounds: u32) -> Score {
        match self.proven {
            Some(value) => Score::proven(value as f64, Some(1)),
            None => Score::estimate(self.total as f64 / (f64::from(rounds) + 1.0)),
        }
    }
}

pub(super) fn sample<G: Game>(
    game: &G,
    playouts: u32,
    time_limit: Option<Duration>,
    seed: u64,
    budget: &Budget,
) -> Sample<G> {
    let mut rng = SearchRng::seed_from_u64(seed);
    let mut meter = Meter::new(budget);
    meter.set_time_limit(time_limit.map(|limit| Instant::now() + limit));
    let me = game.side_to_move();
    let mut nodes = 1;
    let mut arms: Vec<Arm<G>> = game
        .legal_moves()
        .map(|mv| {
            let child = game.play(mv);
            nodes += 1;
            let outcome = child.outcome();
            Arm {
                mv,
                child,
                // A move that ends the game needs no sampling: every playout ends the same way.
                proven: outcome
                    .is_over()
                    .then(|| i64::from(terminal_value(outcome, me, 0).signum())),
                total: 0,
            }
        })
        .collect();
    let mut rounds = 0;
    for _ in 0..playouts.max(1) {
        // A round is a playout per move, microseconds: look at the budget before each, but
        // always complete one, so that every move has a sample.
        if rounds > 0 && meter.check(nodes) {
            break;
        }
        for arm in &mut arms {
            arm.total += match arm.proven {
                Some(value) => value,
                None => {
                    let outcome = random_playout(arm.child.clone(), &mut rng, &mut nodes);
                    i64::from(terminal_value(outcome, me, 0).signum())
                }
            };
        }
        rounds += 1;
    }
    Sample {
        arms,
        rounds,
        nodes,
        stopped_by: meter.stopped_by,
    }
}

pub(super) fn search<G: Game>(
    game: &G,
    playouts: u32,
    time_limit: Option<Duration>,
    seed: u64,
    budget: &Budget,
) -> SearchResult<G::Move> {
    let sample = sample(game, playouts, time_limit, seed, budget);
    let mut best = &sample.arms[0];
    for arm in &sample.arms[1..] {
        if arm.total > best.total {
            best = arm;
        }
    }
    let Score {
        score,
        exact,
        plies_to_end,
    } = best.mean(sample.rounds);
    SearchResult {
        best_move: best.mv,
        score,
        exact,
        plies_to_end,
        nodes: sample.nodes,
        pv: Vec::new(),
        depth: None,
        seldepth: None,
        margin: None,
        elapsed: Default::default(),
        stopped_by: sample.stopped_by,
    }
}

/// Primitive Monte Carlo with its knobs, as a [`Searcher`].
pub(super) struct Mcs {
    pub playouts: u32,
    pub time_limit: Option<Duration>,
    pub seed: u64,
}

impl<G: Game> Searcher<G> for Mcs {
    fn best_move(&self, game: &G, budget: &Budget) -> SearchResult<G::Move> {
        search(game, self.playouts, self.time_limit, self.seed, budget)
    }

    /// Every move by its total.
    fn every_move(&self, game: &G, budget: &Budget) -> Analysis<G::Move> {
        let sample = sample(game, self.playouts, self.time_limit, self.seed, budget);
        let moves = sample
            .arms
            .iter()
            .map(|arm| {
                let analysis = MoveAnalysis::new(arm.mv, arm.mean(sample.rounds), None);
                (arm.total as f64, analysis)
            })
            .collect();
        Analysis::ranked(moves, sample.nodes, sample.stopped_by)
    }
}
