//! External engines as players: programs the tournament starts and speaks to over their
//! standard input and output, in UCI (the Universal Chess Interface, [`uci`]), in USI (the
//! Universal Shogi Interface, UCI's dialect for shogi, in the same file), or in the older
//! xboard protocol (CECP, [`xboard`]) that engines such as Fairy-Max and Phalanx speak, and its
//! ancestor xshogi's, which GNU Shogi speaks (in the same file), or GTP, as Othello engines
//! speak it ([`gtp`]).
//!
//! An engine is a process the tournament owns: [`Engine`] kills it, with its whole process
//! group, when dropped, so no engine outlives the games it plays. Every exchange has a deadline:
//! an engine that crashes, hangs or answers nonsense fails the exchange ([`Failure`]) instead of
//! stopping the tournament, which then records the game as lost and starts the engine afresh
//! for the next.
//!
//! The engine's output is read by a thread of its own into a channel, so that waiting for a
//! line can time out (a blocking read on a pipe cannot).

pub mod gtp;
pub mod uci;
pub mod xboard;

use std::io::{BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdout, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, SyncSender};
use std::time::{Duration, Instant};

use super::player::Limits;
use crate::game::text::excerpt;
use crate::lines;
use crate::search::Budget;

/// An engine the service or the command line was configured with: a name requests use, the
/// program, the protocol it speaks, the options it is always given, and what a request may
/// change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineConfig {
    pub name: String,
    pub path: PathBuf,
    /// What the program is started with (`args=-l 4`): GTP engines take their level so.
    pub args: Vec<String>,
    pub protocol: Protocol,
    /// Options set at `--engine`: every game's, and a request may not change them.
    pub options: Vec<(String, String)>,
    /// The options a request may set (`settable=A|B`); `None` for the default: those of the
    /// engine's own that take a value in a range or from a list (check, spin, combo), never a
    /// text (a file's path, say).
    pub settable: Option<Vec<String>>,
    /// The most a request may give the engine's `Hash` (MiB) and `Threads`.
    pub max_hash: u64,
    pub max_threads: u64,
    /// The options the engine listed when it was first started ([`EngineConfig::probe`]); `None`
    /// before.
    pub listed: Option<Vec<EngineOption>>,
    /// How long it may take to answer its handshake and each `isready` (`handshake_ms=`).
    pub handshake: Duration,
    /// How far past a fixed time per move its answer may come before it loses on time
    /// (`margin_ms=`): an engine that is slow to stop needs more than one that stops at once.
    pub move_margin: Duration,
}

/// Default of [`EngineConfig::max_hash`]: a request's engine never takes more memory than a
/// few of Sente's own searches.
pub const DEFAULT_MAX_HASH_MB: u64 = 64;
/// Default of [`EngineConfig::max_threads`]: a tournament already plays on every core, one game
/// per core.
pub const DEFAULT_MAX_THREADS: u64 = 1;

/// An option as an engine lists it (`option name Hash type spin default 16 min 1 max 33554432`
/// in UCI, `feature option="Hash -spin 16 1 1024"` in xboard).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOption {
    pub name: String,
    pub kind: OptionKind,
}

/// What values an option takes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// `true` or `false`.
    Check,
    /// A whole number between two bounds.
    Spin { min: i64, max: i64 },
    /// One of a list.
    Combo(Vec<String>),
    /// No value: an action (`Clear Hash`).
    Button,
    /// Any text: a name, a file's path.
    Text,
}

/// How an engine is spoken to.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Protocol {
    Uci,
    Usi,
    Xboard,
    /// xboard's first version as xshogi spoke it to GNU Shogi: no handshake, no features.
    Xshogi,
    /// The Go Text Protocol, as Othello engines speak it.
    Gtp,
}

impl Protocol {
    /// Its name, as `protocol=` gives it and games' declarations list it.
    pub fn name(self) -> &'static str {
        match self {
            Protocol::Uci => "uci",
            Protocol::Usi => "usi",
            Protocol::Xboard => "xboard",
            Protocol::Xshogi => "xshogi",
            Protocol::Gtp => "gtp",
        }
    }

    /// The UCI dialect it is, if it is one.
    fn dialect(self) -> Option<uci::Dialect> {
        match self {
            Protocol::Uci => Some(uci::Dialect::Uci),
            Protocol::Usi => Some(uci::Dialect::Usi),
            Protocol::Xboard | Protocol::Xshogi | Protocol::Gtp => None,
        }
    }
}

impl EngineConfig {
    /// An engine at `path` with nothing else set.
    pub fn new(name: &str, path: impl Into<PathBuf>, protocol: Protocol) -> EngineConfig {
        EngineConfig {
            name: name.to_owned(),
            path: path.into(),
            args: Vec::new(),
            protocol,
            options: Vec::new(),
            settable: None,
            max_hash: DEFAULT_MAX_HASH_MB,
            max_threads: DEFAULT_MAX_THREADS,
            listed: None,
            handshake: HANDSHAKE_TIME,
            move_margin: super::player::MOVE_TIME_MARGIN,
        }
    }

    /// Reads `NAME=PATH[,protocol=usi|xboard|xshogi|gtp][,args=ARGS][,settable=A|B]
    /// [,max_hash=MB][,max_threads=N][,handshake_ms=MS][,margin_ms=MS][,OPTION=VALUE...]`, as
    /// `--engine` gives it; UCI unless `protocol` says otherwise.
    pub fn parse(text: &str) -> Result<EngineConfig, String> {
        let mut parts = text.split(',');
        let head = parts.next().unwrap_or_default();
        let (name, path) = head
            .split_once('=')
            .filter(|(name, path)| !name.trim().is_empty() && !path.trim().is_empty())
            .ok_or_else(|| {
                format!(
                    "expected NAME=PATH[,OPTION=VALUE...], e.g. \
                     stockfish=/usr/games/stockfish, got {:?}",
                    excerpt(text)
                )
            })?;
        let mut config = EngineConfig::new(name.trim(), path.trim(), Protocol::Uci);
        for option in parts {
            let (name, value) = option
                .split_once('=')
                .map(|(name, value)| (name.trim(), value.trim()))
                .filter(|(name, _)| !name.is_empty())
                .ok_or_else(|| {
                    format!(
                        "expected OPTION=VALUE after the path, got {:?}",
                        excerpt(option)
                    )
                })?;
            let count = |value: &str| {
                value
                    .parse::<u64>()
                    .ok()
                    .filter(|n| *n >= 1)
                    .ok_or_else(|| {
                        format!(
                            "{name} is a whole number, 1 or more, got {:?}",
                            excerpt(value)
                        )
                    })
            };
            match (name, value) {
                ("protocol", "uci") => config.protocol = Protocol::Uci,
                ("protocol", "usi") => config.protocol = Protocol::Usi,
                ("protocol", "xboard") => config.protocol = Protocol::Xboard,
                ("protocol", "xshogi") => config.protocol = Protocol::Xshogi,
                ("protocol", "gtp") => config.protocol = Protocol::Gtp,
                ("protocol", other) => {
                    return Err(format!(
                        "protocol is uci, usi, xboard, xshogi or gtp, got {:?}",
                        excerpt(other)
                    ));
                }
                ("settable", names) => {
                    config.settable = Some(
                        names
                            .split('|')
                            .map(str::trim)
                            .filter(|name| !name.is_empty())
                            .map(str::to_owned)
                            .collect(),
                    );
                }
                ("args", value) => {
                    config.args = value.split_whitespace().map(str::to_owned).collect();
                }
                ("max_hash", value) => config.max_hash = count(value)?,
                ("max_threads", value) => config.max_threads = count(value)?,
                ("handshake_ms", value) => {
                    config.handshake = milliseconds(name, value, 1, MAX_HANDSHAKE_TIME)?;
                }
                ("margin_ms", value) => {
                    config.move_margin = milliseconds(name, value, 0, MAX_MOVE_MARGIN)?;
                }
                _ => config.options.push((name.to_owned(), value.to_owned())),
            }
        }
        Ok(config)
    }

    /// Starts the engine once, within its handshake time, to learn the options it lists.
    pub fn probe(mut self) -> Result<EngineConfig, String> {
        let budget = Budget::unlimited();
        let mut process = Process::spawn(&self).map_err(describe)?;
        let deadline = Instant::now() + self.handshake;
        let listed = match self.protocol.dialect() {
            Some(dialect) => uci::handshake(&mut process, dialect, deadline, &budget),
            // GTP has no options.
            None if self.protocol == Protocol::Gtp => {
                gtp::handshake(&mut process, deadline, &budget).map(|()| Vec::new())
            }
            None => xboard::handshake(&mut process, self.protocol, deadline, &budget)
                .map(|(_, listed)| listed),
        };
        self.listed = Some(listed.map_err(describe)?);
        Ok(self)
    }

    /// The option of the engine's list named `name` (UCI's names are not case sensitive).
    pub fn listed_option(&self, name: &str) -> Option<&EngineOption> {
        self.listed
            .as_deref()?
            .iter()
            .find(|option| option.name.eq_ignore_ascii_case(name))
    }

    /// Whether a request may set the option named `name` (as the engine lists it).
    pub fn may_set(&self, option: &EngineOption) -> bool {
        let fixed = self
            .options
            .iter()
            .any(|(name, _)| name.eq_ignore_ascii_case(&option.name));
        !fixed
            && match &self.settable {
                Some(names) => names
                    .iter()
                    .any(|name| name.eq_ignore_ascii_case(&option.name)),
                None => matches!(
                    option.kind,
                    OptionKind::Check | OptionKind::Spin { .. } | OptionKind::Combo(_)
                ),
            }
    }

    /// The most a request may give the option `name` where the operator bounds it (`Hash`,
    /// `Threads`).
    pub fn operator_max(&self, name: &str) -> Option<u64> {
        if name.eq_ignore_ascii_case("Hash") {
            Some(self.max_hash)
        } else if name.eq_ignore_ascii_case("Threads") {
            Some(self.max_threads)
        } else {
            None
        }
    }
}

impl OptionKind {
    /// Whether `value` is one this option takes; why not if not.
    pub fn check(&self, value: &str) -> Result<(), String> {
        match self {
            OptionKind::Check if value == "true" || value == "false" => Ok(()),
            OptionKind::Check => Err(format!("is true or false, got {:?}", excerpt(value))),
            OptionKind::Spin { min, max } => match value.parse::<i64>() {
                Ok(n) if (*min..=*max).contains(&n) => Ok(()),
                _ => Err(format!(
                    "is a whole number from {min} to {max}, got {:?}",
                    excerpt(value)
                )),
            },
            OptionKind::Combo(values) if values.iter().any(|v| v == value) => Ok(()),
            OptionKind::Combo(values) => Err(format!(
                "is one of {}, got {:?}",
                values.join(", "),
                excerpt(value)
            )),
            OptionKind::Button | OptionKind::Text => Ok(()),
        }
    }
}

/// How long an engine may take to answer its handshake (`uciok`, or xboard's features) and
/// each `isready` (or `ping`) by default: an engine that does not answer by then has failed,
/// as fastchess has it, and does not hold its game, its tournament's slot or its worker
/// longer. `handshake_ms=` sets it for an engine that starts slowly (one that loads a large
/// evaluation file).
pub const HANDSHAKE_TIME: Duration = Duration::from_secs(5);

/// The most `handshake_ms=` may give.
pub const MAX_HANDSHAKE_TIME: Duration = Duration::from_secs(600);

/// The most `margin_ms=` may give.
pub const MAX_MOVE_MARGIN: Duration = Duration::from_secs(60);

/// The most options an engine may list in its handshake (engines list tens): one that lists
/// more has failed, and is stopped, rather than fill the service's memory with them.
pub const MAX_LISTED_OPTIONS: usize = 512;

/// The longest an option's line may be: a name and a few values, or a combo of tens of them.
pub const MAX_OPTION_BYTES: usize = 4 * 1024;

/// Adds the option an engine listed in a line of `bytes`, or fails an engine whose listing
/// passes the bounds ([`MAX_LISTED_OPTIONS`], [`MAX_OPTION_BYTES`]).
fn list(
    listed: &mut Vec<EngineOption>,
    option: Option<EngineOption>,
    bytes: usize,
) -> Result<(), Failure> {
    if bytes > MAX_OPTION_BYTES {
        return Err(Failure::Crashed(format!(
            "listed an option of {bytes} bytes in its handshake, more than the {MAX_OPTION_BYTES} \
             an option may take: stopped"
        )));
    }
    if listed.len() == MAX_LISTED_OPTIONS {
        return Err(Failure::Crashed(format!(
            "listed more than {MAX_LISTED_OPTIONS} options in its handshake: stopped"
        )));
    }
    listed.extend(option);
    Ok(())
}

/// A whole number of milliseconds from `min` to `max`, as `--engine` gives one.
fn milliseconds(name: &str, value: &str, min: u64, max: Duration) -> Result<Duration, String> {
    let max_ms = max.as_millis() as u64;
    value
        .parse::<u64>()
        .ok()
        .filter(|ms| (min..=max_ms).contains(ms))
        .map(Duration::from_millis)
        .ok_or_else(|| {
            format!(
                "{name} is a whole number of milliseconds from {min} to {max_ms}, got {:?}",
                excerpt(value)
            )
        })
}

/// The longest line an engine may write: far beyond any real `info` line (a principal variation
/// of a hundred moves is under a kilobyte). Past it the engine has failed, so that one that
/// writes without newlines does not grow the service's memory.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// Lines read ahead of the tournament, waiting to be looked at: an engine that writes faster
/// than they are read then waits on its pipe, rather than filling the service's memory.
const LINES_AHEAD: usize = 64;

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
    /// How long each `isready` may take: its configuration's handshake time.
    handshake: Duration,
}

/// What each protocol keeps between exchanges.
enum Dialogue {
    Uci(uci::Dialect),
    Xboard(xboard::State),
    Gtp,
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
        let deadline = Instant::now() + config.handshake;
        let dialogue = match config.protocol.dialect() {
            Some(dialect) => {
                uci::handshake(&mut process, dialect, deadline, budget)?;
                uci::set_options(&mut process, &options)?;
                uci::ready(&mut process, Instant::now() + config.handshake, budget)?;
                Dialogue::Uci(dialect)
            }
            None if config.protocol == Protocol::Gtp => {
                gtp::handshake(&mut process, deadline, budget)?;
                if let Some((name, _)) = options.first() {
                    return Err(Failure::Crashed(format!(
                        "GTP has no options to set, but {name} was given"
                    )));
                }
                Dialogue::Gtp
            }
            None => {
                let (state, _) =
                    xboard::handshake(&mut process, config.protocol, deadline, budget)?;
                xboard::set_options(&mut process, &options)?;
                Dialogue::Xboard(state)
            }
        };
        Ok(Engine {
            process,
            dialogue,
            handshake: config.handshake,
        })
    }

    /// Tells the engine a new game begins, and waits until it is ready for it.
    pub fn new_game(&mut self, budget: &Budget) -> Result<(), Failure> {
        let deadline = Instant::now() + self.handshake;
        match &mut self.dialogue {
            Dialogue::Uci(dialect) => uci::new_game(&mut self.process, *dialect, deadline, budget),
            Dialogue::Xboard(state) => xboard::new_game(&mut self.process, state, deadline, budget),
            Dialogue::Gtp => gtp::new_game(&mut self.process, deadline, budget),
        }
    }

    /// The engine's move in the game `ask` describes.
    pub fn think(&mut self, ask: &Ask<'_>, budget: &Budget) -> Result<Thought, Failure> {
        match &mut self.dialogue {
            Dialogue::Uci(dialect) => uci::think(&mut self.process, *dialect, ask, budget),
            Dialogue::Xboard(state) => xboard::think(&mut self.process, state, ask, budget),
            Dialogue::Gtp => gtp::think(&mut self.process, ask, budget),
        }
    }
}

/// What the thread that reads an engine's output hands on.
#[derive(PartialEq)]
enum Line {
    /// A line, its bytes read as UTF-8 where they are (others replaced, as GUIs show them).
    Text(String),
    /// A line longer than [`MAX_LINE_BYTES`]: the engine has failed, and is read no further.
    TooLong,
}

/// An engine's process: its input, written by a thread of its own, and its output's lines as
/// they come, read by another.
///
/// Neither end is ever waited on without a deadline. A write to an engine that stops reading
/// blocks its writer thread only, until the engine is killed; a read waits on the channel
/// from the reader thread, with the exchange's deadline; and the engine's exit status is
/// asked for, never waited for, until it has been killed.
pub struct Process {
    name: String,
    child: Child,
    commands: Option<Sender<String>>,
    lines: Receiver<Line>,
}

impl Process {
    fn spawn(config: &EngineConfig) -> Result<Process, Failure> {
        let mut command = Command::new(&config.path);
        command.args(&config.args);
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
        let (sender, lines) = mpsc::sync_channel(LINES_AHEAD);
        std::thread::spawn(move || read_lines(stdout, &sender));
        let (commands, to_write) = mpsc::channel::<String>();
        std::thread::spawn(move || {
            let mut stdin = stdin;
            for command in to_write {
                if writeln!(stdin, "{command}")
                    .and_then(|()| stdin.flush())
                    .is_err()
                {
                    break;
                }
            }
        });
        Ok(Process {
            name: config.name.clone(),
            child,
            commands: Some(commands),
            lines,
        })
    }

    fn send(&mut self, command: &str) -> Result<(), Failure> {
        let sent = self
            .commands
            .as_ref()
            .is_some_and(|commands| commands.send(command.to_owned()).is_ok());
        if sent {
            Ok(())
        } else {
            Err(Failure::Crashed(format!("{} stopped reading", self.name)))
        }
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
                Ok(Line::Text(line)) => return Ok(line),
                Ok(Line::TooLong) => {
                    return Err(Failure::Crashed(format!(
                        "{} wrote a line longer than {} KiB",
                        self.name,
                        MAX_LINE_BYTES / 1024
                    )));
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return Err(self.closed()),
            }
        }
    }

    /// Why the engine's output ended: it exited (with what status), or it closed its output and
    /// lives on, which is as good as a crash (it is killed when dropped).
    fn closed(&mut self) -> Failure {
        // An engine that exits closes its output a moment before its status can be read.
        let patience = Instant::now() + Duration::from_millis(100);
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => {
                    return Failure::Crashed(format!("{} exited ({status})", self.name));
                }
                Ok(None) if Instant::now() < patience => {
                    std::thread::sleep(Duration::from_millis(5));
                }
                Ok(None) => {
                    return Failure::Crashed(format!(
                        "{} closed its output and was stopped",
                        self.name
                    ));
                }
                Err(error) => return Failure::Crashed(format!("{}: {error}", self.name)),
            }
        }
    }
}

/// Reads the engine's output into `sender` a line at a time, as bytes: a line that is not
/// UTF-8 (an author's name in Latin-1) is read lossily rather than ending the reading, and a
/// line longer than [`MAX_LINE_BYTES`] ends it.
fn read_lines(stdout: ChildStdout, sender: &SyncSender<Line>) {
    let mut reader = BufReader::new(stdout);
    let mut bytes = Vec::new();
    loop {
        let line = match lines::read_line(&mut reader, &mut bytes, MAX_LINE_BYTES) {
            Ok(lines::Read::Line) => {
                Line::Text(String::from_utf8_lossy(lines::text(&bytes)).into_owned())
            }
            Ok(lines::Read::TooLong) => Line::TooLong,
            Ok(lines::Read::End) | Err(_) => return,
        };
        let too_long = line == Line::TooLong;
        if sender.send(line).is_err() || too_long {
            return;
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        // What the engine started and took out of its group (`setsid()`) is found by descent,
        // before `quit`, while the engine still lives to be their ancestor.
        #[cfg(target_os = "linux")]
        let started = descendants(self.child.id());
        // Asked politely first; a hung engine does not listen, so it is killed either way.
        let _ = self.send("quit");
        self.commands = None;
        #[cfg(target_os = "linux")]
        for pid in started {
            // SAFETY: kill only sends a signal, here to a process the engine started.
            unsafe {
                libc::kill(pid, libc::SIGKILL);
            }
        }
        #[cfg(unix)]
        if let Ok(group) = libc::pid_t::try_from(self.child.id()) {
            // SAFETY: kill only sends a signal, here to the engine's own process group.
            unsafe {
                libc::kill(-group, libc::SIGKILL);
            }
        }
        let _ = self.child.kill();
        // Killed, it exits at once: this wait is for its status, not for the engine.
        let _ = self.child.wait();
    }
}

/// The processes descended from `root`, by the parents /proc gives: every process an engine
/// started, whatever group or session it moved to. Bounded, so that a fork bomb cannot make
/// the search itself endless.
#[cfg(target_os = "linux")]
fn descendants(root: u32) -> Vec<libc::pid_t> {
    const MOST: usize = 4096;
    let parents: Vec<(libc::pid_t, libc::pid_t)> = std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| {
            let pid: libc::pid_t = entry.file_name().to_str()?.parse().ok()?;
            let stat = std::fs::read_to_string(entry.path().join("stat")).ok()?;
            // `pid (comm) state ppid ...`: the name may hold spaces and parentheses.
            let after_name = &stat[stat.rfind(')')? + 1..];
            let parent = after_name.split_whitespace().nth(1)?.parse().ok()?;
            Some((pid, parent))
        })
        .collect();
    let Ok(root) = libc::pid_t::try_from(root) else {
        return Vec::new();
    };
    let mut found = vec![root];
    let mut next = 0;
    while next < found.len() && found.len() < MOST {
        let parent = found[next];
        next += 1;
        for &(pid, _) in parents.iter().filter(|(_, of)| *of == parent) {
            if !found.contains(&pid) {
                found.push(pid);
            }
        }
    }
    found.remove(0);
    found
}

/// What a failure says, for a message.
pub fn describe(failure: Failure) -> String {
    match failure {
        Failure::Crashed(what) | Failure::TimedOut(what) => what,
        Failure::Resigned => "resigned".into(),
        Failure::Stopped => "stopped".into(),
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
