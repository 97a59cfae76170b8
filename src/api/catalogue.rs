//! `GET /games` and `GET /algorithms`: what the service offers, learnt from the registry.

use serde::{Deserialize, Serialize};

use super::GameRef;
use super::knobs::{self, KnobInfo};
use crate::game::{Declaration, LEVEL_NAMES, Limits, Protocol};
use crate::learn::LearnError;
use crate::search::Algorithm;

/// A record format of a game's, as `GET /games` lists it.
#[derive(Clone, Debug, Serialize)]
pub struct RecordFormatInfo {
    /// The name `POST /record`'s `format` takes (`KIF`).
    pub name: &'static str,
    /// Its files' extension (`kif`).
    pub extension: &'static str,
    /// Its files' encoding (`Shift_JIS`, `UTF-8`).
    pub encoding: crate::game::TextEncoding,
    /// Its media type, as `POST /record` answers it (with the encoding's charset).
    pub media_type: &'static str,
    /// Whether its files hold many games: a tournament's games then come as one file of it
    /// (`POST /tournament` with the media type in `Accept`).
    pub collects: bool,
    pub description: &'static str,
}

#[derive(Clone, Debug, Serialize)]
pub struct GameInfo {
    pub name: &'static str,
    /// The name people know it by.
    pub title: &'static str,
    /// What the sides are called, the first player's first (`X` and `O` in boards and
    /// answers).
    pub sides: [&'static str; 2],
    pub rows: usize,
    pub columns: usize,
    /// Whether a move names a column and its disc falls to the lowest empty cell (Connect
    /// Four): a click anywhere in a column plays that column. Every answer's `row` counts from
    /// the top, as `cells` does, in every game.
    pub gravity: bool,
    /// Whether pieces move from square to square (chess): legal moves then say where from.
    pub pieces: bool,
    /// Whether the stones are discs in the sides' colours on a green board (Othello).
    pub discs: bool,
    /// Whether captured pieces go to the capturer's hand and are dropped back (shogi): answers
    /// of `POST /position` then carry `hands`, and drops say the piece.
    pub hands: bool,
    /// The letters players write the pieces with, by the symbol the cells draw, for games
    /// whose cells draw other symbols (shogi's kanji); empty for the others.
    pub letters: std::collections::BTreeMap<String, &'static str>,
    /// How its players read an evaluation (`pawns`: chess's +1.25 from White's view, mates in
    /// moves; `centipawns`: shogi's +120 from Sente's view, mates in plies); null where the
    /// winning chances are the score.
    pub evaluation_units: Option<crate::game::EvaluationUnits>,
    /// The rows at each side's far end where its pieces may promote (shogi's 3); null where
    /// the game has no such zone.
    pub promotion_zone: Option<usize>,
    /// The record formats `POST /record` writes its games in (shogi's KIF, KIFU, CSA), the
    /// usual one first; empty for a game that has none of its own.
    pub records: Vec<RecordFormatInfo>,
    /// How a move is numbered.
    pub moves: &'static str,
    /// How a board is written.
    pub board: &'static str,
    /// The empty board, in text form.
    pub start: String,
    /// Games a tournament plays when its request does not say.
    pub tournament_games: u64,
    /// The algorithm that plays when a request names none.
    pub default_algorithm: &'static str,
    /// What its engine's `level` knob does at each level, the weakest first, each with its
    /// name and its measured scores (docs/levels.md).
    pub levels: Vec<LevelInfo>,
    /// How the levels' scores were measured: the command, the commit and the day.
    pub levels_measured: Option<Measurement>,
    /// What the game allows a search (`GET /algorithms?game=` gives each knob's limits).
    pub limits: LimitsInfo,
}

/// One of a game's levels, as the catalogue says it.
#[derive(Clone, Debug, Serialize)]
pub struct LevelInfo {
    /// From 1.
    pub level: usize,
    /// What it is called, the same in every game (`beginner` ... `full strength`).
    pub label: &'static str,
    /// What a player meets there, in a line.
    pub description: &'static str,
    /// Its scores against the two reference players, the same in every game: `random` (a
    /// uniform random mover) and `beginner` (one-ply greedy); absent where not measured.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub measured: Option<References>,
    /// The deepest iteration; `null`: as deep as the nodes or the time allow.
    pub depth: Option<u32>,
    /// The most nodes a move; `null`: the engine's time or clock.
    pub nodes: Option<u64>,
    /// How many of the best moves it chooses among (0: it plays the search's).
    pub candidates: u32,
    /// How far it strays from the best of them, in `score`.
    pub temperature: f64,
    /// Its rating on the scale `elo` reads, where the game has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub elo: Option<u32>,
}

/// A level's scores against the reference players.
#[derive(Clone, Debug, Deserialize, Serialize)]
pub struct References {
    pub random: Score,
    pub beginner: Score,
}

/// A level's games against one reference player, from the level's side: its score (wins and
/// half the draws, a share of the games) with Wilson's 95% interval.
#[derive(Clone, Debug, Deserialize, Serialize)]
pub struct Score {
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub score: f64,
    pub ci95: [f64; 2],
}

/// What measured a game's levels.
#[derive(Clone, Debug, Deserialize, Serialize)]
pub struct Measurement {
    pub command: String,
    pub commit: String,
    pub date: String,
}

/// A game's `levels.json`, as `scripts/levels.py --references --write` writes it.
#[derive(Clone, Debug, Deserialize)]
pub struct MeasuredLevels {
    #[serde(flatten)]
    pub measurement: Measurement,
    pub levels: Vec<MeasuredLevel>,
}

/// One level's row of a `levels.json`.
#[derive(Clone, Debug, Deserialize)]
pub struct MeasuredLevel {
    pub level: usize,
    #[serde(flatten)]
    pub references: References,
}

impl MeasuredLevels {
    /// The game's file, read; `None` where it does not parse (a test reads every game's).
    pub fn of(declaration: &Declaration) -> Option<MeasuredLevels> {
        serde_json::from_str(declaration.measured_levels).ok()
    }

    /// `level`'s scores.
    pub fn level(&self, level: usize) -> Option<References> {
        let found = self.levels.iter().find(|row| row.level == level)?;
        Some(found.references.clone())
    }
}

/// A game's [`Limits`], as the catalogue says them.
#[derive(Clone, Debug, Serialize)]
pub struct LimitsInfo {
    /// The deepest minimax or negamax allowed, which must then be given a depth; `null` when
    /// searching to the end is fine.
    pub full_width_depth: Option<u32>,
    /// The time limit of alphabeta, solver and engine when a request gives none; `null` for none.
    pub default_time_limit_ms: Option<u64>,
    /// Whether `tiebreak: traps` is allowed.
    pub traps: bool,
}

impl From<Limits> for LimitsInfo {
    fn from(limits: Limits) -> Self {
        LimitsInfo {
            full_width_depth: limits.full_width_depth,
            default_time_limit_ms: limits.default_time_limit_ms,
            traps: limits.traps,
        }
    }
}

/// Every game of the registry, in its order.
pub fn games() -> Vec<GameInfo> {
    crate::games::handles()
        .into_iter()
        .map(|game| {
            let declaration = game.declaration;
            let measured = MeasuredLevels::of(&declaration);
            GameInfo {
                name: game.name,
                title: declaration.title,
                sides: declaration.sides,
                rows: game.rows,
                columns: game.columns,
                gravity: declaration.gravity,
                pieces: declaration.pieces,
                discs: declaration.discs,
                hands: declaration.hands,
                letters: declaration
                    .letters
                    .iter()
                    .map(|&(symbol, letters)| (symbol.to_string(), letters))
                    .collect(),
                evaluation_units: declaration.evaluation_units,
                promotion_zone: declaration.promotion_zone,
                records: declaration
                    .records
                    .iter()
                    .map(|format| RecordFormatInfo {
                        name: format.name,
                        extension: format.extension,
                        encoding: format.encoding,
                        media_type: format.media_type,
                        collects: format.collects,
                        description: format.description,
                    })
                    .collect(),
                moves: declaration.moves,
                board: declaration.board,
                start: (game.start)(),
                tournament_games: declaration.tournament_games,
                default_algorithm: declaration.default_algorithm,
                levels: (1..)
                    .zip(declaration.levels)
                    .zip(LEVEL_NAMES)
                    .map(|((level, entry), (label, description))| LevelInfo {
                        level,
                        label,
                        description,
                        measured: measured.as_ref().and_then(|measured| measured.level(level)),
                        depth: entry.depth,
                        nodes: entry.nodes,
                        candidates: entry.candidates,
                        temperature: entry.temperature,
                        elo: entry.elo,
                    })
                    .collect(),
                levels_measured: measured.map(|measured| measured.measurement),
                limits: declaration.limits.into(),
            }
        })
        .collect()
}

#[derive(Clone, Debug, Serialize)]
pub struct AlgorithmInfo {
    pub name: &'static str,
    /// The game whose defaults and limits the knobs give.
    pub game: &'static str,
    pub description: &'static str,
    pub randomized: bool,
    pub knobs: Vec<KnobInfo>,
}

/// The algorithms, with their knobs' defaults and limits on `game`.
pub fn algorithms(game: &GameRef) -> Vec<AlgorithmInfo> {
    Algorithm::ALL
        .into_iter()
        .filter(|&algorithm| knobs::offered(algorithm, game))
        .map(|algorithm| AlgorithmInfo {
            name: algorithm.name(),
            game: game.name,
            description: match algorithm {
                Algorithm::Engine => game.declaration.engine.description,
                _ => description(algorithm),
            },
            randomized: crate::search::Strategy::with_defaults(algorithm).is_randomized(),
            knobs: knobs::knobs(algorithm, game),
        })
        .collect()
}

/// What the algorithm does, for `GET /algorithms`: its record's words.
pub fn description(algorithm: Algorithm) -> &'static str {
    algorithm.record().description
}

/// The trainer of the game called `game`: with `network`, or where the game declares none,
/// AlphaZero's policy-value network's, which every game can learn; else the one it declares
/// (chess's evaluation network, Othello's patterns); an error in words if there is no such
/// game.
pub fn trainer(game: &str, network: bool) -> Result<crate::learn::Trainer, LearnError> {
    crate::games::handle(game)
        .map(|game| game.trainer(network))
        .ok_or_else(|| unknown_game(game))
}

/// The file of the best policy-value network the game called `game` ships, if it ships one.
pub fn shipped_network(game: &str) -> Result<Option<&'static [u8]>, LearnError> {
    crate::games::handle(game)
        .map(|game| {
            game.declaration
                .networks
                .first()
                .map(|network| network.bytes)
        })
        .ok_or_else(|| unknown_game(game))
}

/// The weights of the learnt evaluation of the game called `game` (chess's and shogi's
/// networks, Othello's patterns); an error in words for a game that has none.
pub fn learnt_weights(game: &str) -> Result<crate::learn::LearntWeights, LearnError> {
    trainer(game, false)?.weights.ok_or_else(|| {
        LearnError::NotLearnt(format!(
            "{game} has no learnt evaluation's weights (what it learns is alphazero's \
             policy-value network: --net NAME=FILE)"
        ))
    })
}

/// Reads the weights in the file at `path` as `game`'s learnt evaluation's, under `name`, for
/// the engine's `weights` knob.
pub fn load_weights(
    game: &str,
    name: &str,
    path: &std::path::Path,
) -> Result<crate::learn::weights::NamedWeights, LearnError> {
    (learnt_weights(game)?.load)(name, path)
}

/// Reads the policy-value network in the file at `path` as `game`'s, under `name`, for
/// `alphazero`'s `net` knob.
pub fn load_network(
    game: &str,
    name: &str,
    path: &std::path::Path,
) -> Result<crate::learn::weights::NamedWeights, LearnError> {
    struct Read<'a>(&'a str, &'a std::path::Path);
    impl crate::games::ForGame for Read<'_> {
        type Output = Result<crate::learn::weights::NamedWeights, LearnError>;
        fn run<G: crate::search::Solve>(self) -> Self::Output {
            crate::search::alphazero::networks::read::<G>(self.0, self.1)
        }
    }
    crate::games::for_game(game, Read(name, path)).unwrap_or_else(|| Err(unknown_game(game)))
}

/// The engine protocol called `name` that a game of the registry speaks (`uci`: chess's), for
/// the command of that name.
pub fn protocol(name: &str) -> Option<Protocol> {
    crate::games::handles()
        .into_iter()
        .flat_map(|game| game.declaration.protocols)
        .find(|protocol| protocol.name == name)
        .copied()
}

/// The error for a game the registry has not, in learning's words.
pub fn unknown_game(game: &str) -> LearnError {
    LearnError::UnknownGame {
        game: game.to_owned(),
        games: crate::games::NAMES.join(", "),
    }
}
