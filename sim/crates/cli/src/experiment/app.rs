//! Experiments on any application (`kind = "app"`): the application of a directory with its
//! `system.toml`, built once per combination of the axes (scheduler, tick rate, sets of
//! `-D` defines) and run on each machine file with each seed, every run checked against
//! what is expected of it (its exit code, lines of its console output). Writes `app.csv`
//! (one row per run) and prints a table; exits 0 when every run passed, 1 otherwise.
//!
//! ```toml
//! kind = "app"
//! app = "apps/tutorial"          # relative to the repository root
//! run_ms = 100                   # each run's simulated-time limit
//! seeds = [1, 2]
//! [sweep]                        # every key optional: absent, the application's own
//! scheduler = ["prio", "bitmap"]
//! tick_hz = [1000, 250]
//! cflags = [[], ["-DFAST=1"]]    # sets of extra defines, one build each
//! machine = ["default", "slow.toml"] # "default": the built-in machine; else relative to this file
//! [expect]
//! exit = 0                       # the firmware's exit code (default 0)
//! console = ["got 3 at tick 30"] # text each run's console output must contain
//! ```

use super::steps::{
    build_app, io_fail, prepare_app, stop_on_ctrl_c, ubik_exe, worker_pool, Capture,
};
use crate::run_stats::write_stats;
use crate::run::{outcome_status, simulate, Observe, Simulation};
use crate::{code, Failure};
use machine::config::{
    invalid_at, read_text_file, toml_error, ConfigError, MachineConfig, RAM_BASE,
};
use machine::elf::load_elf_file;
use rayon::prelude::*;
use serde::Deserialize;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
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

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawExpect {
    exit: Option<Spanned<i64>>,
    console: Option<Vec<String>>,
}

/// One build of the application.
#[derive(Clone, Debug, PartialEq)]
struct Build {
    scheduler: Option<String>,
    tick_hz: Option<i64>,
    cflags: Vec<String>,
    /// Its directory's name under `build/` and its name in `app.csv`: unique in the experiment
    /// (`unique_labels`).
    label: String,
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
    fn label(&self) -> String {
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

#[derive(Debug)]
struct AppExperiment {
    name: String,
    app: PathBuf,
    run_ms: u32,
    seeds: Vec<u64>,
    builds: Vec<Build>,
    /// (as written, the file or None for the built-in machine).
    machines: Vec<(String, Option<PathBuf>)>,
    exit: u8,
    console: Vec<String>,
}

/// The experiment file, for errors located in it.
struct Src<'a> {
    shown: &'a str,
    text: &'a str,
}

impl Src<'_> {
    fn err(&self, span: &std::ops::Range<usize>, what: String, expected: &str) -> ConfigError {
        invalid_at(self.shown, self.text, span, what, expected)
    }

    /// A value listed twice on an axis would be one build (or run) twice, into one directory.
    fn twice(&self, span: &std::ops::Range<usize>, what: String) -> ConfigError {
        self.err(span, format!("{what} is listed twice"), "each value once")
    }

    fn axis_empty(&self, n: usize, what: &str) -> Result<(), ConfigError> {
        if n == 0 {
            Err(self.err(
                &(0..0),
                format!("[sweep] {what} is empty"),
                "at least one value, or no key (the application's own)",
            ))
        } else {
            Ok(())
        }
    }
}

fn parse(path: &Path, root: &Path) -> Result<AppExperiment, ConfigError> {
    let text = read_text_file(path, "the experiment file")?;
    let shown = path.display().to_string();
    let raw: Raw = toml::from_str(&text).map_err(|e| toml_error(&shown, &text, &e))?;
    let src = Src {
        shown: &shown,
        text: &text,
    };
    let err =
        |span: &std::ops::Range<usize>, what: String, expected: &str| src.err(span, what, expected);
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let name = match &raw.name {
        Some(n) => {
            let s = n.get_ref();
            if !super::spec::is_dir_name(s) {
                return Err(err(
                    &n.span(),
                    format!("name {s:?} is not usable as a directory name"),
                    "letters, digits, '-' and '_'",
                ));
            }
            s.clone()
        }
        None => super::spec::name_from_stem(path, &shown, &text)?,
    };
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
    let run_ms = match &raw.run_ms {
        Some(r) if (1..=3_600_000).contains(r.get_ref()) => *r.get_ref() as u32,
        Some(r) => {
            return Err(err(
                &r.span(),
                format!("run_ms = {} is out of range", r.get_ref()),
                "milliseconds from 1 to 3600000",
            ))
        }
        None => 1000,
    };
    let seeds = read_seeds(&src, &raw.seeds)?;
    let sweep_span = raw.sweep.as_ref().map_or(0..0, |s| s.span());
    let sweep = raw.sweep.map(Spanned::into_inner).unwrap_or(RawSweep {
        scheduler: None,
        tick_hz: None,
        cflags: None,
        machine: None,
    });
    let schedulers = read_schedulers(&src, &sweep.scheduler)?;
    let ticks = read_ticks(&src, &sweep.tick_hz)?;
    let cflag_sets = read_cflag_sets(&src, &sweep.cflags)?;
    let machines = read_machines(&src, &dir, &sweep.machine)?;
    // Count before making anything: an absurd product is refused, not built.
    let n_builds = (schedulers.len() * ticks.len()) as u128 * cflag_sets.len() as u128;
    super::spec::check_size(
        &shown,
        &text,
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
    let (exit, console) = read_expect(&src, raw.expect)?;
    Ok(AppExperiment {
        name,
        app: app_dir,
        run_ms,
        seeds,
        builds,
        machines,
        exit,
        console,
    })
}

/// `seeds`: each non-negative and listed once (one seed twice would be one run twice, into
/// one directory); `[1]` without the key.
fn read_seeds(
    src: &Src,
    seeds: &Option<Spanned<Vec<Spanned<i64>>>>,
) -> Result<Vec<u64>, ConfigError> {
    Ok(match seeds {
        Some(s) => {
            let mut v = Vec::new();
            let mut seen = HashSet::new();
            for x in s.get_ref() {
                if *x.get_ref() < 0 {
                    return Err(src.err(
                        &x.span(),
                        format!("seed {} is negative", x.get_ref()),
                        "seeds = [non-negative integers]",
                    ));
                }
                // One seed twice would be one run twice, into one directory.
                if !seen.insert(*x.get_ref()) {
                    return Err(src.err(
                        &x.span(),
                        format!("seed {} is listed twice", x.get_ref()),
                        "each seed once",
                    ));
                }
                v.push(*x.get_ref() as u64);
            }
            if v.is_empty() {
                return Err(src.err(&s.span(), "no seeds".into(), "seeds = [at least one seed]"));
            }
            v
        }
        None => vec![1],
    })
}

/// `[sweep] scheduler`: the schedulers to build with (`None`: the application's own).
fn read_schedulers(
    src: &Src,
    list: &Option<Vec<Spanned<String>>>,
) -> Result<Vec<Option<String>>, ConfigError> {
    Ok(match list {
        Some(list) => {
            src.axis_empty(list.len(), "scheduler")?;
            let mut v = Vec::new();
            let known = schedulers();
            for s in list {
                if !known.contains(&s.get_ref().as_str()) {
                    return Err(src.err(
                        &s.span(),
                        format!("scheduler {:?} is not a scheduler", s.get_ref()),
                        &format!("one of {}", known.join(", ")),
                    ));
                }
                if v.contains(&Some(s.get_ref().clone())) {
                    return Err(src.twice(&s.span(), format!("scheduler {:?}", s.get_ref())));
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
    src: &Src,
    list: &Option<Vec<Spanned<i64>>>,
) -> Result<Vec<Option<i64>>, ConfigError> {
    Ok(match list {
        Some(list) => {
            src.axis_empty(list.len(), "tick_hz")?;
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
                    return Err(src.twice(&t.span(), format!("tick_hz {}", t.get_ref())));
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
    src: &Src,
    list: &Option<Vec<Spanned<Vec<Spanned<String>>>>>,
) -> Result<Vec<Vec<String>>, ConfigError> {
    Ok(match list {
        Some(list) => {
            src.axis_empty(list.len(), "cflags")?;
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
                super::spec::defines_fit(src.shown, src.text, set.get_ref())?;
                let defines: Vec<String> =
                    set.get_ref().iter().map(|f| f.get_ref().clone()).collect();
                if !seen.insert(defines.clone()) {
                    return Err(src.twice(&set.span(), format!("cflags set {defines:?}")));
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
    src: &Src,
    dir: &Path,
    list: &Option<Vec<Spanned<String>>>,
) -> Result<Vec<(String, Option<PathBuf>)>, ConfigError> {
    Ok(match list {
        Some(list) => {
            src.axis_empty(list.len(), "machine")?;
            let mut v = Vec::new();
            // The same file under two spellings is the same machine too.
            let mut seen: HashSet<Option<PathBuf>> = HashSet::new();
            for m in list {
                if m.get_ref() == "default" {
                    if !seen.insert(None) {
                        return Err(src.twice(&m.span(), "machine \"default\"".into()));
                    }
                    v.push(("default".to_string(), None));
                } else {
                    let p = dir.join(m.get_ref());
                    super::spec::input_file_at(
                        src.shown,
                        src.text,
                        &m.span(),
                        &p,
                        "the machine file",
                    )?;
                    if !seen.insert(Some(p.canonicalize().unwrap_or_else(|_| p.clone()))) {
                        return Err(src.twice(&m.span(), format!("machine {:?}", m.get_ref())));
                    }
                    v.push((m.get_ref().clone(), Some(p)));
                }
            }
            v
        }
        None => vec![("default".to_string(), None)],
    })
}

/// `[expect]`: the exit code and the console lines every run must give.
fn read_expect(src: &Src, expect: Option<RawExpect>) -> Result<(u8, Vec<String>), ConfigError> {
    Ok(match expect {
        Some(e) => {
            let exit = match &e.exit {
                Some(x) if (0..=63).contains(x.get_ref()) => *x.get_ref() as u8,
                Some(x) => {
                    return Err(src.err(
                        &x.span(),
                        format!("exit = {} is not a firmware's exit code", x.get_ref()),
                        "0 to 63",
                    ))
                }
                None => 0,
            };
            (exit, e.console.unwrap_or_default())
        }
        None => (0, vec![]),
    })
}

/// The application's `system.toml` with the build's scheduler, tick rate and defines.
fn system_toml(app: &Path, b: &Build) -> Result<String, Failure> {
    let p = app.join("system.toml");
    let text = std::fs::read_to_string(&p)
        .map_err(|e| Failure::new(code::NO_INPUT, format!("cannot read {}: {e}", p.display())))?;
    let mut t: toml::Table = text
        .parse()
        .map_err(|e| Failure::new(code::DATA, format!("{}: {e}", p.display())))?;
    let kernel = t
        .entry("kernel")
        .or_insert_with(|| toml::Value::Table(Default::default()));
    if let Some(k) = kernel.as_table_mut() {
        if let Some(s) = &b.scheduler {
            if s == "nos" {
                k.remove("scheduler");
                k.insert("os".into(), "nos".into());
            } else {
                k.insert("scheduler".into(), s.clone().into());
            }
        }
        if let Some(hz) = b.tick_hz {
            k.insert("tick_hz".into(), hz.into());
        }
    }
    if !b.cflags.is_empty() {
        let build = t
            .entry("build")
            .or_insert_with(|| toml::Value::Table(Default::default()));
        if let Some(bt) = build.as_table_mut() {
            let mut flags: Vec<toml::Value> = bt
                .get("cflags")
                .and_then(|v| v.as_array().cloned())
                .unwrap_or_default();
            flags.extend(b.cflags.iter().map(|f| toml::Value::from(f.clone())));
            bt.insert("cflags".into(), toml::Value::Array(flags));
        }
    }
    Ok(format!(
        "# Generated by `ubik experiment` from {}: do not edit.\n{t}",
        p.display()
    ))
}

struct Row {
    build: usize,
    machine: usize,
    seed: u64,
    exit: Option<u8>,
    cycles: u64,
    sim_time_s: f64,
    energy_j: Option<f64>,
    why: Option<String>,
}

pub fn run(
    file: &Path,
    root: &Path,
    output: Option<PathBuf>,
    jobs: usize,
    check: bool,
) -> Result<u8, Failure> {
    let exp = parse(file, root).map_err(|e| Failure::new(e.exit_code() as u8, e.to_string()))?;
    let out = output.unwrap_or_else(|| PathBuf::from("out").join(&exp.name));
    for (_, m) in &exp.machines {
        if let Some(p) = m {
            MachineConfig::from_file(p)
                .map_err(|e| Failure::new(e.exit_code() as u8, e.to_string()))?;
        }
    }
    let runs_n = exp.builds.len() * exp.machines.len() * exp.seeds.len();
    if check {
        println!(
            "{}: ok ({} builds x {} machines x {} seeds -> {})",
            file.display(),
            exp.builds.len(),
            exp.machines.len(),
            exp.seeds.len(),
            out.display()
        );
        return Ok(0);
    }
    std::fs::create_dir_all(&out).map_err(|e| io_fail("the output directory", &out, e))?;
    let exe = ubik_exe()?;
    eprintln!(
        "ubik experiment {}: {} builds, {runs_n} runs -> {}",
        exp.name,
        exp.builds.len(),
        out.display()
    );
    let mut elfs = Vec::new();
    for b in &exp.builds {
        let dir = out.join("build").join(b.label());
        prepare_app(&exp.app, &dir, &system_toml(&exp.app, b)?)?;
        elfs.push(build_app(&exe, root, &dir, &exp.name, &b.label())?);
    }
    let mut plan = Vec::new();
    for bi in 0..exp.builds.len() {
        for mi in 0..exp.machines.len() {
            for &s in &exp.seeds {
                plan.push((bi, mi, s));
            }
        }
    }
    let stop = stop_on_ctrl_c();
    let pool = worker_pool(jobs)?;
    let rows: Vec<Result<Row, Failure>> = pool.install(|| {
        plan.par_iter()
            .map(|&(bi, mi, seed)| run_one(&exp, &elfs, &out, &stop, bi, mi, seed))
            .collect()
    });
    let mut ok = Vec::new();
    for r in rows {
        ok.push(r?);
    }
    report(&exp, &out, &ok)
}

/// One run: build `bi` on machine `mi` with `seed`, its console and statistics written to
/// its directory, judged against `[expect]`.
fn run_one(
    exp: &AppExperiment,
    elfs: &[PathBuf],
    out: &Path,
    stop: &Arc<AtomicBool>,
    bi: usize,
    mi: usize,
    seed: u64,
) -> Result<Row, Failure> {
    let cfg = match &exp.machines[mi].1 {
        Some(p) => MachineConfig::from_file(p)
            .map_err(|e| Failure::new(e.exit_code() as u8, e.to_string()))?,
        None => MachineConfig::default(),
    };
    let image = load_elf_file(&elfs[bi], RAM_BASE, cfg.ram_size)
        .map_err(|e| Failure::new(code::DATA, e.to_string()))?;
    let dir = out
        .join("runs")
        .join(format!("{}-m{mi}-s{seed}", exp.builds[bi].label()));
    std::fs::create_dir_all(&dir).map_err(|e| io_fail("the run directory", &dir, e))?;
    let console = Capture::default();
    let done = simulate(Simulation {
        cfg: &cfg,
        image: &image,
        seed,
        max_cycles: None,
        max_time_fs: Some(exp.run_ms as u128 * 1_000_000_000_000),
        observe: Observe::Energy,
        record: false,
        itrace: None,
        console: Box::new(console.clone()),
        stop,
        gdb: None,
        trace: None,
    });
    let text = console.text();
    let cpath = dir.join("console.txt");
    std::fs::write(&cpath, text.as_bytes())
        .map_err(|e| io_fail("the console output", &cpath, e))?;
    let spath = dir.join("stats.json");
    write_stats(&spath, &done.stats).map_err(|e| io_fail("statistics", &spath, e))?;
    let status = outcome_status(&elfs[bi], &done.outcome, &done.machine, &done.counts, None);
    let (exit, mut why) = match status {
        Ok(c) if c == exp.exit => (Some(c), None),
        Ok(c) => (
            Some(c),
            Some(format!("exit code {c}, expected {}", exp.exit)),
        ),
        Err(f) if f.code == code::INTERRUPTED => return Err(f),
        Err(f) => (
            None,
            Some(
                f.message
                    .replace(&elfs[bi].display().to_string(), "the firmware"),
            ),
        ),
    };
    if why.is_none() {
        if let Some(missing) = exp.console.iter().find(|l| !text.contains(l.as_str())) {
            why = Some(format!("the console output lacks {missing:?}"));
        }
    }
    Ok(Row {
        build: bi,
        machine: mi,
        seed,
        exit,
        cycles: done.counts.cycles,
        sim_time_s: done.counts.sim_time_s,
        energy_j: done.stats.energy_j,
        why,
    })
}

/// Writes app.csv and prints a line per run and the count that passed: exit code 0 when
/// every run passed, else 1.
fn report(exp: &AppExperiment, out: &Path, ok: &[Row]) -> Result<u8, Failure> {
    let mut csv = String::from(
        "build,scheduler,tick_hz,cflags,machine,seed,exit,cycles,sim_time_s,energy_j,pass,why\n",
    );
    let mut table = String::new();
    let mut failed = 0;
    for r in ok {
        let b = &exp.builds[r.build];
        let pass = r.why.is_none();
        failed += !pass as usize;
        let q = |s: &str| format!("\"{}\"", s.replace('"', "\"\""));
        csv += &format!(
            "{},{},{},{},{},{},{},{},{},{},{},{}\n",
            b.label(),
            b.scheduler.as_deref().unwrap_or(""),
            b.tick_hz.map_or(String::new(), |t| t.to_string()),
            q(&b.cflags.join(" ")),
            q(&exp.machines[r.machine].0),
            r.seed,
            r.exit.map_or(String::new(), |e| e.to_string()),
            r.cycles,
            r.sim_time_s,
            r.energy_j.map_or(String::new(), |e| e.to_string()),
            pass,
            q(r.why.as_deref().unwrap_or(""))
        );
        table += &format!(
            "{:<32} {:<16} seed {:<4} {:>12} cycles  {}\n",
            b.label(),
            exp.machines[r.machine].0,
            r.seed,
            r.cycles,
            match &r.why {
                None => "pass".to_string(),
                Some(w) => format!("FAIL: {w}"),
            }
        );
    }
    let p = out.join("app.csv");
    std::fs::write(&p, csv).map_err(|e| io_fail("the results", &p, e))?;
    print!("{table}");
    println!(
        "{} of {} runs passed; rows in {}",
        ok.len() - failed,
        ok.len(),
        p.display()
    );
    Ok(if failed == 0 { 0 } else { 1 })
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
        let r = parse(&f, &root()).map_err(|e| e.to_string());
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
        assert_eq!((e.exit, e.console.len(), e.seeds.len()), (0, 1, 2));
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

    #[test]
    fn the_system_description_takes_the_builds_values() {
        let b = Build {
            scheduler: Some("bitmap".into()),
            tick_hz: Some(250),
            cflags: vec!["-DFAST=1".into()],
            label: String::new(),
        };
        let s = system_toml(&root().join("apps/tutorial"), &b)
            .map_err(|f| f.message)
            .unwrap();
        let t: toml::Table = s.parse().unwrap();
        assert_eq!(t["kernel"]["scheduler"].as_str(), Some("bitmap"));
        assert_eq!(t["kernel"]["tick_hz"].as_integer(), Some(250));
        assert_eq!(t["build"]["cflags"][0].as_str(), Some("-DFAST=1"));
        assert!(t.contains_key("task"), "the application's objects stay");
    }
}
