//! A player as the command line writes it: `ALGORITHM[:KNOB=VALUE,...]`.

use serde_json::{Map, Value, json};

use super::suggestions::unknown_knob;
use super::{KNOBS, Kind, Knob, PlayerSpec, SEED};
use crate::api::Problem;

impl PlayerSpec {
    /// A player as the command line writes it: `ALGORITHM[:KNOB=VALUE,...]`, such as
    /// `mcts:simulations=1000, uct_c=1.4`. Each value is read as its knob's type, and the whole
    /// is checked as a request is (the same checks, the same words).
    pub fn from_text(text: &str) -> Result<Self, Problem> {
        let (algorithm, knobs) = text.split_once(':').unwrap_or((text, ""));
        Self::from_knobs_text(algorithm, knobs)
    }

    /// `algorithm` with its knobs as the command line writes them: `KNOB=VALUE,...` (`sente
    /// learn`'s `--sprt-knobs`).
    pub fn from_knobs_text(algorithm: &str, knobs: &str) -> Result<Self, Problem> {
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
                    kind: Kind::Choice { .. } | Kind::Weights { .. },
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
}
