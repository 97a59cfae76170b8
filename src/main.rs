//! The `sente` command: parses the command line and hands over to the library.

use std::net::SocketAddr;
use std::process::ExitCode;
use std::time::Instant;

use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};
use serde::Serialize;
use serde_json::{Map, Value};

use sente::api::Problem;
use sente::api::board::BoardSpec;
use sente::api::knobs::PlayerSpec;
use sente::api::match_play::TournamentJob;
use sente::api::play::MoveJob;
use sente::api::request::{MoveRequest, PositionSpec, TournamentRequest};
use sente::search::Budget;

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
    /// Search one position and print the result as JSON (the same as POST /move).
    #[command(
        after_help = "A knob that does not apply to the algorithm is an error. Every \
                            knob's default and limits: GET /algorithms on a running service."
    )]
    Move(MoveArgs),
    /// Play games between two players and print the result as JSON (as POST /tournament).
    Tournament(TournamentArgs),
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
    /// Heavy requests that may wait for a slot; more are refused with 503 [default: 64].
    #[arg(long, env = "SENTE_HEAVY_QUEUE")]
    heavy_queue: Option<usize>,
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

#[derive(Args)]
struct PositionArgs {
    /// The game: tictactoe (the default) or connect4.
    #[arg(long)]
    game: Option<String>,
    /// The board in text form, e.g. X.O/.X./..O (default: the empty board).
    #[arg(long, conflicts_with = "moves")]
    board: Option<String>,
    /// The moves played from the empty board, comma-separated, e.g. 4,0,8.
    #[arg(long, value_delimiter = ',', allow_negative_numbers = true)]
    moves: Option<Vec<i64>>,
}

#[derive(Args)]
struct MoveArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// random, minimax, negamax, alphabeta, mcs, mcts or solver (default: alphabeta).
    #[arg(long)]
    algorithm: Option<String>,
    /// minimax, negamax, alphabeta: plies to search (default: to the end of the game).
    #[arg(long)]
    depth: Option<u64>,
    /// mcs: random playouts after each legal move.
    #[arg(long)]
    playouts: Option<u64>,
    /// mcts: simulations (select, expand, playout, back up).
    #[arg(long)]
    simulations: Option<u64>,
    /// mcts: the exploration constant c of UCB1.
    #[arg(long)]
    uct_c: Option<f64>,
    /// mcts: visits after which a leaf is expanded.
    #[arg(long)]
    expand_threshold: Option<u64>,
    /// alphabeta, solver: deepen until this much time has passed; mcs, mcts: stop sampling then.
    #[arg(long)]
    time_limit_ms: Option<u64>,
    /// alphabeta: use a transposition table.
    #[arg(long)]
    transposition_table: bool,
    /// alphabeta: let symmetric positions share the search.
    #[arg(long)]
    symmetry: bool,
    /// alphabeta: order moves (table move, killers, history, centre first).
    #[arg(long)]
    ordering: bool,
    /// alphabeta: principal variation search.
    #[arg(long)]
    pvs: bool,
    /// first, random or traps: how exact algorithms choose among equally good moves.
    #[arg(long)]
    tiebreak: Option<String>,
    /// Seed of the randomised algorithms (default: drawn and reported).
    #[arg(long)]
    seed: Option<u64>,
}

#[derive(Args)]
struct TournamentArgs {
    /// Player A, as ALGORITHM[:KNOB=VALUE,...], e.g. mcts:simulations=1000.
    #[arg(long, short = 'a')]
    a: String,
    /// Player B, in the same form.
    #[arg(long, short = 'b')]
    b: String,
    /// Number of games; A moves first in the even-numbered ones.
    #[arg(long)]
    games: Option<u64>,
    /// Index of the first game, to split one tournament across machines.
    #[arg(long)]
    first_game: Option<u64>,
    /// Seed of every game's random choices (default: drawn and reported).
    #[arg(long)]
    seed: Option<u64>,
    /// Threads to play on (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    #[command(flatten)]
    start: PositionArgs,
}

fn main() -> ExitCode {
    let cli = parse_command_line();
    let result = match cli.command {
        None => serve(cli.serve),
        Some(Command::Serve(args)) => serve(args),
        Some(Command::Healthcheck(args)) => return healthcheck(args),
        // A request's problem says which field is wrong, as the service's answer would.
        Some(Command::Move(args)) => run_move(args).map_err(|problem| problem.to_string()),
        Some(Command::Tournament(args)) => {
            run_tournament(args).map_err(|problem| problem.to_string())
        }
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
    if let Some(ms) = args.read_timeout_ms {
        state.read_timeout = std::time::Duration::from_millis(ms);
    }
    if args.heavy_slots.is_some() || args.heavy_queue.is_some() {
        let defaults = state.admission.limits();
        state.admission = std::sync::Arc::new(sente::http::admission::Admission::new(
            sente::http::admission::AdmissionLimits {
                heavy_slots: args.heavy_slots.unwrap_or(defaults.heavy_slots),
                heavy_queue: args.heavy_queue.unwrap_or(defaults.heavy_queue),
            },
        ));
    }
    let runtime = tokio::runtime::Runtime::new()
        .map_err(|error| format!("cannot start the async runtime: {error}"))?;
    runtime
        .block_on(sente::http::run(addr, state))
        .map_err(|error| format!("cannot serve on {addr}: {error}"))
}

/// Installs the log subscriber: lines of `format`, filtered by `RUST_LOG` (default `info`),
/// written to stdout by a thread of their own. Returns that thread, and the count of the lines
/// it dropped.
///
/// Every request logs a line. Written in place, by the thread answering requests, a line is a
/// `write` system call (stdout flushes at every newline), and when whatever reads stdout stops
/// reading (a pipe nobody drains, a stalled log collector), the write blocks, and with it the
/// whole service: with stdout piped to a process that never read, it stopped answering after
/// 369 requests. Queued instead, lines go out in batches (a `BufWriter` that the writer thread
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

/// The position the arguments give; on the command line, unlike in a request, leaving both
/// out means the empty board (the flags' documented default).
fn position(args: PositionArgs) -> PositionSpec {
    match (args.board, args.moves) {
        (None, None) => PositionSpec::start(),
        (board, moves) => PositionSpec {
            board: board.map(BoardSpec::Text),
            moves,
        },
    }
}

fn run_move(args: MoveArgs) -> Result<(), Problem> {
    let request = MoveRequest {
        game: args.position.game.clone(),
        position: position(args.position),
        seed: args.seed,
        player: PlayerSpec {
            algorithm: args.algorithm,
            depth: args.depth,
            playouts: args.playouts,
            simulations: args.simulations,
            uct_c: args.uct_c,
            expand_threshold: args.expand_threshold,
            time_limit_ms: args.time_limit_ms,
            transposition_table: args.transposition_table.then_some(true),
            symmetry: args.symmetry.then_some(true),
            ordering: args.ordering.then_some(true),
            pvs: args.pvs.then_some(true),
            tiebreak: args.tiebreak,
        },
    };
    print_json(&MoveJob::new(request)?.run(&Budget::unlimited())?);
    Ok(())
}

fn run_tournament(args: TournamentArgs) -> Result<(), Problem> {
    let request = TournamentRequest {
        game: args.start.game.clone(),
        players: vec![
            player(&args.a).map_err(|p| p.within("a"))?,
            player(&args.b).map_err(|p| p.within("b"))?,
        ],
        games: args.games,
        first_game: args.first_game,
        seed: args.seed,
        start: Some(position(args.start)),
    };
    let job = TournamentJob::new(request)?;
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let started = Instant::now();
    let tally = job.play_parallel(threads);
    print_json(&job.report(&tally, started.elapsed()));
    Ok(())
}

/// Reads `mcts:simulations=1000,uct_c=1.4` as a player: the algorithm, then its knobs.
fn player(text: &str) -> Result<PlayerSpec, Problem> {
    let (algorithm, knobs) = text.split_once(':').unwrap_or((text, ""));
    let mut object = Map::new();
    object.insert("algorithm".into(), Value::String(algorithm.to_owned()));
    for knob in knobs.split(',').filter(|knob| !knob.is_empty()) {
        let (name, value) = knob
            .split_once('=')
            .ok_or_else(|| Problem::malformed(format!("expected KNOB=VALUE, got {knob:?}")))?;
        // Numbers and booleans as JSON; anything else (tiebreak=traps) as a string.
        let value = serde_json::from_str(value).unwrap_or_else(|_| Value::String(value.to_owned()));
        if object.insert(name.to_owned(), value).is_some() {
            return Err(Problem::malformed(format!(
                "{name} is given twice in {text:?}"
            )));
        }
    }
    serde_json::from_value(Value::Object(object))
        .map_err(|error| Problem::malformed(error.to_string()))
}

fn print_json(value: &impl Serialize) {
    println!(
        "{}",
        serde_json::to_string_pretty(value).expect("responses serialise")
    );
}

/// Makes the allocator map every block of 1 MiB or more on its own and unmap it when freed.
///
/// Each concurrent search allocates tables of a few MiB. Left to itself, glibc raises its
/// mapping threshold after the first such block is freed and then serves them from per-thread
/// arenas, which keep the memory: the resident size then grows with every blocking thread that
/// ever searched. A burst of Connect Four solves, tournaments and analyses peaked at 105 MB
/// without this, and at 92 MB with it (76 MB once done).
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
