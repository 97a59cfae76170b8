use super::*;
use crate::game::perft::perft;
use std::time::Duration;

use crate::search::{AlphaBetaParams, Budget, EngineParams, Solve, Strategy};

fn play(moves: &[&str]) -> Othello {
    let mut game = Othello::start();
    for written in moves {
        let mv = game.read_move(&Notation::Text((*written).into())).unwrap();
        game = game.play(mv);
    }
    game
}

/// Games of random moves from a fixed seed, each position of each game in turn.
fn random_positions(games: usize) -> Vec<Othello> {
    let mut state = 2026u64;
    let mut positions = Vec::new();
    for _ in 0..games {
        let mut game = Othello::start();
        loop {
            positions.push(game);
            let moves: Vec<u8> = game.legal_moves().collect();
            if moves.is_empty() {
                break;
            }
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            game = game.play(moves[(mix(state) % moves.len() as u64) as usize]);
        }
    }
    positions
}

/// The published figures, as Edax counts them: a pass is a ply, and a game that ends before the
/// depth is one path (228 games end at the ninth ply, which depth 10 counts).
#[test]
fn perft_from_the_start_counts_passes_as_plies() {
    let expected = [
        4, 12, 56, 244, 1_396, 8_200, 55_092, 390_216, 3_005_288, 24_571_284,
    ];
    for (depth, &paths) in (1..).zip(&expected) {
        assert_eq!(perft(&Othello::start(), depth), paths, "depth {depth}");
    }
}

#[test]
fn the_start_has_black_to_move_with_four_moves() {
    let start = Othello::start();
    assert_eq!(start.side_to_move(), Player::X);
    let moves: Vec<Notation> = start.legal_moves().map(|mv| start.notation(mv)).collect();
    let names: Vec<String> = moves.into_iter().map(Notation::into_text).collect();
    assert_eq!(names, ["d3", "c4", "f5", "e6"]);
    // d3 turns d4 over: Black has four discs, White one.
    let after = play(&["d3"]);
    let (black, white) = after.discs();
    assert_eq!((black.count_ones(), white.count_ones()), (4, 1));
    assert_eq!(after.side_to_move(), Player::O);
    assert_eq!(after.ply(), 1);
}

#[test]
fn the_text_form_is_obf_and_reads_back() {
    let start = Othello::start();
    let text = start.to_string();
    assert_eq!(text.len(), 66);
    assert!(
        Othello::DECLARATION.board.contains(&text),
        "the declaration shows the start"
    );
    assert_eq!(text.parse::<Othello>(), Ok(start));
    for position in random_positions(20) {
        let read: Othello = position.to_string().parse().unwrap();
        assert_eq!(read, position);
        assert_eq!(read.key(), position.key());
    }
    // Rows separated, dots for empty squares, lower case, an FFO line's scores.
    let rows = "......../......../......../...ox.../...xo.../......../......../........ x";
    assert_eq!(rows.parse::<Othello>(), Ok(start));
    let ffo = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X; A2:+38; C7:+36;";
    let position: Othello = ffo.parse().unwrap();
    assert_eq!(position.empties().count_ones(), 20);
    assert!(position.read_move(&Notation::Text("A2".into())).is_ok());
}

#[test]
fn boards_without_a_side_or_with_an_empty_centre_are_refused() {
    let cells = Othello::start().to_string()[..64].to_owned();
    for bad in [cells.clone(), format!("{cells} W"), format!("{cells}X")] {
        let error = bad.parse::<Othello>().unwrap_err().to_string();
        assert!(error.contains("side to move"), "{bad}: {error}");
    }
    let empty_centre = format!("{} X", "-".repeat(64));
    assert!(matches!(
        empty_centre.parse::<Othello>(),
        Err(BoardError::Impossible(_))
    ));
    assert!(matches!(
        format!("{} X", "-".repeat(63)).parse::<Othello>(),
        Err(BoardError::TooFewCells { .. })
    ));
}

#[test]
fn moves_are_squares_and_illegal_ones_say_why() {
    let start = Othello::start();
    for mv in start.legal_moves() {
        assert_eq!(start.read_move(&start.notation(mv)), Ok(mv));
        assert_eq!(start.parse_move(usize::from(mv)), Ok(mv));
    }
    let reason = |written: &str| {
        start
            .read_move(&Notation::Text(written.into()))
            .unwrap_err()
    };
    assert!(reason("d4").to_string().contains("taken"));
    assert!(reason("a1").to_string().contains("turns no disc"));
    assert!(
        reason("pass")
            .to_string()
            .contains("only legal when no square is")
    );
    for bad in ["i1", "a9", "a0", "d", "33", ""] {
        assert!(matches!(reason(bad), MoveError::Unreadable { .. }), "{bad}");
    }
    assert!(start.read_move(&Notation::Number(19)).is_err());
    assert!(matches!(
        start.parse_move(65),
        Err(MoveError::OutOfRange { last: 64, .. })
    ));
}

#[test]
fn a_player_without_a_square_passes_and_the_game_ends_when_neither_can_move() {
    let positions = random_positions(200);
    let passing: Vec<&Othello> = positions
        .iter()
        .filter(|position| position.legal_moves().collect::<Vec<_>>() == [PASS])
        .collect();
    assert!(!passing.is_empty(), "random games pass now and then");
    for position in passing {
        assert_eq!(position.count_perft_moves(), 1);
        assert_eq!(position.notation(PASS), Notation::Text("pass".into()));
        assert_eq!(position.move_cell(PASS), None);
        assert_eq!(position.read_move(&Notation::Text("pass".into())), Ok(PASS));
        let after = position.play(PASS);
        assert_eq!(after.side_to_move(), position.side_to_move().opponent());
        assert_eq!(after.discs(), position.discs());
        assert!(after.placements() != 0, "a pass is followed by a disc");
        assert_eq!(after.outcome(), Outcome::InProgress);
    }
    for position in positions
        .iter()
        .filter(|position| position.count_perft_moves() == 0)
    {
        let (black, white) = position.discs();
        let (black, white) = (black.count_ones() as i32, white.count_ones() as i32);
        let expected = match black.cmp(&white) {
            std::cmp::Ordering::Greater => Outcome::Won(Player::X),
            std::cmp::Ordering::Less => Outcome::Won(Player::O),
            std::cmp::Ordering::Equal => Outcome::Draw,
        };
        assert_eq!(position.outcome(), expected, "{position}");
        assert!(position.parse_move(usize::from(PASS)) == Err(MoveError::GameOver));
    }
}

#[test]
fn a_finished_game_gives_the_empty_squares_to_the_winner() {
    // Black's 13 discs against White's 0, 51 squares empty: +64 for Black.
    let mut cells = ["-"; 64];
    for square in [0, 1, 2, 3, 4, 5, 6, 7, 8, 27, 28, 35, 36] {
        cells[square] = "X";
    }
    let wiped: Othello = format!("{} O", cells.concat()).parse().unwrap();
    assert_eq!(wiped.outcome(), Outcome::Won(Player::X));
    assert_eq!(wiped.final_margin(), -64);
    assert_eq!(wiped.legal_moves().len(), 0);
}

#[test]
fn symmetric_images_share_a_key_and_others_do_not() {
    let d3 = play(&["d3"]);
    let images: Vec<u64> = ["c4", "f5", "e6"]
        .iter()
        .map(|first| play(&[first]).symmetric_key())
        .collect();
    assert!(images.iter().all(|&key| key == d3.symmetric_key()));
    assert_ne!(
        play(&["d3", "c3"]).symmetric_key(),
        play(&["d3", "e3"]).symmetric_key()
    );
    assert_ne!(d3.key(), play(&["c4"]).key());
}

#[test]
fn features_change_sign_with_the_side_and_stay_under_symmetries() {
    use evaluation::features;
    for position in random_positions(20) {
        let (mover, other) = position.sides();
        let mine = features(mover, other);
        let theirs = features(other, mover);
        // All but parity and tempo are the mover's count less the opponent's.
        for (index, name) in evaluation::FEATURE_NAMES.iter().enumerate().take(7) {
            assert_eq!(mine[index], -theirs[index], "{name} in {position}");
        }
        for (image, image_other) in bits::symmetries(mover, other) {
            assert_eq!(features(image, image_other), mine, "{position}");
        }
    }
}

#[test]
fn mobility_values_stay_inside_one_and_see_a_corner() {
    let mobility = &Othello::EVALUATIONS[usize::from(evaluation::MOBILITY)];
    assert_eq!(mobility.name, "mobility");
    for position in random_positions(10) {
        assert!((mobility.evaluate)(&position).abs() < 1.0, "{position}");
    }
    // Black has the four corners and the centre; White to move is far behind.
    let mut cells = ["-"; 64];
    for square in [0, 7, 56, 63, 27, 28, 35, 36] {
        cells[square] = "X";
    }
    let corners: Othello = format!("{} O", cells.concat()).parse().unwrap();
    assert!((mobility.evaluate)(&corners) < -0.5);
}

/// The score of `first` against `second`, each alphabeta `depth` plies deep with its own
/// evaluation, over pairs of games from random openings, each opening played with both colours.
fn match_points(first: u8, second: u8, depth: u32, pairs: u64) -> f64 {
    let strategy = |evaluation| {
        Strategy::alphabeta(AlphaBetaParams {
            depth: Some(depth),
            evaluation,
            ..AlphaBetaParams::strongest(None)
        })
    };
    let players = [strategy(first), strategy(second)];
    let mut points = 0.0;
    for pair in 0..pairs {
        let mut opening = Othello::start();
        let mut state = pair;
        while opening.ply() < 6 {
            let moves: Vec<u8> = opening.legal_moves().collect();
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            opening = opening.play(moves[(mix(state) % moves.len() as u64) as usize]);
        }
        for first_plays in [Player::X, Player::O] {
            let mut game = opening;
            while !game.outcome().is_over() {
                let player = usize::from(game.side_to_move() != first_plays);
                let result = crate::search::search(&game, &players[player], 0).unwrap();
                game = game.play(result.best_move);
            }
            points += match game.outcome() {
                Outcome::Won(winner) if winner == first_plays => 1.0,
                Outcome::Draw => 0.5,
                _ => 0.0,
            };
        }
    }
    points / (2 * pairs) as f64
}

/// What the fitted weights buy: at equal depth `mobility` wins most games against the square
/// weights (docs/othello.md has the tournament).
#[test]
fn mobility_beats_positional_at_equal_depth() {
    let score = match_points(evaluation::MOBILITY, 0, 4, 12);
    assert!(score >= 0.75, "mobility scored {score} against positional");
}

#[test]
fn the_time_limit_sets_how_many_empties_are_solved() {
    assert_eq!(solved_empties(Duration::from_secs(1)), 18);
    assert_eq!(solved_empties(Duration::from_millis(2_000)), 19);
    assert_eq!(solved_empties(Duration::from_secs(10)), 21);
    assert_eq!(solved_empties(Duration::from_millis(100)), 14);
}

/// FFO #1, 14 empties: +18 for Black by g8.
const FFO_1: &str = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";

#[test]
fn the_engine_solves_when_the_time_allows_and_searches_with_mobility_before() {
    let second = EngineParams {
        time_limit: Some(Duration::from_secs(1)),
        ..EngineParams::default()
    };
    let ffo: Othello = FFO_1.parse().unwrap();
    let solved = ffo.engine(&second, &Budget::unlimited());
    assert!(solved.exact && solved.stopped_by.is_none());
    assert_eq!((solved.margin, solved.best_move), (Some(18), 62));
    // Three plies deep: the midgame search, whatever the empties.
    let shallow = ffo.engine(
        &EngineParams {
            depth: Some(3),
            ..second.clone()
        },
        &Budget::unlimited(),
    );
    assert!(!shallow.exact && shallow.margin.is_none(), "{shallow:?}");
    assert!((1..=3).contains(&shallow.pv.len()), "{shallow:?}");
    // The start is far from the end: the midgame search, within the time.
    let quick = EngineParams {
        time_limit: Some(Duration::from_millis(50)),
        ..second.clone()
    };
    let start = Othello::start().engine(&quick, &Budget::unlimited());
    assert!(!start.exact && start.margin.is_none(), "{start:?}");
    assert!(start.elapsed < Duration::from_millis(1_000));
    assert!(
        Othello::start()
            .legal_moves()
            .any(|mv| mv == start.best_move)
    );
    // A node limit stops it.
    let limited = EngineParams {
        nodes: Some(5_000),
        ..second.clone()
    };
    let stopped = Othello::start().engine(&limited, &Budget::unlimited());
    assert!(stopped.nodes < 5_000 + 2_048, "{}", stopped.nodes);
}

#[test]
fn on_a_clock_the_engine_shares_the_movers_time_over_its_moves_left() {
    use crate::search::Clock;
    let clocked = EngineParams {
        time_limit: Some(Duration::from_secs(1)),
        clock: Clock {
            btime: Some(Duration::from_millis(3_020)),
            wtime: Some(Duration::from_secs(100)),
            ..Clock::default()
        },
        ..EngineParams::default()
    };
    // Black to move with 60 empties: 3 s over its 30 moves left.
    let start = Othello::start();
    assert_eq!(
        start.engine_time(&clocked),
        Some(Duration::from_millis(100))
    );
    // White's clock is long: the time limit is shorter.
    let after = play(&["d3"]);
    assert_eq!(after.engine_time(&clocked), Some(Duration::from_secs(1)));
    // No clock: the time limit.
    let unclocked = EngineParams {
        clock: Clock::default(),
        ..clocked
    };
    assert_eq!(start.engine_time(&unclocked), Some(Duration::from_secs(1)));
}
