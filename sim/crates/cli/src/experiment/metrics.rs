//! What one run measured, from its IO record and its statistics (the SimBed paper's metrics):
//!
//! - **jitter**: for each periodic output port (OUT[1..=tasks]), each inter-arrival time of
//!   its writes minus the expected output period -- positive is late, negative early;
//! - **delay**: for each stimulus of fast line 0 (the aperiodic IPC interrupt), the time to
//!   the next write to OUT[0] (the responding job's output), as the outside world sees it;
//! - **deadline misses**: periodic inter-arrivals longer than 1.5 periods;
//! - **utilisation**: the share of cycles not idle; energy and cycles by category.

use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

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

/// Reads the IO record `io_csv` and the stats `stats_json` of one run.
pub fn measure(
    io_csv: &Path,
    stats_json: &Path,
    tasks: u32,
    output_period_us: u32,
) -> Result<RunMetrics, String> {
    let mut m = RunMetrics::default();
    let text = std::fs::read_to_string(io_csv).map_err(|e| format!("{}: {e}", io_csv.display()))?;
    let period_ns = output_period_us as i64 * 1000;
    let mut last_out: BTreeMap<u32, i64> = BTreeMap::new();
    let mut pending: Vec<i64> = Vec::new();
    for (n, line) in text.lines().enumerate().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        if f.len() != 5 {
            return Err(format!("{}:{}: expected 5 fields", io_csv.display(), n + 1));
        }
        let t: f64 = f[1]
            .parse()
            .map_err(|_| format!("{}:{}: bad time", io_csv.display(), n + 1))?;
        let t_ns = (t * 1e9).round() as i64;
        let port: u32 = f[3]
            .parse()
            .map_err(|_| format!("{}:{}: bad port", io_csv.display(), n + 1))?;
        match f[2] {
            "stimulus" if port == 0 => {
                m.stimuli += 1;
                pending.push(t_ns);
            }
            "out" if port == 0 => {
                // One response answers every stimulus latched before it (events that came
                // while the line was still pending share one interrupt).
                for s in pending.drain(..) {
                    m.delay_ns.push(t_ns - s);
                }
            }
            "out" if port >= 1 && port <= tasks => {
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

    let stats: Value = serde_json::from_str(
        &std::fs::read_to_string(stats_json)
            .map_err(|e| format!("{}: {e}", stats_json.display()))?,
    )
    .map_err(|e| format!("{}: {e}", stats_json.display()))?;
    m.cycles = stats["cycles"].as_u64().unwrap_or(0);
    m.sim_time_s = stats["sim_time_s"].as_f64().unwrap_or(0.0);
    m.energy_j = stats["energy_j"].as_f64().unwrap_or(0.0);
    m.avg_power_w = stats["avg_power_w"].as_f64().unwrap_or(0.0);
    if let Some(cats) = stats["by_category"].as_object() {
        for (k, v) in cats {
            m.by_category.insert(
                k.clone(),
                (
                    v["cycles"].as_u64().unwrap_or(0),
                    v["energy_j"].as_f64().unwrap_or(0.0),
                ),
            );
        }
    }
    let idle = m.by_category.get("idle").map(|x| x.0).unwrap_or(0);
    m.utilisation = if m.cycles > 0 {
        1.0 - idle as f64 / m.cycles as f64
    } else {
        0.0
    };
    Ok(m)
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
        let dir = std::env::temp_dir().join(format!("ubik-exp-metrics-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let io = dir.join("io.csv");
        // Port 1 every 1 ms, one output 10 us late, one missing (a 2 ms gap); two stimuli
        // answered by one output 30 us after the first.
        std::fs::write(
            &io,
            "cycle,time_s,kind,port,value\n\
             0,0.000000,out,1,0\n\
             0,0.001000,out,1,0\n\
             0,0.001500,stimulus,0,0\n\
             0,0.001510,stimulus,0,1\n\
             0,0.001530,out,0,1\n\
             0,0.002010,out,1,0\n\
             0,0.004000,out,1,0\n\
             0,0.004100,stimulus,0,2\n",
        )
        .unwrap();
        let st = dir.join("s.json");
        std::fs::write(&st, r#"{"cycles": 1000, "sim_time_s": 0.004, "by_category": {"idle": {"cycles": 250, "energy_j": 1e-6}, "user": {"cycles": 750, "energy_j": 3e-6}}}"#).unwrap();
        let m = measure(&io, &st, 1, 1000).unwrap();
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
