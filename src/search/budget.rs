//! What a search may spend, checked from inside its loop: cooperative cancellation.
//!
//! A search cannot be stopped from outside (a blocking thread cannot be killed), so every
//! algorithm looks at its [`Meter`] as it goes: the exact searches every 1,024 nodes, the
//! samplers after every playout round or simulation. A search that must stop answers with what
//! it has completed (the best root move searched to the end, or the last completed iteration)
//! and says why in [`SearchResult::stopped_by`](super::SearchResult).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Limits set from outside the algorithm: by the service, a tournament or a client going away.
#[derive(Clone, Debug, Default)]
pub struct Budget {
    /// No search goes on past this instant.
    pub deadline: Option<Instant>,
    /// Game states one search may visit or create (checked every 1,024 nodes and at the limit
    /// itself by the searches that count with a meter; the others may overshoot by 1,024).
    pub max_nodes: Option<u64>,
    /// Set by whoever wants the result no more: the search then stops at its next check.
    pub cancelled: Option<Arc<AtomicBool>>,
    /// Set by the larger task the search is part of, when it has its answer (a tournament whose
    /// test has decided): the search stops as if cancelled.
    pub halted: Option<Arc<AtomicBool>>,
    /// Told what each iteration found, by the searches that deepen and can tell (the chess
    /// engine).
    pub watch: Option<super::Watch>,
    /// Where long work (a tournament's games, a review's positions) lets others have the core
    /// it runs on: asked at [`Budget::pause_point`], between two steps of that work.
    pub pause: Option<Pause>,
}

/// What long work does between two of its steps, set by whoever shares the machine out (the
/// service's heavy slots): it may give the core it holds to work that waits, and take one
/// back before it returns. It must return at once where the budget is due (see
/// [`Budget::is_due`]), so that a stop is never kept waiting on a core.
pub trait Yield: Send + Sync {
    fn between_steps(&self, budget: &Budget);
}

/// A [`Yield`] shared by the clones of a budget.
#[derive(Clone)]
pub struct Pause(pub Arc<dyn Yield>);

impl std::fmt::Debug for Pause {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Pause")
    }
}

/// Why a search stopped before it finished what it was asked (its depth, playouts or
/// simulations).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Cutoff {
    /// The algorithm's own `time_limit_ms`.
    TimeLimit,
    /// The [`Budget`]'s deadline: the service's or the tournament's.
    Deadline,
    /// The [`Budget`]'s node limit.
    NodeLimit,
    /// The [`Budget`]'s cancellation flag.
    Cancelled,
}

impl Cutoff {
    /// Why a search asked for `own` nodes within `budget` stopped short, as its answer says
    /// it: reaching its own node count (a request's `nodes`, a level's) is doing what it was
    /// asked, not being cut short; the service's node limit, where it is the tighter, is.
    pub fn reported(
        stopped_by: Option<Cutoff>,
        own: Option<u64>,
        budget: &Budget,
    ) -> Option<Cutoff> {
        let own_limit = own.is_some_and(|own| budget.max_nodes.is_none_or(|service| own < service));
        stopped_by.filter(|&cutoff| !(cutoff == Cutoff::NodeLimit && own_limit))
    }

    pub fn name(self) -> &'static str {
        match self {
            Cutoff::TimeLimit => "time_limit",
            Cutoff::Deadline => "deadline",
            Cutoff::NodeLimit => "node_limit",
            Cutoff::Cancelled => "cancelled",
        }
    }
}

impl Budget {
    /// No limit at all.
    pub fn unlimited() -> Self {
        Budget::default()
    }

    /// Whether the budget is spent after `nodes` nodes, and why.
    pub fn check(&self, nodes: u64) -> Option<Cutoff> {
        let set = |flag: &Option<Arc<AtomicBool>>| {
            flag.as_ref()
                .is_some_and(|flag| flag.load(Ordering::Relaxed))
        };
        if set(&self.cancelled) || set(&self.halted) {
            Some(Cutoff::Cancelled)
        } else if self.max_nodes.is_some_and(|max| nodes >= max) {
            Some(Cutoff::NodeLimit)
        } else if self
            .deadline
            .is_some_and(|deadline| Instant::now() >= deadline)
        {
            Some(Cutoff::Deadline)
        } else {
            None
        }
    }

    /// Whether the budget is spent, nodes aside: checked between the moves of a game.
    pub fn is_due(&self) -> bool {
        self.check(0).is_some()
    }

    /// A place between two steps of long work (before a game's move, before a review's
    /// position) where the work may wait while others have its core: nothing is being timed
    /// here, so a wait costs the work only the wall-clock time its own deadline counts.
    pub fn pause_point(&self) {
        if let Some(pause) = &self.pause {
            pause.0.between_steps(self);
        }
    }

    /// The budget with a node limit of its own as well (an engine's, a player's): whichever is
    /// smaller.
    pub fn with_max_nodes(&self, nodes: Option<u64>) -> Budget {
        Budget {
            max_nodes: tighter(self.max_nodes, nodes),
            ..self.clone()
        }
    }
}

/// The tighter of two optional limits (a deadline, a node count, a time): the smaller where
/// both are given, the one given where one is, none where neither is.
pub fn tighter<T: Ord>(a: Option<T>, b: Option<T>) -> Option<T> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// Nodes between two checks of a [`Meter`] in the exact searches: a clock read costs about as
/// much as a node, so checking every node would halve their speed, while a thousand nodes of
/// the fastest searches pass in microseconds, far below any limit a request can set.
pub(super) const CHECK_INTERVAL: u64 = 1024;

/// Where a meter at `nodes` looks next: [`CHECK_INTERVAL`] on, or at the node limit if it
/// comes first, so that a limit of a few hundred nodes (a weakened engine's) is kept to the
/// node.
fn next_check(budget: &Budget, nodes: u64) -> u64 {
    let next = nodes.saturating_add(CHECK_INTERVAL);
    budget
        .max_nodes
        .map_or(next, |max| next.min(max.max(nodes + 1)))
}

/// A search's running account against its [`Budget`] and its own time limit.
#[derive(Clone, Debug)]
pub(crate) struct Meter {
    budget: Budget,
    /// The algorithm's own time limit, as an instant.
    time_limit: Option<Instant>,
    /// Why the search must stop, once it must.
    pub(crate) stopped_by: Option<Cutoff>,
    /// The node count at which to look next; the next node's once stopped, so that every node
    /// after the stop learns it must return. One comparison is all a node pays.
    next_check: u64,
    /// The nodes of every thread of one search, where it has several: each adds its own at
    /// its checks, and a node limit is kept on the sum.
    team: Option<Team>,
}

/// A thread's share of its search's node count.
#[derive(Clone, Debug)]
struct Team {
    nodes: Arc<std::sync::atomic::AtomicU64>,
    /// What this thread has added to it so far.
    added: u64,
}

impl Meter {
    pub(crate) fn new(budget: &Budget) -> Self {
        Meter {
            budget: budget.clone(),
            time_limit: None,
            stopped_by: None,
            next_check: next_check(budget, 0),
            team: None,
        }
    }

    /// Counts this search's nodes into `nodes`, the sum of its threads' (each thread's meter
    /// joins it): a node limit is then kept on the sum, within a check interval a thread.
    pub(crate) fn join_team(&mut self, nodes: Arc<std::sync::atomic::AtomicU64>) {
        self.team = Some(Team { nodes, added: 0 });
    }

    /// A meter for another thread of the same search: the same budget, time limit and team,
    /// its own count from zero.
    pub(crate) fn for_another_thread(&self) -> Meter {
        Meter {
            budget: self.budget.clone(),
            time_limit: self.time_limit,
            stopped_by: None,
            next_check: next_check(&self.budget, 0),
            team: self.team.as_ref().map(|team| Team {
                nodes: Arc::clone(&team.nodes),
                added: 0,
            }),
        }
    }

    /// Adds this thread's nodes since it last did to its team's, where it has one, and says
    /// the whole search's count: `nodes`, this thread's own, where it has none.
    pub(crate) fn add_to_team(&mut self, nodes: u64) -> u64 {
        match &mut self.team {
            Some(team) => {
                let before = team.nodes.fetch_add(nodes - team.added, Ordering::Relaxed);
                let total = before + nodes - team.added;
                team.added = nodes;
                total
            }
            None => nodes,
        }
    }

    /// The nodes of the whole search, where this thread's own count is `nodes`: the team's
    /// as last added, with this thread's since.
    pub(crate) fn total_nodes(&self, nodes: u64) -> u64 {
        match &self.team {
            Some(team) => team.nodes.load(Ordering::Relaxed) + (nodes - team.added),
            None => nodes,
        }
    }

    /// Sets (or lifts) the algorithm's own deadline, and forgets an earlier stop that was only
    /// due to it.
    pub(crate) fn set_time_limit(&mut self, time_limit: Option<Instant>) {
        self.time_limit = time_limit;
        if self.stopped_by == Some(Cutoff::TimeLimit) {
            self.stopped_by = None;
        }
    }

    /// Looks at the budget now, whatever the node count; true if the search must stop.
    pub(crate) fn check(&mut self, nodes: u64) -> bool {
        let total = self.add_to_team(nodes);
        if self.stopped_by.is_none() {
            self.stopped_by = self.budget.check(total).or_else(|| {
                self.time_limit
                    .is_some_and(|limit| Instant::now() >= limit)
                    .then_some(Cutoff::TimeLimit)
            });
        }
        self.next_check = if self.stopped_by.is_some() {
            nodes.saturating_add(1)
        } else {
            // The next check where the sum would reach it, counted in this thread's nodes.
            next_check(&self.budget, total) - total + nodes
        };
        self.stopped_by.is_some()
    }

    /// Called once per node with the count so far: looks at the budget every
    /// [`CHECK_INTERVAL`] nodes, and at every node once stopped; true if the search must stop.
    #[inline(always)]
    pub(crate) fn tick(&mut self, nodes: u64) -> bool {
        nodes >= self.next_check && self.check(nodes)
    }

    /// Who watches the search, if anyone.
    pub(crate) fn watch(&self) -> Option<&super::Watch> {
        self.budget.watch.as_ref()
    }

    /// Whether the search must stop.
    #[inline(always)]
    pub(crate) fn is_stopped(&self) -> bool {
        self.stopped_by.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A search's own node count reached is what it was asked; the service's limit, where it
    /// is the tighter, cut it short.
    #[test]
    fn only_the_services_node_limit_is_reported() {
        let service = Budget {
            max_nodes: Some(1_000),
            ..Budget::default()
        };
        let stopped = Some(Cutoff::NodeLimit);
        assert_eq!(Cutoff::reported(stopped, Some(500), &service), None);
        assert_eq!(Cutoff::reported(stopped, Some(5_000), &service), stopped);
        assert_eq!(Cutoff::reported(stopped, None, &service), stopped);
        assert_eq!(
            Cutoff::reported(stopped, Some(500), &Budget::default()),
            None
        );
        let timed = Some(Cutoff::TimeLimit);
        assert_eq!(Cutoff::reported(timed, Some(500), &service), timed);
    }
    use std::time::Duration;

    #[test]
    fn each_limit_names_itself() {
        assert_eq!(Budget::unlimited().check(u64::MAX), None);
        let nodes = Budget {
            max_nodes: Some(10),
            ..Budget::default()
        };
        assert_eq!(nodes.check(9), None);
        assert_eq!(nodes.check(10), Some(Cutoff::NodeLimit));
        let past = Budget {
            deadline: Some(Instant::now()),
            ..Budget::default()
        };
        assert_eq!(past.check(0), Some(Cutoff::Deadline));
        let flag = Arc::new(AtomicBool::new(false));
        let cancel = Budget {
            cancelled: Some(Arc::clone(&flag)),
            ..Budget::default()
        };
        assert!(!cancel.is_due());
        flag.store(true, Ordering::Relaxed);
        assert_eq!(cancel.check(0), Some(Cutoff::Cancelled));
    }

    #[test]
    fn a_meter_checks_every_interval_and_remembers() {
        // A cancel is seen at the next check, every CHECK_INTERVAL nodes.
        let mut meter = Meter::new(&Budget {
            cancelled: Some(Arc::new(AtomicBool::new(true))),
            ..Budget::default()
        });
        for nodes in 1..CHECK_INTERVAL {
            assert!(!meter.tick(nodes), "not a checking node");
        }
        assert!(meter.tick(CHECK_INTERVAL));
        assert!(meter.tick(CHECK_INTERVAL + 1), "stays stopped");
        assert!(meter.tick(CHECK_INTERVAL + 2), "stays stopped");
        assert_eq!(meter.stopped_by, Some(Cutoff::Cancelled));

        // A node limit is kept to the node: checked at the limit itself where it comes before
        // the next check.
        for limit in [300, CHECK_INTERVAL + 300] {
            let mut limited = Meter::new(&Budget {
                max_nodes: Some(limit),
                ..Budget::default()
            });
            for nodes in 1..limit {
                assert!(!limited.tick(nodes), "{nodes} of {limit}");
            }
            assert!(limited.tick(limit));
            assert_eq!(limited.stopped_by, Some(Cutoff::NodeLimit));
        }

        let mut own = Meter::new(&Budget::unlimited());
        own.set_time_limit(Some(Instant::now()));
        assert!(own.check(0));
        assert_eq!(own.stopped_by, Some(Cutoff::TimeLimit));
        own.set_time_limit(Some(Instant::now() + Duration::from_secs(60)));
        assert!(
            !own.is_stopped(),
            "a new time limit lifts a stop that was due to the old"
        );
        assert!(!own.check(0));
    }
}
