//! `kind = "threadmetric"` from the command line, without building the suite (the quick run
//! in `make test` builds and runs it, tests/bench/threadmetric-quick.toml): the benchmark's
//! file checks, a bad scheduler property is one line at its place (65), and FreeRTOS's
//! external build step failing is one line naming the job and its build.log.

mod support;
use std::path::Path;
use support::*;

/// `ubik experiment FILE -o OUT EXTRA...` with `FREERTOS_KERNEL_PATH` set to `freertos` (or
/// removed).
fn experiment(file: &Path, out: &Path, extra: &[&str], freertos: Option<&str>) -> Run {
    let mut args = vec![
        "experiment".to_string(),
        file.display().to_string(),
        "-o".into(),
        out.display().to_string(),
    ];
    args.extend(extra.iter().map(|s| s.to_string()));
    ubik_env(&args, &[("FREERTOS_KERNEL_PATH", freertos)])
}

/// A Thread-Metric file in a scratch directory: the repository's sources, one scenario with
/// `schedulers`, and FreeRTOS rows.
fn file(tag: &str, schedulers: &str) -> (std::path::PathBuf, std::path::PathBuf) {
    let d = scratch(tag);
    let bench = repo_root().join("bench");
    let text = format!(
        "kind = \"threadmetric\"\nsources = {:?}\nperiod_ms = 5\nperiods = 2\n\
         [[scenario]]\nname = \"basic\"\nnumber = 1\nschedulers = {schedulers}\n\
         [ubik]\nfiles = [\"tm_scenarios.c\", \"tm_ubik.c\", \"tm_port.h\", \"tm_basic.h\"]\n\
         tick_hz = 1000\n\
         [freertos]\nfiles = [\"tm_scenarios.c\", \"tm_port.h\", \"tm_basic.h\"]\nbuild = {:?}\n",
        bench.join("threadmetric").display().to_string(),
        bench.join("freertos/build.sh").display().to_string(),
    );
    let f = d.join("tm.toml");
    std::fs::write(&f, text).unwrap();
    (d, f)
}

#[test]
fn the_benchmark_checks_and_names_its_output() {
    require_gcc();
    let d = scratch("tm-check");
    let r = experiment(
        &repo_root().join("bench/threadmetric.toml"),
        &d,
        &["--check"],
        None,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let out = r.stdout_str();
    assert!(out.contains("48 images -> "), "{out}");
    assert!(out.contains("threadmetric.json"), "{out}");
}

#[test]
fn a_bad_scheduler_property_is_65_at_its_place() {
    let (d, f) = file("tm-prop", "{ without = [\"preemption\"] }");
    let r = experiment(&f, &d.join("out"), &["--check"], None);
    assert_one_line_failure(
        &r,
        65,
        &[
            "tm.toml:8:27:",
            "schedulers.without: \"preemption\" is not a scheduler property",
            "\"priority_preemption\"",
        ],
        "bad property",
    );
}

#[test]
fn a_failing_external_build_is_one_line_naming_the_job_and_its_log() {
    // No scheduler has both properties: the FreeRTOS image is the only job.
    let (d, f) = file(
        "tm-freertos",
        "{ with = [\"deadlines\", \"unique_priorities\"] }",
    );
    let out = d.join("out");
    let empty = d.join("not-a-checkout");
    std::fs::create_dir_all(&empty).unwrap();
    let r = experiment(&f, &out, &[], Some(empty.to_str().unwrap()));
    let last = r.stderr.lines().last().unwrap_or("");
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        last.starts_with("ubik: experiment tm: job freertos-basic does not build (exit 2): "),
        "{last}"
    );
    assert!(last.contains("is not a FreeRTOS-Kernel checkout"), "{last}");
    assert!(last.contains("tm/build/freertos-basic/build.log"), "{last}");
    assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
}
