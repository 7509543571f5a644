//! bench/threadmetric.toml and its quick check read into the images the shell runner built,
//! and a bad file's errors at their place.

use super::*;
use std::collections::BTreeSet;
use std::path::PathBuf;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..")
}

fn read(rel: &str) -> ThreadMetric {
    let p = root().join(rel);
    let text = std::fs::read_to_string(&p).unwrap();
    let src = confread::Doc::text_only(rel, &text);
    parse(&src, &p).map_err(|e| e.to_string()).unwrap()
}

/// An error of the file `text` (written as bench/bad.toml, beside the sources).
fn error(text: &str) -> String {
    let p = root().join("bench/bad.toml");
    let src = confread::Doc::text_only("bad.toml", text);
    parse(&src, &p).map(|_| ()).unwrap_err().to_string()
}

/// Row -> its keys.
fn rows(figs: &[Figure]) -> BTreeMap<String, BTreeSet<String>> {
    let mut m: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in figs {
        m.entry(f.row.clone()).or_default().insert(f.key.clone());
    }
    m
}

#[test]
fn the_benchmark_gives_the_rows_the_shell_runner_gave() {
    let tm = read("bench/threadmetric.toml");
    assert_eq!(
        (tm.period_ms, tm.periods, tm.max_cycles),
        (50, 5, 4_000_000_000)
    );
    assert_eq!(tm.header.name, "threadmetric");
    let all = "basic cooperative interrupt interrupt_preemption memory message preemptive synchronization";
    let no_coop = "basic interrupt interrupt_preemption memory message preemptive synchronization";
    let want: BTreeMap<String, BTreeSet<String>> = [
        ("nos-np", "basic cooperative interrupt"),
        ("ubik-bitmap", no_coop),
        ("ubik-coop", "cooperative"),
        ("ubik-edf", all),
        ("ubik-prio", all),
        ("ubik-prio_rr", all),
        (
            "ubik-rr",
            "basic cooperative interrupt memory message synchronization",
        ),
        ("ubik-rtm", no_coop),
    ]
    .iter()
    .map(|(r, k)| (r.to_string(), k.split(' ').map(String::from).collect()))
    .collect();
    assert_eq!(rows(&figures(&tm, false)), want);
    let with = figures(&tm, true);
    let fr = &rows(&with)["freertos-prio"];
    assert_eq!(fr.len(), 9);
    assert!(fr.contains("memory_free_list"));
    let extra = with.iter().find(|f| f.key == "memory_free_list").unwrap();
    assert_eq!(tm.scenarios[extra.scenario].name, "memory");
    let BuildWith::Command { program, env, .. } = &extra.job.source.build else {
        panic!("FreeRTOS is an external build");
    };
    assert!(program.ends_with("bench/freertos/build.sh"));
    assert_eq!(
        env,
        &[(
            "TM_CFLAGS".to_string(),
            "-DTM_FREERTOS_FREE_LIST".to_string()
        )]
    );
}

#[test]
fn each_image_is_its_files_and_generated_configuration() {
    let tm = read("bench/threadmetric.toml");
    let figs = figures(&tm, false);
    let f = figs
        .iter()
        .find(|f| f.row == "ubik-prio" && f.key == "message")
        .unwrap();
    assert_eq!(f.job.label, "message-prio");
    assert_eq!(
        f.job.source.generated,
        [(
            "tm_config.h".to_string(),
            "#define TM_SCENARIO 6\n#define TM_PERIOD_MS 50\n#define TM_PERIODS 5\n".to_string()
        )]
    );
    let BuildWith::Ubik { system_toml } = &f.job.source.build else {
        panic!("Ubik builds with ubik build");
    };
    assert_eq!(
        system_toml,
        "[kernel]\nscheduler = \"prio\"\ntick_hz = 1000\n"
    );
    let names: Vec<_> = f
        .job
        .source
        .files
        .iter()
        .map(|p| p.file_name().unwrap())
        .collect();
    assert_eq!(
        names,
        ["tm_scenarios.c", "tm_ubik.c", "tm_port.h", "tm_basic.h"]
    );
    let n = figs
        .iter()
        .find(|f| f.row == "nos-np" && f.key == "interrupt")
        .unwrap();
    assert_eq!(n.job.label, "interrupt-nos");
    assert!(
        matches!(&n.job.source.build, BuildWith::Ubik { system_toml } if system_toml == "[kernel]\nos = \"nos\"\n")
    );
}

#[test]
fn the_quick_check_measures_what_the_benchmark_measures() {
    let full = read("bench/threadmetric.toml");
    let quick = read("tests/bench/threadmetric-quick.toml");
    assert_eq!((quick.period_ms, quick.periods), (5, 2));
    assert_eq!(quick.scenarios, full.scenarios);
    assert_eq!(rows(&figures(&quick, true)), rows(&figures(&full, true)));
    let files = |t: &ThreadMetric| -> Vec<PathBuf> {
        t.ubik
            .files
            .iter()
            .map(|p| p.canonicalize().unwrap())
            .collect()
    };
    assert_eq!(files(&quick), files(&full));
}

const GOOD: &str =
    "kind = \"threadmetric\"\nsources = \"threadmetric\"\nperiod_ms = 5\nperiods = 2\n\
    [[scenario]]\nname = \"basic\"\nnumber = 1\n\
    [ubik]\nfiles = [\"tm_scenarios.c\"]\ntick_hz = 1000\n";

#[test]
fn a_small_file_reads() {
    let p = root().join("bench/bad.toml");
    let tm = parse(&confread::Doc::text_only("bad.toml", GOOD), &p)
        .map_err(|e| e.to_string())
        .unwrap();
    assert_eq!(tm.header.name, "bad");
    assert_eq!(figures(&tm, true).len(), sysdesc::Scheduler::ALL.len());
}

#[test]
fn a_bad_file_is_one_error_at_its_place() {
    let cases = [
        (
            GOOD.replace(
                "number = 1\n",
                "number = 1\nschedulers = { with = [\"fast\"] }\n",
            ),
            "bad.toml:8:24: schedulers.with: \"fast\" is not a scheduler property",
        ),
        (
            GOOD.replace("tm_scenarios.c", "tm_nothere.c"),
            "bad.toml:9:10: cannot read a Thread-Metric source",
        ),
        (
            GOOD.to_string() + "[nos]\nfiles = [\"tm_nos.c\"]\nscenarios = [\"basik\"]\n",
            "bad.toml:13:14: \"basik\" is not a scenario of this file; expected one of \"basic\"",
        ),
        (
            GOOD.to_string() + "[[scenario]]\nname = \"two\"\nnumber = 1\n",
            "bad.toml:13:10: scenario number 1 is listed twice",
        ),
        (
            GOOD.replace("periods = 2", "periods = 0"),
            "bad.toml:4:11: periods = 0 is out of range",
        ),
        (
            GOOD.replace("sources = \"threadmetric\"", "sources = \"nowhere\""),
            "bad.toml:2:11: sources = \"nowhere\"",
        ),
        (
            GOOD.to_string() + "colour = 1\n",
            "bad.toml:11:1: unknown key `colour`",
        ),
    ];
    for (text, want) in cases {
        let e = error(&text);
        assert!(e.starts_with(want), "{e}\nexpected: {want}");
    }
}
