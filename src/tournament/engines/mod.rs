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

mod config;
pub mod gtp;
mod process;
pub mod uci;
pub mod xboard;

use std::time::{Duration, Instant};

pub use config::*;
pub use process::{MAX_LINE_BYTES, Process};

use super::time_control::Limits;
use crate::search::Budget;

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
        let dialogue = match uci::Dialect::of(config.protocol) {
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

impl EngineConfig {
    /// Starts the engine once, within its handshake time, to learn the options it lists.
    pub fn probe(mut self) -> Result<EngineConfig, String> {
        let budget = Budget::unlimited();
        let mut process = Process::spawn(&self).map_err(describe)?;
        let deadline = Instant::now() + self.handshake;
        let listed = match uci::Dialect::of(self.protocol) {
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
    use std::path::PathBuf;

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
