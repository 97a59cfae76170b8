//! The table: every knob a player takes, once, with where its value goes in the [`Strategy`].
//! Setting one is one field write; which algorithms take it, and which of the engine's knobs a
//! game's engine takes ([`EngineDeclaration`](crate::game::EngineDeclaration)), the checks read
//! from here.

use std::time::Duration;

use serde_json::json;

use super::{Kind, Knob, KnobInfo, TakenBy};
use crate::api::GameRef;
use crate::game::LEVELS;
use crate::learn::weights::Learnt;
use crate::search::{
    self, Algorithm as A, Algorithm, DEFAULT_EXPAND_THRESHOLD, DEFAULT_PLAYOUTS,
    DEFAULT_SIMULATIONS, DEFAULT_UCT_C, MAX_TREE_NODES, Stops, Strategy, Tiebreak, alphazero,
};

/// The deepest search a request may ask for.
pub const MAX_DEPTH: u64 = search::MAX_DEPTH as u64;
/// The longest any algorithm may be asked to think.
pub const MAX_TIME_LIMIT_MS: u64 = 10_000;
/// The longest clock a request may give, a day.
pub const MAX_CLOCK_MS: u64 = 86_400_000;
/// The largest increment, ten minutes.
pub const MAX_INCREMENT_MS: u64 = 600_000;

/// The knob that limits a search's time.
pub(super) const TIME_LIMIT_MS: &str = "time_limit_ms";
/// The same, by UCI's name.
pub(super) const MOVETIME: &str = "movetime";
/// The knob that plays the engine at one of its game's levels.
pub(super) const LEVEL: &str = "level";

/// Every player's knob, in the order the catalogue lists them.
pub const KNOBS: [Knob; 33] = [
    Knob {
        name: "depth",
        label: "Depth (plies)",
        algorithms: TakenBy::Record(|record| record.depth_limited),
        kind: Kind::Integer {
            min: 1,
            max: MAX_DEPTH,
            default: None,
            set: |strategy, plies| strategy.depth = Some(plies as u32),
        },
        description: "Plies to search; leaves that are not the end of the game are scored by \
                      the game's evaluation function.",
        on_game: |knob, algorithm, game| {
            let full_width = algorithm.record().stops == Stops::FullWidth;
            let absent = match game.declaration.limits.full_width_depth {
                _ if algorithm == A::Engine => {
                    "The engine's deepest iteration. Absent: as deep as its time allows."
                }
                Some(limit) if full_width => {
                    knob.maximum = json!(limit);
                    knob.required = true;
                    "Required on this game: a full-width search to the end would not finish."
                }
                _ => "Absent: search to the end of the game.",
            };
            knob.description = format!("{} {absent}", knob.description).into();
        },
    },
    Knob {
        name: "evaluation",
        label: "Evaluation",
        algorithms: TakenBy::Record(|record| record.depth_limited),
        kind: Kind::Choice {
            values: |game| {
                (game.evaluations)()
                    .into_iter()
                    .map(|(name, _)| name)
                    .collect()
            },
            set: |strategy, index, _| strategy.evaluation = Some(index as search::EvaluationIndex),
        },
        description: "Which of the game's evaluations scores the positions at the depth limit \
                      (the game's catalogue describes each).",
        on_game: |knob, algorithm, _| {
            let absent = if algorithm == A::Engine {
                knob.default = serde_json::Value::Null;
                "Absent: the engine's own."
            } else {
                "Absent: the first."
            };
            knob.description = format!("{} {absent}", knob.description).into();
        },
    },
    Knob {
        name: "playouts",
        label: "Playouts per move",
        algorithms: TakenBy::These(&[A::Mcs]),
        kind: Kind::Integer {
            min: 1,
            max: 100_000,
            default: Some(DEFAULT_PLAYOUTS as u64),
            set: |strategy, count| strategy.playouts = count as u32,
        },
        description: "Random playouts after each legal move.",
        on_game: same_on_every_game,
    },
    Knob {
        name: "simulations",
        label: "Simulations",
        algorithms: TakenBy::These(&[A::Mcts, A::AlphaZero]),
        kind: Kind::Integer {
            min: 1,
            max: 1_000_000,
            default: Some(DEFAULT_SIMULATIONS as u64),
            set: |strategy, count| match strategy.algorithm {
                A::AlphaZero => strategy.alphazero.simulations = count as u32,
                _ => strategy.mcts.simulations = count as u32,
            },
        },
        description: "Simulations (select, expand, playout, back up).",
        on_game: |knob, algorithm, _| {
            if algorithm == A::AlphaZero {
                knob.default = json!(alphazero::DEFAULT_SIMULATIONS);
                knob.description = "Simulations (select by PUCT, expand and evaluate with the \
                                    network, back up its value); nodes counts them."
                    .into();
            }
        },
    },
    Knob {
        name: "c_puct",
        label: "Exploration (c_puct)",
        algorithms: TakenBy::These(&[A::AlphaZero]),
        kind: Kind::Number {
            min: 0.0,
            max: 100.0,
            default: alphazero::DEFAULT_C_PUCT,
            set: |strategy, c| strategy.alphazero.c_puct = c,
        },
        description: "Exploration constant in PUCT = Q + c_puct * P * sqrt(N) / (1 + n): higher \
                      follows the network's priors further.",
        on_game: same_on_every_game,
    },
    Knob {
        name: "fpu",
        label: "First play urgency",
        algorithms: TakenBy::These(&[A::AlphaZero]),
        kind: Kind::Number {
            min: -1.0,
            max: 2.0,
            default: alphazero::DEFAULT_FPU,
            set: |strategy, fpu| strategy.alphazero.fpu = fpu,
        },
        description: "The Q of a move the search has not tried yet: its parent's Q less fpu * \
                      sqrt(the priors of the moves tried), as Leela Zero's; below 0, 0, as \
                      AlphaZero's paper.",
        on_game: same_on_every_game,
    },
    Knob {
        name: "symmetries",
        label: "Symmetric images",
        algorithms: TakenBy::These(&[A::AlphaZero]),
        kind: Kind::Boolean {
            default: false,
            set: |strategy, on| strategy.alphazero.symmetries = on,
        },
        description: "Show the network each position as one of the board's symmetric images, \
                      drawn at random (Connect Four's mirror, Othello's and tic-tac-toe's eight), \
                      as AlphaGo Zero's search did.",
        on_game: same_on_every_game,
    },
    Knob {
        name: "temperature",
        label: "Temperature",
        algorithms: TakenBy::These(&[A::AlphaZero]),
        kind: Kind::Number {
            min: 0.0,
            max: 10.0,
            default: 0.0,
            set: |strategy, t| strategy.alphazero.temperature = t,
        },
        description: "0 plays the most visited move; above 0, a move drawn with chances in \
                      proportion to visits^(1/temperature), from the seed (1: in proportion to \
                      the visits, as self-play's first moves).",
        on_game: same_on_every_game,
    },
    Knob {
        name: "net",
        label: "Network",
        algorithms: TakenBy::These(&[A::AlphaZero]),
        kind: Kind::Weights {
            what: Learnt::Network,
            shipped: |game| {
                (game.networks)()
                    .into_iter()
                    .map(|(name, _)| name)
                    .collect()
            },
            set_shipped: |strategy, index| strategy.alphazero.net = index as u8,
            set_read: |strategy, net| strategy.alphazero.read = Some(net),
        },
        description: "Which of the game's trained policy-value networks guides the search: one \
                      it ships, or one a command line read (`sente tournament --net NAME=FILE`, \
                      `sente learn`'s generations). Absent: the first, the strongest.",
        on_game: |knob, _, game| {
            let networks: Vec<String> = (game.networks)()
                .into_iter()
                .map(|(name, description)| format!("{name}: {description}"))
                .collect();
            knob.description = format!(
                "Which of the game's trained policy-value networks guides the search: one it \
                 ships, or one a command line read (`sente tournament --net NAME=FILE`, `sente \
                 learn`'s generations). Absent: the first, the strongest. {}",
                networks.join(" ")
            )
            .into();
        },
    },
    Knob {
        name: "uct_c",
        label: "Exploration (UCT c)",
        algorithms: TakenBy::These(&[A::Mcts]),
        kind: Kind::Number {
            min: 0.0,
            max: 100.0,
            default: DEFAULT_UCT_C,
            set: |strategy, c| strategy.mcts.uct_c = c,
        },
        description: "Exploration constant c in UCB1 = -w/n + c * sqrt(ln t / n).",
        on_game: same_on_every_game,
    },
    Knob {
        name: "expand_threshold",
        label: "Expand after (visits)",
        algorithms: TakenBy::These(&[A::Mcts]),
        kind: Kind::Integer {
            min: 1,
            max: 100_000,
            default: Some(DEFAULT_EXPAND_THRESHOLD as u64),
            set: |strategy, visits| strategy.mcts.expand_threshold = visits as u32,
        },
        description: "Visits after which a leaf is expanded.",
        on_game: same_on_every_game,
    },
    Knob {
        name: "tree_nodes",
        label: "Tree size (nodes)",
        algorithms: TakenBy::These(&[A::Mcts]),
        kind: Kind::Integer {
            min: 1,
            max: MAX_TREE_NODES as u64,
            default: Some(MAX_TREE_NODES as u64),
            set: |strategy, nodes| strategy.mcts.tree_nodes = nodes as u32,
        },
        description: "The most positions the tree keeps: past it, leaves stop being expanded, \
                      while simulations still run and back up through the tree (the root's \
                      moves are always expanded). Less memory, a shallower tree.",
        on_game: same_on_every_game,
    },
    switch(
        "transposition_table",
        "Transposition table",
        "Look positions met again up in a fixed-size table of exact, lower- and upper-bound \
         values.",
        |strategy, on| strategy.enhancements.transposition_table = on,
    ),
    switch(
        "symmetry",
        "Symmetry",
        "Let symmetric positions share table entries and search only one of sibling moves that \
         lead to symmetric positions.",
        |strategy, on| strategy.enhancements.symmetry = on,
    ),
    switch(
        "ordering",
        "Move ordering",
        "Try the table's move first, then killer moves, then by history and the game's static \
         priority (centre first).",
        |strategy, on| strategy.enhancements.ordering = on,
    ),
    switch(
        "pvs",
        "Principal variation search",
        "Principal variation search: null windows after the first move, re-searched when they \
         fail high.",
        |strategy, on| strategy.enhancements.pvs = on,
    ),
    Knob {
        name: TIME_LIMIT_MS,
        label: "Time limit (ms)",
        algorithms: TakenBy::Record(|record| record.stops.takes_time_limit()),
        kind: Kind::Integer {
            min: 1,
            max: MAX_TIME_LIMIT_MS,
            default: None,
            set: |strategy, ms| strategy.time_limit = Some(Duration::from_millis(ms)),
        },
        description: "Milliseconds the search may take; absent, no limit unless the game sets \
                      a default (the deepening searches').",
        on_game: |knob, algorithm, game| {
            let deepening = algorithm.record().stops == Stops::Deepening;
            let how = if deepening {
                "It deepens iteratively (depth 1, 2, ...) until the game is searched to the end \
                 or the time is up, and answers with the best move of the last completed \
                 iteration, exact only if proven."
            } else {
                "Sampling stops then, even if fewer playouts or simulations were run: the result \
                 then depends on the machine's speed. Given without a count, it samples until \
                 the time; with one, whichever comes first stops it."
            };
            knob.description = format!("{} {how}", knob.description).into();
            if let Some(ms) = game
                .declaration
                .limits
                .default_time_limit_ms
                .filter(|_| deepening)
            {
                knob.default = json!(ms);
            }
        },
    },
    Knob {
        name: MOVETIME,
        label: "Time a move (ms)",
        algorithms: TakenBy::These(&[A::Engine]),
        kind: Kind::Integer {
            min: 1,
            max: MAX_TIME_LIMIT_MS,
            default: None,
            set: |strategy, ms| strategy.time_limit = Some(Duration::from_millis(ms)),
        },
        description: "time_limit_ms by UCI's name (go movetime), as UCI's users write it; \
                      one of the two, not both.",
        on_game: same_on_every_game,
    },
    Knob {
        name: "hash_mb",
        label: "Hash (MiB)",
        algorithms: TakenBy::These(&[A::Engine]),
        kind: Kind::Integer {
            min: 1,
            max: 256,
            default: Some(search::DEFAULT_HASH_MB as u64),
            set: |strategy, mib| strategy.engine.hash_mb = mib as u32,
        },
        description: "The size of the engine's transposition table, in MiB (UCI's Hash). Each \
                      search has a clean one of its own, taken from the engine's recent tables \
                      where one of that size is idle (docs/operations.md).",
        on_game: same_on_every_game,
    },
    Knob {
        name: "threads",
        label: "Threads",
        algorithms: TakenBy::These(&[A::Engine]),
        kind: Kind::Integer {
            min: 1,
            max: search::MAX_THREADS as u64,
            default: Some(1),
            set: |strategy, threads| strategy.engine.threads = threads as u32,
        },
        description: "Threads the engine searches on, sharing one table (Lazy SMP; UCI's \
                      Threads), at full strength: a level plays on one. On the service a search \
                      of T threads holds T heavy slots, and T is at most the service's \
                      max_threads (GET /limits); a review or tournament takes one thread a \
                      search, its positions and games running in parallel.",
        on_game: same_on_every_game,
    },
    Knob {
        name: "nodes",
        label: "Nodes",
        algorithms: TakenBy::These(&[A::Engine]),
        kind: Kind::Integer {
            min: 1,
            max: 1_000_000_000_000,
            default: None,
            set: |strategy, nodes| strategy.engine.nodes = Some(nodes),
        },
        description: "The most nodes the engine searches (UCI's go nodes); it answers with its \
                      last completed iteration. The service's max_nodes bounds it too.",
        on_game: same_on_every_game,
    },
    clock_of_a_side(
        "wtime",
        "White's clock (ms)",
        1,
        MAX_CLOCK_MS,
        "Milliseconds left on White's clock (UCI's wtime).",
        |strategy, ms| strategy.engine.clock.wtime = Some(Duration::from_millis(ms)),
    ),
    clock_of_a_side(
        "btime",
        "Black's clock (ms)",
        1,
        MAX_CLOCK_MS,
        "Milliseconds left on Black's clock (UCI's btime).",
        |strategy, ms| strategy.engine.clock.btime = Some(Duration::from_millis(ms)),
    ),
    clock_of_a_side(
        "winc",
        "White's increment (ms)",
        0,
        MAX_INCREMENT_MS,
        "Milliseconds White's clock gains with each move (UCI's winc).",
        |strategy, ms| strategy.engine.clock.winc = Some(Duration::from_millis(ms)),
    ),
    clock_of_a_side(
        "binc",
        "Black's increment (ms)",
        0,
        MAX_INCREMENT_MS,
        "Milliseconds Black's clock gains with each move (UCI's binc).",
        |strategy, ms| strategy.engine.clock.binc = Some(Duration::from_millis(ms)),
    ),
    clock(
        "byoyomi",
        "Byoyomi (ms)",
        0,
        MAX_INCREMENT_MS,
        "Milliseconds each move may take once a side's clock is spent (USI's byoyomi): the \
         time of a move is then at least this, less a margin.",
        |strategy, ms| strategy.engine.clock.byoyomi = Some(Duration::from_millis(ms)),
    ),
    clock(
        "movestogo",
        "Moves to go",
        1,
        1_000,
        "Moves until the clock's next time control (UCI's movestogo); absent, the engine \
         plans for 25.",
        |strategy, moves| strategy.engine.clock.movestogo = Some(moves as u32),
    ),
    Knob {
        name: "without",
        label: "Without",
        algorithms: TakenBy::These(&[A::Engine]),
        kind: Kind::Choice {
            values: |game| {
                let mut values = vec!["nothing"];
                values.extend(game.declaration.engine.steps);
                values
            },
            set: |strategy, index, step| strategy.engine.without = (index > 0).then_some(step),
        },
        description: "One step of the engine's search turned off, to measure what it gains \
                      (docs/chess.md); the engine plays best with nothing.",
        on_game: same_on_every_game,
    },
    Knob {
        name: "elo",
        label: "Strength (Elo)",
        algorithms: TakenBy::These(&[A::Engine]),
        kind: Kind::Integer {
            min: search::MIN_ELO as u64,
            max: search::MAX_ELO as u64,
            default: None,
            set: |strategy, elo| strategy.engine.elo = Some(elo as u32),
        },
        description: "The strength to play at, on the Elo scale the game's engine is \
                      calibrated on (UCI's UCI_Elo with UCI_LimitStrength); absent, its full \
                      strength.",
        on_game: same_on_every_game,
    },
    Knob {
        name: LEVEL,
        label: "Level",
        algorithms: TakenBy::These(&[A::Engine]),
        kind: Kind::Integer {
            min: 1,
            max: LEVELS as u64,
            default: None,
            set: |strategy, level| strategy.engine.level = Some(level as u8),
        },
        description: "The level to play at, from 1 (a beginner wins) to 8 (the engine within \
                      its nodes): a shallower search, and below the top a move drawn from the \
                      analysis that prefers the good ones and now and then misses the best \
                      (docs/levels.md measures each). Absent, its full strength.",
        on_game: same_on_every_game,
    },
    Knob {
        name: "weights",
        label: "Learnt weights",
        algorithms: TakenBy::These(&[A::Engine]),
        kind: Kind::Weights {
            what: Learnt::Evaluation,
            // The shipped are those played without the knob.
            shipped: |_| Vec::new(),
            set_shipped: |_, _| {},
            set_read: |strategy, weights| strategy.engine.weights = Some(weights),
        },
        description: "Which weights of the game's learnt evaluation the engine plays with, \
                      by the name a command line read them under (`sente tournament --weights \
                      NAME=FILE`, `sente learn`'s generations). Absent: the shipped ones.",
        on_game: same_on_every_game,
    },
    Knob {
        name: "multipv",
        label: "Lines (MultiPV)",
        algorithms: TakenBy::These(&[A::Engine]),
        kind: Kind::Integer {
            min: 1,
            max: 500,
            default: None,
            set: |strategy, lines| strategy.engine.multipv = Some(lines as u32),
        },
        description: "How many of the best moves /analyze answers, best first (UCI's and \
                      lichess's MultiPV); absent, every legal move. Above 1 on /move, its \
                      answer's lines: the best that many, the move played the first's.",
        on_game: same_on_every_game,
    },
    Knob {
        name: "tiebreak",
        label: "Among equal moves",
        algorithms: TakenBy::Record(|record| record.breaks_ties),
        kind: Kind::Choice {
            values: |_| Tiebreak::ALL.map(Tiebreak::name).to_vec(),
            set: |strategy, index, _| strategy.tiebreak = Tiebreak::ALL[index],
        },
        description: "Among moves of the same value: the first in move order, a random one \
                      (drawn from seed), or traps: the one leaving the opponent the most \
                      replies that lose. Other than first, every move is searched exactly.",
        on_game: |knob, _, game| {
            if !game.declaration.limits.traps {
                knob.values = Some(vec![Tiebreak::First.name(), Tiebreak::Random.name()]);
                knob.description = format!(
                    "{} (traps, which searches every reply to the end, is not available on \
                     this game.)",
                    knob.description
                )
                .into();
            }
        },
    },
];

/// The seed: a knob of the request rather than of its player (a tournament has one for both
/// players), listed with the knobs of the algorithms that draw from it.
pub const SEED: Knob = Knob {
    name: "seed",
    label: "Seed",
    algorithms: TakenBy::Record(|record| record.chance.takes_seed()),
    kind: Kind::Integer {
        min: 0,
        max: u64::MAX,
        default: None,
        // The strategy has no place for it: the request keeps it.
        set: |_, _| {},
    },
    description: "Seed of every random choice: the same position, knobs and seed give the same \
                  move, score and nodes. Absent: one is drawn and reported. For the exact \
                  algorithms, only with tiebreak random; for alphazero, only with a \
                  temperature above 0.",
    on_game: same_on_every_game,
};

fn same_on_every_game(_: &mut KnobInfo, _: Algorithm, _: &GameRef) {}

/// A side's clock in the game's words: White and Black are UCI's letters (`wtime`), but USI's
/// black (`btime`) is Sente, the first player, and its white Gote.
fn clock_in_the_game_s_words(knob: &mut KnobInfo, _: Algorithm, game: &GameRef) {
    let declaration = &game.declaration;
    let black_first = declaration
        .protocols
        .iter()
        .any(|protocol| protocol.name == "usi");
    let [first, second] = declaration.sides;
    let (white, black) = if black_first {
        (second, first)
    } else {
        (first, second)
    };
    let side = match knob.name.as_bytes().first() {
        Some(b'w') => white,
        _ => black,
    };
    // The clock knobs are UCI's and USI's words; a game that speaks neither reads them as UCI's.
    let protocol = if black_first { "USI" } else { "UCI" };
    knob.label = knob
        .label
        .replace("White", side)
        .replace("Black", side)
        .into();
    knob.description = knob
        .description
        .replace("White", side)
        .replace("Black", side)
        .replace("UCI", protocol)
        .into();
}

/// A side's time or increment, as UCI's `go` names it, labelled in the game's words.
const fn clock_of_a_side(
    name: &'static str,
    label: &'static str,
    min: u64,
    max: u64,
    description: &'static str,
    set: fn(&mut Strategy, u64),
) -> Knob {
    Knob {
        on_game: clock_in_the_game_s_words,
        ..clock(name, label, min, max, description, set)
    }
}

/// A part of the engine's clock, as UCI's `go` names it.
const fn clock(
    name: &'static str,
    label: &'static str,
    min: u64,
    max: u64,
    description: &'static str,
    set: fn(&mut Strategy, u64),
) -> Knob {
    Knob {
        name,
        label,
        algorithms: TakenBy::These(&[A::Engine]),
        kind: Kind::Integer {
            min,
            max,
            default: None,
            set,
        },
        description,
        on_game: same_on_every_game,
    }
}

/// An on-off knob of alphabeta's, off by default.
const fn switch(
    name: &'static str,
    label: &'static str,
    description: &'static str,
    set: fn(&mut Strategy, bool),
) -> Knob {
    Knob {
        name,
        label,
        algorithms: TakenBy::These(&[A::AlphaBeta]),
        kind: Kind::Boolean {
            default: false,
            set,
        },
        description,
        on_game: same_on_every_game,
    }
}
