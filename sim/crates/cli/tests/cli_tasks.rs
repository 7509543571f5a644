//! `ubik run --stats` per task and per interrupt line (docs/observe.md, "Tasks and interrupt
//! lines"; docs/contract.md, `tasks` and `irqs`): the applications of tests/observe, whose
//! figures are known by construction, give exactly their activations, preemptions and
//! responses, CPU times within their bounds, and the timer's service times; bare metal has
//! no tasks; without the observer both objects are null.

mod support;

use serde_json::Value;
use std::path::{Path, PathBuf};
use support::*;

/// Builds tests/observe/NAME into `dir/NAME.elf` with `ubik build`.
fn build(dir: &Path, name: &str) -> PathBuf {
    require_gcc();
    let app = repo_root().join("tests/observe").join(name);
    let elf = dir.join(format!("{name}.elf"));
    let r = ubik(&[
        "build".as_ref(),
        app.as_os_str(),
        "-o".as_ref(),
        elf.as_os_str(),
    ]);
    assert_eq!(r.code, 0, "ubik build {name}: {}", r.stderr);
    elf
}

/// `--stats` of a run of `elf` with `extra` arguments.
fn stats(elf: &Path, d: &Path, extra: &[&str]) -> Value {
    let st = d.join("s.json");
    let mut args = vec![elf.as_os_str(), "--stats".as_ref(), st.as_os_str()];
    args.extend(extra.iter().map(std::ffi::OsStr::new));
    let r = ubik_run(&args);
    assert_eq!(r.code, 0, "stderr: {}", r.stderr);
    read_json(&st)
}

fn counts(t: &Value) -> (u64, u64, u64) {
    let n = |k: &str| t[k].as_u64().unwrap_or_else(|| panic!("{k} in {t}"));
    (n("activations"), n("preemptions"), n("responses"))
}

#[test]
fn periodic_tasks_have_their_known_figures() {
    let d = scratch("tasksper");
    let elf = build(&d, "periodic");
    let v = stats(&elf, &d, &[]);
    let tasks = v["tasks"].as_object().expect("tasks object");
    let names: Vec<&str> = tasks.keys().map(String::as_str).collect();
    assert_eq!(
        names,
        ["fast", "idle", "slow"],
        "the boot context is no task"
    );
    let (fast, slow, idle) = (&tasks["fast"], &tasks["slow"], &tasks["idle"]);
    assert_eq!(counts(fast), (5, 0, 5), "fast: {fast}");
    assert_eq!(counts(slow), (6, 4, 1), "slow: {slow}");
    assert_eq!(counts(idle), (1, 1, 0), "idle: {idle}");
    // fast: 4 x 20000 cycles of work, and a little kernel time per activation.
    let cpu = |t: &Value| t["cpu_cycles"].as_u64().unwrap();
    assert!((80_000..80_000 + 5 * 500).contains(&cpu(fast)), "{fast}");
    assert!((f(fast, "cpu_us") - cpu(fast) as f64 / 100.0).abs() < 1e-6);
    // Its responses: 200 us of work each (and the tail's wake-up), the last one short.
    let (p50, max) = (f(fast, "response_p50_us"), f(fast, "response_max_us"));
    assert!(
        (200.0..210.0).contains(&p50) && (p50..210.0).contains(&max),
        "{fast}"
    );
    // slow's one response starts at its activation in main, before fast's first run: the
    // release is the store that made it ready, not its first switch-in (200 us later).
    let r = f(slow, "response_max_us");
    assert!((5000.0..5010.0).contains(&r), "{slow}");
    assert_eq!(f(slow, "response_p50_us"), r);
    // The idle task sleeps the tick between slow's sleep and its end.
    assert!((99_000..101_000).contains(&cpu(idle)), "{idle}");
    let all: u64 = tasks.values().map(cpu).sum();
    assert!(
        all <= u(&v, "cycles") && all * 100 > u(&v, "cycles") * 97,
        "{all} of {v}"
    );
    // Six ticks, each a timer interrupt; the kernel's tail is not a line.
    let timer = &v["irqs"]["timer"];
    assert_eq!(timer["count"].as_u64(), Some(6), "{v}");
    let (mean, maxc) = (
        f(timer, "mean_cycles"),
        timer["max_cycles"].as_u64().unwrap(),
    );
    assert!(mean > 20.0 && mean <= maxc as f64 && maxc < 300, "{timer}");
    assert!(v["irqs"].get("software").is_none(), "{v}");
}

#[test]
fn yields_are_preemptions_and_a_deleted_task_ends_its_response() {
    let d = scratch("tasks2t");
    let elf = build(&d, "two_tasks");
    let v = stats(&elf, &d, &[]);
    let t = &v["tasks"];
    // ping pong ping pong ping pong ping pong idle pong (tests/observe/two_tasks/main.c).
    assert_eq!(counts(&t["ping"]), (4, 3, 1), "{t}");
    assert_eq!(counts(&t["pong"]), (5, 3, 1), "{t}");
    assert_eq!(counts(&t["idle"]), (1, 1, 0), "{t}");
    assert!(t["idle"]["response_p99_us"].is_null());
}

#[test]
fn bare_metal_has_lines_but_no_tasks_and_no_energy_has_neither() {
    let d = scratch("tasksbare");
    let v = stats(&firmware("idle_short"), &d, &[]);
    assert_eq!(v["tasks"], serde_json::json!({}));
    assert!(v["irqs"]["timer"]["count"].as_u64().unwrap() >= 20, "{v}");
    assert!(v["irqs"]["timer"]["name"].is_null());
    let v = stats(&firmware("idle_short"), &d, &["--no-energy"]);
    assert!(v["tasks"].is_null() && v["irqs"].is_null(), "{v}");
}
