//! Lazy SMP: one search on many threads. Every thread searches the whole tree from the root,
//! each with its own board, histories and corrections, all over one table (`table.rs`): what
//! one finds, the others find in the table and need not search again, and since they take
//! different paths through the tree (their histories and timings differ from the first node
//! on), together they search it faster and deeper than one. The main thread deepens, reports
//! and answers as a search on one thread does; the helpers only fill the table, and stop when
//! it answers.
//!
//! The helpers' depths are staggered as Stockfish 9's were (`SKIP_SIZE` and `SKIP_PHASE`,
//! search.cpp, 2018): helper `i` skips some iterations, in blocks that differ from helper to
//! helper, so that at any time the threads are spread over several depths rather than all on
//! the main thread's, which makes their paths differ more and puts some ahead of the main
//! thread, whose next iteration then finds their results. Later Stockfish dropped the skipping
//! for a vote among the threads' answers at many more threads than Sente runs; Ethereal keeps
//! every thread on every depth. At a few threads the staggering is the simpler of the two that
//! work, and leaves the answer the main thread's, as one thread's is.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use super::search::{Engine, Memories};
use super::{Board, EngineParams, aspire, proven_within};
use crate::search::Budget;

/// Helper `i`'s block of iterations (Stockfish 9): it searches `SKIP_SIZE[i]` iterations in a
/// row, then skips as many, starting `SKIP_PHASE[i]` iterations in.
const SKIP_SIZE: [i32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
const SKIP_PHASE: [i32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];

/// Whether helper `index` (from 1) skips the iteration `depth` plies deep.
fn skips(index: usize, depth: i32) -> bool {
    let block = (index - 1) % SKIP_SIZE.len();
    ((depth + SKIP_PHASE[block]) / SKIP_SIZE[block]) % 2 != 0
}

/// Runs `main` on the calling thread with the `engine` it was given, and `params.threads - 1`
/// helpers searching `game` beside it into the same table until `main` returns; then stops
/// them and waits for them. The engine's node count is then the whole search's
/// ([`Engine::total_nodes`]). At one thread, `main` alone, as before threads.
pub(super) fn with_helpers<B: Board, T>(
    game: &B::Game,
    params: &EngineParams,
    budget: &Budget,
    engine: &mut Engine<B>,
    main: impl FnOnce(&mut Engine<B>) -> T,
) -> T {
    if params.threads <= 1 {
        return main(engine);
    }
    let nodes = Arc::new(AtomicU64::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    engine.meter.join_team(Arc::clone(&nodes));
    // A helper stops when the main thread has answered, or at the service's deadline or node
    // limit; a cancel or halt stops the main thread, which then stops the helpers. It tells
    // no one what it finds and never pauses.
    let helpers_budget = Budget {
        deadline: budget.deadline,
        max_nodes: budget.max_nodes,
        cancelled: Some(Arc::clone(&stop)),
        ..Budget::default()
    };
    let table = Arc::clone(&engine.table);
    std::thread::scope(|scope| {
        for index in 1..params.threads as usize {
            let memories = Memories::sharing::<B>(Arc::clone(&table));
            let (budget, nodes) = (&helpers_budget, Arc::clone(&nodes));
            let spawned = std::thread::Builder::new()
                .name(format!("search-helper-{index}"))
                .spawn_scoped(scope, move || {
                    let mut helper = Engine::<B>::new(game, params, budget, Some(memories));
                    helper.meter.join_team(nodes);
                    help(&mut helper, index);
                    helper.meter.add_to_team(helper.nodes);
                });
            // A helper the system cannot start is a thread less, not a failed search.
            if spawned.is_err() {
                break;
            }
        }
        let answer = main(engine);
        stop.store(true, Ordering::Relaxed);
        answer
    })
}

/// A helper's iterations: as the main thread's, less those its block skips, with no clock of
/// its own, nothing told and nothing answered.
fn help<B: Board>(engine: &mut Engine<B>, index: usize) {
    let mut last = None;
    for depth in 1..=engine.max_depth {
        if skips(index, depth) {
            continue;
        }
        engine.root_depth = depth;
        let value = aspire(engine, depth, last);
        if engine.meter.is_stopped() || proven_within(value, depth) {
            return;
        }
        last = Some(value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first helper takes every other iteration, and each of the first twenty helpers a
    /// different pattern of iterations.
    #[test]
    fn the_helpers_are_spread_over_the_depths() {
        let pattern = |index| {
            (1..=16)
                .map(|depth| !skips(index, depth))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            (1..=6)
                .filter(|&depth| !skips(1, depth))
                .collect::<Vec<_>>(),
            [2, 4, 6]
        );
        let patterns: std::collections::HashSet<_> = (1..=20).map(pattern).collect();
        assert_eq!(patterns.len(), 20);
        assert_eq!(pattern(21), pattern(1), "the blocks come round again");
    }
}
