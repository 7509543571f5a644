//! `ubik run` as docs/contract.md describes it: stdout carries exactly the console bytes,
//! exit codes, the `--stats` keys on every exit path that writes them, the `--io` CSV,
//! determinism and `--seed`, `ubik machine --print-default` parsing back, and the idle
//! firmware's sleep accounting. Firmware comes from build/firmware (`make firmware`).

mod support;
use support::*;

#[test]
fn stdout_is_exactly_the_console() {
    let r = ubik_run(&[firmware("hello")]);
    assert_eq!(r.code, 0, "stderr: {}", r.stderr);
    assert_eq!(
        r.stdout, b"hello from ubik\n",
        "stdout must be the console bytes and nothing else"
    );
    assert_eq!(r.stderr, "", "a clean run prints nothing on stderr");

    // sb / sh / sw to CHAR_OUT, bytes 1..3 ignored; exit = (0xFFFFFF95 >> 1) & 63 = 10.
    let r = ubik_run(&[firmware("dev_simctrl")]);
    assert_eq!(r.stdout_str(), "sb\nsw\nsh\nalive\n");
    assert_eq!(
        r.code, 10,
        "halt value 0xFFFFFF95 gives exit (v >> 1) & 63 = 10; stderr: {}",
        r.stderr
    );
}

#[test]
fn exit_code_is_the_halt_value() {
    let r = ubik_run(&[firmware("exit_code")]);
    assert_eq!(r.code, 42, "stderr: {}", r.stderr);
    assert!(
        r.stdout.is_empty(),
        "exit_code prints nothing, got {:?}",
        r.stdout_str()
    );
    let r = ubik_run(&[firmware("unhandled_trap")]);
    assert_eq!(r.code, 63);
}

#[test]
fn stats_has_every_contract_key_on_exit_0() {
    let d = scratch("stats0");
    let s = d.join("s.json");
    let r = ubik_run(&[
        firmware("hello").as_os_str(),
        "--stats".as_ref(),
        s.as_os_str(),
    ]);
    assert_eq!(r.code, 0, "stderr: {}", r.stderr);
    let v = read_json(&s);
    assert_stats_keys(&v, "hello");
    assert!(u(&v, "cycles") > 0 && u(&v, "instret") > 0);
    assert_eq!(
        u(&v, "cycles"),
        u(&v, "mcycle"),
        "no sleep: elapsed cycles equal mcycle"
    );
    // Sums over categories equal the totals exactly.
    let cats = v["by_category"].as_object().unwrap();
    let sum_c: u64 = cats.values().map(|c| c["cycles"].as_u64().unwrap()).sum();
    let sum_i: u64 = cats.values().map(|c| c["instret"].as_u64().unwrap()).sum();
    assert_eq!(sum_c, u(&v, "cycles"), "by_category cycles sum");
    assert_eq!(sum_i, u(&v, "instret"), "by_category instret sum");
    // 100 MHz default: sim_time_s = cycles / 1e8, all of it at operating point 0.
    let t = f(&v, "sim_time_s");
    assert!(
        (t - u(&v, "cycles") as f64 / 1e8).abs() < 1e-12,
        "sim_time_s {t}"
    );
    assert!(
        (v["opp_time_s"]["0"].as_f64().unwrap() - t).abs() < 1e-12,
        "opp_time_s.0 = sim_time_s"
    );
}

#[test]
fn stats_names_the_run_it_measured() {
    use sha2::{Digest, Sha256};
    let d = scratch("stats-run");
    let s = d.join("s.json");
    let m = d.join("m.toml");
    std::fs::write(&m, "[timer]\ntimebase = 1000000\n").unwrap();
    let fw = firmware("exit_code");
    let r = ubik_run(&[
        fw.as_os_str(),
        "--stats".as_ref(),
        s.as_os_str(),
        "--machine".as_ref(),
        m.as_os_str(),
        "--seed".as_ref(),
        "7".as_ref(),
    ]);
    assert_eq!(r.code, 42, "stderr: {}", r.stderr);
    let v = read_json(&s);
    let run = &v["run"];
    let sha: String = Sha256::digest(std::fs::read(&fw).unwrap())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert_eq!(run["elf"].as_str(), Some(fw.to_str().unwrap()));
    assert_eq!(run["elf_sha256"].as_str(), Some(sha.as_str()));
    assert_eq!(run["machine"].as_str(), Some(m.to_str().unwrap()));
    assert_eq!(run["seed"].as_u64(), Some(7));
    assert_eq!(run["exit_code"].as_u64(), Some(42));
    assert_eq!(
        run["ubik_version"].as_str(),
        Some(env!("CARGO_PKG_VERSION"))
    );
    // Without a machine file: "default"; a run that hit its limit: 72.
    let r = ubik_run(&[
        firmware("spin").as_os_str(),
        "--stats".as_ref(),
        s.as_os_str(),
        "--max-cycles".as_ref(),
        "1000".as_ref(),
    ]);
    assert_eq!(r.code, 72);
    let v = read_json(&s);
    assert_eq!(v["run"]["machine"].as_str(), Some("default"));
    assert_eq!(v["run"]["exit_code"].as_u64(), Some(72));
}

#[test]
fn stats_written_on_exit_65() {
    let d = scratch("stats65");
    let text = d.join("notelf.elf");
    std::fs::write(&text, "this is not an ELF file\n").unwrap();
    let s = d.join("s.json");
    let r = ubik_run(&[text.as_os_str(), "--stats".as_ref(), s.as_os_str()]);
    assert_one_line_failure(&r, 65, &["not an ELF"], "text file");
    assert_stats_keys(&read_json(&s), "exit 65 (not an ELF)");

    // A malformed machine file is exit 65 too.
    let m = d.join("bad.toml");
    std::fs::write(&m, "ram_size = \n").unwrap();
    let s2 = d.join("s2.json");
    let r = ubik_run(&[
        firmware("hello").as_os_str(),
        "--machine".as_ref(),
        m.as_os_str(),
        "--stats".as_ref(),
        s2.as_os_str(),
    ]);
    assert_one_line_failure(&r, 65, &[], "malformed machine file");
    assert_stats_keys(&read_json(&s2), "exit 65 (machine file)");
}

#[test]
fn stats_written_on_exit_71() {
    let d = scratch("stats71");
    for fw in ["trap_loop", "dev_wfi_dead"] {
        let s = d.join(format!("{fw}.json"));
        let r = ubik_run(&[firmware(fw).as_os_str(), "--stats".as_ref(), s.as_os_str()]);
        assert_one_line_failure(&r, 71, &["0x"], fw);
        let v = read_json(&s);
        assert_stats_keys(&v, fw);
        assert!(u(&v, "cycles") > 0, "{fw}: the stats of a run that ran");
    }
}

#[test]
fn stats_written_on_exit_72() {
    let d = scratch("stats72");
    let s = d.join("s.json");
    let r = ubik_run(&[
        firmware("spin").as_os_str(),
        "--max-cycles".as_ref(),
        "100000".as_ref(),
        "--stats".as_ref(),
        s.as_os_str(),
    ]);
    assert_one_line_failure(&r, 72, &["100000"], "spin --max-cycles");
    let v = read_json(&s);
    assert_stats_keys(&v, "exit 72");
    let c = u(&v, "cycles");
    assert!(
        (100_000..100_100).contains(&c),
        "--max-cycles 100000 stopped at cycle {c}"
    );
}

#[test]
fn io_record_format_and_order() {
    let d = scratch("io");
    let io = d.join("io.csv");
    let r = ubik_run(&[
        firmware("dev_intc").as_os_str(),
        "--machine".as_ref(),
        fw_file("dev_intc.machine.toml").as_os_str(),
        "--io".as_ref(),
        io.as_os_str(),
    ]);
    assert_eq!(
        r.code,
        0,
        "dev_intc: stdout {} stderr {}",
        r.stdout_str(),
        r.stderr
    );
    let rows = read_io(&io);
    assert_io_well_formed(&rows, "dev_intc");
    let stim: Vec<&IoRow> = rows.iter().filter(|r| r.kind == "stimulus").collect();
    assert!(!stim.is_empty(), "no stimulus rows");
    // Line 2: every 20 us from 5 us, event numbers 0, 1, 2, ... at exact cycles (100 MHz).
    let line2: Vec<&&IoRow> = stim.iter().filter(|r| r.port == 2).collect();
    assert!(line2.len() >= 5, "line 2 fired {} times", line2.len());
    for (k, r) in line2.iter().enumerate() {
        assert_eq!(r.value, k as u32, "line 2 event number");
        assert_eq!(r.cycle, 500 + 2000 * k as u64, "line 2 event {k} cycle");
        assert!(
            (r.time_s - (5e-6 + 20e-6 * k as f64)).abs() < 1e-12,
            "line 2 event {k} time {}",
            r.time_s
        );
    }
    // Lines 5 and 9 fire at the same cycles, 30 us apart from 10 us.
    let l5: Vec<u64> = stim
        .iter()
        .filter(|r| r.port == 5)
        .map(|r| r.cycle)
        .collect();
    let l9: Vec<u64> = stim
        .iter()
        .filter(|r| r.port == 9)
        .map(|r| r.cycle)
        .collect();
    assert_eq!(l5, l9, "simultaneous generators");
    assert_eq!(l5.first(), Some(&1000));
    for w in l5.windows(2) {
        assert_eq!(w[1] - w[0], 3000);
    }
    // time_s follows cycle at 100 MHz for every row.
    for r in &rows {
        assert!(
            (r.time_s * 1e8 - r.cycle as f64).abs() < 1e-3,
            "row {r:?}: time_s != cycle / 100 MHz"
        );
    }
}

fn run_with(
    fw: &str,
    machine: Option<&std::path::Path>,
    seed: u64,
    d: &std::path::Path,
    tag: &str,
    extra: &[&str],
) -> (Run, serde_json::Value, Vec<u8>) {
    let s = d.join(format!("{tag}.json"));
    let io = d.join(format!("{tag}.csv"));
    let mut args: Vec<std::ffi::OsString> = vec![firmware(fw).into()];
    if let Some(m) = machine {
        args.push("--machine".into());
        args.push(m.into());
    }
    for a in ["--seed".to_string(), seed.to_string()] {
        args.push(a.into());
    }
    args.push("--stats".into());
    args.push(s.clone().into());
    args.push("--io".into());
    args.push(io.clone().into());
    for a in extra {
        args.push(a.into());
    }
    let r = ubik_run(&args);
    let v = read_json(&s);
    let io = std::fs::read(&io).expect("--io written");
    (r, v, io)
}

#[test]
fn two_runs_are_identical() {
    let d = scratch("determinism");
    let m = fw_file("dev_intc.machine.toml");
    let (r1, s1, io1) = run_with("dev_intc", Some(&m), 7, &d, "a", &[]);
    let (r2, s2, io2) = run_with("dev_intc", Some(&m), 7, &d, "b", &[]);
    assert_eq!(r1.code, 0, "{}", r1.stderr);
    assert_eq!(r1.code, r2.code);
    assert_eq!(r1.stdout, r2.stdout);
    assert_eq!(
        deterministic_part(&s1),
        deterministic_part(&s2),
        "stats differ between identical runs"
    );
    assert!(io1 == io2, "--io records differ between identical runs");

    let (r1, s1, io1) = run_with("dev_power", None, 1, &d, "c", &[]);
    let (_, s2, io2) = run_with("dev_power", None, 1, &d, "d", &[]);
    assert_eq!(r1.code, 0, "{}", r1.stderr);
    assert_eq!(deterministic_part(&s1), deterministic_part(&s2));
    assert!(io1 == io2);
}

fn geometric_machine(d: &std::path::Path) -> std::path::PathBuf {
    let m = d.join("geo.toml");
    std::fs::write(
        &m,
        "[[stimulus]]\nline = 3\nkind = \"geometric\"\nslot_us = 10\nprobability = 0.3\nseed = 5\n",
    )
    .unwrap();
    m
}

#[test]
fn seed_changes_a_geometric_stimulus() {
    let d = scratch("seed");
    let m = geometric_machine(&d);
    let extra = ["--max-cycles", "2000000"];
    let (r1, s1, io1) = run_with("spin", Some(&m), 1, &d, "s1", &extra);
    let (_, s1b, io1b) = run_with("spin", Some(&m), 1, &d, "s1b", &extra);
    let (_, _, io2) = run_with("spin", Some(&m), 2, &d, "s2", &extra);
    assert_eq!(r1.code, 72, "{}", r1.stderr);
    assert_eq!(deterministic_part(&s1), deterministic_part(&s1b));
    assert!(io1 == io1b, "same seed: same record");
    assert!(
        io1 != io2,
        "--seed 2 gives the same geometric record as --seed 1"
    );
    // ~ 20 ms / (10 us / 0.3) = 600 events on line 3.
    let rows = read_io(&d.join("s1.csv"));
    assert_io_well_formed(&rows, "geometric");
    let n = rows
        .iter()
        .filter(|r| r.kind == "stimulus" && r.port == 3)
        .count();
    assert!(
        (400..800).contains(&n),
        "geometric p=0.3 per 10 us slot over 20 ms: {n} events"
    );
    for (k, r) in rows.iter().filter(|r| r.kind == "stimulus").enumerate() {
        assert_eq!(r.value, k as u32, "event numbers count up");
        assert_eq!(
            r.cycle % 1000,
            0,
            "geometric events fall on slot ends (10 us = 1000 cycles): {r:?}"
        );
    }
}

#[test]
fn print_default_parses_back() {
    let r = ubik(&["machine", "--print-default"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let text = r.stdout_str();
    assert!(
        text.contains("[timer]") && text.contains("[[opp]]"),
        "default machine file: {text}"
    );
    let parsed =
        machine::config::MachineConfig::from_str(&text, "default.toml").expect("default parses");
    assert_eq!(
        parsed,
        machine::config::MachineConfig::default(),
        "--print-default is not the built-in default"
    );

    let d = scratch("default");
    let m = d.join("default.toml");
    std::fs::write(&m, &text).unwrap();
    for fw in ["idle_short", "dev_power", "dev_timer"] {
        let (ra, sa, ioa) = run_with(fw, None, 1, &d, &format!("{fw}-none"), &[]);
        let (rb, sb, iob) = run_with(fw, Some(&m), 1, &d, &format!("{fw}-default"), &[]);
        assert_eq!(ra.code, 0, "{fw}: {}", ra.stderr);
        assert_eq!(ra.code, rb.code, "{fw}");
        assert_eq!(ra.stdout, rb.stdout, "{fw}");
        assert_eq!(
            deterministic_part(&sa),
            deterministic_part(&sb),
            "{fw}: --machine default.toml differs from no --machine"
        );
        assert!(ioa == iob, "{fw}: --io differs");
    }
}

#[test]
fn idle_sleep_is_in_cycles_not_mcycle() {
    let d = scratch("idle");
    let (r, v, _) = run_with("idle_short", None, 1, &d, "idle", &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stdout_str(), "idle: 20 ticks\n");
    let cycles = u(&v, "cycles");
    let mcycle = u(&v, "mcycle");
    // 20 ticks of 1 ms at 100 MHz: about 2,000,000 elapsed cycles, almost all asleep.
    assert!(cycles >= 2_000_000, "cycles {cycles}");
    assert!(
        mcycle * 50 < cycles,
        "mcycle {mcycle} should be a small fraction of cycles {cycles} (mcycle stops in wfi)"
    );
    assert_eq!(
        v["by_category"]["idle"]["cycles"].as_u64(),
        Some(cycles - mcycle),
        "idle cycles = cycles - mcycle"
    );
    assert_eq!(
        v["by_category"]["idle"]["instret"].as_u64(),
        Some(0),
        "nothing retires asleep"
    );
    let cats = v["by_category"].as_object().unwrap();
    let sum_c: u64 = cats.values().map(|c| c["cycles"].as_u64().unwrap()).sum();
    assert_eq!(sum_c, cycles);
    // Sleep is simulated time too: sim_time_s covers the elapsed cycles.
    let t = f(&v, "sim_time_s");
    assert!(
        (t - cycles as f64 / 1e8).abs() < 1e-9,
        "sim_time_s {t} vs cycles {cycles}"
    );
    assert!(t >= 0.020, "20 ticks of 1 ms: sim_time_s {t}");
}

#[test]
fn illegal_instruction_with_skipping_handler_is_not_a_fault() {
    // dev_fault executes an illegal instruction 2,000 times at one PC; its handler skips it.
    let r = ubik_run(&[firmware("dev_fault")]);
    assert_eq!(r.code, 0, "stdout {} stderr {}", r.stdout_str(), r.stderr);
    assert_eq!(r.stderr, "");
    // bsp_traps skips ebreak / unimp / access faults once each.
    let r = ubik_run(&[firmware("bsp_traps")]);
    assert_eq!(r.code, 0, "stdout {} stderr {}", r.stdout_str(), r.stderr);
}
