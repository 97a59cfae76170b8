//! Learnt weights read from files for this process, beside those a game ships, each under a
//! name the engine's `weights` knob gives (`engine:weights=candidate`): so that one tournament
//! can play a generation's candidate against the best before either is built into the binary
//! (`sente learn`'s SPRT, `sente tournament --weights NAME=FILE`).
//!
//! A game keeps a [`Loaded`] of its weights' type beside the shipped ones. Which of them a
//! search plays with travels with the search, not the game: [`using`] marks the thread it runs
//! on for as long as it runs, and the game's evaluation asks [`Loaded::in_use`]. A search runs
//! on one thread, and an evaluation such as Othello's patterns is a plain function of the board
//! called at every node, with no room for a parameter; a thread's mark costs one read of a
//! thread-local there, where a lock would cost far more.

use std::cell::Cell;
use std::sync::{Mutex, OnceLock};

use crate::learn::LearnError;

/// The most weights one process reads from files for one game.
pub const MAX_LOADED: usize = 16;

/// A game's weights read from files, by name, in the order they were read.
pub struct Loaded<T> {
    names: Mutex<Vec<&'static str>>,
    weights: [OnceLock<T>; MAX_LOADED],
}

impl<T> Default for Loaded<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T> Loaded<T> {
    pub const fn new() -> Self {
        Loaded {
            names: Mutex::new(Vec::new()),
            weights: [const { OnceLock::new() }; MAX_LOADED],
        }
    }

    /// Adds `weights` under `name`; refused when the name is taken or the slots are full.
    pub fn add(&self, name: &str, weights: T) -> Result<(), LearnError> {
        check_name(name)?;
        let mut names = self
            .names
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if names.contains(&name) {
            return Err(LearnError::NameTaken(name.to_owned()));
        }
        let slot = names.len();
        if slot == MAX_LOADED {
            return Err(LearnError::TooManyWeights(MAX_LOADED));
        }
        if self.weights[slot].set(weights).is_err() {
            unreachable!("a slot is set once, under the names' lock");
        }
        // A process reads a few, once: leaked, the names live as long as the shipped ones.
        names.push(Box::leak(name.to_owned().into_boxed_str()));
        Ok(())
    }

    /// The names, in the order read: a `weights` knob's index is the position here.
    pub fn names(&self) -> Vec<&'static str> {
        self.names
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .clone()
    }

    /// The weights read `index`-th.
    pub fn get(&self, index: u8) -> Option<&T> {
        self.weights.get(usize::from(index))?.get()
    }

    /// The weights the search on this thread was told to play with ([`using`]), if any.
    #[inline]
    pub fn in_use(&self) -> Option<&T> {
        IN_USE.get().and_then(|index| self.get(index))
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

thread_local! {
    /// The index of the weights the search on this thread plays with; `None`: the shipped.
    static IN_USE: Cell<Option<u8>> = const { Cell::new(None) };
}

/// Runs `search` with the game's weights number `index` (`None`: the shipped ones) on this
/// thread, as the `weights` knob asked; the thread's mark is put back after, even if it panics.
pub fn using<R>(index: Option<u8>, search: impl FnOnce() -> R) -> R {
    struct Restore(Option<u8>);
    impl Drop for Restore {
        fn drop(&mut self) {
            IN_USE.set(self.0);
        }
    }
    let _restore = Restore(IN_USE.replace(index));
    search()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_search_plays_with_the_weights_it_names_and_others_with_their_own() {
        static LOADED: Loaded<u32> = Loaded::new();
        LOADED.add("best", 1).unwrap();
        LOADED.add("candidate", 2).unwrap();
        assert!(
            LOADED
                .add("best", 3)
                .unwrap_err()
                .to_string()
                .contains("already read")
        );
        assert!(LOADED.add("a b", 3).is_err());
        assert_eq!(LOADED.names(), ["best", "candidate"]);
        assert_eq!(LOADED.in_use(), None);
        assert_eq!(using(Some(1), || *LOADED.in_use().unwrap()), 2);
        let other = std::thread::spawn(|| LOADED.in_use().copied());
        assert_eq!(using(Some(0), || other.join().unwrap()), None);
        let nested = using(Some(0), || {
            let inner = using(Some(1), || *LOADED.in_use().unwrap());
            (inner, *LOADED.in_use().unwrap())
        });
        assert_eq!(nested, (2, 1));
        let panicked = std::panic::catch_unwind(|| using(Some(1), || panic!("a search fails")));
        assert!(panicked.is_err());
        assert_eq!(LOADED.in_use(), None, "the mark is put back after a panic");
    }

    #[test]
    fn the_slots_are_bounded() {
        static LOADED: Loaded<usize> = Loaded::new();
        for index in 0..MAX_LOADED {
            LOADED.add(&format!("w{index}"), index).unwrap();
        }
        assert!(
            LOADED
                .add("one-more", 0)
                .unwrap_err()
                .to_string()
                .contains("at most")
        );
    }
}
