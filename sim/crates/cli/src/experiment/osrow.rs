//! The rows of a benchmark that runs one program on several operating systems (Rhealstone,
//! the OS overhead): each row names its OS and the sources its image is built from. In the
//! experiment file, a `[[row]]` table:
//!
//! ```toml
//! [[row]]
//! name = "ubik-{scheduler}"   # os = "ubik": one row per scheduler, {scheduler} its name
//! os = "ubik"                 # "ubik", "nos" (the kernel's no-OS mode) or "freertos"
//! tick_hz = 1000              # ubik: [kernel] tick_hz (absent: the kernel's default)
//! sources = ["rhealstone/rhealstone.c", "threadmetric/tm_port.h"]  # relative to the file
//! [[row]]
//! name = "freertos-prio"
//! os = "freertos"
//! build = "freertos/build.sh" # run as `BUILD APPDIR OUT.elf`; only when FREERTOS_KERNEL_PATH
//!                             # names a FreeRTOS-Kernel checkout (else the row is left out)
//! sources = ["rhealstone/rhealstone.c", "threadmetric/tm_port.h"]
//! ```
//!
//! Ubik and NOS images are built with `ubik build` from a `system.toml` made of the row's
//! keys (`[kernel] scheduler`, `tick_hz`; `os = "nos"`).

use super::fields::input_file_at;
use super::jobs::BuildWith;
use confread::{quoted_list, ConfigError, Doc};
use std::path::{Path, PathBuf};
use toml::Spanned;

/// The OSes a row may name.
pub const OSES: [&str; 3] = ["ubik", "nos", "freertos"];

/// A row's operating system.
#[derive(Clone, Debug, PartialEq)]
pub enum Os {
    /// Ubik, one row per scheduler; the tick rate, if the row sets it.
    Ubik { tick_hz: Option<u32> },
    /// NOS.
    Nos,
    /// FreeRTOS, built by an external command (`BUILD APPDIR OUT.elf`).
    FreeRtos { build: PathBuf },
}

/// One row (for Ubik, one per scheduler).
#[derive(Clone, Debug)]
pub struct OsRow {
    /// Its name; for Ubik with `{scheduler}` where the scheduler's name goes.
    pub name: String,
    pub os: Os,
    /// The files its image is built from.
    pub sources: Vec<PathBuf>,
}

/// The keys every row has, as the file writes them.
pub struct RawOsRow<'a> {
    pub name: &'a Spanned<String>,
    pub os: &'a Spanned<String>,
    pub tick_hz: &'a Option<Spanned<i64>>,
    pub build: &'a Option<Spanned<String>>,
    pub sources: &'a Option<Spanned<Vec<Spanned<String>>>>,
}

impl OsRow {
    /// Reads a row's common keys; `dir` is the experiment file's directory, `taken` the rows
    /// before it, `sources` the file's own (for a row without `sources`).
    pub fn read(
        src: &Doc,
        dir: &Path,
        raw: RawOsRow,
        taken: &[OsRow],
        sources: &[PathBuf],
    ) -> Result<OsRow, ConfigError> {
        let os = match raw.os.get_ref().as_str() {
            "ubik" => Os::Ubik {
                tick_hz: match raw.tick_hz {
                    Some(t) => Some(src.int_from_to(t, "tick_hz", 1, 100_000)? as u32),
                    None => None,
                },
            },
            "nos" => Os::Nos,
            "freertos" => match raw.build {
                Some(b) => Os::FreeRtos {
                    build: dir.join(b.get_ref()),
                },
                None => {
                    return Err(src.err(
                        &raw.os.span(),
                        "a FreeRTOS row without `build`",
                        "build = \"freertos/build.sh\" (the command that builds its ELF, relative to this file)",
                    ))
                }
            },
            other => {
                return Err(src.err(
                    &raw.os.span(),
                    format!("os {other:?} is not known"),
                    format!("one of {}", quoted_list(&OSES)),
                ))
            }
        };
        let ubik = matches!(os, Os::Ubik { .. });
        if let (Some(t), false) = (raw.tick_hz, ubik) {
            return Err(src.err(
                &t.span(),
                "tick_hz is for os = \"ubik\" only",
                "no tick_hz in this row",
            ));
        }
        if let (Some(b), false) = (raw.build, matches!(os, Os::FreeRtos { .. })) {
            return Err(src.err(
                &b.span(),
                "build is for os = \"freertos\" only",
                "no build in this row (ubik build builds it)",
            ));
        }
        let name = raw.name.get_ref();
        let plain = name.replace("{scheduler}", "");
        if plain.is_empty()
            || !plain
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            return Err(src.err(
                &raw.name.span(),
                format!("row name {name:?} is not a plain name"),
                "letters, digits, '-' and '_' (and {scheduler} for os = \"ubik\")",
            ));
        }
        if ubik != name.contains("{scheduler}") {
            let expected = if ubik {
                "a name with {scheduler} (one row per scheduler), e.g. \"ubik-{scheduler}\""
            } else {
                "a name without {scheduler} (it is for os = \"ubik\")"
            };
            return Err(src.err(&raw.name.span(), format!("row name {name:?}"), expected));
        }
        if taken.iter().any(|r| &r.name == name) {
            return Err(src.err(
                &raw.name.span(),
                format!("row {name:?} is listed twice"),
                "each row once",
            ));
        }
        let sources = match raw.sources {
            Some(s) => read_sources(src, dir, s)?,
            None if sources.is_empty() => {
                return Err(src.err(&raw.name.span(), format!("row {name:?} has no sources"), "sources = [the files its image is built from, relative to this file] in the row or at the top of the file"))
            }
            None => sources.to_vec(),
        };
        if let Os::FreeRtos { build } = &os {
            if let Some(b) = raw.build {
                input_file_at(src, &b.span(), build, "the build command")?;
            }
        }
        Ok(OsRow {
            name: name.clone(),
            os,
            sources,
        })
    }

    /// The row's label with `sched` (Ubik's rows).
    pub fn label(&self, sched: Option<&str>) -> String {
        self.name.replace("{scheduler}", sched.unwrap_or(""))
    }

    /// How the row's image is built: `ubik build` with a `system.toml` made of its keys
    /// (Ubik with scheduler `sched`, NOS), or its external command (FreeRTOS).
    pub fn build_with(&self, sched: Option<&str>) -> BuildWith {
        match &self.os {
            Os::FreeRtos { build } => BuildWith::Command {
                program: build.clone(),
                args: Vec::new(),
                env: Vec::new(),
            },
            _ => BuildWith::Ubik {
                system_toml: self.system_toml(sched).unwrap_or_default(),
            },
        }
    }

    /// The `system.toml` of a Ubik or NOS image (None for FreeRTOS).
    fn system_toml(&self, sched: Option<&str>) -> Option<String> {
        match &self.os {
            Os::Ubik { tick_hz } => {
                let mut t = format!("[kernel]\nscheduler = \"{}\"\n", sched.unwrap_or("prio"));
                if let Some(hz) = tick_hz {
                    t += &format!("tick_hz = {hz}\n");
                }
                Some(t)
            }
            Os::Nos => Some("[kernel]\nos = \"nos\"\n".into()),
            Os::FreeRtos { .. } => None,
        }
    }
}

/// A list of source files (`sources = [...]`, relative to the file), each one readable.
pub fn read_sources(
    src: &Doc,
    dir: &Path,
    list: &Spanned<Vec<Spanned<String>>>,
) -> Result<Vec<PathBuf>, ConfigError> {
    if list.get_ref().is_empty() {
        return Err(src.err(
            &list.span(),
            "sources is empty",
            "the files the image is built from, relative to this file",
        ));
    }
    let mut out = Vec::new();
    for s in list.get_ref() {
        let p = dir.join(s.get_ref());
        input_file_at(src, &s.span(), &p, "a source")?;
        out.push(p);
    }
    Ok(out)
}

/// The FreeRTOS checkout the FreeRTOS rows need (`FREERTOS_KERNEL_PATH`), or None: the rows
/// are then left out, with a line that says how to get them.
pub fn freertos_checkout() -> Option<String> {
    std::env::var("FREERTOS_KERNEL_PATH")
        .ok()
        .filter(|p| !p.is_empty())
}

/// The line printed when FreeRTOS rows are left out.
pub const NO_FREERTOS: &str = "no FreeRTOS rows: set FREERTOS_KERNEL_PATH to a FreeRTOS-Kernel checkout (git clone -b V11.1.0 https://github.com/FreeRTOS/FreeRTOS-Kernel) to add them";

/// The error for a key the file must have.
pub fn missing(src: &Doc, key: &str, expected: &str) -> ConfigError {
    src.err(&(0..0), format!("no `{key}`"), expected)
}

/// A key the file must have: an integer from `lo` to `hi`; `expected` says what it is.
pub fn required_int(
    src: &Doc,
    v: &Option<Spanned<i64>>,
    key: &str,
    (lo, hi): (i64, i64),
    expected: &str,
) -> Result<i64, ConfigError> {
    match v {
        Some(n) => src.int_from_to(n, key, lo, hi),
        None => Err(missing(src, key, &format!("{key} = N ({expected})"))),
    }
}

/// The file's own `sources` (every row's without its own), none without the key.
pub fn file_sources(
    src: &Doc,
    dir: &Path,
    v: &Option<Spanned<Vec<Spanned<String>>>>,
) -> Result<Vec<PathBuf>, ConfigError> {
    match v {
        Some(s) => read_sources(src, dir, s),
        None => Ok(Vec::new()),
    }
}

/// The line a benchmark of rows starts with (stderr), and the one that says FreeRTOS rows are
/// left out (stdout) when `rows` has some and no checkout is named.
pub fn announce<'a>(
    name: &str,
    images: usize,
    out: &Path,
    mut rows: impl Iterator<Item = &'a OsRow>,
) {
    eprintln!(
        "ubik experiment {name}: {images} images -> {}",
        out.display()
    );
    if rows.any(|r| matches!(r.os, Os::FreeRtos { .. })) && freertos_checkout().is_none() {
        println!("{name}: {NO_FREERTOS}");
    }
}

/// A benchmark whose own check failed for the runs `bad` describes: one line naming the
/// first and counting the others (exit 1); Ok without any.
pub fn own_check(name: &str, bad: &[String]) -> Result<(), crate::Failure> {
    let Some(first) = bad.first() else {
        return Ok(());
    };
    let more = match bad.len() {
        1 => String::new(),
        n => format!(" (and {} more)", n - 1),
    };
    Err(crate::Failure::new(
        1,
        format!("experiment {name}: {first}{more}"),
    ))
}
