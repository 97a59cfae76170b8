//! What the share keeps under its lock: each client's standing, queue and slots held, the
//! waiters and the holders, and how a waiter joins and leaves its client's queue.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::bucket::{self, Bucket};
use super::{Client, ClientId, ClientLimits, MAX_CLIENTS, Standing, Work, whole_seconds};

#[derive(Debug)]
pub(super) struct State {
    pub(super) free: usize,
    pub(super) clients: HashMap<ClientId, ClientState>,
    /// The clients with work waiting.
    pub(super) queued: Vec<ClientId>,
    /// Requests waiting, every client's (the steps of long work waiting to go on not counted).
    pub(super) waiting_requests: usize,
    pub(super) holders: HashMap<u64, Holder>,
    pub(super) next_ticket: u64,
    /// How long each kind of work has recently taken, whole (from its first slot to its
    /// answer) and a step at a time (long work's): what the wait a request is told counts on.
    pub(super) typical_run: [Duration; 4],
    pub(super) typical_step: [Duration; 4],
    /// The number of clients at which the idle ones are next forgotten.
    pub(super) prune_at: usize,
}

#[derive(Debug)]
pub(super) struct ClientState {
    pub(super) limits: ClientLimits,
    pub(super) requests: Bucket,
    pub(super) cpu: Bucket,
    pub(super) held: usize,
    /// When the client was last given a slot: among clients holding as many, the one served
    /// longest ago goes first (round robin), so that a client giving a slot up between two
    /// steps does not take it straight back from one that was waiting.
    pub(super) last_granted: Option<Instant>,
    /// The steps of long work waiting to go on first, then the requests in arrival order.
    pub(super) queue: VecDeque<Arc<Waiter>>,
    pub(super) waiting_requests: usize,
}

impl ClientState {
    pub(super) fn new(limits: ClientLimits, now: Instant) -> ClientState {
        let full = |quota: Option<bucket::Quota>| {
            quota.map_or(Bucket::full(bucket::Quota::per_second(1), now), |quota| {
                Bucket::full(quota, now)
            })
        };
        ClientState {
            limits,
            requests: full(limits.requests()),
            cpu: full(limits.cpu()),
            held: 0,
            last_granted: None,
            queue: VecDeque::new(),
            waiting_requests: 0,
        }
    }

    /// Whether the client is as a new one: nothing held or waiting, every quota whole.
    pub(super) fn is_idle(&mut self, now: Instant) -> bool {
        self.held == 0
            && self.queue.is_empty()
            && self
                .limits
                .requests()
                .is_none_or(|quota| self.requests.is_full(quota, now))
            && self
                .limits
                .cpu()
                .is_none_or(|quota| self.cpu.is_full(quota, now))
    }

    /// How long until the client's CPU-seconds are above zero again, if they are not.
    pub(super) fn cpu_spent(&mut self, now: Instant) -> Option<Duration> {
        let quota = self.limits.cpu()?;
        self.cpu.spent(quota, now)
    }

    pub(super) fn standing(&mut self, now: Instant) -> Standing {
        let mut standing = Standing::default();
        if let Some(quota) = self.limits.requests() {
            standing.requests = Some((
                self.requests.remaining(quota, now),
                whole_seconds(self.requests.until_full(quota, now)),
            ));
        }
        if let Some(quota) = self.limits.cpu() {
            standing.cpu = Some((
                self.cpu.remaining(quota, now),
                whole_seconds(self.cpu.until_full(quota, now)),
            ));
        }
        standing
    }
}

#[derive(Debug)]
pub(super) struct Waiter {
    pub(super) ticket: u64,
    pub(super) since: Instant,
    pub(super) work: Work,
    /// A step of long work waiting to go on, not a request.
    pub(super) step: bool,
    /// When the request this is part of was given its first slot (this waiter's arrival, for
    /// a request).
    pub(super) run_since: Instant,
    /// The slots it needs at once: a search's threads.
    pub(super) cores: usize,
    /// Set, under the state's lock, when the slot is given.
    pub(super) granted: AtomicBool,
    pub(super) notify: tokio::sync::Notify,
}

#[derive(Debug)]
pub(super) struct Holder {
    pub(super) client: ClientId,
    pub(super) work: Work,
    /// The slots it holds: a search's threads.
    pub(super) cores: usize,
    /// When the slot was given.
    pub(super) since: Instant,
    /// When long work last ended a step in it (the grant, before its first).
    pub(super) step_since: Instant,
    /// When the request was given its first slot.
    pub(super) run_since: Instant,
}

impl State {
    /// The state of `client`, made if new; `None` where there are too many clients even
    /// after forgetting the idle ones.
    pub(super) fn client(&mut self, client: &Client, now: Instant) -> Option<&mut ClientState> {
        if !self.clients.contains_key(&client.id) {
            if self.clients.len() >= self.prune_at {
                self.clients.retain(|_, state| !state.is_idle(now));
                self.prune_at = (2 * self.clients.len()).clamp(1024, MAX_CLIENTS);
            }
            if self.clients.len() >= MAX_CLIENTS {
                return None;
            }
            self.clients
                .insert(client.id, ClientState::new(client.limits, now));
        }
        self.clients.get_mut(&client.id)
    }

    /// Puts a waiter in `client`'s queue: a step of long work ahead of the requests.
    pub(super) fn enqueue(
        &mut self,
        client: &Client,
        work: Work,
        cores: usize,
        step: Option<Instant>,
        now: Instant,
    ) -> Arc<Waiter> {
        let waiter = Arc::new(Waiter {
            ticket: self.next_ticket,
            since: now,
            work,
            cores,
            step: step.is_some(),
            run_since: step.unwrap_or(now),
            granted: AtomicBool::new(false),
            notify: tokio::sync::Notify::new(),
        });
        self.next_ticket += 1;
        let state = self.clients.get_mut(&client.id).expect("made by client()");
        if state.queue.is_empty() {
            self.queued.push(client.id);
        }
        if step.is_some() {
            let first_request = state.queue.iter().position(|waiter| !waiter.step);
            state.queue.insert(
                first_request.unwrap_or(state.queue.len()),
                Arc::clone(&waiter),
            );
        } else {
            state.queue.push_back(Arc::clone(&waiter));
            state.waiting_requests += 1;
            self.waiting_requests += 1;
        }
        waiter
    }

    /// Takes a waiter that was not given a slot out of its client's queue.
    pub(super) fn remove(&mut self, client: ClientId, waiter: &Waiter) {
        let Some(state) = self.clients.get_mut(&client) else {
            return;
        };
        let Some(position) = state
            .queue
            .iter()
            .position(|queued| queued.ticket == waiter.ticket)
        else {
            return;
        };
        state.queue.remove(position);
        if !waiter.step {
            state.waiting_requests -= 1;
            self.waiting_requests -= 1;
        }
        if state.queue.is_empty() {
            self.queued.retain(|&queued| queued != client);
        }
    }
}
