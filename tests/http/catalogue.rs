//! What the service says of itself: routes, `openapi.yaml`, the catalogue, the limits, the page.

use super::*;

#[tokio::test]
async fn discovery_routes() {
    let url = start().await;
    let client = Client::new();
    let health: Value = get_json(&url, "/healthz").await;
    assert_eq!(health, json!({"status": "ok"}));
    let games: Value = get_json(&url, "/games").await;
    assert_eq!(games[0]["name"], "tictactoe");
    assert_eq!(games[0]["start"], ".../.../...");
    let algorithms: Value = get_json(&url, "/algorithms").await;
    let names: Vec<_> = algorithms
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "random",
            "minimax",
            "negamax",
            "alphabeta",
            "mcs",
            "mcts",
            "alphazero",
            "solver",
            "engine"
        ]
    );
    // alphazero is offered only where a network was trained: not on chess.
    let chess: Value = get_json(&url, "/algorithms?game=chess").await;
    assert!(
        chess
            .as_array()
            .unwrap()
            .iter()
            .all(|algorithm| algorithm["name"] != "alphazero")
    );
    let mcts = &algorithms[5];
    let simulations = mcts["knobs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|k| k["name"] == "simulations")
        .unwrap();
    assert_eq!(simulations["default"], 100);
    assert_eq!(simulations["maximum"], 1_000_000);
    let spec = client
        .get(format!("{url}/openapi.yaml"))
        .send()
        .await
        .unwrap();
    assert_eq!(spec.headers()["content-type"], "application/yaml");
    assert_eq!(spec.text().await.unwrap(), OPENAPI_YAML);
}

#[derive(serde::Deserialize)]
struct Spec {
    paths: BTreeMap<String, BTreeMap<String, serde::de::IgnoredAny>>,
}

#[test]
fn the_router_and_openapi_yaml_have_the_same_routes() {
    let spec: Spec = serde_saphyr::from_str(OPENAPI_YAML).expect("openapi.yaml parses");
    let in_spec: BTreeSet<(String, String)> = spec
        .paths
        .iter()
        .flat_map(|(path, methods)| {
            methods
                .keys()
                .map(move |method| (path.clone(), method.to_uppercase()))
        })
        .collect();
    let in_router: BTreeSet<(String, String)> = routes()
        .into_iter()
        .map(|(path, method, _)| (path.to_owned(), method.to_string()))
        .collect();
    assert_eq!(
        in_router, in_spec,
        "routes in the router vs in openapi.yaml"
    );
}

#[tokio::test]
async fn the_playground_is_one_page_that_loads_nothing_from_elsewhere() {
    let url = start().await;
    let response = Client::new().get(format!("{url}/")).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(
        response.headers()["content-type"],
        "text/html; charset=utf-8"
    );
    let policy = response.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .to_owned();
    assert!(policy.contains("default-src 'none'"), "{policy}");
    assert!(policy.contains("connect-src 'self'"), "{policy}");
    let page = response.text().await.unwrap();
    assert!(page.contains("<title>Sente playground</title>"));
    // Every src and href is the page's own (a path, a fragment, or inline data).
    for attribute in ["src=\"", "href=\""] {
        for (at, _) in page.match_indices(attribute) {
            let value = &page[at + attribute.len()..];
            assert!(
                value.starts_with('/') || value.starts_with('#') || value.starts_with("data:"),
                "{}",
                &value[..value.len().min(60)]
            );
        }
    }
    // It knows no game by name: it learns them from GET /games.
    for name in sente::games::NAMES {
        assert!(
            !page.contains(&format!("\"{name}\"")),
            "the page names {name}"
        );
    }
    // What it calls is this API.
    for path in [
        "\"/move\"",
        "\"/analyze\"",
        "\"/tournament\"",
        "\"/algorithms\"",
        "\"/games\"",
        "\"/position\"",
    ] {
        assert!(page.contains(path), "{path}");
    }
}

/// `GET /algorithms?game=...` gives each knob's default and limits on that game, as the checks
/// apply them.
#[tokio::test]
async fn algorithms_are_described_per_game() {
    let url = start().await;
    let knob = |algorithms: &Value, algorithm: &str, name: &str| -> Value {
        algorithms
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["name"] == algorithm)
            .and_then(|a| {
                a["knobs"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|k| k["name"] == name)
            })
            .cloned()
            .unwrap_or_else(|| panic!("{algorithm} {name}"))
    };
    let tictactoe = get_json(&url, "/algorithms").await;
    let connect4 = get_json(&url, "/algorithms?game=connect4").await;
    assert_eq!(tictactoe[0]["game"], "tictactoe");
    assert_eq!(connect4[0]["game"], "connect4");
    assert_eq!(
        knob(&tictactoe, "alphabeta", "time_limit_ms")["default"],
        Value::Null
    );
    assert_eq!(
        knob(&connect4, "alphabeta", "time_limit_ms")["default"],
        1000
    );
    assert_eq!(knob(&tictactoe, "minimax", "depth")["maximum"], 64);
    assert_eq!(knob(&connect4, "minimax", "depth")["maximum"], 9);
    assert_eq!(knob(&connect4, "minimax", "depth")["required"], true);
    assert_eq!(
        knob(&connect4, "solver", "tiebreak")["values"],
        json!(["first", "random"])
    );
    // What the catalogue says is what a request meets.
    problem(
        &url,
        "/move",
        json!({"game": "connect4", "moves": [], "algorithm": "minimax", "depth": 10}),
        422,
    )
    .await;
    let unknown = Client::new()
        .get(format!("{url}/algorithms?game=connect-four"))
        .send()
        .await
        .unwrap();
    let unknown = assert_problem(unknown, 422, "?game=connect-four").await;
    assert!(
        unknown["detail"]
            .as_str()
            .unwrap()
            .contains("Did you mean \"connect4\"?")
    );
}

/// The spec's knobs are the table's ([`sente::api::knobs::KNOBS`]): the same names, types,
/// bounds and values, each described as taken by the algorithms the table says; and the
/// algorithms are the service's. The spec follows the one declaration of each knob, or this
/// fails.
#[test]
fn the_specs_knobs_are_the_tables() {
    use sente::api::knobs::{KNOBS, Kind, PLAYER_FIELDS};
    let spec: Value = serde_saphyr::from_str(OPENAPI_YAML).expect("openapi.yaml parses");
    let knobs = &spec["components"]["schemas"]["Knobs"]["properties"];
    let in_spec: BTreeSet<&str> = knobs
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    let declared: BTreeSet<&str> = PLAYER_FIELDS.into_iter().collect();
    assert_eq!(in_spec, declared);
    for knob in &KNOBS {
        let schema = &knobs[knob.name];
        let (kind, minimum, maximum) = match knob.kind {
            Kind::Integer { min, max, .. } => ("integer", json!(min), json!(max)),
            Kind::Number { min, max, .. } => ("number", json!(min), json!(max)),
            Kind::Boolean { .. } => ("boolean", Value::Null, Value::Null),
            Kind::Choice { .. } | Kind::Weights { .. } => ("string", Value::Null, Value::Null),
        };
        assert_eq!(schema["type"], kind, "{}", knob.name);
        assert_eq!(
            schema["minimum"].as_f64(),
            minimum.as_f64(),
            "{}",
            knob.name
        );
        assert_eq!(
            schema["maximum"].as_f64(),
            maximum.as_f64(),
            "{}",
            knob.name
        );
        let takes: Vec<&str> = knob.algorithms().map(|a| a.name()).collect();
        let description = schema["description"].as_str().unwrap_or_default();
        assert!(
            description.starts_with(&format!("{}. ", takes.join(", "))),
            "{}: the spec's description should begin with the algorithms that take it ({}.): \
             {description:?}",
            knob.name,
            takes.join(", ")
        );
    }
    // The tiebreaks are the same everywhere (the evaluations are each game's own).
    let game = sente::api::game(None).unwrap();
    let tiebreak = sente::api::knobs::knobs(sente::search::Algorithm::Solver, &game)
        .into_iter()
        .find(|knob| knob.name == "tiebreak")
        .unwrap();
    assert_eq!(knobs["tiebreak"]["enum"], json!(tiebreak.values.unwrap()));
    let algorithms: Vec<&str> = spec["components"]["schemas"]["Algorithm"]["enum"]
        .as_array()
        .unwrap()
        .iter()
        .map(|value| value.as_str().unwrap())
        .collect();
    assert_eq!(algorithms, sente::search::Algorithm::ALL.map(|a| a.name()));
}

/// `GET /limits` answers exactly the fields the spec lists, all of them required, with every
/// numeric knob's maximum from the table.
#[tokio::test]
async fn the_limits_are_the_specs_and_the_tables() {
    let spec: Value = serde_saphyr::from_str(OPENAPI_YAML).expect("openapi.yaml parses");
    let schema = &spec["paths"]["/limits"]["get"]["responses"]["200"]["content"]["application/json"]
        ["schema"];
    let in_spec: BTreeSet<&str> = schema["properties"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    let required: BTreeSet<&str> = schema["required"]
        .as_array()
        .unwrap()
        .iter()
        .map(|field| field.as_str().unwrap())
        .collect();
    assert_eq!(required, in_spec);
    let limits = get_json(&start().await, "/limits").await;
    let answered: BTreeSet<&str> = limits
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(answered, in_spec);
    // A search's threads hold as many heavy slots: the service's slots bound the knob.
    assert_eq!(limits["max_threads"], limits["heavy_slots"]);
    for (name, maximum) in sente::api::knobs::maxima() {
        if name == "max_nodes" || name == "max_threads" {
            // The service's own node limit, which bounds the engine's `nodes` knob too; and
            // its slots, which bound `threads`.
            continue;
        }
        assert_eq!(limits[&name], maximum, "{name}");
    }
}

/// The spec's example of a malformed request is the service's answer to it.
#[tokio::test]
async fn the_specs_example_of_a_malformed_request_is_the_answer() {
    let spec: Value = serde_saphyr::from_str(OPENAPI_YAML).expect("openapi.yaml parses");
    let example = &spec["components"]["responses"]["Malformed"]["content"]["application/problem+json"]
        ["example"];
    let answer = problem(&start().await, "/move", json!({"bord": "X........"}), 400).await;
    for field in ["type", "title", "status", "detail", "field"] {
        assert_eq!(answer[field], example[field], "{field}");
    }
}
