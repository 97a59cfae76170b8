//! A run's record for readers: a row a generation (`generation.json`), all of them as
//! `report.md`, and `elo.svg`, the best's Elo over generation 0 by generation: the curve a
//! reader looks at first.

use std::fmt::Write;

use serde::{Deserialize, Serialize};

use super::Settings;

/// What a generation made, and what its SPRT said.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row {
    pub generation: u32,
    /// Self-play: games, the positions trained on from them, seconds (all pieces summed) and
    /// nodes a second (both players' searches, all threads).
    pub games: u64,
    pub positions: u64,
    pub selfplay_s: f64,
    pub nodes_per_second: Option<f64>,
    /// Training: seconds, and the loss on the held-out positions after the last epoch.
    pub training_s: f64,
    pub validation_loss: Option<f64>,
    /// The SPRT against the best of the time; `None` where there was no best to play.
    pub sprt: Option<SprtRow>,
    /// Whether the candidate became the best.
    pub promoted: bool,
    /// The best after this generation.
    pub best_after: Option<u32>,
    /// The best's Elo over generation 0: the promotions' Elo added along the chain (each
    /// measured against the best it replaced, not against generation 0 itself).
    pub elo_over_first: Option<f64>,
}

/// An SPRT's outcome.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtRow {
    /// `h1` (promoted), `h0`, or `undecided` (its games ran out).
    pub verdict: String,
    /// The candidate's Elo against the best, and its 95% interval (a bound `None` where the
    /// score's interval reaches 0 or 1).
    pub elo: Option<f64>,
    pub elo_95: [Option<f64>; 2],
    pub games: u64,
    /// Wins, draws and losses of the candidate.
    pub wdl: [u64; 3],
    pub llr: f64,
    pub seconds: f64,
}

impl Row {
    /// Generation 0: the shipped weights, the first best, where there are any.
    pub fn first(best: Option<u32>) -> Row {
        Row {
            generation: 0,
            games: 0,
            positions: 0,
            selfplay_s: 0.0,
            nodes_per_second: None,
            training_s: 0.0,
            validation_loss: None,
            sprt: None,
            promoted: best.is_some(),
            best_after: best,
            elo_over_first: best.map(|_| 0.0),
        }
    }
}

/// `report.md`: the settings, then a row a generation.
pub fn markdown(settings: &Settings, rows: &[Row]) -> String {
    let made = rows.len().saturating_sub(1);
    let mut text = format!(
        "# Learning {}: {made} generation{}\n\n![The best's Elo over generation 0](elo.svg)\n\n",
        settings.game,
        if made == 1 { "" } else { "s" }
    );
    let hours: f64 = rows
        .iter()
        .map(|row| row.selfplay_s + row.training_s)
        .sum::<f64>()
        + rows
            .iter()
            .filter_map(|row| row.sprt.as_ref().map(|sprt| sprt.seconds))
            .sum::<f64>();
    let _ = writeln!(
        text,
        "Made in {:.2} hours of steps (self-play, training and SPRTs, each on this run's \
         machines). Settings (`learn.json`): {} self-play games a generation at {}, SPRT \
         [{}, {}] at {}, at most {} games.\n",
        hours / 3600.0,
        settings.games,
        match super::Kind::of(&settings.game, settings.network) {
            Ok(super::Kind::PolicyValue { .. }) => {
                format!("{} simulations a move", settings.simulations)
            }
            _ => format!("{} nodes a move", settings.nodes),
        },
        settings.sprt.elo0,
        settings.sprt.elo1,
        settings.sprt.knobs,
        settings.sprt.games
    );
    text.push_str(
        "| generation | games | positions | self-play | nodes/s | training | held-out loss | \
         SPRT | Elo against the best [95%] | games (W-D-L) | best after | best's Elo over gen 0 |\n\
         |---|---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for row in rows {
        let number = |value: Option<f64>, digits: usize| {
            value.map_or("-".to_owned(), |value| format!("{value:.digits$}"))
        };
        let (verdict, elo, games) = match &row.sprt {
            None if row.generation == 0 => {
                let start = if row.best_after.is_none() {
                    "(none: the first plays random weights)"
                } else if settings.start_from.is_some() {
                    "(the start)"
                } else {
                    "(shipped)"
                };
                (start.to_owned(), String::new(), String::new())
            }
            None => ("(the first)".to_owned(), String::new(), String::new()),
            Some(sprt) => (
                sprt.verdict.clone(),
                format!(
                    "{} [{}, {}]",
                    number(sprt.elo, 1),
                    number(sprt.elo_95[0], 1),
                    number(sprt.elo_95[1], 1)
                ),
                format!(
                    "{} ({}-{}-{})",
                    sprt.games, sprt.wdl[0], sprt.wdl[1], sprt.wdl[2]
                ),
            ),
        };
        let _ = writeln!(
            text,
            "| {} | {} | {} | {:.0} s | {} | {:.0} s | {} | {} | {} | {} | {} | {} |",
            row.generation,
            row.games,
            row.positions,
            row.selfplay_s,
            number(row.nodes_per_second, 0),
            row.training_s,
            number(row.validation_loss, 5),
            verdict,
            elo,
            games,
            row.best_after
                .map_or("-".to_owned(), |best| best.to_string()),
            number(row.elo_over_first, 1),
        );
    }
    text
}

/// `elo.svg`: the best's Elo over generation 0 by generation (a step at each promotion), and
/// each candidate's Elo (the best's, plus its SPRT's) with its interval.
pub fn svg(game: &str, rows: &[Row]) -> String {
    let (width, height, left, right, top, bottom) = (640.0, 360.0, 56.0, 16.0, 28.0, 40.0);
    let candidates: Vec<(u32, f64, f64, f64)> = rows
        .windows(2)
        .filter_map(|pair| {
            let base = pair[0].elo_over_first?;
            let sprt = pair[1].sprt.as_ref()?;
            let elo = sprt.elo?;
            let low = sprt.elo_95[0].unwrap_or(elo - 400.0);
            let high = sprt.elo_95[1].unwrap_or(elo + 400.0);
            Some((pair[1].generation, base + elo, base + low, base + high))
        })
        .collect();
    let best: Vec<(u32, f64)> = rows
        .iter()
        .filter_map(|row| Some((row.generation, row.elo_over_first?)))
        .collect();
    let values = best
        .iter()
        .map(|&(_, elo)| elo)
        .chain(candidates.iter().flat_map(|&(_, elo, _, _)| [elo]))
        .chain([0.0]);
    let (mut low, mut high) = values.fold((f64::MAX, f64::MIN), |(low, high), value| {
        (low.min(value), high.max(value))
    });
    low = (low - 20.0).min(-20.0);
    high = (high + 20.0).max(20.0);
    let last = rows.last().map_or(1, |row| row.generation).max(1) as f64;
    let x = |generation: u32| left + (width - left - right) * generation as f64 / last;
    let y = |elo: f64| {
        let elo = elo.clamp(low, high);
        top + (height - top - bottom) * (high - elo) / (high - low)
    };
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
         viewBox=\"0 0 {width} {height}\" font-family=\"sans-serif\" font-size=\"12\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"{left}\" y=\"18\" font-size=\"14\">{game}: the best's Elo over generation 0, \
         by generation</text>\n"
    );
    for tick in ticks(low, high) {
        let _ = writeln!(
            svg,
            "<line x1=\"{left}\" x2=\"{}\" y1=\"{y:.1}\" y2=\"{y:.1}\" stroke=\"#ddd\"/>\
             <text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\">{tick:+}</text>",
            width - right,
            left - 6.0,
            y(tick as f64) + 4.0,
            y = y(tick as f64),
        );
    }
    let step = ((last as u32) / 10).max(1);
    for generation in (0..=last as u32).step_by(step as usize) {
        let _ = writeln!(
            svg,
            "<text x=\"{:.1}\" y=\"{}\" text-anchor=\"middle\">{generation}</text>",
            x(generation),
            height - bottom + 16.0
        );
    }
    let _ = writeln!(
        svg,
        "<text x=\"{:.1}\" y=\"{}\" text-anchor=\"middle\">generation</text>",
        (left + width - right) / 2.0,
        height - 6.0
    );
    for &(generation, elo, low, high) in &candidates {
        let _ = writeln!(
            svg,
            "<line x1=\"{x:.1}\" x2=\"{x:.1}\" y1=\"{:.1}\" y2=\"{:.1}\" stroke=\"#999\"/>\
             <circle cx=\"{x:.1}\" cy=\"{:.1}\" r=\"3\" fill=\"#999\"/>",
            y(low),
            y(high),
            y(elo),
            x = x(generation),
        );
    }
    let mut path = String::new();
    for (index, &(generation, elo)) in best.iter().enumerate() {
        if index > 0 {
            let _ = write!(path, " H{:.1}", x(generation));
        }
        let _ = write!(
            path,
            "{}{:.1},{:.1}",
            if index == 0 { "M" } else { " L" },
            x(generation),
            y(elo)
        );
    }
    let _ = writeln!(
        svg,
        "<path d=\"{path}\" fill=\"none\" stroke=\"#1565c0\" stroke-width=\"2\"/>\n\
         <text x=\"{}\" y=\"{}\" fill=\"#1565c0\">the best</text>\
         <text x=\"{}\" y=\"{}\" fill=\"#999\">candidates [95%]</text>\n</svg>",
        left + 8.0,
        top + 14.0,
        left + 80.0,
        top + 14.0
    );
    svg
}

/// Round Elo values between `low` and `high` for the axis.
fn ticks(low: f64, high: f64) -> Vec<i64> {
    let span = high - low;
    let step = [10, 20, 50, 100, 200, 500, 1000]
        .into_iter()
        .find(|&step| span / step as f64 <= 8.0)
        .unwrap_or(2000);
    let first = (low / step as f64).ceil() as i64 * step;
    (0..)
        .map(|i| first + i * step)
        .take_while(|&tick| tick as f64 <= high)
        .collect()
}
