//! Watching a search as it deepens: what each finished iteration found, as a UCI engine's
//! `info` lines tell it, handed to whoever watches (a streamed answer, `sente uci`).

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;

use crate::game::Player;

/// What one finished iteration of a deepening search found.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Iteration {
    /// The iteration's depth, in plies.
    pub depth: u32,
    /// The deepest ply it reached, quiescence and extensions included.
    pub seldepth: u32,
    /// The value for the side to move on Sente's common scale, as answers give it.
    #[serde(serialize_with = "crate::rounded::to::<4, _>")]
    pub score: f64,
    /// The centipawns for the side to move, when no mate is proven.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cp: Option<i32>,
    /// Moves to a proven mate, positive when the side to move mates.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mate: Option<i32>,
    /// Whose view `score`, `cp` and `mate` take: the side to move at the root, as answers say.
    pub score_for: Player,
    pub nodes: u64,
    /// Nodes a second over the whole search so far.
    pub nps: u64,
    pub time_ms: u64,
    /// The principal variation, in the game's notation (UCI for chess).
    pub pv: Vec<String>,
    /// The same line in SAN, for chess.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pv_san: Option<Vec<String>>,
    /// The line's rank, 1 for the best, where the search answers several (an analysis, UCI's
    /// MultiPV): each iteration then tells every line it keeps, best first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub multipv: Option<u32>,
}

impl Iteration {
    /// Nodes a second, for `nodes` searched in `elapsed`.
    pub fn nps(nodes: u64, elapsed: Duration) -> u64 {
        (u128::from(nodes) * 1_000_000 / elapsed.as_micros().max(1)) as u64
    }
}

/// Called with each finished iteration, from the thread that searches.
#[derive(Clone)]
pub struct Watch(Arc<dyn Fn(&Iteration) + Send + Sync>);

impl Watch {
    pub fn new(watch: impl Fn(&Iteration) + Send + Sync + 'static) -> Watch {
        Watch(Arc::new(watch))
    }

    pub fn tell(&self, iteration: &Iteration) {
        (self.0)(iteration);
    }
}

impl fmt::Debug for Watch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Watch")
    }
}
