//! Chess's engine over UCI (`sente uci`, the protocol chess's declaration names): chess GUIs,
//! match runners (fastchess, cutechess) and lichess-bot speak to it on standard input and
//! output as to any engine. The session is the protocols room's (`protocols/uci.rs`, which
//! USI shares); this file is UCI's words and chess's options: `Evaluation`, `EvalFile`,
//! `UCI_LimitStrength` and `UCI_Elo` (`Threads` is the session's, as in USI).

use super::engine::{ChessBoard, DEFAULT_EVALUATION};
use super::{Chess, nnue};
use crate::game::{Player, Rules};
use crate::protocols::uci::{self, Dialect};
use crate::search::{EngineParams, MAX_ELO, MIN_ELO};

/// `UCI_Elo` until it is set: a strong club player's.
const DEFAULT_ELO: u32 = 2000;

/// UCI's words, and chess's options.
pub(crate) struct Uci {
    /// Which of chess's evaluations and which net the engine uses (`Evaluation`, `EvalFile`).
    evaluation: uci::EvaluationOptions,
    /// Whether the engine plays at `elo` (`UCI_LimitStrength`) rather than its full strength.
    limit_strength: bool,
    /// The strength it plays at when limited (`UCI_Elo`).
    elo: u32,
}

impl Default for Uci {
    fn default() -> Self {
        Uci {
            evaluation: uci::EvaluationOptions::default(),
            limit_strength: false,
            elo: DEFAULT_ELO,
        }
    }
}

impl Dialect for Uci {
    type Board = ChessBoard;

    const HELLO: &'static str = "uci";
    const HELLO_OK: &'static str = "uciok";
    const NEW_GAME: &'static str = "ucinewgame";
    const HASH: &'static str = "Hash";
    const BOARD: &'static str = "fen";
    const NO_MOVE: &'static str = "bestmove 0000";
    const RESIGNS: bool = false;
    const PLAYS_ON: bool = false;
    const MATE_IN_MOVES: bool = true;

    fn options(&self) -> Vec<String> {
        let [evaluation, eval_file] = uci::evaluation_options::<Chess>(DEFAULT_EVALUATION);
        vec![
            // Declared so that GUIs send `go ponder`; the session ponders whatever it says.
            "option name Ponder type check default false".to_owned(),
            evaluation.clone(),
            eval_file.clone(),
            "option name UCI_LimitStrength type check default false".to_owned(),
            format!(
                "option name UCI_Elo type spin default {DEFAULT_ELO} min {MIN_ELO} max {MAX_ELO}"
            ),
        ]
    }

    fn set_option(&mut self, name: &str, value: &str) -> Option<Result<(), String>> {
        if let Some(set) = self
            .evaluation
            .set::<Chess>(name, value, nnue::load_eval_file)
        {
            return Some(set);
        }
        let value = value.trim();
        Some(match name {
            name if name.eq_ignore_ascii_case("uci_limitstrength") => {
                match value.to_ascii_lowercase().as_str() {
                    "true" => self.limit_strength = true,
                    "false" => self.limit_strength = false,
                    _ => {
                        return Some(Err(format!(
                            "UCI_LimitStrength is true or false, got {value:?}"
                        )));
                    }
                }
                Ok(())
            }
            name if name.eq_ignore_ascii_case("uci_elo") => value
                .parse()
                .ok()
                .filter(|elo| (MIN_ELO..=MAX_ELO).contains(elo))
                .map(|elo| self.elo = elo)
                .ok_or_else(|| format!("UCI_Elo is {MIN_ELO} to {MAX_ELO}, got {value:?}")),
            name if name.eq_ignore_ascii_case("ponder") => match value {
                "true" | "false" => Ok(()),
                _ => Err(format!("Ponder is true or false, got {value:?}")),
            },
            name if name.eq_ignore_ascii_case("threads") => match value {
                "1" => Ok(()),
                _ => Err(format!("{name} is 1: Sente searches on one thread")),
            },
            _ => return None,
        })
    }

    fn params(&self, params: EngineParams) -> EngineParams {
        let level = params.level.filter(|_| !self.limit_strength);
        EngineParams {
            elo: self.limit_strength.then_some(self.elo),
            // UCI_LimitStrength overrides Skill Level, as in Stockfish.
            level,
            ..self.evaluation.apply(params)
        }
    }

    fn on_white_clock(game: &Chess) -> bool {
        game.side_to_move() == Player::X
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocols::uci;
    use crate::protocols::uci::{MAX_MULTIPV, NAME};
    use std::io::{self, Write};
    use std::sync::{Arc, Mutex};
    use std::thread::JoinHandle;
    use std::time::Duration;

    /// `position` reads a FEN and the moves played from it, and refuses a wrong one in words.
    #[test]
    fn positions_are_read_with_their_moves_and_refused_in_words() {
        let session = Session::start();
        session.send(
            b"position fen 4k3/8/8/8/8/8/8/4K2R w K - 0 1 moves e1g1 e8d8 f1f8
go depth 2
",
        );
        session.wait_for("bestmove");
        session.send(
            b"position startpos moves e2e5
position fen nonsense
go depth 1
",
        );
        let text = session.end();
        // Black, in check from the rook that castled, moves its king.
        assert!(text.contains("bestmove d8"), "{text}");
        assert!(
            text.contains("info string position: move 1 (e2e5)"),
            "{text}"
        );
        assert!(
            text.contains("info string position fen nonsense: "),
            "{text}"
        );
        // A refused position leaves the last good one, which `go` searches, saying why: never
        // a null move a GUI would read as the engine's.
        assert!(
            text.contains(
                "info string searching the last position read: the one after it was \
                 refused (position fen nonsense: "
            ),
            "{text}"
        );
        assert!(!text.contains("bestmove 0000"), "{text}");
        let last = text.lines().last().unwrap();
        assert!(last.starts_with("bestmove d8"), "{text}");
    }

    /// A draw that may be claimed (threefold repetition, fifty moves) is the GUI's to claim: a
    /// position through one is searched. A fifth occurrence ends the game with no claim.
    #[test]
    fn claimable_draws_are_played_through_and_the_fifth_occurrence_ends_the_game() {
        let session = Session::start();
        session.send(
            b"position startpos moves g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8 g1f3\ngo depth 3\n",
        );
        session.wait_for("bestmove");
        let text = session.text();
        assert!(!text.contains("info string"), "{text}");
        assert!(!text.contains("bestmove 0000"), "{text}");
        let shuffle = "g1f3 g8f6 f3g1 f6g8 ".repeat(4);
        session.send(
            format!(
                "position fen 8/8/4k3/8/8/3K4/4P3/8 w - - 100 80\ngo depth 3\n\
                 position startpos moves {shuffle}\ngo depth 3\n"
            )
            .as_bytes(),
        );
        let text = session.end();
        let answers: Vec<&str> = text
            .lines()
            .filter(|line| line.starts_with("bestmove") || line.starts_with("info string"))
            .collect();
        assert!(answers[1].starts_with("bestmove "), "{text}");
        assert_ne!(answers[1], "bestmove 0000", "{text}");
        assert!(
            answers[2].starts_with("info string the game is over by Sente's rules"),
            "{text}"
        );
        assert_eq!(answers[3], "bestmove 0000", "{text}");
    }

    /// `go mate N` is a mate in N moves, searched until it is found (or `stop`): not N
    /// milliseconds.
    #[test]
    fn go_mate_searches_for_a_mate_in_moves() {
        let session = Session::start();
        // White mates in two on the back rank: Rd8+ Rxd8 Rxd8#.
        session.send(b"position fen 2r3k1/5ppp/8/8/8/8/3R1PPP/3R2K1 w - - 0 1\ngo mate 2\n");
        session.wait_for("bestmove");
        let text = session.text();
        assert!(text.contains("score mate 2"), "{text}");
        assert!(
            text.lines().last().unwrap().starts_with("bestmove d2d8"),
            "{text}"
        );
        // No mate from the start: it searches on, past 2000 (what it read as milliseconds),
        // until told to stop.
        session.send(b"position startpos\ngo mate 1\n");
        std::thread::sleep(Duration::from_millis(300));
        let before = session.text().matches("bestmove").count();
        assert_eq!(before, 1, "answered before stop: {}", session.text());
        session.send(b"stop\n");
        session.wait_until(|text| text.matches("bestmove").count() == 2);
        session.end();
    }

    /// `go ponder` searches until `ponderhit` or `stop` and never answers before; `ponderhit`
    /// answers on the clock `go ponder` gave; `bestmove` names the reply it expects.
    #[test]
    fn pondering_answers_only_after_ponderhit_or_stop() {
        let session = Session::start();
        session.send(b"uci\n");
        session.wait_for("uciok");
        assert!(
            session
                .text()
                .contains("option name Ponder type check default false")
        );
        session.send(
            b"setoption name Ponder value true\nposition startpos moves e2e4 e7e5\n\
              go ponder wtime 2000 btime 2000\n",
        );
        std::thread::sleep(Duration::from_millis(400));
        assert!(!session.text().contains("bestmove"), "{}", session.text());
        session.send(b"ponderhit\n");
        session.wait_for("bestmove");
        let best = session.text();
        let best = best
            .lines()
            .find(|line| line.starts_with("bestmove"))
            .unwrap();
        assert!(best.contains(" ponder "), "{best}");
        session.send(b"position startpos moves e2e4\ngo ponder wtime 2000 btime 2000\n");
        std::thread::sleep(Duration::from_millis(300));
        assert_eq!(session.text().matches("bestmove").count(), 1);
        session.send(b"stop\nponderhit\n");
        session.wait_until(|text| text.matches("bestmove").count() == 2);
        let text = session.end();
        assert!(
            text.contains("info string ponderhit while not pondering"),
            "{text}"
        );
        assert!(!text.contains("unknown command"), "{text}");
    }

    /// `Skill Level` holds with `MultiPV`: the lines are the level's (its depth), as many as
    /// asked or as the level chooses among, and the move is one of them.
    #[test]
    fn a_skill_level_holds_under_multipv() {
        let level = Chess::DECLARATION.levels[0];
        let session = Session::start();
        session.send(
            b"setoption name Skill Level value 1\nsetoption name MultiPV value 2\n\
              position startpos\ngo movetime 500\n",
        );
        session.wait_for("bestmove");
        let text = session.end();
        let lines: Vec<&str> = text
            .lines()
            .filter(|line| line.contains(" multipv "))
            .collect();
        assert!(lines.len() >= 2, "{text}");
        let deepest = lines
            .iter()
            .map(|line| line.split(' ').nth(2).unwrap().parse::<u32>().unwrap())
            .max()
            .unwrap();
        assert!(deepest <= level.depth.unwrap_or(u32::MAX), "{text}");
        let best = text.lines().last().unwrap();
        let mv = best.split(' ').nth(1).unwrap();
        assert!(
            lines
                .iter()
                .any(|line| line.split(" pv ").nth(1).unwrap().starts_with(mv)),
            "{text}"
        );
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

    /// The net `EvalFile` reads is the one the search plays: one of zeros scores every
    /// position even, where the shipped one does not.
    #[test]
    fn the_net_eval_file_reads_is_the_one_searched() {
        let path = std::env::temp_dir().join(format!("sente-zeros-{}.nnue", std::process::id()));
        std::fs::write(&path, nnue::Network::zeros().to_bytes()).unwrap();
        let score = |options: &str| {
            let session = Session::start();
            session.send(
                format!("uci\n{options}position startpos moves e2e4\ngo depth 2\n").as_bytes(),
            );
            session.wait_for("bestmove");
            let text = session.end();
            let last = text.lines().rfind(|line| line.contains(" score cp "));
            let score = last.and_then(|line| line.split(" score cp ").nth(1));
            score
                .and_then(|rest| rest.split(' ').next())
                .map(str::to_owned)
        };
        let zeros = score(&format!(
            "setoption name EvalFile value {}\n",
            path.display()
        ));
        let shipped = score("");
        std::fs::remove_file(&path).unwrap();
        assert_eq!(zeros.as_deref(), Some("0"));
        assert_ne!(shipped.as_deref(), Some("0"), "{shipped:?}");
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
                uci::serve(
                    Uci::default(),
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

        fn wait_until(&self, done: impl Fn(&str) -> bool) {
            let deadline = std::time::Instant::now() + Duration::from_secs(20);
            while !done(&self.text()) {
                assert!(std::time::Instant::now() < deadline, "{}", self.text());
                std::thread::sleep(Duration::from_millis(5));
            }
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
