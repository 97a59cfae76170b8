use rand::SeedableRng;

use super::selfplay::{self, SelfPlay};
use super::*;
use crate::game::{Drawing, Inputs, Rules, Symmetry};
use crate::games::{ConnectFour, TicTacToe};
use crate::learn::TrainingOptions;
use crate::learn::policy_value::Shape;

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
        forced_playouts: false,
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
        ("X........", "three or four fields"),
        ("X........\t2\t0:1", "1, 0 or -1"),
        ("X........\t1\t0:1", "legal moves"),
        (
            "X........\t1\t0:1,1:1,2:1,3:1,4:1,5:1,6:1,7:1,8:1",
            "legal moves",
        ),
        ("X........\t1\t9:1", "out of range"),
        ("nonsense\t1\t0:1", "the board"),
        (
            "X........\t1\t0:1,1:1,2:1,3:1,4:1,5:1,6:1,7:1,8:1\t1.5",
            "-1 to 1",
        ),
        (
            "X........\t1\t0:1,1:1,2:1,3:1,4:1,5:1,6:1,7:1,8:1\t0.5\tmore",
            "three or four fields",
        ),
    ] {
        let error = selfplay::read::<TicTacToe>(line).unwrap_err().to_string();
        assert!(error.contains(words), "{line:?}: {error}");
    }
}

/// A network whose finite weights overflow: the second layer's first KiB set to 3.4e38, as a
/// corrupted file can hold them. Every output is NaN.
fn overflowing_net<G: Game>() -> PolicyValueNet {
    let mut net = random_net::<G>(128, 5);
    let w2 = net.layout().w2;
    net.weights[w2..w2 + 256].fill(f32::from_le_bytes([0x7f; 4]));
    net
}

/// Every PUCT score NaN once made the descent choose the root again and again, for ever, its
/// memory growing: the search now ends within its simulations and plays a legal move.
#[test]
fn a_network_that_outputs_nan_cannot_make_the_search_loop() {
    let net = overflowing_net::<ConnectFour>();
    let mut activations = crate::learn::policy_value::Activations::default();
    let mut inputs = Vec::new();
    let game = ConnectFour::start().play(3);
    game.network_inputs(&mut inputs);
    net.forward(&inputs, &mut activations);
    let finite = activations.value.is_finite() && activations.logits.iter().all(|l| l.is_finite());
    assert!(!finite, "the network does overflow");
    for game in [ConnectFour::start(), game] {
        let grown = searched(&game, &net, 300);
        assert_eq!(grown.simulations, 300);
        let result = grown.result(grown.choose(0.0, &mut SearchRng::seed_from_u64(0)));
        assert!(game.legal_moves().any(|legal| legal == result.best_move));
        assert!(result.score.is_finite());
    }
}

/// Such a network is refused where it is read, in words, and so is a file that is not a file.
#[test]
fn a_network_whose_outputs_are_not_finite_is_refused_when_read() {
    let dir = std::env::temp_dir().join(format!("sente-huge-net-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("huge.net");
    std::fs::write(&path, overflowing_net::<ConnectFour>().to_bytes()).unwrap();
    let error = networks::from_file::<ConnectFour>(&path)
        .err()
        .unwrap()
        .to_string();
    assert!(error.contains("not finite numbers"), "{error}");
    // A file longer than its header says is refused without reading the rest.
    let mut long = random_net::<ConnectFour>(8, 1).to_bytes();
    long.extend(std::iter::repeat_n(0u8, 1 << 20));
    std::fs::write(&path, long).unwrap();
    let error = networks::from_file::<ConnectFour>(&path)
        .err()
        .unwrap()
        .to_string();
    assert!(error.contains("bytes of weights"), "{error}");
    let error = networks::from_file::<ConnectFour>(std::path::Path::new("/dev/zero"))
        .err()
        .unwrap()
        .to_string();
    assert!(error.contains("not a regular file"), "{error}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A game whose moves do not fit a policy-value network (shogi's 65,536 ids) is refused before
/// self-play or training, rather than trained into a file no reader takes.
#[test]
fn a_game_too_large_for_a_network_is_refused_before_training() {
    let error = networks::playable::<crate::games::Shogi>()
        .unwrap_err()
        .to_string();
    assert!(error.contains("shogi has no AlphaZero network"), "{error}");
    let options = TrainingOptions::new(vec!["unused".into()], "unused.net".into());
    let error = train::train::<crate::games::Shogi>(&options, &mut |_| {})
        .err()
        .unwrap()
        .to_string();
    assert!(error.contains("65536 moves"), "{error}");
}

/// What `sente train` writes, Sente reads back: for every game whose policy-value network
/// fits, a moment of self-play and of training, then the file through the reader that
/// `--net` and tournaments use.
#[test]
fn what_training_writes_reads_back_for_every_game_that_trains() {
    fn round_trip<G: Game>() {
        let dir = std::env::temp_dir().join(format!("sente-rt-{}-{}", G::NAME, std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let net = random_net::<G>(8, 3);
        let mut out = Vec::new();
        let mut games = 0;
        while out.iter().filter(|&&byte| byte == b'\n').count() < 120 {
            selfplay::run::<G>(
                &net,
                &SelfPlay::new(4, 9),
                games..games + 4,
                2,
                &mut out,
                &|| {},
            )
            .unwrap();
            games += 4;
        }
        let data = dir.join("selfplay.txt");
        std::fs::write(&data, &out).unwrap();
        let mut options = TrainingOptions::new(vec![data], dir.join("trained.net"));
        options.epochs = 1;
        options.hidden = Some(8);
        options.threads = 2;
        train::train::<G>(&options, &mut |_| {}).unwrap();
        networks::from_file::<G>(&dir.join("trained.net"))
            .unwrap_or_else(|error| panic!("{}: {error}", G::NAME));
        // And as a residual tower over the game's grid.
        options.blocks = Some(1);
        train::train::<G>(&options, &mut |_| {}).unwrap();
        let tower = networks::from_file::<G>(&dir.join("trained.net"))
            .unwrap_or_else(|error| panic!("{}: {error}", G::NAME));
        assert!(matches!(tower.shape, Shape::Residual(_)), "{}", tower.shape);
        std::fs::remove_dir_all(&dir).unwrap();
    }
    round_trip::<TicTacToe>();
    round_trip::<ConnectFour>();
    round_trip::<crate::games::Othello>();
    round_trip::<crate::games::Gomoku>();
}

/// The residual tower learns as the perceptron does: its loss falls on self-play's positions,
/// each seen as one of the board's eight images, and its search plays legal moves.
#[test]
fn a_residual_tower_learns_from_self_play() {
    let dir = std::env::temp_dir().join(format!("sente-tower-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("selfplay.txt");
    let mut out = Vec::new();
    // The shipped network's games: their targets are sharp enough to learn in seconds.
    selfplay::run::<TicTacToe>(
        &networks::network::<TicTacToe>(0).unwrap(),
        &SelfPlay::new(50, 8),
        0..200,
        2,
        &mut out,
        &|| {},
    )
    .unwrap();
    std::fs::write(&data, &out).unwrap();
    let mut options = TrainingOptions::new(vec![data], dir.join("tower.net"));
    options.epochs = 8;
    options.batch = 64;
    options.epochs = 12;
    options.batch = 32;
    options.learning_rate = 0.005;
    options.hidden = Some(16);
    options.blocks = Some(1);
    options.search_value_weight = 0.5;
    options.threads = 2;
    let report = train::train::<TicTacToe>(&options, &mut |_| {}).unwrap();
    // The held-out fiftieth of 200 games is a few dozen positions: the training loss, over all
    // the others, is the steadier measure, and the held-out one must fall too.
    let (training, held_out) = (&report.training_loss, &report.validation_loss);
    assert!(
        training.last().unwrap() < &(training[0] * 0.95) && held_out.last() < held_out.first(),
        "the loss fell too little: {training:?}, held out {held_out:?}"
    );
    let trained = networks::from_file::<TicTacToe>(&dir.join("tower.net")).unwrap();
    let mut game = TicTacToe::start();
    while !game.outcome().is_over() {
        let grown = searched(&game, &trained, 30);
        let mv = grown
            .result(grown.choose(0.0, &mut SearchRng::seed_from_u64(0)))
            .best_move;
        assert!(game.legal_moves().any(|legal| legal == mv));
        game = game.play(mv);
    }
    // A perceptron to go on from is not the tower asked for.
    options.from = Some(dir.join("tower.net"));
    options.blocks = None;
    let error = train::train::<TicTacToe>(&options, &mut |_| {})
        .err()
        .unwrap()
        .to_string();
    assert!(error.contains("not a perceptron"), "{error}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Connect Four's mirror maps a position's inputs to its mirror image's, and its moves' ids to
/// the mirrored columns: what the network learns from the image is true of it.
#[test]
fn a_mirrored_position_is_the_mirror_images_inputs() {
    let moves = [3usize, 2, 5, 5, 0, 6, 1];
    let mirrored: Vec<usize> = moves.iter().map(|column| 6 - column).collect();
    let (game, image) = (
        ConnectFour::from_moves(&moves).unwrap(),
        ConnectFour::from_moves(&mirrored).unwrap(),
    );
    let (mut inputs, mut expected) = (Vec::new(), Vec::new());
    game.network_inputs(&mut inputs);
    image.network_inputs(&mut expected);
    let mut legal: Vec<u16> = game.legal_moves().map(ConnectFour::move_id).collect();
    Symmetry::MirrorColumns.apply::<ConnectFour>(&mut inputs, &mut legal);
    inputs.sort_unstable();
    expected.sort_unstable();
    assert_eq!(inputs, expected);
    let mut image_legal: Vec<u16> = image.legal_moves().map(ConnectFour::move_id).collect();
    legal.sort_unstable();
    image_legal.sort_unstable();
    assert_eq!(legal, image_legal);
}

/// Playout cap randomization writes the moves searched in full alone: none when no move is,
/// every one when all are, and between the two for a share.
#[test]
fn playout_cap_randomization_writes_only_the_full_searches() {
    let net = random_net::<TicTacToe>(16, 9);
    let positions = |share: f64| {
        let mut options = SelfPlay::new(40, 10);
        options.tricks.fast_simulations = Some(8);
        options.tricks.full_share = share;
        (0..20)
            .map(|game| {
                selfplay::play::<TicTacToe>(&net, &options, game)
                    .positions
                    .len()
            })
            .sum::<usize>()
    };
    let (none, half, all) = (positions(0.0), positions(0.5), positions(1.0));
    assert_eq!(none, 0);
    assert!(all >= 20 * 5, "{all} positions in 20 games");
    assert!(0 < half && half < all, "{half} of {all}");
}

/// Forced playouts give every root move the visits sqrt(2 P N) owes it, and the pruned target
/// takes back no visit of the most visited move and never adds one.
#[test]
fn forced_playouts_are_pruned_from_the_target() {
    let net = random_net::<ConnectFour>(16, 11);
    let search = Search {
        net: &net,
        params: AlphaZeroParams {
            simulations: 400,
            ..AlphaZeroParams::DEFAULT
        },
        time_limit: None,
        noise: Some(RootNoise {
            alpha: 1.0,
            fraction: 0.25,
        }),
        forced_playouts: true,
        seed: 12,
    };
    let grown = grow(&ConnectFour::start(), &search, &Budget::unlimited());
    let visits = grown.visits();
    let total: u32 = visits.iter().map(|(_, visits)| visits).sum();
    for child in grown.tree.children(0) {
        let node = &grown.tree.nodes[child];
        assert!(f64::from(node.visits) + 1.0 >= forced_playouts(node.prior, total));
    }
    let pruned = grown.pruned_visits(DEFAULT_C_PUCT);
    let best = grown.tree.most_visited(0).unwrap() - grown.tree.children(0).start;
    assert_eq!(pruned[best], visits[best]);
    for ((_, kept), (_, had)) in pruned.iter().zip(&visits) {
        assert!(kept <= had);
    }
}

/// First play urgency changes which untried move is tried, not what the search can prove.
#[test]
fn first_play_urgency_still_finds_the_win_in_one() {
    let game: TicTacToe = "XX./OO./...".parse().unwrap();
    let net = random_net::<TicTacToe>(16, 2);
    for fpu in [0.0, 0.25, 1.0] {
        let search = Search {
            net: &net,
            params: AlphaZeroParams {
                simulations: 200,
                fpu,
                ..AlphaZeroParams::DEFAULT
            },
            time_limit: None,
            noise: None,
            forced_playouts: false,
            seed: 1,
        };
        let grown = grow(&game, &search, &Budget::unlimited());
        let result = grown.result(grown.choose(0.0, &mut SearchRng::seed_from_u64(0)));
        assert_eq!(result.best_move, 2, "fpu {fpu}");
        assert!(result.exact);
    }
}

/// Othello's inputs from its bitboards are the default's, read cell by cell.
#[test]
fn othellos_inputs_are_the_defaults() {
    use crate::games::Othello;
    let mut game = Othello::start();
    let mut rng = SearchRng::seed_from_u64(13);
    while !game.outcome().is_over() {
        let mut inputs = Vec::new();
        game.network_inputs(&mut inputs);
        let mut expected = Vec::new();
        for row in 0..8 {
            for column in 0..8 {
                if let Some((owner, _)) = game.cell(row, column) {
                    let cell = (row * 8 + column) as u16;
                    expected.push(2 * cell + u16::from(owner != game.side_to_move()));
                }
            }
        }
        assert_eq!(inputs, expected, "{game}");
        let moves: Vec<_> = game.legal_moves().collect();
        game = game.play(moves[rng.random_range(0..moves.len())]);
    }
}

#[test]
fn tricks_out_of_their_ranges_are_refused_in_words() {
    use selfplay::Tricks;
    assert!(Tricks::default().check().is_ok());
    let refused = |tricks: Tricks, words: &str| {
        let error = tricks.check().unwrap_err().to_string();
        assert!(error.contains(words), "{error}");
    };
    refused(
        Tricks {
            full_share: 1.5,
            ..Tricks::default()
        },
        "share is 0 to 1",
    );
    refused(
        Tricks {
            full_share: f64::NAN,
            ..Tricks::default()
        },
        "share is 0 to 1",
    );
    for fast in [0, 1_000_001] {
        refused(
            Tricks {
                fast_simulations: Some(fast),
                ..Tricks::default()
            },
            "1 to 1,000,000",
        );
    }
    refused(
        Tricks {
            fpu: 2.5,
            ..Tricks::default()
        },
        "fpu is -1 to 2",
    );
}
