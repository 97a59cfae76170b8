//! The HTTP service: axum routes over the [`crate::api`] layer.
//!
//! Handlers are small functions over typed extractors, one file per route group; every error
//! is a [`Problem`] answered as `application/problem+json`; shared state is [`AppState`].

pub mod admission;
mod analyze;
mod body;
mod catalogue;
pub mod healthcheck;
#[cfg(feature = "test-hooks")]
mod hooks;
mod json;
mod match_play;
pub mod metrics;
mod play;
mod problem;
pub mod shutdown;

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::Method;
use axum::routing::{MethodRouter, get, post};
use tokio::net::TcpListener;
use tower_http::cors::{Any, CorsLayer};
use tower_http::trace::{DefaultMakeSpan, DefaultOnResponse, TraceLayer};
use tracing::Level;

use crate::api::Problem;
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
}

/// Heavy requests that may wait for a slot, by default.
pub const DEFAULT_HEAVY_QUEUE: usize = 64;

/// Default of [`AppState::tournament_time_limit`].
pub const DEFAULT_TOURNAMENT_TIME_LIMIT: Duration = Duration::from_secs(60);

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
        }
    }
}

/// Every route with its method. The router is built from this table, and a test checks it
/// against the paths of `openapi.yaml` in both directions.
pub fn routes() -> Vec<(&'static str, Method, MethodRouter<AppState>)> {
    vec![
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

/// The application: routes, errors as problems, body limit, CORS and request tracing.
pub fn router(state: AppState) -> Router {
    let mut router = Router::new();
    for (path, _, handler) in routes() {
        router = router.route(path, handler);
    }
    #[cfg(feature = "test-hooks")]
    {
        router = router.merge(hooks::routes());
    }
    router
        .fallback(|| async {
            Problem::http(
                404,
                "Not Found",
                "no such route: see GET /openapi.yaml for the API",
            )
        })
        .layer(tower_http::catch_panic::CatchPanicLayer::custom(
            problem::panicked,
        ))
        .layer(axum::middleware::from_fn(problem::bare_errors_as_problems))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            metrics::record,
        ))
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(
            CorsLayer::new()
                .allow_origin(Any)
                .allow_methods([Method::GET, Method::POST])
                .allow_headers(Any),
        )
        .layer(
            TraceLayer::new_for_http()
                .make_span_with(DefaultMakeSpan::new().level(Level::INFO))
                .on_response(DefaultOnResponse::new().level(Level::INFO)),
        )
        .with_state(state)
}

/// Serves on `listener` until `shutdown` completes, then lets in-flight requests finish.
pub async fn serve(
    listener: TcpListener,
    state: AppState,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    axum::serve(listener, router(state))
        .with_graceful_shutdown(shutdown)
        .await
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
