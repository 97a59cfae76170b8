//! `sente move`, `sente analyze`, `sente perft`: the API's JSON, and errors that name what is wrong.

use super::*;

#[test]
fn move_prints_the_result_as_json() {
    let (code, json, _) = sente(&["move", "alphabeta", "--board", "XX.OO...."]);
    assert_eq!(code, 0);
    assert_eq!(json["move"], 2);
    assert_eq!(json["score"], 1.0);
    assert_eq!(json["status"], "x_won");
    assert_eq!(json["board"], "XXX/OO./...");
    // As in a request, the empty board is said, not assumed: `--moves ''`.
    let (code, json, stderr) = sente(&["move", "minimax", "--moves", ""]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        (&json["nodes"], &json["score"]),
        (&549_946.into(), &0.0.into())
    );
    let (code, _, stderr) = sente(&["move", "minimax"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("give the position: --board"), "{stderr}");
}

#[test]
fn analyze_prints_every_move_best_first() {
    let (code, json, stderr) = sente(&["analyze", "solver", "--board", "X.O/.X./O.."]);
    assert_eq!(code, 0, "{stderr}");
    let moves = json["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 5);
    assert_eq!(
        (&moves[0]["move"], &moves[0]["plies_to_end"]),
        (&8.into(), &1.into())
    );
}

#[test]
fn knobs_are_spelt_alike_in_every_command() {
    // One player syntax, the API's knob names, spaces after commas allowed.
    let player = "alphabeta:depth=9, transposition_table=true,ordering=true";
    let (code, json, stderr) = sente(&["move", player, "--moves", "4"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(json["algorithm"], "alphabeta");
    let (code, json, stderr) = sente(&["analyze", player, "--moves", "4"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(json["moves"].as_array().unwrap().len(), 8);
    let (code, json, stderr) = sente(&[
        "tournament",
        player,
        "mcts:simulations=100, uct_c=1",
        "--games",
        "4",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(json["games"], 4);
}

#[test]
fn a_closed_pipe_ends_the_output_quietly() {
    use std::process::Stdio;
    // The reader is gone before the first write, as with `| head -3` on a long output.
    let mut child = binary()
        .args(["tournament", "mcts", "random", "--games", "200"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert_eq!(stderr, "");
}

#[test]
fn move_reports_the_drawn_seed_of_randomised_algorithms() {
    let (code, json, _) = sente(&["move", "mcts", "--moves", "4"]);
    assert_eq!(code, 0);
    let seed = json["seed"].as_u64().expect("a seed is reported");
    assert!(seed < 1 << 53);
    let (_, again, _) = sente(&["move", "mcts", "--moves", "4", "--seed", &seed.to_string()]);
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
        stderr.starts_with("sente: --board: ") && stderr.contains("'Q', the 8th character"),
        "{stderr}"
    );
    let (code, _, stderr) = sente(&["move", "--moves", "4,4"]);
    assert_eq!(code, 2);
    assert!(
        stderr.starts_with("sente: --moves: the 2nd move: move 4 is not legal"),
        "{stderr}"
    );
    // Moves counted in words a player reads, not Rust's range syntax, and what a move is
    // where a square's name was typed on a game that numbers its moves.
    let (_, _, stderr) = sente(&["move", "--game", "connect4", "--moves", "9"]);
    assert!(
        stderr.contains("moves are numbered 0 to 6") && !stderr.contains(".."),
        "{stderr}"
    );
    let (_, _, stderr) = sente(&["move", "--moves", "b2"]);
    assert!(stderr.contains("a cell's number, 0 to 8"), "{stderr}");
    let (code, _, stderr) = sente(&["move", "mcts:depth=3", "--moves", ""]);
    assert_eq!(code, 2);
    assert_eq!(
        stderr,
        "sente: the player (mcts:depth=3): depth does not apply to mcts, which takes: \
         simulations, uct_c, expand_threshold, tree_nodes, time_limit_ms, seed\n"
    );
    // The command line speaks of knobs, never of a place in JSON the user did not type.
    let (code, _, stderr) = sente(&["move", "alphabeta:dept=3", "--moves", ""]);
    assert_eq!(code, 2);
    assert!(
        stderr.starts_with(
            "sente: the player (alphabeta:dept=3): unknown knob dept: did you mean depth? \
             alphabeta's knobs are: depth, evaluation,"
        ) && !stderr.contains("simulations"),
        "{stderr}"
    );
    let (_, _, stderr) = sente(&["move", "alphabeta:depth=x", "--moves", ""]);
    assert_eq!(
        stderr,
        "sente: the player (alphabeta:depth=x): depth must be an integer, got the string \"x\"\n"
    );
    let (code, _, stderr) = sente(&["move", "negamax:depth=-1", "--moves", ""]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("depth must be between 1 and 64, got -1"),
        "{stderr}"
    );
    let (code, _, stderr) = sente(&["move", "AlphaBeta", "--moves", ""]);
    assert_eq!(code, 2);
    assert!(stderr.contains("Did you mean \"alphabeta\"?"), "{stderr}");
    let (code, _, stderr) = sente(&["move", "--moves", "", "--game", "connect-four"]);
    assert_eq!(code, 2);
    assert!(stderr.starts_with("sente: --game: "), "{stderr}");
    assert!(stderr.contains("Did you mean \"connect4\"?"), "{stderr}");
    // A knob given twice in a player is refused, not overwritten by the second.
    let player = "mcts:simulations=10,simulations=20";
    let (code, _, stderr) = sente(&["tournament", player, "random"]);
    assert_eq!(code, 2);
    assert!(
        stderr.starts_with("sente: player A (mcts:")
            && stderr.contains("simulations is given twice"),
        "{stderr}"
    );
    let (code, _, stderr) = sente(&["tournament", "random", "mcs:playouts=0", "--games", "0"]);
    assert_eq!(code, 2);
    assert!(
        stderr.starts_with("sente: player B (mcs:playouts=0): playouts must be"),
        "{stderr}"
    );
    let (code, _, stderr) = sente(&["tournament", "random", "random", "--games", "0"]);
    assert_eq!(code, 2);
    assert_eq!(
        stderr,
        "sente: --games: games must be between 1 and 100000, got 0\n"
    );
}

/// `sente perft` counts move paths through the game contract, finding the game from the board.
#[test]
fn perft_counts_move_paths_of_the_game_that_reads_the_board() {
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let (code, json, _) = sente(&["perft", start, "3"]);
    assert_eq!(
        (code, &json["game"], &json["nodes"]),
        (0, &Value::from("chess"), &Value::from(8_902))
    );
    // Through a capture that leaves two bare kings, as Stockfish and python-chess count.
    let (code, json, _) = sente(&["perft", "3r4/3KP3/8/8/8/8/8/3k4 w - - 2 2", "3"]);
    assert_eq!((code, &json["nodes"]), (0, &Value::from(873)));
    let othello = "---------------------------OX------XO--------------------------- X";
    let (code, json, _) = sente(&["perft", othello, "8"]);
    assert_eq!(
        (code, &json["game"], &json["nodes"]),
        (0, &Value::from("othello"), &Value::from(390_216))
    );
    let (code, json, _) = sente(&["perft", "X.O/.../...", "3"]);
    assert_eq!(
        (code, &json["game"], &json["nodes"]),
        (0, &Value::from("tictactoe"), &Value::from(210))
    );
    let (code, _, error) = sente(&["perft", "nonsense", "2"]);
    assert_eq!(code, 2);
    assert!(error.contains("no game reads"), "{error}");
    let (code, _, error) = sente(&["perft", "8/8/8/8/8/8/8/8 w - - 0 1", "2", "--game", "chess"]);
    assert_eq!(code, 2);
    assert!(error.contains("empty"), "{error}");
}

/// Othello's solver on FFO #1 (docs/othello.md's example): g8, a margin of +18.
#[test]
fn othello_solver_answers_ffo_1_exactly() {
    let ffo_1 = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";
    let (code, json, error) = sente(&["move", "solver", "--game", "othello", "--board", ffo_1]);
    assert_eq!(code, 0, "{error}");
    assert_eq!(
        (&json["move"], &json["exact"], &json["margin"]),
        (&Value::from("g8"), &Value::from(true), &Value::from(18)),
        "{json}"
    );
    assert_eq!(json["pv"][0], "g8");
}

/// A chess game from its moves in SAN, the engine's answer in both notations.
#[test]
fn chess_moves_are_read_in_san_and_answered_in_both_notations() {
    let (code, json, error) = sente(&[
        "move",
        "engine:time_limit_ms=50",
        "--game",
        "chess",
        "--moves",
        "e4 e5 Bc4 Nc6 Qh5 Nf6",
    ]);
    assert_eq!(code, 0, "{error}");
    assert_eq!(
        (&json["move"], &json["san"], &json["mate"]),
        (&Value::from("h5f7"), &Value::from("Qxf7#"), &Value::from(1))
    );
}

/// A depth or a node count given without a time is searched whole, however long it takes: the
/// game's default second bounds only a search nothing else bounds. Each of these takes several
/// seconds on the machines CI runs on, where the default second stopped chess at depth 17 and
/// Othello and gomoku at a fraction of their counts.
#[test]
fn a_depth_or_nodes_without_a_time_is_searched_whole() {
    let (code, chess, stderr) = sente(&[
        "move",
        "--game",
        "chess",
        "--moves",
        "e2e4",
        "engine:depth=19",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(chess["depth"], 19, "{chess}");
    assert!(chess.get("stopped_by").is_none(), "{chess}");
    for (game, nodes) in [("othello", 3_000_000), ("gomoku", 600_000)] {
        let player = format!("engine:nodes={nodes}");
        let (code, answer, stderr) = sente(&["move", "--game", game, "--moves", "", &player]);
        assert_eq!(code, 0, "{game}: {stderr}");
        assert!(
            answer["nodes"].as_u64().unwrap() >= nodes,
            "{game}: {answer}"
        );
        // The nodes asked for are the search asked, not a limit that cut it short.
        assert!(answer.get("stopped_by").is_none(), "{game}: {answer}");
    }
}

/// `sente review --record FILE` reads the game from its record (a `.kif` in Shift_JIS as
/// Japanese software writes it, standard input with `-`), on the threads asked for; a record
/// that cannot be read is refused with the flag and the ply.
#[test]
fn review_reads_a_record_from_a_file_or_standard_input() {
    let dir = std::env::temp_dir().join(format!("sente-review-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let kif = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２二角成(88)\n   4 同　銀(31)\n   5 投了\n";
    let path = dir.join("game.kif");
    std::fs::write(&path, encoding_rs::SHIFT_JIS.encode(kif).0).unwrap();
    let path = path.to_str().unwrap();
    let (code, review, error) = sente(&[
        "review",
        "engine:depth=2",
        "--game",
        "shogi",
        "--record",
        path,
        "--threads",
        "1",
    ]);
    assert_eq!(code, 0, "{error}");
    let played: Vec<&Value> = review["plies"]
        .as_array()
        .unwrap()
        .iter()
        .map(|ply| &ply["played"]["move"])
        .collect();
    assert_eq!(
        played,
        [
            &json!("7g7f"),
            &json!("3c3d"),
            &json!("8h2b+"),
            &json!("3a2b")
        ]
    );
    let mut child = binary()
        .args([
            "review",
            "engine:depth=2",
            "--game",
            "othello",
            "--record",
            "-",
        ])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child.stdin.take().unwrap().write_all(b"f5d6c3\n").unwrap();
    let output = child.wait_with_output().unwrap();
    let review: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(review["plies"].as_array().unwrap().len(), 3, "{review}");
    let illegal = dir.join("illegal.pgn");
    std::fs::write(&illegal, "1. e4 e5 2. Ke3 *\n").unwrap();
    let (code, _, error) = sente(&[
        "review",
        "--game",
        "chess",
        "--record",
        illegal.to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    assert!(
        error.starts_with("sente: --record: ") && error.contains("ply 3 (Ke3)"),
        "{error}"
    );
    let (code, _, error) = sente(&["review", "--game", "chess"]);
    assert_eq!(code, 2);
    assert!(error.contains("--record"), "{error}");
    std::fs::remove_dir_all(&dir).unwrap();
}
