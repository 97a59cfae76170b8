//! Playing at a requested strength (UCI's `UCI_LimitStrength` and `UCI_Elo`, the `elo` knob).
//!
//! Two handicaps, as engines that limit their strength use them. The first is fewer nodes: an
//! engine's strength falls by a roughly constant step for each halving of its search, so the
//! node limit halves for each [`ELO_PER_DOUBLING`] below the top of the scale. That runs out
//! where a search of a few dozen nodes still sees every one-move threat, so below
//! [`NOISE_BELOW`] the engine also chooses among its best few moves at random, each scored
//! with a random bonus of up to [`NOISE_PER_ELO`] centipawns for each Elo below it: a move
//! worse than the best by less than the bonus may be played, which is how a weaker player
//! loses, a little at a time and now and then at once.
//!
//! The constants are fitted to the ladder (docs/chess.md#playing-at-a-strength): the Elo asked
//! for is on the CCRL 40/15 scale the ladder's opponents are rated on, through two points, the
//! full engine at 100 ms a move and the engine at a tenth of its nodes; below the second the
//! line is extrapolated.

use rand::{RngExt, SeedableRng};

use super::{Chess, ChessMove, KeptTable, search_keeping};
use crate::search::{Budget, EngineParams, SearchResult, SearchRng, seed};

/// Nodes a move of the full engine at 100 ms a move on the ladder's machine, and the rating it
/// measured there: the anchor of the scale.
const ANCHOR_NODES: f64 = 90_000.0;
const ANCHOR_ELO: f64 = 2600.0;
/// The Elo a doubling of the nodes is worth, as the ladder measured the engine at a tenth of
/// the anchor's nodes.
const ELO_PER_DOUBLING: f64 = 246.0;
/// The fewest nodes a move: about what one iteration of the best few moves takes.
const MIN_NODES: u64 = 400;
/// Below this, the engine also chooses among its best moves at random.
const NOISE_BELOW: u32 = 1500;
/// The most centipawns added to a move's value, for each Elo below [`NOISE_BELOW`].
const NOISE_PER_ELO: f64 = 0.5;
/// The moves chosen among.
const CANDIDATES: u32 = 4;

/// The nodes a move at strength `elo`.
pub(super) fn nodes_for(elo: u32) -> u64 {
    let doublings = (f64::from(elo) - ANCHOR_ELO) / ELO_PER_DOUBLING;
    ((ANCHOR_NODES * doublings.exp2()) as u64).max(MIN_NODES)
}

/// The most centipawns of random bonus a move may get at strength `elo`.
pub(super) fn noise_for(elo: u32) -> f64 {
    f64::from(NOISE_BELOW.saturating_sub(elo)) * NOISE_PER_ELO
}

/// The engine's move in `game` at strength `elo`: searched within its nodes (and whatever else
/// `params` limits), then, where there is noise, chosen among the best few at random. The draw
/// is seeded by the position, so that a game replays as it was played.
pub(super) fn play(
    game: &Chess,
    params: &EngineParams,
    budget: &Budget,
    elo: u32,
    kept: &mut KeptTable,
) -> SearchResult<ChessMove> {
    let nodes = nodes_for(elo);
    let params = EngineParams {
        nodes: Some(params.nodes.map_or(nodes, |given| given.min(nodes))),
        elo: None,
        ..*params
    };
    let noise = noise_for(elo);
    if noise <= 0.0 {
        return search_keeping(game, &params, budget, kept);
    }
    let analysis = super::analyze(
        game,
        &EngineParams {
            multipv: Some(CANDIDATES),
            ..params
        },
        budget,
    );
    let Some(best) = analysis.moves.first() else {
        // Not even the first iteration within the nodes: that one iteration, whatever it costs.
        let params = EngineParams {
            nodes: None,
            depth: Some(1),
            ..params
        };
        return search_keeping(game, &params, budget, kept);
    };
    let mut rng = SearchRng::seed_from_u64(seed::derive(game.key, u64::from(elo)));
    let centipawns = |line: &crate::search::MoveAnalysis<ChessMove>| {
        crate::game::in_pawns::<Chess>(line.score, line.exact, line.plies_to_end)
            .0
            .map_or(f64::from(line.score.signum() as i32) * 100_000.0, f64::from)
    };
    let chosen = analysis
        .moves
        .iter()
        .map(|line| (centipawns(line) + rng.random::<f64>() * noise, line))
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map_or(best, |(_, line)| line);
    SearchResult {
        best_move: chosen.mv,
        score: chosen.score,
        exact: chosen.exact,
        plies_to_end: chosen.plies_to_end,
        nodes: analysis.nodes,
        pv: chosen.pv.clone(),
        depth: chosen.depth,
        seldepth: None,
        margin: None,
        elapsed: analysis.elapsed,
        stopped_by: analysis.stopped_by,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{MAX_ELO, MIN_ELO};

    #[test]
    fn weaker_is_fewer_nodes_and_more_noise() {
        let strengths: Vec<u32> = (MIN_ELO..=MAX_ELO).step_by(100).collect();
        for pair in strengths.windows(2) {
            assert!(nodes_for(pair[0]) <= nodes_for(pair[1]), "{pair:?}");
            assert!(noise_for(pair[0]) >= noise_for(pair[1]), "{pair:?}");
        }
        assert_eq!(nodes_for(ANCHOR_ELO as u32), ANCHOR_NODES as u64);
        assert!(nodes_for(MIN_ELO) >= MIN_NODES);
        assert!(noise_for(MIN_ELO) > 0.0);
        assert_eq!(noise_for(MAX_ELO), 0.0);
    }
}
