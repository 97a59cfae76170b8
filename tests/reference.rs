//! The reference suite: Sente against outside data with known answers. Connect Four's solver
//! against Pascal Pons' benchmark positions, whose exact scores are known.
//!
//! It needs the sets in `../shared/data/connect4/` beside the project (format in its README), so
//! it is not part of `cargo test`: it runs with
//! `cargo test --release --features reference-data --test reference` (as `.ci/run` does), and
//! fails at once, saying what is missing, when the data is not there. It checks every position of
//! End-Easy (L3_R1) and Middle-Easy (L2_R1), and a fixed sample of the harder sets; the full sets
//! run in `cargo bench --bench connect_four`. The Connect Four checks that need no outside data
//! are in `tests/connect_four.rs`.

use std::path::PathBuf;

use sente::games::ConnectFour;
use sente::games::connect_four::solver::Solver;

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
