//! The text protocols: Sente's front doors beside HTTP, each spoken over standard input and
//! output to a GUI or a match runner. They stand on the engine kit's API (a search, what it
//! keeps from move to move, its options) and are none of its business: the kit searches, a
//! protocol reads lines and answers them.
//!
//! - `line_loop.rs`: the one loop of every protocol, a line at a time;
//! - `input.rs`: the lines, read on a thread of their own, bounded, the end of the input seen
//!   by the search it stops;
//! - `uci.rs`: UCI (`sente uci`) and USI (`sente usi`), one session whose dialects differ in
//!   words, with `go.rs` reading what `go` asks. A game says its dialect in its own folder
//!   (`chess/uci.rs`, `shogi/usi.rs`), as Othello says GTP and NBoard (`othello/gtp.rs`,
//!   `othello/nboard.rs`), both over this room's loop and input: NBoard is Othello's alone, and
//!   GTP is spoken here as Othello programs speak it, so both are the game's words.

mod go;
mod input;
mod line_loop;
pub mod uci;

pub use go::MAX_CLOCK;
pub use input::{Input, Line, MAX_LINE_BYTES};
pub use line_loop::{Flow, Protocol, run};
