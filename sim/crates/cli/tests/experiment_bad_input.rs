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
