//! What a tournament's games came to, game by game, and the totals drawn from them.
//!
//! [`Results`] keeps each game's result under its index. Results of disjoint sets of games
//! merge into the results of their union whatever the split (threads, HTTP parts, shards on
//! other machines), and every total (each player's W/D/L, the pentanomial of game pairs, the
//! endings, the SPRT's state) is computed from them, so a merge adds up exactly.

use std::collections::BTreeMap;
use std::ops::Range;

use serde::{Deserialize, Serialize};

use super::statistics::{Moments, Pentanomial, Sprt, Trinomial, Verdict};
use crate::game::Notation;

/// Which of the two players: A is `players[0]`, B is `players[1]`.
pub type Seat = usize;

/// How a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ending {
    /// By the rules: a side won (a line, four in a row).
    Won,
    /// By the rules: a draw (a full board).
    Drawn,
    // Chess's rules, by name.
    Checkmate,
    Stalemate,
    InsufficientMaterial,
    FiftyMoveRule,
    ThreefoldRepetition,
    /// The tournament's cap on plies: a draw.
    MaxPlies,
    /// Both players scored the game near equal for long enough: a draw.
    DrawAdjudication,
    /// Both players scored one side lost for long enough.
    ResignAdjudication,
    /// An engine gave the game up.
    Resigned,
    /// A player's clock ran out, or an engine answered nothing in time.
    TimeForfeit,
    /// An engine played a move that is not legal, or none.
    IllegalMove,
    /// An engine's process failed to start or ended.
    EngineCrash,
}

impl Ending {
    /// The ending of a game over by its rules: the rule's name where the game names it
    /// ([`Rules::ending`](crate::game::Rules::ending)), else won or drawn.
    pub fn by_rules(rule: Option<&str>, won: bool) -> Ending {
        match rule {
            Some("checkmate") => Ending::Checkmate,
            Some("stalemate") => Ending::Stalemate,
            Some("insufficient_material") => Ending::InsufficientMaterial,
            Some("fifty_move_rule") => Ending::FiftyMoveRule,
            Some("threefold_repetition") => Ending::ThreefoldRepetition,
            _ if won => Ending::Won,
            _ => Ending::Drawn,
        }
    }

    /// Whether the game's rules ended it (rather than a cap, an adjudication or a player).
    pub fn is_by_the_rules(self) -> bool {
        matches!(
            self,
            Ending::Won
                | Ending::Drawn
                | Ending::Checkmate
                | Ending::Stalemate
                | Ending::InsufficientMaterial
                | Ending::FiftyMoveRule
                | Ending::ThreefoldRepetition
        )
    }

    /// Whether a game that ended so is drawn.
    pub fn is_draw(self) -> bool {
        matches!(
            self,
            Ending::Drawn
                | Ending::Stalemate
                | Ending::InsufficientMaterial
                | Ending::FiftyMoveRule
                | Ending::ThreefoldRepetition
                | Ending::MaxPlies
                | Ending::DrawAdjudication
        )
    }

    /// Whether the result says what the game's positions were worth: the game ended by its
    /// rules, by both players' scores (an adjudication) or by a player's resignation; not
    /// capped at a ply limit, forfeited on time or lost to a failure.
    pub fn is_decided_on_the_board(self) -> bool {
        !matches!(
            self,
            Ending::MaxPlies | Ending::TimeForfeit | Ending::IllegalMove | Ending::EngineCrash
        )
    }

    /// The name the answers use.
    pub fn name(self) -> &'static str {
        match self {
            Ending::Won => "won",
            Ending::Drawn => "drawn",
            Ending::Checkmate => "checkmate",
            Ending::Stalemate => "stalemate",
            Ending::InsufficientMaterial => "insufficient_material",
            Ending::FiftyMoveRule => "fifty_move_rule",
            Ending::ThreefoldRepetition => "threefold_repetition",
            Ending::MaxPlies => "max_plies",
            Ending::DrawAdjudication => "draw_adjudication",
            Ending::ResignAdjudication => "resign_adjudication",
            Ending::Resigned => "resigned",
            Ending::TimeForfeit => "time_forfeit",
            Ending::IllegalMove => "illegal_move",
            Ending::EngineCrash => "engine_crash",
        }
    }
}

/// One game's result, as totals need it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameResult {
    /// A's points in half points: 2 a win, 1 a draw, 0 a loss.
    pub a_points: u8,
    pub ending: Ending,
    /// Each player's nodes and moves in the game.
    pub nodes: [u64; 2],
    pub moves: [u32; 2],
}

/// One move of a recorded game, with what its player said of it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MoveRecord {
    #[serde(rename = "move")]
    pub mv: Notation,
    /// In standard algebraic notation, for chess.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub san: Option<String>,
    /// The mover's score on Sente's scale, -1 (lost) to 1 (won), from Sente's searches.
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "crate::rounded::some::<4, _>",
        default
    )]
    pub score: Option<f64>,
    /// The mover's score in centipawns (chess), or moves to mate, positive when it mates.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub cp: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub mate: Option<i32>,
    /// For games scored by their discs (Othello): the proven final disc difference for the
    /// mover, where its search solved the position.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub margin: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub depth: Option<u32>,
    pub nodes: u64,
    /// To the microsecond: a move of a small game takes less than a tenth of a millisecond.
    #[serde(serialize_with = "crate::rounded::to::<3, _>")]
    pub time_ms: f64,
}

/// A whole game, as `"records": true` returns it and PGN writes it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    pub index: u64,
    /// The position the game started from, in the game's text form (a FEN for chess).
    pub opening: String,
    /// Whether that is the game's start position.
    #[serde(skip)]
    pub from_start: bool,
    /// The opening's moves, when it was drawn at random from the start.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub opening_moves: Vec<Notation>,
    /// Who moved first: `A` or `B`.
    pub first: String,
    pub moves: Vec<MoveRecord>,
    /// `A`, `B`, or none for a draw.
    pub winner: Option<String>,
    /// The result from the side to move first's view, as PGN writes it: `1-0`, `0-1`,
    /// `1/2-1/2`.
    pub result: String,
    pub ended_by: Ending,
    /// What happened, when an engine failed.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub detail: Option<String>,
}

/// The results of some games of a tournament, by index.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Results {
    pub games: BTreeMap<u64, GameResult>,
    /// The games' records, when the tournament keeps them.
    #[serde(skip_serializing_if = "BTreeMap::is_empty", default)]
    pub records: BTreeMap<u64, GameRecord>,
}

/// A game that two sets of results both hold: they are not of disjoint games.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("game {0} is in two of the results merged")]
pub struct Overlap(pub u64);

impl Results {
    pub fn insert(&mut self, index: u64, result: GameResult, record: Option<GameRecord>) {
        self.games.insert(index, result);
        if let Some(record) = record {
            self.records.insert(index, record);
        }
    }

    /// Adds the results of other games.
    pub fn merge(&mut self, other: Results) -> Result<(), Overlap> {
        if let Some(&index) = other.games.keys().find(|i| self.games.contains_key(i)) {
            return Err(Overlap(index));
        }
        self.games.extend(other.games);
        self.records.extend(other.records);
        Ok(())
    }

    /// Forgets the games after `last`.
    pub fn truncate_after(&mut self, last: u64) {
        self.games.split_off(&(last + 1));
        self.records.split_off(&(last + 1));
    }

    /// Follows `sprt` over the pairs of `games` in index order ([`SprtWatch`]) and drops the
    /// games after the one at which it decided: the verdict, if it did.
    pub fn settle(&mut self, sprt: Option<Sprt>, games: &Range<u64>) -> Option<Verdict> {
        let mut watch = SprtWatch::new(sprt?, games);
        let verdict = watch.advance(self)?;
        self.truncate_after(watch.last_game()?);
        Some(verdict)
    }

    /// The totals.
    pub fn tally(&self) -> Tally {
        let mut tally = Tally::default();
        for (&index, game) in &self.games {
            tally.games += 1;
            *tally.endings.entry(game.ending.name()).or_default() += 1;
            let first: Seat = (index % 2) as Seat;
            for seat in 0..2 {
                let points = if seat == 0 {
                    game.a_points
                } else {
                    2 - game.a_points
                };
                let player = &mut tally.players[seat];
                let record = if seat == first {
                    &mut player.as_first
                } else {
                    &mut player.as_second
                };
                match points {
                    2 => record.wins += 1,
                    1 => record.draws += 1,
                    _ => record.losses += 1,
                }
                player.nodes += game.nodes[seat];
                player.moves += u64::from(game.moves[seat]);
            }
            let partner = index ^ 1;
            match self.games.get(&partner) {
                // Each pair counted once, at its second game.
                Some(other) if partner < index => {
                    tally.pairs.0[usize::from(game.a_points + other.a_points)] += 1;
                }
                Some(_) => {}
                None => tally.unpaired += 1,
            }
        }
        tally
    }
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
}

/// One player's totals.
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
        Record {
            wins: self.as_first.wins + self.as_second.wins,
            draws: self.as_first.draws + self.as_second.draws,
            losses: self.as_first.losses + self.as_second.losses,
        }
    }
}

/// The totals of some games.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub games: u64,
    pub players: [PlayerTally; 2],
    /// The complete pairs (games `2k` and `2k + 1`: one opening, each player first once), by
    /// A's points in the pair.
    pub pairs: Pentanomial,
    /// Games whose partner is not among these.
    pub unpaired: u64,
    /// Games by how they ended.
    pub endings: BTreeMap<&'static str, u64>,
}

impl Tally {
    /// A's results: by pair when every game is in one, else game by game.
    pub fn moments(&self) -> Moments {
        if self.unpaired == 0 && self.pairs.pairs() > 0 {
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

/// Follows an SPRT over the pairs of a range of games in index order, so that where it stops
/// depends on the results alone, not on which games happened to finish first: the test has
/// decided at the first pair after which the log-likelihood ratio of the pairs so far leaves
/// its bounds.
#[derive(Clone, Debug)]
pub struct SprtWatch {
    pub sprt: Sprt,
    /// The next pair to count.
    next_pair: u64,
    last_pair: u64,
    pentanomial: Pentanomial,
    /// The pair at which the test decided, and how.
    pub decided: Option<(u64, Verdict)>,
}

impl SprtWatch {
    pub fn new(sprt: Sprt, games: &Range<u64>) -> SprtWatch {
        SprtWatch {
            sprt,
            next_pair: games.start.div_ceil(2),
            last_pair: (games.end / 2).saturating_sub(1),
            pentanomial: Pentanomial::default(),
            decided: None,
        }
    }

    /// Counts the pairs now complete in order, up to the first missing one; the verdict once
    /// the test has decided.
    pub fn advance(&mut self, results: &Results) -> Option<Verdict> {
        while self.decided.is_none() && self.next_pair <= self.last_pair {
            let pair = self.next_pair;
            let (Some(first), Some(second)) = (
                results.games.get(&(2 * pair)),
                results.games.get(&(2 * pair + 1)),
            ) else {
                break;
            };
            self.pentanomial.0[usize::from(first.a_points + second.a_points)] += 1;
            self.next_pair += 1;
            let verdict = self
                .sprt
                .verdict(self.sprt.llr(&self.pentanomial.moments()));
            if verdict != Verdict::Running {
                self.decided = Some((pair, verdict));
            }
        }
        self.decided.map(|(_, verdict)| verdict)
    }

    /// The last game the test needed, once it has decided.
    pub fn last_game(&self) -> Option<u64> {
        self.decided.map(|(pair, _)| 2 * pair + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(a_points: u8) -> GameResult {
        GameResult {
            a_points,
            ending: if a_points == 1 {
                Ending::Drawn
            } else {
                Ending::Won
            },
            nodes: [1, 2],
            moves: [3, 4],
        }
    }

    #[test]
    fn totals_count_pairs_players_and_endings() {
        let mut results = Results::default();
        for (index, points) in [(0, 2), (1, 0), (2, 1), (3, 2), (4, 2)] {
            results.insert(index, game(points), None);
        }
        let tally = results.tally();
        assert_eq!(tally.games, 5);
        // Pairs (0, 1): W then L, 2 points; (2, 3): D then W, 3 points; game 4 alone.
        assert_eq!(tally.pairs.0, [0, 0, 1, 1, 0]);
        assert_eq!(tally.unpaired, 1);
        // A first in the even games: won 0 and 4, drew 2; second in 1 and 3: lost 1, won 3.
        let a = tally.players[0];
        assert_eq!(
            (a.as_first.wins, a.as_first.draws, a.as_first.losses),
            (2, 1, 0)
        );
        assert_eq!((a.as_second.wins, a.as_second.losses), (1, 1));
        assert_eq!(tally.players[1].total().wins, 1);
        assert_eq!((a.nodes, tally.players[1].moves), (5, 20));
        assert_eq!(tally.endings["won"], 4);
        assert_eq!(tally.endings["drawn"], 1);
    }

    #[test]
    fn results_merge_whatever_the_split_and_refuse_overlaps() {
        let mut whole = Results::default();
        let (mut left, mut right) = (Results::default(), Results::default());
        for index in 0..9 {
            let result = game((index * 7 % 3) as u8);
            whole.insert(index, result, None);
            if index < 5 { &mut left } else { &mut right }.insert(index, result, None);
        }
        assert_eq!(left.tally().unpaired, 1);
        let mut merged = right.clone();
        merged.merge(left.clone()).unwrap();
        assert_eq!(merged, whole);
        assert_eq!(merged.tally(), whole.tally());
        assert_eq!(merged.merge(left), Err(Overlap(0)));
    }

    #[test]
    fn the_sprt_decides_at_the_first_pair_past_its_bounds_in_index_order() {
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 200.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let mut results = Results::default();
        let mut watch = SprtWatch::new(sprt, &(0..200));
        // A wins every game but one: the test accepts H1 after a few pairs, but only counts
        // pairs with every earlier pair complete.
        results.insert(1, game(2), None);
        assert_eq!(watch.advance(&results), None);
        for index in 2..40 {
            results.insert(index, game(if index == 5 { 0 } else { 2 }), None);
        }
        assert_eq!(watch.advance(&results), None, "pair 0 is not complete");
        results.insert(0, game(2), None);
        assert_eq!(watch.advance(&results), Some(Verdict::H1));
        let last = watch.last_game().unwrap();
        // The same verdict at the same game from the results in any order.
        let mut again = SprtWatch::new(sprt, &(0..200));
        assert_eq!(again.advance(&results), Some(Verdict::H1));
        assert_eq!(again.last_game(), Some(last));
        assert!(last < 39, "{last}");
    }
}
