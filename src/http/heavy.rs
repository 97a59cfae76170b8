//! CPU-heavy work, written once for every route that has it: a slot (admission control), a
//! budget that a client going away cancels, and the work on tokio's blocking pool, in parts,
//! so that the async workers stay free to answer other requests.

use std::sync::Arc;
use std::time::{Duration, Instant};

use super::AppState;
use super::cancel::CancelOnDrop;
use super::metrics::Metrics;
use crate::api::Budget;
use crate::api::Problem;

/// Runs `work` on each of `parts` on the blocking pool, within `time_limit` and the service's
/// node limit, and answers their results in order.
///
/// The parts share one heavy slot, freed when the last of them ends, not when the handler does.
/// If the client goes away, its future is dropped and with it the cancellation guard: the parts
/// stop in the search they are in, which frees their threads and the slot.
pub async fn run_parts<P, T>(
    state: &AppState,
    time_limit: Duration,
    parts: Vec<P>,
    work: impl Fn(P, &Budget) -> T + Send + Sync + 'static,
) -> Result<Vec<T>, Problem>
where
    P: Send + 'static,
    T: Send + 'static,
{
    let slot = Arc::new(state.admission.slot().await?);
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

/// Runs one search, as [`run_parts`] does, within the service's search time limit.
pub async fn run_one<T: Send + 'static>(
    state: &AppState,
    work: impl Fn(&Budget) -> T + Send + Sync + 'static,
) -> Result<T, Problem> {
    let time_limit = state.search_limits.max_search_time;
    let mut results =
        run_parts(state, time_limit, vec![()], move |(), budget| work(budget)).await?;
    Ok(results.remove(0))
}
