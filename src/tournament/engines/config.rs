//! An engine as it is configured: its name, program, protocol and options, what a request may
//! change, and the bounds on what it may list.

use std::path::PathBuf;
use std::time::Duration;

use super::Failure;
use crate::game::text::excerpt;

/// An engine the service or the command line was configured with: a name requests use, the
/// program, the protocol it speaks, the options it is always given, and what a request may
/// change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineConfig {
    pub name: String,
    pub path: PathBuf,
    /// What the program is started with (`args=-l 4`): GTP engines take their level so.
    pub args: Vec<String>,
    pub protocol: Protocol,
    /// Options set at `--engine`: every game's, and a request may not change them.
    pub options: Vec<(String, String)>,
    /// The options a request may set (`settable=A|B`); `None` for the default: those of the
    /// engine's own that take a value in a range or from a list (check, spin, combo), never a
    /// text (a file's path, say).
    pub settable: Option<Vec<String>>,
    /// The most a request may give the engine's `Hash` (MiB) and `Threads`.
    pub max_hash: u64,
    pub max_threads: u64,
    /// The options the engine listed when it was first started ([`EngineConfig::probe`]); `None`
    /// before.
    pub listed: Option<Vec<EngineOption>>,
    /// How long it may take to answer its handshake and each `isready` (`handshake_ms=`).
    pub handshake: Duration,
    /// How far past a fixed time per move its answer may come before it loses on time
    /// (`margin_ms=`): an engine that is slow to stop needs more than one that stops at once.
    pub move_margin: Duration,
}

/// Default of [`EngineConfig::max_hash`]: a request's engine never takes more memory than a
/// few of Sente's own searches.
pub const DEFAULT_MAX_HASH_MB: u64 = 64;
/// Default of [`EngineConfig::max_threads`]: a tournament already plays on every core, one game
/// per core.
pub const DEFAULT_MAX_THREADS: u64 = 1;

/// An option as an engine lists it (`option name Hash type spin default 16 min 1 max 33554432`
/// in UCI, `feature option="Hash -spin 16 1 1024"` in xboard).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOption {
    pub name: String,
    pub kind: OptionKind,
}

/// What values an option takes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// `true` or `false`.
    Check,
    /// A whole number between two bounds.
    Spin { min: i64, max: i64 },
    /// One of a list.
    Combo(Vec<String>),
    /// No value: an action (`Clear Hash`).
    Button,
    /// Any text: a name, a file's path.
    Text,
}

/// How an engine is spoken to.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Protocol {
    Uci,
    Usi,
    Xboard,
    /// xboard's first version as xshogi spoke it to GNU Shogi: no handshake, no features.
    Xshogi,
    /// The Go Text Protocol, as Othello engines speak it.
    Gtp,
}

impl Protocol {
    /// Its name, as `protocol=` gives it and games' declarations list it.
    pub fn name(self) -> &'static str {
        match self {
            Protocol::Uci => "uci",
            Protocol::Usi => "usi",
            Protocol::Xboard => "xboard",
            Protocol::Xshogi => "xshogi",
            Protocol::Gtp => "gtp",
        }
    }
}

impl EngineConfig {
    /// An engine at `path` with nothing else set.
    pub fn new(name: &str, path: impl Into<PathBuf>, protocol: Protocol) -> EngineConfig {
        EngineConfig {
            name: name.to_owned(),
            path: path.into(),
            args: Vec::new(),
            protocol,
            options: Vec::new(),
            settable: None,
            max_hash: DEFAULT_MAX_HASH_MB,
            max_threads: DEFAULT_MAX_THREADS,
            listed: None,
            handshake: HANDSHAKE_TIME,
            move_margin: crate::tournament::time_control::MOVE_TIME_MARGIN,
        }
    }

    /// Reads `NAME=PATH[,protocol=usi|xboard|xshogi|gtp][,args=ARGS][,settable=A|B]
    /// [,max_hash=MB][,max_threads=N][,handshake_ms=MS][,margin_ms=MS][,OPTION=VALUE...]`, as
    /// `--engine` gives it; UCI unless `protocol` says otherwise.
    pub fn parse(text: &str) -> Result<EngineConfig, String> {
        let mut parts = text.split(',');
        let head = parts.next().unwrap_or_default();
        let (name, path) = head
            .split_once('=')
            .filter(|(name, path)| !name.trim().is_empty() && !path.trim().is_empty())
            .ok_or_else(|| {
                format!(
                    "expected NAME=PATH[,OPTION=VALUE...], e.g. \
                     stockfish=/usr/games/stockfish, got {:?}",
                    excerpt(text)
                )
            })?;
        let mut config = EngineConfig::new(name.trim(), path.trim(), Protocol::Uci);
        for option in parts {
            let (name, value) = option
                .split_once('=')
                .map(|(name, value)| (name.trim(), value.trim()))
                .filter(|(name, _)| !name.is_empty())
                .ok_or_else(|| {
                    format!(
                        "expected OPTION=VALUE after the path, got {:?}",
                        excerpt(option)
                    )
                })?;
            let count = |value: &str| {
                value
                    .parse::<u64>()
                    .ok()
                    .filter(|n| *n >= 1)
                    .ok_or_else(|| {
                        format!(
                            "{name} is a whole number, 1 or more, got {:?}",
                            excerpt(value)
                        )
                    })
            };
            match (name, value) {
                ("protocol", "uci") => config.protocol = Protocol::Uci,
                ("protocol", "usi") => config.protocol = Protocol::Usi,
                ("protocol", "xboard") => config.protocol = Protocol::Xboard,
                ("protocol", "xshogi") => config.protocol = Protocol::Xshogi,
                ("protocol", "gtp") => config.protocol = Protocol::Gtp,
                ("protocol", other) => {
                    return Err(format!(
                        "protocol is uci, usi, xboard, xshogi or gtp, got {:?}",
                        excerpt(other)
                    ));
                }
                ("settable", names) => {
                    config.settable = Some(
                        names
                            .split('|')
                            .map(str::trim)
                            .filter(|name| !name.is_empty())
                            .map(str::to_owned)
                            .collect(),
                    );
                }
                ("args", value) => {
                    config.args = value.split_whitespace().map(str::to_owned).collect();
                }
                ("max_hash", value) => config.max_hash = count(value)?,
                ("max_threads", value) => config.max_threads = count(value)?,
                ("handshake_ms", value) => {
                    config.handshake = milliseconds(name, value, 1, MAX_HANDSHAKE_TIME)?;
                }
                ("margin_ms", value) => {
                    config.move_margin = milliseconds(name, value, 0, MAX_MOVE_MARGIN)?;
                }
                _ => config.options.push((name.to_owned(), value.to_owned())),
            }
        }
        Ok(config)
    }

    /// The option of the engine's list named `name` (UCI's names are not case sensitive).
    pub fn listed_option(&self, name: &str) -> Option<&EngineOption> {
        self.listed
            .as_deref()?
            .iter()
            .find(|option| option.name.eq_ignore_ascii_case(name))
    }

    /// Whether a request may set the option named `name` (as the engine lists it).
    pub fn may_set(&self, option: &EngineOption) -> bool {
        let fixed = self
            .options
            .iter()
            .any(|(name, _)| name.eq_ignore_ascii_case(&option.name));
        !fixed
            && match &self.settable {
                Some(names) => names
                    .iter()
                    .any(|name| name.eq_ignore_ascii_case(&option.name)),
                None => matches!(
                    option.kind,
                    OptionKind::Check | OptionKind::Spin { .. } | OptionKind::Combo(_)
                ),
            }
    }

    /// The most a request may give the option `name` where the operator bounds it (`Hash`,
    /// `Threads`).
    pub fn operator_max(&self, name: &str) -> Option<u64> {
        if name.eq_ignore_ascii_case("Hash") {
            Some(self.max_hash)
        } else if name.eq_ignore_ascii_case("Threads") {
            Some(self.max_threads)
        } else {
            None
        }
    }
}

impl OptionKind {
    /// Whether `value` is one this option takes; why not if not.
    pub fn check(&self, value: &str) -> Result<(), String> {
        match self {
            OptionKind::Check if value == "true" || value == "false" => Ok(()),
            OptionKind::Check => Err(format!("is true or false, got {:?}", excerpt(value))),
            OptionKind::Spin { min, max } => match value.parse::<i64>() {
                Ok(n) if (*min..=*max).contains(&n) => Ok(()),
                _ => Err(format!(
                    "is a whole number from {min} to {max}, got {:?}",
                    excerpt(value)
                )),
            },
            OptionKind::Combo(values) if values.iter().any(|v| v == value) => Ok(()),
            OptionKind::Combo(values) => Err(format!(
                "is one of {}, got {:?}",
                values.join(", "),
                excerpt(value)
            )),
            OptionKind::Button | OptionKind::Text => Ok(()),
        }
    }
}

/// How long an engine may take to answer its handshake (`uciok`, or xboard's features) and
/// each `isready` (or `ping`) by default: an engine that does not answer by then has failed,
/// as fastchess has it, and does not hold its game, its tournament's slot or its worker
/// longer. `handshake_ms=` sets it for an engine that starts slowly (one that loads a large
/// evaluation file).
pub const HANDSHAKE_TIME: Duration = Duration::from_secs(5);

/// The most `handshake_ms=` may give.
pub const MAX_HANDSHAKE_TIME: Duration = Duration::from_secs(600);

/// The most `margin_ms=` may give.
pub const MAX_MOVE_MARGIN: Duration = Duration::from_secs(60);

/// The most options an engine may list in its handshake (engines list tens): one that lists
/// more has failed, and is stopped, rather than fill the service's memory with them.
pub const MAX_LISTED_OPTIONS: usize = 512;

/// The longest an option's line may be: a name and a few values, or a combo of tens of them.
pub const MAX_OPTION_BYTES: usize = 4 * 1024;

/// Adds the option an engine listed in a line of `bytes`, or fails an engine whose listing
/// passes the bounds ([`MAX_LISTED_OPTIONS`], [`MAX_OPTION_BYTES`]).
pub(super) fn list(
    listed: &mut Vec<EngineOption>,
    option: Option<EngineOption>,
    bytes: usize,
) -> Result<(), Failure> {
    if bytes > MAX_OPTION_BYTES {
        return Err(Failure::Crashed(format!(
            "listed an option of {bytes} bytes in its handshake, more than the {MAX_OPTION_BYTES} \
             an option may take: stopped"
        )));
    }
    if listed.len() == MAX_LISTED_OPTIONS {
        return Err(Failure::Crashed(format!(
            "listed more than {MAX_LISTED_OPTIONS} options in its handshake: stopped"
        )));
    }
    listed.extend(option);
    Ok(())
}

/// A whole number of milliseconds from `min` to `max`, as `--engine` gives one.
fn milliseconds(name: &str, value: &str, min: u64, max: Duration) -> Result<Duration, String> {
    let max_ms = max.as_millis() as u64;
    value
        .parse::<u64>()
        .ok()
        .filter(|ms| (min..=max_ms).contains(ms))
        .map(Duration::from_millis)
        .ok_or_else(|| {
            format!(
                "{name} is a whole number of milliseconds from {min} to {max_ms}, got {:?}",
                excerpt(value)
            )
        })
}
