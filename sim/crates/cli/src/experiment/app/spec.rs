//! An `app` experiment's file (the format is in mod.rs): its header, the builds (the product
//! of the scheduler, tick-rate and define-set axes, each labelled uniquely), the machines,
//! the latency pairs (latency.rs) and `[expect]` (checks.rs). Errors name the file, line and column (exit 65; 66 for a machine file that
//! cannot be read).

use super::checks::{self, Context, Expect, RawExpect};
use super::latency::{self, Latency, RawLatency};
use crate::experiment::fields::{axis_empty, check_size, defines_fit, input_file_at, twice};
use crate::experiment::header::{app_seeds, read_name, read_run_ms, Header};
use confread::{ConfigError, Doc};
use serde::Deserialize;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use toml::Spanned;

/// The schedulers `[sweep] scheduler` takes: the kernel's policies (sysdesc's policy table,
/// in its order), and NOS, which the axis treats as one more.
fn schedulers() -> Vec<&'static str> {
    let mut names = sysdesc::Scheduler::NAMES.to_vec();
    names.push(sysdesc::Os::Nos.name());
    names
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    #[allow(dead_code)]
    kind: Option<Spanned<String>>,
    name: Option<Spanned<String>>,
    app: Option<Spanned<String>>,
    run_ms: Option<Spanned<i64>>,
    seeds: Option<Spanned<Vec<Spanned<i64>>>>,
    sweep: Option<Spanned<RawSweep>>,
    latency: Option<Vec<Spanned<RawLatency>>>,
    expect: Option<RawExpect>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSweep {
    scheduler: Option<Vec<Spanned<String>>>,
    tick_hz: Option<Vec<Spanned<i64>>>,
    cflags: Option<Vec<Spanned<Vec<Spanned<String>>>>>,
    machine: Option<Vec<Spanned<String>>>,
}

/// One build of the application.
#[derive(Clone, Debug, PartialEq)]
pub struct Build {
    pub scheduler: Option<String>,
    pub tick_hz: Option<i64>,
    pub cflags: Vec<String>,
    /// Its directory's name under `build/` and its name in `app.csv`: unique in the experiment
    /// (`unique_labels`).
    pub(super) label: String,
}

/// Gives every build its label: the readable one (`readable_label`) when no other build has
/// it, else that label (cut to 100 characters if longer than 120: a file name has at most
/// 255) with `.N` appended, N the build's number in the axes' product (from 1). A readable
/// label never contains '.', so the result is unique: two sets of defines that read alike
/// (`-DFAIL=1` and `-DFAIL_1` both give `FAIL_1`) never share a directory.
fn unique_labels(builds: &mut [Build]) {
    let mut count: HashMap<String, usize> = HashMap::new();
    for b in builds.iter() {
        *count.entry(b.readable_label()).or_default() += 1;
    }
    for (i, b) in builds.iter_mut().enumerate() {
        let l = b.readable_label();
        b.label = if count[&l] > 1 || l.len() > 120 {
            format!("{}.{}", &l[..l.len().min(100)], i + 1)
        } else {
            l
        };
    }
}

impl Build {
    pub fn label(&self) -> String {
        self.label.clone()
    }

    /// The scheduler, tick rate and defines, every character but letters and digits as '_'.
    fn readable_label(&self) -> String {
        let mut parts = vec![self.scheduler.clone().unwrap_or_else(|| "app".into())];
        if let Some(t) = self.tick_hz {
            parts.push(format!("{t}hz"));
        }
        for f in &self.cflags {
            let clean: String = f
                .trim_start_matches("-D")
                .chars()
                .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
                .collect();
            parts.push(clean);
        }
        parts.join("-")
    }
}

/// An experiment on an application: its header, the builds and the machines to run each on,
/// and what every run must give.
#[derive(Debug)]
pub struct AppExperiment {
    pub header: Header,
    pub app: PathBuf,
    pub builds: Vec<Build>,
    /// (as written, the file or None for the built-in machine).
    pub machines: Vec<(String, Option<PathBuf>)>,
    /// `[[latency]]`: measured over every run's IO record.
    pub latencies: Vec<Latency>,
    /// `[expect]`: what every run must give.
    pub expect: Expect,
}

/// Reads the experiment file `path` (its text in `src`); `root` is the repository (the
/// application is relative to it).
pub fn parse(src: &Doc, path: &Path, root: &Path) -> Result<AppExperiment, ConfigError> {
    let raw: Raw = src.parse()?;
    let err =
        |span: &std::ops::Range<usize>, what: String, expected: &str| src.err(span, what, expected);
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let name = read_name(src, path, &raw.name)?;
    let Some(app) = &raw.app else {
        return Err(err(
            &(0..0),
            "no `app`".into(),
            "app = \"<application directory, relative to the repository root>\"",
        ));
    };
    let app_dir = root.join(app.get_ref());
    if !app_dir.join("system.toml").is_file() {
        return Err(err(
            &app.span(),
            format!("{} has no system.toml", app_dir.display()),
            "an application directory (system.toml and its C sources)",
        ));
    }
    let run_ms = read_run_ms(src, &raw.run_ms, "milliseconds from 1 to 3600000")?;
    let seeds = app_seeds(src, &raw.seeds)?;
    let sweep_span = raw.sweep.as_ref().map_or(0..0, |s| s.span());
    let sweep = raw.sweep.map(Spanned::into_inner).unwrap_or(RawSweep {
        scheduler: None,
        tick_hz: None,
        cflags: None,
        machine: None,
    });
    let schedulers = read_schedulers(src, &sweep.scheduler)?;
    let ticks = read_ticks(src, &sweep.tick_hz)?;
    let cflag_sets = read_cflag_sets(src, &sweep.cflags)?;
    let machines = read_machines(src, &dir, &sweep.machine)?;
    // Count before making anything: an absurd product is refused, not built.
    let n_builds = (schedulers.len() * ticks.len()) as u128 * cflag_sets.len() as u128;
    check_size(
        src,
        &sweep_span,
        &raw.seeds.as_ref().map_or(sweep_span.clone(), |s| s.span()),
        &format!(
            "{} schedulers x {} tick rates x {} cflags sets",
            schedulers.len(),
            ticks.len(),
            cflag_sets.len()
        ),
        n_builds,
        &format!(
            "{n_builds} builds x {} machines x {} seeds",
            machines.len(),
            seeds.len()
        ),
        n_builds * (machines.len() * seeds.len()) as u128,
    )?;
    let mut builds = Vec::new();
    for s in &schedulers {
        for t in &ticks {
            for c in &cflag_sets {
                builds.push(Build {
                    scheduler: s.clone(),
                    tick_hz: *t,
                    cflags: c.clone(),
                    label: String::new(),
                });
            }
        }
    }
    unique_labels(&mut builds);
    let latencies = latency::read(src, raw.latency)?;
    let cx = Context {
        latencies: &latencies,
        machines: machines.iter().map(|(m, _)| m.as_str()).collect(),
        schedulers: schedulers.iter().flatten().map(String::as_str).collect(),
    };
    let expect = checks::read(src, raw.expect, &cx)?;
    Ok(AppExperiment {
        header: Header {
            name,
            run_ms,
            seeds,
        },
        app: app_dir,
        builds,
        machines,
        latencies,
        expect,
    })
}

/// `[sweep] scheduler`: the schedulers to build with (`None`: the application's own).
fn read_schedulers(
    src: &Doc,
    list: &Option<Vec<Spanned<String>>>,
) -> Result<Vec<Option<String>>, ConfigError> {
    Ok(match list {
        Some(list) => {
            axis_empty(src, list.len(), "scheduler")?;
            let mut v = Vec::new();
            let known = schedulers();
            for s in list {
                if !known.contains(&s.get_ref().as_str()) {
                    return Err(src.err(
                        &s.span(),
                        format!("scheduler {:?} is not a scheduler", s.get_ref()),
                        format!("one of {}", known.join(", ")),
                    ));
                }
                if v.contains(&Some(s.get_ref().clone())) {
                    return Err(twice(
                        src,
                        &s.span(),
                        format!("scheduler {:?}", s.get_ref()),
                    ));
                }
                v.push(Some(s.get_ref().clone()));
            }
            v
        }
        None => vec![None],
    })
}

/// `[sweep] tick_hz`: the tick rates to build with (`None`: the application's own).
fn read_ticks(
    src: &Doc,
    list: &Option<Vec<Spanned<i64>>>,
) -> Result<Vec<Option<i64>>, ConfigError> {
    Ok(match list {
        Some(list) => {
            axis_empty(src, list.len(), "tick_hz")?;
            let mut v = Vec::new();
            let mut seen = HashSet::new();
            for t in list {
                if !(1..=100_000).contains(t.get_ref()) {
                    return Err(src.err(
                        &t.span(),
                        format!("tick_hz = {} is out of range", t.get_ref()),
                        "a rate from 1 to 100000 Hz",
                    ));
                }
                if !seen.insert(*t.get_ref()) {
                    return Err(twice(src, &t.span(), format!("tick_hz {}", t.get_ref())));
                }
                v.push(Some(*t.get_ref()));
            }
            v
        }
        None => vec![None],
    })
}

/// `[sweep] cflags`: the sets of defines to build with, each set once.
fn read_cflag_sets(
    src: &Doc,
    list: &Option<Vec<Spanned<Vec<Spanned<String>>>>>,
) -> Result<Vec<Vec<String>>, ConfigError> {
    Ok(match list {
        Some(list) => {
            axis_empty(src, list.len(), "cflags")?;
            let mut v: Vec<Vec<String>> = Vec::new();
            let mut seen = HashSet::new();
            for set in list {
                for f in set.get_ref() {
                    let body = f.get_ref().strip_prefix("-D").unwrap_or("");
                    let ident = body.split('=').next().unwrap_or("");
                    // No spaces and no control characters (a NUL cannot reach a command line).
                    if ident.is_empty()
                        || !ident.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                        || body.contains(|c: char| c.is_whitespace() || c.is_control())
                    {
                        return Err(src.err(
                            &f.span(),
                            format!("{:?} is not a define", f.get_ref()),
                            "-DNAME or -DNAME=VALUE (no spaces or control characters)",
                        ));
                    }
                }
                defines_fit(src, set.get_ref())?;
                let defines: Vec<String> =
                    set.get_ref().iter().map(|f| f.get_ref().clone()).collect();
                if !seen.insert(defines.clone()) {
                    return Err(twice(src, &set.span(), format!("cflags set {defines:?}")));
                }
                v.push(defines);
            }
            v
        }
        None => vec![vec![]],
    })
}

/// `[sweep] machine`: the machines to run on, by name, with their files (`None`: the
/// application's own), each once; `dir` is the experiment file's directory.
fn read_machines(
    src: &Doc,
    dir: &Path,
    list: &Option<Vec<Spanned<String>>>,
) -> Result<Vec<(String, Option<PathBuf>)>, ConfigError> {
    Ok(match list {
        Some(list) => {
            axis_empty(src, list.len(), "machine")?;
            let mut v = Vec::new();
            // The same file under two spellings is the same machine too.
            let mut seen: HashSet<Option<PathBuf>> = HashSet::new();
            for m in list {
                if m.get_ref() == "default" {
                    if !seen.insert(None) {
                        return Err(twice(src, &m.span(), "machine \"default\"".into()));
                    }
                    v.push(("default".to_string(), None));
                } else {
                    let p = dir.join(m.get_ref());
                    input_file_at(src, &m.span(), &p, "the machine file")?;
                    if !seen.insert(Some(p.canonicalize().unwrap_or_else(|_| p.clone()))) {
                        return Err(twice(src, &m.span(), format!("machine {:?}", m.get_ref())));
                    }
                    v.push((m.get_ref().clone(), Some(p)));
                }
            }
            v
        }
        None => vec![("default".to_string(), None)],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn root() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..")
    }

    fn parse_text(text: &str) -> Result<AppExperiment, String> {
        // One file per call: the tests run in parallel.
        static N: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let d = std::env::temp_dir().join(format!("ubik-app-exp-{}-{n}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        let f = d.join("e.toml");
        std::fs::write(&f, text).unwrap();
        let shown = f.display().to_string();
        let src = Doc::text_only(&shown, text);
        let r = parse(&src, &f, &root()).map_err(|e| e.to_string());
        let _ = std::fs::remove_dir_all(&d);
        r
    }

    #[test]
    fn the_axes_multiply() {
        let e = parse_text(
            "kind = \"app\"\napp = \"apps/tutorial\"\nseeds = [1, 2]\n[sweep]\n\
             scheduler = [\"prio\", \"rtm\"]\ntick_hz = [1000, 500]\ncflags = [[], [\"-DX=1\"]]\n\
             [expect]\nconsole = [\"got 3\"]\n",
        )
        .unwrap();
        assert_eq!(e.builds.len(), 8);
        assert_eq!(e.builds[7].label(), "rtm-500hz-X_1");
        assert_eq!(e.machines, [("default".to_string(), None)]);
        assert_eq!(
            (
                e.expect.exit,
                e.expect.all.console.len(),
                e.header.seeds.len()
            ),
            (0, 1, 2)
        );
    }

    #[test]
    fn builds_whose_defines_read_alike_get_labels_of_their_own() {
        // `-DFAIL=1` and `-DFAIL_1` both read FAIL_1: they shared one build and run directory.
        let e = parse_text(
            "kind = \"app\"\napp = \"apps/tutorial\"\n[sweep]\n\
             cflags = [[\"-DFAIL=1\"], [\"-DFAIL_1\"], [\"-DOK\"]]\n",
        )
        .unwrap();
        let labels: Vec<String> = e.builds.iter().map(|b| b.label()).collect();
        assert_eq!(labels, ["app-FAIL_1.1", "app-FAIL_1.2", "app-OK"]);
        // A label too long for a file name is cut, and numbered to stay unique.
        let flags: Vec<String> = (0..40).map(|i| format!("\"-DLONG_NAME_{i}=1\"")).collect();
        let e = parse_text(&format!(
            "kind = \"app\"\napp = \"apps/tutorial\"\n[sweep]\ncflags = [[], [{}]]\n",
            flags.join(", ")
        ))
        .unwrap();
        assert_eq!(e.builds[0].label(), "app");
        assert!(e.builds[1].label().len() <= 110, "{}", e.builds[1].label());
        assert!(
            e.builds[1].label().ends_with(".2"),
            "{}",
            e.builds[1].label()
        );
    }

    #[test]
    fn bad_values_are_named_where_they_are() {
        for (text, want) in [
            ("kind = \"app\"\n", "no `app`"),
            ("kind = \"app\"\napp = \"apps\"\n", "has no system.toml"),
            (
                "kind = \"app\"\napp = \"apps/tutorial\"\n[sweep]\nscheduler = [\"fifo\"]\n",
                ":4:14: scheduler \"fifo\" is not a scheduler",
            ),
            (
                "kind = \"app\"\napp = \"apps/tutorial\"\n[sweep]\ncflags = [[\"-O3\"]]\n",
                "\"-O3\" is not a define",
            ),
            (
                "kind = \"app\"\napp = \"apps/tutorial\"\n[sweep]\nmachine = [\"none.toml\"]\n",
                ":4:12: cannot read the machine file",
            ),
            (
                "kind = \"app\"\napp = \"apps/tutorial\"\n[expect]\nexit = 64\n",
                "exit = 64 is not a firmware's exit code",
            ),
            (
                "kind = \"app\"\napp = \"apps/tutorial\"\nrun_ms = 0\n",
                "run_ms = 0 is out of range",
            ),
            (
                "kind = \"app\"\napp = \"apps/tutorial\"\nworkload = 1\n",
                "unknown key `workload`",
            ),
        ] {
            let e = parse_text(text).unwrap_err();
            assert!(e.contains(want), "{text:?}: {e}");
        }
    }
}
