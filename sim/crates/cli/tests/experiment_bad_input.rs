//! `ubik experiment` over bad input (issue 10, item 14): every input is checked before
//! anything is built -- the experiment file, the machine file(s), the workload directory, the
//! seeds, the cross compiler, the output directory -- and each failure, then or later, is one
//! line naming the file with the documented exit code: 65 bad data (a malformed machine file,
//! a variant that does not compile), 66 a file that cannot be read, 69 no cross compiler, 74
//! an output directory that cannot be written, a run's own code (the firmware's exit code,
//! 71 machine fault, 72 a run that never stops). `--check` checks and builds nothing.

mod support;
use std::path::{Path, PathBuf};
use support::*;

/// A scratch directory holding `exp.toml` (the text given) and the files `files` (name, text).
fn setup(tag: &str, exp: &str, files: &[(&str, &str)]) -> (PathBuf, PathBuf) {
    let d = scratch(tag);
    for (name, text) in files {
        let p = d.join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    let f = d.join("exp.toml");
    std::fs::write(&f, exp).unwrap();
    (d, f)
}

fn experiment(file: &Path, out: &Path, extra: &[&str], env: &[(&str, &str)]) -> Run {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_ubik"));
    cmd.arg("experiment")
        .arg(file)
        .arg("-o")
        .arg(out)
        .args(extra)
        .stdin(std::process::Stdio::null());
    cmd.env("UBIK_ROOT", repo_root());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let o = cmd.output().expect("run ubik");
    Run {
        code: o.status.code().unwrap_or(-1),
        stdout: o.stdout,
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

/// The last line on stderr (`ubik experiment` prints a progress line first).
fn last_line(r: &Run) -> Run {
    let line = r
        .stderr
        .lines()
        .rfind(|l| !l.trim().is_empty())
        .unwrap_or("")
        .to_string();
    Run {
        code: r.code,
        stdout: r.stdout.clone(),
        stderr: format!("{line}\n"),
    }
}

const ONE_VARIANT: &str = "app = \"apps/simbed\"\nmachine = \"m.toml\"\nrun_ms = 1\nseeds = [1]\n[sweep]\nos = [\"nos\"]\nworkload = [\"ipc\"]\n";

fn assert_nothing_built(out: &Path, what: &str) {
    assert!(
        !out.join("build").exists(),
        "{what}: something was built before the failure"
    );
    assert!(
        !out.join("runs").exists(),
        "{what}: something was run before the failure"
    );
}

#[test]
fn a_malformed_machine_file_is_65_before_anything_is_built() {
    let (d, f) = setup(
        "exp-bad-machine",
        ONE_VARIANT,
        &[("m.toml", "[timer]\ntimebase = -3\n")],
    );
    let out = d.join("out");
    let r = experiment(&f, &out, &[], &[]);
    assert_one_line_failure(&r, 65, &["m.toml:2:"], "malformed machine file");
    assert_nothing_built(&out, "malformed machine file");
    // The same with --check.
    let r = experiment(&f, &out, &["--check"], &[]);
    assert_one_line_failure(&r, 65, &["m.toml:2:"], "malformed machine file, --check");
}

#[test]
fn a_dpm_experiments_machine_files_are_checked_first() {
    // A workload directory like apps/dpm whose game-dvfs machine file is malformed.
    let dpm = repo_root().join("apps/dpm");
    let d = scratch("exp-dpm-machine");
    let app = d.join("app");
    std::fs::create_dir_all(&app).unwrap();
    for e in std::fs::read_dir(&dpm).unwrap().flatten() {
        std::fs::copy(e.path(), app.join(e.file_name())).unwrap();
    }
    std::fs::write(
        app.join("game-dvfs.machine.toml"),
        "[timer]\ntimebase = -3\n",
    )
    .unwrap();
    let f = d.join("exp.toml");
    std::fs::write(&f, format!("kind = \"dpm\"\napp = \"{}\"\nrun_ms = 1\n[sweep]\nworkload = [\"audio\", \"game\"]\npolicy = [\"default\"]\n", app.display())).unwrap();
    let out = d.join("out");
    let r = experiment(&f, &out, &[], &[]);
    assert_one_line_failure(&r, 65, &["game-dvfs.machine.toml:2:"], "dpm machine file");
    assert_nothing_built(&out, "dpm machine file");
}

#[test]
fn a_missing_default_machine_file_is_66() {
    let d = scratch("exp-no-machine");
    let app = d.join("app");
    std::fs::create_dir_all(&app).unwrap();
    std::fs::copy(
        repo_root().join("apps/simbed/workloads.c"),
        app.join("workloads.c"),
    )
    .unwrap();
    let f = d.join("exp.toml");
    std::fs::write(
        &f,
        format!(
            "app = \"{}\"\n[sweep]\nworkload = [\"ipc\"]\n",
            app.display()
        ),
    )
    .unwrap();
    let out = d.join("out");
    let r = experiment(&f, &out, &["--check"], &[]);
    assert_one_line_failure(&r, 66, &["machine.toml"], "missing default machine file");
    assert_nothing_built(&out, "missing default machine file");
}

#[test]
fn a_seed_listed_twice_is_65_at_its_line() {
    let (d, f) = setup(
        "exp-seeds",
        &ONE_VARIANT.replace("seeds = [1]", "seeds = [3, 3]"),
        &[("m.toml", "")],
    );
    let r = experiment(&f, &d.join("out"), &[], &[]);
    assert_one_line_failure(&r, 65, &["exp.toml:4:13:", "seeds"], "duplicate seed");
}

#[test]
fn an_output_directory_that_cannot_be_written_is_74_before_anything_is_built() {
    let (d, f) = setup(
        "exp-out",
        ONE_VARIANT,
        &[("m.toml", ""), ("file", "a file, not a directory\n")],
    );
    let out = d.join("file").join("out");
    for extra in [&[][..], &["--check"][..]] {
        let r = experiment(&f, &out, extra, &[]);
        assert_one_line_failure(&r, 74, &["file/out"], "unwritable output directory");
    }
}

#[test]
fn a_missing_cross_compiler_is_69_before_anything_is_built() {
    let (d, f) = setup("exp-cc", ONE_VARIANT, &[("m.toml", "")]);
    let out = d.join("out");
    let r = experiment(&f, &out, &[], &[("UBIK_CROSS", "no-such-prefix-")]);
    assert_one_line_failure(&r, 69, &["no-such-prefix-gcc"], "missing compiler");
    assert_nothing_built(&out, "missing compiler");
}

#[test]
fn check_checks_without_building() {
    let (d, f) = setup("exp-check", ONE_VARIANT, &[("m.toml", "")]);
    let out = d.join("out");
    let r = experiment(&f, &out, &["--check"], &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.is_empty(), "{}", r.stderr);
    assert!(
        r.stdout_str().contains("exp.toml: ok"),
        "{}",
        r.stdout_str()
    );
    assert!(!out.exists(), "--check created the output directory");
    // Every experiment of the repository passes.
    for e in std::fs::read_dir(repo_root().join("experiments"))
        .unwrap()
        .flatten()
    {
        let p = e.path();
        if p.extension().is_some_and(|x| x == "toml")
            && !p.to_string_lossy().ends_with(".machine.toml")
        {
            let r = experiment(&p, &d.join("o2"), &["--check"], &[]);
            assert_eq!(r.code, 0, "{}: {}", p.display(), r.stderr);
        }
    }
}

/// A workload directory whose `workloads.c` is `main_c`.
fn custom_app(tag: &str, main_c: &str) -> (PathBuf, PathBuf) {
    let d = scratch(tag);
    let app = d.join("app");
    std::fs::create_dir_all(&app).unwrap();
    std::fs::write(app.join("workloads.c"), main_c).unwrap();
    std::fs::write(app.join("machine.toml"), "").unwrap();
    let f = d.join("exp.toml");
    std::fs::write(
        &f,
        format!(
            "app = \"{}\"\nrun_ms = 1\n[sweep]\nos = [\"nos\"]\nworkload = [\"ipc\"]\n",
            app.display()
        ),
    )
    .unwrap();
    (d, f)
}

#[test]
fn a_variant_that_does_not_compile_is_65_naming_its_build_log() {
    let (d, f) = custom_app(
        "exp-cc-error",
        "int main(void) { return undeclared_thing; }\n",
    );
    let r = experiment(&f, &d.join("out"), &[], &[]);
    let last = last_line(&r);
    assert_one_line_failure(
        &last,
        65,
        &["nos-ipc-t1-p8000", "build.log"],
        "compile error",
    );
    let log = d.join("out/build/nos-ipc-t1-p8000/build.log");
    let text = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(
        text.contains("undeclared_thing"),
        "the compiler's messages are not in {}: {text:?}",
        log.display()
    );
}

#[test]
fn a_run_that_fails_exits_with_the_runs_code() {
    // The firmware stops with exit code 5: the experiment exits 5 (not 71), naming the run.
    let (d, f) = custom_app(
        "exp-fw-exit",
        "#include \"bsp/bsp.h\"\nint main(void) { return 5; }\n",
    );
    let r = experiment(&f, &d.join("out"), &[], &[]);
    assert_one_line_failure(
        &last_line(&r),
        5,
        &["nos-ipc-t1-p8000", "seed 1", "console.txt"],
        "firmware exit 5",
    );

    // A firmware that never stops hits the run's cycle limit: 72, not 71.
    let never = "#include \"bsp/bsp.h\"\nvoid bsp_timer_handler(void) { bsp_timer_set_compare(~0ull); }\n\
                 int main(void) {\n  bsp_timer_set_compare(bsp_timer_now() + 100000000000ull);\n  bsp_timer_irq_enable();\n  bsp_irq_enable();\n  for (;;) bsp_wfi();\n}\n";
    let (d, f) = custom_app("exp-fw-forever", never);
    let r = experiment(&f, &d.join("out"), &[], &[]);
    assert_one_line_failure(
        &last_line(&r),
        72,
        &["nos-ipc-t1-p8000", "run_ms"],
        "firmware never stops",
    );
}

#[test]
fn an_experiment_file_that_is_not_utf8_is_65_at_the_byte() {
    let d = scratch("exp-utf8");
    let f = d.join("exp.toml");
    std::fs::write(
        &f,
        b"run_ms = 1\n# caf\xe9\n[sweep]\nworkload = [\"ipc\"]\n",
    )
    .unwrap();
    let r = experiment(&f, &d.join("out"), &["--check"], &[]);
    assert_one_line_failure(
        &r,
        65,
        &["exp.toml:2:6:", "UTF-8"],
        "non-UTF-8 experiment file",
    );
}

#[test]
fn an_endless_experiment_file_is_65_without_reading_it_all() {
    // /proc/self/... files are regular files as far as `is_file` sees; /dev/zero is not. A
    // valid file larger than any TOML file is read (16 MiB) stands for both. (The output directory
    // cannot be written: reading it whole would end in 74.)
    let (d, f) = setup(
        "exp-huge",
        &format!("{ONE_VARIANT}# {}\n", "x".repeat(16 << 20)),
        &[("m.toml", ""), ("file", "")],
    );
    let r = experiment(&f, &d.join("file/out"), &[], &[]);
    assert_one_line_failure(&r, 65, &["exp.toml", "larger than"], "huge experiment file");
}

// ---- issue 28: sizes, labels, names, repeated values, exit codes ---------------------------

/// `ubik experiment FILE --check` with no `-o`, from `cwd`.
fn check_in(cwd: &Path, file: &Path) -> Run {
    ubik_in(cwd, &[Path::new("experiment"), file, Path::new("--check")])
}

/// A list of `n` TOML values, `item(i)` each.
fn list(n: usize, item: impl Fn(usize) -> String) -> String {
    let v: Vec<String> = (0..n).map(item).collect();
    format!("[{}]", v.join(", "))
}

#[test]
fn an_absurd_axis_product_is_65_without_being_made() {
    // 8 schedulers x 1,000 tick rates x 1,000 define sets: 8 million builds, refused by
    // counting (making them took 1.25 GB), at the [sweep] table.
    let text = format!(
        "kind = \"app\"\napp = \"apps/tutorial\"\n[sweep]\nscheduler = [\"rr\", \"prio\", \"prio_rr\", \"bitmap\", \"coop\", \"edf\", \"rtm\", \"nos\"]\ntick_hz = {}\ncflags = {}\n",
        list(1000, |i| (i + 1).to_string()),
        list(1000, |i| format!("[\"-DA{i}\"]"))
    );
    let (d, f) = setup("exp-huge-app", &text, &[]);
    let t = std::time::Instant::now();
    let r = experiment(&f, &d.join("out"), &["--check"], &[]);
    assert_one_line_failure(
        &r,
        65,
        &["exp.toml:3:", "8000000 builds", "at most 10000"],
        "app product",
    );
    assert!(t.elapsed().as_secs() < 20, "took {:?}", t.elapsed());
    // Runs count too: 10 builds x 20,000 seeds.
    let text = format!(
        "kind = \"app\"\napp = \"apps/tutorial\"\nseeds = {}\n[sweep]\ntick_hz = {}\n",
        list(20_000, |i| i.to_string()),
        list(10, |i| (i + 1).to_string())
    );
    let (d, f) = setup("exp-huge-app-runs", &text, &[]);
    let r = experiment(&f, &d.join("out"), &["--check"], &[]);
    assert_one_line_failure(&r, 65, &["exp.toml:3:", "200000 runs"], "app runs");

    // The SimBed kind: 2,000 periods x 8 task counts = 16,000 variants.
    let text = format!(
        "app = \"apps/simbed\"\nmachine = \"m.toml\"\n[sweep]\nos = [\"nos\"]\nworkload = [\"ipc\"]\ntasks = [1, 2, 3, 4, 5, 6, 7, 8]\nperiod_us = {}\n",
        list(2000, |i| ((i + 1) * 1000).to_string())
    );
    let (d, f) = setup("exp-huge-simbed", &text, &[("m.toml", "")]);
    let r = experiment(&f, &d.join("out"), &["--check"], &[]);
    assert_one_line_failure(&r, 65, &["exp.toml:3:", "16000 builds"], "simbed product");
    // One variant, 150,000 seeds (each checked once against the others: no quadratic time).
    let text = ONE_VARIANT.replace(
        "seeds = [1]",
        &format!("seeds = {}", list(150_000, |i| i.to_string())),
    );
    let (d, f) = setup("exp-huge-seeds", &text, &[("m.toml", "")]);
    let t = std::time::Instant::now();
    let r = experiment(&f, &d.join("out"), &["--check"], &[]);
    assert_one_line_failure(&r, 65, &["exp.toml:4:", "150000 runs"], "simbed runs");
    assert!(t.elapsed().as_secs() < 20, "took {:?}", t.elapsed());
}

#[test]
fn a_stem_that_is_not_a_plain_directory_name_is_65() {
    // "...toml" has the stem "..": out/.. is the current directory. Every kind that takes its
    // name from the file refuses it (the file's own line 1), before writing anything.
    let d = scratch("exp-stem");
    let sim = "app = \"apps/simbed\"\nmachine = \"m.toml\"\n[sweep]\nos = [\"nos\"]\nworkload = [\"ipc\"]\n";
    let dpm = "kind = \"dpm\"\n[sweep]\nworkload = [\"audio\"]\npolicy = [\"default\"]\n";
    let app = "kind = \"app\"\napp = \"apps/tutorial\"\n";
    std::fs::write(d.join("m.toml"), "").unwrap();
    for (kind, text) in [("simbed", sim), ("dpm", dpm), ("app", app)] {
        for stem in ["..", ".", ".hidden"] {
            let f = d.join(format!("{stem}.toml"));
            std::fs::write(&f, text).unwrap();
            let r = check_in(&d, &f);
            assert_one_line_failure(
                &r,
                65,
                &[":1:1:", "stem", "name ="],
                &format!("{kind}: stem {stem:?}"),
            );
            let r = experiment(&f, &d.join("o"), &["--check"], &[]);
            assert_eq!(r.code, 65, "{kind}: stem {stem:?} with -o: {}", r.stderr);
            // With a name, the file's own name does not matter.
            std::fs::write(&f, format!("name = \"fine\"\n{text}")).unwrap();
            let r = check_in(&d, &f);
            assert_eq!(r.code, 0, "{kind}: stem {stem:?} with a name: {}", r.stderr);
            assert!(r.stdout_str().contains("out/fine"), "{}", r.stdout_str());
        }
        // A dotted stem is a plain name.
        let f = d.join("my.study.toml");
        std::fs::write(&f, text).unwrap();
        let r = check_in(&d, &f);
        assert_eq!(r.code, 0, "{kind}: my.study.toml: {}", r.stderr);
        assert!(
            r.stdout_str().contains("out/my.study"),
            "{}",
            r.stdout_str()
        );
    }
    assert!(!d.join("out").exists() && !d.join("o").exists());
}

#[test]
fn a_value_listed_twice_on_an_axis_is_65_at_its_line() {
    let sim = |line: &str| {
        format!("app = \"apps/simbed\"\nmachine = \"m.toml\"\nseeds = [1]\n[sweep]\nos = [\"nos\"]\nworkload = [\"up\"]\n{line}\n")
    };
    for (line, col, what) in [
        ("tasks = [1, 2, 1]", 16, "tasks 1 is listed twice"),
        (
            "period_us = [8000, 8000]",
            20,
            "period_us 8000 is listed twice",
        ),
        ("ratio = [2, 4, 4]", 16, "ratio 4 is listed twice"),
        (
            "output = [\"end\", \"end\"]",
            18,
            "output \"end\" is listed twice",
        ),
    ] {
        let (d, f) = setup("exp-twice", &sim(line), &[("m.toml", "")]);
        let r = experiment(&f, &d.join("out"), &["--check"], &[]);
        assert_one_line_failure(&r, 65, &[&format!("exp.toml:7:{col}:"), what], line);
    }
    let app = |lines: &str| format!("kind = \"app\"\napp = \"apps/tutorial\"\n{lines}\n");
    for (lines, at, what) in [
        ("seeds = [1, 2, 1]", "3:16:", "seed 1 is listed twice"),
        (
            "[sweep]\nscheduler = [\"prio\", \"prio\"]",
            "4:22:",
            "scheduler \"prio\" is listed twice",
        ),
        (
            "[sweep]\ntick_hz = [1000, 100, 1000]",
            "4:23:",
            "tick_hz 1000 is listed twice",
        ),
        (
            "[sweep]\ncflags = [[\"-DA=1\"], [], [\"-DA=1\"]]",
            "4:26:",
            "is listed twice",
        ),
        (
            "[sweep]\nmachine = [\"default\", \"default\"]",
            "4:23:",
            "machine \"default\" is listed twice",
        ),
        (
            "[sweep]\nmachine = [\"m.toml\", \"./m.toml\"]",
            "4:22:",
            "machine \"./m.toml\" is listed twice",
        ),
    ] {
        let (d, f) = setup("exp-twice-app", &app(lines), &[("m.toml", "")]);
        let r = experiment(&f, &d.join("out"), &["--check"], &[]);
        assert_one_line_failure(&r, 65, &[&format!("exp.toml:{at}"), what], lines);
    }
    // The hypervisor experiment: a policy twice, a load name twice.
    let hv = std::fs::read_to_string(repo_root().join("experiments/hypervisor.toml")).unwrap();
    for (from, to, what) in [
        (
            "policies = [\"fair\", \"rt\"]",
            "policies = [\"fair\", \"rt\", \"fair\"]",
            "policy \"fair\" is listed twice",
        ),
        (
            "name = \"heavy\"",
            "name = \"light\"",
            "load \"light\" is named twice",
        ),
    ] {
        assert!(
            hv.contains(from),
            "experiments/hypervisor.toml has no {from}"
        );
        let (d, f) = setup("exp-twice-hv", &hv.replacen(from, to, 1), &[]);
        let r = experiment(&f, &d.join("out"), &["--check"], &[]);
        assert_one_line_failure(&r, 65, &["exp.toml:", what], what);
    }
}

#[test]
fn bad_kinds_defines_and_machine_files_get_their_own_messages_and_codes() {
    // An unknown kind is named as such, not as the default kind's missing key.
    let (d, f) = setup("exp-kind", "kind = \"simbedd\"\n", &[]);
    let r = experiment(&f, &d.join("out"), &["--check"], &[]);
    assert_one_line_failure(
        &r,
        65,
        &[
            "exp.toml:1:8:",
            "kind \"simbedd\" is not an experiment kind",
            "\"app\"",
            "\"hypervisor\"",
        ],
        "unknown kind",
    );
    // A NUL in a define is bad data at its line, not a missing compiler (69).
    let (d, f) = setup(
        "exp-nul",
        "kind = \"app\"\napp = \"apps/tutorial\"\n[sweep]\ncflags = [[\"-DX=a\\u0000b\"]]\n",
        &[],
    );
    let r = experiment(&f, &d.join("out"), &["--check"], &[]);
    assert_one_line_failure(&r, 65, &["exp.toml:4:12:", "is not a define"], "NUL define");
    // A define too long for a command line is bad data too (it read as a compiler that
    // cannot be started: 69), in either kind.
    let long = format!("-DX={}", "a".repeat(200_000));
    let (d, f) = setup(
        "exp-long-define",
        &format!("kind = \"app\"\napp = \"apps/tutorial\"\n[sweep]\ncflags = [[], [\"{long}\"]]\n"),
        &[],
    );
    let r = experiment(&f, &d.join("out"), &["--check"], &[]);
    assert_one_line_failure(
        &r,
        65,
        &["exp.toml:4:16:", "a define of 200004 bytes", "at most 4096"],
        "long define",
    );
    let many = format!("[{}]", vec!["\"-DA=1\""; 20_000].join(", "));
    let (d, f) = setup(
        "exp-many-defines",
        &format!("cflags = {many}\n{ONE_VARIANT}"),
        &[("m.toml", "")],
    );
    let r = experiment(&f, &d.join("out"), &["--check"], &[]);
    assert_one_line_failure(
        &r,
        65,
        &["exp.toml:1:", "at most 65536 bytes of defines"],
        "many defines",
    );
    // A machine file that is a directory or a device cannot be read: 66 at its line.
    for m in [".", "/dev/null", "missing.toml"] {
        let (d, f) = setup(
            "exp-machine-dir",
            &format!("kind = \"app\"\napp = \"apps/tutorial\"\n[sweep]\nmachine = [\"default\", \"{m}\"]\n"),
            &[],
        );
        let r = experiment(&f, &d.join("out"), &["--check"], &[]);
        assert_one_line_failure(
            &r,
            66,
            &["exp.toml:4:23:", "cannot read the machine file"],
            m,
        );
        let (d, f) = setup(
            "exp-machine-dir-simbed",
            &ONE_VARIANT.replace("\"m.toml\"", &format!("\"{m}\"")),
            &[],
        );
        let r = experiment(&f, &d.join("out"), &["--check"], &[]);
        assert_one_line_failure(
            &r,
            66,
            &["exp.toml:2:11:", "cannot read the machine file"],
            m,
        );
    }
}

#[test]
fn a_bad_latency_pair_or_check_of_an_app_experiment_is_65_at_its_line() {
    // Each a line (or table) of its own after a valid head; `--check` builds nothing.
    let head =
        "kind = \"app\"\napp = \"apps/tutorial\"\n[sweep]\nscheduler = [\"prio\", \"edf\"]\n\
                [[latency]]\nname = \"handoff\"\nfrom = \"out:0\"\nto = \"out:1\"\n";
    for (tail, at, what) in [
        ("[[latency]]\nname = \"x\"\nfrom = \"uart:rx:300\"\nto = \"out:1\"", "11:8:", "event \"uart:rx:300\": the byte \"300\" is not a number from 0 to 255; expected stimulus:LINE, pin:PIN:rise|fall"),
        ("[[latency]]\nname = \"x\"\nfrom = \"out:0\"\nto = \"out:1\"\npolicy = \"any\"", "13:10:", "policy \"any\" is not a pairing policy"),
        ("[[latency]]\nname = \"handoff\"\nfrom = \"out:0\"\nto = \"out:2\"", "10:8:", "latency \"handoff\" is declared twice"),
        ("[expect]\nconsole_regex = ['got [']", "10:18:", "console_regex \"got [\" is not a regular expression"),
        ("[[expect.bound]]\nfigure = \"latency.handof.p99_us\"\nmax = 1", "10:10:", "figure \"latency.handof.p99_us\" is not a figure of this experiment"),
        ("[[expect.bound]]\nfigure = \"latency.handoff.p99_us\"", "10:10:", "has neither min nor max"),
        ("[[expect.when]]\nscheduler = \"rtm\"\nconsole = [\"x\"]", "10:13:", "scheduler \"rtm\" is not one of the experiment's; expected one of the [sweep] scheduler values: prio, edf"),
        ("[[expect.when]]\nmachine = \"slow.toml\"", "10:11:", "machine \"slow.toml\" is not one of the experiment's; expected one of the [sweep] machine values: default"),
    ] {
        let (d, f) = setup("exp-app-checks", &format!("{head}{tail}\n"), &[]);
        let out = d.join("out");
        let r = experiment(&f, &out, &["--check"], &[]);
        assert_one_line_failure(&r, 65, &[&format!("exp.toml:{at}"), what], tail);
        let r = experiment(&f, &out, &[], &[]);
        assert_one_line_failure(&r, 65, &[&format!("exp.toml:{at}"), what], tail);
        assert!(!out.exists(), "{tail}: the output directory was made");
    }
}
