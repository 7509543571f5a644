//! The OS-overhead experiment file: its rows and images, and its errors.

use super::*;
use crate::experiment::kind::Spec;
use confread::Doc;
use std::path::PathBuf;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..")
}

/// bench/overhead.toml with `from` replaced by `to`, read.
fn read(from: &str, to: &str) -> Result<Overhead, String> {
    let path = root().join("bench/overhead.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains(from), "{from}");
    let text = text.replacen(from, to, 1);
    let src = Doc::text_only("overhead.toml", &text);
    let spec = Spec::read(&src, &path, &root()).map_err(|e| e.to_string())?;
    Ok(spec
        .downcast::<Overhead>()
        .expect("not read as an overhead experiment"))
}

#[test]
fn every_row_runs_every_program() {
    let e = read("", "").unwrap();
    assert_eq!(e.header.name, "overhead");
    let (jobs, planned) = plan(&e);
    // bare and nos-np, then a loaded and a quiet row per scheduler, for each program: as
    // bench/overhead/run.sh built them.
    let n = 2 + 2 * sysdesc::Scheduler::NAMES.len();
    assert_eq!(jobs.len(), 2 * n);
    let bare = &jobs[0];
    assert_eq!(bare.label, "bare-basicmath");
    let (_, config) = &bare.source.generated[0];
    assert_eq!(
        config,
        "#define OV_PROGRAM 1\n#define OV_SCALE 4\n#define OV_BACKGROUND 0\n#define OV_BARE 1\n"
    );
    let quiet = jobs
        .iter()
        .position(|j| j.label == "ubik-prio-quiet-fft")
        .unwrap();
    assert!(jobs[quiet].source.generated[0].1.contains("OV_PROGRAM 2\n"));
    assert!(jobs[quiet].source.generated[0]
        .1
        .contains("OV_BACKGROUND 0\n"));
    assert_eq!(planned[quiet].label, "ubik-prio-quiet");
    assert!(jobs.iter().all(|j| j.run.energy && !j.run.record));
}

#[test]
fn a_bad_file_is_one_error_at_its_place() {
    let e = read("bare = true", "bare = false").unwrap_err();
    assert!(e.contains("exactly one row with bare = true"), "{e}");
    let e = read("name = \"nos-np\"", "name = \"bare\"").unwrap_err();
    assert!(e.contains("row \"bare\" is listed twice"), "{e}");
    let e = read("scale = 4", "scale = 0").unwrap_err();
    assert!(
        e.starts_with("overhead.toml:6:9: scale = 0 is out of range"),
        "{e}"
    );
    let e = read("\"overhead/machine.toml\"", "\"overhead/none.toml\"").unwrap_err();
    assert!(
        e.starts_with("overhead.toml:8:") && e.contains("none.toml"),
        "{e}"
    );
    let e = read("os = \"nos\"\nbare", "os = \"nos\"\ntick_hz = 100\nbare").unwrap_err();
    assert!(e.contains("tick_hz is for os = \"ubik\" only"), "{e}");
    let e = read("background = true", "backgound = true").unwrap_err();
    assert!(e.contains("backgound"), "{e}");
}
