//! What a game knows beyond its rules that searches may use: its evaluations, how many
//! positions it has, its symmetries, which moves look promising.

use super::{Evaluation, Rules};

/// Game knowledge searches may use, apart from the rules: every item has a default that
/// knows nothing (one even evaluation, no table, no symmetry, no order).
pub trait Knowledge: Rules {
    /// The game's evaluations, apart from its rules: the first is the default, the others
    /// are chosen by the `evaluation` knob. By default one that knows nothing, every position
    /// even: a depth-limited search then sees only the ends of games within its depth.
    const EVALUATIONS: &'static [Evaluation<Self>] = &[Evaluation {
        name: "even",
        description: "Every position even: the search sees only the ends of games within its \
                      depth.",
        evaluate: |_| 0.0,
    }];

    /// The number of positions reachable from the start, when it is small enough to tabulate
    /// every one of them; `None` (the default) for larger games.
    const REACHABLE_POSITIONS: Option<usize> = None;

    /// The smallest [`Rules::key`] among the position's symmetric images (rotations and
    /// reflections that preserve the rules), so that symmetric positions share one key.
    fn symmetric_key(&self) -> u64 {
        self.key()
    }

    /// A static guess at how promising a move is, higher first (the centre before the edges):
    /// what a search tries first when it knows nothing better.
    fn move_priority(&self, mv: Self::Move) -> i32 {
        let _ = mv;
        0
    }

    /// Whether `mv` is played in the middle of a fight for material (a capture, a promotion, an
    /// answer to a check): a search's score there tells what the fight comes to, which no
    /// static evaluation of the position could know, so training positions leave it out.
    fn is_tactical(&self, mv: Self::Move) -> bool {
        let _ = mv;
        false
    }
}
