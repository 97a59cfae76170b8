//! Gomoku's evaluation: the threats each side has, for the side to move minus its opponent.
//!
//! Every maximal run of one side's stones along a line is a threat as long as it is and as
//! open as its ends are (an end is open when the cell beyond it is empty): an open four wins
//! next move whatever the opponent does, a closed four or an open three forces a reply, and so
//! on down. The side to move is worth more of the same threat, since it moves first: a four
//! of its own wins at once, where the opponent's four only forces a block.
//!
//! Each stone also counts for its nearness to the centre, a little: a lone stone in the open
//! has the same threats anywhere, so without it a search that sees no threat yet plays as far
//! from the game as it can (the first cell it tries, by the corner). Near the centre, a stone
//! has more lines to build on and stays in the play.

use super::{DIRECTIONS, Gomoku, SIZE, has, index, step};
use crate::game::{Player, Rules};

/// The worth of a run of `length` stones with `open` open ends (0, 1 or 2).
fn worth(length: usize, open: usize) -> f64 {
    match (length, open) {
        (5.., _) => 100_000.0,
        (4, 2) => 10_000.0,
        (4, 1) | (3, 2) => 1_000.0,
        (3, 1) | (2, 2) => 100.0,
        (2, 1) => 10.0,
        (1, 2) => 1.0,
        _ => 0.0,
    }
}

/// The worth of a stone for each ring it stands in from the edge: 3.5 at the centre, less
/// than an open two (100) or a closed two (10) in all.
const CENTRE: f64 = 0.5;

/// The threats of `player`: the worth of each of its runs along every line, and of each stone's
/// nearness to the centre.
fn side(game: &Gomoku, player: Player) -> f64 {
    let own = &game.stones[index(player)];
    let empty = game.empty();
    let mut total = 0.0;
    for cell in 0..SIZE * SIZE {
        if !has(own, cell) {
            continue;
        }
        let (row, column) = (cell / SIZE, cell % SIZE);
        let ring = row.min(column).min(SIZE - 1 - row).min(SIZE - 1 - column);
        total += CENTRE * ring as f64;
        for &direction in &DIRECTIONS {
            // Each run is counted once, from its first stone.
            let before = step(row, column, direction, -1);
            if before.is_some_and(|before| has(own, before)) {
                continue;
            }
            let length = (1..)
                .map_while(|steps| step(row, column, direction, steps))
                .take_while(|&next| has(own, next))
                .count()
                + 1;
            let after = step(row, column, direction, length as isize);
            let open = [before, after]
                .into_iter()
                .filter(|end| end.is_some_and(|end| has(&empty, end)))
                .count();
            total += worth(length, open);
        }
    }
    total
}

/// The position for the side to move, strictly inside (-1, 1).
pub(super) fn threats(game: &Gomoku) -> f64 {
    let me = game.side_to_move();
    // Moving first: my threats count for more than the same threats of the opponent.
    let value = 1.5 * side(game, me) - side(game, me.opponent());
    value / (value.abs() + 2_000.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Notation;

    fn play(moves: &[&str]) -> Gomoku {
        let mut game = Gomoku::start();
        for written in moves {
            game = game.play(game.read_move(&Notation::Text((*written).into())).unwrap());
        }
        game
    }

    #[test]
    fn an_open_four_outweighs_a_closed_one_and_threes_outweigh_twos() {
        // X to move in each: X's run on row 8 against O's scattered stones.
        let open_four = play(&["d8", "a1", "e8", "c1", "f8", "e1", "g8", "g1"]);
        let closed_four = play(&["d8", "c8", "e8", "c1", "f8", "e1", "g8", "g1"]);
        let open_three = play(&["d8", "a1", "e8", "c1", "f8", "e1"]);
        let open_two = play(&["d8", "a1", "e8", "c1"]);
        let values: Vec<f64> = [open_four, closed_four, open_three, open_two]
            .iter()
            .map(threats)
            .collect();
        assert!(
            values.windows(2).all(|pair| pair[0] > pair[1]),
            "{values:?}"
        );
        assert!(values.iter().all(|value| value.abs() < 1.0), "{values:?}");
    }

    #[test]
    fn a_stone_near_the_centre_is_worth_more_than_one_by_the_edge() {
        // O's reply to h8: beside X's stone, it blocks a line and stays in the play; by the
        // corner, it has as many open lines but is out of the game. X, to move, is better off
        // after the second.
        let beside = play(&["h8", "g9"]);
        let corner = play(&["h8", "b14"]);
        assert!(threats(&beside) < threats(&corner));
    }

    #[test]
    fn the_same_threats_favour_the_side_to_move() {
        // The empty board is even; one stone each is even but for the move.
        assert_eq!(threats(&Gomoku::start()), 0.0);
        let game = play(&["h8", "a1"]);
        assert!(threats(&game) > 0.0);
    }
}
