//! `POST /record`: a game as a file of one of its record formats (shogi's KIF, KIFU, CSA):
//! the moves, each with its time and what the engine said of it, the players, how it ended.
//! What a front end offers as "download the game", and a tournament's records made files.

use serde::Deserialize;
use serde::de::{self, MapAccess};

use super::Problem;
use super::object::{Object, decode, deserialize_as_object, value};
use super::request::PositionSpec;
use crate::game::{
    Game, Notation, Outcome, Player, RecordFormat, RecordedGame, RecordedMove, TextEncoding,
};
use crate::games::ForGame;
use crate::search::Solve;

/// The longest a player's name, an event's or a date may be, in characters.
const MAX_NAME: usize = 200;
/// The largest evaluation an annotation's `cp` may be, either way: past every engine's scale,
/// short of the scores records write for mates (CSA's 100,000 less the plies).
pub const MAX_CP: i32 = 50_000;
/// The longest mate an annotation's `mate` may name, in moves either way (never 0: the mover
/// of a move is not mated by it); `plies_to_end` at most twice this.
pub const MAX_MATE: i32 = 1_000;

/// A `POST /record` request.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RecordRequest {
    pub game: Option<String>,
    pub position: PositionSpec,
    /// The format's name (`KIF`), in any case; the game's usual one when left out.
    pub format: Option<String>,
    /// The players' names by side, the game's first side (`X`) first.
    pub players: Option<[String; 2]>,
    /// What is known of each move, in the moves' order: none for a move of which nothing is.
    pub annotations: Vec<Option<Annotation>>,
    pub event: Option<String>,
    /// When the game started, as the records write it (`2026/11/28 10:00:00`); now (UTC) when
    /// left out.
    pub date: Option<String>,
}

/// What is known of a move: its time, and what the engine that played it said, with the
/// fields of `/move`'s answer and of a tournament's records; scores from the mover's view.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Annotation {
    #[serde(default)]
    pub time_ms: Option<f64>,
    #[serde(default)]
    pub cp: Option<i32>,
    #[serde(default)]
    pub mate: Option<i32>,
    #[serde(default)]
    pub plies_to_end: Option<u32>,
    #[serde(default)]
    pub depth: Option<u32>,
    #[serde(default)]
    pub nodes: Option<u64>,
    #[serde(default)]
    pub pv: Vec<Notation>,
}

impl RecordRequest {
    pub fn from_json(body: &[u8]) -> Result<Self, Problem> {
        decode(body)
    }
}

impl Annotation {
    /// Refuses a value no engine gives and no record can write (the `index`th move's).
    fn check(&self, index: usize) -> Result<(), Problem> {
        let field = |name: &str| format!("annotations[{index}].{name}");
        if let Some(cp) = self.cp
            && cp.unsigned_abs() > MAX_CP.unsigned_abs()
        {
            return Err(Problem::invalid(
                field("cp"),
                format!("centipawns, from -{MAX_CP} to {MAX_CP}: give a mate as mate"),
            ));
        }
        if let Some(mate) = self.mate
            && (mate == 0 || mate.unsigned_abs() > MAX_MATE.unsigned_abs())
        {
            return Err(Problem::invalid(
                field("mate"),
                format!(
                    "moves to mate, 1 to {MAX_MATE} (the mover mates) or -1 to -{MAX_MATE} (it is \
                     mated), never 0"
                ),
            ));
        }
        if let Some(plies) = self.plies_to_end
            && !(1..=2 * MAX_MATE.unsigned_abs()).contains(&plies)
        {
            return Err(Problem::invalid(
                field("plies_to_end"),
                format!("plies, 1 to {}", 2 * MAX_MATE),
            ));
        }
        Ok(())
    }
}

/// Refuses a `date` that is none: `YYYY/MM/DD` with an optional `HH:MM:SS` (a `-` or `.`
/// between the date's parts, a `T` before the time, as other programs write them), each part in
/// its range.
fn check_date(date: &str) -> Result<(), Problem> {
    let refused = || {
        Problem::invalid(
            "date",
            format!("{date:?} is not a date: YYYY/MM/DD, or YYYY/MM/DD HH:MM:SS"),
        )
    };
    let (day, time) = match date.split_once([' ', 'T']) {
        Some((day, time)) => (day, Some(time)),
        None => (date, None),
    };
    let numbers = |text: &str, separators: &[char]| -> Option<Vec<u32>> {
        text.split(separators)
            .map(|part| {
                (!part.is_empty() && part.len() <= 4 && part.bytes().all(|b| b.is_ascii_digit()))
                    .then(|| part.parse().ok())
                    .flatten()
            })
            .collect()
    };
    let Some([year, month, day]) =
        numbers(day, &['/', '-', '.']).and_then(|d| <[u32; 3]>::try_from(d).ok())
    else {
        return Err(refused());
    };
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return Err(refused()),
    };
    if !(1..=9999).contains(&year) || !(1..=days).contains(&day) {
        return Err(refused());
    }
    if let Some(time) = time {
        let Some([hours, minutes, seconds]) =
            numbers(time.trim(), &[':']).and_then(|t| <[u32; 3]>::try_from(t).ok())
        else {
            return Err(refused());
        };
        if hours > 23 || minutes > 59 || seconds > 60 {
            return Err(refused());
        }
    }
    Ok(())
}

impl Object for RecordRequest {
    const EXPECTING: &'static str = "a record request: a JSON object";
    const FIELDS: &'static [&'static str] = &[
        "game",
        "board",
        "moves",
        "format",
        "players",
        "annotations",
        "event",
        "date",
    ];

    fn read_field<'de, A: MapAccess<'de>>(
        &mut self,
        key: &'static str,
        map: &mut A,
    ) -> Result<(), A::Error> {
        match key {
            "game" => self.game = value(key, map)?,
            "board" | "moves" => self.position.read_field(key, map)?,
            "format" => self.format = value(key, map)?,
            "players" => self.players = value(key, map)?,
            "annotations" => self.annotations = value(key, map)?,
            "event" => self.event = value(key, map)?,
            "date" => self.date = value(key, map)?,
            _ => return Err(de::Error::unknown_field(key, Self::FIELDS)),
        }
        Ok(())
    }
}

deserialize_as_object!(RecordRequest);

/// The answer: a file, its name and its media type.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordFile {
    /// `sente-shogi-20261128-100000.kif`.
    pub name: String,
    /// `text/plain; charset=Shift_JIS`.
    pub media_type: String,
    pub bytes: Vec<u8>,
}

impl RecordRequest {
    /// The game's file.
    pub fn write(&self) -> Result<RecordFile, Problem> {
        struct Write<'a>(&'a RecordRequest);
        impl ForGame for Write<'_> {
            type Output = Result<RecordFile, Problem>;
            fn run<G: Solve>(self) -> Self::Output {
                self.0.write_game::<G>()
            }
        }
        super::with_game(self.game.as_deref(), Write(self))?
    }

    fn write_game<G: Game>(&self) -> Result<RecordFile, Problem> {
        let format = self.format::<G>()?;
        let text =
            |field: &str, given: &Option<String>, default: &str| -> Result<String, Problem> {
                let text = given.clone().unwrap_or_else(|| default.to_owned());
                if text.chars().count() > MAX_NAME || text.chars().any(char::is_control) {
                    return Err(Problem::invalid(
                        field,
                        format!(
                            "at most {MAX_NAME} characters on one line, without control characters"
                        ),
                    ));
                }
                Ok(text)
            };
        // A name the format's encoding cannot write is refused rather than changed: the
        // file would not say what the request did.
        let encodable = |field: &str, text: String| -> Result<String, Problem> {
            if format.encoding == TextEncoding::ShiftJis && encoding_rs::SHIFT_JIS.encode(&text).2 {
                let utf8: Vec<&str> = G::DECLARATION
                    .records
                    .iter()
                    .filter(|other| other.encoding == TextEncoding::Utf8)
                    .map(|other| other.name)
                    .collect();
                return Err(Problem::invalid(
                    field,
                    format!(
                        "{text:?} has characters {} cannot write in Shift_JIS, its encoding: \
                         ask for {}, the same record in UTF-8",
                        format.name,
                        utf8.join(" or ")
                    ),
                ));
            }
            Ok(text)
        };
        let event = encodable("event", text("event", &self.event, "Sente")?)?;
        let date = text("date", &self.date, &crate::game::date::now())?;
        check_date(&date)?;
        let [x, o] = match &self.players {
            Some([x, o]) => [
                encodable("players[0]", text("players[0]", &Some(x.clone()), "")?)?,
                encodable("players[1]", text("players[1]", &Some(o.clone()), "")?)?,
            ],
            None => [String::new(), String::new()],
        };
        // The moves, each checked by the rules, in the game's own notation.
        let start: G = PositionSpec {
            board: self.position.board.clone(),
            moves: Some(Vec::new()),
        }
        .position()?;
        let end: G = self.position.position()?;
        let written = self.position.moves.as_deref().unwrap_or_default();
        if self.annotations.len() > written.len() {
            return Err(Problem::invalid(
                "annotations",
                format!(
                    "{} annotations for {} moves: at most one a move",
                    self.annotations.len(),
                    written.len()
                ),
            ));
        }
        let mut position = start.clone();
        let mut moves = Vec::with_capacity(written.len());
        for (index, notation) in written.iter().enumerate() {
            let mv = position
                .read_move(notation)
                .map_err(|error| Problem::invalid(format!("moves[{index}]"), error.to_string()))?;
            let annotation = self
                .annotations
                .get(index)
                .cloned()
                .flatten()
                .unwrap_or_default();
            let time_ms = annotation.time_ms.unwrap_or(0.0);
            if !(0.0..=1e10).contains(&time_ms) {
                return Err(Problem::invalid(
                    format!("annotations[{index}].time_ms"),
                    "milliseconds, from 0",
                ));
            }
            annotation.check(index)?;
            moves.push(RecordedMove {
                text: position.notation(mv).into_text(),
                time_ms,
                cp: annotation.cp,
                mate: annotation.mate,
                plies_to_end: annotation.plies_to_end,
                depth: annotation.depth,
                nodes: annotation.nodes,
                pv: annotation.pv.into_iter().map(Notation::into_text).collect(),
            });
            position = position.play(mv);
        }
        // The players by who moved first, as records name them; the result from the end.
        let x_first = start.side_to_move() == Player::X;
        let players = if x_first {
            [x.as_str(), o.as_str()]
        } else {
            [o.as_str(), x.as_str()]
        };
        let (winner, ending) = match end.outcome() {
            Outcome::InProgress => (None, "interrupted"),
            Outcome::Draw => (None, end.ending().unwrap_or("draw")),
            Outcome::Won(side) => (
                Some(if (side == Player::X) == x_first {
                    Player::X
                } else {
                    Player::O
                }),
                end.ending().unwrap_or("won"),
            ),
        };
        let bytes = format.bytes(&RecordedGame {
            index: None,
            event: &event,
            date: &date,
            start: &start.to_string(),
            moves: &moves,
            players,
            winner,
            ending,
            detail: None,
        });
        let stamp: String = date.chars().filter(char::is_ascii_digit).take(14).collect();
        let stamp = if stamp.len() == 14 {
            format!("-{}-{}", &stamp[..8], &stamp[8..])
        } else {
            String::new()
        };
        Ok(RecordFile {
            name: format!("sente-{}{stamp}.{}", G::NAME, format.extension),
            media_type: format!(
                "{}; charset={}",
                format.media_type,
                format.encoding.charset()
            ),
            bytes,
        })
    }

    /// The format asked for, of `G`'s.
    fn format<G: Game>(&self) -> Result<RecordFormat, Problem> {
        let formats = G::DECLARATION.records;
        let names = || formats.iter().map(|format| format.name).collect::<Vec<_>>();
        let Some(&usual) = formats.first() else {
            return Err(Problem::invalid(
                "game",
                format!("{} has no record format of its own to write", G::NAME),
            ));
        };
        match &self.format {
            None => Ok(usual),
            Some(name) => formats
                .iter()
                .find(|format| format.name.eq_ignore_ascii_case(name))
                .copied()
                .ok_or_else(|| super::names::unknown("format", "record format", name, &names())),
        }
    }
}
