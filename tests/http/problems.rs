//! Requests that are wrong, and the problems that say why.

use super::*;

#[tokio::test]
async fn malformed_requests_are_400() {
    let url = start().await;
    for body in ["{", "[1,2]", "\"board\"", ""] {
        let response = post_text(&url, "/move", body).await;
        assert_problem(response, 400, body).await;
    }
    let wrong_type = problem(&url, "/move", json!({"depth": "deep"}), 400).await;
    assert_eq!(wrong_type["field"], "depth", "{wrong_type}");
    // The board's types too: text or an array, whose cells are strings or null.
    for (board, field) in [
        (json!(7), "board"),
        (json!({"cells": "X........"}), "board"),
        (json!(["X", "", 1, "", "", "", "", "", ""]), "board[2]"),
        (
            json!([["X", "", "O"], ["", true, ""], ["", "", ""]]),
            "board[1][1]",
        ),
    ] {
        let body = json!({ "board": board });
        let wrong_type = problem(&url, "/move", body.clone(), 400).await;
        assert_eq!(wrong_type["field"], field, "{body}: {wrong_type}");
        let detail = wrong_type["detail"].as_str().unwrap();
        assert!(detail.contains(" must be "), "{body}: {detail}");
    }
    let unknown = problem(&url, "/move", json!({"bord": "X........"}), 400).await;
    assert!(unknown["detail"].as_str().unwrap().contains("bord"));
    assert_eq!(unknown["field"], "bord", "{unknown}");
    // A field given twice: neither value is silently dropped.
    let body = r#"{"board":"X.O/.X./O..","algorithm":"minimax","algorithm":"alphabeta"}"#;
    let response = post_text(&url, "/move", body).await;
    let twice = assert_problem(response, 400, "algorithm twice").await;
    assert!(
        twice["detail"]
            .as_str()
            .unwrap()
            .contains("duplicate field `algorithm`"),
        "{twice}"
    );
    assert_eq!(twice["field"], "algorithm", "{twice}");
    problem(
        &url,
        "/tournament",
        json!({"players": [], "rounds": 3}),
        400,
    )
    .await;
    problem(&url, "/tournament", json!({"players": "two"}), 400).await;
    let knob = json!({"players": [{}, {"algorithm": "mcts", "simulations": "many"}]});
    let knob = problem(&url, "/tournament", knob, 400).await;
    assert_eq!(knob["field"], "players[1].simulations", "{knob}");
}

#[tokio::test]
async fn a_byte_order_mark_before_the_json_is_ignored() {
    let url = start().await;
    // What a JSON file saved as UTF-8 by some Windows tools starts with.
    let response = post_text(&url, "/move", "\u{FEFF}{\"board\":\"XX.OO....\"}").await;
    assert_eq!(response.status(), 200);
    let answer: Value = response.json().await.unwrap();
    assert_eq!(answer["move"], 2, "{answer}");
    let body = "\u{FEFF}{\"players\":[{},{\"algorithm\":\"random\"}],\"games\":2}";
    let response = post_text(&url, "/tournament", body).await;
    assert_eq!(response.status(), 200);
    // Only one mark, and only at the start: anything else is still not JSON.
    for body in [
        "\u{FEFF}\u{FEFF}{\"board\":\"XX.OO....\"}",
        "{\"board\":\"XX.OO....\"}\u{FEFF}",
        "\u{FEFF}",
    ] {
        let response = post_text(&url, "/move", body).await;
        assert_problem(response, 400, body).await;
    }
}

#[tokio::test]
async fn a_compressed_body_is_refused_with_415() {
    let url = start().await;
    // `{"moves":[]}` through gzip, and the same JSON sent plain under the header: neither may
    // reach the decoder, which would call the first not JSON and answer the second as if the
    // header were not there.
    let gzipped: &[u8] =
        b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\x03\xab\x56\xca\xcd\x2f\x4b\x2d\x56\
        \xb2\x8a\x8e\xad\x05\x00\x64\x1b\xe6\x0c\x0c\x00\x00\x00";
    let post_coded = |coding: &'static str, body: &'static [u8]| {
        Client::new()
            .post(format!("{url}/move"))
            .header("content-type", "application/json")
            .header("content-encoding", coding)
            .body(body)
            .send()
    };
    for (coding, body) in [
        ("gzip", gzipped),
        ("gzip", br#"{"moves":[]}"#),
        ("identity, br", br#"{"moves":[]}"#),
    ] {
        let response = post_coded(coding, body).await.unwrap();
        assert_eq!(
            response.headers()["accept-encoding"],
            "identity",
            "{coding}"
        );
        let problem = assert_problem(response, 415, coding).await;
        let detail = problem["detail"].as_str().unwrap();
        assert!(
            detail.contains(&format!("got content-encoding \"{coding}\"")),
            "{detail}"
        );
    }
    // No coding at all, said in so many words, is a plain body.
    for coding in ["identity", "Identity, identity"] {
        let response = post_coded(coding, br#"{"moves":[]}"#).await.unwrap();
        assert_eq!(response.status(), 200, "{coding}");
    }
}

#[tokio::test]
async fn requests_that_make_no_sense_are_422_naming_the_field() {
    let url = start().await;
    let cases = [
        (
            json!({"board": "XX.OO..Q."}),
            "board",
            "'Q', the 8th character of the text",
        ),
        (json!({"board": "OO......."}), "board", "O has 2 pieces"),
        (json!({"board": "XXXOO...."}), "board", "already over"),
        (
            json!({"board": [["X", "", "O"], ["", "X"], ["O", "", "", ""]]}),
            "board[1]",
            "has 3 cells, this one has 2",
        ),
        // Moves are played from the board: the first is refused on its cell.
        (
            json!({"board": "X........", "moves": [0]}),
            "moves[0]",
            "already taken",
        ),
        (
            json!({"board": ["X", "", "O", "", "Z", "", "", "", ""]}),
            "board[4]",
            "not \"Z\"",
        ),
        (json!({"moves": [4, 4]}), "moves[1]", "already taken"),
        // The position is not optional: "moves": [] is the empty board.
        (
            json!({"algorithm": "minimax"}),
            "board",
            "position is missing",
        ),
        (json!({"board": null}), "board", "position is missing"),
        (json!({"game": "go"}), "game", "unknown game"),
        (
            json!({"algorithm": "deep-blue"}),
            "algorithm",
            "unknown algorithm",
        ),
        (
            json!({"algorithm": "mcts", "depth": 3}),
            "depth",
            "does not apply to mcts",
        ),
        (
            json!({"algorithm": "alphabeta", "seed": 3}),
            "seed",
            "give tiebreak random with it",
        ),
        (
            json!({"algorithm": "mcts", "seed": -1}),
            "seed",
            "seed must be between 0 and 18446744073709551615, got -1",
        ),
        (
            json!({"algorithm": "negamax", "depth": -1}),
            "depth",
            "depth must be between 1 and 64, got -1",
        ),
        (
            json!({"algorithm": "mcts", "uct_c": -1}),
            "uct_c",
            "uct_c must be between 0 and 100, got -1",
        ),
        (
            json!({"game": "TicTacToe"}),
            "game",
            "Did you mean \"tictactoe\"?",
        ),
        (
            json!({"game": "connect-four"}),
            "game",
            "Did you mean \"connect4\"?",
        ),
        (
            json!({"algorithm": "AlphaBeta"}),
            "algorithm",
            "Did you mean \"alphabeta\"?",
        ),
        (
            json!({"algorithm": "negamax", "depth": 0}),
            "depth",
            "between 1 and 64",
        ),
        (
            json!({"algorithm": "mcts", "simulations": 10_000_000}),
            "simulations",
            "between",
        ),
        (
            json!({"algorithm": "mcs", "playouts": 0}),
            "playouts",
            "between",
        ),
    ];
    for (body, field, detail) in cases {
        let problem = problem(&url, "/move", body.clone(), 422).await;
        assert_eq!(problem["field"], field, "{body}: {problem}");
        let text = problem["detail"].as_str().unwrap();
        assert!(text.contains(detail), "{body}: {text}");
    }
    let analyze = problem(&url, "/analyze", json!({"algorithm": "solver"}), 422).await;
    assert_eq!(analyze["field"], "board", "{analyze}");
    let tournament_cases = [
        (json!({"players": [{}]}), "players"),
        // As a move without its position: well formed, and the players are missing.
        (json!({"games": 2}), "players"),
        (
            json!({"players": [{}, {"algorithm": "mcts", "depth": 2}]}),
            "players[1].depth",
        ),
        (json!({"players": [{}, {}], "games": 0}), "games"),
        (json!({"players": [{}, {}], "games": 100_001}), "games"),
        (
            json!({"players": [{}, {}], "start": {"board": "XXXOO...."}}),
            "start.board",
        ),
        (json!({"players": [{}, {}], "start": {}}), "start.board"),
        (json!({"game": "go", "players": [{}, {}]}), "game"),
    ];
    for (body, field) in tournament_cases {
        let problem = problem(&url, "/tournament", body.clone(), 422).await;
        assert_eq!(problem["field"], field, "{body}: {problem}");
    }
}

#[tokio::test]
async fn http_level_errors_are_problems_too() {
    let url = start().await;
    let client = Client::new();
    let response = client.get(format!("{url}/nowhere")).send().await.unwrap();
    let problem = assert_problem(response, 404, "unknown path").await;
    let detail = problem["detail"].as_str().unwrap();
    assert!(!detail.contains("did you mean"), "{detail}");
    // A slip names the route meant.
    for (path, meant) in [("/move/", "/move"), ("/health", "/healthz")] {
        let response = client.post(format!("{url}{path}")).send().await.unwrap();
        let problem = assert_problem(response, 404, path).await;
        let detail = problem["detail"].as_str().unwrap();
        assert!(
            detail.contains(&format!("did you mean {meant}?")),
            "{detail}"
        );
    }
    let response = client.get(format!("{url}/move")).send().await.unwrap();
    assert_eq!(response.headers()["allow"], "POST");
    let problem = assert_problem(response, 405, "GET /move").await;
    assert!(problem["detail"].as_str().unwrap().contains("POST"));
    let response = client.post(format!("{url}/healthz")).send().await.unwrap();
    assert!(
        response.headers()["allow"]
            .to_str()
            .unwrap()
            .contains("GET")
    );
    assert_problem(response, 405, "POST /healthz").await;
    let big = json!({"board": "X".repeat(70 * 1024)});
    let response = post(&url, "/move", big).await;
    assert_problem(response, 413, "a 70 KiB body").await;
    // Without a content type, and with what `curl -d` sends when not told otherwise: the
    // answer says what came, and for the latter how to tell curl. Bytes that are not text are
    // shown escaped.
    for (content_type, says) in [
        (None, "the request has no content-type"),
        (
            Some(&b"application/x-www-form-urlencoded"[..]),
            "(curl -d sends that unless given -H 'content-type: application/json')",
        ),
        (
            Some(b"text/plain; charset=\xff"),
            r#"got "text/plain; charset=\xff""#,
        ),
    ] {
        let mut request = client.post(format!("{url}/move"));
        if let Some(content_type) = content_type {
            let value = reqwest::header::HeaderValue::from_bytes(content_type).unwrap();
            request = request.header("content-type", value);
        }
        let response = request
            .body(r#"{"board":"X........"}"#)
            .send()
            .await
            .unwrap();
        let problem = assert_problem(response, 415, says).await;
        assert!(
            problem["detail"].as_str().unwrap().ends_with(says),
            "{problem}"
        );
    }
    let problem = assert_problem(post_text(&url, "/move", "").await, 400, "no body").await;
    assert_eq!(
        problem["detail"],
        "the body is empty: expected a JSON object"
    );
}

/// Every problem's `type` is a path the service answers, saying what the problem means; one
/// scheme for every status.
#[tokio::test]
async fn every_problem_type_resolves() {
    let url = start().await;
    let client = Client::new();
    let mut answers = vec![
        post_text(&url, "/move", "{").await,
        post(&url, "/move", json!({"moves": [], "depth": 0})).await,
        client.get(format!("{url}/nowhere")).send().await.unwrap(),
        client.get(format!("{url}/move")).send().await.unwrap(),
        client
            .post(format!("{url}/move"))
            .body("moves=[]")
            .send()
            .await
            .unwrap(),
    ];
    answers.push(
        client
            .post(format!("{url}/move"))
            .header("content-type", "application/json")
            .body(vec![b' '; 70_000])
            .send()
            .await
            .unwrap(),
    );
    let mut seen = Vec::new();
    for answer in answers {
        let status = answer.status().as_u16();
        let problem: Value = answer.json().await.unwrap();
        let kind = problem["type"].as_str().unwrap().to_owned();
        assert!(kind.starts_with("/problems/"), "{problem}");
        let page = client.get(format!("{url}{kind}")).send().await.unwrap();
        assert_eq!(page.status(), 200, "{kind}");
        let text = page.text().await.unwrap();
        assert!(text.contains(&format!("(HTTP {status})")), "{kind}: {text}");
        seen.push(kind);
    }
    assert_eq!(
        seen,
        [
            "/problems/malformed-request",
            "/problems/invalid-request",
            "/problems/not-found",
            "/problems/method-not-allowed",
            "/problems/unsupported-media-type",
            "/problems/body-too-large",
        ]
    );
    let unknown = client
        .get(format!("{url}/problems/teapot"))
        .send()
        .await
        .unwrap();
    assert_problem(unknown, 404, "an unknown problem type").await;
}

/// An unknown field is answered with the field probably meant among those the request could
/// have meant: its own and its algorithm's knobs (the game's default algorithm's when it names
/// none), not every knob of every algorithm.
#[tokio::test]
async fn an_unknown_field_offers_the_algorithms_knobs() {
    let url = start().await;
    let detail = |answer: Value| answer["detail"].as_str().unwrap().to_owned();
    let alphabeta = detail(problem(&url, "/move", json!({"moves": [], "dept": 3}), 400).await);
    assert!(
        alphabeta.starts_with("unknown field `dept`: did you mean `depth`?"),
        "{alphabeta}"
    );
    assert!(
        alphabeta.contains("alphabeta's knobs: `depth`") && !alphabeta.contains("`simulations`"),
        "{alphabeta}"
    );
    let mcts = detail(
        problem(
            &url,
            "/analyze",
            json!({"moves": [], "algorithm": "mcts", "simulation": 3}),
            400,
        )
        .await,
    );
    assert!(
        mcts.contains("did you mean `simulations`?")
            && mcts.contains("mcts's knobs: `simulations`"),
        "{mcts}"
    );
    assert!(!mcts.contains("`depth`"), "{mcts}");
    let engine = detail(
        problem(
            &url,
            "/analyze",
            json!({"game": "chess", "moves": [], "multi_pv": 3}),
            400,
        )
        .await,
    );
    assert!(
        engine.contains("did you mean `multipv`?") && engine.contains("engine's knobs"),
        "{engine}"
    );
    // A tournament's player likewise: its own fields, each once, and its algorithm's knobs.
    let player = problem(
        &url,
        "/tournament",
        json!({"players": [{"algorithm": "random"}, {"algorithm": "alphabeta", "dept": 3}]}),
        400,
    )
    .await;
    assert_eq!(player["field"], "players[1].dept");
    let player = detail(player);
    assert!(
        player.starts_with(
            "unknown field `dept`: did you mean `depth`? A player's fields are: `engine`, \
             `options`, `tc`, `nodes`, `algorithm`, and alphabeta's knobs: `depth`,"
        ) && !player.contains("`simulations`"),
        "{player}"
    );
}
