//! The configuration front end's dependency rules (docs/design.md, "The machine
//! description"), kept by reading the sources: the devices and the generators they build
//! from their settings do not reach back into the machine description (`config`), and the
//! shared configuration reader (`confread`) is a leaf that knows no other crate of Ubik.

use std::path::{Path, PathBuf};

fn crate_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every `.rs` file under `dir`, recursively.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// A source file's text before its unit tests (tests may build a machine from a file).
fn code_before_tests(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    match text.find("#[cfg(test)]") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}

#[test]
fn devices_and_their_generators_do_not_use_the_machine_description() {
    let src = crate_dir().join("src");
    let mut files = Vec::new();
    rust_files(&src.join("dev"), &mut files);
    for leaf in ["stimulus.rs", "input.rs", "clock.rs", "record.rs", "rng.rs"] {
        files.push(src.join(leaf));
    }
    let offenders: Vec<String> = files
        .iter()
        .filter(|f| code_before_tests(f).contains("crate::config"))
        .map(|f| f.strip_prefix(&src).unwrap().display().to_string())
        .collect();
    assert!(
        offenders.is_empty(),
        "these files use crate::config outside their tests: {offenders:?}; a device's settings \
         belong in its DeviceConfig, errors and readers in confread"
    );
}

#[test]
fn the_configuration_reader_is_a_leaf() {
    let manifest = crate_dir().join("../confread/Cargo.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    let path_deps: Vec<&str> = text.lines().filter(|l| l.contains("path =")).collect();
    assert!(
        path_deps.is_empty(),
        "confread depends on crates of Ubik: {path_deps:?}"
    );
}
