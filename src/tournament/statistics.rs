//! What a match's results say about two players' difference in strength, as the engine testing
//! frameworks (fishtest, OpenBench) compute it: the score, the logistic Elo difference with its
//! 95% interval, the normalized Elo, the likelihood of superiority, and the log-likelihood ratio
//! of a sequential probability ratio test.
//!
//! Results are counted from player A's view. When each opening is played twice with the colours
//! swapped, the unit is the pair of games ([`Pentanomial`]): its two results are correlated (a
//! lopsided opening favours whoever has its good side), and the variance of pair scores, not of
//! single games, is the one that holds; it is smaller, so the interval is narrower for the same
//! games. Single games ([`Trinomial`]) are the fallback when games are not paired.
//!
//! Every figure comes from the sample's mean score `s` and the variance `v` of one sample's
//! score (a game's, or a pair's averaged over its two games):
//!
//! - logistic Elo `elo(s) = -400 log10(1/s - 1)`, its interval `elo(s ± 1.96 sqrt(v/n))`;
//! - normalized Elo `(s - 1/2) / sqrt(v_game) * 800 / ln 10`, where `v_game` is the variance of
//!   one game's score (a pair's variance times two): the difference in units of the results'
//!   spread, which does not depend on the draw ratio;
//! - LOS `Phi((s - 1/2) / sqrt(v/n))`;
//! - the SPRT's LLR by the generalized SPRT's normal approximation (fishtest's `LLR_alt2`, by
//!   Michel Van den Bergh): `n (s1 - s0) (2s - s0 - s1) / (2v)`, where `s0` and `s1` are the
//!   scores the hypotheses' logistic Elo differences stand for.

use serde::{Deserialize, Serialize};

use crate::rounded;

/// Results of single games from A's view.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Trinomial {
    pub losses: u64,
    pub draws: u64,
    pub wins: u64,
}

/// Results of game pairs (each opening with both colours) from A's view, by the pair's points:
/// `[LL, LD, DD + WL, WD, WW]`, 0 to 2 points in half-point steps.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Pentanomial(pub [u64; 5]);

/// The statistics of one sample kind: how many, their mean score (0 to 1) and the variance of
/// one sample's score.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Moments {
    pub samples: u64,
    pub mean: f64,
    pub variance: f64,
    /// How many games one sample is: 1 (trinomial) or 2 (pentanomial).
    pub games_per_sample: u32,
}

impl Trinomial {
    pub fn games(&self) -> u64 {
        self.losses + self.draws + self.wins
    }

    pub fn moments(&self) -> Moments {
        moments(
            &[(0.0, self.losses), (0.5, self.draws), (1.0, self.wins)],
            1,
        )
    }
}

impl Pentanomial {
    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }

    /// Each pair's score is its points over its two games: 0, 1/4, 1/2, 3/4 or 1.
    pub fn moments(&self) -> Moments {
        let [ll, ld, dd_wl, wd, ww] = self.0;
        let counts = [(0.0, ll), (0.25, ld), (0.5, dd_wl), (0.75, wd), (1.0, ww)];
        moments(&counts, 2)
    }
}

fn moments(counts: &[(f64, u64)], games_per_sample: u32) -> Moments {
    let samples: u64 = counts.iter().map(|&(_, count)| count).sum();
    if samples == 0 {
        return Moments {
            samples,
            mean: 0.5,
            variance: 0.0,
            games_per_sample,
        };
    }
    let weighted = |weight: &dyn Fn(u64) -> f64| {
        let n: f64 = counts.iter().map(|&(_, count)| weight(count)).sum();
        let mean = counts
            .iter()
            .map(|&(x, count)| x * weight(count))
            .sum::<f64>()
            / n;
        let variance = counts
            .iter()
            .map(|&(x, count)| (x - mean).powi(2) * weight(count))
            .sum::<f64>()
            / n;
        (mean, variance)
    };
    let (mut mean, mut variance) = weighted(&|count| count as f64);
    // Every sample alike, neither all lost nor all won: two identical deterministic players,
    // say, whose pairs all split. Without a spread there would be no interval, and an SPRT
    // that never moves. One sample's worth of prior, shared by the empty buckets (fishtest
    // puts a smaller one in every empty bucket), gives both, and weighs too little to decide a
    // test on a handful of samples.
    if variance == 0.0 && mean > 0.0 && mean < 1.0 {
        let empty = counts.iter().filter(|&&(_, count)| count == 0).count() as f64;
        (mean, variance) = weighted(&|count| {
            if count == 0 {
                1.0 / empty
            } else {
                count as f64
            }
        });
    }
    Moments {
        samples,
        mean,
        variance,
        games_per_sample,
    }
}

/// The logistic Elo difference a mean score stands for; infinite at 0 and 1.
pub fn logistic_elo(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// The mean score a logistic Elo difference stands for.
pub fn logistic_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The standard normal distribution's quantile for 97.5%: a two-sided 95% interval.
const Z_95: f64 = 1.959_963_984_540_054;

/// What a match says, from A's view.
#[derive(Copy, Clone, Debug, PartialEq, Serialize)]
pub struct Estimate {
    /// A's mean score, 0 to 1.
    #[serde(serialize_with = "rounded::to::<4, _>")]
    pub score: f64,
    /// Logistic Elo difference, A minus B, and its 95% interval.
    #[serde(serialize_with = "rounded::to::<1, _>")]
    pub elo: f64,
    /// A bound is `None` (null) where the score's interval reaches 0 or 1, where logistic Elo
    /// has no bound: too few games to bound it ([`Estimate::elo_95_unbounded`] says so).
    #[serde(serialize_with = "rounded::optional_pair::<1, _>")]
    pub elo_95: [Option<f64>; 2],
    /// Why a bound of `elo_95` is missing, where one is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub elo_95_unbounded: Option<&'static str>,
    /// Normalized Elo (fishtest's), and its 95% interval.
    #[serde(serialize_with = "rounded::to::<1, _>")]
    pub normalized_elo: f64,
    #[serde(serialize_with = "rounded::pair::<1, _>")]
    pub normalized_elo_95: [f64; 2],
    /// The likelihood that A is the stronger: the probability, under a normal approximation,
    /// that the true score is above one half.
    #[serde(serialize_with = "rounded::to::<4, _>")]
    pub los: f64,
    /// Whose variance the intervals come from: `pentanomial` (game pairs) or `trinomial`
    /// (single games).
    pub variance: &'static str,
}

impl Moments {
    /// The estimate; `None` without a sample or without any spread in the results (every game
    /// won, say), where no interval can be given.
    pub fn estimate(&self) -> Option<Estimate> {
        if self.samples == 0 || self.variance <= 0.0 {
            return None;
        }
        let n = self.samples as f64;
        let error = (self.variance / n).sqrt();
        let (low, high) = (self.mean - Z_95 * error, self.mean + Z_95 * error);
        let clamp = |score: f64| score.clamp(f64::MIN_POSITIVE, 1.0 - f64::EPSILON);
        // Elo at a score of 0 or 1 is infinite: a bound there is none, not a number of a
        // hundred thousand.
        let bound = |score: f64| (score > 0.0 && score < 1.0).then(|| logistic_elo(score));
        let elo_95 = [bound(low), bound(high)];
        let game_sd = (self.variance * f64::from(self.games_per_sample)).sqrt();
        let normalized = |score: f64| (score - 0.5) / game_sd * 800.0 / std::f64::consts::LN_10;
        Some(Estimate {
            score: self.mean,
            elo: logistic_elo(clamp(self.mean)),
            elo_95,
            elo_95_unbounded: elo_95.contains(&None).then_some(
                "the score's 95% interval reaches a score of 0 or 1, where Elo has no bound: \
                 too few games to bound it",
            ),
            normalized_elo: normalized(self.mean),
            normalized_elo_95: [normalized(low), normalized(high)],
            los: normal_cdf((self.mean - 0.5) / error),
            variance: if self.games_per_sample == 2 {
                "pentanomial"
            } else {
                "trinomial"
            },
        })
    }
}

/// A sequential probability ratio test of H0 "A is `elo0` stronger" against H1 "A is `elo1`
/// stronger", logistic Elo, with error rates `alpha` (of accepting H1 when H0 holds) and
/// `beta`.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// Where an SPRT stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// The LLR fell to its lower bound: H0 accepted.
    H0,
    /// The LLR rose to its upper bound: H1 accepted.
    H1,
    /// Neither yet: play on.
    Running,
}

impl Sprt {
    /// The LLR's bounds: below the first H0 is accepted, above the second H1.
    pub fn bounds(&self) -> [f64; 2] {
        [
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        ]
    }

    /// The log-likelihood ratio of H1 against H0 given `moments`; 0 without a spread.
    pub fn llr(&self, moments: &Moments) -> f64 {
        if moments.samples == 0 || moments.variance <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (logistic_score(self.elo0), logistic_score(self.elo1));
        moments.samples as f64 * (s1 - s0) * (2.0 * moments.mean - s0 - s1)
            / (2.0 * moments.variance)
    }

    pub fn verdict(&self, llr: f64) -> Verdict {
        let [lower, upper] = self.bounds();
        if llr <= lower {
            Verdict::H0
        } else if llr >= upper {
            Verdict::H1
        } else {
            Verdict::Running
        }
    }
}

/// The standard normal distribution function, from the complementary error function.
fn normal_cdf(x: f64) -> f64 {
    0.5 * erfc(-x / std::f64::consts::SQRT_2)
}

/// The complementary error function, to about 1e-7 (Numerical Recipes' Chebyshev fit).
fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let value = t * poly.exp();
    if x >= 0.0 { value } else { 2.0 - value }
}

/// The 95% Wilson score interval for a rate `p` observed over `n` games.
///
/// Unlike the normal approximation it stays inside [0, 1] and does not collapse to a point
/// when every game was won. Draws count as half a win; treating the rate as a proportion then
/// slightly overstates the variance, so the interval errs on the wide side.
pub fn wilson_interval(p: f64, n: u64) -> [f64; 2] {
    if n == 0 {
        return [0.0, 1.0];
    }
    const Z: f64 = 1.959_963_984_540_054;
    let n = n as f64;
    let z2n = Z * Z / n;
    let centre = (p + z2n / 2.0) / (1.0 + z2n);
    let half = Z * (p * (1.0 - p) / n + z2n / (4.0 * n)).sqrt() / (1.0 + z2n);
    [(centre - half).max(0.0), (centre + half).min(1.0)]
}

#[cfg(test)]
mod tests;
