//! `sente learn`: generations of a game's learnt evaluation in a directory (docs/learning.md):
//! a progress bar a step, a line a finished step on standard error, the generations' rows as
//! JSON at the end.

use crate::Failure;
use std::path::PathBuf;
use std::sync::Mutex;

use clap::{Args, ValueEnum};

use sente::learn::run::{Learning, Settings, steps};

#[derive(Args)]
pub struct LearnArgs {
    /// The run's directory: made for a new run, gone on with for one started.
    #[arg(long)]
    dir: PathBuf,
    /// The game whose evaluation learns (a new run's; a run started knows its own).
    #[arg(long)]
    game: Option<String>,
    /// A new run learns AlphaZero's policy-value network, for a game whose own evaluation
    /// learns otherwise (Othello's patterns).
    #[arg(long)]
    network: bool,
    /// Generations to finish [default: 1]; a generation half made counts as one.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=12))]
    generations: u32,
    /// Only this step of the generation being made, for machines that share one (a
    /// Kubernetes Job's pods): self-play's and the SPRT's pieces split by --shard.
    #[arg(long, value_enum)]
    step: Option<Step>,
    /// With --step selfplay or sprt: play the pieces I, I + N, I + 2N... (I from 0).
    #[arg(long, value_name = "I/N", requires = "step")]
    shard: Option<String>,
    /// Threads to play and train on [default: all cores].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=256))]
    threads: Option<u64>,
    #[command(flatten)]
    settings: SettingsArgs,
}

#[derive(Clone, Copy, ValueEnum)]
enum Step {
    Selfplay,
    Train,
    Sprt,
    Promote,
}

/// A new run's settings (`learn.json` keeps them); each defaults to the game's.
#[derive(Args)]
struct SettingsArgs {
    /// Seeds every generation's games and training.
    #[arg(long)]
    seed: Option<u64>,
    /// Self-play games a generation.
    #[arg(long)]
    games: Option<u64>,
    /// Pieces self-play is split into (what a resumed run restarts from, what machines share).
    #[arg(long)]
    pieces: Option<u64>,
    /// An evaluation's self-play: nodes a move.
    #[arg(long)]
    nodes: Option<u64>,
    /// An evaluation's self-play: random plies each game opens with, MIN-MAX.
    #[arg(long, value_name = "MIN-MAX")]
    random_plies: Option<String>,
    /// A network's self-play: simulations a move.
    #[arg(long)]
    simulations: Option<u32>,
    /// A network's self-play: plies drawn in proportion to visits.
    #[arg(long)]
    temperature_plies: Option<u32>,
    /// A network's self-play: the root noise's Dirichlet alpha.
    #[arg(long)]
    noise_alpha: Option<f64>,
    /// Generations whose positions a candidate learns from.
    #[arg(long)]
    window: Option<u32>,
    /// Training's passes over the data.
    #[arg(long)]
    epochs: Option<u32>,
    /// Training's positions a step.
    #[arg(long)]
    batch: Option<usize>,
    /// Adam's first step size.
    #[arg(long)]
    learning_rate: Option<f32>,
    /// How much of an evaluation's target is the game's result, 0 to 1.
    #[arg(long)]
    result_weight: Option<f32>,
    /// A new network's hidden width (a network's first generation; a tower's channels).
    #[arg(long)]
    hidden: Option<usize>,
    /// A new network as a residual tower of this many blocks (a network's first generation).
    #[arg(long)]
    blocks: Option<usize>,
    /// How much of a network's value target is the search's value, 0 to 1 (the rest the result).
    #[arg(long)]
    search_value_weight: Option<f32>,
    /// A network's self-play: playout cap randomization's fast searches' simulations.
    #[arg(long)]
    fast_simulations: Option<u32>,
    /// A network's self-play: the share of moves searched in full, with --fast-simulations.
    #[arg(long)]
    full_share: Option<f64>,
    /// A network's self-play: forced playouts and policy target pruning [default: true];
    /// `--forced-playouts false` plays without.
    #[arg(long, num_args = 0..=1, default_missing_value = "true", value_name = "BOOL")]
    forced_playouts: Option<bool>,
    /// An evaluation network's candidates with their inputs in the game's king buckets
    /// (shogi: 6; a best without them goes on as one with them), or 1 for none [default: as
    /// the best].
    #[arg(long)]
    king_buckets: Option<usize>,
    /// Generation 0's weights: this file's, rather than the shipped ones.
    #[arg(long)]
    start_from: Option<std::path::PathBuf>,
    /// A network's self-play: first play urgency (-1: the paper's Q of 0).
    #[arg(long, allow_negative_numbers = true)]
    fpu: Option<f64>,
    /// The SPRT's players' knobs beside their weights: time_limit_ms=50, nodes=5000,
    /// simulations=400.
    #[arg(long, value_name = "KNOBS")]
    sprt_knobs: Option<String>,
    /// The SPRT's Elo bounds, ELO0,ELO1.
    #[arg(long, value_name = "ELO0,ELO1")]
    sprt_elo: Option<String>,
    /// The SPRT's most games.
    #[arg(long)]
    sprt_games: Option<u64>,
    /// The SPRT's games a piece (judged after each).
    #[arg(long)]
    sprt_piece_games: Option<u64>,
    /// The SPRT's openings' random plies.
    #[arg(long)]
    sprt_random_plies: Option<u32>,
}

impl SettingsArgs {
    /// `base` with the settings given here.
    fn apply(&self, mut base: Settings) -> Result<Settings, String> {
        macro_rules! set {
            ($($field:ident => $target:expr),* $(,)?) => {
                $(if let Some(value) = self.$field { $target = value; })*
            };
        }
        set!(seed => base.seed, games => base.games, pieces => base.pieces,
             nodes => base.nodes, simulations => base.simulations,
             temperature_plies => base.temperature_plies, noise_alpha => base.noise_alpha,
             window => base.window, epochs => base.epochs, batch => base.batch,
             learning_rate => base.learning_rate, result_weight => base.result_weight,
             sprt_games => base.sprt.games, sprt_piece_games => base.sprt.piece_games,
             sprt_random_plies => base.sprt.random_plies);
        if let Some(knobs) = &self.sprt_knobs {
            base.sprt.knobs = knobs.clone();
        }
        if let Some(hidden) = self.hidden {
            base.hidden = Some(hidden);
        }
        if let Some(blocks) = self.blocks {
            base.blocks = Some(blocks);
        }
        if let Some(buckets) = self.king_buckets {
            base.king_buckets = Some(buckets);
        }
        set!(search_value_weight => base.search_value_weight, full_share => base.tricks.full_share,
             fpu => base.tricks.fpu);
        if let Some(fast) = self.fast_simulations {
            base.tricks.fast_simulations = Some(fast);
        }
        if let Some(forced) = self.forced_playouts {
            base.tricks.forced_playouts = forced;
        }
        if let Some(path) = &self.start_from {
            base.start_from = Some(path.clone());
        }
        if let Some(text) = &self.random_plies {
            let (least, most) = text.split_once('-').unwrap_or((text, text));
            let number = |part: &str| {
                part.trim().parse::<u32>().map_err(|_| {
                    format!("--random-plies: expected MIN-MAX (8-12) or a number, got {text:?}")
                })
            };
            base.random_plies = [number(least)?, number(most)?];
        }
        if let Some(text) = &self.sprt_elo {
            let bounds = text
                .split_once(',')
                .and_then(|(elo0, elo1)| {
                    Some((elo0.trim().parse().ok()?, elo1.trim().parse().ok()?))
                })
                .ok_or_else(|| format!("--sprt-elo: expected ELO0,ELO1 (0,20), got {text:?}"))?;
            (base.sprt.elo0, base.sprt.elo1) = bounds;
        }
        Ok(base)
    }
}

pub fn run(args: LearnArgs) -> Result<(), Failure> {
    let threads = args
        .threads
        .map(|threads| threads as usize)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let written = sente::learn::run::Layout::new(&args.dir).read_settings()?;
    let base = match (&written, &args.game) {
        (Some(written), Some(game)) if &written.game != game => {
            return Err(format!(
                "{} is a run of {}, not {game}",
                args.dir.display(),
                written.game
            )
            .into());
        }
        (Some(written), _) if args.network && !written.network => {
            return Err(format!(
                "{} is a run of {}'s own evaluation, not of a network",
                args.dir.display(),
                written.game
            )
            .into());
        }
        (Some(written), _) => Some(written.clone()),
        (None, Some(game)) => Some(Settings::defaults(game, args.network)?),
        (None, None) => None,
    };
    let settings = base.map(|base| args.settings.apply(base)).transpose()?;
    let learning = Learning::open(&args.dir, settings, threads)?;
    let progress = Bars::default();
    let shard = args
        .shard
        .as_deref()
        .map(crate::tournament::parse_shard)
        .transpose()?;
    let rows = match args.step {
        None => learning.run(args.generations, &progress)?,
        Some(Step::Selfplay) => {
            steps::selfplay(&learning, shard, &progress)?;
            Vec::new()
        }
        Some(Step::Train) => {
            steps::train(&learning, &progress)?;
            Vec::new()
        }
        Some(Step::Sprt) => {
            steps::sprt(&learning, shard, &progress)?;
            Vec::new()
        }
        Some(Step::Promote) => vec![steps::promote(&learning)?],
    };
    for row in &rows {
        eprintln!(
            "generation {}: {}; the best is generation {}",
            row.generation,
            match &row.sprt {
                None => "the first best".to_owned(),
                Some(sprt) => format!(
                    "SPRT {} after {} games (Elo {})",
                    sprt.verdict,
                    sprt.games,
                    sprt.elo.map_or("-".into(), |elo| format!("{elo:+.1}"))
                ),
            },
            row.best_after.map_or("-".into(), |best| best.to_string())
        );
    }
    let (next, best) = learning.state()?;
    Ok(crate::print_json(&serde_json::json!({
        "dir": args.dir,
        "game": learning.settings.game,
        "finished": rows,
        "next_generation": next,
        "best": best,
        "report": args.dir.join("report.md"),
    }))?)
}

/// A progress bar a step on standard error (drawn where it is a terminal), and a line when the
/// step is over.
#[derive(Default)]
struct Bars {
    bar: Mutex<Option<(indicatif::ProgressBar, String)>>,
}

impl steps::Progress for Bars {
    fn start(&self, step: &str, generation: u32, total: u64, done: u64) {
        let bar = indicatif::ProgressBar::new(total);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{prefix} {elapsed_precise} [{bar:30}] {pos}/{len}  {msg}",
            )
            .expect("a valid template")
            .progress_chars("=> "),
        );
        let name = format!("generation {generation}, {step}:");
        bar.set_prefix(name.clone());
        bar.set_position(done);
        *self.bar.lock().unwrap_or_else(|p| p.into_inner()) = Some((bar, name));
    }

    fn advance(&self, done: u64, message: Option<String>) {
        if let Some((bar, _)) = &*self.bar.lock().unwrap_or_else(|p| p.into_inner()) {
            bar.set_position(done);
            if let Some(message) = message {
                bar.set_message(message);
            }
        }
    }

    fn finish(&self, summary: &str) {
        if let Some((bar, name)) = self.bar.lock().unwrap_or_else(|p| p.into_inner()).take() {
            let seconds = bar.elapsed().as_secs_f64();
            bar.finish_and_clear();
            eprintln!("{name} {summary} ({seconds:.1} s)");
        }
    }
}
