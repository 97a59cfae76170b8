//! The algorithms' knobs, declared once, and a player's checked against them.
//!
//! [`KNOBS`] (`table.rs`) is the table: for each knob its name, its type and range, its
//! default, the algorithms that take it, what it means, how it changes on a game, and the field
//! of the [`Strategy`] its value goes to. Everything else is read from the table: decoding a
//! player's knobs ([`PlayerSpec`], for `/move`, `/analyze` and `/tournament` alike) and
//! checking them (here), the command line's `ALGORITHM:KNOB=VALUE` (`text.rs`), the fields a
//! request probably meant (`suggestions.rs`), `GET /algorithms` and the maxima of `GET /limits`
//! (`catalogue.rs`), the page's forms (drawn from `GET /algorithms`), and the tests that hold
//! `openapi.yaml` and the checks to the table. Which of the engine's knobs a game's engine takes
//! its declaration says ([`EngineDeclaration`](crate::game::EngineDeclaration)).
//!
//! Adding a knob is an entry in the table and its use in the search.
//!
//! The upper bounds are what keeps one request from occupying the machine.

mod catalogue;
mod suggestions;
mod table;
mod text;

use std::borrow::Cow;
use std::time::Duration;

use serde::Serialize;
use serde::de::{self, MapAccess};

use super::object::{Object, deserialize_as_object, integer, value};
use super::{GameRef, Problem, names};
use crate::learn::weights::{self, Learnt, NamedWeights};
use crate::search::{Algorithm, Chance, Record, Stops, Strategy, Tiebreak};

pub use catalogue::{knobs, maxima};
pub(crate) use suggestions::{offer_a_players_fields, offer_the_algorithms_fields};
pub use table::{KNOBS, MAX_CLOCK_MS, MAX_DEPTH, MAX_INCREMENT_MS, MAX_TIME_LIMIT_MS, SEED};
use table::{LEVEL, MOVETIME, TIME_LIMIT_MS};

/// One knob as `GET /algorithms` describes it on a game.
#[derive(Clone, Debug, Serialize)]
pub struct KnobInfo {
    pub name: &'static str,
    /// What a person calls it.
    pub label: Cow<'static, str>,
    /// `integer`, `number`, `boolean` or `string`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// Bounds of numeric knobs; `null` for the others.
    pub minimum: serde_json::Value,
    pub maximum: serde_json::Value,
    /// The values a string knob takes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub values: Option<Vec<&'static str>>,
    /// `null` when absence means "no limit" (depth, time limit) or "drawn" (seed).
    pub default: serde_json::Value,
    /// Whether the game needs the knob: minimax's depth on a game too large to search to the
    /// end. Absent when false.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub required: bool,
    pub description: Cow<'static, str>,
}

/// One knob, everything about it.
#[derive(Clone, Copy, Debug)]
pub struct Knob {
    /// Its name in requests and on the command line.
    pub name: &'static str,
    /// What a person calls it (the page's label).
    pub label: &'static str,
    /// The algorithms that take it; any other refuses it. Of the engine's, a game's engine
    /// takes those its declaration lists.
    pub algorithms: TakenBy,
    pub kind: Kind,
    pub description: &'static str,
    /// How the knob stands on a game for an algorithm, where that differs from the table: a
    /// game's own default, a tighter bound, fewer values, a note.
    pub on_game: fn(&mut KnobInfo, Algorithm, &GameRef),
}

/// A knob's type, range and default, and the field of the strategy its value goes to.
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
    /// One of a list of names, the first the default; the list may be the game's own. Set
    /// with the index of the name chosen, and the name.
    Choice {
        values: fn(&GameRef) -> Vec<&'static str>,
        set: fn(&mut Strategy, usize, &'static str),
    },
    /// The name of learnt weights of kind `what`: one of the game's shipped ones (`shipped`,
    /// the first the default), set by its index, or one the command read from a file (`sente
    /// tournament --weights NAME=FILE`, `--net`, `sente learn`'s generations), which it offers
    /// as a shelf beside the request ([`player_on_time`]), set as the weights themselves.
    Weights {
        what: Learnt,
        shipped: fn(&GameRef) -> Vec<&'static str>,
        set_shipped: fn(&mut Strategy, usize),
        set_read: fn(&mut Strategy, NamedWeights),
    },
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
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerSpec {
    pub algorithm: Option<String>,
    /// The knobs given, in the order of [`KNOBS`].
    pub knobs: [Option<Given>; KNOBS.len()],
}

/// No algorithm and no knob: what a request without a player gives. (Written out: the
/// standard library derives `Default` for arrays of at most 32.)
impl Default for PlayerSpec {
    fn default() -> Self {
        PlayerSpec {
            algorithm: None,
            knobs: std::array::from_fn(|_| None),
        }
    }
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
            Kind::Choice { .. } | Kind::Weights { .. } => {
                value::<_, Option<String>>(key, map)?.map(Given::Name)
            }
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

    /// Each knob given, by name, as the request wrote it: what a tournament's report says of a
    /// player's settings.
    pub fn given_settings(&self) -> impl Iterator<Item = (String, serde_json::Value)> + '_ {
        KNOBS
            .iter()
            .zip(&self.knobs)
            .filter_map(|(knob, given)| Some((knob.name.to_owned(), given.as_ref()?.to_json())))
    }

    /// The value given for the knob named `name`, if any.
    pub fn given(&self, name: &str) -> Option<&Given> {
        let index = KNOBS.iter().position(|knob| knob.name == name)?;
        self.knobs[index].as_ref()
    }

    /// The player with `value` given for the knob called `name`, which must be one of
    /// [`KNOBS`] (a name written in the code, not read from a request).
    pub fn with(mut self, name: &str, value: Given) -> PlayerSpec {
        let index = KNOBS
            .iter()
            .position(|knob| knob.name == name)
            .unwrap_or_else(|| panic!("{name} is no knob of the table"));
        self.knobs[index] = Some(value);
        self
    }

    /// Whether `field` (a problem's) is one of a player's.
    pub fn is_field(field: &str) -> bool {
        PLAYER_FIELDS.contains(&field)
    }
}

/// Which algorithms take a knob.
#[derive(Clone, Copy, Debug)]
pub enum TakenBy {
    /// Those named: the knobs of an algorithm's own settings.
    These(&'static [Algorithm]),
    /// Those whose record says they take it: the settings every search shares (a depth, a
    /// time, a tie-break, a seed), so that a new algorithm's record is all it takes.
    Record(fn(&Record) -> bool),
}

impl Knob {
    /// Whether `algorithm` takes the knob, on some game.
    pub fn takes(&self, algorithm: Algorithm) -> bool {
        match self.algorithms {
            TakenBy::These(algorithms) => algorithms.contains(&algorithm),
            TakenBy::Record(takes) => takes(algorithm.record()),
        }
    }

    /// The algorithms that take it, in [`Algorithm::ALL`]'s order.
    pub fn algorithms(&self) -> impl Iterator<Item = Algorithm> + '_ {
        Algorithm::ALL
            .into_iter()
            .filter(|&algorithm| self.takes(algorithm))
    }

    /// Whether `algorithm` takes the knob on `game`: of the engine's knobs, those the game's
    /// engine declares.
    pub fn takes_on(&self, algorithm: Algorithm, game: &GameRef) -> bool {
        self.takes(algorithm)
            && (algorithm != Algorithm::Engine || self.engine_note(game).is_some())
    }

    /// What the knob means to `game`'s engine beyond the table's words, if its engine takes it.
    fn engine_note(&self, game: &GameRef) -> Option<&'static str> {
        let knobs = game.declaration.engine.knobs;
        knobs
            .iter()
            .find(|(name, _)| *name == self.name)
            .map(|&(_, note)| note)
    }

    /// Checks `given` and puts it into `strategy`; a `weights` name is looked for on `shelf`.
    fn set(
        &self,
        given: &Given,
        game: &GameRef,
        shelf: &[NamedWeights],
        strategy: &mut Strategy,
    ) -> Result<(), Problem> {
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
                // `weights` names things, and is itself a plural.
                let what = if name.ends_with('s') {
                    format!("{name} name")
                } else {
                    name.to_owned()
                };
                if values.is_empty() {
                    return Err(Problem::invalid(
                        name,
                        format!(
                            "unknown {what} {given:?}: {} has none to choose from here",
                            game.name
                        ),
                    ));
                }
                let index = values
                    .iter()
                    .position(|value| value == given)
                    .ok_or_else(|| names::unknown(name, &what, given, &values))?;
                set(strategy, index, values[index]);
            }
            (
                Kind::Weights {
                    what,
                    shipped,
                    set_shipped,
                    set_read,
                },
                Given::Name(given),
            ) => {
                let shipped = shipped(game);
                if let Some(index) = shipped.iter().position(|name| name == given) {
                    set_shipped(strategy, index);
                    return Ok(());
                }
                let read: Vec<&NamedWeights> = weights::of_game(shelf, game.name, what).collect();
                if let Some(found) = read.iter().find(|weights| weights.name() == given) {
                    set_read(strategy, (*found).clone());
                    return Ok(());
                }
                let names: Vec<&str> = shipped
                    .iter()
                    .copied()
                    .chain(read.iter().map(|weights| weights.name()))
                    .collect();
                if names.is_empty() {
                    let option = match what {
                        Learnt::Evaluation => "--weights",
                        Learnt::Network => "--net",
                    };
                    return Err(Problem::invalid(
                        name,
                        format!(
                            "unknown {name} name {given:?}: {} has none to choose from here \
                             (`sente tournament {option} NAME=FILE` reads some)",
                            game.name
                        ),
                    ));
                }
                return Err(names::unknown(name, &format!("{name} name"), given, &names));
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
            Kind::Choice { .. } | Kind::Weights { .. } => "a name",
        }
    }
}

/// Whether `game` offers `algorithm`: every algorithm plays every game, but for alphazero,
/// which plays only where the game has a network to play with.
pub fn offered(algorithm: Algorithm, game: &GameRef) -> bool {
    algorithm != Algorithm::AlphaZero || !(game.networks)().is_empty()
}

/// The knobs `algorithm` takes on some game, in the table's order, the seed last.
pub fn taken_by(algorithm: Algorithm) -> impl Iterator<Item = &'static Knob> {
    KNOBS
        .iter()
        .chain([&SEED])
        .filter(move |knob| knob.takes(algorithm))
}

/// The knobs `algorithm` takes on `game`, in the table's order, the seed last.
pub fn taken_on(algorithm: Algorithm, game: &GameRef) -> impl Iterator<Item = &'static Knob> {
    taken_by(algorithm).filter(move |knob| knob.takes_on(algorithm, game))
}

/// The algorithm `name` names, or the problem of a name that names none.
pub fn algorithm(name: &str) -> Result<Algorithm, Problem> {
    name.parse().map_err(|_| {
        let names = Algorithm::ALL.map(Algorithm::name);
        names::unknown("algorithm", "algorithm", name, &names)
    })
}

/// A player's strategy on `game`: its algorithm (the game's default when it names none), each
/// knob it gives checked and put in place, and the whole fitted to the game's limits
/// ([`fit_to_game`]).
///
/// A sampler (mcs, mcts) given a time (`time_limit_ms`) and no count samples until the time:
/// its default count would stop it long before.
pub fn player(game: &GameRef, spec: &PlayerSpec) -> Result<Strategy, Problem> {
    player_on_time(game, spec, false, &[])
}

/// [`player`], for a player that will be given a time (`timed`: a tournament's `tc`, say):
/// a sampler with no count of its own samples until that time. `shelf` holds the learnt
/// weights the command read from files, which the engine's `weights` knob may name.
pub fn player_on_time(
    game: &GameRef,
    spec: &PlayerSpec,
    timed: bool,
    shelf: &[NamedWeights],
) -> Result<Strategy, Problem> {
    // A level is the engine's: given alone, it names the engine whatever the game's default.
    let name = spec
        .algorithm
        .as_deref()
        .unwrap_or_else(|| match spec.given(LEVEL) {
            Some(_) => Algorithm::Engine.name(),
            None => game.declaration.default_algorithm,
        });
    let algorithm = algorithm(name)?;
    let net_read = weights::of_game(shelf, game.name, Learnt::Network)
        .next()
        .is_some();
    let offered_here = offered(algorithm, game) || (algorithm == Algorithm::AlphaZero && net_read);
    if !offered_here {
        return Err(Problem::invalid(
            "algorithm",
            format!(
                "alphazero does not play {}: no network has been trained for it (GET \
                 /algorithms?game= lists each game's algorithms)",
                game.name
            ),
        ));
    }
    let given = || {
        KNOBS
            .iter()
            .zip(&spec.knobs)
            .filter_map(|(knob, given)| Some((knob, given.as_ref()?)))
    };
    // Every knob the algorithm does not take is refused before any value is judged.
    if let Some((knob, _)) = given().find(|(knob, _)| !knob.takes_on(algorithm, game)) {
        return Err(not_for(knob.name, algorithm, game));
    }
    if spec.given(TIME_LIMIT_MS).is_some() && spec.given(MOVETIME).is_some() {
        return Err(Problem::invalid(
            MOVETIME,
            format!("{MOVETIME} is UCI's name for {TIME_LIMIT_MS}: give one of them, not both"),
        ));
    }
    let mut strategy = Strategy::with_defaults(algorithm);
    if timed || spec.given(TIME_LIMIT_MS).is_some() || spec.given(MOVETIME).is_some() {
        // Set first, so that a count given beside the time still applies: then whichever
        // limit comes first stops the sampling.
        strategy = strategy.sampling_until_stopped();
    }
    for (knob, given) in given() {
        knob.set(given, game, shelf, &mut strategy)?;
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
    if strategy.tiebreak == Tiebreak::Traps && !limits.traps {
        return Err(Problem::invalid(
            "tiebreak",
            format!(
                "tiebreak traps is not available on {name}: it would search every reply to \
                 the end"
            ),
        ));
    }
    let default_time_limit = limits.default_time_limit_ms.map(Duration::from_millis);
    let algorithm = strategy.algorithm;
    let stops = algorithm.record().stops;
    if let Some(limit) = limits
        .full_width_depth
        .filter(|_| stops == Stops::FullWidth)
        && strategy.depth.is_none_or(|depth| depth > limit)
    {
        return Err(Problem::invalid(
            "depth",
            format!(
                "{algorithm} on {name} needs a depth between 1 and {limit}: a full-width search \
                 to the end of the game would not finish"
            ),
        ));
    }
    if strategy.engine.level.is_some() && strategy.engine.elo.is_some() {
        return Err(Problem::invalid(
            "elo",
            "give level or elo, not both: they are two views of one table (docs/levels.md)",
        ));
    }
    // A depth or a node count given (or a level's) is searched whole, within the service's
    // limits, rather than cut short by the game's default time.
    let handicap = crate::search::level::handicap(&game.declaration, &strategy.engine);
    let bounded = strategy.depth.is_some()
        || strategy.engine.nodes.is_some()
        || handicap.is_some_and(|level| level.depth.is_some() || level.nodes.is_some());
    let mut strategy = strategy;
    if stops == Stops::Deepening && !bounded {
        strategy.time_limit = strategy.time_limit.or(default_time_limit);
    }
    Ok(strategy)
}

/// The problem of a seed given to a search that draws nothing: what would make it draw, as
/// its record says how chance enters it (a tie-break, a temperature).
pub fn seed_unused(strategy: &Strategy, game: &GameRef) -> Problem {
    let algorithm = strategy.algorithm;
    let (now, give) = match algorithm.record().chance {
        Chance::TieBreak => (
            format!("with tiebreak {}", strategy.tiebreak.name()),
            "tiebreak random",
        ),
        Chance::Temperature => ("at temperature 0".to_owned(), "a temperature above 0"),
        Chance::Always | Chance::Level | Chance::Never => return not_for("seed", algorithm, game),
    };
    Problem::invalid(
        "seed",
        format!(
            "{algorithm} draws nothing at random {now}, so a seed would change nothing: give \
             {give} with it, or leave it out"
        ),
    )
}

/// The problem of a knob given to an algorithm that does not take it on `game`.
pub fn not_for(knob: &str, algorithm: Algorithm, game: &GameRef) -> Problem {
    let takes: Vec<&str> = taken_on(algorithm, game).map(|knob| knob.name).collect();
    // An engine's knob that this game's engine does not take is said so.
    let whom = match KNOBS.iter().find(|known| known.name == knob) {
        Some(known) if known.takes(algorithm) => format!("{}'s {algorithm}", game.name),
        _ => algorithm.to_string(),
    };
    Problem::invalid(
        knob,
        format!(
            "{knob} does not apply to {whom}, which takes: {}",
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
