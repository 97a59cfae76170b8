//! `POST /move`: one search from one position.

use serde::Serialize;

use super::request::MoveRequest;
use std::sync::Arc;

use super::{Position, Problem, Status, knobs};
use crate::game::{Game, Notation, Player};
use crate::search::{self, Algorithm, Budget, Solve, Strategy, Tiebreak, seed};

/// The answer to a move request.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MoveResponse {
    /// The chosen move, as the game numbers moves (`GET /games`).
    #[serde(rename = "move")]
    pub mv: Notation,
    /// The move in the notation players write, for games that have one (chess's SAN).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub san: Option<String>,
    pub row: usize,
    pub col: usize,
    pub score: f64,
    pub exact: bool,
    /// For a proven result, the plies to the end under perfect play (fastest win, slowest loss).
    pub plies_to_end: Option<u32>,
    /// For games counted in pawns (chess): the unproven score in centipawns, for the side to
    /// move.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cp: Option<i32>,
    /// For games counted in pawns: moves to a proven mate, positive when the side to move mates.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mate: Option<i32>,
    /// The depth of the last completed iteration, for the deepening searches.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    pub nodes: u64,
    pub pv: Vec<Notation>,
    /// The principal variation in the notation players write, where the game has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pv_san: Option<Vec<String>>,
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
    /// The board after the move, in text form.
    pub board: String,
    /// The game's status after the move.
    pub status: Status,
    /// The rule that ended the game, for games that end in more than one way (chess:
    /// `checkmate`, `stalemate`, `insufficient_material`, `fifty_move_rule`,
    /// `threefold_repetition`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ending: Option<&'static str>,
    /// Who is to move after the move; `null` once the game is over.
    pub side_to_move: Option<Player>,
    /// The legal moves after the move, in the game's order: what a front end offers its
    /// player next, without coding the rules itself. Empty once the game is over.
    pub legal_moves: Vec<Notation>,
}

/// A move request, checked: ready to search.
#[derive(Clone, Debug)]
pub struct MoveJob {
    pub(super) position: Arc<dyn Position>,
    pub(super) strategy: Strategy,
    pub(super) seed: u64,
}

/// Games with at most this many move ids are small enough that a sampler with small knobs or
/// a shallow full-width search finishes in well under a millisecond.
const SMALL_GAME_MOVES: usize = 64;

impl MoveJob {
    /// Checks everything that can be checked before searching.
    pub fn new(request: MoveRequest) -> Result<MoveJob, Problem> {
        let game = super::game(request.game.as_deref())?;
        let strategy = knobs::player(&game, &request.player)?;
        let requested_seed = knobs::optional_in_range("seed", request.seed, 0, u64::MAX)?;
        if requested_seed.is_some() && !strategy.is_randomized() {
            return Err(knobs::seed_unused(&strategy));
        }
        // Only a randomised search uses (and reports) its seed: no other draws one.
        let seed = match requested_seed {
            Some(seed) => seed,
            None if strategy.is_randomized() => seed::draw(),
            None => 0,
        };
        Ok(MoveJob {
            position: super::playable(&game, &request.position)?,
            strategy,
            seed,
        })
    }

    pub fn strategy(&self) -> &Strategy {
        &self.strategy
    }

    /// Whether the search is certain to take well under a millisecond, so that it may run
    /// where it was received instead of on a thread made for blocking work: exact searches on
    /// games that declare them instant, and on small games samplers with small knobs and
    /// shallow full-width searches.
    pub fn is_light(&self) -> bool {
        let small = self.position.move_ids() <= SMALL_GAME_MOVES;
        match self.strategy {
            Strategy::Random => true,
            // A tie-break other than "first" searches every move exactly.
            Strategy::AlphaBeta(_, tiebreak) | Strategy::Solver { tiebreak, .. } => {
                self.position.declaration().limits.instant_exact_search
                    && tiebreak == Tiebreak::First
            }
            Strategy::Engine(_) => self.position.declaration().limits.instant_exact_search,
            Strategy::Mcs { playouts, .. } => small && playouts <= 100,
            Strategy::Mcts(params) => small && params.simulations <= 1_000,
            Strategy::Minimax { depth, .. } | Strategy::Negamax { depth, .. } => {
                small && depth.is_some_and(|depth| depth <= 3)
            }
        }
    }

    /// Runs the search within `budget`. CPU-bound: call it where blocking is allowed.
    pub fn run(&self, budget: &Budget) -> Result<MoveResponse, Problem> {
        self.position.run(&self.strategy, self.seed, budget)
    }

    /// Analyses every legal move within `budget`. CPU-bound: call it where blocking is
    /// allowed.
    pub fn analyze(&self, budget: &Budget) -> Result<super::analyze::AnalyzeResponse, Problem> {
        self.position.analyze(&self.strategy, self.seed, budget)
    }
}

/// Searches `game` for a move, and shapes the answer.
pub(super) fn run<G: Solve>(
    game: &G,
    strategy: &Strategy,
    seed: u64,
    budget: &Budget,
) -> Result<MoveResponse, Problem> {
    let result = search::search_within(game, strategy, seed, budget)
        .map_err(|error| Problem::invalid("board", error.to_string()))?;
    let (row, col) = game.move_cell(result.best_move);
    let after = game.play(result.best_move);
    let (cp, mate) = super::score::in_pawns::<G>(result.score, result.exact, result.plies_to_end);
    Ok(MoveResponse {
        mv: game.notation(result.best_move),
        san: game.san(result.best_move),
        row,
        col,
        score: result.score,
        exact: result.exact,
        plies_to_end: result.plies_to_end,
        cp,
        mate,
        depth: result.depth,
        nodes: result.nodes,
        pv: line_notation(game, &result.pv),
        pv_san: line_san(game, &result.pv),
        algorithm: strategy.algorithm(),
        game: G::NAME,
        seed: strategy.is_randomized().then_some(seed),
        elapsed_us: result.elapsed.as_micros() as u64,
        stopped_by: result.stopped_by.map(|cutoff| cutoff.name()),
        board: after.to_string(),
        status: after.outcome().into(),
        ending: after.ending(),
        side_to_move: (!after.outcome().is_over()).then(|| after.side_to_move()),
        legal_moves: after.legal_moves().map(|mv| after.notation(mv)).collect(),
    })
}

/// A line of moves from `game` in the notation players write, where the game has one.
pub(super) fn line_san<G: Game>(game: &G, line: &[G::Move]) -> Option<Vec<String>> {
    written(game, line, G::san).into_iter().collect()
}

/// A line of moves from `game`, each in the notation of the position it is played in.
pub(super) fn line_notation<G: Game>(game: &G, line: &[G::Move]) -> Vec<Notation> {
    written(game, line, G::notation)
}

/// Each move of a line from `game` written by `write` in the position it is played in.
fn written<G: Game, T>(game: &G, line: &[G::Move], write: impl Fn(&G, G::Move) -> T) -> Vec<T> {
    let mut position = game.clone();
    line.iter()
        .map(|&mv| {
            let written = write(&position, mv);
            position = position.play(mv);
            written
        })
        .collect()
}
