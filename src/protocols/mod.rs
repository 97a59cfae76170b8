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
//!   (`chess/uci.rs`, `shogi/usi.rs`);
//! - `gtp.rs`: GTP (`sente gtp`), its framing and the commands every engine answers; a game
//!   says its own commands in its folder (`othello/gtp.rs`). NBoard is Othello's alone
//!   (`othello/nboard.rs`), over this room's loop and input.

mod go;
pub mod gtp;
mod input;
mod line_loop;
pub mod uci;

pub use go::MAX_CLOCK;
pub use input::{Input, Line, MAX_LINE_BYTES};
pub use line_loop::{Flow, Protocol, run};
