//! `ubik gen SYSTEM.toml [-o DIR]` (issue 4 part 6): the system description -> uk_config.h,
//! uk_gen.h and uk_gen.c; good and bad descriptions, exit codes, one-line errors; and the
//! README's tutorial (apps/tutorial), built with the real kernel and run.

mod support;
use std::path::Path;
use std::process::{Command, Stdio};
use support::*;

fn write(p: &Path, text: &str) {
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap_or_else(|e| panic!("write {}: {e}", p.display()));
}

const GOOD: &str = r#"[kernel]
scheduler = "bitmap"

[task.producer]
entry = "produce"
priority = 2

[task.consumer]
entry = "consume"
priority = 1
arg = "items"

[queue.items]
msg_bytes = 4
capacity = 8

[timer.kick]
activate = "consumer"
delay = 10

[interrupt.rx]
line = 3
lisr = "rx_lisr"
hisr = "rx_hisr"
hisr_stack_bytes = 512
"#;

#[test]
fn good_description_writes_three_files_silently() {
    let d = scratch("gen-good");
    write(&d.join("system.toml"), GOOD);
    let r = ubik_in(&d, &["gen", "system.toml", "-o", "out"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.is_empty() && r.stderr.is_empty(),
        "not silent: {} {}",
        r.stdout_str(),
        r.stderr
    );
    let read = |n: &str| std::fs::read_to_string(d.join("out").join(n)).unwrap();
    let config = read("uk_config.h");
    assert!(
        config.contains("#define UK_CONFIG_SCHED_BITMAP 1\n"),
        "{config}"
    );
    let h = read("uk_gen.h");
    for want in [
        "#include <ubik/ubik.h>",
        "extern uk_task_t producer;",
        "extern uk_task_t consumer;",
        "extern uk_queue_t items;",
        "extern uk_timer_t kick;",
        "extern uk_hisr_t rx;",
        "void produce(void *arg);",
        "void rx_lisr(unsigned line);",
        "void rx_hisr(uk_hisr_t *h);",
    ] {
        assert!(h.contains(want), "uk_gen.h lacks {want:?}:\n{h}");
    }
    let c = read("uk_gen.c");
    for want in [
        "void uk__gen_init(void)",
        // The tables uk__gen_init walks: a row per object, with its name and line.
        "{&consumer, \"consumer\", consume, &items, uk__gen_stack_consumer, sizeof uk__gen_stack_consumer, 0, 0, 8, 1, 1, 255},",
        "{&kick, 0, 0, &consumer, 0, 0, 10, 0, \"kick\", 17, 1, 1},",
        "{3, rx_lisr, \"rx\", 21},",
        "{&items, uk__gen_queue_items, sizeof uk__gen_queue_items, 4, 8, \"items\", 13, 0},",
        "uk_task_create(d->task, d->name, d->entry, d->arg, d->priority, d->stack, d->stack_bytes), \"uk_task_create\"",
    ] {
        assert!(c.contains(want), "uk_gen.c lacks {want:?}:\n{c}");
    }

    // Again: nothing changes; -v says so on stderr, stdout stays empty.
    let before = std::fs::metadata(d.join("out/uk_gen.c"))
        .unwrap()
        .modified()
        .unwrap();
    let r = ubik_in(&d, &["gen", "system.toml", "-o", "out", "-v"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.is_empty());
    assert_eq!(r.stderr.lines().count(), 3, "{}", r.stderr);
    assert!(
        r.stderr
            .lines()
            .all(|l| l.starts_with("ubik gen: unchanged ")),
        "{}",
        r.stderr
    );
    let after = std::fs::metadata(d.join("out/uk_gen.c"))
        .unwrap()
        .modified()
        .unwrap();
    assert_eq!(before, after, "an unchanged uk_gen.c was rewritten");
}

#[test]
fn default_directory_is_build_beside_the_description() {
    let d = scratch("gen-default");
    write(&d.join("app/system.toml"), "[sem.s]\n");
    let r = ubik_in(&d, &["gen", "app/system.toml"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    for n in ["uk_config.h", "uk_gen.h", "uk_gen.c"] {
        assert!(d.join("app/build").join(n).is_file(), "{n} missing");
    }
    // An empty description: no objects, no uk__gen_init.
    write(&d.join("empty/system.toml"), "");
    let r = ubik_in(&d, &["gen", "empty/system.toml", "-o", "e"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let c = std::fs::read_to_string(d.join("e/uk_gen.c")).unwrap();
    assert!(!c.contains("uk__gen_init"), "{c}");
}

#[test]
fn bad_descriptions_are_one_line_and_65_and_write_nothing() {
    let cases: &[(&str, &str)] = &[
        (
            "[task.a]\nentry = \"f\"\npriority = 1\n[sem.a]\n",
            "ubik: system.toml:4:6: sem \"a\": the name is already the task declared at line 1; expected names unique among all declared objects (each becomes a C identifier)",
        ),
        (
            "[kernel]\nscheduler = \"bitmap\"\n[task.a]\nentry = \"f\"\npriority = 63\n",
            "ubik: system.toml:5:12: priority = 63 is out of range for scheduler \"bitmap\"; expected an integer from 0 (highest) to 62 (63 is the idle task's)",
        ),
        (
            "[task.a]\nentry = \"f\"\npriority = 255\n",
            "ubik: system.toml:3:12: priority = 255 is out of range for scheduler \"prio\"; expected an integer from 0 (highest) to 254 (255 is the idle task's)",
        ),
        (
            "[interrupt.i]\nline = 3\nlisr = \"l\"\nhisr = \"h\"\n",
            "ubik: system.toml:4:8: interrupt \"i\" has a HISR without a stack; expected hisr_stack_bytes = N (at least 128, a multiple of 4)",
        ),
        (
            "[task.a]\nentry = \"f\"\npriority = 1\nstack = 512\n",
            "ubik: system.toml:4:1: unknown key `stack`; expected one of the keys `entry`, `priority`, `stack_bytes`, `slice`, `start`, `arg`, `signal`, `power_class`",
        ),
        (
            "[timer.t]\nactivate = \"ghost\"\ndelay = 1\n",
            "ubik: system.toml:2:12: activate = \"ghost\" names no declared object; expected the name of a task declared with [task.NAME] (there is none)",
        ),
        (
            "[kernel]\nfeatures = [\"sem\"]\n[queue.q]\nmsg_bytes = 4\ncapacity = 1\n",
            "ubik: system.toml:3:8: queue \"q\" needs the kernel feature \"queue\", which [kernel] features leaves out; expected \"queue\" in [kernel] features",
        ),
        (
            "[task.my-task]\nentry = \"f\"\npriority = 1\n",
            "ubik: system.toml:1:7: task \"my-task\" is not a C identifier; expected a name made of letters, digits and _, not starting with a digit",
        ),
        (
            "[task.a]\nentry = \"f\"\npriority = 1\nstack_bytes = 100\n",
            "ubik: system.toml:4:15: stack_bytes = 100 is too small; expected a size in bytes from 128 to 16777216, a multiple of 4",
        ),
    ];
    for (i, (text, want)) in cases.iter().enumerate() {
        let d = scratch("gen-bad");
        write(&d.join("system.toml"), text);
        let r = ubik_in(&d, &["gen", "system.toml", "-o", "out"]);
        assert_one_line_failure(&r, 65, &[], &format!("case {i}"));
        assert_eq!(r.stderr.trim_end(), *want, "case {i}");
        assert!(r.stdout.is_empty(), "case {i}: stdout {}", r.stdout_str());
        assert!(
            !d.join("out").exists(),
            "case {i}: files written for a bad description"
        );
    }
    // 64 tasks with bitmap.
    let d = scratch("gen-bad-64");
    let mut s = String::from("[kernel]\nscheduler = \"bitmap\"\n");
    for i in 0..64 {
        s.push_str(&format!("[task.t{i}]\nentry = \"f\"\npriority = {i}\n"));
    }
    write(&d.join("system.toml"), &s);
    let r = ubik_in(&d, &["gen", "system.toml", "-o", "out"]);
    assert_one_line_failure(
        &r,
        65,
        &["system.toml:192:7: task \"t63\"", "at most 64 tasks"],
        "64 tasks",
    );
}

#[test]
fn unreadable_usage_and_unwritable() {
    let d = scratch("gen-io");
    let r = ubik_in(&d, &["gen", "missing.toml", "-o", "out"]);
    assert_one_line_failure(
        &r,
        66,
        &["missing.toml", "cannot read"],
        "missing description",
    );
    let r = ubik_in(&d, &["gen"]);
    assert_eq!(r.code, 64, "no arguments: {}", r.stderr);
    write(&d.join("system.toml"), "");
    write(&d.join("file"), "not a directory");
    let r = ubik_in(&d, &["gen", "system.toml", "-o", "file"]);
    assert_one_line_failure(&r, 74, &["file", "not a directory"], "-o a file");
}

/// The README's tutorial: `ubik build apps/tutorial` + `ubik run` print what the README shows.
#[test]
fn the_tutorial_builds_and_runs() {
    require_gcc();
    let root = repo_root();
    let d = scratch("gen-tutorial");
    for n in ["system.toml", "main.c"] {
        std::fs::copy(root.join("apps/tutorial").join(n), d.join(n)).unwrap();
    }
    let out = Command::new(env!("CARGO_BIN_EXE_ubik"))
        .args(["build".as_ref(), d.as_os_str()])
        .env("UBIK_ROOT", &root)
        .stdin(Stdio::null())
        .output()
        .expect("run ubik build");
    assert!(
        out.status.success(),
        "build failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let r = ubik_run(&[d.join("build/app.elf")]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        r.stdout_str(),
        "got 1 at tick 10\ngot 2 at tick 20\ngot 3 at tick 30\n"
    );
    // The README shows exactly this output.
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    assert!(
        readme.contains("got 1 at tick 10\ngot 2 at tick 20\ngot 3 at tick 30\n"),
        "README.md does not show the tutorial's output"
    );
}

/// `ubik gen --list-schedulers` prints sysdesc's list (the test scripts expand `all` in a
/// `schedulers` file with it), and refuses a description beside it.
#[test]
fn list_schedulers_prints_the_one_list() {
    let r = ubik(&["gen", "--list-schedulers"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let want: String = sysdesc::Scheduler::NAMES
        .iter()
        .map(|s| format!("{s}\n"))
        .collect();
    assert_eq!(String::from_utf8_lossy(&r.stdout), want);
    let r = ubik(&["gen", "--list-schedulers", "system.toml"]);
    assert_eq!(r.code, 64, "{}", r.stderr);
}

/// `--with`/`--without` filter the list by the policy table's properties (the benchmark
/// scripts choose schedulers by them, never by name): each keeps the table's order, repeated
/// filters all hold, a property no policy table column carries is a usage error (64), and
/// neither goes without `--list-schedulers`.
#[test]
fn list_schedulers_filters_by_property() {
    let list = |args: &[&str]| {
        let mut all = vec!["gen", "--list-schedulers"];
        all.extend_from_slice(args);
        let r = ubik(&all);
        assert_eq!(r.code, 0, "{:?}: {}", args, r.stderr);
        r.stdout_str()
            .lines()
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    for property in sysdesc::Policy::PROPERTIES {
        let want = |value: bool| -> Vec<String> {
            sysdesc::Scheduler::ALL
                .iter()
                .filter(|s| s.policy().property(property) == Some(value))
                .map(|s| s.name().to_string())
                .collect()
        };
        assert_eq!(list(&["--with", property]), want(true), "--with {property}");
        assert_eq!(
            list(&["--without", property]),
            want(false),
            "--without {property}"
        );
    }
    // Both filters at once, and a repeated one: the schedulers that never preempt.
    assert_eq!(
        list(&[
            "--without",
            "priority_preemption",
            "--without",
            "time_slices"
        ]),
        ["coop"]
    );
    assert_eq!(
        list(&["--with", "unique_priorities", "--with", "task_manager"]),
        ["rtm"]
    );
    assert_eq!(
        list(&["--without", "unique_priorities", "--with", "time_slices"]),
        ["rr", "prio_rr"]
    );
    let r = ubik(&["gen", "--list-schedulers", "--with", "fast"]);
    assert_eq!(r.code, 64, "{}", r.stderr);
    assert!(r.stderr.contains("priority_preemption"), "{}", r.stderr);
    let r = ubik(&["gen", "--with", "deadlines", "system.toml"]);
    assert_eq!(r.code, 64, "{}", r.stderr);
}
