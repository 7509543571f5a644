//! The crate's layout rules (issue 29), checked on its sources so that they stay kept:
//! - every kernel object kind of `system.toml` is one file, `src/objects/KIND.rs`, holding its
//!   table as written, its model and its C (`table`), and no other file declares a kind;
//! - `sysdesc` reads its files with `confread` and does not depend on `machine`;
//! - the hypervisor description re-declares no machine fact (addresses are passed in).

use std::path::{Path, PathBuf};

fn crate_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// Every `.rs` file under `dir`, recursively.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The kinds a source declares: the `KIND` of each `impl Kind for ...`.
fn kinds_declared(text: &str) -> Vec<String> {
    let mut kinds = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find("impl Kind for ") {
        rest = &rest[i..];
        let key = "const KIND: &'static str = \"";
        let j = rest.find(key).expect("a Kind impl names its KIND");
        let name = &rest[j + key.len()..];
        kinds.push(name[..name.find('"').unwrap()].to_string());
        rest = &rest[j..];
    }
    kinds
}

#[test]
fn each_object_kind_is_one_file() {
    let src = crate_dir().join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let mut seen = Vec::new();
    for f in &files {
        let text = read(f);
        let rel = f
            .strip_prefix(&src)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        for kind in kinds_declared(&text) {
            // The hypervisor's partitions are a kind of hypervisor.toml, not of system.toml.
            if rel == "hvdesc.rs" && kind == "partition" {
                continue;
            }
            assert_eq!(
                rel,
                format!("objects/{kind}.rs"),
                "kind \"{kind}\" is declared in src/{rel}: one file per kind, src/objects/{kind}.rs"
            );
            assert!(
                text.contains("pub(crate) fn declarations")
                    && text.contains("pub(crate) fn storage"),
                "src/{rel} does not emit its own C (declarations, storage)"
            );
            seen.push(kind);
        }
    }
    seen.sort();
    let expected = [
        "flags",
        "heap",
        "interrupt",
        "mutex",
        "pool",
        "port",
        "queue",
        "sem",
        "task",
        "timer",
    ];
    assert_eq!(seen, expected, "the object kinds of system.toml");
}

#[test]
fn depends_on_confread_not_machine() {
    let manifest = read(&crate_dir().join("Cargo.toml"));
    let deps = manifest
        .split("[dependencies]")
        .nth(1)
        .expect("a [dependencies] table");
    let deps = deps.split("\n[").next().unwrap();
    let names: Vec<&str> = deps
        .lines()
        .filter_map(|l| l.split('=').next())
        .map(str::trim)
        .filter(|n| !n.is_empty() && !n.starts_with('#'))
        .collect();
    assert!(names.contains(&"confread"), "{names:?}");
    assert!(
        !names.contains(&"machine"),
        "sysdesc depends on machine: take errors and readers from confread, machine facts \
         from the caller ({names:?})"
    );
}

#[test]
fn hvdesc_declares_no_machine_address() {
    let text = read(&crate_dir().join("src/hvdesc.rs"));
    let code = text.split("#[cfg(test)]").next().unwrap();
    for (n, line) in code.lines().enumerate() {
        let body = line.split("//").next().unwrap();
        // A hexadecimal literal (a format string's `0x{...}` is not one).
        let literal = body
            .match_indices("0x")
            .any(|(i, _)| body[i + 2..].starts_with(|c: char| c.is_ascii_hexdigit()));
        assert!(
            !literal,
            "src/hvdesc.rs:{}: an address literal; take the machine's facts from the caller \
             (MachineFacts): {line}",
            n + 1
        );
    }
}
