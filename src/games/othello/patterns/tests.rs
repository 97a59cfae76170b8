//! The pattern evaluation's tests: its symmetries, its reads and its training.

use super::*;
use crate::game::Bits;
use rand::{RngExt, SeedableRng};

/// The board's image under symmetry `s`.
fn image(s: usize, discs: u64) -> u64 {
    Bits(discs)
        .map(|square| {
            let (row, column) = symmetry(s, (square / 8, square % 8));
            1u64 << (row * 8 + column)
        })
        .fold(0, |image, bit| image | bit)
}

/// Positions of random games, each a few plies further on.
fn positions(count: usize, seed: u64) -> Vec<Othello> {
    let mut rng = SearchRng::seed_from_u64(seed);
    let mut found = Vec::new();
    while found.len() < count {
        let mut game = Othello::start();
        while !game.outcome().is_over() {
            let moves: Vec<u8> = game.legal_moves().collect();
            game = game.play(moves[rng.random_range(0..moves.len())]);
            if rng.random_range(0..6) == 0 {
                found.push(game);
            }
        }
    }
    found.truncate(count);
    found
}

#[test]
fn the_windows_are_46_images_of_11_shapes() {
    let shapes = shapes();
    let images: Vec<usize> = shapes.iter().map(|shape| shape.1).collect();
    assert_eq!(images, [4, 8, 4, 4, 4, 4, 2, 4, 4, 4, 4]);
    assert_eq!(images.iter().sum::<usize>(), 46);
    let sizes: Vec<u32> = shapes.iter().map(|shape| shape.2).collect();
    assert_eq!(
        sizes,
        [
            19_683, 59_049, 59_049, 6_561, 6_561, 6_561, 6_561, 2_187, 729, 243, 81
        ]
    );
    assert_eq!(patterns().weights(), STAGES * (167_265 + 2 * 31 + 2));
    // Every image covers squares of the board, each once.
    for (squares, n, _) in &patterns().images {
        let mut covered = 0u64;
        for &square in &squares[..usize::from(*n)] {
            assert!(square < 64 && covered >> square & 1 == 0);
            covered |= 1 << square;
        }
    }
}

#[test]
fn a_configuration_and_its_reflection_share_a_weight() {
    let patterns = patterns();
    // The corner's 3 x 3 square read with a1 the mover's and b1 the opponent's, and its
    // reflection along the diagonal: a1 the mover's and a2 the opponent's.
    let b1_theirs = 1 + 2 * 3;
    let a2_theirs = 1 + 2 * 27;
    let corner = &patterns.canonical[0].of;
    assert_eq!(corner[b1_theirs], corner[a2_theirs]);
    assert_eq!(corner[b1_theirs], b1_theirs.min(a2_theirs) as u32);
    // The 2 x 5 rectangles have no symmetry of their own: each of the 8 images reads it.
    assert!(patterns.canonical[1].of.is_empty());
    // A row read backwards is the same row.
    let row = &patterns.canonical[3].of;
    assert_eq!(row[1], row[3usize.pow(7)]);
}

#[test]
fn the_windows_read_from_the_images_are_the_windows_read_square_by_square() {
    // Random weights, so that every configuration of every window counts differently.
    let mut rng = SearchRng::seed_from_u64(2);
    let weights = Weights {
        weights: (0..patterns().weights())
            .map(|_| rng.random_range(-3000..3000))
            .collect(),
    };
    for position in positions(500, 4) {
        let (mover, other) = position.sides();
        assert_eq!(
            weights.evaluate(mover, other),
            weights.evaluate_inputs(mover, other),
            "{position}"
        );
    }
}

#[test]
fn every_image_of_a_position_is_worth_the_same() {
    // Images share tables, and a shape's readings of its own squares share weights, so
    // the learnt weights value a position and its images alike, exactly.
    let weights = shipped();
    for position in positions(300, 5) {
        let (mover, other) = position.sides();
        let value = weights.evaluate(mover, other);
        for s in 1..8 {
            assert_eq!(
                weights.evaluate(image(s, mover), image(s, other)),
                value,
                "{position} under symmetry {s}"
            );
        }
    }
}

#[test]
fn weights_learn_the_disc_difference_and_read_back() {
    // A board's discs as the label: the patterns can learn a count of discs exactly.
    let dir = std::env::temp_dir().join(format!("sente-patterns-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("positions.txt");
    let lines: String = positions(3_000, 9)
        .iter()
        .map(|position| {
            let (black, white) = position.discs();
            let score = black.count_ones() as i32 - white.count_ones() as i32;
            format!("{position} | {score} | 0.5\n")
        })
        .collect();
    std::fs::write(&data, lines).unwrap();
    let mut options = TrainingOptions::new(vec![data], dir.join("weights"));
    options.learning_rate = 0.05;
    options.epochs = 30;
    options.batch = 64;
    let report = train(&options, &mut |_| {}).unwrap();
    // The positions trained on are learnt nearly exactly; the held-out ones less, for
    // most of their larger windows' configurations were never seen.
    let (first, last) = (
        report.training_loss[0],
        *report.training_loss.last().unwrap(),
    );
    assert!(last < first / 20.0, "{:?}", report.training_loss);
    assert!(report.validation_loss.iter().all(|loss| loss.is_finite()));
    let weights = Weights::read(&std::fs::read(dir.join("weights")).unwrap()).unwrap();
    assert_eq!(weights.weights.len(), patterns().weights());
    options.result_weight = 0.5;
    assert!(
        train(&options, &mut |_| {})
            .unwrap_err()
            .to_string()
            .contains("--result-weight")
    );
    let wild = dir.join("wild.txt");
    std::fs::write(&wild, format!("{} | 99999 | 1\n", Othello::start())).unwrap();
    let options = TrainingOptions::new(vec![wild], dir.join("weights"));
    let error = train(&options, &mut |_| {}).unwrap_err().to_string();
    assert!(error.contains("discs within ±64"), "past 64 discs: {error}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_file_of_another_kind_is_refused_in_words() {
    assert!(
        Weights::read(b"SENTENN1....")
            .unwrap_err()
            .to_string()
            .contains("SENTEOP1")
    );
    let mut short = MAGIC.to_vec();
    short.extend(3u32.to_le_bytes());
    short.extend([0u8; 6]);
    assert!(
        Weights::read(&short)
            .unwrap_err()
            .to_string()
            .contains("this build reads")
    );
}
