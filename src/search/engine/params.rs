//! What the `engine` algorithm is given, as UCI's `go` gives it, and the one policy for
//! sharing out a clock.

use std::time::Duration;

use crate::learn::weights::NamedWeights;

/// What the `engine` algorithm is given: how long it may think, and with how much memory.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineParams {
    /// Deepen until this much time has passed (the engine's own default without it).
    pub time_limit: Option<Duration>,
    /// The deepest iteration, in plies (as deep as it has time for without it).
    pub depth: Option<u32>,
    /// Which of the game's evaluations the engine uses (its own default without it).
    pub evaluation: Option<crate::search::EvaluationIndex>,
    /// The rest as [`EngineOptions`] has them.
    pub hash_mb: u32,
    pub without: Option<&'static str>,
    pub nodes: Option<u64>,
    pub clock: Clock,
    pub multipv: Option<u32>,
    pub elo: Option<u32>,
    pub level: Option<u8>,
    pub weights: Option<NamedWeights>,
    pub threads: u32,
}

/// What the engine alone takes, beside the depth and time limit every search takes; a game's
/// engine uses those its declaration lists ([`crate::game::EngineDeclaration`]).
#[derive(Clone, Debug, PartialEq)]
pub struct EngineOptions {
    /// The size of the engine's transposition table, in MiB (rounded down to a power of two
    /// of entries), as UCI's `Hash` option gives it.
    pub hash_mb: u32,
    /// One of the engine's steps turned off, by the name its game's declaration gives it, to
    /// measure what it gains (a self-play SPRT of the engine against itself without it).
    pub without: Option<&'static str>,
    /// The most nodes to search.
    pub nodes: Option<u64>,
    /// The players' clocks, as UCI's `go` gives them: the engine shares out the time of the
    /// side to move.
    pub clock: Clock,
    /// How many of the best moves an analysis gives (UCI's and lichess's `MultiPV`); every
    /// legal move without it. A move's choice is the same whatever it is.
    pub multipv: Option<u32>,
    /// The strength to play at, on the Elo scale its game's engine is calibrated on (UCI's
    /// `UCI_Elo`, from [`MIN_ELO`] to [`MAX_ELO`]), between the two of its game's levels
    /// around it; its full strength without it.
    pub elo: Option<u32>,
    /// The level to play at, from 1 to [`LEVELS`](crate::game::LEVELS), as its game declares
    /// them ([`Level`](crate::game::Level)); its full strength without it.
    pub level: Option<u8>,
    /// The learnt evaluation's weights read from a file that it plays with; the shipped ones
    /// without it.
    pub weights: Option<NamedWeights>,
    /// Threads the search runs on, sharing its table (Lazy SMP, `threads.rs`); one by default,
    /// and always at a level below the top.
    pub threads: u32,
}

/// The weakest strength an engine may be asked to play at.
pub const MIN_ELO: u32 = 1200;
/// The strongest it may be asked to play at, short of its full strength.
pub const MAX_ELO: u32 = 2800;

/// How long a search without a time may run: far longer than any depth or node count a
/// caller gives takes, and short enough that a deadline this far off is still an instant.
pub const UNLIMITED: Duration = Duration::from_secs(7 * 24 * 3600);

/// The most threads one search takes (UCI's and USI's `Threads`, the `threads` knob), as
/// Stockfish allows: past the machine's cores a search gains nothing, but one that asks for
/// more is not refused; the service bounds it by its slots.
pub const MAX_THREADS: u32 = 1024;

/// The engine's table size when a request gives none.
pub const DEFAULT_HASH_MB: u32 = 8;

impl EngineOptions {
    pub const DEFAULT: EngineOptions = EngineOptions {
        hash_mb: DEFAULT_HASH_MB,
        without: None,
        nodes: None,
        clock: Clock::NONE,
        multipv: None,
        elo: None,
        level: None,
        weights: None,
        threads: 1,
    };
}

impl Default for EngineParams {
    fn default() -> Self {
        EngineParams::new(None, None, EngineOptions::DEFAULT)
    }
}

impl EngineParams {
    /// The engine's time limit and depth, and its own options.
    pub fn new(time_limit: Option<Duration>, depth: Option<u32>, options: EngineOptions) -> Self {
        let EngineOptions {
            hash_mb,
            without,
            nodes,
            clock,
            multipv,
            elo,
            level,
            weights,
            threads,
        } = options;
        EngineParams {
            time_limit,
            depth,
            evaluation: None,
            hash_mb,
            without,
            nodes,
            clock,
            multipv,
            elo,
            level,
            weights,
            threads,
        }
    }

    /// Thinking for `time_limit`, the rest by default.
    pub fn for_time(time_limit: Duration) -> Self {
        EngineParams {
            time_limit: Some(time_limit),
            ..EngineParams::default()
        }
    }

    /// Its options, without the time limit and depth.
    pub fn options(&self) -> EngineOptions {
        EngineOptions {
            hash_mb: self.hash_mb,
            without: self.without,
            nodes: self.nodes,
            clock: self.clock,
            multipv: self.multipv,
            elo: self.elo,
            level: self.level,
            weights: self.weights.clone(),
            threads: self.threads,
        }
    }
}

/// What is left on each player's clock, their increments, and the moves until the next time
/// control, as UCI names them; each is optional.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct Clock {
    pub wtime: Option<Duration>,
    pub btime: Option<Duration>,
    pub winc: Option<Duration>,
    pub binc: Option<Duration>,
    pub movestogo: Option<u32>,
    /// USI's byoyomi: the time each move may take once the side's own time is spent.
    pub byoyomi: Option<Duration>,
}

impl Clock {
    /// No clock at all.
    pub const NONE: Clock = Clock {
        wtime: None,
        btime: None,
        winc: None,
        binc: None,
        movestogo: None,
        byoyomi: None,
    };

    /// The time left and the increment of one side, if its clock is given.
    pub fn of(&self, white: bool) -> Option<(Duration, Duration)> {
        let (left, increment) = if white {
            (self.wtime, self.winc)
        } else {
            (self.btime, self.binc)
        };
        left.map(|left| (left, increment.unwrap_or_default()))
    }

    /// The time one side's clock allows a move, if its clock is given: its [`share`] of what
    /// is left less a margin for passing the answer on (`CLOCK_OVERHEAD`), over the moves to
    /// go (`movestogo`, or `moves` when it is not given).
    pub fn share(&self, white: bool, moves: u32) -> Option<Duration> {
        let (left, increment) = self.of(white)?;
        let left = left
            .saturating_sub(CLOCK_OVERHEAD)
            .max(Duration::from_millis(1));
        Some(share(left, increment, self.movestogo.unwrap_or(moves)))
    }
}

/// The one policy for a move's time on a clock, the engines' and the tournament's: what is
/// left over the moves to go (between 1 and 50), and most of the increment; never more than
/// half of what is left, so that the clock never falls however many moves remain.
pub fn share(left: Duration, increment: Duration, moves_to_go: u32) -> Duration {
    (left / moves_to_go.clamp(1, 50) + increment * 3 / 4).min(left / 2)
}

/// Kept back from a clock for what the answer takes beyond the search: writing it, and the
/// time a match runner or the network takes to pass it on.
pub(crate) const CLOCK_OVERHEAD: Duration = Duration::from_millis(20);
