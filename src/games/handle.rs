//! The registry's handle on a game: what the service asks of a game without its type (its
//! name, its declaration, its evaluations and networks, its start), read through plain
//! functions. Code that works with the game's type (a search, a tournament, a review) runs
//! through [`super::ForGame`] instead, in its own command's file.

use crate::game::Declaration;
use crate::learn::Trainer;
use crate::search::Solve;

/// A game as the registry hands it out, without its type.
#[derive(Clone, Copy, Debug)]
pub struct GameRef {
    pub name: &'static str,
    pub declaration: Declaration,
    /// Its board's rows and columns.
    pub rows: usize,
    pub columns: usize,
    /// Its starting position, as text.
    pub start: fn() -> String,
    /// The names and descriptions of the game's evaluations, the default first.
    pub evaluations: fn() -> Vec<(&'static str, &'static str)>,
    /// The names of the networks its `alphazero` plays with, the default first; none where it
    /// has no `alphazero`.
    pub networks: fn() -> Vec<(&'static str, &'static str)>,
    /// The trainer of its AlphaZero network, which every game can learn.
    pub network_trainer: Trainer,
    /// Builds now what the game builds once (a perfect table, a solver's large table).
    pub warm_up: fn(),
}

impl GameRef {
    /// The game `G`.
    pub fn of<G: Solve>() -> GameRef {
        GameRef {
            name: G::NAME,
            declaration: G::DECLARATION,
            rows: G::ROWS,
            columns: G::COLUMNS,
            start: || G::start().to_string(),
            evaluations: || {
                G::EVALUATIONS
                    .iter()
                    .map(|evaluation| (evaluation.name, evaluation.description))
                    .collect()
            },
            networks: crate::search::alphazero::networks::described::<G>,
            network_trainer: crate::search::alphazero::train::trainer::<G>(),
            warm_up: G::warm_up,
        }
    }

    /// What it learns: with `network`, or where the game declares no trainer, AlphaZero's
    /// policy-value network; else its own (chess's evaluation network, Othello's patterns).
    pub fn trainer(&self, network: bool) -> Trainer {
        self.declaration
            .trainer
            .filter(|_| !network)
            .unwrap_or(self.network_trainer)
    }
}

/// Built by the registry: the handle of the game it runs with.
#[derive(Clone)]
pub(super) struct Handle;

impl super::ForGame for Handle {
    type Output = GameRef;
    fn run<G: Solve>(self) -> GameRef {
        GameRef::of::<G>()
    }
}
