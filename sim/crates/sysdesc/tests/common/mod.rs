//! Helpers shared by the sysdesc tests that compile generated C with the cross toolchain.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

pub const GCC: &str = "riscv64-unknown-elf-gcc";
pub const NM: &str = "riscv64-unknown-elf-nm";

pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../..")
        .canonicalize()
        .expect("repository root")
}

/// Fails the test, with a hint, unless every tool of `tools` runs.
pub fn require_tools(tools: &[&str]) {
    for t in tools {
        let ok = Command::new(t)
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .map(|s| s.success())
            .unwrap_or(false);
        assert!(
            ok,
            "{t} is not on PATH: run scripts/setup.sh (`make test` does it)"
        );
    }
}
