//! External engines' options: those `--engine` fixes, checked when the engine is configured,
//! and those a request adds, checked against what the engine lists and what its operator lets
//! a request set ([`EngineConfig::may_set`], [`EngineConfig::operator_max`]).

use super::EngineConfig;
use crate::api::{Problem, names};
use crate::game::text::excerpt;

/// A request's option for `engine`, checked against the options the engine lists and what
/// its operator lets a request set: the option's name as the engine spells it, and its value.
pub(super) fn engine_option(
    engine: &EngineConfig,
    name: &str,
    value: &serde_json::Value,
) -> Result<(String, String), Problem> {
    let field = format!("options.{name}");
    let value = match value {
        serde_json::Value::String(text) => text.clone(),
        serde_json::Value::Bool(_) | serde_json::Value::Number(_) => value.to_string(),
        _ => {
            return Err(Problem::invalid(
                field,
                "an option's value is a string, a number or a boolean",
            ));
        }
    };
    // A line break would end the engine's command and start another.
    if [name, &value]
        .iter()
        .any(|text| text.contains(['\n', '\r']))
        || name.contains(" value ")
    {
        return Err(Problem::invalid(
            field,
            "an option's name and value are one line each, and the name does not contain \" value \"",
        ));
    }
    let Some(listed) = &engine.listed else {
        // Not started yet (an engine made in code, not at `--engine`): passed on as given.
        return Ok((name.to_owned(), value));
    };
    let Some(option) = engine.listed_option(name) else {
        return Err(Problem::invalid(field, no_such_option(engine, name)));
    };
    if !engine.may_set(option) {
        let settable: Vec<&str> = listed
            .iter()
            .filter(|option| engine.may_set(option))
            .map(|option| option.name.as_str())
            .collect();
        let fixed = engine
            .options
            .iter()
            .any(|(fixed, _)| fixed.eq_ignore_ascii_case(&option.name));
        let why = if fixed {
            "is set by the service's operator (--engine)"
        } else {
            "is not one the service's operator lets a request set"
        };
        return Err(Problem::invalid(
            field,
            format!(
                "{}'s option {} {why}. A request may set: {}.",
                engine.name,
                option.name,
                if settable.is_empty() {
                    "none".to_owned()
                } else {
                    settable.join(", ")
                }
            ),
        ));
    }
    option
        .kind
        .check(&value)
        .map_err(|why| Problem::invalid(&field, format!("{} {why}", option.name)))?;
    if let Some(max) = engine.operator_max(&option.name) {
        let given: u64 = value.parse().unwrap_or(u64::MAX);
        if given > max {
            return Err(Problem::invalid(
                field,
                format!(
                    "{} is at most {max} on this service (the operator's limit), got {}",
                    option.name,
                    excerpt(&value)
                ),
            ));
        }
    }
    Ok((option.name.clone(), value))
}

/// Reads `--engine`'s text and starts the engine once to learn its options, against which
/// the options given there are checked: a misspelt option is an error at start, not an option
/// the engine silently ignores for every game.
pub fn configure_engine(text: &str) -> Result<EngineConfig, String> {
    let config = EngineConfig::parse(text)?;
    let name = config.name.clone();
    let config = config
        .probe()
        .map_err(|why| format!("{name} did not start: {why}"))?;
    let unknown = |option: &str| no_such_option(&config, option);
    for (option, value) in &config.options {
        let listed = config
            .listed_option(option)
            .ok_or_else(|| unknown(option))?;
        listed
            .kind
            .check(value)
            .map_err(|why| format!("{name}'s {} {why}", listed.name))?;
    }
    for option in config.settable.iter().flatten() {
        config
            .listed_option(option)
            .ok_or_else(|| unknown(option))?;
    }
    Ok(config)
}

/// That `engine` lists no option `name`: the one probably meant, and those it lists.
pub(super) fn no_such_option(engine: &EngineConfig, name: &str) -> String {
    let names: Vec<&str> = engine
        .listed
        .iter()
        .flatten()
        .map(|option| option.name.as_str())
        .collect();
    let suggestion = names::closest(name, &names)
        .map(|close| format!(" Did you mean {close:?}?"))
        .unwrap_or_default();
    // An engine that lists none (a GTP engine lists no options: its settings are its
    // command line's) is said so, not given an empty list.
    let listed = if names.is_empty() {
        match engine.protocol {
            crate::tournament::engines::Protocol::Gtp => {
                " GTP engines have no options: set it up with the arguments it is started \
                 with, args= (GRhino's level 3: args=-l 3)"
                    .to_owned()
            }
            _ => " It lists none.".to_owned(),
        }
    } else {
        format!(" Its options are: {}.", names.join(", "))
    };
    format!(
        "{} has no option {:?}.{suggestion}{listed}",
        engine.name,
        excerpt(name)
    )
}
