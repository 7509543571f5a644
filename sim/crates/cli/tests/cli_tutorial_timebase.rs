//! The README's tutorial (apps/tutorial) on machines whose timer counts at different rates:
//! the kernel's tick comes from TIMER.MTIME_HZ, so "got 3 at tick 30" comes after 30 ms of
//! simulated time on every machine -- the default 10 MHz timer, a timer counting core cycles
//! (`timebase = "cycle"`, as for comparisons with the RTL), and a 32768 Hz watch crystal
//! (not a multiple of the 1 kHz tick).

mod support;

use std::path::Path;
use support::*;

fn read_stats(p: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(p).expect("--stats written");
    serde_json::from_str(&text).expect("--stats is JSON")
}

#[test]
fn the_tutorial_ticks_in_milliseconds_on_every_timebase() {
    require_gcc();
    let d = scratch("tutorial");
    let elf = d.join("tutorial.elf");
    let root = repo_root();
    let app = root.join("apps/tutorial");
    let r = ubik(&[
        "build".as_ref(),
        app.as_os_str(),
        "-o".as_ref(),
        elf.as_os_str(),
    ]);
    assert_eq!(r.code, 0, "ubik build apps/tutorial: {}", r.stderr);

    for (name, machine) in [
        ("default (10 MHz)", None),
        ("cycle", Some("[timer]\ntimebase = \"cycle\"\n")),
        (
            "cycle at 24 MHz",
            Some("initial_opp = 2\n[timer]\ntimebase = \"cycle\"\n"),
        ),
        ("32768 Hz", Some("[timer]\ntimebase = 32768\n")),
    ] {
        let stats = d.join("stats.json");
        let mut args = vec![
            "run".as_ref(),
            elf.as_os_str(),
            "--stats".as_ref(),
            stats.as_os_str(),
        ];
        let m = d.join("m.toml");
        if let Some(text) = machine {
            std::fs::write(&m, text).unwrap();
            args.extend(["--machine".as_ref(), m.as_os_str()]);
        }
        let r = ubik(&args);
        assert_eq!(r.code, 0, "{name}: {}", r.stderr);
        assert_eq!(
            r.stdout_str(),
            "got 1 at tick 10\ngot 2 at tick 20\ngot 3 at tick 30\n",
            "{name}: console"
        );
        // Tick 30 is 30 ms after the tick started (a few hundred microseconds of start-up
        // and printing around it).
        let t = read_stats(&stats)["sim_time_s"]
            .as_f64()
            .expect("sim_time_s");
        assert!(
            (0.0300..0.0310).contains(&t),
            "{name}: the third item came after {:.3} ms of simulated time, expected 30 ms",
            t * 1e3
        );
    }
}
