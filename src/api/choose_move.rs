//! `POST /move`: one search from one position, and the move it chooses.

use serde::Serialize;

use super::Problem;
use super::describe::PositionView;
use super::request::{Checked, MoveRequest, Run, Search};
use super::scored_move::{Judgement, ScoredMove};
use crate::game::Player;
use crate::search::{self, Algorithm, Budget, Iteration, Solve};

/// The answer to a move request.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MoveResponse {
    /// The chosen move, its score and its line.
    #[serde(flatten)]
    pub chosen: ScoredMove,
    /// The rule under which the side to move could have claimed a draw instead of moving
    /// (chess: `fifty_move_rule`, `threefold_repetition`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub claimable_draw: Option<&'static str>,
    /// Whose view the score takes (`score`, `cp`, `mate`, `margin`): the side to move in the
    /// position searched, which made the move, as UCI engines score.
    pub score_for: Player,
    /// The same side as the game calls it (`White`, `Sente`).
    pub score_for_name: &'static str,
    /// The depth of the last completed iteration, for the deepening searches.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    /// The deepest ply reached, quiescence and extensions included (the chess engine's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seldepth: Option<u32>,
    pub nodes: u64,
    /// Nodes a second.
    pub nps: u64,
    pub algorithm: Algorithm,
    pub game: &'static str,
    /// The seed used, for randomised algorithms.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    pub elapsed_us: u64,
    /// Why the search stopped before finishing what it was asked, if it did: `time_limit` (its
    /// own), `deadline` or `node_limit` (the service's), `cancelled`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped_by: Option<&'static str>,
    /// The position after the move, as `/position` answers it (`board`, `cells`, `status`,
    /// `winner`, `ending`, `side_to_move`, `ply`, `legal_moves` with their squares,
    /// `winning_line`, `hands`): what a front end draws and offers its player next, from this
    /// one answer. Left out where the request says `"position": false`.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub after: Option<PositionView>,
    /// With `multipv` above 1 (the engine's): the best that many moves, best first, as
    /// `/analyze` answers them; the move chosen is the first's, as a UCI or USI engine plays
    /// its first line under MultiPV.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lines: Option<Vec<ScoredMove>>,
}

/// A move request, checked: ready to search.
pub struct MoveJob {
    algorithm: Algorithm,
    threads: u32,
    light: bool,
    search: Run<MoveResponse>,
}

impl std::fmt::Debug for MoveJob {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MoveJob")
            .field("algorithm", &self.algorithm)
            .field("light", &self.light)
            .finish_non_exhaustive()
    }
}

impl Search for MoveJob {
    fn prepare<G: Solve>(checked: Checked<G>) -> MoveJob {
        MoveJob {
            algorithm: checked.strategy.algorithm,
            threads: checked.strategy.threads(),
            light: checked.strategy.is_light::<G>(),
            search: Box::new(move |budget| choose(&checked, budget)),
        }
    }
}

impl MoveJob {
    /// Checks everything that can be checked before searching.
    pub fn new(request: MoveRequest) -> Result<MoveJob, Problem> {
        request.prepare()
    }

    /// The algorithm that searches.
    pub fn algorithm(&self) -> Algorithm {
        self.algorithm
    }

    /// The threads its search runs on: the slots it holds on the service.
    pub fn threads(&self) -> u32 {
        self.threads
    }

    /// Whether the search is certain to take well under a millisecond, so that it may run
    /// where it was received instead of on a thread made for blocking work.
    pub fn is_light(&self) -> bool {
        self.light
    }

    /// Runs the search within `budget`. CPU-bound: call it where blocking is allowed.
    pub fn run(&self, budget: &Budget) -> Result<MoveResponse, Problem> {
        (self.search)(budget)
    }
}

/// Searches for a move, and shapes the answer.
fn choose<G: Solve>(checked: &Checked<G>, budget: &Budget) -> Result<MoveResponse, Problem> {
    let Checked {
        position,
        strategy,
        seed,
        ..
    } = checked;
    if strategy.algorithm == Algorithm::Engine
        && strategy.engine.multipv.is_some_and(|lines| lines > 1)
        // At a level the level draws its move among the lines (below).
        && strategy.engine.level.is_none()
        && strategy.engine.elo.is_none()
        && let Some((mv, searched, lines)) = choose_of_lines(checked, budget)?
    {
        return Ok(answer(checked, mv, lines[0].clone(), searched, Some(lines)));
    }
    let chosen =
        search::choose_within(position, strategy, *seed, budget).map_err(super::search_problem)?;
    let result = chosen.result;
    let lines = chosen
        .lines
        .map(|analysis| ScoredMove::of_analysis(position, &analysis));
    let judgement = Judgement {
        score: result.score,
        exact: result.exact,
        plies_to_end: result.plies_to_end,
        margin: result.margin,
        depth: None,
    };
    let chosen = ScoredMove::new(position, result.best_move, judgement, &result.pv, None);
    let searched = Searched {
        depth: result.depth,
        seldepth: result.seldepth,
        nodes: result.nodes,
        elapsed: result.elapsed,
        stopped_by: result.stopped_by.map(|cutoff| cutoff.name()),
    };
    Ok(answer(checked, result.best_move, chosen, searched, lines))
}

/// What a search did, as the answer says it.
struct Searched {
    depth: Option<u32>,
    seldepth: Option<u32>,
    nodes: u64,
    elapsed: std::time::Duration,
    stopped_by: Option<&'static str>,
}

/// The answer for `mv`, chosen so, after a search that did `searched`.
fn answer<G: Solve>(
    checked: &Checked<G>,
    mv: G::Move,
    chosen: ScoredMove,
    searched: Searched,
    lines: Option<Vec<ScoredMove>>,
) -> MoveResponse {
    let Checked {
        position,
        strategy,
        seed,
        ..
    } = checked;
    MoveResponse {
        chosen,
        claimable_draw: position.claimable_draw(),
        score_for: position.side_to_move(),
        score_for_name: super::side_name::<G>(position.side_to_move()),
        depth: searched.depth,
        seldepth: searched.seldepth,
        nodes: searched.nodes,
        nps: Iteration::nps(searched.nodes, searched.elapsed),
        algorithm: strategy.algorithm,
        game: G::NAME,
        seed: strategy.is_randomized().then_some(*seed),
        elapsed_us: searched.elapsed.as_micros() as u64,
        stopped_by: searched.stopped_by,
        after: checked
            .draws_position
            .then(|| PositionView::of(&position.play(mv))),
        lines,
    }
}

/// The move chosen, what its search did, and the lines it chose from.
type Lines<M> = (M, Searched, Vec<ScoredMove>);

/// The engine's best `multipv` lines and the first's move, as `/analyze` finds them; `None`
/// where the budget ended before the first line was searched whole (the plain search then
/// answers).
fn choose_of_lines<G: Solve>(
    checked: &Checked<G>,
    budget: &Budget,
) -> Result<Option<Lines<G::Move>>, Problem> {
    let Checked {
        position,
        strategy,
        seed,
        ..
    } = checked;
    let analysis =
        search::analyze_within(position, strategy, *seed, budget).map_err(super::search_problem)?;
    let Some(best) = analysis.moves.first() else {
        return Ok(None);
    };
    let searched = Searched {
        depth: best.depth,
        seldepth: None,
        nodes: analysis.nodes,
        elapsed: analysis.elapsed,
        stopped_by: analysis.stopped_by.map(|cutoff| cutoff.name()),
    };
    Ok(Some((
        best.mv,
        searched,
        ScoredMove::of_analysis(position, &analysis),
    )))
}
