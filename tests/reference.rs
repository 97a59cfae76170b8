//! The reference suite: Sente against outside data with known answers. Connect Four's solver
//! against Pascal Pons' benchmark positions, and Othello's against the FFO endgame positions,
//! whose exact scores are known.
//!
//! It needs the sets in `../shared/data/connect4/` and `../shared/data/othello/` beside the
//! project (formats in their READMEs), so it is not part of `cargo test`: it runs with
//! `cargo test --release --test reference` (as `.ci/run` does), and
//! fails at once, saying what is missing, when the data is not there. It checks every position of
//! End-Easy (L3_R1) and Middle-Easy (L2_R1), and a fixed sample of the harder sets; the full sets
//! run in `cargo bench --bench connect_four`. It solves FFO #1-#19; #40-#59 run in `cargo bench
//! --bench othello -- ffo`. The Connect Four checks that need no outside data
//! are in `tests/connect_four.rs`.

use std::path::PathBuf;

use sente::game::Rules;
use sente::games::connect_four::solver::Solver;
use sente::games::othello::solver::Solver as OthelloSolver;
use sente::games::{ConnectFour, Othello};
use sente::search::{Budget, Solve};

/// The positions of a set with their scores; panics with a clear message when the data is
/// missing, rather than letting the tests pass without it.
fn load(set: &str) -> Vec<(String, ConnectFour, i32)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data/connect4");
    let path = dir.join(set);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|error| {
        panic!(
            "the reference suite needs Pascal Pons' Connect Four test sets, and {} cannot be \
             read ({error}). Put the six sets (Test_L1_R1 ... Test_L3_R1, from \
             http://blog.gamesolver.org/solving-connect-four/02-test-protocol/) in {}, or run \
             the default suite alone: cargo test --release",
            path.display(),
            dir.display()
        )
    });
    text.lines()
        .map(|line| {
            let (moves, score) = line.split_once(' ').expect("a line is `<moves> <score>`");
            let position = ConnectFour::from_pons_moves(moves).expect("the set's moves are legal");
            (moves.to_owned(), position, score.parse().expect("a score"))
        })
        .collect()
}

fn check(set: &str, every: usize) {
    let positions = load(set);
    assert_eq!(positions.len(), 1000, "{set} has 1,000 positions");
    let mut checked = 0;
    for (moves, position, expected) in positions.iter().step_by(every) {
        let score = Solver::default().solve(position);
        assert_eq!(score, Some(*expected), "{set}: {moves}");
        checked += 1;
    }
    assert!(checked > 0);
}

#[test]
fn end_easy_every_position() {
    check("Test_L3_R1", 1);
}

#[test]
fn middle_easy_every_position() {
    check("Test_L2_R1", 1);
}

#[test]
fn middle_medium_sample() {
    check("Test_L2_R2", 50);
}

#[test]
fn begin_easy_sample() {
    check("Test_L1_R1", 50);
}

#[test]
fn begin_medium_sample() {
    check("Test_L1_R2", 200);
}

/// An FFO endgame position: its line, the position, every move's exact score, best first.
type Ffo = (String, Othello, Vec<(String, i32)>);

/// The FFO endgame positions of a file.
fn ffo(file: &str) -> Vec<Ffo> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data/othello");
    let path = dir.join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|error| {
        panic!(
            "the reference suite needs the FFO endgame positions, and {} cannot be read \
             ({error}). Put Edax's problem files (fforum-1-19.obf ... fforum-60-79.obf, from \
             https://github.com/abulmo/edax-reversi, folder problem/) in {}, or run the default \
             suite alone: cargo test --release",
            path.display(),
            dir.display()
        )
    });
    text.lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| {
            let position: Othello = line.parse().expect("an FFO line is a board");
            let scores = line
                .split(';')
                .skip(1)
                .filter_map(|entry| {
                    let (square, score) = entry.trim().split_once(':')?;
                    Some((square.to_ascii_lowercase(), score.parse().expect("a score")))
                })
                .collect();
            (line.to_owned(), position, scores)
        })
        .collect()
}

/// Othello's solver on FFO #1-#19 (14 to 16 empty squares): the exact score of each, a move
/// that gets it, and every move's exact score (the solver's analysis). #40-#59 run in `cargo bench --bench othello -- ffo`.
#[test]
fn othello_solves_ffo_1_to_19() {
    let positions = ffo("fforum-1-19.obf");
    assert_eq!(positions.len(), 19);
    for (number, (line, position, scores)) in (1..).zip(&positions) {
        let best = scores[0].1;
        for threads in [1, 2] {
            let solved = OthelloSolver::new(&Budget::unlimited(), None)
                .with_threads(threads)
                .solve(position);
            assert_eq!(solved.margin, best, "#{number} on {threads}: {line}");
            let mv = position.notation(solved.best).into_text();
            assert!(
                scores
                    .iter()
                    .any(|(square, score)| *square == mv && *score == best),
                "#{number} on {threads}: {mv} does not score {best}: {line}"
            );
        }
        // Every move's exact score, as /analyze gives them.
        let analysis = position.solver_analysis(None, &Budget::unlimited());
        let mut margins: Vec<(String, i32)> = analysis
            .moves
            .iter()
            .map(|entry| {
                (
                    position.notation(entry.mv).into_text(),
                    entry.margin.unwrap(),
                )
            })
            .collect();
        let mut expected = scores.clone();
        margins.sort();
        expected.sort();
        assert_eq!(margins, expected, "#{number}: {line}");
    }
}
