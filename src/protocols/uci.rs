//! The engine over a text protocol: one session for UCI (`sente uci`) and USI (`sente usi`),
//! whose dialects differ in words, not in the loop. A game's protocol file says its words (a
//! [`Dialect`]: `chess/uci.rs`, `shogi/usi.rs`); this file reads the lines, keeps the position,
//! the options and what the engine keeps from move to move, and runs each `go` on a thread of
//! its own, so that `stop` and `isready` are answered while it thinks.
//!
//! The commands read one a line: the handshake (`uci`, `usi`), `isready`, the new game
//! (`ucinewgame`, `usinewgame`), `setoption name NAME value VALUE` (the hash, `Threads`,
//! `MultiPV`, `Skill Level` and the dialect's own), `position startpos|fen|sfen BOARD [moves ...]`, `go` (with
//! `wtime`, `btime`, `winc`, `binc`, `movestogo`, `byoyomi`, `movetime`, `depth`, `nodes`,
//! `infinite`, `mate`, `ponder`), `ponderhit`, `stop`, the dialect's end of a game (`gameover`)
//! and `quit`. A search ends with its `info` lines and `bestmove` (with the move it expects in
//! reply, `ponder`, where its line has one); a line that is not understood is answered with
//! `info string` saying why, as engines do, and changes nothing. No search's failure leaves a
//! GUI waiting: a panic inside one is answered with why, and the dialect's no-move answer.
//!
//! Pondering is the protocols': `go ponder` searches the position after the expected reply
//! until `ponderhit` or `stop` and never answers before; `ponderhit` ends that search without
//! an answer and starts the search on the clock `go ponder` gave, from now, with the table the
//! pondering filled; `stop` answers the pondering search's move. A draw that may be claimed
//! (chess's threefold repetition and fifty-move rule) is the GUI's to claim: a position through
//! one is searched as any other.

use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use super::go::Go;
use super::{Flow, Input, Protocol, run};
use crate::game::{Game, LEVELS, Notation, Outcome, Rules, written};
use crate::learn::LearnError;
use crate::search::engine::{self, Board, DEFAULT_HASH_MB, Kept, MAX_THREADS};
use crate::search::{
    Analysis, Budget, Clock, EngineParams, Iteration, SearchResult, Watch, panic_message,
};

/// The engine's name, as `id name` gives it.
pub const NAME: &str = concat!("Sente ", env!("CARGO_PKG_VERSION"));
/// The most MiB the hash option takes.
pub const MAX_HASH_MB: u32 = 1024;
/// The most lines `MultiPV` asks for: as many as the HTTP API's `multipv` knob.
pub const MAX_MULTIPV: u32 = 500;

/// The game type a dialect's engine plays.
pub type GameOf<D> = <<D as Dialect>::Board as Board>::Game;
/// A move of that game.
pub type MoveOf<D> = <GameOf<D> as Rules>::Move;

/// A protocol's words, and the options of its own a session keeps (its state).
pub trait Dialect: Send + 'static {
    /// The engine it speaks for.
    type Board: Board;

    /// The handshake (`uci`) and its last answer (`uciok`).
    const HELLO: &'static str;
    const HELLO_OK: &'static str;
    /// The announcement of a new game (`ucinewgame`).
    const NEW_GAME: &'static str;
    /// The end of a game, where the dialect has one (USI's `gameover`).
    const GAME_OVER: Option<&'static str> = None;
    /// Whether `go mate N` asks for a mate in N moves (UCI's) rather than a mate search of N
    /// milliseconds (USI's).
    const MATE_IN_MOVES: bool;
    /// The hash option's name (`Hash`, `USI_Hash`); `Hash` is always taken as well.
    const HASH: &'static str;
    /// The word before a board in `position` (`fen`, `sfen`).
    const BOARD: &'static str;
    /// What `go` answers where there is no move to give (`bestmove 0000`, `bestmove resign`).
    const NO_MOVE: &'static str;
    /// What `go mate` answers where there is no mate to give, where the dialect answers it
    /// apart (USI's `checkmate nomate`); [`Dialect::NO_MOVE`] without.
    const NO_MATE: Option<&'static str> = None;
    /// Whether a game proven lost is resigned (`bestmove resign`).
    const RESIGNS: bool;
    /// Whether a game drawn by Sente's rules that the GUI plays on is searched all the same
    /// (USI's GUIs end their games themselves); else it is answered as over.
    const PLAYS_ON: bool;

    /// Its options beyond the hash and `MultiPV`, as the handshake lists them.
    fn options(&self) -> Vec<String>;
    /// Sets one of its own options; `None` when `name` is none of them.
    fn set_option(&mut self, name: &str, value: &str) -> Option<Result<(), String>>;
    /// `params` with what its options add (chess's evaluation and strength).
    fn params(&self, params: EngineParams) -> EngineParams {
        params
    }
    /// Whether the side to move in `game` plays on the clock `go` calls `wtime`.
    fn on_white_clock(game: &GameOf<Self>) -> bool;
    /// A mate in `moves` (negative: mated) as its `info` lines count it.
    fn mate(moves: i32) -> i32 {
        moves
    }
    /// The engine's move, searched with what the session keeps.
    fn search(
        game: &GameOf<Self>,
        params: &EngineParams,
        budget: &Budget,
        kept: &mut Kept<Self::Board>,
    ) -> SearchResult<MoveOf<Self>> {
        engine::search_keeping::<Self::Board>(game, params, budget, kept)
    }
    /// The best `params.multipv` lines.
    fn analyze(
        game: &GameOf<Self>,
        params: &EngineParams,
        budget: &Budget,
    ) -> Analysis<MoveOf<Self>> {
        engine::analyze::<Self::Board>(game, params, budget)
    }
    /// What `go mate` answers from a mate solver of the game's own, searched within `budget`,
    /// and the nodes it took; `None` where the game has none, and the engine's search answers.
    fn solve_mate(game: &GameOf<Self>, budget: &Budget) -> Option<(String, u64)> {
        let _ = (game, budget);
        None
    }
    /// What `go mate` answers, from the search's result; `None` where the dialect answers it
    /// with `bestmove` (UCI's `go mate` is a search like another).
    fn checkmate(game: &GameOf<Self>, result: &SearchResult<MoveOf<Self>>) -> Option<String> {
        let _ = (game, result);
        None
    }
}

/// What `EvalFile` says while the engine plays with the net built into it.
pub const SHIPPED_NET: &str = "<shipped>";

/// The `Evaluation` and `EvalFile` options of a game whose engine has a learnt net: their
/// declarations, as a dialect's `options` lists them.
pub fn evaluation_options<G: Game>(default: &str) -> [String; 2] {
    [
        format!(
            "option name Evaluation type combo default {default}{}",
            G::EVALUATIONS
                .iter()
                .map(|evaluation| format!(" var {}", evaluation.name))
                .collect::<String>()
        ),
        format!("option name EvalFile type string default {SHIPPED_NET}"),
    ]
}

/// The `Evaluation` and `EvalFile` options, as a dialect of a game with a learnt net holds
/// them.
#[derive(Default)]
pub struct EvaluationOptions {
    /// Which of the game's evaluations the engine uses (`Evaluation`); its own default if
    /// unset.
    evaluation: Option<crate::search::EvaluationIndex>,
    /// The net read from `EvalFile`, played in place of the shipped one.
    eval_file: Option<crate::learn::weights::NamedWeights>,
}

impl EvaluationOptions {
    /// Sets `Evaluation` (one of `G`'s evaluations, as the HTTP knob picks it) or `EvalFile`
    /// (a net read from a file by `load`, played in place of the shipped one, so that a net
    /// in training can play matches before it is built in); `None` for another option.
    pub fn set<G: Game>(
        &mut self,
        name: &str,
        value: &str,
        load: fn(&std::path::Path) -> Result<crate::learn::weights::NamedWeights, LearnError>,
    ) -> Option<Result<(), String>> {
        let value = value.trim();
        let names = || G::EVALUATIONS.iter().map(|evaluation| evaluation.name);
        if name.eq_ignore_ascii_case("evaluation") {
            return Some(
                names()
                    .position(|known| known.eq_ignore_ascii_case(value))
                    .map(|index| {
                        self.evaluation = Some(index as crate::search::EvaluationIndex);
                    })
                    .ok_or_else(|| {
                        format!(
                            "Evaluation is one of {}, got {value:?}",
                            names().collect::<Vec<_>>().join(", ")
                        )
                    }),
            );
        }
        name.eq_ignore_ascii_case("evalfile").then(|| {
            self.eval_file = match value {
                "" | SHIPPED_NET => None,
                path => Some(load(std::path::Path::new(path)).map_err(|error| error.to_string())?),
            };
            Ok(())
        })
    }

    /// `params` with the evaluation and the net these options chose.
    pub fn apply(&self, params: EngineParams) -> EngineParams {
        EngineParams {
            evaluation: self.evaluation,
            weights: self.eval_file.clone(),
            ..params
        }
    }
}

/// [`serve`] on this process's standard input and output, as `sente uci` and `sente usi` run
/// it (a game's declaration names it as its protocol's).
pub fn serve_stdio<D: Dialect + Default>() -> io::Result<()> {
    serve(D::default(), io::BufReader::new(io::stdin()), io::stdout())
}

/// Speaks `D`'s protocol on `input` and `output` until `quit` or the end of the input, which
/// is `quit` too, with `dialect` the options of its own as they start.
pub fn serve<D: Dialect>(
    dialect: D,
    input: impl BufRead + Send + 'static,
    output: impl Write + Send + 'static,
) -> io::Result<()> {
    let session = Session {
        dialect,
        position: GameOf::<D>::start(),
        refused: None,
        kept: Arc::new(Mutex::new(Kept::default())),
        hash_mb: DEFAULT_HASH_MB,
        threads: 1,
        multipv: 1,
        skill_level: LEVELS as u32,
        output: Arc::new(Mutex::new(output)),
        search: None,
    };
    run(session, input)
}

/// UCI's and USI's words, a dialect each: `go` answers when its search ends, on a thread of its
/// own, and the session reads on meanwhile (`stop`, `ponderhit`, `isready`).
impl<D: Dialect, W: Write + Send + 'static> Protocol for Session<D, W> {
    fn line(&mut self, line: &str, _: &Input) -> io::Result<Flow> {
        let mut words = line.split_whitespace();
        let Some(command) = words.next() else {
            return Ok(Flow::Continue);
        };
        let words: Vec<&str> = words.collect();
        match command {
            hello if hello == D::HELLO => self.hello()?,
            "isready" => {
                // The table of the hash asked is made here, where a GUI waits for it, not in
                // the first `go`'s clock; not while a search may hold it, since `isready`
                // during a search is answered at once.
                if self.search.is_none()
                    && let Ok(mut kept) = self.kept.try_lock()
                {
                    kept.prepare(self.hash_mb);
                }
                self.say(&["readyok"])?;
            }
            new_game if new_game == D::NEW_GAME => {
                self.stop();
                self.position = GameOf::<D>::start();
                self.refused = None;
                let mut kept = lock(&self.kept);
                kept.prepare(self.hash_mb);
                kept.clear();
            }
            // The game is over: what was kept is emptied now, before the next one's clock runs.
            over if Some(over) == D::GAME_OVER => {
                self.stop();
                lock(&self.kept).clear();
            }
            "setoption" => {
                if let Err(error) = self.set_option(&words) {
                    self.say(&[&format!("info string {error}")])?;
                }
            }
            "position" => {
                self.stop();
                // A refused position leaves the last good one to search, and `go` says so
                // again: a GUI waiting for `bestmove` gets one, never a null move or a
                // resignation it would read as the engine's.
                match position::<D>(&words) {
                    Ok(position) => {
                        self.position = position;
                        self.refused = None;
                    }
                    Err(error) => {
                        self.say(&[&format!("info string {error}")])?;
                        self.refused = Some(error);
                    }
                }
            }
            "go" => {
                self.stop();
                self.go(Go::read(&words, D::MATE_IN_MOVES))?;
            }
            "ponderhit" => self.ponderhit()?,
            "stop" => self.stop(),
            "quit" => {
                self.stop();
                return Ok(Flow::Quit);
            }
            other => self.say(&[&format!("info string unknown command {other:?}")])?,
        }
        Ok(Flow::Continue)
    }

    // What an engine does not understand it ignores: a line that is not UTF-8 among it.
    fn unreadable(&mut self, why: &'static str) -> io::Result<()> {
        self.say(&[&format!("info string ignored a line {why}")])
    }

    // The end of the input is `quit`, as it is to other engines: the search in progress stops
    // and answers, rather than searching on for no one.
    fn end(&mut self) {
        self.stop();
    }
}

struct Session<D: Dialect, W> {
    dialect: D,
    /// The position `go` searches: the last `position` read.
    position: GameOf<D>,
    /// Why the `position` after it was refused, if one was.
    refused: Option<String>,
    /// What the engine keeps from one move to the next, until a new game.
    kept: Arc<Mutex<Kept<D::Board>>>,
    hash_mb: u32,
    /// Threads each search runs on (`Threads`), at full strength (a level plays on one).
    threads: u32,
    /// How many of the best lines a search answers (`MultiPV`).
    multipv: u32,
    /// The level it plays at (`Skill Level`, as Stockfish and Fairy-Stockfish name theirs): the
    /// game's levels, the top (the default) its full strength on the clock.
    skill_level: u32,
    output: Arc<Mutex<W>>,
    search: Option<Search>,
}

/// A search in progress: its stop flag and its thread, which answers `bestmove`.
struct Search {
    stop: Arc<AtomicBool>,
    /// Set on `ponderhit`, before `stop`: the pondering search ends without an answer.
    hit: Arc<AtomicBool>,
    /// What `go ponder` asked, while the search ponders: the search on the clock after
    /// `ponderhit`.
    pondering: Option<Go>,
    thread: JoinHandle<()>,
}

/// A lock whose holder may have panicked: what it guards (a table a search was filling) is
/// still whole enough to search with or to empty.
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl<D: Dialect, W: Write + Send + 'static> Session<D, W> {
    fn say(&self, lines: &[&str]) -> io::Result<()> {
        say(&self.output, lines)
    }

    fn hello(&self) -> io::Result<()> {
        let mut lines = vec![
            format!("id name {NAME}"),
            "id author the Sente developers".to_owned(),
            format!(
                "option name {} type spin default {DEFAULT_HASH_MB} min 1 max {MAX_HASH_MB}",
                D::HASH
            ),
            format!("option name Threads type spin default 1 min 1 max {MAX_THREADS}"),
            format!("option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}"),
            format!("option name Skill Level type spin default {LEVELS} min 1 max {LEVELS}"),
        ];
        lines.extend(self.dialect.options());
        lines.push(D::HELLO_OK.to_owned());
        self.say(&lines.iter().map(String::as_str).collect::<Vec<_>>())
    }

    /// Stops the search in progress, if any, once it has answered.
    fn stop(&mut self) {
        if let Some(search) = self.search.take() {
            search.stop.store(true, Ordering::Relaxed);
            let _ = search.thread.join();
        }
    }

    /// `ponderhit`: the expected reply was played. The pondering search ends without an
    /// answer and the search on `go ponder`'s clock starts, counted from now, with the table
    /// the pondering filled.
    fn ponderhit(&mut self) -> io::Result<()> {
        let Some(go) = self.search.as_ref().and_then(|search| search.pondering) else {
            return self.say(&["info string ponderhit while not pondering: ignored"]);
        };
        if let Some(search) = self.search.take() {
            search.hit.store(true, Ordering::Relaxed);
            search.stop.store(true, Ordering::Relaxed);
            let _ = search.thread.join();
        }
        self.go(Go {
            ponder: false,
            ..go
        })
    }

    fn set_option(&mut self, words: &[&str]) -> Result<(), String> {
        let text = words.join(" ");
        let (name, value) = text
            .strip_prefix("name ")
            .and_then(|rest| rest.split_once(" value "))
            .ok_or_else(|| format!("expected setoption name NAME value VALUE, got {text:?}"))?;
        let name = name.trim();
        let number = |max: u32| {
            value
                .trim()
                .parse::<u32>()
                .ok()
                .filter(|n| (1..=max).contains(n))
                .ok_or_else(|| format!("{name} is 1 to {max}, got {value:?}"))
        };
        if name.eq_ignore_ascii_case(D::HASH) || name.eq_ignore_ascii_case("hash") {
            self.hash_mb = number(MAX_HASH_MB)?;
            return Ok(());
        }
        if name.eq_ignore_ascii_case("threads") {
            self.threads = number(MAX_THREADS)?;
            return Ok(());
        }
        if name.eq_ignore_ascii_case("multipv") {
            self.multipv = number(MAX_MULTIPV)?;
            return Ok(());
        }
        if name.eq_ignore_ascii_case("skill level") {
            self.skill_level = number(LEVELS as u32)?;
            return Ok(());
        }
        self.dialect
            .set_option(name, value)
            .unwrap_or_else(|| Err(format!("no option {name:?}")))
    }

    fn go(&mut self, go: Go) -> io::Result<()> {
        let cannot = D::NO_MATE.filter(|_| go.mate).unwrap_or(D::NO_MOVE);
        let position = self.position.clone();
        if let Some(error) = &self.refused {
            self.say(&[&format!(
                "info string searching the last position read: the one after it was refused \
                 ({error})"
            )])?;
        }
        // Over by Sente's rules: lost is no move to give; a draw the GUI plays on is searched
        // as the pieces stand where the dialect's GUIs end their games themselves.
        if position.outcome().is_over() {
            let lost = position.outcome() == Outcome::Won(position.side_to_move().opponent());
            let said = format!(
                "info string the game is over by Sente's rules ({})",
                position.ending().unwrap_or("over")
            );
            if !D::PLAYS_ON || lost || go.mate || position.perft_moves().next().is_none() {
                return self.say(&[&said, cannot]);
            }
            self.say(&[&format!("{said}; a move all the same")])?;
        }
        let params = self.dialect.params(EngineParams {
            time_limit: go.time(D::on_white_clock(&position), D::MATE_IN_MOVES),
            depth: go.depth,
            hash_mb: self.hash_mb,
            threads: self.threads,
            nodes: go.nodes,
            // Pondering searches until `ponderhit` or `stop`: the clock is for after.
            clock: if go.ponder { Clock::NONE } else { go.clock },
            multipv: (self.multipv > 1).then_some(self.multipv),
            level: (self.skill_level < LEVELS as u32).then_some(self.skill_level as u8),
            ..EngineParams::default()
        });
        let stop = Arc::new(AtomicBool::new(false));
        let hit = Arc::new(AtomicBool::new(false));
        let output = Arc::clone(&self.output);
        // Each finished iteration is an `info` line as it comes, as engines report.
        let told = Arc::new(AtomicBool::new(false));
        let watch = {
            let (output, told) = (Arc::clone(&output), Arc::clone(&told));
            Watch::new(move |iteration| {
                told.store(true, Ordering::Relaxed);
                let _ = say(&output, &[&info::<D>(iteration)]);
            })
        };
        let budget = Budget {
            cancelled: Some(Arc::clone(&stop)),
            watch: Some(watch),
            ..Budget::default()
        };
        let stopped = Arc::clone(&stop);
        let ponderhit = Arc::clone(&hit);
        let kept = Arc::clone(&self.kept);
        let thread = std::thread::spawn(move || {
            // A search that fails still answers, so that no GUI waits for a `bestmove` that
            // never comes.
            let lines = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                think::<D>(&position, &go, &params, &budget, &kept, &told)
            }))
            .unwrap_or_else(|panic| {
                let why = panic_message(panic.as_ref()).replace('\n', " ");
                vec![
                    format!("info string the search failed: {why}"),
                    cannot.into(),
                ]
            });
            // In `go infinite` and `go ponder` the answer waits for `stop` (or `ponderhit`),
            // as the protocols ask, even when the search has nothing left to search.
            while (go.infinite || go.ponder) && !stopped.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(5));
            }
            // After `ponderhit` the search on the clock answers, not this one.
            if ponderhit.load(Ordering::Relaxed) {
                return;
            }
            let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
            let _ = say(&output, &lines);
        });
        self.search = Some(Search {
            stop,
            hit,
            pondering: go.ponder.then_some(go),
            thread,
        });
        Ok(())
    }
}

/// What `go` answers: the lines after the watched iterations, `bestmove` (or `checkmate`)
/// last. A search stopped within its first iteration, which told nothing, says once what it
/// has.
fn think<D: Dialect>(
    position: &GameOf<D>,
    go: &Go,
    params: &EngineParams,
    budget: &Budget,
    kept: &Mutex<Kept<D::Board>>,
    told: &AtomicBool,
) -> Vec<String> {
    let mut lines = Vec::new();
    let budget_started = std::time::Instant::now();
    let untold = || !told.load(Ordering::Relaxed);
    // What a search has, as an `info` line.
    let said = |depth: Option<u32>,
                seldepth,
                found: (f64, bool, Option<u32>),
                nodes,
                elapsed: Duration,
                pv,
                multipv| {
        let (score, exact, plies_to_end) = found;
        let (cp, mate) = crate::game::in_pawns::<GameOf<D>>(score, exact, plies_to_end);
        info::<D>(&Iteration {
            depth: depth.unwrap_or(0).max(1),
            seldepth,
            score,
            cp,
            mate,
            score_for: position.side_to_move(),
            nodes,
            nps: Iteration::nps(nodes, elapsed),
            time_ms: elapsed.as_millis() as u64,
            pv,
            pv_san: None,
            multipv,
        })
    };
    // At a level the level's own choice answers, its lines as many as asked: the move is
    // drawn among the lines it prints.
    let at_level =
        crate::search::level::handicap(&GameOf::<D>::DECLARATION, &params.options()).is_some();
    if params.multipv.is_some() && !go.mate && !at_level {
        // The best lines, each iteration's said as it ends, numbered.
        let analysis = D::analyze(position, params, budget);
        if untold() {
            for (rank, found) in (1..).zip(&analysis.moves) {
                lines.push(said(
                    found.depth,
                    0,
                    (found.score, found.exact, found.plies_to_end),
                    analysis.nodes,
                    analysis.elapsed,
                    written(position, &found.pv, D::Board::protocol_text),
                    Some(rank),
                ));
            }
        }
        // Stopped before its first line was searched whole: the first legal move.
        let best = match analysis.moves.first() {
            Some(found) => bestmove::<D>(position, &found.pv, found.mv, found.score, found.exact),
            None => match position.perft_moves().next() {
                Some(mv) => bestmove::<D>(position, &[], mv, 0.0, false),
                None => D::NO_MOVE.to_owned(),
            },
        };
        lines.push(best);
        return lines;
    }
    if go.mate
        && let Some((answer, nodes)) = D::solve_mate(position, budget)
    {
        let elapsed = budget_started.elapsed();
        lines.push(format!(
            "info nodes {nodes} time {} nps {}",
            elapsed.as_millis(),
            Iteration::nps(nodes, elapsed)
        ));
        lines.push(answer);
        return lines;
    }
    let result = D::search(position, params, budget, &mut lock(kept));
    if untold() {
        lines.push(said(
            result.depth,
            result.seldepth.unwrap_or(0),
            (result.score, result.exact, result.plies_to_end),
            result.nodes,
            result.elapsed,
            written(position, &result.pv, D::Board::protocol_text),
            None,
        ));
    }
    if go.mate
        && let Some(answer) = D::checkmate(position, &result)
    {
        lines.push(answer);
        return lines;
    }
    lines.push(bestmove::<D>(
        position,
        &result.pv,
        result.best_move,
        result.score,
        result.exact,
    ));
    lines
}

/// `bestmove`: the move, with the reply its line expects (`ponder`) where the line has one; or
/// `resign` where the dialect resigns a game the engine has proven lost whatever it plays.
fn bestmove<D: Dialect>(
    game: &GameOf<D>,
    line: &[MoveOf<D>],
    mv: MoveOf<D>,
    score: f64,
    exact: bool,
) -> String {
    if D::RESIGNS && exact && score < 0.0 {
        return "bestmove resign".to_owned();
    }
    let text = D::Board::protocol_text(game, mv);
    let reply = match line {
        [first, reply, ..] if *first == mv => {
            let after = game.play(mv);
            (!after.outcome().is_over()).then(|| D::Board::protocol_text(&after, *reply))
        }
        _ => None,
    };
    match reply {
        Some(reply) => format!("bestmove {text} ponder {reply}"),
        None => format!("bestmove {text}"),
    }
}

/// An iteration as the `info` line gives it, numbered `multipv` when it is one of several
/// lines.
fn info<D: Dialect>(iteration: &Iteration) -> String {
    let score = match (iteration.mate, iteration.cp) {
        (Some(mate), _) => format!("mate {}", D::mate(mate)),
        (None, cp) => format!("cp {}", cp.unwrap_or(0)),
    };
    // A line of several has no seldepth of its own: it is left out, as the protocols allow.
    let seldepth = match iteration.seldepth {
        0 => String::new(),
        seldepth => format!(" seldepth {seldepth}"),
    };
    let number = iteration
        .multipv
        .map_or(String::new(), |number| format!(" multipv {number}"));
    let mut line = format!(
        "info depth {}{seldepth}{number} score {score} nodes {} nps {} time {}",
        iteration.depth, iteration.nodes, iteration.nps, iteration.time_ms,
    );
    if !iteration.pv.is_empty() {
        line.push_str(" pv ");
        line.push_str(&iteration.pv.join(" "));
    }
    line
}

fn say(output: &Mutex<impl Write>, lines: &[&str]) -> io::Result<()> {
    let mut output = lock(output);
    for line in lines {
        writeln!(output, "{line}")?;
    }
    output.flush()
}

/// The position of `position startpos|BOARD TEXT [moves ...]`.
fn position<D: Dialect>(words: &[&str]) -> Result<GameOf<D>, String> {
    let board = D::BOARD;
    let (mut position, rest) = match words {
        ["startpos", rest @ ..] => (GameOf::<D>::start(), rest),
        [word, rest @ ..] if *word == board => {
            let fields = rest.iter().take_while(|word| **word != "moves").count();
            let text = rest[..fields].join(" ");
            let position = text
                .parse::<GameOf<D>>()
                .map_err(|error| format!("position {board} {text}: {error}"))?;
            (position, &rest[fields..])
        }
        _ => {
            let upper = board.to_uppercase();
            return Err(format!(
                "expected position startpos|{board} {upper} [moves ...]"
            ));
        }
    };
    if let ["moves", moves @ ..] = rest {
        for (index, mv) in moves.iter().enumerate() {
            // A draw that could be claimed here was not: the game goes on.
            position.play_on();
            let read = position
                .read_move(&Notation::Text((*mv).to_owned()))
                .map_err(|error| format!("position: move {} ({mv}): {error}", index + 1))?;
            position = position.play(read);
        }
    }
    position.play_on();
    Ok(position)
}
