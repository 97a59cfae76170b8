//! `sente serve` (the default) and `sente healthcheck`: the HTTP service with its options,
//! its log and its clients' share, and the probe a container's health check runs.

use std::net::SocketAddr;
use std::process::ExitCode;

use clap::{Args, ValueEnum};

#[derive(Args)]
pub(crate) struct ServeArgs {
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
pub(crate) struct HealthcheckArgs {
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

pub(crate) fn healthcheck(args: HealthcheckArgs) -> ExitCode {
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

pub(crate) fn serve(args: ServeArgs) -> Result<(), String> {
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
    state.engines = super::tournament::engines(&args.engines)?.into();
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
type DroppedLines = tracing_appender::non_blocking::ErrorCounter;

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
