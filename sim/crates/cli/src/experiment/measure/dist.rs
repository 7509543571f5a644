//! A distribution's figures, defined once for every experiment kind: count, mean, min, the
//! 50th, 90th and 99th percentiles and max of a set of integer samples (cycles, nanoseconds).
//!
//! Percentiles are *nearest rank*, with no interpolation: the q-quantile (q from 0 to 1) of
//! n samples is the sample at index round(q x (n - 1)) of them sorted in ascending order
//! (ties of the rounding away from zero), so p0 is the minimum, p100 the maximum, and every
//! percentile is a value that was measured. (The median of an even count is then the upper
//! of the two middle samples; [`median`] gives the mean of the two, for figures defined so.)

/// The q-quantile (0..=1) of `samples` (nearest rank, as above); `None` for no samples.
pub fn percentile(samples: &[i64], q: f64) -> Option<i64> {
    let mut v = samples.to_vec();
    v.sort_unstable();
    percentile_sorted(&v, q)
}

/// [`percentile`] of samples already sorted in ascending order.
pub fn percentile_sorted(sorted: &[i64], q: f64) -> Option<i64> {
    if sorted.is_empty() {
        return None;
    }
    let last = sorted.len() - 1;
    let i = ((q.clamp(0.0, 1.0) * last as f64).round() as usize).min(last);
    Some(sorted[i])
}

/// The median as statistics' textbooks define it: the middle sample of an odd count, the
/// mean of the two middle ones of an even count; `None` for no samples.
pub fn median(samples: &[i64]) -> Option<f64> {
    let mut v = samples.to_vec();
    v.sort_unstable();
    let n = v.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(v[n / 2] as f64),
        _ => Some((v[n / 2 - 1] as f64 + v[n / 2] as f64) / 2.0),
    }
}

/// The arithmetic mean of `samples`; `None` for no samples.
pub fn mean(samples: &[i64]) -> Option<f64> {
    if samples.is_empty() {
        return None;
    }
    Some(samples.iter().map(|&x| x as f64).sum::<f64>() / samples.len() as f64)
}

/// The figures of a set of samples (in the samples' unit).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Distribution {
    pub count: usize,
    pub mean: f64,
    pub min: i64,
    pub p50: i64,
    pub p90: i64,
    pub p99: i64,
    pub max: i64,
}

impl Distribution {
    /// The figures of `samples`; `None` for no samples.
    pub fn of(samples: &[i64]) -> Option<Distribution> {
        let mut v = samples.to_vec();
        v.sort_unstable();
        let p = |q| percentile_sorted(&v, q);
        Some(Distribution {
            count: v.len(),
            mean: mean(&v)?,
            min: *v.first()?,
            p50: p(0.5)?,
            p90: p(0.9)?,
            p99: p(0.99)?,
            max: *v.last()?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_are_nearest_rank_on_known_data() {
        // 1..=100: index round(q x 99).
        let v: Vec<i64> = (1..=100).rev().collect();
        let d = Distribution::of(&v).unwrap();
        assert_eq!(
            (d.count, d.min, d.p50, d.p90, d.p99, d.max),
            (100, 1, 51, 90, 99, 100)
        );
        assert_eq!(d.mean, 50.5);
        // Four samples: p50 is index round(1.5) = 2, the upper middle one.
        assert_eq!(percentile(&[40, 10, 30, 20], 0.5), Some(30));
        assert_eq!(median(&[40, 10, 30, 20]), Some(25.0));
        assert_eq!(median(&[3, 1, 2]), Some(2.0));
        assert_eq!(percentile(&[7], 0.99), Some(7));
        assert_eq!(percentile(&[-5, 5], 0.0), Some(-5));
        assert_eq!(percentile(&[-5, 5], 1.0), Some(5));
        assert_eq!(percentile(&[], 0.5), None);
        assert_eq!(Distribution::of(&[]), None);
        assert_eq!(median(&[]), None);
        assert_eq!(mean(&[]), None);
    }
}
