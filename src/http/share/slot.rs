//! A request's wait for a slot, and the slot it is given: each gives back what it holds when
//! dropped, so that no path out of a handler (an error, a panic, a client gone) leaks a slot.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Instant;

use super::state::Waiter;
use super::{ClientId, Reason, Refusal, Share};

/// A request waiting for a slot: dropped before it has one, it leaves the queue; dropped with
/// one given but not yet taken, it gives it back.
pub(super) struct Waiting<'a> {
    pub(super) share: &'a Arc<Share>,
    pub(super) client: ClientId,
    pub(super) waiter: Option<Arc<Waiter>>,
}

impl Waiting<'_> {
    pub(super) fn into_slot(mut self) -> Slot {
        let waiter = self.waiter.take().expect("waiting");
        Slot {
            share: Arc::clone(self.share),
            ticket: waiter.ticket,
            cores: waiter.cores,
            charged: Instant::now(),
        }
    }

    /// The wait has reached the queue limit: the request is refused, unless its slot came
    /// meanwhile.
    pub(super) fn give_up(mut self) -> Result<Slot, Refusal> {
        let waiter = self.waiter.take().expect("waiting");
        let mut state = self.share.lock();
        if waiter.granted.load(Ordering::Acquire) {
            drop(state);
            self.waiter = Some(waiter);
            return Ok(self.into_slot());
        }
        state.remove(self.client, &waiter);
        self.share.dispatch(&mut state, Instant::now());
        let wait = self.share.estimate(&state, self.client, Instant::now());
        let own = state
            .clients
            .get(&self.client)
            .is_some_and(|client| client.held + client.queue.len() > 0);
        let (status, whose) = if own {
            (429, "this client's own heavy work and others' were")
        } else {
            (503, "the server is busy: others' heavy work was")
        };
        Err(Refusal::new(
            status,
            Reason::QueueWait,
            wait,
            format!(
                "{whose} ahead of this request for the whole queue limit ({} ms); try again after Retry-After",
                self.share.limits.queue_limit.as_millis()
            ),
        ))
    }
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        let Some(waiter) = self.waiter.take() else {
            return;
        };
        let mut state = self.share.lock();
        if waiter.granted.load(Ordering::Acquire) {
            drop(state);
            self.share.release(waiter.ticket, Instant::now());
        } else {
            state.remove(self.client, &waiter);
            // It may have held back the waiters behind it, waiting for slots enough.
            self.share.dispatch(&mut state, Instant::now());
        }
    }
}

/// A slot held until dropped; its time is charged to its client's CPU-seconds.
#[derive(Debug)]
pub struct Slot {
    pub(super) share: Arc<Share>,
    pub(super) ticket: u64,
    /// The slots it stands for: its search's threads.
    pub(super) cores: usize,
    /// Since when the slot's time has not been charged.
    pub(super) charged: Instant,
}

impl Slot {
    /// The slots it stands for: the threads of the work it was admitted for.
    pub fn cores(&self) -> usize {
        self.cores
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.share.release(self.ticket, self.charged);
    }
}
