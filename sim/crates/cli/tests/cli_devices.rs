//! Device behaviour seen from outside the firmware: the `--io` record of IO-port writes and
//! GPIO edges (dev_io), and simulated time per operating point in `--stats` (dev_power).
//! The firmware checks the registers themselves (tests/firmware/dev_*.c).

mod support;
use support::*;

#[test]
fn io_ports_and_gpio_edges_are_recorded() {
    let d = scratch("dev_io");
    let io = d.join("io.csv");
    let r = ubik_run(&[
        firmware("dev_io").as_os_str(),
        "--machine".as_ref(),
        fw_file("dev_io.machine.toml").as_os_str(),
        "--io".as_ref(),
        io.as_os_str(),
    ]);
    assert_eq!(
        r.code,
        0,
        "dev_io: stdout {} stderr {}",
        r.stdout_str(),
        r.stderr
    );
    let rows = read_io(&io);
    assert_io_well_formed(&rows, "dev_io");
    let got: Vec<(&str, u32, u32)> = rows
        .iter()
        .map(|r| (r.kind.as_str(), r.port, r.value))
        .collect();
    let mut want: Vec<(&str, u32, u32)> = vec![
        ("out", 0, 1),
        ("out", 31, 0xdead_beef),
        ("gpio", 0, 1),
        ("gpio", 2, 1),
        ("gpio", 0, 0),
    ];
    for k in 0..10 {
        want.push(("out", 1, k));
    }
    want.push(("gpio", 2, 0));
    want.push(("out", 2, 0x8000_0000));
    assert_eq!(got, want, "the --io record of dev_io");
    // One store sets two pins: both edges carry the same stamp; other writes are distinct
    // stores at increasing cycles.
    assert_eq!(
        rows[2].cycle, rows[3].cycle,
        "pins 0 and 2 rise in the same store"
    );
    for w in rows.windows(2) {
        if !(w[0].kind == "gpio" && w[1].kind == "gpio" && w[1].cycle == rows[3].cycle) {
            assert!(
                w[0].cycle < w[1].cycle,
                "separate stores at the same cycle: {:?} {:?}",
                w[0],
                w[1]
            );
        }
    }
    // The ten writes of the loop come at a steady rate.
    let out1: Vec<u64> = rows
        .iter()
        .filter(|r| r.kind == "out" && r.port == 1)
        .map(|r| r.cycle)
        .collect();
    let step = out1[1] - out1[0];
    assert!(
        out1.windows(2).all(|w| w[1] - w[0] == step),
        "loop writes at irregular cycles: {out1:?}"
    );
    for r in &rows {
        assert!(
            (r.time_s * 1e8 - r.cycle as f64).abs() < 1e-3,
            "time_s of {r:?} at 100 MHz"
        );
    }
}

#[test]
fn time_runs_slower_at_a_lower_operating_point() {
    let d = scratch("dev_power");
    let s = d.join("s.json");
    let r = ubik_run(&[
        firmware("dev_power").as_os_str(),
        "--stats".as_ref(),
        s.as_os_str(),
    ]);
    assert_eq!(
        r.code,
        0,
        "dev_power: stdout {} stderr {}",
        r.stdout_str(),
        r.stderr
    );
    let out = r.stdout_str();
    let n: u64 = out
        .trim()
        .strip_prefix("switched at cycle ")
        .and_then(|x| x.parse().ok())
        .unwrap_or_else(|| panic!("dev_power output: {out:?}"));
    let v = read_json(&s);
    assert_stats_keys(&v, "dev_power");
    let cycles = u(&v, "cycles");
    assert_eq!(cycles, u(&v, "mcycle"), "no sleep in dev_power");
    let opp = &v["opp_time_s"];
    let t0 = opp["0"].as_f64().expect("opp_time_s.0");
    let t1 = opp["1"].as_f64().unwrap_or(0.0);
    let t2 = opp["2"].as_f64().expect("opp_time_s.2");
    let sim = f(&v, "sim_time_s");
    // The switch completed at cycle n - (a few cycles of the polling loop): time at P0 is
    // that many cycles at 100 MHz; the rest of the run is at 24 MHz.
    let slack = 40.0;
    assert!(
        t0 <= n as f64 / 1e8 && t0 >= (n as f64 - slack) / 1e8,
        "opp_time_s.0 = {t0}, switch seen at cycle {n}"
    );
    assert_eq!(t1, 0.0, "operating point 1 never used");
    let c0 = t0 * 1e8;
    let expect2 = (cycles as f64 - c0) / 24e6;
    assert!(
        (t2 - expect2).abs() < 1e-9,
        "opp_time_s.2 = {t2}, expected {expect2} ({cycles} cycles in all)"
    );
    assert!(
        (sim - (t0 + t1 + t2)).abs() < 1e-12,
        "sim_time_s {sim} is not the sum of opp_time_s"
    );
    assert!(
        sim > cycles as f64 / 1e8 * 2.0,
        "at 24 MHz time runs slower per cycle: sim_time_s {sim}, cycles {cycles}"
    );
}

#[test]
fn machine_file_beside_a_test_changes_the_timebase() {
    // dev_timer_cycle checks mtime == cycles; on the default machine (10 MHz) it must fail,
    // which proves the machine file is what makes it pass.
    let r = ubik_run(&[
        firmware("dev_timer_cycle").as_os_str(),
        "--machine".as_ref(),
        fw_file("dev_timer_cycle.machine.toml").as_os_str(),
    ]);
    assert_eq!(r.code, 0, "with timebase = \"cycle\": {}", r.stdout_str());
    let r = ubik_run(&[firmware("dev_timer_cycle")]);
    assert_ne!(
        r.code, 0,
        "dev_timer_cycle passed on the 10 MHz default timebase"
    );
    let r = ubik_run(&[firmware("dev_timer")]);
    assert_eq!(
        r.code,
        0,
        "dev_timer on the default machine: {}",
        r.stdout_str()
    );
}
