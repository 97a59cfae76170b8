//! Fuzzes every parser a client reaches: the board text of the games (chess's FEN included),
//! move sequences and chess's UCI and SAN, and the request bodies. None may panic; an accepted board must print back to itself.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sente::api::request::MoveRequest;
use sente::api::tournament::TournamentRequest;
use sente::game::{Notation, Rules};
use sente::games::{Chess, ConnectFour, TicTacToe};

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
        if let Ok(board) = text.parse::<Chess>() {
            assert_eq!(board.to_string().parse::<Chess>(), Ok(board.clone()));
            let _ = board.read_move(&Notation::Text(text.to_owned()));
        }
        let _ = Chess::start().read_move(&Notation::Text(text.to_owned()));
    }
    let moves: Vec<usize> = data.iter().map(|&b| usize::from(b % 10)).collect();
    let _ = TicTacToe::from_moves(&moves);
    let _ = ConnectFour::from_moves(&moves);
});
