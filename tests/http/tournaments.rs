//! `POST /tournament`: reports, time limits, streamed progress, records, clients that go away.

use super::*;

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
