//! Running the service: metrics, the healthcheck, panics, admission of heavy work, node limits, cancellation.

use super::*;

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
            // `RateLimit` counts each request down.
            .filter(|(name, _)| !["date", "content-length", "ratelimit"].contains(&name.as_str()))
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
    // The next heavy request: everyone's queue (of none) is full, the server's load.
    let response = post(
        &url,
        "/analyze",
        json!({"moves": [], "algorithm": "solver"}),
    )
    .await;
    let retry: u64 = header_text(&response, "retry-after").parse().unwrap();
    assert!(retry >= 1, "{retry}");
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
