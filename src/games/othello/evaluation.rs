//! Othello's evaluations, apart from its rules.
//!
//! `positional` is the classic one that tutorials teach: a weight for each square, the side to
//! move's discs counting for it and the opponent's against. Corners can never be turned over
//! and anchor the edges, so they are worth most; the squares next to them (the C-squares on
//! the edges, the X-squares diagonally inside) hand a corner to the opponent and are worth
//! least; the other edge squares are good, the centre neutral. The weights are those of
//! Peter Norvig's Othello chapter in "Paradigms of Artificial Intelligence Programming".

use super::Othello;
use crate::game::Evaluation;

pub const EVALUATIONS: &[Evaluation<Othello>] = &[Evaluation {
    name: "positional",
    description: "A weight for each square, the side to move's discs counting for it and the \
                  opponent's against: corners 120, edges 20 or 5, the centre 3 or -5, the \
                  squares beside a corner -20 (on the edge) and -40 (inside).",
    evaluate: positional,
}];

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, Notation};

    #[test]
    fn the_weights_are_symmetric_and_corners_outweigh_their_neighbours() {
        for (square, weight) in WEIGHTS.iter().enumerate() {
            let (row, column) = (square / 8, square % 8);
            for image in [row * 8 + (7 - column), (7 - row) * 8 + column, column * 8 + row] {
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
