//! UCI: `uci`/`uciok`, `setoption`, `isready`/`readyok`, `ucinewgame`, then for each move
//! `position ... moves ...` and `go ...`, answered by `info` lines and a `bestmove`.
//!
//! USI, the Universal Shogi Interface, is UCI with shogi's words ([`Dialect::Usi`]): `usi` and
//! `usiok`, `usinewgame`, `position sfen`, the first player's clock as `btime` (Sente is Black),
//! a time per move as `byoyomi`, mates counted in plies, and `bestmove resign` or `bestmove
//! win` (a declaration by the entering-king rule, which the game reads as a move).

use std::time::Instant;

use super::{Ask, EngineOption, Failure, OptionKind, Process, Protocol, Thought};
use crate::search::Budget;
use crate::tournament::time_control::TimeControl;

/// Which of the two protocols: their exchanges are the same, their words are not.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Dialect {
    Uci,
    Usi,
}

impl Dialect {
    /// The UCI dialect `protocol` is, if it is one.
    pub(super) fn of(protocol: Protocol) -> Option<Dialect> {
        match protocol {
            Protocol::Uci => Some(Dialect::Uci),
            Protocol::Usi => Some(Dialect::Usi),
            Protocol::Xboard | Protocol::Xshogi | Protocol::Gtp => None,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Dialect::Uci => "uci",
            Dialect::Usi => "usi",
        }
    }
}

/// `uci` (or `usi`), answered by the engine's `id` and `option` lines and `uciok` (`usiok`):
/// the options it lists.
pub(super) fn handshake(
    process: &mut Process,
    dialect: Dialect,
    deadline: Instant,
    budget: &Budget,
) -> Result<Vec<EngineOption>, Failure> {
    process.send(dialect.name())?;
    let ok = format!("{}ok", dialect.name());
    let mut listed = Vec::new();
    process.wait_for(
        |line| {
            if line == ok {
                return Some(Ok(()));
            }
            let option = line.strip_prefix("option ")?;
            super::config::list(&mut listed, read_option(option), line.len())
                .err()
                .map(Err)
        },
        deadline,
        budget,
    )??;
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
    dialect: Dialect,
    deadline: Instant,
    budget: &Budget,
) -> Result<(), Failure> {
    process.send(&format!("{}newgame", dialect.name()))?;
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
    dialect: Dialect,
    ask: &Ask<'_>,
    budget: &Budget,
) -> Result<Thought, Failure> {
    process.send(&position(dialect, ask))?;
    process.send(&go(dialect, ask))?;
    let mut thought = Thought::default();
    process.wait_for(
        |line| {
            let mut words = line.split_whitespace();
            match words.next() {
                Some("info") => read_info(dialect, words, &mut thought),
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
    if dialect == Dialect::Usi && thought.best_move == "resign" {
        return Err(Failure::Resigned);
    }
    Ok(thought)
}

/// `position` for the game so far: its start (`startpos`, or the FEN) and every move since, so
/// that the engine knows the game's history (repetitions).
fn position(dialect: Dialect, ask: &Ask<'_>) -> String {
    let mut command = match (ask.start, dialect) {
        (None, _) => "position startpos".to_owned(),
        (Some(fen), Dialect::Uci) => format!("position fen {fen}"),
        (Some(sfen), Dialect::Usi) => format!("position sfen {sfen}"),
    };
    if !ask.moves.is_empty() {
        command.push_str(" moves ");
        command.push_str(&ask.moves.join(" "));
    }
    command
}

/// `go` with the player's limits: its clock and its opponent's, a time per move, nodes, depth.
fn go(dialect: Dialect, ask: &Ask<'_>) -> String {
    let mut go = "go".to_owned();
    match (ask.limits.time, dialect) {
        (TimeControl::None, _) => {}
        (TimeControl::PerMove(time), Dialect::Uci) => {
            go.push_str(&format!(" movetime {}", time.as_millis()));
        }
        // Every USI engine reads a byoyomi; not all read movetime.
        (TimeControl::PerMove(time), Dialect::Usi) => {
            go.push_str(&format!(" btime 0 wtime 0 byoyomi {}", time.as_millis()));
        }
        (TimeControl::Clock { increment, .. }, _) => {
            let ms = |clock: Option<std::time::Duration>| clock.map_or(0, |c| c.as_millis());
            let [mine, theirs] = ask.clocks.map(ms);
            // The first player is White in chess, Black (Sente) in shogi.
            let first_is_white = dialect == Dialect::Uci;
            let (white, black) = if ask.white == first_is_white {
                (mine, theirs)
            } else {
                (theirs, mine)
            };
            let inc = increment.as_millis();
            match dialect {
                Dialect::Uci => go.push_str(&format!(
                    " wtime {white} btime {black} winc {inc} binc {inc}"
                )),
                // USI's increments are optional, and some engines (gpsusi) stop at words they
                // do not know: a clock without one says none. A sudden-death clock is
                // `byoyomi 0`, which every engine reads.
                Dialect::Usi if inc == 0 => {
                    go.push_str(&format!(" btime {black} wtime {white} byoyomi 0"));
                }
                Dialect::Usi => go.push_str(&format!(
                    " btime {black} wtime {white} binc {inc} winc {inc}"
                )),
            }
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
fn read_info<'a>(
    dialect: Dialect,
    mut words: impl Iterator<Item = &'a str>,
    thought: &mut Thought,
) {
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
                    thought.mate = Some(match dialect {
                        Dialect::Uci => value,
                        // Plies to mate: the mating side's moves are every other one.
                        Dialect::Usi if value > 0 => (value + 1) / 2,
                        Dialect::Usi => value / 2,
                    });
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
    use crate::tournament::time_control::Limits;

    #[test]
    fn info_lines_give_the_last_depth_nodes_and_score() {
        let mut thought = Thought::default();
        let line = "depth 12 seldepth 15 multipv 1 score cp -31 nodes 12345 nps 1 pv e2e4";
        read_info(Dialect::Uci, line.split_whitespace(), &mut thought);
        assert_eq!(
            (
                thought.depth,
                thought.nodes,
                thought.centipawns,
                thought.mate
            ),
            (Some(12), Some(12345), Some(-31), None)
        );
        read_info(
            Dialect::Uci,
            "depth 13 score mate 3".split_whitespace(),
            &mut thought,
        );
        assert_eq!((thought.centipawns, thought.mate), (None, Some(3)));
        read_info(
            Dialect::Usi,
            "depth 13 score mate 3".split_whitespace(),
            &mut thought,
        );
        assert_eq!(thought.mate, Some(2));
        read_info(
            Dialect::Usi,
            "depth 13 score mate -4".split_whitespace(),
            &mut thought,
        );
        assert_eq!(thought.mate, Some(-2));
        read_info(
            Dialect::Uci,
            "string depth 99".split_whitespace(),
            &mut thought,
        );
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
        assert_eq!(position(Dialect::Uci, &ask), "position startpos moves e2e4");
        assert_eq!(
            go(Dialect::Uci, &ask),
            "go wtime 3000 btime 7000 winc 100 binc 100 nodes 5000"
        );
        // In shogi the second player (the engine here) is Gote, White: wtime is its clock.
        assert_eq!(
            go(Dialect::Usi, &ask),
            "go btime 3000 wtime 7000 binc 100 winc 100 nodes 5000"
        );
        let fen = "4k3/8/8/8/8/8/8/4K2R w K - 0 1";
        let untimed = Limits::default();
        let ask = Ask {
            start: Some(fen),
            moves: &[],
            limits: &untimed,
            ..ask
        };
        assert_eq!(position(Dialect::Uci, &ask), format!("position fen {fen}"));
        assert_eq!(go(Dialect::Uci, &ask), "go infinite");
        assert_eq!(position(Dialect::Usi, &ask), format!("position sfen {fen}"));
        let per_move = Limits {
            time: TimeControl::parse("0.5/move").unwrap(),
            ..Limits::default()
        };
        let ask = Ask {
            limits: &per_move,
            ..ask
        };
        assert_eq!(go(Dialect::Uci, &ask), "go movetime 500");
        assert_eq!(go(Dialect::Usi, &ask), "go btime 0 wtime 0 byoyomi 500");
    }
}
