//! CPU-heavy work, written once for every route that has it: a slot, shared fairly between
//! the clients ([`Share`](super::share::Share)), a budget that a client going away cancels, and
//! the work on tokio's blocking pool, in parts that give their slot to a waiting client
//! between their steps, so that the async workers stay free to answer other requests and one
//! client's long work is not everyone's wait.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::AppState;
use super::cancel::CancelOnDrop;
use super::metrics::Metrics;
use super::share::{Client, Lease, Slot, Work};
use crate::api::Budget;
use crate::api::Pause;
use crate::api::Problem;

/// The slots a search on `threads` threads holds: one a thread, refused (422) beyond the
/// service's slots, its `max_threads`, so that no search oversubscribes the machine.
pub fn cores(state: &AppState, threads: u32) -> Result<usize, Problem> {
    let max = state.share.limits().heavy_slots;
    if threads as usize > max {
        return Err(Problem::invalid(
            "threads",
            format!(
                "threads is at most {max} on this service (max_threads in GET /limits: a thread \
                 a heavy slot), got {threads}"
            ),
        ));
    }
    Ok(threads.max(1) as usize)
}

/// Slots for `client`'s heavy `work` on `cores` threads, after its turn; or the refusal,
/// counted in the metrics.
pub async fn admit(
    state: &AppState,
    client: &Client,
    work: Work,
    cores: usize,
) -> Result<Slot, Problem> {
    let started = Instant::now();
    match state.share.admit_cores(client, work, cores).await {
        Ok(slot) => {
            state.metrics.waited(work, started.elapsed());
            Ok(slot)
        }
        Err(refusal) => {
            state.metrics.refused(work.route(), refusal.reason);
            tracing::info!(
                client = %client,
                reason = refusal.reason.name(),
                retry_after_s = refusal.retry_after_seconds(),
                "heavy request refused"
            );
            Err(refusal.problem())
        }
    }
}

/// What [`run_parts`] answers: the results of the parts that ran, in order, and the slot the
/// first part ended with, which the request may hold while its answer is sent.
pub struct Parts<T> {
    pub results: Vec<T>,
    pub slot: Option<Slot>,
}

/// Runs `work` on each of `parts` on the blocking pool, within `time_limit` and the service's
/// node limit, for `client`'s `kind` of work, each part's searches on as many threads as
/// `slot` was admitted for (each part then holds as many slots).
///
/// The first part runs in `slot`, the request's own; each other part waits for a slot of its
/// own in the fair order, and is skipped if another part has ended first (every step taken).
/// Between two steps of the work ([`Budget::pause_point`]), a part gives its slot to a
/// waiting client that should have it and waits for its turn to go on. If the client goes
/// away, its future is dropped and with it the cancellation guard: the parts stop in the
/// search they are in, or in their wait for a slot, which frees their threads and slots.
pub async fn run_parts<P, T>(
    state: &AppState,
    client: &Client,
    kind: Work,
    slot: Slot,
    time_limit: Duration,
    parts: Vec<P>,
    work: impl Fn(P, &Budget) -> T + Send + Sync + 'static,
) -> Result<Parts<T>, Problem>
where
    P: Send + 'static,
    T: Send + 'static,
{
    let cancel = CancelOnDrop::new();
    let budget = Budget {
        deadline: Some(Instant::now() + time_limit),
        max_nodes: state.search_limits.max_nodes,
        cancelled: Some(cancel.flag()),
        halted: None,
        watch: None,
        pause: None,
    };
    let work = Arc::new(work);
    let ended = Arc::new(AtomicBool::new(false));
    let cores = slot.cores();
    let mut slot = Some(slot);
    let leases: Vec<Arc<Lease>> = parts
        .iter()
        .map(|_| {
            let metrics = Arc::clone(&state.metrics);
            Arc::new(
                Lease::new(&state.share, client, kind, slot.take(), move || {
                    metrics.yielded(kind)
                })
                .on_cores(cores),
            )
        })
        .collect();
    let tasks: Vec<_> = parts
        .into_iter()
        .zip(&leases)
        .enumerate()
        .map(|(index, (part, lease))| {
            let (work, ended, lease) = (Arc::clone(&work), Arc::clone(&ended), Arc::clone(lease));
            let budget = Budget {
                pause: Some(Pause(Arc::clone(&lease) as _)),
                ..budget.clone()
            };
            spawn_blocking(&state.metrics, move || {
                if !lease.start(&budget, &|| ended.load(Ordering::Relaxed)) {
                    return None;
                }
                let result = work(part, &budget);
                ended.store(true, Ordering::Relaxed);
                if index > 0 {
                    drop(lease.into_slot());
                }
                Some(result)
            })
        })
        .collect();
    let started = Instant::now();
    let mut results = Vec::with_capacity(tasks.len());
    for task in tasks {
        if let Some(result) = task.await.map_err(super::problem::task_failed)? {
            results.push(result);
        }
    }
    state.share.finished(kind, started.elapsed());
    Ok(Parts {
        results,
        slot: leases.first().and_then(|lease| lease.into_slot()),
    })
}

/// Runs `work` on tokio's blocking pool, counted in the metrics as queued until it starts.
pub(super) fn spawn_blocking<T: Send + 'static>(
    metrics: &Arc<Metrics>,
    work: impl FnOnce() -> T + Send + 'static,
) -> tokio::task::JoinHandle<T> {
    metrics.blocking_queued();
    let metrics = Arc::clone(metrics);
    tokio::task::spawn_blocking(move || {
        metrics.blocking_started();
        work()
    })
}

/// Runs one search on `threads` threads in as many slots of its own, as [`run_parts`] does,
/// within the service's search time limit.
pub async fn run_one<T: Send + 'static>(
    state: &AppState,
    client: &Client,
    kind: Work,
    threads: u32,
    work: impl Fn(&Budget) -> T + Send + Sync + 'static,
) -> Result<T, Problem> {
    let time_limit = state.search_limits.max_search_time;
    let cores = cores(state, threads)?;
    let slot = admit(state, client, kind, cores).await?;
    let mut parts = run_parts(
        state,
        client,
        kind,
        slot,
        time_limit,
        vec![()],
        move |(), budget| work(budget),
    )
    .await?;
    parts
        .results
        .pop()
        .ok_or_else(|| Problem::http(500, "the search did not run; the failure is logged"))
}

/// The most of an answer handed to hyper at once by [`HoldingSlot`].
const CHUNK_BYTES: usize = 64 * 1024;

pin_project_lite::pin_project! {
    /// An answer's body that holds the heavy slot its answer was made in until it has been
    /// sent, or dropped (the client gone, or too slow to take it: the write timeout): so that
    /// no more large answers wait to be sent than there are slots.
    ///
    /// The answer goes out in chunks: hyper drops a body once it has taken its last frame,
    /// which for an answer made whole (JSON, PGN) is its first, long before the client has
    /// read it. A chunk at a time, hyper asks for the next only when it has written the last,
    /// so the slot is held until the answer's end is on its way.
    pub struct HoldingSlot {
        #[pin]
        body: axum::body::Body,
        rest: axum::body::Bytes,
        slot: Option<Slot>,
    }
}

impl HoldingSlot {
    /// `response`, its body holding `slot`.
    pub fn answer(
        response: axum::response::Response,
        slot: Option<Slot>,
    ) -> axum::response::Response {
        response.map(|body| {
            axum::body::Body::new(HoldingSlot {
                body,
                rest: axum::body::Bytes::new(),
                slot,
            })
        })
    }
}

impl hyper::body::Body for HoldingSlot {
    type Data = axum::body::Bytes;
    type Error = axum::Error;

    fn poll_frame(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Result<hyper::body::Frame<Self::Data>, Self::Error>>> {
        use std::task::Poll;
        let this = self.project();
        if this.rest.is_empty() {
            match std::task::ready!(this.body.poll_frame(cx)) {
                Some(Ok(frame)) => match frame.into_data() {
                    Ok(data) => *this.rest = data,
                    Err(frame) => return Poll::Ready(Some(Ok(frame))),
                },
                other => return Poll::Ready(other),
            }
        }
        let chunk = this.rest.split_to(this.rest.len().min(CHUNK_BYTES));
        Poll::Ready(Some(Ok(hyper::body::Frame::data(chunk))))
    }

    fn is_end_stream(&self) -> bool {
        self.rest.is_empty() && self.body.is_end_stream()
    }

    fn size_hint(&self) -> hyper::body::SizeHint {
        let body = self.body.size_hint();
        let rest = self.rest.len() as u64;
        match body.exact() {
            Some(exact) => hyper::body::SizeHint::with_exact(exact + rest),
            None => {
                let mut hint = hyper::body::SizeHint::new();
                hint.set_lower(body.lower() + rest);
                if let Some(upper) = body.upper() {
                    hint.set_upper(upper + rest);
                }
                hint
            }
        }
    }
}
