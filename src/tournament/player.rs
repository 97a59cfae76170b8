//! The two sides of a tournament: Sente's own searches or external engines (UCI, USI, xboard or
//! GTP), each within its limits ([`time_control`](super::time_control)).

use std::sync::Arc;

use super::engines::EngineConfig;
use super::time_control::Limits;
use crate::search::{Algorithm, Strategy};

/// One side of a tournament.
#[derive(Clone, Debug, PartialEq)]
pub struct Player {
    pub kind: PlayerKind,
    pub limits: Limits,
}

/// Who chooses the moves.
#[derive(Clone, Debug, PartialEq)]
// A tournament makes its two players once: a boxed strategy would save nothing worth a pointer.
#[allow(clippy::large_enum_variant)]
pub enum PlayerKind {
    /// One of Sente's searches.
    Search(Strategy),
    /// An external engine (chess only), with the options the request adds to its own.
    Uci {
        engine: Arc<EngineConfig>,
        options: Vec<(String, String)>,
    },
}

impl Player {
    /// Sente's algorithm, for one of Sente's players.
    pub fn algorithm(&self) -> Option<Algorithm> {
        match &self.kind {
            PlayerKind::Search(strategy) => Some(strategy.algorithm),
            PlayerKind::Uci { .. } => None,
        }
    }

    /// A Sente search with no limit beyond its own knobs.
    pub fn search(strategy: Strategy) -> Player {
        Player {
            kind: PlayerKind::Search(strategy),
            limits: Limits::default(),
        }
    }
}
