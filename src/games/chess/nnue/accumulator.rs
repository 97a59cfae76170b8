//! The first layer's sums, kept from position to position.
//!
//! A move changes few inputs: a quiet move turns one off (the piece on its square) and one
//! on (the piece on its new square); a capture also turns off the captured piece; castling
//! moves two pieces; a promotion turns on a piece of another role. The sums after a move are
//! the sums before it with those weight rows added and taken away, about a tenth of the work
//! of summing the (up to 32) pieces afresh. A search keeps a [`Stack`] of them, a ply an entry,
//! and brings an entry up to date only when its position is evaluated: a node cut off before
//! its evaluation costs nothing.

use shakmaty::{Board, CastlingSide, Color, Move, Role, Square};

use super::{HIDDEN, Network, input, side};

/// Both sides' sums of the first layer for one position: White's, then Black's.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C, align(64))]
pub struct Accumulator {
    pub values: [[i16; HIDDEN]; 2],
}

/// A piece on a square, as a move turns it on or off.
type Placed = (Color, Role, Square);

/// The inputs a move turns off and on.
#[derive(Clone, Copy, Debug)]
pub struct Changes {
    off: [Placed; 2],
    offs: u8,
    on: [Placed; 2],
    ons: u8,
    /// A capture's victim, turned off too.
    captured: Option<Placed>,
}

impl Changes {
    /// No change: a null move's.
    pub const NONE: Changes = Changes {
        off: [(Color::White, Role::Pawn, Square::A1); 2],
        offs: 0,
        on: [(Color::White, Role::Pawn, Square::A1); 2],
        ons: 0,
        captured: None,
    };

    /// What `mv`, made by `turn`, changes.
    pub fn of(turn: Color, mv: &Move) -> Changes {
        let mut changes = Changes::NONE;
        let them = turn.other();
        match *mv {
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => {
                changes.turn_off((turn, role, from));
                changes.turn_on((turn, promotion.unwrap_or(role), to));
                changes.captured = capture.map(|victim| (them, victim, to));
            }
            Move::EnPassant { from, to } => {
                changes.turn_off((turn, Role::Pawn, from));
                changes.turn_on((turn, Role::Pawn, to));
                // The pawn taken stands beside the capturer, on the square it passed over.
                let passed = Square::from_coords(to.file(), from.rank());
                changes.captured = Some((them, Role::Pawn, passed));
            }
            Move::Castle { king, rook } => {
                // shakmaty writes castling as the king taking its own rook (Chess960's way).
                let side = CastlingSide::from_king_side(king < rook);
                changes.turn_off((turn, Role::King, king));
                changes.turn_off((turn, Role::Rook, rook));
                changes.turn_on((turn, Role::King, side.king_to(turn)));
                changes.turn_on((turn, Role::Rook, side.rook_to(turn)));
            }
            Move::Put { role, to } => changes.turn_on((turn, role, to)),
        }
        changes
    }

    fn turn_off(&mut self, placed: Placed) {
        self.off[usize::from(self.offs)] = placed;
        self.offs += 1;
    }

    fn turn_on(&mut self, placed: Placed) {
        self.on[usize::from(self.ons)] = placed;
        self.ons += 1;
    }
}

impl Accumulator {
    /// The sums of `board`'s pieces, computed afresh.
    pub fn of(network: &Network, board: &Board) -> Accumulator {
        let mut sums = Accumulator {
            values: [network.b1; 2],
        };
        for (square, piece) in board.clone() {
            sums.update(network, (piece.color, piece.role, square), add);
        }
        sums
    }

    /// The sums after a move that makes `changes`.
    pub fn after(&self, network: &Network, changes: &Changes) -> Accumulator {
        let mut sums = *self;
        for &placed in &changes.on[..usize::from(changes.ons)] {
            sums.update(network, placed, add);
        }
        for &placed in changes.off[..usize::from(changes.offs)]
            .iter()
            .chain(&changes.captured)
        {
            sums.update(network, placed, subtract);
        }
        sums
    }

    /// Adds (or takes away) the row of a piece on a square, in both sides' views.
    #[inline]
    fn update(
        &mut self,
        network: &Network,
        (color, role, square): Placed,
        op: fn(i16, i16) -> i16,
    ) {
        for perspective in [Color::White, Color::Black] {
            let row = &network.w1[input(perspective, color, role, square)];
            for (sum, &weight) in self.values[side(perspective)].iter_mut().zip(row) {
                *sum = op(*sum, weight);
            }
        }
    }
}

#[inline]
fn add(sum: i16, weight: i16) -> i16 {
    sum.wrapping_add(weight)
}

#[inline]
fn subtract(sum: i16, weight: i16) -> i16 {
    sum.wrapping_sub(weight)
}

/// A search's sums, one entry a ply, each brought up to date from the one before it when its
/// position is first evaluated.
pub struct Stack {
    sums: Vec<Accumulator>,
    /// The move into each ply's position, not yet applied to its sums.
    pending: Vec<Changes>,
    /// Whether each ply's sums are up to date.
    current: Vec<bool>,
}

impl Stack {
    /// A stack of `plies` entries, the first the sums of `board`.
    pub fn new(network: &Network, board: &Board, plies: usize) -> Stack {
        let root = Accumulator::of(network, board);
        let mut current = vec![false; plies];
        current[0] = true;
        Stack {
            sums: vec![root; plies],
            pending: vec![Changes::NONE; plies],
            current,
        }
    }

    /// The position at `ply` follows the one before it by `changes`.
    #[inline]
    pub fn push(&mut self, ply: usize, changes: Changes) {
        self.pending[ply] = changes;
        self.current[ply] = false;
    }

    /// The sums at `ply`, brought up to date.
    pub fn at(&mut self, network: &Network, ply: usize) -> &Accumulator {
        let mut base = ply;
        while !self.current[base] {
            base -= 1;
        }
        for next in base + 1..=ply {
            self.sums[next] = self.sums[next - 1].after(network, &self.pending[next]);
            self.current[next] = true;
        }
        &self.sums[ply]
    }
}

#[cfg(test)]
mod tests {
    use rand::{RngExt, SeedableRng};
    use shakmaty::{Chess, Position};

    use super::*;
    use crate::games::chess::nnue::INPUTS;
    use crate::search::SearchRng;

    /// A net of random weights, so that every input's row differs.
    fn random_network(rng: &mut SearchRng) -> Network {
        let mut network = Network::zeros();
        for row in network.w1.iter_mut() {
            row.iter_mut()
                .for_each(|weight| *weight = rng.random_range(-300..300));
        }
        network
            .b1
            .iter_mut()
            .for_each(|bias| *bias = rng.random_range(-300..300));
        network
            .w2
            .iter_mut()
            .flatten()
            .for_each(|weight| *weight = rng.random_range(-64..64));
        network
    }

    #[test]
    fn sums_kept_move_by_move_are_the_sums_computed_afresh() {
        assert_eq!(Network::zeros().w1.len(), INPUTS);
        let mut rng = SearchRng::seed_from_u64(3);
        let network = random_network(&mut rng);
        let (mut castles, mut en_passants, mut promotions) = (0, 0, 0);
        for _ in 0..200 {
            let mut position = Chess::default();
            let mut stack = Stack::new(&network, position.board(), 400);
            for ply in 0..300 {
                let moves = position.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let mv = moves[rng.random_range(0..moves.len())];
                castles += usize::from(mv.is_castle());
                en_passants += usize::from(mv.is_en_passant());
                promotions += usize::from(mv.is_promotion());
                stack.push(ply + 1, Changes::of(position.turn(), &mv));
                position.play_unchecked(mv);
                // Every other ply is left for the next to bring up to date, as a search's
                // cut nodes are.
                if ply % 2 == 1 {
                    let kept = *stack.at(&network, ply + 1);
                    assert_eq!(kept, Accumulator::of(&network, position.board()), "{mv:?}");
                    assert_eq!(
                        network.evaluate(&kept, position.turn()),
                        network.evaluate(
                            &Accumulator::of(&network, position.board()),
                            position.turn()
                        )
                    );
                }
            }
        }
        assert!(castles > 0 && en_passants > 0 && promotions > 0);
    }

    #[test]
    fn a_net_reads_back_as_it_was_written() {
        let network = random_network(&mut SearchRng::seed_from_u64(5));
        assert_eq!(Network::read(&network.to_bytes()), Ok(network.clone()));
        let mut wrong = network.to_bytes();
        wrong.pop();
        assert!(
            Network::read(&wrong)
                .unwrap_err()
                .contains("hidden neurons")
        );
        assert!(
            Network::read(b"PK\x03\x04")
                .unwrap_err()
                .contains("SENTENN1")
        );
        assert!(crate::games::chess::nnue::shipped().w1.len() == INPUTS);
    }
}
