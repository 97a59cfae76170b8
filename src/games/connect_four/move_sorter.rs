//! The solver's move ordering: best score first, and among equal scores the last added.
//!
//! Moves are added in reverse centre-first order (the edges first), so ties go to the most
//! central column. A handful of moves, kept sorted by insertion.

pub(super) struct MoveSorter {
    /// (cell, score), ascending by score; the next move is the last one.
    entries: [(u64, i32); 7],
    len: usize,
}

impl MoveSorter {
    pub(super) fn new() -> Self {
        MoveSorter {
            entries: [(0, 0); 7],
            len: 0,
        }
    }

    #[inline]
    pub(super) fn add(&mut self, cell: u64, score: i32) {
        let mut position = self.len;
        self.len += 1;
        while position > 0 && self.entries[position - 1].1 > score {
            self.entries[position] = self.entries[position - 1];
            position -= 1;
        }
        self.entries[position] = (cell, score);
    }
}

impl Iterator for MoveSorter {
    type Item = u64;

    #[inline]
    fn next(&mut self) -> Option<u64> {
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        Some(self.entries[self.len].0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn best_first_and_the_last_added_among_equals() {
        let mut sorter = MoveSorter::new();
        sorter.add(1, 0);
        sorter.add(2, 5);
        sorter.add(3, 0);
        sorter.add(4, 2);
        assert_eq!(sorter.collect::<Vec<_>>(), vec![2, 4, 3, 1]);
    }
}
