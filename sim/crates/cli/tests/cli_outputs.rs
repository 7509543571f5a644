//! `ubik run`'s output files (docs/contract.md, "Output files"; issue 28, items 23-26 and 28):
//! an output that is an input, or two outputs on one file, is a usage error (64) that
//! touches nothing; an output that cannot be written ends in 74 with one line, and the
//! other outputs and `--stats` are still written; `--stats` hashes the image that ran; the
//! VCD lasts to the end of the run.

mod support;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use support::*;

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

/// A copy of build/firmware/NAME.elf in `dir` (the test may see it overwritten).
fn fw_copy(dir: &Path, name: &str) -> PathBuf {
    let p = dir.join(format!("{name}.elf"));
    std::fs::copy(firmware(name), &p).expect("copy firmware");
    p
}

fn sha256(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

// ---- item 23: an output that is an input ---------------------------------------------------

#[test]
fn an_output_naming_an_input_is_refused_and_the_input_kept() {
    let d = scratch("out-is-in");
    let fw = fw_copy(&d, "uart_echo");
    let fw_bytes = std::fs::read(&fw).unwrap();
    let rx = d.join("rx.bin");
    std::fs::write(&rx, b"typed\n").unwrap();
    let m = d.join("m.toml");
    let m_text = "[uart]\nbaud = 115200\nrx_file = \"rx.bin\"\n";
    std::fs::write(&m, m_text).unwrap();
    std::fs::hard_link(&fw, d.join("hard.elf")).unwrap();
    std::os::unix::fs::symlink(&m, d.join("soft.toml")).unwrap();
    let dotted = |p: &Path| d.join(".").join(p.file_name().unwrap());
    for (flag, out, what) in [
        ("--uart-out", fw.clone(), "the firmware"),
        ("--stats", m.clone(), "the machine file"),
        ("--io", dotted(&fw), "the firmware"),
        ("--trace", d.join("hard.elf"), "the firmware"),
        ("--vcd", d.join("soft.toml"), "the machine file"),
        ("--itrace", rx.clone(), "rx.bin"),
        ("--profile", d.join("sub/../rx.bin"), "rx.bin"),
    ] {
        std::fs::create_dir_all(d.join("sub")).unwrap();
        let r = ubik_run(&[
            s(&fw),
            "--machine",
            s(&m),
            "--max-cycles",
            "200000",
            flag,
            s(&out),
        ]);
        let case = format!("{flag} {}", out.display());
        assert_one_line_failure(&r, 64, &[flag, what, "usage error"], &case);
        assert_eq!(std::fs::read(&fw).unwrap(), fw_bytes, "{case}: firmware");
        assert_eq!(
            std::fs::read_to_string(&m).unwrap(),
            m_text,
            "{case}: machine file"
        );
        assert_eq!(std::fs::read(&rx).unwrap(), b"typed\n", "{case}: rx file");
    }
}

#[test]
fn an_output_that_is_stdouts_file_is_refused() {
    let d = scratch("out-is-stdout");
    let log = d.join("log.txt");
    let st = d.join("s.json");
    for (out, args) in [
        (&log, vec!["--stats", s(&log)]),
        (&log, vec!["--itrace", "/dev/stdout"]),
        (&st, vec!["--stats", s(&st)]),
    ] {
        std::fs::write(&log, b"").unwrap();
        let r = Command::new(env!("CARGO_BIN_EXE_ubik"))
            .arg("run")
            .arg(firmware("hello"))
            .args(&args)
            .stdin(Stdio::null())
            .stdout(std::fs::File::create(out).unwrap())
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&r.stderr);
        assert_eq!(r.status.code(), Some(64), "{args:?}: {err}");
        assert!(
            err.contains("stdout") && err.lines().count() == 1,
            "{args:?}: {err}"
        );
    }
}

// ---- item 24: two outputs on one file ------------------------------------------------------

#[test]
fn two_outputs_on_one_file_are_refused() {
    let d = scratch("two-outs");
    let x = d.join("x");
    let y = d.join("y");
    std::fs::write(&y, b"keep").unwrap();
    for (a, pa, b, pb) in [
        ("--trace", x.clone(), "--itrace", x.clone()),
        ("--stats", y.clone(), "--io", y.clone()),
        ("--vcd", x.clone(), "--profile", d.join(".").join("x")),
        ("--uart-out", y.clone(), "--stats", d.join("sub/../y")),
    ] {
        std::fs::create_dir_all(d.join("sub")).unwrap();
        let r = ubik_run(&[s(&firmware("hello")), a, s(&pa), b, s(&pb)]);
        let case = format!("{a} {} {b} {}", pa.display(), pb.display());
        assert_one_line_failure(&r, 64, &[a, b, "same file"], &case);
        assert!(!x.exists(), "{case}: an output was created");
        assert_eq!(std::fs::read(&y).unwrap(), b"keep", "{case}: y was written");
    }
    // A device is a stream, not a file: /dev/null may take several outputs.
    let r = ubik_run(&[
        s(&firmware("hello")),
        "--trace",
        "/dev/null",
        "--itrace",
        "/dev/null",
        "--stats",
        "/dev/null",
        "--io",
        "/dev/null",
    ]);
    assert_eq!(r.code, 0, "/dev/null for every output: {}", r.stderr);
}

// ---- item 25: an output that cannot be written while the run writes it ---------------------

#[test]
fn every_output_on_a_full_device_is_74_and_the_rest_is_written() {
    let d = scratch("full");
    for flag in [
        "--itrace",
        "--trace",
        "--io",
        "--vcd",
        "--profile",
        "--uart-out",
        "--stats",
    ] {
        let st = d.join("s.json");
        let _ = std::fs::remove_file(&st);
        let mut args = vec![
            s(&firmware("dev_uart")).to_string(),
            "--machine".into(),
            s(&fw_file("dev_uart.machine.toml")).into(),
            flag.into(),
            "/dev/full".into(),
        ];
        if flag != "--stats" {
            args.extend(["--stats".into(), s(&st).into()]);
        }
        let r = ubik_run(&args);
        assert_one_line_failure(&r, 74, &[flag, "/dev/full", "cannot write"], flag);
        if flag != "--stats" {
            let v = read_json(&st);
            assert_eq!(
                v["run"]["exit_code"].as_u64(),
                Some(74),
                "{flag}: --stats records the run's status"
            );
        }
    }
}

#[test]
fn a_console_that_cannot_be_written_is_74_however_the_run_ends() {
    // hello prints, then halts a few cycles later: stopped by --max-cycles just before the
    // halt, the run's 72 gives way to the console's failure.
    let d = scratch("full-console");
    let st = d.join("s.json");
    let r = ubik_run(&[s(&firmware("hello")), "--stats", s(&st)]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let limit = (u(&read_json(&st), "cycles") - 3).to_string();
    let r = Command::new(env!("CARGO_BIN_EXE_ubik"))
        .args(["run", s(&firmware("hello")), "--max-cycles", &limit])
        .args(["--stats", s(&st)])
        .stdin(Stdio::null())
        .stdout(std::fs::File::create("/dev/full").unwrap())
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&r.stderr);
    assert_eq!(r.status.code(), Some(74), "{err}");
    assert!(err.contains("console") && err.lines().count() == 1, "{err}");
    assert_eq!(read_json(&st)["run"]["exit_code"].as_u64(), Some(74));
}

// ---- item 26: the hash of the image that ran -----------------------------------------------

/// Runs `ubik ARGS...`, killing it after `secs` seconds (then the test fails).
fn ubik_within(secs: u64, args: &[&str]) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ubik"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn ubik");
    let start = std::time::Instant::now();
    while child.try_wait().expect("wait for ubik").is_none() {
        if start.elapsed().as_secs() >= secs {
            let _ = child.kill();
            let _ = child.wait();
            panic!("ubik {} still running after {secs} s", args.join(" "));
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let out = child.wait_with_output().expect("ubik output");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: out.stdout,
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

#[test]
fn stats_hashes_an_elf_read_from_a_pipe() {
    let d = scratch("pipe-elf");
    let fifo = d.join("fw.pipe");
    let ok = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(ok.success(), "mkfifo");
    let bytes = std::fs::read(firmware("exit_code")).unwrap();
    let want = sha256(&bytes);
    {
        let fifo = fifo.clone();
        // Not joined: if ubik never opens the pipe, the writer waits until the test ends.
        std::thread::spawn(move || {
            use std::io::Write;
            let mut f = std::fs::OpenOptions::new().write(true).open(fifo).unwrap();
            let _ = f.write_all(&bytes);
        });
    }
    let st = d.join("s.json");
    // Reading the pipe a second time for the hash would wait for a writer forever.
    let r = ubik_within(10, &["run", s(&fifo), "--stats", s(&st)]);
    assert_eq!(r.code, 42, "exit_code.elf through a pipe: {}", r.stderr);
    let v = read_json(&st);
    assert_eq!(v["run"]["elf_sha256"].as_str(), Some(want.as_str()));
}

#[test]
fn stats_after_a_bad_machine_file_never_reads_a_device_as_the_elf() {
    // The ELF is hashed as the loader reads it: never from a device. /dev/zero as the
    // firmware beside a bad machine file ends at once, its hash null.
    let d = scratch("zero-elf");
    let m = d.join("m.toml");
    std::fs::write(&m, "ram_size = 3\n").unwrap();
    let st = d.join("s.json");
    let r = ubik_within(
        10,
        &["run", "/dev/zero", "--machine", s(&m), "--stats", s(&st)],
    );
    assert_one_line_failure(&r, 65, &["ram_size"], "bad machine file");
    let v = read_json(&st);
    assert!(v["run"]["elf_sha256"].is_null(), "{v}");
}

// ---- item 28: the VCD lasts to the end of the run ------------------------------------------

#[test]
fn the_vcd_ends_when_the_run_ends() {
    let d = scratch("vcd-end");
    let (vcd, st) = (d.join("io.vcd"), d.join("s.json"));
    let r = ubik_run(&[
        s(&firmware("dev_io")),
        "--machine",
        s(&fw_file("dev_io.machine.toml")),
        "--vcd",
        s(&vcd),
        "--stats",
        s(&st),
    ]);
    assert_eq!(r.code, 0, "dev_io: {}", r.stderr);
    let cycles = u(&read_json(&st), "cycles");
    let mut p = vcd::Parser::new(std::io::BufReader::new(std::fs::File::open(&vcd).unwrap()));
    p.parse_header().unwrap();
    let (mut last_stamp, mut last_change, mut now) = (0u64, 0u64, 0u64);
    for c in p {
        match c.unwrap() {
            vcd::Command::Timestamp(t) => {
                now = t;
                last_stamp = t;
            }
            vcd::Command::ChangeScalar(..) | vcd::Command::ChangeVector(..) => last_change = now,
            _ => {}
        }
    }
    // The default machine runs at 100 MHz: 10^7 fs a cycle.
    assert_eq!(
        last_stamp as u128,
        cycles as u128 * 10_000_000,
        "the last timestamp"
    );
    assert!(
        last_change < last_stamp,
        "the run goes on after its last change"
    );
}
