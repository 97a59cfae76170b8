//! One part of long work and the slot it runs in, giving the slot up between steps.

use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

use super::{Client, Share, Slot, Work};
use crate::api::{Budget, Yield};

/// One part of long work (one of a tournament's workers, a review's) and the slot it runs in:
/// between two steps of the work it gives the slot to a waiting client that should have it,
/// and waits for its turn to go on ([`Yield`]).
pub struct Lease {
    share: Arc<Share>,
    client: Client,
    work: Work,
    /// The slots each of its steps holds: its searches' threads.
    cores: usize,
    /// When the request was given its first slot.
    run_since: Instant,
    slot: Mutex<Option<Slot>>,
    /// Counts the slots given up between steps.
    on_yield: Box<dyn Fn() + Send + Sync>,
}

impl Lease {
    /// A part of `client`'s `work`, holding `slot` (the request's own, for its first part)
    /// or none yet.
    pub fn new(
        share: &Arc<Share>,
        client: &Client,
        work: Work,
        slot: Option<Slot>,
        on_yield: impl Fn() + Send + Sync + 'static,
    ) -> Lease {
        Lease {
            share: Arc::clone(share),
            client: client.clone(),
            work,
            cores: 1,
            run_since: Instant::now(),
            slot: Mutex::new(slot),
            on_yield: Box::new(on_yield),
        }
    }

    /// The part's searches run on `cores` threads: each of its steps holds as many slots (its
    /// first slot, if given, was admitted for as many).
    pub fn on_cores(self, cores: usize) -> Lease {
        Lease { cores, ..self }
    }

    fn held(&self) -> MutexGuard<'_, Option<Slot>> {
        self.slot
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Waits on this thread for a slot if the part has none; false where it got none because
    /// the budget is due or `skip` says the part is not needed (every step taken by others).
    pub fn start(&self, budget: &Budget, skip: &dyn Fn() -> bool) -> bool {
        let mut slot = self.held();
        if slot.is_none() {
            *slot = self.share.wait_for_step(
                &self.client,
                self.work,
                self.cores,
                self.run_since,
                budget,
                skip,
            );
        }
        slot.is_some()
    }

    /// The slot the part ends with, if it holds one: the request may keep it while its answer
    /// is sent.
    pub fn into_slot(&self) -> Option<Slot> {
        self.held().take()
    }
}

impl Yield for Lease {
    fn between_steps(&self, budget: &Budget) {
        let mut slot = self.held();
        if let Some(held) = slot.as_mut() {
            if !self.share.step_ended(held) {
                return;
            }
            (self.on_yield)();
            *slot = None;
        }
        *slot = self.share.wait_for_step(
            &self.client,
            self.work,
            self.cores,
            self.run_since,
            budget,
            &|| false,
        );
    }
}
