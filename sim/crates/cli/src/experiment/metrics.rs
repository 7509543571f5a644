//! What one run measured, from its IO record and its statistics (the SimBed paper's metrics):
//!
//! - **jitter**: for each periodic output port (OUT[1..=tasks]), each inter-arrival time of
//!   its writes minus the expected output period -- positive is late, negative early;
//! - **delay**: for each stimulus of fast line 0 (the aperiodic IPC interrupt), the time to
//!   the next write to OUT[0] (the responding job's output), as the outside world sees it;
//! - **deadline misses**: periodic inter-arrivals longer than 1.5 periods;
//! - **utilisation**: the share of cycles not idle; energy and cycles by category.

use crate::report::Stats;
use machine::record::{IoEvent, IoKind};
use std::collections::BTreeMap;

#[derive(Clone, Debug, Default)]
pub struct RunMetrics {
    /// Jitter samples, nanoseconds.
    pub jitter_ns: Vec<i64>,
    /// Delay samples, nanoseconds.
    pub delay_ns: Vec<i64>,
    pub outputs: u64,
    pub deadline_misses: u64,
    pub stimuli: u64,
    pub unanswered: u64,
    pub cycles: u64,
    pub sim_time_s: f64,
    pub energy_j: f64,
    pub avg_power_w: f64,
    pub utilisation: f64,
    /// category -> (cycles, energy_j)
    pub by_category: BTreeMap<String, (u64, f64)>,
}

/// The metrics of one run from its IO record (in cycle order) and its statistics.
pub fn measure(record: &[IoEvent], stats: &Stats, tasks: u32, output_period_us: u32) -> RunMetrics {
    let mut m = RunMetrics::default();
    let period_ns = output_period_us as i64 * 1000;
    let mut last_out: BTreeMap<u32, i64> = BTreeMap::new();
    let mut pending: Vec<i64> = Vec::new();
    for e in record {
        let t_ns = (e.time_s() * 1e9).round() as i64;
        let port = e.port;
        match e.kind {
            IoKind::Stimulus if port == 0 => {
                m.stimuli += 1;
                pending.push(t_ns);
            }
            IoKind::Out if port == 0 => {
                // One response answers every stimulus latched before it (events that came
                // while the line was still pending share one interrupt).
                for s in pending.drain(..) {
                    m.delay_ns.push(t_ns - s);
                }
            }
            IoKind::Out if port >= 1 && port <= tasks => {
                m.outputs += 1;
                if let Some(prev) = last_out.insert(port, t_ns) {
                    let d = t_ns - prev;
                    m.jitter_ns.push(d - period_ns);
                    if d * 2 > period_ns * 3 {
                        m.deadline_misses += 1;
                    }
                }
            }
            _ => {}
        }
    }
    m.unanswered = pending.len() as u64;

    m.cycles = stats.cycles;
    m.sim_time_s = stats.sim_time_s;
    m.energy_j = stats.energy_j.unwrap_or(0.0);
    m.avg_power_w = stats.avg_power_w.unwrap_or(0.0);
    for (name, c) in &stats.by_category {
        m.by_category
            .insert(name.clone(), (c.cycles, c.energy_j.unwrap_or(0.0)));
    }
    let idle = stats.category_cycles("idle");
    m.utilisation = if m.cycles > 0 {
        1.0 - idle as f64 / m.cycles as f64
    } else {
        0.0
    };
    m
}

/// A probability histogram of `samples_ns` in bins of `bin_us` microseconds: (bin centre in
/// microseconds, probability), only non-empty bins, in order.
pub fn histogram(samples_ns: &[i64], bin_us: u32) -> Vec<(f64, f64)> {
    if samples_ns.is_empty() {
        return Vec::new();
    }
    let bin = bin_us as i64 * 1000;
    let mut counts: BTreeMap<i64, u64> = BTreeMap::new();
    for &s in samples_ns {
        // Bins centred on multiples of the bin width: 0 is "on time".
        let k = (s + bin / 2).div_euclid(bin);
        *counts.entry(k).or_default() += 1;
    }
    let n = samples_ns.len() as f64;
    counts
        .into_iter()
        .map(|(k, c)| ((k * bin) as f64 / 1000.0, c as f64 / n))
        .collect()
}

/// The q-quantile (0..=1) of the samples, in microseconds (nearest rank).
pub fn quantile_us(samples_ns: &[i64], q: f64) -> f64 {
    if samples_ns.is_empty() {
        return 0.0;
    }
    let mut v = samples_ns.to_vec();
    v.sort_unstable();
    let i = ((q * (v.len() - 1) as f64).round() as usize).min(v.len() - 1);
    v[i] as f64 / 1000.0
}

pub fn mean_us(samples_ns: &[i64]) -> f64 {
    if samples_ns.is_empty() {
        return 0.0;
    }
    samples_ns.iter().map(|&x| x as f64).sum::<f64>() / samples_ns.len() as f64 / 1000.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jitter_delay_and_misses_from_a_record() {
        // Port 1 every 1 ms, one output 10 us late, one missing (a 2 ms gap); two stimuli
        // answered by one output 30 us after the first.
        let at = |us: u128, kind: IoKind, port: u32| IoEvent {
            cycle: us as u64,
            time_fs: us * 1_000_000_000,
            kind,
            port,
            value: 0,
        };
        let record = [
            at(0, IoKind::Out, 1),
            at(1000, IoKind::Out, 1),
            at(1500, IoKind::Stimulus, 0),
            at(1510, IoKind::Stimulus, 0),
            at(1530, IoKind::Out, 0),
            at(2010, IoKind::Out, 1),
            at(4000, IoKind::Out, 1),
            at(4100, IoKind::Stimulus, 0),
        ];
        let category = |cycles| crate::report::CategoryStats {
            cycles,
            energy_j: Some(1e-6),
            instret: 0,
        };
        let stats = Stats {
            avg_current_a: None,
            avg_power_w: None,
            by_category: [
                ("idle".into(), category(250)),
                ("user".into(), category(750)),
            ]
            .into_iter()
            .collect(),
            cycles: 1000,
            energy_j: None,
            host_seconds: 0.0,
            instret: 0,
            mcycle: 0,
            mips: 0.0,
            opp_time_s: Default::default(),
            sim_time_s: 0.004,
        };
        let m = measure(&record, &stats, 1, 1000);
        assert_eq!(m.jitter_ns, vec![0, 10_000, 990_000]);
        assert_eq!(m.deadline_misses, 1);
        assert_eq!(m.delay_ns, vec![30_000, 20_000]);
        assert_eq!((m.stimuli, m.unanswered, m.outputs), (3, 1, 4));
        assert!((m.utilisation - 0.75).abs() < 1e-12);
        let h = histogram(&m.jitter_ns, 10);
        assert_eq!(h.len(), 3);
        assert_eq!(h[0], (0.0, 1.0 / 3.0));
        assert_eq!(h[1].0, 10.0);
        assert_eq!(quantile_us(&m.delay_ns, 1.0), 30.0);
    }

    #[test]
    fn histogram_centres_bins_on_zero() {
        let h = histogram(&[-4_999, 4_999, 5_000, -5_001], 10);
        assert_eq!(h, vec![(-10.0, 0.25), (0.0, 0.5), (10.0, 0.25)]);
    }
}
