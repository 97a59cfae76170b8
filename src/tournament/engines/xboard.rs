//! The xboard protocol (CECP, version 2), which engines older than UCI speak: Fairy-Max and
//! Phalanx among Debian's.
//!
//! Unlike UCI, the engine keeps the game itself: it is told `new` and `force` (play no move of
//! your own), the start (`setboard FEN`), and each move as it is played; `go` then asks it to
//! move for the side to move, and after its `move ...` it is put back in `force` mode. Its clock
//! is set with `level`, and before each move with `time` and `otim` (centiseconds).
//! With `post`, it reports `PLY SCORE TIME NODES PV` lines as it thinks.
//!
//! GNU Shogi speaks the protocol's ancestor, xshogi's ([`Protocol::Xshogi`]): no handshake and
//! no features (`xboard` and `protover` are "Illegal move"), no `setboard` (a game starts from
//! the start, its opening told as moves), no `otim`, and a move answered as `N. ... MOVE`, in
//! USI's notation. Its clock is `level MOVES MIN:SEC` alone, the time renewed every `MOVES`.

use std::time::{Duration, Instant};

use super::{Ask, EngineOption, Failure, OptionKind, Process, Protocol, Thought};
use crate::search::Budget;
use crate::tournament::time_control::TimeControl;

/// How long an engine has to announce its features after `protover 2`: an engine of the first
/// version of the protocol announces none, and the specification says to wait this long.
const FEATURE_TIME: Duration = Duration::from_secs(2);

/// The moves a time per move is given as one clock for: the engine shares the clock between
/// them, and before each move it is told what that clock would have left.
const PER_MOVE_SPAN: u32 = 40;

/// What the engine said it does, and where the game it knows stands.
#[derive(Clone, Debug, Default)]
pub struct State {
    setboard: bool,
    usermove: bool,
    ping: bool,
    /// Pings sent.
    pings: u32,
    /// The moves of the game the engine knows, once it knows the game's start.
    known: Option<usize>,
    /// Whether it speaks xshogi's protocol, GNU Shogi's.
    xshogi: bool,
}

/// The moves an xshogi engine's clock covers for a sudden-death clock: more than any game
/// lasts, so the time it is given is for the whole game.
const XSHOGI_GAME_SPAN: u32 = 600;

/// `xboard` and `protover 2`, answered by the engine's features: what it does, and the options
/// it lists (`feature option="NAME -TYPE ..."`).
pub(super) fn handshake(
    process: &mut Process,
    protocol: Protocol,
    deadline: Instant,
    budget: &Budget,
) -> Result<(State, Vec<EngineOption>), Failure> {
    if protocol == Protocol::Xshogi {
        // No handshake to make: the engine lists nothing, and whether it lives shows at the
        // first move.
        let state = State {
            xshogi: true,
            ..State::default()
        };
        return Ok((state, Vec::new()));
    }
    process.send("xboard")?;
    process.send("protover 2")?;
    let mut state = State::default();
    let mut listed = Vec::new();
    let features_by = deadline.min(Instant::now() + FEATURE_TIME);
    let features = process.wait_for(
        |line| {
            let rest = line.strip_prefix("feature ")?;
            for (name, value) in features(rest) {
                match name {
                    "setboard" => state.setboard = value == "1",
                    "usermove" => state.usermove = value == "1",
                    "ping" => state.ping = value == "1",
                    "option" => {
                        if let Err(failure) =
                            super::config::list(&mut listed, read_option(value), rest.len())
                        {
                            return Some(Err(failure));
                        }
                    }
                    "san" if value == "1" => {
                        return Some(Err(Failure::Crashed(
                            "the engine asks for san moves, which Sente does not send".to_owned(),
                        )));
                    }
                    "done" if value == "1" => return Some(Ok(())),
                    _ => {}
                }
            }
            None
        },
        features_by,
        budget,
    );
    match features {
        Ok(Ok(())) | Err(Failure::TimedOut(_)) => {}
        Ok(Err(failure)) | Err(failure) => return Err(failure),
    }
    Ok((state, listed))
}

pub(super) fn set_options(
    process: &mut Process,
    options: &[&(String, String)],
) -> Result<(), Failure> {
    for (name, value) in options {
        process.send(&format!("option {name}={value}"))?;
    }
    Ok(())
}

/// An option feature's value, `NAME -TYPE ...`: `-check 0`, `-spin 16 1 1024`, `-combo A ///
/// *B`, `-string`, `-file`, `-path`, `-button`, `-save`, `-reset`, `-slider`.
fn read_option(value: &str) -> Option<EngineOption> {
    let (name, rest) = value.split_once(" -")?;
    let mut words = rest.split_whitespace();
    let kind = match words.next()? {
        "check" => OptionKind::Check,
        "spin" | "slider" => {
            let mut numbers = words.skip(1).map(|word| word.parse().ok());
            OptionKind::Spin {
                min: numbers.next().flatten().unwrap_or(i64::MIN),
                max: numbers.next().flatten().unwrap_or(i64::MAX),
            }
        }
        "combo" => {
            let values = rest.trim_start().strip_prefix("combo").unwrap_or_default();
            OptionKind::Combo(
                values
                    .split("///")
                    .map(|value| value.trim().trim_start_matches('*').to_owned())
                    .collect(),
            )
        }
        "button" | "save" | "reset" => OptionKind::Button,
        _ => OptionKind::Text,
    };
    let name = name.trim();
    (!name.is_empty()).then(|| EngineOption {
        name: name.to_owned(),
        kind,
    })
}

/// `name=value` pairs of a `feature` line, values in quotes kept whole.
fn features(line: &str) -> Vec<(&str, &str)> {
    let mut pairs = Vec::new();
    let mut rest = line.trim();
    while let Some((name, after)) = rest.split_once('=') {
        let (value, next) = match after.strip_prefix('"') {
            Some(quoted) => quoted.split_once('"').unwrap_or((quoted, "")),
            None => after.split_once(' ').unwrap_or((after, "")),
        };
        pairs.push((name.trim(), value));
        rest = next.trim();
    }
    pairs
}

pub(super) fn new_game(
    process: &mut Process,
    state: &mut State,
    deadline: Instant,
    budget: &Budget,
) -> Result<(), Failure> {
    let commands: &[&str] = if state.xshogi {
        &["new", "force"]
    } else {
        &["new", "force", "post", "easy"]
    };
    for command in commands {
        process.send(command)?;
    }
    state.known = None;
    if state.ping {
        state.pings += 1;
        let pong = format!("pong {}", state.pings);
        process.send(&format!("ping {}", state.pings))?;
        process.wait_for(|line| (line == pong).then_some(()), deadline, budget)?;
    }
    Ok(())
}

pub(super) fn think(
    process: &mut Process,
    state: &mut State,
    ask: &Ask<'_>,
    budget: &Budget,
) -> Result<Thought, Failure> {
    let known = match state.known {
        Some(known) if known <= ask.moves.len() => known,
        _ => {
            if let Some(fen) = ask.start {
                if !state.setboard {
                    return Err(Failure::Crashed(
                        "the engine cannot be given a position (no setboard feature)".into(),
                    ));
                }
                process.send(&format!("setboard {fen}"))?;
            }
            match ask.limits.time {
                // xshogi's clock renews every so many moves, and has no increment.
                TimeControl::Clock { base, .. } if state.xshogi => process.send(&format!(
                    "level {XSHOGI_GAME_SPAN} {}",
                    minutes_and_seconds(base)
                ))?,
                TimeControl::Clock { base, increment } => process.send(&format!(
                    "level 0 {} {}",
                    minutes_and_seconds(base),
                    increment.as_secs_f64()
                ))?,
                // `st` takes whole seconds in most engines; a time per move is a clock of
                // that much for each of the moves to the next time control instead, reset
                // before each move.
                TimeControl::PerMove(time) => {
                    let clock = time * PER_MOVE_SPAN;
                    process.send(&format!(
                        "level {PER_MOVE_SPAN} {} 0",
                        minutes_and_seconds(clock)
                    ))?;
                }
                TimeControl::None => {}
            }
            if let Some(depth) = ask.limits.depth {
                process.send(&format!("sd {depth}"))?;
            }
            0
        }
    };
    for mv in &ask.moves[known..] {
        match state.usermove {
            true => process.send(&format!("usermove {mv}"))?,
            false => process.send(mv)?,
        }
    }
    let centiseconds = |clock: Duration| clock.as_millis() / 10;
    match ask.limits.time {
        // xshogi has no `otim`; its clock is its own.
        _ if state.xshogi => {}
        TimeControl::Clock { .. } => {
            let [mine, theirs] = ask
                .clocks
                .map(|clock| centiseconds(clock.unwrap_or_default()));
            process.send(&format!("time {mine}"))?;
            process.send(&format!("otim {theirs}"))?;
        }
        TimeControl::PerMove(time) => {
            // The clock a time per move would leave at this point of the 40-move span, as
            // the engine counts its moves from the game's start: shared over the moves still
            // to go, it comes to the time per move, where a full span's clock each move
            // would give the later moves of the span ever more.
            let to_go = PER_MOVE_SPAN - (ask.moves.len() as u32 / 2) % PER_MOVE_SPAN;
            let clock = centiseconds(time * to_go);
            process.send(&format!("time {clock}"))?;
            process.send(&format!("otim {clock}"))?;
        }
        TimeControl::None => {}
    }
    process.send("go")?;
    let xshogi = state.xshogi;
    let mut thought = Thought::default();
    let answer = process.wait_for(
        |line| {
            if let Some(mv) = line.strip_prefix("move ") {
                thought.best_move = mv.trim().to_owned();
                return Some(Ok(()));
            }
            if xshogi && let Some(mv) = xshogi_move(line) {
                thought.best_move = mv.to_owned();
                return Some(Ok(()));
            }
            if line == "resign" || line.starts_with("tellics resign") {
                return Some(Err(Failure::Resigned));
            }
            if line.starts_with("Illegal move") || line.starts_with("Error") {
                return Some(Err(Failure::Crashed(format!("the engine said {line:?}"))));
            }
            read_thinking(line, &mut thought);
            None
        },
        ask.deadline,
        budget,
    )?;
    answer?;
    process.send("force")?;
    state.known = Some(ask.moves.len() + 1);
    Ok(thought)
}

/// A `level` command's base time: minutes, or `minutes:seconds` (whole seconds, at least one).
/// The engine's own move in an xshogi line, `12. ... 7g7f 298980`; not a move it echoes back,
/// `12. 7g7f 300000`.
fn xshogi_move(line: &str) -> Option<&str> {
    let (number, rest) = line.split_once(". ... ")?;
    number.parse::<u32>().ok()?;
    rest.split_whitespace().next()
}

fn minutes_and_seconds(time: Duration) -> String {
    let seconds = time.as_secs().max(1);
    match seconds % 60 {
        0 => (seconds / 60).to_string(),
        rest => format!("{}:{rest:02}", seconds / 60),
    }
}

/// Reads a thinking line, `PLY SCORE TIME NODES PV...`, into `thought`.
fn read_thinking(line: &str, thought: &mut Thought) {
    let mut words = line.split_whitespace();
    let mut number = || {
        words
            .next()
            .and_then(|word| word.trim_end_matches(['.', '&']).parse::<i64>().ok())
    };
    if let (Some(ply), Some(score), Some(_time), Some(nodes)) =
        (number(), number(), number(), number())
    {
        thought.depth = u32::try_from(ply).ok();
        thought.centipawns = i32::try_from(score).ok();
        thought.mate = None;
        thought.nodes = u64::try_from(nodes).ok();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features_are_read_with_their_quoted_values() {
        let line = "setboard=1 myname=\"Fairy-Max 5.0b\" usermove=1 done=0";
        assert_eq!(
            features(line),
            vec![
                ("setboard", "1"),
                ("myname", "Fairy-Max 5.0b"),
                ("usermove", "1"),
                ("done", "0")
            ]
        );
    }

    #[test]
    fn option_features_give_the_name_and_the_values_it_takes() {
        let option = |value: &str| read_option(value).unwrap();
        assert_eq!(
            option("Resign Threshold -spin 800 200 1200"),
            EngineOption {
                name: "Resign Threshold".into(),
                kind: OptionKind::Spin {
                    min: 200,
                    max: 1200
                }
            }
        );
        assert_eq!(option("Ponder -check 0").kind, OptionKind::Check);
        assert_eq!(
            option("Style -combo Solid /// *Normal").kind,
            OptionKind::Combo(vec!["Solid".into(), "Normal".into()])
        );
        assert_eq!(option("Book -file book.bin").kind, OptionKind::Text);
        assert_eq!(read_option("-check 0"), None);
    }

    #[test]
    fn an_xshogi_engine_s_own_move_is_read_and_its_echo_of_ours_is_not() {
        assert_eq!(xshogi_move("1. ... 3a3b 296100"), Some("3a3b"));
        assert_eq!(xshogi_move("12. ... P*5e 1000"), Some("P*5e"));
        assert_eq!(xshogi_move("1. 7g7f 300000"), None);
        assert_eq!(xshogi_move("Clocks: 20000 20000"), None);
        assert_eq!(xshogi_move("x. ... 7g7f"), None);
    }

    #[test]
    fn thinking_lines_give_depth_score_and_nodes() {
        let mut thought = Thought::default();
        read_thinking("  7     31      12     45210 e2e4 e7e5 g1f3", &mut thought);
        assert_eq!(
            (thought.depth, thought.centipawns, thought.nodes),
            (Some(7), Some(31), Some(45210))
        );
        read_thinking("tellics say hello", &mut thought);
        assert_eq!(thought.depth, Some(7));
        assert_eq!(minutes_and_seconds(Duration::from_secs(90)), "1:30");
        assert_eq!(minutes_and_seconds(Duration::from_secs(120)), "2");
    }
}
