//! A generation's steps. Each finds where the generation stands from the files there and does
//! only what is missing: a step given a shard (`I/N`) does the pieces `I`, `I + N`, ... of
//! it, the share of one machine of N.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Instant;

use super::report::{Row, SprtRow};
use super::selfplay::SelfPlayRequest;
use super::{Kind, Learning, layout};
use crate::api::Problem;
use crate::api::knobs::{PlayerSpec, player_on_time};
use crate::api::tournament::{
    OpeningsSpec, PlayerInfo, Seated, ShardFile, SprtSpec, TournamentJob, TournamentRequest,
};
use crate::files::FileError;
use crate::learn::LearnError;
use crate::learn::weights::NamedWeights;
use crate::learn::{Epoch, TrainingOptions};
use crate::search::{Algorithm, EvaluationIndex};
use crate::tournament::Results;
use crate::tournament::openings::RandomOpenings;
use crate::tournament::player::{Player, PlayerKind};
use crate::tournament::statistics::Verdict;
use crate::tournament::time_control::Limits;

/// How far a step is, told as it goes (a progress bar on a terminal).
pub trait Progress: Sync {
    /// A step of `generation` begins: `total` units (games, epochs), `done` of them already.
    fn start(&self, step: &str, generation: u32, total: u64, done: u64);
    /// `done` units are now done; `message` says how it goes, if it says anything.
    fn advance(&self, done: u64, message: Option<String>);
    /// The step is over.
    fn finish(&self, summary: &str);
}

/// Tells nothing.
pub struct Quiet;

impl Progress for Quiet {
    fn start(&self, _: &str, _: u32, _: u64, _: u64) {}
    fn advance(&self, _: u64, _: Option<String>) {}
    fn finish(&self, _: &str) {}
}

/// The shard a machine plays: pieces `index`, `index + count`, ...
pub type Shard = Option<(u64, u64)>;

fn mine(pieces: u64, shard: Shard) -> impl Iterator<Item = u64> {
    let (index, count) = shard.unwrap_or((0, 1));
    (index..pieces).step_by(count.max(1) as usize)
}

/// The seed of generation `generation`'s games and training.
fn seed(learning: &Learning, generation: u32) -> u64 {
    learning
        .settings
        .seed
        .wrapping_mul(1_000_003)
        .wrapping_add(u64::from(generation))
}

/// Self-play of the best: the generation's pieces not yet played (of `shard`'s share).
pub fn selfplay(
    learning: &Learning,
    shard: Shard,
    progress: &dyn Progress,
) -> Result<(), LearnError> {
    let (generation, best) = learning.state()?;
    let settings = &learning.settings;
    let all = 0..settings.games;
    let range = |piece| crate::api::tournament::shard(&all, piece, settings.pieces);
    let marker = |piece| learning.layout.piece(generation, "selfplay", piece, "json");
    let pieces: Vec<u64> = mine(settings.pieces, shard).collect();
    let count = |pieces: &mut dyn Iterator<Item = &u64>| {
        pieces
            .map(|&piece| range(piece).end - range(piece).start)
            .sum::<u64>()
    };
    let total = count(&mut pieces.iter());
    let mut done = count(&mut pieces.iter().filter(|&&piece| marker(piece).exists()));
    progress.start("self-play", generation, total, done);
    for &piece in pieces.iter().filter(|&&piece| !marker(piece).exists()) {
        let games = range(piece);
        let played = games.end - games.start;
        match learning.kind {
            Kind::Evaluation(_) => {
                let player = player(learning, best, "", Some(settings.nodes))?;
                let openings = RandomOpenings {
                    random_plies: settings.random_plies[0],
                    random_plies_max: Some(settings.random_plies[1]),
                    balanced: None,
                    per_game: true,
                };
                let job = tournament(
                    learning,
                    [player.clone(), player],
                    all.end,
                    seed(learning, generation),
                    openings,
                    None,
                    true,
                )?;
                let started = Instant::now();
                let results = job.play(games, learning.threads, |results| {
                    progress.advance(done + results.games.len() as u64, None);
                });
                let shard = ShardFile {
                    setup: job.setup().clone(),
                    shard: [piece, settings.pieces],
                    elapsed_ms: started.elapsed().as_secs_f64() * 1e3,
                    results,
                };
                layout::write_json(&marker(piece), &shard)?;
            }
            Kind::PolicyValue { .. } => {
                let request = SelfPlayRequest {
                    game: settings.game.clone(),
                    net: best.map(|best| learning.weights(best)),
                    games,
                    simulations: settings.simulations,
                    temperature_plies: settings.temperature_plies as usize,
                    noise_alpha: settings.noise_alpha,
                    tricks: settings.tricks,
                    seed: seed(learning, generation),
                    threads: learning.threads,
                };
                let path = learning.layout.piece(generation, "selfplay", piece, "txt");
                std::fs::create_dir_all(path.parent().expect("a piece is in a folder"))
                    .map_err(|error| FileError::io(&path, error))?;
                let finished = std::sync::atomic::AtomicU64::new(done);
                let report = crate::files::write_atomically(&path, |out| {
                    super::selfplay::run(request, out, &|| {
                        let now = finished.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        progress.advance(now + 1, None);
                    })
                })?;
                layout::write_json(&marker(piece), &report)?;
            }
        }
        done += played;
        progress.advance(done, None);
    }
    progress.finish(&format!("{done} of {} games played", settings.games));
    Ok(())
}

/// The run's player with generation `generation`'s weights (none: the first generation of a
/// network, which plays with random weights), as a value of the tournament's: the engine
/// with the game's learnt evaluation and those weights, or AlphaZero with the network;
/// `knobs` (the settings', as `--sprt-knobs` writes them) beside, and `nodes` a move where
/// given.
fn player(
    learning: &Learning,
    generation: Option<u32>,
    knobs: &str,
    nodes: Option<u64>,
) -> Result<Seated, LearnError> {
    let game = crate::api::game(Some(&learning.settings.game)).map_err(request_error)?;
    let algorithm = match learning.kind {
        Kind::Evaluation(_) => Algorithm::Engine,
        Kind::PolicyValue { .. } => Algorithm::AlphaZero,
    };
    let spec = PlayerSpec::from_knobs_text(algorithm.name(), knobs).map_err(request_error)?;
    let mut settings: BTreeMap<String, serde_json::Value> = spec.given_settings().collect();
    let read = generation
        .map(|generation| {
            let (name, path) = (format!("g{generation}"), learning.weights(generation));
            match learning.kind {
                Kind::Evaluation(weights) => (weights.load)(&name, &path),
                Kind::PolicyValue { .. } => {
                    crate::api::catalogue::load_network(game.name, &name, &path)
                }
            }
        })
        .transpose()?;
    // Offered to the knobs' checks, so that a game that ships no network plays a read one.
    let shelf: Vec<NamedWeights> = read.iter().cloned().collect();
    let mut strategy = player_on_time(&game, &spec, false, &shelf).map_err(request_error)?;
    match learning.kind {
        Kind::Evaluation(weights) => {
            let evaluation = (game.evaluations)()
                .iter()
                .position(|(name, _)| *name == weights.evaluation)
                .ok_or_else(|| {
                    LearnError::Run(format!(
                        "{} has no evaluation called {}",
                        game.name, weights.evaluation
                    ))
                })?;
            strategy.evaluation = Some(evaluation as EvaluationIndex);
            settings.insert("evaluation".into(), weights.evaluation.into());
            if let Some(read) = &read {
                settings.insert("weights".into(), read.name().into());
            }
            strategy.engine.weights = read;
        }
        Kind::PolicyValue { .. } => {
            if let Some(read) = &read {
                settings.insert("net".into(), read.name().into());
            }
            strategy.alphazero.read = read;
        }
    }
    if let Some(nodes) = nodes {
        settings.insert("nodes".into(), nodes.into());
    }
    Ok(Seated {
        player: Player {
            kind: PlayerKind::Search(strategy),
            limits: Limits {
                nodes,
                ..Limits::default()
            },
        },
        info: PlayerInfo {
            algorithm: Some(algorithm),
            engine: None,
            tc: None,
            settings,
        },
    })
}

/// A request's problem in the loop's words: the field it is about, and what is wrong.
fn request_error(problem: Problem) -> LearnError {
    LearnError::Request(format!(
        "{}{}",
        problem
            .field
            .as_ref()
            .map_or(String::new(), |field| format!("{field}: ")),
        problem.detail
    ))
}

/// A tournament of `players` over `games` games from random openings, checked as any
/// tournament is.
fn tournament(
    learning: &Learning,
    players: [Seated; 2],
    games: u64,
    seed: u64,
    openings: RandomOpenings,
    sprt: Option<SprtSpec>,
    records: bool,
) -> Result<TournamentJob, LearnError> {
    let request = TournamentRequest {
        game: Some(learning.settings.game.clone()),
        games: Some(i128::from(games)),
        seed: Some(i128::from(seed)),
        openings: Some(OpeningsSpec::Random(openings)),
        sprt,
        records: Some(records),
        ..TournamentRequest::default()
    };
    TournamentJob::between(request, players).map_err(request_error)
}

/// The generation's positions and its training: a candidate from the best's weights.
pub fn train(learning: &Learning, progress: &dyn Progress) -> Result<(), LearnError> {
    let (generation, best) = learning.state()?;
    let layout = &learning.layout;
    if layout.training(generation).exists() {
        return Ok(());
    }
    let settings = &learning.settings;
    if let Kind::Evaluation(_) = learning.kind {
        write_positions(learning, generation)?;
    }
    let first = generation.saturating_sub(settings.window - 1).max(1);
    let mut data = Vec::new();
    for past in first..=generation {
        match learning.kind {
            Kind::Evaluation(_) => data.push(layout.positions(past)),
            Kind::PolicyValue { .. } => data.extend(
                (0..settings.pieces).map(|piece| layout.piece(past, "selfplay", piece, "txt")),
            ),
        }
    }
    data.retain(|path| path.exists());
    let mut options = TrainingOptions::new(data.clone(), learning.weights(generation));
    options.epochs = settings.epochs;
    options.batch = settings.batch;
    options.learning_rate = settings.learning_rate;
    options.result_weight = settings.result_weight;
    options.seed = seed(learning, generation);
    options.threads = learning.threads;
    options.from = best.map(|best| learning.weights(best));
    let afresh = options.from.is_none() && matches!(learning.kind, Kind::PolicyValue { .. });
    options.hidden = settings.hidden.filter(|_| afresh);
    options.blocks = settings.blocks.filter(|_| afresh);
    options.search_value_weight = settings.search_value_weight;
    options.king_buckets = settings.king_buckets;
    let trainer = crate::api::catalogue::trainer(&settings.game, settings.network)?;
    progress.start("training", generation, u64::from(settings.epochs), 0);
    let report = (trainer.train)(&options, &mut |epoch: &Epoch| {
        progress.advance(
            u64::from(epoch.number),
            Some(format!("held-out loss {:.5}", epoch.validation_loss)),
        )
    })?;
    progress.finish(&format!(
        "{} positions, held-out loss {:.5}",
        report.positions + report.validation_positions,
        report.validation_loss.last().copied().unwrap_or(f64::NAN)
    ));
    layout::write_json(
        &layout.training(generation),
        &Training {
            data,
            from: options.from,
            seed: options.seed,
            epochs: settings.epochs,
            positions: report.positions,
            validation_positions: report.validation_positions,
            validation_loss: report.validation_loss,
            training_loss: report.training_loss,
            seconds: (report.elapsed.as_secs_f64() * 10.0).round() / 10.0,
        },
    )
}

/// How a candidate was trained.
#[derive(serde::Serialize, serde::Deserialize)]
struct Training {
    /// The files of positions it learnt from.
    data: Vec<PathBuf>,
    /// The weights it went on from.
    from: Option<PathBuf>,
    /// The seed of its first weights and its order of positions.
    #[serde(default)]
    seed: u64,
    epochs: u32,
    /// Positions trained on, and held out to measure the loss on.
    positions: usize,
    validation_positions: usize,
    /// The mean loss on the held-out positions, and on those trained on, after each epoch.
    validation_loss: Vec<f64>,
    training_loss: Vec<f64>,
    seconds: f64,
}

/// The generation's self-play pieces' positions, in one file (once).
fn write_positions(learning: &Learning, generation: u32) -> Result<(), LearnError> {
    let path = learning.layout.positions(generation);
    if path.exists() {
        return Ok(());
    }
    let mut records = Vec::new();
    for piece in 0..learning.settings.pieces {
        let file = learning.layout.piece(generation, "selfplay", piece, "json");
        let shard: ShardFile =
            layout::read_if_there(&file, "a piece of self-play")?.ok_or_else(|| {
                LearnError::Run(format!(
                    "self-play's piece {piece} of generation {generation} is not played yet ({}): \
                 play every piece first (--step selfplay)",
                    file.display()
                ))
            })?;
        records.extend(shard.results.records.into_values());
    }
    crate::files::write_atomically(&path, |out| {
        super::positions::write(&learning.settings.game, &records, out)
    })?;
    Ok(())
}

/// The SPRT of the candidate against the best: its pieces in order (of `shard`'s share),
/// stopping once the pieces before have decided it.
pub fn sprt(learning: &Learning, shard: Shard, progress: &dyn Progress) -> Result<(), LearnError> {
    let (generation, best) = learning.state()?;
    let Some(best) = best else {
        return Ok(()); // the first generation has no best to play
    };
    if !learning.layout.training(generation).exists() {
        return Err(LearnError::Run(format!(
            "generation {generation}'s candidate is not trained yet: train it first (--step train)"
        )));
    }
    let test = &learning.settings.sprt;
    let (job, judge) = sprt_jobs(learning, generation, best)?;
    let pieces = test.games.div_ceil(test.piece_games);
    let marker = |piece| learning.layout.piece(generation, "sprt", piece, "json");
    progress.start(
        "SPRT",
        generation,
        test.games,
        judged(learning, generation)?.games,
    );
    for piece in mine(pieces, shard) {
        let so_far = judged(learning, generation)?;
        if so_far.verdict.is_some() {
            break;
        }
        if marker(piece).exists() {
            continue;
        }
        let start = piece * test.piece_games;
        let games = start..(start + test.piece_games).min(test.games);
        let started = Instant::now();
        let results = job.play(games, learning.threads, |results| {
            progress.advance(so_far.games + results.games.len() as u64, None);
        });
        let shard = ShardFile {
            setup: judge.setup().clone(),
            shard: [piece, pieces],
            elapsed_ms: started.elapsed().as_secs_f64() * 1e3,
            results,
        };
        layout::write_json(&marker(piece), &shard)?;
        let now = judged(learning, generation)?;
        progress.advance(now.games, Some(now.summary()));
    }
    let now = judged(learning, generation)?;
    progress.finish(&now.summary());
    Ok(())
}

/// The SPRT's games, as two jobs of one tournament: the one that plays a piece whole (a test
/// inside a piece could stop it on a few pairs whose spread is next to nothing), and the one
/// whose setup records the test, which the pieces are judged by, each whole.
fn sprt_jobs(
    learning: &Learning,
    generation: u32,
    best: u32,
) -> Result<(TournamentJob, TournamentJob), LearnError> {
    let test = &learning.settings.sprt;
    let candidate = player(learning, Some(generation), &test.knobs, None)?;
    let best = player(learning, Some(best), &test.knobs, None)?;
    let openings = RandomOpenings {
        random_plies: test.random_plies,
        random_plies_max: None,
        balanced: None,
        per_game: false,
    };
    let spec = SprtSpec {
        elo0: test.elo0,
        elo1: test.elo1,
        alpha: test.alpha,
        beta: test.beta,
        elo_model: None,
    };
    let job = |sprt| {
        tournament(
            learning,
            [candidate.clone(), best.clone()],
            test.games,
            seed(learning, generation),
            openings,
            sprt,
            false,
        )
    };
    Ok((job(None)?, job(Some(spec))?))
}

/// Where an SPRT stands on the pieces played in order from the first.
struct Judged {
    games: u64,
    /// `Some` once decided, or once its games ran out (undecided).
    verdict: Option<&'static str>,
    row: Option<SprtRow>,
}

impl Judged {
    fn summary(&self) -> String {
        match &self.row {
            None => "no games yet".into(),
            Some(row) => format!(
                "{} games, Elo {} [{}, {}], LLR {:.2}{}",
                row.games,
                row.elo.map_or("-".into(), |elo| format!("{elo:+.1}")),
                row.elo_95[0].map_or("-inf".into(), |elo| format!("{elo:+.1}")),
                row.elo_95[1].map_or("+inf".into(), |elo| format!("{elo:+.1}")),
                row.llr,
                self.verdict
                    .map_or(String::new(), |verdict| format!(": {verdict}"))
            ),
        }
    }
}

/// The SPRT judged on its pieces in order, after each: it stops at the first piece after which
/// the test has decided, each piece taken whole.
fn judged(learning: &Learning, generation: u32) -> Result<Judged, LearnError> {
    let test = &learning.settings.sprt;
    let pieces = test.games.div_ceil(test.piece_games);
    let mut results = Results::default();
    let mut setup = None;
    let mut seconds = 0.0;
    let mut decided = None;
    let mut llr = 0.0;
    for piece in 0..pieces {
        let file = learning.layout.piece(generation, "sprt", piece, "json");
        let Some(shard) = layout::read_if_there::<ShardFile>(&file, "a piece of an SPRT")? else {
            break;
        };
        let sprt = shard.setup.sprt.ok_or_else(|| {
            LearnError::Run(format!(
                "{}: a piece of a tournament without its test",
                file.display()
            ))
        })?;
        results
            .merge(shard.results)
            .map_err(|overlap| LearnError::Run(overlap.to_string()).in_file(&file))?;
        seconds += shard.elapsed_ms / 1e3;
        setup = Some(shard.setup);
        llr = sprt.llr(&results.tally().moments());
        decided = match sprt.verdict(llr) {
            Verdict::H0 => Some("h0"),
            Verdict::H1 => Some("h1"),
            Verdict::Running if piece + 1 == pieces => Some("undecided"),
            Verdict::Running => None,
        };
        if decided.is_some() {
            break;
        }
    }
    let Some(mut setup) = setup else {
        return Ok(Judged {
            games: 0,
            verdict: None,
            row: None,
        });
    };
    // The totals of the pieces judged, every game of them.
    setup.sprt = None;
    let report = setup.report(results, std::time::Duration::from_secs_f64(seconds), None);
    let candidate = &report.players[0];
    Ok(Judged {
        games: report.games,
        verdict: decided,
        row: Some(SprtRow {
            verdict: decided.unwrap_or("running").to_owned(),
            elo: report
                .estimate
                .as_ref()
                .map(|estimate| tenths(estimate.elo)),
            elo_95: report.estimate.as_ref().map_or([None, None], |estimate| {
                estimate.elo_95.map(|bound| bound.map(tenths))
            }),
            games: report.games,
            wdl: [candidate.wins, candidate.draws, candidate.losses],
            llr: (llr * 1000.0).round() / 1000.0,
            seconds: tenths(seconds),
        }),
    })
}

/// `value` to a tenth, and never -0.
fn tenths(value: f64) -> f64 {
    (value * 10.0).round() / 10.0 + 0.0
}

/// The verdict and the generation's row: the candidate becomes the best where its SPRT
/// accepted H1 (or where there was no best to play); then the report.
pub fn promote(learning: &Learning) -> Result<Row, LearnError> {
    let (generation, best) = learning.state()?;
    let layout = &learning.layout;
    let training: Training =
        layout::read_if_there(&layout.training(generation), "a training's record")?.ok_or_else(
            || {
                LearnError::Run(format!(
                    "generation {generation}'s candidate is not trained yet"
                ))
            },
        )?;
    let sprt = match best {
        None => None,
        Some(_) => {
            let judged = judged(learning, generation)?;
            if judged.verdict.is_none() {
                return Err(LearnError::Run(format!(
                    "generation {generation}'s SPRT has not decided yet ({}): play its pieces \
                     first (--step sprt)",
                    judged.summary()
                )));
            }
            judged.row
        }
    };
    let promoted = sprt.as_ref().is_none_or(|sprt| sprt.verdict == "h1");
    let rows = layout.rows()?;
    let previous = rows.last().expect("generation 0 at least");
    let (games, selfplay_s, nodes) = selfplay_tally(learning, generation)?;
    let row = Row {
        generation,
        games,
        positions: (training.positions + training.validation_positions) as u64,
        selfplay_s: tenths(selfplay_s),
        nodes_per_second: (selfplay_s > 0.0 && nodes > 0)
            .then(|| (nodes as f64 / selfplay_s).round()),
        training_s: training.seconds,
        validation_loss: training.validation_loss.last().copied(),
        promoted,
        best_after: if promoted { Some(generation) } else { best },
        elo_over_first: match (&sprt, promoted) {
            (Some(sprt), true) => previous
                .elo_over_first
                .map(|elo| elo + sprt.elo.unwrap_or(0.0)),
            (None, true) => Some(0.0),
            (_, false) => previous.elo_over_first,
        },
        sprt,
    };
    layout.write_row(&row)?;
    let rows = layout.rows()?;
    crate::files::write_bytes(
        &layout.dir.join("report.md"),
        super::report::markdown(&learning.settings, &rows).as_bytes(),
    )?;
    crate::files::write_bytes(
        &layout.dir.join("elo.svg"),
        super::report::svg(&learning.settings.game, &rows).as_bytes(),
    )?;
    Ok(row)
}

/// Self-play's games, seconds (its pieces' summed) and nodes searched.
fn selfplay_tally(learning: &Learning, generation: u32) -> Result<(u64, f64, u64), LearnError> {
    let (mut games, mut seconds, mut nodes) = (0, 0.0, 0);
    for piece in 0..learning.settings.pieces {
        let file = learning.layout.piece(generation, "selfplay", piece, "json");
        match learning.kind {
            Kind::Evaluation(_) => {
                if let Some(shard) =
                    layout::read_if_there::<ShardFile>(&file, "a piece of self-play")?
                {
                    games += shard.results.games.len() as u64;
                    seconds += shard.elapsed_ms / 1e3;
                    nodes += shard
                        .results
                        .games
                        .values()
                        .map(|game| game.nodes.iter().sum::<u64>())
                        .sum::<u64>();
                }
            }
            Kind::PolicyValue { .. } => {
                if let Some(report) =
                    layout::read_if_there::<serde_json::Value>(&file, "a piece of self-play")?
                {
                    games += report["games"].as_u64().unwrap_or(0);
                    seconds += report["elapsed_s"].as_f64().unwrap_or(0.0);
                }
            }
        }
    }
    Ok((games, seconds, nodes))
}
