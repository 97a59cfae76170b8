//! A search's settings: the algorithm, what every search takes, what one algorithm alone
//! takes beside it.

use std::time::Duration;

use super::budget::tighter;
use super::engine::{Clock, EngineOptions, EngineParams};
use super::record::{Algorithm, Chance, Samples, Stops};
use super::tiebreak::Tiebreak;
use super::{AlphaBetaParams, AlphaZeroParams, Enhancements, EvaluationIndex, MctsParams};
use crate::game::Game;

/// Games with at most this many move ids are small enough that a sampler with small knobs or
/// a shallow full-width search finishes in well under a millisecond.
const SMALL_GAME_MOVES: usize = 64;

/// Default number of random playouts per legal move for `mcs`.
pub const DEFAULT_PLAYOUTS: u32 = 10;

/// An algorithm with its settings: everything a search needs but the position and the seed
/// (which each search is given, a tournament deriving one per game).
///
/// What every search takes sits in one place, what one algorithm alone takes beside it, each
/// left alone by the algorithms with no use for it: so setting a knob is one field write, and
/// the knobs' table ([`crate::api::knobs`]) is what refuses a knob to an algorithm that does not
/// take it. `depth: None` searches to the end of the game. A `time_limit` stops sampling early;
/// the result then depends on the machine's speed, not only on the seed.
///
/// Adding an algorithm: its file in `src/search/` with its record, its settings here (a field,
/// when it takes any of its own), a table entry per knob, one arm in `dispatch.rs`
/// (docs/architecture.md#adding-an-algorithm).
#[derive(Clone, Debug, PartialEq)]
pub struct Strategy {
    pub algorithm: Algorithm,
    /// Plies to search (minimax, negamax, alphabeta, engine); `None`: to the end of the game,
    /// or as deep as the time allows.
    pub depth: Option<u32>,
    /// How long the search may take (alphabeta, solver, engine, mcs, mcts).
    pub time_limit: Option<Duration>,
    /// How an exact algorithm chooses among moves of the same value.
    pub tiebreak: Tiebreak,
    /// Which of the game's evaluations scores the leaves at the depth limit: by default the
    /// game's first, except for the engine, whose `None` is its own choice.
    pub evaluation: Option<EvaluationIndex>,
    /// alphabeta's own: its enhancements.
    pub enhancements: Enhancements,
    /// mcs's own: random playouts after each legal move.
    pub playouts: u32,
    /// mcts's own.
    pub mcts: MctsParams,
    /// alphazero's own.
    pub alphazero: AlphaZeroParams,
    /// The engine's own: its table, clock, node limit and lines.
    pub engine: EngineOptions,
}

impl Strategy {
    /// The algorithm with its default settings.
    pub const fn with_defaults(algorithm: Algorithm) -> Strategy {
        Strategy {
            algorithm,
            depth: None,
            time_limit: None,
            tiebreak: Tiebreak::First,
            evaluation: match algorithm {
                Algorithm::Engine => None,
                _ => Some(0),
            },
            enhancements: Enhancements::NONE,
            playouts: DEFAULT_PLAYOUTS,
            mcts: MctsParams::DEFAULT,
            alphazero: AlphaZeroParams::DEFAULT,
            engine: EngineOptions::DEFAULT,
        }
    }

    /// alphabeta as `params` set it up, breaking ties by move order.
    pub fn alphabeta(params: AlphaBetaParams) -> Strategy {
        Strategy {
            depth: params.depth,
            time_limit: params.time_limit,
            evaluation: Some(params.evaluation),
            enhancements: params.enhancements,
            ..Strategy::with_defaults(Algorithm::AlphaBeta)
        }
    }

    /// mcts as `params` set it up.
    pub fn mcts(params: MctsParams) -> Strategy {
        Strategy {
            mcts: params,
            ..Strategy::with_defaults(Algorithm::Mcts)
        }
    }

    /// The engine as `params` set it up.
    pub fn engine(params: EngineParams) -> Strategy {
        Strategy {
            depth: params.depth,
            time_limit: params.time_limit,
            evaluation: params.evaluation,
            engine: params.options(),
            ..Strategy::with_defaults(Algorithm::Engine)
        }
    }

    /// What alphabeta is given.
    pub fn alphabeta_params(&self) -> AlphaBetaParams {
        AlphaBetaParams {
            depth: self.depth,
            enhancements: self.enhancements,
            time_limit: self.time_limit,
            evaluation: self.evaluation.unwrap_or(0),
        }
    }

    /// What the engine is given.
    pub fn engine_params(&self) -> EngineParams {
        EngineParams {
            evaluation: self.evaluation,
            ..EngineParams::new(self.time_limit, self.depth, self.engine.clone())
        }
    }

    /// A sampler (whose record names its count of samples) with no count of its own: it
    /// samples until its time, or its budget, stops it. Other strategies are unchanged.
    pub fn sampling_until_stopped(mut self) -> Strategy {
        if let Some(samples) = self.algorithm.record().samples {
            *self.samples_mut(samples) = u32::MAX;
        }
        self
    }

    /// The count of samples `samples` names.
    pub fn samples_mut(&mut self, samples: Samples) -> &mut u32 {
        match samples {
            Samples::Playouts => &mut self.playouts,
            Samples::MctsSimulations => &mut self.mcts.simulations,
            Samples::AlphaZeroSimulations => &mut self.alphazero.simulations,
        }
    }

    /// Whether the seed changes the result (as its algorithm's record says): the API reports
    /// the seed only for these.
    pub fn is_randomized(&self) -> bool {
        match self.algorithm.record().chance {
            Chance::Always => true,
            Chance::TieBreak => self.tiebreak == Tiebreak::Random,
            Chance::Temperature => self.alphazero.temperature > 0.0,
            Chance::Level => self.engine.level.is_some() || self.engine.elo.is_some(),
            Chance::Never => false,
        }
    }

    /// The threads a search of it runs on: the engine's `threads` at full strength, one
    /// otherwise (a level, any other algorithm).
    pub fn threads(&self) -> u32 {
        let full_strength = self.engine.level.is_none() && self.engine.elo.is_none();
        if self.algorithm == Algorithm::Engine && full_strength {
            self.engine.threads.max(1)
        } else {
            1
        }
    }

    /// Whether it is certain to search `G` in well under a millisecond: exact searches on
    /// games that declare them instant, and on small games samplers with small knobs and shallow
    /// full-width searches.
    pub fn is_light<G: Game>(&self) -> bool {
        let small = G::MOVE_IDS <= SMALL_GAME_MOVES;
        let instant = G::DECLARATION.limits.instant_exact_search;
        let record = self.algorithm.record();
        match (record.stops, record.samples) {
            (Stops::AtOnce, _) => true,
            // A tie-break other than "first" searches every move exactly.
            (Stops::Deepening, _) => {
                instant && (!record.breaks_ties || self.tiebreak == Tiebreak::First)
            }
            (Stops::FullWidth, _) => small && self.depth.is_some_and(|depth| depth <= 3),
            (Stops::Sampling, Some(Samples::Playouts)) => small && self.playouts <= 100,
            (Stops::Sampling, Some(Samples::MctsSimulations)) => {
                small && self.mcts.simulations <= 1_000
            }
            // Every simulation runs the network.
            (Stops::Sampling, Some(Samples::AlphaZeroSimulations) | None) => false,
        }
    }

    /// The strategy aiming to spend about `time` on a move, where it can deepen or sample
    /// within a time limit (a shorter limit of its own stays); the others are unchanged.
    pub fn within(mut self, time: Duration) -> Strategy {
        if self.algorithm.takes_time_limit() {
            self.time_limit = tighter(self.time_limit, Some(time));
        }
        self
    }

    /// The strategy with no time limit of its own: a deepening search then deepens to its
    /// depth, or to the end of the game.
    pub fn without_time_limit(mut self) -> Strategy {
        self.time_limit = None;
        self
    }

    /// The strategy playing on a clock with `left` and `increment` for the side to move, if
    /// it shares out a clock itself (the engine); the others are given a time per move.
    pub fn on_clock(mut self, left: Duration, increment: Duration) -> Option<Strategy> {
        if self.algorithm != Algorithm::Engine {
            return None;
        }
        self.engine.clock = Clock {
            wtime: Some(left),
            btime: Some(left),
            winc: Some(increment),
            binc: Some(increment),
            movestogo: None,
            byoyomi: None,
        };
        Some(self)
    }
}
