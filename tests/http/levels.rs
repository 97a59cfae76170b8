//! Levels: one knob, `level`, on every game's engine, from a beginner's opponent to the full
//! engine; and the answers a front end reads the same way in every game: the sides by the
//! game's own names.

use serde_json::{Value, json};

use super::{get_json, post, problem, start};

/// Every game lists its levels, and a move at each level is a legal move whose answer carries
/// the seed of its draw, and replays from it.
#[tokio::test]
async fn every_game_plays_at_every_level() {
    let url = start().await;
    let games = get_json(&url, "/games").await;
    for game in games.as_array().unwrap() {
        let name = game["name"].as_str().unwrap();
        let levels = game["levels"].as_array().unwrap();
        assert_eq!(levels.len(), 8, "{name}: {game}");
        assert_eq!(levels[0]["level"], 1, "{name}");
        for level in [1, 4, 7] {
            let body = json!({"game": name, "moves": [], "algorithm": "engine", "level": level, "seed": 3});
            let answer: Value = post(&url, "/move", body.clone())
                .await
                .json()
                .await
                .unwrap();
            assert_eq!(answer["seed"], 3, "{name} level {level}: {answer}");
            // A level's cut is its depth or nodes, searched whole on any machine: never the
            // default second, which would make the replay depend on the machine's speed.
            assert_ne!(
                answer["stopped_by"], "time_limit",
                "{name} level {level}: {answer}"
            );
            let again: Value = post(&url, "/move", body).await.json().await.unwrap();
            assert_eq!(
                answer["move"], again["move"],
                "{name} level {level}: replayed"
            );
            let start = json!({"game": name, "moves": []});
            let position: Value = post(&url, "/position", start).await.json().await.unwrap();
            let legal: Vec<&Value> = position["legal_moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|legal| &legal["move"])
                .collect();
            assert!(
                legal.contains(&&answer["move"]),
                "{name} level {level}: {answer}"
            );
        }
    }
}

/// The bands a level's score against the one-ply beginner falls in, in every game, from its
/// side (wins and half the draws): level 1 loses most of its games, level 2 is an even match
/// give or take, level 3 wins more than it loses, and from level 4 the beginner loses most
/// (docs/levels.md states them). The same number is about the same opponent in every game.
const BEGINNER_BANDS: [(f64, f64); 8] = [
    (0.10, 0.40),
    (0.30, 0.80),
    (0.50, 1.0),
    (0.65, 1.0),
    (0.65, 1.0),
    (0.65, 1.0),
    (0.65, 1.0),
    (0.65, 1.0),
];

/// Level 1's score against a uniform random mover, at least: it loses to a beginner but beats
/// a player that knows nothing.
const RANDOM_FLOOR: f64 = 0.55;

/// Every game's levels have a name and a line a player reads, the same in every game, and their
/// scores against the two reference players as `scripts/levels.py --references` measured them,
/// each within its band.
#[tokio::test]
async fn every_level_is_named_and_measured_within_its_band() {
    let url = start().await;
    let games = get_json(&url, "/games").await;
    let first = &games[0]["levels"];
    for game in games.as_array().unwrap() {
        let name = game["name"].as_str().unwrap();
        let measured = &game["levels_measured"];
        assert!(
            measured["command"]
                .as_str()
                .is_some_and(|command| command.starts_with("scripts/levels.py")),
            "{name}: {measured}"
        );
        for (index, level) in game["levels"].as_array().unwrap().iter().enumerate() {
            assert_eq!(level["label"], first[index]["label"], "{name}");
            assert!(!level["description"].as_str().unwrap().is_empty(), "{name}");
            let score = |reference: &str| {
                let score = &level["measured"][reference];
                assert!(score["games"].as_u64().unwrap() >= 20, "{name}: {score}");
                let [low, high] =
                    [&score["ci95"][0], &score["ci95"][1]].map(|b| b.as_f64().unwrap());
                let point = score["score"].as_f64().unwrap();
                assert!(low <= point && point <= high, "{name}: {score}");
                point
            };
            let (low, high) = BEGINNER_BANDS[index];
            let beginner = score("beginner");
            assert!(
                (low..=high).contains(&beginner),
                "{name} level {}: {beginner} against the beginner, outside [{low}, {high}]",
                index + 1
            );
            let random = score("random");
            if index == 0 {
                assert!(
                    random >= RANDOM_FLOOR,
                    "{name} level 1: {random} against random"
                );
            }
        }
    }
    assert_eq!(first[0]["label"], "beginner");
    assert_eq!(first[7]["label"], "full strength");
}

/// A level is the engine's: out of range, on another algorithm, or beside `elo`, it is refused
/// in words.
#[tokio::test]
async fn a_level_out_of_range_or_not_the_engines_is_refused() {
    let url = start().await;
    let high = problem(&url, "/move", json!({"game": "othello", "level": 9}), 422).await;
    assert_eq!(high["field"], "level", "{high}");
    assert!(
        high["detail"].as_str().unwrap().contains("between 1 and 8"),
        "{high}"
    );
    let other = json!({"algorithm": "mcts", "level": 3});
    let other = problem(&url, "/move", other, 422).await;
    assert_eq!(other["field"], "level", "{other}");
    let both = json!({"game": "chess", "level": 3, "elo": 1500});
    let both = problem(&url, "/move", both, 422).await;
    assert!(
        both["detail"].as_str().unwrap().contains("not both"),
        "{both}"
    );
}

/// `/analyze` at a level values the moves within the level's cut: on Connect Four, one ply at
/// level 1, fewer nodes than level 4's four.
#[tokio::test]
async fn an_analysis_at_a_level_values_the_moves_within_its_cut() {
    let url = start().await;
    let body = json!({"game": "connect4", "moves": [3, 3], "level": 1});
    let answer: Value = post(&url, "/analyze", body).await.json().await.unwrap();
    let deeper = json!({"game": "connect4", "moves": [3, 3], "level": 4});
    let deeper: Value = post(&url, "/analyze", deeper).await.json().await.unwrap();
    let nodes = |answer: &Value| answer["nodes"].as_u64().unwrap();
    assert!(nodes(&answer) < nodes(&deeper), "{answer} {deeper}");
    assert_eq!(answer["moves"].as_array().unwrap().len(), 7, "{answer}");
}

/// A depth given without a time is searched whole, not stopped by the game's default second.
#[tokio::test]
async fn a_depth_without_a_time_is_searched_whole() {
    let url = start().await;
    for (game, moves) in [
        ("gomoku", json!(["h8", "h9", "i9"])),
        ("othello", json!([])),
    ] {
        let body = json!({"game": game, "moves": moves, "algorithm": "alphabeta", "depth": 3});
        let answer: Value = post(&url, "/move", body).await.json().await.unwrap();
        assert!(answer.get("stopped_by").is_none(), "{game}: {answer}");
        let body = json!({"game": game, "moves": moves, "algorithm": "engine", "depth": 4});
        let answer: Value = post(&url, "/move", body).await.json().await.unwrap();
        assert_eq!(answer["depth"], 4, "{game}: {answer}");
    }
}

/// The answers name the sides as the game does, beside the board text's X and O.
#[tokio::test]
async fn answers_name_the_sides_as_the_game_does() {
    let url = start().await;
    let mate = json!({"game": "chess", "moves": ["f2f3", "e7e5", "g2g4", "d8h4"]});
    let position: Value = post(&url, "/position", mate).await.json().await.unwrap();
    assert_eq!(position["winner"], "Black", "{position}");
    assert_eq!(position["side_to_move_name"], Value::Null, "{position}");
    let shogi = json!({"game": "shogi", "moves": [], "depth": 1});
    let answer: Value = post(&url, "/move", shogi).await.json().await.unwrap();
    assert_eq!(answer["score_for"], "X", "{answer}");
    assert_eq!(answer["score_for_name"], "Sente", "{answer}");
    assert_eq!(answer["side_to_move_name"], "Gote", "{answer}");
    assert!(answer.get("winner").is_none(), "{answer}");
    let othello = json!({"game": "othello", "moves": [], "depth": 2});
    let analysis: Value = post(&url, "/analyze", othello).await.json().await.unwrap();
    assert_eq!(analysis["score_for_name"], "Black", "{analysis}");
    assert!(analysis["moves"][0]["discs"].is_number(), "{analysis}");
}
