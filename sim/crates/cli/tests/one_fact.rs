//! One fact, one place: `ubik experiment` takes the kernel's scheduler policies from sysdesc's
//! policy table (`Scheduler::NAMES`) and the DPM policies from `PowerPolicy::ALL`, and passes
//! a SimBed workload to the firmware by its name. A list of those names written again in the
//! experiment's sources would drift from its owner (as the scheduler list of `app` experiments
//! once had edf and coop the other way round), so none of them may appear there as a string
//! literal outside unit tests (`#[cfg(test)]`, which close each file).

use std::path::{Path, PathBuf};

/// Names only the policy tables may spell (a scheduler's or a DPM policy's); "prio", the
/// default of both, is left out (a default is a choice, not a list), and so is "idle", which
/// is also an observer category.
const OWNED_NAMES: [&str; 8] = [
    "\"rr\"",
    "\"prio_rr\"",
    "\"bitmap\"",
    "\"edf\"",
    "\"coop\"",
    "\"ls0\"",
    "\"ls1\"",
    "\"ls2\"",
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn the_experiment_code_restates_no_policy_list() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/experiment");
    let mut files = Vec::new();
    rust_files(&dir, &mut files);
    assert!(
        files.len() > 10,
        "no experiment sources under {}",
        dir.display()
    );
    let mut found = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let code = text.split("#[cfg(test)]").next().unwrap_or("");
        for (n, line) in code.lines().enumerate() {
            let line = line.split("//").next().unwrap_or("");
            for name in OWNED_NAMES {
                if line.contains(name) {
                    found.push(format!("{}:{}: {name}", f.display(), n + 1));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "policy names spelled outside their tables (take them from sysdesc):\n{}",
        found.join("\n")
    );
}
