//! The hypervisor experiment's figures, as pure functions: one run's from its IO record and
//! console output ([`run_figures`]), the experiment's from every run's ([`combine`]), and
//! the study's findings ([`findings`]).
//!
//! From a run's IO record (the real-time application's pins, bench/hypervisor/rt/main.c):
//! - task switches: the windows between consecutive task marks (a rising edge of pin 2 or 3)
//!   within a burst (2 x `rt_burst` marks each);
//! - interrupt latency: from a probe (stimulus line 4) that lands inside a burst, while the
//!   tasks run, to the next rising edge of pin 5 (Rhealstone's and seed paper 004's);
//! - wake latency: the same for a probe between bursts and for an event on line 3 (to pin 4),
//!   which find the partition idle.
//!
//! Each latency pairs a stimulus with the next rising edge of its pin by `measure::edges`'
//! `first` policy: stimuli that pile up before the handler runs are served by one, the first
//! of them starting the latency. From the console under the hypervisor (`hv: report ...`,
//! `hv: partition gp ...`): the run's time and partition switches, the general-purpose
//! partition's work units and CPU time. Every figure in microseconds (from whole
//! nanoseconds), worst case and median (`_p50`: the textbook median, the mean of the two
//! middle values for an even count, as the published figures are), rounded to the nanosecond.

use crate::experiment::measure::dist::median;
use crate::experiment::measure::edges::{pair, time_ns, Edge, EventSel, Policy};
use machine::record::IoEvent;
use serde_json::{json, Map, Value};

/// Seed paper 004, Table 1: FreeRTOS alone and beside Linux on the QPlus hypervisor.
pub fn paper() -> Value {
    json!({
        "alone": {"task_switch_us": 3.5, "irq_latency_us": 3.0},
        "hypervisor": {"task_switch_us": 4000.0, "irq_latency_us": 150.0},
    })
}

/// A rising edge of `pin`.
const fn rise(pin: u32) -> EventSel {
    EventSel::Pin {
        pin,
        edge: Edge::Rise,
    }
}

/// The real-time application's marks (bench/hypervisor/rt/main.c): each task marks its turn
/// on its pin; line 3's event handler marks pin 4 and line 4's probe handler pin 5.
const TASK_MARKS: [EventSel; 2] = [rise(2), rise(3)];
const EVENT: (EventSel, EventSel) = (EventSel::Stimulus { line: 3 }, rise(4));
const PROBE: (EventSel, EventSel) = (EventSel::Stimulus { line: 4 }, rise(5));

/// The figures each run has and the experiment takes the worst of, in order.
pub const FIGURES: [&str; 6] = [
    "task_switch_us",
    "task_switch_us_p50",
    "irq_latency_us",
    "irq_latency_us_p50",
    "wake_latency_us",
    "wake_latency_us_p50",
];

/// `x` rounded to `places` decimals, as the figures are published: the decimal nearest to
/// the exact binary value (ties to even), read back.
pub fn round_to(x: f64, places: usize) -> f64 {
    format!("{x:.places$}").parse().unwrap_or(x)
}

/// Nanoseconds in microseconds, to the nanosecond.
fn us(ns: f64) -> f64 {
    round_to(ns / 1000.0, 3)
}

/// (start time, latency) in nanoseconds of each served event: `path`'s start paired with the
/// next end, one start at a time.
fn latencies(record: &[IoEvent], path: &(EventSel, EventSel)) -> Vec<(i64, i64)> {
    pair(record, &path.0, &path.1, Policy::First)
        .pairs
        .iter()
        .map(|p| (time_ns(&p.start), p.ns()))
        .collect()
}

/// The task switches in nanoseconds (between consecutive marks within a burst) and each
/// burst's (first mark, last mark).
fn switches_and_bursts(record: &[IoEvent], burst: u64) -> (Vec<i64>, Vec<(i64, i64)>) {
    let marks: Vec<i64> = record
        .iter()
        .filter(|e| TASK_MARKS.iter().any(|m| m.matches(e)))
        .map(time_ns)
        .collect();
    let per = (2 * burst) as usize;
    let switches = (0..marks.len().saturating_sub(1))
        .filter(|k| k / per == (k + 1) / per)
        .map(|k| marks[k + 1] - marks[k])
        .collect();
    let bursts = (0..marks.len())
        .step_by(per)
        .map(|k| (marks[k], marks[(k + per).min(marks.len()) - 1]))
        .collect();
    (switches, bursts)
}

/// What the hypervisor reports on the console at the end of a run.
struct HvReport {
    /// `hv: report policy=P time_us=T switches=S`: the run's time and partition switches.
    time_us: u64,
    partition_switches: u64,
    /// `hv: partition gp STATE [status=N] cpu_us=C progress=U`: (C, U).
    gp: Option<(u64, u64)>,
}

/// The hypervisor's report, when the console has one.
fn hv_report(console: &str) -> Option<HvReport> {
    let num = |t: &str, key: &str| t.strip_prefix(key)?.parse::<u64>().ok();
    let report = console.lines().find_map(|l| {
        let t: Vec<&str> = l.split(' ').collect();
        match t[..] {
            ["hv:", "report", p, time, sw] if p.starts_with("policy=") => {
                Some((num(time, "time_us=")?, num(sw, "switches=")?))
            }
            _ => None,
        }
    })?;
    let gp = console.lines().find_map(|l| {
        let t: Vec<&str> = l.split(' ').collect();
        let (cpu, progress) = match t[..] {
            ["hv:", "partition", "gp", _, s, cpu, p] if num(s, "status=").is_some() => (cpu, p),
            ["hv:", "partition", "gp", _, cpu, p] => (cpu, p),
            _ => return None,
        };
        Some((num(cpu, "cpu_us=")?, num(progress, "progress=")?))
    });
    Some(HvReport {
        time_us: report.0,
        partition_switches: report.1,
        gp,
    })
}

/// One run's figures (a JSON object) from its IO record (in time order) and console output;
/// `burst` is the round trips per burst. An error says what the record lacks.
pub fn run_figures(record: &[IoEvent], console: &str, burst: u64) -> Result<Value, String> {
    let (switches, bursts) = switches_and_bursts(record, burst);
    let starts: Vec<i64> = bursts.iter().map(|b| b.0).collect();
    let mut wake: Vec<i64> = latencies(record, &EVENT)
        .into_iter()
        .map(|(_, lat)| lat)
        .collect();
    let mut busy = Vec::new();
    for (at, lat) in latencies(record, &PROBE) {
        // The last burst that started at or before the probe: is the probe inside it?
        let i = starts.partition_point(|&s| s <= at);
        if i > 0 && at <= bursts[i - 1].1 {
            busy.push(lat);
        } else {
            wake.push(lat);
        }
    }
    if switches.is_empty() || busy.is_empty() || wake.is_empty() {
        return Err(
            "no task switches, no probes inside a burst or no wake-ups measured; expected the \
             real-time application's pins 2..5 in the IO record"
                .into(),
        );
    }
    let mut out = Map::new();
    for (name, xs) in [
        ("task_switch_us", &switches),
        ("irq_latency_us", &busy),
        ("wake_latency_us", &wake),
    ] {
        let worst = xs.iter().copied().max().unwrap_or(0);
        out.insert(name.into(), json!(us(worst as f64)));
        out.insert(format!("{name}_p50"), json!(us(median(xs).unwrap_or(0.0))));
    }
    out.insert("task_switches".into(), json!(switches.len()));
    out.insert("interrupts".into(), json!(busy.len()));
    out.insert("wake_ups".into(), json!(wake.len()));
    if let Some(HvReport {
        time_us,
        partition_switches,
        gp,
    }) = hv_report(console)
    {
        out.insert("time_us".into(), json!(time_us));
        out.insert("partition_switches".into(), json!(partition_switches));
        if let (Some((cpu_us, units)), true) = (gp, time_us > 0) {
            let t = time_us as f64;
            out.insert("gp_units".into(), json!(units));
            out.insert(
                "gp_throughput".into(),
                json!(round_to(units as f64 / (t / 1e6), 1)),
            );
            out.insert("gp_cpu_share".into(), json!(round_to(cpu_us as f64 / t, 4)));
        }
    }
    Ok(Value::Object(out))
}

fn figure(run: &Value, key: &str) -> f64 {
    run.get(key).and_then(Value::as_f64).unwrap_or(0.0)
}

/// The experiment's result (`hypervisor.json`) from the runs' figures: `alone`, and per
/// policy its runs in the order of `loads` (name, figures). `headline` names the load whose
/// general-purpose throughput is `gp_throughput`; `setup` is the experiment file. An error
/// names what a run lacks.
pub fn combine(
    alone: &Value,
    policies: &[(&str, Vec<(&str, Value)>)],
    headline: &str,
    setup: Value,
) -> Result<Value, String> {
    let alone: Map<String, Value> = FIGURES
        .iter()
        .map(|k| (k.to_string(), json!(figure(alone, k))))
        .collect();
    let mut result = Map::new();
    let mut by_load = Map::new();
    let (mut gp_throughput, mut gp_cpu_share, mut ratios) = (Map::new(), Map::new(), Map::new());
    for (pol, runs) in policies {
        let mut worst = Map::new();
        for k in FIGURES {
            let w = runs.iter().map(|(_, r)| figure(r, k)).fold(0.0, f64::max);
            worst.insert(k.into(), json!(w));
        }
        let mut ratio = Map::new();
        for k in FIGURES {
            let a = alone[k].as_f64().unwrap_or(0.0);
            if a <= 0.0 {
                return Err(format!("alone: {k} is 0; expected a measured figure"));
            }
            let w = worst[k].as_f64().unwrap_or(0.0);
            ratio.insert(k.into(), json!(round_to(w / a, 2)));
        }
        for (load, r) in runs {
            let slot = by_load
                .entry(load.to_string())
                .or_insert_with(|| Value::Object(Map::new()));
            slot[*pol] = r.clone();
            if *load == headline {
                for (key, into) in [
                    ("gp_throughput", &mut gp_throughput),
                    ("gp_cpu_share", &mut gp_cpu_share),
                ] {
                    let v = r.get(key).ok_or_else(|| {
                        format!("{pol}-{load}: no {key}; expected the hypervisor's report on the console (hv: report, hv: partition gp)")
                    })?;
                    into.insert(pol.to_string(), v.clone());
                }
            }
        }
        result.insert(pol.to_string(), Value::Object(worst));
        ratios.insert(pol.to_string(), Value::Object(ratio));
    }
    result.insert("alone".into(), Value::Object(alone));
    result.insert("gp_throughput".into(), Value::Object(gp_throughput));
    result.insert("gp_throughput_load".into(), json!(headline));
    result.insert("gp_cpu_share".into(), Value::Object(gp_cpu_share));
    result.insert("ratio_to_alone".into(), Value::Object(ratios));
    result.insert("by_load".into(), Value::Object(by_load));
    result.insert("paper".into(), paper());
    result.insert("setup".into(), setup);
    Ok(Value::Object(result))
}

/// The study's findings on a run of every policy and load (`by_load[LOAD][POLICY]`, and
/// `alone`): the fair policy degrades the worst interrupt latency a hundredfold, the rt
/// policy does not, keeps the medians of task switch and interrupt latency within 2x of the
/// application alone, and lets the general-purpose partition progress. What does not hold,
/// one line each (empty: every finding holds).
pub fn findings(alone: &Value, by_load: &[(&str, &Value, &Value)]) -> Vec<String> {
    let mut bad = Vec::new();
    let a = |k: &str| figure(alone, k);
    for (load, fair, rt) in by_load {
        // A short run may see no burst cut by the end of a turn: the wake latency shows
        // fair's wait.
        let fair_worst = figure(fair, "irq_latency_us").max(figure(fair, "wake_latency_us"));
        if fair_worst < 100.0 * a("irq_latency_us") {
            bad.push(format!(
                "{load}: fair's worst interrupt latency {fair_worst} us is not 100x the alone {} us",
                a("irq_latency_us")
            ));
        }
        if figure(rt, "wake_latency_us") > 100.0 * a("irq_latency_us") {
            bad.push(format!(
                "{load}: rt wake latency {} us degraded like fair's",
                figure(rt, "wake_latency_us")
            ));
        }
        for k in ["task_switch_us_p50", "irq_latency_us_p50"] {
            if figure(rt, k) > 2.0 * a(k) {
                bad.push(format!(
                    "{load}: rt {k} {} us over 2x alone {}",
                    figure(rt, k),
                    a(k)
                ));
            }
        }
        if figure(rt, "gp_throughput") <= 0.0 {
            bad.push(format!(
                "{load}: the general-purpose partition made no progress under rt"
            ));
        }
    }
    bad
}

#[cfg(test)]
mod tests {
    use super::*;
    use machine::record::IoKind;

    /// An event at `t` microseconds (100 MHz: 100 cycles a microsecond).
    fn ev(t_us: f64, kind: IoKind, port: u32, value: u32) -> IoEvent {
        let cycle = (t_us * 100.0).round() as u64;
        IoEvent {
            cycle,
            time_fs: cycle as u128 * 10_000_000,
            kind,
            port,
            value,
        }
    }
    fn pin(t: f64, p: u32) -> IoEvent {
        ev(t, IoKind::Gpio, p, 1)
    }
    fn stim(t: f64, line: u32) -> IoEvent {
        ev(t, IoKind::Stimulus, line, 0)
    }

    #[test]
    fn rounding_is_to_the_nearest_decimal_ties_to_even() {
        assert_eq!(round_to(0.125, 2), 0.12);
        assert_eq!(round_to(0.375, 2), 0.38);
        assert_eq!(round_to(1.0005, 3), 1.0); // 1.000499999... in binary
        assert_eq!(round_to(2571.66, 1), 2571.7);
    }

    #[test]
    fn piled_up_stimuli_are_served_by_one_edge_from_the_first() {
        let r = [
            stim(10.0, 4),
            stim(11.0, 4),
            pin(12.0, 5),
            pin(13.0, 5), // no stimulus pending: not a latency
            stim(20.0, 4),
        ];
        assert_eq!(latencies(&r, &PROBE), vec![(10_000, 2_000)]);
    }

    /// Two bursts of one round trip (two marks each), a probe inside the first, one between
    /// the bursts, an event on line 3 served on pin 4.
    fn two_bursts() -> Vec<IoEvent> {
        vec![
            stim(0.0, 3),
            pin(1.0, 4),
            pin(2.0, 2),
            stim(2.5, 4),
            pin(3.0, 5),
            pin(4.0, 3),
            stim(5.0, 4),
            pin(5.5, 5),
            pin(10.0, 2),
            pin(11.0, 3),
        ]
    }

    #[test]
    fn probes_inside_a_burst_are_interrupt_latency_others_wake_latency() {
        let f = run_figures(&two_bursts(), "", 1).unwrap();
        // Switches within a burst only: 2->4 and 10->11, not 4->10.
        assert_eq!(f["task_switches"], 2);
        assert_eq!(f["task_switch_us"], 2.0);
        assert_eq!(f["task_switch_us_p50"], 1.5);
        assert_eq!(f["interrupts"], 1);
        assert_eq!(f["irq_latency_us"], 0.5);
        // The line-3 event (1 us) and the probe between bursts (0.5 us).
        assert_eq!(f["wake_ups"], 2);
        assert_eq!(f["wake_latency_us"], 1.0);
        assert_eq!(f["wake_latency_us_p50"], 0.75);
        assert!(f.get("time_us").is_none());
    }

    #[test]
    fn the_hypervisors_report_gives_time_and_throughput() {
        let console = "rt done\nhv: report policy=rt time_us=2000000 switches=640\n\
                       hv: partition rt exited status=0 cpu_us=10\n\
                       hv: partition gp running cpu_us=1200000 progress=5143\n";
        let f = run_figures(&two_bursts(), console, 1).unwrap();
        assert_eq!(f["time_us"], 2_000_000);
        assert_eq!(f["partition_switches"], 640);
        assert_eq!(f["gp_units"], 5143);
        assert_eq!(f["gp_throughput"], 2571.5);
        assert_eq!(f["gp_cpu_share"], 0.6);
    }

    /// The first 4 ms of a real run's IO record (rt policy, medium load; its falling edges
    /// left out) and its console output, as `ubik run --io` wrote them.
    fn real_run() -> (Vec<IoEvent>, &'static str) {
        let csv = include_str!("../../../tests/data/hv-rt-medium-4ms.io.csv");
        let record = csv
            .lines()
            .skip(1)
            .map(|l| {
                let f: Vec<&str> = l.split(',').collect();
                let cycle: u64 = f[0].parse().unwrap();
                let kind = match f[2] {
                    "stimulus" => IoKind::Stimulus,
                    "gpio" => IoKind::Gpio,
                    other => panic!("kind {other}"),
                };
                let e = IoEvent {
                    cycle,
                    time_fs: u128::from(cycle) * 10_000_000, // 100 MHz
                    kind,
                    port: f[3].parse().unwrap(),
                    value: f[4].parse().unwrap(),
                };
                assert_eq!(e.time_s().to_string(), f[1], "the record's clock");
                e
            })
            .collect();
        let console = include_str!("../../../tests/data/hv-rt-medium.console.txt");
        (record, console)
    }

    #[test]
    fn a_real_record_gives_the_figures_the_python_reduction_gave() {
        // The figures bench/hypervisor/hv_json.py (the reduction this one replaced) computed
        // from the same files: three whole bursts and a cut one, an even count of wake-ups.
        let (record, console) = real_run();
        let f = run_figures(&record, console, 200).unwrap();
        let python = json!({"task_switch_us": 2.93, "task_switch_us_p50": 0.87,
            "irq_latency_us": 1.15, "irq_latency_us_p50": 1.14, "wake_latency_us": 7.71,
            "wake_latency_us_p50": 6.885, "task_switches": 1596, "interrupts": 7,
            "wake_ups": 16, "time_us": 152039, "partition_switches": 1433, "gp_units": 390,
            "gp_throughput": 2565.1, "gp_cpu_share": 0.5973});
        assert_eq!(f, python);
    }

    #[test]
    fn a_record_without_the_pins_is_an_error() {
        let e = run_figures(&[stim(1.0, 4)], "", 1).unwrap_err();
        assert!(e.contains("no task switches"), "{e}");
    }

    #[test]
    fn combine_takes_the_worst_over_loads_and_the_headline_loads_throughput() {
        let run = |x: f64, gp: f64| {
            let mut v = json!({"gp_throughput": gp, "gp_cpu_share": 0.5});
            for k in FIGURES {
                v[k] = json!(x);
            }
            v
        };
        let alone = run(2.0, 0.0);
        let policies = [
            (
                "fair",
                vec![("light", run(4.0, 10.0)), ("heavy", run(8.0, 20.0))],
            ),
            (
                "rt",
                vec![("light", run(3.0, 30.0)), ("heavy", run(2.0, 40.0))],
            ),
        ];
        let r = combine(&alone, &policies, "heavy", json!({"kind": "hypervisor"})).unwrap();
        assert_eq!(r["fair"]["irq_latency_us"], 8.0);
        assert_eq!(r["rt"]["task_switch_us_p50"], 3.0);
        assert_eq!(r["ratio_to_alone"]["fair"]["wake_latency_us"], 4.0);
        assert_eq!(r["ratio_to_alone"]["rt"]["wake_latency_us"], 1.5);
        assert_eq!(r["gp_throughput"]["rt"], 40.0);
        assert_eq!(r["gp_throughput_load"], "heavy");
        assert_eq!(r["by_load"]["light"]["fair"]["gp_throughput"], 10.0);
        assert_eq!(r["alone"].as_object().unwrap().len(), 6);
        assert_eq!(r["paper"]["hypervisor"]["task_switch_us"], 4000.0);
        assert_eq!(r["setup"]["kind"], "hypervisor");
    }

    #[test]
    fn findings_name_each_one_that_does_not_hold() {
        let alone =
            json!({"irq_latency_us": 1.0, "task_switch_us_p50": 1.0, "irq_latency_us_p50": 1.0});
        let fair = json!({"irq_latency_us": 500.0, "wake_latency_us": 5.0});
        let good = json!({"wake_latency_us": 5.0, "task_switch_us_p50": 1.5,
                          "irq_latency_us_p50": 1.9, "gp_throughput": 10.0});
        assert!(findings(&alone, &[("light", &fair, &good)]).is_empty());
        let bad = json!({"wake_latency_us": 500.0, "task_switch_us_p50": 2.5,
                         "irq_latency_us_p50": 1.0, "gp_throughput": 0.0});
        let weak_fair = json!({"irq_latency_us": 50.0, "wake_latency_us": 5.0});
        let f = findings(&alone, &[("heavy", &weak_fair, &bad)]);
        assert_eq!(f.len(), 4, "{f:?}");
        assert!(f[0].starts_with("heavy: fair's worst interrupt latency 50 us"));
        assert!(f[3].contains("no progress"));
    }
}
