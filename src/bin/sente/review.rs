//! `sente review`: a game, from its moves or its record, judged move by move as POST /review
//! judges it.

use clap::Args;

use sente::api::Budget;
use sente::api::Problem;
use sente::api::knobs::PlayerSpec;
use sente::api::request::MoveRequest;
use sente::api::review::{ReviewJob, ReviewRequest};

use super::search::{SearchArgs, player_spec, position};
use super::{flagged, in_player, print_json};

/// `review`: a game and the player that judges it.
#[derive(Args)]
pub(crate) struct ReviewArgs {
    #[command(flatten)]
    search: SearchArgs,
    /// The game's record instead of --moves: a PGN (chess), KIF, KI2 or CSA (shogi), GGF or
    /// transcript (Othello) file, in UTF-8 or Shift_JIS; - reads standard input. Its format is
    /// found from its content, or named by --format.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["board", "moves"])]
    record: Option<std::path::PathBuf>,
    /// The record's format, as GET /games names the game's (PGN, KIF, CSA, GGF, transcript).
    #[arg(long, requires = "record")]
    format: Option<String>,
    /// The threads that search the positions [default: one a core].
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
    threads: Option<u16>,
}

/// Reviews the game of `--moves` or `--record`, on `--threads` threads.
pub(crate) fn run(args: ReviewArgs) -> Result<(), String> {
    let record = match &args.record {
        None => None,
        Some(path) => Some(read_record(path)?),
    };
    let search = args.search;
    let player_text = search.player.as_deref().unwrap_or_default();
    let player = player_spec(search.player.as_deref())?;
    if record.is_none() && search.position.board.is_none() && search.position.moves.is_none() {
        return Err(
            "give the game: --moves e2e4,e7e5,... (from the start, or from --board), or \
             --record FILE"
                .to_owned(),
        );
    }
    let request = ReviewRequest {
        request: MoveRequest {
            game: search.position.game,
            position: position(search.position.board, search.position.moves.as_deref())?,
            seed: search.seed,
            player,
            without_default_time_limit: search.no_time_limit,
            leave_out_position: false,
        },
        record,
        format: args.format,
    };
    let in_request = |problem: Problem| match problem.field.as_deref() {
        Some(field) if PlayerSpec::is_field(field) => in_player("the player", player_text, problem),
        Some("record") => format!("--record: {}", problem.detail),
        _ => flagged(problem),
    };
    let threads = args.threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        usize::from,
    );
    let job = ReviewJob::new(request).map_err(in_request)?;
    print_json(&job.run(&Budget::unlimited(), threads).map_err(in_request)?)
}

/// A record's text, from its file (or standard input for `-`): UTF-8, or Shift_JIS where it is
/// not (a `.kif`), a byte-order mark dropped.
fn read_record(path: &std::path::Path) -> Result<String, String> {
    let bytes = if path.as_os_str() == "-" {
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin(), &mut bytes)
            .map_err(|error| format!("--record -: {error}"))?;
        bytes
    } else {
        std::fs::read(path).map_err(|error| format!("--record {}: {error}", path.display()))?
    };
    let text = match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(error) => encoding_rs::SHIFT_JIS
            .decode(error.as_bytes())
            .0
            .into_owned(),
    };
    Ok(text.trim_start_matches('\u{feff}').to_owned())
}
