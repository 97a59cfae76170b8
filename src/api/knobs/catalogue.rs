//! The knobs as `GET /algorithms` describes them on a game, and their maxima for
//! `GET /limits`.

use serde_json::{Map, Value, json};

use super::{KNOBS, Kind, Knob, KnobInfo, taken_on};
use crate::api::GameRef;
use crate::search::Algorithm;

impl Knob {
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
            // Of learnt weights, the shipped: a request over HTTP has no shelf of them read.
            Kind::Choice { values, .. }
            | Kind::Weights {
                shipped: values, ..
            } => {
                let values = values(game);
                let default = json!(values.first());
                ("string", Value::Null, Value::Null, Some(values), default)
            }
        };
        let mut info = KnobInfo {
            name: self.name,
            label: self.label.into(),
            kind,
            minimum,
            maximum,
            values,
            default,
            required: false,
            description: self.description.into(),
        };
        (self.on_game)(&mut info, algorithm, game);
        // What it means to this game's engine, where the game says more.
        if algorithm == Algorithm::Engine
            && let Some(note) = self.engine_note(game).filter(|note| !note.is_empty())
        {
            info.description = format!("{} {note}", info.description).into();
        }
        info
    }
}

/// The knobs `algorithm` takes on `game`, with that game's defaults and limits, described for
/// `GET /algorithms`. A test checks each against what [`player`](super::player) accepts.
pub fn knobs(algorithm: Algorithm, game: &GameRef) -> Vec<KnobInfo> {
    taken_on(algorithm, game)
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
                Kind::Boolean { .. } | Kind::Choice { .. } | Kind::Weights { .. } => return None,
            };
            Some((format!("max_{}", knob.name), max))
        })
        .collect()
}
