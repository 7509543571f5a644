//! Seeded mutation fuzzing of every kind of input `ubik` reads (issue 10): machine files,
//! system descriptions, experiment files (and the machine files they name), result folders and
//! ELF files. The seeds are the project's own valid files; each mutant is run through the real
//! binary (`machine --check` and `run` on it, `gen`, `experiment --check`, `report`, `run`)
//! under a wall-clock limit (5 s) and a memory limit (512 MiB resident), and must keep the contract (docs/contract.md): a
//! documented exit code (never 70, 101 or a signal), no panic, and for a failure exactly one
//! line `ubik: ...` that names the input and says what is wrong.
//!
//! `UBIK_FUZZ_ITERS=N` sets the mutants per class (default: a few hundred, about a minute for
//! all on two cores), `UBIK_FUZZ_SEED=N` the seed (default 1). A violation is reported with
//! the command and the (minimised) input saved under `sim/target/tmp/fuzz-failures/`.

mod fuzz;
mod support;

use fuzz::*;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Instant;
use support::{repo_root, scratch};

fn os(args: &[&str]) -> Vec<OsString> {
    args.iter().map(OsString::from).collect()
}

fn read_seeds(paths: &[PathBuf]) -> Vec<(String, Vec<u8>)> {
    let root = repo_root();
    let mut v: Vec<(String, Vec<u8>)> = paths
        .iter()
        .filter_map(|p| {
            std::fs::read(p)
                .ok()
                .map(|b| (p.strip_prefix(&root).unwrap_or(p).display().to_string(), b))
        })
        .collect();
    v.sort();
    v
}

/// Files under `dir` (one level, or one level of subdirectories with `nested`) named `*suffix`.
fn files(dir: &Path, suffix: &str, nested: bool) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if nested && p.is_dir() {
            out.extend(files(&p, suffix, false));
        } else if p.is_file() && p.to_string_lossy().ends_with(suffix) {
            out.push(p);
        }
    }
    out.sort();
    out
}

/// A deterministic choice from the bytes of a mutant (so that a rerun makes the same one).
fn choose(bytes: &[u8], n: usize) -> usize {
    (bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    }) % n as u64) as usize
}

/// One command's verdict: the violation (if any), the command line and its stderr.
struct Verdict {
    /// How the (last) command ended.
    outcome: String,
    violation: Option<String>,
    command: String,
    stderr: String,
}

/// `names`: one of them must be in a failure's line; `readable`: inputs that exist and can be
/// read (a 66 naming one of them is wrong).
fn verdict(
    o: &Outcome,
    allowed: &[i32],
    names: &[&str],
    readable: &[&str],
    command: String,
) -> Verdict {
    Verdict {
        outcome: if o.over_memory {
            "memory".into()
        } else if o.timed_out {
            "timeout".into()
        } else {
            o.describe()
        },
        violation: check_contract(o, &o.dir, allowed, names, readable),
        command,
        stderr: o.stderr.clone(),
    }
}

/// The fuzzing loop of a class whose input is one file: mutate a seed, run, check; the first
/// mutant of each kind of violation is minimised (if `minimise_budget` > 0) and saved.
fn fuzz_files(
    class: &str,
    seeds: &[(String, Vec<u8>)],
    default_iters: usize,
    minimise_budget: usize,
    ext: &str,
    mutate: impl Fn(&mut Rng, &[u8], &[Vec<u8>]) -> Vec<u8>,
    exec: impl Fn(&[u8]) -> Verdict,
) {
    assert!(!seeds.is_empty(), "{class}: no seed files found");
    let started = Instant::now();
    let mut rng = Rng::for_class(class);
    let donors: Vec<Vec<u8>> = seeds.iter().map(|s| s.1.clone()).collect();
    let iters = iterations(default_iters);
    let mut findings = Findings::default();
    // Every seed as it is must pass.
    for (name, bytes) in seeds {
        let v = exec(bytes);
        assert!(
            v.violation.is_none(),
            "{class}: the seed {name} itself breaks the contract: {:?} ({}): {}",
            v.violation,
            v.command,
            v.stderr
        );
    }
    for i in 0..iters {
        let (seed_name, seed) = &seeds[rng.below(seeds.len())];
        let mutant = mutate(&mut rng, seed, &donors);
        let v = exec(&mutant);
        *findings.outcomes.entry(v.outcome.clone()).or_default() += 1;
        let Some(kind) = v.violation else { continue };
        if !findings.record(class, &kind) {
            continue;
        }
        let small = if minimise_budget > 0 {
            minimise(
                &mutant,
                |c| exec(c).violation.as_deref() == Some(kind.as_str()),
                minimise_budget,
            )
        } else {
            mutant.clone()
        };
        let again = exec(&small);
        let saved = failures_dir().join(format!(
            "{class}-{}-{i}.{ext}",
            kind.replace(|c: char| !c.is_ascii_alphanumeric(), "_")
        ));
        let _ = std::fs::write(&saved, &small);
        findings.add(Finding {
            class: class.to_string(),
            kind,
            detail: format!("from {seed_name}"),
            count: 1,
            command: again.command,
            stderr: again.stderr,
            saved,
        });
    }
    findings.assert_none(class, iters, started);
}

fn firmware_path(name: &str) -> PathBuf {
    support::firmware(name)
}

fn run_codes() -> Vec<i32> {
    let mut v: Vec<i32> = (0..=63).collect();
    v.extend([65, 71, 72]);
    v
}

#[test]
fn fuzz_machine_files() {
    let root = repo_root();
    let dir = scratch("fuzz-machine");
    let default = support::ubik(&["machine", "--print-default"]);
    assert_eq!(default.code, 0);
    let default_path = dir.join("default.machine.toml");
    std::fs::write(&default_path, &default.stdout).unwrap();
    let mut paths = vec![default_path];
    paths.extend(files(&root.join("tests/firmware"), ".machine.toml", false));
    paths.extend(files(&root.join("apps"), "machine.toml", true));
    paths.extend(files(&root.join("experiments"), ".machine.toml", false));
    paths.extend(files(&root.join("tests/nos"), "machine.toml", false));
    let seeds = read_seeds(&paths);
    // Stream files the seeds name, beside the mutant.
    for f in files(&root.join("tests/firmware"), ".samples.txt", false) {
        std::fs::copy(&f, dir.join(f.file_name().unwrap())).unwrap();
    }
    // Firmware that runs for the whole cycle budget (waiting for interrupts, spinning) as
    // well as firmware that stops at once.
    let elfs: Vec<PathBuf> = ["idle_short", "dev_intc", "spin", "dev_io", "hello"]
        .iter()
        .map(|n| firmware_path(n))
        .collect();
    fuzz_files("machine", &seeds, 500, 400, "toml", mutate_text, |bytes| {
        std::fs::write(dir.join("m.toml"), bytes).unwrap();
        let args = os(&["machine", "--check", "m.toml"]);
        let o = run_limited(&args, &dir, &[], LIMITS);
        let v = verdict(
            &o,
            &[0, 65, 66],
            &["m.toml"],
            &["m.toml"],
            format!("cd {} && ubik machine --check m.toml", dir.display()),
        );
        if v.violation.is_some() || o.code != Some(0) {
            return v;
        }
        // A machine file `--check` accepts runs firmware within the same limits.
        let elf = &elfs[choose(bytes, elfs.len())];
        let mut args = os(&["run"]);
        args.push(elf.into());
        args.extend(os(&[
            "--machine",
            "m.toml",
            "--max-cycles",
            "2000000",
            "--seed",
            "3",
        ]));
        let o = run_limited(&args, &dir, &[], LIMITS);
        verdict(
            &o,
            &run_codes(),
            &["m.toml", elf.to_str().unwrap()],
            &["m.toml", elf.to_str().unwrap()],
            format!(
                "cd {} && ubik run {} --machine m.toml --max-cycles 2000000 --seed 3",
                dir.display(),
                elf.display()
            ),
        )
    });
}

#[test]
fn fuzz_system_descriptions() {
    let root = repo_root();
    let mut paths = files(&root.join("apps"), "system.toml", true);
    paths.extend(files(&root.join("tests/kernel"), "system.toml", true));
    paths.extend(files(&root.join("tests"), "system.toml", true));
    paths.extend(files(&root.join("tests/observe"), "system.toml", true));
    let seeds = read_seeds(&paths);
    let dir = scratch("fuzz-system");
    fuzz_files("system", &seeds, 500, 400, "toml", mutate_text, |bytes| {
        std::fs::write(dir.join("system.toml"), bytes).unwrap();
        let o = run_limited(&os(&["gen", "system.toml", "-o", "gen"]), &dir, &[], LIMITS);
        verdict(
            &o,
            &[0, 65],
            &["system.toml"],
            &["system.toml"],
            format!("cd {} && ubik gen system.toml -o gen", dir.display()),
        )
    });
}

fn experiment_seeds() -> Vec<(String, Vec<u8>)> {
    let paths: Vec<PathBuf> = files(&repo_root().join("experiments"), ".toml", false)
        .into_iter()
        .filter(|p| !p.to_string_lossy().ends_with(".machine.toml"))
        .collect();
    read_seeds(&paths)
}

/// A directory for experiment mutants, with the machine files the seeds name beside them.
fn experiment_dir(tag: &str) -> PathBuf {
    let dir = scratch(tag);
    for f in files(&repo_root().join("experiments"), ".machine.toml", false) {
        std::fs::copy(&f, dir.join(f.file_name().unwrap())).unwrap();
    }
    dir
}

fn experiment_check(dir: &Path) -> (Outcome, String) {
    let env = [("UBIK_ROOT", repo_root().into_os_string())];
    let o = run_limited(
        &os(&["experiment", "--check", "exp.toml", "-o", "out"]),
        dir,
        &env,
        LIMITS,
    );
    (
        o,
        format!(
            "cd {} && UBIK_ROOT={} ubik experiment --check exp.toml -o out",
            dir.display(),
            repo_root().display()
        ),
    )
}

#[test]
fn fuzz_experiment_files() {
    let seeds = experiment_seeds();
    let dir = experiment_dir("fuzz-experiment");
    fuzz_files(
        "experiment",
        &seeds,
        400,
        400,
        "toml",
        mutate_text,
        |bytes| {
            std::fs::write(dir.join("exp.toml"), bytes).unwrap();
            let (o, cmd) = experiment_check(&dir);
            verdict(
                &o,
                &[0, 65, 66],
                &["exp.toml", "machine.toml"],
                &["exp.toml", "simbed.machine.toml"],
                cmd,
            )
        },
    );
}

#[test]
fn fuzz_experiment_machine_files() {
    // The machine file an experiment names, mutated: `experiment --check` must report it.
    let root = repo_root();
    let seeds = read_seeds(&files(&root.join("experiments"), ".machine.toml", false));
    let dir = experiment_dir("fuzz-experiment-machine");
    std::fs::write(
        dir.join("exp.toml"),
        std::fs::read(root.join("experiments/demo.toml")).unwrap(),
    )
    .unwrap();
    fuzz_files(
        "experiment-machine",
        &seeds,
        200,
        400,
        "toml",
        mutate_text,
        |bytes| {
            std::fs::write(dir.join("simbed.machine.toml"), bytes).unwrap();
            let (o, cmd) = experiment_check(&dir);
            verdict(
                &o,
                &[0, 65, 66],
                &["simbed.machine.toml"],
                &["simbed.machine.toml"],
                cmd,
            )
        },
    );
}

#[test]
fn fuzz_elf_files() {
    let names = [
        "hello",
        "exit_code",
        "trap_loop",
        "printf",
        "dev_timer",
        "unhandled_trap",
    ];
    let mut paths: Vec<PathBuf> = names.iter().map(|n| firmware_path(n)).collect();
    let dir = scratch("fuzz-elf");
    // A kernel application too: the observers read its symbols and the kernel's descriptor.
    let kernel_elf = dir.join("two_tasks.elf");
    let app = repo_root().join("tests/observe/two_tasks");
    let b = support::ubik(&[
        "build".as_ref(),
        app.as_os_str(),
        "-o".as_ref(),
        kernel_elf.as_os_str(),
    ]);
    assert_eq!(b.code, 0, "ubik build two_tasks: {}", b.stderr);
    paths.push(kernel_elf);
    let seeds = read_seeds(&paths);
    fuzz_files(
        "elf",
        &seeds,
        500,
        0,
        "elf",
        |rng, seed, _| mutate_elf(rng, seed),
        |bytes| {
            std::fs::write(dir.join("m.elf"), bytes).unwrap();
            // Half of the mutants with every observer on (symbols, sections, kernel awareness).
            let observe: &[&str] = if choose(bytes, 2) == 0 {
                &[]
            } else {
                &[
                    "--stats",
                    "s.json",
                    "--profile",
                    "p.csv",
                    "--trace",
                    "t.json",
                ]
            };
            let mut args = os(&["run", "m.elf", "--max-cycles", "300000"]);
            args.extend(os(observe));
            let o = run_limited(&args, &dir, &[], LIMITS);
            let cmd = format!(
                "cd {} && ubik run m.elf --max-cycles 300000 {}",
                dir.display(),
                observe.join(" ")
            );
            verdict(&o, &run_codes(), &["m.elf"], &["m.elf"], cmd)
        },
    );
}

// ---- Result folders: the input is a directory; each mutant changes one to three of its files.

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            copy_dir(&p, &to.join(e.file_name()));
        } else {
            std::fs::copy(&p, to.join(e.file_name())).unwrap();
        }
    }
}

/// The files of a result folder, relative to it.
fn result_files(dir: &Path) -> Vec<PathBuf> {
    let mut v = Vec::new();
    for p in files(dir, "", true) {
        v.push(p.strip_prefix(dir).unwrap().to_path_buf());
    }
    v
}

/// One change to a result folder; a description of it.
fn mutate_results(rng: &mut Rng, res: &Path, seeds: &[Vec<u8>]) -> String {
    let list = result_files(res);
    if list.is_empty() {
        return "nothing to change".into();
    }
    let rel = list[rng.below(list.len())].clone();
    let p = res.join(&rel);
    match rng.below(10) {
        0 => {
            std::fs::remove_file(&p).unwrap();
            format!("removed {}", rel.display())
        }
        1 => {
            std::fs::remove_file(&p).unwrap();
            std::fs::create_dir_all(&p).unwrap();
            format!("{} made a directory", rel.display())
        }
        2 => {
            std::fs::write(&p, "").unwrap();
            format!("{} emptied", rel.display())
        }
        3 => {
            let name = *rng.pick(&[
                "x.svg",
                "bench/x.json",
                "bench/x.stats.json",
                "sub/summary.json",
                "summary.json",
                "smoke-small/dpm.csv",
                "bench",
            ]);
            let to = res.join(name);
            let donor = rng.below(seeds.len());
            let body = mutate_text(rng, &seeds[donor], seeds);
            if let Some(parent) = to.parent() {
                let _ = std::fs::create_dir_all(parent);
            }
            let _ = std::fs::write(&to, body);
            format!("added {name}")
        }
        _ => {
            let text = std::fs::read(&p).unwrap();
            let m = mutate_text(rng, &text, seeds);
            std::fs::write(&p, m).unwrap();
            format!("mutated {}", rel.display())
        }
    }
}

#[test]
fn fuzz_result_folders() {
    let class = "results";
    let started = Instant::now();
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/results");
    let seeds: Vec<Vec<u8>> = result_files(&fixture)
        .iter()
        .map(|r| std::fs::read(fixture.join(r)).unwrap())
        .collect();
    let dir = scratch("fuzz-results");
    let mut rng = Rng::for_class(class);
    let mut findings = Findings::default();
    let iters = iterations(300);
    let run = |dir: &Path| {
        let o = run_limited(&os(&["report", "res", "-o", "page"]), dir, &[], LIMITS);
        verdict(
            &o,
            &[0, 65, 66],
            &["res"],
            &[],
            format!("cd {} && ubik report res -o page", dir.display()),
        )
    };
    copy_dir(&fixture, &dir.join("res"));
    let v = run(&dir);
    assert!(
        v.violation.is_none(),
        "the real result folder breaks the contract: {:?}: {}",
        v.violation,
        v.stderr
    );
    for i in 0..iters {
        let res = dir.join("res");
        let _ = std::fs::remove_dir_all(&res);
        let _ = std::fs::remove_dir_all(dir.join("page"));
        copy_dir(&fixture, &res);
        let n = 1 + rng.below(3);
        let changes: Vec<String> = (0..n)
            .map(|_| mutate_results(&mut rng, &res, &seeds))
            .collect();
        let v = run(&dir);
        *findings.outcomes.entry(v.outcome.clone()).or_default() += 1;
        let Some(kind) = v.violation else { continue };
        if !findings.record(class, &kind) {
            continue;
        }
        let saved = failures_dir().join(format!(
            "{class}-{}-{i}",
            kind.replace(|c: char| !c.is_ascii_alphanumeric(), "_")
        ));
        let _ = std::fs::remove_dir_all(&saved);
        copy_dir(&res, &saved);
        findings.add(Finding {
            class: class.to_string(),
            kind,
            detail: changes.join("; "),
            count: 1,
            command: v
                .command
                .replace(
                    &dir.display().to_string(),
                    &saved.parent().unwrap().display().to_string(),
                )
                .replace(
                    " res ",
                    &format!(" {} ", saved.file_name().unwrap().to_string_lossy()),
                ),
            stderr: v.stderr,
            saved,
        });
    }
    findings.assert_none(class, iters, started);
}
