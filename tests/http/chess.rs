//! Chess on every endpoint: FEN and SAN, the engine, claimable draws.

use super::*;

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
    // Rows from the top, as `cells` draws them: g8 is row 0, f6 row 2.
    assert_eq!(
        knight,
        &json!({"move": "g8f6", "san": "Nf6", "row": 2, "col": 5, "from": {"row": 0, "col": 6}})
    );
    assert_eq!(position["cells"][0][6], json!({"side": "O", "piece": "N"}));

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
            json!({"board": start_fen, "algorithm": "alphabeta", "evaluation": "neural"}),
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

/// `movetime`, UCI's name for `time_limit_ms`, is read as UCI's users write it; both at once
/// are refused rather than one silently chosen.
#[tokio::test]
async fn movetime_is_the_time_limit_by_ucis_name() {
    let url = start().await;
    let timed = json!({"game": "chess", "moves": ["e2e4"], "movetime": 50});
    let answer: Value = post(&url, "/move", timed).await.json().await.unwrap();
    assert_eq!(answer["stopped_by"], "time_limit", "{answer}");
    let both = json!({"game": "chess", "moves": [], "movetime": 50, "time_limit_ms": 50});
    let refused = problem(&url, "/move", both, 422).await;
    assert_eq!(refused["field"], "movetime", "{refused}");
    assert!(
        refused["detail"].as_str().unwrap().contains("not both"),
        "{refused}"
    );
}

/// `elo` plays the levels' table: below the lowest rated level (4, three plies) that level;
/// between two rated levels, the nodes between theirs; out of its range it is refused with the
/// range said.
#[tokio::test]
async fn the_engine_plays_at_the_strength_asked_for() {
    let url = start().await;
    let weak =
        json!({"game": "chess", "moves": ["e2e4", "e7e5"], "elo": 1200, "time_limit_ms": 5000});
    let answer: Value = post(&url, "/move", weak).await.json().await.unwrap();
    assert_eq!(answer["depth"], 3, "{answer}");
    assert_eq!(answer["move"].as_str().unwrap().len(), 4, "{answer}");
    assert!(answer["seed"].is_u64(), "the draw's seed: {answer}");
    // Between level 6 (8,000 nodes, rated 2153) and 7 (40,000, rated 2315).
    let between = json!({"game": "chess", "moves": ["e2e4", "e7e5"], "elo": 2250, "seed": 1});
    let answer: Value = post(&url, "/move", between).await.json().await.unwrap();
    let nodes = answer["nodes"].as_u64().unwrap();
    assert!((8_000..=40_100).contains(&nodes), "{answer}");
    let full = json!({"game": "chess", "moves": ["e2e4", "e7e5"], "depth": 12});
    let answer: Value = post(&url, "/move", full).await.json().await.unwrap();
    assert!(answer["nodes"].as_u64().unwrap() > 40_000, "{answer}");
    let refused = problem(
        &url,
        "/move",
        json!({"game": "chess", "moves": [], "elo": 3500}),
        422,
    )
    .await;
    assert!(
        refused["detail"].as_str().unwrap().contains("2800"),
        "{refused}"
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
