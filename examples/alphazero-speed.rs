//! How fast a policy-value network is asked, alone and inside the search (docs/alphazero.md):
//! for each network, the forward passes a second on one core over the positions of a self-play
//! file, and the simulations a second of `alphazero` searching the first positions for a second
//! each.
//!
//!     cargo run --release --features examples --example alphazero-speed -- --game connect4 --data FILE NAME=NET...
//!
//! Training's speed is `sente train`'s own report (positions and seconds).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use sente::game::Game;
use sente::games::{ConnectFour, Othello, TicTacToe};
use sente::learn::policy_value::{Activations, PolicyValueNet};
use sente::search::Budget;
use sente::search::alphazero::{AlphaZeroParams, Search, grow, networks};

fn main() {
    let mut args = std::env::args().skip(1);
    let (mut game, mut data, mut nets) = (String::from("connect4"), None, Vec::new());
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--game" => game = args.next().expect("--game NAME"),
            "--data" => data = Some(PathBuf::from(args.next().expect("--data FILE"))),
            net => {
                let (name, path) = net.split_once('=').expect("NAME=NET");
                nets.push((name.to_owned(), PathBuf::from(path)));
            }
        }
    }
    let data = data.expect("--data FILE: positions as sente selfplay writes them");
    match game.as_str() {
        "connect4" => measure::<ConnectFour>(&data, &nets),
        "othello" => measure::<Othello>(&data, &nets),
        "tictactoe" => measure::<TicTacToe>(&data, &nets),
        other => panic!("no networks for {other}"),
    }
}

fn measure<G: Game>(data: &std::path::Path, nets: &[(String, PathBuf)]) {
    let text = std::fs::read_to_string(data).expect("the data file");
    let boards: Vec<G> = text
        .lines()
        .take(20_000)
        .map(|line| {
            line.split('\t')
                .next()
                .unwrap()
                .parse()
                .unwrap_or_else(|_| panic!("a board"))
        })
        .collect();
    println!(
        "| network | shape | weights | forward passes/s (1 core) | search simulations/s (1 core) |"
    );
    println!("|---|---|---|---|---|");
    for (name, path) in nets {
        let net: PolicyValueNet = networks::from_file::<G>(path).expect("a network");
        let mut inputs = Vec::new();
        let mut activations = Activations::default();
        let started = Instant::now();
        let mut checksum = 0.0f32;
        for board in &boards {
            board.network_inputs(&mut inputs);
            net.forward(&inputs, &mut activations);
            checksum += activations.value;
        }
        let forward = boards.len() as f64 / started.elapsed().as_secs_f64();
        let mut simulations = 0u64;
        let started = Instant::now();
        let searched: Vec<&G> = boards
            .iter()
            .filter(|board| !board.outcome().is_over())
            .step_by(boards.len() / 10)
            .take(5)
            .collect();
        for board in &searched {
            let search = Search {
                net: &net,
                params: AlphaZeroParams {
                    simulations: 1_000_000,
                    ..AlphaZeroParams::DEFAULT
                },
                time_limit: Some(Duration::from_secs(1)),
                noise: None,
                forced_playouts: false,
                seed: 1,
            };
            simulations += grow(*board, &search, &Budget::unlimited()).simulations;
        }
        let search = simulations as f64 / started.elapsed().as_secs_f64();
        println!(
            "| {name} | {} | {} | {forward:.0} | {search:.0} |",
            net.shape,
            net.parameters()
        );
        std::hint::black_box(checksum);
    }
}
