//! The knobs of each algorithm: their catalogue (served by `GET /algorithms`), their limits,
//! and the checks that turn a player's knobs into a [`Strategy`].
//!
//! The upper bounds are what keeps one request from occupying the machine: with them, the
//! slowest single search takes about a second on one core.

use std::f64::consts::SQRT_2;
use std::time::Duration;

use serde::Serialize;
use serde::de::{self, MapAccess};
use serde_json::{Value, json};

use super::object::{Object, deserialize_as_object, integer, value};
use super::{GameRef, Problem, names};
use crate::search::{
    Algorithm, AlphaBetaParams, DEFAULT_EXPAND_THRESHOLD, DEFAULT_PLAYOUTS, DEFAULT_SIMULATIONS,
    Enhancements, EvaluationIndex, MctsParams, Strategy, Tiebreak,
};

/// The knobs a player may set, as a request carries them. Each is checked against the
/// algorithm: a knob the algorithm does not take is an error, never silently ignored.
///
/// Decoded field by field (`api::object`), so that a `/move` request, which carries the knobs
/// beside its own fields, reads them with the same code in the same pass.
///
/// Integers are held as `i128`, wide enough for any integer JSON carries (serde_json reads one
/// up to 128 bits), so that every integer decodes and an out-of-range one, `-1` as much as
/// `1e6`, is refused by the range check with the same words (422), not by the decoder.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PlayerSpec {
    pub algorithm: Option<String>,
    pub depth: Option<i128>,
    pub playouts: Option<i128>,
    pub simulations: Option<i128>,
    pub uct_c: Option<f64>,
    pub expand_threshold: Option<i128>,
    pub time_limit_ms: Option<i128>,
    pub transposition_table: Option<bool>,
    pub symmetry: Option<bool>,
    pub ordering: Option<bool>,
    pub pvs: Option<bool>,
    pub tiebreak: Option<String>,
    pub evaluation: Option<String>,
}

impl Object for PlayerSpec {
    const EXPECTING: &'static str = "a player: an object with algorithm and its knobs";
    const FIELDS: &'static [&'static str] = &PLAYER_FIELDS;

    fn read_field<'de, A: MapAccess<'de>>(
        &mut self,
        key: &'static str,
        map: &mut A,
    ) -> Result<(), A::Error> {
        match key {
            "algorithm" => self.algorithm = value(key, map)?,
            "depth" => self.depth = integer(key, map)?,
            "playouts" => self.playouts = integer(key, map)?,
            "simulations" => self.simulations = integer(key, map)?,
            "uct_c" => self.uct_c = value(key, map)?,
            "expand_threshold" => self.expand_threshold = integer(key, map)?,
            "time_limit_ms" => self.time_limit_ms = integer(key, map)?,
            "transposition_table" => self.transposition_table = value(key, map)?,
            "symmetry" => self.symmetry = value(key, map)?,
            "ordering" => self.ordering = value(key, map)?,
            "pvs" => self.pvs = value(key, map)?,
            "tiebreak" => self.tiebreak = value(key, map)?,
            "evaluation" => self.evaluation = value(key, map)?,
            _ => return Err(de::Error::unknown_field(key, Self::FIELDS)),
        }
        Ok(())
    }
}

deserialize_as_object!(PlayerSpec);

impl PlayerSpec {
    /// A player from a JSON object, as a tournament request carries one.
    pub fn from_json(body: &[u8]) -> Result<Self, Problem> {
        super::object::decode(body)
    }
}

/// The names of [`PlayerSpec`]'s fields.
pub const PLAYER_FIELDS: [&str; 13] = [
    "algorithm",
    "depth",
    "playouts",
    "simulations",
    "uct_c",
    "expand_threshold",
    "time_limit_ms",
    "transposition_table",
    "symmetry",
    "ordering",
    "pvs",
    "tiebreak",
    "evaluation",
];

/// The algorithm used when a request names none, unless its game declares another
/// ([`Declaration::default_algorithm`](crate::game::Declaration::default_algorithm)).
pub const DEFAULT_ALGORITHM: Algorithm = Algorithm::AlphaBeta;

/// One knob's description, bounds and default.
#[derive(Clone, Debug, Serialize)]
pub struct Knob {
    pub name: &'static str,
    /// `integer`, `number`, `boolean` or `string`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// Bounds of numeric knobs; `null` for the others.
    pub minimum: Value,
    pub maximum: Value,
    /// The values a string knob takes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub values: Option<Vec<&'static str>>,
    /// `null` when absence means "no limit" (depth, time limit) or "drawn" (seed).
    pub default: Value,
    /// Whether the game needs the knob: minimax's depth on a game too large to search to the
    /// end. Absent when false.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub required: bool,
    pub description: &'static str,
}

pub const MAX_DEPTH: u64 = 64;
pub const MAX_PLAYOUTS: u64 = 100_000;
pub const MAX_SIMULATIONS: u64 = 1_000_000;
pub const MAX_UCT_C: f64 = 100.0;
pub const MAX_EXPAND_THRESHOLD: u64 = 100_000;
pub const MAX_TIME_LIMIT_MS: u64 = 10_000;

fn depth() -> Knob {
    Knob {
        name: "depth",
        kind: "integer",
        minimum: json!(1),
        maximum: json!(MAX_DEPTH),
        values: None,
        default: Value::Null,
        required: false,
        description: "Plies to search; leaves that are not the end of the game are scored by the \
                      game's evaluation function. Absent: search to the end of the game.",
    }
}

fn playouts() -> Knob {
    Knob {
        name: "playouts",
        kind: "integer",
        minimum: json!(1),
        maximum: json!(MAX_PLAYOUTS),
        values: None,
        default: json!(DEFAULT_PLAYOUTS),
        required: false,
        description: "Random playouts after each legal move.",
    }
}

fn simulations() -> Knob {
    Knob {
        name: "simulations",
        kind: "integer",
        minimum: json!(1),
        maximum: json!(MAX_SIMULATIONS),
        values: None,
        default: json!(DEFAULT_SIMULATIONS),
        required: false,
        description: "Simulations (select, expand, playout, back up).",
    }
}

fn uct_c() -> Knob {
    Knob {
        name: "uct_c",
        kind: "number",
        minimum: json!(0.0),
        maximum: json!(MAX_UCT_C),
        values: None,
        default: json!(SQRT_2),
        required: false,
        description: "Exploration constant c in UCB1 = -w/n + c * sqrt(ln t / n).",
    }
}

fn expand_threshold() -> Knob {
    Knob {
        name: "expand_threshold",
        kind: "integer",
        minimum: json!(1),
        maximum: json!(MAX_EXPAND_THRESHOLD),
        values: None,
        default: json!(DEFAULT_EXPAND_THRESHOLD),
        required: false,
        description: "Visits after which a leaf is expanded.",
    }
}

fn time_limit_ms() -> Knob {
    Knob {
        name: "time_limit_ms",
        kind: "integer",
        minimum: json!(1),
        maximum: json!(MAX_TIME_LIMIT_MS),
        values: None,
        default: Value::Null,
        required: false,
        description: "Stop sampling when this many milliseconds have passed, even if fewer \
                      playouts or simulations were run. The result then depends on the \
                      machine's speed. Absent: no time limit.",
    }
}

fn seed() -> Knob {
    Knob {
        name: "seed",
        kind: "integer",
        minimum: json!(0),
        maximum: json!(u64::MAX),
        values: None,
        default: Value::Null,
        required: false,
        description: "Seed of every random choice: the same position, knobs and seed give the \
                      same move, score and nodes. Absent: one is drawn and reported. For the \
                      exact algorithms, only with tiebreak random.",
    }
}

fn switch(name: &'static str, description: &'static str) -> Knob {
    Knob {
        name,
        kind: "boolean",
        minimum: Value::Null,
        maximum: Value::Null,
        values: None,
        default: json!(false),
        required: false,
        description,
    }
}

fn tiebreak() -> Knob {
    Knob {
        name: "tiebreak",
        kind: "string",
        minimum: Value::Null,
        maximum: Value::Null,
        values: Some(
            Tiebreak::ALL
                .iter()
                .map(|tiebreak| tiebreak.name())
                .collect(),
        ),
        default: json!("first"),
        required: false,
        description: "Among moves of the same value: the first in move order, a random one \
                      (drawn from seed), or traps: the one leaving the opponent the most \
                      replies that lose. Other than first, every move is searched exactly.",
    }
}

fn search_time_limit() -> Knob {
    Knob {
        description: "Deepen iteratively (depth 1, 2, ...) until the game is searched to the \
                      end or this many milliseconds have passed; then answer with the best move \
                      of the last completed iteration, exact only if proven.",
        ..time_limit_ms()
    }
}

/// The names of the knobs `algorithm` takes, `seed` included for the randomised ones. Checking
/// a request needs only these, not the descriptions [`knobs`] builds for the catalogue.
pub fn knob_names(algorithm: Algorithm) -> &'static [&'static str] {
    match algorithm {
        Algorithm::Random => &["seed"],
        Algorithm::Minimax | Algorithm::Negamax => &["depth", "evaluation", "tiebreak", "seed"],
        Algorithm::AlphaBeta => &[
            "depth",
            "evaluation",
            "transposition_table",
            "symmetry",
            "ordering",
            "pvs",
            "time_limit_ms",
            "tiebreak",
            "seed",
        ],
        Algorithm::Solver => &["time_limit_ms", "tiebreak", "seed"],
        Algorithm::Engine => &["time_limit_ms"],
        Algorithm::Mcs => &["playouts", "time_limit_ms", "seed"],
        Algorithm::Mcts => &[
            "simulations",
            "uct_c",
            "expand_threshold",
            "time_limit_ms",
            "seed",
        ],
    }
}

/// The knobs `algorithm` takes on `game`, with that game's defaults and limits, described for
/// `GET /algorithms`. A test checks each against what [`strategy`] and [`fit_to_game`] accept.
pub fn knobs(algorithm: Algorithm, game: &GameRef) -> Vec<Knob> {
    knob_names(algorithm)
        .iter()
        .map(|&name| fit_knob(*game, algorithm, knob(algorithm, name)))
        .collect()
}

/// A knob as [`fit_to_game`] changes it on `game`.
fn fit_knob(game: GameRef, algorithm: Algorithm, mut knob: Knob) -> Knob {
    let limits = game.declaration.limits;
    if knob.name == "evaluation" {
        let evaluations = (game.evaluations)();
        knob.default = json!(evaluations[0].0);
        knob.values = Some(evaluations.iter().map(|(name, _)| *name).collect());
        return knob;
    }
    let full_width = matches!(algorithm, Algorithm::Minimax | Algorithm::Negamax);
    let deepening = matches!(
        algorithm,
        Algorithm::AlphaBeta | Algorithm::Solver | Algorithm::Engine
    );
    match knob.name {
        "depth" if full_width && limits.full_width_depth.is_some() => {
            knob.maximum = json!(limits.full_width_depth);
            knob.required = true;
            knob.description = "Plies to search; leaves that are not the end of the game are \
                                scored by the game's evaluation function. Required on this \
                                game: a full-width search to the end would not finish.";
        }
        "time_limit_ms" if deepening && limits.default_time_limit_ms.is_some() => {
            knob.default = json!(limits.default_time_limit_ms);
            knob.description = "Deepen iteratively (depth 1, 2, ...) until the game is searched \
                                to the end or this many milliseconds have passed; then answer \
                                with the best move of the last completed iteration, exact only \
                                if proven.";
        }
        "tiebreak" if !limits.traps => {
            knob.values = Some(vec![Tiebreak::First.name(), Tiebreak::Random.name()]);
            knob.description = "Among moves of the same value: the first in move order, or a \
                                random one (drawn from seed), for which every move is searched \
                                exactly. (traps, which searches every reply to the end, is not \
                                available on this game.)";
        }
        _ => {}
    }
    knob
}

/// One knob of `algorithm`, described.
fn knob(algorithm: Algorithm, name: &'static str) -> Knob {
    match name {
        "depth" => depth(),
        "playouts" => playouts(),
        "simulations" => simulations(),
        "uct_c" => uct_c(),
        "expand_threshold" => expand_threshold(),
        // Alphabeta and solver deepen iteratively within it; the samplers stop sampling.
        "time_limit_ms"
            if matches!(
                algorithm,
                Algorithm::AlphaBeta | Algorithm::Solver | Algorithm::Engine
            ) =>
        {
            search_time_limit()
        }
        "time_limit_ms" => time_limit_ms(),
        "transposition_table" => switch(
            name,
            "Look positions met again up in a fixed-size table of exact, lower- and upper-bound \
             values.",
        ),
        "symmetry" => switch(
            name,
            "Let symmetric positions share table entries and search only one of sibling moves \
             that lead to symmetric positions.",
        ),
        "ordering" => switch(
            name,
            "Try the table's move first, then killer moves, then by history and the game's \
             static priority (centre first).",
        ),
        "pvs" => switch(
            name,
            "Principal variation search: null windows after the first move, re-searched when \
             they fail high.",
        ),
        "tiebreak" => tiebreak(),
        "evaluation" => Knob {
            name: "evaluation",
            kind: "string",
            minimum: Value::Null,
            maximum: Value::Null,
            // The game's own: set by `fit_knob`.
            values: Some(Vec::new()),
            default: Value::Null,
            required: false,
            description: "Which of the game's evaluations scores the positions at the depth \
                          limit (the game's catalogue describes each; the first is the \
                          default).",
        },
        "seed" => seed(),
        other => unreachable!("knob_names lists only described knobs, not {other:?}"),
    }
}

/// What the algorithm does, for `GET /algorithms`.
pub fn description(algorithm: Algorithm) -> &'static str {
    match algorithm {
        Algorithm::Random => "A uniformly random legal move.",
        Algorithm::Minimax => {
            "Minimax with separate max and min players, in the first player's frame."
        }
        Algorithm::Negamax => "Negamax: one signed recursion, score = -negamax(child).",
        Algorithm::AlphaBeta => {
            "Nega-alpha: negamax with an (alpha, beta) window and cutoffs when alpha >= beta."
        }
        Algorithm::Mcs => {
            "Primitive Monte Carlo: random playouts after each legal move; the best total wins."
        }
        Algorithm::Solver => {
            "The strongest exact play the game has: for a game small enough, a perfect table of \
             every position built at start-up from the exact search, answering in constant time \
             (nodes: 1, the lookup); a solver of the game's own where it has one; else alphabeta \
             with every enhancement, deepening within the time limit."
        }
        Algorithm::Engine => {
            "The game's strongest player within the time limit. On chess, Sente's engine: \
             iterative deepening principal variation search with a quiescence search, a \
             transposition table, move ordering (the table's move, MVV-LVA, killers, history), \
             a check extension and mate scores, over PeSTO's evaluation. On the other games, \
             their solver."
        }
        Algorithm::Mcts => {
            "UCT: select by UCB1, expand after expand_threshold visits, random playout, back up; \
             the most visited move wins."
        }
    }
}

/// Parses an algorithm name, defaulting to [`DEFAULT_ALGORITHM`].
pub fn algorithm(name: Option<&str>) -> Result<Algorithm, Problem> {
    match name {
        None => Ok(DEFAULT_ALGORITHM),
        Some(name) => name.parse().map_err(|_| {
            let names: Vec<_> = Algorithm::ALL.iter().map(|a| a.name()).collect();
            names::unknown("algorithm", "algorithm", name, &names)
        }),
    }
}

/// Checks a player's knobs and builds its strategy.
pub fn strategy(spec: &PlayerSpec) -> Result<Strategy, Problem> {
    let algorithm = algorithm(spec.algorithm.as_deref())?;
    let allowed = knob_names(algorithm);
    let given = [
        ("depth", spec.depth.is_some()),
        ("playouts", spec.playouts.is_some()),
        ("simulations", spec.simulations.is_some()),
        ("uct_c", spec.uct_c.is_some()),
        ("expand_threshold", spec.expand_threshold.is_some()),
        ("time_limit_ms", spec.time_limit_ms.is_some()),
        ("transposition_table", spec.transposition_table.is_some()),
        ("symmetry", spec.symmetry.is_some()),
        ("ordering", spec.ordering.is_some()),
        ("pvs", spec.pvs.is_some()),
        ("tiebreak", spec.tiebreak.is_some()),
        ("evaluation", spec.evaluation.is_some()),
    ];
    for (name, _) in given.iter().filter(|(_, given)| *given) {
        if !allowed.contains(name) {
            return Err(not_for(name, algorithm));
        }
    }
    let depth = in_range("depth", spec.depth, 1, MAX_DEPTH)?.map(|depth| depth as u32);
    let time_limit = in_range("time_limit_ms", spec.time_limit_ms, 1, MAX_TIME_LIMIT_MS)?
        .map(Duration::from_millis);
    let tiebreak = match &spec.tiebreak {
        Some(name) => name.parse::<Tiebreak>().map_err(|_| {
            let names: Vec<_> = Tiebreak::ALL.iter().map(|t| t.name()).collect();
            names::unknown("tiebreak", "tiebreak", name, &names)
        })?,
        None => Tiebreak::First,
    };
    Ok(match algorithm {
        Algorithm::Random => Strategy::Random,
        Algorithm::Minimax => Strategy::Minimax {
            depth,
            tiebreak,
            evaluation: 0,
        },
        Algorithm::Negamax => Strategy::Negamax {
            depth,
            tiebreak,
            evaluation: 0,
        },
        Algorithm::AlphaBeta => Strategy::AlphaBeta(
            AlphaBetaParams {
                depth,
                enhancements: Enhancements {
                    transposition_table: spec.transposition_table.unwrap_or(false),
                    symmetry: spec.symmetry.unwrap_or(false),
                    ordering: spec.ordering.unwrap_or(false),
                    pvs: spec.pvs.unwrap_or(false),
                },
                time_limit,
                evaluation: 0,
            },
            tiebreak,
        ),
        Algorithm::Solver => Strategy::Solver {
            time_limit,
            tiebreak,
        },
        Algorithm::Engine => Strategy::Engine { time_limit },
        Algorithm::Mcs => Strategy::Mcs {
            playouts: in_range("playouts", spec.playouts, 1, MAX_PLAYOUTS)?
                .map_or(DEFAULT_PLAYOUTS, |n| n as u32),
            time_limit,
        },
        Algorithm::Mcts => {
            let defaults = MctsParams::default();
            let uct_c = match spec.uct_c {
                Some(c) if !(0.0..=MAX_UCT_C).contains(&c) => {
                    return Err(Problem::invalid(
                        "uct_c",
                        format!("uct_c must be between 0 and {MAX_UCT_C}, got {c}"),
                    ));
                }
                Some(c) => c,
                None => defaults.uct_c,
            };
            Strategy::Mcts(MctsParams {
                simulations: in_range("simulations", spec.simulations, 1, MAX_SIMULATIONS)?
                    .map_or(defaults.simulations, |n| n as u32),
                uct_c,
                expand_threshold: in_range(
                    "expand_threshold",
                    spec.expand_threshold,
                    1,
                    MAX_EXPAND_THRESHOLD,
                )?
                .map_or(defaults.expand_threshold, |n| n as u32),
                time_limit,
            })
        }
    })
}

/// A player's strategy on `game`: its knobs checked ([`strategy`]), its evaluation found among
/// the game's, and the whole fitted to the game's limits ([`fit_to_game`]).
pub fn player(game: &GameRef, spec: &PlayerSpec) -> Result<Strategy, Problem> {
    let mut strategy = match spec.algorithm {
        Some(_) => strategy(spec)?,
        None => strategy(&PlayerSpec {
            algorithm: Some(game.declaration.default_algorithm.to_owned()),
            ..spec.clone()
        })?,
    };
    if let Some(name) = &spec.evaluation {
        let evaluations = (game.evaluations)();
        let known: Vec<&str> = evaluations.iter().map(|(name, _)| *name).collect();
        let index = known
            .iter()
            .position(|known| known == name)
            .ok_or_else(|| names::unknown("evaluation", "evaluation", name, &known))?;
        let index = index as EvaluationIndex;
        match &mut strategy {
            Strategy::Minimax { evaluation, .. } | Strategy::Negamax { evaluation, .. } => {
                *evaluation = index;
            }
            Strategy::AlphaBeta(params, _) => params.evaluation = index,
            // `strategy` refuses the knob for the algorithms that take none.
            _ => {}
        }
    }
    fit_to_game(game, strategy)
}

/// Fits a strategy to the game it will play, within the limits the game declares, so that no
/// search runs unbounded: minimax and negamax may need a depth, at most the game's deepest;
/// alphabeta and solver may deepen within a default time limit; `traps` (which searches every
/// reply to the end) may be refused.
pub fn fit_to_game(game: &GameRef, strategy: Strategy) -> Result<Strategy, Problem> {
    let limits = game.declaration.limits;
    let name = game.name;
    if strategy.tiebreak() == Tiebreak::Traps && !limits.traps {
        return Err(Problem::invalid(
            "tiebreak",
            format!(
                "tiebreak traps is not available on {name}: it would search every reply to \
                 the end"
            ),
        ));
    }
    let default_time_limit = limits.default_time_limit_ms.map(Duration::from_millis);
    Ok(match strategy {
        Strategy::Minimax { depth, .. } | Strategy::Negamax { depth, .. }
            if limits
                .full_width_depth
                .is_some_and(|limit| depth.is_none_or(|depth| depth > limit)) =>
        {
            let limit = limits.full_width_depth.unwrap_or_default();
            return Err(Problem::invalid(
                "depth",
                format!(
                    "{} on {name} needs a depth between 1 and {limit}: a full-width search to \
                     the end of the game would not finish",
                    strategy.algorithm()
                ),
            ));
        }
        Strategy::AlphaBeta(mut params, tiebreak) => {
            params.time_limit = params.time_limit.or(default_time_limit);
            Strategy::AlphaBeta(params, tiebreak)
        }
        Strategy::Solver {
            time_limit,
            tiebreak,
        } => Strategy::Solver {
            time_limit: time_limit.or(default_time_limit),
            tiebreak,
        },
        Strategy::Engine { time_limit } => Strategy::Engine {
            time_limit: time_limit.or(default_time_limit),
        },
        other => other,
    })
}

/// The problem of a seed given to a search that draws nothing: an exact algorithm with a
/// tiebreak other than random.
pub fn seed_unused(strategy: &Strategy) -> Problem {
    let algorithm = strategy.algorithm();
    if knob_names(algorithm).contains(&"seed") {
        return Problem::invalid(
            "seed",
            format!(
                "{algorithm} draws nothing at random with tiebreak {}, so a seed would change \
                 nothing: give tiebreak random with it, or leave it out",
                strategy.tiebreak().name()
            ),
        );
    }
    not_for("seed", algorithm)
}

/// The problem of a knob given to an algorithm that does not take it.
pub fn not_for(knob: &str, algorithm: Algorithm) -> Problem {
    let takes = knob_names(algorithm);
    Problem::invalid(
        knob,
        format!(
            "{knob} does not apply to {algorithm}, which takes: {}",
            if takes.is_empty() {
                "no knobs".to_owned()
            } else {
                takes.join(", ")
            }
        ),
    )
}

/// `value`, if it is within `min..=max`; the problem of field `name` if not.
pub fn in_range(
    name: &str,
    value: Option<i128>,
    min: u64,
    max: u64,
) -> Result<Option<u64>, Problem> {
    match value {
        Some(value) if !(i128::from(min)..=i128::from(max)).contains(&value) => {
            Err(Problem::invalid(
                name,
                format!("{name} must be between {min} and {max}, got {value}"),
            ))
        }
        value => Ok(value.map(|value| value as u64)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(algorithm: &str) -> PlayerSpec {
        PlayerSpec {
            algorithm: Some(algorithm.to_owned()),
            ..PlayerSpec::default()
        }
    }

    #[test]
    fn defaults_and_knobs_build_strategies() {
        assert_eq!(
            strategy(&PlayerSpec::default()),
            Ok(Strategy::with_defaults(Algorithm::AlphaBeta))
        );
        let mcts = PlayerSpec {
            simulations: Some(500),
            uct_c: Some(1.0),
            ..spec("mcts")
        };
        assert_eq!(
            strategy(&mcts),
            Ok(Strategy::Mcts(MctsParams {
                simulations: 500,
                uct_c: 1.0,
                ..MctsParams::default()
            }))
        );
    }

    #[test]
    fn a_knob_for_another_algorithm_is_rejected_by_name() {
        let problem = strategy(&PlayerSpec {
            depth: Some(3),
            ..spec("mcts")
        })
        .unwrap_err();
        assert_eq!(problem.status, 422);
        assert_eq!(problem.field.as_deref(), Some("depth"));
        assert!(
            problem.detail.contains("does not apply to mcts"),
            "{problem}"
        );
    }

    /// A player of `algorithm` with knob `name` set to `value` (or without it), checked for
    /// `game` as a request is.
    fn checked(
        game: &GameRef,
        algorithm: Algorithm,
        knob: Option<(&str, Value)>,
    ) -> Result<Strategy, Problem> {
        let mut object = serde_json::Map::new();
        object.insert("algorithm".into(), json!(algorithm.name()));
        // The knobs the game requires, at their least, unless the one under test is one.
        for required in knobs(algorithm, game).iter().filter(|knob| knob.required) {
            if knob.as_ref().is_none_or(|(name, _)| *name != required.name) {
                object.insert(required.name.into(), required.minimum.clone());
            }
        }
        if let Some((name, value)) = knob {
            object.insert(name.into(), value);
        }
        let spec = PlayerSpec::from_json(Value::Object(object).to_string().as_bytes())?;
        player(game, &spec)
    }

    /// `GET /algorithms?game=...` says what the checks do: each knob's bounds are accepted and
    /// one past them refused, a default is what absence means, a required knob is required,
    /// and a string knob takes exactly its values.
    #[test]
    fn the_catalogue_says_what_the_checks_accept_in_every_game() {
        for name in crate::games::NAMES {
            let game = &crate::api::game(Some(name)).unwrap();
            for algorithm in Algorithm::ALL {
                for knob in knobs(algorithm, game) {
                    let context = format!("{} {algorithm} {}", game.name, knob.name);
                    // The seed is the request's, checked with the request.
                    if knob.name == "seed" {
                        continue;
                    }
                    let with = |value: Value| checked(game, algorithm, Some((knob.name, value)));
                    let without = checked(game, algorithm, Some((knob.name, Value::Null)));
                    assert_eq!(without.is_err(), knob.required, "{context}");
                    if !knob.default.is_null() {
                        assert_eq!(with(knob.default.clone()), without, "{context}");
                    }
                    match knob.kind {
                        "integer" => {
                            let (min, max) = (knob.minimum.as_u64(), knob.maximum.as_u64());
                            let (min, max) = (min.unwrap(), max.unwrap());
                            assert!(with(json!(min)).is_ok(), "{context}");
                            assert!(with(json!(max)).is_ok(), "{context}");
                            assert!(with(json!(i128::from(min) - 1)).is_err(), "{context}");
                            assert!(with(json!(max + 1)).is_err(), "{context}");
                        }
                        "number" => {
                            let (min, max) = (knob.minimum.as_f64(), knob.maximum.as_f64());
                            let (min, max) = (min.unwrap(), max.unwrap());
                            assert!(with(json!(min)).is_ok(), "{context}");
                            assert!(with(json!(max)).is_ok(), "{context}");
                            assert!(with(json!(min - 0.5)).is_err(), "{context}");
                            assert!(with(json!(max + 0.5)).is_err(), "{context}");
                        }
                        "boolean" => {
                            assert!(with(json!(true)).is_ok(), "{context}");
                            assert!(with(json!(false)).is_ok(), "{context}");
                        }
                        "string" => {
                            let values = knob.values.as_ref().unwrap();
                            for value in Tiebreak::ALL.map(Tiebreak::name) {
                                let accepted = with(json!(value)).is_ok();
                                assert_eq!(accepted, values.contains(&value), "{context} {value}");
                            }
                        }
                        other => panic!("{context}: a knob of type {other}"),
                    }
                }
            }
        }
    }

    #[test]
    fn out_of_range_knobs_say_the_range() {
        let problem = strategy(&PlayerSpec {
            depth: Some(0),
            ..spec("negamax")
        })
        .unwrap_err();
        assert_eq!(problem.detail, "depth must be between 1 and 64, got 0");
        let problem = strategy(&PlayerSpec {
            uct_c: Some(-1.0),
            ..spec("mcts")
        })
        .unwrap_err();
        assert_eq!(problem.field.as_deref(), Some("uct_c"));
        assert!(strategy(&spec("chess-engine")).is_err());
    }
}
