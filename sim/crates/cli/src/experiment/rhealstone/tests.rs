//! Rhealstone's reading of a run (console and IO record) and of its experiment file.

use super::*;
use crate::experiment::kind::Spec;
use confread::Doc;
use machine::record::IoKind;
use std::path::PathBuf;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..")
}

/// bench/rhealstone.toml with `samples` samples (text replaced).
fn spec(samples: u32) -> Rhealstone {
    let path = root().join("bench/rhealstone.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    let text = text.replace("samples = 200", &format!("samples = {samples}"));
    let src = Doc::text_only("rhealstone.toml", &text);
    Spec::read(&src, &path, &root())
        .map_err(|e| e.to_string())
        .unwrap()
        .downcast::<Rhealstone>()
        .expect("not read as a Rhealstone experiment")
}

fn gpio(cycle: u64, pin: u32, value: u32) -> IoEvent {
    IoEvent {
        cycle,
        time_fs: cycle as u128 * 10_000_000,
        kind: IoKind::Gpio,
        port: pin,
        value,
    }
}

/// A record with a warm-up path of 50 cycles, then one path of each length in `paths`.
fn record(paths: &[u64]) -> Vec<IoEvent> {
    let mut ev = Vec::new();
    for (i, g) in std::iter::once(&50).chain(paths).enumerate() {
        let t = i as u64 * 1000 + 10;
        ev.extend([
            gpio(t, 2, 1),
            gpio(t + g, 3, 1),
            gpio(t + g + 1, 2, 0),
            gpio(t + g + 2, 3, 0),
        ]);
    }
    ev
}

fn console(mcycle: &[u64]) -> String {
    let mut c = String::from("rh fig start\n");
    for (i, m) in mcycle.iter().enumerate() {
        c += &format!("rh fig sample={i} mcycle={m}\n");
    }
    c + &format!("rh fig done samples={}\n", mcycle.len())
}

#[test]
fn the_file_reads_into_figures_rows_and_schedulers() {
    let e = spec(200);
    assert_eq!(e.header.name, "rhealstone");
    assert_eq!(e.figures.len(), 6);
    let (jobs, _) = plan(&e);
    // 5 schedulers share priorities, 5 preempt by priority (four figures), 7 take interrupts,
    // and NOS's two: as bench/rhealstone/run.sh built them.
    assert_eq!(
        jobs.len(),
        5 + 5 * 4 + 7 + 2,
        "{:?}",
        jobs.iter().map(|j| &j.label).collect::<Vec<_>>()
    );
    assert!(jobs.iter().any(|j| j.label == "ubik-rr-task_switch"));
    assert!(!jobs.iter().any(|j| j.label == "ubik-bitmap-task_switch"));
    assert!(!jobs.iter().any(|j| j.label == "ubik-coop-preemption"));
    assert!(jobs.iter().any(|j| j.label == "nos-np-interrupt_latency"));
}

#[test]
fn edges_and_mcycle_make_the_figure() {
    let e = spec(3);
    let f = figure_of(
        &e,
        "fig",
        &console(&[123, 143, 133]),
        &record(&[100, 120, 110]),
    )
    .unwrap();
    assert_eq!(
        (f.mean, f.min, f.max, f.offset, f.agree),
        (110, 100, 120, 23, 3)
    );
}

#[test]
fn two_starts_or_an_end_alone_is_an_error() {
    let e = spec(1);
    let mut r = record(&[100]);
    r.insert(1, gpio(20, 2, 1));
    let err = figure_of(&e, "fig", &console(&[123]), &r).unwrap_err();
    assert!(err.contains("two start edges"), "{err}");
    let mut r = record(&[100]);
    r.insert(0, gpio(5, 3, 1));
    let err = figure_of(&e, "fig", &console(&[123]), &r).unwrap_err();
    assert!(err.contains("without a start, at cycle 5"), "{err}");
}

#[test]
fn the_console_must_hold_every_sample_and_no_failure() {
    let e = spec(2);
    let r = record(&[100, 100]);
    let err = figure_of(
        &e,
        "fig",
        "rh fig sample=0 mcycle=5\nrh fig done samples=2\n",
        &r,
    )
    .unwrap_err();
    assert!(err.contains("1 sample lines for 2 samples"), "{err}");
    let err = figure_of(&e, "fig", "rh fig sample=0 mcycle=5\n", &r).unwrap_err();
    assert!(err.contains("no `rh fig done"), "{err}");
    let err = figure_of(&e, "fig", &console(&[1, 2, 3]), &record(&[1, 2, 3])).unwrap_err();
    assert!(err.contains("expected samples=2"), "{err}");
    let err = figure_of(&e, "fig", "rh fig FAIL no semaphore\n", &r).unwrap_err();
    assert!(
        err.contains("line 1: the firmware failed: rh fig FAIL no semaphore"),
        "{err}"
    );
    let err = figure_of(&e, "fig", &console(&[100, 150]), &record(&[100, 100])).unwrap_err();
    assert!(err.contains("disagree"), "{err}");
}

/// The error reading bench/rhealstone.toml with `from` replaced by `to`.
fn bad(from: &str, to: &str) -> String {
    let path = root().join("bench/rhealstone.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains(from), "{from}");
    let text = text.replacen(from, to, 1);
    let src = Doc::text_only("rhealstone.toml", &text);
    match Spec::read(&src, &path, &root()) {
        Ok(_) => panic!("{to} accepted"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn a_bad_file_is_one_error_at_its_place() {
    let e = bad("\"pin:3:rise\"", "\"pin:3:up\"");
    assert!(
        e.starts_with("rhealstone.toml:9:") && e.contains("pin:3:up"),
        "{e}"
    );
    let e = bad(
        "without = [\"unique_priorities\"]",
        "without = [\"unique\"]",
    );
    assert!(e.contains("\"unique\" is not a scheduler property"), "{e}");
    let e = bad(
        "figures = [\"task_switch\", \"interrupt_latency\"]",
        "figures = [\"task_switch\", \"irq\"]",
    );
    assert!(
        e.contains("figure \"irq\" is not one of the file's [[figure]]s"),
        "{e}"
    );
    let e = bad("os = \"nos\"", "os = \"zephyr\"");
    assert!(
        e.contains("os \"zephyr\" is not known") && e.contains("\"ubik\", \"nos\", \"freertos\""),
        "{e}"
    );
    let e = bad("number = 2", "number = 1");
    assert!(e.contains("number = 1 is listed twice"), "{e}");
    let e = bad("name = \"ubik-{scheduler}\"", "name = \"ubik\"");
    assert!(e.contains("a name with {scheduler}"), "{e}");
    let e = bad("agreement = 0.9", "agreement = 1.5");
    assert!(e.contains("agreement = 1.5 is out of range"), "{e}");
    let e = bad("rhealstone/rh_nos.c", "rhealstone/missing.c");
    assert!(
        e.contains("missing.c") && e.contains("rhealstone.toml:"),
        "{e}"
    );
}
