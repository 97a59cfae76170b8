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
//! Three of KataGo's tricks (Wu, "Accelerating self-play learning in Go", 2019) are options:
//! playout cap randomization (a share of the moves searched in full and written, the rest
//! searched fast, without noise, and only played: more games, so more results to learn values
//! from, for the same time), forced playouts with policy target pruning (the noise's moves tried
//! enough to be judged, then their forced visits taken out of the target), and a first play
//! urgency in the search.
//!
//! A line a position, tab-separated: the board in the game's text form, the game's result for
//! the side to move (`1`, `0` or `-1`), the root's visits as `move_id:visits` pairs, comma-
//! separated, and the search's value of the position for the side to move (a line of the first
//! three alone, as earlier runs wrote them, is read too).

use std::io::Write;
use std::ops::Range;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use rand::{RngExt, SeedableRng};

use super::{AlphaZeroParams, RootNoise, Search, grow};
use crate::game::{Game, Outcome};
use crate::learn::LearnError;
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
    pub tricks: Tricks,
    pub seed: u64,
}

/// KataGo's tricks, each measured in docs/alphazero.md.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Tricks {
    /// Playout cap randomization: a move is searched in full (the run's simulations, with
    /// noise, and written) with chances `full_share`, else with `fast_simulations`, without
    /// noise, and only played. `None`: every move in full.
    pub fast_simulations: Option<u32>,
    pub full_share: f64,
    /// Forced playouts at the root of full searches, and the policy's target pruned of them.
    pub forced_playouts: bool,
    /// The search's first play urgency ([`AlphaZeroParams::fpu`]).
    pub fpu: f64,
}

impl Default for Tricks {
    fn default() -> Tricks {
        Tricks {
            fast_simulations: None,
            full_share: 0.25,
            forced_playouts: false,
            fpu: super::DEFAULT_FPU,
        }
    }
}

impl Tricks {
    /// Says in words what is out of range.
    pub fn check(&self) -> Result<(), LearnError> {
        if !(0.0..=1.0).contains(&self.full_share) {
            return Err(LearnError::Data(format!(
                "the full searches' share is 0 to 1, not {}",
                self.full_share
            )));
        }
        if self.fast_simulations == Some(0) || self.fast_simulations > Some(1_000_000) {
            return Err(LearnError::Options(
                "the fast searches' simulations are 1 to 1,000,000".to_owned(),
            ));
        }
        if !(-1.0..=2.0).contains(&self.fpu) {
            return Err(LearnError::Options(format!(
                "fpu is -1 to 2, not {}",
                self.fpu
            )));
        }
        Ok(())
    }
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
            tricks: Tricks::default(),
            seed,
        }
    }
}

/// A position searched in full: the root's visits by move id (the policy's target), and the
/// search's value of the position for its side to move.
pub struct Searched<G> {
    pub position: G,
    pub visits: Vec<(u16, u32)>,
    pub value: f64,
}

/// One game: its positions searched in full, and the end.
pub struct Record<G: Game> {
    pub positions: Vec<Searched<G>>,
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
        fpu: options.tricks.fpu,
        ..AlphaZeroParams::DEFAULT
    };
    let mut ply: u64 = 0;
    while !game.outcome().is_over() {
        let tricks = options.tricks;
        let full = match tricks.fast_simulations {
            None => true,
            Some(_) => rng.random_bool(tricks.full_share.clamp(0.0, 1.0)),
        };
        let simulations = match tricks.fast_simulations {
            Some(fast) if !full => fast,
            _ => options.simulations,
        };
        let search = Search {
            net,
            params: AlphaZeroParams {
                simulations,
                ..params.clone()
            },
            time_limit: None,
            noise: full.then_some(options.noise),
            forced_playouts: full && tricks.forced_playouts,
            seed: seed::derive(game_seed, ply),
        };
        let grown = grow(&game, &search, &Budget::unlimited());
        let temperature = if (ply as usize) < options.temperature_plies {
            1.0
        } else {
            0.0
        };
        let chosen = grown.choose(temperature, &mut rng);
        let mv = grown.tree.nodes[chosen].mv;
        if full {
            let visits = if tricks.forced_playouts {
                grown.pruned_visits(options.c_puct)
            } else {
                grown.visits()
            };
            positions.push(Searched {
                position: game.clone(),
                visits: visits
                    .into_iter()
                    .map(|(mv, visits)| (G::move_id(mv), visits))
                    .collect(),
                value: grown.root_value(),
            });
        }
        game = game.play(mv);
        ply += 1;
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
        .map(|searched| {
            let position = &searched.position;
            let result = match record.outcome {
                Outcome::Won(winner) if winner == position.side_to_move() => 1,
                Outcome::Won(_) => -1,
                Outcome::Draw | Outcome::InProgress => 0,
            };
            let visits: Vec<String> = searched
                .visits
                .iter()
                .map(|(id, visits)| format!("{id}:{visits}"))
                .collect();
            format!(
                "{position}\t{result}\t{}\t{:.3}",
                visits.join(","),
                searched.value.clamp(-1.0, 1.0)
            )
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
                        let mut text = String::new();
                        for line in lines(&record) {
                            text.push_str(&line);
                            text.push('\n');
                        }
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
/// root's visits each got, the game's result for the side to move, and the search's value of
/// the position where the line gave it.
#[derive(Clone, Debug, PartialEq)]
pub struct Example {
    pub active: Vec<u16>,
    pub legal: Vec<u16>,
    pub policy: Vec<f32>,
    pub result: f32,
    pub search_value: Option<f32>,
}

/// Reads one line that [`lines`] wrote; says in words what is wrong with one that is not.
pub fn read<G: Game>(line: &str) -> Result<Example, LearnError> {
    let mut fields = line.split('\t');
    let (Some(board), Some(result), Some(visits), search_value, None) = (
        fields.next(),
        fields.next(),
        fields.next(),
        fields.next(),
        fields.next(),
    ) else {
        return Err(LearnError::Data(
            "a position is three or four fields apart by tabs: board, result, visits and the \
             search's value"
                .to_owned(),
        ));
    };
    let search_value = match search_value {
        None => None,
        Some(text) => match text.parse::<f32>() {
            Ok(value) if (-1.0..=1.0).contains(&value) => Some(value),
            _ => {
                return Err(LearnError::Data(format!(
                    "the search's value is -1 to 1, not {text:?}"
                )));
            }
        },
    };
    let position: G = board
        .parse()
        .map_err(|error| LearnError::Data(format!("the board: {error}")))?;
    let result: f32 = match result {
        "1" => 1.0,
        "0" => 0.0,
        "-1" => -1.0,
        other => {
            return Err(LearnError::Data(format!(
                "the result is 1, 0 or -1, not {other:?}"
            )));
        }
    };
    let mut legal = Vec::new();
    let mut counts = Vec::new();
    for pair in visits.split(',') {
        let (id, count) = pair
            .split_once(':')
            .ok_or_else(|| LearnError::Data(format!("{pair:?} is not move_id:visits")))?;
        let id: u16 = id
            .parse()
            .map_err(|_| LearnError::Data(format!("{id:?} is not a move id")))?;
        let count: u32 = count
            .parse()
            .map_err(|_| LearnError::Data(format!("{count:?} is not a count")))?;
        if usize::from(id) >= G::MOVE_IDS || legal.contains(&id) {
            return Err(LearnError::Data(format!(
                "move id {id} is out of range or given twice"
            )));
        }
        legal.push(id);
        counts.push(count as f32);
    }
    let moves: Vec<u16> = position.legal_moves().map(G::move_id).collect();
    if moves.len() != legal.len() || !legal.iter().all(|id| moves.contains(id)) {
        return Err(LearnError::Data(
            "the visits are not of the position's legal moves".to_owned(),
        ));
    }
    let total: f32 = counts.iter().sum();
    if total <= 0.0 {
        return Err(LearnError::Data("no move was visited".to_owned()));
    }
    let mut active = Vec::with_capacity(G::NETWORK_INPUTS);
    position.network_inputs(&mut active);
    Ok(Example {
        active,
        legal,
        policy: counts.iter().map(|count| count / total).collect(),
        result,
        search_value,
    })
}
