//! The kit's contract fulfilled by the game contract alone, for a game whose rules crate gives
//! no more than [`Game`] does (Othello, gomoku): copy-make on the game's own values (a
//! position of either is a few words), its key, its moves in its natural order, one of its
//! evaluations, and what the game declares in [`ThroughGame`].
//!
//! Such a game has no checks, no captures for a quiescence search to look at (its leaves are
//! scored as they are) and no pass a null move could stand for, so those steps are off; the
//! rest (the table, aspiration, reductions, futility, killers and histories, the time plan)
//! serve it as they serve chess.

use super::table::Packed;
use super::{Board, EngineParams, Step};
use crate::game::{Game, Player, Rules};
use crate::learn::weights::NamedWeights;
use crate::search::{
    Evaluate, EvaluationIndex, PROVEN, Value, evaluation, heuristic, scaled, terminal_value,
};

/// The kit's steps a game without checks, captures or a pass takes: the null move needs a
/// pass, the static exchange captures, correction history a structure the evaluation errs
/// alike on.
pub const QUIET_GAME_STEPS: [Step; 5] = [
    Step::Aspiration,
    Step::Reductions,
    Step::ReverseFutility,
    Step::LateMovePruning,
    Step::WholeTime,
];

/// Their names, the `without` values such a game's declaration lists.
pub const QUIET_GAME_STEP_NAMES: [&str; 5] = Step::names(&QUIET_GAME_STEPS, &[]);

/// What a game playing through its game contract declares for the kit.
pub trait ThroughGame: Game + Rules<Move: Packed> {
    /// The kit's steps it takes.
    const STEPS: &'static [Step] = &QUIET_GAME_STEPS;
    /// Its evaluation's worth of a pawn, on the kit's scale (an evaluation's ±1 is ±`PROVEN`).
    const PAWN: Value;
    /// The evaluation the engine scores with when a request names none.
    const ENGINE_EVALUATION: EvaluationIndex;
    /// The evaluation whose weights a search's settings may carry in place of the shipped
    /// ones (the `weights` knob): none by default.
    const LEARNT_EVALUATION: Option<EvaluationIndex> = None;

    /// The position scored by `weights` of the [`LEARNT_EVALUATION`](Self::LEARNT_EVALUATION),
    /// on the scale of the game's evaluations; asked only where the game declares one.
    fn evaluate_learnt(&self, weights: &NamedWeights) -> f64 {
        let _ = weights;
        unreachable!("{} declares no learnt evaluation", Self::NAME)
    }
}

/// The line's positions, the root's first.
pub struct GameBoard<G: Game> {
    positions: Vec<G>,
    ply: usize,
    evaluate: Evaluate<G>,
    /// The learnt evaluation's weights the search's settings carry, where it scores with it.
    learnt: Option<NamedWeights>,
}

impl<G: Game> GameBoard<G> {
    fn game(&self) -> &G {
        &self.positions[self.ply]
    }
}

impl<G: ThroughGame> Board for GameBoard<G> {
    type Game = G;
    type Move = G::Move;

    const STEPS: &'static [Step] = G::STEPS;
    const PAWN: Value = G::PAWN;
    /// Each move's id, for each side.
    const HISTORY_SLOTS: usize = 2 * G::MOVE_IDS;

    fn new(game: &G, params: &EngineParams) -> GameBoard<G> {
        let mut positions = Vec::with_capacity(G::MAX_PLIES + 2);
        positions.push(game.clone());
        let scoring = params.evaluation.unwrap_or(G::ENGINE_EVALUATION);
        GameBoard {
            positions,
            ply: 0,
            evaluate: evaluation::<G>(scoring),
            learnt: params
                .weights
                .clone()
                .filter(|_| G::LEARNT_EVALUATION == Some(scoring)),
        }
    }

    fn key(&self) -> u64 {
        self.game().key()
    }

    fn in_check(&self) -> bool {
        false
    }

    fn legal_moves(&self, moves: &mut Vec<G::Move>) {
        moves.extend(self.game().legal_moves());
    }

    fn noisy_moves(&self, _: &mut Vec<G::Move>) {}

    fn is_quiet(&self, _: G::Move) -> bool {
        true
    }

    fn prior(&self, mv: G::Move) -> i32 {
        self.game().move_priority(mv)
    }

    fn make(&mut self, mv: G::Move) {
        let (before, after) = self.positions.split_at_mut(self.ply + 1);
        let current = &before[self.ply];
        match after.first_mut() {
            Some(next) => current.play_into(mv, next),
            None => {
                let next = current.play(mv);
                self.positions.push(next);
            }
        }
        self.ply += 1;
    }

    fn unmake(&mut self, _: G::Move) {
        self.ply -= 1;
    }

    fn make_null(&mut self) -> bool {
        false
    }

    fn unmake_null(&mut self) {}

    fn evaluate(&mut self) -> Value {
        match &self.learnt {
            Some(weights) => scaled(self.game().evaluate_learnt(weights)),
            None => heuristic(self.game(), self.evaluate),
        }
    }

    fn decided(&self, ply: usize, _: bool) -> Option<Value> {
        let game = self.game();
        let outcome = game.outcome();
        outcome
            .is_over()
            .then(|| terminal_value(outcome, game.side_to_move(), ply))
    }

    fn no_moves(&self, _: bool, ply: usize) -> Value {
        let game = self.game();
        terminal_value(game.outcome(), game.side_to_move(), ply)
    }

    fn null_move_safe(&self) -> bool {
        false
    }

    fn rank_noisy(&self, _: G::Move, _: bool) -> (i32, bool) {
        (0, false)
    }

    fn gain(&self, _: G::Move) -> Option<Value> {
        None
    }

    fn history_slot(&self, mv: G::Move) -> usize {
        usize::from(G::move_id(mv)) * 2 + self.side()
    }

    fn side(&self) -> usize {
        usize::from(self.game().side_to_move() == Player::O)
    }

    /// The inverse of the evaluation's scaling: the value over the largest estimate.
    fn winning_chances(value: Value) -> f64 {
        f64::from(value) / f64::from(PROVEN - 1)
    }

    fn game_move(mv: G::Move) -> G::Move {
        mv
    }
}
