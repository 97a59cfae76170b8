//! The loop on tiny settings: a run of each kind, its resumption, its shards, its settings.

use std::path::{Path, PathBuf};

use super::steps::{self, Quiet};
use super::*;
use crate::game::Rules;

/// A fresh directory for a run.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sente-learn-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Settings small enough for seconds: `games` games a generation in `pieces` pieces.
fn tiny(game: &str, games: u64, pieces: u64) -> Settings {
    let mut settings = Settings::defaults(game, false).unwrap();
    settings.games = games;
    settings.pieces = pieces;
    settings.nodes = 300;
    settings.simulations = 30;
    settings.epochs = 1;
    settings.learning_rate = 0.01;
    settings.sprt.knobs = "nodes=300".into();
    if game == "tictactoe" {
        settings.sprt.knobs = "simulations=30".into();
    }
    settings.sprt.games = 8;
    settings.sprt.piece_games = 4;
    settings
}

/// Every file under `dir` but the temporary ones, with its bytes.
fn files(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let bytes = std::fs::read(&path).unwrap();
                found.push((path, bytes));
            }
        }
    }
    found.sort();
    found
}

#[test]
fn two_generations_of_each_kind_are_made_and_recorded() {
    // Othello's patterns learn from tournaments' records; tic-tac-toe's network from
    // self-play's visits.
    for (game, extension) in [("othello", "patterns"), ("tictactoe", "net")] {
        let dir = scratch(&format!("kinds-{game}"));
        let learning = Learning::open(&dir, Some(tiny(game, 16, 4)), 2).unwrap();
        let rows = learning.run(2, &Quiet).unwrap();
        assert_eq!(rows.len(), 2, "{game}");
        for (row, generation) in rows.iter().zip(1..) {
            assert_eq!(row.generation, generation, "{game}");
            assert_eq!(row.games, 16, "{game}");
            assert!(row.positions > 100, "{game}: {row:?}");
            let sprt = row.sprt.as_ref().expect("a best to play against");
            assert!(sprt.games > 0 && sprt.games <= 8, "{game}: {sprt:?}");
            assert_eq!(row.promoted, sprt.verdict == "h1", "{game}");
            let weights = learning
                .layout
                .generation(generation)
                .join(format!("weights.{extension}"));
            assert!(weights.exists(), "{}", weights.display());
        }
        assert_eq!(learning.state().unwrap().0, 3);
        let report = std::fs::read_to_string(dir.join("report.md")).unwrap();
        assert_eq!(
            report.lines().filter(|line| line.starts_with("| ")).count(),
            4,
            "{report}"
        );
        let svg = std::fs::read_to_string(dir.join("elo.svg")).unwrap();
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn othello_learns_alphazeros_network_when_asked() {
    // Othello's own evaluation is its patterns; `network` makes its run AlphaZero's, from
    // random weights, as a residual tower.
    assert!(matches!(
        Kind::of("othello", false),
        Ok(Kind::Evaluation(_))
    ));
    let mut settings = Settings::defaults("othello", true).unwrap();
    assert!(settings.network);
    settings.games = 8;
    settings.pieces = 2;
    settings.simulations = 20;
    settings.epochs = 1;
    settings.hidden = Some(8);
    settings.blocks = Some(1);
    let dir = scratch("othello-network");
    let learning = Learning::open(&dir, Some(settings), 2).unwrap();
    assert!(matches!(learning.kind, Kind::PolicyValue { shipped: None }));
    let rows = learning.run(1, &Quiet).unwrap();
    assert!(rows[0].promoted, "the first generation is the first best");
    let weights = learning.weights(1);
    assert!(weights.ends_with("weights.net"), "{}", weights.display());
    crate::api::catalogue::load_network("othello", "learn-test-othello", &weights).unwrap();
    let report = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(
        report.contains("(none: the first plays random weights)"),
        "{report}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_run_stopped_goes_on_from_the_first_piece_not_finished() {
    let dir = scratch("resume");
    let settings = tiny("othello", 16, 4);
    let learning = Learning::open(&dir, Some(settings.clone()), 1).unwrap();
    // Stopped after the even pieces of self-play, with a half-written file beside the next.
    steps::selfplay(&learning, Some((0, 2)), &Quiet).unwrap();
    let half = learning.layout.piece(1, "selfplay", 1, "json");
    let temporary = half.with_file_name(".piece-0001.json.99999.tmp");
    std::fs::write(&temporary, b"{\"setup\": ").unwrap();
    let before = files(&dir);
    assert_eq!(
        before
            .iter()
            .filter(|(path, _)| path.extension().is_some_and(|e| e == "json")
                && path.to_string_lossy().contains("piece-"))
            .count(),
        2
    );
    assert!(
        steps::train(&learning, &Quiet)
            .unwrap_err()
            .to_string()
            .contains("piece 1"),
        "training waits for every piece"
    );
    // The same command again, in a new process as far as the run knows.
    let learning = Learning::open(&dir, Some(settings), 1).unwrap();
    let rows = learning.run(1, &Quiet).unwrap();
    assert_eq!(rows[0].games, 16);
    let after = files(&dir);
    for (path, bytes) in &before {
        let now = after
            .iter()
            .find(|(other, _)| other == path)
            .expect("nothing removed");
        assert_eq!(&now.1, bytes, "{} was redone", path.display());
    }
    assert!(!half.with_extension("tmp").exists());
    // Finished, the generation is not made again.
    assert_eq!(learning.state().unwrap().0, 2);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn machines_sharing_a_step_make_the_pieces_one_machine_makes() {
    // At a node limit the games are the seed's: three machines' shares are one machine's run.
    let (one, many) = (scratch("one-machine"), scratch("three-machines"));
    let settings = tiny("othello", 12, 6);
    let alone = Learning::open(&one, Some(settings.clone()), 2).unwrap();
    steps::selfplay(&alone, None, &Quiet).unwrap();
    let shared = Learning::open(&many, Some(settings), 1).unwrap();
    for machine in [2, 0, 1] {
        steps::selfplay(&shared, Some((machine, 3)), &Quiet).unwrap();
    }
    for piece in 0..6 {
        let read = |learning: &Learning| -> crate::api::tournament::ShardFile {
            layout::read_if_there(
                &learning.layout.piece(1, "selfplay", piece, "json"),
                "a piece",
            )
            .unwrap()
            .unwrap()
        };
        let moves = |learning: &Learning| -> Vec<Vec<String>> {
            let piece = read(learning);
            assert_eq!(piece.results.games.len(), 2);
            piece
                .results
                .records
                .values()
                .map(|record| {
                    record
                        .moves
                        .iter()
                        .map(|played| format!("{:?}", played.mv))
                        .collect()
                })
                .collect()
        };
        let games = moves(&alone);
        assert_eq!(games, moves(&shared), "piece {piece}");
        // Self-play draws each game its own opening: a pair is two games, not one twice.
        assert_ne!(games[0], games[1], "piece {piece}");
    }
    let _ = std::fs::remove_dir_all(&one);
    let _ = std::fs::remove_dir_all(&many);
}

#[test]
fn a_run_keeps_its_settings_and_refuses_others_in_words() {
    let dir = scratch("settings");
    let settings = tiny("othello", 16, 4);
    Learning::open(&dir, Some(settings.clone()), 1).unwrap();
    let mut other = settings.clone();
    other.games = 18;
    other.sprt.elo1 = 10.0;
    let refused = Learning::open(&dir, Some(other), 1)
        .err()
        .unwrap()
        .to_string();
    assert!(refused.contains("games: 16, not 18"), "{refused}");
    assert!(refused.contains("sprt.elo1: 20.0, not 10.0"), "{refused}");
    assert_eq!(Learning::open(&dir, None, 1).unwrap().settings, settings);
    let empty = scratch("no-run");
    assert!(
        Learning::open(&empty, None, 1)
            .err()
            .unwrap()
            .to_string()
            .contains("give --game")
    );
    let mut bad = tiny("othello", 16, 4);
    bad.pieces = 9;
    assert!(
        Learning::open(&empty, Some(bad), 1)
            .err()
            .unwrap()
            .to_string()
            .contains("pieces is from 1 to 8")
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_weights_knob_plays_the_weights_it_names() {
    use crate::api::knobs::{PlayerSpec, player_on_time};

    use crate::games::othello::Othello;
    // Weights of all zeros value every position alike: the engine that plays them sees
    // nothing to choose between the moves at depth 1, where the shipped ones do.
    let dir = scratch("weights");
    std::fs::create_dir_all(&dir).unwrap();
    let shipped = crate::api::catalogue::learnt_weights("othello").unwrap();
    let mut zeros = shipped.shipped.to_vec();
    zeros[12..].fill(0);
    let path = dir.join("zeros.patterns");
    std::fs::write(&path, &zeros).unwrap();
    let shelf = [crate::api::catalogue::load_weights("othello", "zeros", &path).unwrap()];
    let game = crate::api::game(Some("othello")).unwrap();
    let opening = Othello::start().play(Othello::start().legal_moves().next().unwrap());
    let player = |text: &str, shelf: &[_]| {
        player_on_time(&game, &PlayerSpec::from_text(text).unwrap(), false, shelf)
    };
    let scores = |text: &str| -> Vec<f64> {
        let strategy = player(text, &shelf).unwrap();
        let analysis = crate::search::analyze(&opening, &strategy, 1).unwrap();
        let mut scores: Vec<f64> = analysis.moves.iter().map(|scored| scored.score).collect();
        scores.sort_by(f64::total_cmp);
        scores
    };
    let flat = scores("engine:evaluation=patterns,weights=zeros,depth=1");
    assert!(flat.iter().all(|&score| score == flat[0]), "{flat:?}");
    // On two threads, each plays the weights the settings carry.
    let both = scores("engine:evaluation=patterns,weights=zeros,depth=2,threads=2");
    assert!(both.iter().all(|&score| score == both[0]), "{both:?}");
    let seen = scores("engine:evaluation=patterns,depth=1");
    assert!(seen.iter().any(|&score| score != seen[0]), "{seen:?}");
    let detail = player("engine:weights=nonesuch", &shelf)
        .unwrap_err()
        .detail;
    assert!(detail.contains("The weights names are: "), "{detail}");
    assert!(detail.contains("zeros"), "{detail}");
    // Without the shelf, as over HTTP, there is nothing to name: said so.
    let detail = player("engine:weights=zeros", &[]).unwrap_err().detail;
    assert!(
        detail.contains("othello has none to choose from here"),
        "{detail}"
    );
    assert!(detail.contains("--weights NAME=FILE"), "{detail}");
    // Shogi's engine is offered none of Othello's.
    let shogi = crate::api::game(Some("shogi")).unwrap();
    let spec = PlayerSpec::from_text("engine:weights=zeros").unwrap();
    let detail = player_on_time(&shogi, &spec, false, &shelf)
        .unwrap_err()
        .detail;
    assert!(
        detail.contains("shogi has none to choose from here"),
        "{detail}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_sprt_plays_whole_pieces_and_judges_after_each() {
    // A candidate of weights all zeros against the shipped ones loses nearly every game: the
    // test decides H0 at the end of a piece, every piece played whole, the candidate not
    // promoted.
    let dir = scratch("sprt");
    let mut settings = tiny("othello", 16, 4);
    settings.sprt.games = 60;
    settings.sprt.piece_games = 10;
    let learning = Learning::open(&dir, Some(settings), 2).unwrap();
    steps::selfplay(&learning, None, &Quiet).unwrap();
    steps::train(&learning, &Quiet).unwrap();
    let mut zeros = std::fs::read(learning.weights(1)).unwrap();
    zeros[12..].fill(0);
    std::fs::write(learning.weights(1), zeros).unwrap();
    steps::sprt(&learning, None, &Quiet).unwrap();
    let row = steps::promote(&learning).unwrap();
    let sprt = row.sprt.unwrap();
    assert_eq!(sprt.verdict, "h0", "{sprt:?}");
    assert!(!row.promoted && row.best_after == Some(0));
    assert!(sprt.games < 60 && sprt.games.is_multiple_of(10), "{sprt:?}");
    for piece in 0..sprt.games / 10 {
        let file = learning.layout.piece(1, "sprt", piece, "json");
        let piece: crate::api::tournament::ShardFile =
            layout::read_if_there(&file, "a piece").unwrap().unwrap();
        assert_eq!(piece.results.games.len(), 10, "{}", file.display());
    }
    assert!(
        !learning
            .layout
            .piece(1, "sprt", sprt.games / 10, "json")
            .exists()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A run started from a file of a new shape (a residual tower) has it as generation 0, the
/// first best, and its next generation goes on from it in the same shape, its self-play with
/// playout cap randomization.
#[test]
fn a_run_starts_from_the_weights_it_is_given() {
    use crate::learn::policy_value::{PolicyValueNet, Shape};
    use crate::learn::residual::Tower;
    use rand::SeedableRng;
    let dir = scratch("start-from");
    std::fs::create_dir_all(&dir).unwrap();
    let tower = Tower {
        rows: 3,
        columns: 3,
        channels: 8,
        blocks: 1,
        moves: 9,
    };
    let mut rng = crate::search::SearchRng::seed_from_u64(3);
    let start = PolicyValueNet::random_tower("tictactoe", 18, tower, &mut rng);
    let start_file = dir.join("start.net");
    std::fs::write(&start_file, start.to_bytes()).unwrap();
    let mut settings = tiny("tictactoe", 48, 4);
    settings.start_from = Some(start_file);
    settings.tricks.fast_simulations = Some(8);
    settings.tricks.full_share = 0.75;
    let run = dir.join("run");
    let learning = Learning::open(&run, Some(settings), 2).unwrap();
    assert_eq!(
        std::fs::read(learning.weights(0)).unwrap(),
        start.to_bytes()
    );
    learning.run(1, &Quiet).unwrap();
    let next = PolicyValueNet::from_bytes(&std::fs::read(learning.weights(1)).unwrap()).unwrap();
    assert_eq!(next.shape, Shape::Residual(tower));
    let _ = std::fs::remove_dir_all(&dir);
}
