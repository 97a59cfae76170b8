//! The triangular principal-variation table.
//!
//! Row `ply` holds the best line found so far from the node at that ply. When a move improves a
//! node, its row becomes the move followed by the child's row (ply + 1), which the child has
//! just finished writing. The search never allocates per node.
//!
//! This copy runs at almost every internal node, so its cost decides the speed of a full-tree
//! search, and copying whole fixed rows would dwarf the search itself. Lines are short, so only
//! the child's live length is copied, in fixed chunks of [`CHUNK`] moves that the compiler turns
//! into a register move each instead of a call to `memcpy`. The table has as many rows as the
//! game has plies (plus two), since one is made for every search, and a service answering tens
//! of thousands of searches a second notices every kilobyte each of them builds and moves.

/// Plies a line can hold; deeper plies are searched but not recorded.
const ROW: usize = 64;
/// Moves copied at once; rows have this much slack so the last chunk may run past the line.
const CHUNK: usize = 8;

pub(crate) struct PvTable<M> {
    /// Rows of a width known at compile time, which keeps the indexing in the hot path cheap,
    /// but only as many as the game has plies.
    rows: Vec<[M; ROW + CHUNK]>,
    lengths: [usize; ROW + 2],
}

impl<M: Copy + Default> PvTable<M> {
    /// A table for games of at most `max_plies` plies.
    pub(crate) fn new(max_plies: usize) -> Self {
        let rows = max_plies.min(ROW) + 2;
        PvTable {
            rows: vec![[M::default(); ROW + CHUNK]; rows],
            lengths: [0; ROW + 2],
        }
    }

    /// Forgets the line at `ply`: called when a node is entered, so a leaf leaves an empty row.
    #[inline]
    pub(crate) fn clear(&mut self, ply: usize) {
        if let Some(length) = self.lengths.get_mut(ply) {
            *length = 0;
        }
    }

    /// Makes the line at `ply` be `mv` followed by the line at `ply + 1`.
    #[inline]
    pub(crate) fn update(&mut self, ply: usize, mv: M) {
        if ply + 1 >= self.rows.len() {
            return;
        }
        let length = self.lengths[ply + 1].min(ROW - 1);
        let (rows, child_rows) = self.rows.split_at_mut(ply + 1);
        let (row, child) = (&mut rows[ply], &child_rows[0]);
        row[0] = mv;
        let mut copied = 0;
        while copied < length {
            let chunk: &[M; CHUNK] = child[copied..copied + CHUNK].try_into().unwrap();
            row[1 + copied..1 + copied + CHUNK].copy_from_slice(chunk);
            copied += CHUNK;
        }
        self.lengths[ply] = length + 1;
    }

    /// The line from the root.
    pub(crate) fn root_line(&self) -> Vec<M> {
        self.line(0)
    }

    /// The line last written at `ply`.
    pub(crate) fn line(&self, ply: usize) -> Vec<M> {
        match self.rows.get(ply) {
            Some(row) => row[..self.lengths[ply]].to_vec(),
            None => Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_is_the_move_then_the_childs_row() {
        let mut table = PvTable::<u8>::new(4);
        table.clear(0);
        table.clear(1);
        table.clear(2);
        table.update(1, 7);
        table.update(0, 3);
        assert_eq!(table.root_line(), vec![3, 7]);
        table.clear(1);
        table.update(0, 5);
        assert_eq!(table.root_line(), vec![5]);
    }

    #[test]
    fn lines_longer_than_a_chunk_are_copied_whole() {
        let plies = 20;
        let mut table = PvTable::<u8>::new(plies);
        table.clear(plies);
        for ply in (0..plies).rev() {
            table.update(ply, ply as u8);
        }
        assert_eq!(table.root_line(), (0..plies as u8).collect::<Vec<_>>());
    }
}
