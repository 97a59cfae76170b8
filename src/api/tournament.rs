//! `POST /tournament`: many games between two players.
//!
//! Checking a request gives a [`TournamentJob`]; the caller decides how to run its games (the
//! HTTP layer in parts on tokio's blocking pool, the command line on OS threads), and the
//! totals of any split are the same.

use std::ops::Range;
use std::time::Duration;

use serde::Serialize;
use serde::de::{self, MapAccess};

use super::knobs::{self, PlayerSpec};
use super::object::{Object, decode, deserialize_as_object, integer, value};
use super::request::PositionSpec;
use super::{GameRef, Problem};
use crate::games::ForGame;
use crate::search::{Budget, Solve, Strategy, seed};
use crate::tournament::statistics::Estimate;
use crate::tournament::{self, PlayerSummary, Tally, Tournament};

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

deserialize_as_object!(TournamentRequest);

/// The answer to a tournament request.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TournamentResponse {
    pub game: &'static str,
    /// Games asked for (the request's `games`, or the game's default).
    pub games_requested: u64,
    /// Games played to their end; the totals count these only.
    pub games: u64,
    /// Whether every requested game was played.
    pub complete: bool,
    /// Why not, when it was not: `time_limit`, the server's time limit for tournaments
    /// (`tournament_time_limit_ms` in `GET /limits`). (A client that goes away gets no answer.)
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped_by: Option<&'static str>,
    pub first_game: u64,
    pub seed: u64,
    /// The positions the games started from, each played with both colours.
    pub openings: usize,
    /// The cap on plies, when the request set one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_plies: Option<usize>,
    /// Games adjudicated a draw at the cap.
    pub capped_games: u64,
    pub elapsed_ms: f64,
    pub games_per_second: f64,
    pub players: [PlayerSummary; 2],
    /// The pairs of games played from one opening with each player first once (games `2k` and
    /// `2k + 1`), complete among the games played.
    pub pairs: u64,
    /// Those pairs by A's points: `[LL, LD, DD + WL, WD, WW]`.
    pub pentanomial: [u64; 5],
    /// The share of games drawn.
    pub draw_ratio: f64,
    /// What the results say of A against B (Elo with its interval, normalized Elo, LOS), from
    /// the pairs when every game played is in one, else from single games; absent when the
    /// results have no spread to judge by (every game won, or drawn, say).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub estimate: Option<Estimate>,
}

/// The most games a tournament plays.
pub const MAX_GAMES: u64 = 100_000;
/// Bound on `first_game`, so that `first_game + games` cannot overflow.
pub const MAX_FIRST_GAME: u64 = 1 << 48;
/// The most openings a tournament takes.
pub const MAX_OPENINGS: usize = 1_000;
/// The longest cap on a game's plies.
pub const MAX_PLIES_CAP: u64 = 10_000;

/// A checked tournament request, ready to play.
pub struct TournamentJob {
    game: &'static str,
    players: [Strategy; 2],
    games: Range<u64>,
    seed: u64,
    openings: usize,
    max_plies: Option<usize>,
    /// The tournament, of whichever game.
    tournament: Box<dyn Play>,
}

impl std::fmt::Debug for TournamentJob {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TournamentJob")
            .field("game", &self.game)
            .field("players", &self.players)
            .field("games", &self.games)
            .field("seed", &self.seed)
            .finish_non_exhaustive()
    }
}

/// A tournament of any game: what the job asks of it.
trait Play: Send + Sync {
    fn play_until(&self, games: Range<u64>, budget: &Budget) -> Tally;
    fn play_parallel(&self, games: Range<u64>, threads: usize) -> Tally;
}

impl<G: Solve> Play for Tournament<G> {
    fn play_until(&self, games: Range<u64>, budget: &Budget) -> Tally {
        Tournament::play_until(self, games, budget)
    }

    fn play_parallel(&self, games: Range<u64>, threads: usize) -> Tally {
        Tournament::play_parallel(self, games, threads)
    }
}

impl TournamentJob {
    pub fn new(request: TournamentRequest) -> Result<TournamentJob, Problem> {
        struct Check(TournamentRequest);
        impl ForGame for Check {
            type Output = Result<TournamentJob, Problem>;
            fn run<G: Solve>(self) -> Self::Output {
                check::<G>(self.0)
            }
        }
        let game = request.game.clone();
        super::with_game(game.as_deref(), Check(request))?
    }

    /// The indices of the games to play.
    pub fn games(&self) -> Range<u64> {
        self.games.clone()
    }

    /// The games split into `parts` contiguous parts, one for each core, say: the games of a
    /// part are played one after another.
    pub fn parts(&self, parts: usize) -> Vec<Range<u64>> {
        tournament::chunks(self.games(), parts)
    }

    /// Plays the games in `games` (a part of [`TournamentJob::games`]) until `budget` runs out.
    /// CPU-bound.
    pub fn play(&self, games: Range<u64>, budget: &Budget) -> Tally {
        self.tournament.play_until(games, budget)
    }

    /// Plays every game on `threads` OS threads.
    pub fn play_parallel(&self, threads: usize) -> Tally {
        self.tournament.play_parallel(self.games(), threads)
    }

    /// The response for the totals of the parts played, in `elapsed`.
    pub fn report<'a>(
        &self,
        parts: impl IntoIterator<Item = &'a Tally>,
        elapsed: Duration,
    ) -> TournamentResponse {
        let tally = Tally::merged(parts);
        let seconds = elapsed.as_secs_f64();
        let requested = self.games.end - self.games.start;
        let complete = tally.games == requested;
        TournamentResponse {
            game: self.game,
            games_requested: requested,
            games: tally.games,
            complete,
            stopped_by: (!complete).then_some("time_limit"),
            first_game: self.games.start,
            seed: self.seed,
            openings: self.openings,
            max_plies: self.max_plies,
            capped_games: tally.capped,
            elapsed_ms: seconds * 1e3,
            games_per_second: if seconds > 0.0 {
                tally.games as f64 / seconds
            } else {
                0.0
            },
            players: tally.summary(&self.players),
            pairs: tally.pairs.pairs(),
            pentanomial: tally.pairs.0,
            draw_ratio: if tally.games == 0 {
                0.0
            } else {
                tally.players[0].total().draws as f64 / tally.games as f64
            },
            estimate: tally.moments().estimate(),
        }
    }
}

/// Checks a tournament request on its game `G`.
fn check<G: Solve>(request: TournamentRequest) -> Result<TournamentJob, Problem> {
    let game = GameRef::of::<G>();
    let [a, b] = request.players.as_slice() else {
        return Err(Problem::invalid(
            "players",
            format!(
                "a tournament has exactly two players, got {}",
                request.players.len()
            ),
        ));
    };
    let player =
        |spec, seat: &str| knobs::player(&game, spec).map_err(|problem| problem.within(seat));
    let players = [player(a, "players[0]")?, player(b, "players[1]")?];
    let openings: Vec<G> = match (request.start, request.openings) {
        (Some(_), Some(_)) => {
            return Err(Problem::invalid(
                "openings",
                "give start (one position) or openings (several), not both",
            ));
        }
        (Some(start), None) => vec![start.playable().map_err(|p| p.within("start"))?],
        (None, Some(openings)) => {
            if openings.is_empty() || openings.len() > MAX_OPENINGS {
                return Err(Problem::invalid(
                    "openings",
                    format!(
                        "give between 1 and {MAX_OPENINGS} openings, got {}",
                        openings.len()
                    ),
                ));
            }
            openings
                .iter()
                .enumerate()
                .map(|(index, opening)| {
                    opening
                        .playable()
                        .map_err(|p| p.within(&format!("openings[{index}]")))
                })
                .collect::<Result<_, _>>()?
        }
        (None, None) => vec![PositionSpec::start().playable()?],
    };
    let max_plies = knobs::optional_in_range("max_plies", request.max_plies, 1, MAX_PLIES_CAP)?
        .map(|plies| plies as usize);
    // Every opening with both colours, unless the request says otherwise.
    let default_games = if openings.len() > 1 {
        2 * openings.len() as u64
    } else {
        game.declaration.tournament_games
    };
    let games =
        knobs::optional_in_range("games", request.games, 1, MAX_GAMES)?.unwrap_or(default_games);
    let first_game =
        knobs::optional_in_range("first_game", request.first_game, 0, MAX_FIRST_GAME)?.unwrap_or(0);
    let seed = knobs::optional_in_range(knobs::SEED.name, request.seed, 0, u64::MAX)?
        .unwrap_or_else(seed::draw);
    Ok(TournamentJob {
        game: G::NAME,
        players,
        games: first_game..first_game + games,
        seed,
        openings: openings.len(),
        max_plies,
        tournament: Box::new(Tournament {
            players,
            seed,
            openings,
            max_plies,
        }),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::request::MoveRequest;

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
    fn a_players_field_given_twice_is_refused() {
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
    }
}
