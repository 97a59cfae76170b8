//! What an algorithm is, in one record, declared beside its search (`RECORD` in its file), as a
//! game declares itself in its `Declaration`: its name, what it does, what it takes of the
//! settings every search shares, how chance enters it, and the count of samples it draws where
//! it samples. [`Algorithm::record`] is the one exhaustive match from the name to the record,
//! so the compiler asks a new algorithm for its record; the questions asked of an algorithm
//! (`takes_time_limit`, `is_randomized`, `sampling_until_stopped`, and which searches need a
//! depth or the game's default time) read it rather than listing algorithms.

use super::{Algorithm, Strategy, Tiebreak};

/// An algorithm's record.
#[derive(Copy, Clone, Debug)]
pub struct Record {
    pub algorithm: Algorithm,
    /// The name the API spells it with.
    pub name: &'static str,
    /// What it does, for `GET /algorithms` (the engine's is its game's declaration's).
    pub description: &'static str,
    /// What ends its search.
    pub stops: Stops,
    /// Whether it breaks ties among moves of the same value as its `tiebreak` says: the exact
    /// algorithms.
    pub breaks_ties: bool,
    /// How the seed enters what it plays.
    pub chance: Chance,
    /// Where it samples, its count of samples in a strategy (playouts, simulations): what a
    /// search with no count of its own lifts, to sample until its time or budget stops it.
    pub samples: Option<fn(&mut Strategy) -> &mut u32>,
}

/// What ends an algorithm's search: what bounds it, so that none runs unbounded.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Stops {
    /// At once: it searches nothing.
    AtOnce,
    /// At its depth or the end of the game, every move searched, with no time limit; a game
    /// whose full width would not finish declares the deepest it allows (`full_width_depth`),
    /// and a search there must be given a depth within it.
    FullWidth,
    /// At its time, deepening until then, or at its depth or nodes; given none of them, within
    /// the game's default time.
    Deepening,
    /// At its time, or once its samples (playouts, simulations) are drawn.
    Sampling,
}

impl Stops {
    /// Whether a time limit stops it.
    pub const fn takes_time_limit(self) -> bool {
        matches!(self, Stops::Deepening | Stops::Sampling)
    }
}

/// How the seed enters what an algorithm plays.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Chance {
    /// Always: it draws moves or playouts.
    Always,
    /// Only through a random tie-break (`tiebreak=random`).
    TieBreak,
    /// Only where it samples its moves at a temperature above zero (alphazero's).
    Temperature,
    /// Only where it plays at a level or an Elo, whose moves are drawn (the engine's).
    Level,
    /// Never: the same position, the same answer.
    Never,
}

impl Record {
    /// Whether the seed changes what `strategy`, of this algorithm, plays: the API reports
    /// the seed only then.
    pub fn is_randomized(&self, strategy: &Strategy) -> bool {
        match self.chance {
            Chance::Always => true,
            Chance::TieBreak => strategy.tiebreak == Tiebreak::Random,
            Chance::Temperature => strategy.alphazero.temperature > 0.0,
            Chance::Level => strategy.engine.level.is_some() || strategy.engine.elo.is_some(),
            Chance::Never => false,
        }
    }
}

impl Algorithm {
    /// The algorithm's record, declared beside its search.
    pub const fn record(self) -> &'static Record {
        match self {
            Algorithm::Random => &super::random::RECORD,
            Algorithm::Minimax => &super::minimax::RECORD,
            Algorithm::Negamax => &super::negamax::RECORD,
            Algorithm::AlphaBeta => &super::alphabeta::RECORD,
            Algorithm::Mcs => &super::mcs::RECORD,
            Algorithm::Mcts => &super::mcts::RECORD,
            Algorithm::AlphaZero => &super::alphazero::RECORD,
            Algorithm::Solver => &super::solve::RECORD,
            Algorithm::Engine => &super::engine::RECORD,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_algorithm_has_its_own_record_under_its_own_name() {
        for algorithm in Algorithm::ALL {
            let record = algorithm.record();
            assert_eq!(record.algorithm, algorithm);
            assert!(!record.description.is_empty(), "{}", record.name);
            // A sampler's count is the strategy's field of its own.
            if let Some(samples) = record.samples {
                let mut strategy = Strategy::with_defaults(algorithm);
                *samples(&mut strategy) = 7;
                assert_ne!(
                    strategy,
                    Strategy::with_defaults(algorithm),
                    "{}",
                    record.name
                );
            }
        }
        let mut names: Vec<_> = Algorithm::ALL
            .map(|algorithm| algorithm.record().name)
            .to_vec();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), Algorithm::ALL.len());
    }

    #[test]
    fn a_name_not_known_is_answered_with_every_algorithms() {
        let error = "minmax".parse::<Algorithm>().unwrap_err().to_string();
        for algorithm in Algorithm::ALL {
            assert!(error.contains(algorithm.name()), "{error}");
        }
        // Only a full width's search needs a depth, and only a deepening one the game's time.
        assert_eq!(Algorithm::Minimax.record().stops, Stops::FullWidth);
        assert_eq!(Algorithm::Engine.record().stops, Stops::Deepening);
        assert!(!Stops::FullWidth.takes_time_limit() && Stops::Sampling.takes_time_limit());
    }
}
