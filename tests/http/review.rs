//! `POST /review`: a game of each of the six games judged move by move; what it refuses; the
//! service's limit on its time.

use super::*;

/// A short game of each game, reviewed at a short time a position: a ply for every move, the
/// sides' counts adding up to their moves, the graph a point a position, every value a
/// probability.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_of_each_game_is_reviewed_move_by_move() {
    let url = start().await;
    for (game, moves) in [
        ("tictactoe", json!([4, 1, 0, 8, 6, 2, 3])),
        ("connect4", json!([3, 3, 4, 4, 2, 2])),
        ("gomoku", json!(["h8", "h9", "i8", "i9"])),
        (
            "chess",
            json!(["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"]),
        ),
        ("othello", json!(["f5", "d6", "c3", "d3"])),
        ("shogi", json!(["7g7f", "3c3d", "8h2b+", "3a2b"])),
    ] {
        let count = moves.as_array().unwrap().len();
        let body = json!({"game": game, "moves": moves, "time_limit_ms": 50});
        let response = post(&url, "/review", body).await;
        assert_eq!(response.status(), 200, "{game}");
        let review: Value = response.json().await.unwrap();
        assert_eq!(review["complete"], true, "{game}: {review}");
        let plies = review["plies"].as_array().unwrap();
        assert_eq!(plies.len(), count, "{game}: {review}");
        for (index, ply) in plies.iter().enumerate() {
            assert_eq!(ply["ply"], index + 1, "{game}");
            let classes = ["best", "good", "inaccuracy", "mistake", "blunder"];
            assert!(
                classes.contains(&ply["class"].as_str().unwrap()),
                "{game}: {ply}"
            );
            for field in ["win_before", "win_after", "loss"] {
                let p = ply[field].as_f64().unwrap();
                assert!((0.0..=1.0).contains(&p), "{game} {field}: {ply}");
            }
            assert!(ply["played"]["move"].is_string() || ply["played"]["move"].is_number());
            assert!(ply["best"]["pv"].is_array(), "{game}: {ply}");
        }
        let sides = review["sides"].as_array().unwrap();
        for side in sides {
            let counted: u64 = ["best", "good", "inaccuracies", "mistakes", "blunders"]
                .iter()
                .map(|class| side[class].as_u64().unwrap())
                .sum();
            assert_eq!(counted, side["moves"].as_u64().unwrap(), "{game}: {side}");
        }
        assert_eq!(
            review["graph"].as_array().unwrap().len(),
            count + 1,
            "{game}"
        );
    }
}

/// Scholar's mate: Black's Nf6 lets Qxf7 mate (a blunder), White's last move is the best, and
/// the graph ends at White's win.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_that_allows_mate_is_a_blunder() {
    let url = start().await;
    let body = json!({"game": "chess", "moves": ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"], "time_limit_ms": 200});
    let review: Value = post(&url, "/review", body).await.json().await.unwrap();
    let plies = review["plies"].as_array().unwrap();
    assert_eq!(plies[5]["played"]["san"], "Nf6");
    assert_eq!(plies[5]["class"], "blunder", "{}", plies[5]);
    assert_eq!(plies[5]["played"]["mate"], -1, "{}", plies[5]);
    assert_eq!(plies[6]["class"], "best");
    assert_eq!(plies[6]["best"]["san"], "Qxf7#");
    assert_eq!(review["graph"].as_array().unwrap().last().unwrap(), 1.0);
    assert_eq!(review["units"], "cp");
    assert_eq!(review["sides"][1]["blunders"], 1, "{review}");
    assert!(
        review["sides"][0]["accuracy"].as_f64() > review["sides"][1]["accuracy"].as_f64(),
        "{review}"
    );
}

#[tokio::test]
async fn what_a_review_refuses_it_names() {
    let url = start().await;
    let refused = problem(&url, "/review", json!({"game": "chess", "moves": []}), 422).await;
    assert_eq!(refused["field"], "moves");
    let refused = problem(
        &url,
        "/review",
        json!({"game": "chess", "moves": ["e4"], "level": 3}),
        422,
    )
    .await;
    assert_eq!(refused["field"], "level");
    let refused = problem(
        &url,
        "/review",
        json!({"game": "chess", "moves": ["e4", "e4"]}),
        422,
    )
    .await;
    assert_eq!(refused["field"], "moves[1]");
}

/// The review stops at the service's tournament time limit: positions past it are left out,
/// and the answer says so, well before the time the searches asked (eight positions of a
/// second each, on at most two workers: four seconds).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_review_stops_at_the_services_limit() {
    let url = start_with(AppState {
        tournament_time_limit: Duration::from_millis(300),
        ..AppState::default()
    })
    .await;
    let started = std::time::Instant::now();
    let body = json!({"game": "chess", "moves": ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4"], "time_limit_ms": 1000});
    let review: Value = post(&url, "/review", body).await.json().await.unwrap();
    assert!(started.elapsed() < Duration::from_secs(3), "{review}");
    assert_eq!(review["complete"], false, "{review}");
    assert_eq!(review["stopped_by"], "deadline", "{review}");
    assert!(review["plies"].as_array().unwrap().len() < 7, "{review}");
}
