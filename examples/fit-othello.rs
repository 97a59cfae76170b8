//! Fits the weights of Othello's `mobility` evaluation from Sente's own games, and prints them
//! as the table `WEIGHTS_BY_STAGE` in `src/games/othello/evaluation.rs`.
//!
//! Each game opens with random moves (so that the games differ), then both sides play
//! alphabeta a few plies deep with the evaluation being fitted, an occasional move at random,
//! until 14 squares are empty; from there the solver plays perfectly. Every position of the game
//! is labelled with the final disc difference for its side to move: the exact one under perfect
//! play for the solved part, the game's for the rest. The weights of each stage are the least
//! squares fit of the labels to the features (with a little ridge, so that a feature that never
//! varies in a stage gets no weight).
//!
//!     cargo run --release --features examples --example fit-othello -- [GAMES] [DEPTH] [SEED]
//!
//! Playing with the weights it fits and fitting again (paste the table, run again) converges
//! in two or three rounds: the games get better, and so do their labels.

use std::time::Instant;

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use sente::game::Player;
use sente::game::Rules;
use sente::games::Othello;
use sente::games::othello::evaluation::{FEATURE_NAMES, FEATURES, STAGES, features, stage};
use sente::games::othello::solver::Solver;
use sente::search::{AlphaBetaParams, Budget, Enhancements, Strategy, search};

/// Empty squares from which the solver plays the game out.
const SOLVED_FROM: u32 = 14;
/// The share of moves played at random after the opening, for positions off the main lines.
const RANDOM_MOVES: f64 = 0.05;
/// The ridge: how much each weight is pulled towards zero, per position of the stage.
const RIDGE: f64 = 1e-3;

/// The normal equations of one stage's least squares fit, summed over its positions.
#[derive(Clone)]
struct Sums {
    xx: [[f64; FEATURES]; FEATURES],
    xy: [f64; FEATURES],
    yy: f64,
    positions: u64,
}

impl Sums {
    fn new() -> Sums {
        Sums {
            xx: [[0.0; FEATURES]; FEATURES],
            xy: [0.0; FEATURES],
            yy: 0.0,
            positions: 0,
        }
    }

    fn add(&mut self, x: [i32; FEATURES], y: f64) {
        for i in 0..FEATURES {
            for j in 0..FEATURES {
                self.xx[i][j] += f64::from(x[i]) * f64::from(x[j]);
            }
            self.xy[i] += f64::from(x[i]) * y;
        }
        self.yy += y * y;
        self.positions += 1;
    }

    fn merge(&mut self, other: &Sums) {
        for i in 0..FEATURES {
            for j in 0..FEATURES {
                self.xx[i][j] += other.xx[i][j];
            }
            self.xy[i] += other.xy[i];
        }
        self.yy += other.yy;
        self.positions += other.positions;
    }

    /// The weights minimising the squared error (plus the ridge), by Gaussian elimination,
    /// and the root mean square error they leave.
    fn fit(&self) -> ([f64; FEATURES], f64) {
        let n = self.positions.max(1) as f64;
        let mut a = self.xx;
        let mut b = self.xy;
        for (i, row) in a.iter_mut().enumerate() {
            row[i] += RIDGE * n;
        }
        for column in 0..FEATURES {
            let pivot = (column..FEATURES)
                .max_by(|&p, &q| a[p][column].abs().total_cmp(&a[q][column].abs()))
                .unwrap();
            a.swap(column, pivot);
            b.swap(column, pivot);
            let pivot_row = a[column];
            for row in column + 1..FEATURES {
                let factor = a[row][column] / pivot_row[column];
                for (entry, above) in a[row].iter_mut().zip(pivot_row).skip(column) {
                    *entry -= factor * above;
                }
                b[row] -= factor * b[column];
            }
        }
        let mut w = [0.0; FEATURES];
        for row in (0..FEATURES).rev() {
            let rest: f64 = (row + 1..FEATURES).map(|k| a[row][k] * w[k]).sum();
            w[row] = (b[row] - rest) / a[row][row];
        }
        // Squared error: yy - 2 w.xy + w.XX.w.
        let mut error = self.yy;
        for i in 0..FEATURES {
            error -= 2.0 * w[i] * self.xy[i];
            for j in 0..FEATURES {
                error += w[i] * self.xx[i][j] * w[j];
            }
        }
        (w, (error.max(0.0) / n).sqrt())
    }
}

/// Plays game `index` and adds its positions to `sums`.
fn play(index: u64, seed: u64, depth: u32, solver: &mut Solver, sums: &mut [Sums]) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed ^ index.wrapping_mul(0x9E37_79B9));
    let strategy = Strategy::alphabeta(AlphaBetaParams {
        depth: Some(depth),
        enhancements: Enhancements::ALL,
        time_limit: None,
        evaluation: 1,
    });
    let opening = rng.random_range(6..=14);
    let mut game = Othello::start();
    // The positions before the solver's part, with who was to move.
    let mut played: Vec<(Othello, Player)> = Vec::new();
    let black_margin = loop {
        if game.outcome().is_over() {
            break game.final_margin();
        }
        if game.empties().count_ones() <= SOLVED_FROM {
            // The solver's part: each position labelled by its own exact margin.
            let solved = solver.solve(&game);
            let (mover, other) = game.sides();
            let margin = solved.margin;
            sums[stage(game.empties().count_ones())].add(features(mover, other), f64::from(margin));
            let black = if game.side_to_move() == Player::X {
                margin
            } else {
                -margin
            };
            let mut line = game;
            loop {
                let solved = solver.solve(&line);
                line = line.play(solved.best);
                if line.outcome().is_over() {
                    break;
                }
                let (mover, other) = line.sides();
                let own = if line.side_to_move() == Player::X {
                    black
                } else {
                    -black
                };
                sums[stage(line.empties().count_ones())]
                    .add(features(mover, other), f64::from(own));
            }
            break black;
        }
        played.push((game, game.side_to_move()));
        let moves: Vec<u8> = game.legal_moves().collect();
        let mv = if game.ply() < opening || rng.random_bool(RANDOM_MOVES) {
            moves[rng.random_range(0..moves.len())]
        } else {
            search(&game, &strategy, index)
                .expect("the game goes on")
                .best_move
        };
        game = game.play(mv);
    };
    for (position, side) in played {
        let (mover, other) = position.sides();
        let own = if side == Player::X {
            black_margin
        } else {
            -black_margin
        };
        sums[stage(position.empties().count_ones())].add(features(mover, other), f64::from(own));
    }
}

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|arg| arg.parse().expect("GAMES, DEPTH and SEED are numbers"))
        .collect();
    let games = args.first().copied().unwrap_or(4000);
    let depth = args.get(1).copied().unwrap_or(3) as u32;
    let seed = args.get(2).copied().unwrap_or(2026);
    let started = Instant::now();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()) as u64;
    let budget = Budget::unlimited();
    let sums = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|worker| {
                let budget = &budget;
                scope.spawn(move || {
                    let mut solver = Solver::new(budget, None);
                    let mut sums = vec![Sums::new(); STAGES];
                    for index in (worker..games).step_by(threads as usize) {
                        play(index, seed, depth, &mut solver, &mut sums);
                    }
                    sums
                })
            })
            .collect();
        let mut total = vec![Sums::new(); STAGES];
        for worker in workers {
            for (sum, part) in total
                .iter_mut()
                .zip(worker.join().expect("a worker panicked"))
            {
                sum.merge(&part);
            }
        }
        total
    });
    eprintln!(
        "{games} games, alphabeta {depth} plies, seed {seed}: {:.1} s",
        started.elapsed().as_secs_f64()
    );
    println!("// {}", FEATURE_NAMES.join(", "));
    for (index, sum) in sums.iter().enumerate() {
        let (weights, error) = sum.fit();
        let written: Vec<String> = weights.iter().map(|w| format!("{w:.3}")).collect();
        eprintln!(
            "{}-{} empties: {} positions, {error:.1} discs rms",
            index * 10,
            index * 10 + 9,
            sum.positions,
        );
        println!(
            "// {}-{} empties\n[{}],",
            index * 10,
            index * 10 + 9,
            written.join(", ")
        );
    }
}
