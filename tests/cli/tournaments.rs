//! `sente tournament`: its answer, shards and their merge, files of openings; `sente positions`
//! and `sente train`.

use super::*;

#[test]
fn tournament_prints_both_players() {
    let (code, json, stderr) = sente(&[
        "tournament",
        "alphabeta",
        "mcs:playouts=5",
        "--games",
        "20",
        "--seed",
        "1",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(json["games"], 20);
    assert_eq!(json["players"][0]["algorithm"], "alphabeta");
    assert_eq!(json["players"][0]["losses"], 0);
    assert_eq!(json["players"][1]["algorithm"], "mcs");
    // Each player's settings, as given; none for a player given none.
    assert_eq!(
        json["players"][1]["settings"],
        serde_json::json!({"playouts": 5})
    );
    assert!(json["players"][0].get("settings").is_none(), "{json}");
    // Figures to the precision they mean: no float's seventeen digits anywhere.
    let mut numbers = vec![&json];
    let mut longest = 0;
    while let Some(value) = numbers.pop() {
        match value {
            Value::Number(number) if number.is_f64() => {
                let written = number.to_string();
                let decimals = written
                    .split_once('.')
                    .map_or(0, |(_, decimals)| decimals.len());
                assert!(!written.contains('e'), "{written} in {json}");
                longest = longest.max(decimals);
            }
            Value::Array(values) => numbers.extend(values),
            Value::Object(fields) => numbers.extend(fields.values()),
            _ => {}
        }
    }
    assert!(longest <= 4, "a figure with {longest} decimals in {json}");
}

/// The answer without what depends on the machine's speed.
fn without_timing(mut answer: Value) -> Value {
    let object = answer.as_object_mut().unwrap();
    object.remove("elapsed_ms");
    object.remove("games_per_second");
    answer
}

#[test]
fn eight_shards_played_apart_merge_into_the_single_run() {
    let dir = std::env::temp_dir().join(format!("sente-shards-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let common = [
        "tournament",
        "alphabeta:depth=2",
        "mcts:simulations=60",
        "--game",
        "connect4",
        "--games",
        "90",
        "--seed",
        "11",
        "--random-plies",
        "4",
        "--sprt",
        "elo0=0,elo1=300",
        "--threads",
        "1",
    ];
    let (code, whole, stderr) = sente(&common);
    assert_eq!(code, 0, "{stderr}");
    // Each shard a process of its own, all at once.
    let shards: Vec<_> = (0..8)
        .map(|index| {
            let file = dir.join(format!("shard-{index}.json"));
            let shard = format!("{index}/8");
            let child = binary()
                .args(common)
                .args(["--shard", &shard, "--output"])
                .arg(&file)
                .spawn()
                .unwrap();
            (child, file)
        })
        .collect();
    let mut files = Vec::new();
    for (mut child, file) in shards {
        assert!(child.wait().unwrap().success());
        files.push(file);
    }
    let (code, merged, stderr) = run(binary().args(["tournament", "merge"]).args(&files));
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(without_timing(merged), without_timing(whole.clone()));
    assert!(whole["sprt"]["llr"].is_number(), "{whole}");
    // A shard missing, or one given twice, is said.
    let (code, _, stderr) = run(binary().args(["tournament", "merge"]).args(&files[..7]));
    assert_eq!(code, 2);
    assert!(stderr.contains("missing shards: 7/8"), "{stderr}");
    let (code, _, stderr) = run(binary()
        .args(["tournament", "merge"])
        .args(&files)
        .arg(&files[0]));
    assert_eq!(code, 2);
    assert!(stderr.contains("given twice"), "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn files_of_openings_are_quoted_in_part_and_refused_early() {
    let dir = std::env::temp_dir().join(format!("sente-openings-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let tournament = |file: &std::path::Path| {
        sente(&[
            "tournament",
            "random",
            "random",
            "--game",
            "chess",
            "--openings",
            file.to_str().unwrap(),
        ])
    };
    // A bad line of a million characters is quoted by its first few dozen.
    let epd = dir.join("long.epd");
    std::fs::write(&epd, format!("{} w\n", "x".repeat(1_000_000))).unwrap();
    let (code, _, stderr) = tournament(&epd);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.len() < 300 && stderr.contains("line 1: "),
        "{stderr}"
    );
    // A file far larger than a thousand openings is refused before it is read.
    let pgn = dir.join("large.pgn");
    let file = std::fs::File::create(&pgn).unwrap();
    file.set_len(100 << 20).unwrap();
    let (code, _, stderr) = tournament(&pgn);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("is at most 16 MiB"), "{stderr}");
    // One opening too many is refused at its line.
    let many = dir.join("many.txt");
    std::fs::write(&many, "e2e4\n".repeat(1_001)).unwrap();
    let (code, _, stderr) = tournament(&many);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("line 1001: more than 1000 openings"),
        "{stderr}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn merge_names_the_file_the_game_and_the_field_of_a_bad_shard() {
    // A folder of its own: the test of eight shards runs beside this one in the same process.
    let dir = std::env::temp_dir().join(format!("sente-bad-shard-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut files = Vec::new();
    for index in 0..2 {
        let file = dir.join(format!("shard-{index}.json"));
        let (code, _, stderr) = sente(&[
            "tournament",
            "random",
            "random",
            "--games",
            "8",
            "--seed",
            "3",
            "--shard",
            &format!("{index}/2"),
            "--output",
            file.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{stderr}");
        files.push(file);
    }
    let mut shard: Value = serde_json::from_slice(&std::fs::read(&files[1]).unwrap()).unwrap();
    shard["results"]["games"]["5"]["a_points"] = json!(99);
    std::fs::write(&files[1], shard.to_string()).unwrap();
    let (code, _, stderr) = sente(&[
        "tournament",
        "merge",
        files[0].to_str().unwrap(),
        files[1].to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("shard-1.json: game 5: a_points: A's half points are 0, 1 or 2, got 99"),
        "{stderr}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A chess shard played with records becomes training lines: a FEN, White's centipawns and
/// White's points; a file without records says how to make one.
#[test]
fn positions_are_written_from_a_shards_records() {
    let dir = std::env::temp_dir().join(format!("sente-positions-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (shard, data) = (dir.join("shard.json"), dir.join("data.txt"));
    let path = |file: &std::path::Path| file.to_str().unwrap().to_owned();
    let engine = "engine:depth=1";
    let (code, _, stderr) = sente(&[
        "tournament",
        engine,
        engine,
        "--game",
        "chess",
        "--games",
        "6",
        "--random-plies",
        "4-8",
        "--records",
        "--shard",
        "0/1",
        "--output",
        &path(&shard),
    ]);
    assert_eq!(code, 0, "{stderr}");
    let (code, _, stderr) = sente(&["positions", &path(&shard), "--output", &path(&data)]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.ends_with("from 6 games (0 left out: capped, forfeited or failed)\n"),
        "{stderr}"
    );
    let text = std::fs::read_to_string(&data).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() > 10, "{text}");
    for line in lines {
        let fields: Vec<&str> = line.split(" | ").collect();
        assert_eq!(fields.len(), 3, "{line}");
        assert_eq!(fields[0].split(' ').count(), 6, "a FEN: {line}");
        assert!(fields[1].parse::<i32>().is_ok(), "{line}");
        assert!(["1.0", "0.5", "0.0"].contains(&fields[2]), "{line}");
        // Positions in check are tactical, left out.
        let fen: shakmaty::fen::Fen = fields[0].parse().unwrap();
        let position: shakmaty::Chess =
            fen.into_position(shakmaty::CastlingMode::Standard).unwrap();
        assert!(!shakmaty::Position::is_check(&position), "{line}");
    }
    // What sente train makes of them: a net of the shipped size, and its report.
    let net = dir.join("net.nnue");
    let (code, report, stderr) = sente(&[
        "train",
        &path(&data),
        "--output",
        &path(&net),
        "--epochs",
        "2",
        "--threads",
        "1",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stderr.lines().count(), 2, "an epoch a line: {stderr}");
    assert!(stderr.starts_with("epoch   1: training loss "), "{stderr}");
    assert_eq!(
        report["validation_loss"].as_array().unwrap().len(),
        2,
        "{report}"
    );
    assert_eq!(
        report["bytes"],
        std::fs::metadata(&net).unwrap().len(),
        "{report}"
    );
    let (code, _, stderr) = sente(&[
        "train",
        &path(&data),
        "--output",
        &path(&net),
        "--game",
        "connect4",
    ]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("data.txt: line 1: not a self-play position of connect4"),
        "chess's lines are not Connect Four's self-play: {stderr}"
    );
    // Othello learns its pattern weights from positions, but not from chess's.
    let (code, _, stderr) = sente(&[
        "train",
        &path(&data),
        "--output",
        &path(&net),
        "--game",
        "othello",
    ]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("data.txt: line 1: an Othello board is its 64 cells"),
        "chess's lines are not Othello's: {stderr}"
    );
    let (code, _, stderr) = sente(&[
        "train",
        &path(&dir.join("none.txt")),
        "--output",
        &path(&net),
    ]);
    assert_eq!(code, 2);
    assert!(stderr.contains("none.txt: "), "{stderr}");
    let (code, _, stderr) = sente(&[
        "tournament",
        "random",
        "random",
        "--games",
        "2",
        "--output",
        &path(&shard),
    ]);
    assert_eq!(code, 0, "{stderr}");
    let (code, _, stderr) = sente(&["positions", &path(&shard)]);
    assert_eq!(code, 2);
    assert!(stderr.contains("play it with --records"), "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Self-play's shards played apart write the lines of the single run, in its order; `sente
/// train` fits a network to them, and a tournament's players name it with `--net`.
#[test]
fn self_play_shards_train_a_network_that_a_tournament_names() {
    let dir = std::env::temp_dir().join(format!("sente-selfplay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = |file: &std::path::Path| file.to_str().unwrap().to_owned();
    let selfplay = |output: &std::path::Path, shard: Option<&str>| {
        let mut args = vec![
            "selfplay".to_owned(),
            "--game".into(),
            "tictactoe".into(),
            "--games".into(),
            "30".into(),
            "--simulations".into(),
            "40".into(),
            "--seed".into(),
            "5".into(),
            "--output".into(),
            path(output),
        ];
        if let Some(shard) = shard {
            args.extend(["--shard".into(), shard.into()]);
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, report, stderr) = sente(&args);
        assert_eq!(code, 0, "{stderr}");
        report
    };
    let whole = dir.join("whole.txt");
    let report = selfplay(&whole, None);
    assert_eq!(report["games"], 30, "{report}");
    assert_eq!(
        report["net"], "gen-1",
        "the shipped network by default: {report}"
    );
    let mut shards = String::new();
    for shard in ["0/3", "1/3", "2/3"] {
        let file = dir.join(format!("shard-{}.txt", &shard[..1]));
        selfplay(&file, Some(shard));
        shards.push_str(&std::fs::read_to_string(&file).unwrap());
    }
    let lines = std::fs::read_to_string(&whole).unwrap();
    assert_eq!(shards, lines, "the shards' lines are the run's");
    assert_eq!(
        lines.lines().count() as u64,
        report["positions"].as_u64().unwrap()
    );

    let net = dir.join("candidate.net");
    let (code, report, stderr) = sente(&[
        "train",
        "--game",
        "tictactoe",
        &path(&whole),
        "--output",
        &path(&net),
        "--epochs",
        "2",
        "--hidden",
        "8",
        "--batch",
        "32",
        "--threads",
        "1",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        report["bytes"],
        std::fs::metadata(&net).unwrap().len(),
        "{report}"
    );
    let candidate = format!("candidate={}", path(&net));
    let (code, answer, stderr) = sente(&[
        "tournament",
        "--game",
        "tictactoe",
        "--net",
        &candidate,
        "alphazero:net=candidate,simulations=20",
        "random",
        "--games",
        "4",
        "--seed",
        "1",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        answer["players"][0]["settings"]["net"], "candidate",
        "{answer}"
    );
    let (code, _, stderr) = sente(&[
        "tournament",
        "--game",
        "connect4",
        "--net",
        &candidate,
        "alphazero:net=candidate",
        "random",
    ]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("trained for tictactoe, not connect4"),
        "{stderr}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Hostile files and failing runs, as an operator meets them: a run that fails leaves its
/// output as it was (even when the output is its own input); what is not a regular file is
/// refused before it is opened (a FIFO would wait for ever, /dev/zero never end); a bad
/// line of training data is refused naming its file and line, and nothing is written.
#[test]
fn failing_runs_keep_their_outputs_and_hostile_inputs_are_refused() {
    let dir = std::env::temp_dir().join(format!("sente-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = |file: &std::path::Path| file.to_str().unwrap().to_owned();
    let keep = dir.join("keep.txt");
    std::fs::write(&keep, "precious\n").unwrap();
    let (code, _, stderr) = sente(&[
        "selfplay",
        "--game",
        "tictactoe",
        "--games",
        "2",
        "--net",
        "typo.net",
        "--output",
        &path(&keep),
    ]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("typo.net"), "{stderr}");
    let (code, _, stderr) = sente(&["positions", "missing.json", "--output", &path(&keep)]);
    assert_eq!(code, 2, "{stderr}");
    assert_eq!(std::fs::read_to_string(&keep).unwrap(), "precious\n");
    // The network as its own output: read first, replaced only by a finished run.
    let net = dir.join("net.bin");
    std::fs::write(&net, b"SENTEPV1 not a network").unwrap();
    let (code, _, stderr) = sente(&[
        "selfplay",
        "--game",
        "tictactoe",
        "--games",
        "2",
        "--net",
        &path(&net),
        "--output",
        &path(&net),
    ]);
    assert_eq!(code, 2, "{stderr}");
    assert_eq!(std::fs::read(&net).unwrap(), b"SENTEPV1 not a network");
    for special in ["/dev/zero", "/tmp"] {
        for args in [
            vec![
                "train",
                "--game",
                "chess",
                special,
                "--output",
                "never.nnue",
            ],
            vec![
                "train",
                "--game",
                "connect4",
                special,
                "--output",
                "never.net",
            ],
            vec!["positions", special],
            vec!["tournament", "merge", special],
            vec![
                "selfplay",
                "--game",
                "connect4",
                "--games",
                "1",
                "--net",
                special,
                "--output",
                "never.txt",
            ],
        ] {
            let (code, _, stderr) = sente(&args);
            assert_eq!(code, 2, "{args:?}: {stderr}");
            assert!(stderr.contains("not a regular file"), "{args:?}: {stderr}");
        }
    }
    assert!(!std::path::Path::new("never.txt").exists());
    let data = dir.join("bad.txt");
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    std::fs::write(&data, format!("{start} | 10 | 0.5\n{start} | NaN | 0.5\n")).unwrap();
    let out = dir.join("out.nnue");
    let (code, _, stderr) = sente(&[
        "train",
        "--game",
        "chess",
        &path(&data),
        "--output",
        &path(&out),
    ]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("bad.txt: line 2: the score"), "{stderr}");
    assert!(!out.exists());
    // Shogi's moves do not fit a policy-value network: refused before any game is played.
    let (code, _, stderr) = sente(&[
        "selfplay",
        "--game",
        "shogi",
        "--games",
        "1",
        "--output",
        &path(&dir.join("s.txt")),
    ]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("shogi has no AlphaZero network"),
        "{stderr}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A shogi position with more pieces than a set holds: refused where it is read, exit 2, on
/// every command (a capture once overflowed a hand: a panic, exit 101, or a tournament that
/// hung for ever).
#[test]
fn shogi_positions_with_more_pieces_than_a_set_are_refused_by_every_command() {
    let four_rooks = "4k4/9/9/9/9/4r4/4G4/9/4K4 b 3R 1";
    for args in [
        vec!["move", "--game", "shogi", "--board", four_rooks],
        vec!["analyze", "--game", "shogi", "--board", four_rooks],
        vec![
            "tournament",
            "engine:depth=1",
            "random",
            "--game",
            "shogi",
            "--board",
            four_rooks,
            "--games",
            "2",
        ],
    ] {
        let (code, _, stderr) = sente(&args);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(
            stderr.contains("Sente has 3 rooks and Gote 1: a set has 2"),
            "{args:?}: {stderr}"
        );
    }
}

/// A shard's records are replayed by the game's rules: a game longer than the rules allow, an
/// ending the moves do not make, a move no position allows or a winner who is no player are
/// refused, naming the file, the game and the field.
#[test]
fn merge_replays_each_record_and_refuses_what_the_game_could_not_produce() {
    let dir = std::env::temp_dir().join(format!("sente-replay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("shard.json");
    let (code, _, stderr) = sente(&[
        "tournament",
        "random",
        "random",
        "--games",
        "20",
        "--seed",
        "3",
        "--records",
        "--shard",
        "0/1",
        "--output",
        file.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    let shard: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    let won = (0..20)
        .map(|game| game.to_string())
        .find(|game| shard["results"]["games"][game]["ending"] == "won")
        .expect("a game of twenty is won");
    let tampered = dir.join("tampered.json");
    let merge = |change: &dyn Fn(&mut Value)| {
        let mut copy = shard.clone();
        change(&mut copy);
        std::fs::write(&tampered, copy.to_string()).unwrap();
        let (code, _, stderr) = sente(&["tournament", "merge", tampered.to_str().unwrap()]);
        assert_eq!(code, 2, "{stderr}");
        stderr
    };
    let stderr = merge(&|shard| {
        shard["results"]["games"][&won]["moves"] = json!([25000, 25000]);
        shard["setup"]["records"] = json!(false);
        shard["results"]["records"] = json!({});
    });
    assert!(
        stderr.contains(&format!(
            "game {won}: moves: 50000 plies, where a game of tictactoe lasts at most 9"
        )),
        "{stderr}"
    );
    let stderr = merge(&|shard| {
        shard["results"]["games"][&won]["ending"] = json!("checkmate");
        shard["results"]["records"][&won]["ended_by"] = json!("checkmate");
    });
    assert!(
        stderr.contains("ended_by: checkmate, where the moves end the game by won"),
        "{stderr}"
    );
    let stderr = merge(&|shard| shard["results"]["records"][&won]["moves"][0]["move"] = json!(99));
    assert!(
        stderr.contains(&format!("game {won}: records: move 1: ")),
        "{stderr}"
    );
    let stderr = merge(&|shard| shard["results"]["records"][&won]["winner"] = json!("nobody"));
    assert!(stderr.contains("winner: \"nobody\" for A's"), "{stderr}");
    let stderr = merge(&|shard| shard["results"]["records"][&won]["opening"] = json!(""));
    assert!(stderr.contains("records: opening: "), "{stderr}");
    // Untouched, it merges.
    let (code, _, stderr) = sente(&["tournament", "merge", file.to_str().unwrap()]);
    assert_eq!(code, 0, "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--records-dir`: each game of shogi a file of its own, in each format asked for, KIF in
/// Shift_JIS; a format the game has not, and a game with none, refused in words.
#[test]
fn each_game_is_a_file_of_the_record_formats_asked_for() {
    let dir = std::env::temp_dir().join(format!("sente-records-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let records = dir.join("games");
    let records = records.to_str().unwrap();
    let play = |game: &str, formats: &str| {
        sente(&[
            "tournament",
            "engine:depth=1",
            "alphabeta:depth=1",
            "--game",
            game,
            "--games",
            "2",
            "--max-plies",
            "6",
            "--records-dir",
            records,
            "--record-format",
            formats,
        ])
    };
    let (code, _, stderr) = play("shogi", "kif,CSA");
    assert_eq!(code, 0, "{stderr}");
    let mut names: Vec<String> = std::fs::read_dir(dir.join("games"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "game-0001.csa",
            "game-0001.kif",
            "game-0002.csa",
            "game-0002.kif"
        ]
    );
    let kif = std::fs::read(dir.join("games/game-0002.kif")).unwrap();
    let (text, _, malformed) = encoding_rs::SHIFT_JIS.decode(&kif);
    assert!(!malformed && std::str::from_utf8(&kif).is_err());
    assert!(text.contains("棋戦：Sente tournament 第2局\n"), "{text}");
    assert!(text.contains("   7 持将棋\nまで6手で持将棋\n"), "{text}");
    let csa = std::fs::read_to_string(dir.join("games/game-0001.csa")).unwrap();
    assert!(csa.ends_with("%JISHOGI\n"), "{csa}");
    let (code, _, stderr) = play("shogi", "kif,pgn");
    assert_ne!(code, 0);
    assert!(
        stderr.contains("shogi records in KIF, KIFU, CSA, not \"pgn\""),
        "{stderr}"
    );
    let (code, _, stderr) = play("chess", "kif");
    assert_ne!(code, 0);
    assert!(
        stderr.contains("chess records in PGN, not \"kif\""),
        "{stderr}"
    );
    let (code, _, stderr) = play("tictactoe", "kif");
    assert_ne!(code, 0);
    assert!(
        stderr.contains("tictactoe declares no record format"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--pgn FILE`: chess's games in one file, as `--records-dir` writes each (the same bytes, one
/// after another); a game from random plies written from the start. Refused for a game not
/// recorded in PGN.
#[test]
fn pgn_writes_every_game_of_chess_in_one_file() {
    let dir = std::env::temp_dir().join(format!("sente-pgn-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let pgn = dir.join("games.pgn");
    let records = dir.join("games");
    let play = |game: &str| {
        sente(&[
            "tournament",
            "engine:depth=1",
            "alphabeta:depth=1",
            "--game",
            game,
            "--games",
            "2",
            "--seed",
            "1",
            "--random-plies",
            "4",
            "--max-plies",
            "6",
            "--pgn",
            pgn.to_str().unwrap(),
            "--records-dir",
            records.to_str().unwrap(),
        ])
    };
    let (code, _, stderr) = play("chess");
    assert_eq!(code, 0, "{stderr}");
    let all = std::fs::read_to_string(&pgn).unwrap();
    let each: String = ["game-0001.pgn", "game-0002.pgn"]
        .iter()
        .map(|name| std::fs::read_to_string(records.join(name)).unwrap())
        .collect();
    assert_eq!(all, each);
    assert_eq!(
        all.matches("[Event \"Sente tournament\"]").count(),
        2,
        "{all}"
    );
    // The four random plies, then the six played: ten, from the start (no FEN).
    assert_eq!(all.matches("[PlyCount \"10\"]").count(), 2, "{all}");
    assert!(!all.contains("[FEN "), "{all}");
    assert!(all.contains("{max plies} 1/2-1/2\n\n"), "{all}");
    let (code, _, stderr) = play("othello");
    assert_ne!(code, 0);
    assert!(
        stderr.contains("othello is not recorded in PGN"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
