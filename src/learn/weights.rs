//! Learnt weights read from a file, as a value a search carries: the engine's `weights` knob
//! (`sente tournament --weights NAME=FILE`, `sente learn`'s generations) and UCI's `EvalFile`
//! put one into the search's settings, and the game's evaluation plays with it in place of
//! the weights it ships; `alphazero`'s `net` knob does the same with a policy-value network
//! (`--net NAME=FILE`).
//!
//! Each game's weights are of its own type (Othello's pattern tables, chess's and shogi's
//! nets): a value holds them behind `Any`, and the game that made it reads them back as that
//! type ([`NamedWeights::get`]). Nothing keeps them anywhere else: they live as long as the
//! command, the player or the search that holds them, and a search's helper threads play
//! with what its settings carry as its main thread does.

use std::any::Any;
use std::sync::Arc;

use crate::learn::LearnError;

/// What weights are, and so which knob plays them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Learnt {
    /// A learnt evaluation's: the engine's `weights`.
    Evaluation,
    /// AlphaZero's policy-value network: `alphazero`'s `net`.
    Network,
}

/// Weights of one game's, under the name a command line read them as.
#[derive(Clone)]
pub struct NamedWeights {
    name: Arc<str>,
    game: &'static str,
    what: Learnt,
    weights: Arc<dyn Any + Send + Sync>,
}

impl NamedWeights {
    /// `weights` of `game`'s learnt evaluation, called `name` (checked: [`check_name`]).
    pub fn new<T: Any + Send + Sync>(
        name: &str,
        game: &'static str,
        weights: T,
    ) -> Result<NamedWeights, LearnError> {
        Self::of(Learnt::Evaluation, name, game, weights)
    }

    /// `what` weights of `game`'s, called `name` (checked: [`check_name`]).
    pub fn of<T: Any + Send + Sync>(
        what: Learnt,
        name: &str,
        game: &'static str,
        weights: T,
    ) -> Result<NamedWeights, LearnError> {
        check_name(name)?;
        Ok(NamedWeights {
            name: name.into(),
            game,
            what,
            weights: Arc::new(weights),
        })
    }

    /// The name the `weights` knob gives them by.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The game whose evaluation they are.
    pub fn game(&self) -> &'static str {
        self.game
    }

    /// What they are.
    pub fn what(&self) -> Learnt {
        self.what
    }

    /// The weights, where they are of type `T`; `None` where they are another game's.
    pub fn get<T: Any>(&self) -> Option<&T> {
        self.weights.downcast_ref()
    }
}

/// Two are the same when they are one reading of a file: a search's settings compare equal
/// only when they play with the same weights.
impl PartialEq for NamedWeights {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.weights, &other.weights) && self.name == other.name
    }
}

impl std::fmt::Debug for NamedWeights {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "NamedWeights({} of {}, {:?})",
            self.name, self.game, self.what
        )
    }
}

/// A name the `weights` knob can give: letters, digits, '-', '_' and '.'.
pub fn check_name(name: &str) -> Result<(), LearnError> {
    if name.is_empty()
        || name.len() > 64
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
    {
        return Err(LearnError::BadName(name.to_owned()));
    }
    Ok(())
}

/// The `what` weights of `game`'s on `shelf` (those its knob may name), in the order read.
pub fn of_game<'a>(
    shelf: &'a [NamedWeights],
    game: &'a str,
    what: Learnt,
) -> impl Iterator<Item = &'a NamedWeights> + 'a {
    shelf
        .iter()
        .filter(move |weights| weights.game == game && weights.what == what)
}

/// Adds `weights` to `shelf`, refused where the game's weights of their kind already have
/// that name.
pub fn add_to_shelf(
    shelf: &mut Vec<NamedWeights>,
    weights: NamedWeights,
) -> Result<(), LearnError> {
    if of_game(shelf, weights.game, weights.what).any(|read| read.name == weights.name) {
        return Err(LearnError::NameTaken(weights.name.to_string()));
    }
    shelf.push(weights);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_are_read_back_as_their_own_type_only() {
        let weights = NamedWeights::new("best", "othello", 7_u32).unwrap();
        assert_eq!(weights.get::<u32>(), Some(&7));
        assert_eq!(weights.get::<u64>(), None);
        assert_eq!(weights.name(), "best");
        assert!(NamedWeights::new("a b", "othello", 1_u32).is_err());
        assert!(NamedWeights::new("", "othello", 1_u32).is_err());
    }

    #[test]
    fn a_value_equals_its_clones_and_not_another_reading_of_the_same_name() {
        let first = NamedWeights::new("best", "chess", 1_u32).unwrap();
        let again = NamedWeights::new("best", "chess", 1_u32).unwrap();
        assert_eq!(first, first.clone());
        assert_ne!(first, again);
    }

    #[test]
    fn a_shelf_takes_a_name_once_a_game() {
        let mut shelf = Vec::new();
        add_to_shelf(
            &mut shelf,
            NamedWeights::new("best", "chess", 1_u32).unwrap(),
        )
        .unwrap();
        add_to_shelf(
            &mut shelf,
            NamedWeights::new("best", "shogi", 2_u32).unwrap(),
        )
        .unwrap();
        let taken = add_to_shelf(
            &mut shelf,
            NamedWeights::new("best", "chess", 3_u32).unwrap(),
        );
        assert!(taken.unwrap_err().to_string().contains("already read"));
        let net = NamedWeights::of(Learnt::Network, "best", "chess", 4_u32).unwrap();
        add_to_shelf(&mut shelf, net).unwrap();
        let names = |what| -> Vec<&str> {
            of_game(&shelf, "chess", what)
                .map(NamedWeights::name)
                .collect()
        };
        assert_eq!(names(Learnt::Evaluation), ["best"]);
        assert_eq!(shelf[2].get::<u32>(), Some(&4));
        assert_eq!(names(Learnt::Network), ["best"]);
    }
}
