use rand::SeedableRng;

use super::selfplay::{self, SelfPlay};
use super::*;
use crate::games::{ConnectFour, TicTacToe};
use crate::learn::TrainingOptions;

fn random_net<G: Game>(hidden: usize, seed: u64) -> PolicyValueNet {
    let mut rng = SearchRng::seed_from_u64(seed);
    PolicyValueNet::random(G::NAME, G::NETWORK_INPUTS, hidden, G::MOVE_IDS, &mut rng)
}

fn searched<G: Game>(game: &G, net: &PolicyValueNet, simulations: u32) -> Grown<G> {
    let search = Search {
        net,
        params: AlphaZeroParams {
            simulations,
            ..AlphaZeroParams::DEFAULT
        },
        time_limit: None,
        noise: None,
        seed: 1,
    };
    grow(game, &search, &Budget::unlimited())
}

/// The game's exact result reaches the root: with a network that knows nothing, the search
/// still finds the win in one, and the score says it is proven.
#[test]
fn the_search_finds_a_win_in_one_from_the_games_results() {
    let game: TicTacToe = "XX./OO./...".parse().unwrap();
    let grown = searched(&game, &random_net::<TicTacToe>(16, 2), 200);
    let result = grown.result(grown.choose(0.0, &mut SearchRng::seed_from_u64(0)));
    assert_eq!(result.best_move, 2);
    assert!(result.exact);
    assert_eq!(result.score, 1.0);
    assert_eq!(result.nodes, 200, "nodes counts simulations");
    assert_eq!(result.pv, vec![2]);
}

/// Every simulation visits the root once; the root's children's visits add up to the
/// simulations but the first (which expands the root).
#[test]
fn visits_add_up_to_the_simulations() {
    let game = ConnectFour::start();
    let grown = searched(&game, &random_net::<ConnectFour>(16, 3), 500);
    let visits: u32 = grown.visits().iter().map(|(_, visits)| visits).sum();
    assert_eq!(visits, 499);
    assert_eq!(grown.tree.nodes[0].visits, 500);
    assert_eq!(grown.simulations, 500);
}

/// The priors of the root's moves are the softmax of the network's logits over the legal
/// moves: they sum to 1, and the most likely is the highest logit's.
#[test]
fn the_priors_are_the_policy_over_the_legal_moves() {
    let game: ConnectFour = "......./......./......./......./......./XOXOXOX"
        .parse()
        .unwrap();
    let net = random_net::<ConnectFour>(16, 4);
    let grown = searched(&game, &net, 1);
    let priors: Vec<f32> = grown
        .tree
        .children(0)
        .map(|child| grown.tree.nodes[child].prior)
        .collect();
    assert_eq!(priors.len(), 7);
    assert!(
        (priors.iter().sum::<f32>() - 1.0).abs() < 1e-5,
        "{priors:?}"
    );
}

#[test]
fn dirichlet_draws_are_shares_with_the_right_mean() {
    let mut rng = SearchRng::seed_from_u64(5);
    for alpha in [0.03, 0.3, 1.0, 10.0] {
        let draw = dirichlet(alpha, 7, &mut rng);
        assert!((draw.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        assert!(draw.iter().all(|share| *share >= 0.0));
        let mean = (0..4000).map(|_| gamma(alpha, &mut rng)).sum::<f64>() / 4000.0;
        assert!(
            (mean - alpha).abs() < 0.1 * alpha.max(0.3),
            "alpha {alpha}: mean {mean}"
        );
    }
}

/// A temperature draws among the visited moves from the seed: the same seed, the same move,
/// and over many seeds more than one move.
#[test]
fn a_temperature_draws_moves_in_proportion_to_visits() {
    let grown = searched(&TicTacToe::start(), &random_net::<TicTacToe>(16, 6), 300);
    let draw = |seed| grown.choose(1.0, &mut SearchRng::seed_from_u64(seed));
    assert_eq!(draw(7), draw(7));
    let distinct: std::collections::HashSet<usize> = (0..50).map(draw).collect();
    assert!(distinct.len() > 1);
}

/// What CI trains: self-play with a random network makes positions of the game; a tiny network
/// trained on them for a moment lowers its loss, and plays only legal moves.
#[test]
fn a_tiny_network_learns_from_self_play_and_plays_legal_moves() {
    let dir = std::env::temp_dir().join(format!("sente-alphazero-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("selfplay.txt");
    let net = random_net::<TicTacToe>(16, 7);
    let mut out = Vec::new();
    let tally =
        selfplay::run::<TicTacToe>(&net, &SelfPlay::new(50, 8), 0..200, 2, &mut out, &|| {})
            .unwrap();
    assert_eq!(tally.games, 200);
    assert_eq!(
        tally.first_player_wins + tally.second_player_wins + tally.draws,
        200
    );
    let text = String::from_utf8(out).unwrap();
    assert_eq!(text.lines().count() as u64, tally.positions);
    let example = selfplay::read::<TicTacToe>(text.lines().next().unwrap()).unwrap();
    assert_eq!(example.legal.len(), 9, "the first position is the start");
    std::fs::write(&data, &text).unwrap();

    let mut options = TrainingOptions::new(vec![data], dir.join("tiny.net"));
    options.epochs = 8;
    options.batch = 64;
    options.learning_rate = 0.01;
    options.hidden = Some(16);
    options.threads = 2;
    let report = train::train::<TicTacToe>(&options, &mut |_| {}).unwrap();
    let losses = &report.validation_loss;
    assert!(
        losses.last().unwrap() < &(losses[0] * 0.95),
        "the loss fell too little: {losses:?}"
    );
    let trained = networks::check::<TicTacToe>(
        PolicyValueNet::from_bytes(&std::fs::read(dir.join("tiny.net")).unwrap()).unwrap(),
    )
    .unwrap();
    let mut game = TicTacToe::start();
    while !game.outcome().is_over() {
        let grown = searched(&game, &trained, 30);
        let mv = grown
            .result(grown.choose(0.0, &mut SearchRng::seed_from_u64(0)))
            .best_move;
        assert!(game.legal_moves().any(|legal| legal == mv));
        game = game.play(mv);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Lines that are not self-play's are refused in words.
#[test]
fn a_bad_line_is_refused_in_words() {
    for (line, words) in [
        ("X........", "three fields"),
        ("X........\t2\t0:1", "1, 0 or -1"),
        ("X........\t1\t0:1", "legal moves"),
        (
            "X........\t1\t0:1,1:1,2:1,3:1,4:1,5:1,6:1,7:1,8:1",
            "legal moves",
        ),
        ("X........\t1\t9:1", "out of range"),
        ("nonsense\t1\t0:1", "the board"),
    ] {
        let error = selfplay::read::<TicTacToe>(line).unwrap_err();
        assert!(error.contains(words), "{line:?}: {error}");
    }
}
