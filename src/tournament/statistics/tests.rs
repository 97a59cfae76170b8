//! The statistics against independent computations on fixed counts, and by simulation.

use rand::{RngExt, SeedableRng};

use super::*;
use crate::search::SearchRng;

/// `a` and `b` agree to four significant digits.
fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 5e-5 * a.abs().max(b.abs()).max(1e-9)
}

/// The standard normal distribution function by Simpson's rule on its density: independent of
/// the error function the module uses.
fn phi_by_integration(x: f64) -> f64 {
    let density = |t: f64| (-t * t / 2.0).exp() / (2.0 * std::f64::consts::PI).sqrt();
    // Phi(x) = 1/2 + the integral from 0 to x (negative when x is).
    let steps = 20_000;
    let h = x / f64::from(steps);
    let mut sum = density(0.0) + density(x);
    for i in 1..steps {
        let t = f64::from(i) * h;
        sum += density(t) * if i % 2 == 1 { 4.0 } else { 2.0 };
    }
    0.5 + sum * h / 3.0
}

#[test]
fn published_figures() {
    // A score of 3/4 is 400 log10 3 Elo; 64% is about 100.
    assert!(close(logistic_elo(0.75), 190.848_501_887_865));
    assert!((logistic_elo(0.64) - 99.95).abs() < 0.01);
    assert_eq!(logistic_elo(0.5), 0.0);
    assert!(close(logistic_score(logistic_elo(0.3)), 0.3));
    // fishtest's bounds for alpha = beta = 0.05: -2.94 and 2.94 (ln 19).
    let sprt = Sprt {
        elo0: 0.0,
        elo1: 5.0,
        alpha: 0.05,
        beta: 0.05,
    };
    let [lower, upper] = sprt.bounds();
    assert!(close(lower, -(19f64.ln())) && close(upper, 19f64.ln()));
    for x in [-2.5, -1.0, 0.3, 1.959_963_984_540_054] {
        assert!(close(normal_cdf(x), phi_by_integration(x)), "{x}");
    }
    assert!(close(normal_cdf(1.959_963_984_540_054), 0.975));
}

/// Pentanomial counts, against the same quantities computed another way: each pair as two
/// games' points, the variance as E[x^2] - E[x]^2, the Elo by natural logarithms, the LLR as
/// the sum over every pair of its log-likelihood ratio under normal likelihoods.
#[test]
fn pentanomial_figures_match_an_independent_computation() {
    for counts in [
        [10, 40, 100, 50, 20],
        [3, 25, 60, 22, 5],
        [0, 12, 30, 41, 17],
    ] {
        let moments = Pentanomial(counts).moments();
        let estimate = moments.estimate().unwrap();
        // Independently: the points of each pair (0 to 2), over its two games.
        let pairs: Vec<f64> = counts
            .iter()
            .enumerate()
            .flat_map(|(points, &count)| std::iter::repeat_n(points as f64 / 4.0, count as usize))
            .collect();
        let n = pairs.len() as f64;
        let mean = pairs.iter().sum::<f64>() / n;
        let variance = pairs.iter().map(|x| x * x).sum::<f64>() / n - mean * mean;
        assert!(close(moments.mean, mean) && close(moments.variance, variance));
        let elo = |s: f64| 400.0 * (s / (1.0 - s)).ln() / 10f64.ln();
        let se = (variance / n).sqrt();
        assert!(close(estimate.elo, elo(mean)), "{counts:?}");
        assert!(
            close(estimate.elo_95[0].unwrap(), elo(mean - 1.959_964 * se)),
            "{counts:?}"
        );
        assert!(
            close(estimate.elo_95[1].unwrap(), elo(mean + 1.959_964 * se)),
            "{counts:?}"
        );
        // Normalized Elo: per game, a pair's variance is twice its own.
        let nelo = (mean - 0.5) / (2.0 * variance).sqrt() * 800.0 / 10f64.ln();
        assert!(close(estimate.normalized_elo, nelo), "{counts:?}");
        assert!(close(estimate.los, phi_by_integration((mean - 0.5) / se)));
        assert_eq!(estimate.variance, "pentanomial");
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let (s0, s1) = (
            1.0 / (1.0 + 10f64.powf(0.0)),
            1.0 / (1.0 + 10f64.powf(-10.0 / 400.0)),
        );
        let llr: f64 = pairs
            .iter()
            .map(|x| ((x - s0).powi(2) - (x - s1).powi(2)) / (2.0 * variance))
            .sum();
        assert!(close(sprt.llr(&moments), llr), "{counts:?}");
    }
}

#[test]
fn trinomial_figures_match_an_independent_computation() {
    let games = Trinomial {
        losses: 30,
        draws: 50,
        wins: 45,
    };
    let moments = games.moments();
    let n = 125.0;
    let mean = (45.0 + 25.0) / n;
    let variance = (45.0 + 50.0 * 0.25) / n - mean * mean;
    assert!(close(moments.mean, mean) && close(moments.variance, variance));
    let estimate = moments.estimate().unwrap();
    assert_eq!(estimate.variance, "trinomial");
    let nelo = (mean - 0.5) / variance.sqrt() * 800.0 / 10f64.ln();
    assert!(close(estimate.normalized_elo, nelo));
    // Even results: nothing to tell the players apart.
    let even = Trinomial {
        losses: 7,
        draws: 3,
        wins: 7,
    }
    .moments()
    .estimate()
    .unwrap();
    assert!(even.elo.abs() < 1e-9 && close(even.los, 0.5), "{even:?}");
    assert!(even.elo_95[0].unwrap() < 0.0 && even.elo_95[1].unwrap() > 0.0);
    assert_eq!(even.elo_95_unbounded, None);
    // Two pairs, one lost and one won: the score's interval runs past 0 and 1, where Elo has
    // no bound. The bounds are none, and it says why, rather than -123,061.
    let few = Pentanomial([1, 0, 0, 0, 1]).moments().estimate().unwrap();
    assert_eq!(few.elo_95, [None, None], "{few:?}");
    assert!(few.elo_95_unbounded.unwrap().contains("too few games"));
    let one_sided = Pentanomial([0, 0, 0, 1, 2]).moments().estimate().unwrap();
    assert!(one_sided.elo_95[0].unwrap() > 0.0, "{one_sided:?}");
    assert_eq!(one_sided.elo_95[1], None, "{one_sided:?}");
    // No spread, no interval.
    assert_eq!(Pentanomial([0, 0, 0, 0, 9]).moments().estimate(), None);
    assert_eq!(Trinomial::default().moments().estimate(), None);
}

/// One pair of games between equal players from an opening that favours one colour: A wins
/// the game where it has the good side more often, and the pair's games are correlated.
fn equal_pair(rng: &mut SearchRng) -> usize {
    let bias = rng.random_range(-0.25..0.25);
    let game = |rng: &mut SearchRng, edge: f64| {
        let roll: f64 = rng.random_range(0.0..1.0);
        if roll < 0.3 + edge {
            2
        } else if roll < 0.7 {
            1
        } else {
            0
        }
    };
    game(rng, bias) + game(rng, -bias)
}

/// Equal players get an interval that covers 0 about 95% of the time.
#[test]
fn the_interval_covers_equal_players_95_percent_of_the_time() {
    let mut rng = SearchRng::seed_from_u64(49);
    let matches = 1_000;
    let mut covered = 0;
    for _ in 0..matches {
        let mut counts = [0; 5];
        for _ in 0..300 {
            counts[equal_pair(&mut rng)] += 1;
        }
        let estimate = Pentanomial(counts).moments().estimate().unwrap();
        if estimate.elo_95[0].is_none_or(|low| low <= 0.0)
            && estimate.elo_95[1].is_none_or(|high| 0.0 <= high)
        {
            covered += 1;
        }
    }
    let rate = f64::from(covered) / f64::from(matches);
    assert!((0.925..=0.975).contains(&rate), "covered {rate}");
}

/// An SPRT of [0, 20] on equal players accepts H0 about 1 - alpha of the time.
#[test]
fn an_sprt_on_equal_players_accepts_h0_at_about_one_less_alpha() {
    let sprt = Sprt {
        elo0: 0.0,
        elo1: 20.0,
        alpha: 0.05,
        beta: 0.05,
    };
    let mut rng = SearchRng::seed_from_u64(50);
    let runs = 400;
    let mut accepted_h0 = 0;
    for _ in 0..runs {
        let mut counts = [0; 5];
        let verdict = loop {
            counts[equal_pair(&mut rng)] += 1;
            let verdict = sprt.verdict(sprt.llr(&Pentanomial(counts).moments()));
            if verdict != Verdict::Running || counts.iter().sum::<u64>() >= 100_000 {
                break verdict;
            }
        };
        if verdict == Verdict::H0 {
            accepted_h0 += 1;
        }
    }
    let rate = f64::from(accepted_h0) / f64::from(runs);
    assert!((0.91..=0.99).contains(&rate), "H0 accepted {rate}");
}

#[test]
fn identical_players_whose_pairs_all_split_are_judged_equal() {
    // Two identical deterministic players: each pair is one win each.
    let moments = Pentanomial([0, 0, 500, 0, 0]).moments();
    let estimate = moments.estimate().unwrap();
    assert!(estimate.elo.abs() < 1e-9, "{estimate:?}");
    assert!(
        estimate.elo_95[0].is_none_or(|low| low < 0.0)
            && estimate.elo_95[1].is_none_or(|high| 0.0 < high),
        "{estimate:?}"
    );
    let sprt = Sprt {
        elo0: 0.0,
        elo1: 5.0,
        alpha: 0.05,
        beta: 0.05,
    };
    assert_eq!(sprt.verdict(sprt.llr(&moments)), Verdict::H0);
}

#[test]
fn wilson_interval_contains_the_rate_and_stays_in_bounds() {
    let [low, high] = wilson_interval(0.5, 100);
    assert!(low < 0.5 && 0.5 < high);
    assert!((high - low - 0.192).abs() < 0.01, "{low}..{high}");
    let [low, high] = wilson_interval(1.0, 10);
    assert!(
        low > 0.6 && low < 1.0 && (high - 1.0).abs() < 1e-12,
        "{low}..{high}"
    );
}
