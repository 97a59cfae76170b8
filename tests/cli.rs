//! The `sente` binary: its output is the API's JSON, its errors say what is wrong.

use std::process::Command;

use serde_json::Value;

fn sente(args: &[&str]) -> (i32, Value, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_sente"))
        .args(args)
        .output()
        .expect("the binary runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let json = serde_json::from_str(&stdout).unwrap_or(Value::Null);
    (
        output.status.code().unwrap_or(-1),
        json,
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn move_prints_the_result_as_json() {
    let (code, json, _) = sente(&["move", "--board", "XX.OO....", "--algorithm", "alphabeta"]);
    assert_eq!(code, 0);
    assert_eq!(json["move"], 2);
    assert_eq!(json["score"], 1.0);
    assert_eq!(json["status"], "x_won");
    assert_eq!(json["board"], "XXX/OO./...");
    // Unlike a request, the command line defaults to the empty board.
    let (code, json, stderr) = sente(&["move", "--algorithm", "minimax"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        (&json["nodes"], &json["score"]),
        (&549_946.into(), &0.0.into())
    );
}

#[test]
fn move_reports_the_drawn_seed_of_randomised_algorithms() {
    let (code, json, _) = sente(&["move", "--moves", "4", "--algorithm", "mcts"]);
    assert_eq!(code, 0);
    let seed = json["seed"].as_u64().expect("a seed is reported");
    assert!(seed < 1 << 53);
    let (_, again, _) = sente(&[
        "move",
        "--moves",
        "4",
        "--algorithm",
        "mcts",
        "--seed",
        &seed.to_string(),
    ]);
    assert_eq!(
        (&again["move"], &again["nodes"]),
        (&json["move"], &json["nodes"])
    );
}

#[test]
fn errors_exit_2_and_name_the_field() {
    let (code, _, stderr) = sente(&["move", "--board", "XX.OO..Q."]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("(board)") && stderr.contains("'Q' at position 7"),
        "{stderr}"
    );
    let (code, _, stderr) = sente(&["move", "--algorithm", "mcts", "--depth", "3"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("depth does not apply to mcts"), "{stderr}");
    // A knob given twice in a player is refused, not overwritten by the second.
    let player = "mcts:simulations=10,simulations=20";
    let (code, _, stderr) = sente(&["tournament", "--a", player, "--b", "random"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("simulations is given twice"), "{stderr}");
}

#[test]
fn tournament_prints_both_players() {
    let (code, json, stderr) = sente(&[
        "tournament",
        "-a",
        "alphabeta",
        "-b",
        "mcs:playouts=5",
        "--games",
        "20",
        "--seed",
        "1",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(json["games"], 20);
    assert_eq!(json["players"][0]["algorithm"], "alphabeta");
    assert_eq!(json["players"][0]["losses"], 0);
    assert_eq!(json["players"][1]["algorithm"], "mcs");
}

#[test]
fn release_builds_have_no_test_hooks() {
    // The hooks are behind a feature that only the crate's own tests enable: the manifest must
    // not turn it on by default.
    let manifest =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml")).unwrap();
    let features = manifest.split("[features]").nth(1).unwrap_or("");
    assert!(
        !features
            .lines()
            .any(|line| line.trim_start().starts_with("default")),
        "{features}"
    );
}
