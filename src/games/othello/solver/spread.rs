//! How far an evaluation is from the exact value: the statistics Multi-ProbCut cuts by (Buro,
//! "Experiments with Multi-ProbCut and a new high-quality evaluation function for Othello",
//! 1997; Edax's `eval_sigma`).
//!
//! A shallow search of `d` plies predicts the exact value of a position of `e` empties: the
//! exact value is about the shallow one, give or take a normal error of standard deviation
//! `sigma(e)`. Where the shallow value is `t` standard deviations above beta, ProbCut cuts the
//! node as if it had failed high, and an exact solver reaches the exact value through passes
//! of rising `t`, each ordering the next. That pays only while `sigma` is small beside the
//! windows: [`fit`] measures it on Sente's own endgames, for the `mobility` evaluation, the
//! shallow searches of [`depth`] with it, and the learnt patterns (docs/othello.md has the
//! figures and why the solver does not cut by them).

use super::Solver;
use super::estimate::{DISC, MOST, estimate, evaluate};

/// The shallow search's depth measured for a position of `empties` empty squares: a ply for
/// every two empties past eight, at most eight.
pub fn depth(empties: u32) -> u32 {
    (empties.saturating_sub(8) / 2).clamp(1, 8)
}

/// What [`fit`] measured at one number of empties: the standard deviations, in discs, of the
/// exact value about the evaluation's, about the shallow search's, and about the learnt
/// patterns' evaluation, over `positions` endgames.
#[derive(Copy, Clone, Debug)]
pub struct Spread {
    pub empties: u32,
    pub positions: usize,
    pub evaluation: f64,
    pub deep: f64,
    pub patterns: f64,
}

/// Fits the cuts' statistics on Sente's own positions: `count` endgames ([`super::samples`],
/// seed `seed`) of each number of `empties`, each solved exactly and searched by the
/// patterns at depth 0 and at [`depth`]; then the lines `a + b * empties` through the standard
/// deviations by least squares, `(a, b)` for the evaluation and for the shallow search.
/// `report` is told each row as it is measured.
pub fn fit(
    empties: &[u32],
    count: usize,
    seed: u64,
    mut report: impl FnMut(&Spread),
) -> (Vec<Spread>, (f64, f64), (f64, f64)) {
    let mut spreads = Vec::new();
    for &empties in empties {
        let positions = super::samples::endgames(seed + u64::from(empties), empties, count);
        let mut errors = [Vec::new(), Vec::new(), Vec::new()];
        for position in &positions {
            let (mover, other) = position.sides();
            let mut solver = Solver::new(&crate::search::Budget::unlimited(), None);
            let exact = f64::from(solver.solve(position).margin);
            let discs = |value: i32| f64::from(value) / f64::from(DISC);
            let evaluation = discs(evaluate(mover, other));
            let deep = discs(estimate(
                &mut 0,
                mover,
                other,
                -MOST - 1,
                MOST + 1,
                depth(empties),
            ));
            let patterns = discs(super::super::patterns::shipped().evaluate(mover, other));
            errors[0].push(exact - evaluation);
            errors[1].push(exact - deep);
            errors[2].push(exact - patterns);
        }
        let deviation = |errors: &[f64]| {
            let n = errors.len() as f64;
            let mean = errors.iter().sum::<f64>() / n;
            (errors.iter().map(|e| (e - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt()
        };
        let spread = Spread {
            empties,
            positions: positions.len(),
            evaluation: deviation(&errors[0]),
            deep: deviation(&errors[1]),
            patterns: deviation(&errors[2]),
        };
        report(&spread);
        spreads.push(spread);
    }
    let line = |value: fn(&Spread) -> f64| {
        let n = spreads.len() as f64;
        let (mean_x, mean_y) = (
            spreads.iter().map(|s| f64::from(s.empties)).sum::<f64>() / n,
            spreads.iter().map(value).sum::<f64>() / n,
        );
        let covariance: f64 = spreads
            .iter()
            .map(|s| (f64::from(s.empties) - mean_x) * (value(s) - mean_y))
            .sum();
        let variance: f64 = spreads
            .iter()
            .map(|s| (f64::from(s.empties) - mean_x).powi(2))
            .sum();
        let b = if variance > 0.0 {
            covariance / variance
        } else {
            0.0
        };
        (mean_y - b * mean_x, b)
    };
    let evaluation = line(|s| s.evaluation);
    let deep = line(|s| s.deep);
    (spreads, evaluation, deep)
}
