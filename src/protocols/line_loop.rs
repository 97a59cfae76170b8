//! The one loop of every text protocol (UCI, USI, GTP, NBoard), as mini-redis has one loop for
//! its connection and a file for each command: the lines read from [`Input`], each handed to
//! the protocol, a line that could not be read handed on as such, and the end of the input
//! ending the session. What a command does, and whether it answers at once or when its search
//! ends, is the protocol's.

use std::io::{self, BufRead};

use super::input::{Input, Line};

/// Whether the session goes on after a line.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    /// The protocol's `quit`.
    Quit,
}

/// A text protocol: its answer to each line of its input.
pub trait Protocol {
    /// Answers `line`; `input` gives the budget of a search it starts
    /// ([`Input::budget`]: stopped when the input ends with no command after it).
    fn line(&mut self, line: &str, input: &Input) -> io::Result<Flow>;

    /// A line the input skipped (longer than its bound, or not UTF-8), and why: said where the
    /// protocol has words for it; by default ignored, as engines ignore what they do not
    /// understand.
    fn unreadable(&mut self, why: &'static str) -> io::Result<()> {
        let _ = why;
        Ok(())
    }

    /// The end of the input: the controller has gone, as if it had said `quit`. A search in
    /// progress stops and answers; by default there is none.
    fn end(&mut self) {}
}

/// Runs `protocol` on `input` until its `quit` or the end of the input.
pub fn run(mut protocol: impl Protocol, input: impl BufRead + Send + 'static) -> io::Result<()> {
    let input = Input::spawn(input);
    loop {
        match input.next() {
            Line::Text(line) => {
                if protocol.line(&line, &input)? == Flow::Quit {
                    return Ok(());
                }
            }
            Line::Unreadable(why) => protocol.unreadable(why)?,
            Line::End => {
                protocol.end();
                return Ok(());
            }
        }
    }
}
