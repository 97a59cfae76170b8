//! `sente move` and `sente analyze`: a position and the player that searches it, answered as
//! POST /move and POST /analyze answer.

use clap::Args;

use sente::api::Budget;
use sente::api::Problem;
use sente::api::analyze::AnalyzeJob;
use sente::api::board::BoardSpec;
use sente::api::choose_move::MoveJob;
use sente::api::knobs::PlayerSpec;
use sente::api::request::{MoveRequest, PositionSpec};
use sente::game::Notation;

use super::{flagged, in_player, print_json};

/// The position: the same fields as a request's, with the same meaning.
#[derive(Args)]
pub(crate) struct PositionArgs {
    /// The game, one of those GET /games lists [default: the first].
    #[arg(long)]
    pub(crate) game: Option<String>,
    /// The board in text form, e.g. X.O/.X./..O, or a FEN for chess (GET /games describes each
    /// game's).
    #[arg(long, allow_hyphen_values = true)]
    pub(crate) board: Option<String>,
    /// The moves played from the board (or from the start), comma-separated, e.g. 4,0,8 or
    /// e2e4,e7e5; '' is the start.
    #[arg(long)]
    pub(crate) moves: Option<String>,
}

/// `move` and `analyze`: a position and the player that searches it.
#[derive(Args)]
pub(crate) struct SearchArgs {
    /// The algorithm and its knobs, as ALGORITHM[:KNOB=VALUE,...], with the API's names:
    /// alphabeta:depth=3,transposition_table=true or mcts:simulations=1000 [default: the
    /// game's, alphabeta or, on chess, engine].
    pub(crate) player: Option<String>,
    #[command(flatten)]
    pub(crate) position: PositionArgs,
    /// Seed of the randomised algorithms [default: drawn and reported].
    #[arg(long, allow_negative_numbers = true)]
    pub(crate) seed: Option<i128>,
    /// Search without the game's default time limit unless the player gives time_limit_ms:
    /// the solver solves, alphabeta and the engine deepen to their depth or the end, however
    /// long that takes (the service always keeps its limits).
    #[arg(long)]
    pub(crate) no_time_limit: bool,
}

/// What `move`, `analyze` or `review` asks of the player.
#[derive(Copy, Clone)]
pub(crate) enum Search {
    Move,
    Analyze,
}

pub(crate) fn run(args: SearchArgs, search: Search) -> Result<(), String> {
    let player_text = args.player.as_deref().unwrap_or_default();
    let player = player_spec(args.player.as_deref())?;
    // As in a request, the position is given, never assumed: `--moves ''` is the start.
    if args.position.board.is_none() && args.position.moves.is_none() {
        return Err(
            "give the position: --board X.O/.X./..O (a FEN for chess), or --moves 4,0,8 (the \
             moves played from the start; --moves '' is the start)"
                .to_owned(),
        );
    }
    let request = MoveRequest {
        game: args.position.game,
        position: position(args.position.board, args.position.moves.as_deref())?,
        seed: args.seed,
        player,
        without_default_time_limit: args.no_time_limit,
        leave_out_position: false,
    };
    let in_request = |problem: Problem| match problem.field.as_deref() {
        Some(field) if PlayerSpec::is_field(field) => in_player("the player", player_text, problem),
        _ => flagged(problem),
    };
    let budget = Budget::unlimited();
    match search {
        Search::Move => {
            let job = MoveJob::new(request).map_err(in_request)?;
            print_json(&job.run(&budget).map_err(in_request)?)
        }
        Search::Analyze => {
            let job = AnalyzeJob::new(request).map_err(in_request)?;
            print_json(&job.run(&budget).map_err(in_request)?)
        }
    }
}

/// The position of `--board` or `--moves` (comma-separated, spaces allowed; numbers as
/// numbers, anything else as the game's notation reads it).
pub(crate) fn position(board: Option<String>, moves: Option<&str>) -> Result<PositionSpec, String> {
    let moves = moves.map(|moves| {
        moves
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|text| !text.is_empty())
            .map(|text| match text.parse::<i64>() {
                Ok(number) => Notation::Number(number),
                Err(_) => Notation::Text(text.to_owned()),
            })
            .collect()
    });
    Ok(PositionSpec {
        board: board.map(BoardSpec::Text),
        moves,
    })
}

/// The player written on the command line (`ALGORITHM[:KNOB=VALUE,...]`), the game's default
/// without one.
pub(crate) fn player_spec(text: Option<&str>) -> Result<PlayerSpec, String> {
    match text {
        Some(text) => {
            PlayerSpec::from_text(text).map_err(|problem| in_player("the player", text, problem))
        }
        None => Ok(PlayerSpec::default()),
    }
}
