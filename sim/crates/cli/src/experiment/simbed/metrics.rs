//! What one run measured, from its IO record and its statistics (the SimBed paper's metrics,
//! with the counts that show missed work; docs/experiments.md defines each):
//!
//! - **deviation** (jitter): for each periodic output port (OUT[1..=tasks]), each
//!   inter-arrival time of its writes minus the expected output period -- positive is late;
//! - **on time**: an inter-arrival whose |deviation| is within the experiment's declared
//!   tolerance, counted against the inter-arrivals the workload should have produced (so a
//!   task that produces nothing counts as never on time);
//! - **outputs**: produced per task, against the number the workload's releases call for;
//! - **delay**: for each stimulus of fast line 0 (the aperiodic IPC interrupt), the time to
//!   the next write to OUT[0] (the responding job's output), as the outside world sees it;
//!   a stimulus with no response by the end of the run is *unanswered* (one in the run's last
//!   `STIMULUS_GRACE_NS` is in flight, and counted neither way);
//! - **deadline misses**: periodic inter-arrivals longer than 1.5 periods;
//! - **overloaded**: a task produced fewer outputs than expected, or a stimulus went
//!   unanswered;
//! - **utilisation**: the share of cycles not idle; energy and cycles by category.

use crate::experiment::measure::dist::{mean, percentile};
use crate::experiment::measure::edges::{pair, time_ns, EventSel, Policy};
use crate::run_stats::Stats;
use machine::record::{IoEvent, IoKind};
use std::collections::BTreeMap;

/// Stimuli this close to the end of a run may still be answered after it: not counted.
pub const STIMULUS_GRACE_NS: i64 = 1_000_000;

/// What a run of a variant should produce: its periodic outputs and the on-time window.
#[derive(Clone, Copy, Debug)]
pub struct Expected {
    pub tasks: u32,
    pub output_period_us: u32,
    /// Outputs each task's writer should make over the run.
    pub outputs_per_task: u64,
    /// |deviation| at most this percentage of the output period is on time.
    pub tolerance_pct: f64,
}

#[derive(Clone, Debug, Default)]
pub struct RunMetrics {
    /// Deviation samples (inter-arrival minus period), nanoseconds.
    pub jitter_ns: Vec<i64>,
    /// Delay samples, nanoseconds.
    pub delay_ns: Vec<i64>,
    /// Outputs produced, per task.
    pub produced: Vec<u64>,
    /// Outputs expected, per task (the same for every task).
    pub expected_per_task: u64,
    /// Runs these metrics cover (1, or the seeds of an aggregate).
    pub runs: u64,
    /// The on-time window, % of the period (also the shortfall of outputs allowed).
    pub tolerance_pct: f64,
    /// Inter-arrivals within the tolerance.
    pub on_time: u64,
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

impl RunMetrics {
    pub fn outputs_produced(&self) -> u64 {
        self.produced.iter().sum()
    }
    pub fn outputs_expected(&self) -> u64 {
        self.expected_per_task * self.produced.len() as u64
    }
    /// Tasks that produced fewer outputs than expected by more than the on-time tolerance's
    /// share: a task that keeps its rate within the tolerance is not short (NOS's releases
    /// drift by design -- each one period after the last actual start -- and so come a little
    /// fewer than the grid's).
    pub fn short_tasks(&self) -> usize {
        let allowed = (self.expected_per_task as f64 * self.tolerance_pct / 100.0).floor() as u64;
        self.produced
            .iter()
            .filter(|&&p| p + allowed < self.expected_per_task)
            .count()
    }
    /// Some periodic work or some stimulus was not done.
    pub fn overloaded(&self) -> bool {
        self.short_tasks() > 0 || self.unanswered > 0
    }
    /// The share of the expected inter-arrivals that came on time; `None` if the workload
    /// expects none.
    pub fn on_time_share(&self) -> Option<f64> {
        // Each run's first output of a task starts its inter-arrivals.
        let intervals =
            self.expected_per_task.saturating_sub(self.runs) * self.produced.len() as u64;
        (intervals > 0).then(|| (self.on_time as f64 / intervals as f64).min(1.0))
    }
}

/// The metrics of one run from its IO record (in cycle order) and its statistics.
pub fn measure(record: &[IoEvent], stats: &Stats, want: &Expected) -> RunMetrics {
    let mut m = RunMetrics {
        produced: vec![0; want.tasks as usize],
        expected_per_task: want.outputs_per_task,
        runs: 1,
        tolerance_pct: want.tolerance_pct,
        ..RunMetrics::default()
    };
    let period_ns = want.output_period_us as i64 * 1000;
    let tolerance_ns = (period_ns as f64 * want.tolerance_pct / 100.0).round() as i64;
    let end_ns = (stats.sim_time_s * 1e9).round() as i64;
    let mut last_out: BTreeMap<u32, i64> = BTreeMap::new();
    for e in record {
        let t_ns = time_ns(e);
        let port = e.port;
        match e.kind {
            IoKind::Out if port >= 1 && port <= want.tasks => {
                m.produced[port as usize - 1] += 1;
                if let Some(prev) = last_out.insert(port, t_ns) {
                    let d = t_ns - prev;
                    let dev = d - period_ns;
                    m.jitter_ns.push(dev);
                    if dev.abs() <= tolerance_ns {
                        m.on_time += 1;
                    }
                    if d * 2 > period_ns * 3 {
                        m.deadline_misses += 1;
                    }
                }
            }
            _ => {}
        }
    }
    // One response answers every stimulus latched before it (events that came while the
    // line was still pending share one interrupt): measure's `next` pairing.
    let delay = pair(
        record,
        &EventSel::Stimulus { line: 0 },
        &EventSel::Out {
            port: 0,
            value: None,
        },
        Policy::Next,
    );
    m.delay_ns = delay.ns();
    let missed = delay
        .unpaired_starts
        .iter()
        .filter(|s| time_ns(s) <= end_ns - STIMULUS_GRACE_NS)
        .count() as u64;
    m.stimuli = m.delay_ns.len() as u64 + missed;
    m.unanswered = missed;

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

/// The q-quantile (0..=1) of the samples, in microseconds (nearest rank: measure's
/// percentile); `None` if there are none.
pub fn quantile_us(samples_ns: &[i64], q: f64) -> Option<f64> {
    percentile(samples_ns, q).map(|v| v as f64 / 1000.0)
}

/// The q-quantile of the samples' magnitudes |x|, in microseconds; `None` if there are none.
pub fn abs_quantile_us(samples_ns: &[i64], q: f64) -> Option<f64> {
    let abs: Vec<i64> = samples_ns.iter().map(|x| x.abs()).collect();
    quantile_us(&abs, q)
}

pub fn mean_us(samples_ns: &[i64]) -> Option<f64> {
    mean(samples_ns).map(|m| m / 1000.0)
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
        let category = |cycles| crate::run_stats::CategoryStats {
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
            run: None,
            sim_time_s: 0.006,
            ..Stats::default()
        };
        let want = Expected {
            tasks: 2,
            output_period_us: 1000,
            outputs_per_task: 5,
            tolerance_pct: 1.0,
        };
        let m = measure(&record, &stats, &want);
        assert_eq!(m.jitter_ns, vec![0, 10_000, 990_000]);
        assert_eq!(m.deadline_misses, 1);
        assert_eq!(m.delay_ns, vec![30_000, 20_000]);
        // The stimulus at 4.1 ms is unanswered: more than the grace before the 6 ms end.
        assert_eq!((m.stimuli, m.unanswered), (3, 1));
        assert_eq!(m.produced, vec![4, 0]);
        assert_eq!((m.outputs_produced(), m.outputs_expected()), (4, 10));
        assert_eq!(m.short_tasks(), 2);
        assert!(m.overloaded());
        // 2 of the 3 inter-arrivals within 10 us, out of 2 x 4 expected.
        assert_eq!(m.on_time, 2);
        assert_eq!(m.on_time_share(), Some(0.25));
        assert!((m.utilisation - 0.75).abs() < 1e-12);
        let h = histogram(&m.jitter_ns, 10);
        assert_eq!(h.len(), 3);
        assert_eq!(h[0], (0.0, 1.0 / 3.0));
        assert_eq!(h[1].0, 10.0);
        assert_eq!(quantile_us(&m.delay_ns, 1.0), Some(30.0));
        assert_eq!(abs_quantile_us(&[-7_000, 2_000, 3_000], 1.0), Some(7.0));
        assert_eq!(quantile_us(&[], 0.5), None);
        assert_eq!(mean_us(&[]), None);
    }

    #[test]
    fn a_stimulus_in_the_last_millisecond_is_in_flight_not_unanswered() {
        let at = |us: u128, kind: IoKind| IoEvent {
            cycle: us as u64,
            time_fs: us * 1_000_000_000,
            kind,
            port: 0,
            value: 0,
        };
        let stats = Stats {
            sim_time_s: 0.010,
            ..Stats::default()
        };
        let want = Expected {
            tasks: 1,
            output_period_us: 1000,
            outputs_per_task: 0,
            tolerance_pct: 1.0,
        };
        let m = measure(
            &[at(8_900, IoKind::Stimulus), at(9_100, IoKind::Stimulus)],
            &stats,
            &want,
        );
        assert_eq!((m.stimuli, m.unanswered), (1, 1));
        let m = measure(&[at(9_100, IoKind::Stimulus)], &stats, &want);
        assert_eq!((m.stimuli, m.unanswered), (0, 0));
        assert!(!m.overloaded());
        assert_eq!(m.on_time_share(), None);
    }

    #[test]
    fn a_rate_within_the_tolerance_is_not_short() {
        let m = RunMetrics {
            produced: vec![990, 989],
            expected_per_task: 1000,
            runs: 1,
            tolerance_pct: 1.0,
            ..RunMetrics::default()
        };
        assert_eq!(m.short_tasks(), 1); // 10 fewer is within 1 %, 11 is not
        assert!(m.overloaded());
    }

    #[test]
    fn histogram_centres_bins_on_zero() {
        let h = histogram(&[-4_999, 4_999, 5_000, -5_001], 10);
        assert_eq!(h, vec![(-10.0, 0.25), (0.0, 0.5), (10.0, 0.25)]);
    }
}
