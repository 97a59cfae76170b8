//! What a tournament is (its [`Setup`]) and what its results say ([`Report`]): the totals,
//! each player's, the statistics, the SPRT; and its games as PGN, or in the game's own record
//! format (shogi's KIF).

use std::collections::BTreeMap;
use std::ops::Range;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::adjudication::Adjudication;
use super::openings::RandomOpenings;
use super::results::{GameRecord, Record, Results};
use super::statistics::{Estimate, Sprt, Verdict, wilson_interval};
use crate::game::{Player, RecordFormat, RecordedGame, RecordedMove};
use crate::rounded;
use crate::search::Algorithm;

/// What a tournament played: everything its answer says besides the results, so that shards'
/// results can be merged and answered as one run's.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Setup {
    pub game: String,
    pub games: Range<u64>,
    pub seed: u64,
    pub openings: OpeningsInfo,
    pub max_plies: Option<usize>,
    pub players: [PlayerInfo; 2],
    pub sprt: Option<Sprt>,
    pub adjudication: Adjudication,
    pub records: bool,
}

/// Where the games started: how many listed positions, or how they were drawn.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum OpeningsInfo {
    Listed(usize),
    Random(RandomOpenings),
}

/// Who a player is, as answers name it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerInfo {
    /// Sente's algorithm, for Sente's players.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub algorithm: Option<Algorithm>,
    /// The engine's name, for external engines.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub engine: Option<String>,
    /// Its time control, as the request wrote it.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub tc: Option<String>,
    /// The knobs the request gave it (an engine's options and node limit, for an engine), so
    /// that two players of one algorithm can be told apart.
    #[serde(skip_serializing_if = "BTreeMap::is_empty", default)]
    pub settings: BTreeMap<String, serde_json::Value>,
}

impl PlayerInfo {
    /// The name games are recorded under.
    pub fn name(&self) -> String {
        match (&self.engine, self.algorithm) {
            (Some(engine), _) => engine.clone(),
            (None, Some(algorithm)) => format!("Sente {algorithm}"),
            (None, None) => "?".into(),
        }
    }
}

/// What a tournament's results say: the answer to a tournament request.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    pub game: String,
    /// Games asked for (the request's `games`, or the game's default).
    pub games_requested: u64,
    /// Games played to their end; the totals count these only.
    pub games: u64,
    /// Whether the tournament has its answer: every requested game played, or the SPRT
    /// decided.
    pub complete: bool,
    /// In a streamed progress line, whether the tournament is still being played (its
    /// answer, the last line, never is).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub running: bool,
    /// Why it stopped before every requested game was played: `sprt`, the test decided;
    /// `time_limit`, the server's limit for tournaments (`tournament_time_limit_ms` in `GET
    /// /limits`); `cancelled`. (A client that goes away gets no answer.)
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped_by: Option<&'static str>,
    pub first_game: u64,
    pub seed: u64,
    /// How many positions the games started from, each played with both colours; or how
    /// openings were drawn.
    pub openings: OpeningsInfo,
    /// The cap on plies, when the request set one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_plies: Option<usize>,
    /// Games adjudicated a draw at the cap.
    pub capped_games: u64,
    /// Games by how they ended.
    pub endings: BTreeMap<&'static str, u64>,
    #[serde(serialize_with = "rounded::to::<1, _>")]
    pub elapsed_ms: f64,
    #[serde(serialize_with = "rounded::to::<3, _>")]
    pub games_per_second: f64,
    pub players: [PlayerSummary; 2],
    /// The pairs of games played from one opening with each player first once (games `2k` and
    /// `2k + 1`), complete among the games played.
    pub pairs: u64,
    /// Those pairs by A's points: `[LL, LD, DD + WL, WD, WW]`.
    pub pentanomial: [u64; 5],
    /// The share of games drawn.
    #[serde(serialize_with = "rounded::to::<4, _>")]
    pub draw_ratio: f64,
    /// What the results say of A against B (Elo with its interval, normalized Elo, LOS), from
    /// the pairs when every game played is in one, else from single games; absent when the
    /// results have no spread to judge by (every game won, or drawn, say).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub estimate: Option<Estimate>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sprt: Option<SprtState>,
    /// Every game, when the request asked for them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub records: Option<Vec<GameRecord>>,
}

/// One player's results, as reported.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayerSummary {
    #[serde(flatten)]
    pub player: PlayerInfo,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// A win is 1 point, a draw 0.5.
    pub points: f64,
    /// Points per game.
    #[serde(serialize_with = "rounded::to::<4, _>")]
    pub score_rate: f64,
    /// 95% Wilson interval for the score rate.
    #[serde(serialize_with = "rounded::pair::<4, _>")]
    pub ci95: [f64; 2],
    pub as_first: Record,
    pub as_second: Record,
    pub nodes: u64,
    pub moves: u64,
    #[serde(serialize_with = "rounded::to::<1, _>")]
    pub nodes_per_move: f64,
}

/// Where the SPRT stands.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SprtState {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    /// The Elo model of `elo0` and `elo1`: `logistic`.
    pub elo_model: &'static str,
    /// The log-likelihood ratio of H1 against H0, from the pairs (pentanomial) when every game
    /// is in one, else from single games.
    #[serde(serialize_with = "rounded::to::<3, _>")]
    pub llr: f64,
    /// Below the first H0 is accepted, above the second H1.
    #[serde(serialize_with = "rounded::pair::<3, _>")]
    pub bounds: [f64; 2],
    /// `h0`, `h1`, or `running`.
    pub verdict: Verdict,
}

impl Setup {
    /// What `results` of this tournament say, played in `elapsed`; the games past the one at
    /// which its SPRT decided are left out. `cut_short` says why it stopped, if not by time.
    pub fn report(
        &self,
        mut results: Results,
        elapsed: Duration,
        cut_short: Option<&'static str>,
    ) -> Report {
        let setup = self;
        let decided = results.settle(setup.sprt, &setup.games);
        let tally = results.tally();
        let seconds = elapsed.as_secs_f64();
        let requested = setup.games.end - setup.games.start;
        let complete = tally.games == requested || decided.is_some();
        let moments = tally.moments();
        let players = [0, 1].map(|seat| {
            let player = &tally.players[seat];
            let total = player.total();
            let points = total.wins as f64 + 0.5 * total.draws as f64;
            let games = total.games();
            let score_rate = if games == 0 {
                0.0
            } else {
                points / games as f64
            };
            PlayerSummary {
                player: setup.players[seat].clone(),
                wins: total.wins,
                draws: total.draws,
                losses: total.losses,
                points,
                score_rate,
                ci95: wilson_interval(score_rate, games),
                as_first: player.as_first,
                as_second: player.as_second,
                nodes: player.nodes,
                moves: player.moves,
                nodes_per_move: if player.moves == 0 {
                    0.0
                } else {
                    player.nodes as f64 / player.moves as f64
                },
            }
        });
        Report {
            game: setup.game.clone(),
            games_requested: requested,
            games: tally.games,
            complete,
            running: false,
            stopped_by: match decided {
                Some(_) if tally.games < requested => Some("sprt"),
                _ if !complete => Some(cut_short.unwrap_or("time_limit")),
                _ => None,
            },
            first_game: setup.games.start,
            seed: setup.seed,
            openings: setup.openings.clone(),
            max_plies: setup.max_plies,
            capped_games: tally.endings.get("max_plies").copied().unwrap_or(0),
            endings: tally.endings.clone(),
            elapsed_ms: seconds * 1e3,
            games_per_second: if seconds > 0.0 {
                tally.games as f64 / seconds
            } else {
                0.0
            },
            players,
            pairs: tally.pairs.pairs(),
            pentanomial: tally.pairs.0,
            draw_ratio: if tally.games == 0 {
                0.0
            } else {
                tally.players[0].total().draws as f64 / tally.games as f64
            },
            estimate: moments.estimate(),
            sprt: setup.sprt.map(|sprt| {
                let llr = sprt.llr(&moments);
                SprtState {
                    elo0: sprt.elo0,
                    elo1: sprt.elo1,
                    alpha: sprt.alpha,
                    beta: sprt.beta,
                    elo_model: "logistic",
                    llr,
                    bounds: sprt.bounds(),
                    verdict: decided.unwrap_or_else(|| sprt.verdict(llr)),
                }
            }),
            records: setup
                .records
                .then(|| results.records.into_values().collect()),
        }
    }

    /// What a tournament still being played has so far: [`Setup::report`]'s totals, `running`
    /// (no `stopped_by`, which only a finished tournament has), without records.
    pub fn progress(&self, results: Results, elapsed: Duration) -> Report {
        let mut progress = self.report(results, elapsed, None);
        progress.running = !progress.complete;
        if progress.running {
            progress.stopped_by = None;
        }
        progress.records = None;
        progress
    }

    /// Every recorded game of `results` in one file of `format`, one after another; `start`
    /// is the game's starting position's text.
    pub fn games_file(&self, start: &str, results: &Results, format: &RecordFormat) -> Vec<u8> {
        self.game_files(start, results, format)
            .into_iter()
            .flat_map(|(_, bytes)| bytes)
            .collect()
    }

    /// Every recorded game of `results` as a file of `format`, one game a file, each with its
    /// name (`game-0001.kif`, numbered from 1). A game whose opening was drawn from the start
    /// (`start`, the game's starting position's text) is written from the start, its
    /// opening's moves first.
    pub fn game_files(
        &self,
        start: &str,
        results: &Results,
        format: &RecordFormat,
    ) -> Vec<(String, Vec<u8>)> {
        let names = self.players.each_ref().map(PlayerInfo::name);
        let date = crate::game::date::today();
        let width = self.games.end.to_string().len().max(4);
        results
            .records
            .values()
            .map(|game| {
                let mut moves: Vec<RecordedMove> = game
                    .opening_moves
                    .iter()
                    .map(|mv| RecordedMove {
                        text: mv.clone().into_text(),
                        ..RecordedMove::default()
                    })
                    .collect();
                moves.extend(game.moves.iter().map(|mv| RecordedMove {
                    text: mv.mv.clone().into_text(),
                    time_ms: mv.time_ms,
                    cp: mv.cp,
                    mate: mv.mate,
                    plies_to_end: None,
                    depth: mv.depth,
                    nodes: (mv.nodes > 0).then_some(mv.nodes),
                    pv: Vec::new(),
                }));
                let from_start = !game.opening_moves.is_empty();
                let a_first = game.first == "A";
                let players = if a_first {
                    [names[0].as_str(), names[1].as_str()]
                } else {
                    [names[1].as_str(), names[0].as_str()]
                };
                let winner = game.winner.as_deref().map(|winner| {
                    if (winner == "A") == a_first {
                        Player::X
                    } else {
                        Player::O
                    }
                });
                let bytes = format.bytes(&RecordedGame {
                    index: Some(game.index),
                    event: "Sente tournament",
                    date: &date,
                    start: if from_start { start } else { &game.opening },
                    moves: &moves,
                    players,
                    winner,
                    ending: game.ended_by.name(),
                    detail: game.detail.as_deref(),
                });
                let name = format!("game-{:0width$}.{}", game.index + 1, format.extension);
                (name, bytes)
            })
            .collect()
    }
}
