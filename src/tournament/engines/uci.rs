//! UCI: `uci`/`uciok`, `setoption`, `isready`/`readyok`, `ucinewgame`, then for each move
//! `position ... moves ...` and `go ...`, answered by `info` lines and a `bestmove`.

use std::time::Instant;

use super::{Ask, EngineOption, Failure, OptionKind, Process, Thought};
use crate::search::Budget;
use crate::tournament::player::TimeControl;

/// `uci`, answered by the engine's `id` and `option` lines and `uciok`: the options it lists.
pub(super) fn handshake(
    process: &mut Process,
    deadline: Instant,
    budget: &Budget,
) -> Result<Vec<EngineOption>, Failure> {
    process.send("uci")?;
    let mut listed = Vec::new();
    process.wait_for(
        |line| {
            if line == "uciok" {
                return Some(());
            }
            if let Some(option) = line.strip_prefix("option ").and_then(read_option) {
                listed.push(option);
            }
            None
        },
        deadline,
        budget,
    )?;
    Ok(listed)
}

pub(super) fn set_options(
    process: &mut Process,
    options: &[&(String, String)],
) -> Result<(), Failure> {
    for (name, value) in options {
        process.send(&format!("setoption name {name} value {value}"))?;
    }
    Ok(())
}

pub(super) fn new_game(
    process: &mut Process,
    deadline: Instant,
    budget: &Budget,
) -> Result<(), Failure> {
    process.send("ucinewgame")?;
    ready(process, deadline, budget)
}

pub(super) fn ready(
    process: &mut Process,
    deadline: Instant,
    budget: &Budget,
) -> Result<(), Failure> {
    process.send("isready")?;
    process.wait_for(|line| (line == "readyok").then_some(()), deadline, budget)
}

/// An `option` line's option: `name N type T [default D] [min A] [max B] [var V]...`, where a
/// name, a default and each `var` may be several words.
fn read_option(line: &str) -> Option<EngineOption> {
    const KEYWORDS: [&str; 6] = ["name", "type", "default", "min", "max", "var"];
    let mut fields: Vec<(&str, Vec<&str>)> = Vec::new();
    for word in line.split_whitespace() {
        // A name ends only at `type`: it may hold any word.
        let starts_a_field = match fields.last() {
            None => word == "name",
            Some((current, _)) if *current == "name" => word == "type",
            Some(_) => KEYWORDS.contains(&word),
        };
        match fields.last_mut() {
            _ if starts_a_field => fields.push((word, Vec::new())),
            Some((_, words)) => words.push(word),
            None => return None,
        }
    }
    let field = |key: &str| {
        fields
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, words)| words.join(" "))
    };
    let name = field("name").filter(|name| !name.is_empty())?;
    let number = |key: &str| field(key).and_then(|value| value.parse().ok());
    let kind = match field("type")?.as_str() {
        "check" => OptionKind::Check,
        "spin" => OptionKind::Spin {
            min: number("min").unwrap_or(i64::MIN),
            max: number("max").unwrap_or(i64::MAX),
        },
        "combo" => OptionKind::Combo(
            fields
                .iter()
                .filter(|(key, _)| *key == "var")
                .map(|(_, words)| words.join(" "))
                .collect(),
        ),
        "button" => OptionKind::Button,
        _ => OptionKind::Text,
    };
    Some(EngineOption { name, kind })
}

pub(super) fn think(
    process: &mut Process,
    ask: &Ask<'_>,
    budget: &Budget,
) -> Result<Thought, Failure> {
    process.send(&position(ask))?;
    process.send(&go(ask))?;
    let mut thought = Thought::default();
    process.wait_for(
        |line| {
            let mut words = line.split_whitespace();
            match words.next() {
                Some("info") => read_info(words, &mut thought),
                Some("bestmove") => {
                    thought.best_move = words.next().unwrap_or_default().to_owned();
                    return Some(());
                }
                _ => {}
            }
            None
        },
        ask.deadline,
        budget,
    )?;
    Ok(thought)
}

/// `position` for the game so far: its start (`startpos`, or the FEN) and every move since, so
/// that the engine knows the game's history (repetitions).
fn position(ask: &Ask<'_>) -> String {
    let mut command = match ask.start {
        None => "position startpos".to_owned(),
        Some(fen) => format!("position fen {fen}"),
    };
    if !ask.moves.is_empty() {
        command.push_str(" moves ");
        command.push_str(&ask.moves.join(" "));
    }
    command
}

/// `go` with the player's limits: its clock and its opponent's, a time per move, nodes, depth.
fn go(ask: &Ask<'_>) -> String {
    let mut go = "go".to_owned();
    match ask.limits.time {
        TimeControl::None => {}
        TimeControl::PerMove(time) => go.push_str(&format!(" movetime {}", time.as_millis())),
        TimeControl::Clock { increment, .. } => {
            let ms = |clock: Option<std::time::Duration>| clock.map_or(0, |c| c.as_millis());
            let [mine, theirs] = ask.clocks.map(ms);
            let (white, black) = if ask.white {
                (mine, theirs)
            } else {
                (theirs, mine)
            };
            let inc = increment.as_millis();
            go.push_str(&format!(
                " wtime {white} btime {black} winc {inc} binc {inc}"
            ));
        }
    }
    if let Some(nodes) = ask.limits.nodes {
        go.push_str(&format!(" nodes {nodes}"));
    }
    if let Some(depth) = ask.limits.depth {
        go.push_str(&format!(" depth {depth}"));
    }
    if go == "go" {
        go.push_str(" infinite");
    }
    go
}

/// Reads an `info` line's depth, nodes and score into `thought` (a line without them, such as
/// `info string ...`, changes nothing).
fn read_info<'a>(mut words: impl Iterator<Item = &'a str>, thought: &mut Thought) {
    while let Some(word) = words.next() {
        match word {
            "depth" => thought.depth = words.next().and_then(|w| w.parse().ok()),
            "nodes" => thought.nodes = words.next().and_then(|w| w.parse().ok()),
            "score" => match (words.next(), words.next().and_then(|w| w.parse().ok())) {
                (Some("cp"), Some(value)) => {
                    thought.centipawns = Some(value);
                    thought.mate = None;
                }
                (Some("mate"), Some(value)) => {
                    thought.mate = Some(value);
                    thought.centipawns = None;
                }
                _ => {}
            },
            "string" => return,
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::tournament::player::Limits;

    #[test]
    fn info_lines_give_the_last_depth_nodes_and_score() {
        let mut thought = Thought::default();
        let line = "depth 12 seldepth 15 multipv 1 score cp -31 nodes 12345 nps 1 pv e2e4";
        read_info(line.split_whitespace(), &mut thought);
        assert_eq!(
            (
                thought.depth,
                thought.nodes,
                thought.centipawns,
                thought.mate
            ),
            (Some(12), Some(12345), Some(-31), None)
        );
        read_info("depth 13 score mate 3".split_whitespace(), &mut thought);
        assert_eq!((thought.centipawns, thought.mate), (None, Some(3)));
        read_info("string depth 99".split_whitespace(), &mut thought);
        assert_eq!(thought.depth, Some(13));
    }

    #[test]
    fn option_lines_give_the_name_and_the_values_it_takes() {
        let read = |line: &str| read_option(line).unwrap();
        let hash = read("name Hash type spin default 16 min 1 max 33554432");
        assert_eq!(hash.name, "Hash");
        assert_eq!(
            hash.kind,
            OptionKind::Spin {
                min: 1,
                max: 33554432
            }
        );
        let log = read("name Debug Log File type string default");
        assert_eq!(
            (log.name.as_str(), log.kind),
            ("Debug Log File", OptionKind::Text)
        );
        let style = read("name Style type combo default Normal var Solid var Risky Play");
        assert_eq!(
            style.kind,
            OptionKind::Combo(vec!["Solid".into(), "Risky Play".into()])
        );
        assert_eq!(
            read("name Ponder type check default false").kind,
            OptionKind::Check
        );
        assert_eq!(read("name Clear Hash type button").kind, OptionKind::Button);
        assert_eq!(read_option("type spin"), None);
        assert_eq!(read_option("name type spin"), None);
    }

    #[test]
    fn commands_carry_the_game_and_the_clocks() {
        let limits = Limits {
            time: TimeControl::parse("10+0.1").unwrap(),
            nodes: Some(5000),
            depth: None,
        };
        let moves = ["e2e4".to_owned()];
        let ask = Ask {
            start: None,
            moves: &moves,
            white: false,
            limits: &limits,
            clocks: [Some(Duration::from_secs(7)), Some(Duration::from_secs(3))],
            deadline: Instant::now(),
        };
        assert_eq!(position(&ask), "position startpos moves e2e4");
        assert_eq!(
            go(&ask),
            "go wtime 3000 btime 7000 winc 100 binc 100 nodes 5000"
        );
        let fen = "4k3/8/8/8/8/8/8/4K2R w K - 0 1";
        let untimed = Limits::default();
        let ask = Ask {
            start: Some(fen),
            moves: &[],
            limits: &untimed,
            ..ask
        };
        assert_eq!(position(&ask), format!("position fen {fen}"));
        assert_eq!(go(&ask), "go infinite");
    }
}
