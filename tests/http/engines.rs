//! Tournaments with external engines: which the service allows, their options, PGN.

use super::*;

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
