//! The board's symmetries as a network sees them: the transforms of the grid its inputs lie on
//! (two a cell, [`Inputs::network_inputs`]) that keep the rules, with each move id's image. A
//! network learns from a position's images as from the position (twice Connect Four's data,
//! eight times Othello's), and a search may ask it about any image of the position it holds.
//!
//! [`Inputs::network_inputs`]: super::Inputs::network_inputs

use super::Drawing;

/// A transform of a `rows x columns` grid; those that turn it need it square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Symmetry {
    /// Column `c` to `columns - 1 - c` (Connect Four's mirror).
    MirrorColumns,
    /// Row `r` to `rows - 1 - r`.
    MirrorRows,
    /// A half turn.
    Rotate180,
    /// (row, column) to (column, row).
    Transpose,
    /// The other diagonal.
    AntiTranspose,
    /// A quarter turn, clockwise.
    Rotate90,
    /// Three quarters.
    Rotate270,
}

impl Symmetry {
    /// The seven of a square board (with the identity, its dihedral group).
    pub const SQUARE: &'static [Symmetry] = &[
        Symmetry::MirrorColumns,
        Symmetry::MirrorRows,
        Symmetry::Rotate180,
        Symmetry::Transpose,
        Symmetry::AntiTranspose,
        Symmetry::Rotate90,
        Symmetry::Rotate270,
    ];

    /// Where the cell at (`row`, `column`) of a `rows x columns` grid goes.
    pub fn cell(
        self,
        (row, column): (usize, usize),
        rows: usize,
        columns: usize,
    ) -> (usize, usize) {
        let (last_row, last_column) = (rows - 1, columns - 1);
        match self {
            Symmetry::MirrorColumns => (row, last_column - column),
            Symmetry::MirrorRows => (last_row - row, column),
            Symmetry::Rotate180 => (last_row - row, last_column - column),
            Symmetry::Transpose => (column, row),
            Symmetry::AntiTranspose => (last_column - column, last_row - row),
            Symmetry::Rotate90 => (column, last_row - row),
            Symmetry::Rotate270 => (last_column - column, row),
        }
    }

    /// Where cell number `cell` (`row * COLUMNS + column`) of `G`'s grid goes.
    pub fn cell_index<G: Drawing>(self, cell: usize) -> usize {
        let (row, column) = self.cell((cell / G::COLUMNS, cell % G::COLUMNS), G::ROWS, G::COLUMNS);
        row * G::COLUMNS + column
    }

    /// The image of one of `G`'s inputs that are on (`2 * cell + side`).
    pub fn input<G: Drawing>(self, input: u16) -> u16 {
        let (cell, side) = (usize::from(input) / 2, input % 2);
        2 * self.cell_index::<G>(cell) as u16 + side
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each symmetry is a permutation of the grid, the square's seven all different.
    #[test]
    fn every_symmetry_permutes_the_grid() {
        for (rows, columns, symmetries) in [
            (
                6,
                7,
                &[
                    Symmetry::MirrorColumns,
                    Symmetry::MirrorRows,
                    Symmetry::Rotate180,
                ][..],
            ),
            (8, 8, Symmetry::SQUARE),
        ] {
            let mut images = Vec::new();
            for &symmetry in symmetries {
                let mut seen = vec![false; rows * columns];
                let mut image = Vec::new();
                for row in 0..rows {
                    for column in 0..columns {
                        let (r, c) = symmetry.cell((row, column), rows, columns);
                        assert!(!seen[r * columns + c], "{symmetry:?} maps two cells to one");
                        seen[r * columns + c] = true;
                        image.push((r, c));
                    }
                }
                assert!(!images.contains(&image), "{symmetry:?} is another's twin");
                images.push(image);
            }
        }
    }
}
