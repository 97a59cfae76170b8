//! Shogi's engine over USI (`sente usi`, the protocol shogi's declaration names), the Universal
//! Shogi Interface that shogi GUIs (ShogiHome, Shogidokoro, ShogiGUI) and match runners speak.
//! The session is the protocols room's (`protocols/uci.rs`, which UCI shares); this file
//! is USI's words: `usinewgame`, `USI_Hash`, `sfen`, `byoyomi`, `gameover`, `ponderhit`,
//! `bestmove resign` when every move loses to a mate, `bestmove win` to declare the
//! entering-king win, mates counted in plies, and `go mate` answered `checkmate` and the
//! moves, `checkmate nomate`, or `checkmate timeout`; and shogi's options, `Evaluation` and
//! `EvalFile`.

use super::engine::{DEFAULT_EVALUATION, Kept, ShogiBoard, analyze, search_keeping};
use super::mate::{self, Tsume};
use super::{Shogi, ShogiMove, nnue};
use crate::game::{Player, Rules};
use crate::protocols::uci::{self, Dialect};
use crate::search::{Analysis, Budget, EngineParams, SearchResult};

/// USI's words, and shogi's options.
#[derive(Default)]
pub(crate) struct Usi {
    /// Which of shogi's evaluations and which net the engine uses (`Evaluation`, `EvalFile`).
    evaluation: uci::EvaluationOptions,
}

impl Dialect for Usi {
    type Board = ShogiBoard;

    const HELLO: &'static str = "usi";
    const HELLO_OK: &'static str = "usiok";
    const NEW_GAME: &'static str = "usinewgame";
    const GAME_OVER: Option<&'static str> = Some("gameover");
    const MATE_IN_MOVES: bool = false;
    const HASH: &'static str = "USI_Hash";
    const BOARD: &'static str = "sfen";
    const NO_MOVE: &'static str = "bestmove resign";
    const NO_MATE: Option<&'static str> = Some("checkmate nomate");
    const RESIGNS: bool = true;
    // Over by Sente's rules but drawn (sennichite, the move limit): the GUI, not the engine,
    // ends its games.
    const PLAYS_ON: bool = true;

    fn options(&self) -> Vec<String> {
        uci::evaluation_options::<Shogi>(DEFAULT_EVALUATION).to_vec()
    }

    fn set_option(&mut self, name: &str, value: &str) -> Option<Result<(), String>> {
        if let Some(set) = self
            .evaluation
            .set::<Shogi>(name, value, nnue::load_eval_file)
        {
            return Some(set);
        }
        // The GUI's own option: it says whether the GUI will send `go ponder`, which the
        // session answers either way.
        name.eq_ignore_ascii_case("usi_ponder").then_some(Ok(()))
    }

    fn params(&self, params: EngineParams) -> EngineParams {
        self.evaluation.apply(params)
    }

    /// Gote's clock is USI's `wtime`.
    fn on_white_clock(game: &Shogi) -> bool {
        game.side_to_move() == Player::O
    }

    /// USI counts a mate in plies (`mate 3`: mate on the side to move's third ply from now;
    /// `mate -2`: mated in two), where the API counts moves.
    fn mate(moves: i32) -> i32 {
        if moves > 0 { 2 * moves - 1 } else { 2 * moves }
    }

    fn search(
        game: &Shogi,
        params: &EngineParams,
        budget: &Budget,
        kept: &mut Kept,
    ) -> SearchResult<ShogiMove> {
        search_keeping(game, params, budget, kept)
    }

    fn analyze(game: &Shogi, params: &EngineParams, budget: &Budget) -> Analysis<ShogiMove> {
        analyze(game, params, budget)
    }

    /// `go mate`: the tsume solver's answer, `checkmate` and the moves, `checkmate nomate`
    /// where there is no mate by checks, `checkmate timeout` where the time ran out first.
    fn solve_mate(game: &Shogi, budget: &Budget) -> Option<(String, u64)> {
        let (tsume, nodes) = mate::solve(&game.position, budget, u64::MAX, mate::MAX_PLIES);
        let answer = match tsume {
            Tsume::Mate(line) => {
                let moves: Vec<String> = line.iter().map(|mv| mv.to_usi()).collect();
                format!("checkmate {}", moves.join(" "))
            }
            Tsume::NoMate => "checkmate nomate".to_owned(),
            Tsume::Unknown => "checkmate timeout".to_owned(),
        };
        Some((answer, nodes))
    }

    /// A mate found by the engine (within the time or depth given), as USI's `checkmate` line
    /// writes it.
    fn checkmate(_: &Shogi, result: &SearchResult<ShogiMove>) -> Option<String> {
        Some(if result.exact && result.score > 0.0 {
            let moves: Vec<String> = result.pv.iter().map(|mv| mv.usi()).collect();
            format!("checkmate {}", moves.join(" "))
        } else if result.stopped_by.is_some() {
            "checkmate timeout".to_owned()
        } else {
            "checkmate nomate".to_owned()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Notation;
    use crate::protocols::uci;
    use std::io::{self, Write};
    use std::sync::{Arc, Mutex};

    #[test]
    fn mates_are_counted_in_plies() {
        assert_eq!(Usi::mate(1), 1);
        assert_eq!(Usi::mate(2), 3);
        assert_eq!(Usi::mate(-1), -2);
    }

    #[test]
    fn positions_are_read_with_their_moves_and_refused_in_words() {
        let text = session(
            "position startpos moves 7g7e\nposition sfen nonsense\n\
             position startpos moves 7g7f 3c3d\ngo depth 1\nquit\n",
        );
        assert!(
            text.contains("info string position: move 1 (7g7e)"),
            "{text}"
        );
        assert!(
            text.contains("info string position sfen nonsense: "),
            "{text}"
        );
        let best = text
            .lines()
            .find_map(|line| line.strip_prefix("bestmove "))
            .expect("a bestmove");
        assert_ne!(best, "resign", "{text}");
    }

    /// The position after 7g7f, where the sessions' moves must be legal.
    fn after_7g7f() -> Shogi {
        let start = Shogi::start();
        start.play(start.read_move(&Notation::Text("7g7f".into())).unwrap())
    }

    /// What a session answers `input`, every line of it.
    fn session(input: &str) -> String {
        let output = Arc::new(Mutex::new(Vec::new()));
        struct Shared(Arc<Mutex<Vec<u8>>>);
        impl Write for Shared {
            fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
                self.0.lock().unwrap().extend_from_slice(bytes);
                Ok(bytes.len())
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        uci::serve(
            Usi::default(),
            io::Cursor::new(input.to_owned()),
            Shared(Arc::clone(&output)),
        )
        .unwrap();
        String::from_utf8(output.lock().unwrap().clone()).unwrap()
    }

    /// Positions a GUI may send that no game reaches: each refused in an `info string`, and the
    /// session lives on. A `go` after a refusal answers (no GUI waits for ever) for the last
    /// position read, saying so: never `resign`, which a GUI would take for the engine's.
    #[test]
    fn hostile_positions_are_refused_and_go_answers_for_the_last_good_one() {
        let text = session(
            "position startpos moves 7g7f\n\
             position sfen 4k4/9/9/9/9/4r4/4G4/9/4K4 b 3R 1 moves 5g5f\n\
             go depth 3\n\
             position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b 2P 1\n\
             isready\n\
             quit\n",
        );
        assert!(
            text.contains("Sente has 3 rooks and Gote 1: a set has 2"),
            "{text}"
        );
        assert!(text.contains("Sente has 11 pawns"), "{text}");
        assert!(
            text.contains("info string searching the last position read: the one after it was"),
            "{text}"
        );
        let best: Vec<&str> = text
            .lines()
            .filter_map(|line| line.strip_prefix("bestmove "))
            .collect();
        assert_eq!(best.len(), 1, "{text}");
        let mv = best[0].split(' ').next().unwrap();
        let after = after_7g7f();
        assert!(
            after.read_move(&Notation::Text(mv.into())).is_ok(),
            "{text}"
        );
        assert!(text.contains("readyok"), "{text}");
    }

    /// A game drawn by Sente's rules (sennichite, the move limit) is not resigned: the GUI ends
    /// its games, and the engine answers a move, saying why it might not.
    #[test]
    fn a_drawn_game_is_answered_with_a_move_not_a_resignation() {
        let cycle = "2h1h 8b9b 1h2h 9b8b ";
        let text = session(&format!(
            "position startpos moves {}\ngo depth 2\nquit\n",
            cycle.repeat(3).trim()
        ));
        assert!(text.contains("(sennichite); a move all the same"), "{text}");
        let best = text
            .lines()
            .find_map(|line| line.strip_prefix("bestmove "))
            .unwrap();
        assert_ne!(best, "resign", "{text}");
        let text = session(
            "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 600\n\
             go depth 2\nquit\n",
        );
        assert!(text.contains("(move_limit)"), "{text}");
        assert!(!text.contains("bestmove resign"), "{text}");
        // Mated is still a resignation.
        let text = session("position sfen 8k/7G1/8G/9/9/9/9/9/4K4 w - 1\ngo depth 2\nquit\n");
        assert!(text.contains("bestmove resign"), "{text}");
    }

    /// A whole session: the handshake, a position, a search with its info lines and bestmove.
    #[test]
    fn a_session_answers_a_gui() {
        let text =
            session("usi\nisready\nusinewgame\nposition startpos moves 7g7f\ngo depth 2\nquit\n");
        assert!(text.contains("usiok"), "{text}");
        assert!(text.contains("readyok"), "{text}");
        let best = text
            .lines()
            .find_map(|line| line.strip_prefix("bestmove "))
            .and_then(|answer| answer.split(' ').next())
            .expect("a bestmove");
        let after = after_7g7f();
        assert!(
            after.read_move(&Notation::Text(best.into())).is_ok(),
            "{best} is legal: {text}"
        );
    }
}
