//! How long the engine thinks: a time it aims for and a time it never passes.
//!
//! With a time per move (`time_limit_ms`, UCI's `movetime`) the engine uses all of it: it
//! deepens until the time is up, and the iteration the time stops answers with a move it has
//! shown better than the last one's best, if any (the `whole_time` step; without it, it aims at
//! half, since an iteration takes several times the one before and one started after half the
//! time would rarely finish). On a clock (UCI's `wtime`/`btime`, `winc`/`binc`, `movestogo`) it
//! shares out what is left of the mover's time: the time left over the moves to go (25 when not
//! given) and most of the increment, never more than half of what is left, and it stretches or
//! shortens that aim by what the search says about the position: more while the best move keeps
//! changing or the value falls, less once the same move has been best for several iterations.
//! Time saved on an easy move is time for a hard one. A byoyomi (USI's) is a time per move,
//! with the share of the side's own time added while it lasts.

use std::time::Duration;

use crate::search::{CLOCK_OVERHEAD, EngineParams, UNLIMITED};

/// The moves a clock is shared over when `movestogo` is not given.
const MOVES_TO_GO: u32 = 25;

pub(super) struct Plan {
    /// What the engine aims to spend: no iteration starts after it.
    optimum: Duration,
    /// What it never spends: the search stops there, within an iteration if need be.
    pub maximum: Duration,
    /// Whether the aim follows the position: on a clock, where time saved now is spent later.
    flexible: bool,
}

impl Plan {
    /// The plan for the side to move, White or not, with `default` as the time per move when
    /// nothing else bounds the search: no time limit, no clock for that side, no depth and no
    /// node count. A depth or a node count alone is searched whole, however long it takes.
    pub fn new(params: &EngineParams, white: bool, default: Duration) -> Plan {
        let per_move = |limit: Duration| Plan {
            optimum: limit / 2,
            maximum: limit,
            flexible: false,
        };
        // USI's byoyomi: the time a move may always take, beside its share of the side's own
        // time; spent whole, since what is not spent of it is lost.
        if let Some(byoyomi) = params.clock.byoyomi {
            let share = params.clock.share(white, MOVES_TO_GO).unwrap_or_default();
            let limit =
                (share + byoyomi.saturating_sub(CLOCK_OVERHEAD)).max(Duration::from_millis(1));
            return per_move(params.time_limit.map_or(limit, |given| given.min(limit)));
        }
        let (Some((left, _)), Some(optimum)) = (
            params.clock.of(white),
            params.clock.share(white, MOVES_TO_GO),
        ) else {
            let bounded = params.depth.is_some() || params.nodes.is_some();
            let default = if bounded { UNLIMITED } else { default };
            return per_move(params.time_limit.unwrap_or(default));
        };
        let left = left
            .saturating_sub(CLOCK_OVERHEAD)
            .max(Duration::from_millis(1));
        let maximum = (optimum * 3).min(left * 3 / 4).max(optimum);
        let plan = Plan {
            optimum,
            maximum,
            flexible: true,
        };
        match params.time_limit {
            // A time limit as well as a clock: whichever is shorter.
            Some(limit) if limit < plan.maximum => per_move(limit),
            _ => plan,
        }
    }

    /// Whether the time is a time per move rather than a share of a clock.
    pub fn is_per_move(&self) -> bool {
        !self.flexible
    }

    /// Whether to start another iteration `elapsed` into the search, when the best move has
    /// stayed the same for `steady` iterations and the value `fell` in the last one.
    pub fn deepen_further(&self, elapsed: Duration, steady: u32, fell: bool) -> bool {
        let mut aim = self.optimum.as_secs_f64();
        if self.flexible {
            if steady == 0 {
                aim *= 1.5;
            } else if steady >= 4 {
                aim *= 0.6;
            }
            if fell {
                aim *= 1.4;
            }
        }
        let aim = aim.min(self.maximum.as_secs_f64() / 2.0);
        elapsed.as_secs_f64() < aim
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Clock;

    fn ms(millis: u64) -> Duration {
        Duration::from_millis(millis)
    }

    #[test]
    fn a_time_per_move_is_spent_whole_and_aimed_at_half() {
        let plan = Plan::new(&EngineParams::for_time(ms(100)), true, ms(1_000));
        assert_eq!(plan.maximum, ms(100));
        assert!(plan.deepen_further(ms(49), 0, true));
        assert!(!plan.deepen_further(ms(50), 0, true));
    }

    /// The default time bounds only a search nothing else bounds: a depth or a node count
    /// alone is searched whole.
    #[test]
    fn a_depth_or_nodes_alone_is_not_cut_at_the_default() {
        let default = ms(1_000);
        assert_eq!(
            Plan::new(&EngineParams::default(), true, default).maximum,
            default
        );
        let deep = EngineParams {
            depth: Some(30),
            ..EngineParams::default()
        };
        assert_eq!(Plan::new(&deep, true, default).maximum, UNLIMITED);
        let many = EngineParams {
            nodes: Some(10_000_000),
            ..EngineParams::default()
        };
        assert_eq!(Plan::new(&many, false, default).maximum, UNLIMITED);
        // A time given beside them still bounds them.
        let timed = EngineParams {
            time_limit: Some(ms(50)),
            ..deep
        };
        assert_eq!(Plan::new(&timed, true, default).maximum, ms(50));
    }

    #[test]
    fn a_clock_is_shared_out_and_the_aim_follows_the_search() {
        let params = EngineParams {
            clock: Clock {
                wtime: Some(ms(10_020)),
                winc: Some(ms(100)),
                btime: Some(ms(1_020)),
                ..Clock::default()
            },
            ..EngineParams::default()
        };
        // White: 10 s over 25 moves and three quarters of the increment.
        let white = Plan::new(&params, true, ms(1_000));
        assert_eq!(white.optimum, ms(475));
        assert_eq!(white.maximum, ms(1_425));
        // A steady best move stops early, a changing one goes on.
        assert!(!white.deepen_further(ms(300), 5, false));
        assert!(white.deepen_further(ms(600), 0, false));
        // Black has no increment and a second left.
        let black = Plan::new(&params, false, ms(1_000));
        assert_eq!(black.optimum, ms(40));
        // No clock for the side to move: the default time per move.
        let params = EngineParams {
            clock: Clock {
                wtime: Some(ms(5_000)),
                ..Clock::default()
            },
            ..EngineParams::default()
        };
        assert_eq!(Plan::new(&params, false, ms(1_000)).maximum, ms(1_000));
    }

    #[test]
    fn a_byoyomi_is_a_time_per_move_on_top_of_the_share() {
        let params = EngineParams {
            clock: Clock {
                wtime: Some(ms(0)),
                btime: Some(ms(25_020)),
                byoyomi: Some(ms(1_000)),
                ..Clock::default()
            },
            ..EngineParams::default()
        };
        let spent = Plan::new(&params, true, ms(5_000));
        assert!(spent.is_per_move());
        assert!(
            spent.maximum >= ms(975) && spent.maximum <= ms(1_000),
            "{:?}",
            spent.maximum
        );
        let left = Plan::new(&params, false, ms(5_000));
        assert!(left.maximum > ms(1_900), "{:?}", left.maximum);
    }
}
