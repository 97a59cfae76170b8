//! Transposition tables kept between searches, so that no search pays for its table inside its
//! clock.
//!
//! A table of a gigabyte takes about half a second to allocate and fill with empty entries. A
//! search that made its own did that after its request, its `go` or its turn in a tournament
//! had started: `sente usi` with a 1 GiB hash answered a 1 s byoyomi after up to 2.4 s, and a
//! tournament player lost on time at its first move. So a search takes its table from its
//! engine's [`Pool`], clean and of the size it asks, and gives it back when done: the back is
//! emptied then, on a thread of its own when it is large, after the search has answered. Only
//! a size never asked before (or asked again before the last was emptied) is allocated inside a
//! search. The protocols' sessions (`sente uci`, `sente usi`) do better: they keep their table
//! from one move to the next, made at `isready` where the GUI waits for it.
//!
//! The pool keeps few tables ([`MAX_IDLE`]) and none long ([`IDLE_TIME`]): its memory is the
//! recent searches', never more.

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

/// Tables kept idle by one pool at most.
pub const MAX_IDLE: usize = 2;

/// How long an idle table is kept for the next search before it is freed.
pub const IDLE_TIME: Duration = Duration::from_secs(60);

/// A table at least this large is emptied on a thread of its own, after the search's answer.
const BACKGROUND_BYTES: usize = 8 << 20;

/// An engine's idle tables of entries `T`, each clean (every entry `empty`).
pub struct Pool<T> {
    idle: Mutex<Vec<(Vec<T>, Instant)>>,
}

impl<T: Clone + Send + 'static> Pool<T> {
    pub const fn new() -> Pool<T> {
        Pool {
            idle: Mutex::new(Vec::new()),
        }
    }

    /// A clean table of `len` entries: an idle one of that length, or a new one.
    pub fn take(&self, len: usize, empty: T) -> Vec<T> {
        let kept = {
            let mut idle = self
                .idle
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            idle.retain(|(_, since)| since.elapsed() < IDLE_TIME);
            idle.iter()
                .position(|(table, _)| table.len() == len)
                .map(|at| idle.swap_remove(at).0)
        };
        kept.unwrap_or_else(|| vec![empty; len])
    }

    /// Gives back a table a search is done with: emptied (on a thread of its own when it is
    /// large, so that the search's answer does not wait), then kept for the next.
    pub fn give_back(&'static self, mut table: Vec<T>, empty: T) {
        if table.is_empty() {
            return;
        }
        if size_of_val(table.as_slice()) < BACKGROUND_BYTES {
            table.fill(empty);
            self.keep(table);
            return;
        }
        // Should no thread start, the table is only freed.
        let _ = std::thread::Builder::new()
            .name("table-clear".into())
            .spawn(move || {
                table.fill(empty);
                self.keep(table);
            });
    }

    /// Keeps a clean table idle, if there is room.
    fn keep(&self, table: Vec<T>) {
        let mut idle = self
            .idle
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        idle.retain(|(_, since)| since.elapsed() < IDLE_TIME);
        if idle.len() == MAX_IDLE {
            idle.remove(0);
        }
        idle.push((table, Instant::now()));
    }
}

impl<T: Clone + Send + 'static> Pool<T> {
    /// The one pool of tables of entries `T`, made on first use: the engine kit's tables are
    /// generic over a game's move, and Rust has no generic statics, hence a map from the
    /// entry's type to its pool, each kept for the life of the process.
    pub fn of() -> &'static Pool<T> {
        type Pools = Mutex<HashMap<TypeId, &'static (dyn Any + Send + Sync)>>;
        static POOLS: OnceLock<Pools> = OnceLock::new();
        let mut pools = POOLS
            .get_or_init(Default::default)
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let pool = *pools
            .entry(TypeId::of::<T>())
            .or_insert_with(|| Box::leak(Box::new(Pool::<T>::new())));
        pool.downcast_ref().expect("the pool of its own type")
    }
}

impl<T: Clone + Send + 'static> Default for Pool<T> {
    fn default() -> Self {
        Pool::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_given_back_is_taken_again_clean_and_the_pool_stays_small() {
        static POOL: Pool<u32> = Pool::new();
        let mut table = POOL.take(1024, 0);
        assert_eq!(table.len(), 1024);
        table.fill(7);
        let at = table.as_ptr();
        POOL.give_back(table, 0);
        let again = POOL.take(1024, 0);
        assert_eq!(again.as_ptr(), at, "the same table, not a new one");
        assert!(again.iter().all(|&entry| entry == 0), "emptied");
        // Another size is a new table.
        assert_eq!(POOL.take(512, 0).len(), 512);
        for _ in 0..10 {
            let table = POOL.take(64, 0);
            POOL.give_back(table, 0);
        }
        let idle = POOL.idle.lock().unwrap().len();
        assert!(idle <= MAX_IDLE, "{idle}");
    }

    #[test]
    fn a_large_table_is_emptied_in_the_background_and_kept() {
        static POOL: Pool<u64> = Pool::new();
        let len = (BACKGROUND_BYTES / 8) * 2;
        let mut table = POOL.take(len, 0);
        table.fill(9);
        POOL.give_back(table, 0);
        let started = Instant::now();
        while POOL.idle.lock().unwrap().is_empty() {
            assert!(started.elapsed() < Duration::from_secs(10), "never kept");
            std::thread::sleep(Duration::from_millis(5));
        }
        assert!(POOL.take(len, 0).iter().all(|&entry| entry == 0));
    }
}
