//! What an algorithm is, in one record, declared beside its search (`RECORD` in its file), as a
//! game declares itself in its `Declaration`: its name, what it does, what it takes of the
//! settings every search shares, how chance enters it, and the count of samples it draws where
//! it samples. This file is below every algorithm (each names its record's type) and
//! `algorithms.rs` above them all holds the one exhaustive match from the name to the record,
//! so the compiler asks a new algorithm for its record; the questions asked of an algorithm
//! (`takes_time_limit`, `is_randomized`, `sampling_until_stopped`, and which searches need a
//! depth or the game's default time) read it rather than listing algorithms.

/// Declares the enum of the algorithms and [`Algorithm::ALL`] from one list, so that a new
/// algorithm is one name here and cannot be missing from `ALL`.
macro_rules! algorithms {
    ($($name:ident),+ $(,)?) => {
        /// The names of the algorithms, as the API spells them.
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
        pub enum Algorithm {
            $($name),+
        }

        impl Algorithm {
            /// Every algorithm, in declaration order: `algorithm as usize` is its index here
            /// (checked when compiling, below).
            pub const ALL: [Algorithm; [$(Algorithm::$name),+].len()] = [$(Algorithm::$name),+];
        }
    };
}

algorithms!(
    Random, Minimax, Negamax, AlphaBeta, Mcs, Mcts, AlphaZero, Solver, Engine,
);

const _: () = {
    let mut index = 0;
    while index < Algorithm::ALL.len() {
        assert!(Algorithm::ALL[index] as usize == index);
        index += 1;
    }
};

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
    /// algorithms. They take the `tiebreak` knob.
    pub breaks_ties: bool,
    /// Whether it searches to a depth and scores the positions there with the game's
    /// evaluation: it takes the `depth` and `evaluation` knobs.
    pub depth_limited: bool,
    /// How the seed enters what it plays.
    pub chance: Chance,
    /// Where it samples, its count of samples in a strategy (playouts, simulations): what a
    /// search with no count of its own lifts, to sample until its time or budget stops it.
    pub samples: Option<Samples>,
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
    /// Whether a time limit stops it: it takes the `time_limit_ms` knob.
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

impl Chance {
    /// Whether a request's seed decides its draws, so that it takes the `seed` knob: not the
    /// engine's, whose level is not asked for by a seed, nor one that never draws.
    pub const fn takes_seed(self) -> bool {
        matches!(
            self,
            Chance::Always | Chance::TieBreak | Chance::Temperature
        )
    }
}

/// Which of a strategy's counts a sampler draws its samples by.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Samples {
    /// `playouts`, per legal move (mcs).
    Playouts,
    /// `mcts.simulations`.
    MctsSimulations,
    /// `alphazero.simulations`.
    AlphaZeroSimulations,
}
