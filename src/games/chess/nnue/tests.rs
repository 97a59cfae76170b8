//! Chess's net trained on PeSTO's scores for seconds, and its inputs.

use std::fs;

use rand::RngExt;
use shakmaty::{Chess, EnPassantMode, Position};

use rand::SeedableRng;

use super::*;
use crate::games::chess::evaluation::pesto;
use crate::learn::TrainingOptions;

/// Positions of random games, each labelled with PeSTO's score (White's view): what a net
/// can learn in seconds.
fn labelled_positions(count: usize) -> String {
    let mut rng = crate::search::SearchRng::seed_from_u64(11);
    let mut lines = String::new();
    let mut written = 0;
    while written < count {
        let mut position = Chess::default();
        for _ in 0..rng.random_range(4..80) {
            let moves = position.legal_moves();
            if moves.is_empty() {
                break;
            }
            position.play_unchecked(moves[rng.random_range(0..moves.len())]);
        }
        let fen = shakmaty::fen::Fen::from_position(&position, EnPassantMode::Legal);
        let score = position.turn().fold_wb(1, -1) * pesto(&position);
        lines.push_str(&format!("{fen} | {score} | 0.5\n"));
        written += 1;
    }
    lines
}

/// A few seconds of training on PeSTO's scores: the loss falls, on the positions trained on
/// and on those held out, and the net written reads back and plays its part.
#[test]
fn a_tiny_training_run_learns() {
    let directory = std::env::temp_dir().join(format!("sente-train-{}", std::process::id()));
    fs::create_dir_all(&directory).unwrap();
    let data = directory.join("positions.txt");
    fs::write(&data, labelled_positions(4_000)).unwrap();
    let mut options = TrainingOptions::new(vec![data], directory.join("net.nnue"));
    options.epochs = 6;
    options.batch = 64;
    options.threads = 2;
    let mut told = 0;
    let report = train(&options, &mut |epoch| {
        told += 1;
        assert_eq!(epoch.number, told);
    })
    .unwrap();
    assert_eq!(told, 6);
    assert_eq!(report.positions + report.validation_positions, 4_000);
    let (training, validation) = (&report.training_loss, &report.validation_loss);
    assert!(training[5] < training[0] * 0.7, "{training:?}");
    assert!(validation[5] < validation[0], "{validation:?}");
    let network = Network::read(&fs::read(&report.output).unwrap()).unwrap();
    // A queen up is worth far more than nothing, to either side.
    let up: Chess = "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        .parse::<shakmaty::fen::Fen>()
        .unwrap()
        .into_position(shakmaty::CastlingMode::Standard)
        .unwrap();
    let sums = accumulator::of(&network, up.board());
    assert!(network.evaluate(&sums, side(Color::White)) > 300);
    assert!(network.evaluate(&sums, side(Color::Black)) < -300);
    fs::remove_dir_all(&directory).unwrap();
}

/// A line a trainer cannot trust stops the run before it trains, naming the file and line,
/// and writes nothing: a NaN score trained a NaN net, a result of 7.5 a wild one.
#[test]
fn a_bad_line_is_refused_naming_its_file_and_line() {
    let directory = std::env::temp_dir().join(format!("sente-bad-{}", std::process::id()));
    fs::create_dir_all(&directory).unwrap();
    let data = directory.join("positions.txt");
    let output = directory.join("net.nnue");
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    for (bad, says) in [
        (format!("{start} | NaN | 0.5"), "the score is centipawns"),
        (format!("{start} | inf | 0.5"), "the score is centipawns"),
        (
            format!("{start} | 12 | 7.5"),
            "the result is 1.0, 0.5 or 0.0",
        ),
        (format!("{start} | 12"), "2 fields"),
        ("not a position | 1 | 0.5".to_owned(), "the FEN"),
    ] {
        fs::write(&data, labelled_positions(300) + &bad + "\n").unwrap();
        let options = TrainingOptions::new(vec![data.clone()], output.clone());
        let error = train(&options, &mut |_| {}).unwrap_err().to_string();
        let line = format!("{}: line 301: ", data.display());
        assert!(
            error.starts_with(&line) && error.contains(says),
            "{bad}: {error}"
        );
        assert!(!output.exists());
    }
    fs::remove_dir_all(&directory).unwrap();
}

#[test]
fn too_few_positions_are_refused_in_words() {
    let data = std::env::temp_dir().join(format!("sente-few-{}.txt", std::process::id()));
    fs::write(&data, labelled_positions(10)).unwrap();
    let options = TrainingOptions::new(vec![data.clone()], data.with_extension("nnue"));
    let error = train(&options, &mut |_| {}).unwrap_err().to_string();
    assert!(error.contains("too few to train on"), "{error}");
    fs::remove_file(data).unwrap();
}

#[test]
fn black_sees_the_board_upside_down_with_the_sides_swapped() {
    use shakmaty::{Role, Square};
    for (color, role, square) in [
        (Color::White, Role::Pawn, Square::E2),
        (Color::Black, Role::King, Square::G8),
        (Color::Black, Role::Queen, Square::A1),
    ] {
        let white = input(Color::White, color, role, square) as u16;
        let black = input(Color::Black, color, role, square) as u16;
        assert_eq!(ChessFeatures::flip(white), black);
        assert_eq!(ChessFeatures::flip(black), white);
    }
}

/// A file of a net's size and header but weights no training makes (random bytes, as a
/// corrupted or hostile EvalFile) is refused when read: its sums could wrap around, and an
/// evaluation of it would be noise. The shipped net is within the bounds.
#[test]
fn a_net_of_garbage_weights_is_refused() {
    let shipped = NET.shipped().to_bytes();
    assert!(Network::read(&shipped).is_ok());
    let mut rng = crate::search::SearchRng::seed_from_u64(3);
    let mut garbage = shipped.clone();
    for byte in &mut garbage[12..] {
        *byte = rng.random();
    }
    let error = Network::read(&garbage).unwrap_err().to_string();
    assert!(error.contains("not a trained net"), "{error}");
    let path = std::env::temp_dir().join(format!("sente-garbage-{}.nnue", std::process::id()));
    fs::write(&path, &garbage).unwrap();
    let error = load_eval_file(&path).unwrap_err().to_string();
    assert!(error.contains("not a trained net"), "{error}");
    fs::remove_file(&path).unwrap();
}
