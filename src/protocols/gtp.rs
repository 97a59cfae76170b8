//! GTP, the Go Text Protocol (version 2), as engines of other games than Go speak it too
//! (Othello's GRhino and Edax, to controllers such as Quarry and GoGui). This file is the
//! protocol: a command a line, with an optional number before it that the answer repeats; the
//! answer `=` and the result, or `?` and what was wrong, then an empty line; `#` comments; and
//! the commands every engine answers (`protocol_version`, `name`, `version`, `known_command`,
//! `list_commands`, `quit`). A game says the rest, its commands, in its own folder
//! ([`Commands`]: Othello's `othello/gtp.rs`).

use std::io::{self, BufRead, Write};

use super::{Flow, Input, Protocol, run};
use crate::search::Budget;

/// A game's GTP commands.
pub trait Commands {
    /// Their names, as `list_commands` lists them after the protocol's own.
    const COMMANDS: &'static [&'static str];

    /// The answer to `command` (one of [`Commands::COMMANDS`]) with `arguments`: the result, or
    /// what was wrong with it; a search it runs stops when `budget` does (the input ended).
    fn answer(
        &mut self,
        command: &str,
        arguments: &[&str],
        budget: Budget,
    ) -> Result<String, String>;
}

/// The commands every engine answers, whatever its game.
const OWN: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
];

/// Serves GTP for `C`'s game on standard input and output until `quit` or the end of the input.
pub fn serve_stdio<C: Commands + Default>() -> io::Result<()> {
    serve(C::default(), io::BufReader::new(io::stdin()), io::stdout())
}

/// Serves GTP with `commands` on `input` and `output`, through the one loop of every text
/// protocol.
pub fn serve<C: Commands>(
    commands: C,
    input: impl BufRead + Send + 'static,
    output: impl Write,
) -> io::Result<()> {
    run(Session { commands, output }, input)
}

/// GTP's session: each command answered in order, a search before the next line is read.
struct Session<C, W> {
    commands: C,
    output: W,
}

impl<C: Commands, W: Write> Session<C, W> {
    /// The answer to `command`, as it is written back: `=` and the result of the protocol's
    /// own command or the game's, or `?` and what was wrong; `id` repeated after either.
    fn answer(&mut self, id: &str, command: &str, arguments: &[&str], budget: Budget) -> String {
        let known = |name: &str| OWN.contains(&name) || C::COMMANDS.contains(&name);
        let answer = match (command, arguments) {
            ("protocol_version", _) => Ok("2".into()),
            ("name", _) => Ok("Sente".into()),
            ("version", _) => Ok(env!("CARGO_PKG_VERSION").into()),
            ("known_command", [name]) => Ok(known(name).to_string()),
            ("list_commands", _) => Ok(OWN
                .iter()
                .chain(C::COMMANDS)
                .copied()
                .collect::<Vec<_>>()
                .join("\n")),
            ("quit", _) => Ok(String::new()),
            (command, _) if C::COMMANDS.contains(&command) => {
                self.commands.answer(command, arguments, budget)
            }
            (command, _) if OWN.contains(&command) => {
                Err(format!("syntax error: {command} takes other arguments"))
            }
            _ => Err("unknown command".into()),
        };
        match answer {
            Ok(result) if result.is_empty() => format!("={id}\n\n"),
            Ok(result) => format!("={id} {result}\n\n"),
            Err(error) => format!("?{id} {error}\n\n"),
        }
    }

    /// Writes `text` and flushes it, as a controller on a pipe needs.
    fn say(&mut self, text: &str) -> io::Result<()> {
        self.output.write_all(text.as_bytes())?;
        self.output.flush()
    }
}

impl<C: Commands, W: Write> Protocol for Session<C, W> {
    fn line(&mut self, line: &str, input: &Input) -> io::Result<Flow> {
        // A '#' starts a comment; an empty line is no command.
        let line = line.split('#').next().unwrap_or_default().trim();
        if line.is_empty() {
            return Ok(Flow::Continue);
        }
        let mut words = line.split_whitespace();
        let first = words.next().unwrap_or_default();
        // An id is digits, answered as written (`007` is `=007`).
        let (id, command) = if first.bytes().all(|byte| byte.is_ascii_digit()) {
            (Some(first), words.next().unwrap_or_default())
        } else {
            (None, first)
        };
        let arguments: Vec<&str> = words.collect();
        let answer = self.answer(id.unwrap_or_default(), command, &arguments, input.budget());
        self.say(&answer)?;
        Ok(if command == "quit" {
            Flow::Quit
        } else {
            Flow::Continue
        })
    }

    fn unreadable(&mut self, why: &'static str) -> io::Result<()> {
        self.say(&format!("? ignored a line {why}\n\n"))
    }
}
