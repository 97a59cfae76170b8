//! GGF, the Generic Game Format of the Generic Game Server, in which NBoard and GGS save
//! Othello games and which NBoard sends its engines (`set game`): a game is
//! `(;GM[Othello]PC[...]DT[...]PB[Black]PW[White]RE[+14.000]TI[0//0]TY[8]BO[8 <64 cells> <side>]
//! B[F5//0.10]W[D6]...;)`, the board `*` Black, `O` White, `-` empty, each move its colour's
//! key and `MOVE/EVAL/TIME` (a pass `PA`), the result the final disc difference from Black's
//! view. Sente reads it (`sente nboard`) and writes it (`POST /record`, the playground's
//! download).

use super::session::Played;
use super::{Othello, PASS, square_name};
use crate::game::{
    Player, ReadRecord, RecordError, RecordFormat, RecordedGame, Rules, TextEncoding, text,
};

/// Othello's record format, as `GET /games` lists it and `POST /record` writes it.
pub const FORMAT: RecordFormat = RecordFormat {
    name: "GGF",
    extension: "ggf",
    encoding: TextEncoding::Utf8,
    media_type: "text/plain",
    collects: false,
    description: "The Generic Game Format, as NBoard and the Generic Game Server save \
                  Othello games: the board, each move with its time, the players, the result \
                  in discs from Black's view.",
    write,
    read,
};

/// A game's record in GGF: its board and its moves, passes among them.
pub fn read(ggf: &str) -> Result<ReadRecord, RecordError> {
    if !ggf.trim_start().starts_with("(;") {
        return Err(RecordError::Foreign);
    }
    let played = read_game(ggf).map_err(RecordError::Unreadable)?;
    let start = *played.start();
    Ok(ReadRecord {
        board: (start != Othello::start()).then(|| start.to_string()),
        moves: played
            .moves()
            .into_iter()
            .map(|mv| start.notation(mv).into_text())
            .collect(),
    })
}

/// `game` as one GGF game, on one line.
pub fn write(game: &RecordedGame<'_>) -> String {
    let clean = |text: &str| text.replace(['[', ']', '\\'], "");
    let start: Othello = game.start.parse().unwrap_or_else(|_| Othello::start());
    let black_first = start.side_to_move() == Player::X;
    let [first, second] = game.players;
    let (black, white) = if black_first {
        (first, second)
    } else {
        (second, first)
    };
    let mut position = start;
    let mut moves = String::new();
    for mv in game.moves {
        let side = if position.side_to_move() == Player::X {
            "B"
        } else {
            "W"
        };
        let Ok(read) = position.read_move(&crate::game::Notation::Text(mv.text.clone())) else {
            break;
        };
        let time = if mv.time_ms > 0.0 {
            format!("//{:.2}", mv.time_ms / 1e3)
        } else {
            String::new()
        };
        moves.push_str(&format!("{side}[{}{time}]", written(read)));
        position = position.play(read);
    }
    let result = if position.outcome().is_over() {
        let (black, white) = position.discs();
        format!("{:+.3}", f64::from(super::final_margin(black, white)))
    } else {
        "?".to_owned()
    };
    format!(
        "(;GM[Othello]PC[{}]DT[{}]PB[{}]PW[{}]RE[{result}]TI[0//0]TY[8]BO[8 {}]{moves};)\n",
        clean(game.event),
        clean(&game.date.replace('/', "-")),
        clean(black),
        clean(white),
        board(&start),
    )
}

/// GGF's board after `8`: the 64 cells, a1 first, and the side to move.
fn board(position: &Othello) -> String {
    let text = position.to_string();
    let (cells, side) = text.split_once(' ').unwrap_or((&text, "X"));
    let cells: String = cells
        .chars()
        .map(|cell| match cell {
            'X' => '*',
            'O' => 'O',
            _ => '-',
        })
        .collect();
    format!("{cells} {}", if side.trim() == "O" { "O" } else { "*" })
}

/// A move as GGF and NBoard's `move` give it, `F5/1.25/3.2`, without its evaluation and time; `PA` a pass.
pub(super) fn read_move(written: &str) -> &str {
    written.split('/').next().unwrap_or_default().trim()
}

/// A move as NBoard writes it: `F5`, a pass `PA`.
pub(super) fn written(mv: u8) -> String {
    if mv == PASS {
        "PA".to_owned()
    } else {
        square_name(mv).to_ascii_uppercase()
    }
}

/// A game in GGF, `(;GM[Othello]...BO[8 <64 cells> <side>]B[F5]W[F6/-1.0/2.1]...;)`: its
/// board (`*` Black, `O` White, `-` empty) and its moves, played.
pub(super) fn read_game(ggf: &str) -> Result<Played, String> {
    let body = ggf
        .trim()
        .strip_prefix("(;")
        .and_then(|body| body.strip_suffix(";)"))
        .ok_or("a game in GGF is (; ... ;)")?;
    let mut played = None;
    let mut ply = 0;
    let mut rest = body;
    while let Some(open) = rest.find('[') {
        let key = rest[..open].trim();
        let close = rest[open..]
            .find(']')
            .map(|close| open + close)
            .ok_or_else(|| format!("{key}[ is not closed"))?;
        let value = &rest[open + 1..close];
        rest = &rest[close + 1..];
        match key {
            "GM" if !value.eq_ignore_ascii_case("othello") => {
                return Err(format!("the game is {value:?}, not Othello"));
            }
            "TY" if value.trim() != "8" => {
                return Err(format!("the board is {value:?}: Sente plays 8 x 8"));
            }
            "BO" => played = Some(Played::from(read_board(value)?)),
            "B" | "W" => {
                let side = if key == "B" { Player::X } else { Player::O };
                let game = played.as_mut().ok_or("a move before the board (BO)")?;
                ply += 1;
                game.play(Some(side), read_move(value))
                    .map_err(|error| format!("ply {ply}: {error}"))?;
            }
            _ => {}
        }
    }
    played.ok_or_else(|| "no board (BO[...])".to_owned())
}

/// GGF's board: `8`, the 64 cells, the side to move.
fn read_board(value: &str) -> Result<Othello, String> {
    let mut words = value.split_whitespace();
    if words.next() != Some("8") {
        return Err("the board is 8 x 8 (BO[8 ...])".into());
    }
    let cells: String = words.next().unwrap_or_default().to_owned();
    let side = words.next().unwrap_or_default();
    let cells: String = cells
        .chars()
        .map(|cell| match cell {
            '*' => 'X',
            'O' | 'o' => 'O',
            _ => '-',
        })
        .collect();
    let side = match side {
        "*" => "X",
        "O" | "o" => "O",
        other => {
            return Err(format!(
                "the side to move is * or O, not {:?}",
                text::excerpt(other)
            ));
        }
    };
    format!("{cells} {side}")
        .parse()
        .map_err(|error| format!("{error}"))
}

/// A game as NBoard sends it its engines: what the tests read.
#[cfg(test)]
pub(super) const EXAMPLE: &str = "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[./mEdax]PW[chris]\
                    RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O------------\
                    --------------- *]B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]B[E7]W[F4];)";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::RecordedMove;

    #[test]
    fn a_game_in_ggf_is_read_and_moves_follow_it() {
        let played = read_game(EXAMPLE).unwrap();
        assert_eq!(played.position().side_to_move(), Player::X);
        assert_eq!(played.position().empties().count_ones(), 52);
        assert!(
            read_game("(;GM[Chess]BO[8 x *];)")
                .unwrap_err()
                .contains("Othello")
        );
        assert!(
            read_game("(;GM[Othello]B[F5];)")
                .unwrap_err()
                .contains("board")
        );
        let illegal = EXAMPLE.replace("B[F5]", "B[A1]");
        assert!(read_game(&illegal).is_err());
    }

    /// A game written is a game read: the same board, the same moves, the players by colour.
    #[test]
    fn a_game_written_reads_back() {
        let moves: Vec<RecordedMove> = ["f5", "d6", "c3", "d3", "c4"]
            .iter()
            .map(|text| RecordedMove {
                text: (*text).into(),
                time_ms: 1500.0,
                ..RecordedMove::default()
            })
            .collect();
        let start = Othello::start().to_string();
        let ggf = write(&RecordedGame {
            index: None,
            event: "Sente",
            date: "2026/11/29 10:00:00",
            start: &start,
            moves: &moves,
            players: ["You", "Sente [level 4]"],
            winner: None,
            ending: "interrupted",
            detail: None,
        });
        assert!(
            ggf.starts_with(
                "(;GM[Othello]PC[Sente]DT[2026-11-29 10:00:00]PB[You]PW[Sente level 4]RE[?]"
            ),
            "{ggf}"
        );
        assert!(ggf.contains("B[F5//1.50]W[D6//1.50]B[C3//1.50]"), "{ggf}");
        let played = read_game(&ggf).unwrap();
        let mut expected = Othello::start();
        for mv in &moves {
            expected = expected.play(
                expected
                    .read_move(&crate::game::Notation::Text(mv.text.clone()))
                    .unwrap(),
            );
        }
        assert_eq!(*played.position(), expected);
    }
}
