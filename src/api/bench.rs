//! `sente bench`: each game on the engine kit searches its bench positions to a fixed depth,
//! as Stockfish's `bench` does for OpenBench and fishtest. At one thread the node total is the
//! search's signature: a change that alters the search's shape changes it, and a change that
//! only makes it faster does not (docs/testing.md#the-search-signature).

use std::time::{Duration, Instant};

use serde::Serialize;

use super::request::PositionSpec;
use super::{Problem, board, with_game};
use crate::games::{ForGame, NAMES, for_each_game};
use crate::search::{Budget, EngineParams, Solve};

/// The node total of `sente bench` at its defaults (one thread, the default table): the
/// search's signature, as docs/testing.md quotes it. A change to the search that alters it
/// says so in its commit message, with the new figure.
pub const SIGNATURE: u64 = 2_554_027;

/// What the bench is asked: the threads and table each search has, and which games.
#[derive(Clone, Debug)]
pub struct BenchRequest {
    /// Threads each search runs on (the signature is at one).
    pub threads: u32,
    /// Each search's table, in MiB.
    pub hash_mb: u32,
    /// Every game's depth in place of its own, if given.
    pub depth: Option<u32>,
    /// One game, or every game on the kit.
    pub game: Option<String>,
    /// Positions of the one game in place of its bench's, in its text form.
    pub positions: Option<Vec<String>>,
}

impl Default for BenchRequest {
    fn default() -> Self {
        BenchRequest {
            threads: 1,
            hash_mb: crate::search::DEFAULT_HASH_MB,
            depth: None,
            game: None,
            positions: None,
        }
    }
}

/// What one game's positions came to.
#[derive(Clone, Debug, Serialize)]
pub struct GameBench {
    pub game: &'static str,
    pub positions: usize,
    pub depth: u32,
    pub nodes: u64,
    pub elapsed_ms: u64,
    pub nodes_per_second: u64,
}

/// The bench's answer: each game's, then the totals.
#[derive(Clone, Debug, Serialize)]
pub struct BenchAnswer {
    pub threads: u32,
    pub hash_mb: u32,
    pub games: Vec<GameBench>,
    /// The node total: at one thread, the search's signature.
    pub nodes: u64,
    pub elapsed_ms: u64,
    pub nodes_per_second: u64,
}

impl BenchAnswer {
    /// The answer as engine developers read a bench: a line a game, then the totals in
    /// Stockfish's words, and last the line OpenBench's client reads (`N nodes M nps`).
    pub fn text(&self) -> String {
        let mut text = String::new();
        for game in &self.games {
            text += &format!(
                "{:<8} {} positions at depth {:>2}: {:>11} nodes {:>9} nps\n",
                game.game, game.positions, game.depth, game.nodes, game.nodes_per_second
            );
        }
        text += &format!(
            "===========================\nThreads         : {}\nTotal time (ms) : {}\nNodes \
             searched  : {}\nNodes/second    : {}\n{} nodes {} nps\n",
            self.threads,
            self.elapsed_ms,
            self.nodes,
            self.nodes_per_second,
            self.nodes,
            self.nodes_per_second
        );
        text
    }
}

fn per_second(nodes: u64, elapsed: Duration) -> u64 {
    (nodes as f64 / elapsed.as_secs_f64().max(1e-9)).round() as u64
}

/// Searches the bench positions of the game asked, or of every game on the kit.
pub fn run(request: &BenchRequest) -> Result<BenchAnswer, Problem> {
    if request.threads == 0 {
        return Err(Problem::invalid("threads", "at least one thread"));
    }
    if request.positions.is_some() && request.game.is_none() {
        return Err(Problem::invalid(
            "positions",
            "positions of one game: name it (game)",
        ));
    }
    #[derive(Clone)]
    struct OneGame<'a>(&'a BenchRequest);
    impl ForGame for OneGame<'_> {
        type Output = Result<Option<GameBench>, Problem>;
        fn run<G: Solve>(self) -> Self::Output {
            bench_game::<G>(self.0)
        }
    }
    let games = match &request.game {
        Some(name) => {
            let bench = with_game(Some(name), OneGame(request))??;
            vec![bench.ok_or_else(|| {
                Problem::invalid(
                    "game",
                    format!(
                        "{name}'s engine is not on the engine kit: the bench searches {}",
                        on_the_kit().join(", ")
                    ),
                )
            })?]
        }
        None => for_each_game(OneGame(request))
            .into_iter()
            .filter_map(Result::transpose)
            .collect::<Result<Vec<_>, _>>()?,
    };
    let nodes = games.iter().map(|game| game.nodes).sum();
    let elapsed_ms = games.iter().map(|game| game.elapsed_ms).sum();
    Ok(BenchAnswer {
        threads: request.threads,
        hash_mb: request.hash_mb,
        games,
        nodes,
        elapsed_ms,
        nodes_per_second: per_second(nodes, Duration::from_millis(elapsed_ms)),
    })
}

/// The games that declare bench positions: those on the engine kit.
pub fn on_the_kit() -> Vec<&'static str> {
    NAMES
        .iter()
        .copied()
        .filter(|&name| {
            super::game(Some(name))
                .is_ok_and(|game| !game.declaration.engine.bench.positions.is_empty())
        })
        .collect()
}

fn bench_game<G: Solve>(request: &BenchRequest) -> Result<Option<GameBench>, Problem> {
    let bench = G::DECLARATION.engine.bench;
    if bench.positions.is_empty() {
        return Ok(None);
    }
    let depth = request.depth.unwrap_or(bench.depth);
    let params = EngineParams {
        depth: Some(depth),
        hash_mb: request.hash_mb,
        threads: request.threads,
        ..EngineParams::default()
    };
    let texts: Vec<String> = match &request.positions {
        Some(positions) => positions.clone(),
        None => bench
            .positions
            .iter()
            .map(|&text| text.to_owned())
            .collect(),
    };
    let mut nodes = 0;
    let mut elapsed = Duration::ZERO;
    for text in &texts {
        let spec = PositionSpec {
            board: Some(board::BoardSpec::Text(text.clone())),
            moves: None,
        };
        let position = spec.position::<G>()?;
        let started = Instant::now();
        let result = position.engine(&params, &Budget::unlimited());
        elapsed += started.elapsed();
        nodes += result.nodes;
    }
    Ok(Some(GameBench {
        game: G::NAME,
        positions: texts.len(),
        depth,
        nodes,
        elapsed_ms: elapsed.as_millis() as u64,
        nodes_per_second: per_second(nodes, elapsed),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bench at its defaults comes to the signature, node for node, and the docs quote it.
    #[test]
    fn the_bench_is_the_searchs_signature() {
        let answer = run(&BenchRequest::default()).unwrap();
        assert_eq!(
            answer.nodes,
            SIGNATURE,
            "the search's shape changed: {} nodes ({}); if meant, the new signature goes in \
             SIGNATURE, docs/testing.md and the commit message",
            answer.nodes,
            answer
                .games
                .iter()
                .map(|game| format!("{} {}", game.game, game.nodes))
                .collect::<Vec<_>>()
                .join(", ")
        );
        let docs = include_str!("../../docs/testing.md");
        let written = SIGNATURE
            .to_string()
            .as_bytes()
            .rchunks(3)
            .rev()
            .map(|digits| std::str::from_utf8(digits).unwrap())
            .collect::<Vec<_>>()
            .join(",");
        assert!(
            docs.contains(&format!("signature: **{written}** nodes")),
            "docs/testing.md quotes the signature as `signature: **{written}** nodes`"
        );
    }

    /// A game off the kit is refused with the names of those on it, and a depth of one
    /// searches every game on it.
    #[test]
    fn the_bench_covers_the_kit_and_refuses_the_rest() {
        let kit = on_the_kit();
        assert!(kit.len() >= 4, "{kit:?}");
        let off = NAMES.iter().find(|name| !kit.contains(name)).unwrap();
        let refused = run(&BenchRequest {
            game: Some((*off).to_owned()),
            ..BenchRequest::default()
        })
        .unwrap_err();
        assert!(refused.detail.contains(kit[0]), "{}", refused.detail);
        let shallow = run(&BenchRequest {
            depth: Some(1),
            ..BenchRequest::default()
        })
        .unwrap();
        assert_eq!(shallow.games.len(), kit.len());
        assert!(shallow.games.iter().all(|game| game.nodes > 0));
        assert!(
            shallow
                .text()
                .contains(&format!("{} nodes ", shallow.nodes))
        );
    }
}
