//! `GET /metrics`: Prometheus metrics, encoded by the `prometheus-client` crate.
//!
//! Requests by route and status, request durations, nodes searched by algorithm, games played,
//! tournaments in flight, blocking tasks queued (spawned on tokio's blocking pool but not
//! yet started: the sign that CPU-heavy work is waiting for threads), the sharing of the heavy
//! slots (refusals by route and reason, waits for a slot by route, slots given up between the
//! steps of long work, slots held, requests waiting, clients remembered: never by client or
//! key, so that the labels stay few), and log lines dropped because whatever reads the log
//! fell behind.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Instant;

use axum::extract::State;
use axum::http::{Request, Response, header};
use axum::response::IntoResponse;
use prometheus_client::collector::Collector;
use prometheus_client::encoding::{DescriptorEncoder, EncodeLabelSet, EncodeMetric};
use prometheus_client::metrics::counter::{ConstCounter, Counter};
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;

use super::AppState;
use super::share::{Reason, Work};
use crate::api::Algorithm;

// Routes are the router's own paths (or "unmatched"), never a request's raw path: unknown
// paths cannot grow the label set, and a label costs no allocation.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RequestLabels {
    route: &'static str,
    status: u16,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RouteLabels {
    route: &'static str,
}

/// A refusal's route and why: both from fixed sets, never a client or a key.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RefusalLabels {
    route: &'static str,
    reason: &'static str,
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
    refusals: Family<RefusalLabels, Counter>,
    heavy_waits: DurationFamily,
    heavy_yields: Family<RouteLabels, Counter>,
    heavy_slots_held: Gauge,
    heavy_requests_waiting: Gauge,
    clients_remembered: Gauge,
}

impl Default for Metrics {
    fn default() -> Self {
        let mut registry = Registry::with_prefix("sente");
        let requests = Family::<RequestLabels, Counter>::default();
        // 50 us to about 26 s: from a table lookup to the longest tournament.
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
        let refusals = Family::<RefusalLabels, Counter>::default();
        // A millisecond to about 4 minutes: from a free slot to the longest queue limit.
        let heavy_waits: DurationFamily =
            Family::new_with_constructor(|| Histogram::new(exponential_buckets(0.001, 4.0, 10)));
        let heavy_yields = Family::<RouteLabels, Counter>::default();
        let heavy_slots_held = Gauge::default();
        let heavy_requests_waiting = Gauge::default();
        let clients_remembered = Gauge::default();
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
        registry.register(
            "refusals",
            "Requests refused under the clients' policy or the heavy queue's limits, by route and reason",
            refusals.clone(),
        );
        registry.register(
            "heavy_wait_seconds",
            "Time heavy requests waited for a slot, by route",
            heavy_waits.clone(),
        );
        registry.register(
            "heavy_yields",
            "Slots long work gave to waiting clients between its steps, by route",
            heavy_yields.clone(),
        );
        registry.register(
            "heavy_slots_held",
            "Slots for heavy work held now",
            heavy_slots_held.clone(),
        );
        registry.register(
            "heavy_requests_waiting",
            "Heavy requests waiting for a slot now",
            heavy_requests_waiting.clone(),
        );
        registry.register(
            "clients_remembered",
            "Clients whose limits are being kept (those idle are forgotten)",
            clients_remembered.clone(),
        );
        for work in Work::ALL {
            for reason in Reason::ALL {
                // Every label pair shows from the start, at zero.
                let _ = refusals.get_or_create(&RefusalLabels {
                    route: work.route(),
                    reason: reason.name(),
                });
            }
        }
        Metrics {
            registry,
            requests,
            durations,
            nodes,
            games,
            tournaments_in_flight,
            blocking_queued,
            refusals,
            heavy_waits,
            heavy_yields,
            heavy_slots_held,
            heavy_requests_waiting,
            clients_remembered,
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

    /// Counts a request refused on `route` for `reason`.
    pub fn refused(&self, route: &'static str, reason: Reason) {
        self.refusals
            .get_or_create(&RefusalLabels {
                route,
                reason: reason.name(),
            })
            .inc();
    }

    /// Records how long a heavy request waited for its slot.
    pub fn waited(&self, work: Work, wait: std::time::Duration) {
        self.heavy_waits
            .get_or_create(&RouteLabels {
                route: work.route(),
            })
            .observe(wait.as_secs_f64());
    }

    /// Counts a slot long work gave up between two steps.
    pub fn yielded(&self, work: Work) {
        self.heavy_yields
            .get_or_create(&RouteLabels {
                route: work.route(),
            })
            .inc();
    }

    /// Counts work handed to the blocking pool and not yet started.
    pub fn blocking_queued(&self) {
        self.blocking_queued.inc();
    }

    /// Counts queued blocking work as started.
    pub fn blocking_started(&self) {
        self.blocking_queued.dec();
    }

    /// Reports `count()` at each scrape as `sente_log_lines_dropped_total`: the log lines the
    /// log's writer dropped (`main.rs` says when it does). The count is kept by the writer,
    /// so it is read rather than copied.
    pub fn with_dropped_log_lines(
        mut self,
        count: impl Fn() -> u64 + Send + Sync + 'static,
    ) -> Self {
        self.registry
            .register_collector(Box::new(DroppedLogLines(Box::new(count))));
        self
    }

    fn encode(&self) -> String {
        let mut text = String::new();
        prometheus_client::encoding::text::encode(&mut text, &self.registry)
            .expect("writing to a String does not fail");
        text
    }
}

/// The collector behind [`Metrics::with_dropped_log_lines`].
struct DroppedLogLines(Box<dyn Fn() -> u64 + Send + Sync>);

impl std::fmt::Debug for DroppedLogLines {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("DroppedLogLines").field(&(self.0)()).finish()
    }
}

impl Collector for DroppedLogLines {
    fn encode(&self, mut encoder: DescriptorEncoder) -> std::fmt::Result {
        let counter = ConstCounter::new((self.0)());
        let metric = encoder.encode_descriptor(
            "log_lines_dropped",
            "Log lines dropped because the log's reader fell behind",
            None,
            counter.metric_type(),
        )?;
        counter.encode(metric)
    }
}

/// Keeps a tournament counted in flight while it lives.
pub struct InFlight(Arc<Metrics>);

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.tournaments_in_flight.dec();
    }
}

/// The tower layer that records every request's route, status and duration, around the whole
/// application. (axum's `middleware::from_fn` would do the same in a few lines, but boxes the
/// rest of the stack and its future for every request: several allocations a request, on every
/// route.)
#[derive(Clone, Debug)]
pub(super) struct RecordLayer {
    metrics: Arc<Metrics>,
    /// The router's paths: the route labels.
    routes: Arc<[&'static str]>,
}

impl RecordLayer {
    pub(super) fn new(
        metrics: Arc<Metrics>,
        routes: impl IntoIterator<Item = &'static str>,
    ) -> Self {
        RecordLayer {
            metrics,
            routes: routes.into_iter().collect(),
        }
    }
}

impl<S> tower::Layer<S> for RecordLayer {
    type Service = Record<S>;

    fn layer(&self, inner: S) -> Record<S> {
        Record {
            inner,
            layer: self.clone(),
        }
    }
}

/// The service of [`RecordLayer`].
#[derive(Clone, Debug)]
pub(super) struct Record<S> {
    inner: S,
    layer: RecordLayer,
}

impl<S, B, R> tower::Service<Request<B>> for Record<S>
where
    S: tower::Service<Request<B>, Response = Response<R>>,
{
    type Response = Response<R>;
    type Error = S::Error;
    type Future = Recorded<S::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        let path = request.uri().path();
        let route = self
            .layer
            .routes
            .iter()
            .find(|route| **route == path)
            .map_or("unmatched", |route| route);
        Recorded {
            response: self.inner.call(request),
            route,
            started: Instant::now(),
            metrics: Arc::clone(&self.layer.metrics),
        }
    }
}

pin_project_lite::pin_project! {
    /// A response on its way, recorded when it is ready.
    pub(super) struct Recorded<F> {
        #[pin]
        response: F,
        route: &'static str,
        started: Instant,
        metrics: Arc<Metrics>,
    }
}

impl<F, R, E> Future for Recorded<F>
where
    F: Future<Output = Result<Response<R>, E>>,
{
    type Output = F::Output;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<F::Output> {
        let this = self.project();
        let result = std::task::ready!(this.response.poll(cx));
        if let Ok(response) = &result {
            let route = *this.route;
            this.metrics
                .durations
                .get_or_create(&RouteLabels { route })
                .observe(this.started.elapsed().as_secs_f64());
            this.metrics
                .requests
                .get_or_create(&RequestLabels {
                    route,
                    status: response.status().as_u16(),
                })
                .inc();
        }
        Poll::Ready(result)
    }
}

pub async fn get_metrics(State(state): State<AppState>) -> impl IntoResponse {
    let (held, waiting, clients) = state.share.occupancy();
    let metrics = &state.metrics;
    metrics.heavy_slots_held.set(held as i64);
    metrics.heavy_requests_waiting.set(waiting as i64);
    metrics.clients_remembered.set(clients as i64);
    (
        [(
            header::CONTENT_TYPE,
            "application/openmetrics-text; version=1.0.0; charset=utf-8",
        )],
        state.metrics.encode(),
    )
}
