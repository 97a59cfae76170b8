//! How an exact algorithm chooses among moves of the same value: a setting of its own, below
//! the exact searches that read it and the strategy that holds it.

use std::str::FromStr;

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
