//! `ubik run --energy | --profile | --trace | --vcd` (docs/observe.md): the two-task kernel
//! application of tests/observe/two_tasks gives the expected task switches in the trace and
//! edges in the VCD; the trace is valid trace-event JSON; observation does not change a
//! single cycle; bad outputs and bad energy figures fail with one line.

mod support;

use serde_json::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use support::*;

/// Builds tests/observe/two_tasks into `dir/two_tasks.elf` with `ubik build`.
fn two_tasks(dir: &Path) -> PathBuf {
    require_gcc();
    let app = repo_root().join("tests/observe/two_tasks");
    let elf = dir.join("two_tasks.elf");
    let r = ubik(&[
        "build".as_ref(),
        app.as_os_str(),
        "-o".as_ref(),
        elf.as_os_str(),
    ]);
    assert_eq!(r.code, 0, "ubik build two_tasks: {}", r.stderr);
    elf
}

fn s(p: &Path) -> &std::ffi::OsStr {
    p.as_os_str()
}

/// Checks the Chrome trace-event format (the JSON object form): every event has the fields
/// its phase needs with the right types, and the complete events ("X") of each thread nest
/// (none partly overlaps another). Returns the events.
fn validate_trace(v: &Value) -> Vec<Value> {
    let ev = v["traceEvents"].as_array().expect("traceEvents array");
    assert!(!ev.is_empty());
    let num = |e: &Value, k: &str| {
        e[k].as_f64()
            .unwrap_or_else(|| panic!("event without numeric {k}: {e}"))
    };
    let int = |e: &Value, k: &str| {
        e[k].as_u64()
            .unwrap_or_else(|| panic!("event without integer {k}: {e}"))
    };
    let mut by_tid: HashMap<u64, Vec<(f64, f64)>> = HashMap::new();
    for e in ev {
        let ph = e["ph"]
            .as_str()
            .unwrap_or_else(|| panic!("event without ph: {e}"));
        assert!(e["name"].is_string(), "event without name: {e}");
        int(e, "pid");
        match ph {
            "X" => {
                let ts = num(e, "ts");
                let dur = num(e, "dur");
                assert!(ts >= 0.0 && dur >= 0.0, "negative time: {e}");
                by_tid
                    .entry(int(e, "tid"))
                    .or_default()
                    .push((ts, ts + dur));
            }
            "C" => {
                assert!(num(e, "ts") >= 0.0);
                let args = e["args"].as_object().expect("counter args");
                assert!(
                    !args.is_empty() && args.values().all(|a| a.is_number()),
                    "{e}"
                );
            }
            "M" => {
                let name = e["name"].as_str().unwrap();
                assert!(
                    matches!(name, "process_name" | "thread_name" | "thread_sort_index"),
                    "metadata {name}"
                );
                assert!(e["args"].is_object(), "{e}");
            }
            "i" => {
                assert!(num(e, "ts") >= 0.0);
                assert!(matches!(e["s"].as_str(), Some("g" | "p" | "t")), "{e}");
            }
            p => panic!("unexpected phase {p}: {e}"),
        }
    }
    for (tid, mut xs) in by_tid {
        xs.sort_by(|a, b| {
            a.0.partial_cmp(&b.0)
                .unwrap()
                .then(b.1.partial_cmp(&a.1).unwrap())
        });
        let mut stack: Vec<f64> = Vec::new();
        let eps = 1e-6;
        for (b, e) in xs {
            while stack.last().is_some_and(|&end| end <= b + eps) {
                stack.pop();
            }
            if let Some(&end) = stack.last() {
                assert!(
                    e <= end + eps,
                    "thread {tid}: slice [{b}, {e}] overlaps one ending at {end}"
                );
            }
            stack.push(e);
        }
    }
    ev.clone()
}

fn thread_names(ev: &[Value]) -> HashMap<u64, String> {
    ev.iter()
        .filter(|e| e["ph"] == "M" && e["name"] == "thread_name")
        .map(|e| {
            (
                e["tid"].as_u64().unwrap(),
                e["args"]["name"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn assert_category_sums(v: &Value, what: &str) {
    let cats = v["by_category"].as_object().unwrap();
    let sum_c: u64 = cats.values().map(|c| c["cycles"].as_u64().unwrap()).sum();
    let sum_i: u64 = cats.values().map(|c| c["instret"].as_u64().unwrap()).sum();
    let sum_e: f64 = cats.values().map(|c| c["energy_j"].as_f64().unwrap()).sum();
    assert_eq!(sum_c, u(v, "cycles"), "{what}: by_category cycles sum");
    assert_eq!(sum_i, u(v, "instret"), "{what}: by_category instret sum");
    let e = f(v, "energy_j");
    assert!(
        (sum_e - e).abs() <= e * 1e-12,
        "{what}: by_category energy sum {sum_e} vs energy_j {e}"
    );
    assert!(e > 0.0, "{what}: energy");
    let t = f(v, "sim_time_s");
    assert!((f(v, "avg_power_w") - e / t).abs() <= 1e-12 * e / t);
    assert!((f(v, "avg_current_a") - e / t / 3.3).abs() <= 1e-12 * e / t);
}

#[test]
fn two_tasks_trace_vcd_profile_and_stats() {
    let d = scratch("obs2t");
    let elf = two_tasks(&d);
    let (t, vcd, p, st) = (
        d.join("t.json"),
        d.join("t.vcd"),
        d.join("p.csv"),
        d.join("s.json"),
    );
    let r = ubik_run(&[
        s(&elf),
        "--trace".as_ref(),
        s(&t),
        "--vcd".as_ref(),
        s(&vcd),
        "--profile".as_ref(),
        s(&p),
        "--stats".as_ref(),
        s(&st),
    ]);
    assert_eq!(r.code, 0, "stderr: {}", r.stderr);
    assert_eq!(r.stdout_str(), "two_tasks: done at tick 2\n");

    // The trace: valid, and the tasks ran in the expected order.
    let v = read_json(&t);
    let ev = validate_trace(&v);
    let names = thread_names(&ev);
    let mut tasks: Vec<(f64, String)> = ev
        .iter()
        .filter(|e| e["ph"] == "X" && e["cat"] == "task")
        .map(|e| {
            (
                e["ts"].as_f64().unwrap(),
                e["name"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    tasks.sort_by(|a, b| a.0.partial_cmp(&b.0).unwrap());
    // A task's slices are cut by the interrupts it takes: the switch order is that of the
    // runs of equal names.
    let mut order: Vec<&str> = tasks.iter().map(|t| t.1.as_str()).collect();
    order.dedup();
    let first = order.iter().position(|&n| n == "ping").expect("ping ran");
    assert_eq!(
        &order[first..],
        ["ping", "pong", "ping", "pong", "ping", "pong", "ping", "pong", "idle", "pong"],
        "switch sequence (all: {order:?})"
    );
    assert!(names.values().any(|n| n == "ping (prio 2)"), "{names:?}");
    assert!(names.values().any(|n| n == "idle (prio 255)"), "{names:?}");
    // Two ticks: each a timer interrupt and the kernel's tail (software interrupt).
    let irqs: Vec<&str> = ev
        .iter()
        .filter(|e| e["ph"] == "X" && e["cat"] == "interrupt")
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        irqs.iter().filter(|&&n| n == "timer interrupt").count(),
        2,
        "{irqs:?}"
    );
    // Idle sleeps; power and frequency counters are there.
    assert!(ev.iter().any(|e| e["ph"] == "X" && e["cat"] == "sleep"));
    assert!(ev.iter().any(|e| e["ph"] == "C" && e["name"] == "power"));
    assert!(ev
        .iter()
        .any(|e| e["ph"] == "C" && e["name"] == "frequency"));

    // The VCD: parses, and holds the pins' edges and the port writes in order.
    let mut parser = vcd::Parser::new(std::io::BufReader::new(std::fs::File::open(&vcd).unwrap()));
    let header = parser.parse_header().expect("VCD header");
    let id = |n: &str| {
        header
            .find_var(&["ubik", n])
            .unwrap_or_else(|| panic!("no var {n}"))
            .code
    };
    let (g0, g1, o0, o1) = (id("gpio0"), id("gpio1"), id("out0"), id("out1"));
    let mut edges: Vec<(u64, &str, u32)> = Vec::new();
    let mut out: Vec<(&str, u32)> = Vec::new();
    let mut now = 0;
    let mut dumping = false;
    for c in parser {
        match c.expect("VCD command") {
            vcd::Command::Timestamp(t) => now = t,
            vcd::Command::Begin(_) => dumping = true,
            vcd::Command::End(_) => dumping = false,
            vcd::Command::ChangeScalar(i, val) if !dumping => {
                let level = (val == vcd::Value::V1) as u32;
                if i == g0 {
                    edges.push((now, "gpio0", level));
                } else if i == g1 {
                    edges.push((now, "gpio1", level));
                }
            }
            vcd::Command::ChangeVector(i, bits) if !dumping => {
                let val = bits
                    .iter()
                    .fold(0u32, |a, b| a << 1 | (b == vcd::Value::V1) as u32);
                if i == o0 {
                    out.push(("out0", val));
                } else if i == o1 {
                    out.push(("out1", val));
                }
            }
            _ => {}
        }
    }
    let seq: Vec<(&str, u32)> = edges.iter().map(|e| (e.1, e.2)).collect();
    assert_eq!(
        seq,
        [
            ("gpio0", 1),
            ("gpio1", 1),
            ("gpio0", 0),
            ("gpio0", 1),
            ("gpio1", 0),
            ("gpio1", 1),
            ("gpio0", 0),
            ("gpio0", 1),
            ("gpio1", 0),
            ("gpio1", 1),
            ("gpio0", 0),
            ("gpio1", 0)
        ]
    );
    assert!(edges.windows(2).all(|w| w[0].0 <= w[1].0), "time order");
    assert_eq!(
        out,
        [
            ("out0", 0),
            ("out1", 0),
            ("out0", 1),
            ("out1", 1),
            ("out0", 2),
            ("out1", 2)
        ]
    );

    // The profile: every function that ran, the yields counted as calls.
    let csv = std::fs::read_to_string(&p).unwrap();
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("function,calls,cycles,instret,energy_j"));
    let rows: HashMap<String, Vec<String>> = lines
        .map(|l| {
            let f: Vec<String> = l.split(',').map(String::from).collect();
            (f[0].clone(), f)
        })
        .collect();
    assert_eq!(rows["ping_entry"][1], "1");
    assert_eq!(rows["pong_entry"][1], "1");
    assert_eq!(rows["uk__yield_fast"][1], "6", "six yields");
    let stats = read_json(&st);
    assert_stats_keys(&stats, "two_tasks");
    assert_category_sums(&stats, "two_tasks");
    let prof_cycles: u64 = rows.values().map(|r| r[2].parse::<u64>().unwrap()).sum();
    let prof_instret: u64 = rows.values().map(|r| r[3].parse::<u64>().unwrap()).sum();
    assert_eq!(prof_cycles, u(&stats, "cycles"), "profile cycles sum");
    assert_eq!(prof_instret, u(&stats, "instret"), "profile instret sum");
    let cat = |n: &str| stats["by_category"][n]["cycles"].as_u64().unwrap();
    assert!(cat("idle") > 190_000, "2 ms mostly asleep in the idle task");
    assert!(cat("kernel_sched") > 0 && cat("kernel_time") > 0 && cat("kernel_ipc") > 0);
    assert!(cat("user") > 0 && cat("lisr") > 0);
    assert_eq!(cat("hisr"), 0);
}

/// The deterministic stats and the IO record of a run with `extra` arguments.
fn observed_run(elf: &Path, d: &Path, tag: &str, extra: &[&std::ffi::OsStr]) -> (Value, String) {
    let st = d.join(format!("{tag}.json"));
    let io = d.join(format!("{tag}.csv"));
    let mut args: Vec<&std::ffi::OsStr> =
        vec![s(elf), "--stats".as_ref(), s(&st), "--io".as_ref(), s(&io)];
    args.extend_from_slice(extra);
    let r = ubik_run(&args);
    assert!(r.code == 0, "{tag}: exit {} {}", r.code, r.stderr);
    let mut v = deterministic_part(&read_json(&st));
    let o = v.as_object_mut().unwrap();
    for k in ["energy_j", "avg_power_w", "avg_current_a", "by_category"] {
        o.remove(k);
    }
    (v, std::fs::read_to_string(&io).unwrap())
}

#[test]
fn observation_does_not_change_a_cycle() {
    let d = scratch("obsnop");
    let mut elfs = vec![
        firmware("compute_small"),
        firmware("idle_short"),
        firmware("demo"),
    ];
    elfs.push(two_tasks(&d));
    let t = d.join("t.json");
    let p = d.join("p.csv");
    let vcd = d.join("v.vcd");
    for elf in &elfs {
        let bare = observed_run(elf, &d, "bare", &[]);
        let energy = observed_run(elf, &d, "energy", &["--energy".as_ref()]);
        let all = observed_run(
            elf,
            &d,
            "all",
            &[
                "--trace".as_ref(),
                s(&t),
                "--profile".as_ref(),
                s(&p),
                "--vcd".as_ref(),
                s(&vcd),
            ],
        );
        assert_eq!(bare, energy, "{}: --energy changed the run", elf.display());
        assert_eq!(
            bare,
            all,
            "{}: --trace/--profile/--vcd changed the run",
            elf.display()
        );
    }
}

#[test]
fn bare_metal_gets_energy_profile_and_a_trace_without_tasks() {
    let d = scratch("obsbare");
    let (t, st, vcd) = (d.join("t.json"), d.join("s.json"), d.join("v.vcd"));
    let r = ubik_run(&[
        s(&firmware("idle_short")),
        "--trace".as_ref(),
        s(&t),
        "--stats".as_ref(),
        s(&st),
        "--vcd".as_ref(),
        s(&vcd),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = read_json(&st);
    assert_stats_keys(&v, "idle_short");
    assert_category_sums(&v, "idle_short");
    // Asleep: idle, at sleep power: 5 % of 12 pJ per cycle plus 5 uW / 100 MHz leakage.
    let idle = &v["by_category"]["idle"];
    let slept = u(&v, "cycles") - u(&v, "mcycle");
    assert_eq!(idle["cycles"].as_u64().unwrap(), slept);
    let e = idle["energy_j"].as_f64().unwrap();
    let want = slept as f64 * (0.05 * 12.0 + 0.05) * 1e-12;
    assert!((e - want).abs() < 1e-12, "idle energy {e} vs {want}");
    // The timer interrupt's handler is a LISR.
    assert!(v["by_category"]["lisr"]["cycles"].as_u64().unwrap() > 0);
    let ev = validate_trace(&read_json(&t));
    let names: Vec<String> = thread_names(&ev).into_values().collect();
    assert_eq!(names.len(), 2, "core and interrupts only: {names:?}");
    assert!(!ev.iter().any(|e| e["cat"] == "task"));
    assert!(ev.iter().filter(|e| e["name"] == "timer interrupt").count() >= 20);
    let text = std::fs::read_to_string(&vcd).unwrap();
    let mut parser = vcd::Parser::new(text.as_bytes());
    parser
        .parse_header()
        .expect("a VCD without IO events still parses");
}

#[test]
fn stats_has_energy_unless_no_energy() {
    let d = scratch("obsnull");
    let st = d.join("s.json");
    let r = ubik_run(&[
        s(&firmware("hello")),
        "--stats".as_ref(),
        s(&st),
        "--no-energy".as_ref(),
    ]);
    assert_eq!(r.code, 0);
    let v = read_json(&st);
    assert!(v["energy_j"].is_null());
    assert!(v["by_category"]["user"]["energy_j"].is_null());
    let r = ubik_run(&[s(&firmware("hello")), "--stats".as_ref(), s(&st)]);
    assert_eq!(r.code, 0);
    let v = read_json(&st);
    assert_stats_keys(&v, "hello --stats");
    assert_category_sums(&v, "hello --stats");
    assert!(v["energy_j"].as_f64().unwrap() > 0.0);
    assert_eq!(
        v["by_category"]["user"]["cycles"].as_u64(),
        Some(u(&v, "cycles"))
    );
    // --energy and --no-energy contradict each other: a usage error.
    let r = ubik_run(&[
        s(&firmware("hello")),
        "--stats".as_ref(),
        s(&st),
        "--energy".as_ref(),
        "--no-energy".as_ref(),
    ]);
    assert_eq!(r.code, 64);
}

#[test]
fn unwritable_outputs_fail_with_one_line() {
    let d = scratch("obsbad");
    let bad = d.join("no/such/dir/out");
    for flag in ["--trace", "--vcd", "--profile"] {
        let r = ubik_run(&[s(&firmware("hello")), flag.as_ref(), s(&bad)]);
        assert_one_line_failure(&r, 74, &[flag, "cannot write"], flag);
    }
}

#[test]
fn bad_energy_figures_name_file_line_and_column() {
    let d = scratch("obsbadm");
    for (text, key) in [
        ("[energy]\ne_cycle_pj = -1.0\n", "e_cycle_pj"),
        ("[energy]\nvnom = 0.0\n", "vnom"),
        ("[energy]\nleak_w = \"x\"\n", "leak_w"),
        ("supply_v = -3.3\n", "supply_v"),
    ] {
        let m = d.join("m.toml");
        std::fs::write(&m, text).unwrap();
        let st = d.join("s.json");
        let r = ubik_run(&[
            s(&firmware("hello")),
            "--machine".as_ref(),
            s(&m),
            "--energy".as_ref(),
            "--stats".as_ref(),
            s(&st),
        ]);
        assert_one_line_failure(&r, 65, &[key, "m.toml:"], key);
        let line = r.stderr.lines().next().unwrap();
        assert!(
            line.contains("m.toml:2:") || line.contains("m.toml:1:"),
            "file:line:column in {line:?}"
        );
    }
}
