//! `ubik` under inputs that once hung it, blew up its memory or gave an empty message, and
//! outputs that could not be written: every case ends in bounded time with one line and the
//! exit code of docs/contract.md ("Exit status").
//!
//!   65: bad data (a control character in TOML, a file that is not UTF-8, a stimulus period
//!       shorter than a clock cycle, a file over its size limit)
//!   66: a file that cannot be read (a device, a directory, a pipe where a file is needed)
//!   74: an output that cannot be written, found before the run
//!   64: a usage error, clap's whole message on one line

mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use support::*;

/// Runs `ubik ARGS...` with `env`, killing it after `secs` seconds (then the test fails: the
/// command hung or ground through work it should not do).
fn ubik_within<S: AsRef<std::ffi::OsStr>>(secs: u64, args: &[S], env: &[(&str, &Path)]) -> Run {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_ubik"));
    cmd.args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().expect("spawn ubik");
    let start = Instant::now();
    loop {
        if child.try_wait().expect("wait for ubik").is_some() {
            break;
        }
        if start.elapsed() > Duration::from_secs(secs) {
            let _ = child.kill();
            let _ = child.wait();
            let shown: Vec<String> = args
                .iter()
                .map(|a| a.as_ref().to_string_lossy().into_owned())
                .collect();
            panic!("ubik {} still running after {secs} s", shown.join(" "));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().expect("ubik output");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: out.stdout,
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn put(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, bytes).expect("write test file");
    p
}

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

// ---- item 11: control characters in every TOML reader --------------------------------------

const NUL_COMMENT: &[u8] = b"# a\0 comment\n";
const DEL_COMMENT: &[u8] = b"#\x7f\n";

#[test]
fn control_characters_in_a_machine_file_are_named() {
    let d = scratch("ctl-machine");
    for (name, bytes, char_name) in [
        ("nul.toml", NUL_COMMENT, "U+0000 (NUL)"),
        ("del.toml", DEL_COMMENT, "U+007F (DEL)"),
    ] {
        let m = put(&d, name, bytes);
        let r = ubik_within(10, &["machine", "--check", s(&m)], &[]);
        let at = if name == "nul.toml" { ":1:4:" } else { ":1:2:" };
        assert_one_line_failure(
            &r,
            65,
            &[&format!("{name}{at}"), char_name, "not allowed in TOML"],
            name,
        );
        let r = ubik_within(10, &["run", s(&firmware("hello")), "--machine", s(&m)], &[]);
        assert_one_line_failure(&r, 65, &[name, char_name], "run with it");
    }
}

#[test]
fn control_characters_in_a_system_description_are_named() {
    let d = scratch("ctl-system");
    let mut text = b"[kernel]\nscheduler = \"prio\"\n".to_vec();
    text.extend_from_slice(NUL_COMMENT);
    let sys = put(&d, "system.toml", &text);
    let out = d.join("gen");
    let r = ubik_within(10, &["gen", s(&sys), "-o", s(&out)], &[]);
    assert_one_line_failure(&r, 65, &["system.toml:3:4:", "U+0000 (NUL)"], "ubik gen");
}

#[test]
fn control_characters_in_an_experiment_file_are_named() {
    let d = scratch("ctl-experiment");
    let mut text = b"name = \"x\"\n".to_vec();
    text.extend_from_slice(DEL_COMMENT);
    let exp = put(&d, "x.toml", &text);
    let out = d.join("out");
    let root = repo_root();
    let r = ubik_within(
        10,
        &["experiment", s(&exp), "-o", s(&out)],
        &[("UBIK_ROOT", &root)],
    );
    assert_one_line_failure(&r, 65, &["x.toml:2:2:", "U+007F (DEL)"], "ubik experiment");
}

// ---- item 16: a machine file that is not UTF-8 is bad data ---------------------------------

#[test]
fn a_machine_file_that_is_not_utf8_is_65_at_its_byte() {
    let d = scratch("latin1");
    let m = put(&d, "m.toml", b"ram_size = 1048576\n# caf\xe9\n");
    let r = ubik_within(10, &["machine", "--check", s(&m)], &[]);
    assert_one_line_failure(
        &r,
        65,
        &["m.toml:2:6:", "not UTF-8", "0xE9", "offset 24"],
        "latin-1 comment",
    );
    let sys = put(&d, "system.toml", b"[kernel]\n# \xff\n");
    let r = ubik_within(10, &["gen", s(&sys), "-o", s(&d.join("gen"))], &[]);
    assert_one_line_failure(&r, 65, &["system.toml:2:3:", "not UTF-8"], "system.toml");
}

// ---- item 9: stimulus periods shorter than a clock cycle ------------------------------------

#[test]
fn a_stimulus_period_below_one_cycle_is_refused_by_check_and_run() {
    let d = scratch("tiny-period");
    let m = put(
        &d,
        "tiny.toml",
        b"[[stimulus]]\nline = 0\nkind = \"periodic\"\nperiod_us = 1e-9\n",
    );
    let r = ubik_within(10, &["machine", "--check", s(&m)], &[]);
    assert_one_line_failure(
        &r,
        65,
        &["tiny.toml:4:13:", "shorter than one clock cycle"],
        "--check",
    );
    let r = ubik_within(
        10,
        &[
            "run",
            s(&firmware("spin")),
            "--machine",
            s(&m),
            "--max-cycles",
            "10",
        ],
        &[],
    );
    assert_one_line_failure(&r, 65, &["tiny.toml:4:13:"], "run");
}

#[test]
fn a_stimulus_every_cycle_runs_in_bounded_time_without_io() {
    // One event per cycle at the fastest point, four per cycle at 24 MHz (the floor): a
    // million cycles, nothing stored without --io.
    let d = scratch("cycle-period");
    let m = put(
        &d,
        "fast.toml",
        b"initial_opp = 2\n[[stimulus]]\nline = 0\nkind = \"periodic\"\nperiod_us = 0.01\n",
    );
    let r = ubik_within(
        30,
        &[
            "run",
            s(&firmware("spin")),
            "--machine",
            s(&m),
            "--max-cycles",
            "1000000",
        ],
        &[],
    );
    assert_one_line_failure(&r, 72, &["--max-cycles"], "1 M cycles");
}

// ---- item 10: endless input-stream files ----------------------------------------------------

#[test]
fn endless_or_unreadable_stream_files_end_in_one_line() {
    let d = scratch("endless");
    let cases: Vec<(&str, String, i32, &str)> = vec![
        ("/dev/zero", "/dev/zero".into(), 66, "character device"),
        ("a directory", s(&d).into(), 66, "directory"),
    ];
    let mut cases = cases;
    let fifo = d.join("fifo");
    if Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|st| st.success())
    {
        // Nobody writes it: opening it for reading would wait forever.
        cases.push(("a FIFO", s(&fifo).into(), 66, "pipe"));
    }
    for (what, path, code, mention) in cases {
        let m = put(
            &d,
            "m.toml",
            format!("[[input]]\nport = 0\nkind = \"file\"\npath = \"{path}\"\n").as_bytes(),
        );
        let r = ubik_within(10, &["machine", "--check", s(&m)], &[]);
        assert_one_line_failure(&r, code, &["m.toml:4:8:", mention], what);
        let r = ubik_within(10, &["run", s(&firmware("hello")), "--machine", s(&m)], &[]);
        assert_one_line_failure(&r, code, &["m.toml:4:8:", mention], what);
    }
    // The same for the files ubik run reads itself.
    let r = ubik_within(10, &["run", "/dev/zero"], &[]);
    assert_one_line_failure(&r, 66, &["/dev/zero", "character device"], "ELF /dev/zero");
    let r = ubik_within(
        10,
        &["run", s(&firmware("hello")), "--machine", "/dev/zero"],
        &[],
    );
    assert_one_line_failure(
        &r,
        66,
        &["/dev/zero", "character device"],
        "machine /dev/zero",
    );
}

// ---- item 16: outputs are created before the run ------------------------------------------

#[test]
fn an_unwritable_output_fails_before_the_run() {
    // spin never halts: without the check first, each of these would run 2e9 cycles.
    let d = scratch("unwritable");
    let nowhere = d.join("no/such/dir/out");
    for flag in [
        "--stats",
        "--io",
        "--trace",
        "--vcd",
        "--profile",
        "--itrace",
    ] {
        let r = ubik_within(
            10,
            &[
                "run",
                s(&firmware("spin")),
                "--max-cycles",
                "2000000000",
                flag,
                s(&nowhere),
            ],
            &[],
        );
        assert_one_line_failure(&r, 74, &[flag, "cannot write"], flag);
    }
}

// ---- item 16: a RAM as large as the address space allows -----------------------------------

#[test]
fn hello_runs_on_the_largest_ram_in_bounded_time() {
    let d = scratch("big-ram");
    let m = put(&d, "big.toml", b"ram_size = 0xFFF00000\n");
    let r = ubik_within(10, &["machine", "--check", s(&m)], &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let r = ubik_within(10, &["run", s(&firmware("hello")), "--machine", s(&m)], &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stdout, b"hello from ubik\n");
}

// ---- item 16: usage errors say what is wrong ----------------------------------------------

#[test]
fn usage_errors_show_the_whole_message_on_one_line() {
    let r = ubik_within(10, &["run"], &[]);
    assert_one_line_failure(
        &r,
        64,
        &["<FIRMWARE>", "Usage: ubik run"],
        "ubik run without a file",
    );
    let r = ubik_within(
        10,
        &["run", s(&firmware("hello")), "--max-cycles", "lots"],
        &[],
    );
    assert_one_line_failure(&r, 64, &["--max-cycles", "lots"], "--max-cycles lots");
}
