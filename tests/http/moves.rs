//! `POST /move`, `POST /analyze` and `POST /position`: answers, scores, seeds, watched searches.

use super::*;

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
        let moves: Vec<Value> = answer["legal_moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|legal| legal["move"].clone())
            .collect();
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
    for algorithm in sente::search::Algorithm::ALL.map(|algorithm| algorithm.name()) {
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
            let sampled = randomized || algorithm == "alphazero";
            if !sampled {
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
    // Connect Four: a column's move fills its lowest free cell, rows counted from the top.
    let body: Value = post(&url, "/position", json!({"game": "connect4", "moves": [3]}))
        .await
        .json()
        .await
        .unwrap();
    assert!(
        body["legal_moves"]
            .as_array()
            .unwrap()
            .contains(&json!({"move": 3, "row": 4, "col": 3})),
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

/// `/move` and `/analyze` stream the chess engine's iterations when asked, deepening one by
/// one, then the answer, whose move and depth are the last iteration's; an analysis sends every
/// line of each iteration, ranked.
#[tokio::test]
async fn a_watched_search_streams_its_iterations_then_its_answer() {
    let url = start().await;
    for path in ["/move", "/analyze"] {
        let mut request = json!({"game": "chess", "moves": ["e4", "e5"], "depth": 6});
        if path == "/analyze" {
            request["multipv"] = json!(3);
        }
        let response = Client::new()
            .post(format!("{url}{path}"))
            .header("accept", "application/x-ndjson")
            .json(&request)
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
        let (last, told) = lines.split_last().unwrap();
        let iterations: Vec<Value> = if path == "/analyze" {
            // Three lines an iteration, ranked 1 to 3; the best of each is the iteration's.
            let ranks: Vec<u64> = told
                .iter()
                .map(|line| line["iteration"]["multipv"].as_u64().unwrap())
                .collect();
            assert_eq!(ranks, [1, 2, 3].repeat(6), "{text}");
            told.iter().step_by(3).cloned().collect()
        } else {
            assert!(
                told.iter()
                    .all(|line| line["iteration"]["multipv"].is_null()),
                "{text}"
            );
            told.to_vec()
        };
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

/// alphazero answers `/move` with its simulations as `nodes` and the most visited line, and
/// `/analyze` with each move's prior, visits and the network's value; a game without a network
/// refuses it in words, and a seed needs a temperature.
#[tokio::test]
async fn alphazero_answers_with_its_networks_priors_visits_and_values() {
    let url = start().await;
    let request =
        json!({"game": "connect4", "moves": [3, 3], "algorithm": "alphazero", "simulations": 300});
    let chosen: Value = post(&url, "/move", request.clone())
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(chosen["nodes"], 300, "{chosen}");
    assert!(chosen["pv"].as_array().unwrap().len() > 1, "{chosen}");
    let analysis: Value = post(&url, "/analyze", request).await.json().await.unwrap();
    let moves = analysis["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 7);
    let priors: f64 = moves.iter().map(|m| m["prior"].as_f64().unwrap()).sum();
    assert!((priors - 1.0).abs() < 0.01, "{analysis}");
    let visits: u64 = moves.iter().map(|m| m["visits"].as_u64().unwrap()).sum();
    assert_eq!(
        visits, 299,
        "every simulation but the root's first goes through a move"
    );
    for entry in moves.iter().filter(|m| m["visits"].as_u64() > Some(0)) {
        let value = entry["value"]
            .as_f64()
            .expect("a visited move has the network's value");
        assert!(value.abs() < 1.0, "{entry}");
    }
    assert_eq!(moves[0]["move"], chosen["move"], "the most visited first");

    let chess = post(
        &url,
        "/move",
        json!({"game": "chess", "algorithm": "alphazero"}),
    )
    .await;
    assert_eq!(chess.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let problem: Value = chess.json().await.unwrap();
    assert!(
        problem["detail"]
            .as_str()
            .unwrap()
            .contains("no network has been trained"),
        "{problem}"
    );

    let seeded = post(
        &url,
        "/move",
        json!({"algorithm": "alphazero", "moves": [], "seed": 1}),
    )
    .await;
    assert_eq!(seeded.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let hot = json!({"algorithm": "alphazero", "moves": [], "temperature": 1, "seed": 1, "simulations": 200});
    let a: Value = post(&url, "/move", hot.clone()).await.json().await.unwrap();
    let b: Value = post(&url, "/move", hot).await.json().await.unwrap();
    assert_eq!(a["move"], b["move"]);
    assert_eq!(a["seed"], 1);
}

/// What a front end draws after the engine's move comes with the move, in every game: the
/// position after it as `/position` describes it, and the move's own squares in the same rows
/// (from the top, as `cells`), so that the cell it fills holds the mover's stone or piece.
#[tokio::test]
async fn a_move_answer_draws_the_position_after_it_in_every_game() {
    let url = start().await;
    let games = get_json(&url, "/games").await;
    for game in games.as_array().unwrap() {
        let name = game["name"].as_str().unwrap();
        let answer: Value = post(
            &url,
            "/move",
            json!({"game": name, "moves": [], "level": 2, "seed": 5}),
        )
        .await
        .json()
        .await
        .unwrap();
        let position: Value = post(
            &url,
            "/position",
            json!({"game": name, "moves": [answer["move"].clone()]}),
        )
        .await
        .json()
        .await
        .unwrap();
        for field in [
            "board",
            "cells",
            "status",
            "side_to_move",
            "side_to_move_name",
            "ply",
            "legal_moves",
            "winning_line",
            "hands",
        ] {
            assert_eq!(answer[field], position[field], "{name}: {field}");
        }
        let (row, col) = (
            answer["row"].as_u64().unwrap(),
            answer["col"].as_u64().unwrap(),
        );
        let filled = &answer["cells"][row as usize][col as usize];
        assert_eq!(filled["side"], "X", "{name}: the mover's, at {row},{col}");
        // The square it came from is empty now, in the games whose pieces move.
        if let Some(from) = answer.get("from") {
            let (row, col) = (from["row"].as_u64().unwrap(), from["col"].as_u64().unwrap());
            assert_eq!(
                answer["cells"][row as usize][col as usize],
                Value::Null,
                "{name}"
            );
        }
        // Every legal move's origin holds a piece of the side to move.
        for legal in answer["legal_moves"].as_array().unwrap() {
            if let Some(from) = legal.get("from") {
                let (row, col) = (from["row"].as_u64().unwrap(), from["col"].as_u64().unwrap());
                let piece = &answer["cells"][row as usize][col as usize];
                assert_eq!(piece["side"], "O", "{name}: {legal}");
            }
        }
    }
}

/// A shogi drop says the piece it puts down, and has no square it comes from.
#[tokio::test]
async fn a_drop_says_its_piece() {
    let url = start().await;
    // Bishops traded: each side holds one, Sente to move.
    let moves = ["7g7f", "3c3d", "8h2b+", "3a2b"];
    let answer: Value = post(
        &url,
        "/analyze",
        json!({"game": "shogi", "moves": moves, "algorithm": "engine", "depth": 1}),
    )
    .await
    .json()
    .await
    .unwrap();
    let drop = answer["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|mv| mv["move"] == "B*5e")
        .unwrap_or_else(|| panic!("{answer}"));
    assert_eq!(drop["drop"], "角", "{drop}");
    assert!(drop.get("from").is_none(), "{drop}");
    assert_eq!((&drop["row"], &drop["col"]), (&json!(4), &json!(4)));
    // The position analysed comes with the analysis: Sente's bishop in hand.
    assert_eq!(answer["hands"]["X"], json!([{"piece": "角", "count": 1}]));
}

/// `"position": false` answers the move without the position after it, for a client that draws
/// nothing; `/analyze` likewise.
#[tokio::test]
async fn a_client_that_draws_nothing_may_leave_the_position_out() {
    let url = start().await;
    let body = json!({"board": "X.O/.X./O..", "algorithm": "alphabeta"});
    let whole: Value = post(&url, "/move", body.clone())
        .await
        .json()
        .await
        .unwrap();
    let mut brief_body = body.clone();
    brief_body["position"] = json!(false);
    let brief: Value = post(&url, "/move", brief_body.clone())
        .await
        .json()
        .await
        .unwrap();
    for field in [
        "board",
        "cells",
        "status",
        "legal_moves",
        "winning_line",
        "ply",
    ] {
        assert!(whole.get(field).is_some(), "{field} in {whole}");
        assert!(brief.get(field).is_none(), "{field} in {brief}");
    }
    for field in ["move", "score", "exact", "pv", "nodes", "algorithm"] {
        assert_eq!(brief[field], whole[field], "{field}");
    }
    let analysis: Value = post(&url, "/analyze", brief_body)
        .await
        .json()
        .await
        .unwrap();
    assert!(
        analysis["moves"].is_array() && analysis.get("cells").is_none(),
        "{analysis}"
    );
    let mut explicit = body;
    explicit["position"] = json!(true);
    let drawn: Value = post(&url, "/move", explicit).await.json().await.unwrap();
    assert_eq!(drawn["cells"], whole["cells"]);
}
