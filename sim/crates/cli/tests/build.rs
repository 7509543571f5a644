//! `ubik build APPDIR [-o APP.elf]` (issue 3 part 8): system.toml -> uk_config.h + uk_gen.c ->
//! one ELF with the kernel, the BSP and the application.
//!
//! The kernel is being written alongside, so these tests build against a fake kernel tree in
//! a scratch directory (`UBIK_ROOT`): a few functions in kernel/src, one file per scheduler in
//! kernel/sched, an assembly file in kernel/arch/rv32, and a copy of the real bsp/.

mod support;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, SystemTime};
use support::*;

/// Every policy `ubik build` accepts, from the one list in sysdesc.
const SCHEDULERS: [&str; sysdesc::Scheduler::ALL.len()] = sysdesc::Scheduler::NAMES;

fn write(p: &Path, text: &str) {
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap_or_else(|e| panic!("write {}: {e}", p.display()));
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let dst = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &dst);
        } else {
            std::fs::copy(e.path(), dst).unwrap();
        }
    }
}

/// A fake repository: kernel/ (tiny stand-ins) and a copy of the real bsp/.
fn fake_root(dir: &Path) -> PathBuf {
    let root = dir.join("root");
    copy_dir(&repo_root().join("bsp"), &root.join("bsp"));
    let k = root.join("kernel");
    write(
        &k.join("include/ubik/ubik.h"),
        "#ifndef UBIK_H\n#define UBIK_H\n\
         int uk_fake_hz(void);\nint uk_fake_slice(void);\nconst char *uk_fake_sched(void);\n\
         int uk_fake_arch(void);\nint uk_fake_features(void);\n#endif\n",
    );
    write(
        &k.join("src/kernel.h"),
        "#include \"ubik/ubik.h\"\n#include \"uk_config.h\"\n",
    );
    write(
        &k.join("src/time.c"),
        "#include \"kernel.h\"\n\
         __attribute__((section(\".text.uk_time\"))) int uk_fake_hz(void) { return UK_TICK_HZ; }\n\
         int uk_fake_slice(void) { return UK_TIMESLICE_TICKS; }\n",
    );
    write(
        &k.join("src/features.c"),
        "#include \"kernel.h\"\nint uk_fake_features(void) {\n  int f = 0;\n\
         #ifdef UK_FEATURE_SEM\n  f |= 1;\n#endif\n#ifdef UK_FEATURE_MUTEX\n  f |= 2;\n#endif\n\
         #ifdef UK_FEATURE_HISR\n  f |= 4;\n#endif\n#ifdef UK_FEATURE_STACK_CHECK\n  f |= 8;\n#endif\n\
           return f;\n}\n",
    );
    for s in SCHEDULERS {
        // Each defines the same symbol: linking two would fail.
        let m = format!("UK_CONFIG_SCHED_{}", s.to_ascii_uppercase());
        write(
            &k.join(format!("sched/{s}.c")),
            &format!(
                "#include \"kernel.h\"\n#ifndef {m}\n#error \"{s}.c compiled without {m}\"\n#endif\n\
                 const char *uk_fake_sched(void) {{ return \"{s}:\" UK_CONFIG_SCHED_NAME; }}\n"
            ),
        );
    }
    write(
        &k.join("arch/rv32/entry.S"),
        "    .section .text.uk_arch\n    .globl uk_fake_arch\nuk_fake_arch:\n    li a0, 7\n    ret\n",
    );
    root
}

const MAIN_C: &str = r#"#include "bsp/bsp.h"
#include "ubik/ubik.h"

/* The configuration is visible without including uk_config.h (-imacros). */
#if !defined(UK_TICK_HZ) || !defined(UK_CONFIG_SCHED_NAME)
#error "uk_config.h macros not visible"
#endif

int main(void)
{
    bsp_printf("sched=%s hz=%d slice=%d features=%d arch=%d\n", uk_fake_sched(), uk_fake_hz(),
               uk_fake_slice(), uk_fake_features(), uk_fake_arch());
    return 5;
}
"#;

struct Fixture {
    dir: PathBuf,
    root: PathBuf,
    app: PathBuf,
}

fn fixture(tag: &str, system_toml: &str) -> Fixture {
    let dir = scratch(tag);
    let root = fake_root(&dir);
    let app = dir.join("app");
    write(&app.join("system.toml"), system_toml);
    write(&app.join("main.c"), MAIN_C);
    Fixture { dir, root, app }
}

/// Runs the ubik binary with UBIK_ROOT set (and more environment), from `cwd`.
fn ubik_in(cwd: &Path, root: &Path, args: &[&str], env: &[(&str, &str)]) -> Run {
    let mut c = Command::new(env!("CARGO_BIN_EXE_ubik"));
    c.args(args)
        .current_dir(cwd)
        .env("UBIK_ROOT", root)
        .stdin(Stdio::null());
    for (k, v) in env {
        c.env(k, v);
    }
    let out = c.output().expect("run ubik");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: out.stdout,
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn build(f: &Fixture, extra: &[&str]) -> Run {
    let mut args = vec!["build", "app"];
    args.extend_from_slice(extra);
    ubik_in(&f.dir, &f.root, &args, &[])
}

fn assert_built(r: &Run, what: &str) {
    assert_eq!(r.code, 0, "{what}: build failed: {}", r.stderr);
    assert!(
        r.stdout.is_empty(),
        "{what}: build printed on stdout: {}",
        r.stdout_str()
    );
    assert!(
        r.stderr.is_empty(),
        "{what}: build printed on stderr: {}",
        r.stderr
    );
}

fn run_elf(elf: &Path) -> Run {
    ubik(&["run".as_ref(), elf.as_os_str()])
}

/// Modification times of every file under `dir`.
fn mtimes(dir: &Path) -> BTreeMap<PathBuf, SystemTime> {
    let mut m = BTreeMap::new();
    fn walk(d: &Path, m: &mut BTreeMap<PathBuf, SystemTime>) {
        for e in std::fs::read_dir(d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, m);
            } else {
                m.insert(
                    p.clone(),
                    std::fs::metadata(&p).unwrap().modified().unwrap(),
                );
            }
        }
    }
    walk(dir, &mut m);
    m
}

/// Lets the clock move past the last write (file systems with coarse timestamps).
fn tick() {
    std::thread::sleep(Duration::from_millis(30));
}

// ---- Building and running --------------------------------------------------------------

#[test]
fn builds_an_app_that_runs() {
    require_gcc();
    let f = fixture(
        "run",
        "[kernel]\nscheduler = \"prio_rr\"\ntick_hz = 250\ntimeslice_ticks = 4\nfeatures = [\"sem\", \"hisr\"]\n",
    );
    assert_built(&build(&f, &[]), "default output");
    let elf = f.app.join("build/app.elf");
    let r = run_elf(&elf);
    assert_eq!(r.code, 5, "exit code of the app: {}", r.stderr);
    assert_eq!(
        r.stdout_str(),
        "sched=prio_rr:prio_rr hz=250 slice=4 features=5 arch=7\n"
    );
    let h = std::fs::read_to_string(f.app.join("build/uk_config.h")).unwrap();
    let defines: Vec<&str> = h.lines().filter(|l| l.starts_with("#define")).collect();
    assert_eq!(
        defines,
        vec![
            "#define UK_CONFIG_H",
            "#define UK_CONFIG_OS_UBIK 1",
            "#define UK_CONFIG_OS_NAME \"ubik\"",
            "#define UK_CONFIG_SCHED_PRIO_RR 1",
            "#define UK_CONFIG_SCHED_NAME \"prio_rr\"",
            "#define UK_POLICY_PRIOS 256",
            "#define UK_POLICY_UNIQUE_PRIOS 0",
            "#define UK_POLICY_TIME_SLICES 1",
            "#define UK_POLICY_DEADLINES 0",
            "#define UK_POLICY_RTM 0",
            "#define UK_TICK_HZ 250",
            "#define UK_TIMESLICE_TICKS 4",
            "#define UK_IRQ_STACK_BYTES 1024",
            "#define UK_IDLE_STACK_BYTES 512",
            "#define UK_TICK_START 0u",
            "#define UK_CONFIG_SERVICE_FEATURES 1",
            "#define UK_FEATURE_SEM 1",
            "#define UK_FEATURE_HISR 1",
            "#define UK_POWER_POLICY 0",
            "#define UK_CONFIG_POWER_POLICY_NAME \"default\"",
        ]
    );
    assert!(f.app.join("build/uk_gen.c").is_file());
    assert!(f.app.join("build/uk_gen.h").is_file());
    assert!(f.app.join("build/app.map").is_file());
}

#[test]
fn every_scheduler_compiles_its_own_file_and_defaults_apply() {
    require_gcc();
    let f = fixture("sched", "");
    // Empty system.toml: every default.
    assert_built(&build(&f, &["-o", "out/default.elf"]), "defaults");
    let r = run_elf(&f.dir.join("out/default.elf"));
    assert_eq!(r.code, 5, "{}", r.stderr);
    assert_eq!(
        r.stdout_str(),
        "sched=prio:prio hz=1000 slice=10 features=15 arch=7\n"
    );
    // -o puts the build directory beside the ELF.
    assert!(f.dir.join("out/default.build/uk_config.h").is_file());
    assert!(!f.app.join("build").exists(), "-o still wrote APPDIR/build");
    for s in SCHEDULERS {
        write(
            &f.app.join("system.toml"),
            &format!("[kernel]\nscheduler = \"{s}\"\nfeatures = []\n"),
        );
        let out = format!("out/{s}.elf");
        assert_built(&build(&f, &["-o", &out]), s);
        let r = run_elf(&f.dir.join(&out));
        assert_eq!(r.code, 5, "{s}: {}", r.stderr);
        assert_eq!(
            r.stdout_str(),
            format!("sched={s}:{s} hz=1000 slice=10 features=0 arch=7\n")
        );
    }
}

#[test]
fn verbose_prints_each_command() {
    require_gcc();
    let f = fixture("verbose", "[build]\ncflags = [\"-DEXTRA_FLAG=1\"]\n");
    let r = build(&f, &["-v"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.is_empty());
    let lines: Vec<&str> = r.stderr.lines().collect();
    // crt0, 2 kernel/src, 1 scheduler, 1 arch, uk_gen.c, main.c, 4 BSP files (bsp/src; the
    // reference board has no src/ of its own), the link.
    assert_eq!(lines.len(), 12, "{}", r.stderr);
    for l in &lines[..11] {
        assert!(l.contains("riscv64-unknown-elf-gcc "), "{l}");
        assert!(l.contains(" -march=rv32imc_zicsr -mabi=ilp32 "), "{l}");
        assert!(l.contains(" -DEXTRA_FLAG=1 "), "user cflags missing: {l}");
        assert!(l.contains(" -c "), "{l}");
        let imacros = l.contains("/app/build/uk_config.h ");
        let bsp = l.contains("/root/bsp/crt0.S -o") || l.contains("/root/bsp/src/");
        assert!(
            imacros != bsp,
            "-imacros uk_config.h must be on every non-BSP unit only: {l}"
        );
    }
    let c_line = lines.iter().find(|l| l.contains("main.c ")).unwrap();
    for flag in [
        "-O2",
        "-ffreestanding",
        "-nostdlib",
        "-ffunction-sections",
        "-fdata-sections",
    ] {
        assert!(
            c_line.contains(&format!(" {flag} ")),
            "{flag} missing: {c_line}"
        );
    }
    for inc in [
        "kernel/include",
        "kernel/src",
        "bsp/reference/include",
        "bsp/include",
    ] {
        assert!(
            c_line.contains(&format!("/root/{inc} ")),
            "-I {inc} missing: {c_line}"
        );
    }
    assert!(c_line.contains("/app/build "), "-I BUILD missing: {c_line}");
    assert!(c_line.contains("/app "), "-I APPDIR missing: {c_line}");
    let link = lines[11];
    for part in [
        "-march=rv32imc -mabi=ilp32 -nostartfiles -nostdlib -T ",
        "/root/bsp/link.ld -Wl,--gc-sections",
        " -lgcc",
    ] {
        assert!(link.contains(part), "{part} missing: {link}");
    }
    // Without [build] libc, ldflags or libs the link is as it always was: libgcc last, no
    // C library anywhere (so every existing image is byte-identical).
    assert!(link.ends_with(" -lgcc"), "{link}");
    assert!(
        !lines
            .iter()
            .any(|l| l.contains("specs") || l.contains("libc")),
        "a build without libc names a C library: {}",
        r.stderr
    );
    assert!(
        !lines
            .iter()
            .any(|l| l.contains("sched/rr.c") || l.contains("sched/bitmap.c")),
        "an unselected scheduler was compiled"
    );
}

#[test]
fn sources_list_replaces_the_directory_scan() {
    require_gcc();
    let f = fixture("sources", "[build]\nsources = [\"sub/app.c\"]\n");
    std::fs::rename(f.app.join("main.c"), f.dir.join("main.c")).unwrap();
    write(&f.app.join("sub/app.c"), MAIN_C);
    write(&f.app.join("broken.c"), "this is not C\n");
    assert_built(&build(&f, &[]), "sources list");
    assert_eq!(run_elf(&f.app.join("build/app.elf")).code, 5);
    assert!(f.app.join("build/obj/app/sub/app.c.o").is_file());
}

#[test]
fn relative_paths_in_cflags_are_relative_to_the_app_directory() {
    require_gcc();
    let f = fixture("cflags-rel", "[build]\ncflags = [\"-I../include\"]\n");
    write(&f.dir.join("include/answer.h"), "#define ANSWER 42\n");
    write(
        &f.app.join("main.c"),
        "#include \"bsp/bsp.h\"\n#include \"answer.h\"\nint main(void) { bsp_printf(\"%d\\n\", ANSWER); return 0; }\n",
    );
    // Run from somewhere else: the flag still resolves against APPDIR.
    let elsewhere = f.dir.join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let r = ubik_in(&elsewhere, &f.root, &["build", "../app"], &[]);
    assert_built(&r, "relative -I");
    let r = run_elf(&f.app.join("build/app.elf"));
    assert_eq!((r.code, r.stdout_str().as_str()), (0, "42\n"));
}

// ---- Incremental rebuilds ----------------------------------------------------------------

#[test]
fn second_build_compiles_nothing_and_changes_rebuild_what_they_touch() {
    require_gcc();
    let f = fixture("incremental", "[kernel]\ntick_hz = 100\n");
    let build_dir = f.app.join("build");
    assert_built(&build(&f, &[]), "first build");
    let first = mtimes(&build_dir);
    tick();
    assert_built(&build(&f, &[]), "second build");
    assert_eq!(first, mtimes(&build_dir), "the second build rewrote files");
    let r = build(&f, &["-v"]);
    assert_eq!(r.code, 0);
    assert!(
        r.stderr.is_empty(),
        "an up-to-date build ran commands: {}",
        r.stderr
    );

    let obj = |p: &str| build_dir.join("obj").join(p);
    let changed = |before: &BTreeMap<PathBuf, SystemTime>, p: &Path| {
        before[p] != std::fs::metadata(p).unwrap().modified().unwrap()
    };

    // A header only the kernel and main.c include: those objects, not the BSP's.
    tick();
    let t0 = mtimes(&build_dir);
    let hdr = f.root.join("kernel/include/ubik/ubik.h");
    let text = std::fs::read_to_string(&hdr).unwrap();
    write(&hdr, &format!("{text}/* touched */\n"));
    assert_built(&build(&f, &[]), "after a header change");
    assert!(changed(&t0, &obj("kernel/src/time.c.o")));
    assert!(changed(&t0, &obj("app/main.c.o")));
    assert!(!changed(&t0, &obj("bsp/src/console.c.o")));
    assert!(!changed(&t0, &obj("bsp/crt0.S.o")));
    assert!(changed(&t0, &build_dir.join("app.elf")), "not relinked");

    // A system.toml change rewrites uk_config.h (only it) and recompiles its includers.
    tick();
    let t1 = mtimes(&build_dir);
    write(&f.app.join("system.toml"), "[kernel]\ntick_hz = 200\n");
    assert_built(&build(&f, &[]), "after a system.toml change");
    assert!(changed(&t1, &build_dir.join("uk_config.h")));
    assert!(
        !changed(&t1, &build_dir.join("uk_gen.c")),
        "uk_gen.c rewritten unchanged"
    );
    assert!(changed(&t1, &obj("kernel/src/time.c.o")));
    assert!(!changed(&t1, &obj("bsp/src/console.c.o")));
    assert_eq!(
        run_elf(&build_dir.join("app.elf")).stdout_str(),
        "sched=prio:prio hz=200 slice=10 features=15 arch=7\n"
    );

    // New flags recompile everything.
    tick();
    let t2 = mtimes(&build_dir);
    write(
        &f.app.join("system.toml"),
        "[kernel]\ntick_hz = 200\n[build]\ncflags = [\"-Os\"]\n",
    );
    assert_built(&build(&f, &[]), "after a flags change");
    for o in [
        "bsp/src/console.c.o",
        "bsp/crt0.S.o",
        "kernel/src/time.c.o",
        "app/main.c.o",
    ] {
        assert!(changed(&t2, &obj(o)), "{o} not recompiled with new flags");
    }

    // A deleted object is rebuilt, alone.
    tick();
    let t3 = mtimes(&build_dir);
    std::fs::remove_file(obj("app/main.c.o")).unwrap();
    assert_built(&build(&f, &[]), "after deleting an object");
    assert!(obj("app/main.c.o").is_file());
    assert!(!changed(&t3, &obj("kernel/src/time.c.o")));
    assert_eq!(run_elf(&build_dir.join("app.elf")).code, 5);
}

// ---- system.toml errors: one line FILE:LINE:COLUMN, exit 65 -----------------------------

#[test]
fn system_toml_errors_name_file_line_column() {
    let cases: [(&str, &str, &[&str]); 7] = [
        (
            "unknown key",
            "[kernel]\nscheduler = \"rr\"\nticks = 5\n",
            &["app/system.toml:3:1: unknown key `ticks`", "expected one of the keys"],
        ),
        (
            "unknown table",
            "[kernel]\n\n[tasks]\nx = 1\n",
            &["app/system.toml:3:", "unknown key `tasks`"],
        ),
        (
            "bad scheduler",
            "[kernel]\nscheduler = \"fifo\"\n",
            &["app/system.toml:2:13: scheduler = \"fifo\" is not a scheduler; expected one of \"rr\", \"prio\", \"prio_rr\", \"bitmap\", \"edf\", \"coop\""],
        ),
        (
            "tick_hz 0",
            "[kernel]\ntick_hz = 0\n",
            &["app/system.toml:2:11: tick_hz = 0 is out of range; expected an integer from 1 to 100000"],
        ),
        (
            "wrong type",
            "[kernel]\n  timeslice_ticks = \"ten\"\n",
            &["app/system.toml:2:21: `timeslice_ticks`: invalid type: string \"ten\"", "expected an integer"],
        ),
        (
            "unknown feature",
            "[kernel]\nfeatures = [\"mutex\", \"rtm\"]\n",
            &["app/system.toml:2:22: unknown feature \"rtm\"; expected one of \"sem\", \"mutex\", \"hisr\", \"stack_check\""],
        ),
        (
            "TOML syntax",
            "[kernel]\nscheduler = prio\n",
            &["app/system.toml:2:13:"],
        ),
    ];
    for (what, toml, mentions) in cases {
        let f = fixture("toml-errors", toml);
        let r = build(&f, &[]);
        assert_one_line_failure(&r, 65, mentions, what);
        assert!(
            !f.app.join("build").exists(),
            "{what}: wrote into the build directory"
        );
    }
}

// ---- Unreadable input: 66 ----------------------------------------------------------------

#[test]
fn missing_inputs_are_66() {
    let f = fixture("missing", "");
    let r = ubik_in(&f.dir, &f.root, &["build", "no-such-app"], &[]);
    assert_one_line_failure(
        &r,
        66,
        &[
            "no-such-app: cannot read the application directory",
            "expected",
        ],
        "missing APPDIR",
    );

    std::fs::remove_file(f.app.join("system.toml")).unwrap();
    let r = build(&f, &[]);
    assert_one_line_failure(
        &r,
        66,
        &["app/system.toml: cannot read the system description"],
        "missing system.toml",
    );

    write(
        &f.app.join("system.toml"),
        "[build]\nsources = [\"main.c\", \"gone.c\"]\n",
    );
    let r = build(&f, &[]);
    assert_one_line_failure(
        &r,
        66,
        &["app/system.toml:2:22: cannot read source `gone.c`"],
        "missing listed source",
    );

    write(&f.app.join("system.toml"), "");
    let r = ubik_in(&f.dir, &f.dir.join("nowhere"), &["build", "app"], &[]);
    assert_one_line_failure(
        &r,
        66,
        &["UBIK_ROOT=", "not a Ubik repository"],
        "bad UBIK_ROOT",
    );

    std::fs::remove_file(f.root.join("kernel/sched/bitmap.c")).unwrap();
    write(
        &f.app.join("system.toml"),
        "[kernel]\nscheduler = \"bitmap\"\n",
    );
    let r = build(&f, &[]);
    assert_one_line_failure(
        &r,
        66,
        &["kernel/sched/bitmap.c: cannot read the source of scheduler \"bitmap\""],
        "scheduler without a source",
    );
}

#[test]
fn missing_compiler_names_setup_script() {
    let f = fixture("nocc", "");
    let empty = f.dir.join("empty-bin");
    std::fs::create_dir_all(&empty).unwrap();
    let r = ubik_in(
        &f.dir,
        &f.root,
        &["build", "app"],
        &[("PATH", empty.to_str().unwrap())],
    );
    assert_one_line_failure(
        &r,
        69,
        &["riscv64-unknown-elf-gcc", "scripts/setup.sh"],
        "no cross compiler",
    );
}

// ---- Compiler and linker errors: passed through, exit 65 ---------------------------------

#[test]
fn c_errors_pass_through_with_a_final_count() {
    require_gcc();
    let f = fixture("cerror", "");
    write(
        &f.app.join("bad.c"),
        "int broken(void)\n{\n    return 1\n}\nint also(void) { return undeclared; }\n",
    );
    let r = build(&f, &[]);
    assert_eq!(r.code, 65, "{}", r.stderr);
    assert!(r.stdout.is_empty());
    assert!(
        r.stderr
            .contains("bad.c:3:13: error: expected ';' before '}' token"),
        "gcc's message not passed through: {}",
        r.stderr
    );
    assert!(
        r.stderr
            .contains("bad.c:5:25: error: 'undeclared' undeclared"),
        "{}",
        r.stderr
    );
    assert_eq!(
        r.stderr.lines().last().unwrap(),
        "ubik build: compilation failed (2 errors)"
    );
    assert!(!f.app.join("build/app.elf").exists());

    // Fixed: builds, and the objects compiled before are not compiled again.
    let before = mtimes(&f.app.join("build/obj/kernel"));
    tick();
    write(&f.app.join("bad.c"), "int broken(void) { return 1; }\n");
    assert_built(&build(&f, &[]), "after the fix");
    assert_eq!(before, mtimes(&f.app.join("build/obj/kernel")));
}

#[test]
fn link_errors_pass_through_with_a_final_count() {
    require_gcc();
    let f = fixture("lderror", "");
    write(
        &f.app.join("main.c"),
        "void missing_function(void);\nint main(void) { missing_function(); return 0; }\n",
    );
    let r = build(&f, &[]);
    assert_eq!(r.code, 65, "{}", r.stderr);
    assert!(
        r.stderr
            .contains("undefined reference to `missing_function'"),
        "{}",
        r.stderr
    );
    assert_eq!(
        r.stderr.lines().last().unwrap(),
        "ubik build: link failed (1 error)"
    );
}

// ---- [build] libc, ldflags and libs ---------------------------------------------------------

const LIBC_MAIN_C: &str = r#"#include <math.h>
#include <stdio.h>

int main(void)
{
    char buf[32];
    snprintf(buf, sizeof buf, "root %.3f", sqrt(2.0));
    puts(buf);
    return 3;
}
"#;

#[test]
fn libc_ldflags_and_libs_reach_the_link() {
    require_gcc();
    let f = fixture(
        "libc",
        "[build]\nlibc = \"picolibc\"\nlibs = [\"m\"]\n\
         ldflags = [\"-Wl,--defsym=uk_test_marker=0x1234\"]\n",
    );
    write(&f.app.join("main.c"), LIBC_MAIN_C);
    let r = build(&f, &["-v"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let lines: Vec<&str> = r.stderr.lines().collect();
    let link = lines.last().unwrap();
    for part in [
        "--specs=",
        "/root/bsp/libc/tls.ld",
        "-Wl,--wrap=main",
        "-Wl,--defsym=uk_test_marker=0x1234",
        " -lm -Wl,--start-group -lm -lc -lgcc -Wl,--end-group",
    ] {
        assert!(link.contains(part), "{part} missing: {link}");
    }
    // The C library's headers for the application and the glue only, never the kernel.
    for l in &lines[..lines.len() - 1] {
        let app = l.contains("/app/main.c ") || l.contains("/root/bsp/libc/picolibc.c ");
        assert_eq!(l.contains("--specs="), app, "{l}");
    }
    let r = run_elf(&f.app.join("build/app.elf"));
    assert_eq!(r.code, 3, "{}", r.stderr);
    assert_eq!(r.stdout_str(), "root 1.414\n");
}

#[test]
fn bad_libc_ldflags_and_libs_are_65_at_their_place() {
    let cases: [(&str, &str, &[&str]); 3] = [
        (
            "unknown libc",
            "[build]\nlibc = \"glibc\"\n",
            &["app/system.toml:2:8: libc = \"glibc\" is not a C library Ubik links; expected \"picolibc\""],
        ),
        (
            "flag in libs",
            "[build]\nlibs = [\"-lm\"]\n",
            &["app/system.toml:2:9: library \"-lm\" is not a library name", "expected a name as -lNAME takes it"],
        ),
        (
            "empty ldflag",
            "[build]\nldflags = [\"\"]\n",
            &["app/system.toml:2:12: an empty linker flag", "expected one flag per string"],
        ),
    ];
    for (what, toml, mentions) in cases {
        let f = fixture("libc-errors", toml);
        let r = build(&f, &[]);
        assert_one_line_failure(&r, 65, mentions, what);
        assert!(!f.app.join("build").exists(), "{what}: built something");
    }
}

/// A compiler without picolibc (its driver finds no picolibc.specs): one line naming the
/// package to install, exit 69, before anything is compiled.
#[test]
fn missing_picolibc_names_the_package() {
    require_gcc();
    let f = fixture("nolibc", "[build]\nlibc = \"picolibc\"\n");
    let bin = f.dir.join("bin");
    let cc = bin.join("riscv64-unknown-elf-gcc");
    // As GCC answers for a file it does not have: the bare name.
    write(
        &cc,
        "#!/bin/sh\nfor a; do case $a in -print-file-name=*) echo \"${a#*=}\"; exit 0;; esac; done\n\
         exit 1\n",
    );
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&cc, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let r = ubik_in(&f.dir, &f.root, &["build", "app"], &[("PATH", &path)]);
    assert_one_line_failure(
        &r,
        69,
        &[
            "picolibc is not installed",
            "picolibc-riscv64-unknown-elf",
            "scripts/setup.sh",
        ],
        "no picolibc",
    );
    let objects = std::fs::read_dir(f.app.join("build/obj")).map_or(0, |d| d.count());
    assert_eq!(objects, 0, "compiled without picolibc");
}
