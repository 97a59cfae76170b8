//! `GET /metrics`: Prometheus metrics, encoded by the `prometheus-client` crate.
//!
//! Requests by route and status, request durations, nodes searched by algorithm, games played,
//! tournaments in flight, and blocking tasks queued (spawned on tokio's blocking pool but not
//! yet started: the sign that CPU-heavy work is waiting for threads).

use std::sync::Arc;
use std::time::Instant;

use axum::extract::{MatchedPath, Request, State};
use axum::http::header;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;

use super::AppState;
use crate::search::Algorithm;

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RequestLabels {
    route: String,
    status: u16,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RouteLabels {
    route: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct AlgorithmLabels {
    // A name from `Algorithm::name`: counting needs no allocation.
    algorithm: &'static str,
}

type DurationFamily = Family<RouteLabels, Histogram, fn() -> Histogram>;

/// The service's metrics and the registry that encodes them.
#[derive(Debug)]
pub struct Metrics {
    registry: Registry,
    requests: Family<RequestLabels, Counter>,
    durations: DurationFamily,
    /// Nodes searched, one counter per algorithm in the order of [`Algorithm::ALL`], made up
    /// front: counting a search, which every `/move` does, is then one atomic add with no lock
    /// and no hashing, and every algorithm shows in `/metrics` from the start.
    nodes: [Counter; Algorithm::ALL.len()],
    games: Counter,
    tournaments_in_flight: Gauge,
    blocking_queued: Gauge,
}

impl Default for Metrics {
    fn default() -> Self {
        let mut registry = Registry::with_prefix("sente");
        let requests = Family::<RequestLabels, Counter>::default();
        // 50 us to about 26 s: from a cached tic-tac-toe answer to the longest tournament.
        let durations: DurationFamily =
            Family::new_with_constructor(|| Histogram::new(exponential_buckets(0.000_05, 4.0, 10)));
        let nodes_family = Family::<AlgorithmLabels, Counter>::default();
        let nodes = Algorithm::ALL.map(|algorithm| {
            nodes_family
                .get_or_create(&AlgorithmLabels {
                    algorithm: algorithm.name(),
                })
                .clone()
        });
        let games = Counter::default();
        let tournaments_in_flight = Gauge::default();
        let blocking_queued = Gauge::default();
        registry.register(
            "http_requests",
            "HTTP requests by route and status",
            requests.clone(),
        );
        registry.register(
            "http_request_duration_seconds",
            "HTTP request durations by route",
            durations.clone(),
        );
        registry.register(
            "nodes_searched",
            "Game states searched, by algorithm",
            nodes_family,
        );
        registry.register("games_played", "Tournament games played", games.clone());
        registry.register(
            "tournaments_in_flight",
            "Tournaments being played",
            tournaments_in_flight.clone(),
        );
        registry.register(
            "blocking_tasks_queued",
            "Tasks sent to the blocking pool that have not started yet",
            blocking_queued.clone(),
        );
        Metrics {
            registry,
            requests,
            durations,
            nodes,
            games,
            tournaments_in_flight,
            blocking_queued,
        }
    }
}

impl Metrics {
    pub fn add_nodes(&self, algorithm: Algorithm, nodes: u64) {
        self.nodes[algorithm as usize].inc_by(nodes);
    }

    pub fn add_games(&self, games: u64) {
        self.games.inc_by(games);
    }

    /// Counts a tournament as in flight until the returned guard is dropped, however the
    /// request ends (even if its client goes away and the future is dropped).
    pub fn tournament_started(self: &Arc<Self>) -> InFlight {
        self.tournaments_in_flight.inc();
        InFlight(Arc::clone(self))
    }

    /// Runs `work` on tokio's blocking pool, counted as queued until it starts.
    pub fn spawn_blocking<T: Send + 'static>(
        self: &Arc<Self>,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> tokio::task::JoinHandle<T> {
        self.blocking_queued.inc();
        let metrics = Arc::clone(self);
        tokio::task::spawn_blocking(move || {
            metrics.blocking_queued.dec();
            work()
        })
    }

    fn encode(&self) -> String {
        let mut text = String::new();
        prometheus_client::encoding::text::encode(&mut text, &self.registry)
            .expect("writing to a String does not fail");
        text
    }
}

/// Keeps a tournament counted in flight while it lives.
pub struct InFlight(Arc<Metrics>);

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.tournaments_in_flight.dec();
    }
}

/// Records every request's route, status and duration.
pub(super) async fn record(
    State(state): State<AppState>,
    request: Request,
    next: Next,
) -> Response {
    let started = Instant::now();
    // The route pattern, never the raw path, so that unknown paths cannot grow the label set.
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map_or("unmatched", |path| path.as_str())
        .to_owned();
    let response = next.run(request).await;
    let status = response.status().as_u16();
    state
        .metrics
        .durations
        .get_or_create(&RouteLabels {
            route: route.clone(),
        })
        .observe(started.elapsed().as_secs_f64());
    state
        .metrics
        .requests
        .get_or_create(&RequestLabels { route, status })
        .inc();
    response
}

pub async fn get_metrics(State(state): State<AppState>) -> impl IntoResponse {
    (
        [(
            header::CONTENT_TYPE,
            "application/openmetrics-text; version=1.0.0; charset=utf-8",
        )],
        state.metrics.encode(),
    )
}
