//! Sente: a game-AI service for two-player, zero-sum, perfect-information games.
//!
//! The modules, each depending only on those below it:
//!
//! - [`game`]: the rules. The [`game::Game`] trait and the games on bitboards
//!   ([`game::TicTacToe`]). Knows nothing of search.
//! - [`search`]: the algorithms, generic over `Game`, one file each: random, minimax, negamax,
//!   alphabeta, mcs, mcts. Each returns a [`search::SearchResult`].
//! - [`tournament`]: many games between two configured players, seeded per game so that any
//!   split of the games adds up to the same result.

pub mod game;
pub mod search;
pub mod tournament;
