//! Playing at a level: the `level` knob (1 to [`LEVELS`]), and chess's `elo`, which reads the
//! same table.
//!
//! A person who plays weakly does not play at random: they see a move or two ahead rather
//! than ten, and among the moves they see they mostly pick a good one and now and then miss
//! the best. A level does the same with the game's engine, as its declaration says
//! ([`Level`]): the search is cut to a depth or a number of nodes, and where the level has a
//! temperature, every legal move is valued within that cut and one is drawn with chances in
//! proportion to `exp(score / temperature)` (a softmax over the analysis, as AlphaZero draws
//! its opening moves from its visits and lichess's weak levels draw theirs). A move that is
//! worse than the best by the temperature is chosen 1/e times as often as the best, one worse
//! by twice the temperature 1/e² times: small slips are common, a blunder the shallow search
//! sees (a piece left hanging, a four left open) is rare, and a blunder it does not see is as
//! likely as any move it thinks is fine. The draw is the search's seed's, so a game replays.
//!
//! Elo, where a game has a scale for it (chess's, measured against Stockfish), reads the
//! levels' measured ratings: between two levels the nodes are interpolated in doublings and
//! the temperature in a straight line.

use rand::{RngExt, SeedableRng};

use super::{Analysis, EngineOptions, MoveAnalysis, SearchResult, SearchRng};
use crate::game::{Declaration, LEVELS, Level};

/// The handicap the engine plays with under `options` on a game that declares `declaration`:
/// its level, or the levels around its Elo; `None` at full strength.
pub fn handicap(declaration: &Declaration, options: &EngineOptions) -> Option<Level> {
    if let Some(level) = options.level {
        let index = usize::from(level.clamp(1, LEVELS as u8)) - 1;
        return Some(declaration.levels[index]);
    }
    options.elo.and_then(|elo| at_elo(&declaration.levels, elo))
}

/// The handicap between the two rated levels around `elo` (the weakest below them, the
/// strongest above).
fn at_elo(levels: &[Level], elo: u32) -> Option<Level> {
    let rated: Vec<&Level> = levels.iter().filter(|level| level.elo.is_some()).collect();
    let rating = |level: &Level| f64::from(level.elo.unwrap_or_default());
    let first = *rated.first()?;
    let last = *rated.last()?;
    let elo = f64::from(elo);
    if elo <= rating(first) {
        return Some(*first);
    }
    if elo >= rating(last) {
        return Some(*last);
    }
    let pair = rated
        .windows(2)
        .find(|pair| elo <= rating(pair[1]))
        .unwrap_or(&rated[rated.len() - 2..]);
    let (below, above) = (pair[0], pair[1]);
    let span = rating(above) - rating(below);
    let share = if span > 0.0 {
        (elo - rating(below)) / span
    } else {
        1.0
    };
    let between = |low: Option<u64>, high: Option<u64>| match (low, high) {
        (Some(low), Some(high)) => {
            let (low, high) = (low.max(1) as f64, high.max(1) as f64);
            Some((low * (high / low).powf(share)).round() as u64)
        }
        _ if share < 0.5 => low,
        _ => high,
    };
    let nearer = if share < 0.5 { below } else { above };
    let temperature = |level: &Level| {
        if level.strays() {
            level.temperature
        } else {
            0.0
        }
    };
    Some(Level {
        depth: nearer.depth,
        nodes: between(below.nodes, above.nodes),
        candidates: below.candidates.max(above.candidates),
        temperature: temperature(below) + (temperature(above) - temperature(below)) * share,
        elo: Some(elo.round() as u32),
    })
}

/// The depth and nodes a level cuts a search to, and the lines its analysis gives.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Cut {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// The best this many moves, for the analysis (an engine searches the others only to show
    /// they are worse); every move without.
    pub lines: Option<u32>,
}

impl Cut {
    /// `level`'s depth and nodes, every line.
    pub fn of(level: &Level) -> Cut {
        Cut {
            depth: level.depth,
            nodes: level.nodes,
            lines: None,
        }
    }
}

/// The move a level chose, and the lines it printed where it was asked for several
/// (`multipv`): the move is always one of them.
pub struct Chosen<M> {
    pub result: SearchResult<M>,
    pub lines: Option<Analysis<M>>,
}

/// The engine's move at `level`, from whichever engine: `search` finds a move within a cut,
/// `analyze` values the best few moves within one. Where the level has a temperature the move is
/// drawn from the analysis's best candidates (from `seed`); where not one move was valued within
/// the cut, the first iteration is searched, whatever it costs. With `lines` above 1 (MultiPV)
/// the analysis gives that many lines, or the level's candidates if they are more, all of
/// them searched within the cut: the move is drawn among the lines a GUI sees, as Stockfish's
/// Skill Level does.
pub fn choose<M: Clone, E>(
    level: &Level,
    seed: u64,
    lines: Option<u32>,
    mut search: impl FnMut(Cut) -> Result<SearchResult<M>, E>,
    analyze: impl FnOnce(Cut) -> Result<Analysis<M>, E>,
) -> Result<Chosen<M>, E> {
    let cut = Cut::of(level);
    let shown = lines.filter(|&lines| lines > 1);
    if !level.strays() && shown.is_none() {
        return Ok(Chosen {
            result: search(cut)?,
            lines: None,
        });
    }
    let candidates = if level.strays() { level.candidates } else { 1 };
    let mut analysis = analyze(Cut {
        lines: Some(candidates.max(shown.unwrap_or(1))),
        ..cut
    })?;
    if analysis.moves.is_empty() {
        let result = search(Cut {
            depth: Some(1),
            nodes: None,
            lines: None,
        })?;
        return Ok(Chosen {
            result,
            lines: None,
        });
    }
    let best = &analysis.moves[..analysis.moves.len().min(candidates as usize)];
    let chosen = if level.strays() {
        draw(best, level.temperature, seed)
    } else {
        &best[0]
    };
    let result = result(&analysis, chosen, level);
    Ok(Chosen {
        result,
        lines: shown.map(|shown| {
            analysis.moves.truncate(shown.max(candidates) as usize);
            analysis
        }),
    })
}

/// A move drawn from `moves` (the best few) with chances in proportion to
/// `exp(score / temperature)`.
fn draw<M>(moves: &[MoveAnalysis<M>], temperature: f64, seed: u64) -> &MoveAnalysis<M> {
    let best = moves
        .iter()
        .map(|line| line.score)
        .fold(f64::NEG_INFINITY, f64::max);
    // Counted from the best, so that no weight overflows: the best's is 1.
    let weights: Vec<f64> = moves
        .iter()
        .map(|line| ((line.score - best) / temperature).exp())
        .collect();
    let total: f64 = weights.iter().sum();
    let mut rng = SearchRng::seed_from_u64(seed);
    let mut point = rng.random::<f64>() * total;
    for (line, weight) in moves.iter().zip(&weights) {
        if point < *weight {
            return line;
        }
        point -= weight;
    }
    &moves[0]
}

/// The search's result for the move `chosen` from `analysis`.
fn result<M: Clone>(
    analysis: &Analysis<M>,
    chosen: &MoveAnalysis<M>,
    level: &Level,
) -> SearchResult<M> {
    SearchResult {
        best_move: chosen.mv.clone(),
        score: chosen.score,
        exact: chosen.exact,
        plies_to_end: chosen.plies_to_end,
        nodes: analysis.nodes,
        pv: if chosen.pv.is_empty() {
            vec![chosen.mv.clone()]
        } else {
            chosen.pv.clone()
        },
        depth: chosen.depth.or(level.depth),
        seldepth: None,
        margin: chosen.margin,
        elapsed: analysis.elapsed,
        stopped_by: analysis.stopped_by,
    }
}

/// Whether every game's levels run from weak to strong: no level searches less or strays
/// further than the one below it.
pub fn levels_rise(levels: &[Level]) -> Result<(), String> {
    for (index, pair) in levels.windows(2).enumerate() {
        let (lower, upper) = (&pair[0], &pair[1]);
        let deeper = match (lower.depth, upper.depth) {
            (Some(low), Some(high)) => high >= low,
            (_, None) => true,
            (None, Some(_)) => false,
        };
        let more_nodes = match (lower.nodes, upper.nodes) {
            (Some(low), Some(high)) => high >= low,
            (_, None) => true,
            (None, Some(_)) => lower.depth.is_some(),
        };
        let steadier =
            !upper.strays() || (lower.strays() && upper.temperature <= lower.temperature);
        let rated = match (lower.elo, upper.elo) {
            (Some(low), Some(high)) => high > low,
            _ => true,
        };
        if !(deeper && more_nodes && steadier && rated) {
            return Err(format!(
                "level {} is not stronger than level {}: {upper:?} after {lower:?}",
                index + 2,
                index + 1
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn level(nodes: u64, temperature: f64, elo: u32) -> Level {
        Level::within_nodes(nodes).among(4, temperature).rated(elo)
    }

    #[test]
    fn an_elo_between_two_levels_plays_between_them() {
        let levels = [
            level(100, 0.2, 800),
            level(400, 0.1, 1200),
            Level::within_nodes(1600).rated(1600),
        ];
        assert_eq!(at_elo(&levels, 500), Some(levels[0]));
        assert_eq!(at_elo(&levels, 2000), Some(levels[2]));
        let between = at_elo(&levels, 1000).unwrap();
        assert_eq!(between.nodes, Some(200));
        assert!((between.temperature - 0.15).abs() < 1e-9);
        assert_eq!(at_elo(&levels, 1200).unwrap().nodes, Some(400));
        let unrated = [Level::full(None); 2];
        assert_eq!(at_elo(&unrated, 1500), None);
    }

    #[test]
    fn the_draw_prefers_the_better_moves_and_sometimes_misses_the_best() {
        let line = |mv: u8, score: f64| {
            MoveAnalysis::new(
                mv,
                super::super::Score {
                    score,
                    exact: false,
                    plies_to_end: None,
                },
                None,
            )
        };
        let analysis = Analysis {
            moves: vec![line(0, 0.2), line(1, 0.1), line(2, -0.8)],
            nodes: 3,
            elapsed: std::time::Duration::ZERO,
            stopped_by: None,
        };
        let mut counts = [0u32; 3];
        for seed in 0..3000 {
            counts[usize::from(draw(&analysis.moves, 0.1, seed).mv)] += 1;
        }
        // exp(0) : exp(-1) : exp(-10), of 3000.
        assert!((2050..2350).contains(&counts[0]), "{counts:?}");
        assert!((700..950).contains(&counts[1]), "{counts:?}");
        assert!(counts[2] < 10, "{counts:?}");
    }

    #[test]
    fn levels_that_do_not_rise_are_found() {
        assert!(levels_rise(&[level(100, 0.2, 800), level(400, 0.1, 1200)]).is_ok());
        assert!(levels_rise(&[level(400, 0.2, 800), level(100, 0.1, 1200)]).is_err());
        assert!(levels_rise(&[level(100, 0.1, 800), level(400, 0.2, 1200)]).is_err());
        // The first table a new game spreads from the declaration's default rises too.
        assert_eq!(
            levels_rise(&crate::game::Declaration::DEFAULT.levels),
            Ok(())
        );
    }
}
