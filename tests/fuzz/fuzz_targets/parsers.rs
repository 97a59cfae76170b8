//! Fuzzes every parser a client reaches: the board text of both games, move sequences, and the
//! request bodies. None may panic; an accepted board must print back to itself.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sente::api::request::{MoveRequest, TournamentRequest};
use sente::game::Game;
use sente::games::{ConnectFour, TicTacToe};

fuzz_target!(|data: &[u8]| {
    let _ = MoveRequest::from_json(data);
    let _ = TournamentRequest::from_json(data);
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(board) = text.parse::<TicTacToe>() {
            assert_eq!(board.to_string().parse::<TicTacToe>(), Ok(board));
        }
        if let Ok(board) = text.parse::<ConnectFour>() {
            assert_eq!(board.to_string().parse::<ConnectFour>(), Ok(board));
        }
        let _ = ConnectFour::from_pons_moves(text);
    }
    let moves: Vec<usize> = data.iter().map(|&b| usize::from(b % 10)).collect();
    let _ = TicTacToe::from_moves(&moves);
    let _ = ConnectFour::from_moves(&moves);
});
