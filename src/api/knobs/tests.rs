//! Tests generated from the table: every knob, every algorithm, every game.

use std::time::Duration;

use serde_json::{Map, Value, json};

use super::*;
use crate::api::game;
use crate::learn::weights::{Learnt, NamedWeights};
use crate::search::{
    Algorithm as A, AlphaBetaParams, DEFAULT_SIMULATIONS, Enhancements, MctsParams,
};

/// Every game of the registry.
fn games() -> Vec<GameRef> {
    crate::games::NAMES
        .iter()
        .map(|name| game(Some(name)).unwrap())
        .collect()
}

fn spec(json: Value) -> PlayerSpec {
    PlayerSpec::from_json(json.to_string().as_bytes()).unwrap()
}

/// A player of `algorithm` with knob `name` set to `value` (or without it), checked for
/// `game` as a request is, with the knobs the game requires at their least unless the one
/// under test is one.
fn checked(
    game: &GameRef,
    algorithm: Algorithm,
    knob: Option<(&str, Value)>,
) -> Result<Strategy, Problem> {
    checked_on(game, algorithm, knob, &shelf(game))
}

/// [`checked`], with `shelf` the weights the command read.
fn checked_on(
    game: &GameRef,
    algorithm: Algorithm,
    knob: Option<(&str, Value)>,
    shelf: &[NamedWeights],
) -> Result<Strategy, Problem> {
    let mut object = Map::new();
    object.insert("algorithm".into(), json!(algorithm.name()));
    for required in knobs(algorithm, game).iter().filter(|knob| knob.required) {
        if knob.as_ref().is_none_or(|(name, _)| *name != required.name) {
            object.insert(required.name.into(), required.minimum.clone());
        }
    }
    if let Some((name, value)) = knob {
        object.insert(name.into(), value);
    }
    player_on_time(game, &spec(Value::Object(object)), false, shelf)
}

/// Two weights of `game`'s of each kind, as a command that read them offers them to the
/// `weights` and `net` knobs.
fn shelf(game: &GameRef) -> Vec<NamedWeights> {
    [Learnt::Evaluation, Learnt::Network]
        .into_iter()
        .flat_map(|what| ["read-1", "read-2"].map(|name| (what, name)))
        .map(|(what, name)| NamedWeights::of(what, name, game.name, name.len()).unwrap())
        .collect()
}

/// A value of the knob's type that the table accepts on `game` (its least, its first).
fn some_value(knob: &Knob, algorithm: Algorithm, game: &GameRef) -> Value {
    let info = knob.on(algorithm, game);
    match knob.kind {
        Kind::Integer { .. } | Kind::Number { .. } => info.minimum,
        Kind::Boolean { .. } => json!(true),
        // A game may have none of a choice's values (the networks of a game without any).
        Kind::Choice { .. } => json!(info.values.unwrap().first().copied().unwrap_or("none")),
        Kind::Weights { .. } => json!(info.values.unwrap().first().copied().unwrap_or("read-1")),
    }
}

/// Each knob is refused, by name, by every algorithm that does not take it, in every game
/// (of the engine's knobs, those the game's engine does not declare), and the refusal lists
/// what the algorithm does take there.
#[test]
fn every_knob_is_refused_by_every_algorithm_that_does_not_take_it() {
    let mut refusals = 0;
    for game in &games() {
        for knob in &KNOBS {
            for algorithm in Algorithm::ALL
                .into_iter()
                .filter(|a| offered(*a, game) && !knob.takes_on(*a, game))
            {
                // Any value of the knob's type: the refusal comes before the value is judged.
                let value = some_value(knob, A::AlphaBeta, game);
                let context = format!("{} {algorithm} {}", game.name, knob.name);
                let problem = checked(game, algorithm, Some((knob.name, value))).unwrap_err();
                assert_eq!(problem.status, 422, "{context}");
                assert_eq!(problem.field.as_deref(), Some(knob.name), "{context}");
                let takes: Vec<_> = taken_on(algorithm, game).map(|knob| knob.name).collect();
                let whom = if knob.takes(algorithm) {
                    format!("{}'s {algorithm}", game.name)
                } else {
                    algorithm.to_string()
                };
                assert!(
                    problem.detail.starts_with(&format!(
                        "{} does not apply to {whom}, which takes: ",
                        knob.name
                    )) && (takes.is_empty() || problem.detail.ends_with(&takes.join(", "))),
                    "{context}: {problem}"
                );
                refusals += 1;
            }
        }
    }
    assert!(refusals >= KNOBS.len() * games().len(), "{refusals}");
}

/// Each numeric knob's range, as the catalogue states it on each game for each algorithm, is
/// enforced at both ends: the bounds accepted, one past either refused with the range said.
#[test]
fn every_range_is_enforced_at_both_ends_in_every_game() {
    for game in &games() {
        for knob in &KNOBS {
            for algorithm in Algorithm::ALL
                .into_iter()
                .filter(|a| offered(*a, game) && knob.takes_on(*a, game))
            {
                let info = knob.on(algorithm, game);
                let context = format!("{} {algorithm} {}", game.name, knob.name);
                let with = |value: Value| checked(game, algorithm, Some((knob.name, value)));
                let (below, above) = match knob.kind {
                    Kind::Integer { .. } => {
                        let (min, max) = (info.minimum.as_u64(), info.maximum.as_u64());
                        (json!(i128::from(min.unwrap()) - 1), json!(max.unwrap() + 1))
                    }
                    Kind::Number { .. } => {
                        let (min, max) = (info.minimum.as_f64(), info.maximum.as_f64());
                        (json!(min.unwrap() - 0.5), json!(max.unwrap() + 0.5))
                    }
                    Kind::Boolean { .. } | Kind::Choice { .. } | Kind::Weights { .. } => continue,
                };
                // The bounds as a refusal writes them (`0`, not `0.0`).
                let bound = |value: &Value| match value.as_u64() {
                    Some(integer) => integer.to_string(),
                    None => value.as_f64().unwrap().to_string(),
                };
                let (min, max) = (bound(&info.minimum), bound(&info.maximum));
                assert!(with(info.minimum.clone()).is_ok(), "{context}");
                assert!(with(info.maximum.clone()).is_ok(), "{context}");
                for (outside, words) in [
                    (below, format!("between {min} and ")),
                    (above, format!(" and {max}")),
                ] {
                    let problem = with(outside.clone()).unwrap_err();
                    assert_eq!(problem.field.as_deref(), Some(knob.name), "{context}");
                    assert!(
                        problem.detail.contains(&words),
                        "{context} {outside}: {problem}"
                    );
                }
            }
        }
    }
}

/// Each knob reaches the strategy of every algorithm that takes it: two different values give
/// two different strategies (a knob listed for an algorithm but put nowhere would not).
#[test]
fn every_knob_reaches_the_strategy_of_every_algorithm_that_takes_it() {
    for game in &games() {
        for knob in &KNOBS {
            for algorithm in Algorithm::ALL
                .into_iter()
                .filter(|a| offered(*a, game) && knob.takes_on(*a, game))
            {
                let info = knob.on(algorithm, game);
                let values = match knob.kind {
                    Kind::Integer { .. } | Kind::Number { .. } => {
                        vec![info.minimum.clone(), info.maximum.clone()]
                    }
                    Kind::Boolean { .. } => vec![json!(false), json!(true)],
                    Kind::Choice { .. } => {
                        let values = info.values.clone().unwrap();
                        values.into_iter().map(|value| json!(value)).collect()
                    }
                    Kind::Weights { .. } => {
                        let shipped = info.values.clone().unwrap().into_iter();
                        let read = ["read-1", "read-2"].into_iter();
                        shipped.chain(read).map(|value| json!(value)).collect()
                    }
                };
                let strategies: Vec<Strategy> = values
                    .iter()
                    .map(|value| checked(game, algorithm, Some((knob.name, value.clone()))))
                    .collect::<Result<_, _>>()
                    .unwrap_or_else(|problem| panic!("{} {algorithm}: {problem}", game.name));
                for (index, strategy) in strategies.iter().enumerate() {
                    for other in &strategies[..index] {
                        assert_ne!(
                            strategy, other,
                            "{} {algorithm} {}: {values:?}",
                            game.name, knob.name
                        );
                    }
                }
            }
        }
    }
}

/// `GET /algorithms?game=...` says what the checks do: a default is what absence means, a
/// required knob is required, a string knob takes exactly its values.
#[test]
fn the_catalogue_says_what_the_checks_accept_in_every_game() {
    for game in &games() {
        for algorithm in Algorithm::ALL.into_iter().filter(|a| offered(*a, game)) {
            for knob in knobs(algorithm, game) {
                let context = format!("{} {algorithm} {}", game.name, knob.name);
                // The seed is the request's, checked with the request.
                if knob.name == SEED.name {
                    continue;
                }
                let with = |value: Value| checked(game, algorithm, Some((knob.name, value)));
                let without = checked(game, algorithm, Some((knob.name, Value::Null)));
                assert_eq!(without.is_err(), knob.required, "{context}");
                if !knob.default.is_null() {
                    assert_eq!(with(knob.default.clone()), without, "{context}");
                }
                if knob.kind == "string" {
                    let values = knob.values.as_ref().unwrap();
                    let candidates = Tiebreak::ALL
                        .map(Tiebreak::name)
                        .into_iter()
                        .chain(values.iter().copied());
                    for value in candidates {
                        let accepted = with(json!(value)).is_ok();
                        assert_eq!(accepted, values.contains(&value), "{context} {value}");
                    }
                }
            }
        }
    }
}

/// `GET /limits` gives the maximum of every numeric knob, and only those.
#[test]
fn the_maxima_are_the_tables() {
    let maxima = maxima();
    for knob in &KNOBS {
        let numeric = matches!(knob.kind, Kind::Integer { .. } | Kind::Number { .. });
        let key = format!("max_{}", knob.name);
        assert_eq!(maxima.contains_key(&key), numeric, "{key}");
    }
    assert_eq!(maxima["max_depth"], json!(MAX_DEPTH));
    assert_eq!(maxima["max_uct_c"], json!(100.0));
}

#[test]
fn defaults_and_knobs_build_strategies() {
    let tictactoe = game(None).unwrap();
    assert_eq!(
        player(&tictactoe, &PlayerSpec::default()),
        Ok(Strategy::with_defaults(A::AlphaBeta))
    );
    let mcts = spec(json!({"algorithm": "mcts", "simulations": 500, "uct_c": 1}));
    assert_eq!(
        player(&tictactoe, &mcts),
        Ok(Strategy::mcts(MctsParams {
            simulations: 500,
            uct_c: 1.0,
            ..MctsParams::default()
        }))
    );
    let alphabeta = spec(json!({"algorithm": "alphabeta", "depth": 3, "pvs": true}));
    assert_eq!(
        player(&tictactoe, &alphabeta),
        Ok(Strategy::alphabeta(AlphaBetaParams {
            depth: Some(3),
            enhancements: Enhancements {
                pvs: true,
                ..Enhancements::NONE
            },
            ..AlphaBetaParams::textbook(None)
        }))
    );
}

#[test]
fn a_knob_for_another_algorithm_is_rejected_by_name() {
    let problem = player(
        &game(None).unwrap(),
        &spec(json!({"algorithm": "mcts", "depth": 3})),
    )
    .unwrap_err();
    assert_eq!(problem.status, 422);
    assert_eq!(problem.field.as_deref(), Some("depth"));
    assert_eq!(
        problem.detail,
        "depth does not apply to mcts, which takes: simulations, uct_c, expand_threshold, tree_nodes, \
         time_limit_ms, seed"
    );
}

#[test]
fn out_of_range_knobs_say_the_range() {
    let tictactoe = game(None).unwrap();
    let problem = player(
        &tictactoe,
        &spec(json!({"algorithm": "negamax", "depth": 0})),
    );
    assert_eq!(
        problem.unwrap_err().detail,
        "depth must be between 1 and 64, got 0"
    );
    let problem = player(&tictactoe, &spec(json!({"algorithm": "mcts", "uct_c": -1})));
    assert_eq!(
        problem.unwrap_err().detail,
        "uct_c must be between 0 and 100, got -1"
    );
    let problem = player(&tictactoe, &spec(json!({"algorithm": "chess-engine"}))).unwrap_err();
    assert_eq!(problem.field.as_deref(), Some("algorithm"));
}

#[test]
fn the_command_line_writes_a_player_as_the_api_does() {
    let written = PlayerSpec::from_text("mcts:simulations=1000, uct_c=1.5").unwrap();
    assert_eq!(
        written,
        spec(json!({"algorithm": "mcts", "simulations": 1000, "uct_c": 1.5}))
    );
    // A name stays a name, even one that reads as JSON.
    let written = PlayerSpec::from_text("minimax:depth=2,evaluation=true").unwrap();
    assert_eq!(
        written.given("evaluation"),
        Some(&Given::Name("true".into()))
    );
    let problem = PlayerSpec::from_text("alphabeta:depth=deep").unwrap_err();
    assert!(
        problem
            .detail
            .starts_with("depth must be an integer, got the string \"deep\""),
        "{problem}"
    );
    assert!(PlayerSpec::from_text("alphabeta:depth").is_err());
    assert!(PlayerSpec::from_text("alphabeta:depth=1,depth=2").is_err());
    assert!(PlayerSpec::from_text("mcts:seed=1").is_err());
}

#[test]
fn a_sampler_given_a_time_and_no_count_samples_until_the_time() {
    let game = game(Some("chess")).unwrap();
    let count = |json: Value, timed: bool| {
        let strategy = player_on_time(&game, &spec(json), timed, &[]).unwrap();
        match strategy.algorithm {
            A::Mcts => (strategy.mcts.simulations, strategy.time_limit),
            A::Mcs => (strategy.playouts, strategy.time_limit),
            other => panic!("{other:?}"),
        }
    };
    let ms = |ms| Some(Duration::from_millis(ms));
    // A time alone: no count stops it first.
    assert_eq!(
        count(json!({"algorithm": "mcts", "time_limit_ms": 100}), false),
        (u32::MAX, ms(100))
    );
    assert_eq!(
        count(json!({"algorithm": "mcs", "time_limit_ms": 100}), false),
        (u32::MAX, ms(100))
    );
    // A tournament's clock gives the time: the same.
    assert_eq!(count(json!({"algorithm": "mcts"}), true), (u32::MAX, None));
    // Both: whichever comes first.
    assert_eq!(
        count(
            json!({"algorithm": "mcts", "simulations": 500, "time_limit_ms": 100}),
            false
        ),
        (500, ms(100))
    );
    // Neither: the default count.
    assert_eq!(
        count(json!({"algorithm": "mcts"}), false),
        (DEFAULT_SIMULATIONS, None)
    );
}

/// Each game's engine declares only knobs the table gives the engine, each once; and steps to
/// turn off exactly when it takes `without`.
#[test]
fn each_games_engine_declares_knobs_of_the_engines() {
    for game in &games() {
        let engine = game.declaration.engine;
        let mut names: Vec<&str> = engine.knobs.iter().map(|(name, _)| *name).collect();
        for name in &names {
            let knob = KNOBS.iter().find(|knob| knob.name == *name);
            assert!(
                knob.is_some_and(|knob| knob.takes(Algorithm::Engine)),
                "{}: {name}",
                game.name
            );
        }
        let declared = names.len();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), declared, "{}: a knob twice", game.name);
        assert_eq!(
            names.contains(&"without"),
            !engine.steps.is_empty(),
            "{}",
            game.name
        );
    }
    // Othello's engine is the kit's with the steps Othello can take: no null move, which it
    // has no pass for.
    let othello = game(Some("othello")).unwrap();
    let takes: Vec<_> = taken_on(Algorithm::Engine, &othello)
        .map(|knob| knob.name)
        .collect();
    assert!(takes.contains(&"nodes") && takes.contains(&"hash_mb") && takes.contains(&"without"));
    let steps = othello.declaration.engine.steps;
    assert!(steps.contains(&"aspiration") && !steps.contains(&"null_move"));
}

/// The knobs every search shares are taken by the algorithms whose records say so, and those
/// are the algorithms the catalogue has always listed for them: a record that says the wrong
/// thing (or a predicate that reads the wrong field) changes a list here.
#[test]
fn the_shared_knobs_are_taken_as_the_records_say() {
    let takers = |name: &str| -> Vec<&str> {
        KNOBS
            .iter()
            .chain([&SEED])
            .find(|knob| knob.name == name)
            .unwrap()
            .algorithms()
            .map(Algorithm::name)
            .collect()
    };
    let exact = ["minimax", "negamax", "alphabeta", "solver"];
    assert_eq!(
        takers("depth"),
        ["minimax", "negamax", "alphabeta", "engine"]
    );
    assert_eq!(takers("evaluation"), takers("depth"));
    assert_eq!(
        takers("time_limit_ms"),
        ["alphabeta", "mcs", "mcts", "alphazero", "solver", "engine"]
    );
    assert_eq!(takers("tiebreak"), exact);
    assert_eq!(
        takers("seed"),
        [
            "random",
            "minimax",
            "negamax",
            "alphabeta",
            "mcs",
            "mcts",
            "alphazero",
            "solver"
        ]
    );
    for algorithm in Algorithm::ALL {
        assert_eq!(
            algorithm.takes_time_limit(),
            takers("time_limit_ms").contains(&algorithm.name()),
            "{algorithm}"
        );
    }
}

/// alphazero plays only the games that ship a network: elsewhere the request is refused at its
/// algorithm, saying why, and the catalogue leaves it out.
#[test]
fn alphazero_is_refused_where_no_network_was_trained() {
    for game in &games() {
        let offered_here = offered(A::AlphaZero, game);
        assert_eq!(offered_here, !(game.networks)().is_empty(), "{}", game.name);
        let listed = crate::api::catalogue::algorithms(game)
            .iter()
            .any(|algorithm| algorithm.name == "alphazero");
        assert_eq!(listed, offered_here, "{}", game.name);
        let result = checked_on(game, A::AlphaZero, None, &[]);
        // A network a command read is played on any game it was trained for.
        let read = Some(("net", json!("read-1")));
        assert!(
            checked_on(game, A::AlphaZero, read, &shelf(game)).is_ok(),
            "{}",
            game.name
        );
        if offered_here {
            assert!(result.is_ok(), "{}", game.name);
        } else {
            let problem = result.unwrap_err();
            assert_eq!(problem.field.as_deref(), Some("algorithm"));
            assert!(
                problem.detail.contains("no network has been trained"),
                "{problem}"
            );
        }
    }
    assert!(offered(A::AlphaZero, &game(Some("tictactoe")).unwrap()));
    assert!(!offered(A::AlphaZero, &game(Some("chess")).unwrap()));
}
