//! An engine's process: started in a process group of its own, spoken to by a writer thread,
//! read by a reader thread into a bounded channel, never waited on without a deadline, and
//! killed with everything it started when dropped (the one `unsafe` of the engines: signals).

use std::io::{BufReader, Write};
use std::process::{Child, ChildStdout, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, SyncSender};
use std::time::{Duration, Instant};

use super::{EngineConfig, Failure};
use crate::lines;
use crate::search::Budget;

/// The longest line an engine may write: far beyond any real `info` line (a principal variation
/// of a hundred moves is under a kilobyte). Past it the engine has failed, so that one that
/// writes without newlines does not grow the service's memory.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// Lines read ahead of the tournament, waiting to be looked at: an engine that writes faster
/// than they are read then waits on its pipe, rather than filling the service's memory.
const LINES_AHEAD: usize = 64;

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
    pub(super) fn spawn(config: &EngineConfig) -> Result<Process, Failure> {
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

    pub(super) fn send(&mut self, command: &str) -> Result<(), Failure> {
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
    pub(super) fn wait_for<T>(
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
    pub(super) fn next_line(
        &mut self,
        deadline: Instant,
        budget: &Budget,
    ) -> Result<String, Failure> {
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
    pub(super) fn closed(&mut self) -> Failure {
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
