//! Chess, with the rules of lichess's `shakmaty` crate: move generation, FEN, UCI and SAN are
//! its, never ours. This file wraps its position behind the game contract and adds what a
//! position alone does not know: the history that threefold repetition needs.
//!
//! White is X (it moves first) and Black is O. Boards are FEN; moves are written in UCI
//! (`e2e4`, `e7e8q`, castling as the king's move `e1g1`) and read in UCI or SAN.

pub mod book;
mod engine;
mod evaluation;
mod fen;
mod key;
pub mod nnue;
mod pgn;
mod terms;
pub mod uci;

use crate::game::{Drawing, Inputs, Knowledge, LEVELS, Level, Rules};
use std::fmt;
use std::hash::{Hash, Hasher};
use std::str::FromStr;
use std::sync::Arc;

use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Color, EnPassantMode, Position, Role};

use crate::game::{
    BoardError, Declaration, EngineDeclaration, Evaluation, Limits, MoveError, Notation, Outcome,
    Player, Protocol, Turn,
};
use crate::learn::Trainer;
use crate::search::Solve;

pub use engine::{ChessBoard, Kept, STEP_NAMES, TERMS};

/// A chess position and the keys of the positions before it that it could repeat.
#[derive(Clone)]
pub struct Chess {
    position: shakmaty::Chess,
    /// The Zobrist key of `position`, kept up to date move by move.
    key: u64,
    /// The positions since the last capture or pawn move, most recent first: only those can
    /// repeat, since those moves cannot be undone. Shared between the positions of a game, so
    /// that a move adds one link rather than copying the list, and between siblings: their
    /// link is the same, their parent's key before their parent's history. Read through
    /// [`Chess::earlier`], since a position after a capture or pawn move keeps whatever link
    /// its slot held (see [`Rules::play_into`]).
    history: Option<Arc<Link>>,
    /// Whether a draw that could be claimed here was not ([`Rules::play_on`]): the position is
    /// analysed rather than ended. Its children are ended by the rules again.
    playing_on: bool,
}

/// One earlier position of a game, and the one before it.
struct Link {
    key: u64,
    previous: Option<Arc<Link>>,
}

/// A legal move in some position; the default is no move at all (an empty slot of the
/// searches' tables).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ChessMove(Option<shakmaty::Move>);

impl ChessMove {
    fn get(self) -> shakmaty::Move {
        self.0.expect("a move the position generated")
    }
}

/// The legal moves of a position.
pub type ChessMoves =
    std::iter::Map<<shakmaty::MoveList as IntoIterator>::IntoIter, fn(shakmaty::Move) -> ChessMove>;

/// How a game of chess ended, when the rules ended it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    Checkmate,
    Stalemate,
    InsufficientMaterial,
    FiftyMoveRule,
    ThreefoldRepetition,
}

impl Ending {
    pub fn name(self) -> &'static str {
        match self {
            Ending::Checkmate => "checkmate",
            Ending::Stalemate => "stalemate",
            Ending::InsufficientMaterial => "insufficient_material",
            Ending::FiftyMoveRule => "fifty_move_rule",
            Ending::ThreefoldRepetition => "threefold_repetition",
        }
    }
}

/// A square's (row, column) as the board is drawn, from White's side: the eighth rank is row 0.
fn drawn(square: shakmaty::Square) -> (usize, usize) {
    (7 - usize::from(square.rank()), usize::from(square.file()))
}

fn player(color: Color) -> Player {
    match color {
        Color::White => Player::X,
        Color::Black => Player::O,
    }
}

impl Chess {
    /// Wraps a shakmaty position, which has no history.
    pub fn new(position: shakmaty::Chess) -> Chess {
        Chess {
            key: key::of(&position),
            position,
            history: None,
            playing_on: false,
        }
    }

    /// The position as shakmaty sees it.
    pub fn position(&self) -> &shakmaty::Chess {
        &self.position
    }

    /// The Zobrist key of the board alone, as the engine keys its table.
    pub fn zobrist(&self) -> u64 {
        self.key
    }

    /// The positions before this one that it could repeat, most recent first.
    fn earlier(&self) -> Option<&Arc<Link>> {
        if self.position.halfmoves() == 0 {
            None
        } else {
            self.history.as_ref()
        }
    }

    /// Plays `mv` on `next`, which holds this position's board: the board, its key, and the
    /// history's link.
    #[inline]
    fn advance(&self, mv: ChessMove, next: &mut Chess) {
        let mv = mv.get();
        next.position.play_unchecked(mv);
        next.key = key::after(&self.position, self.key, mv, &next.position);
        next.playing_on = false;
        // A capture or a pawn move starts the clock again, and nothing before it can repeat:
        // the slot's link is then left as it is, unread. Otherwise the link is this position's
        // key before its history, which the slot already holds when it held a sibling: a node's
        // children share one link, allocated once.
        if next.position.halfmoves() > 0 {
            let earlier = self.earlier();
            let held = next.history.as_ref().is_some_and(|link| {
                link.key == self.key
                    && match (&link.previous, earlier) {
                        (Some(previous), Some(earlier)) => Arc::ptr_eq(previous, earlier),
                        (None, None) => true,
                        _ => false,
                    }
            });
            if !held {
                next.history = Some(Arc::new(Link {
                    key: self.key,
                    previous: earlier.cloned(),
                }));
            }
        }
    }

    /// The keys of the positions before this one that it could repeat, oldest first.
    pub(crate) fn earlier_keys(&self) -> Vec<u64> {
        let mut keys = Vec::with_capacity(256);
        let mut link = self.earlier().map(Arc::as_ref);
        while let Some(earlier) = link {
            keys.push(earlier.key);
            link = earlier.previous.as_deref();
        }
        keys.reverse();
        keys
    }

    /// Whether neither side can mate: checked first by what is cheapest and almost always
    /// settles it (a pawn, rook or queen on the board means mate is possible).
    pub(crate) fn lacks_mating_material(position: &shakmaty::Chess) -> bool {
        let board = position.board();
        (board.pawns() | board.rooks_and_queens()).is_empty() && position.is_insufficient_material()
    }

    /// How many times this position occurred before, with the same side to move.
    pub fn repetitions(&self) -> usize {
        let mut count = 0;
        let mut link = self.earlier().map(Arc::as_ref);
        let mut parity = true;
        while let Some(earlier) = link {
            // Only every second position has the same side to move.
            if !parity && earlier.key == self.key {
                count += 1;
            }
            parity = !parity;
            link = earlier.previous.as_deref();
        }
        count
    }

    /// Whether a rule other than mate ends the game here: checked before the moves are
    /// generated, since it needs none of them. A third occurrence needs eight reversible plies
    /// since the last capture or pawn move (out and back is four plies for each side's piece).
    fn drawn_by_rule(&self) -> Option<Ending> {
        if Chess::lacks_mating_material(&self.position) {
            Some(Ending::InsufficientMaterial)
        } else if self.playing_on {
            None
        } else {
            self.claim()
        }
    }

    /// The draw a player may claim here: fifty moves without a capture or a pawn move, or the
    /// position's third occurrence.
    fn claim(&self) -> Option<Ending> {
        let halfmoves = self.position.halfmoves();
        if halfmoves >= 100 {
            Some(Ending::FiftyMoveRule)
        } else if halfmoves >= 8 && self.repetitions() >= 2 {
            Some(Ending::ThreefoldRepetition)
        } else {
            None
        }
    }

    /// How the game ended, if it did. Mate on the move that reaches the fiftieth move stands.
    pub fn ending(&self) -> Option<Ending> {
        if self.position.legal_moves().is_empty() {
            Some(if self.position.is_check() {
                Ending::Checkmate
            } else {
                Ending::Stalemate
            })
        } else {
            self.drawn_by_rule()
        }
    }

    /// The shakmaty move a notation names: UCI first, then SAN.
    fn read(&self, text: &str) -> Result<shakmaty::Move, MoveError> {
        let written = text.trim();
        // Castling written with zeros, as in FIDE's handbook and many books.
        let text = match written.strip_prefix("0-0") {
            Some(rest) => &format!("O-O{}", rest.replace("-0", "-O")),
            None => written,
        };
        if let Ok(uci) = UciMove::from_ascii(text.as_bytes()) {
            return uci
                .to_move(&self.position)
                .map_err(|_| MoveError::Unreadable {
                    written: format!("{written:?}"),
                    expected: if self.promotes_without_a_piece(&uci) {
                        "a pawn that reaches the last rank promotes: add the piece it becomes, q, \
                     r, b or n (e7e8q)"
                    } else {
                        "it is not a legal move in this position"
                    },
                });
        }
        let san = SanPlus::from_ascii(text.as_bytes()).map_err(|_| MoveError::Unreadable {
            written: format!("{written:?}"),
            expected: "a chess move is written in UCI (e2e4, e7e8q) or SAN (e4, Nf3, O-O, e8=Q)",
        })?;
        san.san
            .to_move(&self.position)
            .map_err(|error| MoveError::Unreadable {
                written: format!("{written:?}"),
                expected: match error {
                    shakmaty::san::SanError::AmbiguousSan => {
                        "it could be more than one legal move here: name the piece's file or rank"
                    }
                    shakmaty::san::SanError::IllegalSan => {
                        "it is not a legal move in this position"
                    }
                },
            })
    }

    /// Whether `uci` moves a pawn to the last rank without saying what it becomes, where it
    /// would be legal with a piece.
    fn promotes_without_a_piece(&self, uci: &UciMove) -> bool {
        match *uci {
            UciMove::Normal {
                from,
                to,
                promotion: None,
            } => UciMove::Normal {
                from,
                to,
                promotion: Some(shakmaty::Role::Queen),
            }
            .to_move(&self.position)
            .is_ok(),
            _ => false,
        }
    }

    /// The move in standard algebraic notation, with its check or mate sign.
    pub fn san_of(&self, mv: ChessMove) -> String {
        SanPlus::from_move(self.position.clone(), mv.get()).to_string()
    }

    /// The move in UCI.
    pub fn uci_of(mv: ChessMove) -> String {
        UciMove::from_move(mv.get(), CastlingMode::Standard).to_string()
    }
}

impl PartialEq for Chess {
    fn eq(&self, other: &Chess) -> bool {
        let keys = |chess: &Chess| {
            let mut keys = Vec::new();
            let mut link = chess.earlier().map(Arc::as_ref);
            while let Some(earlier) = link {
                keys.push(earlier.key);
                link = earlier.previous.as_deref();
            }
            keys
        };
        self.key == other.key && self.position == other.position && keys(self) == keys(other)
    }
}

impl Eq for Chess {}

impl Hash for Chess {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.key.hash(state);
        self.position.halfmoves().hash(state);
    }
}

/// What the clock knobs (wtime, btime, winc, binc, movestogo) mean to this game's engine.
const CLOCK: &str = "The chess engine shares out the clock of the side to move itself, spending \
                     more where the position needs it (docs/chess.md#time); a time_limit_ms as \
                     well caps the move.";

/// The levels (docs/levels.md): a one-ply look among ten moves at the bottom, the full engine
/// on its time or clock at the top. The ratings are what the levels measured against outside
/// engines at 100 ms a move: levels 4 and 5 against Stockfish 15.1's `UCI_Elo` 1350 (its
/// floor), 6 to 8 against the ladder's Fairy-Max and Phalanx (CCRL 40/15); the three below
/// Stockfish's floor have no outside opponent to rate them, and `elo` below level 4's plays it.
const LEVEL_TABLE: [Level; LEVELS] = [
    Level::at_depth(1).among(10, 0.7),
    Level::at_depth(1).among(6, 0.55),
    Level::at_depth(2).among(4, 0.1),
    Level::at_depth(3).among(4, 0.06).rated(1359),
    Level::within_nodes(4_000).among(3, 0.03).rated(1530),
    Level::within_nodes(8_000).among(2, 0.01).rated(2153),
    Level::within_nodes(40_000).rated(2315),
    Level::full(None).rated(2553),
];

/// What `sente bench` searches of chess's engine: the start, five positions of Stockfish's
/// bench, then positions of Sente's own games, at depth 12
/// (docs/testing.md#the-search-signature).
const BENCH: crate::game::Bench = crate::game::Bench {
    positions: &[
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 11",
        "4rrk1/pp1n3p/3q2pQ/2p1pb2/2PP4/2P3N1/P2B2PP/4RRK1 b - - 7 19",
        "r3r1k1/2p2ppp/p1p1bn2/8/1q2P3/2NPQN2/PPP3PP/R4RK1 b - - 2 15",
        "r1bbk1nr/pp3p1p/2n5/1N4p1/2Np1B2/8/PPP2PPP/2KR1B1R w kq - 0 13",
        "rn1k2nr/p1p3pp/bp2pp2/8/2PPqP2/P4N2/P4KPP/R1BQ1B1R w - - 5 10",
        "7r/p1pk4/3nRB2/1rnP1P1p/2p5/P4N2/P4K1P/2R5 b - - 0 24",
        "8/2R5/4k3/p7/8/7K/r6P/8 b - - 0 42",
    ],
    depth: 12,
};

impl Rules for Chess {
    type Move = ChessMove;

    type Moves = ChessMoves;

    const NAME: &'static str = "chess";

    const DECLARATION: Declaration = Declaration {
        title: "Chess",
        sides: ["White", "Black"],
        moves: "UCI, as \"e2e4\", \"e7e8q\" (a promotion) or \"e1g1\" (castling, the king's move); \
                SAN is also read (\"e4\", \"Nf3\", \"O-O\", \"e8=Q\"). Answers give both.",
        board: "FEN, as \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\" (the start, \
                the default); the move clocks may be left out. The moves played from it carry \
                the history that threefold repetition needs.",
        pieces: true,
        uci: true,
        engine_protocols: &["uci", "xboard"],
        default_algorithm: "engine",
        // A default engine thinks for a second a move, and a game lasts dozens of moves.
        tournament_games: 2,
        limits: Limits {
            // About 35 moves a ply: four plies are 1.5 million leaves, five would be 50 million.
            full_width_depth: Some(4),
            ..Limits::DEFAULT
        },
        engine: EngineDeclaration {
            description: "Sente's chess engine: iterative deepening principal variation search \
                          with aspiration windows, quiescence, a transposition table, null-move \
                          pruning, late move reductions, futility pruning and static exchange \
                          evaluation, over PeSTO's tables and terms for mobility, pawns and king \
                          safety, or a network learnt from Sente's own games (docs/chess.md).",
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
                    "The engine's: nnue, the network learnt from Sente's own games, kept move \
                     by move; pesto, PeSTO's tables and the engine's terms beyond them; or \
                     material. Absent: nnue.",
                ),
                ("wtime", CLOCK),
                ("btime", CLOCK),
                ("winc", CLOCK),
                ("binc", CLOCK),
                ("movestogo", CLOCK),
                (
                    "without",
                    "Chess's steps: aspiration windows, null-move pruning, its verification, late move \
                     reductions, reverse futility pruning, late move and futility pruning, \
                     static exchange evaluation, the evaluation's terms beyond PeSTO's \
                     tables, spending the whole of a time per move (whole_time), or correction \
                     history.",
                ),
                (
                    "multipv",
                    "The engine searches the other moves only to show they are worse, and \
                     stops once every line asked for is proven.",
                ),
                (
                    "elo",
                    "Between the two levels around it, as docs/levels.md rates them against \
                     Stockfish and the ladder (1,359 to 2,553): below 1,359 level 4, above \
                     2,553 the full engine.",
                ),
            ],
            steps: &STEP_NAMES,
            bench: BENCH,
        },
        books: &book::BOOKS,
        protocols: &[Protocol {
            name: "uci",
            serve: crate::protocols::uci::serve_stdio::<uci::Uci>,
        }],
        trainer: Some(Trainer {
            description: "The engine's evaluation network (NNUE): 768 inputs a side, 128 \
                          hidden, clipped ReLU, one output, quantised to 16 bits \
                          (docs/chess.md#the-network).",
            train: nnue::train,
            weights: Some(nnue::WEIGHTS),
        }),
        records: &[pgn::FORMAT],
        evaluation_units: Some(crate::game::EvaluationUnits::Pawns),
        levels: LEVEL_TABLE,
        measured_levels: include_str!("levels.json"),
        ..Declaration::DEFAULT
    };

    /// The deepest any search looks: a chess game itself may last far longer.
    const MAX_PLIES: usize = 128;

    /// From square times 64 plus to square, plus 4096 times the promotion piece (1 knight to
    /// 4 queen).
    const MOVE_IDS: usize = 5 * 4096;

    fn start() -> Self {
        Chess::new(shakmaty::Chess::default())
    }

    fn side_to_move(&self) -> Player {
        player(self.position.turn())
    }

    fn legal_moves(&self) -> ChessMoves {
        let moves = if self.drawn_by_rule().is_some() {
            shakmaty::MoveList::new()
        } else {
            self.position.legal_moves()
        };
        moves.into_iter().map(|mv| ChessMove(Some(mv)))
    }

    /// shakmaty's legal moves: perft counts through the draws by rule.
    fn perft_moves(&self) -> ChessMoves {
        self.position
            .legal_moves()
            .into_iter()
            .map(|mv| ChessMove(Some(mv)))
    }

    fn count_perft_moves(&self) -> usize {
        self.position.legal_moves().len()
    }

    #[inline]
    fn play(&self, mv: ChessMove) -> Self {
        let mut next = Chess {
            position: self.position.clone(),
            key: 0,
            history: None,
            playing_on: false,
        };
        self.advance(mv, &mut next);
        next
    }

    #[inline]
    fn play_into(&self, mv: ChessMove, next: &mut Self) {
        next.position.clone_from(&self.position);
        self.advance(mv, next);
    }

    /// The moves, or the end, from one move generation: the draws by rule need none, and mate
    /// or stalemate are then read from the check.
    #[inline]
    fn turn(&self) -> Turn<ChessMoves> {
        let mated = || Outcome::Won(player(!self.position.turn()));
        if self.drawn_by_rule().is_some() {
            // Mate on the move that makes the draw stands.
            return Turn::Over(
                if self.position.is_check() && self.position.legal_moves().is_empty() {
                    mated()
                } else {
                    Outcome::Draw
                },
            );
        }
        let moves = self.position.legal_moves();
        if !moves.is_empty() {
            Turn::Moves(moves.into_iter().map(|mv| ChessMove(Some(mv))))
        } else if self.position.is_check() {
            Turn::Over(mated())
        } else {
            Turn::Over(Outcome::Draw)
        }
    }

    fn outcome(&self) -> Outcome {
        match self.ending() {
            None => Outcome::InProgress,
            Some(Ending::Checkmate) => Outcome::Won(player(!self.position.turn())),
            Some(_) => Outcome::Draw,
        }
    }

    fn ending(&self) -> Option<&'static str> {
        Chess::ending(self).map(Ending::name)
    }

    /// Mate and stalemate end the game whatever the clock says, and so does a lack of mating
    /// material (FIDE's dead position): only the fifty-move rule and repetition are claimed.
    fn claimable_draw(&self) -> Option<&'static str> {
        let over =
            self.position.legal_moves().is_empty() || Chess::lacks_mating_material(&self.position);
        (!over).then(|| self.claim()).flatten().map(Ending::name)
    }

    /// Past a draw that may be claimed, unless it is one no claim is needed for (FIDE 9.6): a
    /// position's fifth occurrence, or seventy-five moves without a capture or a pawn move.
    fn play_on(&mut self) {
        let automatic = self.repetitions() >= 4 || self.position.halfmoves() >= 150;
        self.playing_on = self.claimable_draw().is_some() && !automatic;
    }

    fn move_id(mv: ChessMove) -> u16 {
        let mv = mv.get();
        let uci = UciMove::from_move(mv, CastlingMode::Standard);
        let (from, to, promotion) = match uci {
            UciMove::Normal {
                from,
                to,
                promotion,
            } => (from, to, promotion),
            UciMove::Put { to, .. } => (to, to, None),
            UciMove::Null => (shakmaty::Square::A1, shakmaty::Square::A1, None),
        };
        let promotion = match promotion {
            None | Some(Role::Pawn) | Some(Role::King) => 0,
            Some(Role::Knight) => 1,
            Some(Role::Bishop) => 2,
            Some(Role::Rook) => 3,
            Some(Role::Queen) => 4,
        };
        (promotion * 4096 + usize::from(from) * 64 + usize::from(to)) as u16
    }

    fn parse_move(&self, index: usize) -> Result<ChessMove, MoveError> {
        if self.outcome().is_over() {
            return Err(MoveError::GameOver);
        }
        self.legal_moves()
            .find(|&mv| usize::from(Self::move_id(mv)) == index)
            .ok_or(MoveError::Illegal {
                index,
                reason: "no legal move has this id (from * 64 + to, plus 4096 times the \
                         promotion piece): write chess moves in UCI or SAN",
            })
    }

    fn notation(&self, mv: ChessMove) -> Notation {
        Notation::Text(Chess::uci_of(mv))
    }

    fn read_move(&self, written: &Notation) -> Result<ChessMove, MoveError> {
        if self.ending().is_some() {
            return Err(MoveError::GameOver);
        }
        match written {
            Notation::Text(text) => self.read(text).map(|mv| ChessMove(Some(mv))),
            Notation::Number(_) => Err(MoveError::Unreadable {
                written: written.to_string(),
                expected: "a chess move is written in UCI (e2e4, e7e8q) or SAN (e4, Nf3, O-O)",
            }),
        }
    }

    /// Plies since the start of a game, from the FEN's move number.
    fn ply(&self) -> usize {
        let moves = self.position.fullmoves().get() as usize;
        2 * (moves - 1) + usize::from(self.position.turn() == Color::Black)
    }

    fn plies_left(&self) -> usize {
        Self::MAX_PLIES
    }

    fn key(&self) -> u64 {
        self.key
    }
}

impl Drawing for Chess {
    const ROWS: usize = 8;

    const COLUMNS: usize = 8;

    fn san(&self, mv: ChessMove) -> Option<String> {
        Some(self.san_of(mv))
    }

    fn centipawns(score: f64) -> Option<i32> {
        Some(evaluation::centipawns(score))
    }

    /// Fitted to the engine's own games (docs/review.md#the-models-on-sentes-own-games): its
    /// centipawns win more often than lichess's curve, fitted to Stockfish's, says.
    const FITTED_CENTIPAWNS: Option<f64> = Some(220.0);

    /// The square the piece goes to (the king's, for castling).
    fn move_cell(&self, mv: ChessMove) -> Option<(usize, usize)> {
        let square = match UciMove::from_move(mv.get(), CastlingMode::Standard) {
            UciMove::Normal { to, .. } | UciMove::Put { to, .. } => to,
            UciMove::Null => shakmaty::Square::A1,
        };
        Some(drawn(square))
    }

    fn cell(&self, row: usize, col: usize) -> Option<(Player, char)> {
        // Row 0 is the eighth rank: the board is drawn from White's side.
        let square = shakmaty::Square::from_coords(
            shakmaty::File::new(col as u32),
            shakmaty::Rank::new(7 - row as u32),
        );
        let piece = self.position.board().piece_at(square)?;
        Some((player(piece.color), piece.role.upper_char()))
    }

    fn move_origin(&self, mv: ChessMove) -> Option<(usize, usize)> {
        mv.get().from().map(drawn)
    }
}

impl Knowledge for Chess {
    const REACHABLE_POSITIONS: Option<usize> = None;

    const EVALUATIONS: &'static [Evaluation<Self>] = evaluation::EVALUATIONS;

    fn move_priority(&self, mv: ChessMove) -> i32 {
        evaluation::move_priority(mv.get())
    }

    fn is_tactical(&self, mv: ChessMove) -> bool {
        let mv = mv.get();
        self.position.is_check() || mv.is_capture() || mv.is_promotion()
    }
}

impl Inputs for Chess {}

impl Solve for Chess {
    crate::search::engine::engine_on_the_kit!(engine::ChessBoard);
}

impl FromStr for Chess {
    type Err = BoardError;

    fn from_str(text: &str) -> Result<Self, BoardError> {
        fen::read(text).map(Chess::new)
    }
}

/// The FEN.
impl fmt::Display for Chess {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let fen = shakmaty::fen::Fen::from_position(&self.position, EnPassantMode::Legal);
        write!(f, "{fen}")
    }
}

impl fmt::Debug for Chess {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Chess({self})")
    }
}

#[cfg(test)]
mod tests;
