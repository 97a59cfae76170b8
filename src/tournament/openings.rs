//! Where a tournament's games start: openings the request lists (positions, or moves from a
//! position, which engines that cannot be given a position are told move by move), or openings drawn from the
//! tournament's seed, a few random plies from the start that the game's own evaluation finds
//! near equal. Either way pair `k` (games `2k` and `2k + 1`) plays one opening, with each
//! player first once, and which one depends only on (seed, `k`).

use rand::{RngExt, SeedableRng};
use serde::{Deserialize, Serialize};

use crate::game::Game;
use crate::search::{self, AlphaBetaParams, Budget, SearchRng, Solve, Strategy, seed};

use super::score_units;

/// The openings of a tournament.
#[derive(Clone, Debug)]
pub enum Openings<G: Game> {
    /// Pair `k` plays opening `k mod n`.
    Listed(Vec<Opening<G>>),
    /// Pair `k` plays an opening drawn for it.
    Random(RandomOpenings),
}

/// Openings of `random_plies` random plies from the start (or, with `random_plies_max`, a number
/// drawn for each opening between the two), kept when a shallow search scores them within
/// `balanced` of equal (in [`score_units`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RandomOpenings {
    pub random_plies: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub random_plies_max: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub balanced: Option<i32>,
    /// Each game its own opening, not each pair: for self-play, where one player on both sides
    /// of a pair's opening would play the same game twice (`sente learn`'s; requests pair).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub per_game: bool,
}

/// How deep the balance of a drawn opening is judged: deep enough to see a piece hanging, cheap
/// beside the games played from it.
pub const BALANCE_DEPTH: u32 = 2;

/// Draws for an opening before the most balanced one drawn is taken instead of a balanced one.
pub const DRAWS: u64 = 100;

/// A game's starting point.
#[derive(Clone, Debug)]
pub struct Opening<G: Game> {
    /// The position the players start from.
    pub position: G,
    /// The position the opening's moves start from, and the moves; none for a position
    /// listed without moves.
    pub base: G,
    pub moves: Vec<G::Move>,
}

impl<G: Game> Opening<G> {
    /// An opening at `position`, with no moves of its own.
    pub fn at(position: G) -> Opening<G> {
        Opening {
            base: position.clone(),
            position,
            moves: Vec::new(),
        }
    }

    /// The opening of `moves` played from `base`.
    pub fn after(base: G, moves: Vec<G::Move>) -> Opening<G> {
        let position = moves.iter().fold(base.clone(), |game, &mv| game.play(mv));
        Opening {
            position,
            base,
            moves,
        }
    }
}

impl<G: Solve> Openings<G> {
    /// Whether each game draws its own opening ([`RandomOpenings::per_game`]).
    pub fn per_game(&self) -> bool {
        matches!(self, Openings::Random(random) if random.per_game)
    }

    /// The opening of pair `pair` in a tournament seeded `seed`.
    pub fn for_pair(&self, seed: u64, pair: u64) -> Opening<G> {
        self.for_pair_within(seed, pair, &Budget::unlimited())
            .expect("an unlimited budget never runs out")
    }

    /// [`Openings::for_pair`], or `None` if `budget` runs out while an opening is drawn (the
    /// searches that judge its balance look at it).
    pub fn for_pair_within(&self, seed: u64, pair: u64, budget: &Budget) -> Option<Opening<G>> {
        match self {
            Openings::Listed(openings) => {
                Some(openings[(pair % openings.len() as u64) as usize].clone())
            }
            Openings::Random(random) => {
                random.draw(seed::derive(seed ^ OPENINGS_STREAM, pair), budget)
            }
        }
    }

    /// How many distinct openings the tournament plays from, when it is a list.
    pub fn listed(&self) -> Option<usize> {
        match self {
            Openings::Listed(openings) => Some(openings.len()),
            Openings::Random(_) => None,
        }
    }
}

/// Sets the openings' seeds apart from the games' (which derive from the same tournament seed
/// by game index).
const OPENINGS_STREAM: u64 = 0x6f70_656e_696e_6773;

impl RandomOpenings {
    fn draw<G: Solve>(&self, seed: u64, budget: &Budget) -> Option<Opening<G>> {
        let mut best: Option<(i32, Opening<G>)> = None;
        for attempt in 0..DRAWS {
            if budget.is_due() {
                return None;
            }
            let mut rng = SearchRng::seed_from_u64(seed::derive(seed, attempt));
            let base = G::start();
            let mut position = base.clone();
            let mut moves = Vec::new();
            // A range varies how far from the start the games begin, as training data wants;
            // a fixed number draws nothing here, so its openings stay what they were.
            let plies = match self.random_plies_max {
                Some(most) if most > self.random_plies => {
                    rng.random_range(self.random_plies..=most)
                }
                _ => self.random_plies,
            };
            while moves.len() < plies as usize && !position.outcome().is_over() {
                let legal = position.legal_moves();
                let pick = rng.random_range(0..legal.len());
                let mv = position
                    .legal_moves()
                    .nth(pick)
                    .expect("pick < legal moves");
                moves.push(mv);
                position = position.play(mv);
            }
            if position.outcome().is_over() {
                continue;
            }
            let imbalance = match self.balanced {
                None => 0,
                Some(_) => {
                    let judge = Strategy::alphabeta(AlphaBetaParams::textbook(Some(BALANCE_DEPTH)));
                    let result =
                        search::search_within(&position, &judge, 0, budget).expect("in progress");
                    if budget.is_due() {
                        return None;
                    }
                    score_units::<G>(result.score).abs()
                }
            };
            let opening = Opening {
                position,
                base,
                moves,
            };
            if self.balanced.is_none_or(|margin| imbalance <= margin) {
                return Some(opening);
            }
            if best.as_ref().is_none_or(|(least, _)| imbalance < *least) {
                best = Some((imbalance, opening));
            }
        }
        Some(match best {
            Some((_, opening)) => opening,
            // Every draw ended the game: a game too short for this many random plies.
            None => Opening {
                position: G::start(),
                base: G::start(),
                moves: Vec::new(),
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Rules;
    use crate::games::{Chess, ConnectFour};

    #[test]
    fn drawn_openings_depend_on_seed_and_pair_only_and_are_balanced() {
        let openings = Openings::<Chess>::Random(RandomOpenings {
            random_plies: 6,
            random_plies_max: None,
            balanced: Some(100),
            per_game: false,
        });
        let first = openings.for_pair(7, 0);
        assert_eq!(first.moves.len(), 6);
        assert_eq!(first.position.ply(), 6);
        assert_eq!(first.position, openings.for_pair(7, 0).position);
        assert_ne!(first.position, openings.for_pair(7, 1).position);
        assert_ne!(first.position, openings.for_pair(8, 0).position);
        for pair in 0..10 {
            let opening = openings.for_pair(7, pair);
            let judge = Strategy::alphabeta(AlphaBetaParams::textbook(Some(BALANCE_DEPTH)));
            let score = search::search(&opening.position, &judge, 0).unwrap().score;
            assert!(score_units::<Chess>(score).abs() <= 100, "pair {pair}");
            // The moves lead from the base to the position.
            let replayed = opening
                .moves
                .iter()
                .fold(opening.base.clone(), |p, &m| p.play(m));
            assert_eq!(replayed, opening.position);
        }
    }

    #[test]
    fn a_range_of_plies_draws_each_openings_length_within_it() {
        let openings = Openings::<Chess>::Random(RandomOpenings {
            random_plies: 8,
            random_plies_max: Some(12),
            balanced: None,
            per_game: false,
        });
        let lengths: std::collections::BTreeSet<usize> = (0..40)
            .map(|pair| openings.for_pair(3, pair).moves.len())
            .collect();
        assert_eq!(lengths, (8..=12).collect());
    }

    #[test]
    fn listed_openings_go_round() {
        let positions = [ConnectFour::start(), ConnectFour::start().play(3)];
        let openings = Openings::Listed(vec![
            Opening::at(positions[0]),
            Opening::after(positions[0], vec![3]),
        ]);
        assert_eq!(openings.for_pair(1, 3).position, positions[1]);
        assert_eq!(openings.for_pair(1, 3).moves, [3]);
        assert_eq!(openings.for_pair(1, 4).position, positions[0]);
    }
}
