//! A protocol's input, read the one way every text protocol reads it (UCI, USI, GTP, NBoard):
//! on a thread of its own, a line at a time within [`MAX_LINE_BYTES`], a line too long or not
//! UTF-8 passed on as unreadable rather than ending the session, and the end of the input
//! marked where a search can see it ([`Input::budget`]). A fix to reading is a fix to all four.

use std::io::BufRead;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};

use crate::lines;
use crate::search::Budget;

/// The longest line read: far longer than any `position` of a real game.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// A line of a protocol's input.
pub enum Line {
    Text(String),
    /// A line that was longer than [`MAX_LINE_BYTES`] (read no further than its end) or not
    /// UTF-8: why. Ignored, as engines ignore what they do not understand.
    Unreadable(&'static str),
    End,
}

/// How many lines the reader reads ahead of the session: a controller that writes faster
/// than the engine answers waits, rather than growing the queue.
const READ_AHEAD: usize = 64;

/// A protocol's input, read on a thread of its own: the session takes its lines in order, and
/// a search learns from [`Input::budget`] when the input has ended.
pub struct Input {
    lines: Receiver<Line>,
    /// Lines read and not yet taken.
    queued: Arc<AtomicUsize>,
    /// Set when the input has ended.
    ended: Arc<AtomicBool>,
}

impl Input {
    /// Reads `input` on a thread until its end.
    pub fn spawn(mut input: impl BufRead + Send + 'static) -> Input {
        let (sender, lines) = sync_channel(READ_AHEAD);
        let queued = Arc::new(AtomicUsize::new(0));
        let ended = Arc::new(AtomicBool::new(false));
        let (count, end) = (Arc::clone(&queued), Arc::clone(&ended));
        std::thread::spawn(move || read_all(&mut input, &sender, &count, &end));
        Input {
            lines,
            queued,
            ended,
        }
    }

    /// The next line, waiting for it; the end once the input has ended (or failed).
    pub fn next(&self) -> Line {
        match self.lines.recv() {
            Ok(Line::End) | Err(_) => Line::End,
            Ok(line) => {
                self.queued.fetch_sub(1, Ordering::Relaxed);
                line
            }
        }
    }

    /// The budget of the search for the command just taken: stopped when the input ends,
    /// where no command is waiting after it (then the controller is still there to read them).
    pub fn budget(&self) -> Budget {
        if self.queued.load(Ordering::Relaxed) > 0 {
            return Budget::unlimited();
        }
        Budget {
            cancelled: Some(Arc::clone(&self.ended)),
            ..Budget::default()
        }
    }
}

/// The reader's loop: each line of `input` sent in order, then the end.
fn read_all(
    input: &mut impl BufRead,
    sender: &SyncSender<Line>,
    queued: &AtomicUsize,
    ended: &AtomicBool,
) {
    let mut bytes = Vec::new();
    loop {
        let line = match lines::read_line(input, &mut bytes, MAX_LINE_BYTES) {
            Ok(lines::Read::End) | Err(_) => break,
            Ok(lines::Read::TooLong) => match lines::skip_line(input) {
                Ok(()) => Line::Unreadable("longer than 1 MiB"),
                Err(_) => break,
            },
            Ok(lines::Read::Line) => std::str::from_utf8(lines::text(&bytes))
                .map(|line| Line::Text(line.trim().to_owned()))
                .unwrap_or(Line::Unreadable("that is not UTF-8")),
        };
        queued.fetch_add(1, Ordering::Relaxed);
        if sender.send(line).is_err() {
            return;
        }
    }
    ended.store(true, Ordering::Relaxed);
    let _ = sender.send(Line::End);
}
