//! The entry to every search: a position and a [`Strategy`] in, a move or every move's value
//! out. A level is turned into its cut here, a panic inside a search into an error, and the
//! weights a player names are lent to its thread; the dispatcher (`dispatch.rs`) then hands
//! the search to its algorithm.

use std::time::Instant;

use super::level::{self, Chosen, Cut};
use super::{
    Algorithm, Analysis, Budget, SearchError, SearchResult, Solve, Strategy, dispatch,
    panic_message, searcher, tighter,
};
use crate::game::Level;

/// Searches `game` with `strategy`; `seed` drives every random choice, so the same inputs
/// always give the same result.
pub fn search<G: Solve>(
    game: &G,
    strategy: &Strategy,
    seed: u64,
) -> Result<SearchResult<G::Move>, SearchError> {
    search_within(game, strategy, seed, &Budget::unlimited())
}

/// [`search`], stopping early if `budget` runs out (see [`SearchResult::stopped_by`]).
pub fn search_within<G: Solve>(
    game: &G,
    strategy: &Strategy,
    seed: u64,
    budget: &Budget,
) -> Result<SearchResult<G::Move>, SearchError> {
    choose_within(game, strategy, seed, budget).map(|chosen| chosen.result)
}

/// [`search_within`], with the lines a level chose its move among where `multipv` asked for
/// them (`None` where no level applies, or one line was asked).
pub fn choose_within<G: Solve>(
    game: &G,
    strategy: &Strategy,
    seed: u64,
    budget: &Budget,
) -> Result<Chosen<G::Move>, SearchError> {
    if game.outcome().is_over() {
        return Err(SearchError::GameOver);
    }
    let started = Instant::now();
    let mut chosen = match level::handicap(&G::DECLARATION, &strategy.engine) {
        Some(handicap) if strategy.algorithm == Algorithm::Engine => {
            play_at_level(game, strategy, &handicap, seed, budget)?
        }
        _ => Chosen {
            result: search_dispatched(game, strategy, seed, budget)?,
            lines: None,
        },
    };
    chosen.result.elapsed = started.elapsed();
    if let Some(lines) = &mut chosen.lines {
        lines.elapsed = chosen.result.elapsed;
    }
    Ok(chosen)
}

/// [`search_within`] of one of a game's positions after another (a review's): the engine keeps
/// what it found in `memory` from one to the next ([`Solve::engine_remembering`]); any other
/// player, or the engine at a level, searches afresh.
pub fn search_remembering<G: Solve>(
    game: &G,
    strategy: &Strategy,
    seed: u64,
    budget: &Budget,
    memory: &mut G::Memory,
) -> Result<SearchResult<G::Move>, SearchError> {
    let handicapped = level::handicap(&G::DECLARATION, &strategy.engine).is_some();
    if strategy.algorithm != Algorithm::Engine || handicapped {
        return search_within(game, strategy, seed, budget);
    }
    if game.outcome().is_over() {
        return Err(SearchError::GameOver);
    }
    let started = Instant::now();
    let params = strategy.engine_params();
    let searched = caught(|| game.engine_remembering(&params, budget, memory));
    // A search that panicked may have left its memory half-written: the next starts afresh.
    let mut result = searched.inspect_err(|_| *memory = G::Memory::default())?;
    result.elapsed = started.elapsed();
    Ok(result)
}

/// [`level::choose`] with the searches `strategy` dispatches to, its lines `strategy`'s `multipv`.
fn play_at_level<G: Solve>(
    game: &G,
    strategy: &Strategy,
    handicap: &Level,
    seed: u64,
    budget: &Budget,
) -> Result<Chosen<G::Move>, SearchError> {
    let cut_to = |cut: Cut| {
        let mut limited = limited(strategy, cut);
        limited.engine.multipv = cut.lines;
        limited
    };
    level::choose(
        handicap,
        seed,
        strategy.engine.multipv,
        |cut| search_dispatched(game, &cut_to(cut), seed, budget),
        |cut| analyze_dispatched(game, &cut_to(cut), seed, budget),
    )
}

/// `strategy` cut to `cut`'s depth and nodes (any tighter of its own kept), at full strength
/// otherwise.
fn limited(strategy: &Strategy, cut: Cut) -> Strategy {
    let mut limited = strategy.clone();
    limited.depth = tighter(strategy.depth, cut.depth);
    limited.engine.nodes = tighter(strategy.engine.nodes, cut.nodes);
    // A level plays on one thread: its cut is in nodes, which threads would only overshoot.
    limited.engine.threads = 1;
    limited.engine.level = None;
    limited.engine.elo = None;
    limited
}

/// The search `strategy` names, as it is (a level already turned into its limits).
fn search_dispatched<G: Solve>(
    game: &G,
    strategy: &Strategy,
    seed: u64,
    budget: &Budget,
) -> Result<SearchResult<G::Move>, SearchError> {
    caught(|| dispatch::dispatch(strategy, seed, searcher::BestMove(game, budget)))
}

/// Runs a search, a panic inside it answered as [`SearchError::Failed`]: no caller (a request,
/// a tournament's worker, a protocol's thinking thread) dies of one. A search holds nothing
/// shared that a panic could leave half-changed (its tables are its own), so unwinding past it
/// is safe.
fn caught<T>(search: impl FnOnce() -> T) -> Result<T, SearchError> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(search))
        .map_err(|panic| SearchError::Failed(panic_message(panic.as_ref())))
}

/// Analyses every legal move of `game` with `strategy`: each with its value, best first.
pub fn analyze<G: Solve>(
    game: &G,
    strategy: &Strategy,
    seed: u64,
) -> Result<Analysis<G::Move>, SearchError> {
    analyze_within(game, strategy, seed, &Budget::unlimited())
}

/// [`analyze`], stopping early if `budget` runs out. At a level, every move is valued within
/// the level's depth and nodes: what the level chooses among.
pub fn analyze_within<G: Solve>(
    game: &G,
    strategy: &Strategy,
    seed: u64,
    budget: &Budget,
) -> Result<Analysis<G::Move>, SearchError> {
    if game.outcome().is_over() {
        return Err(SearchError::GameOver);
    }
    let started = Instant::now();
    let strategy = match level::handicap(&G::DECLARATION, &strategy.engine) {
        Some(handicap) if strategy.algorithm == Algorithm::Engine => {
            limited(strategy, Cut::of(&handicap))
        }
        _ => strategy.clone(),
    };
    let mut analysis = analyze_dispatched(game, &strategy, seed, budget)?;
    analysis.elapsed = started.elapsed();
    // An engine whose analysis searches every move answers the lines asked for.
    if let (Algorithm::Engine, Some(lines)) = (strategy.algorithm, strategy.engine.multipv) {
        analysis.moves.truncate(lines as usize);
    }
    Ok(analysis)
}

/// The analysis `strategy` names, as it is.
fn analyze_dispatched<G: Solve>(
    game: &G,
    strategy: &Strategy,
    seed: u64,
    budget: &Budget,
) -> Result<Analysis<G::Move>, SearchError> {
    caught(|| dispatch::dispatch(strategy, seed, searcher::EveryMove(game, budget)))
}
