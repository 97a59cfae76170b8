//! The contract a game fulfils to play through the engine: its position as the search walks
//! it, move by move and back.
//!
//! The kit owns the search (deepening, the window, the table, the pruning, the ordering, the
//! clock); the game owns its rules and its knowledge: which moves there are and which of them
//! a quiescence search looks at, what a move does and how it is taken back, what a repetition
//! or the end of the game is worth, what a position is worth, what a capture wins. A game
//! keeps whatever makes these fast beside its position (chess its keys and its network's sums,
//! move by move), so the kit never copies a position or allocates per node.

use super::table::Packed;
use super::{EngineParams, Step};
use crate::game::{Game, Rules};
use crate::search::Value;

/// A game's position as the engine searches it, from the root of one search.
///
/// `make` and `unmake` go down and back up one ply: a game whose rules crate plays moves in
/// place (shogi's) does so; one whose positions are small values (chess's) keeps a stack of
/// them and copies (copy-make), whichever measures faster for the game.
pub trait Board: Sized {
    /// The game it is a position of: answers give its moves.
    type Game: Game;
    /// A move as the search keeps it (in its table, its killers, its lines), packed in 32
    /// bits in the table.
    type Move: Packed + PartialEq + Send + 'static;

    /// The steps of the kit this game's search takes; `docs/architecture.md` says why the
    /// others are off. Its own steps (chess's evaluation `terms`) are its own business.
    const STEPS: &'static [Step];
    /// A pawn's worth on the evaluation's scale: the margins of the pruning steps, the
    /// aspiration window and the correction history's limit are counted in it.
    const PAWN: Value = 100;
    /// How many slots its history of quiet moves has ([`Board::history_slot`]).
    const HISTORY_SLOTS: usize;
    /// How far a check is extended, in per cent of the iteration's depth: while the line is
    /// shorter than that (shogi's checks are many: a drop checks from anywhere, and a line of
    /// checks each extended never nears the horizon); always without it.
    const CHECK_EXTENSION_REACH_PERCENT: Option<i32> = None;

    /// The position `game` is at, ready to be searched with `params` (its evaluation, its own
    /// steps turned off).
    fn new(game: &Self::Game, params: &EngineParams) -> Self;

    /// The key of the position, as the transposition table files it.
    fn key(&self) -> u64;
    /// Whether the side to move is in check (no game without checks ever is).
    fn in_check(&self) -> bool;
    /// Appends every legal move.
    fn legal_moves(&self, moves: &mut Vec<Self::Move>);
    /// Appends the moves a quiescence search tries out of check: the legal captures and
    /// promotions, which change the material a static evaluation counts; none for a game
    /// without them.
    fn noisy_moves(&self, moves: &mut Vec<Self::Move>);
    /// Whether `mv` changes no material: what killers and histories order, what the pruning
    /// near the horizon may skip.
    fn is_quiet(&self, mv: Self::Move) -> bool;
    /// A static guess at how promising a quiet move is, added to its history (the centre
    /// before the edges); none by default.
    fn prior(&self, mv: Self::Move) -> i32 {
        let _ = mv;
        0
    }
    /// Plays `mv`.
    fn make(&mut self, mv: Self::Move);
    /// Takes back `mv`, the last move played.
    fn unmake(&mut self, mv: Self::Move);
    /// Passes, for the null move; false (and nothing played) where the game forbids it.
    fn make_null(&mut self) -> bool;
    /// Takes back the pass.
    fn unmake_null(&mut self);

    /// The static evaluation for the side to move, strictly between the proven values.
    fn evaluate(&mut self) -> Value;
    /// The value the rules give the position `ply` plies below the root before any search: a
    /// draw by repetition or by a length rule, a win that may be claimed. Asked at every node
    /// below the root; in a quiescence search (`quiescence`), only the rules a capture can
    /// change are asked about (chess's material).
    fn decided(&self, ply: usize, quiescence: bool) -> Option<Value>;
    /// The value of a position without a legal move, `ply` plies below the root, the side to
    /// move `in_check` or not: chess's mate or stalemate, shogi's loss either way.
    fn no_moves(&self, in_check: bool, ply: usize) -> Value;
    /// Whether passing says something here: false where zugzwang is likely (chess with only
    /// pawns left, a game where every move can hurt).
    fn null_move_safe(&self) -> bool;
    /// Whether the table's values may cut at this root: false near a length limit its keys do
    /// not see (a value stored with further to go may be a mate the limit forbids).
    fn table_trusted(&self) -> bool {
        true
    }

    /// How a capture or promotion ranks among the others, higher first (most valuable victim,
    /// then least valuable attacker), and whether it loses material (by static exchange where
    /// `exchanges`, and an under-promotion).
    fn rank_noisy(&self, mv: Self::Move, exchanges: bool) -> (i32, bool);
    /// What `mv` wins or loses in material once the exchanges on its square are over: only
    /// asked of a game whose steps include [`Step::Exchange`].
    fn exchange(&self, mv: Self::Move) -> Value {
        let _ = mv;
        0
    }
    /// A move that mates at once, where the game finds one cheaply (shogi's mate-in-one
    /// finder, YaneuraOu's `mate_1ply`); asked at the nodes not in check that the table knows
    /// nothing of, and in the quiescence search where standing pat does not cut. None by
    /// default: the other games' search finds such a mate a ply later.
    fn mate_in_one(&mut self) -> Option<Self::Move> {
        None
    }
    /// Whether the opponent would mate at once were the side to move to pass (a mate threat),
    /// where the game tells cheaply; asked only where reverse futility would cut a node on its
    /// evaluation, which a threat forbids. False by default: a null move's search finds such a
    /// threat where the other games need it.
    fn mate_threat(&mut self) -> bool {
        false
    }
    /// The most a capture or promotion can lift the evaluation, for delta pruning; `None`
    /// where it is never pruned so.
    fn gain(&self, mv: Self::Move) -> Option<Value>;
    /// The history slot of a quiet move played from here (the side to move is part of it).
    fn history_slot(&self, mv: Self::Move) -> usize;
    /// The side to move, 0 or 1.
    fn side(&self) -> usize;
    /// A key of what the evaluation errs alike on (chess's and shogi's pawns): the correction
    /// history's index. Only asked where [`Step::CorrectionHistory`] is on.
    fn structure_key(&self) -> u64 {
        0
    }

    /// The winning chances a value stands for, from -1 to 1.
    fn winning_chances(value: Value) -> f64;
    /// `mv` as the game's move.
    fn game_move(mv: Self::Move) -> <Self::Game as Rules>::Move;
    /// `mv` of the game `game`, as the protocol writes it (the watch lines' `pv`).
    fn protocol_text(game: &Self::Game, mv: <Self::Game as Rules>::Move) -> String {
        game.notation(mv).into_text()
    }
}
