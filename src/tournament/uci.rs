//! External engines as players, spoken to in UCI (the Universal Chess Interface) over their
//! standard input and output.
//!
//! An engine is a process the tournament starts and owns: [`Engine`] kills it when dropped, so
//! no engine outlives the games it plays. Every exchange has a deadline: an engine that crashes,
//! hangs or answers nonsense fails the exchange ([`Failure`]) instead of stopping the
//! tournament, which then records the game as lost and starts the engine afresh for the next.
//!
//! The engine's output is read by a thread of its own into a channel, so that waiting for a
//! line can time out (a blocking read on a pipe cannot).

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use crate::search::Budget;

/// An engine the service or the command line was configured with: a name requests use, the
/// program, and the UCI options it is always given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineConfig {
    pub name: String,
    pub path: PathBuf,
    pub options: Vec<(String, String)>,
}

impl EngineConfig {
    /// Reads `NAME=PATH[,OPTION=VALUE...]`, as `--engine` gives it.
    pub fn parse(text: &str) -> Result<EngineConfig, String> {
        let mut parts = text.split(',');
        let head = parts.next().unwrap_or_default();
        let (name, path) = head
            .split_once('=')
            .filter(|(name, path)| !name.trim().is_empty() && !path.trim().is_empty())
            .ok_or_else(|| {
                format!("expected NAME=PATH[,OPTION=VALUE...], e.g. stockfish=/usr/games/stockfish, got {text:?}")
            })?;
        let options = parts
            .map(|option| {
                option
                    .split_once('=')
                    .map(|(name, value)| (name.trim().to_owned(), value.trim().to_owned()))
                    .filter(|(name, _)| !name.is_empty())
                    .ok_or_else(|| format!("expected OPTION=VALUE after the path, got {option:?}"))
            })
            .collect::<Result<_, _>>()?;
        Ok(EngineConfig {
            name: name.trim().to_owned(),
            path: PathBuf::from(path.trim()),
            options,
        })
    }
}

/// How long an engine may take to start (`uci` to `uciok`, options, `isready` to `readyok`)
/// and to get ready for a new game.
pub const STARTUP_TIME: Duration = Duration::from_secs(10);

/// Why an exchange with an engine failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The process could not start, exited, or closed its output.
    Crashed(String),
    /// No answer before the deadline.
    TimedOut(String),
    /// The tournament's budget ran out (a deadline, a client gone): nobody's fault.
    Stopped,
}

/// What an engine said of the move it chose: its last `info` line's figures.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Thought {
    /// The move, in UCI.
    pub best_move: String,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// Centipawns, from the engine's side.
    pub centipawns: Option<i32>,
    /// Moves to mate, from the engine's side: positive when it mates.
    pub mate: Option<i32>,
}

/// A running engine.
pub struct Engine {
    name: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    /// Starts the engine and sets its options (`config`'s, then `extra`'s, which a request
    /// adds): ready to play when this returns.
    pub fn start(
        config: &EngineConfig,
        extra: &[(String, String)],
        budget: &Budget,
    ) -> Result<Engine, Failure> {
        let mut command = Command::new(&config.path);
        // A group of its own, so that killing the engine kills whatever it started too.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|error| {
                Failure::Crashed(format!("cannot start {}: {error}", config.path.display()))
            })?;
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let mut engine = Engine {
            name: config.name.clone(),
            child,
            stdin,
            lines,
        };
        let deadline = Instant::now() + STARTUP_TIME;
        engine.send("uci")?;
        engine.wait_for(|line| line == "uciok", deadline, budget)?;
        for (name, value) in config.options.iter().chain(extra) {
            engine.send(&format!("setoption name {name} value {value}"))?;
        }
        engine.ready(deadline, budget)?;
        Ok(engine)
    }

    /// Tells the engine a new game begins, and waits until it is ready for it.
    pub fn new_game(&mut self, budget: &Budget) -> Result<(), Failure> {
        self.send("ucinewgame")?;
        self.ready(Instant::now() + STARTUP_TIME, budget)
    }

    /// Sets the position (`position ...`), starts a search (`go ...`) and waits for its
    /// `bestmove` until `deadline`.
    pub fn think(
        &mut self,
        position: &str,
        go: &str,
        deadline: Instant,
        budget: &Budget,
    ) -> Result<Thought, Failure> {
        self.send(position)?;
        self.send(go)?;
        let mut thought = Thought::default();
        loop {
            let line = self.next_line(deadline, budget)?;
            let mut words = line.split_whitespace();
            match words.next() {
                Some("info") => read_info(words, &mut thought),
                Some("bestmove") => {
                    thought.best_move = words.next().unwrap_or_default().to_owned();
                    return Ok(thought);
                }
                _ => {}
            }
        }
    }

    fn ready(&mut self, deadline: Instant, budget: &Budget) -> Result<(), Failure> {
        self.send("isready")?;
        self.wait_for(|line| line == "readyok", deadline, budget)
    }

    fn send(&mut self, command: &str) -> Result<(), Failure> {
        writeln!(self.stdin, "{command}")
            .and_then(|()| self.stdin.flush())
            .map_err(|error| Failure::Crashed(format!("{} stopped reading: {error}", self.name)))
    }

    fn wait_for(
        &mut self,
        done: impl Fn(&str) -> bool,
        deadline: Instant,
        budget: &Budget,
    ) -> Result<(), Failure> {
        while !done(self.next_line(deadline, budget)?.trim()) {}
        Ok(())
    }

    /// The engine's next line, waiting at most until `deadline`, and looking at `budget` every
    /// few milliseconds so that a tournament stopped from outside does not wait on an engine.
    fn next_line(&mut self, deadline: Instant, budget: &Budget) -> Result<String, Failure> {
        const LOOK: Duration = Duration::from_millis(20);
        loop {
            if budget.is_due() {
                return Err(Failure::Stopped);
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(Failure::TimedOut(format!(
                    "{} did not answer in time",
                    self.name
                )));
            }
            match self.lines.recv_timeout(LOOK.min(deadline - now)) {
                Ok(line) => return Ok(line),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => {
                    let status = self
                        .child
                        .wait()
                        .map_or_else(|error| error.to_string(), |status| status.to_string());
                    return Err(Failure::Crashed(format!("{} exited ({status})", self.name)));
                }
            }
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        // Asked politely first; a hung engine does not listen, so it is killed either way.
        let _ = writeln!(self.stdin, "quit");
        #[cfg(unix)]
        if let Ok(group) = libc::pid_t::try_from(self.child.id()) {
            // SAFETY: kill only sends a signal, here to the engine's own process group.
            unsafe {
                libc::kill(-group, libc::SIGKILL);
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Reads an `info` line's depth, nodes and score into `thought` (a line without them, such as
/// `info string ...`, changes nothing).
fn read_info<'a>(mut words: impl Iterator<Item = &'a str>, thought: &mut Thought) {
    while let Some(word) = words.next() {
        match word {
            "depth" => thought.depth = words.next().and_then(|w| w.parse().ok()),
            "nodes" => thought.nodes = words.next().and_then(|w| w.parse().ok()),
            "score" => match (words.next(), words.next().and_then(|w| w.parse().ok())) {
                (Some("cp"), Some(value)) => {
                    thought.centipawns = Some(value);
                    thought.mate = None;
                }
                (Some("mate"), Some(value)) => {
                    thought.mate = Some(value);
                    thought.centipawns = None;
                }
                _ => {}
            },
            "string" => return,
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_engine_is_configured_as_name_path_and_options() {
        let config =
            EngineConfig::parse("sf=/usr/games/stockfish,UCI_LimitStrength=true, UCI_Elo=1500")
                .unwrap();
        assert_eq!(config.name, "sf");
        assert_eq!(config.path, PathBuf::from("/usr/games/stockfish"));
        assert_eq!(
            config.options,
            vec![
                ("UCI_LimitStrength".into(), "true".into()),
                ("UCI_Elo".into(), "1500".into())
            ]
        );
        for bad in ["stockfish", "=/bin/x", "sf=", "sf=/bin/x,Hash"] {
            assert!(EngineConfig::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn info_lines_give_the_last_depth_nodes_and_score() {
        let mut thought = Thought::default();
        let line = "depth 12 seldepth 15 multipv 1 score cp -31 nodes 12345 nps 1 pv e2e4";
        read_info(line.split_whitespace(), &mut thought);
        assert_eq!(
            (
                thought.depth,
                thought.nodes,
                thought.centipawns,
                thought.mate
            ),
            (Some(12), Some(12345), Some(-31), None)
        );
        read_info("depth 13 score mate 3".split_whitespace(), &mut thought);
        assert_eq!((thought.centipawns, thought.mate), (None, Some(3)));
        read_info("string depth 99".split_whitespace(), &mut thought);
        assert_eq!(thought.depth, Some(13));
    }
}
