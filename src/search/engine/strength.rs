//! The kit at a level (the `level` knob, and `elo` where the game rates its levels): the
//! level's cut and its choice are [`crate::search::level`]'s, the same for every game's engine;
//! this is the kit's side of it, its search and analysis within the cut. A protocol session
//! (`UCI_LimitStrength`, `Skill Level`) comes here directly; a request comes through
//! [`crate::search::search_within`], which has already turned the level into its cut.

use std::convert::Infallible;

use super::{Board, Kept, analyze, search_keeping};
use crate::game::{Level, Rules};
use crate::search::level::{self, Cut};
use crate::search::{Budget, EngineParams, SearchResult, seed};

/// The engine's move in `game` at `level`, with what `kept` holds. The draw is seeded by the
/// position and the level, so that a session replays as it was played.
pub(super) fn at_level<B: Board>(
    game: &B::Game,
    params: &EngineParams,
    level: &Level,
    budget: &Budget,
    kept: &mut Kept<B>,
) -> SearchResult<<B::Game as Rules>::Move> {
    let cut_to = |cut: Cut| EngineParams {
        depth: crate::search::tighter(params.depth, cut.depth),
        nodes: crate::search::tighter(params.nodes, cut.nodes),
        multipv: cut.lines,
        level: None,
        elo: None,
        threads: 1,
        ..params.clone()
    };
    let seed = seed::derive(game.key(), level.temperature.to_bits());
    let chosen = level::choose(
        level,
        seed,
        params.multipv,
        |cut| Ok::<_, Infallible>(search_keeping(game, &cut_to(cut), budget, kept)),
        |cut| Ok(analyze::<B>(game, &cut_to(cut), budget)),
    );
    match chosen {
        Ok(chosen) => chosen.result,
        Err(never) => match never {},
    }
}
