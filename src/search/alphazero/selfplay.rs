//! Self-play: a network plays games against itself, and each position is written with what the
//! search made of it (the root's visits, the policy's target) and how the game ended (the
//! value's target).
//!
//! Exploration, as AlphaZero's: Dirichlet noise on the root's priors at every move, and the
//! first `temperature_plies` moves drawn in proportion to their visits rather than the most
//! visited, so that the games spread over the openings. Game `i` is seeded from `(seed, i)`:
//! shards of one run (`sente selfplay --shard I/N`) play different games, and the same game
//! on every machine.
//!
//! A line a position, tab-separated: the board in the game's text form, the game's result for
//! the side to move (`1`, `0` or `-1`), and the root's visits as `move_id:visits` pairs, comma-
//! separated.

use std::io::Write;
use std::ops::Range;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use rand::SeedableRng;

use super::{AlphaZeroParams, RootNoise, Search, grow};
use crate::game::{Game, Outcome};
use crate::learn::policy_value::PolicyValueNet;
use crate::search::{Budget, SearchRng, seed};

/// How self-play searches and explores.
#[derive(Clone, Copy, Debug)]
pub struct SelfPlay {
    pub simulations: u32,
    pub c_puct: f64,
    pub noise: RootNoise,
    /// The plies whose move is drawn in proportion to visits; after them, the most visited.
    pub temperature_plies: usize,
    pub seed: u64,
}

impl SelfPlay {
    /// AlphaZero's exploration (Dirichlet alpha 1 on a quarter of the root's priors, the first
    /// 8 plies drawn by visits), with `simulations` a move and `seed`.
    pub fn new(simulations: u32, seed: u64) -> SelfPlay {
        SelfPlay {
            simulations,
            c_puct: super::DEFAULT_C_PUCT,
            noise: RootNoise {
                alpha: 1.0,
                fraction: 0.25,
            },
            temperature_plies: 8,
            seed,
        }
    }
}

/// One game: each position with the root's visits by move id, and the end.
pub struct Record<G: Game> {
    pub positions: Vec<(G, Vec<(u16, u32)>)>,
    pub outcome: Outcome,
}

/// Plays game number `index` of a run.
pub fn play<G: Game>(net: &PolicyValueNet, options: &SelfPlay, index: u64) -> Record<G> {
    let game_seed = seed::derive(options.seed, index);
    let mut rng = SearchRng::seed_from_u64(game_seed);
    let mut game = G::start();
    let mut positions = Vec::new();
    let params = AlphaZeroParams {
        simulations: options.simulations,
        c_puct: options.c_puct,
        ..AlphaZeroParams::DEFAULT
    };
    while !game.outcome().is_over() {
        let search = Search {
            net,
            params,
            time_limit: None,
            noise: Some(options.noise),
            seed: seed::derive(game_seed, positions.len() as u64),
        };
        let grown = grow(&game, &search, &Budget::unlimited());
        let temperature = if positions.len() < options.temperature_plies {
            1.0
        } else {
            0.0
        };
        let chosen = grown.choose(temperature, &mut rng);
        let mv = grown.tree.nodes[chosen].mv;
        let visits = grown
            .visits()
            .into_iter()
            .map(|(mv, visits)| (G::move_id(mv), visits))
            .collect();
        positions.push((game.clone(), visits));
        game = game.play(mv);
    }
    Record {
        positions,
        outcome: game.outcome(),
    }
}

/// The record's lines, as [`read`] reads them.
pub fn lines<G: Game>(record: &Record<G>) -> Vec<String> {
    record
        .positions
        .iter()
        .map(|(position, visits)| {
            let result = match record.outcome {
                Outcome::Won(winner) if winner == position.side_to_move() => 1,
                Outcome::Won(_) => -1,
                Outcome::Draw | Outcome::InProgress => 0,
            };
            let visits: Vec<String> = visits
                .iter()
                .map(|(id, visits)| format!("{id}:{visits}"))
                .collect();
            format!("{position}\t{result}\t{}", visits.join(","))
        })
        .collect()
}

/// What a run of games came to.
#[derive(Clone, Copy, Debug, Default, serde::Serialize)]
pub struct Tally {
    pub games: u64,
    pub positions: u64,
    /// Games won by the side that moved first, by the other, drawn.
    pub first_player_wins: u64,
    pub second_player_wins: u64,
    pub draws: u64,
}

/// Plays the games of `indices` on `threads` threads, writing their lines to `out` in the
/// games' order, and telling `on_game` of each game played.
pub fn run<G: Game>(
    net: &PolicyValueNet,
    options: &SelfPlay,
    indices: Range<u64>,
    threads: usize,
    out: &mut (dyn Write + Send),
    on_game: &(dyn Fn() + Sync),
) -> std::io::Result<Tally> {
    let next = AtomicU64::new(indices.start);
    // Finished games wait here until those before them are written.
    let pending: Mutex<(u64, std::collections::BTreeMap<u64, Record<G>>, Tally)> =
        Mutex::new((indices.start, Default::default(), Tally::default()));
    let out = Mutex::new(out);
    let failed: Mutex<Option<std::io::Error>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| {
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= indices.end || failed.lock().unwrap().is_some() {
                        return;
                    }
                    let record = play::<G>(net, options, index);
                    on_game();
                    let mut pending = pending.lock().unwrap();
                    pending.1.insert(index, record);
                    loop {
                        let written = pending.0;
                        let Some(record) = pending.1.remove(&written) else {
                            break;
                        };
                        let tally = &mut pending.2;
                        tally.games += 1;
                        tally.positions += record.positions.len() as u64;
                        match record.outcome {
                            Outcome::Won(crate::game::Player::X) => tally.first_player_wins += 1,
                            Outcome::Won(_) => tally.second_player_wins += 1,
                            _ => tally.draws += 1,
                        }
                        let mut text = lines(&record).join("\n");
                        text.push('\n');
                        if let Err(error) = out.lock().unwrap().write_all(text.as_bytes()) {
                            *failed.lock().unwrap() = Some(error);
                            return;
                        }
                        pending.0 += 1;
                    }
                }
            });
        }
    });
    if let Some(error) = failed.into_inner().unwrap() {
        return Err(error);
    }
    out.into_inner().unwrap().flush()?;
    let tally = pending.into_inner().unwrap().2;
    Ok(tally)
}

/// A position to learn from: the inputs that are on, the legal moves' ids, the share of the
/// root's visits each got, and the game's result for the side to move.
#[derive(Clone, Debug, PartialEq)]
pub struct Example {
    pub active: Vec<u16>,
    pub legal: Vec<u16>,
    pub policy: Vec<f32>,
    pub result: f32,
}

/// Reads one line that [`lines`] wrote; says in words what is wrong with one that is not.
pub fn read<G: Game>(line: &str) -> Result<Example, String> {
    let mut fields = line.split('\t');
    let (Some(board), Some(result), Some(visits), None) =
        (fields.next(), fields.next(), fields.next(), fields.next())
    else {
        return Err("a position is three fields apart by tabs: board, result, visits".to_owned());
    };
    let position: G = board
        .parse()
        .map_err(|error| format!("the board: {error}"))?;
    let result: f32 = match result {
        "1" => 1.0,
        "0" => 0.0,
        "-1" => -1.0,
        other => return Err(format!("the result is 1, 0 or -1, not {other:?}")),
    };
    let mut legal = Vec::new();
    let mut counts = Vec::new();
    for pair in visits.split(',') {
        let (id, count) = pair
            .split_once(':')
            .ok_or_else(|| format!("{pair:?} is not move_id:visits"))?;
        let id: u16 = id.parse().map_err(|_| format!("{id:?} is not a move id"))?;
        let count: u32 = count
            .parse()
            .map_err(|_| format!("{count:?} is not a count"))?;
        if usize::from(id) >= G::MOVE_IDS || legal.contains(&id) {
            return Err(format!("move id {id} is out of range or given twice"));
        }
        legal.push(id);
        counts.push(count as f32);
    }
    let moves: Vec<u16> = position.legal_moves().map(G::move_id).collect();
    if moves.len() != legal.len() || !legal.iter().all(|id| moves.contains(id)) {
        return Err("the visits are not of the position's legal moves".to_owned());
    }
    let total: f32 = counts.iter().sum();
    if total <= 0.0 {
        return Err("no move was visited".to_owned());
    }
    let mut active = Vec::with_capacity(G::NETWORK_INPUTS);
    position.network_inputs(&mut active);
    Ok(Example {
        active,
        legal,
        policy: counts.iter().map(|count| count / total).collect(),
        result,
    })
}
