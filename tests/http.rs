//! The HTTP service, over real HTTP: the server runs on an ephemeral port.

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use reqwest::{Client, Response, StatusCode};
use sente::http::{AppState, MAX_HEAD_BYTES, OPENAPI_YAML, routes, serve};
use serde_json::{Value, json};
use tokio::net::TcpListener;

/// Starts a server; returns its base URL. It stops when the test's runtime ends.
async fn start() -> String {
    start_with(AppState::default()).await
}

async fn start_with(state: AppState) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(serve(listener, state, std::future::pending()));
    url
}

/// Starts a server with one slot for heavy work and room for `queue` requests waiting for it.
async fn start_with_one_heavy_slot(queue: usize) -> String {
    start_with(one_heavy_slot(queue)).await
}

/// The default state but for one slot for heavy work and room for `queue` requests waiting.
fn one_heavy_slot(queue: usize) -> AppState {
    use sente::http::admission::{Admission, AdmissionLimits};
    AppState {
        admission: std::sync::Arc::new(Admission::new(AdmissionLimits {
            heavy_slots: 1,
            heavy_queue: queue,
        })),
        ..AppState::default()
    }
}

async fn post(url: &str, path: &str, body: Value) -> Response {
    Client::new()
        .post(format!("{url}{path}"))
        .json(&body)
        .send()
        .await
        .unwrap()
}

/// Posts `body` as it is, declared JSON: for bodies `json!` cannot build (not JSON, or with a
/// key repeated).
async fn post_text(url: &str, path: &str, body: &'static str) -> Response {
    Client::new()
        .post(format!("{url}{path}"))
        .header("content-type", "application/json")
        .body(body)
        .send()
        .await
        .unwrap()
}

/// The JSON answer to `GET path`.
async fn get_json(url: &str, path: &str) -> Value {
    let response = Client::new()
        .get(format!("{url}{path}"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK, "{path}");
    response.json().await.unwrap()
}

/// Posts and expects a problem with `status`; returns the problem.
async fn problem(url: &str, path: &str, body: Value, status: u16) -> Value {
    let response = post(url, path, body.clone()).await;
    assert_problem(response, status, &body.to_string()).await
}

async fn assert_problem(response: Response, status: u16, context: &str) -> Value {
    assert_eq!(response.status().as_u16(), status, "{context}");
    assert_eq!(
        response.headers()["content-type"],
        "application/problem+json",
        "{context}"
    );
    let problem: Value = response.json().await.unwrap();
    assert_eq!(problem["status"], status, "{context}");
    for key in ["type", "title", "detail"] {
        assert!(problem[key].is_string(), "{context}: {problem}");
    }
    problem
}

#[tokio::test]
async fn move_takes_the_win_as_in_the_readme() {
    let url = start().await;
    let response = post(
        &url,
        "/move",
        json!({"board": "XX.OO....", "algorithm": "alphabeta"}),
    )
    .await;
    assert_eq!(response.status(), StatusCode::OK);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["move"], 2);
    assert_eq!(body["score"], 1.0);
    assert_eq!(
        (body["row"].clone(), body["col"].clone()),
        (json!(0), json!(2))
    );
    assert_eq!(body["exact"], true);
    assert_eq!(body["board"], "XXX/OO./...");
    assert_eq!(body["status"], "x_won");
    assert_eq!(body["game"], "tictactoe");
    assert!(body.get("seed").is_none(), "alphabeta is not randomised");
    // Over: nobody is to move, and there is nothing to play.
    assert_eq!(body["side_to_move"], Value::Null);
    assert_eq!(body["legal_moves"], json!([]));
}

/// An answer says who moves next and what they may play, so that a front end need not code
/// the rules.
#[tokio::test]
async fn a_move_says_who_is_to_move_and_what_they_may_play() {
    let url = start().await;
    for (body, side, legal) in [
        (json!({"moves": [4]}), "X", 7),
        (
            json!({"moves": [], "game": "connect4", "algorithm": "random", "seed": 1}),
            "O",
            7,
        ),
    ] {
        let answer: Value = post(&url, "/move", body.clone())
            .await
            .json()
            .await
            .unwrap();
        assert_eq!(answer["side_to_move"], side, "{body}");
        let moves = answer["legal_moves"].as_array().unwrap();
        assert_eq!(moves.len(), legal, "{body}: {answer}");
        // In the game's order, and none of them the move just played (tic-tac-toe's cells).
        assert!(
            moves.windows(2).all(|w| w[0].as_u64() < w[1].as_u64()),
            "{answer}"
        );
        if body["game"].is_null() {
            assert!(!moves.contains(&answer["move"]) && !moves.contains(&json!(4)));
        }
    }
}

#[tokio::test]
async fn move_answers_with_every_algorithm_and_board_form() {
    let url = start().await;
    for algorithm in [
        "random",
        "minimax",
        "negamax",
        "alphabeta",
        "mcs",
        "mcts",
        "solver",
    ] {
        for position in [
            json!({"board": "X.O/.X./..O"}),
            json!({"board": [["X", "", "O"], [null, "X", ""], ["", "", "O"]]}),
            json!({"moves": [0, 2, 4, 8]}),
        ] {
            let mut request = position.clone();
            request["algorithm"] = json!(algorithm);
            let response = post(&url, "/move", request.clone()).await;
            assert_eq!(response.status(), StatusCode::OK, "{request}");
            let body: Value = response.json().await.unwrap();
            assert_eq!(body["algorithm"], algorithm);
            assert!(body["nodes"].as_u64().unwrap() >= 1);
            let randomized = ["random", "mcs", "mcts"].contains(&algorithm);
            assert_eq!(body.get("seed").is_some(), randomized, "{body}");
            if !randomized {
                // The exact searches prove the value of this small position.
                assert_eq!(body["exact"], true, "{body}");
            }
        }
    }
}

#[tokio::test]
async fn the_same_seed_gives_the_same_answer() {
    let url = start().await;
    let request = json!({"moves": [4], "algorithm": "mcts", "simulations": 500, "seed": 11});
    let a: Value = post(&url, "/move", request.clone())
        .await
        .json()
        .await
        .unwrap();
    let b: Value = post(&url, "/move", request).await.json().await.unwrap();
    for key in ["move", "score", "nodes", "pv", "seed"] {
        assert_eq!(a[key], b[key], "{key}");
    }
}

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

/// Sends a request as raw bytes, a piece at a time with a pause between, and returns the
/// status code and body of the answer (the request asks the server to close after it).
async fn raw_exchange(url: &str, pieces: &[Vec<u8>]) -> (u16, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(url.trim_start_matches("http://"))
        .await
        .unwrap();
    for piece in pieces {
        // A server that refuses the request may answer and close before all of it is sent.
        if stream.write_all(piece).await.is_err() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).await.unwrap();
    let answer = String::from_utf8(answer).unwrap();
    let status = answer[9..12].parse().unwrap();
    let body = answer.split_once("\r\n\r\n").unwrap().1.to_owned();
    (status, body)
}

/// Requests that hyper refuses before the service sees them, answering itself (no body, since
/// hyper has no hook for one) and closing the connection: a head over `MAX_HEAD_BYTES` or with
/// more than 100 headers is a 431, and bytes that are not an HTTP/1 request a 400.
#[tokio::test]
async fn oversized_or_garbled_request_heads_are_refused() {
    let url = start().await;
    let head = |fill: usize| {
        format!(
            "GET /healthz HTTP/1.1\r\nhost: sente\r\nconnection: close\r\nx-fill: {}\r\n\r\n",
            "a".repeat(fill)
        )
    };
    let fill_to_limit = MAX_HEAD_BYTES - head(0).len();
    let at_limit = head(fill_to_limit);
    assert_eq!(at_limit.len(), MAX_HEAD_BYTES);
    let (status, body) = raw_exchange(&url, &[at_limit.into_bytes()]).await;
    assert_eq!((status, body.as_str()), (200, r#"{"status":"ok"}"#));
    let over = head(fill_to_limit + 1);
    assert_eq!(
        raw_exchange(&url, &[over.into_bytes()]).await,
        (431, String::new())
    );

    let many: String = (0..100).map(|i| format!("x-{i}: 1\r\n")).collect();
    let request = format!("GET /healthz HTTP/1.1\r\nhost: sente\r\n{many}\r\n");
    assert_eq!(
        raw_exchange(&url, &[request.into_bytes()]).await,
        (431, String::new())
    );

    let garbled = b"HELLO SENTE\r\n\r\n".to_vec();
    assert_eq!(raw_exchange(&url, &[garbled]).await, (400, String::new()));
}

/// A chunked request, its head and then each chunk sent apart, so that the server reads the
/// body in several frames.
fn chunked_move(chunks: &[&[u8]]) -> Vec<Vec<u8>> {
    let mut pieces = vec![
        b"POST /move HTTP/1.1\r\nhost: sente\r\nconnection: close\r\n\
          content-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n"
            .to_vec(),
    ];
    for chunk in chunks {
        let mut piece = format!("{:x}\r\n", chunk.len()).into_bytes();
        piece.extend_from_slice(chunk);
        piece.extend_from_slice(b"\r\n");
        pieces.push(piece);
    }
    pieces.push(b"0\r\n\r\n".to_vec());
    pieces
}

#[tokio::test]
async fn a_body_in_several_pieces_is_read_whole_and_within_the_limit() {
    let url = start().await;
    let (status, body) = raw_exchange(
        &url,
        &chunked_move(&[
            br#"{"board":"XX."#,
            br#"OO....","#,
            br#""algorithm":"alphabeta"}"#,
        ]),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let answer: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(answer["move"], 2);

    // No declared length: the limit is found while reading.
    let filler = vec![b' '; 40 * 1024];
    let (status, body) = raw_exchange(&url, &chunked_move(&[b"{", &filler, &filler, b"}"])).await;
    assert_eq!(status, 413, "{body}");
    assert!(body.contains("larger than 65536 bytes"), "{body}");

    // A declared length over the limit is refused before the body is sent.
    let head = "POST /move HTTP/1.1\r\nhost: sente\r\nconnection: close\r\n\
                content-type: application/json\r\ncontent-length: 70000\r\n\r\n";
    let (status, body) = raw_exchange(&url, &[head.as_bytes().to_vec()]).await;
    assert_eq!(status, 413, "{body}");
}

/// Pipelined requests are all answered, in order, and without waiting for the client's delayed
/// acknowledgement. With Nagle's algorithm on (the socket's default), each answer after the first
/// waited for the acknowledgement of the one before, which the client, having nothing to send,
/// delays: every round below took at least 40 ms, Linux's shortest delay, a kernel timer that no
/// slowness of the machine can shorten. Without it, a round takes well under a millisecond.
#[tokio::test]
async fn pipelined_requests_are_answered_in_order_without_delay() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let url = start().await;
    let mut stream = tokio::net::TcpStream::connect(url.trim_start_matches("http://"))
        .await
        .unwrap();
    // Four positions with a different winning move each, so that the order of answers shows.
    let wins = [
        ("XX.OO....", 2),
        ("X.XOO....", 1),
        (".XXOO....", 0),
        ("XO.XO....", 6),
    ];
    let mut requests = Vec::new();
    for (board, _) in wins {
        let body = json!({"board": board, "algorithm": "alphabeta"}).to_string();
        requests.extend_from_slice(
            format!(
                "POST /move HTTP/1.1\r\nhost: sente\r\ncontent-type: application/json\r\n\
                 content-length: {}\r\n\r\n{body}",
                body.len()
            )
            .as_bytes(),
        );
    }
    let mut rounds = Vec::new();
    let mut buffer = Vec::new();
    for _ in 0..9 {
        let started = std::time::Instant::now();
        stream.write_all(&requests).await.unwrap();
        let mut answers = Vec::new();
        while answers.len() < wins.len() {
            match split_answer(&buffer) {
                Some((answer, length)) => {
                    answers.push(answer);
                    buffer.drain(..length);
                }
                None => {
                    let mut chunk = [0; 4096];
                    let read = stream.read(&mut chunk).await.unwrap();
                    assert!(read > 0, "the server closed the connection");
                    buffer.extend_from_slice(&chunk[..read]);
                }
            }
        }
        rounds.push(started.elapsed());
        let moves: Vec<_> = answers
            .iter()
            .map(|answer| answer["move"].clone())
            .collect();
        assert_eq!(moves, wins.map(|(_, win)| json!(win)), "{answers:?}");
    }
    rounds.sort();
    assert!(
        rounds[rounds.len() / 2] < Duration::from_millis(20),
        "pipelined answers waited for the client's acknowledgements: rounds took {rounds:?}"
    );
}

/// The first whole answer in `buffer`, a 200 with a JSON body, and its length in bytes.
fn split_answer(buffer: &[u8]) -> Option<(Value, usize)> {
    let head_end = buffer.windows(4).position(|window| window == b"\r\n\r\n")? + 4;
    let head = std::str::from_utf8(&buffer[..head_end]).unwrap();
    assert!(head.starts_with("HTTP/1.1 200 "), "{head}");
    let length: usize = head
        .lines()
        .find_map(|line| line.strip_prefix("content-length: "))
        .expect("a content-length")
        .parse()
        .unwrap();
    let body = buffer.get(head_end..head_end + length)?;
    Some((serde_json::from_slice(body).unwrap(), head_end + length))
}

#[tokio::test]
async fn tournament_reports_both_players_and_halves_add_up() {
    let url = start().await;
    let request = |games: u64, first_game: u64| {
        json!({
            "players": [{"algorithm": "mcts", "simulations": 100}, {"algorithm": "random"}],
            "games": games, "first_game": first_game, "seed": 2026,
        })
    };
    let whole: Value = post(&url, "/tournament", request(200, 0))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(whole["games"], 200);
    assert_eq!(whole["complete"], true);
    assert_eq!(whole["seed"], 2026);
    let mcts = &whole["players"][0];
    assert_eq!(mcts["algorithm"], "mcts");
    let total = mcts["wins"].as_u64().unwrap()
        + mcts["draws"].as_u64().unwrap()
        + mcts["losses"].as_u64().unwrap();
    assert_eq!(total, 200);
    assert_eq!(
        mcts["as_first"]["wins"].as_u64().unwrap()
            + mcts["as_first"]["draws"].as_u64().unwrap()
            + mcts["as_first"]["losses"].as_u64().unwrap(),
        100
    );
    let [low, high] = [
        mcts["ci95"][0].as_f64().unwrap(),
        mcts["ci95"][1].as_f64().unwrap(),
    ];
    let rate = mcts["score_rate"].as_f64().unwrap();
    assert!(low <= rate && rate <= high && rate > 0.8, "{mcts}");
    // The games are paired, so the estimate comes from the pairs, and says so.
    assert_eq!(whole["pairs"], 100);
    let pentanomial: Vec<u64> = whole["pentanomial"]
        .as_array()
        .unwrap()
        .iter()
        .map(|count| count.as_u64().unwrap())
        .collect();
    assert_eq!(pentanomial.iter().sum::<u64>(), 100);
    // A's points from the pairs are A's points from the games.
    let points: u64 = pentanomial
        .iter()
        .zip(0..)
        .map(|(n, halves)| n * halves)
        .sum();
    assert_eq!(points as f64 / 2.0, mcts["points"].as_f64().unwrap());
    let estimate = &whole["estimate"];
    assert_eq!(estimate["variance"], "pentanomial", "{whole}");
    let (elo, low, high) = (
        estimate["elo"].as_f64().unwrap(),
        estimate["elo_95"][0].as_f64().unwrap(),
        estimate["elo_95"][1].as_f64().unwrap(),
    );
    assert!(100.0 < low && low < elo && elo < high, "{estimate}");
    assert!(estimate["los"].as_f64().unwrap() > 0.99, "{estimate}");

    let first: Value = post(&url, "/tournament", request(77, 0))
        .await
        .json()
        .await
        .unwrap();
    let second: Value = post(&url, "/tournament", request(123, 77))
        .await
        .json()
        .await
        .unwrap();
    // 77 games leave the 39th pair split between the two requests: each counts only the
    // pairs it has whole, and falls back to single games for its estimate.
    assert_eq!(
        (&first["pairs"], &second["pairs"]),
        (&json!(38), &json!(61))
    );
    assert_eq!(first["estimate"]["variance"], "trinomial", "{first}");
    for player in 0..2 {
        for key in ["wins", "draws", "losses", "nodes", "moves"] {
            let sum = first["players"][player][key].as_u64().unwrap()
                + second["players"][player][key].as_u64().unwrap();
            assert_eq!(
                json!(sum),
                whole["players"][player][key],
                "player {player} {key}"
            );
        }
    }
    let again: Value = post(&url, "/tournament", request(200, 0))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        again["players"], whole["players"],
        "the same request, the same result"
    );
}

#[tokio::test]
async fn a_tournament_stops_at_the_servers_time_limit() {
    let url = start_with(AppState {
        tournament_time_limit: Duration::from_millis(50),
        ..AppState::default()
    })
    .await;
    let body: Value = post(
        &url,
        "/tournament",
        json!({"players": [{"algorithm": "mcts", "simulations": 100000}, {"algorithm": "mcts", "simulations": 100000}], "games": 100000}),
    )
    .await
    .json()
    .await
    .unwrap();
    assert_eq!(body["complete"], false);
    assert!(body["games"].as_u64().unwrap() < 100_000);
    // Drawing balanced openings searches too, and stops at the limit like the games.
    let started = std::time::Instant::now();
    let body: Value = post(
        &url,
        "/tournament",
        json!({"game": "gomoku", "players": [{"algorithm": "random"}, {"algorithm": "random"}],
               "games": 100000, "openings": {"random_plies": 40, "balanced": 0}}),
    )
    .await
    .json()
    .await
    .unwrap();
    assert_eq!(body["stopped_by"], "time_limit", "{body}");
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_answers_while_a_tournament_runs() {
    let url = start().await;
    let tournament = tokio::spawn({
        let url = url.clone();
        async move {
            post(
                &url,
                "/tournament",
                json!({"players": [{"algorithm": "mcts", "simulations": 3000}, {"algorithm": "mcts", "simulations": 3000}], "games": 400, "seed": 1}),
            )
            .await
            .status()
        }
    });
    tokio::time::sleep(Duration::from_millis(100)).await;
    for _ in 0..5 {
        let response = post(
            &url,
            "/move",
            json!({"board": "X...O....", "algorithm": "alphabeta"}),
        )
        .await;
        assert_eq!(response.status(), StatusCode::OK);
    }
    assert!(
        !tournament.is_finished(),
        "the moves were answered while the tournament ran"
    );
    assert_eq!(tournament.await.unwrap(), StatusCode::OK);
}

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
            "solver",
            "engine"
        ]
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

#[tokio::test]
async fn the_page_and_the_spec_are_answered_304_when_the_client_holds_them() {
    let url = start().await;
    let client = Client::new();
    for (path, cache_control) in [("/", Some("no-cache")), ("/openapi.yaml", None)] {
        let get = |if_none_match: &str| {
            client
                .get(format!("{url}{path}"))
                .header("if-none-match", if_none_match)
                .send()
        };
        // An empty list holds no tag.
        let first = get("").await.unwrap();
        assert_eq!(first.status(), 200, "{path}");
        let etag = first.headers()["etag"].to_str().unwrap().to_owned();
        assert!(etag.starts_with('"'), "{path}: {etag}");
        let again = get(&etag).await.unwrap();
        assert_eq!(again.status(), 304, "{path}");
        assert_eq!(again.headers()["etag"], etag, "{path}");
        assert_eq!(
            again
                .headers()
                .get("cache-control")
                .map(|v| v.to_str().unwrap()),
            cache_control,
            "{path}"
        );
        assert_eq!(again.bytes().await.unwrap().len(), 0, "{path}");
        // Another tag (an older build's) gets the document whole.
        let stale = get("\"0000000000000000\"").await.unwrap();
        assert_eq!(stale.status(), 200, "{path}");
        assert!(!stale.bytes().await.unwrap().is_empty(), "{path}");
    }
}

#[tokio::test]
async fn cors_lets_browsers_call_from_any_origin() {
    let url = start().await;
    let client = Client::new();
    let response = client
        .request(reqwest::Method::OPTIONS, format!("{url}/move"))
        .header("origin", "https://example.org")
        .header("access-control-request-method", "POST")
        .header("access-control-request-headers", "content-type")
        .send()
        .await
        .unwrap();
    assert!(response.status().is_success());
    assert_eq!(response.headers()["access-control-allow-origin"], "*");
    let methods = header_text(&response, "access-control-allow-methods");
    assert!(
        methods.contains("GET") && methods.contains("POST"),
        "{methods}"
    );
    // Kept for two hours, not the browsers' default of 5 s: one preflight per game, not per move.
    assert_eq!(response.headers()["access-control-max-age"], "7200");
    let response = client
        .get(format!("{url}/healthz"))
        .header("origin", "https://example.org")
        .send()
        .await
        .unwrap();
    assert_eq!(response.headers()["access-control-allow-origin"], "*");
    // A front end can read Retry-After of a 503, Allow of a 405 and Accept-Encoding of a 415;
    // header names are case-insensitive.
    let exposed = header_text(&response, "access-control-expose-headers").to_ascii_lowercase();
    let exposed: Vec<&str> = exposed.split(',').map(str::trim).collect();
    for name in ["retry-after", "allow", "accept-encoding"] {
        assert!(exposed.contains(&name), "{name} is not in {exposed:?}");
    }
}

/// A header of `response` that must be there, as text.
fn header_text(response: &Response, name: &str) -> String {
    response.headers()[name].to_str().unwrap().to_owned()
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
async fn shutdown_lets_in_flight_requests_finish() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(serve(listener, AppState::default(), async {
        stopped.await.ok();
    }));
    let in_flight = tokio::spawn({
        let url = url.clone();
        async move {
            post(&url, "/tournament", json!({"players": [{"algorithm": "mcts", "simulations": 2000}, {}], "games": 300, "seed": 3})).await.status()
        }
    });
    tokio::time::sleep(Duration::from_millis(100)).await;
    stop.send(()).unwrap();
    assert_eq!(
        in_flight.await.unwrap(),
        StatusCode::OK,
        "the in-flight request finished"
    );
    server.await.unwrap();
}

/// A state whose time limits are short, so that tests can wait them out.
fn short_limits() -> AppState {
    let mut state = AppState {
        tournament_time_limit: Duration::from_millis(200),
        read_timeout: Duration::from_millis(200),
        ..AppState::default()
    };
    state.search_limits.max_search_time = Duration::from_millis(200);
    state
}

/// Starts a server, sends it `request` over a bare TCP connection (what no HTTP client would
/// send), and reads until the server closes the connection; returns what it answered and when.
async fn send_and_read_to_close(state: AppState, request: &[u8]) -> (String, Duration) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let url = start_with(state).await;
    let mut client = tokio::net::TcpStream::connect(url.trim_start_matches("http://"))
        .await
        .unwrap();
    let started = std::time::Instant::now();
    client.write_all(request).await.unwrap();
    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(5), client.read_to_end(&mut answer))
        .await
        .expect("the server closes the connection")
        .ok();
    (
        String::from_utf8_lossy(&answer).into_owned(),
        started.elapsed(),
    )
}

#[tokio::test]
async fn a_body_that_stops_arriving_is_a_408_problem() {
    let (answer, _) = send_and_read_to_close(
        short_limits(),
        b"POST /move HTTP/1.1\r\nHost: sente\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"board\":",
    )
    .await;
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("application/problem+json"), "{answer}");
    assert!(answer.contains("did not arrive within 0.2 s"), "{answer}");
}

#[tokio::test]
async fn a_request_head_that_stops_arriving_closes_the_connection() {
    let state = short_limits();
    let read_timeout = state.read_timeout;
    let (answer, after) =
        send_and_read_to_close(state, b"POST /move HTTP/1.1\r\nHost: sente\r\n").await;
    assert!(after >= read_timeout, "closed after {after:?}: {answer}");
}

#[tokio::test]
async fn shutdown_does_not_wait_forever_for_a_client_that_does_not_read() {
    use tokio::io::AsyncWriteExt;
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let state = short_limits();
    let grace = state.shutdown_grace();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(serve(listener, state, async {
        stopped.await.ok();
    }));
    // Ask for the spec (tens of kilobytes) a thousand times over and read none of it: the
    // answers fill the socket's buffers, and the server is left in the middle of one.
    let client = tokio::net::TcpStream::connect(addr).await.unwrap();
    let (_unread, mut requests) = client.into_split();
    let asking = tokio::spawn(async move {
        for _ in 0..1000 {
            if requests
                .write_all(b"GET /openapi.yaml HTTP/1.1\r\nHost: sente\r\n\r\n")
                .await
                .is_err()
            {
                break;
            }
        }
        requests
    });
    tokio::time::sleep(Duration::from_millis(500)).await;
    let asked = std::time::Instant::now();
    stop.send(()).unwrap();
    tokio::time::timeout(grace + Duration::from_secs(5), server)
        .await
        .expect("the server stops once the grace period is over")
        .unwrap();
    assert!(asked.elapsed() >= grace, "it waited the grace period first");
    asking.abort();
}

#[tokio::test]
async fn metrics_count_requests_nodes_and_games() {
    let url = start().await;
    post(
        &url,
        "/move",
        json!({"board": "XX.OO....", "algorithm": "alphabeta"}),
    )
    .await;
    post(&url, "/move", json!({"board": "XX.OO..Q."})).await;
    post(
        &url,
        "/tournament",
        json!({"players": [{"algorithm": "mcs"}, {"algorithm": "random"}], "games": 10, "seed": 1}),
    )
    .await;
    for path in ["/move", "/no/such/path"] {
        Client::new()
            .get(format!("{url}{path}"))
            .send()
            .await
            .unwrap();
    }
    let response = Client::new()
        .get(format!("{url}/metrics"))
        .send()
        .await
        .unwrap();
    assert!(
        response.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("application/openmetrics-text")
    );
    let text = response.text().await.unwrap();
    for line in [
        r#"sente_http_requests_total{route="/move",status="200"} 1"#,
        r#"sente_http_requests_total{route="/move",status="422"} 1"#,
        r#"sente_http_requests_total{route="/move",status="405"} 1"#,
        // An unknown path is not a label of its own: clients cannot grow the label set.
        r#"sente_http_requests_total{route="unmatched",status="404"} 1"#,
        r#"sente_nodes_searched_total{algorithm="alphabeta"} 36"#,
        "sente_games_played_total 10",
        "sente_tournaments_in_flight 0",
        "sente_blocking_tasks_queued 0",
    ] {
        assert!(
            text.lines().any(|l| l == line),
            "missing {line:?} in\n{text}"
        );
    }
    assert!(text.contains(r#"sente_http_request_duration_seconds_count{route="/tournament"} 1"#));
    assert!(!text.contains("/no/such/path"), "{text}");
    // Every algorithm is listed from the start; the tournament's mcs searches were counted.
    assert!(text.contains(r#"sente_nodes_searched_total{algorithm="minimax"} 0"#));
    let mcs = text
        .lines()
        .find_map(|line| line.strip_prefix(r#"sente_nodes_searched_total{algorithm="mcs"} "#))
        .expect("mcs nodes are counted");
    assert!(mcs.parse::<u64>().unwrap() > 0, "{text}");
}

#[tokio::test]
async fn the_healthcheck_probe_succeeds_only_against_a_live_server() {
    use sente::http::healthcheck::probe;
    let url = start().await;
    let addr = url.trim_start_matches("http://").parse().unwrap();
    assert_eq!(probe(addr, Duration::from_secs(2)).await, Ok(()));
    let closed = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = closed.local_addr().unwrap();
    drop(closed);
    let error = probe(addr, Duration::from_secs(2)).await.unwrap_err();
    assert!(error.contains("cannot connect"), "{error}");
}

#[tokio::test]
async fn analyze_lists_every_move_best_first() {
    let url = start().await;
    let response = post(
        &url,
        "/analyze",
        json!({"board": "X.O/.X./O..", "algorithm": "solver"}),
    )
    .await;
    assert_eq!(response.status(), StatusCode::OK);
    let body: Value = response.json().await.unwrap();
    let moves = body["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 5);
    assert_eq!(
        (moves[0]["move"].clone(), moves[0]["plies_to_end"].clone()),
        (json!(8), json!(1))
    );
    assert!(moves.iter().all(|m| m["exact"] == true));
    let mcts: Value = post(
        &url,
        "/analyze",
        json!({"moves": [4], "algorithm": "mcts", "seed": 1}),
    )
    .await
    .json()
    .await
    .unwrap();
    assert_eq!(mcts["seed"], 1);
    assert!(
        mcts["moves"]
            .as_array()
            .unwrap()
            .iter()
            .all(|m| m["visits"].is_u64())
    );
    problem(&url, "/analyze", json!({"board": "XXXOO...."}), 422).await;
    problem(
        &url,
        "/analyze",
        json!({"moves": [], "algorithm": "solver", "depth": 2}),
        422,
    )
    .await;
}

#[tokio::test]
async fn move_reports_the_fastest_win_and_its_distance() {
    let url = start().await;
    for request in [
        json!({"board": "X.O/.X./O..", "algorithm": "solver"}),
        json!({"board": "X.O/.X./O..", "algorithm": "alphabeta", "transposition_table": true, "symmetry": true, "ordering": true, "pvs": true}),
        json!({"board": "X.O/.X./O..", "algorithm": "alphabeta", "time_limit_ms": 100}),
    ] {
        let body: Value = post(&url, "/move", request.clone())
            .await
            .json()
            .await
            .unwrap();
        assert_eq!(
            (body["move"].clone(), body["plies_to_end"].clone()),
            (json!(8), json!(1)),
            "{request}"
        );
    }
    let solver: Value = post(&url, "/move", json!({"moves": [], "algorithm": "solver"}))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        (
            solver["nodes"].clone(),
            solver["exact"].clone(),
            solver["plies_to_end"].clone()
        ),
        (json!(1), json!(true), json!(9))
    );
    let random_tie: Value = post(
        &url,
        "/move",
        json!({"moves": [], "algorithm": "solver", "tiebreak": "random", "seed": 4}),
    )
    .await
    .json()
    .await
    .unwrap();
    assert_eq!(random_tie["seed"], 4);
    let problem = problem(
        &url,
        "/move",
        json!({"moves": [], "algorithm": "alphabeta", "tiebreak": "best"}),
        422,
    )
    .await;
    assert_eq!(problem["field"], "tiebreak");
    problem_seed_needs_random_tiebreak(&url).await;
}

async fn problem_seed_needs_random_tiebreak(url: &str) {
    let problem = problem(
        url,
        "/move",
        json!({"moves": [], "algorithm": "solver", "seed": 4}),
        422,
    )
    .await;
    assert_eq!(problem["field"], "seed");
}

#[tokio::test]
async fn connect_four_is_served_by_every_endpoint() {
    let url = start().await;
    // X to move, with three on the bottom row: the solver takes the win in column 3.
    let board = "......./......./......./......./OO...../XXX...O";
    let body: Value = post(
        &url,
        "/move",
        json!({"game": "connect4", "board": board, "algorithm": "solver"}),
    )
    .await
    .json()
    .await
    .unwrap();
    assert_eq!(
        (
            body["move"].clone(),
            body["row"].clone(),
            body["col"].clone()
        ),
        (json!(3), json!(0), json!(3))
    );
    assert_eq!(
        (
            body["score"].clone(),
            body["exact"].clone(),
            body["plies_to_end"].clone()
        ),
        (json!(1.0), json!(true), json!(1))
    );
    assert_eq!(body["status"], "x_won");
    assert_eq!(
        body["board"],
        "......./......./......./......./OO...../XXXX..O"
    );
    // O to move must block it.
    let body: Value = post(
        &url,
        "/move",
        json!({"game": "connect4", "moves": [0, 0, 1, 1, 2], "algorithm": "alphabeta", "depth": 4}),
    )
    .await
    .json()
    .await
    .unwrap();
    assert_eq!(body["move"], 3, "{body}");
    for algorithm in ["random", "mcs", "mcts", "solver", "alphabeta"] {
        let response = post(
            &url,
            "/move",
            json!({"game": "connect4", "moves": [3, 3], "algorithm": algorithm}),
        )
        .await;
        assert_eq!(response.status(), StatusCode::OK, "{algorithm}");
    }
    for algorithm in ["minimax", "negamax"] {
        let response = post(
            &url,
            "/move",
            json!({"moves": [], "game": "connect4", "algorithm": algorithm, "depth": 3}),
        )
        .await;
        assert_eq!(response.status(), StatusCode::OK, "{algorithm}");
        let problem = problem(
            &url,
            "/move",
            json!({"moves": [], "game": "connect4", "algorithm": algorithm}),
            422,
        )
        .await;
        assert_eq!(problem["field"], "depth");
    }
    let analysis: Value = post(
        &url,
        "/analyze",
        json!({"game": "connect4", "board": board, "algorithm": "alphabeta", "depth": 2}),
    )
    .await
    .json()
    .await
    .unwrap();
    assert_eq!(analysis["moves"].as_array().unwrap().len(), 7);
    assert_eq!(analysis["moves"][0]["move"], 3);
    let games: Value = get_json(&url, "/games").await;
    assert_eq!(games[1]["name"], "connect4");
    assert_eq!(
        (games[1]["rows"].clone(), games[1]["columns"].clone()),
        (json!(6), json!(7))
    );
}

#[tokio::test]
async fn connect_four_boards_that_cannot_be_are_422() {
    let url = start().await;
    for (request, field, detail) in [
        (
            json!({"game": "connect4", "board": "......./......./......./......./...X.../......."}),
            "board",
            "floats",
        ),
        (
            json!({"game": "connect4", "board": "......./......./......./......./......./OO....."}),
            "board",
            "X moves first",
        ),
        (
            json!({"game": "connect4", "board": "......./......./......./......./OOO..../XXXX..."}),
            "board",
            "already over (X has won)",
        ),
        (
            json!({"game": "connect4", "board": "......./......./......./......./XXX..../OOOOXX."}),
            "board",
            "X moved last",
        ),
        (
            json!({"game": "connect4", "moves": [0, 0, 0, 0, 0, 0, 0]}),
            "moves[6]",
            "column is full",
        ),
        (
            json!({"game": "connect4", "moves": [7]}),
            "moves[0]",
            "out of range",
        ),
        (
            json!({"game": "connect4", "board": "XX"}),
            "board",
            "fewer than the 42",
        ),
        (
            // 42 cells, but row 5 is one short: read as a flat run, X would land on a floating
            // cell of row 5, and the error would not say why.
            json!({"game": "connect4", "board": "......./......./......./......./....../X......."}),
            "board",
            "the 5th row of the text (from the top) has 6 cells",
        ),
        (
            json!({"moves": [], "game": "connect4", "algorithm": "solver", "tiebreak": "traps"}),
            "tiebreak",
            "not available on connect4",
        ),
    ] {
        let problem = problem(&url, "/move", request.clone(), 422).await;
        assert_eq!(problem["field"], field, "{request}: {problem}");
        assert!(
            problem["detail"].as_str().unwrap().contains(detail),
            "{request}: {problem}"
        );
    }
}

#[tokio::test]
async fn connect_four_tournaments_run() {
    let url = start().await;
    let body: Value = post(
        &url,
        "/tournament",
        json!({"game": "connect4", "players": [{"algorithm": "mcts", "simulations": 200}, {"algorithm": "alphabeta", "depth": 2}], "games": 10, "seed": 5}),
    )
    .await
    .json()
    .await
    .unwrap();
    assert_eq!(
        (
            body["game"].clone(),
            body["games"].clone(),
            body["complete"].clone()
        ),
        (json!("connect4"), json!(10), json!(true))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_panic_becomes_a_500_problem_and_the_server_lives_on() {
    // The hooks exist only with the `test-hooks` feature, which the crate's tests turn on.
    let url = start().await;
    let client = Client::new();
    for hook in ["/test/panic", "/test/panic-blocking"] {
        for _ in 0..3 {
            let response = client.get(format!("{url}{hook}")).send().await.unwrap();
            let problem = assert_problem(response, 500, hook).await;
            assert!(
                problem["detail"].as_str().unwrap().contains("logged"),
                "{problem}"
            );
        }
        let health: Value = get_json(&url, "/healthz").await;
        assert_eq!(
            health,
            json!({"status": "ok"}),
            "the server still answers after {hook}"
        );
        let response = post(&url, "/move", json!({"board": "XX.OO...."})).await;
        assert_eq!(response.status(), StatusCode::OK);
    }
    let metrics = client
        .get(format!("{url}/metrics"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        metrics.contains(r#"sente_http_requests_total{route="/test/panic",status="500"} 3"#),
        "{metrics}"
    );
}

/// The floor hook answers what `/move` answers to the benchmark's request, byte for byte but
/// for the time taken, with the same headers: measured beside `/move`, the difference is then
/// the route's own work and nothing else.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_move_floor_hook_answers_what_move_answers() {
    use sente::http::hooks::{BENCH_MOVE_ANSWER, BENCH_MOVE_BODY};
    // `"elapsed_us":N` and `"nps":N` with N replaced by 0.
    let timeless = |text: &str| {
        let mut text = text.to_owned();
        for field in [r#""elapsed_us":"#, r#""nps":"#] {
            let (before, after) = text.split_once(field).expect(field);
            let after = after.trim_start_matches(|c: char| c.is_ascii_digit());
            text = format!("{before}{field}0{after}");
        }
        text
    };
    let url = start().await;
    let mut answers = Vec::new();
    for path in ["/move", "/test/move-floor"] {
        let response = post_text(&url, path, BENCH_MOVE_BODY).await;
        assert_eq!(response.status(), StatusCode::OK, "{path}");
        let mut headers: Vec<_> = response
            .headers()
            .iter()
            .filter(|(name, _)| *name != "date" && *name != "content-length")
            .map(|(name, value)| format!("{name}: {value:?}"))
            .collect();
        headers.sort();
        answers.push((headers, timeless(&response.text().await.unwrap())));
    }
    assert_eq!(answers[0].1, timeless(BENCH_MOVE_ANSWER));
    assert_eq!(answers[0], answers[1]);
    // And the scripts post that very body.
    for (script, line) in [
        ("bench-http.sh", format!("wrk.body = '{BENCH_MOVE_BODY}'")),
        (
            "bench-instructions.sh",
            format!("body = b'{BENCH_MOVE_BODY}'"),
        ),
    ] {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/").to_owned() + script;
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            text.contains(&line),
            "{script} does not post {BENCH_MOVE_BODY}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn heavy_work_beyond_the_queue_is_refused_at_once_and_cheap_work_still_answers() {
    let url = start_with_one_heavy_slot(0).await;
    // A tournament holds the only heavy slot for a while.
    let tournament = tokio::spawn({
        let url = url.clone();
        async move {
            post(&url, "/tournament", json!({"players": [{"algorithm": "mcts", "simulations": 5000}, {"algorithm": "mcts", "simulations": 5000}], "games": 200, "seed": 1})).await.status()
        }
    });
    tokio::time::sleep(Duration::from_millis(200)).await;
    let response = post(
        &url,
        "/analyze",
        json!({"moves": [], "algorithm": "solver"}),
    )
    .await;
    assert_eq!(response.headers()["retry-after"], "1");
    let problem = assert_problem(response, 503, "analyze while the slot is taken").await;
    assert!(
        problem["detail"].as_str().unwrap().contains("busy"),
        "{problem}"
    );
    // Cheap requests take no slot.
    let cheap = post(
        &url,
        "/move",
        json!({"board": "X...O....", "algorithm": "alphabeta"}),
    )
    .await;
    assert_eq!(cheap.status(), StatusCode::OK);
    assert!(
        !tournament.is_finished(),
        "the tournament was still running"
    );
    assert_eq!(tournament.await.unwrap(), StatusCode::OK);
    // With the slot free again, heavy work is admitted.
    let response = post(
        &url,
        "/analyze",
        json!({"moves": [], "algorithm": "solver"}),
    )
    .await;
    assert_eq!(response.status(), StatusCode::OK);
    let limits: Value = get_json(&url, "/limits").await;
    assert_eq!(
        (limits["heavy_slots"].clone(), limits["heavy_queue"].clone()),
        (json!(1), json!(0))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn heavy_work_waits_in_the_queue_when_there_is_room() {
    let url = start_with_one_heavy_slot(4).await;
    let requests: Vec<_> = (0..3)
        .map(|seed| {
            let url = url.clone();
            tokio::spawn(async move {
                post(
                    &url,
                    "/tournament",
                    json!({"players": [{"algorithm": "mcts"}, {}], "games": 50, "seed": seed}),
                )
                .await
                .status()
            })
        })
        .collect();
    for request in requests {
        assert_eq!(request.await.unwrap(), StatusCode::OK);
    }
}

#[tokio::test]
async fn a_tournament_of_slow_players_stops_at_the_limit_mid_game() {
    // Each solver move on Connect Four may take up to a second: the limit must cut a game short
    // rather than wait for it to end.
    let url = start_with(AppState {
        tournament_time_limit: Duration::from_millis(300),
        ..AppState::default()
    })
    .await;
    let started = std::time::Instant::now();
    let body: Value = post(
        &url,
        "/tournament",
        json!({"game": "connect4", "players": [{"algorithm": "solver", "time_limit_ms": 1000}, {"algorithm": "solver", "time_limit_ms": 1000}], "games": 4}),
    )
    .await
    .json()
    .await
    .unwrap();
    assert_eq!(body["complete"], false);
    // The answer says what was asked, what was done, and why not all of it.
    assert_eq!(body["games_requested"], 4);
    assert!(body["games"].as_u64().unwrap() < 4, "{body}");
    assert_eq!(body["stopped_by"], "time_limit");
    // Generous, for shared machines: without the check between moves this takes minutes.
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "{:?}",
        started.elapsed()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tournament_whose_client_goes_away_stops_and_frees_its_slot() {
    let url = start_with_one_heavy_slot(1).await;
    // A tournament that would run for the full minute, abandoned by its client after 300 ms.
    let abandoned = Client::new()
        .post(format!("{url}/tournament"))
        .json(&json!({"players": [{"algorithm": "mcts", "simulations": 100000}, {"algorithm": "mcts", "simulations": 100000}], "games": 100000}))
        .timeout(Duration::from_millis(300))
        .send()
        .await;
    assert!(abandoned.is_err(), "the client gave up");
    // The next heavy request waits in the queue for the slot, which the stopped tournament
    // frees within about a move's time, not a minute.
    let started = std::time::Instant::now();
    let response = post(
        &url,
        "/analyze",
        json!({"moves": [], "algorithm": "solver"}),
    )
    .await;
    assert_eq!(response.status(), StatusCode::OK);
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "{:?}",
        started.elapsed()
    );
}

#[tokio::test]
async fn the_services_node_limit_stops_a_search_and_says_so() {
    use sente::http::SearchLimits;
    let url = start_with(AppState {
        search_limits: SearchLimits {
            max_nodes: Some(5_000),
            ..SearchLimits::default()
        },
        ..AppState::default()
    })
    .await;
    let limits: Value = get_json(&url, "/limits").await;
    assert_eq!(limits["max_nodes"], 5_000);
    assert_eq!(limits["max_search_ms"], 15_000);
    assert_eq!(limits["read_timeout_ms"], 10_000);
    // The full tree is 549,946 nodes: minimax is stopped, and answers a move all the same.
    let body: Value = post(&url, "/move", json!({"moves": [], "algorithm": "minimax"}))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(body["stopped_by"], "node_limit", "{body}");
    assert_eq!(body["exact"], false, "{body}");
    assert!(body["nodes"].as_u64().unwrap() < 10_000, "{body}");
    assert!(body["move"].as_u64().unwrap() < 9, "{body}");
    let analysis: Value = post(
        &url,
        "/analyze",
        json!({"moves": [], "algorithm": "negamax"}),
    )
    .await
    .json()
    .await
    .unwrap();
    assert_eq!(analysis["stopped_by"], "node_limit", "{analysis}");
    // A search within the limit says nothing of it.
    let small: Value = post(
        &url,
        "/move",
        json!({"algorithm": "minimax", "board": "XX.OO...."}),
    )
    .await
    .json()
    .await
    .unwrap();
    assert!(small.get("stopped_by").is_none(), "{small}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_search_whose_client_goes_away_stops_and_frees_its_slot() {
    let url = start_with_one_heavy_slot(1).await;
    // Ten seconds of mcts, abandoned by its client after 300 ms.
    let abandoned = Client::new()
        .post(format!("{url}/move"))
        .json(&json!({"moves": [], "game": "connect4", "algorithm": "mcts", "simulations": 1000000, "time_limit_ms": 10000}))
        .timeout(Duration::from_millis(300))
        .send()
        .await;
    assert!(abandoned.is_err(), "the client gave up");
    // The next heavy request waits for the slot, which the cancelled search frees at its next
    // look at its budget, not after ten seconds.
    let started = std::time::Instant::now();
    let response = post(
        &url,
        "/move",
        json!({"moves": [], "game": "connect4", "algorithm": "mcts", "simulations": 2000}),
    )
    .await;
    assert_eq!(response.status(), StatusCode::OK);
    // Generous, for shared machines; the search alone would hold the slot for 9.7 s more.
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
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

/// A tournament without a number of games plays the game's default, which GET /games states;
/// the answer says what was asked and what was done.
#[tokio::test]
async fn a_tournament_says_what_was_asked_and_what_was_done() {
    let url = start().await;
    let games: Value = get_json(&url, "/games").await;
    for game in games.as_array().unwrap() {
        let name = game["name"].as_str().unwrap();
        let body: Value = post(
            &url,
            "/tournament",
            json!({"game": name, "players": [{"algorithm": "random"}, {"algorithm": "random"}]}),
        )
        .await
        .json()
        .await
        .unwrap();
        assert_eq!(body["games_requested"], game["tournament_games"], "{name}");
        assert_eq!(body["games"], game["tournament_games"], "{name}");
        assert_eq!(body["complete"], true, "{name}");
        assert!(body.get("stopped_by").is_none(), "{body}");
    }
}

/// Asks /move and /analyze of each algorithm with its knobs in `position`, checking that every
/// analysis lists moves in the game's notation; the /move requests with their answers.
async fn every_algorithm_answers(
    url: &str,
    position: &Value,
    players: &[(&str, Value)],
) -> Vec<(Value, Value)> {
    let mut answers = Vec::new();
    for (algorithm, knobs) in players {
        let mut body = position.clone();
        body["algorithm"] = json!(algorithm);
        for (name, value) in knobs.as_object().unwrap() {
            body[name] = value.clone();
        }
        let answer: Value = post(url, "/move", body.clone()).await.json().await.unwrap();
        let analysis: Value = post(url, "/analyze", body.clone())
            .await
            .json()
            .await
            .unwrap();
        let moves = analysis["moves"]
            .as_array()
            .unwrap_or_else(|| panic!("{body}: {analysis}"));
        assert!(
            !moves.is_empty() && moves[0]["move"].is_string(),
            "{analysis}"
        );
        answers.push((body, answer));
    }
    answers
}

/// Gomoku, the game added by following docs/adding-a-game.md: every algorithm answers /move
/// and /analyze on it in its notation, and a game of mcts against alphabeta plays to its end.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gomoku_is_served_by_every_endpoint_and_algorithm() {
    let url = start().await;
    let games = get_json(&url, "/games").await;
    let gomoku = games
        .as_array()
        .unwrap()
        .iter()
        .find(|game| game["name"] == "gomoku")
        .expect("gomoku is in the catalogue");
    assert_eq!(
        (&gomoku["rows"], &gomoku["columns"]),
        (&json!(15), &json!(15))
    );
    assert_eq!(gomoku["sides"], json!(["X", "O"]));
    // Small knobs: a whole-board search of gomoku is large.
    let players = [
        ("random", json!({})),
        ("minimax", json!({"depth": 1})),
        ("negamax", json!({"depth": 2})),
        ("alphabeta", json!({"depth": 2, "ordering": true})),
        ("alphabeta", json!({"time_limit_ms": 50})),
        ("mcs", json!({"playouts": 2})),
        ("mcts", json!({"simulations": 200})),
        ("solver", json!({"time_limit_ms": 50})),
    ];
    let position = json!({"game": "gomoku", "moves": ["h8", "h9"]});
    for (body, answer) in every_algorithm_answers(&url, &position, &players).await {
        let mv = answer["move"]
            .as_str()
            .unwrap_or_else(|| panic!("{body}: {answer}"));
        assert!(mv != "h8" && mv != "h9", "{body}: {answer}");
        assert_eq!(answer["side_to_move"], "O", "{answer}");
        assert_eq!(
            answer["legal_moves"].as_array().unwrap().len(),
            222,
            "{answer}"
        );
        assert!(
            !answer["legal_moves"]
                .as_array()
                .unwrap()
                .contains(&json!(mv))
        );
    }
    // A win in one is found and named.
    let body = json!({"game": "gomoku", "moves": ["a8", "a1", "b8", "b1", "c8", "c1", "d8", "d1"]});
    let answer: Value = post(&url, "/move", body).await.json().await.unwrap();
    assert_eq!(answer["status"], "x_won", "{answer}");
    assert!(
        ["e8"].contains(&answer["move"].as_str().unwrap()),
        "{answer}"
    );
    // The notation's errors name the move.
    let problem = problem(
        &url,
        "/move",
        json!({"game": "gomoku", "moves": ["h8", "z99"]}),
        422,
    )
    .await;
    assert_eq!(problem["field"], "moves[1]");
    assert!(
        problem["detail"].as_str().unwrap().contains("\"z99\""),
        "{problem}"
    );
    // A whole game, mcts against alphabeta, plays to its end.
    let report: Value = post(
        &url,
        "/tournament",
        json!({"game": "gomoku", "players": [{"algorithm": "mcts", "simulations": 100}, {"algorithm": "alphabeta", "depth": 1}], "games": 2, "seed": 7}),
    )
    .await
    .json()
    .await
    .unwrap();
    assert_eq!(report["games"], 2, "{report}");
    assert_eq!(report["complete"], true, "{report}");
}

/// Othello, added as docs/adding-a-game.md says: every algorithm answers /move and /analyze on
/// it in its notation, a player without a square passes (a move without a cell), and a game of
/// mcts against alphabeta plays to its end.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn othello_is_served_by_every_endpoint_and_algorithm_and_passes() {
    let url = start().await;
    let games = get_json(&url, "/games").await;
    let othello = games
        .as_array()
        .unwrap()
        .iter()
        .find(|game| game["name"] == "othello")
        .expect("othello is in the catalogue");
    assert_eq!(othello["sides"], json!(["Black", "White"]));
    let opening: Value = post(
        &url,
        "/position",
        json!({"game": "othello", "moves": ["d3", "c5"]}),
    )
    .await
    .json()
    .await
    .unwrap();
    let squares: Vec<&Value> = opening["legal_moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|legal| &legal["move"])
        .collect();
    assert_eq!(squares.len(), 5, "{opening}");
    let players = [
        ("random", json!({})),
        ("minimax", json!({"depth": 2})),
        ("negamax", json!({"depth": 3})),
        ("alphabeta", json!({"depth": 4, "ordering": true})),
        ("alphabeta", json!({"time_limit_ms": 50})),
        ("mcs", json!({"playouts": 5})),
        ("mcts", json!({"simulations": 200})),
        ("solver", json!({"time_limit_ms": 50})),
        ("engine", json!({"time_limit_ms": 50})),
    ];
    let position = json!({"game": "othello", "moves": ["d3", "c5"]});
    for (body, answer) in every_algorithm_answers(&url, &position, &players).await {
        let mv = answer["move"]
            .as_str()
            .unwrap_or_else(|| panic!("{body}: {answer}"));
        assert!(squares.contains(&&json!(mv)), "{body}: {answer}");
        assert_eq!(answer["side_to_move"], "O", "{answer}");
    }
    // FFO #1, 14 empties: solved, every move with its final disc difference.
    let ffo_1 = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";
    let body = json!({"game": "othello", "board": ffo_1, "algorithm": "solver"});
    let answer: Value = post(&url, "/move", body.clone())
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        (&answer["move"], &answer["margin"]),
        (&json!("g8"), &json!(18)),
        "{answer}"
    );
    let analysis: Value = post(&url, "/analyze", body).await.json().await.unwrap();
    let margins: Vec<(&Value, &Value)> = analysis["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|entry| (&entry["move"], &entry["margin"]))
        .collect();
    assert_eq!(margins.len(), 8, "{analysis}");
    assert_eq!(margins[0], (&json!("g8"), &json!(18)), "{analysis}");
    assert_eq!(margins[7], (&json!("g2"), &json!(-24)), "{analysis}");
    // Black has no square after these eight plies: its one move is a pass, with no cell.
    let line = json!(["d3", "c3", "b3", "b2", "f5", "a3", "a1", "c1"]);
    let position: Value = post(&url, "/position", json!({"game": "othello", "moves": line}))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        position["legal_moves"],
        json!([{"move": "pass", "row": null, "col": null}]),
        "{position}"
    );
    let answer: Value = post(
        &url,
        "/move",
        json!({"game": "othello", "moves": line, "algorithm": "alphabeta", "depth": 3}),
    )
    .await
    .json()
    .await
    .unwrap();
    assert_eq!(
        (&answer["move"], &answer["row"], &answer["col"]),
        (&json!("pass"), &Value::Null, &Value::Null),
        "{answer}"
    );
    assert_eq!(answer["side_to_move"], "O", "{answer}");
    // A pass while a square is legal is refused, saying why.
    let problem = problem(
        &url,
        "/move",
        json!({"game": "othello", "moves": ["pass"]}),
        422,
    )
    .await;
    assert!(
        problem["detail"]
            .as_str()
            .unwrap()
            .contains("only legal when no square is"),
        "{problem}"
    );
    // A whole game, mcts against alphabeta, plays to its end.
    let report: Value = post(
        &url,
        "/tournament",
        json!({"game": "othello", "players": [{"algorithm": "mcts", "simulations": 100}, {"algorithm": "alphabeta", "depth": 2}], "games": 2, "seed": 7}),
    )
    .await
    .json()
    .await
    .unwrap();
    assert_eq!(report["games"], 2, "{report}");
    assert_eq!(report["complete"], true, "{report}");
}

/// `POST /position` says what a position is, finished or not, so that a front end draws it and
/// offers the legal moves without the rules: the board, the status, the side to move, each
/// legal move with its cell, the winning line.
#[tokio::test]
async fn a_position_is_described_by_the_rules() {
    let url = start().await;
    let body: Value = post(&url, "/position", json!({"moves": [4, 0]}))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(body["board"], "O../.X./...");
    assert_eq!(
        (&body["side_to_move"], &body["ply"]),
        (&json!("X"), &json!(2))
    );
    let legal = body["legal_moves"].as_array().unwrap();
    assert_eq!(legal.len(), 7);
    assert_eq!(legal[0], json!({"move": 1, "row": 0, "col": 1}));
    assert_eq!(body["winning_line"], json!([]));
    // Finished: no 422, the line that won.
    let body: Value = post(&url, "/position", json!({"board": "XXX/OO./..."}))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        (&body["status"], &body["side_to_move"]),
        (&json!("x_won"), &Value::Null)
    );
    assert_eq!(body["legal_moves"], json!([]));
    assert_eq!(body["winning_line"].as_array().unwrap().len(), 3);
    // Connect Four: a column's move fills its lowest free cell, rows counted from the bottom.
    let body: Value = post(&url, "/position", json!({"game": "connect4", "moves": [3]}))
        .await
        .json()
        .await
        .unwrap();
    assert!(
        body["legal_moves"]
            .as_array()
            .unwrap()
            .contains(&json!({"move": 3, "row": 1, "col": 3})),
        "{body}"
    );
    // Gomoku in its notation, and a win along a row.
    let body: Value = post(
        &url,
        "/position",
        json!({"game": "gomoku", "moves": ["a8", "a1", "b8", "b1", "c8", "c1", "d8", "d1", "e8"]}),
    )
    .await
    .json()
    .await
    .unwrap();
    assert_eq!(body["status"], "x_won");
    assert_eq!(body["winning_line"].as_array().unwrap().len(), 5, "{body}");
    problem(&url, "/position", json!({"moves": [4, 4]}), 422).await;
    problem(
        &url,
        "/position",
        json!({"moves": [], "algorithm": "mcts"}),
        400,
    )
    .await;
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
            Kind::Choice { .. } => ("string", Value::Null, Value::Null),
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
        let takes: Vec<&str> = knob.algorithms.iter().map(|a| a.name()).collect();
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
    for (name, maximum) in sente::api::knobs::maxima() {
        if name == "max_nodes" {
            // The service's own node limit, which bounds the engine's `nodes` knob too.
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

/// A game may offer several evaluations, apart from its rules, chosen by a knob: tic-tac-toe
/// has the open lines (its default) and the tutorials' positional weights.
#[tokio::test]
async fn an_evaluation_is_chosen_by_a_knob() {
    let url = start().await;
    let algorithms = get_json(&url, "/algorithms").await;
    let negamax = algorithms
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["name"] == "negamax")
        .unwrap();
    let evaluation = negamax["knobs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|k| k["name"] == "evaluation")
        .unwrap();
    assert_eq!(evaluation["values"], json!(["open_lines", "positional"]));
    assert_eq!(evaluation["default"], "open_lines");
    // One ply deep from a corner: the positional weights take the centre; each evaluation's
    // score is its own.
    let scores: Vec<Value> = {
        let mut scores = Vec::new();
        for name in ["open_lines", "positional"] {
            let body =
                json!({"moves": [0], "algorithm": "negamax", "depth": 1, "evaluation": name});
            let answer: Value = post(&url, "/move", body).await.json().await.unwrap();
            assert_eq!(answer["exact"], false, "{answer}");
            scores.push(answer["score"].clone());
            if name == "positional" {
                assert_eq!(answer["move"], 4, "{answer}");
            }
        }
        scores
    };
    assert_ne!(scores[0], scores[1]);
    let refused = problem(
        &url,
        "/move",
        json!({"moves": [], "algorithm": "minimax", "depth": 2, "evaluation": "Positional"}),
        422,
    )
    .await;
    assert!(
        refused["detail"]
            .as_str()
            .unwrap()
            .contains("Did you mean \"positional\"?"),
        "{refused}"
    );
    // Connect Four's one evaluation, and none for the samplers.
    problem(&url, "/move", json!({"moves": [], "game": "connect4", "algorithm": "negamax", "depth": 2, "evaluation": "positional"}), 422).await;
    problem(
        &url,
        "/move",
        json!({"moves": [], "algorithm": "mcts", "evaluation": "open_lines"}),
        422,
    )
    .await;
}

/// Chess over HTTP: a FEN, UCI and SAN moves, the engine's answer in both notations with its
/// centipawns, depth and line, every move analysed, a position's moves with their squares, and
/// a tournament from openings with a cap on plies.
#[tokio::test]
async fn chess_is_served_by_every_endpoint() {
    let url = start().await;
    let chess = |body: Value| {
        let mut body = body;
        body["game"] = json!("chess");
        body
    };
    let answer: Value = post(
        &url,
        "/move",
        chess(json!({"moves": [], "time_limit_ms": 200})),
    )
    .await
    .json()
    .await
    .unwrap();
    assert_eq!(answer["algorithm"], "engine", "chess's default: {answer}");
    assert!(answer["move"].as_str().unwrap().len() == 4, "{answer}");
    assert!(
        answer["san"].is_string() && answer["cp"].is_i64(),
        "{answer}"
    );
    assert!(answer["depth"].as_u64().unwrap() >= 1, "{answer}");
    assert_eq!(
        answer["pv"].as_array().unwrap().len(),
        answer["pv_san"].as_array().unwrap().len()
    );
    assert_eq!(answer["side_to_move"], "O");
    assert_eq!(answer["legal_moves"].as_array().unwrap().len(), 20);

    // Mate in one, from a FEN with SAN moves played from it: the answer says mate and how.
    let mate: Value = post(
        &url,
        "/move",
        chess(json!({"board": "6k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1", "moves": ["h6", "Rd7"]})),
    )
    .await
    .json()
    .await
    .unwrap();
    assert_eq!(mate["side_to_move"], "X", "{mate}");
    let mated: Value = post(
        &url,
        "/move",
        chess(json!({"moves": ["f2f3", "e7e5", "g2g4"], "time_limit_ms": 100})),
    )
    .await
    .json()
    .await
    .unwrap();
    assert_eq!(
        (
            &mated["move"],
            &mated["san"],
            &mated["mate"],
            &mated["status"],
            &mated["ending"]
        ),
        (
            &json!("d8h4"),
            &json!("Qh4#"),
            &json!(1),
            &json!("o_won"),
            &json!("checkmate")
        )
    );

    // A forced mate in two (1. Ra6! bxa6 2. b7#): `mate: 2` and the mating line.
    let two: Value = post(
        &url,
        "/move",
        chess(json!({"board": "kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1", "time_limit_ms": 2000})),
    )
    .await
    .json()
    .await
    .unwrap();
    assert_eq!(
        (&two["move"], &two["mate"], &two["score"]),
        (&json!("a1a6"), &json!(2), &json!(1.0)),
        "{two}"
    );
    assert!(two["pv_san"][2].as_str().unwrap().ends_with('#'), "{two}");

    // The tutorial's alphabeta, depth 3 over material, by name.
    let tutorial: Value = post(
        &url,
        "/move",
        chess(json!({"moves": [], "algorithm": "alphabeta", "depth": 3, "evaluation": "material"})),
    )
    .await
    .json()
    .await
    .unwrap();
    assert_eq!(
        (tutorial["cp"].as_i64(), tutorial["exact"].as_bool()),
        (Some(0), Some(false))
    );
    assert!(tutorial["nodes"].as_u64().unwrap() > 20);

    let analysis: Value = post(
        &url,
        "/analyze",
        chess(json!({"moves": ["e4", "e5"], "time_limit_ms": 300})),
    )
    .await
    .json()
    .await
    .unwrap();
    let moves = analysis["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 29, "{analysis}");
    // The engine's analysis deepens as its move does: stopped by its own time, it says so.
    assert_eq!(analysis["stopped_by"], "time_limit", "{analysis}");
    let cps: Vec<i64> = moves.iter().map(|m| m["cp"].as_i64().unwrap()).collect();
    assert!(
        cps.windows(2).all(|pair| pair[0] >= pair[1]),
        "best first: {cps:?}"
    );
    assert!(
        moves
            .iter()
            .all(|m| m["pv"][0] == m["move"] && m["pv_san"][0] == m["san"])
    );

    let position: Value = post(&url, "/position", chess(json!({"moves": ["e4"]})))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(position["ply"], 1);
    let knight = position["legal_moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["move"] == "g8f6")
        .unwrap();
    assert_eq!(
        knight,
        &json!({"move": "g8f6", "san": "Nf6", "row": 5, "col": 5, "from": {"row": 7, "col": 6}})
    );

    let tournament: Value = post(
        &url,
        "/tournament",
        chess(json!({
            "players": [{"algorithm": "random"}, {"algorithm": "alphabeta", "depth": 1}],
            "openings": [{"moves": ["e4", "c5"]}, {"board": "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1"}],
            "max_plies": 30,
            "seed": 7,
        })),
    )
    .await
    .json()
    .await
    .unwrap();
    assert_eq!(
        (
            &tournament["games"],
            &tournament["openings"],
            &tournament["max_plies"]
        ),
        (&json!(4), &json!(2), &json!(30)),
        "{tournament}"
    );
    assert!(tournament["capped_games"].as_u64().unwrap() <= 4);
}

/// Bad FENs and moves: each a 4xx problem naming what is wrong, and the service still up.
#[tokio::test]
async fn bad_fens_and_moves_are_problems() {
    let url = start().await;
    let start_fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let cases: Vec<(Value, &str, &str)> = vec![
        (
            json!({"board": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w"}),
            "board",
            "missing",
        ),
        (
            json!({"board": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1"}),
            "board",
            "7 ranks",
        ),
        (
            json!({"board": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNZ w KQkq - 0 1"}),
            "board",
            "'Z'",
        ),
        (
            json!({"board": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1"}),
            "board",
            "side to move",
        ),
        (
            json!({"board": "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1"}),
            "board",
            "one king",
        ),
        (
            json!({"board": "rnbqkbnP/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR w KQq - 0 1"}),
            "board",
            "first or last rank",
        ),
        (
            json!({"board": "4k3/8/8/8/8/4R3/8/4K3 w - - 0 1"}),
            "board",
            "not to move is in check",
        ),
        (
            json!({"board": "4k3/8/8/8/8/8/8/4K2R w KQ - 0 1"}),
            "board",
            "castling right",
        ),
        (
            json!({"board": "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e3 0 1"}),
            "board",
            "en passant",
        ),
        (
            json!({"board": "x".repeat(500)}),
            "board",
            "at most 100 characters",
        ),
        (json!({"moves": ["e2e4", "e2e4"]}), "moves[1]", "\"e2e4\""),
        (
            json!({"moves": ["e4", "Ke2", "Ke7"]}),
            "moves[1]",
            "\"Ke2\"",
        ),
        (json!({"moves": [796]}), "moves[0]", "UCI"),
        (json!({"moves": ["castle"]}), "moves[0]", "SAN"),
        (
            json!({"board": "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", "moves": ["Nd2"]}),
            "moves[0]",
            "more than one",
        ),
        (
            json!({"moves": ["f3", "e5", "g4", "Qh4#", "e4"]}),
            "moves[4]",
            "over",
        ),
        (
            json!({"board": "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"}),
            "board",
            "checkmate: Black has won",
        ),
        (
            json!({"board": "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"}),
            "board",
            "drawn by stalemate",
        ),
        (
            json!({"board": start_fen, "algorithm": "minimax"}),
            "depth",
            "needs a depth",
        ),
        (
            json!({"board": start_fen, "algorithm": "alphabeta", "evaluation": "nnue"}),
            "evaluation",
            "material",
        ),
        (
            json!({"board": start_fen, "algorithm": "engine", "simulations": 3}),
            "simulations",
            "engine",
        ),
        (
            json!({"board": start_fen, "algorithm": "engine", "depth": 65}),
            "depth",
            "between 1 and 64",
        ),
    ];
    assert!(cases.len() >= 20);
    for (body, field, expected) in cases {
        let mut body = body;
        body["game"] = json!("chess");
        let problem = problem(&url, "/move", body.clone(), 422).await;
        assert_eq!(problem["field"], field, "{body}: {problem}");
        let detail = problem["detail"].as_str().unwrap();
        assert!(
            detail.contains(expected),
            "{body}: {detail:?} lacks {expected:?}"
        );
    }
    let opening = problem(
        &url,
        "/tournament",
        json!({"game": "chess", "players": [{}, {}], "openings": [{"moves": []}, {"moves": ["e5"]}]}),
        422,
    )
    .await;
    assert_eq!(opening["field"], "openings[1].moves[0]", "{opening}");
    assert_eq!(get_json(&url, "/healthz").await, json!({"status": "ok"}));
}

#[tokio::test]
async fn a_streamed_tournament_reports_progress_then_its_answer() {
    let url = start().await;
    let response = Client::new()
        .post(format!("{url}/tournament"))
        .header("accept", "application/x-ndjson")
        .json(&json!({
            "game": "connect4", "games": 24, "seed": 3,
            "openings": {"random_plies": 4},
            "players": [{"algorithm": "mcts", "simulations": 30000}, {"algorithm": "random"}],
        }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(
        header_text(&response, "content-type"),
        "application/x-ndjson"
    );
    let text = response.text().await.unwrap();
    let lines: Vec<Value> = text
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let (last, progress) = lines.split_last().unwrap();
    assert_eq!(last["result"]["games"], 24, "{text}");
    assert_eq!(last["result"]["complete"], true, "{text}");
    assert!(!progress.is_empty(), "{text}");
    let mut games = 0;
    for line in progress {
        let played = line["progress"]["games"].as_u64().unwrap();
        assert!(played > games && played <= 24, "{text}");
        games = played;
        // A tournament still being played says so, not why it stopped.
        if played < 24 {
            assert_eq!(line["progress"]["running"], true, "{line}");
            assert_eq!(line["progress"]["complete"], false, "{line}");
            assert!(line["progress"].get("stopped_by").is_none(), "{line}");
        }
    }
    assert!(last["result"].get("running").is_none(), "{text}");
}

#[tokio::test]
async fn an_answer_records_at_most_the_limits_games() {
    let url = start_with(AppState {
        max_recorded_games: 10,
        ..AppState::default()
    })
    .await;
    let limits = get_json(&url, "/limits").await;
    assert_eq!(limits["max_recorded_games"], 10);
    assert_eq!(limits["write_timeout_ms"], 10_000);
    let request = |games: u64, records: bool| {
        json!({"game": "gomoku", "games": games, "records": records,
               "players": [{"algorithm": "random"}, {"algorithm": "random"}]})
    };
    let refused = problem(&url, "/tournament", request(11, true), 422).await;
    assert_eq!(refused["field"], "records", "{refused}");
    assert!(
        refused["detail"]
            .as_str()
            .unwrap()
            .contains("at most 10 games"),
        "{refused}"
    );
    // As PGN (records, written otherwise) too.
    let pgn = Client::new()
        .post(format!("{url}/tournament"))
        .header("accept", "application/x-chess-pgn")
        .json(&json!({"game": "chess", "games": 11, "max_plies": 4,
                      "players": [{"algorithm": "random"}, {"algorithm": "random"}]}))
        .send()
        .await
        .unwrap();
    assert_problem(pgn, 422, "pgn of 11 games").await;
    let answer: Value = post(&url, "/tournament", request(10, true))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(answer["records"].as_array().unwrap().len(), 10);
    // Without records, any number of games.
    let answer: Value = post(&url, "/tournament", request(100, false))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(answer["games"], 100);
}

/// A client that asks for a large answer and never reads it holds the slot its answer was
/// played in until the write timeout cuts it off; then the next heavy request runs.
#[tokio::test]
async fn a_client_that_never_reads_its_answer_is_cut_off_and_frees_its_slot() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let url = start_with(AppState {
        write_timeout: Duration::from_millis(500),
        ..one_heavy_slot(4)
    })
    .await;
    // Some 25 MB: more than the connection's buffers hold.
    let body = json!({"game": "chess", "games": 1000, "records": true,
                      "players": [{"algorithm": "random"}, {"algorithm": "random"}]})
    .to_string();
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    // A small window, so that the answer waits in the server rather than in this client.
    socket.set_recv_buffer_size(4096).unwrap();
    let mut silent = socket
        .connect(url.trim_start_matches("http://").parse().unwrap())
        .await
        .unwrap();
    let head = format!(
        "POST /tournament HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n",
        body.len()
    );
    silent.write_all(head.as_bytes()).await.unwrap();
    silent.write_all(body.as_bytes()).await.unwrap();
    // Its games played, its answer waiting: a tournament asked now needs the one slot.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let next = json!({"game": "tictactoe", "games": 2,
                      "players": [{"algorithm": "random"}, {"algorithm": "random"}]});
    let answered = tokio::time::timeout(Duration::from_secs(20), post(&url, "/tournament", next))
        .await
        .expect("the slot was freed");
    assert_eq!(answered.status(), 200);
    // The silent client's answer was cut off: what it can still read ends before the whole.
    let mut taken = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(10), silent.read_to_end(&mut taken)).await;
    let text = String::from_utf8_lossy(&taken);
    assert!(read.is_ok(), "the connection stays open");
    assert!(
        text.starts_with("HTTP/1.1 200"),
        "{}",
        &text[..text.len().min(200)]
    );
    assert!(!text.trim_end().ends_with('}'), "the whole answer was sent");
}

/// Engines that close their output, or write what is not UTF-8, lose their games at once and
/// leave the service's one heavy slot free for what comes next.
#[tokio::test]
async fn misbehaving_engines_never_hold_the_services_slot() {
    let engines_dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/engines");
    let engines: Vec<_> = ["close", "latin1", "flood"]
        .iter()
        .map(|name| {
            let config = format!("{name}={engines_dir}/{name}.sh");
            std::sync::Arc::new(sente::api::tournament::configure_engine(&config).unwrap())
        })
        .collect();
    let url = start_with(AppState {
        engines: engines.into(),
        ..one_heavy_slot(4)
    })
    .await;
    for name in ["close", "latin1", "flood"] {
        let body = json!({"game": "chess", "games": 2,
                          "players": [{"engine": name, "tc": "5/move"}, {"algorithm": "random"}]});
        let answer = tokio::time::timeout(Duration::from_secs(20), post(&url, "/tournament", body))
            .await
            .unwrap_or_else(|_| panic!("{name} wedged the slot"));
        let answer: Value = answer.json().await.unwrap();
        assert_eq!(answer["games"], 2, "{name}: {answer}");
        assert_eq!(answer["players"][1]["wins"], 2, "{name}: {answer}");
    }
    // The next heavy search runs.
    let chess = json!({"game": "chess", "moves": ["e2e4"], "algorithm": "engine", "depth": 4});
    assert_eq!(post(&url, "/move", chess).await.status(), 200);
}

#[tokio::test]
async fn an_engine_option_is_one_the_engine_lists_and_the_operator_allows() {
    let engine = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/engines/illegal.sh");
    let configured = sente::api::tournament::configure_engine(&format!("x={engine}")).unwrap();
    // The test engine lists no option: every option is one it does not have.
    let url = start_with(AppState {
        engines: vec![std::sync::Arc::new(configured)].into(),
        ..AppState::default()
    })
    .await;
    let body = json!({"game": "chess", "players": [
        {"engine": "x", "tc": "1/move", "options": {"UCI_LimitStrenght": true}},
        {"algorithm": "random"}]});
    let refused = problem(&url, "/tournament", body, 422).await;
    assert_eq!(refused["field"], "players[0].options.UCI_LimitStrenght");
    assert!(
        refused["detail"]
            .as_str()
            .unwrap()
            .contains("x has no option"),
        "{refused}"
    );
    let body = json!({"game": "chess", "players": [{"engine": "x"}, {"algorithm": "random"}]});
    let refused = problem(&url, "/tournament", body, 422).await;
    assert_eq!(refused["field"], "players[0].tc");
}

#[tokio::test]
async fn chess_games_come_as_pgn_when_asked() {
    let url = start().await;
    let request = |game: &str| {
        json!({
            "game": game, "games": 2, "seed": 5, "max_plies": 12,
            "players": [{"algorithm": "random"}, {"algorithm": "alphabeta", "depth": 1}],
        })
    };
    let pgn = |game: &str| {
        Client::new()
            .post(format!("{url}/tournament"))
            .header("accept", "application/x-chess-pgn")
            .json(&request(game))
            .send()
    };
    let response = pgn("chess").await.unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(
        header_text(&response, "content-type"),
        "application/x-chess-pgn"
    );
    let text = response.text().await.unwrap();
    assert_eq!(text.matches("[Event ").count(), 2, "{text}");
    assert!(text.contains("[PlyCount \"12\"]"), "{text}");
    assert!(text.contains("[Termination \"adjudication\"]"), "{text}");
    assert_problem(pgn("connect4").await.unwrap(), 406, "PGN of connect4").await;
}

#[tokio::test]
async fn an_engine_must_be_one_the_service_was_started_with() {
    let url = start().await;
    let body = json!({
        "game": "chess",
        "players": [{"engine": "stockfish", "options": {"UCI_Elo": 1500}}, {"algorithm": "random"}],
    });
    let refused = problem(&url, "/tournament", body, 422).await;
    assert_eq!(refused["field"], "players[0].engine");
    assert!(
        refused["detail"]
            .as_str()
            .unwrap()
            .contains("started with none"),
        "{refused}"
    );
    let body = json!({
        "game": "connect4",
        "players": [{"algorithm": "random", "tc": "fast"}, {"algorithm": "random"}],
    });
    let refused = problem(&url, "/tournament", body, 422).await;
    assert_eq!(refused["field"], "players[0].tc");
    let body = json!({
        "players": [{}, {}], "sprt": {"elo0": 5, "elo1": 0},
    });
    let refused = problem(&url, "/tournament", body, 422).await;
    assert_eq!(refused["field"], "sprt");
}

#[tokio::test]
async fn the_engine_deepens_no_further_than_its_depth() {
    let url = start().await;
    let chess = json!({"game": "chess", "moves": ["e2e4"], "algorithm": "engine", "depth": 3, "time_limit_ms": 10000});
    let answer: Value = post(&url, "/move", chess).await.json().await.unwrap();
    assert_eq!(
        (&answer["depth"], &answer["exact"]),
        (&json!(3), &json!(false)),
        "{answer}"
    );
    // Elsewhere the engine is the solver, which a depth turns into alphabeta that deep: not
    // solved, a line no longer than the depth.
    let connect4 = json!({"game": "connect4", "moves": [3], "algorithm": "engine", "depth": 5});
    let answer: Value = post(&url, "/move", connect4).await.json().await.unwrap();
    assert_eq!(answer["exact"], false, "{answer}");
    assert!(answer["pv"].as_array().unwrap().len() <= 5, "{answer}");
}

#[tokio::test]
async fn a_streamed_tournament_whose_reader_goes_away_stops_and_frees_its_slot() {
    let url = start_with_one_heavy_slot(1).await;
    let mut response = Client::new()
        .post(format!("{url}/tournament"))
        .header("accept", "application/x-ndjson")
        .json(&json!({"players": [{"algorithm": "mcts", "simulations": 100000}, {"algorithm": "mcts", "simulations": 100000}], "games": 100000}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    // The first progress line comes with the first game; then the reader hangs up.
    let first = response.chunk().await.unwrap().unwrap();
    let line: Value = serde_json::from_slice(&first).unwrap();
    assert!(line["progress"]["games"].as_u64().unwrap() >= 1, "{line}");
    drop(response);
    let started = std::time::Instant::now();
    let answer = post(
        &url,
        "/analyze",
        json!({"moves": [], "algorithm": "solver"}),
    )
    .await;
    assert_eq!(answer.status(), StatusCode::OK);
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "{:?}",
        started.elapsed()
    );
}

/// `/move` and `/analyze` stream the chess engine's iterations when asked, deepening one by
/// one, then the answer, whose move and depth are the last iteration's.
#[tokio::test]
async fn a_watched_search_streams_its_iterations_then_its_answer() {
    let url = start().await;
    for path in ["/move", "/analyze"] {
        let response = Client::new()
            .post(format!("{url}{path}"))
            .header("accept", "application/x-ndjson")
            .json(&json!({"game": "chess", "moves": ["e4", "e5"], "depth": 6}))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        assert_eq!(
            header_text(&response, "content-type"),
            "application/x-ndjson"
        );
        let text = response.text().await.unwrap();
        let lines: Vec<Value> = text
            .lines()
            .map(|line| serde_json::from_str(line).unwrap())
            .collect();
        let (last, iterations) = lines.split_last().unwrap();
        let depths: Vec<u64> = iterations
            .iter()
            .map(|line| line["iteration"]["depth"].as_u64().unwrap())
            .collect();
        assert_eq!(depths, [1, 2, 3, 4, 5, 6], "{path}: {text}");
        let deepest = &iterations[5]["iteration"];
        for field in ["seldepth", "cp", "nodes", "nps", "time_ms", "pv", "pv_san"] {
            assert!(!deepest[field].is_null(), "{path}: {field} in {deepest}");
        }
        assert!(deepest["seldepth"].as_u64().unwrap() >= 6, "{deepest}");
        // White to move after 1.e4 e5: its view, as the answer's.
        assert_eq!(deepest["score_for"], "X", "{deepest}");
        let result = &last["result"];
        assert_eq!(result["score_for"], deepest["score_for"], "{result}");
        let best = if path == "/move" {
            assert_eq!(result["depth"], 6, "{result}");
            assert!(result["seldepth"].as_u64().unwrap() >= 6, "{result}");
            &result["move"]
        } else {
            &result["moves"][0]["move"]
        };
        assert_eq!(best, &deepest["pv"][0], "{path}: {text}");
    }
    // A problem found before searching is the usual 422, not a stream.
    let response = Client::new()
        .post(format!("{url}/move"))
        .header("accept", "application/x-ndjson")
        .json(&json!({"game": "chess", "moves": ["e5"]}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::UNPROCESSABLE_ENTITY);
}

/// A client that stops reading a watched search stops it: the one heavy slot is free again at
/// once, not after the search's ten seconds.
#[tokio::test]
async fn a_watched_search_whose_reader_goes_away_stops() {
    let url = start_with_one_heavy_slot(0).await;
    let mut response = Client::new()
        .post(format!("{url}/move"))
        .header("accept", "application/x-ndjson")
        .json(&json!({"game": "chess", "moves": [], "time_limit_ms": 10000}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let first = response.chunk().await.unwrap().unwrap();
    let first = std::str::from_utf8(&first).unwrap().lines().next().unwrap();
    let line: Value = serde_json::from_str(first).unwrap();
    assert_eq!(line["iteration"]["depth"], 1, "{line}");
    drop(response);
    let started = std::time::Instant::now();
    loop {
        let answer = post(
            &url,
            "/analyze",
            json!({"moves": [], "algorithm": "solver"}),
        )
        .await;
        if answer.status() == StatusCode::OK {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "the slot is still taken after {:?}",
            started.elapsed()
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Scores are written to four decimals (a search's values are whole ten-thousandths of a
/// win), a tournament's move times to the microsecond: no `0.06251373464974197`.
#[tokio::test]
async fn scores_are_written_to_the_precision_they_mean() {
    let url = start().await;
    let decimals = |value: &Value| {
        let text = value.to_string();
        text.split_once('.')
            .map_or(0, |(_, fraction)| fraction.len())
    };
    let chosen: Value = post(
        &url,
        "/move",
        json!({"moves": [4], "algorithm": "mcts", "simulations": 300, "seed": 7}),
    )
    .await
    .json()
    .await
    .unwrap();
    let analysis: Value = post(
        &url,
        "/analyze",
        json!({"moves": [4], "algorithm": "mcs", "playouts": 7, "seed": 7}),
    )
    .await
    .json()
    .await
    .unwrap();
    let mut scores = vec![chosen["score"].clone()];
    scores.extend(
        analysis["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["score"].clone()),
    );
    // Sampled values are fractions of many digits: rounded, each has four decimals at most,
    // and some have more than one (the rounding keeps what they mean).
    assert!(
        scores.iter().all(|score| decimals(score) <= 4),
        "{scores:?}"
    );
    assert!(scores.iter().any(|score| decimals(score) > 1), "{scores:?}");
    let tournament: Value = post(
        &url,
        "/tournament",
        json!({"players": [{"algorithm": "mcs"}, {"algorithm": "random"}], "games": 2,
               "seed": 3, "records": true}),
    )
    .await
    .json()
    .await
    .unwrap();
    for record in tournament["records"].as_array().unwrap() {
        for mv in record["moves"].as_array().unwrap() {
            assert!(decimals(&mv["time_ms"]) <= 3, "{mv}");
            assert!(mv["score"].is_null() || decimals(&mv["score"]) <= 4, "{mv}");
        }
    }
}

/// Every answer says whose view its scores take, the side to move in the position searched (as
/// UCI engines score): Black's after 1.e4 e5 2.Nf3, though White moves next.
#[tokio::test]
async fn answers_say_whose_view_their_scores_take() {
    let url = start().await;
    let body = json!({"game": "chess", "moves": ["e2e4", "e7e5", "Nf3"], "time_limit_ms": 50});
    let answer: Value = post(&url, "/move", body.clone())
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        (&answer["score_for"], &answer["side_to_move"]),
        (&json!("O"), &json!("X")),
        "{answer}"
    );
    let analysis: Value = post(&url, "/analyze", body).await.json().await.unwrap();
    assert_eq!(analysis["score_for"], "O", "{analysis}");
    assert_eq!(
        analysis["board"], "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2",
        "the position analysed is echoed"
    );
    let tictactoe: Value = post(
        &url,
        "/analyze",
        json!({"board": "X.O/.X./O..", "algorithm": "solver"}),
    )
    .await
    .json()
    .await
    .unwrap();
    assert_eq!(
        (&tictactoe["score_for"], &tictactoe["board"]),
        (&json!("X"), &json!("X.O/.X./O.."))
    );
}

/// `/analyze` with `multipv` answers the best lines only, each with its depth, and stops as soon
/// as every line asked for is proven: a mate in one is answered after a few nodes.
#[tokio::test]
async fn the_engine_analyses_the_lines_asked_for_and_stops_when_they_are_proven() {
    let url = start().await;
    let analyze = |body: Value| {
        let url = url.clone();
        async move {
            post(&url, "/analyze", body)
                .await
                .json::<Value>()
                .await
                .unwrap()
        }
    };
    let mate = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4";
    let one =
        analyze(json!({"game": "chess", "board": mate, "multipv": 1, "time_limit_ms": 5000})).await;
    let moves = one["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 1, "{one}");
    assert_eq!(
        (&moves[0]["san"], &moves[0]["mate"], &moves[0]["depth"]),
        (&json!("Qxf7#"), &json!(1), &json!(1))
    );
    assert!(
        one.get("stopped_by").is_none() && one["nodes"].as_u64().unwrap() < 10_000,
        "{one}"
    );
    // Three lines from the start, best first, each as deep as the search went; the same
    // search without multipv values every move.
    let three = analyze(json!({"game": "chess", "moves": [], "multipv": 3, "depth": 4})).await;
    let every = analyze(json!({"game": "chess", "moves": [], "depth": 4})).await;
    let lines = three["moves"].as_array().unwrap();
    assert_eq!(lines.len(), 3, "{three}");
    assert_eq!(every["moves"].as_array().unwrap().len(), 20);
    let cps: Vec<i64> = lines
        .iter()
        .map(|line| line["cp"].as_i64().unwrap())
        .collect();
    assert!(
        cps.windows(2).all(|pair| pair[0] >= pair[1]),
        "best first: {three}"
    );
    assert!(
        lines
            .iter()
            .all(|line| line["depth"] == 4 && line["pv"].as_array().unwrap().len() >= 2),
        "{three}"
    );
    assert!(
        three["nodes"].as_u64().unwrap() < every["nodes"].as_u64().unwrap(),
        "the other moves are only shown worse: {} against {} nodes",
        three["nodes"],
        every["nodes"]
    );
    // The knob is the engine's.
    let refused = problem(
        &url,
        "/analyze",
        json!({"game": "chess", "moves": [], "algorithm": "alphabeta", "multipv": 2}),
        422,
    )
    .await;
    assert_eq!(refused["field"], "multipv", "{refused}");
}

/// A draw the rules let a player claim (fifty moves, threefold repetition) does not stop a
/// search: the answer says it may be claimed. A game over by rule (here, no mating material)
/// is still refused.
#[tokio::test]
async fn a_claimable_draw_is_analysed_and_said() {
    let url = start().await;
    let fifty = "8/8/4k3/8/8/3K4/4P3/8 w - - 100 80";
    for path in ["/move", "/analyze"] {
        let body = json!({"game": "chess", "board": fifty, "depth": 3});
        let answer: Value = post(&url, path, body).await.json().await.unwrap();
        assert_eq!(
            answer["claimable_draw"], "fifty_move_rule",
            "{path}: {answer}"
        );
    }
    let repeated = json!({"game": "chess", "moves": ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"], "algorithm": "alphabeta", "depth": 2});
    let answer: Value = post(&url, "/analyze", repeated).await.json().await.unwrap();
    assert_eq!(answer["claimable_draw"], "threefold_repetition", "{answer}");
    assert_eq!(answer["moves"].as_array().unwrap().len(), 20, "{answer}");
    let none: Value = post(
        &url,
        "/move",
        json!({"game": "chess", "moves": [], "depth": 1}),
    )
    .await
    .json()
    .await
    .unwrap();
    assert!(none.get("claimable_draw").is_none(), "{none}");
    let dead = problem(
        &url,
        "/move",
        json!({"game": "chess", "board": "8/8/4k3/8/8/3K4/8/8 w - - 100 80"}),
        422,
    )
    .await;
    assert!(
        dead["detail"]
            .as_str()
            .unwrap()
            .contains("insufficient material"),
        "{dead}"
    );
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
