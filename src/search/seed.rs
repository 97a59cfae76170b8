//! Seeds: drawing one, deriving independent seeds from one, and the generator they seed.

use rand::Rng;

/// The random number generator of every randomised algorithm: training's, seeded the same way
/// on every platform ([`crate::learn::SeededRng`]).
pub type SearchRng = crate::learn::SeededRng;

/// A fresh seed from the operating system's entropy, for callers that gave none.
///
/// It is kept below 2^53 so that JavaScript clients, whose numbers are doubles, can hold the
/// reported seed exactly and send it back.
pub fn draw() -> u64 {
    rand::rng().next_u64() >> 11
}

/// The seed of item `index` of a run seeded with `seed` (a game of a tournament, a move of a
/// game).
///
/// SplitMix64's finaliser scatters every input bit over the output, so neighbouring indices get
/// unrelated seeds, and the result depends on nothing but `(seed, index)`: not on which thread
/// plays the item, nor when.
pub fn derive(seed: u64, index: u64) -> u64 {
    let mut z = seed ^ index.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn derived_seeds_differ_and_repeat() {
        assert_eq!(derive(7, 3), derive(7, 3));
        assert_ne!(derive(7, 3), derive(7, 4));
        assert_ne!(derive(7, 3), derive(8, 3));
        assert_ne!(derive(0, 0), 0);
    }
}
