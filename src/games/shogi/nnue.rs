//! Shogi's evaluation network, learnt from Sente's own games (docs/shogi.md#the-network): the
//! kit of [`crate::learn::nnue`] with shogi's inputs.
//!
//! An input is a piece where it stands, as one side sees the game:
//! - on the board: (own or the opponent's, piece type, square), promoted pieces apart from
//!   unpromoted ones, 2 x 14 x 81, with the squares of Gote's view turned round (square `s`
//!   as `80 - s`), so that both sides see the board as Sente does and share one set of
//!   first-layer weights;
//! - in hand: (own or the opponent's, piece, which one of them): the second pawn in hand is an
//!   input of its own, on while at least two are held, so that a count is as many inputs as
//!   pieces and a capture or a drop changes one. A set holds 18 pawns and 4 lances, knights,
//!   silvers and golds, and 2 bishops and rooks: 38 a side.
//!
//! Every piece of the set is somewhere, on the board or in a hand, so exactly 40 inputs are on.
//! King-relative inputs (HalfKP: each piece's square together with its own king's) are what
//! strong shogi engines read, 81 times as many rows; learnt from a few thousand of Sente's games
//! most of them would never be seen.

use rsshogi::board::Position;
use rsshogi::types::{Color, HandPiece, Move32, Piece, PieceType, Square};

use crate::learn::LearnError;
use crate::learn::nnue::{self, Changes, Features, Slot};
use crate::learn::weights::NamedWeights;

/// Inputs on the board, per side: (own or the opponent's) x 14 piece types x 81 squares.
const ON_BOARD: usize = 14 * 81;
/// Where each hand piece's inputs start after the board's, in the crate's order of hand
/// pieces (pawn, lance, knight, silver, bishop, rook, gold), and how many a set holds.
const HAND_START: [usize; 7] = [0, 18, 22, 26, 30, 32, 34];
const IN_A_SET: [u32; 7] = [18, 4, 4, 4, 2, 2, 4];
/// One side's inputs: its board and its hand.
const PER_SIDE: usize = ON_BOARD + 38;
/// Inputs per view: own and the opponent's.
pub const INPUTS: usize = 2 * PER_SIDE;
/// Neurons of the hidden layer, per side.
pub const HIDDEN: usize = 128;

/// Shogi's inputs.
pub struct ShogiFeatures;

/// Shogi's net.
pub type Network = nnue::Network<ShogiFeatures, HIDDEN>;
/// Both sides' sums of its first layer.
pub type Accumulator = nnue::Accumulator<HIDDEN>;
/// A search's sums along its line.
pub type Stack = nnue::Stack<HIDDEN>;

/// The net Sente ships, learnt as docs/shogi.md#the-network says, or one read in its place.
static NET: Slot<ShogiFeatures, HIDDEN> = Slot::new("shogi", SHIPPED);
const SHIPPED: &[u8] = include_bytes!("sente.nnue");

/// The net as `sente learn` makes its generations and the `weights` knob plays them.
pub const WEIGHTS: crate::learn::LearntWeights = nnue::learnt_weights!(NET, SHIPPED, "sente.nnue");

impl Features for ShogiFeatures {
    const MAGIC: &'static [u8; 8] = b"SENTESN1";
    const INPUTS: usize = INPUTS;
    const MAX_ACTIVE: usize = 40;
    /// As the engine's winning chances count centipawns (`evaluation::winning_chances`).
    const SCALE: i32 = 600;
    /// Shogi's rules know no left or right.
    const MIRRORS: bool = true;

    fn read_board(board: &str, inputs: &mut Vec<u16>) -> Result<bool, LearnError> {
        let shogi: super::Shogi = board
            .parse()
            .map_err(|error| LearnError::Data(format!("the SFEN: {error}")))?;
        let position = &shogi.position;
        inputs.extend(pieces(position).map(|[sente, _]| sente));
        Ok(position.turn() == Color::BLACK)
    }

    /// Own and the opponent's swapped, the board turned round; a hand stays a hand.
    #[inline]
    fn flip(input: u16) -> u16 {
        let input = usize::from(input);
        let (side, within) = (input / PER_SIDE, input % PER_SIDE);
        let within = if within < ON_BOARD {
            within - within % 81 + (80 - within % 81)
        } else {
            within
        };
        ((1 - side) * PER_SIDE + within) as u16
    }

    /// The board's files reversed: file 1 for file 9.
    #[inline]
    fn mirror(input: u16) -> u16 {
        let input = usize::from(input);
        let (side, within) = (input / PER_SIDE, input % PER_SIDE);
        if within >= ON_BOARD {
            return input as u16;
        }
        let square = within % 81;
        let (file, rank) = (square / 9, square % 9);
        (side * PER_SIDE + within - square + (8 - file) * 9 + rank) as u16
    }
}

/// A piece on a square, in both sides' views: Sente's index, then Gote's.
#[inline]
fn on_board(color: Color, piece_type: PieceType, square: Square) -> [u16; 2] {
    let role = (piece_type.to_index() - 1) * 81;
    let square = square.to_index();
    [Color::BLACK, Color::WHITE].map(|view| {
        let (theirs, square) = if view == Color::BLACK {
            (color != view, square)
        } else {
            (color != view, 80 - square)
        };
        (usize::from(theirs) * PER_SIDE + role + square) as u16
    })
}

/// The `nth` (from 1) piece of a kind in `color`'s hand, in both sides' views.
#[inline]
fn in_hand(color: Color, piece: HandPiece, nth: u32) -> [u16; 2] {
    let within = ON_BOARD + HAND_START[piece.to_index()] + nth as usize - 1;
    [Color::BLACK, Color::WHITE].map(|view| (usize::from(color != view) * PER_SIDE + within) as u16)
}

/// Every input `position` turns on, in both views.
fn pieces(position: &Position) -> impl Iterator<Item = [u16; 2]> + '_ {
    let board = (0..81).filter_map(move |index| {
        let square = Square::from_index(index);
        let piece = position.piece_on(square);
        (piece != Piece::NONE).then(|| on_board(piece.color(), piece.piece_type(), square))
    });
    let hands = [Color::BLACK, Color::WHITE]
        .into_iter()
        .flat_map(move |color| {
            let hand = position.hand(color);
            HandPiece::iter().flat_map(move |piece| {
                // A set's count at most: a position Sente accepts holds no more.
                let held = hand.count(piece).min(IN_A_SET[piece.to_index()]);
                (1..=held).map(move |nth| in_hand(color, piece, nth))
            })
        });
    board.chain(hands)
}

/// The sums of `position`'s inputs, computed afresh.
pub fn of(network: &Network, position: &Position) -> Accumulator {
    Accumulator::of(network, pieces(position))
}

/// What `mv` changes, made in `position` (before it is made).
pub fn changes(position: &Position, mv: Move32) -> Changes {
    let us = position.turn();
    let mut changes = Changes::NONE;
    let to = mv.to_sq();
    if let Some(dropped) = mv.dropped_piece() {
        let piece = HandPiece::from_piece_type(dropped).expect("a piece that can be in hand");
        let nth = position.hand(us).count(piece);
        if nth <= IN_A_SET[piece.to_index()] {
            changes.turn_off(in_hand(us, piece, nth));
        }
        changes.turn_on(on_board(us, dropped, to));
        return changes;
    }
    let from = mv.from_sq();
    changes.turn_off(on_board(us, position.piece_on(from).piece_type(), from));
    changes.turn_on(on_board(us, mv.piece_after_move().piece_type(), to));
    let victim = position.piece_on(to);
    if victim != Piece::NONE {
        changes.turn_off(on_board(victim.color(), victim.piece_type(), to));
        // A captured piece goes to the hand unpromoted.
        if let Some(piece) = HandPiece::from_piece_type(victim.base_piece_type()) {
            let nth = position.hand(us).count(piece) + 1;
            if nth <= IN_A_SET[piece.to_index()] {
                changes.turn_on(in_hand(us, piece, nth));
            }
        }
    }
    changes
}

/// The net a search plays with: the one its settings carry (the `weights` knob, USI's
/// `EvalFile`), else the shipped one.
pub fn playing(weights: Option<&NamedWeights>) -> std::sync::Arc<Network> {
    NET.playing(weights)
}

/// Reads the net in the file at `path` as USI's `EvalFile` names it.
pub fn load_eval_file(path: &std::path::Path) -> Result<NamedWeights, LearnError> {
    NET.load("EvalFile", path)
}

/// Trains shogi's net (`sente train --game shogi`).
pub fn train(
    options: &crate::learn::TrainingOptions,
    on_epoch: &mut dyn FnMut(&crate::learn::Epoch),
) -> Result<crate::learn::TrainingReport, LearnError> {
    nnue::train::train::<ShogiFeatures, HIDDEN>(options, on_epoch)
}

/// The side to move's evaluation of `position` in centipawns by `network`, its sums computed
/// afresh (a search keeps them instead: [`Stack`]).
pub fn evaluate_with(network: &Network, position: &Position) -> i32 {
    network.evaluate(&of(network, position), position.turn().to_index())
}

/// [`evaluate_with`] the shipped net: the `nnue` evaluation of the algorithms other than the
/// engine, which carry no weights.
pub fn evaluate(position: &Position) -> i32 {
    evaluate_with(NET.shipped(), position)
}

#[cfg(test)]
mod tests {
    use rand::{RngExt, SeedableRng};
    use rsshogi::board::{Move32List, hirate_position};
    use rsshogi::movegen::{Legal, generate_moves_move32};

    use super::*;
    use crate::search::SearchRng;

    #[test]
    fn sums_kept_move_by_move_are_the_sums_computed_afresh() {
        let mut rng = SearchRng::seed_from_u64(7);
        let network = Network::random(&mut rng);
        let (mut drops, mut captures, mut promotions) = (0, 0, 0);
        for _ in 0..40 {
            let mut position = hirate_position();
            let mut stack = Stack::new(of(&network, &position), 400);
            for ply in 0..300 {
                let mut moves = Move32List::new();
                generate_moves_move32::<Legal>(&position, &mut moves);
                if moves.is_empty() {
                    break;
                }
                let mv = moves.as_slice()[rng.random_range(0..moves.len())];
                drops += usize::from(mv.is_drop());
                promotions += usize::from(mv.is_promotion());
                captures +=
                    usize::from(!mv.is_drop() && position.piece_on(mv.to_sq()) != Piece::NONE);
                stack.push(ply + 1, changes(&position, mv));
                position.apply_move32(mv);
                if ply % 2 == 1 {
                    let kept = *stack.at(&network, ply + 1);
                    assert_eq!(kept, of(&network, &position), "{}", mv.to_usi());
                    assert_eq!(pieces(&position).count(), 40);
                }
            }
        }
        assert!(drops > 100 && captures > 100 && promotions > 10);
    }

    /// The inputs as the module's comment defines them, read from the position's SFEN text
    /// one character at a time and nothing of the crate's but the text: Sente's view, then
    /// Gote's, sorted.
    fn inputs_from_the_sfen(sfen: &str) -> [Vec<u16>; 2] {
        // The crate's piece types in their order (YaneuraOu's): the unpromoted, the king,
        // then the promoted; a hand's pieces in theirs.
        const TYPES: [&str; 14] = [
            "P", "L", "N", "S", "B", "R", "G", "K", "+P", "+L", "+N", "+S", "+B", "+R",
        ];
        const HAND: [char; 7] = ['P', 'L', 'N', 'S', 'B', 'R', 'G'];
        let mut fields = sfen.split(' ');
        let (board, _turn, hands) = (fields.next().unwrap(), fields.next(), fields.next());
        let mut views = [Vec::new(), Vec::new()];
        let mut add = |gote_piece: bool, within_for: &dyn Fn(bool) -> usize| {
            for (view, inputs) in views.iter_mut().enumerate() {
                let view_is_gote = view == 1;
                let theirs = gote_piece != view_is_gote;
                inputs.push((usize::from(theirs) * PER_SIDE + within_for(view_is_gote)) as u16);
            }
        };
        for (rank, row) in board.split('/').enumerate() {
            // Files 9 to 1 from the left; a square is (file - 1) * 9 + rank.
            let mut file = 9;
            let mut promoted = false;
            for c in row.chars() {
                if let Some(empty) = c.to_digit(10) {
                    file -= empty as usize;
                } else if c == '+' {
                    promoted = true;
                } else {
                    let letter = c.to_ascii_uppercase().to_string();
                    let name = if promoted {
                        format!("+{letter}")
                    } else {
                        letter
                    };
                    let role = TYPES.iter().position(|&t| t == name).unwrap();
                    let square = (file - 1) * 9 + rank;
                    add(c.is_ascii_lowercase(), &|gote_view| {
                        role * 81 + if gote_view { 80 - square } else { square }
                    });
                    file -= 1;
                    promoted = false;
                }
            }
            assert_eq!(file, 0, "{sfen}");
        }
        let mut count = 0;
        for c in hands.unwrap_or("-").chars().filter(|&c| c != '-') {
            if let Some(digit) = c.to_digit(10) {
                count = count * 10 + digit as usize;
                continue;
            }
            let kind = HAND
                .iter()
                .position(|&h| h == c.to_ascii_uppercase())
                .unwrap();
            let start = [0, 18, 22, 26, 30, 32, 34][kind];
            for nth in 0..count.max(1) {
                add(c.is_ascii_lowercase(), &|_| ON_BOARD + start + nth);
            }
            count = 0;
        }
        views.map(|mut inputs| {
            inputs.sort_unstable();
            inputs
        })
    }

    #[test]
    fn the_inputs_are_those_the_sfen_reads_as_on_random_positions() {
        let mut rng = SearchRng::seed_from_u64(11);
        let (mut checked, mut promoted, mut in_hand) = (0, 0, 0);
        for _ in 0..30 {
            let mut position = hirate_position();
            for _ in 0..200 {
                let mut moves = Move32List::new();
                generate_moves_move32::<Legal>(&position, &mut moves);
                if moves.is_empty() {
                    break;
                }
                position.apply_move32(moves.as_slice()[rng.random_range(0..moves.len())]);
                let sfen = position.to_sfen(None);
                let mut sente: Vec<u16> = pieces(&position).map(|[sente, _]| sente).collect();
                let mut gote: Vec<u16> = pieces(&position).map(|[_, gote]| gote).collect();
                sente.sort_unstable();
                gote.sort_unstable();
                assert_eq!([sente, gote], inputs_from_the_sfen(&sfen), "{sfen}");
                checked += 1;
                promoted += usize::from(sfen.split(' ').next().unwrap().contains('+'));
                in_hand += usize::from(!sfen.contains(" - "));
            }
        }
        assert!(checked > 3_000 && promoted > 500 && in_hand > 2_000);
    }

    #[test]
    fn gote_sees_the_board_turned_round_with_the_sides_swapped() {
        let position = hirate_position();
        for [sente, gote] in pieces(&position) {
            assert_eq!(ShogiFeatures::flip(sente), gote);
            assert_eq!(ShogiFeatures::flip(gote), sente);
            assert_eq!(ShogiFeatures::mirror(ShogiFeatures::mirror(sente)), sente);
        }
        // The start is the same to both sides; mirrored, only the rooks and bishops change
        // places.
        let mut sente: Vec<u16> = pieces(&position).map(|[sente, _]| sente).collect();
        let mut mirrored: Vec<u16> = sente
            .iter()
            .map(|&input| ShogiFeatures::mirror(input))
            .collect();
        let mut gote: Vec<u16> = pieces(&position).map(|[_, gote]| gote).collect();
        sente.sort();
        mirrored.sort();
        gote.sort();
        assert_eq!(sente, gote);
        let moved = sente
            .iter()
            .filter(|input| !mirrored.contains(input))
            .count();
        assert_eq!(moved, 4);
        assert_eq!(Network::FILE_BYTES, 600_848);
    }

    #[test]
    fn a_training_line_reads_as_the_first_player_sees_it() {
        let mut inputs = Vec::new();
        let sente = ShogiFeatures::read_board(
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            &mut inputs,
        );
        assert!(sente.unwrap());
        assert_eq!(inputs.len(), 40);
        inputs.clear();
        let gote = ShogiFeatures::read_board("4k4/9/9/9/9/9/9/9/4K4 w 2P3p 1", &mut inputs);
        assert!(!gote.unwrap());
        // Two kings and five pawns in hand: the second pawn in Sente's hand is on.
        assert_eq!(inputs.len(), 7);
        assert!(inputs.contains(&((ON_BOARD + 1) as u16)));
        assert!(
            ShogiFeatures::read_board("not a board", &mut inputs)
                .unwrap_err()
                .to_string()
                .starts_with("the SFEN")
        );
    }
}
