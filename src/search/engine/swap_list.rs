//! The end of a static exchange evaluation, whatever the game: the swap list settled from its
//! last capture back to the first.
//!
//! A game's exchange (chess's, shogi's) plays the captures on one square, the least valuable
//! attacker first, and writes down each side's gain if the exchange stopped after its capture
//! (`gains[0]` the first capture's, `gains[depth]` the last's). Neither side has to go on: from
//! the end back, each takes the better of capturing and standing pat, and what is left in
//! `gains[0]` is the exchange's value to the side that began it.

/// Settles `gains[..=depth]` from the end, in place, and returns the exchange's value.
pub fn settle(gains: &mut [i32], mut depth: usize) -> i32 {
    while depth > 0 {
        gains[depth - 1] = -(-gains[depth - 1]).max(gains[depth]);
        depth -= 1;
    }
    gains[0]
}

#[cfg(test)]
mod tests {
    use super::settle;

    /// Values worked by hand, in pawns: each case's `gains` as a game's exchange writes them.
    #[test]
    fn each_side_stops_where_going_on_loses() {
        // A pawn takes a knight (3) and is taken back (1 - 3): a knight for a pawn, 2.
        assert_eq!(settle(&mut [3, -2], 1), 2);
        // A rook takes a pawn (1) that a pawn defends (5 - 1): a rook for a pawn, -4.
        assert_eq!(settle(&mut [1, 4], 1), -4);
        // A knight takes a knight (3), the recapture (3 - 3) would be taken again (3 - 0):
        // the defender stands pat, and the first side keeps the knight, 3.
        assert_eq!(settle(&mut [3, 0, 3], 2), 3);
        // Nothing takes back: what was taken.
        assert_eq!(settle(&mut [5], 0), 5);
    }
}
