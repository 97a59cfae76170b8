//! `sente tournament`: a tournament played on this machine's cores with a progress bar, one
//! shard of it, or the merge of shards; as `POST /tournament` answers.

use crate::Failure;
use std::time::Instant;

use clap::{Args, Subcommand};

use sente::api::board::BoardSpec;
use sente::api::request::PositionSpec;
use sente::api::tournament::{self, TournamentJob, TournamentRequest};
use sente::game::Notation;
use sente::learn::weights::{self, NamedWeights};

use super::search::position;
use super::{flagged, in_player, write_json};

#[derive(Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub(crate) struct TournamentArgs {
    #[command(subcommand)]
    merge: Option<MergeCommand>,
    /// Player A, as ALGORITHM[:KNOB=VALUE,...] (mcts:simulations=1000), or an engine given
    /// with --engine, as ENGINE[:OPTION=VALUE,...] (sf:UCI_Elo=1500); either may add tc=10+0.1
    /// (a clock: seconds and increment), tc=0.1/move, or nodes=N.
    #[arg(required = true)]
    player_a: Option<String>,
    /// Player B, in the same form.
    #[arg(required = true)]
    player_b: Option<String>,
    /// Number of games; A moves first in the even-numbered ones [default: the game's, as GET
    /// /games says].
    #[arg(long, allow_negative_numbers = true)]
    games: Option<i128>,
    /// Index of the first game [default: 0].
    #[arg(long, allow_negative_numbers = true)]
    first_game: Option<i128>,
    /// Seed of every game's random choices [default: drawn and reported].
    #[arg(long, allow_negative_numbers = true)]
    seed: Option<i128>,
    /// Threads to play on [default: all cores].
    #[arg(long)]
    threads: Option<usize>,
    /// The game, one of those GET /games lists [default: the first].
    #[arg(long)]
    game: Option<String>,
    /// The board every game starts from, in text form (a FEN for chess) [default: the start].
    #[arg(long, allow_hyphen_values = true, conflicts_with_all = ["openings", "random_plies"])]
    board: Option<String>,
    /// The moves every game starts after (from --board, or the start), comma-separated
    /// [default: none].
    #[arg(long, conflicts_with_all = ["openings", "random_plies"])]
    moves: Option<String>,
    /// A file of openings, each played with both colours: for chess an EPD book (.epd) or a
    /// PGN book (.pgn, each game's main line); else one a line, a board in text form (a line
    /// with a '/': a FEN for chess) or the moves played from the start (e2e4 e7e5), blank lines
    /// and lines starting with '#' skipped.
    #[arg(long, conflicts_with = "random_plies")]
    openings: Option<std::path::PathBuf>,
    /// Openings drawn from the seed instead: this many random plies from the start, or
    /// MIN-MAX (8-12) for a number drawn for each opening.
    #[arg(long)]
    random_plies: Option<String>,
    /// Keep a drawn opening only if a shallow search scores it within this of equal
    /// (centipawns in chess, hundredths of Sente's score elsewhere).
    #[arg(long, requires = "random_plies")]
    balanced: Option<i128>,
    /// Plies after which a game still in progress is adjudicated a draw [default: none].
    #[arg(long, allow_negative_numbers = true)]
    max_plies: Option<i128>,
    /// Stop once a sequential probability ratio test decides: elo0=0,elo1=5[,alpha=0.05,beta=0.05].
    #[arg(long)]
    sprt: Option<String>,
    /// Adjudicate a draw when both players score the game within SCORE of equal for COUNT moves
    /// each, from move NUMBER: move_number=NUMBER,move_count=COUNT,score=SCORE.
    #[arg(long)]
    draw: Option<String>,
    /// Adjudicate a loss when both players score it lost by SCORE or more for COUNT moves each:
    /// move_count=COUNT,score=SCORE.
    #[arg(long)]
    resign: Option<String>,
    /// An external engine the players may name: NAME=PATH[,protocol=usi|xboard][,OPTION=VALUE...]
    /// (UCI unless protocol says otherwise). Repeatable.
    #[arg(long = "engine")]
    engines: Vec<String>,
    /// A policy-value network alphazero's players may name (`alphazero:net=NAME`) beside the
    /// game's shipped ones: NAME=FILE, as `sente train` writes it. Repeatable.
    #[arg(long = "net", value_name = "NAME=FILE")]
    nets: Vec<String>,
    /// Weights of the game's learnt evaluation (chess's or shogi's network, Othello's
    /// patterns) the engine's players may name (`engine:weights=NAME`) in place of the shipped
    /// ones: NAME=FILE, as `sente train` writes them. Repeatable.
    #[arg(long = "weights", value_name = "NAME=FILE")]
    weights: Vec<String>,
    /// Print every game's record with the answer.
    #[arg(long)]
    records: bool,
    /// Write the games as PGN to this file (chess).
    #[arg(long)]
    pgn: Option<std::path::PathBuf>,
    /// Write each game's record to a file of its own in this directory (made if missing):
    /// `game-0001.kif`... in the game's record format (shogi's KIF, in Shift_JIS as Japanese
    /// GUIs and databases read a .kif).
    #[arg(long, value_name = "DIR")]
    records_dir: Option<std::path::PathBuf>,
    /// The formats of --records-dir's files, of the game's own (shogi: KIF, KIFU, CSA),
    /// comma-separated (`KIF,CSA` writes both files of each game); the game's usual one by
    /// default.
    #[arg(long, value_name = "NAMES", requires = "records_dir")]
    record_format: Option<String>,
    /// Play shard I of N (I from 0): a share of the games' pairs. The output is then the
    /// shard's results, for `sente tournament merge`.
    #[arg(long, value_name = "I/N")]
    shard: Option<String>,
    /// Write the answer (or the shard's results) to this file rather than to stdout.
    #[arg(long)]
    output: Option<std::path::PathBuf>,
}

#[derive(Subcommand)]
enum MergeCommand {
    /// Merge shards' results (written by --shard) into the answer one run would have given.
    Merge {
        /// The shards' files, every shard once.
        #[arg(required = true)]
        files: Vec<std::path::PathBuf>,
    },
}

/// Reads `--net NAME=FILE` as a network of `game` (the default game when `None`) onto `shelf`,
/// which the players' `net` knob names it from.
fn load_network(
    game: Option<&str>,
    text: &str,
    shelf: &mut Vec<NamedWeights>,
) -> Result<(), String> {
    read_onto(shelf, "--net", text, |name, path| {
        let game = game.unwrap_or(sente::games::DEFAULT);
        sente::api::catalogue::load_network(game, name, path)
    })
}

/// Reads `--weights NAME=FILE` as weights of `game`'s learnt evaluation onto `shelf`, which the
/// players' `weights` knob names them from.
fn load_weights(
    game: Option<&str>,
    text: &str,
    shelf: &mut Vec<NamedWeights>,
) -> Result<(), String> {
    read_onto(shelf, "--weights", text, |name, path| {
        let game = game.unwrap_or(sente::games::DEFAULT);
        sente::api::catalogue::load_weights(game, name, path)
    })
}

/// Reads `option`'s `NAME=FILE` by `read` onto `shelf`.
fn read_onto(
    shelf: &mut Vec<NamedWeights>,
    option: &str,
    text: &str,
    read: impl FnOnce(&str, &std::path::Path) -> Result<NamedWeights, sente::learn::LearnError>,
) -> Result<(), String> {
    let (name, path) = text
        .split_once('=')
        .map(|(name, path)| (name.trim(), path.trim()))
        .filter(|(name, path)| weights::check_name(name).is_ok() && !path.is_empty())
        .ok_or_else(|| {
            format!(
                "{option}: expected NAME=FILE, the name of letters, digits, '-', '_' and '.', got \
                 {text:?}"
            )
        })?;
    read(name, std::path::Path::new(path))
        .and_then(|read| weights::add_to_shelf(shelf, read))
        .map_err(|error| format!("{option} {name}: {error}"))
}

/// `--shard I/N`'s shard and count.
pub(crate) fn parse_shard(text: &str) -> Result<(u64, u64), String> {
    text.split_once('/')
        .and_then(|(i, n)| Some((i.trim().parse::<u64>().ok()?, n.trim().parse::<u64>().ok()?)))
        .filter(|&(index, count)| index < count && count <= sente::tournament::shards::MAX_SHARDS)
        .ok_or_else(|| format!("--shard: expected I/N with 0 <= I < N, e.g. 3/8, got {text:?}"))
}

/// Plays the tournament (or merges shards), and writes its answer.
pub(crate) fn run(args: TournamentArgs) -> Result<(), Failure> {
    if let Some(MergeCommand::Merge { files }) = &args.merge {
        let shards = files
            .iter()
            .map(|path| {
                let text = sente::files::read_json(path, "a shard's results")
                    .map_err(|error| error.to_string())?;
                let shard = serde_json::from_slice(&text).map_err(|error| {
                    format!("{}: not a shard's results ({error})", path.display())
                })?;
                Ok((path.display().to_string(), shard))
            })
            .collect::<Result<Vec<(String, tournament::ShardFile)>, String>>()?;
        return Ok(write_json(
            &tournament::merge(shards)?,
            args.output.as_deref(),
        )?);
    }
    let engines = engines(&args.engines)?;
    let mut shelf = Vec::new();
    for net in &args.nets {
        load_network(args.game.as_deref(), net, &mut shelf)?;
    }
    for weights in &args.weights {
        load_weights(args.game.as_deref(), weights, &mut shelf)?;
    }
    let (player_a, player_b) = (
        args.player_a.clone().unwrap_or_default(),
        args.player_b.clone().unwrap_or_default(),
    );
    let seats = [("player A", &player_a), ("player B", &player_b)];
    let mut players = Vec::new();
    for (seat, text) in seats {
        let player = tournament::ContestantSpec::from_text(text, &engines)
            .map_err(|problem| in_player(seat, text, problem))?;
        players.push(player);
    }
    let start = match (&args.board, &args.moves) {
        (None, None) => None,
        (board, moves) => Some(position(board.clone(), moves.as_deref())?),
    };
    let mut opening_lines = Vec::new();
    let openings = match (&args.openings, &args.random_plies) {
        (Some(path), _) => {
            let (openings, lines) = read_openings(path, args.game.as_deref())?;
            opening_lines = lines;
            Some(tournament::OpeningsSpec::Listed(openings))
        }
        (None, Some(plies)) => {
            let (least, most) = plies_range(plies)?;
            let random = serde_json::json!({
                "random_plies": least, "random_plies_max": most, "balanced": args.balanced
            });
            let random = serde_json::from_value(random).map_err(|error| {
                format!("--random-plies, --balanced: {}", plain(&error.to_string()))
            })?;
            Some(random)
        }
        (None, None) => None,
    };
    let object = |flag: &str, text: &Option<String>| -> Result<_, String> {
        text.as_deref()
            .map(|text| key_values(flag, text))
            .transpose()
    };
    let sprt = object("--sprt", &args.sprt)?
        .map(serde_json::from_value)
        .transpose()
        .map_err(|error| format!("--sprt: {}", plain(&error.to_string())))?;
    let adjudication = match (
        object("--draw", &args.draw)?,
        object("--resign", &args.resign)?,
    ) {
        (None, None) => None,
        (draw, resign) => Some(
            serde_json::from_value(serde_json::json!({"draw": draw, "resign": resign}))
                .map_err(|error| format!("--draw, --resign: {}", plain(&error.to_string())))?,
        ),
    };
    let request = TournamentRequest {
        game: args.game.clone(),
        players,
        games: args.games,
        first_game: args.first_game,
        seed: args.seed,
        start,
        openings,
        max_plies: args.max_plies,
        sprt,
        adjudication,
        records: Some(args.records || args.pgn.is_some() || args.records_dir.is_some()),
    };
    let job = TournamentJob::new(request, &engines, &shelf).map_err(|problem| {
        let field = problem.field.clone().unwrap_or_default();
        match seats
            .iter()
            .enumerate()
            .find(|(index, _)| field.starts_with(&format!("players[{index}]")))
        {
            Some((_, (seat, text))) => in_player(seat, text, problem),
            // An opening at fault is named by its file's line.
            None => match (field.strip_prefix("openings["), &args.openings) {
                (Some(rest), Some(path)) => {
                    let index: usize = rest
                        .split(']')
                        .next()
                        .and_then(|i| i.parse().ok())
                        .unwrap_or(0);
                    let line = opening_lines.get(index).copied().unwrap_or(0);
                    format!(
                        "--openings {}, line {line}: {}",
                        path.display(),
                        problem.detail
                    )
                }
                _ => flagged(problem),
            },
        }
    })?;
    let pgn = job
        .collecting_format()
        .filter(|format| format.name == "PGN");
    if args.pgn.is_some() && pgn.is_none() {
        return Err(format!(
            "--pgn: {} is not recorded in PGN; --records-dir writes its games in its own \
             formats",
            job.setup().game
        )
        .into());
    }
    let record_formats = match &args.records_dir {
        None => Vec::new(),
        Some(_) => choose_record_formats(
            job.record_formats(),
            args.record_format.as_deref(),
            &job.setup().game,
        )?,
    };
    let games = match &args.shard {
        None => job.setup().games.clone(),
        Some(text) => {
            let (index, count) = parse_shard(text)?;
            tournament::shard(&job.setup().games, index, count)
        }
    };
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let started = Instant::now();
    let bar = progress_bar(games.end - games.start, job.setup().sprt.is_some());
    let results = job.play(games, threads, |results| {
        let report = job.setup().progress(results, started.elapsed());
        bar.set_position(report.games);
        let mut message = match &report.estimate {
            Some(estimate) => {
                let bound = |bound: Option<f64>, none: &str| {
                    bound.map_or(none.to_owned(), |elo| format!("{elo:+.1}"))
                };
                format!(
                    "Elo {:+.1} [{}, {}]",
                    estimate.elo,
                    bound(estimate.elo_95[0], "-inf"),
                    bound(estimate.elo_95[1], "+inf")
                )
            }
            None => "Elo -".to_owned(),
        };
        if let Some(sprt) = &report.sprt {
            message.push_str(&format!(
                "  LLR {:.2} [{:.2}, {:.2}]",
                sprt.llr, sprt.bounds[0], sprt.bounds[1]
            ));
        }
        bar.set_message(message);
    });
    bar.finish_and_clear();
    if let Some(path) = &args.pgn {
        let format = pgn.expect("checked above");
        sente::files::write_bytes(path, &job.games_file(&results, format))
            .map_err(|error| format!("--pgn {error}"))?;
    }
    if let Some(dir) = &args.records_dir {
        for format in &record_formats {
            write_game_files(dir, &job.game_files(&results, format))?;
        }
    }
    if let Some(text) = &args.shard {
        let (index, count) = text.split_once('/').expect("checked above");
        let shard = tournament::ShardFile {
            setup: job.setup().clone(),
            shard: [
                index.trim().parse().expect("checked"),
                count.trim().parse().expect("checked"),
            ],
            elapsed_ms: started.elapsed().as_secs_f64() * 1e3,
            results,
        };
        return Ok(write_json(&shard, args.output.as_deref())?);
    }
    let mut report = job.setup().report(results, started.elapsed(), None);
    if !args.records {
        report.records = None;
    }
    Ok(write_json(&report, args.output.as_deref())?)
}

/// The engines `--engine` gives, each `NAME=PATH[,OPTION=VALUE...]`, each started once to
/// learn its options.
pub(crate) fn engines(
    texts: &[String],
) -> Result<Vec<std::sync::Arc<tournament::EngineConfig>>, String> {
    texts
        .iter()
        .map(|text| {
            tournament::configure_engine(text)
                .map(std::sync::Arc::new)
                .map_err(|error| format!("--engine: {error}"))
        })
        .collect()
}

/// A progress bar on stderr, with the running Elo; drawn only when stderr is a terminal.
fn progress_bar(games: u64, sprt: bool) -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::new(games);
    let template = if sprt {
        "{elapsed_precise} [{bar:30}] {pos} games (of {len} at most)  {msg}"
    } else {
        "{elapsed_precise} [{bar:30}] {pos}/{len} games  {msg}"
    };
    bar.set_style(
        indicatif::ProgressStyle::with_template(template)
            .expect("a valid template")
            .progress_chars("=> "),
    );
    bar
}

/// `KEY=VALUE,...` as a JSON object, each value read as JSON where it can be (numbers).
fn key_values(flag: &str, text: &str) -> Result<serde_json::Value, String> {
    let mut object = serde_json::Map::new();
    for item in text
        .split(',')
        .map(str::trim)
        .filter(|item| !item.is_empty())
    {
        let (key, value) = item
            .split_once('=')
            .ok_or_else(|| format!("{flag}: expected KEY=VALUE, got {item:?}"))?;
        let value = serde_json::from_str(value.trim())
            .unwrap_or_else(|_| serde_json::Value::String(value.trim().to_owned()));
        object.insert(key.trim().to_owned(), value);
    }
    Ok(serde_json::Value::Object(object))
}

/// `--random-plies`: N, or MIN-MAX; the numbers are checked where the request is read.
fn plies_range(text: &str) -> Result<(i128, Option<i128>), String> {
    let number = |part: &str| {
        part.trim().parse::<i128>().map_err(|_| {
            format!("--random-plies: expected a number of plies or MIN-MAX (8-12), got {text:?}")
        })
    };
    Ok(match text.split_once('-') {
        Some((least, most)) if !least.trim().is_empty() => (number(least)?, Some(number(most)?)),
        _ => (number(text)?, None),
    })
}

/// serde's message without its Rust words.
fn plain(message: &str) -> String {
    message
        .replace("i128", "an integer")
        .replace("f64", "a number")
}

/// The largest file of openings read: a thousand openings of long PGN games with their
/// comments fit several times over.
const MAX_OPENINGS_FILE_BYTES: u64 = 16 << 20;

/// The openings of a file, and the line each begins on: a book of the game's, by its
/// extension (chess's `.epd` and `.pgn`), or else one opening a line (a board in text form when
/// it has a '/', else the moves from the start).
fn read_openings(
    path: &std::path::Path,
    game: Option<&str>,
) -> Result<(Vec<PositionSpec>, Vec<usize>), String> {
    let in_file = |error: String| format!("--openings {}: {error}", path.display());
    let bytes = sente::files::read_at_most(path, MAX_OPENINGS_FILE_BYTES, "a book of openings")
        .map_err(|error| format!("--openings {error}"))?;
    let text = String::from_utf8(bytes).map_err(|_| in_file("not UTF-8 text".to_owned()))?;
    let max = tournament::MAX_OPENINGS;
    let extension = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_lowercase);
    // An unknown game reads no book here: the tournament's check names it.
    let books = sente::api::game(game).map_or(&[][..], |game| game.declaration.books);
    let book = books
        .iter()
        .find(|book| Some(book.extension) == extension.as_deref());
    if let Some(book) = book {
        let book = (book.read)(&text, max).map_err(|error| in_file(error.to_string()))?;
        let lines = book.iter().map(|opening| opening.line).collect();
        let openings = book
            .into_iter()
            .map(|opening| PositionSpec {
                board: opening.board.map(BoardSpec::Text),
                moves: Some(opening.moves.into_iter().map(Notation::Text).collect()),
            })
            .collect();
        return Ok((openings, lines));
    }
    let mut openings = Vec::new();
    let mut lines = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if openings.len() == max {
            return Err(in_file(format!(
                "line {}: more than {max} openings, the most a tournament takes",
                index + 1
            )));
        }
        openings.push(match line.contains('/') {
            true => position(Some(line.to_owned()), None)?,
            false => position(None, Some(line))?,
        });
        lines.push(index + 1);
    }
    Ok((openings, lines))
}

/// The record formats `names` (comma-separated, in any case) names among `formats` (a
/// game's); the first where no name is given.
fn choose_record_formats(
    formats: &[sente::game::RecordFormat],
    names: Option<&str>,
    game: &str,
) -> Result<Vec<sente::game::RecordFormat>, String> {
    if formats.is_empty() {
        return Err(format!("--records-dir: {game} declares no record format"));
    }
    let Some(names) = names else {
        return Ok(vec![formats[0]]);
    };
    let known = || {
        formats
            .iter()
            .map(|format| format.name)
            .collect::<Vec<_>>()
            .join(", ")
    };
    names
        .split(',')
        .map(|name| {
            let name = name.trim();
            formats
                .iter()
                .find(|format| format.name.eq_ignore_ascii_case(name))
                .copied()
                .ok_or_else(|| {
                    format!(
                        "--record-format: {game} records in {}, not {name:?}",
                        known()
                    )
                })
        })
        .collect()
}

/// Writes each game's file into `dir`, made if missing; each file as `files` writes one (to a
/// temporary file renamed over it).
fn write_game_files(dir: &std::path::Path, files: &[(String, Vec<u8>)]) -> Result<(), String> {
    std::fs::create_dir_all(dir)
        .map_err(|error| format!("--records-dir {}: {error}", dir.display()))?;
    for (name, bytes) in files {
        sente::files::write_bytes(&dir.join(name), bytes)
            .map_err(|error| format!("--records-dir {error}"))?;
    }
    Ok(())
}
