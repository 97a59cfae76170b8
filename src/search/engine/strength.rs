//! Playing at a requested strength (UCI's `UCI_LimitStrength` and `UCI_Elo`, the `elo` knob).
//!
//! Two handicaps, as engines that limit their strength use them. The first is fewer nodes: an
//! engine's strength falls by a roughly constant step for each halving of its search, so the
//! node limit halves for each [`Calibration::elo_per_doubling`] below the anchor of its game's
//! scale. That runs out
//! where a search of a few dozen nodes still sees every one-move threat, so below
//! [`NOISE_BELOW`] the engine also chooses among its best few moves at random, each scored
//! with a random bonus of up to [`NOISE_PER_ELO`] centipawns for each Elo below it: a move
//! worse than the best by less than the bonus may be played, which is how a weaker player
//! loses, a little at a time and now and then at once.
//!
//! Chess's calibration is fitted to its ladder (docs/chess.md#playing-at-a-strength): the Elo
//! asked for is on the CCRL 40/15 scale the ladder's opponents are rated on, through two
//! points, the full engine at 100 ms a move and the engine at a tenth of its nodes; below the
//! second the line is extrapolated. The other games take chess's until they have a ladder of
//! their own.

use rand::{RngExt, SeedableRng};

use super::{Board, Kept, analyze, search_keeping};
use crate::game::{Game, in_pawns};
use crate::search::{Budget, EngineParams, MoveAnalysis, SearchResult, SearchRng, seed};

/// How a game's engine maps the Elo asked for onto its handicaps: the anchor of its scale and
/// the Elo a doubling of its nodes is worth.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Calibration {
    /// Nodes a move of the full engine at 100 ms a move on the ladder's machine, and the
    /// rating it measured there: the anchor of the scale.
    pub anchor_nodes: f64,
    pub anchor_elo: f64,
    /// The Elo a doubling of the nodes is worth.
    pub elo_per_doubling: f64,
}

impl Calibration {
    /// Chess's, fitted to its ladder: the engine at 100 ms a move, and at a tenth of its nodes.
    pub const CHESS: Calibration = Calibration {
        anchor_nodes: 90_000.0,
        anchor_elo: 2600.0,
        elo_per_doubling: 246.0,
    };
}

/// The fewest nodes a move: about what one iteration of the best few moves takes.
const MIN_NODES: u64 = 400;
/// Below this, the engine also chooses among its best moves at random.
const NOISE_BELOW: u32 = 1500;
/// The most hundredths of a pawn added to a move's value, for each Elo below [`NOISE_BELOW`].
const NOISE_PER_ELO: f64 = 0.5;
/// The moves chosen among.
const CANDIDATES: u32 = 4;

/// The nodes a move at strength `elo`.
pub(super) fn nodes_for(calibration: &Calibration, elo: u32) -> u64 {
    let doublings = (f64::from(elo) - calibration.anchor_elo) / calibration.elo_per_doubling;
    ((calibration.anchor_nodes * doublings.exp2()) as u64).max(MIN_NODES)
}

/// The most centipawns of random bonus a move may get at strength `elo`.
pub(super) fn noise_for(elo: u32) -> f64 {
    f64::from(NOISE_BELOW.saturating_sub(elo)) * NOISE_PER_ELO
}

/// The engine's move in `game` at strength `elo`: searched within its nodes (and whatever else
/// `params` limits), then, where there is noise, chosen among the best few at random. The draw
/// is seeded by the position, so that a game replays as it was played.
pub(super) fn play<B: Board>(
    game: &B::Game,
    params: &EngineParams,
    budget: &Budget,
    elo: u32,
    kept: &mut Kept<B>,
) -> SearchResult<<B::Game as Game>::Move> {
    let nodes = nodes_for(&B::CALIBRATION, elo);
    let params = EngineParams {
        nodes: Some(params.nodes.map_or(nodes, |given| given.min(nodes))),
        elo: None,
        ..*params
    };
    let noise = noise_for(elo);
    if noise <= 0.0 {
        return search_keeping(game, &params, budget, kept);
    }
    let analysis = analyze::<B>(
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
    let mut rng = SearchRng::seed_from_u64(seed::derive(game.key(), u64::from(elo)));
    // A line's value in centipawns, where the noise is counted (a thousandth of the score
    // where the game has no pawns).
    let centipawns = |line: &MoveAnalysis<<B::Game as Game>::Move>| {
        in_pawns::<B::Game>(line.score, line.exact, line.plies_to_end)
            .0
            .map_or_else(
                || match line.exact {
                    true => f64::from(line.score.signum() as i32) * 100_000.0,
                    false => line.score * 1_000.0,
                },
                f64::from,
            )
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
        let chess = Calibration::CHESS;
        let strengths: Vec<u32> = (MIN_ELO..=MAX_ELO).step_by(100).collect();
        for pair in strengths.windows(2) {
            assert!(
                nodes_for(&chess, pair[0]) <= nodes_for(&chess, pair[1]),
                "{pair:?}"
            );
            assert!(noise_for(pair[0]) >= noise_for(pair[1]), "{pair:?}");
        }
        assert_eq!(
            nodes_for(&chess, chess.anchor_elo as u32),
            chess.anchor_nodes as u64
        );
        assert!(nodes_for(&chess, MIN_ELO) >= MIN_NODES);
        assert!(noise_for(MIN_ELO) > 0.0);
        assert_eq!(noise_for(MAX_ELO), 0.0);
    }
}
