//! Property tests: the parsers and the request decoding never panic on any input, and every
//! board they accept prints back to an equal board.

use proptest::prelude::*;
use sente::api::choose_move::MoveJob;
use sente::api::request::MoveRequest;
use sente::api::tournament::TournamentRequest;
use sente::game::Game;
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
