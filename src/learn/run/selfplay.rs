//! `sente selfplay`: a policy-value network plays a game against itself and writes the
//! positions it learns from (`search::alphazero::selfplay`), a shard of a run at a time as
//! tournaments are split; and the networks a command line loads from files.

use std::io::Write;
use std::ops::Range;
use std::path::PathBuf;
use std::time::Instant;

use rand::SeedableRng;
use serde::Serialize;

use crate::games::ForGame;
use crate::learn::LearnError;
use crate::learn::policy_value::PolicyValueNet;
use crate::search::alphazero::selfplay::{self, SelfPlay, Tally, Tricks};
use crate::search::alphazero::{RootNoise, networks, train::DEFAULT_HIDDEN};
use crate::search::{SearchRng, Solve};

/// What a self-play run is asked.
pub struct SelfPlayRequest {
    pub game: String,
    /// The network's file; `None`: the game's best shipped network, or a new random one where
    /// it ships none (the first generation).
    pub net: Option<PathBuf>,
    /// The games of the run this one plays (a shard's share, or all).
    pub games: Range<u64>,
    pub simulations: u32,
    /// Plies played in proportion to visits before the most visited is played.
    pub temperature_plies: usize,
    /// The Dirichlet noise's alpha at the root.
    pub noise_alpha: f64,
    pub tricks: Tricks,
    pub seed: u64,
    pub threads: usize,
}

/// What a self-play run did.
#[derive(Clone, Debug, Serialize)]
pub struct SelfPlayReport {
    pub game: &'static str,
    /// The network played: its file, the shipped one's name, or `random`.
    pub net: String,
    pub first_game: u64,
    #[serde(flatten)]
    pub tally: Tally,
    pub simulations: u32,
    pub seed: u64,
    pub elapsed_s: f64,
}

/// Plays the request's games, writing their positions to `out` and telling `on_game` of each.
pub fn run(
    request: SelfPlayRequest,
    out: &mut (dyn Write + Send),
    on_game: &(dyn Fn() + Sync),
) -> Result<SelfPlayReport, LearnError> {
    struct Job<'a> {
        request: SelfPlayRequest,
        out: &'a mut (dyn Write + Send),
        on_game: &'a (dyn Fn() + Sync),
    }
    impl ForGame for Job<'_> {
        type Output = Result<SelfPlayReport, LearnError>;
        fn run<G: Solve>(self) -> Self::Output {
            let request = self.request;
            networks::playable::<G>()?;
            request.tricks.check()?;
            let (net, name) = match &request.net {
                Some(path) => (networks::from_file::<G>(path)?, path.display().to_string()),
                None if networks::has_any::<G>() => (
                    networks::network::<G>(0)?.as_ref().clone(),
                    networks::names::<G>()[0].to_owned(),
                ),
                None => {
                    let mut rng = SearchRng::seed_from_u64(request.seed);
                    let net = PolicyValueNet::random(
                        G::NAME,
                        G::NETWORK_INPUTS,
                        DEFAULT_HIDDEN,
                        G::MOVE_IDS,
                        &mut rng,
                    );
                    (net, "random".to_owned())
                }
            };
            let defaults = SelfPlay::new(request.simulations, request.seed);
            let options = SelfPlay {
                temperature_plies: request.temperature_plies,
                noise: RootNoise {
                    alpha: request.noise_alpha,
                    ..defaults.noise
                },
                tricks: request.tricks,
                ..defaults
            };
            let started = Instant::now();
            let tally = selfplay::run::<G>(
                &net,
                &options,
                request.games.clone(),
                request.threads,
                self.out,
                self.on_game,
            )
            .map_err(|source| LearnError::Write {
                what: "writing the positions",
                source,
            })?;
            Ok(SelfPlayReport {
                game: G::NAME,
                net: name,
                first_game: request.games.start,
                tally,
                simulations: request.simulations,
                seed: request.seed,
                elapsed_s: (started.elapsed().as_secs_f64() * 10.0).round() / 10.0,
            })
        }
    }
    let game = request.game.clone();
    crate::games::for_game(
        &game,
        Job {
            request,
            out,
            on_game,
        },
    )
    .unwrap_or_else(|| Err(crate::api::catalogue::unknown_game(&game)))
}
