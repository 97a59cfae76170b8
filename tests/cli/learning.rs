//! `sente learn`: a run killed at any point goes on, by the same command, from the first piece
//! it had not finished.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use super::{binary, sente};

/// The finished pieces of generation 1's self-play, with their bytes.
fn finished_pieces(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let folder = dir.join("generation-001/selfplay");
    let mut pieces: Vec<(PathBuf, Vec<u8>)> = std::fs::read_dir(&folder)
        .map(|entries| {
            entries
                .map(|entry| entry.unwrap().path())
                .filter(|path| {
                    let name = path.file_name().unwrap().to_string_lossy().into_owned();
                    name.starts_with("piece-") && name.ends_with(".json")
                })
                .map(|path| {
                    let bytes = std::fs::read(&path).unwrap();
                    (path, bytes)
                })
                .collect()
        })
        .unwrap_or_default();
    pieces.sort();
    pieces
}

#[test]
fn a_run_killed_in_the_middle_goes_on_where_it_stopped() {
    let dir = std::env::temp_dir().join(format!("sente-cli-learn-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let dir_text = dir.to_string_lossy().into_owned();
    let args = [
        "learn",
        "--game",
        "othello",
        "--dir",
        &dir_text,
        "--games",
        "40",
        "--pieces",
        "10",
        "--nodes",
        "3000",
        "--epochs",
        "1",
        "--learning-rate",
        "0.01",
        "--sprt-knobs",
        "nodes=300",
        "--sprt-games",
        "8",
        "--sprt-piece-games",
        "4",
        "--threads",
        "1",
    ];
    let mut child = binary()
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary runs");
    let started = Instant::now();
    while finished_pieces(&dir).len() < 2 {
        assert!(
            child.try_wait().unwrap().is_none(),
            "it ended before it was killed"
        );
        assert!(
            started.elapsed() < Duration::from_secs(300),
            "no piece in 5 minutes"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let before = finished_pieces(&dir);
    assert!(
        before.len() < 10,
        "killed before self-play was over: {}",
        before.len()
    );

    let (code, answer, stderr) = sente(&args);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(answer["finished"][0]["generation"], 1, "{answer}");
    assert_eq!(answer["finished"][0]["games"], 40, "{answer}");
    assert_eq!(answer["next_generation"], 2);
    let after = finished_pieces(&dir);
    assert_eq!(after.len(), 10);
    for (path, bytes) in &before {
        let now = &after.iter().find(|(other, _)| other == path).unwrap().1;
        assert_eq!(now, bytes, "{} was played again", path.display());
    }
    assert!(dir.join("report.md").exists() && dir.join("elo.svg").exists());

    // A run keeps its settings; one started needs no --game, and a directory with none does.
    let (code, _, stderr) = sente(&["learn", "--dir", &dir_text, "--games", "50"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("games: 40, not 50"), "{stderr}");
    let empty = format!("{dir_text}-empty");
    let (code, _, stderr) = sente(&["learn", "--dir", &empty]);
    assert_eq!(code, 2);
    assert!(stderr.contains("give --game to start one"), "{stderr}");
    let (code, _, stderr) = sente(&["learn", "--dir", &dir_text, "--step", "promote"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("not trained yet"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}
