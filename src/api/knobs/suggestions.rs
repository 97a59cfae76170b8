//! The fields a request probably meant, when it gives one that no algorithm or request has:
//! among the request's own and the knobs of the algorithm it names, not every knob of every
//! algorithm.

use serde_json::Value;

use super::{KNOBS, SEED, algorithm, taken_by, taken_on};
use crate::api::{Problem, names};

/// A knob that no algorithm has, written `ALGORITHM:KNOB=VALUE`: the one probably meant among
/// the algorithm's knobs (every knob's when the algorithm is unknown too), and the list of them.
pub(super) fn unknown_knob(given: &str, algorithm_name: &str) -> Problem {
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
    let Ok(game) = crate::api::game(request.get("game").and_then(Value::as_str)) else {
        return problem;
    };
    let name =
        player
            .get("algorithm")
            .and_then(Value::as_str)
            .unwrap_or(match player.get("level") {
                Some(_) => "engine",
                None => game.declaration.default_algorithm,
            });
    let Ok(algorithm) = algorithm(name) else {
        return problem;
    };
    let mut fields: Vec<&str> = own.to_vec();
    fields.push("algorithm");
    fields.extend(
        taken_on(algorithm, &game)
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
