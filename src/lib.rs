//! Sente: a game-AI service for two-player, zero-sum, perfect-information games.
//!
//! The modules, each depending only on those after it:
//!
//! - [`http`]: the axum service. Small handlers over typed extractors, errors answered as
//!   `application/problem+json`, an accept loop that times out stalled clients, graceful
//!   shutdown.
//! - [`api`]: requests and responses independent of transport: decoding and checking a request
//!   (a [`api::Problem`] when it is wrong), running it, shaping the answer. Used by `http` and
//!   by the command line.
//! - [`tournament`]: many games between two players (Sente's searches or external engines),
//!   seeded per game so that any split of the games adds up to the same result, and what the
//!   results say (Elo, SPRT), as engine developers' match runners report it.
//! - [`games`]: the games, a folder each (rules, declaration, a solver of their own if they
//!   have one), and the registry, the one list of them that everything above learns them from.
//! - [`protocols`]: the text protocols, front doors beside `http`: the one line loop and input
//!   of all four, and the UCI/USI session over the engine kit's API, whose dialects' words the
//!   games say (as Othello says GTP and NBoard).
//! - [`search`]: the algorithms, generic over `Game`, one file each: random, minimax, negamax,
//!   alphabeta, mcs, mcts, and the default solver. Each returns a [`search::SearchResult`],
//!   and honours a [`search::Budget`] (deadline, node limit, cancellation) from inside its
//!   loop.
//! - [`game`]: the contract every game fulfils: the [`game::Game`] trait, its declaration
//!   (catalogue text, limits), the board text form. Knows nothing of search.
//!
//! Beside them, [`rounded`] writes every answer's figures to the precision they mean,
//! [`lines`] reads the lines of the text protocols spoken with engines, and [`files`] reads and
//! writes users' files (regular files only, bounded, written all or nothing).
//!
//! `http` and the command line are the `server` feature (on by default); without it the crate
//! is the engine alone, with none of the service's dependencies (the fuzzer builds it so).

pub mod api;
pub mod files;
pub mod game;
pub mod games;
#[cfg(feature = "server")]
pub mod http;
pub mod learn;
pub mod lines;
pub mod protocols;
pub mod rounded;
pub mod search;
pub mod tournament;
