//! The request types, and the positions they describe. Decoding is `api::object`'s: JSON shape
//! errors are 400, meaning errors (checked afterwards) are 422 (see [`Problem`]).

use serde::de::{self, MapAccess};

use super::Problem;
use super::board::BoardSpec;
use super::knobs::{PLAYER_FIELDS, PlayerSpec};
use super::object::{Object, decode, deserialize_as_object, integer, value};
use crate::game::{Game, Notation};

/// Where a game starts: a board in text or array form, or the moves played from the start;
/// exactly one of the two.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PositionSpec {
    pub board: Option<BoardSpec>,
    pub moves: Option<Vec<Notation>>,
}

/// A `POST /move` (or `/analyze`) request, decoded but not yet checked.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MoveRequest {
    pub game: Option<String>,
    pub position: PositionSpec,
    /// Integers as wide as JSON's, as [`PlayerSpec`]'s are: the range check refuses them.
    pub seed: Option<i128>,
    pub player: PlayerSpec,
}

/// The fields of a `/move` request besides the player's knobs.
const MOVE_OWN_FIELDS: [&str; 4] = ["game", "board", "moves", "seed"];

/// The fields of a `/move` request: its own, then the player's knobs.
const MOVE_FIELDS: [&str; MOVE_OWN_FIELDS.len() + PLAYER_FIELDS.len()] = {
    let mut fields = [""; MOVE_OWN_FIELDS.len() + PLAYER_FIELDS.len()];
    let mut i = 0;
    while i < fields.len() {
        fields[i] = if i < MOVE_OWN_FIELDS.len() {
            MOVE_OWN_FIELDS[i]
        } else {
            PLAYER_FIELDS[i - MOVE_OWN_FIELDS.len()]
        };
        i += 1;
    }
    fields
};

pub const MAX_GAMES: u64 = 100_000;
/// Bound on `first_game`, so that `first_game + games` cannot overflow.
pub const MAX_FIRST_GAME: u64 = 1 << 48;

/// A `POST /tournament` request, decoded but not yet checked.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TournamentRequest {
    pub game: Option<String>,
    pub players: Vec<PlayerSpec>,
    pub games: Option<i128>,
    pub first_game: Option<i128>,
    pub seed: Option<i128>,
    pub start: Option<PositionSpec>,
    pub openings: Option<Vec<PositionSpec>>,
    pub max_plies: Option<i128>,
}

impl MoveRequest {
    pub fn from_json(body: &[u8]) -> Result<Self, Problem> {
        decode(body)
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
            knob => self.player.read_field(knob, map)?,
        }
        Ok(())
    }
}

impl TournamentRequest {
    pub fn from_json(body: &[u8]) -> Result<Self, Problem> {
        decode(body)
    }
}

impl Object for TournamentRequest {
    const EXPECTING: &'static str = "a tournament request: a JSON object";
    const FIELDS: &'static [&'static str] = &[
        "game",
        "players",
        "games",
        "first_game",
        "seed",
        "start",
        "openings",
        "max_plies",
    ];

    fn read_field<'de, A: MapAccess<'de>>(
        &mut self,
        key: &'static str,
        map: &mut A,
    ) -> Result<(), A::Error> {
        match key {
            "game" => self.game = value(key, map)?,
            // The players and the start name their own fields in their errors: prefixed again,
            // a detail would read "players: depth: ...".
            "players" => self.players = map.next_value()?,
            "games" => self.games = integer(key, map)?,
            "first_game" => self.first_game = integer(key, map)?,
            "seed" => self.seed = integer(key, map)?,
            "start" => self.start = map.next_value()?,
            "openings" => self.openings = map.next_value()?,
            "max_plies" => self.max_plies = integer(key, map)?,
            _ => return Err(de::Error::unknown_field(key, Self::FIELDS)),
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

deserialize_as_object!(MoveRequest, TournamentRequest, PositionSpec);

impl PositionSpec {
    /// The start of the game: no moves played.
    pub fn start() -> PositionSpec {
        PositionSpec {
            board: None,
            moves: Some(Vec::new()),
        }
    }

    /// The position this describes.
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

/// The position after `moves` from `game`, each checked.
fn play<G: Game>(mut game: G, moves: &[Notation]) -> Result<G, Problem> {
    for (index, written) in moves.iter().enumerate() {
        // The field is named only once a move is refused: a valid list costs no allocation.
        let mv = game.read_move(written).map_err(|error| {
            let field = format!("moves[{index}]");
            Problem::invalid(&field, format!("{field}: {error}"))
        })?;
        game = game.play(mv);
    }
    Ok(game)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::TicTacToe;

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
            let problem = TournamentRequest::from_json(body).unwrap_err();
            assert_eq!(problem.status, 400);
            assert_eq!(problem.detail, "the body is empty: expected a JSON object");
        }
    }

    #[test]
    fn a_malformed_request_names_the_field_where_it_goes_wrong() {
        let field = |body: &[u8]| TournamentRequest::from_json(body).unwrap_err().field;
        let cases: [(&[u8], Option<&str>); 9] = [
            (
                br#"{"players":[{},{"depth":"deep"}]}"#,
                Some("players[1].depth"),
            ),
            // Repeated fields of the tournament and of its start, as of its players.
            (br#"{"players":[{},{}],"games":1,"games":2}"#, Some("games")),
            (
                br#"{"players":[{},{}],"start":{"moves":[],"moves":[4]}}"#,
                Some("start.moves"),
            ),
            (br#"{"players":[{},{"dpeth":1}]}"#, Some("players[1].dpeth")),
            (
                br#"{"players":[{},{}],"start":{"moves":[0,true]}}"#,
                Some("start.moves[1]"),
            ),
            (br#"{"players":[{},{}],"games":1.5}"#, Some("games")),
            // Not inside any field: not JSON, or not an object (not even an array of the
            // fields in order, which serde's derived decoders take).
            (b"{", None),
            (br#""players""#, None),
            (br#"["tictactoe",[{},{}],2,0,1,null]"#, None),
        ];
        for (body, expected) in cases {
            let body_text = String::from_utf8_lossy(body);
            assert_eq!(field(body).as_deref(), expected, "{body_text}");
        }
        let problem = MoveRequest::from_json(br#"{"moves":[4,true]}"#).unwrap_err();
        assert_eq!(problem.field.as_deref(), Some("moves[1]"));
        // The detail names the field once, not once per level.
        let problem =
            TournamentRequest::from_json(br#"{"players":[{},{"depth":"deep"}]}"#).unwrap_err();
        assert_eq!(
            problem.detail,
            "depth must be an integer, got the string \"deep\" (at line 1, column 30)"
        );
        // Any integer decodes: one out of range is refused by the checks, not here.
        for body in [
            &br#"{"players":[{},{}],"games":-1}"#[..],
            br#"{"players":[{},{}],"games":1e30}"#,
            br#"{"players":[{},{}],"seed":-1}"#,
        ] {
            assert!(TournamentRequest::from_json(body).is_ok());
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
        // A knob of a tournament's player too.
        let problem = TournamentRequest::from_json(
            br#"{"players":[{"algorithm":"random","algorithm":"minimax"},{}]}"#,
        )
        .unwrap_err();
        assert_eq!(problem.status, 400);
        assert!(
            problem.detail.contains("duplicate field `algorithm`"),
            "{problem}"
        );
        assert_eq!(problem.field.as_deref(), Some("players[0].algorithm"));
        // Two different fields are not a duplicate.
        assert!(MoveRequest::from_json(br#"{"board":"X........","depth":1,"seed":2}"#).is_ok());
    }
}
