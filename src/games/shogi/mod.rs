//! Shogi, with the rules of the `rsshogi` crate: move generation (drops, promotion, nifu, the
//! pawn drop that mates), repetition with perpetual check, the entering-king declaration, SFEN,
//! USI and the traditional Japanese notation are its, never ours. This file wraps its position
//! behind the game contract and adds the two rules a position alone does not end a game by: a
//! declaration's win, and the length at which a game is drawn.
//!
//! Sente (Black, moving first) is X and Gote (White) is O. Boards are SFEN; moves are written in
//! USI (`7g7f`, `8h2b+`, `P*5e`, `win` for a declaration) and answered in USI and in the KI2
//! notation that Japanese players write (`▲７六歩`), as the crate writes it.
//!
//! The board is drawn as Sente sees it: row 0 is rank `a` (Gote's back rank), column 0 is file 9.

mod engine;
mod evaluation;
mod exchange;
pub mod mate;
pub mod nnue;
mod notation;
pub mod records;
pub mod usi;

use crate::game::{Drawing, Inputs, Knowledge, LEVELS, Level, Rules};
use std::fmt;
use std::hash::{Hash, Hasher};
use std::str::FromStr;

use rsshogi::board::{MoveList, Position};
use rsshogi::movegen::generate_legal_all;
use rsshogi::types::{
    Color, EnteringKingRule, File, HandPiece, Move, Piece, PieceType, Rank, RepetitionState, Square,
};

use crate::game::{
    BoardError, Declaration, EngineDeclaration, Evaluation, Limits, MoveError, Notation, Outcome,
    Player, Protocol, Turn,
};
use crate::search::{Analysis, Budget, EngineParams, SearchResult, Solve};

/// The start: each side's nine pawns, rook, bishop and back rank, Sente to move.
pub const START: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

/// A game that reaches this many plies is drawn, as match rules cap a game's length (floodgate
/// at 256 moves, the World Computer Shogi Championship at 320): without a cap a game of two
/// engines that avoid repetition could go on for ever.
pub const MOVE_LIMIT: u16 = 512;

/// The entering-king rule: the CSA's 27-point rule, which floodgate and the computer
/// championships play.
const ENTERING_KING_RULE: EnteringKingRule = EnteringKingRule::Point27;

/// A shogi position, with the positions before it that repetition needs (the crate keeps them).
#[derive(Clone)]
pub struct Shogi {
    position: Position,
    /// The side that declared a win by the entering-king rule, which ends the game.
    declared: Option<Color>,
}

/// A legal move in some position: the crate's 16-bit move (from, to, drop, promotion), or
/// `win` for a declaration; the default is no move at all.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ShogiMove(u16);

impl ShogiMove {
    /// A declaration of a win by the entering-king rule.
    pub const DECLARE: ShogiMove = ShogiMove(Move::MOVE_WIN.raw());

    fn get(self) -> Move {
        Move::from_raw(self.0)
    }

    pub fn is_declaration(self) -> bool {
        self == ShogiMove::DECLARE
    }

    /// The move in USI.
    pub fn usi(self) -> String {
        if self.is_declaration() {
            "win".to_owned()
        } else {
            self.get().to_usi()
        }
    }
}

/// The legal moves of a position, as the crate generates them, and a declaration where it may
/// be made.
#[derive(Clone)]
pub struct ShogiMoves {
    moves: std::sync::Arc<[Move]>,
    next: usize,
}

impl Iterator for ShogiMoves {
    type Item = ShogiMove;

    #[inline]
    fn next(&mut self) -> Option<ShogiMove> {
        let mv = self.moves.get(self.next)?;
        self.next += 1;
        Some(ShogiMove(mv.raw()))
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.moves.len() - self.next;
        (left, Some(left))
    }
}

impl ExactSizeIterator for ShogiMoves {}

/// How a game of shogi ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// No legal move: in shogi the side that cannot move has lost, in check or not.
    Checkmate,
    /// Sennichite: the same position (board, hands, side to move) a fourth time.
    Repetition,
    /// A fourth repetition in which one side gave check with every move: that side loses.
    PerpetualCheck,
    /// A king in the enemy camp with enough points declared the win (the 27-point rule).
    Declaration,
    /// The game reached [`MOVE_LIMIT`] plies.
    MoveLimit,
}

impl Ending {
    pub fn name(self) -> &'static str {
        match self {
            Ending::Checkmate => "checkmate",
            Ending::Repetition => "sennichite",
            Ending::PerpetualCheck => "perpetual_check",
            Ending::Declaration => "declaration",
            Ending::MoveLimit => "move_limit",
        }
    }
}

fn player(color: Color) -> Player {
    match color {
        Color::Black => Player::X,
        Color::White => Player::O,
    }
}

/// The cell (row from the top, column from the left, as Sente sees the board) of a square.
fn cell_of(square: Square) -> (usize, usize) {
    (square.rank().to_index(), 8 - square.file().to_index())
}

/// The square of a cell.
fn square_at(row: usize, col: usize) -> Square {
    Square::from_file_rank(File::new(8 - col as i8), Rank::new(row as i8))
}

/// A piece's one-character kanji, as KIF boards draw it (成銀 as 全, 成桂 as 圭, 成香 as 杏).
pub fn kanji(piece_type: PieceType) -> char {
    const KANJI: [char; 15] = [
        ' ', '歩', '香', '桂', '銀', '角', '飛', '金', '玉', 'と', '杏', '圭', '全', '馬', '龍',
    ];
    KANJI[piece_type.to_index().min(14)]
}

/// The pieces' kanji and the letters players write them with (SFEN's, `+` for promoted).
pub const LETTERS: &[(char, &str)] = &[
    ('玉', "K"),
    ('飛', "R"),
    ('角', "B"),
    ('金', "G"),
    ('銀', "S"),
    ('桂', "N"),
    ('香', "L"),
    ('歩', "P"),
    ('龍', "+R"),
    ('馬', "+B"),
    ('全', "+S"),
    ('圭', "+N"),
    ('杏', "+L"),
    ('と', "+P"),
];

/// The pieces a hand may hold, in the order SFEN writes them.
const HAND_PIECES: [HandPiece; 7] = [
    HandPiece::ROOK,
    HandPiece::BISHOP,
    HandPiece::GOLD,
    HandPiece::SILVER,
    HandPiece::KNIGHT,
    HandPiece::LANCE,
    HandPiece::PAWN,
];

impl Shogi {
    /// Wraps a crate position, with the rules Sente plays by.
    pub fn new(mut position: Position) -> Shogi {
        position.set_entering_king_rule(ENTERING_KING_RULE);
        Shogi {
            position,
            declared: None,
        }
    }

    /// The position as the crate sees it.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// How the game ended, if it did.
    pub fn ending(&self) -> Option<Ending> {
        self.ending_and_moves(false).0
    }

    /// The ending, and the legal moves when there is none and `moves` asks for them: one move
    /// generation for both.
    fn ending_and_moves(&self, moves: bool) -> (Option<Ending>, Option<MoveList>) {
        if self.declared.is_some() {
            return (Some(Ending::Declaration), None);
        }
        match self.position.repetition_state() {
            RepetitionState::Draw => return (Some(Ending::Repetition), None),
            RepetitionState::Win | RepetitionState::Lose => {
                return (Some(Ending::PerpetualCheck), None);
            }
            _ => {}
        }
        if self.position.game_ply() > MOVE_LIMIT {
            return (Some(Ending::MoveLimit), None);
        }
        if !moves {
            return (self.position.is_mated().then_some(Ending::Checkmate), None);
        }
        let mut list = MoveList::new();
        generate_legal_all(&self.position, &mut list);
        if list.is_empty() {
            (Some(Ending::Checkmate), None)
        } else {
            (None, Some(list))
        }
    }

    /// Who won, given the ending.
    fn winner(&self, ending: Ending) -> Outcome {
        let mover = self.position.turn();
        match ending {
            Ending::Checkmate => Outcome::Won(player(mover.flip())),
            Ending::Declaration => Outcome::Won(player(self.declared.unwrap_or(mover))),
            Ending::PerpetualCheck => match self.position.repetition_state() {
                // The side to move gave every check of the cycle: it loses.
                RepetitionState::Lose => Outcome::Won(player(mover.flip())),
                _ => Outcome::Won(player(mover)),
            },
            Ending::Repetition | Ending::MoveLimit => Outcome::Draw,
        }
    }

    fn moves_from(&self, list: &MoveList) -> ShogiMoves {
        let mut moves: Vec<Move> = list.as_slice().to_vec();
        if self.position.declaration_win_move() != rsshogi::types::MOVE_NONE {
            moves.push(Move::MOVE_WIN);
        }
        ShogiMoves {
            moves: moves.into(),
            next: 0,
        }
    }

    /// Each side's pieces in hand, Sente's first, in SFEN's order.
    pub fn hands(&self) -> [Vec<(PieceType, u32)>; 2] {
        [Color::Black, Color::White].map(|color| {
            let hand = self.position.hand(color);
            HAND_PIECES
                .iter()
                .filter_map(|&piece| {
                    let count = hand.count(piece);
                    (count > 0).then(|| (piece.to_piece_type(), count))
                })
                .collect()
        })
    }

    /// The move in KI2, the notation Japanese players write (`▲７六歩`), as the crate writes it.
    pub fn ki2(&self, mv: ShogiMove) -> String {
        if mv.is_declaration() {
            return format!(
                "{}入玉宣言",
                if self.position.turn() == Color::Black {
                    "▲"
                } else {
                    "△"
                }
            );
        }
        mv.get().to_ki2(&self.position).unwrap_or_else(|| mv.usi())
    }

    /// The piece on a square, if any.
    fn piece_at(&self, square: Square) -> Option<Piece> {
        let piece = self.position.piece_on(square);
        (piece != Piece::NONE).then_some(piece)
    }
}

impl PartialEq for Shogi {
    /// Equal when the boards, hands and sides agree and so do the earlier positions that
    /// repetition compares with.
    fn eq(&self, other: &Shogi) -> bool {
        let history = |shogi: &Shogi| {
            shogi
                .position
                .state_history()
                .iter()
                .map(|state| (state.board_key(), state.hand()))
                .collect::<Vec<_>>()
        };
        self.position.key() == other.position.key()
            && self.declared == other.declared
            && self.position.game_ply() == other.position.game_ply()
            && history(self) == history(other)
    }
}

impl Eq for Shogi {}

impl Hash for Shogi {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.position.key().low_u64().hash(state);
    }
}

/// What the clock knobs mean to the shogi engine.
const CLOCK: &str = "USI's clock: the engine spends a share of its own time and increment \
                     (binc, winc) and, where byoyomi is given, all of the byoyomi once its time \
                     is gone; a time_limit_ms as well caps the move.";

/// The levels (docs/levels.md): a shallow search that strays at the bottom, the full engine
/// on its time or clock at the top.
const LEVEL_TABLE: [Level; LEVELS] = [
    Level::at_depth(1).among(10, 0.7),
    Level::at_depth(1).among(6, 0.3),
    Level::at_depth(2).among(4, 0.1),
    Level::within_nodes(3_000).among(3, 0.05),
    Level::within_nodes(10_000).among(3, 0.03),
    Level::within_nodes(20_000).among(2, 0.01),
    Level::within_nodes(60_000),
    Level::full(None),
];

/// What `sente bench` searches of shogi's engine: the start, then positions of Sente's own games
/// at depth 8 (docs/testing.md#the-search-signature).
const BENCH: crate::game::Bench = crate::game::Bench {
    positions: &[
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        "lnsgk2nl/1r3s1g1/p1ppp2pp/1p4p2/9/2P4R1/PP1PP1PPP/3G2G2/LNS1K1SNL w BPbp 18",
        "ln2kp2+B/b2sgs2l/2ppp1npg/pr4p1p/1pP6/P5RP1/1P1PPSP1P/1S1G2G2/LN2KP1NL b - 39",
        "+r3kpl2/3sgs1+B1/1bnpp1np+L/6p2/1ppP5/6RP1/1PN1PSP2/3G2G2/3GKP1N1 b L2Psl3p 73",
        "2p2pl2/3k1s1+B1/1+LPppgn+L1/9/1p1P5/2+r4P1/+p+rN1PSG2/2SG5/3LKP1N1 w BN4Pgs3p 112",
    ],
    depth: 8,
};

impl Rules for Shogi {
    type Move = ShogiMove;

    type Moves = ShogiMoves;

    const NAME: &'static str = "shogi";

    const DECLARATION: Declaration = Declaration {
        title: "Shogi",
        sides: ["Sente", "Gote"],
        moves: "USI, as \"7g7f\", \"8h2b+\" (a promotion), \"P*5e\" (a drop: the piece's \
                letter, a star, the square) or \"win\" (a declaration by the entering-king \
                rule). Answers give KI2 as well (\"▲７六歩\").",
        board: "SFEN, as \"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\" (the \
                start, the default): the ranks from a to i, Sente's pieces upper case, + for a \
                promoted piece, the side to move (b or w), the pieces in hand (- for none), the \
                move number (may be left out). The moves played from it carry the history that \
                repetition needs.",
        pieces: true,
        hands: true,
        engine_protocols: &["usi", "xshogi"],
        default_algorithm: "engine",
        tournament_games: 2,
        limits: Limits {
            // About 80 moves a ply in the middle game: three plies are half a million leaves.
            full_width_depth: Some(3),
            ..Limits::DEFAULT
        },
        engine: EngineDeclaration {
            description: "Sente's shogi engine, the engine kit's search as chess's: iterative \
                          deepening with aspiration windows, principal variation search with a \
                          transposition table, quiescence on captures and promotions, verified \
                          null moves, late move reductions, futility pruning, killer and \
                          history ordering, correction history, a tsume solver (df-pn) tried \
                          before each search, over an evaluation network learnt from its own \
                          games (NNUE; `evaluation`: standard for material, advancement and \
                          king safety set by hand) (docs/shogi.md).",
            knobs: &[
                ("level", ""),
                ("depth", ""),
                ("time_limit_ms", ""),
                ("movetime", ""),
                ("hash_mb", ""),
                ("threads", ""),
                ("nodes", ""),
                (
                    "weights",
                    "The net's weights read under a name (sente learn's generations).",
                ),
                (
                    "evaluation",
                    "The engine's own is nnue, the network learnt from Sente's games \
                     (docs/shogi.md#the-network); standard is set by hand.",
                ),
                ("wtime", CLOCK),
                ("btime", CLOCK),
                ("winc", CLOCK),
                ("binc", CLOCK),
                ("byoyomi", CLOCK),
                (
                    "multipv",
                    "The engine searches the other moves only to show they are worse.",
                ),
                (
                    "without",
                    "The kit's steps, all of them (docs/architecture.md), the static \
                     exchange shogi's own (a piece taken goes to the hand); tsume, the tsume \
                     solver's look for a mate by checks before each search \
                     (docs/shogi.md#mates); and mate_in_one, a mate in one looked for at every \
                     node not in check.",
                ),
            ],
            steps: &engine::STEP_NAMES,
            bench: BENCH,
        },
        protocols: &[Protocol {
            name: "usi",
            serve: crate::protocols::uci::serve_stdio::<usi::Usi>,
        }],
        trainer: Some(crate::learn::Trainer {
            description: "The engine's evaluation network (NNUE): 2,344 inputs a side (pieces \
                          by square, promoted ones apart, and in hand by count), 128 hidden, \
                          clipped ReLU, one output, quantised to 16 bits \
                          (docs/shogi.md#the-network).",
            train: nnue::train,
            weights: Some(nnue::WEIGHTS),
        }),
        letters: LETTERS,
        records: records::FORMATS,
        evaluation_units: Some(crate::game::EvaluationUnits::Centipawns),
        promotion_zone: Some(3),
        levels: LEVEL_TABLE,
        measured_levels: include_str!("levels.json"),
        ..Declaration::DEFAULT
    };

    /// The deepest any search looks: a game itself lasts up to [`MOVE_LIMIT`] plies.
    const MAX_PLIES: usize = 128;

    const LONGEST_GAME: Option<usize> = Some(MOVE_LIMIT as usize);

    /// The crate's 16-bit moves.
    const MOVE_IDS: usize = 1 << 16;

    fn start() -> Self {
        Shogi::new(rsshogi::board::hirate_position())
    }

    fn side_to_move(&self) -> Player {
        player(self.position.turn())
    }

    fn legal_moves(&self) -> ShogiMoves {
        match self.ending_and_moves(true) {
            (None, Some(list)) => self.moves_from(&list),
            _ => ShogiMoves {
                moves: Vec::new().into(),
                next: 0,
            },
        }
    }

    /// Every move the pieces may make, whatever repetition or the move limit say.
    fn perft_moves(&self) -> ShogiMoves {
        let mut list = MoveList::new();
        generate_legal_all(&self.position, &mut list);
        ShogiMoves {
            moves: list.as_slice().into(),
            next: 0,
        }
    }

    fn count_perft_moves(&self) -> usize {
        let mut list = MoveList::new();
        generate_legal_all(&self.position, &mut list);
        list.len()
    }

    fn play(&self, mv: ShogiMove) -> Self {
        let mut next = self.clone();
        self.play_into(mv, &mut next);
        next
    }

    #[inline]
    fn play_into(&self, mv: ShogiMove, next: &mut Self) {
        next.position.clone_from(&self.position);
        next.declared = self.declared;
        if mv.is_declaration() {
            next.declared = Some(self.position.turn());
        } else {
            let mv32 = self.position.move32_from_move(mv.get());
            next.position.apply_move32(mv32);
        }
    }

    fn turn(&self) -> Turn<ShogiMoves> {
        match self.ending_and_moves(true) {
            (Some(ending), _) => Turn::Over(self.winner(ending)),
            (None, Some(list)) => Turn::Moves(self.moves_from(&list)),
            (None, None) => Turn::Over(self.winner(Ending::Checkmate)),
        }
    }

    fn outcome(&self) -> Outcome {
        match Shogi::ending(self) {
            None => Outcome::InProgress,
            Some(ending) => self.winner(ending),
        }
    }

    fn ending(&self) -> Option<&'static str> {
        Shogi::ending(self).map(Ending::name)
    }

    fn move_id(mv: ShogiMove) -> u16 {
        mv.0
    }

    fn parse_move(&self, index: usize) -> Result<ShogiMove, MoveError> {
        if self.outcome().is_over() {
            return Err(MoveError::GameOver);
        }
        self.legal_moves()
            .find(|&mv| usize::from(Self::move_id(mv)) == index)
            .ok_or(MoveError::Illegal {
                index,
                reason: "no legal move has this id (the crate's 16-bit move): write shogi moves \
                         in USI",
            })
    }

    fn notation(&self, mv: ShogiMove) -> Notation {
        Notation::Text(mv.usi())
    }

    fn read_move(&self, written: &Notation) -> Result<ShogiMove, MoveError> {
        if Shogi::ending(self).is_some() {
            return Err(MoveError::GameOver);
        }
        match written {
            Notation::Text(text) => notation::read(self, text),
            Notation::Number(_) => Err(MoveError::Unreadable {
                written: written.to_string(),
                expected: "a shogi move is written in USI (7g7f, 8h2b+, P*5e)",
            }),
        }
    }

    /// Plies since the start of a game, from the SFEN's move number.
    fn ply(&self) -> usize {
        usize::from(self.position.game_ply().max(1)) - 1
    }

    fn plies_left(&self) -> usize {
        Self::MAX_PLIES
    }

    fn key(&self) -> u64 {
        self.position.key().low_u64() ^ u64::from(self.declared.is_some())
    }
}

impl Drawing for Shogi {
    const ROWS: usize = 9;

    const COLUMNS: usize = 9;

    fn san(&self, mv: ShogiMove) -> Option<String> {
        Some(self.ki2(mv))
    }

    fn centipawns(score: f64) -> Option<i32> {
        Some(evaluation::centipawns(score))
    }

    /// Fitted to the engine's own games at the review's own time a move
    /// (docs/review.md#the-models-on-sentes-own-games): its centipawns win a little less often
    /// than the 600-unit logistic of shogi programs says.
    const FITTED_CENTIPAWNS: Option<f64> = Some(830.0);

    /// The square the piece goes to (or is dropped on); none for a declaration.
    fn move_cell(&self, mv: ShogiMove) -> Option<(usize, usize)> {
        (!mv.is_declaration()).then(|| cell_of(mv.get().to_sq()))
    }

    fn move_origin(&self, mv: ShogiMove) -> Option<(usize, usize)> {
        let mv = mv.get();
        (!mv.is_drop() && mv.is_normal()).then(|| cell_of(mv.from_sq()))
    }

    fn move_drop(&self, mv: ShogiMove) -> Option<char> {
        mv.get().dropped_piece().map(kanji)
    }

    fn cell(&self, row: usize, col: usize) -> Option<(Player, char)> {
        let piece = self.piece_at(square_at(row, col))?;
        Some((player(piece.color()), kanji(piece.piece_type())))
    }

    fn hand(&self, side: Player) -> Vec<(char, u32)> {
        let [sente, gote] = self.hands();
        let hand = if side == Player::X { sente } else { gote };
        hand.into_iter()
            .map(|(piece, count)| (kanji(piece), count))
            .collect()
    }
}

impl Knowledge for Shogi {
    const REACHABLE_POSITIONS: Option<usize> = None;

    const EVALUATIONS: &'static [Evaluation<Self>] = evaluation::EVALUATIONS;

    fn move_priority(&self, mv: ShogiMove) -> i32 {
        evaluation::move_priority(&self.position, mv.get())
    }

    fn is_tactical(&self, mv: ShogiMove) -> bool {
        let mv = mv.get();
        self.position.is_in_check()
            || mv.is_promotion()
            || (!mv.is_drop() && self.position.is_capture_move(mv))
    }
}

impl Inputs for Shogi {}

impl Solve for Shogi {
    type Memory = engine::Kept;

    fn engine_remembering(
        &self,
        params: &EngineParams,
        budget: &Budget,
        memory: &mut engine::Kept,
    ) -> SearchResult<ShogiMove> {
        engine::search_keeping(self, params, budget, memory)
    }

    fn solve(
        &self,
        time_limit: Option<std::time::Duration>,
        budget: &Budget,
    ) -> SearchResult<ShogiMove> {
        let params = EngineParams {
            time_limit,
            ..EngineParams::default()
        };
        engine::search(self, &params, budget)
    }

    fn solver_analysis(
        &self,
        time_limit: Option<std::time::Duration>,
        budget: &Budget,
    ) -> Analysis<ShogiMove> {
        let params = EngineParams {
            time_limit,
            ..EngineParams::default()
        };
        engine::analyze(self, &params, budget)
    }

    fn warm_up() {}

    fn engine(&self, params: &EngineParams, budget: &Budget) -> SearchResult<ShogiMove> {
        engine::search(self, params, budget)
    }

    fn engine_analysis(&self, params: &EngineParams, budget: &Budget) -> Analysis<ShogiMove> {
        engine::analyze(self, params, budget)
    }
}

impl FromStr for Shogi {
    type Err = BoardError;

    fn from_str(text: &str) -> Result<Self, BoardError> {
        notation::read_sfen(text).map(Shogi::new)
    }
}

/// The SFEN.
impl fmt::Display for Shogi {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.position.to_sfen(None))
    }
}

impl fmt::Debug for Shogi {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Shogi({self})")
    }
}

#[cfg(test)]
mod tests;
