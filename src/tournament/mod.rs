//! Tournaments: many games between two configured players, as the classic tutorial evaluates
//! its algorithms.
//!
//! Game `i` starts from opening `(i / 2) % openings` (so each opening is played with both
//! colours), with player A moving first when `i` is even, and every random choice in it comes
//! from a seed derived from (tournament seed, `i`). A game's result therefore depends on
//! nothing but its index, so any split of the index range — across threads, across chunks on a
//! blocking pool, or across replicas — adds up to exactly the same totals.

pub mod statistics;

use std::ops::Range;

use serde::Serialize;

use crate::game::{Game, Outcome};
use crate::search::{self, Algorithm, Budget, Solve, Strategy, seed};
use statistics::{Pentanomial, Trinomial};

/// Which of the two players: A is `players[0]`, B is `players[1]`.
pub type Seat = usize;

/// A tournament's configuration.
#[derive(Clone, Debug)]
pub struct Tournament<G> {
    pub players: [Strategy; 2],
    pub seed: u64,
    /// The positions the games start from, each played twice, with either player first (the
    /// side to move in it); at least one.
    pub openings: Vec<G>,
    /// Plies after which a game still in progress is adjudicated a draw; `None` for none.
    pub max_plies: Option<usize>,
}

/// Wins, draws and losses.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Record {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

impl Record {
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    fn add(&mut self, other: &Record) {
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
    }
}

/// One player's raw totals over some games.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct PlayerTally {
    pub as_first: Record,
    pub as_second: Record,
    pub nodes: u64,
    pub moves: u64,
}

impl PlayerTally {
    /// The player's results, whichever side it played.
    pub fn total(&self) -> Record {
        let mut total = self.as_first;
        total.add(&self.as_second);
        total
    }
}

/// Both players' raw totals over some games; tallies of disjoint game ranges add up.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub games: u64,
    /// Games adjudicated a draw at the ply cap.
    pub capped: u64,
    pub players: [PlayerTally; 2],
    /// The pairs of games complete among these (games `2k` and `2k + 1`: one opening, each
    /// player first once), counted by A's points in the pair.
    pub pairs: Pentanomial,
    /// The games whose partner is not among these, as (index, A's half-points: 0, 1 or 2),
    /// by index: a range that splits a pair, or that a limit cut short, leaves them, and a
    /// merge pairs them up.
    pub unpaired: Vec<(u64, u8)>,
}

impl Tally {
    /// The totals of `parts`: the tallies of disjoint ranges of games add up to the tally of
    /// their union.
    pub fn merged<'a>(parts: impl IntoIterator<Item = &'a Tally>) -> Tally {
        let mut total = Tally::default();
        for part in parts {
            total.merge(part);
        }
        total
    }

    pub fn merge(&mut self, other: &Tally) {
        self.games += other.games;
        self.capped += other.capped;
        for (count, theirs) in self.pairs.0.iter_mut().zip(other.pairs.0) {
            *count += theirs;
        }
        for &(index, half_points) in &other.unpaired {
            self.add_game(index, half_points);
        }
        for (mine, theirs) in self.players.iter_mut().zip(&other.players) {
            mine.as_first.add(&theirs.as_first);
            mine.as_second.add(&theirs.as_second);
            mine.nodes += theirs.nodes;
            mine.moves += theirs.moves;
        }
    }
}

impl Tally {
    /// Counts game `index`, in which A scored `half_points` (a win 2, a draw 1): as half of a
    /// pair when its partner is already counted, else as unpaired until it comes.
    fn add_game(&mut self, index: u64, half_points: u8) {
        let partner = index ^ 1;
        match self
            .unpaired
            .binary_search_by_key(&partner, |&(index, _)| index)
        {
            Ok(at) => {
                let (_, theirs) = self.unpaired.remove(at);
                self.pairs.0[usize::from(half_points + theirs)] += 1;
            }
            Err(_) => {
                let at = self.unpaired.partition_point(|&(other, _)| other < index);
                self.unpaired.insert(at, (index, half_points));
            }
        }
    }

    /// A's results over these games: by pair when they are all paired, else game by game.
    pub fn moments(&self) -> statistics::Moments {
        if self.unpaired.is_empty() && self.pairs.pairs() > 0 {
            self.pairs.moments()
        } else {
            let a = self.players[0].total();
            Trinomial {
                losses: a.losses,
                draws: a.draws,
                wins: a.wins,
            }
            .moments()
        }
    }
}

/// How one game went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord<G: Game> {
    pub first: Seat,
    pub winner: Option<Seat>,
    /// Whether the ply cap ended the game (a draw).
    pub capped: bool,
    pub moves: Vec<G::Move>,
    pub nodes: [u64; 2],
}

impl<G: Solve> Tournament<G> {
    /// Plays game `index` to the end.
    pub fn play_game(&self, index: u64) -> GameRecord<G> {
        self.play_game_until(index, &Budget::unlimited())
            .expect("a game that is never stopped is played to the end")
    }

    /// Plays game `index`, giving it up (`None`) if `budget` runs out: its deadline and
    /// cancellation are checked between moves (a game of slow players can last far longer than
    /// one search) and inside every search, and its node limit holds for each search.
    pub fn play_game_until(&self, index: u64, budget: &Budget) -> Option<GameRecord<G>> {
        let first: Seat = if index.is_multiple_of(2) { 0 } else { 1 };
        let game_seed = seed::derive(self.seed, index);
        let opening = &self.openings[(index / 2 % self.openings.len() as u64) as usize];
        let first_side = opening.side_to_move();
        let mut game = opening.clone();
        let max_plies = self.max_plies.unwrap_or(usize::MAX);
        let mut moves = Vec::new();
        let mut nodes = [0; 2];
        if budget.is_due() {
            return None;
        }
        while !game.outcome().is_over() && moves.len() < max_plies {
            let seat = if game.side_to_move() == first_side {
                first
            } else {
                1 - first
            };
            let move_seed = seed::derive(game_seed, moves.len() as u64);
            let result = search::search_within(&game, &self.players[seat], move_seed, budget)
                .expect("the game is in progress");
            // Checked after every search rather than before: a move cut short by the deadline
            // or a cancellation is not the player's choice, so the game is given up rather
            // than counted with it.
            if budget.is_due() {
                return None;
            }
            nodes[seat] += result.nodes;
            moves.push(result.best_move);
            game = game.play(result.best_move);
        }
        let winner = match game.outcome() {
            Outcome::Won(side) if side == first_side => Some(first),
            Outcome::Won(_) => Some(1 - first),
            _ => None,
        };
        Some(GameRecord {
            first,
            winner,
            capped: !game.outcome().is_over(),
            moves,
            nodes,
        })
    }

    /// Plays the games whose indices are in `games` and adds up the results.
    pub fn play(&self, games: Range<u64>) -> Tally {
        self.play_until(games, &Budget::unlimited())
    }

    /// Plays the games in `games` in order until `budget` runs out (see
    /// [`Tournament::play_game_until`]):
    /// the tally then covers the games completed, a prefix of the range (see [`Tally::games`]);
    /// the game in progress is not counted.
    pub fn play_until(&self, games: Range<u64>, budget: &Budget) -> Tally {
        let mut tally = Tally::default();
        for index in games {
            let Some(record) = self.play_game_until(index, budget) else {
                break;
            };
            tally.games += 1;
            tally.capped += u64::from(record.capped);
            let half_points = match record.winner {
                Some(0) => 2,
                Some(_) => 0,
                None => 1,
            };
            tally.add_game(index, half_points);
            for seat in 0..2 {
                let player = &mut tally.players[seat];
                let count = if seat == record.first {
                    &mut player.as_first
                } else {
                    &mut player.as_second
                };
                match record.winner {
                    Some(winner) if winner == seat => count.wins += 1,
                    Some(_) => count.losses += 1,
                    None => count.draws += 1,
                }
                player.nodes += record.nodes[seat];
                let plies = record.moves.len() as u64;
                player.moves += if seat == record.first {
                    plies.div_ceil(2)
                } else {
                    plies / 2
                };
            }
        }
        tally
    }

    /// Plays the games in `games` on `threads` OS threads, in contiguous chunks.
    pub fn play_parallel(&self, games: Range<u64>, threads: usize) -> Tally
    where
        G: Sync,
    {
        let chunks = chunks(games, threads);
        std::thread::scope(|scope| {
            let handles: Vec<_> = chunks
                .into_iter()
                .map(|chunk| scope.spawn(move || self.play(chunk)))
                .collect();
            let tallies: Vec<Tally> = handles
                .into_iter()
                .map(|handle| handle.join().expect("a tournament thread panicked"))
                .collect();
            Tally::merged(&tallies)
        })
    }
}

/// Splits `games` into at most `parts` contiguous, non-empty ranges of near-equal length.
pub fn chunks(games: Range<u64>, parts: usize) -> Vec<Range<u64>> {
    let total = games.end.saturating_sub(games.start);
    let parts = (parts.max(1) as u64).min(total.max(1));
    (0..parts)
        .map(|part| games.start + total * part / parts..games.start + total * (part + 1) / parts)
        .filter(|range| !range.is_empty())
        .collect()
}

/// One player's results, as reported.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayerSummary {
    pub algorithm: Algorithm,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// A win is 1 point, a draw 0.5.
    pub points: f64,
    /// Points per game.
    pub score_rate: f64,
    /// 95% Wilson interval for the score rate.
    pub ci95: [f64; 2],
    pub as_first: Record,
    pub as_second: Record,
    pub nodes: u64,
    pub moves: u64,
    pub nodes_per_move: f64,
}

impl Tally {
    /// The report of both players.
    pub fn summary(&self, players: &[Strategy; 2]) -> [PlayerSummary; 2] {
        [0, 1].map(|seat| {
            let tally = &self.players[seat];
            let total = tally.total();
            let points = total.wins as f64 + 0.5 * total.draws as f64;
            let games = total.games();
            let score_rate = if games == 0 {
                0.0
            } else {
                points / games as f64
            };
            PlayerSummary {
                algorithm: players[seat].algorithm(),
                wins: total.wins,
                draws: total.draws,
                losses: total.losses,
                points,
                score_rate,
                ci95: wilson_interval(score_rate, games),
                as_first: tally.as_first,
                as_second: tally.as_second,
                nodes: tally.nodes,
                moves: tally.moves,
                nodes_per_move: if tally.moves == 0 {
                    0.0
                } else {
                    tally.nodes as f64 / tally.moves as f64
                },
            }
        })
    }
}

/// The 95% Wilson score interval for a rate `p` observed over `n` games.
///
/// Unlike the normal approximation it stays inside [0, 1] and does not collapse to a point
/// when every game was won. Draws count as half a win; treating the rate as a proportion then
/// slightly overstates the variance, so the interval errs on the wide side.
pub fn wilson_interval(p: f64, n: u64) -> [f64; 2] {
    if n == 0 {
        return [0.0, 1.0];
    }
    const Z: f64 = 1.959_963_984_540_054;
    let n = n as f64;
    let z2n = Z * Z / n;
    let centre = (p + z2n / 2.0) / (1.0 + z2n);
    let half = Z * (p * (1.0 - p) / n + z2n / (4.0 * n)).sqrt() / (1.0 + z2n);
    [(centre - half).max(0.0), (centre + half).min(1.0)]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::TicTacToe;

    #[test]
    fn chunks_cover_the_range_exactly() {
        assert_eq!(chunks(0..10, 3), vec![0..3, 3..6, 6..10]);
        assert_eq!(chunks(5..7, 4), vec![5..6, 6..7]);
        assert_eq!(chunks(3..3, 4), Vec::<Range<u64>>::new());
    }

    #[test]
    fn wilson_interval_contains_the_rate_and_stays_in_bounds() {
        let [low, high] = wilson_interval(0.5, 100);
        assert!(low < 0.5 && 0.5 < high);
        assert!((high - low - 0.192).abs() < 0.01, "{low}..{high}");
        let [low, high] = wilson_interval(1.0, 10);
        assert!(
            low > 0.6 && low < 1.0 && (high - 1.0).abs() < 1e-12,
            "{low}..{high}"
        );
    }

    #[test]
    fn alternates_the_first_player_and_splits_add_up() {
        let tournament = Tournament {
            players: [
                Strategy::Random,
                Strategy::Mcs {
                    playouts: 2,
                    time_limit: None,
                },
            ],
            seed: 42,
            openings: vec![TicTacToe::start()],
            max_plies: None,
        };
        assert_eq!(tournament.play_game(0).first, 0);
        assert_eq!(tournament.play_game(1).first, 1);
        let whole = tournament.play(0..40);
        let mut halves = tournament.play(0..17);
        halves.merge(&tournament.play(17..40));
        assert_eq!(whole, halves);
        assert_eq!(tournament.play_parallel(0..40, 3), whole);
        // Every game in a pair, whichever split; a split at an odd index leaves one game of a
        // pair on each side until they are merged.
        assert_eq!((whole.pairs.pairs(), whole.unpaired.len()), (20, 0));
        assert_eq!(tournament.play(0..17).unpaired.len(), 1);
        let merged = Tally::merged(&[tournament.play(27..40), tournament.play(0..27)]);
        assert_eq!(merged, whole);
        assert_eq!(whole.players[0].as_first.games(), 20);
        assert_eq!(whole.players[1].as_second.games(), 20);
    }
}
