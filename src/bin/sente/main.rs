//! The `sente` command: parses the command line and hands over to the library. A command is a
//! file that owns its options, its run and its answer (`serve.rs`, `search.rs`, `review.rs`,
//! `tournament.rs`, ...); here are the table of commands and what they share: how a player
//! and a problem are said, and how an answer is written.

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use serde::Serialize;

use sente::api::Problem;

mod bench;
mod learn;
mod perft;
mod positions;
mod review;
mod search;
mod selfplay;
mod serve;
mod tournament;
mod train;

use search::{Search, SearchArgs};
use serve::ServeArgs;

#[derive(Parser)]
#[command(
    name = "sente",
    version,
    about = "A game-AI service for two-player perfect-information games",
    // `sente --addr ...` is `sente serve --addr ...`: serve's options (and their environment
    // variables, which a container sets) apply without the subcommand too.
    args_conflicts_with_subcommands = true
)]
struct Cli {
    /// What to do; without one, `serve`.
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    serve: ServeArgs,
}

#[derive(Subcommand)]
enum Command {
    /// Run the HTTP service (the default).
    Serve(ServeArgs),
    /// Exit 0 if the service answers GET /healthz, 1 otherwise (for container health checks).
    Healthcheck(serve::HealthcheckArgs),
    /// Choose a move in a position and print the answer as JSON (as POST /move).
    #[command(after_help = player_help())]
    Move(SearchArgs),
    /// Score every legal move of a position and print them as JSON, best first (as POST
    /// /analyze).
    #[command(after_help = player_help())]
    Analyze(SearchArgs),
    /// Judge every move of a game with the engine and print the review as JSON (as POST
    /// /review): each move's value, the best move, its class, each side's accuracy. The game
    /// is --moves (from the start or --board), or its record (--record FILE).
    #[command(after_help = player_help())]
    Review(review::ReviewArgs),
    /// Play games between two players and print the result as JSON (as POST /tournament).
    #[command(after_help = player_help())]
    Tournament(Box<tournament::TournamentArgs>),
    /// Count the move paths DEPTH plies long from a position (perft), to check the rules
    /// against published figures, and print the count and its speed as JSON.
    Perft(perft::PerftArgs),
    /// Search each game on the engine kit's bench positions to a fixed depth and print the
    /// node total (at one thread, the search's signature) and the nodes a second, as engine
    /// developers read a bench.
    Bench(bench::BenchArgs),
    /// Write the training positions of recorded games, one a line: BOARD | SCORE | RESULT, the
    /// score (centipawns for chess) and the result (1.0, 0.5, 0.0) from the first player's
    /// view. FILES are what `sente tournament --records` writes: answers, or shards' results.
    Positions(positions::PositionsArgs),
    /// Play a game against itself with a policy-value network (AlphaZero's self-play) and
    /// write the positions `sente train` learns from, with the search's visits and the results
    /// (docs/alphazero.md).
    Selfplay(selfplay::SelfPlayArgs),
    /// Train what a game learns on its positions, and write its weights: chess's and shogi's
    /// evaluation networks and Othello's pattern weights from `sente positions`' lines
    /// (docs/chess.md#the-network, docs/othello.md#the-pattern-evaluation), any other game's
    /// policy-value network from `sente selfplay`'s (docs/alphazero.md).
    Train(train::TrainArgs),
    /// Make generations of a game's learnt evaluation in a directory: the best plays itself,
    /// a candidate trains on its games, and replaces it where Sente's SPRT says it is stronger
    /// (docs/learning.md). Killed at any point, the same command goes on where it stopped;
    /// --step and --shard split a generation over machines.
    Learn(Box<learn::LearnArgs>),
    /// Speak UCI on standard input and output: the engine of the game that speaks it (chess's)
    /// for chess GUIs, match runners (fastchess, cutechess) and lichess-bot.
    Uci,
    /// Speak USI on standard input and output: the engine of the game that speaks it, for shogi
    /// GUIs (ShogiHome, Shogidokoro, ShogiGUI) and match runners.
    Usi,
    /// Speak GTP on standard input and output, as Othello engines do (GRhino's gtp-rhino): the
    /// engine of the game that speaks it (Othello's), for controllers such as Quarry and GoGui.
    Gtp,
    /// Speak the NBoard protocol on standard input and output: the engine of the game that
    /// speaks it (Othello's), for the NBoard GUI.
    Nboard,
}

/// What a player's text is, after the help of the commands that take one.
fn player_help() -> String {
    format!(
        "A player is ALGORITHM[:KNOB=VALUE,...]: the algorithm ({}) and its knobs, named as in \
         the API, e.g. 'alphabeta:depth=3,transposition_table=true' or 'mcts:simulations=1000, \
         uct_c=1'. A knob the algorithm does not take is an error. Every knob's default and \
         limits per game: GET /algorithms?game=GAME on a running service, or \
         docs/algorithms.md.",
        sente::search::Algorithm::names().join(", ")
    )
}

/// Why a command failed, as `sente: ...` says it: a request's problem in the command line's
/// words, the library's typed errors (a file, a run of learning) in theirs.
pub(crate) type Failure = Box<dyn std::error::Error>;

fn main() -> ExitCode {
    let cli = parse_command_line();
    let result = match cli.command {
        // Its answer is its exit status alone, for a container's health probe.
        Some(Command::Healthcheck(args)) => return serve::healthcheck(args),
        command => run(command, cli.serve),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("sente: {error}");
            ExitCode::from(2)
        }
    }
}

/// Runs `command` (none: serve with `serve`'s options).
fn run(command: Option<Command>, serve: ServeArgs) -> Result<(), Failure> {
    match command {
        None => serve::serve(serve)?,
        Some(Command::Serve(args)) => serve::serve(args)?,
        Some(Command::Healthcheck(_)) => unreachable!("main answers it itself"),
        // A request's problem is said with the flag or the player at fault.
        Some(Command::Move(args)) => search::run(args, Search::Move)?,
        Some(Command::Analyze(args)) => search::run(args, Search::Analyze)?,
        Some(Command::Review(args)) => review::run(args)?,
        Some(Command::Tournament(args)) => tournament::run(*args)?,
        Some(Command::Perft(args)) => perft::run(args)?,
        Some(Command::Bench(args)) => bench::run_bench(args)?,
        Some(Command::Positions(args)) => positions::run(args)?,
        Some(Command::Selfplay(args)) => selfplay::run_selfplay(args)?,
        Some(Command::Train(args)) => train::run(args)?,
        Some(Command::Learn(args)) => learn::run(*args)?,
        Some(Command::Uci) => speak("uci")?,
        Some(Command::Usi) => speak("usi")?,
        Some(Command::Gtp) => speak("gtp")?,
        Some(Command::Nboard) => speak("nboard")?,
    }
    Ok(())
}

/// The command line, read as [`Cli`] says, except for one thing clap cannot be told.
///
/// Serve's options stand at the top level too, and clap reads their environment variables
/// whichever subcommand is named. A setting meant for the service would then stop the other
/// commands: in a container, `SENTE_LOG_FORMAT=yaml sente healthcheck` or `SENTE_MAX_NODES=0
/// sente move` failed on an option they never use. So when the first argument names a
/// subcommand, the top-level options lose their environment variables (`sente serve` has its
/// own).
fn parse_command_line() -> Cli {
    let mut command = Cli::command();
    let names_a_subcommand = std::env::args_os()
        .nth(1)
        .is_some_and(|first| command.find_subcommand(first).is_some());
    if names_a_subcommand {
        command = command.mut_args(|arg| arg.env(None));
    }
    Cli::from_arg_matches(&command.get_matches()).unwrap_or_else(|error| error.exit())
}

/// Serves the engine protocol called `name` on standard input and output.
fn speak(name: &str) -> Result<(), String> {
    match sente::api::catalogue::protocol(name) {
        Some(protocol) => (protocol.serve)().map_err(|error| format!("{name}: {error}")),
        None => Err(format!("{name}: no game's engine speaks it")),
    }
}

/// A problem with a player, for the command line: which player, as it was written.
fn in_player(seat: &str, text: &str, problem: Problem) -> String {
    format!("{seat} ({text}): {}", problem.detail)
}

/// A problem with a request field, named by the flag that gives it.
fn flagged(problem: Problem) -> String {
    let whole = problem.field.as_deref().unwrap_or_default();
    let field = whole.strip_prefix("start.").unwrap_or(whole);
    let flag = match field.split('[').next().unwrap_or_default() {
        "" => return problem.detail,
        "first_game" => "--first-game".to_owned(),
        name => format!("--{name}"),
    };
    // The detail starts with the field where it names an item of a list (`moves[2], the 3rd
    // move: ...`): the flag says it in the command line's words.
    let detail = problem.detail.strip_prefix(&format!("{whole}, "));
    format!("{flag}: {}", detail.unwrap_or(&problem.detail))
}

/// Writes `value` as JSON to `path`, or to stdout without one.
fn write_json(value: &impl Serialize, path: Option<&std::path::Path>) -> Result<(), String> {
    match path {
        None => print_json(value),
        Some(path) => {
            let text = serde_json::to_string_pretty(value).expect("answers serialise");
            sente::files::write_bytes(path, (text + "\n").as_bytes())
                .map_err(|error| format!("--output {error}"))
        }
    }
}

/// Prints `value` as JSON. A reader that stops early (`| head`) ends the output quietly, as it
/// does for any Unix tool: a closed pipe is not an error worth a message.
fn print_json(value: &impl Serialize) -> Result<(), String> {
    use std::io::Write;
    let text = serde_json::to_string_pretty(value).expect("answers serialise");
    let mut stdout = std::io::stdout().lock();
    match writeln!(stdout, "{text}").and_then(|()| stdout.flush()) {
        Err(error) if error.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(format!("cannot write the answer: {error}"))
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::Cli;
    use clap::CommandFactory;

    #[test]
    fn every_option_says_what_it_does() {
        let cli = Cli::command();
        cli.clone().debug_assert();
        for command in cli.get_subcommands() {
            for arg in command.get_arguments() {
                assert!(
                    arg.get_help().is_some(),
                    "sente {} --{} has no help text",
                    command.get_name(),
                    arg.get_id()
                );
            }
        }
    }
}
