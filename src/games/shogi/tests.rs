use super::*;
use crate::game::perft::perft;
use crate::game::{Notation, Rules};

fn play_from(mut game: Shogi, moves: &[&str]) -> Shogi {
    for mv in moves {
        let read = game
            .read_move(&Notation::Text((*mv).into()))
            .unwrap_or_else(|error| panic!("{mv} in {game}: {error}"));
        game = game.play(read);
    }
    game
}

fn play(moves: &[&str]) -> Shogi {
    play_from(Shogi::start(), moves)
}

fn refusal(board: &str, mv: &str) -> String {
    let game: Shogi = board.parse().unwrap();
    game.read_move(&Notation::Text(mv.into()))
        .expect_err("refused")
        .to_string()
}

/// The published figures (depths 1 to 5 from the start), through the game contract.
#[test]
fn perft_from_the_start_matches_the_published_figures() {
    let start = Shogi::start();
    let counts: Vec<u64> = (1..=5).map(|depth| perft(&start, depth)).collect();
    assert_eq!(counts, [30, 900, 25_470, 719_731, 19_861_490]);
}

/// perft through the contract counts what the crate's own perft counts, on positions with
/// drops, promotions and checks.
#[test]
fn perft_agrees_with_the_crates_own_on_positions_with_drops_and_promotions() {
    for sfen in [
        // A middle game with pieces in hand on both sides.
        "ln1g3nl/1r1sk1gs1/p1ppppbpp/6p2/9/4P1P2/PPSP1P1PP/1B2G1SR1/LN1GK2NL b Pp 1",
        // Pieces near promotion, Sente in check.
        "8k/9/6G1P/9/9/9/9/1r7/K8 b 2Pr2b3g4s4n4l14p 1",
        "4kgsnl/9/1pppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b RBGSNLP 1",
    ] {
        let game: Shogi = sfen.parse().unwrap();
        let mut position = game.position().clone();
        let theirs = rsshogi::board::perft::compute_perft(&mut position, 3);
        assert_eq!(perft(&game, 3), theirs, "{sfen}");
    }
}

#[test]
fn boards_are_sfen_and_read_back() {
    let start = Shogi::start();
    assert_eq!(start.to_string(), START);
    assert_eq!(START.parse::<Shogi>().unwrap(), start);
    // The move number may be left out, and `startpos` is the start.
    assert_eq!(
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -"
            .parse::<Shogi>()
            .unwrap()
            .to_string(),
        START
    );
    assert_eq!("startpos".parse::<Shogi>().unwrap(), start);
    let after = play(&["7g7f", "3c3d", "8h2b+", "3a2b"]);
    assert_eq!(
        after.to_string(),
        "lnsgkg1nl/1r5s1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL b Bb 5"
    );
    assert_eq!(after.hand(Player::X), vec![('角', 1)]);
    assert_eq!(after.ply(), 4);
}

#[test]
fn impossible_boards_are_refused_in_words() {
    let refused = |board: &str| board.parse::<Shogi>().unwrap_err().to_string();
    assert!(refused("4k4/9/9/9/9/9/9/9/9 b - 1").contains("Sente has 0 kings"));
    assert!(refused("4k4/9/9/9/4P4/4P4/9/9/4K4 b - 1").contains("nifu"));
    assert!(refused("P3k4/9/9/9/9/9/9/9/4K4 b - 1").contains("could never move"));
    assert!(refused("4k4/9/9/9/9/9/9/9/4K4 b - 1 extra").contains("four fields"));
    assert!(refused("4k4/4R4/9/9/9/9/9/9/4K4 b - 1").contains("in check"));
    assert!(refused("nonsense").contains("SFEN"));
}

/// More of a piece than a set holds: a capture would overflow a hand (the crate panics), and no
/// game reaches it anyway.
#[test]
fn boards_with_more_pieces_than_a_set_are_refused() {
    let refused = |board: &str| board.parse::<Shogi>().unwrap_err().to_string();
    assert_eq!(
        refused("4k4/9/9/9/9/4r4/4G4/9/4K4 b 3R 1"),
        "impossible position: Sente has 3 rooks and Gote 1: a set has 2, promoted ones and \
         those in hand counted"
    );
    assert!(
        refused(&START.replace(" - ", " 2P "))
            .contains("Sente has 11 pawns and Gote 9: a set has 18")
    );
    // Tokins are pawns.
    assert!(
        refused("4k4/9/+P+P+P+P+P+P+P+P+P/9/9/9/+P+P+P+P+P+P+P+P+P/9/4K4 b 2P 1")
            .contains("Sente has 20 pawns")
    );
    assert!(refused("4k4/9/9/9/9/9/9/9/R3K2RR b - 1").contains("Sente has 3 rooks"));
    assert!(refused("4k4/9/9/9/9/9/9/9/4K4 b 3B 1").contains("3 bishops"));
    assert!(refused("4k4/9/9/9/9/9/9/9/4K4 b 3g2G 1").contains("Sente has 2 golds and Gote 3"));
    for hand in ["5S", "5N", "5L", "19P"] {
        assert!(
            "4k4/9/9/9/9/9/9/9/4K4 b - 1"
                .replace(" - ", &format!(" {hand} "))
                .parse::<Shogi>()
                .is_err(),
            "{hand}"
        );
    }
    // A whole set, all of it in hand, is a position.
    assert!(
        "4k4/9/9/9/9/9/9/9/4K4 b 2R2B4G4S4N4L18P 1"
            .parse::<Shogi>()
            .is_ok()
    );
}

#[test]
fn illegal_moves_are_refused_in_a_players_words() {
    // A pawn in hand, and one on file 5 already.
    let board = "4k4/9/9/9/9/9/4P4/9/4K4 b P 1";
    assert!(
        refusal(board, "P*5e").contains("nifu"),
        "{}",
        refusal(board, "P*5e")
    );
    assert!(refusal(board, "G*5e").contains("no such piece in hand"));
    assert!(refusal(board, "P*4a").contains("could never move"));
    // A pawn dropped to mate: uchifuzume. The king on 1a, guarded by a gold on 2c and boxed in by a
    // gold on 3b.
    let board = "8k/6G2/7G1/9/9/9/9/9/4K4 b P 1";
    assert!(
        refusal(board, "P*1b").contains("uchifuzume"),
        "{}",
        refusal(board, "P*1b")
    );
    // A pawn that reaches the last rank must promote; a gold never does.
    let board = "4k4/P8/9/9/9/9/9/9/G3K4 b - 1";
    assert!(refusal(board, "9b9a").contains("must promote"));
    assert!(refusal(board, "9i9h+").contains("does not promote"));
    assert!(refusal(board, "5i5h+").contains("does not promote"));
    assert!(refusal(board, "9i8g").contains("does not move that way"));
    assert!(refusal(board, "5a5b").contains("not yours"));
    assert!(refusal(board, "5e5d").contains("no piece"));
    assert!(refusal(board, "hello").contains("USI"));
    // Promotion outside the enemy camp.
    let board = "4k4/9/9/9/9/9/P8/9/4K4 b - 1";
    assert!(refusal(board, "9g9f+").contains("enemy camp"));
}

#[test]
fn moves_are_written_in_usi_and_ki2() {
    let start = Shogi::start();
    let mv = start.read_move(&Notation::Text("7g7f".into())).unwrap();
    assert_eq!(start.notation(mv), Notation::Text("7g7f".into()));
    assert_eq!(start.san(mv).as_deref(), Some("▲７六歩"));
    assert_eq!(start.move_cell(mv), Some((5, 2)));
    assert_eq!(start.move_origin(mv), Some((6, 2)));
    let after = play(&["7g7f", "3c3d", "8h2b+"]);
    let recapture = after.read_move(&Notation::Text("3a2b".into())).unwrap();
    assert_eq!(after.san(recapture).as_deref(), Some("△同　銀"));
    let drop_board = play(&["7g7f", "3c3d", "8h2b+", "3a2b"]);
    let drop = drop_board
        .read_move(&Notation::Text("B*5e".into()))
        .unwrap();
    assert_eq!(drop_board.move_origin(drop), None);
    assert_eq!(drop_board.move_drop(drop), Some('角'));
    assert_eq!(drop_board.move_cell(drop), Some((4, 4)));
    assert_eq!(drop_board.cell(0, 0), Some((Player::O, '香')));
    assert_eq!(drop_board.cell(1, 7), Some((Player::O, '銀')));
}

/// The same position a fourth time: sennichite, a draw.
#[test]
fn a_fourth_repetition_is_a_draw() {
    let cycle = ["5i5h", "5a5b", "5h5i", "5b5a"];
    let mut game = Shogi::start();
    for round in 0..3 {
        assert!(!game.outcome().is_over(), "round {round}");
        game = play_from(game, &cycle);
    }
    assert_eq!(game.outcome(), Outcome::Draw);
    assert_eq!(Rules::ending(&game), Some("sennichite"));
    assert_eq!(game.legal_moves().len(), 0);
}

/// A fourth repetition in which Sente gave every check: Sente loses.
#[test]
fn perpetual_check_loses() {
    let mut game: Shogi = "4k4/9/9/9/4R4/9/9/9/K8 w - 1".parse().unwrap();
    for _ in 0..3 {
        game = play_from(game, &["5a4a", "5e4e", "4a5a", "4e5e"]);
    }
    assert_eq!(Rules::ending(&game), Some("perpetual_check"));
    assert_eq!(game.outcome(), Outcome::Won(Player::O));
}

/// The entering-king declaration: a legal move, `win`, that ends the game.
#[test]
fn a_king_in_the_enemy_camp_with_the_points_declares_a_win() {
    let board = "+R+BGGSS+N+N+L/4K4/+P+P7/9/9/9/9/9/4k4 b RB 1";
    let game: Shogi = board.parse().unwrap();
    let declare = game.read_move(&Notation::Text("win".into())).unwrap();
    assert!(game.legal_moves().any(|mv| mv == declare));
    assert_eq!(game.move_cell(declare), None);
    let after = game.play(declare);
    assert_eq!(after.outcome(), Outcome::Won(Player::X));
    assert_eq!(Rules::ending(&after), Some("declaration"));
    // One point short (no bishop in hand): refused in words.
    let short: Shogi = "+R+BGGSS+N+N+L/4K4/+P+P7/9/9/9/9/9/4k4 b R 1"
        .parse()
        .unwrap();
    assert!(
        short
            .read_move(&Notation::Text("win".into()))
            .unwrap_err()
            .to_string()
            .contains("27-point rule")
    );
    // The engine declares at once.
    let result = game.engine(&EngineParams::default(), &Budget::default());
    assert_eq!(result.best_move, declare);
}

/// No legal move is a loss, as checkmate is.
#[test]
fn a_side_that_is_mated_has_lost() {
    let mated = play_from("4k4/9/4P4/9/9/9/9/9/4K4 b G 1".parse().unwrap(), &["G*5b"]);
    assert_eq!(mated.outcome(), Outcome::Won(Player::X));
    assert_eq!(Rules::ending(&mated), Some("checkmate"));
}

/// The engine finds a mate in one, and says so.
#[test]
fn the_engine_finds_mates() {
    let params = EngineParams {
        depth: Some(6),
        ..EngineParams::default()
    };
    // Mate in one: a gold dropped on the king's head, guarded by the pawn.
    let one: Shogi = "4k4/9/4P4/9/9/9/9/9/4K4 b G 1".parse().unwrap();
    let result = one.engine(&params, &Budget::default());
    assert_eq!(result.best_move.usi(), "G*5b");
    assert!(result.exact && result.score > 0.0);
    assert_eq!(result.plies_to_end, Some(1));
}

#[test]
fn the_evaluation_is_symmetric() {
    for moves in [&[][..], &["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"][..]] {
        let game = play(moves);
        let flipped = Shogi::new(game.position().to_flipped());
        let score = evaluation::evaluate(game.position());
        assert_eq!(score, evaluation::evaluate(flipped.position()), "{game}");
    }
}

/// The tsume set (`data/shogi/tsume.txt`, scripts/shogi-tsume.py): every mate in 1, 3 and 5
/// plies found, and found to be that long.
#[test]
fn the_engine_solves_the_tsume_set() {
    let set = include_str!("../../../data/shogi/tsume.txt");
    let mut missed = Vec::new();
    let mut count = 0;
    for line in set.lines().filter(|line| !line.starts_with('#')) {
        let (plies, moves) = line.split_once('\t').expect("plies, a tab, the moves");
        let plies: u32 = plies.parse().expect("plies");
        let moves: Vec<&str> = moves.split_whitespace().collect();
        let game = play(&moves);
        let params = EngineParams {
            depth: Some(plies + 4),
            ..EngineParams::default()
        };
        let result = game.engine(&params, &Budget::default());
        count += 1;
        if !(result.exact && result.score > 0.0 && result.plies_to_end == Some(plies)) {
            missed.push(format!(
                "{plies} {game}: {:?} {:?}",
                result.plies_to_end, result.pv
            ));
        }
    }
    assert!(count >= 30, "{count} problems");
    assert!(
        missed.is_empty(),
        "{} of {count} missed:\n{}",
        missed.len(),
        missed.join("\n")
    );
}

/// A mate the game would not live to see (Sente's 512-ply limit draws it first) is no mate: at
/// move 512 the mate in one is a draw, at move 100 a win.
#[test]
fn no_mate_is_claimed_past_the_move_limit() {
    let params = EngineParams {
        depth: Some(3),
        ..EngineParams::default()
    };
    let early: Shogi = "8k/9/8G/9/9/9/9/9/4K4 b G 100".parse().unwrap();
    let result = early.engine(&params, &Budget::unlimited());
    assert!(result.exact && result.score == 1.0, "{result:?}");
    let late: Shogi = "8k/9/8G/9/9/9/9/9/4K4 b G 512".parse().unwrap();
    let result = late.engine(&params, &Budget::unlimited());
    assert!(!(result.exact && result.score > 0.0), "{result:?}");
    let after = late.play(result.best_move);
    assert_eq!(Shogi::ending(&after), Some(Ending::MoveLimit));
}

/// Moves as Japanese records write them, pasted into the position box: KI2 with or without
/// the side's mark, 同 for the last move's square, 打 for a drop, the words that tell two
/// pieces apart; and KIF's moves, which name the square a piece leaves.
#[test]
fn moves_are_read_as_ki2_and_kif_write_them() {
    let usi = |moves: &[&str]| play(moves).to_string();
    assert_eq!(usi(&["▲７六歩"]), usi(&["7g7f"]));
    assert_eq!(usi(&["７六歩"]), usi(&["7g7f"]));
    assert_eq!(usi(&["７六歩(77)"]), usi(&["7g7f"]));
    assert_eq!(usi(&["☗７六歩", "☖３四歩"]), usi(&["7g7f", "3c3d"]));
    assert_eq!(
        usi(&["▲７六歩", "△３四歩", "▲２二角成", "△同　銀", "▲４五角打"]),
        usi(&["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"])
    );
    assert_eq!(
        usi(&["7g7f", "3c3d", "２二角成(88)", "同　銀(31)", "４五角打"]),
        usi(&["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"])
    );
    assert_eq!(usi(&["▲５八金右"]), usi(&["4i5h"]));
    assert_eq!(usi(&["５八金(69)"]), usi(&["6i5h"]));
    // Two golds may go to 5h: KI2 without 右 or 左 names no one move.
    let start = crate::games::shogi::START;
    for (written, why) in [
        ("▲５八金", "KI2"),
        ("△３四歩", "KI2"),
        ("５八金(59)", "KI2"),
        ("７六歩(76)", "KI2"),
    ] {
        assert!(refusal(start, written).contains(why), "{written}");
    }
}

/// Moves as CSA writes them, which Sente's own `.csa` records hold, are read as the moves they
/// are: with the side's sign or without, drops and promotions; the other side's sign is not
/// the side to move's.
#[test]
fn moves_are_read_as_csa_writes_them() {
    let game = play(&["+7776FU", "3334FU", "+8822UM", "-3122GI", "+0055KA"]);
    let usi = play(&["7g7f", "3c3d", "8h2b+", "3a2b", "B*5e"]);
    assert_eq!(game, usi);
    let refused = Shogi::start()
        .read_move(&Notation::Text("-7776FU".into()))
        .expect_err("Gote's sign on Sente's move");
    assert!(refused.to_string().contains("CSA"), "{refused}");
}

/// The mate in one looked for at the search's nodes (the `mate_in_one` step): at depth 1 the
/// search sees the set's mates in three (its check, the forced reply, then a node that mates
/// at once), where without the step the horizon hides all but those a capture gives.
#[test]
fn the_nodes_find_the_mates_in_one_beyond_the_horizon() {
    let set = include_str!("../../../data/shogi/tsume.txt");
    let mated = |game: &Shogi, without: Option<&'static str>| {
        let params = EngineParams {
            depth: Some(1),
            without,
            ..EngineParams::default()
        };
        // The kit's search itself: the tsume solver before it would find these anyway.
        let result = crate::search::engine::search::<engine::ShogiBoard>(
            game,
            &params,
            &Budget::unlimited(),
        );
        result.exact && result.score > 0.0 && result.plies_to_end == Some(3)
    };
    let (mut count, mut with_step, mut without_step) = (0, 0, 0);
    for line in set.lines().filter(|line| line.starts_with("3\t")) {
        let moves: Vec<&str> = line[2..].split_whitespace().collect();
        let game = play(&moves);
        count += 1;
        with_step += usize::from(mated(&game, None));
        without_step += usize::from(mated(&game, Some(engine::MATE_IN_ONE)));
    }
    assert!(count >= 15, "{count} problems");
    assert_eq!(with_step, count, "{without_step} without the step");
    assert!(
        without_step < count / 2,
        "{without_step} of {count} without the step"
    );
}

/// The mate threat asked near the horizon (the `mate_threat` step): with the turn passed in
/// each of the set's mates in one, the side to move is threatened, as the opponent mates at
/// once if it passes again; at the start no one is, nor anyone with the step turned off.
#[test]
fn a_mate_in_one_for_the_opponent_is_a_threat() {
    use crate::search::engine::Board;
    let set = include_str!("../../../data/shogi/tsume.txt");
    let board = |game: &Shogi, without: Option<&'static str>| {
        let params = EngineParams {
            without,
            ..EngineParams::default()
        };
        engine::ShogiBoard::new(game, &params)
    };
    let mut count = 0;
    for line in set.lines().filter(|line| line.starts_with("1\t")) {
        let moves: Vec<&str> = line[2..].split_whitespace().collect();
        let game = play(&moves);
        let mut threatened = board(&game, None);
        assert!(threatened.make_null(), "{line}");
        assert!(threatened.mate_threat(), "{line}");
        let mut step_off = board(&game, Some(engine::MATE_THREAT));
        assert!(step_off.make_null());
        assert!(!step_off.mate_threat(), "{line}");
        count += 1;
    }
    assert!(count >= 20, "{count} problems");
    assert!(!board(&Shogi::start(), None).mate_threat());
}

/// A node about to be mated is not cut on its evaluation (the `mate_threat` step). In this
/// position of one of Sente's lost games against Fairy-Stockfish at full strength (Gote to
/// move), the search at depth 7 without the step moves its rook to 2d, and the tsume solver then
/// mates Gote; with the step the reverse futility cut that hid the mate is not made, and the move
/// it chooses leaves no mate the solver finds. (The position moves with the network and the
/// search: with generations 2 and 4 it was another game's, where the search without the step
/// dropped a silver on 6d; generation 5 no longer walks into that mate at any depth from 3 to 9,
/// nor generation 6 into this one with checks extended to twice the depth. docs/shogi.md says
/// how to find the next.)
#[test]
fn a_node_under_a_mate_threat_is_not_cut_on_its_evaluation() {
    let game: Shogi =
        "l6nl/5k1s1/pp1+Bpp1pp/1b4p2/2PsN2r1/PP2PPP2/1G2S1NPP/6KS1/L1g5L w GPrgn2p 72"
            .parse()
            .unwrap();
    let chosen = |without: Option<&'static str>| {
        let params = EngineParams {
            depth: Some(7),
            without,
            ..EngineParams::default()
        };
        let result = crate::search::engine::search::<engine::ShogiBoard>(
            &game,
            &params,
            &Budget::unlimited(),
        );
        assert_eq!(result.depth, Some(7));
        result.best_move
    };
    let mated_after = |mv| {
        let after = game.play(mv);
        let (mate, _, _) =
            mate::solve_game(&after, &Budget::unlimited(), 1_000_000, mate::MAX_PLIES);
        mate
    };
    let with_step = chosen(None);
    let without_step = chosen(Some(engine::MATE_THREAT));
    assert_eq!(without_step.usi(), "2e2d");
    assert!(mated_after(without_step).is_some());
    assert_ne!(with_step, without_step);
    assert_eq!(mated_after(with_step), None, "{}", with_step.usi());
}

/// The review's model: shogi's centipawns read through the logistic fitted to its own games
/// at the review's time (830 a unit), a proven result a certainty, an even score even.
#[test]
fn the_review_reads_centipawns_through_the_fitted_logistic() {
    use crate::game::Drawing;
    let one_unit = evaluation::winning_chances(830);
    let expected = 1.0 / (1.0 + (-1.0f64).exp());
    assert!((Shogi::win_probability(one_unit) - expected).abs() < 1e-3);
    assert!((Shogi::win_probability(-one_unit) - (1.0 - expected)).abs() < 1e-3);
    assert_eq!(Shogi::win_probability(0.0), 0.5);
    assert_eq!(Shogi::win_probability(1.0), 1.0);
    assert_eq!(Shogi::win_probability(-1.0), 0.0);
}
