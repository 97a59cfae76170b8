//! CPU-heavy work, written once for every route that has it: a slot (admission control), a
//! budget that a client going away cancels, and the work on tokio's blocking pool, in parts,
//! so that the async workers stay free to answer other requests.

use std::sync::Arc;
use std::time::{Duration, Instant};

use super::AppState;
use super::admission::Slot;
use super::cancel::CancelOnDrop;
use super::metrics::Metrics;
use crate::api::Budget;
use crate::api::Problem;

/// Runs `work` on each of `parts` on the blocking pool, within `time_limit` and the service's
/// node limit, and answers their results in order.
///
/// The parts share the heavy slot the caller took, which it may hold longer (while a large
/// answer is sent); their clones of it go when the last of them ends, not when the handler
/// does. If the client goes away, its future is dropped and
/// with it the cancellation guard: the parts stop in the search they are in, which frees their
/// threads and the slot.
pub async fn run_parts<P, T>(
    state: &AppState,
    slot: Arc<Slot>,
    time_limit: Duration,
    parts: Vec<P>,
    work: impl Fn(P, &Budget) -> T + Send + Sync + 'static,
) -> Result<Vec<T>, Problem>
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
    };
    let work = Arc::new(work);
    let tasks: Vec<_> = parts
        .into_iter()
        .map(|part| {
            let (work, budget, slot) = (Arc::clone(&work), budget.clone(), Arc::clone(&slot));
            spawn_blocking(&state.metrics, move || {
                let result = work(part, &budget);
                drop(slot);
                result
            })
        })
        .collect();
    let mut results = Vec::with_capacity(tasks.len());
    for task in tasks {
        results.push(task.await.map_err(super::problem::task_failed)?);
    }
    Ok(results)
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

/// Runs one search in a slot of its own, as [`run_parts`] does, within the service's search
/// time limit.
pub async fn run_one<T: Send + 'static>(
    state: &AppState,
    work: impl Fn(&Budget) -> T + Send + Sync + 'static,
) -> Result<T, Problem> {
    let time_limit = state.search_limits.max_search_time;
    let slot = Arc::new(state.admission.slot().await?);
    let mut results = run_parts(state, slot, time_limit, vec![()], move |(), budget| {
        work(budget)
    })
    .await?;
    Ok(results.remove(0))
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
        slot: Arc<Slot>,
    }
}

impl HoldingSlot {
    /// `response`, its body holding `slot`.
    pub fn answer(response: axum::response::Response, slot: Arc<Slot>) -> axum::response::Response {
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
