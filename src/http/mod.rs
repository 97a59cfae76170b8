//! The HTTP service: axum routes over the [`crate::api`] layer.
//!
//! Handlers are small functions over typed extractors, one file per route group; every error
//! is a [`Problem`](crate::api::Problem) answered as `application/problem+json`; shared state
//! is [`AppState`]. The layers around the routes are [`app`]; the accept loop, with its
//! timeouts for stalled clients and its bounded graceful shutdown, is [`serve`].

mod analyze;
mod body;
mod cancel;
mod catalogue;
mod choose_move;
mod describe;
mod etag;
mod header_list;
pub mod healthcheck;
mod heavy;
#[cfg(feature = "test-hooks")]
pub mod hooks;
mod json;
pub mod metrics;
mod ndjson;
mod playground;
mod problem;
mod record;
mod review;
pub mod share;
pub mod shutdown;
mod tournament;
mod write_timeout;

use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::Request;
use axum::http::{Method, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodRouter, get, post};
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::net::{TcpListener, TcpStream};
use tower::{Service, ServiceBuilder, ServiceExt};
use tower_http::LatencyUnit;
use tower_http::cors::{Any, CorsLayer};
use tower_http::trace::{DefaultOnResponse, TraceLayer};
use tracing::Level;

use crate::api::Budget;
pub use body::MAX_BODY_BYTES;
pub use catalogue::OPENAPI_YAML;

/// Largest request head (request line and headers), in bytes; a larger one is answered 431 by
/// hyper itself. Without it, only hyper's read buffer bounds a head, several times larger, and
/// every connection that stalls mid-head may hold that much for the whole read timeout. Browsers send a few KiB, and no request needs a head larger than the largest body.
pub const MAX_HEAD_BYTES: usize = 64 * 1024;

/// How long a browser may keep the answer to a CORS preflight.
pub const CORS_MAX_AGE: Duration = Duration::from_secs(2 * 60 * 60);

/// What every handler may read.
#[derive(Clone, Debug)]
pub struct AppState {
    pub metrics: Arc<metrics::Metrics>,
    /// The slots for CPU-heavy work shared between the clients, their queues, and the
    /// operator's policy for each client (limits, keys).
    pub share: Arc<share::Share>,
    /// Cores available: the number of chunks a tournament is split into.
    pub cores: usize,
    /// No game of a tournament starts after this much time; the answer then says
    /// `complete: false`. This bounds the time one request can hold the machine.
    pub tournament_time_limit: Duration,
    /// What any one search may spend, whatever its knobs.
    pub search_limits: SearchLimits,
    /// How long a client may take to send a request head (request line and headers), and then
    /// its body: a connection whose head is not whole by then is closed, a body not whole by
    /// then is answered 408. A client that stalls in the middle of a request holds nothing
    /// longer than this.
    pub read_timeout: Duration,
    /// How long an answer may wait for its client to take any of it: past this the connection
    /// is closed and the answer dropped, so that a client that never reads holds nothing.
    pub write_timeout: Duration,
    /// The most games a tournament's answer records move by move (`records`, or PGN).
    pub max_recorded_games: u64,
    /// The external engines tournaments may play (`--engine`), by name.
    pub engines: Arc<[Arc<crate::api::tournament::EngineConfig>]>,
}

/// The service's limits on every search, on top of the algorithms' own knobs.
#[derive(Copy, Clone, Debug)]
pub struct SearchLimits {
    /// No search of `/move` or `/analyze` runs longer (a tournament's searches stop at the
    /// tournament's limit instead).
    pub max_search_time: Duration,
    /// Game states one search may visit or create.
    pub max_nodes: Option<u64>,
}

/// Default of [`SearchLimits::max_search_time`]: above the largest `time_limit_ms` (10 s), so
/// that it only stops searches whose knobs do not bound their time.
pub const DEFAULT_MAX_SEARCH_TIME: Duration = Duration::from_secs(15);

/// Default of [`SearchLimits::max_nodes`]: about twice what the largest knobs the games allow
/// need (their deepest full-width searches), a second or two of search.
pub const DEFAULT_MAX_NODES: u64 = 100_000_000;

impl Default for SearchLimits {
    fn default() -> Self {
        SearchLimits {
            max_search_time: DEFAULT_MAX_SEARCH_TIME,
            max_nodes: Some(DEFAULT_MAX_NODES),
        }
    }
}

impl SearchLimits {
    /// The budget of a light search (see [`MoveJob::is_light`](crate::api::choose_move::MoveJob)):
    /// the node limit alone. It ends in well under a millisecond, long before any deadline,
    /// and reading the clock to set one would be a noticeable part of its time.
    pub fn light_budget(&self) -> Budget {
        Budget {
            max_nodes: self.max_nodes,
            ..Budget::default()
        }
    }
}

/// Default of [`AppState::read_timeout`].
pub const DEFAULT_READ_TIMEOUT: Duration = Duration::from_secs(10);

/// Default of [`AppState::write_timeout`].
pub const DEFAULT_WRITE_TIMEOUT: Duration = Duration::from_secs(10);

/// Default of [`AppState::max_recorded_games`]: answers of a few MiB (a game of chess is a
/// few tens of KiB recorded); more games are played in several requests (`first_game`), or
/// with the command line, which records any number.
pub const DEFAULT_MAX_RECORDED_GAMES: u64 = 1_000;

/// Default of [`AppState::tournament_time_limit`].
pub const DEFAULT_TOURNAMENT_TIME_LIMIT: Duration = Duration::from_secs(60);

impl AppState {
    /// How long in-flight requests may take to finish once shutdown begins: the longest a
    /// request can take once its head has arrived (its body, then a tournament or a search),
    /// and a second more. A connection still open after that (a client that stopped reading
    /// its answer, say) does not keep the process from exiting.
    pub fn shutdown_grace(&self) -> Duration {
        self.read_timeout
            + self
                .tournament_time_limit
                .max(self.search_limits.max_search_time)
            + Duration::from_secs(1)
    }
}

/// The cores this process may use.
pub fn available_cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

impl Default for AppState {
    fn default() -> Self {
        let cores = available_cores();
        AppState {
            metrics: Arc::default(),
            share: Arc::new(share::Share::new(
                share::ShareLimits {
                    heavy_slots: cores,
                    heavy_queue: share::DEFAULT_HEAVY_QUEUE,
                    queue_limit: share::DEFAULT_QUEUE_LIMIT,
                },
                share::Policy::default(),
            )),
            cores,
            tournament_time_limit: DEFAULT_TOURNAMENT_TIME_LIMIT,
            search_limits: SearchLimits::default(),
            engines: Arc::new([]),
            read_timeout: DEFAULT_READ_TIMEOUT,
            write_timeout: DEFAULT_WRITE_TIMEOUT,
            max_recorded_games: DEFAULT_MAX_RECORDED_GAMES,
        }
    }
}

/// Every route with its method. The router is built from this table, and a test checks it
/// against the paths of `openapi.yaml` in both directions.
pub fn routes() -> Vec<(&'static str, Method, MethodRouter<AppState>)> {
    vec![
        ("/", Method::GET, get(playground::get_page)),
        ("/move", Method::POST, post(choose_move::post_move)),
        ("/analyze", Method::POST, post(analyze::post_analyze)),
        ("/position", Method::POST, post(describe::post_position)),
        ("/record", Method::POST, post(record::post_record)),
        ("/review", Method::POST, post(review::post_review)),
        (
            "/tournament",
            Method::POST,
            post(tournament::post_tournament),
        ),
        ("/games", Method::GET, get(catalogue::get_games)),
        ("/algorithms", Method::GET, get(catalogue::get_algorithms)),
        ("/healthz", Method::GET, get(catalogue::get_healthz)),
        ("/limits", Method::GET, get(catalogue::get_limits)),
        ("/openapi.yaml", Method::GET, get(catalogue::get_openapi)),
        ("/metrics", Method::GET, get(metrics::get_metrics)),
        ("/problems/{name}", Method::GET, get(catalogue::get_problem)),
    ]
}

/// The application: the routes, then around them all (outermost first) request tracing, CORS,
/// metrics and a panic's 500 problem. Every error is a problem: the handlers' own, the 404 of
/// the fallback, the 405 of each route's method fallback. (The body limit is `JsonBody`'s, the
/// one extractor that reads bodies.)
///
/// The layers wrap the router once rather than through `Router::layer`, which boxes every
/// route's service again for each layer and clones that chain of boxes for every request.
/// Inside the router, and with `from_fn` middlewares where the metrics layer and the method
/// fallbacks are now, every request paid for those boxes and clones in allocations, which
/// `scripts/bench-http.sh` shows as requests per second on every route.
pub fn app(
    state: AppState,
) -> impl Service<Request, Response = Response, Error = Infallible, Future: Send>
+ Clone
+ Send
+ Sync
+ 'static {
    let mut router = Router::new();
    let mut paths = Vec::new();
    for (path, method, handler) in routes() {
        paths.push(path);
        let not_allowed = move || std::future::ready(problem::method_not_allowed(path, &method));
        router = router.route(path, handler.fallback(not_allowed));
    }
    // A 404 suggests only these routes, the documented ones, not the test hooks.
    let documented: Arc<[&'static str]> = Arc::from(paths.as_slice());
    #[cfg(feature = "test-hooks")]
    for (path, handler) in hooks::routes() {
        paths.push(path);
        router = router.route(path, handler);
    }
    let router = router
        .fallback(move |uri: Uri| async move { problem::not_found(uri.path(), &documented) })
        .with_state(state.clone());
    let share =
        share::layer::ShareLayer::new(Arc::clone(&state.share), Arc::clone(&state.metrics), &paths);
    ServiceBuilder::new()
        // axum serves responses with its own body type; the trace layer wraps the body.
        .map_response(IntoResponse::into_response)
        .layer(
            TraceLayer::new_for_http()
                .make_span_with(RequestSpan)
                // Most answers take microseconds: in milliseconds, the log would say "0 ms".
                .on_response(
                    DefaultOnResponse::new()
                        .level(Level::INFO)
                        .latency_unit(LatencyUnit::Micros),
                ),
        )
        .layer(
            CorsLayer::new()
                .allow_origin(Any)
                .allow_methods([Method::GET, Method::POST])
                .allow_headers(Any)
                // A browser reads only a few headers of a cross-origin answer unless told: those
                // the problems carry for the client to act on (`Retry-After` of a 503, `Allow`
                // of a 405, `Accept-Encoding` of a 415 for a compressed body) and the name
                // `/record` gives its file (`Content-Disposition`), for a download button.
                .expose_headers([
                    header::RETRY_AFTER,
                    header::ALLOW,
                    header::ACCEPT_ENCODING,
                    header::CONTENT_DISPOSITION,
                    share::layer::RATELIMIT_POLICY.clone(),
                    share::layer::RATELIMIT.clone(),
                    header::WWW_AUTHENTICATE,
                ])
                // Every JSON POST from a browser is preceded by a preflight. Without a max age,
                // browsers keep its answer for 5 s, so a game in a front end paid two round
                // trips for most moves; 2 h is the most Chromium keeps it.
                .max_age(CORS_MAX_AGE),
        )
        .layer(metrics::RecordLayer::new(state.metrics, paths))
        .layer(tower_http::catch_panic::CatchPanicLayer::custom(
            problem::panicked,
        ))
        .layer(share)
        .service(router)
}

/// Each request's span in the log: its method, address and version, and its client (a key's
/// fingerprint or an address, never a key), which the share layer records once it knows it.
#[derive(Copy, Clone, Debug)]
struct RequestSpan;

impl<B> tower_http::trace::MakeSpan<B> for RequestSpan {
    fn make_span(&mut self, request: &Request<B>) -> tracing::Span {
        tracing::info_span!(
            "request",
            method = %request.method(),
            uri = %request.uri(),
            version = ?request.version(),
            client = tracing::field::Empty,
        )
    }
}

/// Serves on `listener` until `shutdown` completes, then lets in-flight requests finish, for
/// at most [`AppState::shutdown_grace`].
///
/// The accept loop is written here rather than taken from `axum::serve`, which gives hyper no
/// timer: without one, hyper's header timeout ([`AppState::read_timeout`]) is off, and a
/// client that stalls in the middle of its request head holds its connection for ever. The
/// timer costs one allocation per request.
pub async fn serve(
    listener: TcpListener,
    state: AppState,
    shutdown: impl Future<Output = ()> + Send + 'static,
) {
    let grace = state.shutdown_grace();
    let read_timeout = state.read_timeout;
    let write_timeout = state.write_timeout;
    let app = app(state).map_request(|request: Request<Incoming>| request.map(Body::new));
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(read_timeout)
        .max_header_size(MAX_HEAD_BYTES);
    let connections = GracefulShutdown::new();
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, peer)) => (answer_without_delay(stream), peer.ip()),
                Err(error) => {
                    wait_after_accept_error(error).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let service = TowerToHyperService::new(app.clone());
        let connection = connections.watch(http.serve_connection(
            TokioIo::new(write_timeout::WriteTimeout::new(stream, write_timeout)),
            service,
        ));
        // The connection's requests are answered within its task, which knows its address,
        // for the share layer to name their client by.
        tokio::spawn(share::layer::PEER.scope(peer, async move {
            if let Err(error) = connection.await {
                tracing::debug!(%error, "connection ended with an error");
            }
        }));
    }
    drop(listener);
    tokio::select! {
        () = connections.shutdown() => {}
        () = tokio::time::sleep(grace) => tracing::warn!(
            grace_s = grace.as_secs(),
            "connections still open after the shutdown grace period; stopping without them"
        ),
    }
}

/// Turns off Nagle's algorithm on an accepted connection, so that each answer leaves as soon as
/// hyper writes it.
///
/// With it on (the socket's default, and `axum::serve`'s), an answer written while the one
/// before is still unacknowledged waits for that acknowledgement. A client that pipelines its
/// requests is waiting for that second answer, so it has nothing to send the acknowledgement
/// with and delays it (by Linux's shortest delayed-acknowledgement timer, 40 ms; a test in
/// `tests/http/connections.rs` pipelines requests to check). A lone request and its answer are not
/// affected, since each answer is one write.
fn answer_without_delay(stream: TcpStream) -> TcpStream {
    if let Err(error) = stream.set_nodelay(true) {
        tracing::debug!(%error, "could not turn off Nagle's algorithm on a connection");
    }
    stream
}

/// A failed accept: one connection's own failure is skipped; anything else (out of file
/// descriptors, say) is logged and waited out for a second rather than retried in a busy loop.
async fn wait_after_accept_error(error: std::io::Error) {
    use std::io::ErrorKind::{ConnectionAborted, ConnectionRefused, ConnectionReset};
    if !matches!(
        error.kind(),
        ConnectionAborted | ConnectionRefused | ConnectionReset
    ) {
        tracing::error!(%error, "accepting a connection failed; retrying in a second");
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
}

/// Binds `addr`, logs where it listens, and serves until SIGINT or SIGTERM.
pub async fn listen(addr: SocketAddr, state: AppState) -> std::io::Result<()> {
    let listener = TcpListener::bind(addr).await?;
    let shutdown = shutdown::on_signal()?;
    crate::api::warm_up();
    tracing::info!(
        address = %listener.local_addr()?,
        cores = state.cores,
        "sente listening on http://{}",
        listener.local_addr()?
    );
    serve(listener, state, shutdown).await;
    tracing::info!("stopped");
    Ok(())
}
