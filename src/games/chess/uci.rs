//! Chess's engine over UCI (`sente uci`, the protocol chess's declaration names): chess GUIs,
//! match runners (fastchess, cutechess) and lichess-bot speak to it on standard input and
//! output as to any engine.
//!
//! The commands read one a line: `uci`, `isready`, `ucinewgame`, `setoption` (`Hash`, `MultiPV`,
//! `Evaluation`, `EvalFile`, `UCI_LimitStrength` and `UCI_Elo`, `Threads`),
//! `position startpos|fen FEN [moves ...]`, `go` (with `wtime`, `btime`, `winc`, `binc`,
//! `movestogo`, `movetime`, `depth`, `nodes`, `infinite`), `stop` and `quit`. A search runs on a
//! thread of its own, so that `stop` and `isready` are answered while it thinks; it ends with an
//! `info` line of what it found and `bestmove`. A line that is not understood is answered with
//! `info string` saying why, as engines do, and changes nothing.

use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use super::engine::DEFAULT_EVALUATION;
use super::{Chess, Kept, nnue, search_keeping};
use crate::game::{Game, Notation, Player, in_pawns, written};
use crate::lines;
use crate::search::{
    self, Budget, Clock, EngineParams, EvaluationIndex, Iteration, MAX_ELO, MIN_ELO, Solve, Watch,
};

/// The engine's name, as `id name` gives it.
pub const NAME: &str = concat!("Sente ", env!("CARGO_PKG_VERSION"));

/// The most MiB the `Hash` option takes.
pub const MAX_HASH_MB: u32 = 1024;

/// What `EvalFile` says while the engine plays with the net built into it.
const SHIPPED_NET: &str = "<shipped>";

/// The names of chess's evaluations, as `Evaluation` takes them.
fn evaluation_names() -> impl Iterator<Item = &'static str> {
    Chess::EVALUATIONS.iter().map(|evaluation| evaluation.name)
}

/// `UCI_Elo` until it is set: a strong club player's.
const DEFAULT_ELO: u32 = 2000;

/// The most lines `MultiPV` asks for: as many as the HTTP API's `multipv` knob.
pub const MAX_MULTIPV: u32 = 500;

/// How long `go infinite` may think: until `stop`, in practice.
const INFINITE: Duration = Duration::from_secs(7 * 24 * 3600);

/// [`serve`] on this process's standard input and output, as `sente uci` runs it.
pub fn serve_stdio() -> io::Result<()> {
    serve(io::stdin().lock(), io::stdout())
}

/// Speaks UCI on `input` and `output` until `quit` or the end of the input, which is `quit`
/// too.
pub fn serve(input: impl BufRead, output: impl Write + Send + 'static) -> io::Result<()> {
    let output = Arc::new(Mutex::new(output));
    let mut session = Session {
        position: Chess::start(),
        hash_mb: search::DEFAULT_HASH_MB,
        multipv: 1,
        evaluation: None,
        limit_strength: false,
        elo: DEFAULT_ELO,
        table: Arc::new(Mutex::new(Kept::default())),
        output,
        search: None,
    };
    let mut input = input;
    let mut bytes = Vec::new();
    loop {
        let line = match read_line(&mut input, &mut bytes)? {
            Read::Line(line) => line,
            // What an engine does not understand it ignores, as UCI asks: a line that is not
            // UTF-8 among it.
            Read::Unreadable(why) => {
                session.say(&[&format!("info string ignored a line {why}")])?;
                continue;
            }
            // The end of the input is `quit`, as it is to other engines: the search in
            // progress stops and answers, rather than searching on for no one.
            Read::End => {
                session.stop();
                return Ok(());
            }
        };
        let mut words = line.split_whitespace();
        match words.next() {
            Some("uci") => session.say(&[
                &format!("id name {NAME}"),
                "id author the Sente developers",
                &format!(
                    "option name Hash type spin default {} min 1 max {MAX_HASH_MB}",
                    search::DEFAULT_HASH_MB
                ),
                // One thread: declared, so that GUIs and match runners that set it find it.
                "option name Threads type spin default 1 min 1 max 1",
                &format!("option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}"),
                &format!(
                    "option name Evaluation type combo default {DEFAULT_EVALUATION}{}",
                    evaluation_names()
                        .map(|name| format!(" var {name}"))
                        .collect::<String>()
                ),
                &format!("option name EvalFile type string default {SHIPPED_NET}"),
                "option name UCI_LimitStrength type check default false",
                &format!(
                    "option name UCI_Elo type spin default {DEFAULT_ELO} min {MIN_ELO} max \
                     {MAX_ELO}"
                ),
                "uciok",
            ])?,
            Some("isready") => {
                // The table of the Hash asked is made here, where a GUI waits for it, not in
                // the first `go`'s clock; not while a search may hold it, since `isready`
                // during a search is answered at once.
                if session.search.is_none()
                    && let Ok(mut table) = session.table.try_lock()
                {
                    table.prepare(session.hash_mb);
                }
                session.say(&["readyok"])?;
            }
            Some("ucinewgame") => {
                session.stop();
                session.position = Chess::start();
                session
                    .table
                    .lock()
                    .expect("no thread panics holding it")
                    .clear();
            }
            Some("setoption") => {
                let said = session.set_option(&words.collect::<Vec<_>>());
                if let Err(error) = said {
                    session.say(&[&format!("info string {error}")])?;
                }
            }
            Some("position") => {
                session.stop();
                match position(&words.collect::<Vec<_>>()) {
                    Ok(position) => session.position = position,
                    Err(error) => session.say(&[&format!("info string {error}")])?,
                }
            }
            Some("go") => {
                session.stop();
                let go = Go::read(&words.collect::<Vec<_>>());
                session.go(go)?;
            }
            Some("stop") => session.stop(),
            Some("quit") => {
                session.stop();
                return Ok(());
            }
            Some(other) => session.say(&[&format!("info string unknown command {other:?}")])?,
            None => {}
        }
    }
}

/// The longest line read: far longer than any `position` of a real game.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// What [`read_line`] read.
enum Read<'a> {
    Line(&'a str),
    /// A line that is not UTF-8, or longer than [`MAX_LINE_BYTES`] (read no further than its
    /// end): why.
    Unreadable(&'static str),
    End,
}

/// The next line of `input`, read into `bytes`.
fn read_line<'a>(input: &mut impl BufRead, bytes: &'a mut Vec<u8>) -> io::Result<Read<'a>> {
    match lines::read_line(input, bytes, MAX_LINE_BYTES)? {
        lines::Read::End => Ok(Read::End),
        lines::Read::TooLong => {
            lines::skip_line(input)?;
            Ok(Read::Unreadable("longer than 1 MiB"))
        }
        lines::Read::Line => match std::str::from_utf8(lines::text(bytes)) {
            Ok(line) => Ok(Read::Line(line)),
            Err(_) => Ok(Read::Unreadable("that is not UTF-8")),
        },
    }
}

struct Session<W> {
    position: Chess,
    hash_mb: u32,
    /// How many of the best lines a search answers (`MultiPV`).
    multipv: u32,
    /// Which of chess's evaluations the engine uses (`Evaluation`); its own default if unset.
    evaluation: Option<EvaluationIndex>,
    /// Whether the engine plays at `elo` (`UCI_LimitStrength`) rather than its full strength.
    limit_strength: bool,
    /// The strength it plays at when limited (`UCI_Elo`).
    elo: u32,
    /// The engine's table, kept from one move to the next until `ucinewgame`.
    table: Arc<Mutex<Kept>>,
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
        match name.trim() {
            name if name.eq_ignore_ascii_case("hash") => {
                self.hash_mb = value
                    .trim()
                    .parse()
                    .ok()
                    .filter(|mb| (1..=MAX_HASH_MB).contains(mb))
                    .ok_or_else(|| format!("Hash is 1 to {MAX_HASH_MB} MiB, got {value:?}"))?;
                Ok(())
            }
            name if name.eq_ignore_ascii_case("multipv") => {
                self.multipv = value
                    .trim()
                    .parse()
                    .ok()
                    .filter(|lines| (1..=MAX_MULTIPV).contains(lines))
                    .ok_or_else(|| format!("MultiPV is 1 to {MAX_MULTIPV}, got {value:?}"))?;
                Ok(())
            }
            name if name.eq_ignore_ascii_case("evaluation") => {
                let index = evaluation_names()
                    .position(|known| known.eq_ignore_ascii_case(value.trim()))
                    .ok_or_else(|| {
                        format!(
                            "Evaluation is one of {}, got {value:?}",
                            evaluation_names().collect::<Vec<_>>().join(", ")
                        )
                    })?;
                self.evaluation = Some(index as EvaluationIndex);
                Ok(())
            }
            // The net in a file, in place of the shipped one: for a net in training to play
            // matches before it is built in.
            name if name.eq_ignore_ascii_case("evalfile") => match value.trim() {
                "" | SHIPPED_NET => nnue::load(None),
                path => nnue::load(Some(std::path::Path::new(path))),
            },
            name if name.eq_ignore_ascii_case("uci_limitstrength") => {
                self.limit_strength = match value.trim() {
                    value if value.eq_ignore_ascii_case("true") => true,
                    value if value.eq_ignore_ascii_case("false") => false,
                    _ => return Err(format!("UCI_LimitStrength is true or false, got {value:?}")),
                };
                Ok(())
            }
            name if name.eq_ignore_ascii_case("uci_elo") => {
                self.elo = value
                    .trim()
                    .parse()
                    .ok()
                    .filter(|elo| (MIN_ELO..=MAX_ELO).contains(elo))
                    .ok_or_else(|| format!("UCI_Elo is {MIN_ELO} to {MAX_ELO}, got {value:?}"))?;
                Ok(())
            }
            name if name.eq_ignore_ascii_case("threads") => match value.trim() {
                "1" => Ok(()),
                _ => Err(format!("{name} is 1: Sente searches on one thread")),
            },
            other => Err(format!("no option {other:?}")),
        }
    }

    fn go(&mut self, go: Go) -> io::Result<()> {
        if self.position.outcome().is_over() {
            return self.say(&["info string the game is over", "bestmove 0000"]);
        }
        let white = self.position.side_to_move() == Player::X;
        let params = EngineParams {
            time_limit: go.time(white),
            depth: go.depth,
            hash_mb: self.hash_mb,
            nodes: go.nodes,
            clock: go.clock,
            evaluation: self.evaluation,
            elo: self.limit_strength.then_some(self.elo),
            ..EngineParams::default()
        };
        let stop = Arc::new(AtomicBool::new(false));
        let budget = Budget {
            cancelled: Some(Arc::clone(&stop)),
            ..Budget::default()
        };
        let position = self.position.clone();
        let output = Arc::clone(&self.output);
        let stopped = Arc::clone(&stop);
        let table = Arc::clone(&self.table);
        // Each finished iteration is an `info` line as it comes, as engines report.
        let told = Arc::new(AtomicBool::new(false));
        let watch = {
            let (output, told) = (Arc::clone(&output), Arc::clone(&told));
            Watch::new(move |iteration| {
                told.store(true, Ordering::Relaxed);
                let _ = say(&output, &[&info(iteration)]);
            })
        };
        let budget = Budget {
            watch: Some(watch),
            ..budget
        };
        let multipv = self.multipv;
        let thread = std::thread::spawn(move || {
            // In `go infinite` the answer waits for `stop`, as UCI asks, even when the search
            // has nothing left to search.
            let wait_for_stop = || {
                while go.infinite && !stopped.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(5));
                }
            };
            let mut lines = Vec::new();
            let best_move = if multipv > 1 {
                // The best `multipv` lines, each iteration's said as it ends, numbered.
                let params = EngineParams {
                    multipv: Some(multipv),
                    ..params
                };
                let analysis = position.engine_analysis(&params, &budget);
                wait_for_stop();
                if !told.load(Ordering::Relaxed) {
                    // Stopped within its first iteration: the lines it has, said once.
                    for (rank, line) in (1..).zip(&analysis.moves) {
                        let (cp, mate) =
                            in_pawns::<Chess>(line.score, line.exact, line.plies_to_end);
                        lines.push(info(&Iteration {
                            depth: line.depth.unwrap_or(1).max(1),
                            seldepth: 0,
                            score: line.score,
                            cp,
                            mate,
                            score_for: position.side_to_move(),
                            nodes: analysis.nodes,
                            nps: Iteration::nps(analysis.nodes, analysis.elapsed),
                            time_ms: analysis.elapsed.as_millis() as u64,
                            pv: written(&position, &line.pv, |_, mv| Chess::uci_of(mv)),
                            pv_san: None,
                            multipv: Some(rank),
                        }));
                    }
                }
                // Stopped before its first line was searched whole: the first legal move.
                analysis.moves.first().map_or_else(
                    || position.legal_moves().next().expect("the game is not over"),
                    |line| line.mv,
                )
            } else {
                let mut table = table.lock().expect("no thread panics holding it");
                let result = search_keeping(&position, &params, &budget, &mut table);
                drop(table);
                wait_for_stop();
                if !told.load(Ordering::Relaxed) {
                    // Stopped within its first iteration: what it has, said once.
                    let (cp, mate) =
                        in_pawns::<Chess>(result.score, result.exact, result.plies_to_end);
                    lines.push(info(&Iteration {
                        depth: result.depth.unwrap_or(0).max(1),
                        seldepth: result.seldepth.unwrap_or(0),
                        score: result.score,
                        cp,
                        mate,
                        score_for: position.side_to_move(),
                        nodes: result.nodes,
                        nps: Iteration::nps(result.nodes, result.elapsed),
                        time_ms: result.elapsed.as_millis() as u64,
                        pv: Vec::new(),
                        pv_san: None,
                        multipv: None,
                    }));
                }
                result.best_move
            };
            lines.push(format!(
                "bestmove {}",
                position.notation(best_move).into_text()
            ));
            let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
            let _ = say(&output, &lines);
        });
        self.search = Some(Search { stop, thread });
        Ok(())
    }
}

/// An iteration as UCI's `info` line gives it, numbered `multipv` when it is one of several
/// lines.
fn info(iteration: &Iteration) -> String {
    let score = match (iteration.mate, iteration.cp) {
        (Some(mate), _) => format!("mate {mate}"),
        (None, cp) => format!("cp {}", cp.unwrap_or(0)),
    };
    // A line of several has no seldepth of its own: it is left out, as UCI allows.
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
    let mut output = output.lock().expect("no thread panics holding it");
    for line in lines {
        writeln!(output, "{line}")?;
    }
    output.flush()
}

/// The position of `position startpos|fen FEN [moves ...]`.
fn position(words: &[&str]) -> Result<Chess, String> {
    let (mut position, rest) = match words {
        ["startpos", rest @ ..] => (Chess::start(), rest),
        ["fen", rest @ ..] => {
            let fields = rest.iter().take_while(|word| **word != "moves").count();
            let fen = rest[..fields].join(" ");
            let position = fen
                .parse::<Chess>()
                .map_err(|error| format!("position fen {fen}: {error}"))?;
            (position, &rest[fields..])
        }
        _ => return Err("expected position startpos|fen FEN [moves ...]".into()),
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
}

impl Go {
    fn read(words: &[&str]) -> Go {
        let mut go = Go::default();
        let mut words = words.iter();
        while let Some(word) = words.next() {
            let mut number = || words.next().and_then(|value| value.parse::<i64>().ok());
            let millis = |value: Option<i64>| value.map(|ms| ms.max(0) as u64);
            let duration = |value: Option<i64>| millis(value).map(Duration::from_millis);
            match *word {
                "wtime" => go.clock.wtime = duration(number()),
                "btime" => go.clock.btime = duration(number()),
                "winc" => go.clock.winc = duration(number()),
                "binc" => go.clock.binc = duration(number()),
                "movestogo" => {
                    go.clock.movestogo = millis(number()).map(|moves| moves.clamp(1, 1_000) as u32);
                }
                "movetime" => go.movetime = millis(number()),
                "depth" => go.depth = number().map(|depth| depth.clamp(1, 64) as u32),
                "nodes" => go.nodes = millis(number()).map(|nodes| nodes.max(1)),
                "infinite" => go.infinite = true,
                _ => {}
            }
        }
        go
    }

    /// How long to think when the clock does not say: the time per move, or until told to
    /// stop (or the depth or nodes are reached). With the mover's clock, the engine shares it
    /// out itself.
    fn time(&self, white: bool) -> Option<Duration> {
        if let Some(movetime) = self.movetime {
            return Some(Duration::from_millis(movetime.max(1)));
        }
        match self.clock.of(white) {
            Some(_) if !self.infinite => None,
            _ => Some(INFINITE),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_reads_its_limits_and_shares_the_clock() {
        let go = Go::read(&[
            "wtime", "10000", "btime", "8000", "winc", "100", "binc", "100",
        ]);
        assert_eq!(
            go.clock.of(false),
            Some((Duration::from_millis(8000), Duration::from_millis(100)))
        );
        assert_eq!(go.time(true), None);
        let go = Go::read(&["wtime", "10000", "movestogo", "4"]);
        assert_eq!(go.clock.movestogo, Some(4));
        assert_eq!(go.time(false), Some(INFINITE));
        assert_eq!(
            Go::read(&["movetime", "100"]).time(false),
            Some(Duration::from_millis(100))
        );
        assert_eq!(Go::read(&["infinite"]).time(true), Some(INFINITE));
        assert_eq!(Go::read(&["depth", "99", "nodes", "0"]).depth, Some(64));
        assert_eq!(Go::read(&["nodes", "0"]).nodes, Some(1));
    }

    #[test]
    fn positions_are_read_with_their_moves() {
        let after = position(&["startpos", "moves", "e2e4", "e7e5"]).unwrap();
        assert_eq!(after.ply(), 2);
        let fen = "4k3/8/8/8/8/8/8/4K2R w K - 0 1";
        let words: Vec<&str> = format!("fen {fen} moves e1g1")
            .split_whitespace()
            .map(|w| Box::leak(w.to_owned().into_boxed_str()) as &str)
            .collect();
        assert_eq!(
            position(&words).unwrap().to_string(),
            "4k3/8/8/8/8/8/8/5RK1 b - - 1 1"
        );
        assert!(
            position(&["startpos", "moves", "e2e5"])
                .unwrap_err()
                .contains("move 1 (e2e5)")
        );
        assert!(position(&["fen", "nonsense"]).is_err());
    }

    /// `Evaluation` picks one of chess's evaluations, as the HTTP knob does; `EvalFile` a net
    /// in a file, refused in words when it is none.
    #[test]
    fn the_evaluation_and_its_net_are_options() {
        let session = Session::start();
        session.send(
            b"uci\nsetoption name Evaluation value nnue\nsetoption name Evaluation value neural\n\
              setoption name EvalFile value /nonexistent/net.nnue\n\
              setoption name EvalFile value <shipped>\n\
              position startpos moves f2f3 e7e5 g2g4\ngo depth 3\n",
        );
        session.wait_for("bestmove");
        let text = session.end();
        assert!(
            text.contains(&format!(
                "option name Evaluation type combo default {DEFAULT_EVALUATION} var material \
                 var pesto var nnue"
            )),
            "{text}"
        );
        assert!(
            text.contains("option name EvalFile type string default <shipped>"),
            "{text}"
        );
        assert!(
            text.contains("info string Evaluation is one of material, pesto, nnue, got \"neural\""),
            "{text}"
        );
        assert!(
            text.contains("info string /nonexistent/net.nnue: "),
            "{text}"
        );
        // The net too finds the mate in one.
        assert!(text.ends_with("bestmove d8h4\n"), "{text}");
    }

    #[test]
    fn a_session_answers_as_a_uci_engine_does() {
        let session = Session::start();
        session.send(
            b"uci\nsetoption name Hash value 16\nsetoption name Colour value red\nisready\n\
              ucinewgame\nposition startpos moves f2f3 e7e5 g2g4\ngo depth 3\nisready\n",
        );
        session.wait_for("bestmove");
        let text = session.end();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], format!("id name {NAME}"));
        assert!(lines.contains(&"uciok"), "{text}");
        assert!(text.contains("info string no option \"Colour\""), "{text}");
        assert_eq!(
            lines.iter().filter(|line| **line == "readyok").count(),
            2,
            "{text}"
        );
        // Black mates in one: Qh4#. (The second `isready` may be answered before or after
        // so short a search ends: the table is ready, and the search takes microseconds.)
        assert!(text.contains("score mate 1"), "{text}");
        let best: Vec<&&str> = lines
            .iter()
            .filter(|line| line.starts_with("bestmove"))
            .collect();
        assert_eq!(best, [&"bestmove d8h4"], "{text}");
    }

    /// `MultiPV` answers that many lines at every iteration, each numbered, best first, then
    /// the first's move: here Black's mate in one first, then two lines that are not mates.
    #[test]
    fn multipv_answers_the_best_lines_numbered() {
        let session = Session::start();
        session.send(
            b"uci\nsetoption name MultiPV value 3\nsetoption name MultiPV value 501\n\
              position startpos moves f2f3 e7e5 g2g4\ngo depth 3\n",
        );
        session.wait_for("bestmove");
        let text = session.end();
        assert!(
            text.contains(&format!(
                "option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}"
            )),
            "{text}"
        );
        assert!(text.contains("info string MultiPV is 1 to 500"), "{text}");
        let numbered: Vec<&str> = text
            .lines()
            .filter(|line| line.contains(" multipv "))
            .collect();
        // Three lines an iteration, as each iteration ends, for depths 1 to 3.
        assert_eq!(numbered.len(), 9, "{text}");
        for (index, line) in numbered.iter().enumerate() {
            let (depth, rank) = (index / 3 + 1, index % 3 + 1);
            assert!(line.starts_with(&format!("info depth {depth} ")), "{line}");
            assert!(line.contains(&format!(" multipv {rank} ")), "{line}");
        }
        let numbered = &numbered[6..];
        assert!(
            numbered[0].contains("score mate 1") && numbered[0].ends_with("pv d8h4"),
            "{text}"
        );
        assert!(!numbered[1].contains("score mate"), "{text}");
        assert_eq!(text.lines().last(), Some("bestmove d8h4"), "{text}");
    }

    #[test]
    fn a_line_that_is_not_utf8_is_ignored_and_the_end_of_the_input_is_quit() {
        let session = Session::start();
        session.send(b"uci\nsetoption name Hash value 1\xe9\nisready\n");
        session.wait_for("readyok");
        // A search that would take minutes, then the end of the input: it stops and answers.
        session.send(b"position startpos\ngo movetime 100000\n");
        std::thread::sleep(Duration::from_millis(100));
        let started = std::time::Instant::now();
        let text = session.end();
        assert!(started.elapsed() < Duration::from_secs(5), "{text}");
        assert!(
            text.contains("info string ignored a line that is not UTF-8"),
            "{text}"
        );
        assert!(
            text.lines().last().unwrap().starts_with("bestmove "),
            "{text}"
        );
    }

    /// `serve` on a thread, its input fed by the test, its output kept.
    struct Session {
        input: Option<std::sync::mpsc::Sender<Vec<u8>>>,
        output: Arc<Mutex<Vec<u8>>>,
        serving: JoinHandle<io::Result<()>>,
    }

    impl Session {
        fn start() -> Session {
            let (input, fed) = std::sync::mpsc::channel::<Vec<u8>>();
            /// The input: what the test sends, ending when it stops sending.
            struct Fed(std::sync::mpsc::Receiver<Vec<u8>>, io::Cursor<Vec<u8>>);
            impl io::Read for Fed {
                fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                    while self.1.position() as usize == self.1.get_ref().len() {
                        match self.0.recv() {
                            Ok(bytes) => self.1 = io::Cursor::new(bytes),
                            Err(_) => return Ok(0),
                        }
                    }
                    self.1.read(buf)
                }
            }
            struct Shared(Arc<Mutex<Vec<u8>>>);
            impl Write for Shared {
                fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
                    self.0.lock().unwrap().write(bytes)
                }
                fn flush(&mut self) -> io::Result<()> {
                    Ok(())
                }
            }
            let output = Arc::new(Mutex::new(Vec::new()));
            let shared = Shared(Arc::clone(&output));
            let serving = std::thread::spawn(move || {
                serve(
                    io::BufReader::new(Fed(fed, io::Cursor::new(Vec::new()))),
                    shared,
                )
            });
            Session {
                input: Some(input),
                output,
                serving,
            }
        }

        fn send(&self, bytes: &[u8]) {
            self.input.as_ref().unwrap().send(bytes.to_vec()).unwrap();
        }

        fn text(&self) -> String {
            String::from_utf8(self.output.lock().unwrap().clone()).unwrap()
        }

        fn wait_for(&self, start: &str) {
            let deadline = std::time::Instant::now() + Duration::from_secs(20);
            while !self.text().lines().any(|line| line.starts_with(start)) {
                assert!(
                    std::time::Instant::now() < deadline,
                    "no {start}: {}",
                    self.text()
                );
                std::thread::sleep(Duration::from_millis(5));
            }
        }

        /// Ends the input; what the session said, once it has returned.
        fn end(mut self) -> String {
            self.input = None;
            let output = self.output;
            self.serving.join().unwrap().unwrap();
            String::from_utf8(output.lock().unwrap().clone()).unwrap()
        }
    }
}
