//! `sente serve` (its log, its signals, its options and environment) and `sente uci`.

use super::*;

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
    // One client sending 20,000 requests at once: its requests a second are not limited here.
    let (mut serving, first_line) = start_serving(binary().args([
        "serve",
        "--addr",
        "127.0.0.1:0",
        "--requests-per-second",
        "none",
    ]));
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
    // The move, then the reply its line expects (`ponder`).
    let answer = lines.last().unwrap().strip_prefix("bestmove ").unwrap();
    let best = answer.split(' ').next().unwrap();
    assert_eq!(best.len(), 4, "{transcript:#?}");
    assert!(answer.contains(" ponder "), "{transcript:#?}");
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
    send("setoption name MultiPV value 0", &mut transcript);
    let lines = read_until("info string", &mut transcript);
    assert!(lines[0].contains("MultiPV is 1 to 500"), "{transcript:#?}");
    // A mate in one, found at a fixed depth, the best of three lines.
    send("setoption name MultiPV value 3", &mut transcript);
    send(
        "position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
        &mut transcript,
    );
    send("go depth 2", &mut transcript);
    let lines = read_until("bestmove", &mut transcript);
    let numbered: Vec<&String> = lines
        .iter()
        .filter(|line| line.contains(" multipv "))
        .collect();
    // Three lines an iteration, as each ends: the deepest three last.
    assert_eq!(numbered.len(), 6, "{transcript:#?}");
    let deepest = &numbered[3..];
    for (rank, line) in (1..).zip(deepest) {
        assert!(line.starts_with("info depth 2 "), "{transcript:#?}");
        assert!(
            line.contains(&format!(" multipv {rank} ")),
            "{transcript:#?}"
        );
    }
    assert!(deepest[0].contains("score mate 1"), "{transcript:#?}");
    assert_eq!(lines.last().unwrap(), "bestmove a1a8");
    // At a strength asked for: a second to think, but the few nodes that strength is given.
    send("setoption name MultiPV value 1", &mut transcript);
    send("setoption name UCI_Elo value 99", &mut transcript);
    let lines = read_until("info string", &mut transcript);
    assert!(
        lines[0].contains("UCI_Elo is 1200 to 2800"),
        "{transcript:#?}"
    );
    send(
        "setoption name UCI_LimitStrength value true",
        &mut transcript,
    );
    send("setoption name UCI_Elo value 1200", &mut transcript);
    send("position startpos moves e2e4 e7e5", &mut transcript);
    // The last iteration a search tells.
    let last_iteration = |lines: Vec<String>| {
        lines
            .into_iter()
            .rfind(|line| line.starts_with("info depth "))
            .unwrap()
    };
    send("go movetime 1000", &mut transcript);
    let info = last_iteration(read_until("bestmove", &mut transcript));
    let (_, after) = info.split_once(" nodes ").unwrap();
    let searched: u64 = after.split(' ').next().unwrap().parse().unwrap();
    // Below the lowest rated level, that level: three plies among four moves.
    assert!(info.starts_with("info depth 3 "), "{transcript:#?}");
    assert!(searched <= 20_000, "{transcript:#?}");
    // `Skill Level` 1, with the strength no longer limited: one ply.
    send(
        "setoption name UCI_LimitStrength value false",
        &mut transcript,
    );
    send("setoption name Skill Level value 9", &mut transcript);
    let lines = read_until("info string", &mut transcript);
    assert!(
        lines[0].contains("Skill Level is 1 to 8"),
        "{transcript:#?}"
    );
    send("setoption name Skill Level value 1", &mut transcript);
    send("go movetime 1000", &mut transcript);
    let info = last_iteration(read_until("bestmove", &mut transcript));
    assert!(info.starts_with("info depth 1 "), "{transcript:#?}");
    send("quit", &mut transcript);
    assert!(engine.wait().unwrap().success());
    println!("{}", transcript.join("\n"));
}

/// The end of the input stops a search within a second in every protocol, whatever its clock:
/// GTP with a clock of 1e30 seconds (a move of up to ten minutes), NBoard, UCI with a clock too
/// large for any integer. Each answers, then exits.
#[test]
fn the_end_of_the_input_stops_every_protocols_search() {
    use std::io::Write;
    use std::process::Stdio;
    for (protocol, input) in [
        ("gtp", "time_settings 1e30 0 0\ngenmove b\n"),
        ("nboard", "nboard 2\nset depth 60\ngo\n"),
        (
            "uci",
            "position startpos\ngo wtime 99999999999999999999 btime 1\n",
        ),
        (
            "usi",
            "position startpos\ngo btime 99999999999999999999 wtime 1 byoyomi 0\n",
        ),
    ] {
        let mut engine = binary()
            .arg(protocol)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let started = std::time::Instant::now();
        engine
            .stdin
            .take()
            .unwrap()
            .write_all(input.as_bytes())
            .unwrap();
        // The input closed: the engine must answer and exit long before the clock's minutes.
        let deadline = started + std::time::Duration::from_secs(30);
        let status = loop {
            if let Some(status) = engine.try_wait().unwrap() {
                break status;
            }
            if std::time::Instant::now() > deadline {
                let _ = engine.kill();
                panic!("sente {protocol} still searching 30 s after the end of its input");
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        };
        assert!(status.success(), "sente {protocol}: {status}");
        let mut output = String::new();
        std::io::Read::read_to_string(&mut engine.stdout.take().unwrap(), &mut output).unwrap();
        let answered = match protocol {
            "gtp" => output.contains("= "),
            "nboard" => output.contains("=== "),
            _ => output.contains("bestmove "),
        };
        assert!(answered, "sente {protocol}: {output}");
    }
}

/// Every protocol reads its input the one way (`protocols/input.rs`): a line
/// longer than 1 MiB and a line that is not UTF-8 are skipped, said where the protocol has a
/// way to say it, and the next command is answered. Each then exits at the end of its input.
#[test]
fn every_protocol_skips_a_line_too_long_or_not_utf8_and_answers_the_next() {
    use std::io::Write;
    use std::process::Stdio;
    for (protocol, command, answer, said) in [
        (
            "gtp",
            "name\n",
            "= Sente",
            Some("? ignored a line longer than 1 MiB"),
        ),
        ("nboard", "nboard 2\nping 7\n", "pong 7", None),
        (
            "uci",
            "uci\n",
            "uciok",
            Some("info string ignored a line longer than 1 MiB"),
        ),
        (
            "usi",
            "usi\n",
            "usiok",
            Some("info string ignored a line that is not UTF-8"),
        ),
    ] {
        let mut engine = binary()
            .arg(protocol)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut input = vec![b'a'; (1 << 20) + 10];
        input.extend_from_slice(b"\n\xff\xfe not UTF-8\n");
        input.extend_from_slice(command.as_bytes());
        let mut stdin = engine.stdin.take().unwrap();
        // Written on a thread: the engine answers as it reads, and a full pipe must not block.
        let writer = std::thread::spawn(move || {
            let _ = stdin.write_all(&input);
        });
        let output = engine.wait_with_output().unwrap();
        writer.join().unwrap();
        assert!(
            output.status.success(),
            "sente {protocol}: {}",
            output.status
        );
        let output = String::from_utf8_lossy(&output.stdout);
        assert!(output.contains(answer), "sente {protocol}: {output}");
        if let Some(said) = said {
            assert!(output.contains(said), "sente {protocol}: {output}");
        }
    }
}
