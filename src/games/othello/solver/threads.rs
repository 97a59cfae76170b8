//! The solver on many threads: Young Brothers Wait, as Edax's endgame splits its tree.
//!
//! At a node of [`SPLIT_FROM`] empty squares or more, once its first move is searched (the
//! eldest brother, which sets the window: the node is most likely cut by it or has its value
//! from it), the other moves may be searched at once by threads that have nothing to do. They
//! share the node's state (`Split`): the next move to take, the best value so far, whose
//! rise narrows every later move's window, and a flag that a move cut the node, which stops
//! the others wherever they are in their subtrees. A thread that finishes and finds no move
//! left at its node goes back to idle, and the next node any thread reaches that can split
//! takes it; the threads of a solve are spawned there and then, inside a scope that ends
//! with the node, so no thread outlives the node it helps and no pool waits between solves.
//!
//! Lazy SMP, the engine kit's way, shares only the table: every thread searches the whole
//! tree. It works where iterative deepening gives the threads different depths to be at; an
//! exact solve has one depth, the end, and its threads would search the same moves in the
//! same order. The same table is shared here too (`table.rs`), so that what one thread proves
//! another reads.

use super::order::Child;
use super::{PASS, Solver};
use crate::search::Cutoff;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::sync::{Arc, Mutex};

/// From this many empty squares a node's later moves may be shared with idle threads: below,
/// a subtree is searched in little more time than a thread takes to start (docs/othello.md
/// has the thresholds measured).
pub const SPLIT_FROM: u32 = 14;

/// What the threads of one solve share besides the table: how many are idle.
pub struct Team {
    idle: AtomicUsize,
    /// The nodes split so far.
    splits: AtomicU64,
}

impl Team {
    /// A team of `threads` threads, every one but the first idle.
    pub fn new(threads: usize) -> Team {
        Team {
            idle: AtomicUsize::new(threads.saturating_sub(1)),
            splits: AtomicU64::new(0),
        }
    }
}

impl Team {
    /// Takes an idle thread's place for this one, which was idle waiting for its helpers:
    /// at once, unless a thread elsewhere took it meanwhile and has not finished.
    fn rejoin(&self) {
        loop {
            let idle = self.idle.load(Relaxed);
            if idle > 0
                && self
                    .idle
                    .compare_exchange_weak(idle, idle - 1, Relaxed, Relaxed)
                    .is_ok()
            {
                return;
            }
            std::thread::yield_now();
        }
    }
}

/// A node whose later moves several threads search.
struct Split<'a> {
    children: &'a [Child],
    /// The index in `children` of the next move to search.
    next: AtomicUsize,
    /// The node's alpha, raised by every move that beats it.
    alpha: AtomicI32,
    beta: i32,
    /// The best value and its move so far.
    best: Mutex<(i32, u8)>,
    /// Set when a move reaches beta: the node is cut, the other moves need no value.
    cut: Arc<AtomicBool>,
    /// Why a helper stopped, if the budget stopped it.
    stopped_by: Mutex<Option<Cutoff>>,
}

impl Split<'_> {
    fn offer(&self, value: i32, square: u8) {
        let mut best = self
            .best
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if value > best.0 {
            *best = (value, square);
        }
        self.alpha.fetch_max(value, Relaxed);
        if value >= self.beta {
            self.cut.store(true, Relaxed);
        }
    }
}

impl Solver {
    /// How many idle threads to take to help search `later` moves beside this one, if any
    /// are idle and there are moves enough for them.
    pub(super) fn helpers_for(&self, later: usize) -> Option<usize> {
        let team = self.team.as_ref()?;
        let wanted = later.checked_sub(1).filter(|&wanted| wanted > 0)?;
        let mut idle = team.idle.load(Relaxed);
        loop {
            if idle == 0 {
                return None;
            }
            let taken = idle.min(wanted);
            match team
                .idle
                .compare_exchange_weak(idle, idle - taken, Relaxed, Relaxed)
            {
                Ok(_) => {
                    team.splits.fetch_add(1, Relaxed);
                    return Some(taken);
                }
                Err(now) => idle = now,
            }
        }
    }

    /// The nodes split so far by the solve's threads.
    pub fn splits(&self) -> u64 {
        self.team
            .as_ref()
            .map_or(0, |team| team.splits.load(Relaxed))
    }

    /// Searches `children` (a node's moves after the first) within (`alpha`, `beta`) on this
    /// thread and `helpers` more; fail-soft, the best value and its move (-65 and `PASS` if
    /// the node was stopped before any was searched).
    pub(super) fn split(
        &mut self,
        children: &[Child],
        helpers: usize,
        alpha: i32,
        beta: i32,
    ) -> (i32, u8) {
        let cut = Arc::new(AtomicBool::new(false));
        let split = Split {
            children,
            next: AtomicUsize::new(0),
            alpha: AtomicI32::new(alpha),
            beta,
            best: Mutex::new((-65, PASS)),
            cut: Arc::clone(&cut),
            stopped_by: Mutex::new(None),
        };
        let team: Vec<Solver> = (0..helpers).map(|_| self.helper(&cut)).collect();
        self.cuts.push(cut);
        std::thread::scope(|scope| {
            for mut helper in team {
                let split = &split;
                scope.spawn(move || {
                    helper.work(split);
                    helper.meter.add_to_team(helper.nodes);
                    if let Some(cutoff) = helper.stopped_by {
                        *split
                            .stopped_by
                            .lock()
                            .unwrap_or_else(|poisoned| poisoned.into_inner()) = Some(cutoff);
                    }
                    if let Some(team) = &helper.team {
                        team.idle.fetch_add(1, Relaxed);
                    }
                });
            }
            self.work(&split);
            // Out of moves, this thread waits for the helpers' last ones: its core is free
            // for a helper to split with meanwhile (the helpful master of YBWC), which
            // otherwise would search its last move alone while this core idled.
            if let Some(team) = &self.team {
                team.idle.fetch_add(1, Relaxed);
            }
        });
        if let Some(team) = &self.team {
            team.rejoin();
        }
        self.cuts.pop();
        // A helper the budget stopped left its move without a value: the node has none.
        if let Some(cutoff) = split
            .stopped_by
            .into_inner()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
        {
            self.stopped_by.get_or_insert(cutoff);
        }
        // Cut by this node's own move, this thread goes on; cut above, it stops too.
        self.cut = self.cuts.iter().any(|cut| cut.load(Relaxed));
        split
            .best
            .into_inner()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Takes the split node's moves one after another until none is left or the node is cut,
    /// each with the node's latest alpha.
    fn work(&mut self, split: &Split) {
        while !self.halted() {
            let Some(child) = split.children.get(split.next.fetch_add(1, Relaxed)) else {
                break;
            };
            let alpha = split.alpha.load(Relaxed);
            if alpha >= split.beta {
                break;
            }
            let (mover, other) = (child.mover, child.other);
            let probe = -self.search(mover, other, -alpha - 1, -alpha);
            let value = if probe > alpha && probe < split.beta {
                -self.search(mover, other, -split.beta, -alpha)
            } else {
                probe
            };
            if self.halted() {
                break;
            }
            split.offer(value, child.square);
        }
    }

    /// A solver for another thread helping at a split node cut by `cut`: the same table,
    /// budget and team, its own nodes.
    fn helper(&self, cut: &Arc<AtomicBool>) -> Solver {
        let mut cuts = self.cuts.clone();
        cuts.push(Arc::clone(cut));
        Solver {
            table: Arc::clone(&self.table),
            nodes: 0,
            meter: self.meter.for_another_thread(),
            stopped_by: None,
            team: self.team.clone(),
            cuts,
            cut: false,
        }
    }
}
