//! Othello's evaluations, apart from its rules.
//!
//! `positional` is the classic one that tutorials teach: a weight for each square, the side to
//! move's discs counting for it and the opponent's against. Corners can never be turned over
//! and anchor the edges, so they are worth most; the squares next to them (the C-squares on
//! the edges, the X-squares diagonally inside) hand a corner to the opponent and are worth
//! least; the other edge squares are good, the centre neutral. The weights are those of
//! Peter Norvig's Othello chapter in "Paradigms of Artificial Intelligence Programming".
//!
//! `mobility` is what stronger programs learnt to value instead of squares: the moves each
//! side has (a player short of moves must soon give up corners), the empty squares next to the
//! opponent's discs (the moves it will have: fewer discs on the frontier is better), corners,
//! the X- and C-squares beside an empty corner, discs that can never be turned over, the disc
//! count and who gets the last move. What each is worth changes as the board fills (discs count
//! against a player in the opening and are all that counts at the end), so each stage of the
//! game has its own weights, fitted by Sente from its own games: `cargo run --release
//! --features examples --example fit-othello` plays them, labels each position with the game's final disc difference (the last
//! 14 empties solved exactly) and fits the weights by least squares; it prints the table below.
use super::{Othello, bits};
use crate::game::Evaluation;

pub const EVALUATIONS: &[Evaluation<Othello>] = &[
    Evaluation {
        name: "positional",
        description: "A weight for each square, the side to move's discs counting for it and \
                      the opponent's against: corners 120, edges 20 or 5, the centre 3 or -5, \
                      the squares beside a corner -20 (on the edge) and -40 (inside).",
        evaluate: positional,
    },
    Evaluation {
        name: "mobility",
        description: "Moves, frontier, corners, the squares beside empty corners, stable discs, \
                      discs and parity, each side's counted, weighted by the stage of the game \
                      (weights fitted by Sente from its own games).",
        evaluate: mobility,
    },
    Evaluation {
        name: "patterns",
        description: "The final disc difference a pattern evaluation expects: 46 windows of \
                      the board in 11 shapes, a weight per configuration per stage of the game, \
                      learnt by Sente from its own games (docs/othello.md).",
        evaluate: patterns,
    },
];

/// The weight of each square, A1 to H8.
#[rustfmt::skip]
pub const WEIGHTS: [i32; 64] = [
    120, -20,  20,   5,   5,  20, -20, 120,
    -20, -40,  -5,  -5,  -5,  -5, -40, -20,
     20,  -5,  15,   3,   3,  15,  -5,  20,
      5,  -5,   3,   3,   3,   3,  -5,   5,
      5,  -5,   3,   3,   3,   3,  -5,   5,
     20,  -5,  15,   3,   3,  15,  -5,  20,
    -20, -40,  -5,  -5,  -5,  -5, -40, -20,
    120, -20,  20,   5,   5,  20, -20, 120,
];

/// The weighted sum of the side to move's discs minus the opponent's.
pub fn weighted(game: &Othello) -> i32 {
    let (mine, theirs) = game.sides();
    crate::game::Bits(mine)
        .map(|square| WEIGHTS[usize::from(square)])
        .sum::<i32>()
        - crate::game::Bits(theirs)
            .map(|square| WEIGHTS[usize::from(square)])
            .sum::<i32>()
}

/// [`weighted`] mapped into (-1, 1): a corner's worth is about a third of the way.
fn positional(game: &Othello) -> f64 {
    let value = f64::from(weighted(game));
    value / (value.abs() + 240.0)
}

/// The index of `mobility` in [`EVALUATIONS`].
pub const MOBILITY: u8 = 1;

/// What [`features`] measures, in its order.
pub const FEATURE_NAMES: [&str; FEATURES] = [
    "mobility",
    "frontier",
    "corners",
    "x_squares",
    "c_squares",
    "stable",
    "discs",
    "parity",
    "tempo",
];
pub const FEATURES: usize = 9;

/// The corners, and the X-square and the two C-squares beside each.
const CORNERS: [(u64, u64, u64); 4] = [
    (1 << 0, 1 << 9, (1 << 1) | (1 << 8)),
    (1 << 7, 1 << 14, (1 << 6) | (1 << 15)),
    (1 << 56, 1 << 49, (1 << 48) | (1 << 57)),
    (1 << 63, 1 << 54, (1 << 55) | (1 << 62)),
];
const CORNER_SQUARES: u64 = 0x8100_0000_0000_0081;

/// The features of a position with `mover` to move against `other`, each the mover's count
/// less the opponent's (so that the position seen from the other side negates them), except
/// `parity` (1 when the empty squares are odd: the mover would play last if nobody passed)
/// and `tempo` (always 1: being the side to move).
pub fn features(mover: u64, other: u64) -> [i32; FEATURES] {
    let count = |discs: u64| discs.count_ones() as i32;
    let empty = !(mover | other);
    let mut x_squares = 0;
    let mut c_squares = 0;
    for (corner, x, c) in CORNERS {
        if empty & corner != 0 {
            x_squares |= x;
            c_squares |= c;
        }
    }
    [
        count(bits::moves(mover, other)) - count(bits::moves(other, mover)),
        // The empty squares beside the opponent's discs are the mover's future moves.
        count(bits::around(other) & empty) - count(bits::around(mover) & empty),
        count(mover & CORNER_SQUARES) - count(other & CORNER_SQUARES),
        count(mover & x_squares) - count(other & x_squares),
        count(mover & c_squares) - count(other & c_squares),
        count(bits::stable(mover, other)) - count(bits::stable(other, mover)),
        count(mover) - count(other),
        if count(empty) % 2 == 1 { 1 } else { -1 },
        1,
    ]
}

/// The stages of the game that have weights of their own, by the empty squares.
pub const STAGES: usize = 6;

/// The stage of a position with `empties` empty squares: ten empties a stage.
pub fn stage(empties: u32) -> usize {
    (empties as usize / 10).min(STAGES - 1)
}

/// The weight of each feature in each stage (0-9 empties first), in final discs: what one
/// more of it is worth to the mover in the disc difference at the end.
#[rustfmt::skip]
pub const WEIGHTS_BY_STAGE: [[f32; FEATURES]; STAGES] = [
    // 0-9 empties
    [3.516, -1.062, 0.286, -0.894, -1.415, 1.131, -0.124, 0.872, -0.278],
    // 10-19 empties
    [2.481, -0.390, 3.769, -4.127, -1.538, 1.166, -0.287, -0.446, -1.975],
    // 20-29 empties
    [1.522, 0.296, 7.080, -7.712, -0.935, 1.363, -0.447, -0.337, -2.536],
    // 30-39 empties
    [1.298, 0.378, 9.519, -11.875, -0.727, 1.994, -0.587, -0.374, -2.433],
    // 40-49 empties
    [0.849, 0.361, 10.653, -13.894, -2.408, 3.617, -0.812, -0.411, -2.408],
    // 50-59 empties
    [0.493, 0.113, 7.848, -13.698, -7.168, 8.083, -0.925, -0.595, -2.278],
];

/// The final disc difference that `mover`, to move against `other`, can expect: the features
/// weighted by their stage's weights.
pub fn expected_margin(mover: u64, other: u64) -> f32 {
    let weights = &WEIGHTS_BY_STAGE[stage((!(mover | other)).count_ones())];
    features(mover, other)
        .iter()
        .zip(weights)
        .map(|(&feature, weight)| feature as f32 * weight)
        .sum()
}

/// [`expected_margin`] mapped into (-1, 1).
fn mobility(game: &Othello) -> f64 {
    let (mover, other) = game.sides();
    score_of_discs(f64::from(expected_margin(mover, other)))
}

/// The index of `patterns` in [`EVALUATIONS`].
pub const PATTERNS: u8 = 2;

/// The pattern evaluation's expected margin mapped into (-1, 1).
fn patterns(game: &Othello) -> f64 {
    let (mover, other) = game.sides();
    score_of_discs(f64::from(super::patterns::expected_margin(mover, other)))
}

/// The lead in discs that a score maps to half way to a win.
const HALF_WAY: f64 = 16.0;

/// An expected final disc difference mapped into (-1, 1), the scale every search scores on:
/// a lead of 16 discs is half way.
pub fn score_of_discs(discs: f64) -> f64 {
    discs / (discs.abs() + HALF_WAY)
}

/// The disc difference a score stands for: [`score_of_discs`] undone, within the board's
/// ±64.
pub fn discs_of_score(score: f64) -> f64 {
    let score = score.clamp(-0.99, 0.99);
    (HALF_WAY * score / (1.0 - score.abs())).clamp(-64.0, 64.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Notation, Rules};

    #[test]
    fn the_weights_are_symmetric_and_corners_outweigh_their_neighbours() {
        for (square, weight) in WEIGHTS.iter().enumerate() {
            let (row, column) = (square / 8, square % 8);
            for image in [
                row * 8 + (7 - column),
                (7 - row) * 8 + column,
                column * 8 + row,
            ] {
                assert_eq!(*weight, WEIGHTS[image], "{square} {image}");
            }
        }
        assert!(WEIGHTS[0] > WEIGHTS[2] && WEIGHTS[2] > WEIGHTS[1] && WEIGHTS[1] > WEIGHTS[9]);
    }

    #[test]
    fn the_start_is_even_and_values_stay_inside_one() {
        let start = Othello::start();
        assert_eq!(positional(&start), 0.0);
        let after = start.play(start.read_move(&Notation::Text("d3".into())).unwrap());
        // White to move, a disc down, on squares worth 3 each: slightly worse.
        assert!(positional(&after) < 0.0 && positional(&after) > -0.1);
        // Black has the four corners and the centre; White to move is far behind.
        let mut cells = ["-"; 64];
        for square in [0, 7, 56, 63, 27, 28, 35, 36] {
            cells[square] = "X";
        }
        let corners: Othello = format!("{} O", cells.concat()).parse().unwrap();
        assert!(positional(&corners) < -0.6);
        assert!(positional(&corners).abs() < 1.0);
    }
}
