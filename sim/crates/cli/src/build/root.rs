//! Finding the Ubik repository (the kernel and BSP sources) that `ubik build` compiles.
//!
//! In this order, the first that holds `kernel/` and `bsp/link.ld`:
//! 1. the environment variable `UBIK_ROOT` (an error if it is set but holds neither);
//! 2. the application directory or one of its parents (an application inside the repository);
//! 3. the directory of the `ubik` executable or one of its parents
//!    (`sim/target/release/ubik` lies three levels below the repository root).

use crate::{code, Failure};
use std::path::{Path, PathBuf};

/// True if `dir` looks like a Ubik repository: `kernel/` and `bsp/link.ld`.
pub fn is_root(dir: &Path) -> bool {
    dir.join("kernel").is_dir() && dir.join("bsp").join("link.ld").is_file()
}

fn walk_up(start: &Path) -> Option<PathBuf> {
    start
        .ancestors()
        .find(|d| is_root(d))
        .map(Path::to_path_buf)
}

/// The repository root for an application in `appdir` (an absolute, canonical path).
pub fn find_root(appdir: &Path) -> Result<PathBuf, Failure> {
    if let Some(v) = std::env::var_os("UBIK_ROOT").filter(|v| !v.is_empty()) {
        let p = PathBuf::from(&v);
        let p = p.canonicalize().unwrap_or(p);
        if is_root(&p) {
            return Ok(p);
        }
        return Err(Failure::new(
            code::NO_INPUT,
            format!(
                "UBIK_ROOT={}: not a Ubik repository; expected a directory holding kernel/ and bsp/link.ld",
                Path::new(&v).display()
            ),
        ));
    }
    if let Some(r) = walk_up(appdir) {
        return Ok(r);
    }
    if let Some(r) = std::env::current_exe()
        .ok()
        .and_then(|e| e.canonicalize().ok())
        .and_then(|e| e.parent().and_then(walk_up))
    {
        return Ok(r);
    }
    Err(Failure::new(
        code::NO_INPUT,
        format!(
            "cannot find the Ubik repository (kernel/ and bsp/link.ld) above {} or the ubik executable; expected UBIK_ROOT=/path/to/ubik",
            appdir.display()
        ),
    ))
}
