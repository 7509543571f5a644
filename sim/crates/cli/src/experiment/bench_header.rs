//! The header of a benchmark kind's file (`kind = "threadmetric"` and the other benchmark
//! kinds): its `name`, by default the file's stem, names what it writes. A benchmark's output
//! directory is `-o DIR`, by default `out/bench` (`make bench`'s), and it writes there
//! `NAME.json` (the benchmark's figures, whose keys docs/contract.md lists) and keeps its
//! build and run material under `NAME/` (`NAME/build/LABEL/` per image with its `build.log`,
//! `NAME/runs/LABEL/` per run with its `console.txt`: the job engine's layout, jobs/).

use super::header::read_name;
use super::steps::io_fail;
use crate::Failure;
use confread::{ConfigError, Doc};
use std::path::{Path, PathBuf};
use toml::Spanned;

/// The output directory of a benchmark without `-o`.
pub const DEFAULT_OUT: &str = "out/bench";

/// What every benchmark kind's file says about the benchmark as a whole.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchHeader {
    /// `name`, or the file's stem: `OUT/NAME.json`, `OUT/NAME/`, and the messages'.
    pub name: String,
}

impl BenchHeader {
    /// Reads `name` (the file's stem without it), a plain directory name.
    pub fn read(
        src: &Doc,
        path: &Path,
        name: &Option<Spanned<String>>,
    ) -> Result<BenchHeader, ConfigError> {
        Ok(BenchHeader {
            name: read_name(src, path, name)?,
        })
    }

    /// The figures' file, `OUT/NAME.json`.
    pub fn json(&self, out: &Path) -> PathBuf {
        out.join(format!("{}.json", self.name))
    }

    /// The build and run material's directory, `OUT/NAME`.
    pub fn work(&self, out: &Path) -> PathBuf {
        out.join(&self.name)
    }

    /// Writes `value` to `OUT/NAME.json` (pretty, keys sorted as the value holds them, a final
    /// newline): its path.
    pub fn write_json(&self, out: &Path, value: &serde_json::Value) -> Result<PathBuf, Failure> {
        let p = self.json(out);
        std::fs::create_dir_all(out).map_err(|e| io_fail("the output directory", out, e))?;
        let mut text =
            serde_json::to_string_pretty(value).map_err(|e| io_fail("the figures", &p, e))?;
        text.push('\n');
        std::fs::write(&p, text).map_err(|e| io_fail("the figures", &p, e))?;
        Ok(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_name_defaults_to_the_stem_and_names_the_outputs() {
        let src = Doc::text_only("bench/threadmetric.toml", "");
        let h = BenchHeader::read(&src, Path::new("bench/threadmetric.toml"), &None).unwrap();
        assert_eq!(h.name, "threadmetric");
        let out = PathBuf::from(DEFAULT_OUT);
        assert_eq!(h.json(&out), Path::new("out/bench/threadmetric.json"));
        assert_eq!(h.work(&out), Path::new("out/bench/threadmetric"));
    }
}
