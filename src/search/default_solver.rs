//! The `solver` algorithm: the strongest exact play the game has.
//!
//! A game small enough to enumerate ([`Knowledge::REACHABLE_POSITIONS`]) gets a perfect table: every
//! reachable position solved once by alphabeta with every enhancement, then answered by one
//! lookup (`nodes` is 1: the table entry), its principal variation read from the table too.
//! A few thousand positions take milliseconds to solve, once, at start-up. Larger games are
//! searched by alphabeta with every enhancement, deepening iteratively within the time limit.

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::sync::{OnceLock, RwLock};
use std::time::Duration;

use super::alphabeta::{self, AlphaBeta, AlphaBetaParams, Enhancements};
use super::table::TranspositionTable;
use super::{Budget, INFINITY, SearchResult, Value, exact_search_result, terminal_value};
use crate::game::Game;
use crate::game::reachable::reachable;

/// Every unfinished reachable position with its value and best move.
pub(super) struct PerfectTable<G: Game> {
    /// Value for the side to move (plies counted from the position itself) and best move.
    entries: HashMap<G, (Value, G::Move)>,
}

impl<G: Game> PerfectTable<G> {
    fn build() -> Self {
        // Built once, for every request to come: no request's budget applies.
        let mut searcher =
            AlphaBeta::<G>::new(&G::start(), Enhancements::ALL, &Budget::unlimited());
        let mut entries = HashMap::new();
        for position in reachable::<G>() {
            if position.outcome().is_over() {
                continue;
            }
            let value = searcher.value(&position, u32::MAX, 0, -INFINITY, INFINITY);
            let best = searcher.root_line()[0];
            entries.insert(position, (value, best));
        }
        PerfectTable { entries }
    }

    /// The value of `game` for its side to move, `ply` plies below the root.
    pub(super) fn value(&self, game: &G, ply: usize) -> Value {
        let outcome = game.outcome();
        if outcome.is_over() {
            return terminal_value(outcome, game.side_to_move(), ply);
        }
        let (value, _) = self.entries[game];
        TranspositionTable::value_from_entry(value, ply)
    }

    fn lookup(&self, game: &G) -> SearchResult<G::Move> {
        let (value, best) = self.entries[game];
        let mut pv = vec![best];
        let mut position = game.play(best);
        while let Some(&(_, mv)) = self.entries.get(&position) {
            pv.push(mv);
            position = position.play(mv);
        }
        exact_search_result(game, value, false, 1, pv)
    }
}

/// The perfect table of `G`, built on first use, or `None` if `G` is too large to tabulate.
pub(super) fn perfect_table<G: Game>() -> Option<&'static PerfectTable<G>> {
    G::REACHABLE_POSITIONS?;
    // One table per game type, kept for the life of the process. Generic statics do not exist
    // in Rust, hence a map from type to table.
    type Tables = RwLock<HashMap<TypeId, &'static (dyn Any + Send + Sync)>>;
    static TABLES: OnceLock<Tables> = OnceLock::new();
    let tables = TABLES.get_or_init(Default::default);
    let found = tables
        .read()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .get(&TypeId::of::<G>())
        .copied();
    let table = match found {
        Some(table) => table,
        None => *tables
            .write()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .entry(TypeId::of::<G>())
            .or_insert_with(|| Box::leak(Box::new(PerfectTable::<G>::build()))),
    };
    table.downcast_ref()
}

/// Builds `G`'s perfect table now, if it has one, so that the first request does not wait.
pub fn warm_up<G: Game>() {
    perfect_table::<G>();
}

pub(super) fn search<G: Game>(
    game: &G,
    time_limit: Option<Duration>,
    budget: &Budget,
) -> SearchResult<G::Move> {
    match perfect_table::<G>() {
        Some(table) => table.lookup(game),
        None => alphabeta::search(game, &AlphaBetaParams::strongest(time_limit), budget),
    }
}
