//! External engines as players: programs the tournament starts and speaks to over their
//! standard input and output, in UCI (the Universal Chess Interface, [`uci`]) or in the older
//! xboard protocol (CECP, [`xboard`]) that engines such as Fairy-Max and Phalanx speak.
//!
//! An engine is a process the tournament owns: [`Engine`] kills it, with its whole process
//! group, when dropped, so no engine outlives the games it plays. Every exchange has a deadline:
//! an engine that crashes, hangs or answers nonsense fails the exchange ([`Failure`]) instead of
//! stopping the tournament, which then records the game as lost and starts the engine afresh
//! for the next.
//!
//! The engine's output is read by a thread of its own into a channel, so that waiting for a
//! line can time out (a blocking read on a pipe cannot).

pub mod uci;
pub mod xboard;

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use super::player::Limits;
use crate::search::Budget;

/// An engine the service or the command line was configured with: a name requests use, the
/// program, the protocol it speaks, and the options it is always given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineConfig {
    pub name: String,
    pub path: PathBuf,
    pub protocol: Protocol,
    pub options: Vec<(String, String)>,
}

/// How an engine is spoken to.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Protocol {
    Uci,
    Xboard,
}

impl EngineConfig {
    /// Reads `NAME=PATH[,protocol=xboard][,OPTION=VALUE...]`, as `--engine` gives it; UCI
    /// unless `protocol` says otherwise.
    pub fn parse(text: &str) -> Result<EngineConfig, String> {
        let mut parts = text.split(',');
        let head = parts.next().unwrap_or_default();
        let (name, path) = head
            .split_once('=')
            .filter(|(name, path)| !name.trim().is_empty() && !path.trim().is_empty())
            .ok_or_else(|| {
                format!("expected NAME=PATH[,OPTION=VALUE...], e.g. stockfish=/usr/games/stockfish, got {text:?}")
            })?;
        let mut protocol = Protocol::Uci;
        let mut options = Vec::new();
        for option in parts {
            let (name, value) = option
                .split_once('=')
                .map(|(name, value)| (name.trim(), value.trim()))
                .filter(|(name, _)| !name.is_empty())
                .ok_or_else(|| format!("expected OPTION=VALUE after the path, got {option:?}"))?;
            match (name, value) {
                ("protocol", "uci") => protocol = Protocol::Uci,
                ("protocol", "xboard") => protocol = Protocol::Xboard,
                ("protocol", other) => {
                    return Err(format!("protocol is uci or xboard, got {other:?}"));
                }
                _ => options.push((name.to_owned(), value.to_owned())),
            }
        }
        Ok(EngineConfig {
            name: name.trim().to_owned(),
            path: PathBuf::from(path.trim()),
            protocol,
            options,
        })
    }
}

/// How long an engine may take to start (its handshake and options) and to get ready for a
/// new game.
pub const STARTUP_TIME: Duration = Duration::from_secs(10);

/// Why an exchange with an engine failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The process could not start, exited, or closed its output.
    Crashed(String),
    /// No answer before the deadline.
    TimedOut(String),
    /// The engine gave the game up.
    Resigned,
    /// The tournament's budget ran out (a deadline, a client gone): nobody's fault.
    Stopped,
}

/// What an engine said of the move it chose: its last report's figures.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Thought {
    /// The move, as the engine wrote it (UCI, or SAN for some xboard engines).
    pub best_move: String,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// Centipawns, from the engine's side.
    pub centipawns: Option<i32>,
    /// Moves to mate, from the engine's side: positive when it mates.
    pub mate: Option<i32>,
}

/// What an engine is asked to move in.
#[derive(Clone, Debug, PartialEq)]
pub struct Ask<'a> {
    /// The FEN the game's moves start from; `None` for the standard start.
    pub start: Option<&'a str>,
    /// Every move since, in UCI: the engine sees the game's whole history (repetitions).
    pub moves: &'a [String],
    /// Whether the engine plays White.
    pub white: bool,
    pub limits: &'a Limits,
    /// The engine's clock, then its opponent's, under a clock.
    pub clocks: [Option<Duration>; 2],
    /// No answer after this is waited for: the engine has lost on time.
    pub deadline: Instant,
}

/// A running engine.
pub struct Engine {
    process: Process,
    dialogue: Dialogue,
}

/// What each protocol keeps between exchanges.
enum Dialogue {
    Uci,
    Xboard(xboard::State),
}

impl Engine {
    /// Starts the engine and sets its options (`config`'s, then `extra`'s, which a request
    /// adds): ready to play when this returns.
    pub fn start(
        config: &EngineConfig,
        extra: &[(String, String)],
        budget: &Budget,
    ) -> Result<Engine, Failure> {
        let mut process = Process::spawn(config)?;
        let options: Vec<_> = config.options.iter().chain(extra).collect();
        let deadline = Instant::now() + STARTUP_TIME;
        let dialogue = match config.protocol {
            Protocol::Uci => {
                uci::start(&mut process, &options, deadline, budget)?;
                Dialogue::Uci
            }
            Protocol::Xboard => {
                Dialogue::Xboard(xboard::start(&mut process, &options, deadline, budget)?)
            }
        };
        Ok(Engine { process, dialogue })
    }

    /// Tells the engine a new game begins, and waits until it is ready for it.
    pub fn new_game(&mut self, budget: &Budget) -> Result<(), Failure> {
        let deadline = Instant::now() + STARTUP_TIME;
        match &mut self.dialogue {
            Dialogue::Uci => uci::new_game(&mut self.process, deadline, budget),
            Dialogue::Xboard(state) => xboard::new_game(&mut self.process, state, deadline, budget),
        }
    }

    /// The engine's move in the game `ask` describes.
    pub fn think(&mut self, ask: &Ask<'_>, budget: &Budget) -> Result<Thought, Failure> {
        match &mut self.dialogue {
            Dialogue::Uci => uci::think(&mut self.process, ask, budget),
            Dialogue::Xboard(state) => xboard::think(&mut self.process, state, ask, budget),
        }
    }
}

/// An engine's process: its input, and its output's lines as they come.
pub struct Process {
    name: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Process {
    fn spawn(config: &EngineConfig) -> Result<Process, Failure> {
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
        Ok(Process {
            name: config.name.clone(),
            child,
            stdin,
            lines,
        })
    }

    fn send(&mut self, command: &str) -> Result<(), Failure> {
        writeln!(self.stdin, "{command}")
            .and_then(|()| self.stdin.flush())
            .map_err(|error| Failure::Crashed(format!("{} stopped reading: {error}", self.name)))
    }

    /// Reads lines until one for which `done` says it is the answer.
    fn wait_for<T>(
        &mut self,
        mut done: impl FnMut(&str) -> Option<T>,
        deadline: Instant,
        budget: &Budget,
    ) -> Result<T, Failure> {
        loop {
            let line = self.next_line(deadline, budget)?;
            if let Some(answer) = done(line.trim()) {
                return Ok(answer);
            }
        }
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

impl Drop for Process {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_engine_is_configured_as_name_path_protocol_and_options() {
        let config =
            EngineConfig::parse("sf=/usr/games/stockfish,UCI_LimitStrength=true, UCI_Elo=1500")
                .unwrap();
        assert_eq!(config.name, "sf");
        assert_eq!(config.path, PathBuf::from("/usr/games/stockfish"));
        assert_eq!(config.protocol, Protocol::Uci);
        assert_eq!(
            config.options,
            vec![
                ("UCI_LimitStrength".into(), "true".into()),
                ("UCI_Elo".into(), "1500".into())
            ]
        );
        let config = EngineConfig::parse("fm=/usr/games/fairymax,protocol=xboard").unwrap();
        assert_eq!(
            (config.protocol, config.options.len()),
            (Protocol::Xboard, 0)
        );
        for bad in [
            "stockfish",
            "=/bin/x",
            "sf=",
            "sf=/bin/x,Hash",
            "x=/bin/x,protocol=cecp",
        ] {
            assert!(EngineConfig::parse(bad).is_err(), "{bad}");
        }
    }
}
