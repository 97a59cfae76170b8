//! Othello's engine over the NBoard protocol (`sente nboard`), which the NBoard GUI speaks to
//! its engines and Edax (`-nboard`) and NTest answer: `nboard 2`, `set game` with the game in
//! GGF, `set depth`, `move`, `go` answered `=== MOVE/EVAL/TIME`, `hint N` answered with a
//! `search` line for each of the best N moves, `ping N` answered `pong N`. Evaluations are in
//! discs, the side to move's: the final disc difference it can expect, exact where the solver
//! finished. `learn` is answered `learned`, as the protocol requires, but nothing is learnt:
//! Sente learns from its own self-play, not from a GUI's games (docs/othello.md).
//!
//! A command the engine does not know is ignored, as the protocol asks.

use std::io::{self, BufRead, Write};
use std::time::{Duration, Instant};

use super::ggf::{read_game, read_move, written};
use super::session::{self, DEFAULT_MOVE_TIME, Played};
use crate::game::Rules;
use crate::protocols::{Flow, Input, Protocol, run};
use crate::search::{Budget, Solve};

/// The deepest midgame search `set depth` may ask for: the whole game.
const MAX_DEPTH: u32 = 60;

/// The session: the game, the midgame depth, the time a move may take.
struct NBoard {
    played: Played,
    depth: Option<u32>,
    move_time: Duration,
    /// The budget of the command being answered: its search stops when the input ends.
    budget: Budget,
}

/// Serves the NBoard protocol on standard input and output until `quit` or the end of the
/// input.
pub fn serve_stdio() -> io::Result<()> {
    serve(io::BufReader::new(io::stdin()), io::stdout())
}

/// Serves the NBoard protocol on `input` and `output`, through the one loop of every text
/// protocol.
pub fn serve(input: impl BufRead + Send + 'static, output: impl Write) -> io::Result<()> {
    let session = Session {
        nboard: NBoard {
            played: Played::new(),
            depth: None,
            move_time: DEFAULT_MOVE_TIME,
            budget: Budget::unlimited(),
        },
        output,
    };
    run(session, input)
}

/// NBoard's session: each command answered in order, a search before the next line is read; a
/// line it cannot read ignored, as NBoard has no words for it.
struct Session<W> {
    nboard: NBoard,
    output: W,
}

impl<W: Write> Protocol for Session<W> {
    fn line(&mut self, line: &str, input: &Input) -> io::Result<Flow> {
        let (command, rest) = line.split_once(' ').unwrap_or((line, ""));
        let rest = rest.trim();
        self.nboard.budget = input.budget();
        let answer = match command {
            "nboard" => "set myname Sente\n".to_owned(),
            "set" => self.nboard.set(rest),
            "move" => match self.nboard.played.play(None, read_move(rest)) {
                Ok(()) => String::new(),
                Err(error) => format!("status the move was refused: {error}\n"),
            },
            "go" => self.nboard.go(),
            "hint" => match rest.parse::<usize>() {
                Ok(moves) if moves >= 1 => self.nboard.hint(moves),
                _ => format!("status hint takes a number of moves, 1 or more, not {rest:?}\n"),
            },
            "ping" => format!("pong {rest}\n"),
            "learn" => {
                "status Sente learns from its own games, not from this one\nlearned\n".to_owned()
            }
            "quit" => return Ok(Flow::Quit),
            _ => String::new(),
        };
        session::say(&mut self.output, &answer)?;
        Ok(Flow::Continue)
    }
}

impl NBoard {
    /// `set depth N`, `set game GGF`, `set contempt N` (ignored: Sente plays for the most
    /// discs), `set time`-like settings of other engines (ignored).
    fn set(&mut self, rest: &str) -> String {
        let (what, value) = rest.split_once(' ').unwrap_or((rest, ""));
        match what {
            "depth" => match value.trim().parse::<u32>() {
                Ok(depth) if (1..=MAX_DEPTH).contains(&depth) => {
                    self.depth = Some(depth);
                    format!("set myname Sente{depth}\n")
                }
                _ => format!("status the depth is 1 to {MAX_DEPTH}, not {value:?}\n"),
            },
            "game" => match read_game(value) {
                Ok(played) => {
                    self.played = played;
                    String::new()
                }
                Err(error) => format!("status the game was refused: {error}\n"),
            },
            _ => String::new(),
        }
    }

    /// `go`: the move the engine would play, without playing it (the GUI sends it back with
    /// `move`).
    fn go(&self) -> String {
        let position = self.played.position();
        if position.outcome().is_over() {
            return "status the game is over\n".to_owned();
        }
        let started = Instant::now();
        if position.placements() == 0 {
            return "=== PA\n".to_owned();
        }
        let result = session::think(position, self.move_time, self.depth, &self.budget);
        let discs = session::discs(
            position,
            result.score,
            result.exact,
            result.margin,
            &result.pv,
        );
        format!(
            "status Sente is thinking\nnodestats {} {:.2}\n=== {}/{:.2}/{:.2}\nstatus\n",
            result.nodes,
            started.elapsed().as_secs_f64(),
            written(result.best_move),
            discs,
            started.elapsed().as_secs_f64(),
        )
    }

    /// `hint N`: a `search` line for each of the best `n` moves, its line, its evaluation and
    /// the depth it was searched to (the empty squares where solved).
    fn hint(&self, n: usize) -> String {
        let position = self.played.position();
        if position.outcome().is_over() {
            return "status the game is over\n".to_owned();
        }
        let params = session::params(position, self.move_time, self.depth);
        let analysis = position.engine_analysis(&params, &self.budget);
        let mut text = "status Sente is analysing\n".to_owned();
        for entry in analysis.moves.iter().take(n.max(1)) {
            let discs = session::discs(position, entry.score, entry.exact, entry.margin, &entry.pv);
            let line: String = entry.pv.iter().map(|&mv| written(mv)).collect();
            let line = if line.is_empty() {
                written(entry.mv)
            } else {
                line
            };
            text.push_str(&format!(
                "search {line} {discs:.2} 0 {}\n",
                entry
                    .depth
                    .map_or("?".to_owned(), |depth| depth.to_string())
            ));
        }
        text.push_str("status\n");
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use super::super::ggf::EXAMPLE as GAME;

    fn session(commands: &str) -> String {
        let mut output = Vec::new();
        serve(io::Cursor::new(commands.to_owned()), &mut output).unwrap();
        String::from_utf8(output).unwrap()
    }

    #[test]
    fn the_protocols_example_is_answered() {
        let answers = session(&format!(
            "nboard 2\nset game {GAME}\nset depth 6\nping 1\ngo\nlearn\nquit\n"
        ));
        let lines: Vec<&str> = answers.lines().collect();
        assert_eq!(lines[0], "set myname Sente");
        assert_eq!(lines[1], "set myname Sente6");
        assert_eq!(lines[2], "pong 1");
        let answer = lines
            .iter()
            .find_map(|line| line.strip_prefix("=== "))
            .expect(&answers);
        let mv = answer.split('/').next().unwrap();
        let position = read_game(GAME).unwrap();
        assert!(
            position
                .position()
                .read_move(&crate::game::Notation::Text(mv.to_owned()))
                .is_ok(),
            "{answers}"
        );
        assert_eq!(answer.split('/').count(), 3, "{answer}");
        assert!(answers.ends_with("learned\n"), "{answers}");
    }

    /// Asked for a depth at least the empty squares, the answer is the solver's exact value,
    /// not the midgame search's estimate at that depth: FFO #23 (18 empties, A2 wins by 4) at
    /// `set depth 30` and `set depth 18`, with half a second a move, in which the solver is
    /// not otherwise tried beyond 17 empties.
    #[test]
    fn a_depth_to_the_end_answers_the_exact_value() {
        let board = "--O-------OOX---OOOXXXO-OOOOXOXXXXXOOXOXXXXXXOOXX-XXXXOX--XXXX--";
        let cells: String = board
            .chars()
            .map(|c| if c == 'X' { '*' } else { c })
            .collect();
        let ggf = format!("(;GM[Othello]PC[test]TY[8]BO[8 {cells} *];)");
        let move_time = Duration::from_millis(500);
        assert_eq!(super::super::solved_empties(move_time), 17);
        for depth in [30, 18] {
            let mut nboard = NBoard {
                played: Played::new(),
                depth: None,
                move_time,
                budget: Budget::unlimited(),
            };
            assert_eq!(nboard.set(&format!("game {ggf}")), "");
            nboard.set(&format!("depth {depth}"));
            let answer = nboard.go();
            assert!(answer.contains("=== A2/4.00/"), "depth {depth}: {answer}");
        }
    }

    /// `hint` takes a number of moves, 1 or more: anything else is said, not read as 1.
    #[test]
    fn a_hint_of_no_number_is_refused_in_words() {
        for bad in ["abc", "-1", "0"] {
            let answers = session(&format!("nboard 2\nhint {bad}\n"));
            assert!(
                answers.contains(&format!(
                    "status hint takes a number of moves, 1 or more, not \"{bad}\""
                )),
                "{answers}"
            );
            assert!(!answers.contains("search "), "{answers}");
        }
    }

    #[test]
    fn hints_give_each_move_its_line_and_discs() {
        let answers = session(&format!("nboard 2\nset game {GAME}\nset depth 4\nhint 3\n"));
        let searches: Vec<&str> = answers
            .lines()
            .filter(|line| line.starts_with("search "))
            .collect();
        assert_eq!(searches.len(), 3, "{answers}");
        for search in searches {
            let fields: Vec<&str> = search.split(' ').collect();
            assert_eq!(fields.len(), 5, "{search}");
            assert!(fields[2].parse::<f64>().is_ok(), "{search}");
            assert_eq!(fields[3], "0");
        }
    }
}
