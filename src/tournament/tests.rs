use std::path::PathBuf;

use super::adjudication::DrawRule;
use super::engines::{EngineConfig, Protocol};
use super::openings::RandomOpenings;
use super::statistics::Verdict;
use super::time_control::Limits;
use super::*;
use crate::game::Rules;
use crate::games::{Chess, ConnectFour, Othello, TicTacToe};
use crate::search::{Algorithm, AlphaBetaParams, Tiebreak};

fn mcs2() -> Strategy {
    Strategy {
        playouts: 2,
        time_limit: None,
        ..Strategy::with_defaults(Algorithm::Mcs)
    }
}

#[test]
fn alternates_the_first_player_and_splits_add_up() {
    let tournament =
        Tournament::<TicTacToe>::between([Strategy::with_defaults(Algorithm::Random), mcs2()], 42);
    let whole = tournament.play(0..40);
    let mut halves = tournament.play(0..17);
    halves.merge(tournament.play(17..40)).unwrap();
    assert_eq!(whole, halves);
    assert_eq!(tournament.play_parallel(0..40, 3), whole);
    let tally = whole.tally();
    assert_eq!((tally.pairs.pairs(), tally.unpaired), (20, 0));
    assert_eq!(tournament.play(0..17).tally().unpaired, 1);
    assert_eq!(tally.players[0].as_first.games(), 20);
    assert_eq!(tally.players[1].as_second.games(), 20);
    // Who moved first: A in the even games.
    let game = |index| {
        let mut keeping = tournament.clone();
        keeping.records = true;
        keeping.play_game(index).1.unwrap()
    };
    assert_eq!((game(0).first.as_str(), game(1).first.as_str()), ("A", "B"));
}

#[test]
fn records_keep_every_move_with_its_figures() {
    let mut tournament = Tournament::<ConnectFour>::between(
        [
            Strategy::alphabeta(AlphaBetaParams::textbook(Some(3))),
            Strategy::with_defaults(Algorithm::Random),
        ],
        1,
    );
    tournament.records = true;
    let (result, record) = tournament.play_game(0);
    let record = record.unwrap();
    assert_eq!(record.moves.len() as u32, result.moves[0] + result.moves[1]);
    assert!(record.moves[0].nodes > 1);
    assert!(record.moves[0].score.is_some());
    assert_eq!(record.winner.as_deref(), Some("A"), "{record:?}");
    assert_eq!(
        (record.result.as_str(), record.ended_by),
        ("1-0", Ending::Won)
    );
    // Replayed, the moves end the game as recorded.
    let mut game = ConnectFour::start();
    for mv in &record.moves {
        game = game.play(game.read_move(&mv.mv).unwrap());
    }
    assert!(game.outcome().is_over());
}

#[test]
fn a_draw_is_adjudicated_when_both_scores_stay_level() {
    let mut tournament = Tournament::<Chess>::between(
        [
            Strategy::alphabeta(AlphaBetaParams::textbook(Some(1))),
            Strategy::alphabeta(AlphaBetaParams::textbook(Some(1))),
        ],
        1,
    );
    tournament.adjudication.draw = Some(DrawRule {
        move_number: 1,
        move_count: 2,
        score: 10_000,
    });
    let (result, _) = tournament.play_game(0);
    assert_eq!(
        (result.ending, result.a_points),
        (Ending::DrawAdjudication, 1)
    );
    assert_eq!(result.moves, [2, 2]);
}

#[test]
fn a_player_over_its_clock_loses_on_time() {
    // Full-width minimax to the end of Connect Four never finishes: the clock falls first.
    let mut tournament = Tournament::<ConnectFour>::between(
        [
            Strategy {
                depth: Some(40),
                tiebreak: Tiebreak::First,
                evaluation: Some(0),
                ..Strategy::with_defaults(Algorithm::Minimax)
            },
            Strategy::with_defaults(Algorithm::Random),
        ],
        1,
    );
    tournament.players[0].limits.time = TimeControl::parse("0.05+0").unwrap();
    tournament.records = true;
    let (result, record) = tournament.play_game(0);
    assert_eq!((result.ending, result.a_points), (Ending::TimeForfeit, 0));
    assert!(record.unwrap().detail.unwrap().contains("allowed"));
    // An engine that can deepen keeps to its clock: a game of MCTS under a clock is played out.
    let mut tournament = Tournament::<TicTacToe>::between(
        [
            Strategy::mcts(search::MctsParams {
                simulations: 1_000_000_000,
                ..Default::default()
            }),
            Strategy::with_defaults(Algorithm::Random),
        ],
        1,
    );
    tournament.players[0].limits.time = TimeControl::parse("0.5+0.01").unwrap();
    let (result, _) = tournament.play_game(0);
    assert_ne!(result.ending, Ending::TimeForfeit);
}

#[test]
fn the_sprt_stops_at_the_same_game_however_many_threads_play() {
    let mut tournament = Tournament::<TicTacToe>::between(
        [Strategy::alphabeta(AlphaBetaParams::textbook(None)), mcs2()],
        3,
    );
    tournament.sprt = Some(Sprt {
        elo0: 0.0,
        elo1: 100.0,
        alpha: 0.05,
        beta: 0.05,
    });
    let one = tournament.play_parallel(0..2_000, 1);
    let tally = one.tally();
    assert!(
        tally.games < 2_000 && tally.games.is_multiple_of(2),
        "{tally:?}"
    );
    assert_eq!(tournament.play_parallel(0..2_000, 3), one);
    let sprt = tournament.sprt.unwrap();
    let llr = sprt.llr(&tally.pairs.moments());
    assert_eq!(sprt.verdict(llr), Verdict::H1);
}

#[test]
fn random_openings_give_distinct_games_between_deterministic_players() {
    let strategy = Strategy::alphabeta(AlphaBetaParams::textbook(Some(2)));
    let mut tournament = Tournament::<ConnectFour>::between([strategy.clone(), strategy], 5);
    tournament.records = true;
    let same = tournament.play(0..6);
    let moves = |results: &Results, index: u64| -> Vec<_> {
        results.records[&index]
            .moves
            .iter()
            .map(|mv| mv.mv.clone())
            .collect()
    };
    assert_eq!(moves(&same, 0), moves(&same, 2));
    tournament.openings = Openings::Random(RandomOpenings {
        random_plies: 4,
        random_plies_max: None,
        balanced: Some(50),
        per_game: false,
    });
    let drawn = tournament.play(0..6);
    assert_ne!(moves(&drawn, 0), moves(&drawn, 2));
    // A pair's two games share their opening.
    assert_eq!(drawn.records[&0].opening, drawn.records[&1].opening);
    assert_eq!(drawn.records[&0].opening_moves.len(), 4);
}

fn test_engine(name: &str) -> Player {
    test_engine_on(name, TimeControl::PerMove(Duration::from_millis(50)))
}

fn test_engine_on(name: &str, time: TimeControl) -> Player {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("tests/engines/{name}.sh"));
    Player {
        kind: PlayerKind::Uci {
            engine: Arc::new(EngineConfig::new(name, path, Protocol::Uci)),
            options: Vec::new(),
        },
        limits: Limits {
            time,
            ..Limits::default()
        },
    }
}

/// The processes whose command line mentions `text`.
fn processes(text: &str) -> usize {
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|entry| std::fs::read(entry.ok()?.path().join("cmdline")).ok())
        .filter(|cmdline| String::from_utf8_lossy(cmdline).contains(text))
        .count()
}

#[test]
fn engines_that_crash_hang_or_play_illegal_moves_lose_and_the_tournament_goes_on() {
    for (name, ending) in [
        ("crash", Ending::EngineCrash),
        ("hang", Ending::TimeForfeit),
        ("illegal", Ending::IllegalMove),
    ] {
        let mut tournament = Tournament::<Chess>::between(
            [0, 1].map(|_| Strategy::with_defaults(Algorithm::Random)),
            9,
        );
        tournament.players[1] = test_engine(name);
        tournament.records = true;
        let results = tournament.play_parallel(0..4, 2);
        let tally = results.tally();
        assert_eq!(tally.games, 4, "{name}");
        assert_eq!(tally.players[0].total().wins, 4, "{name}: {tally:?}");
        assert_eq!(tally.endings[ending.name()], 4, "{name}: {tally:?}");
        assert!(results.records[&0].detail.is_some(), "{name}");
        assert_eq!(
            processes(&format!("tests/engines/{name}.sh")),
            0,
            "{name} outlived its games"
        );
    }
    // An engine that cannot start loses every game too.
    let mut tournament = Tournament::<Chess>::between(
        [0, 1].map(|_| Strategy::with_defaults(Algorithm::Random)),
        9,
    );
    tournament.players[0] = test_engine("missing");
    let tally = tournament.play(0..2).tally();
    assert_eq!(tally.endings["engine_crash"], 2);
}

/// Plays games 0..4 of random against the test engine `name` on `time`, on two threads; fails
/// if they take longer than `within` (a wedged worker never returns).
fn against_test_engine(name: &str, time: TimeControl, within: Duration) -> (Results, Duration) {
    let mut tournament = Tournament::<Chess>::between(
        [0, 1].map(|_| Strategy::with_defaults(Algorithm::Random)),
        9,
    );
    tournament.players[1] = test_engine_on(name, time);
    tournament.records = true;
    let (sender, receiver) = std::sync::mpsc::channel();
    let started = Instant::now();
    std::thread::spawn(move || sender.send(tournament.play_parallel(0..4, 2)));
    let results = receiver
        .recv_timeout(within)
        .unwrap_or_else(|_| panic!("{name}: the games did not end within {within:?}"));
    let elapsed = started.elapsed();
    assert_eq!(
        processes(&format!("tests/engines/{name}.sh")),
        0,
        "{name} outlived its games"
    );
    (results, elapsed)
}

#[test]
fn engines_that_write_latin1_close_their_output_or_flood_it_lose_at_once() {
    let per_move = TimeControl::PerMove(Duration::from_secs(5));
    for (name, ending, detail) in [
        // Read past its Latin-1 lines, to the move it plays.
        ("latin1", Ending::IllegalMove, "a1a1"),
        ("close", Ending::EngineCrash, "closed its output"),
        ("flood", Ending::EngineCrash, "longer than 64 KiB"),
    ] {
        let (results, elapsed) = against_test_engine(name, per_move, Duration::from_secs(20));
        let tally = results.tally();
        assert_eq!(tally.endings[ending.name()], 4, "{name}: {tally:?}");
        let said = results.records[&0].detail.clone().unwrap_or_default();
        assert!(said.contains(detail), "{name}: {said}");
        // Long before the 5 s each move may take.
        assert!(elapsed < Duration::from_secs(4), "{name}: {elapsed:?}");
    }
}

/// A GTP engine whose answer never ends (its move, then lines without the empty line) loses
/// each game at once, its answer read no further than a bound: not gigabytes of it.
#[test]
fn a_gtp_engine_whose_answer_never_ends_loses_within_a_bounded_read() {
    let name = "gtp-flood";
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("tests/engines/{name}.sh"));
    let mut tournament = Tournament::<Othello>::between(
        [0, 1].map(|_| Strategy::with_defaults(Algorithm::Random)),
        9,
    );
    tournament.players[1] = Player {
        kind: PlayerKind::Uci {
            engine: Arc::new(EngineConfig::new(name, path, Protocol::Gtp)),
            options: Vec::new(),
        },
        limits: Limits {
            time: TimeControl::PerMove(Duration::from_secs(5)),
            ..Limits::default()
        },
    };
    tournament.records = true;
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || sender.send(tournament.play_parallel(0..2, 2)));
    let results = receiver
        .recv_timeout(Duration::from_secs(20))
        .expect("the games end long before the 5 s a move");
    let tally = results.tally();
    assert_eq!(tally.endings["engine_crash"], 2, "{tally:?}");
    let said = results.records[&0].detail.clone().unwrap_or_default();
    assert!(said.contains("without the empty line"), "{said}");
    assert_eq!(processes(&format!("tests/engines/{name}.sh")), 0);
}

#[test]
fn an_engine_that_never_answers_its_handshake_loses_its_games_without_holding_them() {
    let clock = TimeControl::parse("60+1").unwrap();
    let within = engines::HANDSHAKE_TIME * 3;
    let (results, elapsed) = against_test_engine("silent", clock, within);
    let tally = results.tally();
    assert_eq!(tally.endings["engine_crash"], 4, "{tally:?}");
    let said = results.records[&3].detail.clone().unwrap_or_default();
    assert!(
        said.contains("did not start") && said.contains("in time"),
        "{said}"
    );
    // One handshake's wait on each of the two workers, not one per game.
    assert!(elapsed < engines::HANDSHAKE_TIME * 2, "{elapsed:?}");
}

/// Engines hostile in their handshake or their answers: endless options of 60 KB each, or
/// short ones without end, are a failure within the handshake (the memory they took bounded);
/// a bestmove of 60 KB is kept in a record only as its start; a helper an engine moved into a
/// session of its own (out of its process group) dies with it.
#[test]
fn hostile_handshakes_answers_and_helpers_are_bounded_and_outlive_nothing() {
    for name in ["options", "many"] {
        let (results, _) = against_test_engine(
            name,
            TimeControl::PerMove(Duration::from_millis(50)),
            engines::HANDSHAKE_TIME * 3,
        );
        let said = results.records[&0].detail.clone().unwrap_or_default();
        assert!(
            said.contains("in its handshake") && said.ends_with("stopped"),
            "{name}: {said}"
        );
        assert_eq!(results.tally().endings["engine_crash"], 4, "{name}");
    }
    let (results, _) = against_test_engine(
        "garbage",
        TimeControl::PerMove(Duration::from_millis(50)),
        Duration::from_secs(20),
    );
    let said = results.records[&0].detail.clone().unwrap_or_default();
    assert!(
        said.contains("not a legal move") && said.len() < 200,
        "{said}"
    );
    let (results, _) = against_test_engine(
        "setsid",
        TimeControl::PerMove(Duration::from_millis(50)),
        Duration::from_secs(20),
    );
    assert_eq!(results.tally().endings["illegal_move"], 4);
    assert_eq!(
        processes("sleep 4321"),
        0,
        "the engine's helper outlived it"
    );
}

/// A search that panics (here, a rules crate's) loses its player the game, and the tournament
/// goes on to its end: before, the worker died and the tournament waited for it for ever.
#[test]
fn a_worker_that_panics_does_not_hang_the_tournament() {
    let run = run::Run::new(0..4, None);
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let played = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            run::play_on_threads(&run, 2, |_| panic!("a worker's fault"), |_| {})
        }));
        let _ = sender.send(played.is_err());
    });
    let panicked = receiver
        .recv_timeout(Duration::from_secs(10))
        .expect("the run ends rather than waiting for the dead worker");
    assert!(panicked, "the worker's panic is passed on");
}
