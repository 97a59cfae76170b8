//! Admission control: CPU-heavy work (tournaments, analyses, searches beyond the light ones)
//! runs in a bounded number of slots, and a bounded number of requests may wait for one.
//!
//! When the wait queue is full the request is refused at once with 503 and `Retry-After`,
//! rather than queued without end: under overload, clients learn it immediately and the
//! server's memory and latency stay bounded. Cheap requests (health, metrics, light searches)
//! never take a slot, so they are never stuck behind heavy ones.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde::Serialize;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::api::Problem;

/// Seconds a refused client is told to wait before trying again.
const RETRY_AFTER_SECONDS: u64 = 1;

#[derive(Debug)]
pub struct Admission {
    slots: Arc<Semaphore>,
    waiting: AtomicUsize,
    limits: AdmissionLimits,
}

/// The limits, as `GET /limits` shows them.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AdmissionLimits {
    /// Heavy tasks running at once.
    pub heavy_slots: usize,
    /// Heavy requests that may wait for a slot; beyond, 503.
    pub heavy_queue: usize,
}

/// A slot held until dropped.
pub struct Slot {
    _permit: OwnedSemaphorePermit,
}

impl Admission {
    pub fn new(limits: AdmissionLimits) -> Self {
        Admission {
            slots: Arc::new(Semaphore::new(limits.heavy_slots.max(1))),
            waiting: AtomicUsize::new(0),
            limits,
        }
    }

    pub fn limits(&self) -> AdmissionLimits {
        self.limits
    }

    /// A slot for heavy work: at once if one is free, after a wait if the queue has room, or a
    /// 503 problem if it has none.
    pub async fn slot(&self) -> Result<Slot, Problem> {
        if let Ok(permit) = Arc::clone(&self.slots).try_acquire_owned() {
            return Ok(Slot { _permit: permit });
        }
        // Count ourselves in the queue, and give the place back however the wait ends (even if
        // the client goes away and this future is dropped).
        let waiting = self.waiting.fetch_add(1, Ordering::SeqCst);
        let _queued = Queued(&self.waiting);
        if waiting >= self.limits.heavy_queue {
            return Err(overloaded(&self.limits));
        }
        let permit = Arc::clone(&self.slots)
            .acquire_owned()
            .await
            .map_err(|_| overloaded(&self.limits))?;
        Ok(Slot { _permit: permit })
    }
}

struct Queued<'a>(&'a AtomicUsize);

impl Drop for Queued<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

fn overloaded(limits: &AdmissionLimits) -> Problem {
    Problem::http(
        503,
        format!(
            "the server is busy: {} heavy tasks are running and {} waiting; try again shortly",
            limits.heavy_slots, limits.heavy_queue
        ),
    )
    .with_header("retry-after", RETRY_AFTER_SECONDS.to_string())
}
