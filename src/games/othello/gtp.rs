//! Othello's engine over GTP (`sente gtp`), the Go Text Protocol as Othello programs speak it
//! (GRhino's `gtp-rhino`, Edax's `-gtp`) to controllers such as Quarry and GoGui: `boardsize 8`,
//! `clear_board`, `play black d3`, `genmove white`, `undo`, `final_score`, `showboard`,
//! `time_settings` and `time_left`, a pass as `PASS`; squares as Othello writes them, row 1 at
//! the top.
//!
//! A command is a line, with an optional number before it that the answer repeats; the answer
//! is `=` and the result, or `?` and what was wrong, then an empty line. A `play` for the side
//! not to move, when the side to move can only pass, plays the pass first, as controllers that
//! leave passes out expect.

use std::io;
use std::time::Duration;

use super::session::{
    self, DEFAULT_MOVE_TIME, MAX_CLOCK, MAX_MOVE_TIME, NO_TIME_LEFT, Played, colour,
};
use super::{Othello, PASS, final_margin, square_name};
use crate::game::{Drawing, Player, Rules};
use crate::protocols::gtp;
use crate::search::{Budget, Clock};

/// Othello's commands, as `list_commands` lists them after GTP's own.
const COMMANDS: &[&str] = &[
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "reg_genmove",
    "undo",
    "final_score",
    "showboard",
    "time_settings",
    "time_left",
    "set_game",
    "list_games",
    "sente-time_limit_ms",
];

/// The controller's time settings, in seconds, as `time_settings` gives them.
#[derive(Clone, Copy, Default)]
struct TimeSettings {
    main: f64,
    byo_yomi: f64,
    stones: u32,
}

/// The session: the game, and the time a move may take.
#[derive(Default)]
struct Gtp {
    played: Played,
    settings: Option<TimeSettings>,
    /// What `time_left` said last of each side's clock: seconds, and stones left in byo-yomi
    /// (0 in main time).
    left: [Option<(f64, u32)>; 2],
    /// Set by `sente-time_limit_ms`: every move's time, whatever the clock.
    fixed: Option<Duration>,
    /// The budget of the command being answered: its search stops when the input ends.
    budget: Budget,
}

/// Serves GTP for Othello on standard input and output until `quit` or the end of the input.
pub fn serve_stdio() -> io::Result<()> {
    gtp::serve_stdio::<Gtp>()
}

/// Serves GTP for Othello on `input` and `output`.
#[cfg(test)]
fn serve(input: impl io::BufRead + Send + 'static, output: impl io::Write) -> io::Result<()> {
    gtp::serve(Gtp::default(), input, output)
}

impl gtp::Commands for Gtp {
    const COMMANDS: &'static [&'static str] = COMMANDS;

    fn answer(
        &mut self,
        command: &str,
        arguments: &[&str],
        budget: Budget,
    ) -> Result<String, String> {
        self.budget = budget;
        match (command, arguments) {
            ("boardsize", ["8"]) => Ok(String::new()),
            ("boardsize", _) => Err("unacceptable size: Othello is played on 8 x 8".into()),
            ("clear_board", _) => {
                self.played = Played::new();
                Ok(String::new())
            }
            ("komi", _) => Ok(String::new()),
            ("set_game", [name])
                if name.eq_ignore_ascii_case("othello") || name.eq_ignore_ascii_case("reversi") =>
            {
                Ok(String::new())
            }
            ("set_game", _) => Err("unsupported game: Sente's GTP plays Othello".into()),
            ("list_games", _) => Ok("Othello".into()),
            ("play", [side, vertex]) => {
                let side = read_colour(side)?;
                self.played
                    .play(Some(side), vertex)
                    .map(|()| String::new())
                    .map_err(|error| format!("illegal move: {error}"))
            }
            ("genmove", [side]) => self.genmove(read_colour(side)?, true),
            ("reg_genmove", [side]) => self.genmove(read_colour(side)?, false),
            ("undo", _) => {
                if self.played.undo() {
                    Ok(String::new())
                } else {
                    Err("cannot undo: no move played".into())
                }
            }
            ("final_score", _) => Ok(final_score(self.played.position())),
            ("showboard", _) => Ok(showboard(self.played.position())),
            ("time_settings", [main, byo_yomi, stones]) => {
                let settings = TimeSettings {
                    main: seconds(main)?,
                    byo_yomi: seconds(byo_yomi)?,
                    stones: stones.parse().map_err(|_| "stones is a whole number")?,
                };
                self.settings = Some(settings);
                self.left = [None, None];
                Ok(String::new())
            }
            ("time_left", [side, left, stones]) => {
                let side = read_colour(side)?;
                let stones = stones.parse().map_err(|_| "stones is a whole number")?;
                self.left[usize::from(side == Player::O)] = Some((seconds(left)?, stones));
                Ok(String::new())
            }
            ("sente-time_limit_ms", [ms]) => {
                let ms: u64 = ms
                    .parse()
                    .ok()
                    .filter(|ms| (1..=MAX_MOVE_TIME.as_millis() as u64).contains(ms))
                    .ok_or("the time limit is whole milliseconds, 1 to 600000")?;
                self.fixed = Some(Duration::from_millis(ms));
                Ok(String::new())
            }
            // GTP's session hands over only the commands listed: one of them, its arguments
            // not as it takes them.
            (command, _) => Err(format!("syntax error: {command} takes other arguments")),
        }
    }
}

impl Gtp {
    /// The engine's move for `side`, played if `play`; a pass when it has none.
    fn genmove(&mut self, side: Player, play: bool) -> Result<String, String> {
        let mut position = *self.played.position();
        if position.outcome().is_over() {
            return Ok("PASS".into());
        }
        if side != position.side_to_move() {
            if position.placements() != 0 {
                return Err(format!(
                    "it is {}'s move, not {}'s",
                    colour(position.side_to_move()),
                    colour(side)
                ));
            }
            // The side to move can only pass: it does, and `side` is to move.
            position = position.play(PASS);
        }
        let best = if position.placements() == 0 {
            PASS
        } else {
            session::think(
                &position,
                self.move_time(&position, side),
                None,
                &self.budget,
            )
            .best_move
        };
        let written = if best == PASS {
            "PASS".to_owned()
        } else {
            square_name(best).to_ascii_uppercase()
        };
        if play {
            self.played.play(Some(side), &written)?;
        }
        Ok(written)
    }

    /// The time `side`'s move may take: `sente-time_limit_ms` if given; a second where the
    /// settings say "no time limits" (GTP's byo-yomi time without stones) or there are none;
    /// else the one policy of every protocol's clock ([`Clock::share`], UCI's and USI's too):
    /// in main time, what is left over its moves left (about half the empty squares) with a
    /// byo-yomi move's time as its increment, in byo-yomi the period's time over its stones; at
    /// most [`MAX_MOVE_TIME`], a move at once ([`NO_TIME_LEFT`]) when the clock has nothing left.
    fn move_time(&self, position: &Othello, side: Player) -> Duration {
        if let Some(fixed) = self.fixed {
            return fixed;
        }
        let settings = match self.settings {
            Some(settings) if !(settings.byo_yomi > 0.0 && settings.stones == 0) => settings,
            _ => return DEFAULT_MOVE_TIME,
        };
        let moves_left = (position.empties().count_ones() / 2).max(1);
        let (left, stones) =
            self.left[usize::from(side == Player::O)].unwrap_or((settings.main, 0));
        if left <= 0.0 {
            return NO_TIME_LEFT;
        }
        let in_byo_yomi = stones > 0;
        // One side's clock, in the slot `share` reads as White's.
        let clock = Clock {
            wtime: Some(Duration::from_secs_f64(left)),
            winc: (!in_byo_yomi).then(|| Duration::from_secs_f64(byo_yomi_move(settings))),
            movestogo: in_byo_yomi.then_some(stones),
            ..Clock::NONE
        };
        clock
            .share(true, moves_left)
            .unwrap_or(DEFAULT_MOVE_TIME)
            .clamp(NO_TIME_LEFT, MAX_MOVE_TIME)
    }
}

/// A byo-yomi period's time for a move.
fn byo_yomi_move(settings: TimeSettings) -> f64 {
    if settings.stones == 0 {
        0.0
    } else {
        settings.byo_yomi / f64::from(settings.stones)
    }
}

/// `black` or `white` (or `b`, `w`), in any case.
fn read_colour(word: &str) -> Result<Player, String> {
    match word.to_ascii_lowercase().as_str() {
        "black" | "b" => Ok(Player::X),
        "white" | "w" => Ok(Player::O),
        _ => Err(format!("invalid color {word:?}: black or white")),
    }
}

/// Seconds as GTP gives them: a number, not negative; one past [`MAX_CLOCK`] (GTP allows
/// `1e300`) is read as that.
fn seconds(word: &str) -> Result<f64, String> {
    word.parse::<f64>()
        .ok()
        .filter(|seconds| !seconds.is_nan() && *seconds >= 0.0)
        .map(|seconds| seconds.min(MAX_CLOCK.as_secs_f64()))
        .ok_or_else(|| format!("{word:?} is not a number of seconds"))
}

/// The score as GTP writes it: `B+12`, `W+4` or `0`, the empty squares going to the winner.
fn final_score(position: &Othello) -> String {
    let (black, white) = position.discs();
    match final_margin(black, white) {
        0 => "0".into(),
        margin if margin > 0 => format!("B+{margin}"),
        margin => format!("W+{}", -margin),
    }
}

/// The board, as GRhino shows it: the side to move, then the rows with their numbers.
fn showboard(position: &Othello) -> String {
    let mut text = match position.turn() {
        crate::game::Turn::Over(_) => "Game over".to_owned(),
        crate::game::Turn::Moves(_) => format!(
            "Next move: {}",
            if position.side_to_move() == Player::X {
                "Black"
            } else {
                "White"
            }
        ),
    };
    text.push_str("\n    a b c d e f g h");
    for row in 0..8 {
        text.push_str(&format!("\n  {}", row + 1));
        for column in 0..8 {
            text.push_str(match position.cell(row, column) {
                Some((Player::X, _)) => " X",
                Some((Player::O, _)) => " O",
                None => " .",
            });
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocols::gtp::Commands as _;

    /// The answers to `commands`, each a line.
    fn session(commands: &str) -> String {
        let mut output = Vec::new();
        serve(io::Cursor::new(commands.to_owned()), &mut output).unwrap();
        String::from_utf8(output).unwrap()
    }

    #[test]
    fn a_game_is_played_and_scored_as_gtp_controllers_expect() {
        let answers = session(
            "1 protocol_version\nboardsize 8\nboardsize 19\nclear_board\nplay black d3\n\
             play black c3\nplay white c5\nsente-time_limit_ms 20\n7 genmove black\nundo\n\
             final_score\nknown_command genmove\nfoo\n",
        );
        let blocks: Vec<&str> = answers.split("\n\n").collect();
        assert_eq!(blocks[0], "=1 2");
        assert_eq!(blocks[1], "=");
        assert!(blocks[2].starts_with("? unacceptable size"), "{answers}");
        assert_eq!(blocks[3], "=");
        assert_eq!(blocks[4], "=");
        assert!(
            blocks[5].starts_with("? illegal move: it is white's move"),
            "{answers}"
        );
        assert_eq!(blocks[6], "=");
        assert_eq!(blocks[7], "=");
        let genmove = blocks[8].strip_prefix("=7 ").expect(&answers);
        let position: Othello =
            "---------------------------OX------XO--------------------------- X"
                .parse()
                .unwrap();
        let mut played = Played::from(position);
        played.play(None, "d3").unwrap();
        played.play(None, "c5").unwrap();
        played.play(Some(Player::X), genmove).unwrap();
        assert_eq!(blocks[9], "=");
        // After d3 and c5: four discs each.
        assert_eq!(blocks[10], "= 0");
        assert_eq!(blocks[11], "= true");
        assert_eq!(blocks[12], "? unknown command");
    }

    /// An id is answered as written, whatever its length; the end of the game takes a pass.
    #[test]
    fn ids_are_answered_as_written_and_a_pass_is_taken_after_the_end() {
        let answers = session("007 name\n99999999999999999999 version\n");
        assert!(
            answers.starts_with("=007 Sente\n\n=99999999999999999999 "),
            "{answers}"
        );
        let mut gtp = Gtp::default();
        let over: Othello = format!("{} O", "X".repeat(64)).parse().unwrap();
        gtp.played = Played::from(over);
        assert_eq!(
            gtp.answer("play", &["white", "pass"], Budget::default()),
            Ok(String::new())
        );
        assert_eq!(
            gtp.answer("genmove", &["black"], Budget::default()),
            Ok("PASS".to_owned())
        );
        let refused = gtp
            .answer("play", &["black", "a1"], Budget::default())
            .unwrap_err();
        assert!(refused.contains("the game is over"), "{refused}");
    }

    #[test]
    fn a_play_for_the_side_not_to_move_plays_the_pass_first() {
        // A position of a random game where the side to move can only pass.
        use rand::{RngExt, SeedableRng};
        let mut rng = crate::search::SearchRng::seed_from_u64(3);
        let passing = loop {
            let mut position = Othello::start();
            while !position.outcome().is_over() && position.placements() != 0 {
                let moves: Vec<u8> = position.legal_moves().collect();
                position = position.play(moves[rng.random_range(0..moves.len())]);
            }
            if !position.outcome().is_over() {
                break position;
            }
        };
        let mover = passing.side_to_move();
        let reply = passing.play(PASS).legal_moves().next().unwrap();
        let mut played = Played::from(passing);
        assert!(played.play(Some(mover), "a1").is_err());
        played
            .play(Some(mover.opponent()), &square_name(reply))
            .unwrap();
        assert_eq!(*played.position(), passing.play(PASS).play(reply));
        // Taking both back.
        assert!(played.undo() && played.undo() && !played.undo());
    }

    #[test]
    fn the_clock_shares_its_time_and_a_wild_one_is_bounded() {
        let mut gtp = Gtp::default();
        let start = Othello::start();
        assert_eq!(gtp.move_time(&start, Player::X), DEFAULT_MOVE_TIME);
        gtp.answer("time_settings", &["300", "0", "0"], Budget::default())
            .unwrap();
        // 300 s, less what passing the answer on takes, over the 30 moves of 60 empty squares.
        assert_eq!(
            gtp.move_time(&start, Player::X),
            Duration::from_millis(299_980) / 30
        );
        gtp.answer("time_left", &["white", "1e300", "0"], Budget::default())
            .unwrap();
        assert_eq!(gtp.move_time(&start, Player::O), MAX_MOVE_TIME);
        assert_eq!(gtp.left[1], Some((MAX_CLOCK.as_secs_f64(), 0)));
        // No time left is a move at once, not the default second.
        gtp.answer("time_left", &["black", "0", "0"], Budget::default())
            .unwrap();
        assert_eq!(gtp.move_time(&start, Player::X), NO_TIME_LEFT);
        // Byo-yomi time without stones is GTP's "no time limits".
        gtp.answer("time_settings", &["0", "5", "0"], Budget::default())
            .unwrap();
        assert_eq!(gtp.move_time(&start, Player::X), DEFAULT_MOVE_TIME);
        gtp.answer("time_settings", &["300", "0", "0"], Budget::default())
            .unwrap();
        // In byo-yomi, 2 s less the overhead for 4 stones: a quarter each.
        gtp.answer("time_left", &["black", "2", "4"], Budget::default())
            .unwrap();
        assert_eq!(gtp.move_time(&start, Player::X), Duration::from_millis(495));
        // One stone left: half the period, never the whole, as every clock keeps half back.
        gtp.answer("time_left", &["black", "2", "1"], Budget::default())
            .unwrap();
        assert_eq!(gtp.move_time(&start, Player::X), Duration::from_millis(990));
        assert!(
            gtp.answer("time_left", &["black", "-1", "0"], Budget::default())
                .is_err()
        );
        assert!(
            gtp.answer("time_left", &["black", "NaN", "0"], Budget::default())
                .is_err()
        );
    }

    #[test]
    fn the_board_and_the_score_are_shown_as_grhino_shows_them() {
        let board = showboard(&Othello::start());
        assert!(board.starts_with("Next move: Black\n    a b c d e f g h\n  1 . . ."));
        assert!(board.contains("\n  4 . . . O X . . ."), "{board}");
        assert_eq!(final_score(&Othello::start()), "0");
    }
}
