//! The machine shared between its clients: who a request comes from ([`client`]), what the
//! operator allows each ([`limits`], [`policy`], [`keys`]), and the slots for CPU-heavy work handed out
//! fairly between the clients that wait for them ([`Share`]).
//!
//! A slot is a core. Heavy work (a large search, an analysis, a review, a tournament) runs only
//! in a slot; light requests take none and are never kept behind heavy ones. The slots are not
//! handed out in arrival order, which made one client's batch everyone's wait: each client has
//! a queue of its own, and a slot that frees goes to the waiting client that holds the fewest
//! (among equals, to the one that has waited longest), as a fair queue does. Long work
//! (tournaments, reviews) runs in steps (a game's moves, a review's positions) and between two
//! of them gives its slot to a client that holds fewer, and waits its turn to go on
//! ([`Lease`]); a client that holds one slot among others that hold one gives it up to a waiting
//! client with none after a quantum ([`QUANTUM`]), so that equals take turns.
//!
//! Nothing waits without bound: a client's own queue is bounded (beyond it, that client is
//! refused with 429), every client's together too (503), and a request that would wait longer
//! than the queue limit is refused at once, with a `Retry-After` reckoned from the queue (the
//! work ahead of it, at the times such work has taken lately), or, if the reckoning was wrong,
//! when it has waited that long.

pub mod bucket;
pub mod client;
pub mod keys;
pub mod layer;
mod lease;
pub mod limits;
pub mod policy;
mod refusal;
mod slot;
mod state;

use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use serde::Serialize;

pub use client::{Client, ClientId, Network};
pub use keys::ApiKeys;
pub use lease::Lease;
pub use limits::{ClientLimits, Standing};
pub use policy::Policy;
pub use refusal::{Reason, Refusal, whole_seconds};
pub use slot::Slot;
use slot::Waiting;
use state::{Holder, State, Waiter};

use crate::api::Budget;

/// Heavy work, by the route that asks for it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Work {
    Move,
    Analyze,
    Review,
    Tournament,
}

impl Work {
    pub const ALL: [Work; 4] = [Work::Move, Work::Analyze, Work::Review, Work::Tournament];

    pub fn route(self) -> &'static str {
        match self {
            Work::Move => "/move",
            Work::Analyze => "/analyze",
            Work::Review => "/review",
            Work::Tournament => "/tournament",
        }
    }

    fn index(self) -> usize {
        self as usize
    }

    /// Whether the work runs in steps and gives its slot up between them.
    pub fn yields(self) -> bool {
        matches!(self, Work::Review | Work::Tournament)
    }
}

/// The service's limits on heavy work, every client together, as `GET /limits` shows them.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ShareLimits {
    /// Heavy work running at once: a slot a core.
    pub heavy_slots: usize,
    /// Heavy requests that may wait for a slot, every client's together; beyond, 503.
    pub heavy_queue: usize,
    /// The longest a heavy request waits for a slot: one that would wait longer is refused at
    /// once.
    #[serde(rename = "queue_limit_ms", serialize_with = "milliseconds")]
    pub queue_limit: Duration,
}

fn milliseconds<S: serde::Serializer>(
    duration: &Duration,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.serialize_u64(duration.as_millis() as u64)
}

/// Default of [`ShareLimits::heavy_queue`].
pub const DEFAULT_HEAVY_QUEUE: usize = 64;

/// Default of [`ShareLimits::queue_limit`]: a few seconds, as long as a person waits for a
/// move without wondering whether the service is there.
pub const DEFAULT_QUEUE_LIMIT: Duration = Duration::from_secs(5);

/// How long a client holding no more than its share keeps a slot before a waiting client
/// holding fewer gets it at the work's next step: short against the second a person waits for
/// a move, long against the switch (a thread's wake-up).
pub const QUANTUM: Duration = Duration::from_millis(200);

/// The most clients remembered at once; a new client beyond them is refused (503) until some
/// of the others have been idle long enough to be forgotten.
pub const MAX_CLIENTS: usize = 100_000;

/// The slots for heavy work, the clients that hold and wait for them, and each client's
/// standing against its limits.
#[derive(Debug)]
pub struct Share {
    limits: ShareLimits,
    policy: Policy,
    state: Mutex<State>,
    /// Woken at every grant, for the steps of long work waiting on their threads.
    granted: Condvar,
}

/// Where a client stands against its limits on requests: within them, or how long to wait.
pub type Counted = Result<Standing, (Refusal, Standing)>;

impl Share {
    pub fn new(limits: ShareLimits, policy: Policy) -> Share {
        let limits = ShareLimits {
            heavy_slots: limits.heavy_slots.max(1),
            ..limits
        };
        Share {
            limits,
            policy,
            state: Mutex::new(State {
                free: limits.heavy_slots,
                clients: HashMap::new(),
                queued: Vec::new(),
                waiting_requests: 0,
                holders: HashMap::new(),
                next_ticket: 0,
                // Before any has been measured, a level-8 move's second for every kind: a
                // guess that refuses nothing at the default queue limit.
                typical_run: [Duration::from_secs(1); 4],
                typical_step: [QUANTUM; 4],
                prune_at: 1024,
            }),
            granted: Condvar::new(),
        }
    }

    pub fn limits(&self) -> ShareLimits {
        self.limits
    }

    pub fn policy(&self) -> &Policy {
        &self.policy
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // Nothing panics holding the lock; were something to, the state is still whole (every
        // change under it is a few assignments), so the next caller goes on with it.
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Counts a request against its client's requests a second: its standing after it, or
    /// the refusal (429) where the client has none left.
    pub fn count_request(&self, client: &Client) -> Counted {
        let now = Instant::now();
        let mut state = self.lock();
        let Some(standing) = state.client(client, now) else {
            return Err((too_many_clients(), Standing::default()));
        };
        let taken = match client.limits.requests() {
            Some(quota) => standing.requests.take(quota, 1.0, now),
            None => Ok(()),
        };
        let after = standing.standing(now);
        match taken {
            Ok(()) => Ok(after),
            Err(wait) => Err((
                Refusal::new(
                    429,
                    Reason::Requests,
                    wait,
                    format!(
                        "this client has sent its {} requests of this second (requests_per_second); try again after Retry-After",
                        client.limits.requests_per_second.unwrap_or(0)
                    ),
                ),
                after,
            )),
        }
    }

    /// The standing of `client` now, without counting anything.
    pub fn standing(&self, client: &Client) -> Standing {
        let now = Instant::now();
        self.lock()
            .client(client, now)
            .map(|state| state.standing(now))
            .unwrap_or_default()
    }

    /// A slot for `client`'s heavy `work`: at once where one is free and no one waits, after
    /// its turn in the fair order otherwise; or a refusal, at once, where the client is out of
    /// CPU-seconds, its queue or everyone's is full, or the wait would pass the queue limit.
    /// If the future is dropped (the client went away), its place in the queue goes with it.
    pub async fn admit(self: &Arc<Self>, client: &Client, work: Work) -> Result<Slot, Refusal> {
        self.admit_cores(client, work, 1).await
    }

    /// [`Share::admit`] for work on `cores` threads, which holds as many slots, given all at
    /// once when its turn comes (the turns after it wait until they are free, so that it is
    /// not passed over forever by work of fewer). Work on more threads than the service has
    /// slots is refused.
    pub async fn admit_cores(
        self: &Arc<Self>,
        client: &Client,
        work: Work,
        cores: usize,
    ) -> Result<Slot, Refusal> {
        let started = Instant::now();
        let waiter = {
            let mut state = self.lock();
            self.enter(&mut state, client, work, cores, started)?
        };
        let waiting = Waiting {
            share: self,
            client: client.id,
            waiter: Some(Arc::clone(&waiter)),
        };
        let deadline = tokio::time::Instant::from_std(started + self.limits.queue_limit);
        loop {
            let notified = waiter.notify.notified();
            if waiter.granted.load(Ordering::Acquire) {
                return Ok(waiting.into_slot());
            }
            if tokio::time::timeout_at(deadline, notified).await.is_err() {
                return waiting.give_up();
            }
        }
    }

    /// Puts a request in its client's queue (and gives it a slot if its turn is now), or
    /// refuses it.
    fn enter(
        &self,
        state: &mut State,
        client: &Client,
        work: Work,
        cores: usize,
        now: Instant,
    ) -> Result<Arc<Waiter>, Refusal> {
        if cores > self.limits.heavy_slots {
            return Err(Refusal::new(
                503,
                Reason::QueueFull,
                Duration::from_secs(1),
                format!(
                    "this work asks {cores} threads and the server has {} heavy slots",
                    self.limits.heavy_slots
                ),
            ));
        }
        let Some(standing) = state.client(client, now) else {
            return Err(too_many_clients());
        };
        if let Some(wait) = standing.cpu_spent(now) {
            return Err(Refusal::new(
                429,
                Reason::Cpu,
                wait,
                format!(
                    "this client has used its {} CPU-seconds of heavy work of the last minute (cpu_seconds_per_minute); light requests are still answered",
                    client.limits.cpu_seconds_per_minute.unwrap_or(0)
                ),
            ));
        }
        let (held, own_waiting) = (standing.held, standing.waiting_requests);
        if state.free < cores || !state.queued.is_empty() {
            let wait = self.estimate(state, client.id, now);
            let own_queue_full = own_waiting >= client.limits.queue;
            // A client whose own requests fill its queue is told so (429); one that has none
            // waiting is refused for everyone's queue being full, the server's load (503).
            if own_queue_full && own_waiting > 0 {
                return Err(client_queue_full(client, own_waiting, wait));
            }
            if state.waiting_requests >= self.limits.heavy_queue {
                return Err(Refusal::new(
                    503,
                    Reason::QueueFull,
                    wait,
                    format!(
                        "the server is busy: {} heavy tasks are running and {} waiting, its most; try again after Retry-After",
                        self.limits.heavy_slots, state.waiting_requests
                    ),
                ));
            }
            if own_queue_full {
                return Err(client_queue_full(client, own_waiting, wait));
            }
            if wait > self.limits.queue_limit {
                let (status, whose) = if held + own_waiting > 0 {
                    (429, "this client's own heavy work and others' are")
                } else {
                    (503, "the server's heavy work is")
                };
                return Err(Refusal::new(
                    status,
                    Reason::QueueWait,
                    wait,
                    format!(
                        "{whose} ahead of this request for about {:.1} s, longer than the queue limit ({} ms); try again after Retry-After",
                        wait.as_secs_f64(),
                        self.limits.queue_limit.as_millis()
                    ),
                ));
            }
        }
        let waiter = state.enqueue(client, work, cores, None, now);
        self.dispatch(state, now);
        Ok(waiter)
    }

    /// Gives the free slots to the waiting clients, each to the client holding the fewest (the
    /// one served longest ago among equals, then the one waiting longest), its first waiter (a
    /// step of long work before a request).
    fn dispatch(&self, state: &mut State, now: Instant) {
        let mut woke_a_step = false;
        while state.free > 0 {
            let Some(position) = (0..state.queued.len()).min_by_key(|&position| {
                let client = &state.clients[&state.queued[position]];
                let since = client.queue.front().map(|waiter| waiter.since);
                (client.held, client.last_granted, since)
            }) else {
                break;
            };
            let id = state.queued[position];
            let client = state
                .clients
                .get_mut(&id)
                .expect("a queued client is known");
            // Work on several threads waits, first in line, until as many slots are free.
            if client
                .queue
                .front()
                .is_some_and(|waiter| waiter.cores > state.free)
            {
                break;
            }
            let waiter = client.queue.pop_front().expect("a queued client waits");
            if client.queue.is_empty() {
                state.queued.swap_remove(position);
            }
            if !waiter.step {
                client.waiting_requests -= 1;
                state.waiting_requests -= 1;
            }
            client.held += waiter.cores;
            client.last_granted = Some(now);
            state.free -= waiter.cores;
            state.holders.insert(
                waiter.ticket,
                Holder {
                    client: id,
                    work: waiter.work,
                    cores: waiter.cores,
                    since: now,
                    step_since: now,
                    run_since: if waiter.step { waiter.run_since } else { now },
                },
            );
            waiter.granted.store(true, Ordering::Release);
            waiter.notify.notify_one();
            woke_a_step |= waiter.step;
        }
        if woke_a_step {
            self.granted.notify_all();
        }
    }

    /// How long a request of `client` entering the queue now would wait: the slots free up as
    /// their holders end, and go to the waiters ahead of it (all of its client's, and of every
    /// other client's as many as its client's and one more: their turns come between), each
    /// taking what such work has taken lately. Another client's long work gives its slot up at
    /// its next step, so it counts a step; its own long work does not, and a search does not,
    /// so they count whole.
    fn estimate(&self, state: &State, client: ClientId, now: Instant) -> Duration {
        let cost = |owner: ClientId, work: Work| {
            if work.yields() && owner != client {
                state.typical_step[work.index()]
            } else {
                state.typical_run[work.index()]
            }
        };
        let mut free_at: Vec<Duration> = vec![Duration::ZERO; state.free];
        for holder in state.holders.values() {
            let begun = if holder.work.yields() && holder.client != client {
                holder.step_since
            } else {
                holder.run_since
            };
            let left = cost(holder.client, holder.work)
                .saturating_sub(now.saturating_duration_since(begun));
            free_at.push(left);
        }
        if free_at.is_empty() {
            return Duration::ZERO;
        }
        let own = state.clients.get(&client).map_or(0, |own| own.queue.len());
        for &other in &state.queued {
            let queue = &state.clients[&other].queue;
            let turns = if other == client { own } else { own + 1 };
            for waiter in queue.iter().take(turns) {
                let soonest = free_at.iter_mut().min().expect("at least one slot");
                *soonest += cost(other, waiter.work);
            }
        }
        free_at.into_iter().min().unwrap_or_default()
    }

    /// A request's work of `kind` took `took` from its first slot to its end.
    pub fn finished(&self, kind: Work, took: Duration) {
        let typical = &mut self.lock().typical_run[kind.index()];
        *typical = average(*typical, took);
    }

    /// Gives back the slot of `ticket`, charging its time since `charged` to its client.
    fn release(&self, ticket: u64, charged: Instant) {
        let now = Instant::now();
        let mut state = self.lock();
        let Some(holder) = state.holders.remove(&ticket) else {
            return;
        };
        if let Some(client) = state.clients.get_mut(&holder.client) {
            client.held -= holder.cores;
            if let Some(quota) = client.limits.cpu() {
                let spent = now.saturating_duration_since(charged).as_secs_f64();
                client.cpu.charge(quota, spent * holder.cores as f64, now);
            }
        }
        state.free += holder.cores;
        self.dispatch(&mut state, now);
    }

    /// Long work's step ended in `slot`: charges its time, remembers it, and says whether the
    /// slot should go to a waiting client (one holding fewer than two less, at once; one
    /// holding one less, once the slot has been held a [`QUANTUM`]).
    pub(super) fn step_ended(&self, slot: &mut Slot) -> bool {
        let now = Instant::now();
        let mut state = self.lock();
        let Some(holder) = state.holders.get_mut(&slot.ticket) else {
            return false;
        };
        let step = now.saturating_duration_since(holder.step_since);
        holder.step_since = now;
        let (work, since, id, cores) = (holder.work, holder.since, holder.client, holder.cores);
        let typical = &mut state.typical_step[work.index()];
        *typical = average(*typical, step);
        let Some(client) = state.clients.get_mut(&id) else {
            return false;
        };
        if let Some(quota) = client.limits.cpu() {
            let spent = now.saturating_duration_since(slot.charged).as_secs_f64();
            client.cpu.charge(quota, spent * cores as f64, now);
        }
        slot.charged = now;
        let mine = client.held;
        let quantum_over = now.saturating_duration_since(since) >= QUANTUM;
        let in_debt = client.cpu_spent(now).is_some();
        in_debt
            || state.queued.iter().any(|&other| {
                let theirs = state.clients[&other].held;
                other != id && (theirs + 1 < mine || (theirs < mine && quantum_over))
            })
    }

    /// A slot for a step of `client`'s long work, waited for on this thread: the client's
    /// CPU-seconds in debt are waited out first, holding nothing; then the step waits at the
    /// head of its client's queue. `None` where the budget is due or `skip` says the step is no
    /// longer needed, whichever comes first.
    pub(super) fn wait_for_step(
        self: &Arc<Self>,
        client: &Client,
        work: Work,
        cores: usize,
        run_since: Instant,
        budget: &Budget,
        skip: &dyn Fn() -> bool,
    ) -> Option<Slot> {
        const LOOK: Duration = Duration::from_millis(20);
        loop {
            let debt = self
                .lock()
                .client(client, Instant::now())
                .and_then(|state| state.cpu_spent(Instant::now()));
            let Some(debt) = debt else {
                break;
            };
            if budget.is_due() || skip() {
                return None;
            }
            std::thread::sleep(debt.min(LOOK));
        }
        let mut state = self.lock();
        let now = Instant::now();
        state.client(client, now)?;
        let waiter = state.enqueue(client, work, cores, Some(run_since), now);
        self.dispatch(&mut state, now);
        loop {
            if waiter.granted.load(Ordering::Acquire) {
                return Some(Slot {
                    share: Arc::clone(self),
                    ticket: waiter.ticket,
                    cores,
                    charged: Instant::now(),
                });
            }
            if budget.is_due() || skip() {
                state.remove(client.id, &waiter);
                self.dispatch(&mut state, Instant::now());
                return None;
            }
            state = self
                .granted
                .wait_timeout(state, LOOK)
                .unwrap_or_else(|poisoned| poisoned.into_inner())
                .0;
        }
    }

    /// Slots held and requests waiting now, every client's: for the metrics.
    pub fn occupancy(&self) -> (usize, usize, usize) {
        let state = self.lock();
        (
            self.limits.heavy_slots - state.free,
            state.waiting_requests,
            state.clients.len(),
        )
    }
}

/// A typical time with a new one folded in (an average that weighs the last fifth).
fn average(typical: Duration, new: Duration) -> Duration {
    typical.mul_f64(0.8) + new.mul_f64(0.2)
}

fn client_queue_full(client: &Client, waiting: usize, wait: Duration) -> Refusal {
    Refusal::new(
        429,
        Reason::ClientQueue,
        wait,
        format!(
            "this client has {waiting} heavy requests waiting, as many as its queue allows ({}); send the next when one is answered",
            client.limits.queue
        ),
    )
}

fn too_many_clients() -> Refusal {
    Refusal::new(
        503,
        Reason::Clients,
        Duration::from_secs(1),
        format!(
            "the server is serving {MAX_CLIENTS} clients at once, its most; try again after Retry-After"
        ),
    )
}

#[cfg(test)]
mod tests;
