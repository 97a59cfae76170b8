//! The `sente` command: parses the command line and hands over to the library. Each command
//! is a few lines here, but for `tournament`, whose options and output are many
//! (`tournament.rs`).

use std::net::SocketAddr;
use std::process::ExitCode;
use std::time::Instant;

use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};

mod bench;
mod learn;
mod selfplay;
mod tournament;
mod train;
use serde::Serialize;

use sente::api::Budget;
use sente::api::Problem;
use sente::api::analyze::AnalyzeJob;
use sente::api::board::BoardSpec;
use sente::api::choose_move::MoveJob;
use sente::api::knobs::PlayerSpec;
use sente::api::request::{MoveRequest, PositionSpec};
use sente::api::review::{ReviewJob, ReviewRequest};
use sente::game::Notation;

#[derive(Parser)]
#[command(
    name = "sente",
    version,
    about = "A game-AI service for two-player perfect-information games",
    // `sente --addr ...` is `sente serve --addr ...`: serve's options (and their environment
    // variables, which a container sets) apply without the subcommand too.
    args_conflicts_with_subcommands = true
)]
struct Cli {
    /// What to do; without one, `serve`.
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    serve: ServeArgs,
}

#[derive(Subcommand)]
enum Command {
    /// Run the HTTP service (the default).
    Serve(ServeArgs),
    /// Exit 0 if the service answers GET /healthz, 1 otherwise (for container health checks).
    Healthcheck(HealthcheckArgs),
    /// Choose a move in a position and print the answer as JSON (as POST /move).
    #[command(after_help = player_help())]
    Move(SearchArgs),
    /// Score every legal move of a position and print them as JSON, best first (as POST
    /// /analyze).
    #[command(after_help = player_help())]
    Analyze(SearchArgs),
    /// Judge every move of a game with the engine and print the review as JSON (as POST
    /// /review): each move's value, the best move, its class, each side's accuracy. The game
    /// is --moves (from the start or --board), or its record (--record FILE).
    #[command(after_help = player_help())]
    Review(ReviewArgs),
    /// Play games between two players and print the result as JSON (as POST /tournament).
    #[command(after_help = player_help())]
    Tournament(Box<tournament::TournamentArgs>),
    /// Count the move paths DEPTH plies long from a position (perft), to check the rules
    /// against published figures, and print the count and its speed as JSON.
    Perft(PerftArgs),
    /// Search each game on the engine kit's bench positions to a fixed depth and print the
    /// node total (at one thread, the search's signature) and the nodes a second, as engine
    /// developers read a bench.
    Bench(bench::BenchArgs),
    /// Write the training positions of recorded games, one a line: BOARD | SCORE | RESULT, the
    /// score (centipawns for chess) and the result (1.0, 0.5, 0.0) from the first player's
    /// view. FILES are what `sente tournament --records` writes: answers, or shards' results.
    Positions(PositionsArgs),
    /// Play a game against itself with a policy-value network (AlphaZero's self-play) and
    /// write the positions `sente train` learns from, with the search's visits and the results
    /// (docs/alphazero.md).
    Selfplay(selfplay::SelfPlayArgs),
    /// Train what a game learns on its positions, and write its weights: chess's and shogi's
    /// evaluation networks and Othello's pattern weights from `sente positions`' lines
    /// (docs/chess.md#the-network, docs/othello.md#the-pattern-evaluation), any other game's
    /// policy-value network from `sente selfplay`'s (docs/alphazero.md).
    Train(train::TrainArgs),
    /// Make generations of a game's learnt evaluation in a directory: the best plays itself,
    /// a candidate trains on its games, and replaces it where Sente's SPRT says it is stronger
    /// (docs/learning.md). Killed at any point, the same command goes on where it stopped;
    /// --step and --shard split a generation over machines.
    Learn(Box<learn::LearnArgs>),
    /// Speak UCI on standard input and output: the engine of the game that speaks it (chess's)
    /// for chess GUIs, match runners (fastchess, cutechess) and lichess-bot.
    Uci,
    /// Speak USI on standard input and output: the engine of the game that speaks it, for shogi
    /// GUIs (ShogiHome, Shogidokoro, ShogiGUI) and match runners.
    Usi,
    /// Speak GTP on standard input and output, as Othello engines do (GRhino's gtp-rhino): the
    /// engine of the game that speaks it (Othello's), for controllers such as Quarry and GoGui.
    Gtp,
    /// Speak the NBoard protocol on standard input and output: the engine of the game that
    /// speaks it (Othello's), for the NBoard GUI.
    Nboard,
}

#[derive(Args)]
struct PerftArgs {
    /// The position, in the game's text form (a FEN for chess); it may start with '-' (an
    /// Othello board).
    #[arg(allow_hyphen_values = true)]
    board: String,
    /// Plies to count.
    depth: u32,
    /// The game [default: the first in GET /games's order whose boards read this one: chess for
    /// a FEN].
    #[arg(long)]
    game: Option<String>,
}

#[derive(Args)]
struct PositionsArgs {
    /// The files of recorded games.
    #[arg(required = true)]
    files: Vec<std::path::PathBuf>,
    /// Write the positions to this file rather than to stdout.
    #[arg(long)]
    output: Option<std::path::PathBuf>,
}

/// How a player is written, for the help of the commands that take one.
/// What a player's text is, after the help of the commands that take one.
fn player_help() -> String {
    format!(
        "A player is ALGORITHM[:KNOB=VALUE,...]: the algorithm ({}) and its knobs, named as in \
         the API, e.g. 'alphabeta:depth=3,transposition_table=true' or 'mcts:simulations=1000, \
         uct_c=1'. A knob the algorithm does not take is an error. Every knob's default and \
         limits per game: GET /algorithms?game=GAME on a running service, or \
         docs/algorithms.md.",
        sente::search::Algorithm::names().join(", ")
    )
}

#[derive(Args)]
struct ServeArgs {
    /// Address to listen on [default: 127.0.0.1:8080, or 0.0.0.0:$PORT when PORT is set].
    #[arg(long, env = "SENTE_ADDR")]
    addr: Option<SocketAddr>,
    /// Log lines as text or as JSON objects; RUST_LOG filters them (default: info).
    #[arg(long, value_enum, default_value_t = LogFormat::Text, env = "SENTE_LOG_FORMAT")]
    log_format: LogFormat,
    /// No game of a tournament starts after this many milliseconds [default: 60000].
    #[arg(long, env = "SENTE_TOURNAMENT_TIME_LIMIT_MS")]
    tournament_time_limit_ms: Option<u64>,
    /// CPU-heavy requests (tournaments, analyses, large searches) run at once [default: cores].
    #[arg(long, env = "SENTE_HEAVY_SLOTS")]
    heavy_slots: Option<usize>,
    /// Heavy requests that may wait for a slot, every client's together; more are refused with
    /// 503 [default: 64].
    #[arg(long, env = "SENTE_HEAVY_QUEUE")]
    heavy_queue: Option<usize>,
    /// A heavy request that would wait longer than this many milliseconds for a slot is refused
    /// at once (429 or 503, with Retry-After reckoned from the queue) [default: 5000].
    #[arg(long, env = "SENTE_QUEUE_LIMIT_MS", value_parser = clap::value_parser!(u64).range(1..))]
    queue_limit_ms: Option<u64>,
    /// Requests a second each client may send, on any route, or none [default: 100].
    #[arg(long, env = "SENTE_REQUESTS_PER_SECOND", value_name = "N|none")]
    requests_per_second: Option<String>,
    /// CPU-seconds of heavy work a minute each client may use (a heavy slot's time), or none
    /// [default: 30 for each core, half the machine].
    #[arg(long, env = "SENTE_CPU_SECONDS_PER_MINUTE", value_name = "N|none")]
    cpu_seconds_per_minute: Option<String>,
    /// Heavy requests of one client that may wait for a slot at once; more are refused with 429
    /// [default: 4].
    #[arg(long, env = "SENTE_CLIENT_QUEUE")]
    client_queue: Option<usize>,
    /// A file of API keys, a line each: NAME KEY [requests_per_second=N]
    /// [cpu_seconds_per_minute=N] [queue=N] (the anonymous limits where left out). The same
    /// lines may be given in SENTE_API_KEYS instead, separated by ';'. Without keys the service
    /// is open to all, each client named by its address.
    #[arg(long, env = "SENTE_API_KEYS_FILE", value_name = "FILE")]
    api_keys_file: Option<std::path::PathBuf>,
    /// Where keys are configured, the POST routes a client without one may use, comma-separated
    /// (/move,/position), or none [default: every route].
    #[arg(long, env = "SENTE_ANONYMOUS_ROUTES", value_name = "ROUTES|none")]
    anonymous_routes: Option<String>,
    /// A reverse proxy (an address or a network, 10.0.0.0/8) whose Forwarded or X-Forwarded-For
    /// names the client; repeatable [default: none: every client is its connection's address].
    #[arg(
        long = "trusted-proxy",
        env = "SENTE_TRUSTED_PROXIES",
        value_delimiter = ','
    )]
    trusted_proxies: Vec<String>,
    /// No search of /move or /analyze runs longer than this, whatever its knobs
    /// [default: 15000].
    #[arg(long, env = "SENTE_MAX_SEARCH_MS", value_parser = clap::value_parser!(u64).range(1..))]
    max_search_ms: Option<u64>,
    /// Game states one search may visit or create [default: 100000000].
    #[arg(long, env = "SENTE_MAX_NODES", value_parser = clap::value_parser!(u64).range(1..))]
    max_nodes: Option<u64>,
    /// A request head not whole after this many milliseconds closes the connection, and then a
    /// body not whole after as long is answered 408 [default: 10000].
    #[arg(long, env = "SENTE_READ_TIMEOUT_MS", value_parser = clap::value_parser!(u64).range(1..))]
    read_timeout_ms: Option<u64>,
    /// An answer whose client takes none of it for this many milliseconds closes the
    /// connection, freeing what the answer holds [default: 10000].
    #[arg(long, env = "SENTE_WRITE_TIMEOUT_MS", value_parser = clap::value_parser!(u64).range(1..))]
    write_timeout_ms: Option<u64>,
    /// The most games a tournament's answer may record move by move (records, or PGN)
    /// [default: 1000].
    #[arg(long, env = "SENTE_MAX_RECORDED_GAMES", value_parser = clap::value_parser!(u64).range(1..))]
    max_recorded_games: Option<u64>,
    /// An external engine tournaments may play, as NAME=PATH[,protocol=usi|xboard][,OPTION=VALUE...]
    /// (stockfish=/usr/games/stockfish,Hash=16), started once to learn its options; requests
    /// name it. A request may set what settable=A|B lists (by default the engine's check, spin
    /// and combo options), never the options given here, and Hash and Threads up to max_hash=MB
    /// and max_threads=N [default: 64 and 1]. Repeatable; several in SENTE_ENGINES, separated
    /// by ';'.
    #[arg(long = "engine", env = "SENTE_ENGINES", value_delimiter = ';')]
    engines: Vec<String>,
}

#[derive(Args)]
struct HealthcheckArgs {
    /// Address of the service [default: as for serve].
    #[arg(long, env = "SENTE_ADDR")]
    addr: Option<SocketAddr>,
    /// Give up after this many milliseconds.
    #[arg(long, default_value_t = 2000)]
    timeout_ms: u64,
}

#[derive(Copy, Clone, ValueEnum)]
enum LogFormat {
    Text,
    Json,
}

/// The position: the same fields as a request's, with the same meaning.
#[derive(Args)]
struct PositionArgs {
    /// The game, one of those GET /games lists [default: the first].
    #[arg(long)]
    game: Option<String>,
    /// The board in text form, e.g. X.O/.X./..O, or a FEN for chess (GET /games describes each
    /// game's).
    #[arg(long, allow_hyphen_values = true)]
    board: Option<String>,
    /// The moves played from the board (or from the start), comma-separated, e.g. 4,0,8 or
    /// e2e4,e7e5; '' is the start.
    #[arg(long)]
    moves: Option<String>,
}

/// `move` and `analyze`: a position and the player that searches it.
#[derive(Args)]
struct SearchArgs {
    /// The algorithm and its knobs, as ALGORITHM[:KNOB=VALUE,...], with the API's names:
    /// alphabeta:depth=3,transposition_table=true or mcts:simulations=1000 [default: the
    /// game's, alphabeta or, on chess, engine].
    player: Option<String>,
    #[command(flatten)]
    position: PositionArgs,
    /// Seed of the randomised algorithms [default: drawn and reported].
    #[arg(long, allow_negative_numbers = true)]
    seed: Option<i128>,
    /// Search without the game's default time limit unless the player gives time_limit_ms:
    /// the solver solves, alphabeta and the engine deepen to their depth or the end, however
    /// long that takes (the service always keeps its limits).
    #[arg(long)]
    no_time_limit: bool,
}

/// `review`: a game and the player that judges it.
#[derive(Args)]
struct ReviewArgs {
    #[command(flatten)]
    search: SearchArgs,
    /// The game's record instead of --moves: a PGN (chess), KIF, KI2 or CSA (shogi), GGF or
    /// transcript (Othello) file, in UTF-8 or Shift_JIS; - reads standard input. Its format is
    /// found from its content, or named by --format.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["board", "moves"])]
    record: Option<std::path::PathBuf>,
    /// The record's format, as GET /games names the game's (PGN, KIF, CSA, GGF, transcript).
    #[arg(long, requires = "record")]
    format: Option<String>,
    /// The threads that search the positions [default: one a core].
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
    threads: Option<u16>,
}

fn main() -> ExitCode {
    let cli = parse_command_line();
    let result = match cli.command {
        None => serve(cli.serve),
        Some(Command::Serve(args)) => serve(args),
        Some(Command::Healthcheck(args)) => return healthcheck(args),
        // A request's problem is said with the flag or the player at fault.
        Some(Command::Move(args)) => run_search(args, Search::Move),
        Some(Command::Analyze(args)) => run_search(args, Search::Analyze),
        Some(Command::Review(args)) => run_review(args),
        Some(Command::Tournament(args)) => tournament::run(*args),
        Some(Command::Perft(args)) => run_perft(args),
        Some(Command::Bench(args)) => bench::run_bench(args),
        Some(Command::Positions(args)) => write_positions(args),
        Some(Command::Selfplay(args)) => selfplay::run_selfplay(args),
        Some(Command::Train(args)) => train::run(args),
        Some(Command::Learn(args)) => learn::run(*args),
        Some(Command::Uci) => speak("uci"),
        Some(Command::Usi) => speak("usi"),
        Some(Command::Gtp) => speak("gtp"),
        Some(Command::Nboard) => speak("nboard"),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("sente: {error}");
            ExitCode::from(2)
        }
    }
}

/// The command line, read as [`Cli`] says, except for one thing clap cannot be told.
///
/// Serve's options stand at the top level too, and clap reads their environment variables
/// whichever subcommand is named. A setting meant for the service would then stop the other
/// commands: in a container, `SENTE_LOG_FORMAT=yaml sente healthcheck` or `SENTE_MAX_NODES=0
/// sente move` failed on an option they never use. So when the first argument names a
/// subcommand, the top-level options lose their environment variables (`sente serve` has its
/// own).
fn parse_command_line() -> Cli {
    let mut command = Cli::command();
    let names_a_subcommand = std::env::args_os()
        .nth(1)
        .is_some_and(|first| command.find_subcommand(first).is_some());
    if names_a_subcommand {
        command = command.mut_args(|arg| arg.env(None));
    }
    Cli::from_arg_matches(&command.get_matches()).unwrap_or_else(|error| error.exit())
}

/// The listening address: `--addr` or `SENTE_ADDR`; else `PORT` alone, on every interface, as
/// container platforms expect; else the loopback default.
fn listen_address(addr: Option<SocketAddr>) -> Result<SocketAddr, String> {
    if let Some(addr) = addr {
        return Ok(addr);
    }
    match std::env::var("PORT") {
        Ok(port) => port
            .parse::<u16>()
            .map(|port| SocketAddr::from(([0, 0, 0, 0], port)))
            .map_err(|_| format!("PORT must be a port number, got {port:?}")),
        Err(_) => Ok(SocketAddr::from(([127, 0, 0, 1], 8080))),
    }
}

fn healthcheck(args: HealthcheckArgs) -> ExitCode {
    let probe = listen_address(args.addr).and_then(|addr| {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|error| error.to_string())?
            .block_on(sente::http::healthcheck::probe(
                addr,
                std::time::Duration::from_millis(args.timeout_ms),
            ))
    });
    match probe {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("sente healthcheck: {error}");
            ExitCode::FAILURE
        }
    }
}

fn serve(args: ServeArgs) -> Result<(), String> {
    return_large_blocks_to_the_system();
    // Held to the end: dropping it writes out the lines still queued.
    let (_log_writer, dropped_lines) = start_logging(args.log_format);
    let addr = listen_address(args.addr)?;
    let mut state = sente::http::AppState {
        metrics: std::sync::Arc::new(
            sente::http::metrics::Metrics::default()
                .with_dropped_log_lines(move || dropped_lines.dropped_lines() as u64),
        ),
        ..Default::default()
    };
    if let Some(ms) = args.tournament_time_limit_ms {
        state.tournament_time_limit = std::time::Duration::from_millis(ms);
    }
    if let Some(ms) = args.max_search_ms {
        state.search_limits.max_search_time = std::time::Duration::from_millis(ms);
    }
    if let Some(max) = args.max_nodes {
        state.search_limits.max_nodes = Some(max);
    }
    state.engines = tournament::engines(&args.engines)?.into();
    if let Some(ms) = args.read_timeout_ms {
        state.read_timeout = std::time::Duration::from_millis(ms);
    }
    if let Some(ms) = args.write_timeout_ms {
        state.write_timeout = std::time::Duration::from_millis(ms);
    }
    if let Some(games) = args.max_recorded_games {
        state.max_recorded_games = games;
    }
    state.share = std::sync::Arc::new(share(&args, state.share.limits())?);
    let runtime = tokio::runtime::Runtime::new()
        .map_err(|error| format!("cannot start the async runtime: {error}"))?;
    runtime
        .block_on(sente::http::listen(addr, state))
        .map_err(|error| format!("cannot serve on {addr}: {error}"))
}

/// The heavy slots' limits and the clients' policy, from serve's options.
fn share(
    args: &ServeArgs,
    defaults: sente::http::share::ShareLimits,
) -> Result<sente::http::share::Share, String> {
    use sente::http::share::{ApiKeys, ClientLimits, Policy, Share, ShareLimits};
    let limits = ShareLimits {
        heavy_slots: args.heavy_slots.unwrap_or(defaults.heavy_slots),
        heavy_queue: args.heavy_queue.unwrap_or(defaults.heavy_queue),
        queue_limit: args
            .queue_limit_ms
            .map_or(defaults.queue_limit, std::time::Duration::from_millis),
    };
    let mut anonymous = ClientLimits::default();
    let settings = [
        ("requests_per_second", args.requests_per_second.clone()),
        (
            "cpu_seconds_per_minute",
            args.cpu_seconds_per_minute.clone(),
        ),
        ("queue", args.client_queue.map(|queue| queue.to_string())),
    ];
    for (name, value) in settings {
        if let Some(value) = value {
            anonymous
                .set(&format!("{name}={value}"))
                .map_err(|error| format!("--{}: {error}", name.replace('_', "-")))?;
        }
    }
    let mut text = String::new();
    if let Some(path) = &args.api_keys_file {
        text = std::fs::read_to_string(path)
            .map_err(|error| format!("cannot read the API keys in {}: {error}", path.display()))?;
    }
    if let Ok(keys) = std::env::var("SENTE_API_KEYS") {
        text.push('\n');
        text.push_str(&keys);
    }
    let keys = ApiKeys::parse(&text, anonymous)?;
    let anonymous_routes = args
        .anonymous_routes
        .as_deref()
        .map(Policy::parse_routes)
        .transpose()
        .map_err(|error| format!("--anonymous-routes: {error}"))?;
    if anonymous_routes.is_some() && keys.is_empty() {
        return Err(
            "--anonymous-routes keeps routes for clients with a key, but no key is configured (--api-keys-file or SENTE_API_KEYS)"
                .to_owned(),
        );
    }
    let trusted_proxies = args
        .trusted_proxies
        .iter()
        .filter(|proxy| !proxy.trim().is_empty())
        .map(|proxy| proxy.parse())
        .collect::<Result<_, String>>()
        .map_err(|error| format!("--trusted-proxy: {error}"))?;
    Ok(Share::new(
        limits,
        Policy {
            anonymous,
            keys,
            anonymous_routes,
            trusted_proxies,
        },
    ))
}

/// Installs the log subscriber: lines of `format`, filtered by `RUST_LOG` (default `info`),
/// written to stdout by a thread of their own. Returns that thread, and the count of the lines
/// it dropped.
///
/// Every request logs a line. Written in place, by the thread answering requests, a line is a
/// `write` system call (stdout flushes at every newline), and when whatever reads stdout stops
/// reading (a pipe nobody drains, a stalled log collector), the write blocks, and with it the
/// whole service: with stdout piped to a process that never reads, it stops answering once the
/// pipe is full (`tests/cli/serving.rs` checks it no longer does). Queued instead, lines go out in batches (a `BufWriter` that the writer thread
/// flushes whenever the queue runs dry), and when the queue is full they are dropped and
/// counted (`sente_log_lines_dropped_total`): a service that answers and loses log lines beats
/// one that hangs with all of them.
fn start_logging(format: LogFormat) -> (LogWriter, DroppedLines) {
    let (writer, guard) = tracing_appender::non_blocking::NonBlockingBuilder::default()
        .buffered_lines_limit(QUEUED_LOG_LINES)
        .lossy(true)
        .thread_name("sente-logs")
        .finish(std::io::BufWriter::new(std::io::stdout()));
    let dropped = writer.error_counter();
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let logs = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(writer)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stdout()));
    match format {
        LogFormat::Text => logs.init(),
        LogFormat::Json => logs.json().init(),
    }
    (LogWriter(Some(guard)), dropped)
}

type DroppedLines = tracing_appender::non_blocking::ErrorCounter;

/// Log lines that may wait for the writer thread: a fifth of a second or more of requests at
/// full load, a few MiB at most.
const QUEUED_LOG_LINES: usize = 16_384;

/// The log's writer thread. Dropped, it writes out the lines still queued, waiting for that at
/// most [`LOG_FLUSH_WAIT`].
///
/// The bound is ours: tracing-appender's guard waits a second at most for the thread, but when
/// stdout is stuck and the queue full, it says so with `println!`, to that same stdout, and
/// blocks for good. Dropped on a thread of its own, it can block there while the process exits.
struct LogWriter(Option<tracing_appender::non_blocking::WorkerGuard>);

const LOG_FLUSH_WAIT: std::time::Duration = std::time::Duration::from_secs(2);

impl Drop for LogWriter {
    fn drop(&mut self) {
        let Some(guard) = self.0.take() else {
            return;
        };
        let (flushed, wait) = std::sync::mpsc::channel();
        // Were no thread to be had, the guard is dropped here instead, as it would be without us.
        let dropping = std::thread::Builder::new().spawn(move || {
            drop(guard);
            let _ = flushed.send(());
        });
        if dropping.is_ok() {
            let _ = wait.recv_timeout(LOG_FLUSH_WAIT);
        }
    }
}

/// Serves the engine protocol called `name` on standard input and output.
fn speak(name: &str) -> Result<(), String> {
    match sente::api::catalogue::protocol(name) {
        Some(protocol) => (protocol.serve)().map_err(|error| format!("{name}: {error}")),
        None => Err(format!("{name}: no game's engine speaks it")),
    }
}

fn run_perft(args: PerftArgs) -> Result<(), String> {
    let game = match &args.game {
        Some(name) => sente::api::game(Some(name)).map_err(flagged)?,
        None => sente::api::perft::game_of_board(&args.board).ok_or_else(|| {
            format!(
                "no game reads {:?} as a board: give --game, and the board in its text form",
                args.board
            )
        })?,
    };
    let started = Instant::now();
    let nodes = sente::api::perft::perft(&game, &args.board, args.depth)
        .map_err(|problem| problem.detail)?;
    let elapsed = started.elapsed();
    print_json(&serde_json::json!({
        "game": game.name,
        "board": args.board,
        "depth": args.depth,
        "nodes": nodes,
        "elapsed_us": elapsed.as_micros() as u64,
        "nodes_per_second": (nodes as f64 / elapsed.as_secs_f64().max(1e-9)).round() as u64,
    }))
}

/// What `move`, `analyze` or `review` asks of the player.
#[derive(Copy, Clone)]
enum Search {
    Move,
    Analyze,
}

fn run_search(args: SearchArgs, search: Search) -> Result<(), String> {
    let player_text = args.player.as_deref().unwrap_or_default();
    let player = player_spec(args.player.as_deref())?;
    // As in a request, the position is given, never assumed: `--moves ''` is the start.
    if args.position.board.is_none() && args.position.moves.is_none() {
        return Err(
            "give the position: --board X.O/.X./..O (a FEN for chess), or --moves 4,0,8 (the \
             moves played from the start; --moves '' is the start)"
                .to_owned(),
        );
    }
    let request = MoveRequest {
        game: args.position.game,
        position: position(args.position.board, args.position.moves.as_deref())?,
        seed: args.seed,
        player,
        without_default_time_limit: args.no_time_limit,
        leave_out_position: false,
    };
    let in_request = |problem: Problem| match problem.field.as_deref() {
        Some(field) if PlayerSpec::is_field(field) => in_player("the player", player_text, problem),
        _ => flagged(problem),
    };
    let budget = Budget::unlimited();
    match search {
        Search::Move => {
            let job = MoveJob::new(request).map_err(in_request)?;
            print_json(&job.run(&budget).map_err(in_request)?)
        }
        Search::Analyze => {
            let job = AnalyzeJob::new(request).map_err(in_request)?;
            print_json(&job.run(&budget).map_err(in_request)?)
        }
    }
}

/// Reviews the game of `--moves` or `--record`, on `--threads` threads.
fn run_review(args: ReviewArgs) -> Result<(), String> {
    let record = match &args.record {
        None => None,
        Some(path) => Some(read_record(path)?),
    };
    let search = args.search;
    let player_text = search.player.as_deref().unwrap_or_default();
    let player = player_spec(search.player.as_deref())?;
    if record.is_none() && search.position.board.is_none() && search.position.moves.is_none() {
        return Err(
            "give the game: --moves e2e4,e7e5,... (from the start, or from --board), or \
             --record FILE"
                .to_owned(),
        );
    }
    let request = ReviewRequest {
        request: MoveRequest {
            game: search.position.game,
            position: position(search.position.board, search.position.moves.as_deref())?,
            seed: search.seed,
            player,
            without_default_time_limit: search.no_time_limit,
            leave_out_position: false,
        },
        record,
        format: args.format,
    };
    let in_request = |problem: Problem| match problem.field.as_deref() {
        Some(field) if PlayerSpec::is_field(field) => in_player("the player", player_text, problem),
        Some("record") => format!("--record: {}", problem.detail),
        _ => flagged(problem),
    };
    let threads = args.threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        usize::from,
    );
    let job = ReviewJob::new(request).map_err(in_request)?;
    print_json(&job.run(&Budget::unlimited(), threads).map_err(in_request)?)
}

/// A record's text, from its file (or standard input for `-`): UTF-8, or Shift_JIS where it is
/// not (a `.kif`), a byte-order mark dropped.
fn read_record(path: &std::path::Path) -> Result<String, String> {
    let bytes = if path.as_os_str() == "-" {
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin(), &mut bytes)
            .map_err(|error| format!("--record -: {error}"))?;
        bytes
    } else {
        std::fs::read(path).map_err(|error| format!("--record {}: {error}", path.display()))?
    };
    let text = match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(error) => encoding_rs::SHIFT_JIS
            .decode(error.as_bytes())
            .0
            .into_owned(),
    };
    Ok(text.trim_start_matches('\u{feff}').to_owned())
}

/// The position of `--board` or `--moves` (comma-separated, spaces allowed; numbers as
/// numbers, anything else as the game's notation reads it).
fn position(board: Option<String>, moves: Option<&str>) -> Result<PositionSpec, String> {
    let moves = moves.map(|moves| {
        moves
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|text| !text.is_empty())
            .map(|text| match text.parse::<i64>() {
                Ok(number) => Notation::Number(number),
                Err(_) => Notation::Text(text.to_owned()),
            })
            .collect()
    });
    Ok(PositionSpec {
        board: board.map(BoardSpec::Text),
        moves,
    })
}

/// The player written on the command line (`ALGORITHM[:KNOB=VALUE,...]`), the game's default
/// without one.
fn player_spec(text: Option<&str>) -> Result<PlayerSpec, String> {
    match text {
        Some(text) => {
            PlayerSpec::from_text(text).map_err(|problem| in_player("the player", text, problem))
        }
        None => Ok(PlayerSpec::default()),
    }
}

/// A problem with a player, for the command line: which player, as it was written.
fn in_player(seat: &str, text: &str, problem: Problem) -> String {
    format!("{seat} ({text}): {}", problem.detail)
}

/// A problem with a request field, named by the flag that gives it.
fn flagged(problem: Problem) -> String {
    let whole = problem.field.as_deref().unwrap_or_default();
    let field = whole.strip_prefix("start.").unwrap_or(whole);
    let flag = match field.split('[').next().unwrap_or_default() {
        "" => return problem.detail,
        "first_game" => "--first-game".to_owned(),
        name => format!("--{name}"),
    };
    // The detail starts with the field where it names an item of a list (`moves[2], the 3rd
    // move: ...`): the flag says it in the command line's words.
    let detail = problem.detail.strip_prefix(&format!("{whole}, "));
    format!("{flag}: {}", detail.unwrap_or(&problem.detail))
}

/// Writes `value` as JSON to `path`, or to stdout without one.
fn write_json(value: &impl Serialize, path: Option<&std::path::Path>) -> Result<(), String> {
    match path {
        None => print_json(value),
        Some(path) => {
            let text = serde_json::to_string_pretty(value).expect("answers serialise");
            sente::files::write_bytes(path, (text + "\n").as_bytes())
                .map_err(|error| format!("--output {error}"))
        }
    }
}

/// The training positions of the files' games, to `--output` or stdout; what was written, on
/// stderr.
fn write_positions(args: PositionsArgs) -> Result<(), String> {
    use std::io::Write;
    let harvest = |out: &mut (dyn Write + Send)| {
        let mut total = sente::api::positions::Tally::default();
        for path in &args.files {
            let in_file = |error: String| format!("{}: {error}", path.display());
            let text = sente::files::read_json(path, "a tournament's answer or a shard's results")?;
            let (game, records) = sente::api::positions::read(&text).map_err(in_file)?;
            let tally = sente::api::positions::write(&game, &records, out).map_err(in_file)?;
            total.games += tally.games;
            total.undecided += tally.undecided;
            total.positions += tally.positions;
        }
        out.flush().map_err(|error| error.to_string())?;
        Ok(total)
    };
    // A file is written whole or not at all: a run that fails leaves the old one.
    let total = match &args.output {
        Some(path) => sente::files::write_atomically(path, harvest)
            .map_err(|error| format!("--output {error}"))?,
        None => harvest(&mut std::io::BufWriter::new(std::io::stdout()))?,
    };
    eprintln!(
        "{} positions from {} games ({} left out: capped, forfeited or failed)",
        total.positions, total.games, total.undecided
    );
    Ok(())
}

/// Prints `value` as JSON. A reader that stops early (`| head`) ends the output quietly, as it
/// does for any Unix tool: a closed pipe is not an error worth a message.
fn print_json(value: &impl Serialize) -> Result<(), String> {
    use std::io::Write;
    let text = serde_json::to_string_pretty(value).expect("answers serialise");
    let mut stdout = std::io::stdout().lock();
    match writeln!(stdout, "{text}").and_then(|()| stdout.flush()) {
        Err(error) if error.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(format!("cannot write the answer: {error}"))
        }
        _ => Ok(()),
    }
}

/// Makes the allocator map every block of 1 MiB or more on its own and unmap it when freed.
///
/// Each concurrent search allocates tables of a few MiB. Left to itself, glibc raises its
/// mapping threshold after the first such block is freed and then serves them from per-thread
/// arenas, which keep the memory: the resident size then grows with every blocking thread that
/// ever searched (`scripts/load.sh` reports the peak).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn return_large_blocks_to_the_system() {
    // SAFETY: mallopt only changes a tuning parameter of the allocator; it is called before
    // any other thread exists.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 1 << 20);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn return_large_blocks_to_the_system() {}

#[cfg(test)]
mod tests {
    use super::Cli;
    use clap::CommandFactory;

    #[test]
    fn every_option_says_what_it_does() {
        let cli = Cli::command();
        cli.clone().debug_assert();
        for command in cli.get_subcommands() {
            for arg in command.get_arguments() {
                assert!(
                    arg.get_help().is_some(),
                    "sente {} --{} has no help text",
                    command.get_name(),
                    arg.get_id()
                );
            }
        }
    }
}
