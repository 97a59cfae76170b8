//! A run's settings, in one place: what self-play, training and the SPRT of every generation
//! are given. The first command of a run writes them to `learn.json`; every later one reads
//! them from there.

use serde::{Deserialize, Serialize};

use super::Kind;
use crate::learn::LearnError;
use crate::search::alphazero::selfplay::Tricks;

/// How every generation of a run is made.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// The game, one of those `GET /games` lists.
    pub game: String,
    /// AlphaZero's policy-value network learns, for a game whose own learnt evaluation would
    /// otherwise (Othello's patterns).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub network: bool,
    /// Seeds every generation's games and training (generation `g`'s from it and `g`).
    pub seed: u64,
    /// Self-play games a generation.
    pub games: u64,
    /// The pieces self-play is split into: what a resumed run starts again from, and what
    /// machines share.
    pub pieces: u64,
    /// An evaluation's self-play: nodes a move.
    pub nodes: u64,
    /// An evaluation's self-play: each game opens with a number of random plies in this range,
    /// so that the games differ.
    pub random_plies: [u32; 2],
    /// A policy-value network's self-play: simulations a move.
    pub simulations: u32,
    /// A policy-value network's self-play: plies whose move is drawn in proportion to visits.
    pub temperature_plies: u32,
    /// A policy-value network's self-play: the Dirichlet noise's alpha at the root.
    pub noise_alpha: f64,
    /// Generations whose positions a candidate learns from, the newest last.
    pub window: u32,
    /// Training: passes over the data, positions a step, Adam's first step size.
    pub epochs: u32,
    pub batch: usize,
    pub learning_rate: f32,
    /// How much of an evaluation's target is the game's result, the rest the search's score.
    pub result_weight: f32,
    /// The hidden layers' width of a policy-value network started afresh (a tower's channels).
    pub hidden: Option<usize>,
    /// A policy-value network started afresh as a residual tower of this many blocks.
    #[serde(default)]
    pub blocks: Option<usize>,
    /// How much of a policy-value network's value target is the search's value, the rest the
    /// game's result.
    #[serde(default)]
    pub search_value_weight: f32,
    /// A policy-value network's self-play: KataGo's tricks.
    #[serde(default)]
    pub tricks: Tricks,
    /// Generation 0's weights: this file's rather than the shipped ones (a network of a new
    /// shape, distilled from the shipped one's games, to go on from).
    #[serde(default)]
    pub start_from: Option<std::path::PathBuf>,
    /// An evaluation network's candidates read their inputs in this many king buckets (the
    /// game's count; a best without them goes on as one with them); `None`: as the best.
    #[serde(default)]
    pub king_buckets: Option<usize>,
    pub sprt: SprtSettings,
}

/// The SPRT that decides a promotion.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SprtSettings {
    /// Both players' knobs beside their weights (`time_limit_ms=50`, `simulations=400`).
    pub knobs: String,
    /// The Elo of H0 and H1: the candidate replaces the best where H1 is accepted.
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    /// The most games; a test still undecided then keeps the best.
    pub games: u64,
    /// Games a piece: the test is judged after each.
    pub piece_games: u64,
    /// Random plies each opening is drawn with (each played with both colours).
    pub random_plies: u32,
}

/// The most games a generation plays, in self-play or in its SPRT.
pub const MAX_GAMES: u64 = crate::api::tournament::MAX_GAMES;
/// The most pieces a step is split into.
pub const MAX_PIECES: u64 = 10_000;

impl Settings {
    /// The defaults for `game` (with `network`, learning AlphaZero's network whatever the
    /// game's own evaluation): an evaluation's self-play at 5,000 nodes a move (shogi's first
    /// generation's), its SPRT at 50 ms a move; a network's at 400 simulations (AlphaZero's
    /// loop, docs/alphazero.md).
    pub fn defaults(game: &str, network: bool) -> Result<Settings, LearnError> {
        let kind = Kind::of(game, network)?;
        let evaluation = matches!(kind, Kind::Evaluation(_));
        Ok(Settings {
            game: game.to_owned(),
            network,
            seed: 1,
            games: if evaluation { 4_000 } else { 2_000 },
            pieces: 40,
            nodes: 5_000,
            random_plies: [8, 12],
            simulations: 400,
            temperature_plies: 8,
            noise_alpha: 1.0,
            window: if evaluation { 2 } else { 4 },
            epochs: if evaluation { 12 } else { 10 },
            batch: if evaluation { 4_096 } else { 256 },
            learning_rate: if evaluation { 0.001 } else { 0.002 },
            result_weight: 0.0,
            hidden: None,
            blocks: None,
            search_value_weight: 0.0,
            // Forced playouts and policy target pruning measured stronger (docs/alphazero.md);
            // a run's file without tricks, from before them, keeps playing without.
            tricks: Tricks {
                forced_playouts: !evaluation,
                ..Tricks::default()
            },
            start_from: None,
            king_buckets: None,
            sprt: SprtSettings {
                knobs: if evaluation {
                    "time_limit_ms=50".into()
                } else {
                    "simulations=400".into()
                },
                elo0: 0.0,
                elo1: if evaluation { 20.0 } else { 30.0 },
                alpha: 0.05,
                beta: 0.05,
                games: 1_000,
                piece_games: 100,
                random_plies: 8,
            },
        })
    }

    /// Refuses settings no run could be made with, saying which and why.
    pub fn check(&self) -> Result<(), LearnError> {
        let within = |name: &str, value: u64, min: u64, max: u64| {
            if (min..=max).contains(&value) {
                Ok(())
            } else {
                Err(LearnError::Options(format!(
                    "{name} is from {min} to {max}, got {value}"
                )))
            }
        };
        within("games", self.games, 2, MAX_GAMES)?;
        within("pieces", self.pieces, 1, MAX_PIECES.min(self.games / 2))?;
        within("nodes", self.nodes, 1, 1 << 40)?;
        within("simulations", u64::from(self.simulations), 1, 1_000_000)?;
        within("window", u64::from(self.window), 1, 100)?;
        within("epochs", u64::from(self.epochs), 1, 1_000)?;
        within("batch", self.batch as u64, 1, 1 << 20)?;
        within("sprt games", self.sprt.games, 2, MAX_GAMES)?;
        within(
            "sprt piece games",
            self.sprt.piece_games,
            2,
            self.sprt.games,
        )?;
        let [least, most] = self.random_plies;
        if least > most || most > crate::api::tournament::MAX_RANDOM_PLIES {
            return Err(LearnError::Options(format!(
                "random plies are MIN-MAX with MIN <= MAX <= {}, got {least}-{most}",
                crate::api::tournament::MAX_RANDOM_PLIES
            )));
        }
        if !(self.learning_rate > 0.0 && self.learning_rate <= 1.0) {
            return Err(LearnError::Options(format!(
                "the learning rate is above 0 and at most 1, got {}",
                self.learning_rate
            )));
        }
        if let Some(buckets) = self.king_buckets {
            let offered = match super::Kind::of(&self.game, self.network)? {
                super::Kind::Evaluation(weights) => weights.king_buckets,
                super::Kind::PolicyValue { .. } => 1,
            };
            if buckets != 1 && buckets != offered {
                return Err(LearnError::Options(format!(
                    "king buckets are 1 or the game's evaluation network's count ({offered}), \
                     got {buckets}"
                )));
            }
        }
        if !(0.0..=1.0).contains(&self.result_weight) {
            return Err(LearnError::Options(format!(
                "the result weight is from 0 to 1, got {}",
                self.result_weight
            )));
        }
        if !(0.0..=1.0).contains(&self.search_value_weight) {
            return Err(LearnError::Options(format!(
                "the search value's weight is from 0 to 1, got {}",
                self.search_value_weight
            )));
        }
        self.tricks.check()?;
        if self.sprt.elo1 <= self.sprt.elo0 {
            return Err(LearnError::Options(format!(
                "the SPRT's elo1 is above its elo0, got {} and {}",
                self.sprt.elo0, self.sprt.elo1
            )));
        }
        Ok(())
    }

    /// The settings that differ from `other`'s, as `name: this, not that`.
    pub fn differences(&self, other: &Settings) -> Vec<String> {
        let flat = |settings: &Settings| {
            let mut fields = Vec::new();
            flatten(
                "",
                &serde_json::to_value(settings).unwrap_or_default(),
                &mut fields,
            );
            fields
        };
        let theirs = flat(other);
        flat(self)
            .into_iter()
            .zip(theirs)
            .filter(|(mine, theirs)| mine != theirs)
            .map(|((name, mine), (_, theirs))| format!("{name}: {mine}, not {theirs}"))
            .collect()
    }
}

/// A JSON object's fields, nested ones named `outer.inner`.
fn flatten(prefix: &str, value: &serde_json::Value, fields: &mut Vec<(String, String)>) {
    match value {
        serde_json::Value::Object(object) => {
            for (name, value) in object {
                flatten(&format!("{prefix}{name}."), value, fields);
            }
        }
        other => fields.push((prefix.trim_end_matches('.').to_owned(), other.to_string())),
    }
}
