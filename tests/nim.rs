//! A seventh game, Nim, written from outside the crate as docs/adding-a-game.md says, and kept
//! out of the registry: the contract's required core (`Rules`), its grid (`Drawing`), the
//! defaults of the other two parts, the default solver, and an engine on the kit. The tests
//! then ask of it what they ask of the six: its text read and written, perft, every algorithm
//! answering, and the solver and the engine playing as the game's theory says they must.
//!
//! The game: three heaps of 3, 4 and 5 counters; a move takes 1 to 3 counters from one heap,
//! and whoever takes the last counter wins. A heap of `n` counters is worth `n mod 4` (its
//! Grundy value), and the side to move loses exactly when the heaps' values XOR to 0.

use std::fmt;
use std::str::FromStr;

use sente::game::perft::perft;
use sente::game::reachable::reachable;
use sente::game::{
    BoardError, Declaration, Drawing, Inputs, Knowledge, MoveError, Notation, Outcome, Player,
    Rules,
};
use sente::search::engine::{self as kit, GameBoard, ThroughGame};
use sente::search::{self, Algorithm, Solve, Strategy, Value};

const START: [u8; 3] = [3, 4, 5];
/// A move takes at most this many counters.
const MOST: u8 = 3;

/// A position: the counters left on each heap, the side to move, and the moves so far (which
/// the rules cannot tell apart, so that equality and the hash leave them out).
#[derive(Clone, Debug)]
struct Nim {
    heaps: [u8; 3],
    to_move: Player,
    ply: usize,
}

impl PartialEq for Nim {
    fn eq(&self, other: &Nim) -> bool {
        (self.heaps, self.to_move) == (other.heaps, other.to_move)
    }
}

impl Eq for Nim {}

impl std::hash::Hash for Nim {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (self.heaps, self.to_move).hash(state);
    }
}

/// A move's id: `heap * 3 + (taken - 1)`.
fn id(heap: usize, taken: u8) -> u8 {
    heap as u8 * MOST + taken - 1
}

impl Rules for Nim {
    type Move = u8;
    type Moves = std::vec::IntoIter<u8>;

    const NAME: &'static str = "nim";
    const DECLARATION: Declaration = Declaration {
        title: "Nim",
        moves: "a heap's number from 1 and the counters taken from it, 1 to 3: \"2:3\"",
        board: "the heaps' counters and the side to move: \"3,4,5 X\"",
        ..Declaration::DEFAULT
    };
    const MAX_PLIES: usize = 12;
    const MOVE_IDS: usize = 9;

    fn start() -> Nim {
        Nim {
            heaps: START,
            to_move: Player::X,
            ply: 0,
        }
    }

    fn side_to_move(&self) -> Player {
        self.to_move
    }

    fn legal_moves(&self) -> Self::Moves {
        let mut moves = Vec::new();
        for (heap, &counters) in self.heaps.iter().enumerate() {
            moves.extend((1..=counters.min(MOST)).map(|taken| id(heap, taken)));
        }
        moves.into_iter()
    }

    fn play(&self, mv: u8) -> Nim {
        let mut next = self.clone();
        next.heaps[usize::from(mv / MOST)] -= mv % MOST + 1;
        next.to_move = self.to_move.opponent();
        next.ply += 1;
        next
    }

    fn outcome(&self) -> Outcome {
        if self.heaps == [0; 3] {
            // The side that moved took the last counter.
            Outcome::Won(self.to_move.opponent())
        } else {
            Outcome::InProgress
        }
    }

    fn move_id(mv: u8) -> u16 {
        u16::from(mv)
    }

    fn ply(&self) -> usize {
        self.ply
    }

    fn notation(&self, mv: u8) -> Notation {
        Notation::Text(format!("{}:{}", mv / MOST + 1, mv % MOST + 1))
    }

    fn read_move(&self, written: &Notation) -> Result<u8, MoveError> {
        let unreadable = || MoveError::Unreadable {
            written: written.to_string(),
            expected: Self::DECLARATION.moves,
        };
        let Notation::Text(text) = written else {
            return Err(unreadable());
        };
        let (heap, taken) = text.split_once(':').ok_or_else(unreadable)?;
        let heap: usize = heap.trim().parse().map_err(|_| unreadable())?;
        let taken: u8 = taken.trim().parse().map_err(|_| unreadable())?;
        if !(1..=3).contains(&heap) || !(1..=MOST).contains(&taken) {
            return Err(unreadable());
        }
        self.parse_move(usize::from(id(heap - 1, taken)))
    }
}

/// A row per heap, a column per counter.
impl Drawing for Nim {
    const ROWS: usize = 3;
    const COLUMNS: usize = 5;

    fn cell(&self, row: usize, col: usize) -> Option<(Player, char)> {
        (col < usize::from(*self.heaps.get(row)?)).then_some((Player::X, 'I'))
    }

    /// A move takes from the end of its heap's row.
    fn move_cell(&self, mv: u8) -> Option<(usize, usize)> {
        let heap = usize::from(mv / MOST);
        Some((heap, usize::from(self.heaps[heap]).checked_sub(1)?))
    }
}

impl Knowledge for Nim {
    const REACHABLE_POSITIONS: Option<usize> = Some(232);
}

impl Inputs for Nim {}

impl Solve for Nim {
    kit::engine_on_the_kit!(GameBoard<Nim>);
}

impl ThroughGame for Nim {
    /// The default evaluation knows nothing; a pawn is the kit's own unit.
    const PAWN: Value = 100;
    const ENGINE_EVALUATION: u8 = 0;
}

impl fmt::Display for Nim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [a, b, c] = self.heaps;
        write!(f, "{a},{b},{c} {}", self.to_move)
    }
}

impl FromStr for Nim {
    type Err = BoardError;

    fn from_str(text: &str) -> Result<Nim, BoardError> {
        let notation = || BoardError::Notation(format!("{text:?}: {}", Nim::DECLARATION.board));
        let (heaps, side) = text.trim().split_once(' ').ok_or_else(notation)?;
        let counts: Vec<u8> = heaps
            .split(',')
            .map(|count| count.trim().parse().map_err(|_| notation()))
            .collect::<Result<_, _>>()?;
        let heaps: [u8; 3] = counts.try_into().map_err(|_| notation())?;
        let to_move = match side.trim() {
            "X" => Player::X,
            "O" => Player::O,
            _ => return Err(notation()),
        };
        if heaps.iter().zip(START).any(|(&left, start)| left > start) {
            return Err(BoardError::Impossible(format!(
                "a heap holds more than it starts with ({START:?})"
            )));
        }
        let taken = START.iter().sum::<u8>() - heaps.iter().sum::<u8>();
        Ok(Nim {
            heaps,
            to_move,
            ply: usize::from(taken),
        })
    }
}

/// Whether the side to move wins with best play: the heaps' values do not XOR to 0.
fn wins(position: &Nim) -> bool {
    position
        .heaps
        .iter()
        .fold(0, |value, &heap| value ^ (heap % (MOST + 1)))
        != 0
}

#[test]
fn nim_is_written_and_read_as_its_players_write_it() {
    let start = Nim::start();
    assert_eq!(start.to_string(), "3,4,5 X");
    assert_eq!("3,4,5 X".parse::<Nim>(), Ok(start.clone()));
    let after = start.play(start.read_move(&Notation::Text("2:3".into())).unwrap());
    assert_eq!(after.to_string(), "3,1,5 O");
    assert_eq!(after.notation(id(1, 3)), Notation::Text("2:3".into()));
    assert!(matches!(
        "8,1,1 X".parse::<Nim>(),
        Err(BoardError::Impossible(_))
    ));
    assert!(matches!(
        "3,4 X".parse::<Nim>(),
        Err(BoardError::Notation(_))
    ));
    // The defaults of the contract: a move's number is checked against the legal moves.
    assert!(matches!(
        after.parse_move(usize::from(id(1, 2))),
        Err(MoveError::Illegal { .. })
    ));
    assert!(matches!(
        after.parse_move(9),
        Err(MoveError::OutOfRange { last: 8, .. })
    ));
    assert!(matches!(
        after.read_move(&Notation::Text("4:1".into())),
        Err(MoveError::Unreadable { .. })
    ));
    // What the page draws: a row per heap.
    assert_eq!(after.cell(1, 0), Some((Player::X, 'I')));
    assert_eq!(after.cell(1, 1), None);
    assert_eq!(after.move_cell(id(2, 1)), Some((2, 4)));
}

#[test]
fn perft_counts_nims_move_paths() {
    // Counted by a separate program that walks the same rules (Python, in the commit).
    let counts: Vec<u64> = (1..=6).map(|depth| perft(&Nim::start(), depth)).collect();
    assert_eq!(counts, [9, 71, 483, 2742, 12461, 43176]);
    assert_eq!(reachable::<Nim>().len(), 232);
}

#[test]
fn the_solver_plays_nim_as_its_theory_says() {
    for position in reachable::<Nim>() {
        if position.outcome().is_over() {
            continue;
        }
        let solved = search::search(&position, &Strategy::with_defaults(Algorithm::Solver), 0)
            .expect("the solver answers");
        assert!(solved.exact, "{position}");
        assert_eq!(solved.score > 0.0, wins(&position), "{position}");
        if wins(&position) {
            assert!(!wins(&position.play(solved.best_move)), "{position}");
        }
    }
}

#[test]
fn the_kits_engine_plays_nim_as_its_theory_says() {
    let engine = Strategy {
        time_limit: Some(std::time::Duration::from_secs(5)),
        ..Strategy::with_defaults(Algorithm::Engine)
    };
    for position in reachable::<Nim>().into_iter().filter(wins).take(40) {
        let played = search::search(&position, &engine, 0).expect("the engine answers");
        assert!(!wins(&position.play(played.best_move)), "{position}");
        assert!(played.exact, "{position}: the kit proves a small game");
    }
}

#[test]
fn every_algorithm_answers_on_nim() {
    let position: Nim = "3,1,5 O".parse().unwrap();
    for algorithm in Algorithm::ALL {
        let strategy = Strategy {
            depth: Some(4),
            time_limit: Some(std::time::Duration::from_millis(200)),
            ..Strategy::with_defaults(algorithm)
        };
        match search::search(&position, &strategy, 7) {
            Ok(result) => assert!(
                position.legal_moves().any(|mv| mv == result.best_move),
                "{algorithm}"
            ),
            // A game with no network of its own: AlphaZero may say so rather than play.
            Err(error) => assert_eq!(algorithm, Algorithm::AlphaZero, "{algorithm}: {error}"),
        }
        let analysis = search::analyze(&position, &strategy, 7);
        if let Ok(analysis) = analysis {
            assert_eq!(
                analysis.moves.len(),
                position.legal_moves().len(),
                "{algorithm}"
            );
        }
    }
}
