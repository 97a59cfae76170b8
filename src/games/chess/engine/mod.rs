//! The chess engine: the engine kit's search (`crate::search::engine`) on chess, Sente's
//! strongest chess player. This file is chess's side of the kit's contract; the search, its
//! table, ordering, pruning and time plan are the kit's.
//!
//! What is chess's own:
//! - copy-make: shakmaty's positions are small values, so each ply's is a copy of its parent's
//!   with the move played, kept on a stack, and taking a move back is stepping down the stack;
//! - the Zobrist key brought up to date move by move ([`super::key`]), and the keys of the
//!   line and of the game since its last capture or pawn move, for repetitions;
//! - the evaluation: the network learnt from Sente's games, its sums kept move by move
//!   ([`super::nnue`]), or PeSTO's tables with the terms beyond them (the `terms` step), or
//!   the tutorial's material;
//! - the static exchange evaluation ([`exchange`]) that ranks captures and prunes bad ones;
//! - draws by repetition (within the game and the search line), the fifty-move rule and
//!   insufficient material; a stalemate is a draw; the null move is not tried without pieces
//!   (where zugzwang is common).

mod exchange;

use std::sync::Arc;

use shakmaty::zobrist::{Zobrist64, ZobristValue};
use shakmaty::{Move, Position, Role, Square};

use self::exchange::{exchange, value};
use super::evaluation::{self, winning_chances};
use super::nnue::{
    self,
    accumulator::{self, Changes, Stack},
};
use super::{Chess, ChessMove, key};
use crate::game::{Knowledge, Rules};
use crate::search::engine::{self as kit, Board, Step};
use crate::search::{EngineParams, EvaluationIndex, Value, WIN};

/// The evaluation the engine uses when a request names none: the network, which beat `pesto`
/// in an SPRT at a time per move (docs/chess.md#the-network).
pub const DEFAULT_EVALUATION: &str = "nnue";

/// Chess's own step, beside the kit's: the evaluation's terms beyond PeSTO's tables (mobility,
/// king safety, pawn structure, passed pawns, the bishop pair).
pub const TERMS: &str = "terms";

/// The kit's steps chess takes: every one.
const STEPS: [Step; 9] = Step::ALL;

/// Every step `without` may turn off on chess: the kit's, then its own.
pub const STEP_NAMES: [&str; 10] = Step::names(&STEPS, &[TERMS]);

/// What the engine keeps from one move to the next of a game (`sente uci`).
pub type Kept = kit::Kept<ChessBoard>;

/// What the engine scores its positions with: one of the game's evaluations, by the name the
/// `evaluation` knob gives it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Scorer {
    /// The network learnt from Sente's games, its sums kept move by move ([`nnue`]).
    Network,
    /// PeSTO's tables, with the engine's terms beyond them unless `without=terms`.
    Pesto { terms: bool },
    /// The tutorial's material count.
    Material,
}

impl Scorer {
    /// The scorer of the game's evaluation number `index`, the engine's own without one.
    fn of(index: Option<EvaluationIndex>, without: Option<&str>) -> Scorer {
        let evaluation = index.and_then(|index| Chess::EVALUATIONS.get(usize::from(index)));
        match evaluation.map_or(DEFAULT_EVALUATION, |evaluation| evaluation.name) {
            "nnue" => Scorer::Network,
            "material" => Scorer::Material,
            _ => Scorer::Pesto {
                terms: without != Some(TERMS),
            },
        }
    }
}

/// A chess position as the engine searches it: the stack of the line's positions and keys.
pub struct ChessBoard {
    /// The position at each ply of the line, the root's first; `ply` is the current one.
    positions: Vec<shakmaty::Chess>,
    keys: Vec<u64>,
    ply: usize,
    /// The keys of the positions before the current one: the game's since its last capture or
    /// pawn move, then the line's.
    earlier: Vec<u64>,
    /// How many of `earlier` are the game's, before the root: the root is the next.
    history: usize,
    /// Where in `earlier` the last null move was: no position before it can be repeated,
    /// since a null move is no move of the game; and the barriers the null moves above it
    /// replaced.
    null_barrier: usize,
    barriers: Vec<usize>,
    scorer: Scorer,
    /// The network and its sums along the line, when it scores.
    network: Arc<nnue::Network>,
    sums: Option<Stack>,
}

impl ChessBoard {
    fn position(&self) -> &shakmaty::Chess {
        &self.positions[self.ply]
    }

    /// Whether the current position is drawn by repetition, as Stockfish counts it: it repeats
    /// one of the line below the root (the side that repeated can repeat again, so the line is
    /// a draw), or it is the third time the game and the line reach it (the rule's threefold).
    /// A position the game reached once before the search is not a draw on its second time:
    /// the side to move there need not repeat, and a review that counted it so would call a
    /// check that gives the other side a repetition it cannot force a blunder. Only positions
    /// since the last capture or pawn move (or null move) can repeat, and only every second one
    /// has the same side to move.
    fn repeats(&self) -> bool {
        let key = self.keys[self.ply];
        let halfmoves = self.position().halfmoves() as usize;
        let reach = halfmoves.min(self.earlier.len() - self.null_barrier);
        let first = self.earlier.len() - reach;
        let mut before_the_line = 0;
        for (index, &earlier) in self
            .earlier
            .iter()
            .enumerate()
            .skip(first)
            .rev()
            .skip(1)
            .step_by(2)
        {
            if earlier != key {
                continue;
            }
            if index > self.history {
                return true;
            }
            before_the_line += 1;
            if before_the_line == 2 {
                return true;
            }
        }
        false
    }

    /// Gives the next ply a slot, where the line goes that deep for the first time: the
    /// stack grows once, and then each move is copied into its slot.
    fn reserve_next(&mut self) {
        if self.positions.len() == self.ply + 1 {
            self.positions.push(self.positions[self.ply].clone());
            self.keys.push(0);
        }
    }

    /// Steps down to the next ply, its slot filled.
    fn descend(&mut self) {
        self.earlier.push(self.keys[self.ply]);
        self.ply += 1;
    }
}

/// A move in the table, in 23 bits: its kind (2), then the squares (6 each) and the roles (3
/// each, 0 for none) the kind has, so that it unpacks without the position.
impl kit::Packed for Move {
    fn pack(self) -> u32 {
        let bits = |role: Option<Role>| role.map_or(0, |role| role as u32);
        let (kind, moved, from, capture, to, promotion) = match self {
            Move::Normal {
                role: moved,
                from,
                capture,
                to,
                promotion,
            } => (0, Some(moved), from, capture, to, promotion),
            Move::EnPassant { from, to } => (1, None, from, None, to, None),
            Move::Castle { king, rook } => (2, None, king, None, rook, None),
            Move::Put { role: put, to } => (3, Some(put), to, None, to, None),
        };
        kind | bits(moved) << 2
            | u32::from(from) << 5
            | bits(capture) << 11
            | u32::from(to) << 14
            | bits(promotion) << 20
    }

    fn unpack(bits: u32) -> Move {
        let square = |shift: u32| Square::new(bits >> shift & 63);
        let role = |shift: u32| match bits >> shift & 7 {
            0 => None,
            role => Some(Role::ALL[role as usize - 1]),
        };
        let (from, to) = (square(5), square(14));
        match bits & 3 {
            0 => Move::Normal {
                role: role(2).unwrap_or(Role::Pawn),
                from,
                capture: role(11),
                to,
                promotion: role(20),
            },
            1 => Move::EnPassant { from, to },
            2 => Move::Castle {
                king: from,
                rook: to,
            },
            _ => Move::Put {
                role: role(2).unwrap_or(Role::Pawn),
                to,
            },
        }
    }
}

impl Board for ChessBoard {
    type Game = Chess;
    type Move = Move;

    const STEPS: &'static [Step] = &STEPS;
    /// For each side, from square and to square.
    const HISTORY_SLOTS: usize = 2 * 64 * 64;

    fn new(game: &Chess, params: &EngineParams) -> ChessBoard {
        let scorer = Scorer::of(params.evaluation, params.without);
        let network = nnue::playing(params.weights.as_ref());
        let plies = Chess::MAX_PLIES + 2;
        let mut positions = Vec::with_capacity(plies);
        positions.push(game.position().clone());
        let mut keys = Vec::with_capacity(plies);
        keys.push(game.key);
        let earlier = game.earlier_keys();
        ChessBoard {
            positions,
            keys,
            ply: 0,
            history: earlier.len(),
            earlier,
            null_barrier: 0,
            barriers: Vec::new(),
            sums: (scorer == Scorer::Network)
                .then(|| Stack::new(accumulator::of(&network, game.position().board()), plies)),
            network,
            scorer,
        }
    }

    fn key(&self) -> u64 {
        self.keys[self.ply]
    }

    fn in_check(&self) -> bool {
        self.position().is_check()
    }

    fn legal_moves(&self, moves: &mut Vec<Move>) {
        moves.extend(self.position().legal_moves());
    }

    fn noisy_moves(&self, moves: &mut Vec<Move>) {
        moves.extend(
            self.position()
                .legal_moves()
                .into_iter()
                .filter(|mv| mv.is_capture() || mv.promotion() == Some(Role::Queen)),
        );
    }

    fn is_quiet(&self, mv: Move) -> bool {
        !mv.is_capture() && mv.promotion().is_none()
    }

    fn make(&mut self, mv: Move) {
        self.reserve_next();
        let ply = self.ply;
        // The child is written over its slot, copied from its parent and moved: no position
        // is built elsewhere and moved in.
        let (parents, children) = self.positions.split_at_mut(ply + 1);
        let (before, after) = (&parents[ply], &mut children[0]);
        after.clone_from(before);
        after.play_unchecked(mv);
        self.keys[ply + 1] = key::after(before, self.keys[ply], mv, after);
        if let Some(sums) = &mut self.sums {
            sums.push(ply + 1, accumulator::changes(before.turn(), &mv));
        }
        self.descend();
    }

    fn unmake(&mut self, _: Move) {
        self.ply -= 1;
        self.earlier.pop();
    }

    fn make_null(&mut self) -> bool {
        let position = self.position();
        let Ok(passed) = position.clone().swap_turn() else {
            return false;
        };
        let mut passed_key = Zobrist64(self.keys[self.ply]) ^ Zobrist64::zobrist_for_white_turn();
        if let Some(square) = position.legal_ep_square() {
            passed_key ^= Zobrist64::zobrist_for_en_passant_file(square.file());
        }
        if let Some(sums) = &mut self.sums {
            sums.push(self.ply + 1, Changes::NONE);
        }
        self.reserve_next();
        self.positions[self.ply + 1] = passed;
        self.keys[self.ply + 1] = passed_key.0;
        self.descend();
        self.barriers.push(self.null_barrier);
        self.null_barrier = self.earlier.len();
        true
    }

    fn unmake_null(&mut self) {
        self.null_barrier = self.barriers.pop().unwrap_or(0);
        self.ply -= 1;
        self.earlier.pop();
    }

    fn evaluate(&mut self) -> Value {
        let position = &self.positions[self.ply];
        match (self.scorer, &mut self.sums) {
            (Scorer::Network, Some(sums)) => {
                let network = &*self.network;
                network.evaluate(sums.at(network, self.ply), nnue::side(position.turn()))
            }
            (Scorer::Network, None) => nnue::evaluate_with(&self.network, position),
            (Scorer::Pesto { terms: true }, _) => evaluation::engine(position),
            (Scorer::Pesto { terms: false }, _) => evaluation::pesto(position),
            (Scorer::Material, _) => evaluation::material(position),
        }
    }

    fn decided(&self, _: usize, quiescence: bool) -> Option<Value> {
        let position = self.position();
        let drawn = Chess::lacks_mating_material(position)
            || (!quiescence && (position.halfmoves() >= 100 || self.repeats()));
        drawn.then_some(0)
    }

    fn no_moves(&self, in_check: bool, ply: usize) -> Value {
        if in_check { -(WIN - ply as Value) } else { 0 }
    }

    /// Whether the side to move has a piece other than pawns and its king: without one,
    /// zugzwang (where passing would be best) is common, and the null move's reasoning fails.
    fn null_move_safe(&self) -> bool {
        let board = self.position().board();
        let ours = board.by_color(self.position().turn());
        (ours & !(board.pawns() | board.kings())).any()
    }

    fn rank_noisy(&self, mv: Move, exchanges: bool) -> (i32, bool) {
        let victim = mv.capture().map_or(0, value);
        let promotion = mv.promotion().map_or(0, value);
        let attacker = value(mv.role());
        let order = 16 * (victim + promotion) - attacker / 10;
        // Taking a piece worth at least the taker cannot lose by exchange.
        let loses = exchanges && attacker > victim + promotion && exchange(self.position(), mv) < 0;
        let under_promotion = mv.promotion().is_some_and(|role| role != Role::Queen);
        (order, loses || under_promotion)
    }

    fn exchange(&self, mv: Move) -> Value {
        exchange(self.position(), mv)
    }

    fn gain(&self, mv: Move) -> Option<Value> {
        Some(mv.capture().map_or(0, value) + mv.promotion().map_or(0, |role| value(role) - 100))
    }

    fn history_slot(&self, mv: Move) -> usize {
        let from = mv.from().map_or(0, usize::from);
        (self.side() * 64 + from) * 64 + usize::from(mv.to())
    }

    fn side(&self) -> usize {
        self.position().turn() as usize
    }

    /// A multiplicative hash of each side's pawns: odd constants spread the bits upward.
    fn structure_key(&self) -> u64 {
        let board = self.position().board();
        let pawns = board.pawns();
        let white = (pawns & board.white()).0;
        let black = (pawns & board.black()).0;
        white.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ black.wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
    }

    fn winning_chances(value: Value) -> f64 {
        winning_chances(value)
    }

    fn game_move(mv: Move) -> ChessMove {
        ChessMove(Some(mv))
    }

    fn protocol_text(_: &Chess, mv: ChessMove) -> String {
        Chess::uci_of(mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(fen: &str) -> ChessBoard {
        ChessBoard::new(&fen.parse().unwrap(), &EngineParams::default())
    }

    #[test]
    fn positions_with_the_same_pawns_share_a_structure() {
        let start = board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        let knight_out = board("rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1");
        let pawn_out = board("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
        assert_eq!(start.structure_key(), knight_out.structure_key());
        assert_ne!(start.structure_key(), pawn_out.structure_key());
    }

    /// The game's and the line's moves alike, as SAN.
    fn after(game: &Chess, sans: &[&str]) -> Chess {
        sans.iter().fold(game.clone(), |game, san| {
            let mv = game
                .read_move(&crate::game::Notation::Text((*san).to_owned()))
                .unwrap();
            game.play(mv)
        })
    }

    /// Stockfish's repetition: a position the line repeats is a draw; one the game reached
    /// before the search only on its third time, not its second (its side to move need not
    /// repeat again, and the other side cannot make it).
    #[test]
    fn a_repetition_of_the_games_positions_is_a_draw_on_its_third_time() {
        let knights = ["Nf3", "Nf6", "Ng1", "Ng8"];
        let search_from = |played: &[&str], line: &[&str]| {
            let game = after(&Chess::start(), played);
            let mut board = ChessBoard::new(&game, &EngineParams::default());
            let mut position = game;
            for san in line {
                let mv = position
                    .read_move(&crate::game::Notation::Text((*san).to_owned()))
                    .unwrap();
                board.make(mv.get());
                position = position.play(mv);
            }
            board.repeats()
        };
        // The start, reached a second time: once before the search, once in its line.
        assert!(!search_from(&knights[..3], &knights[3..]));
        assert!(!search_from(&[], &knights));
        // A third time.
        let twice: Vec<&str> = knights.iter().chain(&knights[..3]).copied().collect();
        assert!(search_from(&twice, &knights[3..]));
        // A position the line itself reached before, below its root.
        assert!(search_from(&[], &["Nf3", "Nf6", "Ng1", "Ng8", "Nf3"]));
    }

    #[test]
    fn a_move_and_its_taking_back_leave_the_board_as_it_was() {
        let mut board =
            board("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
        let (key, position) = (board.key(), board.position().clone());
        let mut moves = Vec::new();
        board.legal_moves(&mut moves);
        for mv in moves {
            board.make(mv);
            assert_eq!(board.key(), key::of(board.position()), "{mv}");
            board.unmake(mv);
            assert_eq!((board.key(), board.position()), (key, &position));
        }
        assert!(board.make_null());
        board.unmake_null();
        assert_eq!(board.key(), key);
    }
}
