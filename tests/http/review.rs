//! `POST /review`: a game of each of the six games judged move by move; a game as its record in
//! each format a game writes; what it refuses; the stream of plies and a client that leaves it;
//! the service's limit on its time.

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
            assert!(ply["only_move"].is_boolean(), "{game}: {ply}");
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

/// Chess's and shogi's reviews read a score through the logistic of centipawns fitted to the
/// engine's own games (docs/review.md#the-models-on-sentes-own-games): each ply's winning
/// probability before the move is that of the best move's centipawns, not the score's own map,
/// `(score + 1) / 2`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chess_and_shogi_are_reviewed_through_their_fitted_models() {
    let url = start().await;
    for (game, moves, scale) in [
        ("chess", json!(["e4", "e5", "Nf3", "Nc6"]), 220.0),
        ("shogi", json!(["7g7f", "3c3d", "2g2f", "4c4d"]), 830.0),
    ] {
        let body = json!({"game": game, "moves": moves, "depth": 4});
        let review: Value = post(&url, "/review", body).await.json().await.unwrap();
        let mut read = 0;
        for ply in review["plies"].as_array().unwrap() {
            let (best, p) = (&ply["best"], ply["win_before"].as_f64().unwrap());
            if best["exact"] == true || best["score"].as_f64().unwrap() == 0.0 {
                continue;
            }
            let cp = best["cp"].as_f64().unwrap();
            let fitted = 1.0 / (1.0 + (-cp / scale).exp());
            assert!(
                (p - fitted).abs() < 1e-3,
                "{game}: {p} against {fitted}: {ply}"
            );
            // Near an even score every logistic reads alike: shogi's map is the logistic of
            // 600 centipawns a unit, a centipawn apart from 830's by about a ten-thousandth.
            let score_map = (best["score"].as_f64().unwrap() + 1.0) / 2.0;
            assert!(
                cp.abs() < 10.0 || (p - score_map).abs() > 1e-4,
                "{game}: the score's map: {ply}"
            );
            read += 1;
        }
        assert!(read > 0, "{game}: no ply read through the model: {review}");
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

/// A full game of Othello, sixty moves without a pass: the engine against itself at 10 and 5
/// milliseconds a move.
const OTHELLO_GAME: &str = "f5d6c4d3c3f4f6f3e6e7d7g5f8c5c6c7d2c8e8b5b6d8a6g8f7b4b3c2g6d1h4a2e3\
                            e2f2g3e1b2a1g1g4h3a3f1c1h5g2b1h1h2h6a7a8b7b8a5a4h7h8g7";

/// Every format a game writes its games in is one `/review` reads: what `/record` writes of a
/// game, in each of the game's formats, is reviewed as the same moves.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_record_writes_review_reads_in_every_format() {
    let url = start().await;
    let games: Value = get_json(&url, "/games").await;
    let mut read = 0;
    for (game, moves) in [
        (
            "chess",
            json!(["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Bxc6", "dxc6", "O-O"]),
        ),
        (
            "shogi",
            json!(["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e", "8b7b"]),
        ),
        ("othello", json!(["f5", "d6", "c3", "d3", "c4"])),
    ] {
        let formats = games
            .as_array()
            .unwrap()
            .iter()
            .find(|entry| entry["name"] == game)
            .unwrap()["records"]
            .as_array()
            .unwrap()
            .clone();
        assert!(!formats.is_empty(), "{game}");
        let expected: Vec<Value> = {
            let body = json!({"game": game, "moves": moves, "depth": 1});
            let review: Value = post(&url, "/review", body).await.json().await.unwrap();
            review["plies"]
                .as_array()
                .unwrap()
                .iter()
                .map(|ply| ply["played"]["move"].clone())
                .collect()
        };
        for format in formats {
            let name = format["name"].as_str().unwrap();
            let record = post(
                &url,
                "/record",
                json!({"game": game, "moves": moves, "format": name}),
            )
            .await;
            assert_eq!(record.status(), 200, "{game} {name}");
            let bytes = record.bytes().await.unwrap();
            // A `.kif` is Shift_JIS: a client sends its text, decoded.
            let text = match format["encoding"].as_str() {
                Some("Shift_JIS") => encoding_rs::SHIFT_JIS.decode(&bytes).0.into_owned(),
                _ => String::from_utf8(bytes.to_vec()).unwrap(),
            };
            for named in [None, Some(name)] {
                let mut body = json!({"game": game, "record": text, "depth": 1});
                if let Some(name) = named {
                    body["format"] = json!(name);
                }
                let response = post(&url, "/review", body).await;
                assert_eq!(response.status(), 200, "{game} {name}: {text}");
                let review: Value = response.json().await.unwrap();
                let played: Vec<Value> = review["plies"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|ply| ply["played"]["move"].clone())
                    .collect();
                assert_eq!(played, expected, "{game} {name}: {text}");
            }
            read += 1;
        }
    }
    // PGN; KIF, KIFU, CSA; GGF and the transcript.
    assert_eq!(read, 6);
}

/// Records as players have them, not Sente's own: a PGN with comments and a variation, KI2
/// (the moves without their squares), a transcript with move numbers.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn records_as_players_write_them_are_read() {
    let url = start().await;
    for (game, record, plies, first) in [
        (
            "chess",
            "[Event \"Casual\"]\n[White \"a\"]\n[Black \"b\"]\n\n1. e4 {the king's pawn} e5 \
             (1... c5 2. Nf3) 2. Nf3 Nc6 3. Bc4 Nd4?! 4. Nxe5 Qg5 *\n",
            8,
            "e2e4",
        ),
        (
            "shogi",
            "▲７六歩 △３四歩 ▲２二角成 △同　銀 ▲４五角",
            5,
            "7g7f",
        ),
        ("othello", "1. f5 d6 2. c3 d3 3. c4", 5, "f5"),
        ("othello", OTHELLO_GAME, 60, "f5"),
    ] {
        let body = json!({"game": game, "record": record, "depth": 1});
        let response = post(&url, "/review", body).await;
        assert_eq!(response.status(), 200, "{game}: {record}");
        let review: Value = response.json().await.unwrap();
        let reviewed = review["plies"].as_array().unwrap();
        assert_eq!(reviewed.len(), plies, "{game}: {review}");
        assert_eq!(reviewed[0]["played"]["move"], first, "{game}");
    }
}

#[tokio::test]
async fn a_record_that_cannot_be_read_is_refused_with_its_ply() {
    let url = start().await;
    for (game, record, format, field, says) in [
        (
            "chess",
            "1. e4 e5 2. Ke3 Kf6 *",
            None,
            "record",
            "ply 3 (Ke3)",
        ),
        (
            "shogi",
            "+7776FU\n-3334FU\n+2277UM\n",
            None,
            "record",
            "ply 3",
        ),
        (
            "shogi",
            "▲７六歩 △３四歩 ▲２二角成 △同　銀 ▲４五飛",
            None,
            "record",
            "ply 5",
        ),
        ("othello", "f5d6a1", None, "record", "ply 3"),
        (
            "othello",
            "(;GM[Othello]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[A1];)",
            None,
            "record",
            "ply 2",
        ),
        ("othello", "f5d6", Some("PGN"), "format", "GGF, transcript"),
        ("chess", "hello", None, "record", "PGN"),
        ("tictactoe", "4 0 8", None, "record", "no record format"),
    ] {
        let mut body = json!({"game": game, "record": record});
        if let Some(format) = format {
            body["format"] = json!(format);
        }
        let refused = problem(&url, "/review", body, 422).await;
        assert_eq!(refused["field"], field, "{game} {record}: {refused}");
        let detail = refused["detail"].as_str().unwrap();
        assert!(detail.contains(says), "{game} {record}: {detail}");
    }
    let both = json!({"game": "othello", "record": "f5d6", "moves": ["f5"]});
    assert_eq!(problem(&url, "/review", both, 422).await["field"], "record");
    let alone = json!({"game": "othello", "moves": ["f5"], "format": "GGF"});
    assert_eq!(
        problem(&url, "/review", alone, 422).await["field"],
        "format"
    );
}

/// Streamed, a review says each ply as soon as it and those before it are judged, in order,
/// then its answer, whose plies are the lines'.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_streamed_review_says_each_ply_then_its_answer() {
    let url = start().await;
    let response = Client::new()
        .post(format!("{url}/review"))
        .header("accept", "application/x-ndjson")
        .json(&json!({"game": "othello", "record": "f5d6c3d3c4f4", "depth": 2}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "application/x-ndjson");
    let text = response.text().await.unwrap();
    let lines: Vec<Value> = text
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(lines.len(), 7, "{text}");
    for (index, line) in lines[..6].iter().enumerate() {
        assert_eq!(line["ply"]["ply"], index + 1, "{line}");
    }
    let answer = &lines[6]["result"];
    assert_eq!(answer["complete"], true, "{answer}");
    for (index, line) in lines[..6].iter().enumerate() {
        assert_eq!(line["ply"], answer["plies"][index]);
    }
}

/// A review of a full game of sixty moves, streamed, whose client goes away half way: the
/// searches stop, and the one heavy slot is free again at once, not after the half left (some
/// thirty positions of 300 ms on two workers).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_streamed_review_whose_client_goes_away_half_way_stops() {
    let url = start_with_one_heavy_slot(1).await;
    let mut response = Client::new()
        .post(format!("{url}/review"))
        .header("accept", "application/x-ndjson")
        .json(&json!({"game": "othello", "record": OTHELLO_GAME, "time_limit_ms": 300}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let mut text = String::new();
    while text.lines().count() < 30 {
        let chunk = response.chunk().await.unwrap().expect("the review goes on");
        text.push_str(std::str::from_utf8(&chunk).unwrap());
    }
    for (index, line) in text.lines().take(30).enumerate() {
        let line: Value = serde_json::from_str(line).unwrap();
        assert_eq!(line["ply"]["ply"], index + 1, "{line}");
    }
    drop(response);
    let started = std::time::Instant::now();
    let answer = post(
        &url,
        "/analyze",
        json!({"moves": [], "algorithm": "solver"}),
    )
    .await;
    assert_eq!(answer.status(), 200);
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "the review went on: the slot was free after {:?}",
        started.elapsed()
    );
}
