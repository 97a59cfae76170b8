//! Playing a tournament: a [`Match`] (its setup and its games, of whichever game) played as a
//! [`Run`] shared by workers, on this machine's threads ([`play_on_threads`], the command line
//! and the tests) or on the service's blocking pool (the HTTP handler, which spawns the workers
//! itself), with its progress told at one interval ([`Progress`]) either way.

use std::fmt;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::Tournament;
use super::report::Setup;
use super::results::{self, GameRecord, GameResult, Results};
use super::statistics::Sprt;
use crate::game::RecordFormat;
use crate::search::{Budget, Solve};

/// How often a tournament's progress is told at most: its first finished game at once, then
/// the games finished since, at this interval.
pub const PROGRESS_INTERVAL: Duration = Duration::from_millis(250);

/// How often a driver looks at a run for finished games.
pub const LOOK_INTERVAL: Duration = Duration::from_millis(20);

/// A tournament ready to play: its setup, and its games of whichever game.
pub struct Match {
    setup: Setup,
    games: Box<dyn Play>,
    /// The threads its players' searches run on, the larger of the two's: the cores a game
    /// takes.
    threads: u32,
}

impl fmt::Debug for Match {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Match")
            .field("setup", &self.setup)
            .finish_non_exhaustive()
    }
}

/// A tournament of any game: what a match asks of it.
trait Play: Send + Sync {
    fn work(&self, run: &Run, budget: &Budget);
    /// The game's own record formats, as its declaration lists them.
    fn record_formats(&self) -> &'static [RecordFormat];
    /// The game's starting position, as text.
    fn start(&self) -> String;
}

impl<G: Solve> Play for Tournament<G> {
    fn work(&self, run: &Run, budget: &Budget) {
        Tournament::work(self, run, budget);
    }

    fn record_formats(&self) -> &'static [RecordFormat] {
        G::DECLARATION.records
    }

    fn start(&self) -> String {
        G::start().to_string()
    }
}

impl Match {
    /// `tournament`'s games, as `setup` describes them.
    pub fn of<G: Solve>(setup: Setup, tournament: Tournament<G>) -> Match {
        let threads = tournament
            .players
            .iter()
            .map(|player| match &player.kind {
                super::PlayerKind::Search(strategy) => strategy.threads(),
                super::PlayerKind::Uci { .. } => 1,
            })
            .max()
            .unwrap_or(1);
        Match {
            setup,
            games: Box::new(tournament),
            threads,
        }
    }

    /// The cores one of its games takes: its players' threads, the larger of the two's (a
    /// move at a time is searched, so the two never add up).
    pub fn threads(&self) -> u32 {
        self.threads
    }

    pub fn setup(&self) -> &Setup {
        &self.setup
    }

    /// The game's own record formats (shogi's KIF, KIFU and CSA), the usual one first; none
    /// for a game that declares none.
    pub fn record_formats(&self) -> &'static [RecordFormat] {
        self.games.record_formats()
    }

    /// The game's record format whose files hold many games (chess's PGN), if it has one: the
    /// form of a tournament's games in one file.
    pub fn collecting_format(&self) -> Option<&'static RecordFormat> {
        self.record_formats().iter().find(|format| format.collects)
    }

    /// Every recorded game of `results` in one file of `format`, one after another.
    pub fn games_file(&self, results: &Results, format: &RecordFormat) -> Vec<u8> {
        self.setup.games_file(&self.games.start(), results, format)
    }

    /// Every recorded game of `results` as a file of `format`, one game a file, each with its
    /// name ([`Setup::game_files`]).
    pub fn game_files(&self, results: &Results, format: &RecordFormat) -> Vec<(String, Vec<u8>)> {
        self.setup.game_files(&self.games.start(), results, format)
    }

    /// A run of the match's games (all of them, or one shard's) for workers to share.
    pub fn run(&self, games: Range<u64>) -> Run {
        Run::new(games, self.setup.sprt)
    }

    /// Plays games of `run` until they are all taken or `budget` runs out: one worker's part.
    /// CPU-bound.
    pub fn work(&self, run: &Run, budget: &Budget) {
        self.games.work(run, budget);
    }

    /// Plays the games in `games` (all of the match's, or a shard's) on `threads` OS threads,
    /// calling `progress` with the results so far as they come.
    pub fn play(
        &self,
        games: Range<u64>,
        threads: usize,
        progress: impl FnMut(Results),
    ) -> Results {
        let run = self.run(games);
        play_on_threads(
            &run,
            threads,
            |run| self.work(run, &Budget::unlimited()),
            progress,
        )
    }
}

/// When to tell a run's progress: once games have finished since it was last told, at most
/// every [`PROGRESS_INTERVAL`].
#[derive(Debug, Default)]
pub struct Progress {
    told: usize,
    last: Option<Instant>,
}

impl Progress {
    /// The results so far, if it is time to tell them.
    pub fn due(&mut self, run: &Run) -> Option<Results> {
        let finished = run.peek(|results| results.games.len());
        let waited = self.last.is_none_or(|at| at.elapsed() >= PROGRESS_INTERVAL);
        if finished == self.told || !waited {
            return None;
        }
        self.last = Some(Instant::now());
        let results = run.results();
        self.told = results.games.len();
        Some(results)
    }
}

/// Counts a worker done when it ends, by returning or by unwinding.
struct Done<'a>(&'a AtomicUsize);

impl Drop for Done<'_> {
    fn drop(&mut self) {
        self.0.fetch_add(1, Ordering::Release);
    }
}

/// Plays `run` on `threads` OS threads, each doing `work` until the run's games are all taken,
/// calling `progress` with the results so far as they come ([`Progress`]); answers every
/// result.
pub fn play_on_threads(
    run: &Run,
    threads: usize,
    work: impl Fn(&Run) + Sync,
    mut progress: impl FnMut(Results),
) -> Results {
    let threads = threads.max(1);
    let done = AtomicUsize::new(0);
    let mut told = Progress::default();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                // Counted done however the worker ends: one that panicked must not leave this
                // loop waiting for ever (the scope then passes its panic on).
                let _done = Done(&done);
                work(run);
            });
        }
        while done.load(Ordering::Acquire) < threads {
            std::thread::sleep(LOOK_INTERVAL);
            if let Some(results) = told.due(run) {
                progress(results);
            }
        }
    });
    run.results()
}

/// A tournament in progress: its games handed out to workers a pair at a time in index order,
/// the results so far, and the SPRT that may stop it.
pub struct Run {
    pub(super) games: Range<u64>,
    pub(super) next_pair: AtomicU64,
    state: Mutex<RunState>,
    /// Set once the SPRT has decided: the games still in progress stop.
    pub(super) halted: Arc<AtomicBool>,
}

struct RunState {
    results: Results,
    sprt: Option<results::SprtWatch>,
}

impl Run {
    pub fn new(games: Range<u64>, sprt: Option<Sprt>) -> Run {
        Run {
            next_pair: AtomicU64::new(games.start / 2),
            state: Mutex::new(RunState {
                results: Results::default(),
                sprt: sprt.map(|sprt| results::SprtWatch::new(sprt, &games)),
            }),
            games,
            halted: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Looks at the results so far.
    pub fn peek<T>(&self, look: impl FnOnce(&Results) -> T) -> T {
        look(
            &self
                .state
                .lock()
                .expect("no worker panics holding it")
                .results,
        )
    }

    /// The results so far, without the games past the one at which the SPRT decided, so that
    /// once every worker is done they are the same however many workers played.
    pub fn results(&self) -> Results {
        let state = self.state.lock().expect("no worker panics holding it");
        let mut results = state.results.clone();
        results.settle(state.sprt.as_ref().map(|watch| watch.sprt), &self.games);
        results
    }

    pub(super) fn record(&self, index: u64, result: GameResult, record: Option<GameRecord>) {
        let mut state = self.state.lock().expect("no worker panics holding it");
        let RunState { results, sprt } = &mut *state;
        results.insert(index, result, record);
        if let Some(watch) = sprt
            && watch.advance(results).is_some()
        {
            self.halted.store(true, Ordering::Relaxed);
        }
    }
}
