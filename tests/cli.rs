//! The `sente` binary: its output is the API's JSON, its errors say what is wrong.

use std::process::Command;

use serde_json::{Value, json};

/// The binary, with none of its settings in the environment but those the test gives it.
fn binary() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_sente"));
    for (name, _) in std::env::vars_os() {
        if name == "PORT" || name.to_string_lossy().starts_with("SENTE_") {
            command.env_remove(name);
        }
    }
    command
}

fn sente(args: &[&str]) -> (i32, Value, String) {
    run(binary().args(args))
}

/// Runs `command` to its end: its exit code, its output as JSON (null if it is not), and its
/// standard error.
fn run(command: &mut Command) -> (i32, Value, String) {
    let output = command.output().expect("the binary runs");
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

#[test]
fn tournament_prints_both_players() {
    let (code, json, stderr) = sente(&[
        "tournament",
        "alphabeta",
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
    // Each player's settings, as given; none for a player given none.
    assert_eq!(
        json["players"][1]["settings"],
        serde_json::json!({"playouts": 5})
    );
    assert!(json["players"][0].get("settings").is_none(), "{json}");
    // Figures to the precision they mean: no float's seventeen digits anywhere.
    let mut numbers = vec![&json];
    let mut longest = 0;
    while let Some(value) = numbers.pop() {
        match value {
            Value::Number(number) if number.is_f64() => {
                let written = number.to_string();
                let decimals = written
                    .split_once('.')
                    .map_or(0, |(_, decimals)| decimals.len());
                assert!(!written.contains('e'), "{written} in {json}");
                longest = longest.max(decimals);
            }
            Value::Array(values) => numbers.extend(values),
            Value::Object(fields) => numbers.extend(fields.values()),
            _ => {}
        }
    }
    assert!(longest <= 4, "a figure with {longest} decimals in {json}");
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

/// The service started as a child process, and its log.
struct Serving {
    child: std::process::Child,
    logs: std::io::BufReader<std::process::ChildStdout>,
}

impl Drop for Serving {
    /// A test that fails halfway must not leave a server behind: it would hold cargo's output
    /// open, and cargo would wait for it forever.
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts the binary as `command` sets it up, and returns it with its first log line.
fn start_serving(command: &mut Command) -> (Serving, String) {
    use std::io::BufRead;
    let mut child = command
        .env("RUST_LOG", "info")
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut logs = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut first_line = String::new();
    logs.read_line(&mut first_line).unwrap();
    (Serving { child, logs }, first_line)
}

/// Asks the service at `address` for /healthz, then stops it with SIGTERM; it must exit 0.
/// Returns the rest of its log.
fn answers_then_stops(mut serving: Serving, address: &str) -> String {
    use std::io::Read;
    get(address, "/healthz");
    assert_eq!(terminate(&mut serving).code(), Some(0));
    let mut rest = String::new();
    serving.logs.read_to_string(&mut rest).unwrap();
    assert!(rest.contains("SIGTERM received"), "{rest}");
    rest
}

/// The address in the text log line "sente listening on http://ADDRESS ...".
fn listening_address(first_line: &str) -> &str {
    first_line
        .split("listening on http://")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("{first_line}"))
}

#[test]
fn serve_logs_each_request_and_exits_0_on_sigterm() {
    let (serving, first_line) = start_serving(binary().args(["serve", "--addr", "127.0.0.1:0"]));
    let address = listening_address(&first_line);
    assert!(address.starts_with("127.0.0.1:"), "{first_line}");
    let rest = answers_then_stops(serving, address);
    // Each request is logged with its latency, in microseconds: most take well under one
    // millisecond, which would be logged as "0 ms".
    let logged = rest
        .lines()
        .find(|line| line.contains("uri=/healthz"))
        .unwrap_or_else(|| panic!("the request is logged: {rest}"));
    let latency = logged.split("latency=").nth(1).unwrap_or_default();
    assert!(
        latency.starts_with(|c: char| c.is_ascii_digit()) && latency.contains(" μs"),
        "{logged}"
    );
}

#[test]
fn without_a_subcommand_it_serves_with_serves_options_and_environment() {
    // What a container does: no arguments, the settings in the environment.
    let (serving, first_line) = start_serving(
        binary()
            .env("SENTE_ADDR", "127.0.0.1:0")
            .env("SENTE_LOG_FORMAT", "json"),
    );
    let line: Value = serde_json::from_str(&first_line)
        .unwrap_or_else(|_| panic!("SENTE_LOG_FORMAT=json is obeyed: {first_line}"));
    let address = line["fields"]["address"].as_str().unwrap_or_default();
    assert!(address.starts_with("127.0.0.1:"), "{first_line}");
    answers_then_stops(serving, address);

    // The options themselves, without `serve` before them.
    let (serving, first_line) = start_serving(binary().args(["--addr", "127.0.0.1:0"]));
    let address = listening_address(&first_line);
    assert!(address.starts_with("127.0.0.1:"), "{first_line}");
    answers_then_stops(serving, address);

    // They are serve's: with another subcommand they are a usage error, not ignored.
    let (code, _, stderr) = sente(&["--addr", "127.0.0.1:0", "move"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("cannot be used with '--addr"), "{stderr}");

    // Set in the environment, as in a container, they are not in the way of the others, even
    // where serve could not use them.
    let (code, _, stderr) = run(binary()
        .args(["move", "--board", "XX.OO...."])
        .env("SENTE_ADDR", "127.0.0.1:0")
        .env("SENTE_LOG_FORMAT", "json"));
    assert_eq!(code, 0, "{stderr}");
    for (name, value) in [
        ("SENTE_LOG_FORMAT", "yaml"),
        ("SENTE_MAX_NODES", "0"),
        ("SENTE_HEAVY_SLOTS", "many"),
    ] {
        let (code, _, stderr) = run(binary()
            .args(["move", "--board", "XX.OO...."])
            .env(name, value));
        assert_eq!(code, 0, "{name}={value}: {stderr}");
        // Serving, they are refused, naming the option. (The bad PORT makes serve stop
        // rather than run on if the setting were ever ignored.)
        let (code, _, stderr) = run(binary().env(name, value).env("PORT", "http"));
        assert_eq!(code, 2, "{name}={value}");
        assert!(stderr.contains("invalid value"), "{name}={value}: {stderr}");
    }

    // A setting that cannot be used is named, and it is not called a request.
    let (code, _, stderr) = run(binary().env("PORT", "http"));
    assert_eq!(code, 2);
    assert_eq!(stderr, "sente: PORT must be a port number, got \"http\"\n");
}

/// When whatever reads the log stops reading, the service goes on answering: the lines that do
/// not fit the log's queue are dropped and counted, and SIGTERM still stops it. (Written in
/// place, a log line blocked the service once the pipe was full, about 400 requests in.)
#[test]
fn a_log_nobody_reads_does_not_stop_the_service() {
    use std::io::{Read, Write};
    let (mut serving, first_line) =
        start_serving(binary().args(["serve", "--addr", "127.0.0.1:0"]));
    let address = listening_address(&first_line).to_string();
    // The log is not read from here on: the pipe fills (64 KiB), then the queue (16,384
    // lines). A request that hangs fails the test after the read timeout.
    let mut stream = std::net::TcpStream::connect(&address).unwrap();
    stream
        .set_read_timeout(Some(std::time::Duration::from_secs(10)))
        .unwrap();
    let mut answer = Vec::new();
    for request in 0..20_000 {
        stream
            .write_all(b"GET /healthz HTTP/1.1\r\nhost: sente\r\n\r\n")
            .unwrap();
        answer.clear();
        let mut buffer = [0; 1024];
        while !answer.ends_with(br#"{"status":"ok"}"#) {
            let read = stream
                .read(&mut buffer)
                .unwrap_or_else(|error| panic!("request {request} was not answered: {error}"));
            assert!(read > 0, "the connection closed at request {request}");
            answer.extend_from_slice(&buffer[..read]);
        }
    }
    let metrics = get(&address, "/metrics");
    let dropped: u64 = metrics
        .lines()
        .find_map(|line| line.strip_prefix("sente_log_lines_dropped_total "))
        .unwrap_or_else(|| panic!("the dropped lines are counted: {metrics}"))
        .trim()
        .parse()
        .unwrap();
    assert!(dropped > 0, "{metrics}");

    // The queued lines cannot be written out: the process waits for them a while, then exits.
    assert_eq!(terminate(&mut serving).code(), Some(0));
}

/// Sends the service SIGTERM and returns how it exited; a service still running 30 s later
/// fails the test instead of hanging it.
fn terminate(serving: &mut Serving) -> std::process::ExitStatus {
    let killed = Command::new("kill")
        .args(["-TERM", &serving.child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        if let Some(status) = serving.child.try_wait().unwrap() {
            return status;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "SIGTERM did not stop the service"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

/// The body of `GET path`, asked on a connection of its own.
fn get(address: &str, path: &str) -> String {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(address).unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nhost: sente\r\nconnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    answer
}

/// The answer without what depends on the machine's speed.
fn without_timing(mut answer: Value) -> Value {
    let object = answer.as_object_mut().unwrap();
    object.remove("elapsed_ms");
    object.remove("games_per_second");
    answer
}

#[test]
fn eight_shards_played_apart_merge_into_the_single_run() {
    let dir = std::env::temp_dir().join(format!("sente-shards-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let common = [
        "tournament",
        "alphabeta:depth=2",
        "mcts:simulations=60",
        "--game",
        "connect4",
        "--games",
        "90",
        "--seed",
        "11",
        "--random-plies",
        "4",
        "--sprt",
        "elo0=0,elo1=300",
        "--threads",
        "1",
    ];
    let (code, whole, stderr) = sente(&common);
    assert_eq!(code, 0, "{stderr}");
    // Each shard a process of its own, all at once.
    let shards: Vec<_> = (0..8)
        .map(|index| {
            let file = dir.join(format!("shard-{index}.json"));
            let shard = format!("{index}/8");
            let child = binary()
                .args(common)
                .args(["--shard", &shard, "--output"])
                .arg(&file)
                .spawn()
                .unwrap();
            (child, file)
        })
        .collect();
    let mut files = Vec::new();
    for (mut child, file) in shards {
        assert!(child.wait().unwrap().success());
        files.push(file);
    }
    let (code, merged, stderr) = run(binary().args(["tournament", "merge"]).args(&files));
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(without_timing(merged), without_timing(whole.clone()));
    assert!(whole["sprt"]["llr"].is_number(), "{whole}");
    // A shard missing, or one given twice, is said.
    let (code, _, stderr) = run(binary().args(["tournament", "merge"]).args(&files[..7]));
    assert_eq!(code, 2);
    assert!(stderr.contains("missing shards: 7/8"), "{stderr}");
    let (code, _, stderr) = run(binary()
        .args(["tournament", "merge"])
        .args(&files)
        .arg(&files[0]));
    assert_eq!(code, 2);
    assert!(stderr.contains("given twice"), "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn sente_uci_is_an_engine_that_stops_when_told() {
    use std::io::{BufRead, BufReader, Write};
    use std::process::Stdio;
    let mut engine = binary()
        .arg("uci")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = engine.stdin.take().unwrap();
    let mut output = BufReader::new(engine.stdout.take().unwrap()).lines();
    let mut transcript = Vec::new();
    let mut send = |line: &str, transcript: &mut Vec<String>| {
        writeln!(input, "{line}").unwrap();
        input.flush().unwrap();
        transcript.push(format!("> {line}"));
    };
    let mut read_until = |end: &str, transcript: &mut Vec<String>| -> Vec<String> {
        let mut lines = Vec::new();
        for line in output.by_ref() {
            let line = line.unwrap();
            transcript.push(format!("< {line}"));
            let done = line.starts_with(end);
            lines.push(line);
            if done {
                return lines;
            }
        }
        panic!("the engine ended before {end:?}: {transcript:#?}");
    };
    send("uci", &mut transcript);
    let lines = read_until("uciok", &mut transcript);
    assert!(lines[0].starts_with("id name Sente"), "{transcript:#?}");
    assert!(
        lines
            .iter()
            .any(|line| line.starts_with("option name Hash type spin"))
    );
    send("isready", &mut transcript);
    read_until("readyok", &mut transcript);
    send("position startpos moves e2e4 e7e5", &mut transcript);
    send("go infinite", &mut transcript);
    // Thinking until told: an info line for each finished iteration, deeper each time, and
    // no bestmove before the stop.
    std::thread::sleep(std::time::Duration::from_millis(300));
    send("isready", &mut transcript);
    let mut lines = read_until("readyok", &mut transcript);
    send("stop", &mut transcript);
    lines.extend(read_until("bestmove", &mut transcript));
    let depths: Vec<u32> = lines
        .iter()
        .filter_map(|line| line.strip_prefix("info depth "))
        .map(|rest| rest.split(' ').next().unwrap().parse().unwrap())
        .collect();
    assert!(depths.len() >= 5, "{transcript:#?}");
    assert!(
        depths.windows(2).all(|pair| pair[1] == pair[0] + 1),
        "{transcript:#?}"
    );
    let info = lines
        .iter()
        .rfind(|line| line.starts_with("info depth "))
        .unwrap();
    for field in [
        " seldepth ",
        " score cp ",
        " nodes ",
        " nps ",
        " time ",
        " pv ",
    ] {
        assert!(info.contains(field), "{field} in {transcript:#?}");
    }
    let best = lines.last().unwrap().strip_prefix("bestmove ").unwrap();
    assert_eq!(best.len(), 4, "{transcript:#?}");
    // The table is kept from one search to the next of a game: the same search again costs
    // fewer nodes, until ucinewgame forgets it.
    let mut nodes = |new_game: bool, transcript: &mut Vec<String>| -> u64 {
        if new_game {
            send("ucinewgame", transcript);
        }
        send("position startpos moves d2d4 d7d5", transcript);
        send("go depth 9", transcript);
        let lines = read_until("bestmove", transcript);
        let info = &lines[lines.len() - 2];
        let (_, after) = info.split_once(" nodes ").unwrap();
        after.split(' ').next().unwrap().parse().unwrap()
    };
    let first = nodes(true, &mut transcript);
    let again = nodes(false, &mut transcript);
    let anew = nodes(true, &mut transcript);
    assert!(again < first, "{first} then {again}: {transcript:#?}");
    assert_eq!(anew, first, "{transcript:#?}");
    send("setoption name Threads value 1", &mut transcript);
    send("setoption name MultiPV value 3", &mut transcript);
    let lines = read_until("info string", &mut transcript);
    assert!(lines[0].contains("MultiPV is 1"), "{transcript:#?}");
    // A mate in one, found at a fixed depth.
    send(
        "position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
        &mut transcript,
    );
    send("go depth 2", &mut transcript);
    let lines = read_until("bestmove", &mut transcript);
    assert!(
        lines[lines.len() - 2].contains("score mate 1"),
        "{transcript:#?}"
    );
    assert_eq!(lines.last().unwrap(), "bestmove a1a8");
    send("quit", &mut transcript);
    assert!(engine.wait().unwrap().success());
    println!("{}", transcript.join("\n"));
}

#[test]
fn files_of_openings_are_quoted_in_part_and_refused_early() {
    let dir = std::env::temp_dir().join(format!("sente-openings-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let tournament = |file: &std::path::Path| {
        sente(&[
            "tournament",
            "random",
            "random",
            "--game",
            "chess",
            "--openings",
            file.to_str().unwrap(),
        ])
    };
    // A bad line of a million characters is quoted by its first few dozen.
    let epd = dir.join("long.epd");
    std::fs::write(&epd, format!("{} w\n", "x".repeat(1_000_000))).unwrap();
    let (code, _, stderr) = tournament(&epd);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.len() < 300 && stderr.contains("line 1: "),
        "{stderr}"
    );
    // A file far larger than a thousand openings is refused before it is read.
    let pgn = dir.join("large.pgn");
    let file = std::fs::File::create(&pgn).unwrap();
    file.set_len(100 << 20).unwrap();
    let (code, _, stderr) = tournament(&pgn);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("is at most 16 MiB"), "{stderr}");
    // One opening too many is refused at its line.
    let many = dir.join("many.txt");
    std::fs::write(&many, "e2e4\n".repeat(1_001)).unwrap();
    let (code, _, stderr) = tournament(&many);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("line 1001: more than 1000 openings"),
        "{stderr}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn merge_names_the_file_the_game_and_the_field_of_a_bad_shard() {
    let dir = std::env::temp_dir().join(format!("sente-shards-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut files = Vec::new();
    for index in 0..2 {
        let file = dir.join(format!("shard-{index}.json"));
        let (code, _, stderr) = sente(&[
            "tournament",
            "random",
            "random",
            "--games",
            "8",
            "--seed",
            "3",
            "--shard",
            &format!("{index}/2"),
            "--output",
            file.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{stderr}");
        files.push(file);
    }
    let mut shard: Value = serde_json::from_slice(&std::fs::read(&files[1]).unwrap()).unwrap();
    shard["results"]["games"]["5"]["a_points"] = json!(99);
    std::fs::write(&files[1], shard.to_string()).unwrap();
    let (code, _, stderr) = sente(&[
        "tournament",
        "merge",
        files[0].to_str().unwrap(),
        files[1].to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("shard-1.json: game 5: a_points: A's half points are 0, 1 or 2, got 99"),
        "{stderr}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A chess shard played with records becomes training lines: a FEN, White's centipawns and
/// White's points; a file without records says how to make one.
#[test]
fn positions_are_written_from_a_shards_records() {
    let dir = std::env::temp_dir().join(format!("sente-positions-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (shard, data) = (dir.join("shard.json"), dir.join("data.txt"));
    let path = |file: &std::path::Path| file.to_str().unwrap().to_owned();
    let engine = "engine:depth=1";
    let (code, _, stderr) = sente(&[
        "tournament",
        engine,
        engine,
        "--game",
        "chess",
        "--games",
        "2",
        "--random-plies",
        "4",
        "--records",
        "--shard",
        "0/1",
        "--output",
        &path(&shard),
    ]);
    assert_eq!(code, 0, "{stderr}");
    let (code, _, stderr) = sente(&["positions", &path(&shard), "--output", &path(&data)]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.ends_with("from 2 games (0 left out: capped, forfeited or failed)\n"),
        "{stderr}"
    );
    let text = std::fs::read_to_string(&data).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() > 10, "{text}");
    for line in lines {
        let fields: Vec<&str> = line.split(" | ").collect();
        assert_eq!(fields.len(), 3, "{line}");
        assert_eq!(fields[0].split(' ').count(), 6, "a FEN: {line}");
        assert!(fields[1].parse::<i32>().is_ok(), "{line}");
        assert!(["1.0", "0.5", "0.0"].contains(&fields[2]), "{line}");
    }
    let (code, _, stderr) = sente(&[
        "tournament",
        "random",
        "random",
        "--games",
        "2",
        "--output",
        &path(&shard),
    ]);
    assert_eq!(code, 0, "{stderr}");
    let (code, _, stderr) = sente(&["positions", &path(&shard)]);
    assert_eq!(code, 2);
    assert!(stderr.contains("play it with --records"), "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}
