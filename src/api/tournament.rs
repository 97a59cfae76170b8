//! `POST /tournament`: many games between two players.
//!
//! This file turns a request into a tournament's [`Setup`] and its games, checked: a
//! [`TournamentJob`], the tournament's [`Match`]. Playing it, its progress, its report, its
//! games' files and its shards are the tournament's (`src/tournament/`); the answer is its [`Report`].

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use serde::Deserialize;
use serde::de::{self, MapAccess};

use super::knobs::{self, Given, PLAYER_FIELDS, PlayerSpec};
use super::object::{Object, decode, deserialize_as_object, integer, value};
use super::request::PositionSpec;
use super::{GameRef, Problem};
use crate::games::ForGame;
use crate::learn::weights::NamedWeights;
use crate::search::{MAX_DEPTH, Solve, seed};
use crate::tournament::Tournament;
use crate::tournament::adjudication::Adjudication;
use crate::tournament::openings::{Openings, RandomOpenings};
use crate::tournament::player::{Player, PlayerKind};
use crate::tournament::statistics::Sprt;
use crate::tournament::time_control::{Limits, TimeControl};

mod engine_options;
mod shards;

pub use crate::tournament::Results;
pub use crate::tournament::engines::EngineConfig;
pub use crate::tournament::report::{OpeningsInfo, PlayerInfo, Report, Setup};
pub use crate::tournament::run::{LOOK_INTERVAL, Match, Progress, Run};
pub use crate::tournament::shards::{MAX_SHARDS, ShardFile, shard};
pub use engine_options::configure_engine;

/// The answer to a tournament request: its report.
pub type TournamentResponse = Report;
pub use shards::{check_shard, merge};

/// The media types of the record formats whose files hold many games (chess's PGN,
/// `application/x-chess-pgn`), of every game: the forms besides JSON a tournament's answer may
/// take.
pub fn games_file_media_types() -> Vec<&'static str> {
    #[derive(Clone)]
    struct Collecting;
    impl ForGame for Collecting {
        type Output = Vec<&'static str>;
        fn run<G: Solve>(self) -> Self::Output {
            G::DECLARATION
                .records
                .iter()
                .filter(|format| format.collects)
                .map(|format| format.media_type)
                .collect()
        }
    }
    let mut types: Vec<_> = crate::games::for_each_game(Collecting)
        .into_iter()
        .flatten()
        .collect();
    types.dedup();
    types
}

/// A `POST /tournament` request, decoded but not yet checked.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TournamentRequest {
    pub game: Option<String>,
    pub players: Vec<ContestantSpec>,
    pub games: Option<i128>,
    pub first_game: Option<i128>,
    pub seed: Option<i128>,
    pub start: Option<PositionSpec>,
    pub openings: Option<OpeningsSpec>,
    pub max_plies: Option<i128>,
    pub sprt: Option<SprtSpec>,
    pub adjudication: Option<Adjudication>,
    pub records: Option<bool>,
}

/// A tournament's player as a request gives it: one of Sente's algorithms with its knobs, or
/// an engine the service was configured with, and its time control either way.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ContestantSpec {
    pub player: PlayerSpec,
    pub engine: Option<String>,
    pub options: Option<BTreeMap<String, serde_json::Value>>,
    pub tc: Option<String>,
    pub nodes: Option<i128>,
}

/// Openings as a request gives them: positions, or how to draw them.
#[derive(Clone, Debug, PartialEq)]
pub enum OpeningsSpec {
    Listed(Vec<PositionSpec>),
    Random(RandomOpenings),
}

/// An SPRT as a request gives it.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SprtSpec {
    pub elo0: f64,
    pub elo1: f64,
    #[serde(default = "default_error_rate")]
    pub alpha: f64,
    #[serde(default = "default_error_rate")]
    pub beta: f64,
    /// The Elo model; only `logistic` (fishtest's `normalized` model is not offered).
    #[serde(default)]
    pub elo_model: Option<String>,
}

fn default_error_rate() -> f64 {
    0.05
}

impl TournamentRequest {
    pub fn from_json(body: &[u8]) -> Result<Self, Problem> {
        decode(body)
            .map_err(|problem| knobs::offer_a_players_fields(problem, body, &CONTESTANT_OWN_FIELDS))
    }
}

impl Object for TournamentRequest {
    const EXPECTING: &'static str = "a tournament request: a JSON object";
    const FIELDS: &'static [&'static str] = &[
        "game",
        "players",
        "games",
        "first_game",
        "seed",
        "start",
        "openings",
        "max_plies",
        "sprt",
        "adjudication",
        "records",
    ];

    fn read_field<'de, A: MapAccess<'de>>(
        &mut self,
        key: &'static str,
        map: &mut A,
    ) -> Result<(), A::Error> {
        match key {
            "game" => self.game = value(key, map)?,
            // The players and the start name their own fields in their errors: prefixed again,
            // a detail would read "players: depth: ...".
            "players" => self.players = map.next_value()?,
            "games" => self.games = integer(key, map)?,
            "first_game" => self.first_game = integer(key, map)?,
            "seed" => self.seed = integer(key, map)?,
            "start" => self.start = map.next_value()?,
            "openings" => self.openings = map.next_value()?,
            "max_plies" => self.max_plies = integer(key, map)?,
            "sprt" => self.sprt = value(key, map)?,
            "adjudication" => self.adjudication = value(key, map)?,
            "records" => self.records = value(key, map)?,
            _ => return Err(de::Error::unknown_field(key, Self::FIELDS)),
        }
        Ok(())
    }
}

/// What a tournament's player has beside a `/move` request's player.
const CONTESTANT_OWN_FIELDS: [&str; 4] = ["engine", "options", "tc", "nodes"];

/// A tournament player's fields: a `/move` player's, then its own.
const CONTESTANT_FIELDS: [&str; PLAYER_FIELDS.len() + CONTESTANT_OWN_FIELDS.len()] =
    super::object::fields(&PLAYER_FIELDS, &CONTESTANT_OWN_FIELDS);

impl Object for ContestantSpec {
    const EXPECTING: &'static str =
        "a player: an object with algorithm and its knobs, or engine and its options";
    const FIELDS: &'static [&'static str] = &CONTESTANT_FIELDS;

    fn read_field<'de, A: MapAccess<'de>>(
        &mut self,
        key: &'static str,
        map: &mut A,
    ) -> Result<(), A::Error> {
        match key {
            "engine" => self.engine = value(key, map)?,
            "options" => {
                self.options = value::<_, Option<super::object::UniqueKeys>>(key, map)?
                    .map(|options| options.0);
            }
            "tc" => self.tc = value(key, map)?,
            "nodes" => self.nodes = integer(key, map)?,
            knob => self.player.read_field(knob, map)?,
        }
        Ok(())
    }
}

deserialize_as_object!(TournamentRequest, ContestantSpec);

impl ContestantSpec {
    /// A player as the command line writes it: `ALGORITHM[:KNOB=VALUE,...]` for one of Sente's
    /// (as [`PlayerSpec::from_text`] reads it), or `ENGINE[:OPTION=VALUE,...]` for one of
    /// `engines` (`depth=N` is then its `go depth`); either may add `tc=10+0.1` and `nodes=N`.
    pub fn from_text(text: &str, engines: &[Arc<EngineConfig>]) -> Result<Self, Problem> {
        let (name, settings) = text.split_once(':').unwrap_or((text, ""));
        let name = name.trim();
        let mut spec = ContestantSpec::default();
        let mut rest = Vec::new();
        for setting in settings.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            match setting
                .split_once('=')
                .map(|(key, value)| (key.trim(), value.trim()))
            {
                Some(("tc", value)) => spec.tc = Some(value.to_owned()),
                Some(("nodes", value)) => {
                    spec.nodes = Some(value.parse().map_err(|_| {
                        Problem::invalid("nodes", format!("nodes is a number, got {value:?}"))
                    })?);
                }
                _ => rest.push(setting),
            }
        }
        if !engines.iter().any(|engine| engine.name == name) {
            spec.player = PlayerSpec::from_text(&format!("{name}:{}", rest.join(",")))?;
            return Ok(spec);
        }
        spec.engine = Some(name.to_owned());
        let mut options = BTreeMap::new();
        for setting in rest {
            let Some((key, value)) = setting.split_once('=') else {
                return Err(Problem::malformed(format!(
                    "expected OPTION=VALUE, e.g. UCI_Elo=1500, got {setting:?}"
                )));
            };
            let (key, value) = (key.trim(), value.trim());
            if key == "depth" {
                let depth = value.parse().map_err(|_| {
                    Problem::invalid("depth", format!("depth is a number, got {value:?}"))
                })?;
                let at = knobs::KNOBS.iter().position(|knob| knob.name == "depth");
                spec.player.knobs[at.expect("depth is a knob")] = Some(Given::Integer(depth));
            } else {
                options.insert(key.to_owned(), serde_json::Value::String(value.to_owned()));
            }
        }
        spec.options = (!options.is_empty()).then_some(options);
        Ok(spec)
    }
}

impl<'de> Deserialize<'de> for OpeningsSpec {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl<'de> de::Visitor<'de> for Visitor {
            type Value = OpeningsSpec;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(
                    "a list of positions, or {\"random_plies\": N, \"random_plies_max\": M, \
                     \"balanced\": C} to draw them",
                )
            }

            fn visit_seq<A: de::SeqAccess<'de>>(self, seq: A) -> Result<OpeningsSpec, A::Error> {
                let listed = Deserialize::deserialize(de::value::SeqAccessDeserializer::new(seq))?;
                Ok(OpeningsSpec::Listed(listed))
            }

            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<OpeningsSpec, A::Error> {
                #[derive(Deserialize)]
                #[serde(deny_unknown_fields)]
                struct Random {
                    random_plies: i128,
                    #[serde(default)]
                    random_plies_max: Option<i128>,
                    #[serde(default)]
                    balanced: Option<i128>,
                }
                let random = Random::deserialize(de::value::MapAccessDeserializer::new(map))?;
                let plies = u32::try_from(random.random_plies)
                    .ok()
                    .filter(|plies| *plies <= MAX_RANDOM_PLIES)
                    .ok_or_else(|| {
                        de::Error::custom(format_args!(
                            "random_plies is between 0 and {MAX_RANDOM_PLIES}, got {}",
                            random.random_plies
                        ))
                    })?;
                let most = random
                    .random_plies_max
                    .map(|most| {
                        u32::try_from(most)
                            .ok()
                            .filter(|most| (plies..=MAX_RANDOM_PLIES).contains(most))
                            .ok_or_else(|| {
                                de::Error::custom(format_args!(
                                    "random_plies_max is between random_plies ({plies}) and \
                                     {MAX_RANDOM_PLIES}, got {most}"
                                ))
                            })
                    })
                    .transpose()?;
                let balanced = random
                    .balanced
                    .map(|margin| {
                        i32::try_from(margin)
                            .ok()
                            .filter(|m| *m >= 0)
                            .ok_or_else(|| {
                                de::Error::custom(format_args!(
                                    "balanced is a score margin, 0 or more, got {margin}"
                                ))
                            })
                    })
                    .transpose()?;
                Ok(OpeningsSpec::Random(RandomOpenings {
                    random_plies: plies,
                    random_plies_max: most,
                    balanced,
                    per_game: false,
                }))
            }
        }
        deserializer.deserialize_any(Visitor)
    }
}

/// The most random plies an opening is drawn with.
pub const MAX_RANDOM_PLIES: u32 = 40;
/// The most games a tournament plays.
pub const MAX_GAMES: u64 = 100_000;
/// Bound on `first_game`, so that `first_game + games` cannot overflow.
pub const MAX_FIRST_GAME: u64 = 1 << 48;
/// The most openings a tournament takes.
pub const MAX_OPENINGS: usize = 1_000;
/// The longest cap on a game's plies.
pub const MAX_PLIES_CAP: u64 = 10_000;
/// The most nodes a player's move may be given.
pub const MAX_NODES_PER_MOVE: u64 = 1 << 40;

/// A checked tournament request, ready to play: the tournament's [`Match`].
pub type TournamentJob = Match;

impl TournamentJob {
    /// Checks `request` and readies its match; `engines` are the external engines its players
    /// may name, `shelf` the learnt weights (`weights`) the command read from files.
    pub fn new(
        request: TournamentRequest,
        engines: &[Arc<EngineConfig>],
        shelf: &[NamedWeights],
    ) -> Result<TournamentJob, Problem> {
        Self::checked(request, Lineup::Requested { engines, shelf })
    }

    /// Checks `request`, whose `players` are left empty, and readies its match between
    /// `players`, built by the caller as values (`sente learn`'s generations), each of Sente's
    /// fitted to the request's game as a request's player is ([`knobs::fit_to_game`]).
    pub fn between(
        request: TournamentRequest,
        players: [Seated; 2],
    ) -> Result<TournamentJob, Problem> {
        if !request.players.is_empty() {
            return Err(Problem::invalid(
                "players",
                "the players are given as values: the request names none",
            ));
        }
        Self::checked(request, Lineup::Seated(Box::new(players)))
    }

    fn checked(request: TournamentRequest, lineup: Lineup<'_>) -> Result<TournamentJob, Problem> {
        struct Check<'a>(TournamentRequest, Lineup<'a>);
        impl ForGame for Check<'_> {
            type Output = Result<TournamentJob, Problem>;
            fn run<G: Solve>(self) -> Self::Output {
                check::<G>(self.0, self.1)
            }
        }
        let game = request.game.clone();
        super::with_game(game.as_deref(), Check(request, lineup))?
    }
}

/// A player of a tournament as a checked value, and what the tournament's report says of it.
#[derive(Clone, Debug)]
pub struct Seated {
    pub player: Player,
    pub info: PlayerInfo,
}

/// Where a tournament's players come from: the request's specs, or values given beside it.
enum Lineup<'a> {
    Requested {
        engines: &'a [Arc<EngineConfig>],
        shelf: &'a [NamedWeights],
    },
    Seated(Box<[Seated; 2]>),
}

/// Checks a tournament request on its game `G`.
fn check<G: Solve>(
    request: TournamentRequest,
    lineup: Lineup<'_>,
) -> Result<TournamentJob, Problem> {
    let game = GameRef::of::<G>();
    let [a, b] = match lineup {
        Lineup::Seated(mut players) => {
            for seated in players.iter_mut() {
                if let PlayerKind::Search(strategy) = &mut seated.player.kind {
                    *strategy = knobs::fit_to_game(&game, strategy.clone())?;
                }
            }
            *players
        }
        Lineup::Requested { engines, shelf } => {
            let [a, b] = request.players.as_slice() else {
                return Err(Problem::invalid(
                    "players",
                    format!(
                        "a tournament has exactly two players, got {}",
                        request.players.len()
                    ),
                ));
            };
            let seated = |spec, seat: &str| {
                let player = contestant(&game, spec, engines, shelf)
                    .map_err(|problem| problem.within(seat))?;
                Ok::<_, Problem>(Seated {
                    info: info(spec, &player),
                    player,
                })
            };
            [seated(a, "players[0]")?, seated(b, "players[1]")?]
        }
    };
    let infos = [a.info, b.info];
    let players = [a.player, b.player];
    let openings: Openings<G> = match (request.start, request.openings) {
        (Some(_), Some(_)) => {
            return Err(Problem::invalid(
                "openings",
                "give start (one position) or openings (several), not both",
            ));
        }
        (Some(start), None) => {
            Openings::Listed(vec![start.opening().map_err(|p| p.within("start"))?])
        }
        (None, Some(OpeningsSpec::Listed(openings))) => {
            if openings.is_empty() || openings.len() > MAX_OPENINGS {
                return Err(Problem::invalid(
                    "openings",
                    format!(
                        "give between 1 and {MAX_OPENINGS} openings, got {}",
                        openings.len()
                    ),
                ));
            }
            Openings::Listed(
                openings
                    .iter()
                    .enumerate()
                    .map(|(index, opening)| {
                        opening
                            .opening()
                            .map_err(|p| p.within(&format!("openings[{index}]")))
                    })
                    .collect::<Result<_, _>>()?,
            )
        }
        (None, Some(OpeningsSpec::Random(random))) => Openings::Random(random),
        (None, None) => Openings::Listed(vec![PositionSpec::start().opening()?]),
    };
    let max_plies = knobs::optional_in_range("max_plies", request.max_plies, 1, MAX_PLIES_CAP)?
        .map(|plies| plies as usize);
    // Every listed opening with both colours, unless the request says otherwise.
    let default_games = match openings.listed() {
        Some(listed) if listed > 1 => 2 * listed as u64,
        _ => game.declaration.tournament_games,
    };
    let games =
        knobs::optional_in_range("games", request.games, 1, MAX_GAMES)?.unwrap_or(default_games);
    let first_game =
        knobs::optional_in_range("first_game", request.first_game, 0, MAX_FIRST_GAME)?.unwrap_or(0);
    let seed = knobs::optional_in_range(knobs::SEED.name, request.seed, 0, u64::MAX)?
        .unwrap_or_else(seed::draw);
    let sprt = request.sprt.map(sprt).transpose()?;
    let adjudication = request.adjudication.unwrap_or_default();
    check_adjudication(&adjudication)?;
    let records = request.records.unwrap_or(false);
    let setup = Setup {
        game: G::NAME.to_owned(),
        games: first_game..first_game + games,
        seed,
        openings: match &openings {
            Openings::Listed(openings) => OpeningsInfo::Listed(openings.len()),
            Openings::Random(random) => OpeningsInfo::Random(*random),
        },
        max_plies,
        players: infos,
        sprt,
        adjudication,
        records,
    };
    Ok(Match::of(
        setup,
        Tournament::<G> {
            players,
            seed,
            openings,
            max_plies,
            adjudication,
            sprt,
            records,
        },
    ))
}

/// What a report says of a player of the request: its algorithm or engine, its time control
/// and its settings, as the request wrote them.
fn info(spec: &ContestantSpec, player: &Player) -> PlayerInfo {
    PlayerInfo {
        algorithm: player.algorithm(),
        engine: spec.engine.clone(),
        tc: spec.tc.clone(),
        settings: settings(spec),
    }
}

/// The settings a request gave a player, each as written.
fn settings(spec: &ContestantSpec) -> BTreeMap<String, serde_json::Value> {
    let knobs = spec.player.given_settings();
    let nodes = spec
        .nodes
        .map(|nodes| ("nodes".to_owned(), Given::Integer(nodes).to_json()));
    let options = spec.options.iter().flatten();
    knobs
        .chain(nodes)
        .chain(options.map(|(name, value)| (name.clone(), value.clone())))
        .collect()
}

/// A player checked on `game`.
fn contestant(
    game: &GameRef,
    spec: &ContestantSpec,
    engines: &[Arc<EngineConfig>],
    shelf: &[NamedWeights],
) -> Result<Player, Problem> {
    let mut limits = Limits {
        time: match &spec.tc {
            None => TimeControl::None,
            Some(text) => {
                TimeControl::parse(text).map_err(|detail| Problem::invalid("tc", detail))?
            }
        },
        nodes: knobs::optional_in_range("nodes", spec.nodes, 1, MAX_NODES_PER_MOVE)?,
        depth: None,
    };
    let Some(name) = &spec.engine else {
        if spec.options.is_some() {
            return Err(Problem::invalid(
                "options",
                "options are an external engine's: give engine, or set Sente's algorithm with its knobs",
            ));
        }
        let timed = limits.time != TimeControl::None;
        return Ok(Player {
            kind: PlayerKind::Search(knobs::player_on_time(game, &spec.player, timed, shelf)?),
            limits,
        });
    };
    let Some(engine) = engines.iter().find(|engine| engine.name == *name) else {
        let names: Vec<&str> = engines.iter().map(|engine| engine.name.as_str()).collect();
        if names.is_empty() {
            return Err(Problem::invalid(
                "engine",
                format!(
                    "unknown engine {name:?}: this service was started with none (sente serve --engine NAME=PATH)"
                ),
            ));
        }
        return Err(super::names::unknown("engine", "engine", name, &names));
    };
    let protocols = game.declaration.engine_protocols;
    if !protocols.contains(&engine.protocol.name()) {
        return Err(Problem::invalid(
            "engine",
            match protocols {
                [] => format!("no external engine plays {}", game.declaration.title),
                _ => format!(
                    "{name} speaks {}, and {} engines speak {}",
                    engine.protocol.name(),
                    game.declaration.title,
                    protocols.join(" or ")
                ),
            },
        ));
    }
    if spec.player.algorithm.is_some() {
        return Err(Problem::invalid(
            "algorithm",
            "a player is an engine or one of Sente's algorithms, not both",
        ));
    }
    for (knob, given) in knobs::KNOBS.iter().zip(&spec.player.knobs) {
        match (knob.name, given) {
            (_, None) => {}
            ("depth", Some(Given::Integer(depth))) => {
                limits.depth =
                    Some(knobs::in_range("depth", *depth, 1, u64::from(MAX_DEPTH))? as u32);
            }
            (name, Some(_)) => {
                return Err(Problem::invalid(
                    name,
                    format!("{name} is a knob of Sente's algorithms; an engine takes options"),
                ));
            }
        }
    }
    // GTP has no depth or node count to give an engine: one would be ignored.
    if engine.protocol == crate::tournament::engines::Protocol::Gtp {
        let given = [
            ("depth", limits.depth.is_some()),
            ("nodes", limits.nodes.is_some()),
        ];
        if let Some((field, _)) = given.iter().find(|(_, given)| *given) {
            return Err(Problem::invalid(
                *field,
                format!(
                    "{name} speaks GTP, which has no {field} to give it: limit it with tc, or \
                     with its own command line's arguments (args=)"
                ),
            ));
        }
    }
    if limits.time == TimeControl::None {
        return Err(Problem::invalid(
            "tc",
            format!(
                "an engine plays on a clock: give it tc, a time per move (\"0.1/move\") or a clock (\"10+0.1\"); nodes and depth may limit it further. Without one, {name} could think for as long as the tournament may last"
            ),
        ));
    }
    let options = spec
        .options
        .iter()
        .flatten()
        .map(|(name, value)| engine_options::engine_option(engine, name, value))
        .collect::<Result<_, _>>()?;
    Ok(Player {
        kind: PlayerKind::Uci {
            engine: Arc::clone(engine),
            options,
        },
        limits,
    })
}

/// The SPRT a request asks for, checked.
fn sprt(spec: SprtSpec) -> Result<Sprt, Problem> {
    let invalid = |detail: String| Problem::invalid("sprt", detail);
    if let Some(model) = spec
        .elo_model
        .as_deref()
        .filter(|model| *model != "logistic")
    {
        return Err(invalid(format!(
            "elo_model {model:?} is not offered: the SPRT's Elo is logistic"
        )));
    }
    let elo_ok = |elo: f64| elo.is_finite() && elo.abs() <= 1000.0;
    if !elo_ok(spec.elo0) || !elo_ok(spec.elo1) || spec.elo0 >= spec.elo1 {
        return Err(invalid(format!(
            "elo0 and elo1 are Elo differences within ±1000 and elo0 < elo1, got {} and {}",
            spec.elo0, spec.elo1
        )));
    }
    let rate_ok = |rate: f64| rate > 0.0 && rate < 0.5;
    if !rate_ok(spec.alpha) || !rate_ok(spec.beta) {
        return Err(invalid(format!(
            "alpha and beta are error rates above 0 and below 0.5, got {} and {}",
            spec.alpha, spec.beta
        )));
    }
    Ok(Sprt {
        elo0: spec.elo0,
        elo1: spec.elo1,
        alpha: spec.alpha,
        beta: spec.beta,
    })
}

fn check_adjudication(adjudication: &Adjudication) -> Result<(), Problem> {
    let counts = [
        adjudication
            .draw
            .map(|rule| ("draw", rule.move_count, rule.score)),
        adjudication
            .resign
            .map(|rule| ("resign", rule.move_count, rule.score)),
    ];
    for (name, move_count, score) in counts.into_iter().flatten() {
        if move_count == 0 || score < 0 {
            return Err(Problem::invalid(
                format!("adjudication.{name}"),
                format!(
                    "move_count is 1 or more and score 0 or more, got {move_count} and {score}"
                ),
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
