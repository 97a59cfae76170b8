//! What a player may spend on its moves, as match runners set it: a time control (none, a fixed
//! time a move, or a clock with an increment), nodes or plies a move, and each move's share of
//! a clock.

use std::fmt;
use std::time::Duration;

/// What a player may spend on its moves, as match runners set it.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct Limits {
    pub time: TimeControl,
    /// Nodes per move.
    pub nodes: Option<u64>,
    /// Plies per move (an engine's `go depth`; Sente's searches take their `depth` knob).
    pub depth: Option<u32>,
}

/// How much time a player has.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub enum TimeControl {
    /// No clock: the search's own limits.
    #[default]
    None,
    /// This long for every move; a little over is tolerated ([`MOVE_TIME_MARGIN`]).
    PerMove(Duration),
    /// A clock: `base` for the game, `increment` added after each move. A player whose clock
    /// runs out loses on time.
    Clock { base: Duration, increment: Duration },
}

/// How far past a fixed time per move an answer may come before it is a loss on time: the time
/// a process takes to be scheduled and to write its answer, not a gift of thinking time.
pub const MOVE_TIME_MARGIN: Duration = Duration::from_millis(250);

/// How long a move may take when the time control sets no limit (a fixed depth or node count),
/// so that an engine that hangs still loses its game rather than stopping the tournament.
pub const UNTIMED_MOVE_LIMIT: Duration = Duration::from_secs(60);

/// The longest clock a time control may set.
pub const MAX_CLOCK: Duration = Duration::from_secs(24 * 3600);

impl TimeControl {
    /// Reads a clock as match runners write it, `BASE+INCREMENT` in seconds (`10+0.1`,
    /// `60`), or a time per move in seconds with `/move` (`0.1/move`).
    pub fn parse(text: &str) -> Result<TimeControl, String> {
        let seconds = |part: &str| -> Result<Duration, String> {
            let value: f64 = part.trim().parse().map_err(|_| {
                format!("a time control is BASE+INCREMENT or SECONDS/move, in seconds (10+0.1, 60, 0.1/move); got {text:?}")
            })?;
            if !(0.0..=MAX_CLOCK.as_secs_f64()).contains(&value) {
                return Err(format!(
                    "a time control's seconds are between 0 and {}, got {value}",
                    MAX_CLOCK.as_secs()
                ));
            }
            Ok(Duration::from_secs_f64(value))
        };
        let text_trimmed = text.trim();
        if let Some(per_move) = text_trimmed.strip_suffix("/move") {
            let time = seconds(per_move)?;
            if time.is_zero() {
                return Err("a time per move is more than 0 seconds".into());
            }
            return Ok(TimeControl::PerMove(time));
        }
        let (base, increment) = text_trimmed.split_once('+').unwrap_or((text_trimmed, "0"));
        let (base, increment) = (seconds(base)?, seconds(increment)?);
        if base.is_zero() {
            return Err("a clock starts with more than 0 seconds".into());
        }
        Ok(TimeControl::Clock { base, increment })
    }

    /// The clock a game starts with, if any.
    pub fn start(&self) -> Option<Duration> {
        match *self {
            TimeControl::Clock { base, .. } => Some(base),
            _ => None,
        }
    }

    /// What a move may take with `clock` left: the time to aim for, and the time past which it
    /// loses on time, `margin` past a fixed time per move ([`MOVE_TIME_MARGIN`] for Sente's
    /// searches, an engine's own `margin_ms=`).
    pub fn allot(&self, clock: Option<Duration>, margin: Duration) -> Allotment {
        match (*self, clock) {
            (TimeControl::PerMove(time), _) => Allotment {
                aim: Some(time),
                clock: None,
                flag: time + margin,
            },
            (TimeControl::Clock { increment, .. }, Some(left)) => Allotment {
                // As if twenty moves remained: enough remain in most games for the clock never
                // to fall, yet late moves still get time.
                aim: Some(crate::search::share(left, increment, 20)),
                clock: Some((left, increment)),
                flag: left,
            },
            _ => Allotment {
                aim: None,
                clock: None,
                flag: UNTIMED_MOVE_LIMIT,
            },
        }
    }
}

/// A move's time.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Allotment {
    /// What the player should aim to spend.
    pub aim: Option<Duration>,
    /// What is left on the player's clock and its increment, for a player that shares out
    /// its clock itself (Sente's chess engine, as engines over UCI do).
    pub clock: Option<(Duration, Duration)>,
    /// Past this, the move loses on time.
    pub flag: Duration,
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TimeControl::None => f.write_str("-"),
            TimeControl::PerMove(time) => write!(f, "{}/move", time.as_secs_f64()),
            TimeControl::Clock { base, increment } => {
                write!(f, "{}+{}", base.as_secs_f64(), increment.as_secs_f64())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_read_as_match_runners_write_them() {
        let clock = |base: f64, increment: f64| TimeControl::Clock {
            base: Duration::from_secs_f64(base),
            increment: Duration::from_secs_f64(increment),
        };
        assert_eq!(TimeControl::parse("10+0.1"), Ok(clock(10.0, 0.1)));
        assert_eq!(TimeControl::parse(" 60 "), Ok(clock(60.0, 0.0)));
        assert_eq!(
            TimeControl::parse("0.1/move"),
            Ok(TimeControl::PerMove(Duration::from_millis(100)))
        );
        for bad in ["", "fast", "10+", "-1+0", "0+1", "0/move", "1e9", "NaN"] {
            assert!(TimeControl::parse(bad).is_err(), "{bad:?}");
        }
        assert_eq!(clock(10.0, 0.1).to_string(), "10+0.1");
    }

    #[test]
    fn a_clock_spends_a_share_of_what_is_left() {
        let tc = TimeControl::parse("10+0.1").unwrap();
        let allotment = tc.allot(Some(Duration::from_secs(10)), MOVE_TIME_MARGIN);
        assert_eq!(allotment.flag, Duration::from_secs(10));
        assert_eq!(allotment.aim, Some(Duration::from_millis(575)));
        // Never more than half of what is left.
        let allotment = tc.allot(Some(Duration::from_millis(100)), MOVE_TIME_MARGIN);
        assert_eq!(allotment.aim, Some(Duration::from_millis(50)));
        assert_eq!(
            TimeControl::None.allot(None, MOVE_TIME_MARGIN).flag,
            UNTIMED_MOVE_LIMIT
        );
    }
}
