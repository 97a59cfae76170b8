//! The figures a change that is not about speed must keep, one line each, quickly: full-tree
//! minimax and mcts on tic-tac-toe, alphabeta with every enhancement and the solver on Connect
//! Four, a search of each other game through the contract (gomoku, chess, Othello) and perft
//! through it, the chess engine's nodes per second. Each is the best of several runs, as a time
//! (lower is better) or a rate (higher is better).
//!
//!     cargo bench --bench speed [-- FIGURE...]   # every figure, or those whose names contain
//!                                                 # one of the FIGUREs
//!     scripts/compare-speed.sh REV                # this tree against REV, alternately, A B B A
//!
//! The Connect Four solver's line needs Pons' Middle-Medium set in `../shared/data/connect4/`;
//! without it the line is skipped.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use sente::game::perft::perft;
use sente::game::{Notation, Rules};
use sente::games::{Chess, ConnectFour, Gomoku, Othello, TicTacToe};
use sente::search::{
    Algorithm, AlphaBetaParams, Budget, EngineParams, Enhancements, MctsParams, Solve, Strategy,
    Tiebreak, search,
};

/// The best time of `runs` calls of `run`, and the nodes its last call searched.
fn best(runs: usize, mut run: impl FnMut() -> u64) -> (Duration, u64) {
    let mut best = Duration::MAX;
    let mut nodes = 0;
    for _ in 0..runs {
        let started = Instant::now();
        nodes = run();
        best = best.min(started.elapsed());
    }
    (best, nodes)
}

fn report(name: &str, (time, nodes): (Duration, u64)) {
    println!("{name} {:.3} ms ({nodes} nodes)", time.as_secs_f64() * 1e3);
}

/// Whether the command line asks for the figure `name` (every figure when it names none).
fn wanted(name: &str) -> bool {
    let asked: Vec<String> = std::env::args()
        .skip(1)
        .filter(|arg| !arg.starts_with("--"))
        .collect();
    asked.is_empty() || asked.iter().any(|asked| name.contains(asked.as_str()))
}

fn main() {
    let empty = TicTacToe::start();
    if wanted("tictactoe_minimax_full_tree") {
        let minimax = Strategy::with_defaults(Algorithm::Minimax);
        report(
            "tictactoe_minimax_full_tree",
            best(15, || search(&empty, &minimax, 0).unwrap().nodes),
        );
    }
    if wanted("tictactoe_mcts_10000") {
        let mcts = Strategy::mcts(MctsParams {
            simulations: 10_000,
            ..MctsParams::default()
        });
        report(
            "tictactoe_mcts_10000",
            best(15, || search(&empty, &mcts, 1).unwrap().nodes),
        );
    }

    if wanted("tictactoe_mcts_100000") {
        let mcts = Strategy::mcts(MctsParams {
            simulations: 100_000,
            ..MctsParams::default()
        });
        report(
            "tictactoe_mcts_100000",
            best(5, || search(&empty, &mcts, 1).unwrap().nodes),
        );
    }

    let connect_four = ConnectFour::start();
    let every_enhancement = Strategy::alphabeta(AlphaBetaParams {
        depth: Some(12),
        enhancements: Enhancements::ALL,
        time_limit: None,
        evaluation: 0,
    });
    if wanted("connect4_alphabeta_all_depth_12") {
        report(
            "connect4_alphabeta_all_depth_12",
            best(5, || {
                search(&connect_four, &every_enhancement, 0).unwrap().nodes
            }),
        );
    }
    let set = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data/connect4/Test_L2_R2");
    if let Ok(text) = std::fs::read_to_string(&set)
        && wanted("connect4_solver_middle_medium_40")
    {
        let positions: Vec<ConnectFour> = text
            .lines()
            .take(40)
            .filter_map(|line| ConnectFour::from_pons_moves(line.split_once(' ')?.0).ok())
            .collect();
        let solver = Strategy {
            time_limit: None,
            tiebreak: Tiebreak::First,
            ..Strategy::with_defaults(Algorithm::Solver)
        };
        let solve_all = || {
            let solve = |position| search(position, &solver, 0).unwrap().nodes;
            positions.iter().map(solve).sum()
        };
        report("connect4_solver_middle_medium_40", best(3, solve_all));
    }

    let textbook = |depth| Strategy::alphabeta(AlphaBetaParams::textbook(Some(depth)));
    let all_to = |depth| {
        Strategy::alphabeta(AlphaBetaParams {
            depth: Some(depth),
            enhancements: Enhancements::ALL,
            time_limit: None,
            evaluation: 0,
        })
    };
    let gomoku: Gomoku = ["h8", "h9", "i8"].iter().fold(Gomoku::start(), |game, mv| {
        game.play(game.read_move(&Notation::Text((*mv).into())).unwrap())
    });
    if wanted("gomoku_alphabeta_all_depth_3") {
        let strategy = all_to(3);
        report(
            "gomoku_alphabeta_all_depth_3",
            best(5, || search(&gomoku, &strategy, 0).unwrap().nodes),
        );
    }
    let chess = Chess::start();
    if wanted("chess_alphabeta_textbook_depth_5") {
        let strategy = textbook(5);
        report(
            "chess_alphabeta_textbook_depth_5",
            best(5, || search(&chess, &strategy, 0).unwrap().nodes),
        );
    }
    if wanted("chess_perft_start_5") {
        report("chess_perft_start_5", best(5, || perft(&chess, 5)));
    }
    let othello = Othello::start();
    if wanted("othello_alphabeta_all_depth_12") {
        let strategy = all_to(12);
        report(
            "othello_alphabeta_all_depth_12",
            best(5, || search(&othello, &strategy, 0).unwrap().nodes),
        );
    }
    if wanted("othello_negamax_depth_8") {
        let strategy = Strategy {
            depth: Some(8),
            tiebreak: Tiebreak::First,
            evaluation: Some(0),
            ..Strategy::with_defaults(Algorithm::Negamax)
        };
        report(
            "othello_negamax_depth_8",
            best(5, || search(&othello, &strategy, 0).unwrap().nodes),
        );
    }
    if wanted("othello_perft_9") {
        report("othello_perft_9", best(5, || perft(&othello, 9)));
    }

    if !wanted("chess_engine") {
        return;
    }
    let (mut nodes, mut elapsed) = (0, Duration::ZERO);
    for fen in MIDDLEGAMES {
        let game: Chess = fen.parse().unwrap();
        let think = EngineParams::for_time(Duration::from_millis(400));
        let result = game.engine(&think, &Budget::unlimited());
        nodes += result.nodes;
        elapsed += result.elapsed;
    }
    println!(
        "chess_engine {:.3} M nodes/s ({nodes} nodes)",
        nodes as f64 / elapsed.as_secs_f64() / 1e6
    );
}

/// The middlegames `benches/chess.rs` measures the engine on.
const MIDDLEGAMES: [&str; 5] = [
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8",
    "r2q1rk1/pp1nbppp/2p1pn2/3p4/2PP1B2/2N1PN2/PP3PPP/R3KB1R w KQ - 0 9",
    "2rq1rk1/pb1nbppp/1p2pn2/2pp4/2PP4/1PN1PN2/PB1QBPPP/2RR2K1 w - - 0 12",
];
