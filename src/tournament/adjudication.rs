//! Ending games early when both players agree how they will end, as fastchess adjudicates:
//! a draw when both scores stay near equal, a resignation when both agree one side is lost.
//! Both are off unless asked for.
//!
//! Scores are the movers' own, in the game's units ([`score_units`](super::score_units)): centipawns in chess,
//! hundredths of Sente's score (-100 lost, 0 drawn, 100 won) elsewhere.

use serde::{Deserialize, Serialize};

/// The adjudication rules of a tournament.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Adjudication {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub draw: Option<DrawRule>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resign: Option<ResignRule>,
}

/// A draw once both players have scored the position within `score` of equal for `move_count`
/// moves each, from move `move_number` on.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DrawRule {
    pub move_number: u32,
    pub move_count: u32,
    pub score: i32,
}

/// A loss for the side both players have scored lost by at least `score` for `move_count`
/// moves each.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResignRule {
    pub move_count: u32,
    pub score: i32,
}

/// What the rules say of a game so far.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Adjudged {
    Draw,
    /// The side that made the game's even plies (0) or its odd ones (1) wins.
    Win(usize),
}

impl Adjudication {
    /// The verdict on a game whose plies (since its opening) were scored `scores`, each by the
    /// player who made it (`None`: it said nothing); `None` to play on.
    pub fn judge(&self, scores: &[Option<i32>]) -> Option<Adjudged> {
        if let Some(rule) = self.resign
            && let Some(winner) = rule.judge(scores)
        {
            return Some(Adjudged::Win(winner));
        }
        self.draw
            .filter(|rule| rule.judge(scores))
            .map(|_| Adjudged::Draw)
    }
}

/// The last `2 * move_count` plies' scores, if there are that many and all were given.
fn last_moves(scores: &[Option<i32>], move_count: u32) -> Option<Vec<(usize, i32)>> {
    let plies = 2 * move_count as usize;
    if move_count == 0 || scores.len() < plies {
        return None;
    }
    let start = scores.len() - plies;
    scores[start..]
        .iter()
        .enumerate()
        .map(|(offset, score)| score.map(|score| (start + offset, score)))
        .collect()
}

impl DrawRule {
    fn judge(&self, scores: &[Option<i32>]) -> bool {
        let move_number = scores.len() / 2 + 1;
        move_number >= self.move_number as usize
            && last_moves(scores, self.move_count)
                .is_some_and(|last| last.iter().all(|&(_, score)| score.abs() <= self.score))
    }
}

impl ResignRule {
    /// The side that wins, if both agree.
    fn judge(&self, scores: &[Option<i32>]) -> Option<usize> {
        let last = last_moves(scores, self.move_count)?;
        [0, 1].into_iter().find(|&winner| {
            last.iter().all(|&(ply, score)| {
                if ply % 2 == winner {
                    score >= self.score
                } else {
                    score <= -self.score
                }
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const RULES: Adjudication = Adjudication {
        draw: Some(DrawRule {
            move_number: 3,
            move_count: 2,
            score: 10,
        }),
        resign: Some(ResignRule {
            move_count: 2,
            score: 500,
        }),
    };

    #[test]
    fn a_draw_needs_every_score_near_equal_for_long_enough_late_enough() {
        let near = [Some(5), Some(-3), Some(0), Some(10)];
        // Four plies make move 3 only once they are played.
        assert_eq!(RULES.judge(&near), Some(Adjudged::Draw));
        assert_eq!(RULES.judge(&near[..3]), None);
        assert_eq!(
            RULES.judge(&[Some(5), Some(-3), Some(0), Some(11)]),
            None,
            "one score beyond the margin"
        );
        assert_eq!(RULES.judge(&[Some(5), None, Some(0), Some(1)]), None);
        let late = [Some(300), Some(0), Some(1), Some(-2), Some(3), Some(0)];
        assert_eq!(RULES.judge(&late), Some(Adjudged::Draw));
        assert_eq!(Adjudication::default().judge(&late), None);
    }

    #[test]
    fn a_resignation_needs_both_players_to_agree() {
        // Even plies' player winning, the other agreeing.
        let lost = [Some(600), Some(-700), Some(500), Some(-900)];
        assert_eq!(RULES.judge(&lost), Some(Adjudged::Win(0)));
        let won_by_odd = [Some(0), Some(600), Some(-700), Some(500), Some(-900)];
        assert_eq!(RULES.judge(&won_by_odd), Some(Adjudged::Win(1)));
        // The losing side does not agree.
        assert_eq!(
            RULES.judge(&[Some(600), Some(-700), Some(500), Some(-100)]),
            None
        );
    }
}
