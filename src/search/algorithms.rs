//! Every algorithm: the one exhaustive match from an [`Algorithm`] to the record its file
//! declares ([`Algorithm::record`]), and what is read from the records by name (parsing,
//! printing, the list a message gives). It sits above every algorithm's file, as the records'
//! type (`record.rs`) sits below them.

use std::fmt;
use std::str::FromStr;

use super::record::{Algorithm, Record};

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

    /// Whether it takes a time limit: it deepens or samples until then (its record says).
    pub const fn takes_time_limit(self) -> bool {
        self.record().stops.takes_time_limit()
    }

    pub const fn name(self) -> &'static str {
        self.record().name
    }

    /// Every algorithm's name, in declaration order: what a message lists.
    pub fn names() -> Vec<&'static str> {
        Algorithm::ALL.into_iter().map(Algorithm::name).collect()
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{Stops, Strategy};

    #[test]
    fn each_algorithm_has_its_own_record_under_its_own_name() {
        for algorithm in Algorithm::ALL {
            let record = algorithm.record();
            assert_eq!(record.algorithm, algorithm);
            assert!(!record.description.is_empty(), "{}", record.name);
            // A sampler's count is the strategy's field of its own.
            if let Some(samples) = record.samples {
                let mut strategy = Strategy::with_defaults(algorithm);
                *strategy.samples_mut(samples) = 7;
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

    #[test]
    fn algorithm_names_round_trip() {
        for algorithm in Algorithm::ALL {
            assert_eq!(algorithm.name().parse::<Algorithm>(), Ok(algorithm));
            assert_eq!(Strategy::with_defaults(algorithm).algorithm, algorithm);
        }
        assert!("alpha-beta".parse::<Algorithm>().is_err());
    }
}
