//! The figures of one run of an `app` experiment, by name: what `[[expect.bound]]` may bound
//! (checks.rs). One lookup for every family of figures:
//!
//! | name                   | the figure                                              |
//! |------------------------|---------------------------------------------------------|
//! | `cycles`               | the run's cycles                                        |
//! | `sim_time_s`           | its simulated time, seconds                             |
//! | `energy_j`             | its energy, joules                                      |
//! | `latency.NAME.FIGURE`  | `[[latency]]` NAME's `count`, `unpaired`, `min_us`, `mean_us`, `p50_us`, `p90_us`, `p99_us` or `max_us` |
//! | `task.NAME.FIGURE`     | task NAME's `cpu_us`, `activations`, `preemptions`, `response_p50_us`, `response_p99_us` or `response_max_us` (tasks.rs) |
//!
//! A family is added in two places: its names in [`names`] (checked when the file is read,
//! so a bound on a figure that does not exist is an error at its line) and its values in
//! [`Figures`] (filled as each run is measured). A figure a run does not have (a latency's
//! percentiles without a pair) is absent from its [`Figures`], and a bound on it fails.
//! Tasks are known only when a run has been measured (an application may create tasks in
//! its code), so a task figure's FIGURE is checked when the file is read and its NAME by
//! the runs: a task a run does not have fails the bound there.

use super::latency::{us, Latency, Measured};
use crate::run_stats::Stats;
use std::collections::BTreeMap;

/// The run-wide figures.
pub const RUN: [&str; 3] = ["cycles", "sim_time_s", "energy_j"];
/// The figures of each latency pair, `latency.NAME.` before each.
pub const LATENCY: [&str; 8] = [
    "count", "unpaired", "min_us", "mean_us", "p50_us", "p90_us", "p99_us", "max_us",
];

/// The figures of each task, `task.NAME.` before each (the columns of tasks.csv).
pub const TASK: [&str; 6] = [
    "cpu_us",
    "activations",
    "preemptions",
    "response_p50_us",
    "response_p99_us",
    "response_max_us",
];

/// Whether a bound may use `name`: one of `known` (from [`names`]) or a task's figure
/// (`task.NAME.FIGURE`, NAME any task name, FIGURE one of [`TASK`]).
pub fn is_name(known: &[String], name: &str) -> bool {
    known.iter().any(|k| k == name)
        || name
            .strip_prefix("task.")
            .and_then(|r| r.rsplit_once('.'))
            .is_some_and(|(task, f)| !task.is_empty() && TASK.contains(&f))
}

/// Every figure name but the tasks' a bound of the experiment may use.
pub fn names(latencies: &[Latency]) -> Vec<String> {
    let mut v: Vec<String> = RUN.iter().map(|s| s.to_string()).collect();
    for l in latencies {
        v.extend(LATENCY.iter().map(|f| format!("latency.{}.{f}", l.name)));
    }
    v
}

/// What a figure name may be, for the error of a name that is none.
pub fn forms(latencies: &[Latency]) -> String {
    let lat = if latencies.is_empty() {
        "no latency.NAME.FIGURE (the experiment declares no [[latency]])".to_string()
    } else {
        let names: Vec<&str> = latencies.iter().map(|l| l.name.as_str()).collect();
        format!(
            "latency.NAME.FIGURE with NAME one of {} and FIGURE one of {}",
            names.join(", "),
            LATENCY.join(", ")
        )
    };
    format!(
        "{}, or {lat}, or task.NAME.FIGURE with NAME a task of the application and FIGURE one of {}",
        RUN.join(", "),
        TASK.join(", ")
    )
}

/// One run's figures by name.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Figures(pub BTreeMap<String, f64>);

impl Figures {
    /// The run-wide figures (energy only when it was measured).
    pub fn of_run(cycles: u64, sim_time_s: f64, energy_j: Option<f64>) -> Figures {
        let mut f = BTreeMap::new();
        f.insert("cycles".to_string(), cycles as f64);
        f.insert("sim_time_s".to_string(), sim_time_s);
        if let Some(e) = energy_j {
            f.insert("energy_j".to_string(), e);
        }
        Figures(f)
    }

    /// Adds each latency pair's figures.
    pub fn add_latencies(&mut self, lat: &[Latency], measured: &[Measured]) {
        for (l, m) in lat.iter().zip(measured) {
            let mut put = |f: &str, v: f64| {
                self.0.insert(format!("latency.{}.{f}", l.name), v);
            };
            put("count", m.count() as f64);
            put("unpaired", m.unpaired as f64);
            if let Some(d) = m.ns {
                put("min_us", us(d.min));
                put("mean_us", d.mean / 1000.0);
                put("p50_us", us(d.p50));
                put("p90_us", us(d.p90));
                put("p99_us", us(d.p99));
                put("max_us", us(d.max));
            }
        }
    }

    /// Adds each task's figures (`--stats` `tasks`; a response figure only when the task
    /// completed a response).
    pub fn add_tasks(&mut self, stats: &Stats) {
        for (name, v) in super::tasks::figures(stats) {
            if let Some(v) = v {
                self.0.insert(name, v);
            }
        }
    }

    pub fn get(&self, name: &str) -> Option<f64> {
        self.0.get(name).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::app::latency::example;
    use crate::experiment::measure::dist::Distribution;

    #[test]
    fn every_name_has_its_value() {
        let l = [example("h")];
        let mut f = Figures::of_run(1000, 0.5, Some(1e-3));
        f.add_latencies(
            &l,
            &[Measured {
                ns: Distribution::of(&[1000, 3000]),
                unpaired: 2,
            }],
        );
        for n in names(&l) {
            assert!(f.get(&n).is_some(), "{n}");
        }
        assert_eq!(f.get("latency.h.p99_us"), Some(3.0));
        assert_eq!(f.get("latency.h.mean_us"), Some(2.0));
        assert_eq!(f.get("latency.h.unpaired"), Some(2.0));
        let mut none = Figures::of_run(1, 0.0, None);
        none.add_latencies(
            &l,
            &[Measured {
                ns: None,
                unpaired: 0,
            }],
        );
        assert_eq!(
            (none.get("latency.h.p50_us"), none.get("latency.h.count")),
            (None, Some(0.0))
        );
        assert!(forms(&l).contains("NAME one of h"), "{}", forms(&l));
    }

    #[test]
    fn task_figures_by_name() {
        let known = names(&[]);
        assert!(is_name(&known, "task.consumer.response_p99_us"));
        assert!(is_name(&known, "task.a.b.cpu_us"), "a name with a dot");
        assert!(!is_name(&known, "task.consumer.p99_us"));
        assert!(!is_name(&known, "task..cpu_us"));
        assert!(!is_name(&known, "task.cpu_us"));
        assert!(is_name(&known, "cycles"));
        let t = crate::run_stats::TaskStats {
            activations: 4,
            cpu_us: 49.5,
            response_p99_us: Some(17.0),
            ..Default::default()
        };
        let stats = Stats {
            tasks: Some([("consumer".to_string(), t)].into_iter().collect()),
            ..Stats::default()
        };
        let mut f = Figures::default();
        f.add_tasks(&stats);
        assert_eq!(f.get("task.consumer.response_p99_us"), Some(17.0));
        assert_eq!(f.get("task.consumer.activations"), Some(4.0));
        assert_eq!(f.get("task.consumer.response_p50_us"), None);
        assert_eq!(f.get("task.producer.cpu_us"), None);
    }
}
