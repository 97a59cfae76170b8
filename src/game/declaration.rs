//! What a game declares about itself beside its rules, and what front ends, tournaments and
//! commands read from it: its evaluations, its title and sides, its notations, its engine and
//! that engine's knobs, its books, protocol, trainer, networks and record format, how its
//! players read an evaluation, and the limits a search of it must keep.

use super::Player;

/// A static estimate of positions for the side to move, strictly inside (-1, 1), that
/// depth-limited searches score their leaves with (only meaningful while the game is in
/// progress). Kept apart from the rules: a game may offer several.
pub struct Evaluation<G> {
    /// The name the `evaluation` knob gives it.
    pub name: &'static str,
    pub description: &'static str,
    pub evaluate: fn(&G) -> f64,
}

/// What the service says of a game, and the limits it sets on searching it: declared by the
/// game beside its rules, so that nothing else in the service needs to know the game.
#[derive(Clone, Copy, Debug)]
pub struct Declaration {
    /// The name people know it by.
    pub title: &'static str,
    /// What the sides are called, the first player's first: `X` and `O` in the boards' text,
    /// whatever the game calls them.
    pub sides: [&'static str; 2],
    /// How a move is written in requests and answers.
    pub moves: &'static str,
    /// How a board is written.
    pub board: &'static str,
    /// Whether a move names a column and its disc falls to the lowest empty cell (Connect
    /// Four): a front end takes a click anywhere in a column as that column.
    pub gravity: bool,
    /// Whether pieces move from square to square (chess), rather than stones or discs being
    /// placed: a move then has a square it starts from ([`Drawing::move_origin`](super::Drawing::move_origin)).
    pub pieces: bool,
    /// Whether the stones placed are discs in the sides' colours, Black's and White's, on a
    /// green board, as the game is played (Othello): a front end draws them so.
    pub discs: bool,
    /// Whether captured pieces go to the capturer's hand, to be dropped back as a move
    /// (shogi's): [`Drawing::hand`](super::Drawing::hand) then says what each side holds, and the answers carry it.
    pub hands: bool,
    /// Whether moves are written in UCI and boards in FEN, as chess programs write them:
    /// external engines can then play it (over UCI), and its games are written as PGN.
    pub uci: bool,
    /// The protocols external engines that play it speak (chess's `uci` and `xboard`, shogi's
    /// `usi`): tournaments may pit Sente against such an engine; empty where none plays it.
    pub engine_protocols: &'static [&'static str],
    /// The algorithm that plays when a request names none: the game's strongest quick player.
    pub default_algorithm: &'static str,
    /// Games a tournament plays when its request does not say: as many as the default players
    /// play within seconds.
    pub tournament_games: u64,
    pub limits: Limits,
    /// Its `engine` algorithm: what it is and the knobs it takes.
    pub engine: EngineDeclaration,
    /// The files of openings the game reads (chess's EPD and PGN books), by extension; any
    /// other file is read one opening a line.
    pub books: &'static [Book],
    /// The protocols its engine speaks on standard input and output (chess's UCI, Othello's
    /// GTP and NBoard), each served by the command of its name (`sente uci`).
    pub protocols: &'static [Protocol],
    /// What it learns from its own games (chess's evaluation network), trained by the command
    /// `sente train`.
    pub trainer: Option<crate::learn::Trainer>,
    /// The policy-value networks its `alphazero` plays with, the best first (the default);
    /// empty for a game that has none, on which `alphazero` is not offered.
    pub networks: &'static [Network],
    /// The letters players write the pieces with, for pieces [`Drawing::cell`](super::Drawing::cell) draws otherwise
    /// (shogi's kanji: `歩` is `P`, `と` is `+P`), so that a front end may offer either; empty
    /// where the cells' symbols are the letters.
    pub letters: &'static [(char, &'static str)],
    /// The game-record formats its players keep (shogi's KIF, KIFU and CSA), the usual one
    /// first: `POST /record` writes a game in them, tournaments write each game's file in
    /// them (`--records-dir`), in one file where the format collects games (chess's PGN).
    pub records: &'static [RecordFormat],
    /// How its players read an evaluation, where it is not the winning chances every answer
    /// gives: a front end then shows the answers' `cp` (and `mate`) that way.
    pub evaluation_units: Option<EvaluationUnits>,
    /// The rows at each side's far end where its pieces may promote on entering, leaving or
    /// moving within (shogi's three), which a board draws; `None` where the game has no such
    /// zone.
    pub promotion_zone: Option<usize>,
    /// How its engine plays at each of the `level` knob's levels, the weakest first: a
    /// beginner wins against the first, the last is the engine within its nodes
    /// (docs/levels.md measures each).
    pub levels: [Level; LEVELS],
    /// Each level's scores against the two reference players, a uniform random mover and the
    /// one-ply beginner, as `scripts/levels.py GAME --references N --write FILE` measures and
    /// writes them (JSON): the game's `levels.json`, read into the binary for `GET /games`.
    pub measured_levels: &'static str,
}

impl Declaration {
    /// What a declaration says where a game says nothing of its own, to spread into its
    /// literal (`..Declaration::DEFAULT`): X and O, no gravity, pieces, discs or hands, no
    /// engine protocols, books, networks or record formats, alphabeta by default, the default
    /// solver as its engine, [`Limits::DEFAULT`], and a first table of levels by depth, to be
    /// measured and tuned (docs/levels.md). The title, and how moves and boards are written,
    /// a game always says.
    pub const DEFAULT: Declaration = Declaration {
        title: "",
        sides: ["X", "O"],
        moves: "",
        board: "",
        gravity: false,
        pieces: false,
        discs: false,
        hands: false,
        uci: false,
        engine_protocols: &[],
        default_algorithm: "alphabeta",
        tournament_games: 10,
        limits: Limits::DEFAULT,
        engine: EngineDeclaration::SOLVER,
        books: &[],
        protocols: &[],
        trainer: None,
        networks: &[],
        letters: &[],
        records: &[],
        evaluation_units: None,
        promotion_zone: None,
        levels: [
            Level::at_depth(1).among(5, 0.3),
            Level::at_depth(1).among(5, 0.15),
            Level::at_depth(2).among(5, 0.15),
            Level::at_depth(2).among(3, 0.08),
            Level::at_depth(3).among(3, 0.05),
            Level::at_depth(4).among(2, 0.03),
            Level::at_depth(6),
            Level::full(None),
        ],
        measured_levels: "",
    };
}

/// The levels every game's engine plays at, from 1 to this.
pub const LEVELS: usize = 8;

/// What each level is called and what a player meets there, the same in every game: a level's
/// number means about the same opponent whatever the game, as its scores against the same two
/// reference players in every game show (docs/levels.md states the bands they fall in).
pub const LEVEL_NAMES: [(&str, &str); LEVELS] = [
    (
        "beginner",
        "An opponent a beginner beats: it often misses the best move.",
    ),
    ("novice", "Makes mistakes a beginner can punish."),
    (
        "casual",
        "Beats a beginner more often than not; plain blunders are rare.",
    ),
    ("intermediate", "A beginner loses most games against it."),
    (
        "club",
        "A solid player's game: good moves, now and then a slip.",
    ),
    (
        "strong",
        "Seldom strays from the best move its search finds.",
    ),
    (
        "expert",
        "Its search's best move every time, on a short search.",
    ),
    (
        "full strength",
        "The whole engine on its time; the solver where the game has one.",
    ),
];

/// The time a search that deepens (alphabeta, the solver, the engine) takes a move when
/// nothing else bounds it: no time, clock, depth or node count given. The one default of every
/// game that declares one ([`Limits::default_time_limit_ms`]), every engine and every protocol
/// session.
pub const DEFAULT_TIME_LIMIT_MS: u64 = 1_000;

/// How a game's engine plays at one level: a search with fewer nodes and a shorter horizon
/// than its full strength, and a choice among the best few moves that prefers the good ones
/// and now and then misses the best, as a person's does.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Level {
    /// The deepest iteration, in plies; absent, as deep as the nodes (or the time) allow.
    pub depth: Option<u32>,
    /// The most nodes a move.
    pub nodes: Option<u64>,
    /// How many of the best moves, as the search within the limits above values them, it
    /// chooses among (0: it plays the search's move).
    pub candidates: u32,
    /// How far it strays from the best of them, in the answers' `score`: one is drawn with
    /// chances in proportion to `exp(score / temperature)`, so that a move worse than the best
    /// by the temperature is chosen 1/e times as often.
    pub temperature: f64,
    /// Its strength on the rating scale the game's `elo` knob reads (chess's, measured against
    /// Stockfish's UCI_Elo), where it has one: the knob plays between the two levels around
    /// the Elo asked for.
    pub elo: Option<u32>,
}

impl Level {
    /// The full engine within `nodes` a move (or its time, without).
    pub const fn full(nodes: Option<u64>) -> Level {
        Level {
            depth: None,
            nodes,
            candidates: 0,
            temperature: 0.0,
            elo: None,
        }
    }

    /// The engine `depth` plies deep.
    pub const fn at_depth(depth: u32) -> Level {
        Level {
            depth: Some(depth),
            ..Level::full(None)
        }
    }

    /// The engine within `nodes` nodes.
    pub const fn within_nodes(nodes: u64) -> Level {
        Level::full(Some(nodes))
    }

    /// The same, choosing among its best `candidates` moves at `temperature`.
    pub const fn among(self, candidates: u32, temperature: f64) -> Level {
        Level {
            candidates,
            temperature,
            ..self
        }
    }

    /// The same, rated `elo` on the game's scale.
    pub const fn rated(self, elo: u32) -> Level {
        Level {
            elo: Some(elo),
            ..self
        }
    }

    /// Whether it chooses among moves rather than playing the search's.
    pub fn strays(&self) -> bool {
        self.candidates > 1 && self.temperature > 0.0
    }
}

/// How a game's players read an evaluation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EvaluationUnits {
    /// Pawns with two decimals from the first player's view, mates in moves (chess's +1.25,
    /// #3).
    Pawns,
    /// Whole centipawns from the first player's view, mates in plies (shogi's +120, 詰み 5手).
    Centipawns,
    /// Discs: the final disc difference the side to move can expect (Othello's +6), the
    /// answers' `discs`.
    Discs,
}

/// A game-record format a game declares: its name, its files' extension and encoding, its
/// writer.
#[derive(Clone, Copy, Debug)]
pub struct RecordFormat {
    /// `KIF`.
    pub name: &'static str,
    /// `kif`.
    pub extension: &'static str,
    /// The encoding its readers expect of a file of this extension.
    pub encoding: TextEncoding,
    /// Its media type, without the charset: `text/plain` where it has none of its own.
    pub media_type: &'static str,
    /// Whether a file of it holds games one after another, as PGN's do: a tournament's games
    /// then make one file (`sente tournament --pgn`, or `/tournament` with the media type in
    /// `Accept`) besides a file a game.
    pub collects: bool,
    /// What it is, for a front end's list.
    pub description: &'static str,
    /// One game's record, as text: [`RecordFormat::bytes`] encodes it.
    pub write: fn(&RecordedGame<'_>) -> String,
    /// Reads one game from a record of this format (the first, where it holds several): where
    /// it starts and its moves, as the game's `read_move` reads them (`POST /review`'s
    /// `record`).
    pub read: fn(&str) -> Result<ReadRecord, RecordError>,
}

/// A game as a record gives it: the position it starts from and the moves played.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ReadRecord {
    /// The start, in the game's text form; `None` for the game's usual start.
    pub board: Option<String>,
    /// Each move as written (SAN, KIF's `７六歩(77)`, `f5`): the game's `read_move` reads it.
    pub moves: Vec<String>,
}

/// Why a record was not read.
#[derive(Clone, Debug, PartialEq)]
pub enum RecordError {
    /// The text is not in this format at all (a reader tried on a record of another).
    Foreign,
    /// It is, but something in it cannot be read: what, naming its ply or line.
    Unreadable(String),
}

/// The character encoding of a record format's files.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum TextEncoding {
    #[serde(rename = "UTF-8")]
    Utf8,
    /// Japanese Windows' code page 932, which readers of `.kif` files expect.
    #[serde(rename = "Shift_JIS")]
    ShiftJis,
}

impl TextEncoding {
    /// Its name as HTTP's `charset` writes it.
    pub fn charset(self) -> &'static str {
        match self {
            Self::Utf8 => "utf-8",
            Self::ShiftJis => "Shift_JIS",
        }
    }
}

impl RecordFormat {
    /// `game`'s record as the bytes of a file of this format. A character Shift_JIS lacks (a
    /// player's name in another script) is written as an HTML character reference (`&#128512;`),
    /// as encoders for the web do, rather than lost.
    pub fn bytes(&self, game: &RecordedGame<'_>) -> Vec<u8> {
        let text = (self.write)(game);
        match self.encoding {
            TextEncoding::Utf8 => text.into_bytes(),
            TextEncoding::ShiftJis => encoding_rs::SHIFT_JIS.encode(&text).0.into_owned(),
        }
    }
}

/// A finished (or interrupted) game as a record is written from it: the game's moves in its
/// notation with what is known of each, its players and how it ended.
#[derive(Clone, Debug)]
pub struct RecordedGame<'a> {
    /// The game's number in its tournament, from 0, where it is a tournament's.
    pub index: Option<u64>,
    pub event: &'a str,
    /// `YYYY/MM/DD HH:MM:SS`, or `YYYY/MM/DD` where the time is not known.
    pub date: &'a str,
    /// The position it started from, in the game's text form.
    pub start: &'a str,
    /// Every move from there.
    pub moves: &'a [RecordedMove],
    /// The players' names, the one who moved first first.
    pub players: [&'a str; 2],
    /// Who won: `X` the player who moved first; `None` for a draw or a game not over.
    pub winner: Option<Player>,
    /// How it ended (`checkmate`, `resigned`, `time_forfeit`, ...; `interrupted` for a game
    /// stopped before its end).
    pub ending: &'a str,
    /// What the ending's name leaves out, where something does (the illegal move, the engine
    /// that crashed).
    pub detail: Option<&'a str>,
}

/// A move of a recorded game, in the game's notation, with what its player said of it where
/// an engine played it (the tournaments' and `/move`'s fields).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RecordedMove {
    pub text: String,
    /// The time it took, in milliseconds.
    pub time_ms: f64,
    /// The mover's score in centipawns, or its mate: in moves, positive when the mover mates.
    pub cp: Option<i32>,
    pub mate: Option<i32>,
    /// Plies to the end where the search proved it (a mate's length in plies).
    pub plies_to_end: Option<u32>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// The line the engine expected, from this move on, in the game's notation.
    pub pv: Vec<String>,
}

/// A trained policy-value network a game ships (read into the binary), for `alphazero`.
#[derive(Clone, Copy, Debug)]
pub struct Network {
    /// The name the `net` knob gives it.
    pub name: &'static str,
    /// What it is: how it was trained, how strong.
    pub description: &'static str,
    /// Its file ([`crate::learn::policy_value`]).
    pub bytes: &'static [u8],
}

/// An engine protocol a game's engine speaks, as the command line serves it.
#[derive(Clone, Copy, Debug)]
pub struct Protocol {
    /// Its name, the command that serves it: `uci`.
    pub name: &'static str,
    /// Serves it on this process's standard input and output until told to quit.
    pub serve: fn() -> std::io::Result<()>,
}

/// A game's `engine` algorithm, declared as the game declares its rules: the catalogue
/// (`GET /algorithms?game=`), the page's settings and the checks of a request learn from here
/// what the engine is on the game and which of the engine's knobs it takes.
#[derive(Clone, Copy, Debug)]
pub struct EngineDeclaration {
    /// What it is.
    pub description: &'static str,
    /// The knobs it takes, among those the knobs' table gives the engine, each with what it
    /// means on this game beyond the table's words ("" where they say it all). Any other is
    /// refused.
    pub knobs: &'static [(&'static str, &'static str)],
    /// The steps of its search that `without` turns off, by name.
    pub steps: &'static [&'static str],
    /// What `sente bench` searches of it: none for an engine off the kit.
    pub bench: Bench,
}

/// The positions `sente bench` searches with a game's engine, each to the same depth on one
/// thread: the node total over every game is the search's signature, which any change to the
/// search's shape alters (docs/testing.md#the-search-signature).
#[derive(Clone, Copy, Debug)]
pub struct Bench {
    /// Positions in the game's text form: openings, middlegames and endings, so that every
    /// part of the search is walked.
    pub positions: &'static [&'static str],
    /// The depth each is searched to, in plies: a second or two for all of them.
    pub depth: u32,
}

impl Bench {
    /// Nothing to search: the bench leaves the game out.
    pub const NONE: Bench = Bench {
        positions: &[],
        depth: 0,
    };
}

impl EngineDeclaration {
    /// The engine of a game without one of its own: its solver, within the time limit.
    pub const SOLVER: EngineDeclaration = EngineDeclaration {
        description: "The game's strongest player within its time or depth: its solver, or \
                      alphabeta with every enhancement when a depth is given.",
        knobs: &[
            (
                "level",
                "Below the top, alphabeta with every enhancement a few plies deep; at the top, \
                 the solver.",
            ),
            (
                "depth",
                "Given, alphabeta with every enhancement that deep; absent, the solver.",
            ),
            ("time_limit_ms", ""),
            ("multipv", ""),
        ],
        steps: &[],
        bench: Bench::NONE,
    };
}

/// A kind of file of openings a game reads, by its extension.
#[derive(Clone, Copy, Debug)]
pub struct Book {
    /// The extension, lower case, without the dot: `epd`.
    pub extension: &'static str,
    /// Reads at most `max` openings from a file's text, each with the line it starts on; a
    /// message in words when the file is wrong.
    pub read: fn(text: &str, max: usize) -> Result<Vec<BookOpening>, BookError>,
}

/// Why an opening book was not read: where in it, and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BookError {
    #[error("line {line}: more than {max} openings, the most a tournament takes")]
    TooMany { line: usize, max: usize },
    /// A line or a game that is not an opening: `at` says which (`line 4`, `game 2 (line 9)`).
    #[error("{at}: {why}")]
    Unreadable { at: String, why: String },
    /// The book's reader failed before it could say where.
    #[error("{0}")]
    Reader(String),
}

/// One opening of a book: a board in the game's text form (the start without it) and the
/// moves played from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookOpening {
    pub board: Option<String>,
    pub moves: Vec<String>,
    /// The line of the file it starts on, counted from 1.
    pub line: usize,
}

/// What a game allows a search, so that no request runs unbounded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The deepest full-width search (minimax, negamax) allowed, which must then be given a
    /// depth; `None` when searching to the end is fine.
    pub full_width_depth: Option<u32>,
    /// The time limit of the deepening searches (alphabeta, solver) when a request gives
    /// none; `None` for no limit, when they always finish quickly.
    pub default_time_limit_ms: Option<u64>,
    /// Whether `tiebreak: traps`, which searches every reply to the end, is allowed.
    pub traps: bool,
    /// Whether alphabeta and the solver (with tiebreak first) finish in well under a
    /// millisecond on every position, so that the service answers them where they arrive
    /// rather than on a thread for blocking work.
    pub instant_exact_search: bool,
}

impl Limits {
    /// Bounded where a game says nothing of its own: no full-width limit, the deepening
    /// searches within [`DEFAULT_TIME_LIMIT_MS`], no traps, nothing answered inline.
    pub const DEFAULT: Limits = Limits {
        full_width_depth: None,
        default_time_limit_ms: Some(DEFAULT_TIME_LIMIT_MS),
        traps: false,
        instant_exact_search: false,
    };
}
