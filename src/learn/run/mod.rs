//! `sente learn`: generations of a game's learnt evaluation, each one pipeline run, as the
//! engines that lead their fields learnt (Stockfish's and YaneuraOu's nets, Egaroucid's
//! patterns, KataGo): the best so far plays itself, a candidate learns from its games, and it
//! replaces the best only where Sente's SPRT says it is stronger. Then again, from the new
//! best's games.
//!
//! A generation's steps, each a file of its own in the run's directory ([`layout`]):
//! 1. self-play ([`steps::selfplay`]): the best plays itself in pieces, each piece a tournament
//!    shard with records (an evaluation's weights) or `sente selfplay`'s positions (a
//!    policy-value network's);
//! 2. training ([`steps::train`]): the positions of the last generations (`window`), going on
//!    from the best's weights;
//! 3. the SPRT ([`steps::sprt`]): the candidate against the best in pieces of games, the
//!    pieces judged in order, so that it stops at the first piece after which it has decided;
//! 4. promotion ([`steps::promote`]): the verdict, the generation's row, the report.
//!
//! Every finished piece is a file written whole or not at all, so a run killed at any point is
//! taken up by the same command from the first piece not finished; nothing finished is redone,
//! nothing half written is read. Self-play's and the SPRT's pieces are what machines share
//! (`--step selfplay --shard I/N`: machine I plays the pieces I, I + N, ...), the same pieces a
//! single machine plays in turn, so a run on a cluster is the run on one machine.

pub mod layout;
pub mod positions;
pub mod report;
pub mod selfplay;
mod settings;
pub mod steps;

use std::path::{Path, PathBuf};

pub use layout::Layout;
pub use settings::{Settings, SprtSettings};

use crate::files::FileError;
use crate::learn::LearnError;
use crate::learn::LearntWeights;

/// The largest file of weights a run starts from: a policy-value network of the largest
/// shape, with room.
const MAX_START_BYTES: u64 = 1 << 30;

/// What a game learns, as the loop treats it.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    /// The engine's evaluation weights (chess's and shogi's networks, Othello's patterns):
    /// learnt from tournaments' records of the engine against itself, played with the
    /// `weights` knob.
    Evaluation(LearntWeights),
    /// AlphaZero's policy-value network: learnt from `sente selfplay`'s visits and results,
    /// played with `alphazero`'s `net` knob.
    PolicyValue {
        /// The bytes of the best network the game ships, if it ships one.
        shipped: Option<&'static [u8]>,
    },
}

impl Kind {
    /// What `game` learns (with `network`, AlphaZero's network even where the game's own
    /// evaluation learns: Othello's); an error in words for a game there is none called so.
    pub fn of(game: &str, network: bool) -> Result<Kind, LearnError> {
        let trainer = crate::api::catalogue::trainer(game, network)?;
        Ok(match trainer.weights {
            Some(weights) => Kind::Evaluation(weights),
            None => Kind::PolicyValue {
                shipped: crate::api::catalogue::shipped_network(game)?,
            },
        })
    }

    /// The extension of a generation's weights file.
    pub fn extension(&self) -> &'static str {
        match self {
            Kind::Evaluation(weights) => Path::new(weights.file)
                .extension()
                .and_then(|extension| extension.to_str())
                .unwrap_or("weights"),
            Kind::PolicyValue { .. } => "net",
        }
    }

    /// The shipped weights: generation 0, where the game ships any.
    pub fn shipped(&self) -> Option<&'static [u8]> {
        match self {
            Kind::Evaluation(weights) => Some(weights.shipped),
            Kind::PolicyValue { shipped } => *shipped,
        }
    }
}

/// A run of generations in a directory: its settings, and where its files go.
pub struct Learning {
    pub settings: Settings,
    pub kind: Kind,
    pub layout: Layout,
    /// Threads this machine plays and trains on.
    pub threads: usize,
}

impl Learning {
    /// The run in `dir`: its settings as its first command wrote them, or, for a new run,
    /// `settings` (written there for every later command to read). Settings given to a run
    /// already started must be its own: a run's record is of one recipe.
    pub fn open(
        dir: &Path,
        settings: Option<Settings>,
        threads: usize,
    ) -> Result<Learning, LearnError> {
        let layout = Layout::new(dir);
        let written = layout.read_settings()?;
        let settings = match (written, settings) {
            (Some(written), Some(given)) if written != given => {
                return Err(LearnError::Run(format!(
                    "{} was started with other settings ({}); a run keeps its settings: start \
                     another directory, or give none to go on with its own",
                    dir.display(),
                    written.differences(&given).join(", ")
                )));
            }
            (Some(written), _) => written,
            (None, Some(given)) => {
                given.check()?;
                std::fs::create_dir_all(dir).map_err(|error| FileError::io(dir, error))?;
                layout.write_settings(&given)?;
                given
            }
            (None, None) => {
                return Err(LearnError::Run(format!(
                    "{} holds no run (no {}): give --game to start one",
                    dir.display(),
                    layout::SETTINGS
                )));
            }
        };
        let kind = Kind::of(&settings.game, settings.network)?;
        let learning = Learning {
            settings,
            kind,
            layout,
            threads: threads.max(1),
        };
        learning.start()?;
        Ok(learning)
    }

    /// Generation 0: the weights the run starts from, or the shipped ones, where the game ships
    /// any, the first best.
    fn start(&self) -> Result<(), LearnError> {
        if self.layout.row(0)?.is_some() {
            return Ok(());
        }
        let start = match &self.settings.start_from {
            Some(path) => Some(std::borrow::Cow::Owned(crate::files::read_at_most(
                path,
                MAX_START_BYTES,
                "weights to start from",
            )?)),
            None => self.kind.shipped().map(std::borrow::Cow::Borrowed),
        };
        let best = match start {
            Some(bytes) => {
                std::fs::create_dir_all(self.layout.generation(0))
                    .map_err(|error| FileError::io(&self.layout.dir, error))?;
                crate::files::write_bytes(&self.weights(0), &bytes)?;
                Some(0)
            }
            None => None,
        };
        self.layout.write_row(&report::Row::first(best))
    }

    /// The file of generation `generation`'s weights (its candidate; generation 0's, the
    /// shipped ones).
    pub fn weights(&self, generation: u32) -> PathBuf {
        self.layout
            .generation(generation)
            .join(format!("weights.{}", self.kind.extension()))
    }

    /// The generation being made (the first without its row) and the best so far.
    pub fn state(&self) -> Result<(u32, Option<u32>), LearnError> {
        let rows = self.layout.rows()?;
        let last = rows
            .last()
            .ok_or_else(|| LearnError::Run("the run has no generation 0".to_owned()))?;
        Ok((last.generation + 1, last.best_after))
    }

    /// Makes whole generations until `generations` more are finished (a generation half made
    /// by an earlier command counts as one), each step telling `progress` how far it is.
    pub fn run(
        &self,
        generations: u32,
        progress: &dyn steps::Progress,
    ) -> Result<Vec<report::Row>, LearnError> {
        let mut rows = Vec::new();
        for _ in 0..generations {
            steps::selfplay(self, None, progress)?;
            steps::train(self, progress)?;
            steps::sprt(self, None, progress)?;
            rows.push(steps::promote(self)?);
        }
        Ok(rows)
    }
}

#[cfg(test)]
mod tests;
