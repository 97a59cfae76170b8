use std::time::Duration;

use super::*;
use crate::game::Rules;
use crate::game::perft::perft;
use crate::search::{self, AlphaBetaParams, Budget, EngineParams, Strategy};

fn fen(text: &str) -> Chess {
    text.parse()
        .unwrap_or_else(|error| panic!("{text}: {error}"))
}

fn after(moves: &[&str]) -> Chess {
    moves.iter().fold(Chess::start(), |game, &mv| {
        let mv = game
            .read_move(&Notation::Text(mv.to_owned()))
            .unwrap_or_else(|error| panic!("{mv}: {error}"));
        game.play(mv)
    })
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
/// "Kiwipete", Peter McKenzie's position. The issue that asked for these figures gave another
/// FEN beside them (r3k2r/p1ppqpb1/bn2pnp1/3pP3/1pPP4/5N2/PPQBBPPP/R3K2R, which has 42 moves);
/// the figures are Kiwipete's.
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// The published perft figures the rules must reproduce, through the game contract.
#[test]
fn perft_matches_the_published_figures() {
    let cases: &[(&str, &[u64])] = &[
        (START, &[20, 400, 8_902, 197_281, 4_865_609]),
        (KIWIPETE, &[48, 2_039, 97_862, 4_085_603]),
    ];
    for (board, counts) in cases {
        for (depth, &count) in counts.iter().enumerate() {
            assert_eq!(
                perft(&fen(board), depth as u32 + 1),
                count,
                "{board} depth {}",
                depth + 1
            );
        }
    }
    let deep: &[(&str, u32, u64)] = &[
        ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 5, 674_624),
        (
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            4,
            422_333,
        ),
        (
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            4,
            2_103_487,
        ),
    ];
    for &(board, depth, count) in deep {
        assert_eq!(perft(&fen(board), depth), count, "{board} depth {depth}");
    }
}

/// perft counts what the pieces may do, as Stockfish, python-chess and shakmaty count it: a
/// capture that leaves too little material to mate, or a fifty-move clock run out, ends the
/// game in a tournament, not the count.
#[test]
fn perft_counts_through_the_draws_by_rule() {
    for (board, depth) in [
        // exd8=N and exd8=B leave a king and a minor piece against a bare king.
        ("3r4/3KP3/8/8/8/8/8/3k4 w - - 2 2", 3),
        // The fifty-move rule's clock at 100.
        ("8/8/4k3/8/8/3K4/3R4/8 w - - 100 80", 3),
        ("8/8/4k3/8/8/3K4/3N4/8 w - - 0 80", 3),
    ] {
        let game = fen(board);
        assert_eq!(
            perft(&game, depth),
            shakmaty::perft(game.position(), depth),
            "{board}"
        );
    }
    assert_eq!(perft(&fen("3r4/3KP3/8/8/8/8/8/3k4 w - - 2 2"), 3), 873);
    // The game itself is over: no legal move to play.
    let fifty = fen("8/8/4k3/8/8/3K4/3R4/8 w - - 100 80");
    assert_eq!(fifty.legal_moves().len(), 0);
    assert!(perft(&fifty, 1) > 0);
}

#[test]
fn moves_are_read_in_uci_or_san_and_written_in_both() {
    let game = Chess::start();
    let e4 = game.read_move(&Notation::Text("e2e4".into())).unwrap();
    assert_eq!(game.read_move(&Notation::Text("e4".into())).unwrap(), e4);
    assert_eq!(game.notation(e4), Notation::Text("e2e4".into()));
    assert_eq!(game.san(e4).as_deref(), Some("e4"));
    let castles = after(&["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5"]);
    let short = castles.read_move(&Notation::Text("O-O".into())).unwrap();
    assert_eq!(castles.notation(short), Notation::Text("e1g1".into()));
    assert_eq!(
        castles.read_move(&Notation::Text("e1g1".into())).unwrap(),
        short
    );
    assert_eq!(
        castles.move_cell(short),
        Some((7, 6)),
        "the king's square, on the bottom row as the board is drawn"
    );
    let promotion = fen("8/4P3/8/8/8/8/k7/4K3 w - - 0 1");
    let queen = promotion
        .read_move(&Notation::Text("e7e8q".into()))
        .unwrap();
    assert_eq!(promotion.san(queen).as_deref(), Some("e8=Q"));
    assert_eq!(
        promotion
            .read_move(&Notation::Text("e8=N".into()))
            .map(|mv| promotion.notation(mv)),
        Ok(Notation::Text("e7e8n".into()))
    );
    // Castling with zeros, and a promotion without its piece.
    let both = fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    for (zeros, letters) in [("0-0", "O-O"), ("0-0-0", "O-O-O"), ("0-0+", "O-O+")] {
        let read = |text: &str| both.read_move(&Notation::Text(text.into()));
        assert_eq!(read(zeros), read(letters), "{zeros}");
        assert!(read(zeros).is_ok(), "{zeros}");
    }
    let bare = promotion
        .read_move(&Notation::Text("e7e8".into()))
        .unwrap_err()
        .to_string();
    assert!(
        bare.contains("\"e7e8\"") && bare.contains("q, r, b or n"),
        "{bare}"
    );
    let illegal = game
        .read_move(&Notation::Text("e2e5".into()))
        .unwrap_err()
        .to_string();
    assert!(!illegal.contains("promot"), "{illegal}");
    for bad in ["e2e5", "Nf6", "xx", "e7e8q"] {
        let error = game.read_move(&Notation::Text(bad.into())).unwrap_err();
        assert!(error.to_string().contains(bad), "{error}");
    }
    assert!(
        game.read_move(&Notation::Number(796)).is_err(),
        "numbers are not chess moves"
    );
    // Every legal move has its own id.
    let ids: std::collections::HashSet<u16> =
        fen(KIWIPETE).legal_moves().map(Chess::move_id).collect();
    assert_eq!(ids.len(), 48);
    assert!(ids.iter().all(|&id| usize::from(id) < Chess::MOVE_IDS));
}

#[test]
fn the_rules_end_games_and_say_how() {
    let mated = after(&["f3", "e5", "g4", "Qh4#"]);
    assert_eq!(mated.outcome(), Outcome::Won(Player::O));
    assert_eq!(Rules::ending(&mated), Some("checkmate"));
    let stalemate = fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    assert_eq!(
        (stalemate.outcome(), Rules::ending(&stalemate)),
        (Outcome::Draw, Some("stalemate"))
    );
    let bare = fen("8/8/4k3/8/8/3NK3/8/8 w - - 0 1");
    assert_eq!(Rules::ending(&bare), Some("insufficient_material"));
    assert_eq!(bare.legal_moves().len(), 0, "a drawn game has no moves");
    let fifty = fen("8/8/4k3/8/8/3RK3/8/8 w - - 100 80");
    assert_eq!(Rules::ending(&fifty), Some("fifty_move_rule"));
    // Knights out and back twice: the start position a third time.
    let shuffle = ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"];
    let twice = after(&shuffle);
    assert_eq!(
        twice.outcome(),
        Outcome::InProgress,
        "seen twice is not yet a draw"
    );
    let thrice = twice.play(twice.read_move(&Notation::Text("Ng8".into())).unwrap());
    assert_eq!(Rules::ending(&thrice), Some("threefold_repetition"));
    assert_eq!(thrice.repetitions(), 2);
    // The same board reached from a FEN has no history: no repetition.
    assert_eq!(fen(&thrice.to_string()).outcome(), Outcome::InProgress);
}

/// The fifty-move rule and repetition let a player claim a draw: the game is over for a
/// tournament, but play may go on, and then the rules apply again from the next move. Mate,
/// stalemate and a lack of mating material end the game whatever is claimed.
#[test]
fn a_draw_that_may_be_claimed_need_not_be() {
    let mut fifty = fen("8/8/4k3/8/8/3K4/4P3/8 w - - 100 80");
    assert_eq!(fifty.outcome(), Outcome::Draw);
    assert_eq!(fifty.claimable_draw(), Some("fifty_move_rule"));
    fifty.play_on();
    assert_eq!(fifty.outcome(), Outcome::InProgress);
    assert_eq!(fifty.legal_moves().count(), 9);
    assert_eq!(
        fifty.claimable_draw(),
        Some("fifty_move_rule"),
        "still claimable"
    );
    let king = fifty.read_move(&Notation::Text("Kc2".into())).unwrap();
    assert_eq!(
        fifty.play(king).outcome(),
        Outcome::Draw,
        "the next reversible move"
    );
    let pawn = fifty.read_move(&Notation::Text("e4".into())).unwrap();
    assert_eq!(
        fifty.play(pawn).outcome(),
        Outcome::InProgress,
        "a pawn move resets the count"
    );
    let mut again = after(&["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"]);
    assert_eq!(again.claimable_draw(), Some("threefold_repetition"));
    again.play_on();
    assert_eq!(again.outcome(), Outcome::InProgress);
    for over in [
        "8/8/4k3/8/8/3K4/8/8 w - - 100 80",
        "7k/5Q2/6K1/8/8/8/8/8 b - - 100 80",
    ] {
        let mut game = fen(over);
        assert_eq!(game.claimable_draw(), None, "{over}");
        game.play_on();
        assert!(game.outcome().is_over(), "{over}");
    }
    assert_eq!(Chess::start().claimable_draw(), None);
}

#[test]
fn bad_fens_say_what_is_wrong() {
    let cases = [
        ("", "missing the board"),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w",
            "missing the castling rights",
        ),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "7 ranks"),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",
            "'X'",
        ),
        (
            "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "rank 6 has 9 squares",
        ),
        (
            "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "rank 7 has 7 squares",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
            "side to move",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkz - 0 1",
            "castling rights",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e4 0 1",
            "third or sixth rank",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",
            "halfmove clock",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0",
            "starts at 1",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra",
            "at most six",
        ),
        (
            "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1",
            "Black 0",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w kq - 0 1",
            "White has 2",
        ),
        (
            "rnbqkbnP/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR w KQq - 0 1",
            "first or last rank",
        ),
        ("4k3/8/8/8/8/8/8/4K2R w KQ - 0 1", "castling right"),
        ("4k3/8/8/8/8/4R3/8/4K3 w - - 0 1", "not to move is in check"),
        (
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e3 0 1",
            "en passant",
        ),
        ("8/8/8/8/8/8/8/8 w - - 0 1", "empty"),
        (&"r".repeat(200), "at most 100 characters"),
    ];
    for (board, expected) in cases {
        let error = board.parse::<Chess>().unwrap_err().to_string();
        assert!(
            error.contains(expected),
            "{board:?}: {error:?} lacks {expected:?}"
        );
    }
}

#[test]
fn the_engine_mates_in_one() {
    for board in [
        "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
        "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
        "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2",
    ] {
        let game = fen(board);
        let result = game.engine(
            &EngineParams::for_time(Duration::from_millis(200)),
            &Budget::unlimited(),
        );
        assert_eq!(
            (result.exact, result.plies_to_end),
            (true, Some(1)),
            "{board}"
        );
        assert_eq!(
            Rules::ending(&game.play(result.best_move)),
            Some("checkmate"),
            "{board}"
        );
    }
}

#[test]
fn the_engine_finds_a_mate_in_two() {
    // 1. Ra6! bxa6 2. b7#.
    let game = fen("kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1");
    let result = game.engine(
        &EngineParams::for_time(Duration::from_secs(5)),
        &Budget::unlimited(),
    );
    assert_eq!(
        (result.score, result.plies_to_end),
        (1.0, Some(3)),
        "{result:?}"
    );
    assert_eq!(Chess::uci_of(result.best_move), "a1a6");
    let end = result.pv.iter().fold(game, |game, &mv| game.play(mv));
    assert_eq!(
        Rules::ending(&end),
        Some("checkmate"),
        "the line ends in mate"
    );
}

#[test]
fn the_engine_sees_mate_against_itself() {
    // Black's only move is Kb8, and Rh8 mates: the score says so.
    let lost = fen("k7/8/1K6/8/8/8/8/7R b - - 0 1");
    let result = lost.engine(
        &EngineParams::for_time(Duration::from_millis(300)),
        &Budget::unlimited(),
    );
    assert_eq!(
        (result.score, result.plies_to_end),
        (-1.0, Some(2)),
        "{result:?}"
    );
}

/// The engine's move and its analysis deepen in one loop: both stop at their time limit and
/// say so, and both stop as soon as what they found is proven.
#[test]
fn the_engines_analysis_deepens_as_its_search_does() {
    let middlegame = fen("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4");
    let params = EngineParams::for_time(Duration::from_millis(50));
    let result = middlegame.engine(&params, &Budget::unlimited());
    assert_eq!(
        result.stopped_by,
        Some(search::Cutoff::TimeLimit),
        "{result:?}"
    );
    let analysis = middlegame.engine_analysis(&params, &Budget::unlimited());
    assert_eq!(analysis.stopped_by, Some(search::Cutoff::TimeLimit));
    assert_eq!(analysis.moves.len(), middlegame.legal_moves().count());
    // Black to move has one move, and is mated after it: proven at once, by both.
    let lost = fen("k7/8/1K6/8/8/8/8/7R b - - 0 1");
    let params = EngineParams::for_time(Duration::from_secs(5));
    let analysis = lost.engine_analysis(&params, &Budget::unlimited());
    assert_eq!(analysis.stopped_by, None);
    // Not the millions of nodes five seconds would search.
    assert!(analysis.nodes < 10_000, "{analysis:?}");
    let [only] = analysis.moves.as_slice() else {
        panic!("{analysis:?}")
    };
    assert_eq!((only.score, only.plies_to_end), (-1.0, Some(2)));
}

#[test]
fn the_tutorials_alphabeta_plays_material_at_depth_three() {
    let strategy = Strategy::alphabeta(AlphaBetaParams::textbook(Some(3)));
    let result = search::search(&Chess::start(), &strategy, 0).unwrap();
    // Every move keeps the material level at depth 3: the first in move order stands.
    assert_eq!(result.score, 0.0);
    assert!(result.nodes > 20, "{}", result.nodes);
    // With the material evaluation, a free queen is taken.
    let hanging = fen("rnb1kbnr/pppp1ppp/8/4p3/4P2q/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    let result = search::search(&hanging, &strategy, 0).unwrap();
    assert_eq!(Chess::uci_of(result.best_move), "f3h4");
}

/// The engine's move and line are legal in positions from random games: each game's last
/// position, and every position on the way with an en passant capture or a promotion to hand
/// (and castling, which is common). Many searches are stopped after a few nodes: the engine
/// still answers with a legal move.
#[test]
fn the_engine_plays_only_legal_moves_in_random_positions() {
    use rand::{RngExt, SeedableRng};
    let special = [
        shakmaty::Move::is_castle as fn(shakmaty::Move) -> bool,
        shakmaty::Move::is_en_passant,
        shakmaty::Move::is_promotion,
    ];
    let mut seen = [0; 3];
    let mut searched = 0;
    for seed in 0..200 {
        let mut rng = crate::search::SearchRng::seed_from_u64(seed);
        let plies = rng.random_range(1..240);
        let mut game = Chess::start();
        for ply in 0..plies {
            let legal: Vec<ChessMove> = game.legal_moves().collect();
            if legal.is_empty() {
                break;
            }
            let features: Vec<bool> = special
                .iter()
                .map(|feature| legal.iter().any(|mv| feature(mv.get())))
                .collect();
            if ply + 1 == plies || features[1] || features[2] {
                for (count, &present) in seen.iter_mut().zip(&features) {
                    *count += usize::from(present);
                }
                let budget = Budget {
                    max_nodes: Some(1 + searched * 7 % 3000),
                    ..Budget::default()
                };
                searched += 1;
                let result =
                    game.engine(&EngineParams::for_time(Duration::from_millis(20)), &budget);
                assert!(legal.contains(&result.best_move), "{game}: {result:?}");
                let mut line = game.clone();
                for &mv in &result.pv {
                    assert!(
                        line.legal_moves().any(|legal| legal == mv),
                        "{game}: {result:?}"
                    );
                    line = line.play(mv);
                }
            }
            game = game.play(legal[rng.random_range(0..legal.len())]);
        }
    }
    assert!(
        seen.iter().all(|&count| count > 0),
        "castling, en passant, promotion: {seen:?}"
    );
}

/// In every position of random games where a move mates, the engine plays one and says
/// `mate: 1`, however little time it has.
#[test]
fn the_engine_never_misses_a_mate_in_one() {
    use rand::{RngExt, SeedableRng};
    let mut found = 0;
    for seed in 0..300 {
        let mut rng = crate::search::SearchRng::seed_from_u64(seed);
        let mut game = Chess::start();
        while !game.outcome().is_over() {
            let legal: Vec<ChessMove> = game.legal_moves().collect();
            if legal
                .iter()
                .any(|&mv| Rules::ending(&game.play(mv)) == Some("checkmate"))
            {
                found += 1;
                let result = game.engine(
                    &EngineParams::for_time(Duration::from_millis(1)),
                    &Budget::unlimited(),
                );
                assert_eq!(
                    Rules::ending(&game.play(result.best_move)),
                    Some("checkmate"),
                    "{game}"
                );
                assert_eq!(
                    (result.exact, result.plies_to_end),
                    (true, Some(1)),
                    "{game}"
                );
            }
            game = game.play(legal[rng.random_range(0..legal.len())]);
        }
    }
    assert!(found >= 50, "only {found} positions with a mate in one");
}

/// The key kept move by move is the key computed from scratch, in random games (with castling,
/// en passant, promotions and captures of unmoved rooks among their moves).
#[test]
fn keys_kept_move_by_move_are_keys_from_scratch() {
    use rand::{RngExt, SeedableRng};
    for seed in 0..200 {
        let mut rng = crate::search::SearchRng::seed_from_u64(seed);
        let mut game = Chess::start();
        while !game.outcome().is_over() {
            assert_eq!(game.key, key::of(game.position()), "{game}");
            let legal: Vec<ChessMove> = game.legal_moves().collect();
            game = game.play(legal[rng.random_range(0..legal.len())]);
        }
    }
}
