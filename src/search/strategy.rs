//! A search's settings: the algorithm, what every search takes, what one algorithm alone
//! takes beside it.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use super::budget::tighter;
use super::engine::{Clock, EngineOptions, EngineParams};
use super::{AlphaBetaParams, AlphaZeroParams, Enhancements, EvaluationIndex, MctsParams};

/// The names of the algorithms, as the API spells them.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    Random,
    Minimax,
    Negamax,
    AlphaBeta,
    Mcs,
    Mcts,
    AlphaZero,
    Solver,
    Engine,
}

impl Algorithm {
    /// Every algorithm, in declaration order: `algorithm as usize` is its index here (checked
    /// when compiling, below).
    pub const ALL: [Algorithm; 9] = [
        Algorithm::Random,
        Algorithm::Minimax,
        Algorithm::Negamax,
        Algorithm::AlphaBeta,
        Algorithm::Mcs,
        Algorithm::Mcts,
        Algorithm::AlphaZero,
        Algorithm::Solver,
        Algorithm::Engine,
    ];

    /// Whether it takes a time limit: it deepens or samples until then (its record says).
    pub const fn takes_time_limit(self) -> bool {
        self.record().stops.takes_time_limit()
    }

    /// Whether it breaks ties among moves of the same value as its `tiebreak` says: the exact
    /// algorithms (its record says).
    pub const fn breaks_ties(self) -> bool {
        self.record().breaks_ties
    }

    pub const fn name(self) -> &'static str {
        self.record().name
    }

    /// Every algorithm's name, in declaration order: what a message lists.
    pub fn names() -> Vec<&'static str> {
        Algorithm::ALL.into_iter().map(Algorithm::name).collect()
    }
}

const _: () = {
    let mut index = 0;
    while index < Algorithm::ALL.len() {
        assert!(Algorithm::ALL[index] as usize == index);
        index += 1;
    }
};

/// Written as its name: the answers carry the algorithm itself, and the JSON spells it as the
/// API does.
impl serde::Serialize for Algorithm {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl<'de> serde::Deserialize<'de> for Algorithm {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = String::deserialize(deserializer)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An algorithm name that is not one of [`Algorithm::ALL`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownAlgorithm(pub String);

impl fmt::Display for UnknownAlgorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown algorithm {:?}: expected one of {}",
            self.0,
            Algorithm::names().join(", ")
        )
    }
}

impl std::error::Error for UnknownAlgorithm {}

impl FromStr for Algorithm {
    type Err = UnknownAlgorithm;

    fn from_str(name: &str) -> Result<Self, UnknownAlgorithm> {
        Algorithm::ALL
            .into_iter()
            .find(|algorithm| algorithm.name() == name)
            .ok_or_else(|| UnknownAlgorithm(name.to_owned()))
    }
}

/// How to choose among moves of the same value.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Tiebreak {
    /// The first in move order: the textbook behaviour.
    #[default]
    First,
    /// A uniformly random one, drawn from the seed.
    Random,
    /// The one that leaves the opponent the most replies that lose: the most chances to go
    /// wrong. Among those, the first.
    Traps,
}

impl Tiebreak {
    pub const ALL: [Tiebreak; 3] = [Tiebreak::First, Tiebreak::Random, Tiebreak::Traps];

    pub fn name(self) -> &'static str {
        match self {
            Tiebreak::First => "first",
            Tiebreak::Random => "random",
            Tiebreak::Traps => "traps",
        }
    }
}

impl FromStr for Tiebreak {
    type Err = String;

    fn from_str(name: &str) -> Result<Self, String> {
        Tiebreak::ALL
            .into_iter()
            .find(|tiebreak| tiebreak.name() == name)
            .ok_or_else(|| format!("unknown tiebreak {name:?}: expected first, random or traps"))
    }
}

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
#[derive(Copy, Clone, Debug, PartialEq)]
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
    pub const fn alphabeta(params: AlphaBetaParams) -> Strategy {
        Strategy {
            depth: params.depth,
            time_limit: params.time_limit,
            evaluation: Some(params.evaluation),
            enhancements: params.enhancements,
            ..Strategy::with_defaults(Algorithm::AlphaBeta)
        }
    }

    /// mcts as `params` set it up.
    pub const fn mcts(params: MctsParams) -> Strategy {
        Strategy {
            mcts: params,
            ..Strategy::with_defaults(Algorithm::Mcts)
        }
    }

    /// The engine as `params` set it up.
    pub const fn engine(params: EngineParams) -> Strategy {
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
            ..EngineParams::new(self.time_limit, self.depth, self.engine)
        }
    }

    /// A sampler (whose record names its count of samples) with no count of its own: it
    /// samples until its time, or its budget, stops it. Other strategies are unchanged.
    pub fn sampling_until_stopped(mut self) -> Strategy {
        if let Some(samples) = self.algorithm.record().samples {
            *samples(&mut self) = u32::MAX;
        }
        self
    }

    /// Whether the seed changes the result (as its algorithm's record says): the API reports
    /// the seed only for these.
    pub fn is_randomized(&self) -> bool {
        self.algorithm.record().is_randomized(self)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn algorithm_names_round_trip() {
        for algorithm in Algorithm::ALL {
            assert_eq!(algorithm.name().parse::<Algorithm>(), Ok(algorithm));
            assert_eq!(Strategy::with_defaults(algorithm).algorithm, algorithm);
        }
        assert!("alpha-beta".parse::<Algorithm>().is_err());
    }
}
