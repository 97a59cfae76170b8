//! The solver's transposition table: one byte of value per position, found by key.
//!
//! As in Pons' solver, the table has a prime number of entries (8,388,593, just under 2^23),
//! a key's slot is the key modulo that prime, and an entry keeps the key's low 32 bits. A key
//! is under 2^49 (`current + mask`), and a number below 2^55 (prime times 2^32) is determined
//! by its remainders modulo the prime and modulo 2^32 (the Chinese remainder theorem), so an
//! entry found is the position asked for: there are no false hits. A prime, unlike a power of
//! two, also spreads keys that differ only in their high bits (the right-hand columns).
//!
//! Each entry also records the search it belongs to; entries of earlier searches read as
//! empty, so a table handed from one request to the next is cleared in constant time, and no
//! result depends on which request ran before (the whole table is zeroed only when the 16-bit
//! search counter wraps).
//!
//! Tables are kept in a pool, so that concurrent solves each get their own. Only one is large
//! (8,388,593 entries of 8 bytes, 64 MiB): it is what the benchmarks measure and what a lone
//! solve gets. A solve that starts while it is in use gets a small one (262,139 entries, 2 MiB),
//! slower on positions far from the end but exact all the same, so the service's memory stays
//! bounded however many solves run at once (with two cores, a handful, each a few MiB).

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

/// Entries of the large table: a prime just under 2^23.
const LARGE: usize = 8_388_593;
/// Entries of a small table: a prime just under 2^18, still above 2^17, so that prime times
/// 2^32 exceeds 2^49 and the no-false-hit argument above holds for it too.
const SMALL: usize = 262_139;

/// Whether the large table has been made: there is only ever one.
static LARGE_MADE: AtomicBool = AtomicBool::new(false);

pub(super) struct Table {
    /// Per entry, packed so that a probe is one memory access (the table is far larger than
    /// the caches, and the search waits on every probe): the key's low 32 bits, the value in
    /// bits 32..40 and the search in bits 40..56.
    entries: Vec<u64>,
    search: u16,
    large: bool,
}

impl Table {
    fn new(large: bool) -> Self {
        let size = if large { LARGE } else { SMALL };
        let mut entries = Vec::with_capacity(size);
        // Only the large table: a small one is 2 MiB, no more than one huge page.
        if large {
            advise_huge_pages(&entries);
        }
        // Filled with 1 (search tag 0, which no search uses) rather than zeros, so that every
        // page is written now, when the table is made, and not faulted in one by one during
        // the first searches (zeroed memory is mapped lazily).
        entries.resize(size, 1);
        Table {
            entries,
            search: 0,
            large,
        }
    }

    /// The entry of `key`. Both sizes are constants, so each remainder compiles to a multiply
    /// rather than a division, and the branch always goes the same way within a search.
    #[inline]
    fn index(&self, key: u64) -> usize {
        if self.large {
            (key % LARGE as u64) as usize
        } else {
            (key % SMALL as u64) as usize
        }
    }

    /// Forgets every entry.
    fn clear(&mut self) {
        self.search = self.search.wrapping_add(1);
        if self.search == 0 {
            self.entries.fill(1);
            self.search = 1;
        }
    }

    #[inline]
    pub(super) fn put(&mut self, key: u64, value: u8) {
        let index = self.index(key);
        self.entries[index] =
            u64::from(key as u32) | u64::from(value) << 32 | u64::from(self.search) << 40;
    }

    /// Starts loading the entry of `key` into the cache without waiting for it.
    ///
    /// A probe of this table is a cache miss (and, without huge pages, a TLB miss) almost every
    /// time, and the search can do nothing until it returns. Asking for the children's entries
    /// while the moves are sorted overlaps those misses with each other and with the work of
    /// the node, instead of paying them one after another as each child is entered.
    #[inline]
    pub(super) fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let entry = &self.entries[self.index(key)];
            // SAFETY: a prefetch is a hint; it reads nothing and cannot fault, and the address
            // is that of an entry of the table anyway.
            unsafe {
                std::arch::x86_64::_mm_prefetch(
                    (entry as *const u64).cast::<i8>(),
                    std::arch::x86_64::_MM_HINT_T0,
                );
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The stored value, or 0 (never stored: the encodings start at 1).
    #[inline]
    pub(super) fn get(&self, key: u64) -> u8 {
        let entry = self.entries[self.index(key)];
        if entry >> 40 == u64::from(self.search) && entry as u32 == key as u32 {
            (entry >> 32) as u8
        } else {
            0
        }
    }
}

/// Asks the kernel to back the table with huge pages (2 MiB instead of 4 KiB).
///
/// Every probe lands on a random entry of a 64 MiB table, so with small pages nearly every
/// probe also misses the TLB and walks the page tables; with huge pages the whole table needs
/// 32 TLB entries. This is advice: where the kernel does not follow it, nothing changes but the
/// speed (the advice itself is checked by `the_huge_page_advice_is_taken` below).
///
/// `madvise` takes only page-aligned ranges (it fails with `EINVAL` otherwise), and the
/// allocator's block starts just past its header, inside a page: the advice covers the whole
/// pages inside the block, and the kernel uses a huge page for every 2 MiB-aligned stretch.
#[cfg(target_os = "linux")]
fn advise_huge_pages(entries: &Vec<u64>) -> bool {
    const PAGE: usize = 4096;
    let start = entries.as_ptr() as usize;
    let end = start + entries.capacity() * std::mem::size_of::<u64>();
    let (first, last) = (start.next_multiple_of(PAGE), end / PAGE * PAGE);
    if first >= last {
        return false;
    }
    // SAFETY: the range lies within the vector's own allocation, which lives as long as the
    // call; MADV_HUGEPAGE changes how the kernel maps it, not its contents or validity.
    unsafe {
        libc::madvise(
            first as *mut libc::c_void,
            last - first,
            libc::MADV_HUGEPAGE,
        ) == 0
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_: &Vec<u64>) -> bool {
    false
}

static POOL: Mutex<Vec<Table>> = Mutex::new(Vec::new());

/// A cleared table from the pool (or a new one), returned to the pool when dropped.
pub(super) struct PooledTable(Option<Table>);

impl PooledTable {
    /// The large table if it is free, else a small one.
    pub(super) fn take() -> Self {
        let table = {
            let mut pool = POOL.lock().unwrap_or_else(|p| p.into_inner());
            match pool.iter().position(|table| table.large) {
                Some(large) => Some(pool.swap_remove(large)),
                None => pool.pop(),
            }
        };
        let mut table = table.unwrap_or_else(|| {
            let large = !LARGE_MADE.swap(true, Ordering::Relaxed);
            Table::new(large)
        });
        table.clear();
        PooledTable(Some(table))
    }

    /// Whether this is the large table.
    #[cfg(test)]
    pub(super) fn is_large(&self) -> bool {
        self.0.as_ref().is_some_and(|table| table.large)
    }
}

impl std::ops::Deref for PooledTable {
    type Target = Table;
    fn deref(&self) -> &Table {
        self.0.as_ref().expect("present until dropped")
    }
}

impl std::ops::DerefMut for PooledTable {
    fn deref_mut(&mut self) -> &mut Table {
        self.0.as_mut().expect("present until dropped")
    }
}

impl Drop for PooledTable {
    fn drop(&mut self) {
        if let Some(table) = self.0.take() {
            POOL.lock().unwrap_or_else(|p| p.into_inner()).push(table);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_of_an_earlier_search_read_as_empty() {
        let mut table = PooledTable::take();
        table.put(0x1234_5678_9ABC, 7);
        assert_eq!(table.get(0x1234_5678_9ABC), 7);
        let size = if table.is_large() { LARGE } else { SMALL };
        assert_eq!(
            table.get(0x1234_5678_9ABC + size as u64),
            0,
            "same slot, other key"
        );
        table.clear();
        assert_eq!(table.get(0x1234_5678_9ABC), 0);
    }

    #[test]
    fn a_solve_beside_one_holding_the_large_table_gets_a_small_one() {
        let first = PooledTable::take();
        let second = PooledTable::take();
        let third = PooledTable::take();
        // Other tests may hold tables at the same time, but only one table is ever large.
        let large = [&first, &second, &third]
            .iter()
            .filter(|table| table.is_large())
            .count();
        assert!(large <= 1, "{large} large tables at once");
        assert!(!second.is_large() || !first.is_large());
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn the_huge_page_advice_is_taken() {
        // Where the kernel has transparent huge pages at all, madvise accepts the range: an
        // unaligned one would be refused (EINVAL), and the advice silently lost.
        if std::path::Path::new("/sys/kernel/mm/transparent_hugepage").exists() {
            let entries = Vec::<u64>::with_capacity(LARGE);
            assert!(advise_huge_pages(&entries));
        }
    }
}
