//! The HTTP service: axum routes over the [`crate::api`] layer.
//!
//! Handlers are small functions over typed extractors, one file per route group; every error
//! is a [`Problem`] answered as `application/problem+json`; shared state is [`AppState`].

pub mod admission;
mod analyze;
mod body;
mod cancel;
mod catalogue;
pub mod healthcheck;
#[cfg(feature = "test-hooks")]
mod hooks;
mod json;
mod match_play;
pub mod metrics;
mod play;
mod playground;
mod problem;
pub mod shutdown;

use std::convert::Infallible;
use std::future::{Future, IntoFuture};
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use axum::extract::Request;
use axum::http::Method;
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodRouter, get, post};
use axum::{Router, ServiceExt};
use tokio::net::TcpListener;
use tower::{Service, ServiceBuilder};
use tower_http::cors::{Any, CorsLayer};
use tower_http::trace::{DefaultMakeSpan, DefaultOnResponse, TraceLayer};
use tracing::Level;

use crate::api::Problem;
use crate::search::Budget;
pub use body::MAX_BODY_BYTES;
pub use catalogue::OPENAPI_YAML;

/// What every handler may read.
#[derive(Clone, Debug)]
pub struct AppState {
    pub metrics: Arc<metrics::Metrics>,
    /// Slots for CPU-heavy work, and the queue for them.
    pub admission: Arc<admission::Admission>,
    /// Cores available: the number of chunks a tournament is split into.
    pub cores: usize,
    /// No game of a tournament starts after this much time; the answer then says
    /// `complete: false`. This bounds the time one request can hold the machine.
    pub tournament_time_limit: Duration,
    /// What any one search may spend, whatever its knobs.
    pub search_limits: SearchLimits,
    /// A request body still arriving after this long is answered 408: a client that stalls
    /// in the middle of its body holds nothing longer than this.
    pub body_timeout: Duration,
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

/// Default of [`SearchLimits::max_nodes`]: about twice what the largest knobs need (minimax 9
/// plies deep on Connect Four visits about 47 million), a second or two of search.
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
    /// The budget of a light search (see [`MoveJob::is_light`](crate::api::play::MoveJob)):
    /// the node limit alone. It ends in well under a millisecond, long before any deadline,
    /// and reading the clock to set one costs it a few percent of its time.
    pub fn light_budget(&self) -> Budget {
        Budget {
            max_nodes: self.max_nodes,
            ..Budget::default()
        }
    }

    /// The budget of a search starting now.
    pub fn budget(&self, cancelled: Option<Arc<AtomicBool>>) -> Budget {
        Budget {
            deadline: Some(Instant::now() + self.max_search_time),
            max_nodes: self.max_nodes,
            cancelled,
        }
    }
}

/// Heavy requests that may wait for a slot, by default.
pub const DEFAULT_HEAVY_QUEUE: usize = 64;

/// Default of [`AppState::body_timeout`].
pub const DEFAULT_BODY_TIMEOUT: Duration = Duration::from_secs(10);

/// Default of [`AppState::tournament_time_limit`].
pub const DEFAULT_TOURNAMENT_TIME_LIMIT: Duration = Duration::from_secs(60);

impl AppState {
    /// How long in-flight requests may take to finish once shutdown begins: the longest a
    /// request can take once it has arrived (its body, then a tournament or a search), and a
    /// second more. A connection still open after that (a client that stalled in the middle of
    /// its headers, which nothing else times out) does not keep the process from exiting.
    pub fn shutdown_grace(&self) -> Duration {
        self.body_timeout
            + self
                .tournament_time_limit
                .max(self.search_limits.max_search_time)
            + Duration::from_secs(1)
    }
}

impl Default for AppState {
    fn default() -> Self {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        AppState {
            metrics: Arc::default(),
            admission: Arc::new(admission::Admission::new(admission::AdmissionLimits {
                heavy_slots: cores,
                heavy_queue: DEFAULT_HEAVY_QUEUE,
            })),
            cores,
            tournament_time_limit: DEFAULT_TOURNAMENT_TIME_LIMIT,
            search_limits: SearchLimits::default(),
            body_timeout: DEFAULT_BODY_TIMEOUT,
        }
    }
}

/// Every route with its method. The router is built from this table, and a test checks it
/// against the paths of `openapi.yaml` in both directions.
pub fn routes() -> Vec<(&'static str, Method, MethodRouter<AppState>)> {
    vec![
        ("/", Method::GET, get(playground::get_page)),
        ("/move", Method::POST, post(play::post_move)),
        ("/analyze", Method::POST, post(analyze::post_analyze)),
        (
            "/tournament",
            Method::POST,
            post(match_play::post_tournament),
        ),
        ("/games", Method::GET, get(catalogue::get_games)),
        ("/algorithms", Method::GET, get(catalogue::get_algorithms)),
        ("/healthz", Method::GET, get(catalogue::get_healthz)),
        ("/limits", Method::GET, get(catalogue::get_limits)),
        ("/openapi.yaml", Method::GET, get(catalogue::get_openapi)),
        ("/metrics", Method::GET, get(metrics::get_metrics)),
    ]
}

/// The application: the routes, then around them all (outermost first) request tracing, CORS,
/// metrics and a panic's 500 problem. Every error is a problem: the handlers' own, the 404 of
/// the fallback, the 405 of each route's method fallback. (The body limit is `JsonBody`'s, the
/// one extractor that reads bodies.)
///
/// The layers wrap the router once rather than through `Router::layer`, which boxes every
/// route's service again for each layer and clones that chain of boxes for every request.
/// With them inside the router, and two `from_fn` middlewares where the metrics layer and the
/// method fallbacks are now, a `GET /healthz` made 64 allocations; it makes 24, and every
/// route answers 18-28% more requests per second (README, *HTTP throughput*).
pub fn app(
    state: AppState,
) -> impl Service<Request, Response = Response, Error = Infallible, Future: Send>
+ Clone
+ Send
+ Sync
+ 'static {
    let mut router = Router::new();
    let mut paths = Vec::new();
    for (path, _, handler) in routes() {
        paths.push(path);
        router = router.route(path, handler.fallback(problem::method_not_allowed));
    }
    #[cfg(feature = "test-hooks")]
    for (path, handler) in hooks::routes() {
        paths.push(path);
        router = router.route(path, handler);
    }
    let router = router
        .fallback(|| async {
            Problem::http(
                404,
                "Not Found",
                "no such route: see GET /openapi.yaml for the API",
            )
        })
        .with_state(state.clone());
    ServiceBuilder::new()
        // axum serves responses with its own body type; the trace layer wraps the body.
        .map_response(IntoResponse::into_response)
        .layer(
            TraceLayer::new_for_http()
                .make_span_with(DefaultMakeSpan::new().level(Level::INFO))
                .on_response(DefaultOnResponse::new().level(Level::INFO)),
        )
        .layer(
            CorsLayer::new()
                .allow_origin(Any)
                .allow_methods([Method::GET, Method::POST])
                .allow_headers(Any),
        )
        .layer(metrics::RecordLayer::new(state.metrics, paths))
        .layer(tower_http::catch_panic::CatchPanicLayer::custom(
            problem::panicked,
        ))
        .service(router)
}

/// Serves on `listener` until `shutdown` completes, then lets in-flight requests finish, for
/// at most [`AppState::shutdown_grace`].
pub async fn serve(
    listener: TcpListener,
    state: AppState,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let grace = state.shutdown_grace();
    let (begun, shutting_down) = tokio::sync::oneshot::channel();
    let shutdown = async move {
        shutdown.await;
        // The receiver is gone only if the server already stopped.
        let _ = begun.send(());
    };
    let server = axum::serve(listener, app(state).into_make_service())
        .with_graceful_shutdown(shutdown)
        .into_future();
    let grace_over = async move {
        match shutting_down.await {
            Ok(()) => tokio::time::sleep(grace).await,
            Err(_) => std::future::pending().await,
        }
    };
    tokio::select! {
        result = server => result,
        () = grace_over => {
            tracing::warn!(
                grace_s = grace.as_secs(),
                "connections still open after the shutdown grace period; stopping without them"
            );
            Ok(())
        }
    }
}

/// Binds `addr`, logs where it listens, and serves until SIGINT or SIGTERM.
pub async fn run(addr: SocketAddr, state: AppState) -> std::io::Result<()> {
    let listener = TcpListener::bind(addr).await?;
    let shutdown = shutdown::on_signal()?;
    crate::api::warm_up();
    tracing::info!(
        address = %listener.local_addr()?,
        cores = state.cores,
        "sente listening on http://{}",
        listener.local_addr()?
    );
    serve(listener, state, shutdown).await?;
    tracing::info!("stopped");
    Ok(())
}
