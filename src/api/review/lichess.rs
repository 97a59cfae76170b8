//! What a move was and what the game came to, by lichess's published formulas (lila's
//! `Advice.scala` and `AccuracyPercent.scala`): the classes by the drop in winning probability,
//! a move's accuracy, each side's game accuracy weighted by the game's volatility, and the
//! plies where the game turned.

use serde::Serialize;

use super::{ReviewedPly, SideSummary};
use crate::game::{Game, Player};

/// The drops in the mover's winning probability (0 to 1) at which a move is an inaccuracy, a
/// mistake and a blunder: lichess's 0.1, 0.2 and 0.3 on its winning chances, which run from -1
/// to 1 (lila's `Advice.scala`), halved onto a probability.
pub const THRESHOLDS: [f64; 3] = [0.05, 0.10, 0.15];

/// What a move was, by what it cost.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Class {
    /// The engine's best move.
    Best,
    /// Not the engine's, within [`THRESHOLDS`]' first of it.
    Good,
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Class {
    pub const ALL: [Class; 5] = [
        Class::Best,
        Class::Good,
        Class::Inaccuracy,
        Class::Mistake,
        Class::Blunder,
    ];

    /// The class of a move that is not the best and lost `loss` of the mover's winning
    /// probability.
    pub fn of_loss(loss: f64) -> Class {
        match THRESHOLDS
            .iter()
            .filter(|&&threshold| loss >= threshold)
            .count()
        {
            0 => Class::Good,
            1 => Class::Inaccuracy,
            2 => Class::Mistake,
            _ => Class::Blunder,
        }
    }

    /// How chess annotates it (`?!`, `?`, `??`); none for a move that needs none.
    pub fn mark(self) -> Option<&'static str> {
        match self {
            Class::Best | Class::Good => None,
            Class::Inaccuracy => Some("?!"),
            Class::Mistake => Some("?"),
            Class::Blunder => Some("??"),
        }
    }
}

/// The most a move's loss counts in centipawns in an average, as lichess caps evaluations.
pub const LOSS_CAP_CP: f64 = 1_000.0;

/// Lichess's accuracy of a move, from the mover's winning percentage before and after it
/// (lila's `AccuracyPercent.fromWinPercents`: an exponential fitted to its players' games, one
/// point added for the analysis's own imprecision, within 0 to 100).
pub fn move_accuracy(win_before: f64, win_after: f64) -> f64 {
    if win_after >= win_before {
        return 100.0;
    }
    let drop = 100.0 * (win_before - win_after);
    (103.166_810_071_164_9 * (-0.043_544_153_867_539_51 * drop).exp() - 3.166_924_740_191_411 + 1.0)
        .clamp(0.0, 100.0)
}

/// One side's summary, lichess's game accuracy among it (lila's `AccuracyPercent.gameAccuracy`):
/// each move's accuracy weighted by the standard deviation of the first player's winning
/// percentage over a window around it (the game's volatility there, within 0.5 and 12), the
/// weighted mean and the harmonic mean averaged.
pub(super) fn summary<G: Game>(
    side: Player,
    plies: &[ReviewedPly],
    graph: &[f64],
    units: Option<&'static str>,
) -> SideSummary {
    let weights = volatility_weights(graph);
    let own: Vec<&ReviewedPly> = plies.iter().filter(|ply| ply.side == side).collect();
    let count = |class: Class| own.iter().filter(|ply| ply.class == class).count();
    let accuracy = (!own.is_empty()).then(|| {
        let weighted: (f64, f64) = own.iter().fold((0.0, 0.0), |(sum, total), ply| {
            let weight = weights.get(ply.ply - 1).copied().unwrap_or(0.5);
            (sum + ply.accuracy * weight, total + weight)
        });
        // A move of accuracy 0 would make the harmonic mean 0: it counts as 1 (of 100).
        let harmonic = own.len() as f64
            / own
                .iter()
                .map(|ply| 1.0 / ply.accuracy.max(1.0))
                .sum::<f64>();
        (weighted.0 / weighted.1 + harmonic) / 2.0
    });
    let losses: Vec<f64> = own.iter().filter_map(|ply| ply.loss_units).collect();
    SideSummary {
        side,
        name: crate::api::side_name::<G>(side),
        moves: own.len(),
        accuracy,
        average_loss: (units.is_some() && !losses.is_empty())
            .then(|| losses.iter().sum::<f64>() / losses.len() as f64),
        best: count(Class::Best),
        only_moves: own.iter().filter(|ply| ply.only_move).count(),
        good: count(Class::Good),
        inaccuracies: count(Class::Inaccuracy),
        mistakes: count(Class::Mistake),
        blunders: count(Class::Blunder),
    }
}

/// The weight of each move (the `i`th, between positions `i` and `i + 1` of `graph`): the
/// standard deviation of the winning percentage over a window of `graph` (a tenth of the game,
/// 2 to 8 positions), the first windows repeated at the start, as lichess weighs them.
fn volatility_weights(graph: &[f64]) -> Vec<f64> {
    let percents: Vec<f64> = graph.iter().map(|p| 100.0 * p).collect();
    if percents.len() < 2 {
        return Vec::new();
    }
    let size = ((percents.len() - 1) / 10).clamp(2, 8).min(percents.len());
    let mut windows: Vec<&[f64]> = vec![&percents[..size]; size - 2];
    windows.extend(percents.windows(size));
    windows
        .iter()
        .map(|window| {
            let mean = window.iter().sum::<f64>() / window.len() as f64;
            let variance =
                window.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / window.len() as f64;
            variance.sqrt().clamp(0.5, 12.0)
        })
        .collect()
}

/// The plies after which the side ahead (its winning probability past 0.52, so that an even
/// game's noise is no turn) was the other one than the last side ahead.
pub(super) fn turning_points(graph: &[f64]) -> Vec<usize> {
    let mut ahead: Option<bool> = None;
    let mut turns = Vec::new();
    for (index, &p) in graph.iter().enumerate() {
        let now = if p > 0.52 {
            Some(true)
        } else if p < 0.48 {
            Some(false)
        } else {
            None
        };
        if let Some(now) = now {
            if ahead.is_some_and(|before| before != now) {
                turns.push(index);
            }
            ahead = Some(now);
        }
    }
    turns
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_follow_lichess_thresholds_on_winning_chances() {
        assert_eq!(Class::of_loss(0.0), Class::Good);
        assert_eq!(Class::of_loss(0.049), Class::Good);
        assert_eq!(Class::of_loss(0.05), Class::Inaccuracy);
        assert_eq!(Class::of_loss(0.1), Class::Mistake);
        assert_eq!(Class::of_loss(0.15), Class::Blunder);
        assert_eq!(Class::of_loss(1.0), Class::Blunder);
        assert_eq!(Class::Blunder.mark(), Some("??"));
    }

    /// Lichess's accuracy: 100 where nothing was lost, 51.5
    /// for a drop of 15 percentage points, 0 for a drop from a win to a loss.
    #[test]
    fn a_moves_accuracy_falls_with_the_winning_percentage_it_lost() {
        assert_eq!(move_accuracy(0.6, 0.6), 100.0);
        assert_eq!(move_accuracy(0.6, 0.7), 100.0);
        let fifteen = move_accuracy(0.65, 0.50);
        assert!((fifteen - 51.5).abs() < 0.5, "{fifteen}");
        assert_eq!(move_accuracy(1.0, 0.0), 0.0);
    }

    #[test]
    fn the_game_turns_where_the_side_ahead_changes() {
        assert_eq!(turning_points(&[0.5, 0.6, 0.5, 0.4, 0.49, 0.7]), vec![3, 5]);
        assert!(turning_points(&[0.5, 0.51, 0.49, 0.9, 0.99]).is_empty());
    }

    #[test]
    fn volatility_weights_one_a_move() {
        let graph: Vec<f64> = (0..41).map(|i| 0.5 + 0.01 * f64::from(i % 7)).collect();
        assert_eq!(volatility_weights(&graph).len(), 40);
        assert_eq!(volatility_weights(&[0.5, 0.5, 0.5]).len(), 2);
        assert!(volatility_weights(&[0.5, 0.5]).iter().all(|&w| w == 0.5));
        // A review cut short before any position was searched has no graph.
        assert!(volatility_weights(&[]).is_empty());
        assert!(volatility_weights(&[0.5]).is_empty());
    }
}
