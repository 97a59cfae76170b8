//! A search stops when its client goes away.
//!
//! When a connection closes, hyper drops the handler's future. A search on the blocking pool
//! cannot be dropped with it (a thread cannot be interrupted), so the handler holds a
//! [`CancelOnDrop`] guard whose flag the search's budget carries: dropping the guard sets the
//! flag, and the search stops at its next look at the budget, which frees its thread and slot.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Sets its flag when dropped, however the handler ends.
pub struct CancelOnDrop(Arc<AtomicBool>);

impl CancelOnDrop {
    pub fn new() -> Self {
        CancelOnDrop(Arc::new(AtomicBool::new(false)))
    }

    /// The flag, for a [`Budget`](crate::api::Budget).
    pub fn flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.0)
    }
}

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}
