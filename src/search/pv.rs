//! The triangular principal-variation table.
//!
//! Row `ply` holds the best line found so far from the node at that ply. When a move improves a
//! node, its row becomes the move followed by the child's row (ply + 1), which the child has
//! just finished writing. The search never allocates per node.
//!
//! This copy runs at almost every internal node, so its cost decides the speed of a full-tree
//! search: copying whole fixed rows made minimax ten times slower than no PV at all. Lines are
//! short, so only the child's live length is copied, in fixed chunks of [`CHUNK`] moves that the
//! compiler turns into a register move each instead of a call to `memcpy`.

/// Plies a line can hold; deeper plies are searched but not recorded.
const ROW: usize = 64;
/// Moves copied at once; rows have this much slack so the last chunk may run past the line.
const CHUNK: usize = 8;

pub(crate) struct PvTable<M> {
    rows: Box<[[M; ROW + CHUNK]; ROW + 1]>,
    lengths: [usize; ROW + 1],
}

impl<M: Copy + Default> PvTable<M> {
    pub(crate) fn new() -> Self {
        PvTable {
            rows: Box::new([[M::default(); ROW + CHUNK]; ROW + 1]),
            lengths: [0; ROW + 1],
        }
    }

    /// Forgets the line at `ply`: called when a node is entered, so a leaf leaves an empty row.
    #[inline]
    pub(crate) fn clear(&mut self, ply: usize) {
        if ply <= ROW {
            self.lengths[ply] = 0;
        }
    }

    /// Makes the line at `ply` be `mv` followed by the line at `ply + 1`.
    #[inline]
    pub(crate) fn update(&mut self, ply: usize, mv: M) {
        if ply >= ROW {
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
        self.rows[0][..self.lengths[0]].to_vec()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_is_the_move_then_the_childs_row() {
        let mut table = PvTable::<u8>::new();
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
}
