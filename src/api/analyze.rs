//! `POST /analyze`: every legal move with its score, best first.

use serde::Serialize;

use super::Problem;
use super::describe::PositionView;
use super::request::{Checked, MoveRequest, Run, Search};
use super::scored_move::ScoredMove;
use crate::game::Player;
use crate::search::{self, Algorithm, Budget, Solve};

/// The answer to an analysis request.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AnalyzeResponse {
    pub game: &'static str,
    pub algorithm: Algorithm,
    /// The seed used, for randomised algorithms.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    pub nodes: u64,
    /// Nodes a second.
    pub nps: u64,
    pub elapsed_us: u64,
    /// Why the analysis stopped early, if it did (as in the answer to `/move`); an exact
    /// algorithm stopped before valuing every move lists only those it valued.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped_by: Option<&'static str>,
    /// The rule under which the side to move may claim a draw instead of moving (chess:
    /// `fifty_move_rule`, `threefold_repetition`): the position is analysed all the same.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub claimable_draw: Option<&'static str>,
    /// Whose view the scores take: the side to move in the position analysed, as UCI engines
    /// score.
    pub score_for: Player,
    /// The same side as the game calls it (`White`, `Sente`).
    pub score_for_name: &'static str,
    /// Every legal move, best first (most visited first for mcts); the best `multipv` where
    /// the engine is asked for so many.
    pub moves: Vec<ScoredMove>,
    /// The position analysed, as `/position` answers it: what a front end draws beside the
    /// moves' values. Left out where the request says `"position": false`.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub position: Option<PositionView>,
}

/// An analysis request, checked: ready to search. Analysis searches every move on its own:
/// always heavy work.
pub struct AnalyzeJob {
    algorithm: Algorithm,
    threads: u32,
    analyze: Run<AnalyzeResponse>,
}

impl std::fmt::Debug for AnalyzeJob {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AnalyzeJob")
            .field("algorithm", &self.algorithm)
            .finish_non_exhaustive()
    }
}

impl AnalyzeJob {
    /// Checks everything that can be checked before searching.
    pub fn new(request: MoveRequest) -> Result<AnalyzeJob, Problem> {
        request.prepare()
    }

    /// The algorithm that analyses.
    pub fn algorithm(&self) -> Algorithm {
        self.algorithm
    }

    /// The threads its search runs on: the slots it holds on the service.
    pub fn threads(&self) -> u32 {
        self.threads
    }

    /// Values every legal move within `budget`. CPU-bound: call it where blocking is allowed.
    pub fn run(&self, budget: &Budget) -> Result<AnalyzeResponse, Problem> {
        (self.analyze)(budget)
    }
}

impl Search for AnalyzeJob {
    fn prepare<G: Solve>(checked: Checked<G>) -> AnalyzeJob {
        AnalyzeJob {
            algorithm: checked.strategy.algorithm,
            threads: checked.strategy.threads(),
            analyze: Box::new(move |budget| analyze(&checked, budget)),
        }
    }
}

/// Values every legal move, and shapes the answer.
fn analyze<G: Solve>(checked: &Checked<G>, budget: &Budget) -> Result<AnalyzeResponse, Problem> {
    let Checked {
        position,
        strategy,
        seed,
        ..
    } = checked;
    let analysis =
        search::analyze_within(position, strategy, *seed, budget).map_err(super::search_problem)?;
    Ok(AnalyzeResponse {
        game: G::NAME,
        algorithm: strategy.algorithm,
        seed: strategy.is_randomized().then_some(*seed),
        nodes: analysis.nodes,
        nps: crate::search::Iteration::nps(analysis.nodes, analysis.elapsed),
        elapsed_us: analysis.elapsed.as_micros() as u64,
        stopped_by: analysis.stopped_by.map(|cutoff| cutoff.name()),
        claimable_draw: position.claimable_draw(),
        score_for: position.side_to_move(),
        score_for_name: super::side_name::<G>(position.side_to_move()),
        moves: ScoredMove::of_analysis(position, &analysis),
        position: checked.draws_position.then(|| PositionView::of(position)),
    })
}
