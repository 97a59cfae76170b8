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
//!
//! A net may also read each side's inputs by where that side's own king stands, as strong
//! shogi engines do (HalfKP: every piece's square together with its king's, 81 times as many
//! rows). Learnt from tens of thousands of Sente's games, 81 sets of rows would mostly never be
//! seen, so the board is cut into [`KING_BUCKETS`] regions, each a set of rows: the king's
//! file among three groups (1-3, 4-6, 7-9, as its side sees the board), and whether it is in
//! its own camp (the three ranks nearest its side) or has left it. A castle's king (Yagura's on
//! the left, Mino's on the right, the central one unmoved) and an entering king each read the
//! board with rows of their own. The file of a net says which it is (its length).

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
/// A king-relative net's buckets: three groups of files, in the camp or out of it.
pub const KING_BUCKETS: usize = 6;
/// Where a side's king stands when it has none (a tsume problem's attacker): its start, 5i.
const NO_KING: usize = 4 * 9 + 8;

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
pub const WEIGHTS: crate::learn::LearntWeights =
    nnue::learnt_weights!(ShogiFeatures, NET, SHIPPED, "sente.nnue");

impl Features for ShogiFeatures {
    const MAGIC: &'static [u8; 8] = b"SENTESN1";
    const INPUTS: usize = INPUTS;
    const MAX_ACTIVE: usize = 40;
    /// As the engine's winning chances count centipawns (`evaluation::winning_chances`).
    const SCALE: i32 = 600;
    /// Shogi's rules know no left or right.
    const MIRRORS: bool = true;
    const KING_BUCKETS: usize = KING_BUCKETS;

    fn read_board(board: &str, inputs: &mut Vec<u16>) -> Result<bool, LearnError> {
        let position = read_sfen(board)?;
        inputs.extend(pieces(&position, 1).map(|[sente, _]| sente));
        Ok(position.turn() == Color::BLACK)
    }

    /// Each side's view with its own king's bucket: Gote's is not Sente's turned round once
    /// their kings stand in buckets that are not each other's.
    fn read_views(board: &str, buckets: usize, inputs: &mut Vec<u16>) -> Result<bool, LearnError> {
        if buckets != 1 && buckets != KING_BUCKETS {
            return Err(LearnError::Options(format!(
                "shogi's net reads its inputs in 1 or {KING_BUCKETS} king buckets, not {buckets}"
            )));
        }
        let position = read_sfen(board)?;
        for view in 0..2 {
            inputs.extend(pieces(&position, buckets).map(|seen| seen[view]));
        }
        Ok(position.turn() == Color::BLACK)
    }

    /// Own and the opponent's swapped, the board turned round; a hand stays a hand. (Of a net
    /// without king buckets: with them, the other side's view depends on its own king.)
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

    /// The board's files reversed: file 1 for file 9, and the king's bucket with them.
    #[inline]
    fn mirror(input: u16, buckets: usize) -> u16 {
        let input = usize::from(input);
        let (bucket, input) = (input / INPUTS, input % INPUTS);
        // Files 1-3 for 7-9, in the camp or not as before.
        let bucket = if buckets == 1 {
            0
        } else {
            (2 - bucket / 2) * 2 + bucket % 2
        };
        let (side, within) = (input / PER_SIDE, input % PER_SIDE);
        let within = if within >= ON_BOARD {
            within
        } else {
            let square = within % 81;
            let (file, rank) = (square / 9, square % 9);
            within - square + (8 - file) * 9 + rank
        };
        (bucket * INPUTS + side * PER_SIDE + within) as u16
    }
}

fn read_sfen(board: &str) -> Result<Position, LearnError> {
    let shogi: super::Shogi = board
        .parse()
        .map_err(|error| LearnError::Data(format!("the SFEN: {error}")))?;
    Ok(shogi.position)
}

/// Where each side's inputs start in a net of `buckets` king buckets: its own king's bucket's
/// rows (Sente's, then Gote's; both 0 without buckets).
#[inline]
fn offsets(position: &Position, buckets: usize) -> [usize; 2] {
    if buckets == 1 {
        return [0; 2];
    }
    [Color::BLACK, Color::WHITE].map(|view| bucket(view, position.king_square(view)) * INPUTS)
}

/// The bucket of `color`'s king on `square`, as `color` sees the board.
#[inline]
fn bucket(color: Color, square: Square) -> usize {
    let seen = match (square.is_none(), color == Color::BLACK) {
        (true, _) => NO_KING,
        (false, true) => square.to_index(),
        (false, false) => 80 - square.to_index(),
    };
    // Files in threes; ranks 7 to 9 (indices 6 to 8) are the camp.
    (seen / 27) * 2 + usize::from(seen % 9 < 6)
}

/// A piece on a square, in both sides' views: Sente's index, then Gote's.
#[inline]
fn on_board(offsets: [usize; 2], color: Color, piece_type: PieceType, square: Square) -> [u16; 2] {
    let role = (piece_type.to_index() - 1) * 81;
    let square = square.to_index();
    let seen = |view: Color, offset: usize| {
        let square = if view == Color::BLACK {
            square
        } else {
            80 - square
        };
        (offset + usize::from(color != view) * PER_SIDE + role + square) as u16
    };
    [
        seen(Color::BLACK, offsets[0]),
        seen(Color::WHITE, offsets[1]),
    ]
}

/// The `nth` (from 1) piece of a kind in `color`'s hand, in both sides' views.
#[inline]
fn in_hand(offsets: [usize; 2], color: Color, piece: HandPiece, nth: u32) -> [u16; 2] {
    let within = ON_BOARD + HAND_START[piece.to_index()] + nth as usize - 1;
    let seen = |view: Color, offset: usize| {
        (offset + usize::from(color != view) * PER_SIDE + within) as u16
    };
    [
        seen(Color::BLACK, offsets[0]),
        seen(Color::WHITE, offsets[1]),
    ]
}

/// Every input `position` turns on, in both views, for a net of `buckets` king buckets.
fn pieces(position: &Position, buckets: usize) -> impl Iterator<Item = [u16; 2]> + '_ {
    let offsets = offsets(position, buckets);
    let board = (0..81).filter_map(move |index| {
        let square = Square::from_index(index);
        let piece = position.piece_on(square);
        (piece != Piece::NONE).then(|| on_board(offsets, piece.color(), piece.piece_type(), square))
    });
    let hands = [Color::BLACK, Color::WHITE]
        .into_iter()
        .flat_map(move |color| {
            let hand = position.hand(color);
            HandPiece::iter().flat_map(move |piece| {
                // A set's count at most: a position Sente accepts holds no more.
                let held = hand.count(piece).min(IN_A_SET[piece.to_index()]);
                (1..=held).map(move |nth| in_hand(offsets, color, piece, nth))
            })
        });
    board.chain(hands)
}

/// The sums of `position`'s inputs, computed afresh.
pub fn of(network: &Network, position: &Position) -> Accumulator {
    Accumulator::of(network, pieces(position, network.buckets()))
}

/// Side `view`'s sums of `position` (0 for Sente), computed afresh: after a move that
/// refreshes it ([`Changes::refreshed`]).
pub fn side_of(network: &Network, position: &Position, view: usize) -> [i16; HIDDEN] {
    Accumulator::side_of(
        network,
        pieces(position, network.buckets()).map(|seen| seen[view]),
    )
}

/// What `mv` changes, made in `position` (before it is made), for `network`'s inputs.
pub fn changes(network: &Network, position: &Position, mv: Move32) -> Changes {
    let us = position.turn();
    let offsets = offsets(position, network.buckets());
    let mut changes = Changes::NONE;
    let to = mv.to_sq();
    if let Some(dropped) = mv.dropped_piece() {
        let piece = HandPiece::from_piece_type(dropped).expect("a piece that can be in hand");
        let nth = position.hand(us).count(piece);
        if nth <= IN_A_SET[piece.to_index()] {
            changes.turn_off(in_hand(offsets, us, piece, nth));
        }
        changes.turn_on(on_board(offsets, us, dropped, to));
        return changes;
    }
    let from = mv.from_sq();
    let mover = position.piece_on(from).piece_type();
    if mover == PieceType::KING && network.buckets() > 1 && bucket(us, from) != bucket(us, to) {
        changes.refresh(us.to_index());
    }
    changes.turn_off(on_board(offsets, us, mover, from));
    changes.turn_on(on_board(
        offsets,
        us,
        mv.piece_after_move().piece_type(),
        to,
    ));
    let victim = position.piece_on(to);
    if victim != Piece::NONE {
        changes.turn_off(on_board(offsets, victim.color(), victim.piece_type(), to));
        // A captured piece goes to the hand unpromoted.
        if let Some(piece) = HandPiece::from_piece_type(victim.base_piece_type()) {
            let nth = position.hand(us).count(piece) + 1;
            if nth <= IN_A_SET[piece.to_index()] {
                changes.turn_on(in_hand(offsets, us, piece, nth));
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

    /// Plays `games` random games of at most `plies` plies, calling `each` with every
    /// position before its move, the move, and the position after it.
    fn random_games(
        seed: u64,
        games: usize,
        plies: usize,
        mut each: impl FnMut(&Position, Move32, &Position),
    ) {
        let mut rng = SearchRng::seed_from_u64(seed);
        for _ in 0..games {
            let mut position = hirate_position();
            for _ in 0..plies {
                let mut moves = Move32List::new();
                generate_moves_move32::<Legal>(&position, &mut moves);
                if moves.is_empty() {
                    break;
                }
                let mv = moves.as_slice()[rng.random_range(0..moves.len())];
                let before = position.clone();
                position.apply_move32(mv);
                each(&before, mv, &position);
            }
        }
    }

    #[test]
    fn sums_kept_move_by_move_are_the_sums_computed_afresh() {
        let mut rng = SearchRng::seed_from_u64(7);
        for buckets in [1, KING_BUCKETS] {
            let network = Network::random_in(&mut rng, buckets);
            assert_eq!(network.buckets(), buckets);
            let (mut drops, mut captures, mut promotions, mut refreshes) = (0, 0, 0, 0);
            let mut stack = Stack::new(of(&network, &hirate_position()), 400);
            let mut ply = 0;
            random_games(7, 40, 300, |before, mv, after| {
                if before.game_ply() == hirate_position().game_ply() {
                    stack = Stack::new(of(&network, before), 400);
                    ply = 0;
                }
                drops += usize::from(mv.is_drop());
                promotions += usize::from(mv.is_promotion());
                captures +=
                    usize::from(!mv.is_drop() && before.piece_on(mv.to_sq()) != Piece::NONE);
                let changes = changes(&network, before, mv);
                stack.push(ply + 1, changes);
                ply += 1;
                if let Some(view) = changes.refreshed() {
                    refreshes += 1;
                    assert_eq!(view, before.turn().to_index());
                    stack.refresh(ply, view, side_of(&network, after, view));
                }
                // Every other ply, so that the stack also brings two plies up at once.
                if ply % 2 == 0 {
                    let kept = *stack.at(&network, ply);
                    assert_eq!(kept, of(&network, after), "{}", mv.to_usi());
                    assert_eq!(pieces(after, buckets).count(), 40);
                }
            });
            assert!(drops > 100 && captures > 100 && promotions > 10);
            // Only a net with buckets refreshes, and random kings wander across them.
            assert_eq!(refreshes > 100, buckets > 1, "{refreshes}");
        }
    }

    #[test]
    fn a_net_gone_on_with_buckets_starts_as_the_net_it_was() {
        let network = Network::random(&mut SearchRng::seed_from_u64(3));
        let copied: Network =
            nnue::train::going_on_from(&network.to_bytes(), KING_BUCKETS).unwrap();
        assert_eq!(copied.buckets(), KING_BUCKETS);
        assert_eq!(Network::read(&copied.to_bytes()).unwrap(), copied);
        assert_eq!(copied.to_bytes().len(), Network::file_bytes(KING_BUCKETS));
        let mut positions = 0;
        random_games(5, 10, 200, |_, _, after| {
            assert_eq!(
                evaluate_with(&copied, after),
                evaluate_with(&network, after)
            );
            positions += 1;
        });
        assert!(positions > 1_000);
        // A file of any other length is refused in words that say what is read.
        let error = Network::read(&copied.to_bytes()[..Network::file_bytes(2)])
            .unwrap_err()
            .to_string();
        assert!(error.contains("in 6 king buckets"), "{error}");
    }

    /// The inputs as the module's comment defines them, read from the position's SFEN text
    /// one character at a time and nothing of the crate's but the text, for a net of
    /// `buckets` king buckets: Sente's view, then Gote's, sorted.
    fn inputs_from_the_sfen(sfen: &str, buckets: usize) -> [Vec<u16>; 2] {
        // The crate's piece types in their order (YaneuraOu's): the unpromoted, the king,
        // then the promoted; a hand's pieces in theirs.
        const TYPES: [&str; 14] = [
            "P", "L", "N", "S", "B", "R", "G", "K", "+P", "+L", "+N", "+S", "+B", "+R",
        ];
        const HAND: [char; 7] = ['P', 'L', 'N', 'S', 'B', 'R', 'G'];
        let mut fields = sfen.split(' ');
        let (board, _turn, hands) = (fields.next().unwrap(), fields.next(), fields.next());
        // Each side's king's bucket as that side sees the board: Sente's king on file f and
        // rank r (1 to 9) is on file 10 - f and rank 10 - r as Gote sees its own; files in
        // threes, and the camp is the three ranks nearest the side (7 to 9 as it sees them).
        let mut kings = [(5, 9), (5, 9)];
        for (rank, row) in board.split('/').enumerate() {
            let mut file = 10;
            for c in row.chars() {
                match c.to_digit(10) {
                    Some(empty) => file -= empty as usize,
                    None if c == '+' => {}
                    None => {
                        file -= 1;
                        match c {
                            'K' => kings[0] = (file, rank + 1),
                            'k' => kings[1] = (10 - file, 9 - rank),
                            _ => {}
                        }
                    }
                }
            }
        }
        let offsets = kings.map(|(file, rank)| {
            let bucket = (file - 1) / 3 * 2 + usize::from(rank <= 6);
            if buckets == 1 { 0 } else { bucket * INPUTS }
        });
        let mut views = [Vec::new(), Vec::new()];
        let mut add = |gote_piece: bool, within_for: &dyn Fn(bool) -> usize| {
            for (view, inputs) in views.iter_mut().enumerate() {
                let view_is_gote = view == 1;
                let theirs = gote_piece != view_is_gote;
                inputs.push(
                    (offsets[view] + usize::from(theirs) * PER_SIDE + within_for(view_is_gote))
                        as u16,
                );
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

    /// The SFEN's board mirrored left to right: each rank's squares (a piece with its `+`)
    /// in the other order.
    fn mirrored_sfen(sfen: &str) -> String {
        let (board, rest) = sfen.split_once(' ').unwrap();
        let ranks: Vec<String> = board
            .split('/')
            .map(|row| {
                let mut squares: Vec<String> = Vec::new();
                let mut promoted = false;
                for c in row.chars() {
                    if c == '+' {
                        promoted = true;
                    } else {
                        squares.push(if promoted {
                            format!("+{c}")
                        } else {
                            c.to_string()
                        });
                        promoted = false;
                    }
                }
                squares.reverse();
                squares.concat()
            })
            .collect();
        format!("{} {rest}", ranks.join("/"))
    }

    #[test]
    fn the_inputs_are_those_the_sfen_reads_as_on_random_positions() {
        let (mut checked, mut promoted, mut in_hand, mut buckets_seen) = (0, 0, 0, [0; 6]);
        random_games(11, 30, 200, |_, _, position| {
            let sfen = position.to_sfen(None);
            for buckets in [1, KING_BUCKETS] {
                let mut sente: Vec<u16> =
                    pieces(position, buckets).map(|[sente, _]| sente).collect();
                let mut gote: Vec<u16> = pieces(position, buckets).map(|[_, gote]| gote).collect();
                sente.sort_unstable();
                gote.sort_unstable();
                assert_eq!(
                    [sente, gote],
                    inputs_from_the_sfen(&sfen, buckets),
                    "{sfen}"
                );
                // As a training line reads them: both views, each as its side sees it.
                let mut read = Vec::new();
                let sente_to_move = ShogiFeatures::read_views(&sfen, buckets, &mut read).unwrap();
                assert_eq!(sente_to_move, position.turn() == Color::BLACK);
                let (first, second) = read.split_at_mut(40);
                first.sort_unstable();
                second.sort_unstable();
                assert_eq!(
                    [first.to_vec(), second.to_vec()],
                    inputs_from_the_sfen(&sfen, buckets)
                );
                // Mirrored inputs are the mirrored position's, buckets and all.
                let mut mirrored: Vec<u16> = read
                    .iter()
                    .map(|&input| ShogiFeatures::mirror(input, buckets))
                    .collect();
                mirrored[..40].sort_unstable();
                mirrored[40..].sort_unstable();
                let [sente, gote] = inputs_from_the_sfen(&mirrored_sfen(&sfen), buckets);
                assert_eq!(mirrored, [sente, gote].concat(), "{sfen}");
            }
            for view in 0..2 {
                buckets_seen[offsets(position, KING_BUCKETS)[view] / INPUTS] += 1;
            }
            checked += 1;
            promoted += usize::from(sfen.split(' ').next().unwrap().contains('+'));
            in_hand += usize::from(!sfen.contains(" - "));
        });
        assert!(checked > 3_000 && promoted > 500 && in_hand > 2_000);
        assert!(
            buckets_seen.iter().all(|&seen| seen > 50),
            "{buckets_seen:?}"
        );
    }

    #[test]
    fn gote_sees_the_board_turned_round_with_the_sides_swapped() {
        let position = hirate_position();
        for [sente, gote] in pieces(&position, 1) {
            assert_eq!(ShogiFeatures::flip(sente), gote);
            assert_eq!(ShogiFeatures::flip(gote), sente);
            assert_eq!(
                ShogiFeatures::mirror(ShogiFeatures::mirror(sente, 1), 1),
                sente
            );
        }
        // The start is the same to both sides; mirrored, only the rooks and bishops change
        // places.
        let mut sente: Vec<u16> = pieces(&position, 1).map(|[sente, _]| sente).collect();
        let mut mirrored: Vec<u16> = sente
            .iter()
            .map(|&input| ShogiFeatures::mirror(input, 1))
            .collect();
        let mut gote: Vec<u16> = pieces(&position, 1).map(|[_, gote]| gote).collect();
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

    /// A few seconds of training with king buckets, going on from a net without them: the
    /// loss falls, the buckets learn apart, the file is a net of buckets that goes on as one,
    /// and a count the game has no buckets of is refused in words.
    #[test]
    fn a_tiny_training_run_learns_in_king_buckets() {
        let directory =
            std::env::temp_dir().join(format!("sente-shogi-buckets-{}", std::process::id()));
        std::fs::create_dir_all(&directory).unwrap();
        let data = directory.join("positions.txt");
        let mut lines = String::new();
        random_games(13, 40, 100, |_, _, after| {
            let score = super::super::evaluation::material(after);
            lines.push_str(&format!("{} | {score} | 0.5\n", after.to_sfen(None)));
        });
        std::fs::write(&data, lines).unwrap();
        let train = |from: Option<&str>, buckets: Option<usize>, output: &str| {
            let mut options =
                crate::learn::TrainingOptions::new(vec![data.clone()], directory.join(output));
            options.epochs = 3;
            options.batch = 64;
            options.threads = 2;
            options.from = from.map(|from| directory.join(from));
            options.king_buckets = buckets;
            super::train(&options, &mut |_| {})
        };
        train(None, None, "plain.nnue").unwrap();
        let report = train(Some("plain.nnue"), Some(KING_BUCKETS), "buckets.nnue").unwrap();
        let training = &report.training_loss;
        assert!(training[2] < training[0], "{training:?}");
        let bytes = std::fs::read(directory.join("buckets.nnue")).unwrap();
        assert_eq!(bytes.len(), Network::file_bytes(KING_BUCKETS));
        let network = Network::read(&bytes).unwrap();
        let differing = (0..INPUTS)
            .filter(|&input| network.w1[input] != network.w1[INPUTS + input])
            .count();
        assert!(differing > 100, "{differing}");
        // Going on, the net keeps its buckets; it cannot lose them.
        train(Some("buckets.nnue"), None, "again.nnue").unwrap();
        let again = std::fs::read(directory.join("again.nnue")).unwrap();
        assert_eq!(again.len(), bytes.len());
        let error = train(Some("buckets.nnue"), Some(1), "lost.nnue").unwrap_err();
        assert!(error.to_string().contains("goes on with 6"), "{error}");
        let error = train(None, Some(5), "five.nnue").unwrap_err();
        assert!(error.to_string().contains("1 or 6"), "{error}");
        std::fs::remove_dir_all(&directory).unwrap();
    }

    /// `sente learn --king-buckets 6` on shogi: the run's candidate is a net of buckets gone on
    /// from the shipped one without them, and its SPRT plays it against that best; a count
    /// shogi has no buckets of is refused before any game is played.
    #[test]
    fn a_learning_runs_candidates_read_king_buckets() {
        use crate::learn::run::{Learning, Settings, steps::Quiet};
        let dir = std::env::temp_dir().join(format!("sente-shogi-learn-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut settings = Settings::defaults("shogi", false).unwrap();
        (settings.games, settings.pieces, settings.nodes) = (8, 2, 200);
        (settings.epochs, settings.learning_rate) = (1, 0.001);
        settings.sprt.knobs = "nodes=200".into();
        (settings.sprt.games, settings.sprt.piece_games) = (4, 2);
        let mut five = settings.clone();
        five.king_buckets = Some(5);
        let error = Learning::open(&dir, Some(five), 2)
            .err()
            .unwrap()
            .to_string();
        assert!(error.contains("(6), got 5"), "{error}");
        assert!(!dir.exists(), "nothing written for settings refused");
        settings.king_buckets = Some(KING_BUCKETS);
        let learning = Learning::open(&dir, Some(settings), 2).unwrap();
        let rows = learning.run(1, &Quiet).unwrap();
        assert!(rows[0].sprt.as_ref().is_some_and(|sprt| sprt.games > 0));
        let candidate = std::fs::read(learning.weights(1)).unwrap();
        assert_eq!(candidate.len(), Network::file_bytes(KING_BUCKETS));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
