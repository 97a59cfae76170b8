//! What a network (AlphaZero's) reads of a position: its inputs, and the board's symmetries it
//! learns with.

use super::{Drawing, Symmetry};

/// A network's view of a position: by default two inputs a cell, read from what
/// [`Drawing::cell`] draws, and no symmetry.
pub trait Inputs: Drawing {
    /// How many inputs a network reading the position has ([`Inputs::network_inputs`]): by
    /// default two a cell.
    const NETWORK_INPUTS: usize = 2 * Self::ROWS * Self::COLUMNS;

    /// The inputs of a network reading the position (AlphaZero's) that are on, each below
    /// [`Inputs::NETWORK_INPUTS`], written into `active` (cleared first). Seen from the side to
    /// move, so that one network plays both sides: by default input `2 * cell` for a stone of
    /// the side to move on `cell` (counted `row * COLUMNS + col`, as [`Drawing::cell`] counts
    /// rows), `2 * cell + 1` for one of its opponent's. A game computes them from its own data
    /// where [`Drawing::cell`] would be slow.
    fn network_inputs(&self, active: &mut Vec<u16>) {
        active.clear();
        let me = self.side_to_move();
        for row in 0..Self::ROWS {
            for col in 0..Self::COLUMNS {
                if let Some((owner, _)) = self.cell(row, col) {
                    let cell = row * Self::COLUMNS + col;
                    active.push((2 * cell + usize::from(owner != me)) as u16);
                }
            }
        }
    }

    /// The board's symmetries a network may learn and search with ([`Symmetry`]), beside the
    /// identity: transforms of [`Inputs::network_inputs`]'s grid that keep the rules, the moves'
    /// ids mapped by [`Inputs::network_move_image`]. None by default.
    const NETWORK_SYMMETRIES: &'static [Symmetry] = &[];

    /// Move id `id`'s image under `symmetry`: by default an id below `ROWS * COLUMNS` names the
    /// cell it is played on (`row * COLUMNS + column`) and goes where the cell goes, and any other
    /// (a pass) stays.
    fn network_move_image(id: u16, symmetry: Symmetry) -> u16 {
        let cells = Self::ROWS * Self::COLUMNS;
        if usize::from(id) < cells {
            symmetry.cell_index::<Self>(usize::from(id)) as u16
        } else {
            id
        }
    }
}

/// Mapping a network's view by a symmetry reads the game's own map of its moves, so it sits
/// here, above the symmetries' file.
impl Symmetry {
    /// A position's inputs and its moves' ids (with their targets alongside, unmoved) mapped in
    /// place.
    pub fn apply<G: Inputs>(self, active: &mut [u16], moves: &mut [u16]) {
        for input in active {
            *input = self.input::<G>(*input);
        }
        for id in moves {
            *id = G::network_move_image(*id, self);
        }
    }
}
