//! A move with its score, as every answer that lists moves gives it (`/move`'s chosen move,
//! `/analyze`'s every move): in the game's notation and the one players write, its squares, its
//! score on Sente's common scale and, for games counted in pawns, in centipawns or moves to
//! mate, and the line it leads to.

use serde::Serialize;

use super::describe::Squares;
use crate::game::{Game, Notation, in_pawns, written};
use crate::rounded;

/// One move and its value for the side to move before it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ScoredMove {
    /// The move, in the game's notation (`GET /games`).
    #[serde(rename = "move")]
    pub mv: Notation,
    /// The move in the notation players write, for games that have one (chess's SAN).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub san: Option<String>,
    /// Where it happens on the board (rows from the top, as `cells`): the cell it fills, where
    /// the piece comes from, the piece a drop puts down.
    #[serde(flatten)]
    pub squares: Squares,
    #[serde(serialize_with = "rounded::to::<4, _>")]
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
    /// For games scored by discs (Othello): the proven final disc difference for the side to
    /// move, the empty squares going to the winner.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub margin: Option<i32>,
    /// For games scored by discs (Othello): the final disc difference the side to move can
    /// expect after the move, the proven margin where it is proven, else the evaluation's
    /// estimate through the search (as Egaroucid's hints show it).
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "rounded::some::<1, _>"
    )]
    pub discs: Option<f64>,
    /// The line the move leads to, starting with it, for the searches that have one.
    pub pv: Vec<Notation>,
    /// The line in the notation players write, where the game has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pv_san: Option<Vec<String>>,
    /// Simulations through the move, for mcts's and alphazero's analysis.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub visits: Option<u32>,
    /// The network's prior for the move, for alphazero's analysis.
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "rounded::some::<4, _>"
    )]
    pub prior: Option<f64>,
    /// The network's value of the position after the move, for the side that plays it, for
    /// alphazero's analysis (`null` where the search never asked it, or the move ends the game).
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "rounded::some::<4, _>"
    )]
    pub value: Option<f64>,
    /// The depth the move was valued at, in an analysis that deepens line by line (the chess
    /// engine's). `/move` gives its depth beside the move instead.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
}

/// What a search says of a move: its score, whether proven, the plies to the end if so.
#[derive(Clone, Copy, Debug)]
pub struct Judgement {
    pub score: f64,
    pub exact: bool,
    pub plies_to_end: Option<u32>,
    /// A proven final disc difference, for games scored by discs (Othello).
    pub margin: Option<i32>,
    /// The depth it was valued at, where an analysis says it line by line.
    pub depth: Option<u32>,
}

impl ScoredMove {
    /// Each move of an analysis of `game`, best first, as `/analyze` answers them.
    pub fn of_analysis<G: Game>(
        game: &G,
        analysis: &crate::search::Analysis<G::Move>,
    ) -> Vec<Self> {
        analysis
            .moves
            .iter()
            .map(|entry| {
                let judgement = Judgement {
                    score: entry.score,
                    exact: entry.exact,
                    plies_to_end: entry.plies_to_end,
                    margin: entry.margin,
                    depth: entry.depth,
                };
                ScoredMove {
                    prior: entry.prior.map(f64::from),
                    value: entry.value.map(f64::from),
                    ..ScoredMove::new(game, entry.mv, judgement, &entry.pv, entry.visits)
                }
            })
            .collect()
    }

    /// `mv` in `game`, judged so, leading to `line` (which starts with it, or is empty).
    pub fn new<G: Game>(
        game: &G,
        mv: G::Move,
        judgement: Judgement,
        line: &[G::Move],
        visits: Option<u32>,
    ) -> ScoredMove {
        let (cp, mate) = in_pawns::<G>(judgement.score, judgement.exact, judgement.plies_to_end);
        let san = game.san(mv);
        ScoredMove {
            mv: game.notation(mv),
            // A game that writes its moves as players do writes the whole line so.
            pv_san: san
                .is_some()
                .then(|| written(game, line, G::san).into_iter().collect())
                .flatten(),
            san,
            squares: Squares::of(game, mv),
            score: judgement.score,
            exact: judgement.exact,
            plies_to_end: judgement.plies_to_end,
            cp,
            mate,
            margin: judgement.margin.filter(|_| judgement.exact),
            discs: match judgement.margin.filter(|_| judgement.exact) {
                Some(margin) => Some(f64::from(margin)),
                None if judgement.score.abs() < 1.0 => G::discs(judgement.score),
                None => None,
            },
            pv: written(game, line, G::notation),
            visits,
            prior: None,
            value: None,
            depth: judgement.depth,
        }
    }
}
