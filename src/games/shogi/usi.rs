//! Shogi's engine over USI (`sente usi`, the protocol shogi's declaration names), the Universal
//! Shogi Interface that shogi GUIs (ShogiHome, Shogidokoro, ShogiGUI) and match runners speak.
//!
//! The commands read one a line: `usi`, `isready`, `setoption name Hash|USI_Hash|MultiPV value
//! N`, `usinewgame`, `position startpos|sfen SFEN [moves ...]`, `go` (with `btime`, `wtime`,
//! `byoyomi`, `binc`, `winc`, `movetime`, `depth`, `nodes`, `infinite`, or `mate`), `stop`,
//! `ponderhit`, `gameover` and `quit`. A search runs on a thread of its own, so that `stop` and
//! `isready` are answered while it thinks; it ends with `info` lines and `bestmove` (`bestmove
//! resign` when every move loses to a mate, `bestmove win` to declare the entering-king win).
//! `go mate` answers `checkmate` and the moves, `checkmate nomate`, or `checkmate timeout`.
//! A line that is not understood is answered with `info string` saying why, and changes nothing.

use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use super::engine::{Kept, search_keeping};
use super::{Shogi, ShogiMove};
use crate::game::{Game, Notation};
use crate::lines;
use crate::search::{self, Budget, Clock, EngineParams, Iteration, Solve, Watch};

/// The engine's name, as `id name` gives it.
pub const NAME: &str = concat!("Sente ", env!("CARGO_PKG_VERSION"));

/// The most MiB the `Hash` option takes.
pub const MAX_HASH_MB: u32 = 1024;

/// The most lines `MultiPV` asks for.
pub const MAX_MULTIPV: u32 = 500;

/// How long `go infinite` may think: until `stop`, in practice.
const INFINITE: Duration = Duration::from_secs(7 * 24 * 3600);

/// The longest line read: far longer than any `position` of a real game.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// [`serve`] on this process's standard input and output, as `sente usi` runs it.
pub fn serve_stdio() -> io::Result<()> {
    serve(io::stdin().lock(), io::stdout())
}

/// Speaks USI on `input` and `output` until `quit` or the end of the input.
pub fn serve(mut input: impl BufRead, output: impl Write + Send + 'static) -> io::Result<()> {
    let mut session = Session {
        position: Ok(Shogi::start()),
        table: Arc::new(Mutex::new(Kept::default())),
        hash_mb: search::DEFAULT_HASH_MB,
        multipv: 1,
        output: Arc::new(Mutex::new(output)),
        search: None,
    };
    let mut bytes = Vec::new();
    loop {
        let line = match lines::read_line(&mut input, &mut bytes, MAX_LINE_BYTES)? {
            lines::Read::End => {
                session.stop();
                return Ok(());
            }
            lines::Read::TooLong => {
                lines::skip_line(&mut input)?;
                session.say(&["info string ignored a line longer than 1 MiB"])?;
                continue;
            }
            lines::Read::Line => match std::str::from_utf8(lines::text(&bytes)) {
                Ok(line) => line.to_owned(),
                Err(_) => {
                    session.say(&["info string ignored a line that is not UTF-8"])?;
                    continue;
                }
            },
        };
        let mut words = line.split_whitespace();
        match words.next() {
            Some("usi") => session.say(&[
                &format!("id name {NAME}"),
                "id author the Sente developers",
                &format!(
                    "option name USI_Hash type spin default {} min 1 max {MAX_HASH_MB}",
                    search::DEFAULT_HASH_MB
                ),
                &format!("option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}"),
                "usiok",
            ])?,
            Some("isready") => {
                // The table of the USI_Hash asked is made here, where a GUI waits for it, not
                // in the first `go`'s clock; not while a search may be using one, since
                // `isready` during a search is answered at once.
                if session.search.is_none() {
                    session
                        .table
                        .lock()
                        .unwrap_or_else(|poisoned| poisoned.into_inner())
                        .prepare(session.hash_mb);
                }
                session.say(&["readyok"])?;
            }
            Some("usinewgame") => {
                session.stop();
                session.position = Ok(Shogi::start());
                let mut table = session
                    .table
                    .lock()
                    .unwrap_or_else(|poisoned| poisoned.into_inner());
                table.prepare(session.hash_mb);
                table.clear();
            }
            Some("setoption") => {
                if let Err(error) = session.set_option(&words.collect::<Vec<_>>()) {
                    session.say(&[&format!("info string {error}")])?;
                }
            }
            Some("position") => {
                session.stop();
                // A refused position replaces the last: `go` must not answer for a position the
                // GUI no longer means.
                session.position = position(&words.collect::<Vec<_>>());
                if let Err(error) = &session.position {
                    session.say(&[&format!("info string {error}")])?;
                }
            }
            Some("go") => {
                session.stop();
                let go = Go::read(&words.collect::<Vec<_>>());
                session.go(go)?;
            }
            Some("stop") => session.stop(),
            // Sente does not ponder: a ponderhit is a move it has not been asked to think on.
            Some("ponderhit") => {}
            // The game is over: its table is emptied now, before the next one's clock runs.
            Some("gameover") => {
                session.stop();
                let mut table = session
                    .table
                    .lock()
                    .unwrap_or_else(|poisoned| poisoned.into_inner());
                table.clear();
            }
            Some("quit") => {
                session.stop();
                return Ok(());
            }
            Some(other) => session.say(&[&format!("info string unknown command {other:?}")])?,
            None => {}
        }
    }
}

struct Session<W> {
    /// The position `go` searches, or why the last `position` was refused.
    position: Result<Shogi, String>,
    /// The engine's table, kept from one move to the next until `usinewgame`.
    table: Arc<Mutex<Kept>>,
    hash_mb: u32,
    multipv: u32,
    output: Arc<Mutex<W>>,
    search: Option<Search>,
}

/// A search in progress: its stop flag and its thread, which answers `bestmove`.
struct Search {
    stop: Arc<AtomicBool>,
    thread: JoinHandle<()>,
}

impl<W: Write + Send + 'static> Session<W> {
    fn say(&self, lines: &[&str]) -> io::Result<()> {
        say(&self.output, lines)
    }

    /// Stops the search in progress, if any, once it has answered.
    fn stop(&mut self) {
        if let Some(search) = self.search.take() {
            search.stop.store(true, Ordering::Relaxed);
            let _ = search.thread.join();
        }
    }

    fn set_option(&mut self, words: &[&str]) -> Result<(), String> {
        let text = words.join(" ");
        let (name, value) = text
            .strip_prefix("name ")
            .and_then(|rest| rest.split_once(" value "))
            .ok_or_else(|| format!("expected setoption name NAME value VALUE, got {text:?}"))?;
        let number = |max: u32| {
            value
                .trim()
                .parse::<u32>()
                .ok()
                .filter(|n| (1..=max).contains(n))
                .ok_or_else(|| format!("{} is 1 to {max}, got {value:?}", name.trim()))
        };
        match name.trim() {
            name if name.eq_ignore_ascii_case("usi_hash") || name.eq_ignore_ascii_case("hash") => {
                self.hash_mb = number(MAX_HASH_MB)?;
            }
            name if name.eq_ignore_ascii_case("multipv") => self.multipv = number(MAX_MULTIPV)?,
            // GUIs send these to every engine; Sente does not ponder.
            name if name.eq_ignore_ascii_case("usi_ponder") => {}
            other => return Err(format!("no option {other:?}")),
        }
        Ok(())
    }

    fn go(&mut self, go: Go) -> io::Result<()> {
        let cannot = if go.mate {
            "checkmate nomate"
        } else {
            "bestmove resign"
        };
        let position = match &self.position {
            Ok(position) => position.clone(),
            Err(error) => {
                let why =
                    format!("info string no position to search, the last was refused: {error}");
                return self.say(&[&why, cannot]);
            }
        };
        // Over by Sente's rules: mated (or lost to perpetual check) is a resignation; a draw
        // (sennichite, the move limit) or a win the GUI plays on is searched as the pieces
        // stand, since the GUI, not the engine, ends its games.
        if let Some(ending) = position.ending() {
            let lost =
                position.outcome() == crate::game::Outcome::Won(position.side_to_move().opponent());
            let said = format!(
                "info string the game is over by Sente's rules ({})",
                ending.name()
            );
            if lost || go.mate || position.perft_moves().next().is_none() {
                return self.say(&[&said, cannot]);
            }
            self.say(&[&format!("{said}; a move all the same")])?;
        }
        let gote = position.side_to_move() == crate::game::Player::O;
        let params = EngineParams {
            time_limit: go.time(gote),
            depth: go.depth,
            hash_mb: self.hash_mb,
            nodes: go.nodes,
            clock: go.clock,
            multipv: (self.multipv > 1).then_some(self.multipv),
            ..EngineParams::default()
        };
        let stop = Arc::new(AtomicBool::new(false));
        let output = Arc::clone(&self.output);
        let watch = {
            let output = Arc::clone(&output);
            Watch::new(move |iteration| {
                let _ = say(&output, &[&info(iteration)]);
            })
        };
        let budget = Budget {
            cancelled: Some(Arc::clone(&stop)),
            watch: Some(watch),
            ..Budget::default()
        };
        let stopped = Arc::clone(&stop);
        let table = Arc::clone(&self.table);
        let thread = std::thread::spawn(move || {
            // A search that fails still answers, so that no GUI waits for a `bestmove` that
            // never comes.
            let answer = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                let mut table = table
                    .lock()
                    .unwrap_or_else(|poisoned| poisoned.into_inner());
                think(&position, &go, &params, &budget, &mut table)
            }))
            .unwrap_or_else(|panic| {
                let why = search::panic_message(panic.as_ref()).replace('\n', " ");
                format!("info string the search failed: {why}\n{cannot}")
            });
            // In `go infinite` the answer waits for `stop`, as USI asks.
            while go.infinite && !stopped.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(5));
            }
            let _ = say(&output, &[&answer]);
        });
        self.search = Some(Search { stop, thread });
        Ok(())
    }
}

/// What `go` answers: `checkmate ...` for `go mate`, else `bestmove`; searched with the
/// session's table.
fn think(
    position: &Shogi,
    go: &Go,
    params: &EngineParams,
    budget: &Budget,
    table: &mut Kept,
) -> String {
    if go.mate {
        return mate(position, params, budget, table);
    }
    if params.multipv.is_some() {
        let analysis = position.engine_analysis(params, budget);
        return match analysis.moves.first() {
            Some(line) => bestmove(line.mv, line.score, line.exact),
            None => match position.perft_moves().next() {
                Some(mv) => bestmove(mv, 0.0, false),
                None => "bestmove resign".to_owned(),
            },
        };
    }
    let result = search_keeping(position, params, budget, table);
    bestmove(result.best_move, result.score, result.exact)
}

/// `bestmove`: the move, `resign` when the engine has proven it is mated whatever it plays.
fn bestmove(mv: ShogiMove, score: f64, exact: bool) -> String {
    if exact && score < 0.0 {
        "bestmove resign".to_owned()
    } else {
        format!("bestmove {}", mv.usi())
    }
}

/// `go mate`: a mate found by the engine (within the time or depth given), as USI's `checkmate`
/// line writes it.
fn mate(position: &Shogi, params: &EngineParams, budget: &Budget, table: &mut Kept) -> String {
    let result = search_keeping(position, params, budget, table);
    if result.exact && result.score > 0.0 {
        let moves: Vec<String> = result.pv.iter().map(|mv| mv.usi()).collect();
        format!("checkmate {}", moves.join(" "))
    } else if result.stopped_by.is_some() {
        "checkmate timeout".to_owned()
    } else {
        "checkmate nomate".to_owned()
    }
}

/// An iteration as USI's `info` line gives it.
fn info(iteration: &Iteration) -> String {
    let score = match (iteration.mate, iteration.cp) {
        (Some(mate), _) => format!("mate {}", mate_plies(mate)),
        (None, cp) => format!("cp {}", cp.unwrap_or(0)),
    };
    let number = iteration
        .multipv
        .map_or(String::new(), |number| format!(" multipv {number}"));
    let mut line = format!(
        "info depth {} seldepth {}{number} score {score} nodes {} nps {} time {}",
        iteration.depth, iteration.seldepth, iteration.nodes, iteration.nps, iteration.time_ms,
    );
    if !iteration.pv.is_empty() {
        line.push_str(" pv ");
        line.push_str(&iteration.pv.join(" "));
    }
    line
}

/// USI counts a mate in plies (`mate 3`: mate on the side to move's third ply from now;
/// `mate -2`: mated in two), where the API counts moves.
fn mate_plies(moves: i32) -> i32 {
    if moves > 0 { 2 * moves - 1 } else { 2 * moves }
}

fn say(output: &Mutex<impl Write>, lines: &[&str]) -> io::Result<()> {
    let mut output = output.lock().expect("no thread panics holding it");
    for line in lines {
        writeln!(output, "{line}")?;
    }
    output.flush()
}

/// The position of `position startpos|sfen SFEN [moves ...]`.
fn position(words: &[&str]) -> Result<Shogi, String> {
    let (mut position, rest) = match words {
        ["startpos", rest @ ..] => (Shogi::start(), rest),
        ["sfen", rest @ ..] => {
            let fields = rest.iter().take_while(|word| **word != "moves").count();
            let sfen = rest[..fields].join(" ");
            let position = sfen
                .parse::<Shogi>()
                .map_err(|error| format!("position sfen {sfen}: {error}"))?;
            (position, &rest[fields..])
        }
        _ => return Err("expected position startpos|sfen SFEN [moves ...]".into()),
    };
    if let ["moves", moves @ ..] = rest {
        for (index, mv) in moves.iter().enumerate() {
            let read = position
                .read_move(&Notation::Text((*mv).to_owned()))
                .map_err(|error| format!("position: move {} ({mv}): {error}", index + 1))?;
            position = position.play(read);
        }
    }
    Ok(position)
}

/// What `go` asks.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Go {
    clock: Clock,
    movetime: Option<u64>,
    depth: Option<u32>,
    nodes: Option<u64>,
    infinite: bool,
    /// `go mate`: a mate search, answered with `checkmate`.
    mate: bool,
    /// `go mate N`: its time in milliseconds (`infinite` is none).
    mate_time: Option<u64>,
}

impl Go {
    fn read(words: &[&str]) -> Go {
        let mut go = Go::default();
        let mut words = words.iter().peekable();
        while let Some(word) = words.next() {
            let mut number = || words.next().and_then(|value| value.parse::<i64>().ok());
            let millis = |value: Option<i64>| value.map(|ms| ms.max(0) as u64);
            let duration = |value: Option<i64>| millis(value).map(Duration::from_millis);
            match *word {
                "btime" => go.clock.btime = duration(number()),
                "wtime" => go.clock.wtime = duration(number()),
                "binc" => go.clock.binc = duration(number()),
                "winc" => go.clock.winc = duration(number()),
                "byoyomi" => go.clock.byoyomi = duration(number()),
                "movetime" => go.movetime = millis(number()),
                "depth" => go.depth = number().map(|depth| depth.clamp(1, 64) as u32),
                "nodes" => go.nodes = millis(number()).map(|nodes| nodes.max(1)),
                "infinite" => go.infinite = true,
                "mate" => {
                    go.mate = true;
                    go.mate_time = millis(number());
                }
                _ => {}
            }
        }
        go
    }

    /// How long to think when the clock does not say: the time per move, a mate search's time,
    /// or until told to stop. With the mover's clock or a byoyomi, the engine shares it out.
    fn time(&self, gote: bool) -> Option<Duration> {
        if let Some(movetime) = self.movetime.or(self.mate_time) {
            return Some(Duration::from_millis(movetime.max(1)));
        }
        if self.infinite || self.mate {
            return Some(INFINITE);
        }
        match (self.clock.of(gote), self.clock.byoyomi) {
            (None, None) if self.depth.is_none() && self.nodes.is_none() => Some(INFINITE),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_reads_usi_clocks_and_mate() {
        let go = Go::read(&["btime", "10000", "wtime", "8000", "byoyomi", "1000"]);
        assert_eq!(go.clock.byoyomi, Some(Duration::from_millis(1000)));
        assert_eq!(
            go.clock.of(true),
            Some((Duration::from_millis(8000), Duration::ZERO))
        );
        assert_eq!(go.time(false), None);
        assert_eq!(Go::read(&["byoyomi", "500"]).time(false), None);
        let mate = Go::read(&["mate", "3000"]);
        assert!(mate.mate);
        assert_eq!(mate.time(false), Some(Duration::from_millis(3000)));
        assert_eq!(Go::read(&["mate", "infinite"]).time(true), Some(INFINITE));
        assert_eq!(Go::read(&["infinite"]).time(true), Some(INFINITE));
    }

    #[test]
    fn positions_are_read_with_their_moves() {
        let after = position(&["startpos", "moves", "7g7f", "3c3d"]).unwrap();
        assert_eq!(after.ply(), 2);
        assert!(
            position(&["startpos", "moves", "7g7e"])
                .unwrap_err()
                .contains("move 1 (7g7e)")
        );
        assert!(position(&["sfen", "nonsense"]).is_err());
    }

    #[test]
    fn mates_are_counted_in_plies() {
        assert_eq!(mate_plies(1), 1);
        assert_eq!(mate_plies(2), 3);
        assert_eq!(mate_plies(-1), -2);
    }

    /// What a session answers `input`, every line of it.
    fn session(input: &str) -> String {
        let output = Arc::new(Mutex::new(Vec::new()));
        struct Shared(Arc<Mutex<Vec<u8>>>);
        impl Write for Shared {
            fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
                self.0.lock().unwrap().extend_from_slice(bytes);
                Ok(bytes.len())
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        serve(input.as_bytes(), Shared(Arc::clone(&output))).unwrap();
        String::from_utf8(output.lock().unwrap().clone()).unwrap()
    }

    /// Positions a GUI may send that no game reaches: each refused in an `info string`, and the
    /// session lives on. A `go` after a refusal answers (no GUI waits for ever) but not for the
    /// position before it.
    #[test]
    fn hostile_positions_are_refused_and_go_never_answers_for_the_last_good_one() {
        let text = session(
            "position startpos moves 7g7f\n\
             position sfen 4k4/9/9/9/9/4r4/4G4/9/4K4 b 3R 1 moves 5g5f\n\
             go depth 3\n\
             position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b 2P 1\n\
             isready\n\
             quit\n",
        );
        assert!(
            text.contains("Sente has 3 rooks and Gote 1: a set has 2"),
            "{text}"
        );
        assert!(text.contains("Sente has 11 pawns"), "{text}");
        assert!(
            text.contains("info string no position to search, the last was refused"),
            "{text}"
        );
        let best: Vec<&str> = text
            .lines()
            .filter(|line| line.starts_with("bestmove"))
            .collect();
        assert_eq!(best, ["bestmove resign"], "{text}");
        assert!(text.contains("readyok"), "{text}");
    }

    /// A game drawn by Sente's rules (sennichite, the move limit) is not resigned: the GUI ends
    /// its games, and the engine answers a move, saying why it might not.
    #[test]
    fn a_drawn_game_is_answered_with_a_move_not_a_resignation() {
        let cycle = "2h1h 8b9b 1h2h 9b8b ";
        let text = session(&format!(
            "position startpos moves {}\ngo depth 2\nquit\n",
            cycle.repeat(3).trim()
        ));
        assert!(text.contains("(sennichite); a move all the same"), "{text}");
        let best = text
            .lines()
            .find_map(|line| line.strip_prefix("bestmove "))
            .unwrap();
        assert_ne!(best, "resign", "{text}");
        let text = session(
            "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 600\n\
             go depth 2\nquit\n",
        );
        assert!(text.contains("(move_limit)"), "{text}");
        assert!(!text.contains("bestmove resign"), "{text}");
        // Mated is still a resignation.
        let text = session("position sfen 8k/7G1/8G/9/9/9/9/9/4K4 w - 1\ngo depth 2\nquit\n");
        assert!(text.contains("bestmove resign"), "{text}");
    }

    /// A whole session: the handshake, a position, a search with its info lines and bestmove.
    #[test]
    fn a_session_answers_a_gui() {
        let text =
            session("usi\nisready\nusinewgame\nposition startpos moves 7g7f\ngo depth 2\nquit\n");
        assert!(text.contains("usiok"), "{text}");
        assert!(text.contains("readyok"), "{text}");
        let best = text
            .lines()
            .find_map(|line| line.strip_prefix("bestmove "))
            .expect("a bestmove");
        let after = position(&["startpos", "moves", "7g7f", best]);
        assert!(after.is_ok(), "{best} is legal: {text}");
    }
}
