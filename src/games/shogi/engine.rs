//! The shogi engine: the engine kit's search (`crate::search::engine`) on shogi, Sente's
//! strongest shogi player. This file is shogi's side of the kit's contract; the search, its
//! table, ordering, pruning, time plan and MultiPV are the kit's, as chess's are.
//!
//! What is shogi's own:
//! - make and unmake on the crate's position, which keeps the line's history for repetitions;
//! - a quiescence search over captures and promotions (the crate's `CapturePlusPro`);
//! - a side with no legal move has lost, checked or not;
//! - repetition as the crate judges it within the line: sennichite is a draw, the side giving
//!   perpetual check loses, and a position repeated with more in hand is better for that side;
//! - a king that may declare the entering-king win has won; the game's length limit draws;
//! - checks are many (a drop checks from anywhere), so a check is extended only while the line
//!   is shorter than one and a half times the iteration's depth: at twice, lines of drops,
//!   each checking and each extended, could make one iteration dozens of times the one
//!   before;
//! - a capture is ranked by the victim's value, then the attacker's; one that loses material
//!   by shogi's static exchange ([`super::exchange`]: a piece taken goes to the taker's hand,
//!   takers promote where they may) is searched last, and near the horizon not at all (the
//!   `exchange` step);
//! - before each search, the tsume solver ([`super::mate`]) looks for a mate by checks within
//!   a few thousand nodes, and a mate it finds is the answer (the `tsume` step);
//! - at every node not in check that the table knows nothing of, rsshogi's mate-in-one finder
//!   (YaneuraOu's `mate_1ply`) looks for a move that mates at once (the `mate_in_one` step):
//!   drops checking from anywhere make such mates many and the search's pruning near the
//!   horizon would skip them;
//! - near the horizon, where reverse futility would cut a node on its evaluation, the same
//!   finder asks whether the opponent mates at once if the side to move passes, and such a
//!   node is not cut (the `mate_threat` step);
//! - its evaluations: `standard`, set by hand, or `nnue`, the network learnt from its games.

use std::time::Instant;

use rsshogi::board::{Move32List, Position};
use rsshogi::movegen::{CapturePlusPro, Legal, generate_moves_move32};
use rsshogi::types::{MOVE_NONE, Move32, Piece, PieceType, RepetitionState};

use super::evaluation::{VALUES, evaluate, material, winning_chances};
use super::exchange;
use super::nnue::{self, Stack};
use super::{MOVE_LIMIT, Shogi, ShogiMove};
use crate::game::{Knowledge, Rules};
use crate::search::engine::{self as kit, Board, Step};
use crate::search::{
    Analysis, Budget, EngineParams, EvaluationIndex, MoveAnalysis, PROVEN, SearchResult, Value, WIN,
};

/// The kit's steps shogi takes: all of them.
const STEPS: [Step; 9] = Step::ALL;

/// Shogi's own step, beside the kit's: the tsume solver's look for a mate by checks before
/// each search ([`quick_mate`]).
pub const TSUME: &str = "tsume";
/// Shogi's own step: a mate in one looked for at the search's nodes
/// ([`ShogiBoard::mate_in_one`](kit::Board::mate_in_one)).
pub const MATE_IN_ONE: &str = "mate_in_one";
/// Shogi's own step: near the horizon, a mate in one for the opponent were the side to move to
/// pass forbids a cut on the evaluation (reverse futility)
/// ([`ShogiBoard::mate_threat`](kit::Board::mate_threat)).
pub const MATE_THREAT: &str = "mate_threat";

/// Every step `without` may turn off on shogi: the kit's, then its own.
pub const STEP_NAMES: [&str; 12] = Step::names(&STEPS, &[TSUME, MATE_IN_ONE, MATE_THREAT]);

/// Estimates stay within this, below the proven values.
const MAX_ESTIMATE: Value = PROVEN - 100;
/// A repetition in the line where the side to move has given every check: it loses. Large but
/// not proven: the game itself ends only at the fourth occurrence.
const PERPETUAL: Value = 3_000;
/// A position repeated with more pieces in hand for the side to move.
const SUPERIOR: Value = 1_500;

/// What the engine keeps from one move to the next of a game (`sente usi`).
pub type Kept = kit::Kept<ShogiBoard>;

/// The evaluation the engine uses when a request names none: the network, which beat
/// `standard` in an SPRT at a time per move (docs/shogi.md#the-network).
pub const DEFAULT_EVALUATION: &str = "nnue";

/// What the engine scores its positions with: one of the game's evaluations, by the name the
/// `evaluation` knob gives it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Scorer {
    /// Material, a piece in hand's freedom and each king's safety, set by hand.
    Standard,
    /// The network learnt from Sente's games, its sums kept move by move ([`nnue`]).
    Network,
    /// Material alone.
    Material,
}

impl Scorer {
    /// The scorer of the game's evaluation number `index`, the engine's own without one.
    fn of(index: Option<EvaluationIndex>) -> Scorer {
        let evaluation = index.and_then(|index| Shogi::EVALUATIONS.get(usize::from(index)));
        match evaluation.map_or(DEFAULT_EVALUATION, |evaluation| evaluation.name) {
            "nnue" => Scorer::Network,
            "material" => Scorer::Material,
            _ => Scorer::Standard,
        }
    }
}

/// A shogi position as the engine searches it: the crate's, moves made and unmade in place.
pub struct ShogiBoard {
    position: Position,
    /// Whether the search could reach the game's length limit from its root.
    near_move_limit: bool,
    scorer: Scorer,
    /// Plies from the root: where the line's sums are kept.
    ply: usize,
    /// The network and its sums along the line, when it scores.
    network: std::sync::Arc<nnue::Network>,
    sums: Option<Stack>,
    /// Whether the nodes look for a mate in one (the `mate_in_one` step).
    mates_in_one: bool,
    /// Whether the nodes near the horizon look for the opponent's (the `mate_threat` step).
    mate_threats: bool,
}

impl ShogiBoard {
    /// Whether the line has reached the game's length limit: drawn, whatever the board says
    /// (so no mate is claimed that the game would not live to see).
    fn past_move_limit(&self) -> bool {
        self.position.game_ply() > MOVE_LIMIT
    }

    /// The value of the line's repetition at `ply`, if the position repeats one in the line
    /// (or in the game, a fourth time).
    fn repetition(&self, ply: usize) -> Option<Value> {
        match self.position.repetition_state_with_ply(ply.max(1)) {
            RepetitionState::None => None,
            RepetitionState::Draw => Some(0),
            RepetitionState::Win => Some(PERPETUAL),
            RepetitionState::Lose => Some(-PERPETUAL),
            RepetitionState::Superior => Some(SUPERIOR),
            RepetitionState::Inferior => Some(-SUPERIOR),
        }
    }

    fn victim(&self, mv: Move32) -> Piece {
        if mv.is_drop() {
            Piece::NONE
        } else {
            self.position.piece_on(mv.to_sq())
        }
    }
}

/// A move in the table: rsshogi's own 32 bits.
impl kit::Packed for Move32 {
    fn pack(self) -> u32 {
        self.raw()
    }

    fn unpack(bits: u32) -> Move32 {
        Move32::from_raw(bits)
    }
}

impl Board for ShogiBoard {
    type Game = Shogi;
    type Move = Move32;

    const STEPS: &'static [Step] = &STEPS;
    /// The piece it leaves on the square (its side and whether promoted), and the square.
    const HISTORY_SLOTS: usize = 32 * 81;
    const CHECK_EXTENSION_REACH_PERCENT: Option<i32> = Some(150);

    fn new(game: &Shogi, params: &EngineParams) -> ShogiBoard {
        let scorer = Scorer::of(params.evaluation);
        let network = nnue::playing(params.weights.as_ref());
        ShogiBoard {
            position: game.position.clone_for_search(),
            near_move_limit: usize::from(game.position.game_ply()) + Shogi::MAX_PLIES
                > usize::from(MOVE_LIMIT),
            scorer,
            ply: 0,
            sums: (scorer == Scorer::Network)
                .then(|| Stack::new(nnue::of(&network, &game.position), Shogi::MAX_PLIES + 2)),
            network,
            mates_in_one: params.without != Some(MATE_IN_ONE),
            mate_threats: params.without != Some(MATE_THREAT),
        }
    }

    fn key(&self) -> u64 {
        self.position.key().low_u64()
    }

    fn in_check(&self) -> bool {
        self.position.is_in_check()
    }

    fn legal_moves(&self, moves: &mut Vec<Move32>) {
        let mut list = Move32List::new();
        generate_moves_move32::<Legal>(&self.position, &mut list);
        moves.extend(list.iter());
    }

    fn noisy_moves(&self, moves: &mut Vec<Move32>) {
        let mut list = Move32List::new();
        generate_moves_move32::<CapturePlusPro>(&self.position, &mut list);
        moves.extend(
            list.iter()
                .filter(|&&mv| self.position.is_legal_after_pseudo_move32(mv)),
        );
    }

    fn is_quiet(&self, mv: Move32) -> bool {
        !mv.is_promotion() && self.victim(mv) == Piece::NONE
    }

    fn make(&mut self, mv: Move32) {
        let changes = self.sums.as_mut().map(|sums| {
            let changes = nnue::changes(&self.network, &self.position, mv);
            sums.push(self.ply + 1, changes);
            changes
        });
        self.position.apply_move32(mv);
        self.ply += 1;
        // A king into another bucket: its side's sums afresh, while the position is at hand.
        if let (Some(sums), Some(view)) = (&mut self.sums, changes.and_then(|c| c.refreshed())) {
            sums.refresh(
                self.ply,
                view,
                nnue::side_of(&self.network, &self.position, view),
            );
        }
    }

    fn unmake(&mut self, mv: Move32) {
        self.position.undo_move32(mv).expect("the move just played");
        self.ply -= 1;
    }

    fn make_null(&mut self) -> bool {
        if self.position.apply_null_move().is_err() {
            return false;
        }
        if let Some(sums) = &mut self.sums {
            sums.push(self.ply + 1, crate::learn::nnue::Changes::NONE);
        }
        self.ply += 1;
        true
    }

    fn unmake_null(&mut self) {
        if self.position.undo_null_move().is_ok() {
            self.ply -= 1;
        }
    }

    fn evaluate(&mut self) -> Value {
        let value = match (self.scorer, &mut self.sums) {
            (Scorer::Network, Some(sums)) => {
                let network = &*self.network;
                network.evaluate(sums.at(network, self.ply), self.position.turn().to_index())
            }
            (Scorer::Material, _) => material(&self.position),
            _ => evaluate(&self.position),
        };
        value.clamp(-MAX_ESTIMATE, MAX_ESTIMATE)
    }

    fn decided(&self, ply: usize, quiescence: bool) -> Option<Value> {
        if ply == 0 {
            return None;
        }
        if quiescence {
            return self.past_move_limit().then_some(0);
        }
        if let Some(value) = self.repetition(ply) {
            return Some(value);
        }
        if self.past_move_limit() {
            return Some(0);
        }
        (self.position.declaration_win_move() != MOVE_NONE).then_some(WIN - ply as Value)
    }

    /// Lost, in check or not.
    fn no_moves(&self, _: bool, ply: usize) -> Value {
        -(WIN - ply as Value)
    }

    /// Pieces in hand can always be dropped: zugzwang is rare.
    fn null_move_safe(&self) -> bool {
        true
    }

    /// The table's key has no move number: near the limit, a value stored where the game had
    /// further to go may be a mate the limit now forbids.
    fn table_trusted(&self) -> bool {
        !self.near_move_limit
    }

    fn rank_noisy(&self, mv: Move32, exchanges: bool) -> (i32, bool) {
        let victim = self.victim(mv);
        let taken = if victim == Piece::NONE {
            0
        } else {
            VALUES[victim.piece_type().to_index()]
        };
        let piece = mv.piece_after_move().piece_type();
        let attacker = VALUES[piece.to_index()].min(2000);
        let promotion = if mv.is_promotion() { 1000 } else { 0 };
        // Taking a piece worth at least the taker, promoted, cannot lose by exchange (no
        // victim is worth nothing).
        let loses = exchanges
            && exchange::taken(victim.piece_type()) < exchange::taken(piece)
            && exchange::exchange(&self.position, mv) < 0;
        (taken * 16 - attacker / 16 + promotion, loses)
    }

    fn exchange(&self, mv: Move32) -> Value {
        exchange::exchange(&self.position, mv)
    }

    /// rsshogi's mate-in-one finder, on the position in place (it takes back what it tries).
    /// A mate the game's length limit would draw first is none.
    fn mate_in_one(&mut self) -> Option<Move32> {
        if !self.mates_in_one || self.position.game_ply() >= MOVE_LIMIT {
            return None;
        }
        rsshogi::mate::solve_mate_in_one_in_place(&mut self.position)
    }

    /// rsshogi's mate-in-one finder for the opponent, on the position with the turn passed
    /// (the sums along the line untouched: nothing is evaluated there).
    fn mate_threat(&mut self) -> bool {
        if !self.mate_threats
            || self.position.game_ply() + 1 >= MOVE_LIMIT
            || self.position.apply_null_move().is_err()
        {
            return false;
        }
        let threat = rsshogi::mate::solve_mate_in_one_in_place(&mut self.position).is_some();
        self.position.undo_null_move().expect("the pass just made");
        threat
    }

    /// Twice the victim's value: a piece taken is a piece in hand. A promotion is never pruned.
    fn gain(&self, mv: Move32) -> Option<Value> {
        if mv.is_promotion() {
            return None;
        }
        let victim = self.victim(mv);
        Some(if victim == Piece::NONE {
            0
        } else {
            2 * VALUES[victim.piece_type().to_index()]
        })
    }

    fn history_slot(&self, mv: Move32) -> usize {
        (mv.piece_after_move().to_index() & 31) * 81 + mv.to_sq().to_index() % 81
    }

    fn side(&self) -> usize {
        self.position.turn().to_index()
    }

    /// A multiplicative hash of each side's pawns, as chess's.
    fn structure_key(&self) -> u64 {
        let mut hash = 0u64;
        for (color, multiplier) in [
            (rsshogi::types::Color::BLACK, 0x9E37_79B9_7F4A_7C15u64),
            (rsshogi::types::Color::WHITE, 0xC2B2_AE3D_27D4_EB4F),
        ] {
            let [low, high] = self.position.pieces_for(PieceType::PAWN, color).parts();
            hash ^= (low ^ high.rotate_left(32)).wrapping_mul(multiplier);
        }
        hash
    }

    fn winning_chances(value: Value) -> f64 {
        winning_chances(value)
    }

    fn game_move(mv: Move32) -> ShogiMove {
        ShogiMove(mv.to_move().raw())
    }

    fn protocol_text(_: &Shogi, mv: ShogiMove) -> String {
        mv.usi()
    }
}

/// The engine's move in `game`.
pub(super) fn search(
    game: &Shogi,
    params: &EngineParams,
    budget: &Budget,
) -> SearchResult<ShogiMove> {
    search_keeping(game, params, budget, &mut Kept::default())
}

/// The engine's move in `game`, searched with what `kept` holds, which it then keeps. A king
/// that may declare the entering-king win declares it; a side without a legal move (a game a
/// GUI plays on past Sente's rules) has lost.
pub(super) fn search_keeping(
    game: &Shogi,
    params: &EngineParams,
    budget: &Budget,
    kept: &mut Kept,
) -> SearchResult<ShogiMove> {
    let started = Instant::now();
    if game.position.declaration_win_move() != MOVE_NONE {
        return declared(started);
    }
    if game.perft_moves().next().is_none() {
        return lost(started);
    }
    if params.without != Some(TSUME)
        && let Some(mate) = quick_mate(game, budget, started)
    {
        return mate;
    }
    kit::search_keeping::<ShogiBoard>(game, params, budget, kept)
}

/// Nodes the tsume solver may spend before each search: enough for the short mates a search
/// of checks finds at once, little beside the search's own.
const QUICK_MATE_NODES: u64 = 2_000;

/// A mate by checks that the tsume solver finds within [`QUICK_MATE_NODES`], as the engine's
/// answer: a search of every move to a depth would find it later, if at all.
fn quick_mate(game: &Shogi, budget: &Budget, started: Instant) -> Option<SearchResult<ShogiMove>> {
    let (super::mate::Tsume::Mate(line), nodes) = super::mate::solve(
        &game.position,
        budget,
        QUICK_MATE_NODES,
        super::mate::MAX_PLIES,
    ) else {
        return None;
    };
    // A mate the game would not live to see (its length limit draws it first) is none.
    if usize::from(game.position.game_ply()) + line.len() > usize::from(MOVE_LIMIT) {
        return None;
    }
    let pv: Vec<ShogiMove> = line.iter().map(|&mv| ShogiBoard::game_move(mv)).collect();
    Some(SearchResult {
        best_move: *pv.first()?,
        score: 1.0,
        exact: true,
        plies_to_end: Some(pv.len() as u32),
        nodes,
        depth: Some(pv.len() as u32),
        seldepth: Some(pv.len() as u32),
        pv,
        margin: None,
        elapsed: started.elapsed(),
        stopped_by: None,
    })
}

/// The answer where the side to move declares the entering-king win.
fn declared(started: Instant) -> SearchResult<ShogiMove> {
    SearchResult {
        best_move: ShogiMove::DECLARE,
        score: 1.0,
        exact: true,
        plies_to_end: Some(1),
        nodes: 1,
        pv: vec![ShogiMove::DECLARE],
        depth: Some(1),
        seldepth: Some(1),
        margin: None,
        elapsed: started.elapsed(),
        stopped_by: None,
    }
}

/// The answer for a position where the side to move has no move at all: lost, as shogi counts
/// it. The game contract never asks; a GUI playing on past Sente's rules may.
fn lost(started: Instant) -> SearchResult<ShogiMove> {
    SearchResult {
        best_move: ShogiMove::default(),
        score: -1.0,
        exact: true,
        plies_to_end: Some(0),
        nodes: 1,
        pv: Vec::new(),
        depth: Some(0),
        seldepth: Some(0),
        margin: None,
        elapsed: started.elapsed(),
        stopped_by: None,
    }
}

/// Every legal move (or the best `multipv`) with its value, as the kit analyses them; the
/// entering-king declaration first where it is allowed (a win at once).
pub(super) fn analyze(game: &Shogi, params: &EngineParams, budget: &Budget) -> Analysis<ShogiMove> {
    let started = Instant::now();
    let mut analysis = kit::analyze::<ShogiBoard>(game, params, budget);
    if game.position.declaration_win_move() != MOVE_NONE {
        let win = declared(started);
        analysis.moves.insert(
            0,
            MoveAnalysis {
                mv: win.best_move,
                score: win.score,
                exact: win.exact,
                plies_to_end: win.plies_to_end,
                visits: None,
                prior: None,
                value: None,
                pv: win.pv,
                margin: None,
                depth: win.depth,
            },
        );
        if let Some(lines) = params.multipv {
            analysis.moves.truncate(lines as usize);
        }
    }
    analysis
}
