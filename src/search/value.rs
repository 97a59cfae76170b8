//! Search values: integers in the side to move's frame, proven or estimated, and the game's
//! evaluations that estimate them.
//!
//! A proven win is worth [`WIN`] minus the plies from the root to the end of the game, so that
//! a faster win is worth more and a slower loss less; a draw is 0; heuristic estimates lie
//! strictly between `-PROVEN` and `PROVEN`.

use crate::game::{Game, Outcome, Player};

/// A search value in the side to move's frame.
pub type Value = i32;

/// The value of a win for the side to move at the root, less one per ply to the end.
pub const WIN: Value = 10_000;

/// Values at least this large (in absolute value) are proven; estimates stay below it.
pub(crate) const PROVEN: Value = WIN - 1_000;

/// Above every value, so that `-INFINITY` is below every value.
pub(crate) const INFINITY: Value = WIN + 1;

/// The deepest a depth-limited or deepening search goes.
pub const MAX_DEPTH: u32 = 64;

/// The value of a finished game for the side to move in it, `ply` plies below the root.
#[inline]
pub(crate) fn terminal_value(outcome: Outcome, to_move: Player, ply: usize) -> Value {
    let win = WIN - ply as Value;
    match outcome {
        Outcome::Won(winner) if winner == to_move => win,
        Outcome::Won(_) => -win,
        Outcome::Draw | Outcome::InProgress => 0,
    }
}

/// A game's static estimate of a position for the side to move (one of its
/// [`EVALUATIONS`](Knowledge::EVALUATIONS)).
pub(crate) type Evaluate<G> = fn(&G) -> f64;

/// Which of a game's evaluations a search uses: an index into [`Knowledge::EVALUATIONS`](crate::game::Knowledge::EVALUATIONS).
pub type EvaluationIndex = u8;

/// The most evaluations a game may offer: the searches that use one are compiled for each, so
/// that scoring a leaf is a direct call the compiler can inline, not a call through a pointer
/// that weighs on every node, searches to the end that never score a leaf included (`cargo
/// bench --bench tictactoe -- "full tree"` shows it).
pub const MAX_EVALUATIONS: usize = 4;

/// Runs `$body` with `$e` a constant: the evaluation index `$index`, as a const generic.
macro_rules! with_evaluation {
    ($index:expr, $e:ident => $body:expr) => {
        match $index {
            0 => {
                const $e: u8 = 0;
                $body
            }
            1 => {
                const $e: u8 = 1;
                $body
            }
            2 => {
                const $e: u8 = 2;
                $body
            }
            _ => {
                const $e: u8 = 3;
                $body
            }
        }
    };
}
pub(crate) use with_evaluation;

/// The game's evaluation number `index`, its first if it has no such one.
pub(crate) fn evaluation<G: Game>(index: EvaluationIndex) -> Evaluate<G> {
    const {
        assert!(
            !G::EVALUATIONS.is_empty() && G::EVALUATIONS.len() <= MAX_EVALUATIONS,
            "a game offers one evaluation or more, up to MAX_EVALUATIONS"
        );
    }
    G::EVALUATIONS
        .get(usize::from(index))
        .unwrap_or(&G::EVALUATIONS[0])
        .evaluate
}

/// The game's static estimate, as a value strictly between the proven ones.
#[inline]
pub(crate) fn heuristic<G: Game>(game: &G, evaluate: Evaluate<G>) -> Value {
    scaled(evaluate(game))
}

/// An estimate in (-1, 1), as a game's evaluations give one, as a value strictly between the
/// proven ones.
#[inline]
pub(crate) fn scaled(estimate: f64) -> Value {
    let limit = PROVEN - 1;
    ((estimate * f64::from(limit)).round() as Value).clamp(-limit, limit)
}

/// A depth limit in plies, `None` meaning to the end of the game; a limit below 1 would leave
/// no move to choose, so it is raised to 1.
pub(crate) fn depth_limit(depth: Option<u32>) -> u32 {
    depth.map_or(u32::MAX, |depth| depth.max(1))
}
