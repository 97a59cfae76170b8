//! What the commands' requests share: a position ([`PositionSpec`]), and a search of one
//! ([`MoveRequest`], the request of `/move` and `/analyze` alike), with the checks that turn
//! them into a game's position and a [`Strategy`]. Decoding is `api::object`'s: JSON shape
//! errors are 400, meaning errors (checked afterwards) are 422 (see [`Problem`]).

use serde::de::{self, MapAccess};

use super::board::BoardSpec;
use super::knobs::{self, PLAYER_FIELDS, PlayerSpec};
use super::object::{Object, decode, deserialize_as_object, integer, value};
use super::{GameRef, Problem};
use crate::game::{Game, Notation, ordinal};
use crate::games::ForGame;
use crate::search::{Budget, Solve, Strategy, seed};
use crate::tournament::openings::Opening;

/// Where a game starts: a board in text or array form, or the moves played from the start;
/// exactly one of the two.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PositionSpec {
    pub board: Option<BoardSpec>,
    pub moves: Option<Vec<Notation>>,
}

/// A `POST /move` or `/analyze` request, decoded but not yet checked.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MoveRequest {
    pub game: Option<String>,
    pub position: PositionSpec,
    /// Integers as wide as JSON's, as [`PlayerSpec`]'s are: the range check refuses them.
    pub seed: Option<i128>,
    pub player: PlayerSpec,
    /// Search without the game's default time limit when the player gives none: the command
    /// line's `--no-time-limit`, never a request's (the service keeps its limits).
    pub without_default_time_limit: bool,
    /// `"position": false`: the answer leaves out the position it would draw (`board`,
    /// `cells`, `legal_moves`, ...), for a client that draws nothing.
    pub leave_out_position: bool,
}

/// The fields of a search's position and seed, besides the player's knobs: a review's too.
pub(crate) const SEARCH_OWN_FIELDS: [&str; 4] = ["game", "board", "moves", "seed"];

/// The fields of a search, its own then the player's knobs: a review's too.
pub(crate) const SEARCH_FIELDS: [&str; SEARCH_OWN_FIELDS.len() + PLAYER_FIELDS.len()] =
    super::object::fields(&SEARCH_OWN_FIELDS, &PLAYER_FIELDS);

/// The fields of a `/move` or `/analyze` request besides the player's knobs.
pub(crate) const MOVE_OWN_FIELDS: [&str; SEARCH_OWN_FIELDS.len() + 1] =
    super::object::fields(&SEARCH_OWN_FIELDS, &["position"]);

/// The fields of a `/move` request: its own, then the player's knobs.
pub(crate) const MOVE_FIELDS: [&str; MOVE_OWN_FIELDS.len() + PLAYER_FIELDS.len()] =
    super::object::fields(&MOVE_OWN_FIELDS, &PLAYER_FIELDS);

impl MoveRequest {
    pub fn from_json(body: &[u8]) -> Result<Self, Problem> {
        decode(body)
            .map_err(|problem| knobs::offer_the_algorithms_fields(problem, body, &MOVE_OWN_FIELDS))
    }
}

impl Object for MoveRequest {
    const EXPECTING: &'static str = "a move request: a JSON object";
    const FIELDS: &'static [&'static str] = &MOVE_FIELDS;

    fn read_field<'de, A: MapAccess<'de>>(
        &mut self,
        key: &'static str,
        map: &mut A,
    ) -> Result<(), A::Error> {
        match key {
            "game" => self.game = value(key, map)?,
            "board" | "moves" => self.position.read_field(key, map)?,
            "seed" => self.seed = integer(key, map)?,
            "position" => {
                self.leave_out_position = value::<_, Option<bool>>(key, map)? == Some(false)
            }
            knob => self.player.read_field(knob, map)?,
        }
        Ok(())
    }
}

impl Object for PositionSpec {
    const EXPECTING: &'static str = "a position: an object with board or moves";
    const FIELDS: &'static [&'static str] = &["board", "moves"];

    fn read_field<'de, A: MapAccess<'de>>(
        &mut self,
        key: &'static str,
        map: &mut A,
    ) -> Result<(), A::Error> {
        match key {
            // JSON null is no board, as an absent one is.
            "board" => self.board = value(key, map)?,
            "moves" => self.moves = value(key, map)?,
            _ => return Err(de::Error::unknown_field(key, Self::FIELDS)),
        }
        Ok(())
    }
}

deserialize_as_object!(MoveRequest, PositionSpec);

impl PositionSpec {
    /// The start of the game: no moves played.
    pub fn start() -> PositionSpec {
        PositionSpec {
            board: None,
            moves: Some(Vec::new()),
        }
    }

    /// The position this describes, refused if the game is already over: there is no move to
    /// make in it.
    pub fn playable<G: Game>(&self) -> Result<G, Problem> {
        let position: G = self.position()?;
        if position.outcome().is_over() {
            let field = if self.board.is_some() {
                "board"
            } else {
                "moves"
            };
            return Err(super::game_over(&position, field));
        }
        Ok(position)
    }

    /// The position this describes to search: in progress, or where only a draw that could
    /// be claimed ends it (chess's fifty-move rule and repetition), which does not stop
    /// analysis; refused if it is over.
    pub fn searchable<G: Game>(&self) -> Result<G, Problem> {
        let mut position: G = self.position()?;
        position.play_on();
        if position.outcome().is_over() {
            return self.playable();
        }
        Ok(position)
    }

    /// The position the moves start from, and each move read in the position it is played in,
    /// the last leading to [`PositionSpec::position`]'s.
    pub fn moves_read<G: Game>(&self) -> Result<(G, Vec<G::Move>), Problem> {
        let base = match &self.board {
            Some(board) => board.position()?,
            None if self.moves.is_none() => return self.position().map(|end| (end, Vec::new())),
            None => G::start(),
        };
        let (_, moves) = read_moves(base.clone(), self.moves.as_deref().unwrap_or_default())?;
        Ok((base, moves))
    }

    /// The opening this describes for a tournament, refused as [`PositionSpec::playable`]
    /// refuses: its moves kept apart from the position they start from, so that an engine
    /// that cannot be given a position is told them one by one.
    pub fn opening<G: Game>(&self) -> Result<Opening<G>, Problem> {
        let position = self.playable::<G>()?;
        let base = match &self.board {
            Some(board) => board.position()?,
            None => G::start(),
        };
        let (_, moves) = read_moves(base.clone(), self.moves.as_deref().unwrap_or_default())?;
        let opening = Opening::after(base, moves);
        debug_assert!(opening.position == position);
        Ok(opening)
    }

    /// The position this describes, finished or not.
    pub fn position<G: Game>(&self) -> Result<G, Problem> {
        match (&self.board, &self.moves) {
            (Some(board), moves) => play(board.position()?, moves.as_deref().unwrap_or_default()),
            (None, Some(moves)) => play(G::start(), moves),
            // A request without its position is more likely a mistake (a misspelt or dropped
            // field) than a wish to play the first move, and `"moves": []` says that plainly.
            (None, None) => Err(Problem::invalid(
                "board",
                format!(
                    "the position is missing: give board (as {:?}), or moves (the moves played \
                     from the start; [] is the start), or both (the moves played from the board)",
                    G::start().to_string()
                ),
            )),
        }
    }
}

/// A search request checked on its game: a position in progress, the player's strategy, and
/// the seed it draws from.
pub(crate) struct Checked<G> {
    pub position: G,
    pub strategy: Strategy,
    pub seed: u64,
    /// Whether the answer draws the position (`"position": false` leaves it out).
    pub draws_position: bool,
}

/// A checked search of whichever game, to run within a budget: what a searching command keeps
/// of its request.
pub(crate) type Run<T> = Box<dyn Fn(&Budget) -> Result<T, Problem> + Send + Sync>;

/// A command that searches (`/move`, `/analyze`): what it makes of a checked request, to run
/// later (on the blocking pool, say) without knowing the game's type.
pub(crate) trait Search: Sized {
    fn prepare<G: Solve>(checked: Checked<G>) -> Self;
}

impl MoveRequest {
    /// Checks the request on the game it names (the one lookup of it) and prepares command
    /// `S` for it.
    pub(crate) fn prepare<S: Search>(&self) -> Result<S, Problem> {
        struct Prepare<'a, S>(&'a MoveRequest, std::marker::PhantomData<S>);
        impl<S: Search> ForGame for Prepare<'_, S> {
            type Output = Result<S, Problem>;
            fn run<G: Solve>(self) -> Self::Output {
                Ok(S::prepare(self.0.check::<G>()?))
            }
        }
        super::with_game(
            self.game.as_deref(),
            Prepare(self, std::marker::PhantomData),
        )?
    }

    /// Checks everything that can be checked before searching, on the game `G` the request
    /// names.
    fn check<G: Solve>(&self) -> Result<Checked<G>, Problem> {
        let (strategy, seed) = self.strategy::<G>()?;
        Ok(Checked {
            position: self.position.searchable()?,
            strategy,
            seed,
            draws_position: !self.leave_out_position,
        })
    }

    /// The player's strategy on `G` and the seed it draws from: the request's, or one drawn
    /// for a randomised search, or 0.
    pub(crate) fn strategy<G: Solve>(&self) -> Result<(Strategy, u64), Problem> {
        let game = GameRef::of::<G>();
        let mut strategy = knobs::player(&game, &self.player)?;
        if self.without_default_time_limit && self.player.given("time_limit_ms").is_none() {
            strategy = strategy.without_time_limit();
        }
        let requested_seed = knobs::optional_in_range(knobs::SEED.name, self.seed, 0, u64::MAX)?;
        if requested_seed.is_some() && !strategy.is_randomized() {
            return Err(knobs::seed_unused(&strategy, &game));
        }
        // Only a randomised search uses (and reports) its seed: no other draws one.
        let seed = match requested_seed {
            Some(seed) => seed,
            None if strategy.is_randomized() => seed::draw(),
            None => 0,
        };
        Ok((strategy, seed))
    }
}

/// The position after `moves` from `game`, each checked.
fn play<G: Game>(game: G, moves: &[Notation]) -> Result<G, Problem> {
    read_moves(game, moves).map(|(game, _)| game)
}

/// The position after `moves` are played from `game`, and the moves read.
fn read_moves<G: Game>(mut game: G, moves: &[Notation]) -> Result<(G, Vec<G::Move>), Problem> {
    let mut read = Vec::with_capacity(moves.len());
    for (index, written) in moves.iter().enumerate() {
        // The field is named only once a move is refused: a valid list costs no allocation.
        let mv = game.read_move(written).map_err(|error| {
            let field = format!("moves[{index}]");
            let detail = format!("{field}, the {} move: {error}", ordinal(index + 1));
            Problem::invalid(&field, detail)
        })?;
        read.push(mv);
        game = game.play(mv);
    }
    Ok((game, read))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Rules;
    use crate::games::{Othello, TicTacToe};

    #[test]
    fn the_command_line_may_search_without_the_games_default_time_limit() {
        let time_limit = |json: &str, unlimited: bool| {
            let request = MoveRequest {
                without_default_time_limit: unlimited,
                ..MoveRequest::from_json(json.as_bytes()).unwrap()
            };
            request.check::<Othello>().unwrap().strategy.time_limit
        };
        let solver = r#"{"game": "othello", "moves": [], "algorithm": "solver"}"#;
        assert_eq!(
            time_limit(solver, false),
            Some(std::time::Duration::from_secs(1))
        );
        assert_eq!(time_limit(solver, true), None);
        // A limit the player gives stays.
        let given =
            r#"{"game": "othello", "moves": [], "algorithm": "solver", "time_limit_ms": 50}"#;
        assert_eq!(
            time_limit(given, true),
            Some(std::time::Duration::from_millis(50))
        );
    }

    #[test]
    fn moves_and_their_errors_name_the_index() {
        let spec = |moves: Vec<i64>| PositionSpec {
            board: None,
            moves: Some(moves.into_iter().map(Notation::Number).collect()),
        };
        assert_eq!(
            spec(vec![4, 0]).position::<TicTacToe>(),
            Ok("O../.X./...".parse().unwrap())
        );
        let problem = spec(vec![4, 4]).position::<TicTacToe>().unwrap_err();
        assert_eq!(problem.field.as_deref(), Some("moves[1]"));
        let problem = spec(vec![-1]).position::<TicTacToe>().unwrap_err();
        assert_eq!(problem.field.as_deref(), Some("moves[0]"));
        assert_eq!(
            PositionSpec::start().position::<TicTacToe>(),
            Ok(TicTacToe::start())
        );
    }

    #[test]
    fn a_position_is_board_or_moves_exactly() {
        let problem = PositionSpec::default().position::<TicTacToe>().unwrap_err();
        assert_eq!(
            (problem.status, problem.field.as_deref()),
            (422, Some("board"))
        );
        assert!(problem.detail.contains("position is missing"), "{problem}");
        // Both: the moves are played from the board.
        let both = PositionSpec {
            board: Some(BoardSpec::Text("X........".into())),
            moves: Some(vec![Notation::Number(4)]),
        };
        assert_eq!(
            both.position::<TicTacToe>().unwrap(),
            "X...O....".parse::<TicTacToe>().unwrap()
        );
        let taken = PositionSpec {
            board: Some(BoardSpec::Text("X........".into())),
            moves: Some(vec![Notation::Number(0)]),
        };
        let problem = taken.position::<TicTacToe>().unwrap_err();
        assert_eq!(problem.field.as_deref(), Some("moves[0]"), "{problem}");
    }

    #[test]
    fn move_requests_split_the_knobs_from_the_rest() {
        let request = MoveRequest::from_json(
            br#"{"board":"X........","algorithm":"mcts","seed":5,"simulations":50}"#,
        )
        .unwrap();
        assert_eq!(request.seed, Some(5));
        assert_eq!(
            request.player.given("simulations"),
            Some(&super::super::knobs::Given::Integer(50))
        );
        let problem = MoveRequest::from_json(br#"{"bord":"X........"}"#).unwrap_err();
        assert_eq!(problem.status, 400);
        assert!(problem.detail.contains("unknown field `bord`"), "{problem}");
        assert_eq!(problem.field.as_deref(), Some("bord"));
        let problem = MoveRequest::from_json(br#"{"depth":"deep"}"#).unwrap_err();
        assert_eq!(problem.status, 400);
        assert_eq!(problem.field.as_deref(), Some("depth"));
        assert!(MoveRequest::from_json(b"[1]").is_err());
        assert!(MoveRequest::from_json(b"{").is_err());
        for body in [&b""[..], b" \r\n"] {
            let problem = MoveRequest::from_json(body).unwrap_err();
            assert_eq!(problem.status, 400);
            assert_eq!(problem.detail, "the body is empty: expected a JSON object");
        }
    }

    /// The seed, declared beside the knobs (`knobs::SEED`), is taken by the algorithms that
    /// draw from it, and refused by every other search, saying why.
    #[test]
    fn a_seed_is_refused_by_every_search_that_draws_nothing() {
        use crate::search::{Algorithm, Strategy};
        for algorithm in Algorithm::ALL {
            let body = format!(r#"{{"moves":[],"algorithm":"{algorithm}","seed":1}}"#);
            let request = MoveRequest::from_json(body.as_bytes()).unwrap();
            let checked = request.check::<TicTacToe>();
            let draws = Strategy::with_defaults(algorithm).is_randomized();
            assert_eq!(checked.is_ok(), draws, "{algorithm}");
            if let Err(problem) = checked {
                assert_eq!(problem.field.as_deref(), Some("seed"), "{algorithm}");
                let why = if algorithm == Algorithm::AlphaZero {
                    "draws nothing at random at temperature 0"
                } else if knobs::SEED.takes(algorithm) {
                    "draws nothing at random with tiebreak first"
                } else {
                    "seed does not apply to"
                };
                assert!(problem.detail.contains(why), "{algorithm}: {problem}");
            }
        }
    }

    #[test]
    fn a_field_given_twice_is_refused_not_overwritten() {
        // Every field of a move request, each knob included: the last value must not win.
        for field in MOVE_FIELDS {
            let body = format!(r#"{{"{field}":null,"board":"X........","{field}":null}}"#);
            let problem = MoveRequest::from_json(body.as_bytes()).unwrap_err();
            assert_eq!(problem.status, 400, "{body}");
            assert!(
                problem
                    .detail
                    .contains(&format!("duplicate field `{field}`")),
                "{body}: {problem}"
            );
            assert_eq!(problem.field.as_deref(), Some(field), "{body}");
        }
        // Two different fields are not a duplicate.
        assert!(MoveRequest::from_json(br#"{"board":"X........","depth":1,"seed":2}"#).is_ok());
    }
}
