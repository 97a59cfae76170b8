//! Property tests: the parsers and the request decoding never panic on any input, and every
//! board they accept prints back to an equal board.

use proptest::prelude::*;
use sente::api::choose_move::MoveJob;
use sente::api::request::MoveRequest;
use sente::api::tournament::TournamentRequest;
use sente::game::Rules;
use sente::games::{Chess, ConnectFour, TicTacToe};
use sente::search::Budget;

/// Strings of board characters, separators and a little noise, so that many are accepted.
fn board_text(cells: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            8 => Just('.'),
            4 => Just('X'),
            4 => Just('O'),
            1 => Just('/'),
            1 => Just('x'),
            1 => Just('-'),
            1 => any::<char>(),
        ],
        0..cells + 8,
    )
    .prop_map(|chars| chars.into_iter().collect())
}

/// Arbitrary JSON values, nested a little.
fn json() -> impl Strategy<Value = serde_json::Value> {
    let leaf = prop_oneof![
        Just(serde_json::Value::Null),
        any::<bool>().prop_map(serde_json::Value::from),
        any::<i64>().prop_map(serde_json::Value::from),
        any::<f64>().prop_map(serde_json::Value::from),
        "[a-zA-Z0-9_./ ]{0,12}".prop_map(serde_json::Value::from),
    ];
    leaf.prop_recursive(3, 24, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(serde_json::Value::from),
            prop::collection::btree_map(
                prop_oneof![
                    Just("board".to_owned()),
                    Just("moves".to_owned()),
                    Just("game".to_owned()),
                    Just("algorithm".to_owned()),
                    Just("depth".to_owned()),
                    Just("seed".to_owned()),
                    Just("players".to_owned()),
                    "[a-z_]{1,10}",
                ],
                inner,
                0..6
            )
            .prop_map(|map| serde_json::Value::Object(map.into_iter().collect())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn tic_tac_toe_boards_parse_without_panic_and_print_back(text in board_text(9)) {
        if let Ok(board) = text.parse::<TicTacToe>() {
            prop_assert_eq!(board.to_string().parse::<TicTacToe>(), Ok(board));
        }
    }

    #[test]
    fn connect_four_boards_parse_without_panic_and_print_back(text in board_text(42)) {
        if let Ok(board) = text.parse::<ConnectFour>() {
            prop_assert_eq!(board.to_string().parse::<ConnectFour>(), Ok(board));
        }
    }

    #[test]
    fn fens_parse_without_panic_and_print_back(text in "[pnbrqkPNBRQK1-9/]{0,80}( [wb] [KQkq-]{1,4} (-|[a-h][36]|[a-h1-9]{2})( [0-9]{1,3} [0-9]{1,3})?)?") {
        if let Ok(board) = text.parse::<Chess>() {
            prop_assert_eq!(board.to_string().parse::<Chess>(), Ok(board));
        }
    }

    #[test]
    fn positions_reached_by_moves_print_back(moves in prop::collection::vec(0usize..7, 0..42)) {
        if let Ok(board) = ConnectFour::from_moves(&moves) {
            prop_assert_eq!(board.to_string().parse::<ConnectFour>(), Ok(board));
        }
        if let Ok(board) = TicTacToe::from_moves(&moves) {
            prop_assert_eq!(board.to_string().parse::<TicTacToe>(), Ok(board));
        }
    }

    #[test]
    fn any_bytes_decode_without_panic(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        let _ = MoveRequest::from_json(&bytes);
        let _ = TournamentRequest::from_json(&bytes);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Arbitrary JSON is decoded and checked, and what passes the checks is searched, without
    /// panicking.
    #[test]
    fn any_json_request_is_answered_or_refused(value in json()) {
        let body = serde_json::to_vec(&value).unwrap();
        if let Ok(request) = MoveRequest::from_json(&body)
            && let Ok(job) = MoveJob::new(request)
        {
            // Every request that passes the checks is run, however large its knobs: the
            // node budget keeps each run short.
            let budget = Budget { max_nodes: Some(20_000), ..Budget::default() };
            let _ = job.run(&budget);
        }
    }
}

/// The two shards of a small tournament of tic-tac-toe between random players, as `sente
/// tournament --shard I/2 --records` writes them, as JSON.
fn shards() -> [serde_json::Value; 2] {
    use sente::api::tournament::{ShardFile, TournamentJob, shard};
    let request = serde_json::json!({"game": "tictactoe", "games": 12, "seed": 5, "records": true,
        "players": [{"algorithm": "random"}, {"algorithm": "random"}]});
    let request = TournamentRequest::from_json(request.to_string().as_bytes()).unwrap();
    let job = TournamentJob::new(request, &[], &[]).unwrap();
    [0, 1].map(|index| {
        let games = shard(&job.setup().games, index, 2);
        let results = job.play(games, 1, |_| {});
        let file = ShardFile {
            setup: job.setup().clone(),
            shard: [index, 2],
            elapsed_ms: 12.5,
            results,
        };
        serde_json::to_value(&file).unwrap()
    })
}

/// Merges the shards as `sente tournament merge` does, from JSON; a shard that does not even
/// read as one is refused as the command refuses it. Panics propagate, failing the test.
fn merge(
    shards: &[serde_json::Value; 2],
) -> Result<sente::api::tournament::TournamentResponse, String> {
    let files = shards
        .iter()
        .enumerate()
        .map(|(index, value)| {
            let name = format!("shard-{index}.json");
            serde_json::from_value(value.clone())
                .map(|shard| (name.clone(), shard))
                .map_err(|error| format!("{name}: not a shard's results ({error})"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    sente::api::tournament::merge(files).map_err(|error| error.to_string())
}

/// Ways to make a shard impossible: each is refused, whichever game it hits.
#[derive(Clone, Copy, Debug)]
enum Corruption {
    APoints(u8),
    APointsAgainstEnding,
    GameRemoved,
    GameOutsideShard(u64),
    NegativeElapsed(f64),
    Nodes(u64),
    MovesOutOfTurn(u32),
    ShardIndex(u64),
    ShardCount(u64),
    RecordRemoved,
    RecordOfAnotherGame,
    GamesBackwards,
}

fn corruption() -> impl Strategy<Value = Corruption> {
    prop_oneof![
        (3u8..).prop_map(Corruption::APoints),
        Just(Corruption::APointsAgainstEnding),
        Just(Corruption::GameRemoved),
        (0u64..1 << 50).prop_map(Corruption::GameOutsideShard),
        (1e-9f64..1e12).prop_map(Corruption::NegativeElapsed),
        prop_oneof![Just(u64::MAX), (1u64 << 60)..].prop_map(Corruption::Nodes),
        (2u32..).prop_map(Corruption::MovesOutOfTurn),
        (2u64..).prop_map(Corruption::ShardIndex),
        prop_oneof![Just(0u64), Just(u64::MAX), 3u64..].prop_map(Corruption::ShardCount),
        Just(Corruption::RecordRemoved),
        Just(Corruption::RecordOfAnotherGame),
        Just(Corruption::GamesBackwards),
    ]
}

/// `shard` (the first, games 0..6) corrupted so at its `game`.
fn corrupt(shard: &mut serde_json::Value, corruption: Corruption, game: u64) {
    let key = game.to_string();
    let games = &mut shard["results"]["games"];
    match corruption {
        Corruption::APoints(points) => games[&key]["a_points"] = points.into(),
        Corruption::APointsAgainstEnding => {
            let points = match games[&key]["ending"].as_str().unwrap() {
                "drawn" => 2,
                _ => 1,
            };
            games[&key]["a_points"] = points.into();
        }
        Corruption::GameRemoved => {
            games.as_object_mut().unwrap().remove(&key);
        }
        Corruption::GameOutsideShard(offset) => {
            let result = games.as_object_mut().unwrap().remove(&key).unwrap();
            games[(6 + offset).to_string()] = result;
        }
        Corruption::NegativeElapsed(ms) => shard["elapsed_ms"] = (-ms).into(),
        Corruption::Nodes(nodes) => games[&key]["nodes"][0] = nodes.into(),
        Corruption::MovesOutOfTurn(extra) => {
            let other = games[&key]["moves"][1].as_u64().unwrap() as u32;
            games[&key]["moves"][0] = other.saturating_add(extra).into();
        }
        Corruption::ShardIndex(index) => shard["shard"][0] = index.into(),
        Corruption::ShardCount(count) => shard["shard"][1] = count.into(),
        Corruption::RecordRemoved => {
            shard["results"]["records"]
                .as_object_mut()
                .unwrap()
                .remove(&key);
        }
        Corruption::RecordOfAnotherGame => {
            shard["results"]["records"][&key]["index"] = (game + 1).into();
        }
        Corruption::GamesBackwards => {
            shard["setup"]["games"] = serde_json::json!({"start": 12, "end": 0});
        }
    }
}

/// Replaces the value at a path drawn from `choices` with `value`: anywhere in the shard.
fn replace_somewhere(value: &mut serde_json::Value, choices: &[usize], new: serde_json::Value) {
    let Some((&choice, rest)) = choices.split_first() else {
        *value = new;
        return;
    };
    match value {
        serde_json::Value::Object(map) if !map.is_empty() => {
            let key = map.keys().nth(choice % map.len()).unwrap().clone();
            replace_somewhere(map.get_mut(&key).unwrap(), rest, new);
        }
        serde_json::Value::Array(items) if !items.is_empty() => {
            let at = choice % items.len();
            replace_somewhere(&mut items[at], rest, new);
        }
        _ => *value = new,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// A shard made impossible is refused, naming its file, and never panics the merge.
    #[test]
    fn no_corrupted_shard_is_merged(corruption in corruption(), game in 0u64..6) {
        let mut shards = shards_once().clone();
        prop_assert!(merge(&shards).is_ok());
        corrupt(&mut shards[0], corruption, game);
        let refused = merge(&shards);
        prop_assert!(refused.is_err(), "{corruption:?} at game {game} was merged");
        let why = refused.unwrap_err();
        prop_assert!(why.starts_with("shard-0.json: "), "{why}");
    }

    /// Anything anywhere in a shard is merged or refused, without panicking.
    #[test]
    fn any_change_to_a_shard_is_merged_or_refused(
        choices in prop::collection::vec(any::<usize>(), 1..6),
        new in json(),
    ) {
        let mut shards = shards_once().clone();
        replace_somewhere(&mut shards[0], &choices, new);
        let _ = merge(&shards);
    }
}

/// [`shards`], played once for all the cases.
fn shards_once() -> &'static [serde_json::Value; 2] {
    static SHARDS: std::sync::OnceLock<[serde_json::Value; 2]> = std::sync::OnceLock::new();
    SHARDS.get_or_init(shards)
}

/// Texts made of pieces of every record format (PGN's tags and SAN, KIF's numbered lines, KI2's
/// marks, CSA's lines, GGF's keys, a transcript's squares) and a little noise.
fn record_text() -> impl Strategy<Value = String> {
    let pieces = [
        "[Event \"x\"]\n",
        "[FEN \"8/8/8/8/8/8/8/K6k w - - 0 1\"]\n",
        "1. ",
        "e4 ",
        "e5 ",
        "Nf3 ",
        "O-O ",
        "{c} ",
        "(",
        ")",
        "1-0",
        "手合割：平手\n",
        "   1 ",
        "７六歩(77)",
        "同　銀(31)",
        "投了",
        "\n",
        "▲",
        "△",
        "７六歩",
        "２二角成",
        "PI\n",
        "P1-KY-KE\n",
        "+\n",
        "+7776FU\n",
        "-3334FU\n",
        "%TORYO",
        "(;GM[Othello]",
        "BO[8 ",
        "---------------------------O*------*O---------------------------",
        " *]",
        "B[F5]",
        "W[PA]",
        ";)",
        "f5",
        "d6",
        "c3",
        "pass",
        "--",
        " ",
    ];
    prop::collection::vec(
        prop_oneof![
            8 => prop::sample::select(pieces.to_vec()).prop_map(str::to_owned),
            1 => any::<char>().prop_map(String::from),
        ],
        0..40,
    )
    .prop_map(|pieces| pieces.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// Every game's record readers read any text or refuse it, never panicking: a review's
    /// record is checked before any search.
    #[test]
    fn a_record_of_any_text_is_read_or_refused(text in record_text(), format in 0usize..4) {
        use sente::api::review::{ReviewJob, ReviewRequest};
        for game in ["chess", "shogi", "othello", "tictactoe"] {
            let mut body = serde_json::json!({"game": game, "record": text, "depth": 1});
            if format > 0 {
                body["format"] = serde_json::json!(["", "PGN", "CSA", "transcript"][format]);
            }
            let request = ReviewRequest::from_json(body.to_string().as_bytes()).unwrap();
            let _ = ReviewJob::new(request);
        }
    }
}
