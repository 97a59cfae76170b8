//! The algorithms' knobs, declared once.
//!
//! [`KNOBS`] is the table: for each knob its name, its type and range, its default, the
//! algorithms that take it, what it means, how it changes on a game, and where its value goes
//! in the [`Strategy`]. Everything else is read from the table: decoding a player's knobs
//! ([`PlayerSpec`], for `/move`, `/analyze` and `/tournament` alike), refusing a knob the
//! algorithm does not take, checking ranges and names, the command line's
//! `ALGORITHM:KNOB=VALUE`, `GET /algorithms` (each knob as it stands on a game), the maxima of
//! `GET /limits`, the page's forms (drawn from `GET /algorithms`), and the tests that hold
//! `openapi.yaml` and the checks to the table.
//!
//! Adding a knob is an entry here and its use in the search.
//!
//! The upper bounds are what keeps one request from occupying the machine.

use std::borrow::Cow;
use std::time::Duration;

use serde::Serialize;
use serde::de::{self, MapAccess};
use serde_json::{Map, Value, json};

use super::object::{Object, deserialize_as_object, integer, value};
use super::{GameRef, Problem, names};
use crate::search::{
    self, Algorithm as A, Algorithm, DEFAULT_EXPAND_THRESHOLD, DEFAULT_PLAYOUTS,
    DEFAULT_SIMULATIONS, DEFAULT_UCT_C, Strategy, Tiebreak,
};

/// One knob, everything about it.
#[derive(Clone, Copy, Debug)]
pub struct Knob {
    /// Its name in requests and on the command line.
    pub name: &'static str,
    /// What a person calls it (the page's label).
    pub label: &'static str,
    /// The algorithms that take it; any other refuses it.
    pub algorithms: &'static [Algorithm],
    pub kind: Kind,
    pub description: &'static str,
    /// How the knob stands on a game for an algorithm, where that differs from the table: a
    /// game's own default, a tighter bound, fewer values, a note.
    pub on_game: fn(&mut KnobInfo, Algorithm, &GameRef),
}

/// A knob's type, range and default, and where its value goes.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    /// A whole number within `min..=max`; `default: None` when absence means "no limit".
    Integer {
        min: u64,
        max: u64,
        default: Option<u64>,
        set: fn(&mut Strategy, u64),
    },
    Number {
        min: f64,
        max: f64,
        default: f64,
        set: fn(&mut Strategy, f64),
    },
    Boolean {
        default: bool,
        set: fn(&mut Strategy, bool),
    },
    /// One of a list of names, the first the default; the list may be the game's own.
    Choice {
        values: fn(&GameRef) -> Vec<&'static str>,
        set: fn(&mut Strategy, usize),
    },
}

/// The deepest search a request may ask for.
pub const MAX_DEPTH: u64 = search::MAX_DEPTH as u64;
/// The longest any algorithm may be asked to think.
pub const MAX_TIME_LIMIT_MS: u64 = 10_000;

/// The knob that limits a search's time.
const TIME_LIMIT_MS: &str = "time_limit_ms";

/// Every player's knob, in the order the catalogue lists them.
pub const KNOBS: [Knob; 21] = [
    Knob {
        name: "depth",
        label: "Depth (plies)",
        algorithms: &[A::Minimax, A::Negamax, A::AlphaBeta, A::Engine],
        kind: Kind::Integer {
            min: 1,
            max: MAX_DEPTH,
            default: None,
            set: |strategy, plies| match strategy {
                Strategy::Minimax { depth, .. } | Strategy::Negamax { depth, .. } => {
                    *depth = Some(plies as u32);
                }
                Strategy::AlphaBeta(params, _) => params.depth = Some(plies as u32),
                Strategy::Engine(params) => params.depth = Some(plies as u32),
                _ => {}
            },
        },
        description: "Plies to search; leaves that are not the end of the game are scored by \
                      the game's evaluation function.",
        on_game: |knob, algorithm, game| {
            let full_width = matches!(algorithm, A::Minimax | A::Negamax);
            let absent = match game.declaration.limits.full_width_depth {
                _ if algorithm == A::Engine => {
                    "The engine's deepest iteration. Absent: as deep as its time allows."
                }
                Some(limit) if full_width => {
                    knob.maximum = json!(limit);
                    knob.required = true;
                    "Required on this game: a full-width search to the end would not finish."
                }
                _ => "Absent: search to the end of the game.",
            };
            knob.description = format!("{} {absent}", knob.description).into();
        },
    },
    Knob {
        name: "evaluation",
        label: "Evaluation",
        algorithms: &[A::Minimax, A::Negamax, A::AlphaBeta],
        kind: Kind::Choice {
            values: |game| {
                (game.evaluations)()
                    .into_iter()
                    .map(|(name, _)| name)
                    .collect()
            },
            set: |strategy, index| {
                let index = index as search::EvaluationIndex;
                match strategy {
                    Strategy::Minimax { evaluation, .. } | Strategy::Negamax { evaluation, .. } => {
                        *evaluation = index;
                    }
                    Strategy::AlphaBeta(params, _) => params.evaluation = index,
                    _ => {}
                }
            },
        },
        description: "Which of the game's evaluations scores the positions at the depth limit \
                      (the game's catalogue describes each; the first is the default).",
        on_game: same_on_every_game,
    },
    Knob {
        name: "playouts",
        label: "Playouts per move",
        algorithms: &[A::Mcs],
        kind: Kind::Integer {
            min: 1,
            max: 100_000,
            default: Some(DEFAULT_PLAYOUTS as u64),
            set: |strategy, count| {
                if let Strategy::Mcs { playouts, .. } = strategy {
                    *playouts = count as u32;
                }
            },
        },
        description: "Random playouts after each legal move.",
        on_game: same_on_every_game,
    },
    Knob {
        name: "simulations",
        label: "Simulations",
        algorithms: &[A::Mcts],
        kind: Kind::Integer {
            min: 1,
            max: 1_000_000,
            default: Some(DEFAULT_SIMULATIONS as u64),
            set: |strategy, count| {
                if let Strategy::Mcts(params) = strategy {
                    params.simulations = count as u32;
                }
            },
        },
        description: "Simulations (select, expand, playout, back up).",
        on_game: same_on_every_game,
    },
    Knob {
        name: "uct_c",
        label: "Exploration (UCT c)",
        algorithms: &[A::Mcts],
        kind: Kind::Number {
            min: 0.0,
            max: 100.0,
            default: DEFAULT_UCT_C,
            set: |strategy, c| {
                if let Strategy::Mcts(params) = strategy {
                    params.uct_c = c;
                }
            },
        },
        description: "Exploration constant c in UCB1 = -w/n + c * sqrt(ln t / n).",
        on_game: same_on_every_game,
    },
    Knob {
        name: "expand_threshold",
        label: "Expand after (visits)",
        algorithms: &[A::Mcts],
        kind: Kind::Integer {
            min: 1,
            max: 100_000,
            default: Some(DEFAULT_EXPAND_THRESHOLD as u64),
            set: |strategy, visits| {
                if let Strategy::Mcts(params) = strategy {
                    params.expand_threshold = visits as u32;
                }
            },
        },
        description: "Visits after which a leaf is expanded.",
        on_game: same_on_every_game,
    },
    switch(
        "transposition_table",
        "Transposition table",
        "Look positions met again up in a fixed-size table of exact, lower- and upper-bound \
         values.",
        |strategy, on| {
            if let Strategy::AlphaBeta(params, _) = strategy {
                params.enhancements.transposition_table = on;
            }
        },
    ),
    switch(
        "symmetry",
        "Symmetry",
        "Let symmetric positions share table entries and search only one of sibling moves that \
         lead to symmetric positions.",
        |strategy, on| {
            if let Strategy::AlphaBeta(params, _) = strategy {
                params.enhancements.symmetry = on;
            }
        },
    ),
    switch(
        "ordering",
        "Move ordering",
        "Try the table's move first, then killer moves, then by history and the game's static \
         priority (centre first).",
        |strategy, on| {
            if let Strategy::AlphaBeta(params, _) = strategy {
                params.enhancements.ordering = on;
            }
        },
    ),
    switch(
        "pvs",
        "Principal variation search",
        "Principal variation search: null windows after the first move, re-searched when they \
         fail high.",
        |strategy, on| {
            if let Strategy::AlphaBeta(params, _) = strategy {
                params.enhancements.pvs = on;
            }
        },
    ),
    Knob {
        name: TIME_LIMIT_MS,
        label: "Time limit (ms)",
        algorithms: &[A::AlphaBeta, A::Solver, A::Engine, A::Mcs, A::Mcts],
        kind: Kind::Integer {
            min: 1,
            max: MAX_TIME_LIMIT_MS,
            default: None,
            set: |strategy, ms| {
                let limit = Some(Duration::from_millis(ms));
                match strategy {
                    Strategy::AlphaBeta(params, _) => params.time_limit = limit,
                    Strategy::Mcts(params) => params.time_limit = limit,
                    Strategy::Engine(params) => params.time_limit = limit,
                    Strategy::Solver { time_limit, .. } | Strategy::Mcs { time_limit, .. } => {
                        *time_limit = limit;
                    }
                    _ => {}
                }
            },
        },
        description: "Milliseconds the search may take; absent, no limit unless the game sets \
                      a default (the deepening searches').",
        on_game: |knob, algorithm, game| {
            let deepening = matches!(algorithm, A::AlphaBeta | A::Solver | A::Engine);
            let how = if deepening {
                "It deepens iteratively (depth 1, 2, ...) until the game is searched to the end \
                 or the time is up, and answers with the best move of the last completed \
                 iteration, exact only if proven."
            } else {
                "Sampling stops then, even if fewer playouts or simulations were run: the result \
                 then depends on the machine's speed. Given without a count, it samples until \
                 the time; with one, whichever comes first stops it."
            };
            knob.description = format!("{} {how}", knob.description).into();
            if let Some(ms) = game
                .declaration
                .limits
                .default_time_limit_ms
                .filter(|_| deepening)
            {
                knob.default = json!(ms);
            }
        },
    },
    Knob {
        name: "hash_mb",
        label: "Hash (MiB)",
        algorithms: &[A::Engine],
        kind: Kind::Integer {
            min: 1,
            max: 256,
            default: Some(search::DEFAULT_HASH_MB as u64),
            set: |strategy, mib| {
                if let Strategy::Engine(params) = strategy {
                    params.hash_mb = mib as u32;
                }
            },
        },
        description: "The size of the engine's transposition table, in MiB (UCI's Hash). Each \
                      search allocates its own.",
        on_game: |knob, _, game| {
            if game.name != "chess" {
                knob.description = format!(
                    "{} Only the chess engine's table is sized by it: {} ignores it.",
                    knob.description, game.name
                )
                .into();
            }
        },
    },
    Knob {
        name: "nodes",
        label: "Nodes",
        algorithms: &[A::Engine],
        kind: Kind::Integer {
            min: 1,
            max: 1_000_000_000_000,
            default: None,
            set: |strategy, nodes| {
                if let Strategy::Engine(params) = strategy {
                    params.nodes = Some(nodes);
                }
            },
        },
        description: "The most nodes the chess or Othello engine searches (UCI's go nodes); \
                      it answers with its last completed iteration. The service's max_nodes \
                      bounds it too.",
        on_game: same_on_every_game,
    },
    clock(
        "wtime",
        "White's clock (ms)",
        1,
        MAX_CLOCK_MS,
        "Milliseconds left on White's clock (UCI's wtime).",
        |strategy, ms| {
            if let Some(clock) = engine_clock(strategy) {
                clock.wtime = Some(Duration::from_millis(ms));
            }
        },
    ),
    clock(
        "btime",
        "Black's clock (ms)",
        1,
        MAX_CLOCK_MS,
        "Milliseconds left on Black's clock (UCI's btime).",
        |strategy, ms| {
            if let Some(clock) = engine_clock(strategy) {
                clock.btime = Some(Duration::from_millis(ms));
            }
        },
    ),
    clock(
        "winc",
        "White's increment (ms)",
        0,
        MAX_INCREMENT_MS,
        "Milliseconds White's clock gains with each move (UCI's winc).",
        |strategy, ms| {
            if let Some(clock) = engine_clock(strategy) {
                clock.winc = Some(Duration::from_millis(ms));
            }
        },
    ),
    clock(
        "binc",
        "Black's increment (ms)",
        0,
        MAX_INCREMENT_MS,
        "Milliseconds Black's clock gains with each move (UCI's binc).",
        |strategy, ms| {
            if let Some(clock) = engine_clock(strategy) {
                clock.binc = Some(Duration::from_millis(ms));
            }
        },
    ),
    clock(
        "movestogo",
        "Moves to go",
        1,
        1_000,
        "Moves until the clock's next time control (UCI's movestogo); absent, the engine \
         plans for 25.",
        |strategy, moves| {
            if let Some(clock) = engine_clock(strategy) {
                clock.movestogo = Some(moves as u32);
            }
        },
    ),
    Knob {
        name: "without",
        label: "Without",
        algorithms: &[A::Engine],
        kind: Kind::Choice {
            values: |_| {
                let mut values = vec!["nothing"];
                values.extend(search::Step::ALL.map(search::Step::name));
                values
            },
            set: |strategy, index| {
                if let Strategy::Engine(params) = strategy {
                    params.without = index.checked_sub(1).map(|step| search::Step::ALL[step]);
                }
            },
        },
        description: "One step of the chess engine turned off, to measure what it gains: \
                      aspiration windows, null-move pruning, late move reductions, reverse \
                      futility pruning, late move and futility pruning, static exchange \
                      evaluation, or the evaluation's terms beyond PeSTO's tables. For \
                      measurement (docs/chess.md); the engine plays best with nothing.",
        on_game: same_on_every_game,
    },
    Knob {
        name: "multipv",
        label: "Lines (MultiPV)",
        algorithms: &[A::Engine],
        kind: Kind::Integer {
            min: 1,
            max: 500,
            default: None,
            set: |strategy, lines| {
                if let Strategy::Engine(params) = strategy {
                    params.multipv = Some(lines as u32);
                }
            },
        },
        description: "How many of the best moves /analyze answers, best first (UCI's and \
                      lichess's MultiPV); absent, every legal move. The chess engine searches \
                      the other moves only to show they are worse, and stops once every line \
                      asked for is proven. /move's choice is the same whatever it is.",
        on_game: same_on_every_game,
    },
    Knob {
        name: "tiebreak",
        label: "Among equal moves",
        algorithms: &[A::Minimax, A::Negamax, A::AlphaBeta, A::Solver],
        kind: Kind::Choice {
            values: |_| Tiebreak::ALL.map(Tiebreak::name).to_vec(),
            set: |strategy, index| {
                let chosen = Tiebreak::ALL[index];
                match strategy {
                    Strategy::Minimax { tiebreak, .. }
                    | Strategy::Negamax { tiebreak, .. }
                    | Strategy::AlphaBeta(_, tiebreak)
                    | Strategy::Solver { tiebreak, .. } => *tiebreak = chosen,
                    _ => {}
                }
            },
        },
        description: "Among moves of the same value: the first in move order, a random one \
                      (drawn from seed), or traps: the one leaving the opponent the most \
                      replies that lose. Other than first, every move is searched exactly.",
        on_game: |knob, _, game| {
            if !game.declaration.limits.traps {
                knob.values = Some(vec![Tiebreak::First.name(), Tiebreak::Random.name()]);
                knob.description = format!(
                    "{} (traps, which searches every reply to the end, is not available on \
                     this game.)",
                    knob.description
                )
                .into();
            }
        },
    },
];

/// The seed: a knob of the request rather than of its player (a tournament has one for both
/// players), listed with the knobs of the algorithms that draw from it.
pub const SEED: Knob = Knob {
    name: "seed",
    label: "Seed",
    algorithms: &[
        A::Random,
        A::Minimax,
        A::Negamax,
        A::AlphaBeta,
        A::Solver,
        A::Mcs,
        A::Mcts,
    ],
    kind: Kind::Integer {
        min: 0,
        max: u64::MAX,
        default: None,
        // The strategy has no place for it: the request keeps it.
        set: |_, _| {},
    },
    description: "Seed of every random choice: the same position, knobs and seed give the same \
                  move, score and nodes. Absent: one is drawn and reported. For the exact \
                  algorithms, only with tiebreak random.",
    on_game: same_on_every_game,
};

fn same_on_every_game(_: &mut KnobInfo, _: Algorithm, _: &GameRef) {}

/// The longest clock a request may give, a day.
pub const MAX_CLOCK_MS: u64 = 86_400_000;
/// The largest increment, ten minutes.
pub const MAX_INCREMENT_MS: u64 = 600_000;

/// A part of the engine's clock, as UCI's `go` names it.
const fn clock(
    name: &'static str,
    label: &'static str,
    min: u64,
    max: u64,
    description: &'static str,
    set: fn(&mut Strategy, u64),
) -> Knob {
    Knob {
        name,
        label,
        algorithms: &[A::Engine],
        kind: Kind::Integer {
            min,
            max,
            default: None,
            set,
        },
        description,
        on_game: |knob, _, game| {
            let how = match game.name {
                "chess" => {
                    "The chess engine shares out the clock of the side to move itself, spending \
                     more where the position needs it (docs/chess.md#time); a time_limit_ms as \
                     well caps the move."
                }
                "othello" => {
                    "The Othello engine shares the mover's clock (White's is O's) over its moves \
                     left, about half the empty squares (docs/othello.md); a time_limit_ms as \
                     well caps the move."
                }
                _ => "This game's engine has no use for a clock: it thinks for its time limit.",
            };
            knob.description = format!("{} {how}", knob.description).into();
        },
    }
}

/// The engine's clock in `strategy`, if it is the engine.
fn engine_clock(strategy: &mut Strategy) -> Option<&mut search::Clock> {
    match strategy {
        Strategy::Engine(params) => Some(&mut params.clock),
        _ => None,
    }
}

/// An on-off knob, off by default.
const fn switch(
    name: &'static str,
    label: &'static str,
    description: &'static str,
    set: fn(&mut Strategy, bool),
) -> Knob {
    Knob {
        name,
        label,
        algorithms: &[A::AlphaBeta],
        kind: Kind::Boolean {
            default: false,
            set,
        },
        description,
        on_game: same_on_every_game,
    }
}

/// The names of a player's fields: its algorithm, then every knob of [`KNOBS`].
pub const PLAYER_FIELDS: [&str; KNOBS.len() + 1] = {
    let mut fields = ["algorithm"; KNOBS.len() + 1];
    let mut index = 0;
    while index < KNOBS.len() {
        fields[index + 1] = KNOBS[index].name;
        index += 1;
    }
    fields
};

/// A knob's value as a request gives it, before it is checked. Integers are held as `i128`,
/// wide enough for any integer JSON carries (serde_json reads one up to 128 bits), so that
/// every integer decodes and an out-of-range one, `-1` as much as `1e6`, is refused by the
/// range check with the same words (422), not by the decoder.
#[derive(Clone, Debug, PartialEq)]
pub enum Given {
    Integer(i128),
    Number(f64),
    Boolean(bool),
    Name(String),
}

impl Given {
    /// The value as the request wrote it.
    pub fn to_json(&self) -> serde_json::Value {
        match self {
            Given::Integer(integer) => i64::try_from(*integer)
                .map(serde_json::Value::from)
                .unwrap_or_else(|_| serde_json::Value::from(*integer as f64)),
            Given::Number(number) => serde_json::Value::from(*number),
            Given::Boolean(boolean) => serde_json::Value::Bool(*boolean),
            Given::Name(name) => serde_json::Value::String(name.clone()),
        }
    }
}

/// A player as a request gives it: its algorithm and its knobs, each checked against the
/// algorithm when the request is (a knob the algorithm does not take is an error, never
/// silently ignored).
///
/// Decoded field by field (`api::object`), so that a `/move` request, which carries the knobs
/// beside its own fields, reads them with the same code in the same pass.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PlayerSpec {
    pub algorithm: Option<String>,
    /// The knobs given, in the order of [`KNOBS`].
    pub knobs: [Option<Given>; KNOBS.len()],
}

impl Object for PlayerSpec {
    const EXPECTING: &'static str = "a player: an object with algorithm and its knobs";
    const FIELDS: &'static [&'static str] = &PLAYER_FIELDS;

    fn read_field<'de, A: MapAccess<'de>>(
        &mut self,
        key: &'static str,
        map: &mut A,
    ) -> Result<(), A::Error> {
        if key == "algorithm" {
            self.algorithm = value(key, map)?;
            return Ok(());
        }
        let Some(index) = KNOBS.iter().position(|knob| knob.name == key) else {
            return Err(de::Error::unknown_field(key, Self::FIELDS));
        };
        // Each value decodes as its knob's type; JSON null is the knob not given.
        self.knobs[index] = match KNOBS[index].kind {
            Kind::Integer { .. } => integer(key, map)?.map(Given::Integer),
            Kind::Number { .. } => value::<_, Option<f64>>(key, map)?.map(Given::Number),
            Kind::Boolean { .. } => value::<_, Option<bool>>(key, map)?.map(Given::Boolean),
            Kind::Choice { .. } => value::<_, Option<String>>(key, map)?.map(Given::Name),
        };
        Ok(())
    }
}

deserialize_as_object!(PlayerSpec);

impl PlayerSpec {
    /// A player from a JSON object, as a tournament request carries one.
    pub fn from_json(body: &[u8]) -> Result<Self, Problem> {
        super::object::decode(body)
    }

    /// A player as the command line writes it: `ALGORITHM[:KNOB=VALUE,...]`, such as
    /// `mcts:simulations=1000, uct_c=1.4`. Each value is read as its knob's type, and the whole
    /// is checked as a request is (the same checks, the same words).
    pub fn from_text(text: &str) -> Result<Self, Problem> {
        let (algorithm, knobs) = text.split_once(':').unwrap_or((text, ""));
        let mut object = Map::new();
        object.insert("algorithm".into(), json!(algorithm.trim()));
        for knob in knobs
            .split(',')
            .map(str::trim)
            .filter(|knob| !knob.is_empty())
        {
            let (name, text) = knob.split_once('=').ok_or_else(|| {
                Problem::malformed(format!(
                    "expected KNOB=VALUE, e.g. depth=3 or transposition_table=true, got {knob:?}"
                ))
            })?;
            let (name, text) = (name.trim(), text.trim());
            if name != SEED.name && !KNOBS.iter().any(|knob| knob.name == name) {
                return Err(unknown_knob(name, algorithm.trim()));
            }
            if name == SEED.name {
                return Err(Problem::malformed(
                    "seed is the command's, not a player's: give --seed",
                ));
            }
            // A name as text; anything else as JSON, so that a value of the wrong type is
            // refused in the request's words.
            let value = match KNOBS.iter().find(|knob| knob.name == name) {
                Some(Knob {
                    kind: Kind::Choice { .. },
                    ..
                }) => json!(text),
                _ => serde_json::from_str(text).unwrap_or_else(|_| json!(text)),
            };
            if object.insert(name.to_owned(), value).is_some() {
                return Err(Problem::malformed(format!("{name} is given twice")));
            }
        }
        // The JSON is Sente's, not the user's: where in it a value went wrong means nothing to
        // them, and the knob's name says where.
        PlayerSpec::from_json(Value::Object(object).to_string().as_bytes()).map_err(|problem| {
            let detail = match problem.detail.rfind(" (at line ") {
                Some(at) => problem.detail[..at].to_owned(),
                None => problem.detail.clone(),
            };
            Problem { detail, ..problem }
        })
    }

    /// The value given for the knob named `name`, if any.
    pub fn given(&self, name: &str) -> Option<&Given> {
        let index = KNOBS.iter().position(|knob| knob.name == name)?;
        self.knobs[index].as_ref()
    }

    /// Whether `field` (a problem's) is one of a player's.
    pub fn is_field(field: &str) -> bool {
        PLAYER_FIELDS.contains(&field)
    }
}

/// One knob as `GET /algorithms` describes it on a game.
#[derive(Clone, Debug, Serialize)]
pub struct KnobInfo {
    pub name: &'static str,
    /// What a person calls it.
    pub label: &'static str,
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
    pub description: Cow<'static, str>,
}

impl Knob {
    /// Whether `algorithm` takes the knob.
    pub fn takes(&self, algorithm: Algorithm) -> bool {
        self.algorithms.contains(&algorithm)
    }

    /// The knob as it stands on `game` for `algorithm`.
    pub fn on(&self, algorithm: Algorithm, game: &GameRef) -> KnobInfo {
        let (kind, minimum, maximum, values, default) = match self.kind {
            Kind::Integer {
                min, max, default, ..
            } => ("integer", json!(min), json!(max), None, json!(default)),
            Kind::Number {
                min, max, default, ..
            } => ("number", json!(min), json!(max), None, json!(default)),
            Kind::Boolean { default, .. } => {
                ("boolean", Value::Null, Value::Null, None, json!(default))
            }
            Kind::Choice { values, .. } => {
                let values = values(game);
                let default = json!(values.first());
                ("string", Value::Null, Value::Null, Some(values), default)
            }
        };
        let mut info = KnobInfo {
            name: self.name,
            label: self.label,
            kind,
            minimum,
            maximum,
            values,
            default,
            required: false,
            description: self.description.into(),
        };
        (self.on_game)(&mut info, algorithm, game);
        info
    }

    /// Checks `given` and puts it into `strategy`.
    fn set(&self, given: &Given, game: &GameRef, strategy: &mut Strategy) -> Result<(), Problem> {
        let name = self.name;
        match (self.kind, given) {
            (Kind::Integer { min, max, set, .. }, Given::Integer(value)) => {
                set(strategy, in_range(name, *value, min, max)?);
            }
            (Kind::Number { min, max, set, .. }, Given::Number(value)) => {
                if !(min..=max).contains(value) {
                    return Err(Problem::invalid(
                        name,
                        format!("{name} must be between {min} and {max}, got {value}"),
                    ));
                }
                set(strategy, *value);
            }
            (Kind::Boolean { set, .. }, Given::Boolean(on)) => set(strategy, *on),
            (Kind::Choice { values, set }, Given::Name(given)) => {
                let values = values(game);
                let index = values
                    .iter()
                    .position(|value| value == given)
                    .ok_or_else(|| names::unknown(name, name, given, &values))?;
                set(strategy, index);
            }
            // Decoding reads each knob as its type; only a value built by hand can differ.
            (kind, given) => {
                return Err(Problem::invalid(
                    name,
                    format!("{name} takes {}, got {given:?}", kind.name()),
                ));
            }
        }
        Ok(())
    }
}

impl Kind {
    /// The JSON type.
    fn name(self) -> &'static str {
        match self {
            Kind::Integer { .. } => "an integer",
            Kind::Number { .. } => "a number",
            Kind::Boolean { .. } => "true or false",
            Kind::Choice { .. } => "a name",
        }
    }
}

/// The knobs `algorithm` takes, in the table's order, the seed last.
pub fn taken_by(algorithm: Algorithm) -> impl Iterator<Item = &'static Knob> {
    KNOBS
        .iter()
        .chain([&SEED])
        .filter(move |knob| knob.takes(algorithm))
}

/// The knobs `algorithm` takes on `game`, with that game's defaults and limits, described for
/// `GET /algorithms`. A test checks each against what [`player`] accepts.
pub fn knobs(algorithm: Algorithm, game: &GameRef) -> Vec<KnobInfo> {
    taken_by(algorithm)
        .map(|knob| knob.on(algorithm, game))
        .collect()
}

/// The upper bound of every numeric knob, as `GET /limits` gives them (`max_depth`, ...).
pub fn maxima() -> Map<String, Value> {
    KNOBS
        .iter()
        .filter_map(|knob| {
            let max = match knob.kind {
                Kind::Integer { max, .. } => json!(max),
                Kind::Number { max, .. } => json!(max),
                Kind::Boolean { .. } | Kind::Choice { .. } => return None,
            };
            Some((format!("max_{}", knob.name), max))
        })
        .collect()
}

/// The algorithm `name` names, or the problem of a name that names none.
pub fn algorithm(name: &str) -> Result<Algorithm, Problem> {
    name.parse().map_err(|_| {
        let names = Algorithm::ALL.map(Algorithm::name);
        names::unknown("algorithm", "algorithm", name, &names)
    })
}

/// A knob that no algorithm has, written `ALGORITHM:KNOB=VALUE`: the one probably meant among
/// the algorithm's knobs (every knob's when the algorithm is unknown too), and the list of them.
fn unknown_knob(given: &str, algorithm_name: &str) -> Problem {
    let (whose, knobs): (String, Vec<&str>) = match algorithm(algorithm_name) {
        Ok(algorithm) => (
            format!("{algorithm}'s knobs are"),
            taken_by(algorithm)
                .map(|knob| knob.name)
                .filter(|&name| name != SEED.name)
                .collect(),
        ),
        Err(_) => (
            "the knobs are".to_owned(),
            KNOBS.iter().map(|knob| knob.name).collect(),
        ),
    };
    let suggestion = names::closest(given, &knobs)
        .map(|name| format!(": did you mean {name}?"))
        .unwrap_or_else(|| ".".to_owned());
    let listed = if knobs.is_empty() {
        "none".to_owned()
    } else {
        knobs.join(", ")
    };
    Problem::malformed(format!(
        "unknown knob {given}{suggestion} {whose}: {listed}"
    ))
}

/// A request's unknown field, answered with the fields that request could have meant: its own
/// (`own`), and the knobs of the algorithm it names (its game's default when it names none),
/// rather than every knob of every algorithm. Any other problem is left as it is.
pub(crate) fn offer_the_algorithms_fields(problem: Problem, body: &[u8], own: &[&str]) -> Problem {
    let Some(given) = problem.field.clone() else {
        return problem;
    };
    let Ok(Value::Object(request)) = serde_json::from_slice::<Value>(body) else {
        return problem;
    };
    offer(problem, &given, &request, &request, own, "The fields are")
}

/// A tournament player's unknown field (`players[1].dept`), answered as
/// [`offer_the_algorithms_fields`] answers a request's: the player's own fields (`own`), and
/// the knobs of its algorithm on the tournament's game.
pub(crate) fn offer_a_players_fields(problem: Problem, body: &[u8], own: &[&str]) -> Problem {
    let Some(field) = problem.field.clone() else {
        return problem;
    };
    let Some((index, given)) = field
        .strip_prefix("players[")
        .and_then(|rest| rest.split_once("]."))
        .and_then(|(index, given)| Some((index.parse::<usize>().ok()?, given)))
    else {
        return problem;
    };
    let Ok(Value::Object(request)) = serde_json::from_slice::<Value>(body) else {
        return problem;
    };
    let Some(Value::Object(player)) = request
        .get("players")
        .and_then(|players| players.get(index))
    else {
        return problem;
    };
    offer(
        problem,
        given,
        &request,
        player,
        own,
        "A player's fields are",
    )
}

/// `problem` for the unknown field `given`, with the fields `player` could have meant: `own`,
/// then `algorithm` and the knobs of the algorithm it names on `request`'s game (but those
/// already among `own`).
fn offer(
    problem: Problem,
    given: &str,
    request: &serde_json::Map<String, Value>,
    player: &serde_json::Map<String, Value>,
    own: &[&str],
    lead: &str,
) -> Problem {
    if !problem.detail.starts_with("unknown field `") {
        return problem;
    }
    let Ok(game) = super::game(request.get("game").and_then(Value::as_str)) else {
        return problem;
    };
    let name = player
        .get("algorithm")
        .and_then(Value::as_str)
        .unwrap_or(game.declaration.default_algorithm);
    let Ok(algorithm) = algorithm(name) else {
        return problem;
    };
    let mut fields: Vec<&str> = own.to_vec();
    fields.push("algorithm");
    fields.extend(
        taken_by(algorithm)
            .map(|knob| knob.name)
            .filter(|name| !own.contains(name)),
    );
    let suggestion = names::closest(given, &fields)
        .map(|name| format!(": did you mean `{name}`?"))
        .unwrap_or_else(|| ".".to_owned());
    let listed = |names: &[&str]| {
        names
            .iter()
            .map(|name| format!("`{name}`"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let place = problem
        .detail
        .rfind(" (at line ")
        .map_or("", |at| &problem.detail[at..]);
    let detail = format!(
        "unknown field `{given}`{suggestion} {lead}: {}, and {algorithm}'s knobs: {}{place}",
        listed(&fields[..own.len() + 1]),
        listed(&fields[own.len() + 1..]),
    );
    Problem { detail, ..problem }
}

/// A player's strategy on `game`: its algorithm (the game's default when it names none), each
/// knob it gives checked and put in place, and the whole fitted to the game's limits
/// ([`fit_to_game`]).
///
/// A sampler (mcs, mcts) given a time (`time_limit_ms`) and no count samples until the time:
/// its default count would stop it long before.
pub fn player(game: &GameRef, spec: &PlayerSpec) -> Result<Strategy, Problem> {
    player_on_time(game, spec, false)
}

/// [`player`], for a player that will be given a time (`timed`: a tournament's `tc`, say):
/// a sampler with no count of its own samples until that time.
pub fn player_on_time(game: &GameRef, spec: &PlayerSpec, timed: bool) -> Result<Strategy, Problem> {
    let name = spec
        .algorithm
        .as_deref()
        .unwrap_or(game.declaration.default_algorithm);
    let algorithm = algorithm(name)?;
    let given = || {
        KNOBS
            .iter()
            .zip(&spec.knobs)
            .filter_map(|(knob, given)| Some((knob, given.as_ref()?)))
    };
    // Every knob the algorithm does not take is refused before any value is judged.
    if let Some((knob, _)) = given().find(|(knob, _)| !knob.takes(algorithm)) {
        return Err(not_for(knob.name, algorithm));
    }
    let mut strategy = Strategy::with_defaults(algorithm);
    if timed || spec.given(TIME_LIMIT_MS).is_some() {
        // Set first, so that a count given beside the time still applies: then whichever
        // limit comes first stops the sampling.
        strategy = strategy.sampling_until_stopped();
    }
    for (knob, given) in given() {
        knob.set(given, game, &mut strategy)?;
    }
    fit_to_game(game, strategy)
}

/// Fits a strategy to the game it will play, within the limits the game declares, so that no
/// search runs unbounded: minimax and negamax may need a depth, at most the game's deepest;
/// alphabeta, solver and engine deepen within the game's default time limit; `traps` (which
/// searches every reply to the end) may be refused.
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
        Strategy::Engine(mut params) => {
            params.time_limit = params.time_limit.or(default_time_limit);
            Strategy::Engine(params)
        }
        other => other,
    })
}

/// The problem of a seed given to a search that draws nothing: an exact algorithm with a
/// tiebreak other than random.
pub fn seed_unused(strategy: &Strategy) -> Problem {
    let algorithm = strategy.algorithm();
    if SEED.takes(algorithm) {
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
    let takes: Vec<&str> = taken_by(algorithm).map(|knob| knob.name).collect();
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
pub fn in_range(name: &str, value: i128, min: u64, max: u64) -> Result<u64, Problem> {
    if (i128::from(min)..=i128::from(max)).contains(&value) {
        Ok(value as u64)
    } else {
        Err(Problem::invalid(
            name,
            format!("{name} must be between {min} and {max}, got {value}"),
        ))
    }
}

/// An optional field's value, if it is within `min..=max` (see [`in_range`]).
pub fn optional_in_range(
    name: &str,
    value: Option<i128>,
    min: u64,
    max: u64,
) -> Result<Option<u64>, Problem> {
    value
        .map(|value| in_range(name, value, min, max))
        .transpose()
}

#[cfg(test)]
mod tests;
