//! What `go` asks, as UCI and USI write it: the clocks, a time, a depth or nodes, `infinite`,
//! `mate` (moves in UCI, milliseconds in USI) and `ponder`, each read whole, however many digits.

use std::time::Duration;

use crate::search::Clock;
use crate::search::engine::UNLIMITED;

/// How long `go infinite` may think: until `stop`, in practice.
const INFINITE: Duration = UNLIMITED;
/// The longest clock or time `go` reads: a longer one (up to any number of digits) is read as
/// this, so that no clock is dropped for its size.
pub const MAX_CLOCK: Duration = Duration::from_secs(24 * 3600);

/// What `go` asks.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct Go {
    pub(super) clock: Clock,
    pub(super) movetime: Option<u64>,
    pub(super) depth: Option<u32>,
    pub(super) nodes: Option<u64>,
    pub(super) infinite: bool,
    /// `go ponder`: searched until `ponderhit` or `stop`, and answered only then.
    pub(super) ponder: bool,
    /// `go mate`: a mate search (USI answers it with `checkmate`).
    pub(super) mate: bool,
    /// `go mate N` in USI: its time in milliseconds (`infinite` is none).
    pub(super) mate_time: Option<u64>,
}

/// A whole number as `go` gives it, of any length: one past the range reads as the end of the
/// range it is past, so that a clock too large to hold is a large clock, not a missing one.
fn whole_number(word: &str) -> Option<i64> {
    let (negative, digits) = match word.strip_prefix('-') {
        Some(digits) => (true, digits),
        None => (false, word.strip_prefix('+').unwrap_or(word)),
    };
    if digits.is_empty() || !digits.bytes().all(|byte| byte.is_ascii_digit()) {
        return None;
    }
    Some(match (digits.parse::<i64>(), negative) {
        (Ok(value), true) => -value,
        (Ok(value), false) => value,
        (Err(_), true) => i64::MIN,
        (Err(_), false) => i64::MAX,
    })
}

impl Go {
    /// `go`'s words; `mate_in_moves` where `go mate N` asks for a mate in N moves (UCI), not
    /// a search of N milliseconds (USI).
    pub(super) fn read(words: &[&str], mate_in_moves: bool) -> Go {
        let max_clock = MAX_CLOCK.as_millis() as i64;
        let mut go = Go::default();
        let mut words = words.iter();
        while let Some(word) = words.next() {
            let mut number = || words.next().and_then(|value| whole_number(value));
            let millis = |value: Option<i64>| value.map(|ms| ms.clamp(0, max_clock) as u64);
            let duration = |value: Option<i64>| millis(value).map(Duration::from_millis);
            match *word {
                "wtime" => go.clock.wtime = duration(number()),
                "btime" => go.clock.btime = duration(number()),
                "winc" => go.clock.winc = duration(number()),
                "binc" => go.clock.binc = duration(number()),
                "byoyomi" => go.clock.byoyomi = duration(number()),
                "movestogo" => {
                    go.clock.movestogo = millis(number()).map(|moves| moves.clamp(1, 1_000) as u32);
                }
                "movetime" => go.movetime = millis(number()),
                "depth" => go.depth = number().map(|depth| depth.clamp(1, 64) as u32),
                "nodes" => go.nodes = number().map(|nodes| nodes.max(1) as u64),
                "infinite" => go.infinite = true,
                "ponder" => go.ponder = true,
                "mate" => {
                    go.mate = true;
                    let n = number();
                    if !mate_in_moves {
                        go.mate_time = millis(n);
                    }
                }
                _ => {}
            }
        }
        go
    }

    /// How long to think when the clock does not say: the time per move, a mate search's
    /// time, or until told to stop (or the depth or nodes are reached, or a mate found). With
    /// the mover's clock or a byoyomi, the engine shares it out itself. Pondering is until
    /// `ponderhit` or `stop`, whatever the clock.
    pub(super) fn time(&self, white: bool, mate_in_moves: bool) -> Option<Duration> {
        if self.ponder {
            return Some(INFINITE);
        }
        if let Some(movetime) = self.movetime.or(self.mate_time) {
            return Some(Duration::from_millis(movetime.max(1)));
        }
        // UCI's mate in N moves is searched until a mate is proven or `stop`, as Stockfish
        // searches it.
        if self.infinite || (self.mate && (mate_in_moves || self.mate_time.is_none())) {
            return Some(INFINITE);
        }
        match (self.clock.of(white), self.clock.byoyomi) {
            (None, None) => Some(INFINITE),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_reads_its_limits_and_shares_the_clock() {
        let go = Go::read(
            &[
                "wtime", "10000", "btime", "8000", "winc", "100", "binc", "100",
            ],
            true,
        );
        assert_eq!(
            go.clock.of(false),
            Some((Duration::from_millis(8000), Duration::from_millis(100)))
        );
        assert_eq!(go.time(true, true), None);
        let go = Go::read(&["wtime", "10000", "movestogo", "4"], true);
        assert_eq!(go.clock.movestogo, Some(4));
        assert_eq!(go.time(false, true), Some(INFINITE));
        assert_eq!(
            Go::read(&["movetime", "100"], true).time(false, true),
            Some(Duration::from_millis(100))
        );
        assert_eq!(
            Go::read(&["infinite"], true).time(true, true),
            Some(INFINITE)
        );
        assert_eq!(
            Go::read(&["depth", "99", "nodes", "0"], true).depth,
            Some(64)
        );
        assert_eq!(Go::read(&["nodes", "0"], true).nodes, Some(1));
        // A depth alone searches to it, however long that takes.
        assert_eq!(
            Go::read(&["depth", "5"], true).time(true, true),
            Some(INFINITE)
        );
    }

    #[test]
    fn go_reads_usi_clocks_and_mate() {
        let go = Go::read(
            &["btime", "10000", "wtime", "8000", "byoyomi", "1000"],
            false,
        );
        assert_eq!(go.clock.byoyomi, Some(Duration::from_millis(1000)));
        assert_eq!(
            go.clock.of(true),
            Some((Duration::from_millis(8000), Duration::ZERO))
        );
        assert_eq!(go.time(false, false), None);
        assert_eq!(
            Go::read(&["byoyomi", "500"], false).time(false, false),
            None
        );
        let mate = Go::read(&["mate", "3000"], false);
        assert!(mate.mate);
        assert_eq!(mate.time(false, false), Some(Duration::from_millis(3000)));
        assert_eq!(
            Go::read(&["mate", "infinite"], false).time(true, false),
            Some(INFINITE)
        );
    }

    /// A clock too large to hold is read as the largest clock, not dropped (which would leave
    /// the search to run until `stop`); any number of digits is read.
    #[test]
    fn clocks_too_large_are_capped_not_dropped() {
        let go = Go::read(&["wtime", "99999999999999999999", "btime", "1"], true);
        assert_eq!(go.clock.wtime, Some(MAX_CLOCK));
        assert_eq!(go.clock.btime, Some(Duration::from_millis(1)));
        assert_eq!(go.time(true, true), None, "the clock is shared out");
        let go = Go::read(
            &["movetime", "1e30", "nodes", "99999999999999999999999"],
            true,
        );
        assert_eq!(go.movetime, None, "not a whole number");
        assert_eq!(go.nodes, Some(i64::MAX as u64));
        assert_eq!(whole_number("-99999999999999999999"), Some(i64::MIN));
        assert_eq!(whole_number("12a"), None);
    }

    /// UCI's `go mate N` is a mate in N moves, searched until found or `stop`; USI's is N
    /// milliseconds. `go ponder` is until `ponderhit` or `stop`, whatever the clock.
    #[test]
    fn mate_and_ponder_are_read_as_each_protocol_means_them() {
        let uci = Go::read(&["mate", "2"], true);
        assert!(uci.mate);
        assert_eq!(uci.time(true, true), Some(INFINITE));
        let usi = Go::read(&["mate", "2000"], false);
        assert_eq!(usi.time(true, false), Some(Duration::from_millis(2000)));
        let ponder = Go::read(&["ponder", "wtime", "1000", "btime", "1000"], true);
        assert!(ponder.ponder);
        assert_eq!(ponder.time(true, true), Some(INFINITE));
    }
}
