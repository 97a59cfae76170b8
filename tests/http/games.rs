//! Connect Four, gomoku and Othello on every endpoint, with every algorithm.

use super::*;

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
        // The bottom row, counted from the top as `cells` draws it.
        (json!(3), json!(5), json!(3))
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
    for algorithm in ["random", "mcs", "mcts", "solver", "alphabeta", "engine"] {
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
        ("engine", json!({"time_limit_ms": 50})),
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

/// Shogi, added as docs/adding-a-game.md says: every algorithm answers /move and /analyze on it
/// in USI, /position says what each side holds in hand and which moves drop, an illegal drop is
/// refused in a player's words, and a game of the engine against alphabeta plays to its end.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shogi_is_served_by_every_endpoint_and_algorithm() {
    let url = start().await;
    let games = get_json(&url, "/games").await;
    let shogi = games
        .as_array()
        .unwrap()
        .iter()
        .find(|game| game["name"] == "shogi")
        .expect("shogi is in the catalogue");
    assert_eq!(shogi["sides"], json!(["Sente", "Gote"]));
    assert_eq!(
        (&shogi["hands"], &shogi["letters"]["と"]),
        (&json!(true), &json!("+P"))
    );
    let players = [
        ("random", json!({})),
        ("minimax", json!({"depth": 1})),
        ("negamax", json!({"depth": 2})),
        ("alphabeta", json!({"depth": 2})),
        ("alphabeta", json!({"time_limit_ms": 50})),
        ("mcs", json!({"playouts": 2})),
        ("mcts", json!({"simulations": 100})),
        ("solver", json!({"time_limit_ms": 50})),
        ("engine", json!({"time_limit_ms": 50})),
        (
            "engine",
            json!({"btime": 1000, "wtime": 1000, "byoyomi": 100}),
        ),
    ];
    // After a bishop exchange: each side has a bishop in hand.
    let position = json!({"game": "shogi", "moves": ["7g7f", "3c3d", "8h2b+", "3a2b"]});
    for (body, answer) in every_algorithm_answers(&url, &position, &players).await {
        assert!(answer["move"].is_string(), "{body}: {answer}");
        assert_eq!(answer["side_to_move"], "O", "{answer}");
    }
    let described: Value = post(&url, "/position", position.clone())
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        described["hands"]["X"],
        json!([{"piece": "角", "count": 1}])
    );
    assert_eq!(
        described["cells"][8][4],
        json!({"side": "X", "piece": "玉"})
    );
    let drop = described["legal_moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|legal| legal["move"] == "B*5e")
        .expect("the bishop may be dropped on 5e");
    assert_eq!((&drop["drop"], &drop["from"]), (&json!("角"), &Value::Null));
    // A pawn dropped on a file with a pawn: nifu.
    let problem = problem(
        &url,
        "/move",
        json!({"game": "shogi", "board": "4k4/9/9/9/9/9/4P4/9/4K4 b P 1", "moves": ["P*5e"]}),
        422,
    )
    .await;
    assert_eq!(problem["field"], "moves[0]");
    assert!(
        problem["detail"].as_str().unwrap().contains("nifu"),
        "{problem}"
    );
    // More pieces than a set holds: a capture would overflow a hand, where the rules crate
    // panicked (a 500 on every endpoint, a tournament that hung). Refused where it is read.
    let four_rooks = "4k4/9/9/9/9/4r4/4G4/9/4K4 b 3R 1";
    for (path, body) in [
        ("/move", json!({"game": "shogi", "board": four_rooks})),
        ("/analyze", json!({"game": "shogi", "board": four_rooks})),
        ("/position", json!({"game": "shogi", "board": four_rooks})),
        (
            "/tournament",
            json!({"game": "shogi", "start": {"board": four_rooks}, "players": [{"algorithm": "engine", "depth": 1}, {"algorithm": "random"}], "games": 2}),
        ),
    ] {
        let refused = super::problem(&url, path, body, 422).await;
        assert!(
            refused["detail"]
                .as_str()
                .unwrap()
                .contains("Sente has 3 rooks and Gote 1: a set has 2"),
            "{path}: {refused}"
        );
        assert!(
            refused["field"].as_str().unwrap().ends_with("board"),
            "{path}: {refused}"
        );
    }
    let report: Value = post(
        &url,
        "/tournament",
        json!({"game": "shogi", "players": [{"algorithm": "engine", "depth": 2}, {"algorithm": "alphabeta", "depth": 1}], "games": 2, "seed": 7}),
    )
    .await
    .json()
    .await
    .unwrap();
    assert_eq!(report["games"], 2, "{report}");
    assert_eq!(report["complete"], true, "{report}");
}

/// A game of shogi as a file (`POST /record`): KIF in Shift_JIS named for the game, with the
/// engine's evaluation after its move; CSA in UTF-8; a format or annotation that cannot be is
/// refused in words.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_of_shogi_is_had_as_kif_and_csa() {
    let url = start().await;
    let games = get_json(&url, "/games").await;
    let shogi = games
        .as_array()
        .unwrap()
        .iter()
        .find(|game| game["name"] == "shogi")
        .unwrap();
    let names: Vec<&str> = shogi["records"]
        .as_array()
        .unwrap()
        .iter()
        .map(|format| format["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["KIF", "KIFU", "CSA"]);
    assert_eq!(shogi["records"][0]["encoding"], "Shift_JIS");
    let game = json!({
        "game": "shogi",
        "moves": ["7g7f", "3c3d"],
        "players": ["You", "Sente's engine"],
        "date": "2026/11/28 10:00:00",
        "annotations": [
            {"time_ms": 3200},
            {"time_ms": 1000, "cp": 35, "depth": 12, "nodes": 123456, "pv": ["3c3d", "2g2f"]}
        ]
    });
    let response = post(&url, "/record", game.clone()).await;
    assert_eq!(response.status(), 200);
    let header = |name: &str| response.headers()[name].to_str().unwrap().to_owned();
    assert_eq!(header("content-type"), "text/plain; charset=Shift_JIS");
    assert_eq!(
        header("content-disposition"),
        "attachment; filename=\"sente-shogi-20261128-100000.kif\""
    );
    let bytes = response.bytes().await.unwrap();
    let (kif, _, malformed) = encoding_rs::SHIFT_JIS.decode(&bytes);
    assert!(!malformed);
    assert!(kif.contains("先手：You\n後手：Sente's engine\n"), "{kif}");
    assert!(
        kif.contains("   1 ７六歩(77)   ( 0:03/00:00:03)\n"),
        "{kif}"
    );
    assert!(
        kif.contains("**対局 時間 00:01.0 深さ 12 ノード数 123456 評価値 -35 読み筋 △３四歩(33) ▲２六歩(27)\n"),
        "{kif}"
    );
    assert!(kif.contains("   3 中断\nまで2手で中断\n"), "{kif}");
    let mut csa = game.clone();
    csa["format"] = json!("csa");
    let response = post(&url, "/record", csa).await;
    assert_eq!(
        response.headers()["content-type"],
        "text/plain; charset=utf-8"
    );
    let csa = response.text().await.unwrap();
    assert!(
        csa.contains("+7776FU\nT3\n-3334FU\nT1\n'** -35 +2726FU\n%CHUDAN\n"),
        "{csa}"
    );
    // A finished game ends as it ended, from the board it started from.
    let mate = json!({"game": "shogi", "format": "KIFU", "board": "4k4/9/4P4/9/9/9/9/9/4K4 b G 1", "moves": ["G*5b"]});
    let kifu = post(&url, "/record", mate).await.text().await.unwrap();
    assert!(kifu.contains("先手の持駒：金\n先手：\n後手：\n"), "{kifu}");
    assert!(
        kifu.contains("   1 ５二金打   ( 0:00/00:00:00)\n   2 詰み\nまで1手で先手の勝ち\n"),
        "{kifu}"
    );
    // Refusals: a format the game has not, more annotations than moves, a game with no format.
    let mut unknown = game.clone();
    unknown["format"] = json!("kiff");
    let refused = problem(&url, "/record", unknown, 422).await;
    assert_eq!(refused["field"], "format");
    assert!(
        refused["detail"]
            .as_str()
            .unwrap()
            .contains("Did you mean \"KIF\"?"),
        "{refused}"
    );
    let mut extra = game.clone();
    extra["annotations"] = json!([null, null, null]);
    let refused = problem(&url, "/record", extra, 422).await;
    assert_eq!(refused["field"], "annotations");
    let refused = problem(&url, "/record", json!({"game": "gomoku", "moves": []}), 422).await;
    assert!(
        refused["detail"]
            .as_str()
            .unwrap()
            .contains("no record format"),
        "{refused}"
    );
    // Annotations no engine gives and no record writes (their signs would be lost), names
    // Shift_JIS cannot write, and dates that are none: each refused, naming its field.
    for (annotation, field) in [
        (json!({"cp": -2147483648i64}), "annotations[1].cp"),
        (json!({"mate": 2147483647i64}), "annotations[1].mate"),
        (json!({"mate": 0}), "annotations[1].mate"),
        (
            json!({"mate": 1, "plies_to_end": 4294967295u64}),
            "annotations[1].plies_to_end",
        ),
    ] {
        let mut wild = game.clone();
        wild["annotations"][1] = annotation;
        let refused = problem(&url, "/record", wild, 422).await;
        assert_eq!(refused["field"], field, "{refused}");
    }
    let mut french = game.clone();
    french["players"] = json!(["Rémi", "Sente"]);
    let refused = problem(&url, "/record", french.clone(), 422).await;
    assert_eq!(refused["field"], "players[0]", "{refused}");
    assert!(
        refused["detail"].as_str().unwrap().contains("ask for KIFU"),
        "{refused}"
    );
    french["format"] = json!("KIFU");
    let kifu = post(&url, "/record", french).await.text().await.unwrap();
    assert!(kifu.contains("先手：Rémi\n"), "{kifu}");
    for date in [
        "not a date",
        "9999/99/99 99:99:99",
        "2026/02/30",
        "2026/11/28 24:00:00",
    ] {
        let mut wrong = game.clone();
        wrong["date"] = json!(date);
        let refused = problem(&url, "/record", wrong, 422).await;
        assert_eq!(refused["field"], "date", "{date}: {refused}");
    }
    let mut day = game.clone();
    day["date"] = json!("2026-11-28");
    assert_eq!(post(&url, "/record", day).await.status(), 200);
}

/// A game of chess as a file (`POST /record`): PGN, named for the game, in its media type; the
/// moves in SAN from the FEN's move number, an engine's move with its evaluation, the result
/// as the rules ended the game.
#[tokio::test]
async fn a_game_of_chess_is_written_as_pgn() {
    let url = start().await;
    let game = json!({
        "game": "chess", "moves": ["e4", "e7e5", "Nf3"], "players": ["You", "Sente"],
        "date": "2026/11/28 10:00:00",
        "annotations": [null, {"cp": -20, "depth": 9, "time_ms": 120}],
    });
    let response = post(&url, "/record", game).await;
    assert_eq!(response.status(), 200);
    assert_eq!(
        header_text(&response, "content-type"),
        "application/x-chess-pgn; charset=utf-8"
    );
    assert_eq!(
        header_text(&response, "content-disposition"),
        "attachment; filename=\"sente-chess-20261128-100000.pgn\""
    );
    let pgn = response.text().await.unwrap();
    assert!(
        pgn.starts_with("[Event \"Sente\"]\n[Site \"?\"]\n[Date \"2026.11.28\"]\n[Round \"?\"]\n[White \"You\"]\n[Black \"Sente\"]\n[Result \"*\"]\n"),
        "{pgn}"
    );
    assert!(
        pgn.ends_with("\n1. e4 e5 {-0.20/9 0.120s} 2. Nf3 *\n\n"),
        "{pgn}"
    );
    // From a position of its own, ended by mate: the FEN, the move's number, the winner.
    let mate =
        json!({"game": "chess", "board": "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 40", "moves": ["a1a8"]});
    let pgn = post(&url, "/record", mate).await.text().await.unwrap();
    assert!(
        pgn.contains("[Result \"1-0\"]\n[SetUp \"1\"]\n[FEN \"6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 40\"]\n[Termination \"normal\"]"),
        "{pgn}"
    );
    assert!(pgn.ends_with("\n40. Ra8# {checkmate} 1-0\n\n"), "{pgn}");
}

/// `multipv` on `/move` (the engine's): the best lines, the move the first's, on shogi as on
/// chess; without it, no lines.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn multipv_on_move_answers_the_lines_and_plays_the_first() {
    let url = start().await;
    for (game, moves) in [
        ("shogi", json!(["7g7f", "3c3d"])),
        ("chess", json!(["e2e4"])),
    ] {
        let body =
            json!({"game": game, "moves": moves, "algorithm": "engine", "depth": 3, "multipv": 3});
        let answer: Value = post(&url, "/move", body).await.json().await.unwrap();
        let lines = answer["lines"]
            .as_array()
            .unwrap_or_else(|| panic!("{answer}"));
        assert_eq!(lines.len(), 3, "{game}: {answer}");
        assert_eq!(answer["move"], lines[0]["move"], "{game}: {answer}");
        assert_eq!(answer["cp"], lines[0]["cp"], "{game}: {answer}");
        assert!(
            lines[0]["score"].as_f64() >= lines[2]["score"].as_f64(),
            "{game}: best first"
        );
        assert!(
            lines
                .iter()
                .all(|line| line["pv"].as_array().is_some_and(|pv| !pv.is_empty()))
        );
        let body = json!({"game": game, "moves": moves, "algorithm": "engine", "depth": 3});
        let answer: Value = post(&url, "/move", body).await.json().await.unwrap();
        assert!(answer.get("lines").is_none(), "{game}: {answer}");
    }
}

/// A level holds under `multipv`, on every game's engine: the lines are the level's, as many as
/// asked or as it chooses among, and its move is one of them (not the lines dropped).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_level_with_multipv_answers_its_lines_and_plays_one() {
    let url = start().await;
    let games = get_json(&url, "/games").await;
    for game in games.as_array().unwrap() {
        let name = game["name"].as_str().unwrap();
        for level in [1, 8] {
            let body = json!({"game": name, "moves": [], "level": level, "multipv": 2, "seed": 1, "time_limit_ms": 300});
            let answer: Value = post(&url, "/move", body).await.json().await.unwrap();
            let lines = answer["lines"]
                .as_array()
                .unwrap_or_else(|| panic!("{name} level {level}: {answer}"));
            assert!(lines.len() >= 2, "{name} level {level}: {answer}");
            assert!(
                lines.iter().any(|line| line["move"] == answer["move"]),
                "{name} level {level}: {answer}"
            );
        }
    }
}
