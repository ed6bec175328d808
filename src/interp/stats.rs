//! Estimates with their 95% intervals: a proportion (Wilson score) and a
//! mean (normal approximation), for `diff`, `win_rates` and `sensitivity`.

use serde::Serialize;

/// A proportion or mean with its 95% interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Estimate {
    pub value: f64,
    pub low: f64,
    pub high: f64,
}

impl Estimate {
    pub fn contains(&self, x: f64) -> bool {
        self.low <= x && x <= self.high
    }
}

/// z for a two-sided 95% interval.
const Z95: f64 = 1.959_963_984_540_054;

/// The 95% Wilson score interval of `k` successes in `n` trials.
pub fn wilson(k: u64, n: u64) -> Estimate {
    if n == 0 {
        return Estimate { value: 0.0, low: 0.0, high: 1.0 };
    }
    let (k, n) = (k as f64, n as f64);
    let p = k / n;
    let z2 = Z95 * Z95;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = Z95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denom;
    // exact at the ends, where the formula leaves rounding dust
    let low = if k == 0.0 { 0.0 } else { (centre - half).max(0.0) };
    let high = if k == n { 1.0 } else { (centre + half).min(1.0) };
    Estimate { value: p, low, high }
}

/// The mean of `xs` with a 95% normal-approximation interval.
pub fn mean_interval(xs: &[f64]) -> Estimate {
    let n = xs.len() as f64;
    if xs.is_empty() {
        return Estimate { value: 0.0, low: 0.0, high: 0.0 };
    }
    let mean = xs.iter().sum::<f64>() / n;
    let var = if xs.len() > 1 { xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0) } else { 0.0 };
    let half = Z95 * (var / n).sqrt();
    Estimate { value: mean, low: mean - half, high: mean + half }
}
