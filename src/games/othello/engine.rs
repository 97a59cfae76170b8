//! Othello's engine and solver: the exact endgame solver where it can finish within the time
//! (or the nodes), the engine kit's midgame search before that, and how the two share a move's
//! time and a clock.

use std::time::{Duration, Instant};

use super::*;
use crate::learn::weights::NamedWeights;
use crate::search::engine::{self as kit, GameBoard, ThroughGame};
use crate::search::{
    Analysis, Budget, Clock, Cutoff, EngineOptions, EngineParams, MoveAnalysis, Score,
    SearchResult, Solve, Value,
};

/// The exact endgame solver where it can finish within the time limit ([`solved_empties`]), or
/// without one; before that, the engine kit's search over the mobility evaluation
/// ([`ThroughGame`]), deepening within the time limit. `solver` and `engine` play the same;
/// `engine` also takes a depth (the midgame search that deep), a node limit, a clock and the
/// kit's knobs.
impl Solve for Othello {
    type Memory = ();

    fn solve(&self, time_limit: Option<Duration>, budget: &Budget) -> SearchResult<u8> {
        self.solve_or_search(
            &EngineParams::new(time_limit, None, EngineOptions::DEFAULT),
            budget,
        )
    }

    fn solver_analysis(&self, time_limit: Option<Duration>, budget: &Budget) -> Analysis<u8> {
        self.analyze_or_search(
            &EngineParams::new(time_limit, None, EngineOptions::DEFAULT),
            budget,
        )
    }

    fn engine(&self, params: &EngineParams, budget: &Budget) -> SearchResult<u8> {
        let params = EngineParams {
            time_limit: self.engine_time(params),
            ..params.clone()
        };
        let mut result = self.solve_or_search(&params, &budget.with_max_nodes(params.nodes));
        result.stopped_by = Cutoff::reported(result.stopped_by, params.nodes, budget);
        result
    }

    fn engine_analysis(&self, params: &EngineParams, budget: &Budget) -> Analysis<u8> {
        let params = EngineParams {
            time_limit: self.engine_time(params),
            ..params.clone()
        };
        let mut analysis = self.analyze_or_search(&params, &budget.with_max_nodes(params.nodes));
        analysis.stopped_by = Cutoff::reported(analysis.stopped_by, params.nodes, budget);
        analysis
    }
}

impl ThroughGame for Othello {
    /// About a disc of expected margin near an even position.
    const PAWN: Value = 500;
    const ENGINE_EVALUATION: u8 = evaluation::PATTERNS;
    const LEARNT_EVALUATION: Option<u8> = Some(evaluation::PATTERNS);

    fn evaluate_learnt(&self, weights: &NamedWeights) -> f64 {
        let (mover, other) = self.sides();
        let margin = patterns::playing(Some(weights)).expected_margin(mover, other);
        evaluation::score_of_discs(f64::from(margin))
    }
}

/// The most empty squares the solver is asked to solve within `time_limit`: 18 in a second,
/// one more each time the time doubles. Each more empty square about doubles the solver's
/// work, and past this the time is rarely enough (docs/othello.md has the figures).
pub fn solved_empties(time_limit: Duration) -> u32 {
    let doublings = (time_limit.as_secs_f64().max(1e-3)).log2().floor() as i32;
    (18 + doublings).clamp(8, 40) as u32
}

/// The most empty squares the solver is asked to solve within `nodes` nodes: 8 within
/// 2,000, one more each time the nodes double (each more empty square a little more than
/// doubles the solver's work; docs/othello.md has the figures).
pub fn solved_empties_within_nodes(nodes: u64) -> u32 {
    let doublings = ((nodes.max(1) as f64) / 2_000.0).log2().floor() as i32;
    (8 + doublings).clamp(4, 40) as u32
}

/// The share of the time limit (and of a node limit) the solver may take before the midgame search takes over
/// with the rest.
const SOLVER_SHARE: f64 = 0.75;

impl Othello {
    /// The engine's time for this move: its time limit, or its share of the mover's clock
    /// (White's is O's) over the mover's moves left, about half the empty squares, if that is
    /// shorter.
    pub(super) fn engine_time(&self, params: &EngineParams) -> Option<Duration> {
        let white = self.side == Player::O;
        let moves = (self.empties().count_ones() / 2).max(1);
        crate::search::tighter(params.clock.share(white, moves), params.time_limit)
    }

    /// Whether the solver is to solve this position within `params`' time limit and node
    /// limit.
    fn solvable(&self, params: &EngineParams) -> bool {
        let empties = self.empties().count_ones();
        params
            .time_limit
            .is_none_or(|limit| empties <= solved_empties(limit))
            && params
                .nodes
                .is_none_or(|nodes| empties <= solved_empties_within_nodes(nodes))
    }

    /// Whether `params` ask for a search at least as deep as the empty squares: the exact
    /// value, which the solver finds, not the midgame search to that depth (NBoard's `set
    /// depth 60`, the `depth` knob).
    fn searched_to_the_end(&self, params: &EngineParams) -> bool {
        params
            .depth
            .is_some_and(|depth| depth >= self.empties().count_ones())
    }

    /// The midgame search within `params`, its time limit `time_limit` (the clock shared out
    /// already).
    fn midgame(&self, params: &EngineParams, time_limit: Option<Duration>) -> EngineParams {
        EngineParams {
            time_limit,
            clock: Clock::NONE,
            ..params.clone()
        }
    }

    /// The solver's answer where it can finish (with most of the time limit and of the node
    /// limit); else, or if it does not finish within its share, the midgame search's with the
    /// rest.
    fn solve_or_search(&self, params: &EngineParams, budget: &Budget) -> SearchResult<u8> {
        let started = Instant::now();
        let time_limit = params.time_limit;
        let search = |time_limit, budget: &Budget| {
            kit::search::<GameBoard<Othello>>(self, &self.midgame(params, time_limit), budget)
        };
        let to_the_end = self.searched_to_the_end(params);
        if !to_the_end && (params.depth.is_some() || !self.solvable(params)) {
            return search(time_limit, budget);
        }
        // Asked for the end, the solver has all the limits; else most, the midgame search
        // the rest if it does not finish.
        let share_of = if to_the_end { 1.0 } else { SOLVER_SHARE };
        let share = time_limit.map(|limit| limit.mul_f64(share_of));
        let node_share = params.nodes.map(|nodes| (nodes as f64 * share_of) as u64);
        let solver_budget = budget.with_max_nodes(node_share);
        let mut solver = solver::Solver::new(&solver_budget, share.map(|share| started + share))
            .with_threads(params.threads as usize);
        let solved = solver.solve(self);
        let own_nodes_spent =
            solver.stopped_by == Some(Cutoff::NodeLimit) && params.nodes.is_some();
        match solver.stopped_by {
            Some(Cutoff::TimeLimit) => {}
            _ if own_nodes_spent => {}
            stopped_by => {
                return SearchResult {
                    best_move: solved.best,
                    score: if stopped_by.is_none() {
                        f64::from(solved.margin.signum())
                    } else {
                        0.0
                    },
                    exact: stopped_by.is_none(),
                    plies_to_end: None,
                    nodes: solved.nodes,
                    pv: solver.line(self, solved.best),
                    // Searched to the end: as deep as the empty squares.
                    depth: stopped_by.is_none().then(|| self.empties().count_ones()),
                    seldepth: None,
                    margin: stopped_by.is_none().then_some(solved.margin),
                    elapsed: started.elapsed(),
                    stopped_by,
                };
            }
        }
        let left = time_limit.map(|limit| limit.saturating_sub(started.elapsed()));
        let rest = Budget {
            max_nodes: budget
                .max_nodes
                .map(|max| max.saturating_sub(solved.nodes).max(1)),
            ..budget.clone()
        };
        let mut result = search(left, &rest);
        result.nodes += solved.nodes;
        result.elapsed = started.elapsed();
        result
    }

    /// Every move solved, with its margin, best first, one table shared by the moves, where
    /// the solver can finish; else every move valued by the midgame search.
    fn analyze_or_search(&self, params: &EngineParams, budget: &Budget) -> Analysis<u8> {
        let time_limit = params.time_limit;
        if !self.searched_to_the_end(params) && (params.depth.is_some() || !self.solvable(params)) {
            let midgame = self.midgame(params, time_limit);
            return kit::analyze::<GameBoard<Othello>>(self, &midgame, budget);
        }
        let started = Instant::now();
        let mut solver = solver::Solver::new(budget, time_limit.map(|limit| started + limit))
            .with_threads(params.threads as usize);
        let mut moves = Vec::new();
        for mv in self.legal_moves() {
            let child = self.play(mv);
            let solved = solver.solve(&child);
            if solver.stopped_by.is_some() {
                break;
            }
            let margin = -solved.margin;
            let mut line = vec![mv];
            if !child.outcome().is_over() {
                line.extend(solver.line(&child, solved.best));
            }
            let mut analysis =
                MoveAnalysis::new(mv, Score::proven(f64::from(margin.signum()), None), None);
            analysis.pv = line;
            analysis.margin = Some(margin);
            analysis.depth = Some(self.empties().count_ones());
            moves.push(analysis);
        }
        // Best first; equal margins keep the moves' order.
        moves.sort_by_key(|analysis| std::cmp::Reverse(analysis.margin));
        Analysis {
            moves,
            nodes: solver.nodes() + 1,
            elapsed: started.elapsed(),
            stopped_by: solver.stopped_by,
        }
    }
}
