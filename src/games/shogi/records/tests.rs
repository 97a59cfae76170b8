use super::*;
use crate::game::{Player, RecordedGame, RecordedMove};

fn moves(texts: &[&str]) -> Vec<RecordedMove> {
    texts
        .iter()
        .map(|&text| RecordedMove {
            text: text.to_owned(),
            time_ms: 1500.0,
            ..RecordedMove::default()
        })
        .collect()
}

fn game<'a>(
    moves: &'a [RecordedMove],
    ending: &'a str,
    winner: Option<Player>,
) -> RecordedGame<'a> {
    RecordedGame {
        index: Some(0),
        event: "Sente tournament",
        date: "2026/11/27",
        start: crate::games::shogi::START,
        moves,
        players: ["engine", "gps"],
        winner,
        ending,
        detail: None,
    }
}

#[test]
fn a_game_is_written_as_kif_with_each_sides_time() {
    let mut played = moves(&["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"]);
    played[0].time_ms = 61_900.0;
    let kif = kif::write_utf8(&game(&played, "resigned", Some(Player::X)));
    assert!(
        kif.starts_with("#KIF version=2.0 encoding=UTF-8\n"),
        "{kif}"
    );
    assert!(kif.contains("棋戦：Sente tournament 第1局\n"), "{kif}");
    assert!(
        kif.contains("手合割：平手\n先手：engine\n後手：gps\n"),
        "{kif}"
    );
    // This move's time, rounded down, then the mover's own total.
    assert!(
        kif.contains("   1 ７六歩(77)   ( 1:01/00:01:01)\n"),
        "{kif}"
    );
    assert!(
        kif.contains("   2 ３四歩(33)   ( 0:01/00:00:01)\n"),
        "{kif}"
    );
    assert!(
        kif.contains("   3 ２二角成(88)   ( 0:01/00:01:02)\n"),
        "{kif}"
    );
    assert!(kif.contains("   4 同　銀(31)"), "{kif}");
    assert!(kif.contains("   5 ４五角打"), "{kif}");
    assert!(kif.contains("   6 投了\nまで5手で先手の勝ち\n"), "{kif}");
    // Nothing an engine said, no comment.
    assert!(!kif.contains("**"), "{kif}");
}

#[test]
fn an_engines_move_carries_its_evaluation_as_shogigui_writes_it() {
    let mut played = moves(&["7g7f", "3c3d", "2g2f"]);
    // Gote's move, scored +35 for Gote: -35 from Sente's view.
    played[1] = RecordedMove {
        text: "3c3d".to_owned(),
        time_ms: 1234.0,
        cp: Some(35),
        depth: Some(12),
        nodes: Some(123_456),
        pv: ["3c3d", "2g2f", "8c8d"].map(str::to_owned).to_vec(),
        ..RecordedMove::default()
    };
    // Sente's move, mating in 3 moves of its own: 5 plies.
    played[2].mate = Some(3);
    let kif = kif::write_utf8(&game(&played, "interrupted", None));
    assert!(
        kif.contains(
            "   2 ３四歩(33)   ( 0:01/00:00:01)\n**対局 時間 00:01.2 深さ 12 ノード数 123456 \
             評価値 -35 読み筋 △３四歩(33) ▲２六歩(27) △８四歩(83)\n"
        ),
        "{kif}"
    );
    assert!(
        kif.contains("   3 ２六歩(27)   ( 0:01/00:00:02)\n**対局 時間 00:01.5 +詰5\n"),
        "{kif}"
    );
    assert!(kif.contains("   4 中断\nまで3手で中断\n"), "{kif}");
}

#[test]
fn a_kif_file_is_shift_jis_and_a_kifu_utf_8() {
    let played = moves(&["7g7f", "3c3d"]);
    let recorded = game(&played, "checkmate", Some(Player::O));
    let [kif, kifu, csa] = [0, 1, 2].map(|index| FORMATS[index]);
    assert_eq!((kif.name, kif.extension), ("KIF", "kif"));
    let bytes = kif.bytes(&recorded);
    let (text, _, malformed) = encoding_rs::SHIFT_JIS.decode(&bytes);
    assert!(!malformed);
    assert!(
        text.starts_with("#KIF version=2.0 encoding=Shift_JIS\n"),
        "{text}"
    );
    assert!(text.contains("   2 ３四歩(33)"), "{text}");
    // Not UTF-8: 歩 is two bytes in Shift_JIS.
    assert!(std::str::from_utf8(&bytes).is_err());
    assert!(
        bytes.windows(2).any(|pair| pair == [0x95, 0xe0]),
        "歩 as 0x95E0"
    );
    let utf8 = String::from_utf8(kifu.bytes(&recorded)).unwrap();
    assert!(utf8.starts_with("#KIF version=2.0 encoding=UTF-8\n"));
    assert_eq!(csa.extension, "csa");
    // A name Shift_JIS cannot write is kept as a character reference, not lost.
    let named = RecordedGame {
        players: ["😀", "gps"],
        ..recorded
    };
    let bytes = kif.bytes(&named);
    let (text, _, _) = encoding_rs::SHIFT_JIS.decode(&bytes);
    assert!(text.contains("先手：&#128512;\n"), "{text}");
}

#[test]
fn a_game_from_a_position_writes_its_diagram_and_names_gote_first() {
    let played = moves(&["5a4a"]);
    let kif = kif::write_utf8(&RecordedGame {
        start: "4k4/9/4P4/9/9/9/9/9/4K4 w G 1",
        players: ["a", "b"],
        index: None,
        event: "Sente",
        ..game(&played, "move_limit", None)
    });
    assert!(kif.contains("棋戦：Sente\n"), "{kif}");
    assert!(
        kif.contains("先手の持駒：金\n後手番\n先手：b\n後手：a"),
        "{kif}"
    );
    assert!(kif.contains("| ・ ・ ・ ・v玉 ・ ・ ・ ・|一"), "{kif}");
    assert!(kif.contains("   2 持将棋\nまで1手で持将棋\n"), "{kif}");
    let csa = csa::write(&RecordedGame {
        start: "4k4/9/4P4/9/9/9/9/9/4K4 w G 1",
        players: ["a", "b"],
        ..game(&played, "move_limit", None)
    });
    assert!(csa.contains("N+b\nN-a\n"), "{csa}");
    assert!(csa.contains("P1 *  *  *  * -OU *  *  *  * \n"), "{csa}");
    assert!(csa.contains("P3 *  *  *  * +FU *  *  *  * \n"), "{csa}");
    assert!(csa.contains("P+00KI\n-\n-5141OU\nT1\n%JISHOGI\n"), "{csa}");
}

#[test]
fn a_game_is_written_as_csa() {
    let mut played = moves(&["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"]);
    played[3].cp = Some(-120);
    played[3].pv = ["3a2b", "4i3h"].map(str::to_owned).to_vec();
    let csa = csa::write(&game(&played, "resigned", Some(Player::X)));
    assert!(
        csa.starts_with(
            "'CSA encoding=UTF-8\nV3.0\nN+engine\nN-gps\n$EVENT:Sente tournament 1\n\
             $START_TIME:2026/11/27\nPI\n+\n+7776FU\nT1\n-3334FU\nT1\n+8822UM\nT1\n"
        ),
        "{csa}"
    );
    // Gote's score of -120 is Sente's +120; the line after the move.
    assert!(
        csa.contains("-3122GI\nT1\n'** 120 +4938KI\n+0045KA\nT1\n%TORYO\n"),
        "{csa}"
    );
    // Sente to move resigns: Gote's win.
    let csa = csa::write(&game(&played[..4], "resigned", Some(Player::O)));
    assert!(
        csa.ends_with("-3122GI\nT1\n'** 120 +4938KI\n%TORYO\n"),
        "{csa}"
    );
    // Gote winning with Gote to move is no resignation (an adjudication): the result said in
    // a comment, the game cut.
    let csa = csa::write(&game(&played, "adjudicated", Some(Player::O)));
    assert!(csa.ends_with("'Gote won: adjudicated\n%CHUDAN\n"), "{csa}");
    let csa = csa::write(&game(&played, "interrupted", None));
    assert!(csa.ends_with("%CHUDAN\n"), "{csa}");
}
