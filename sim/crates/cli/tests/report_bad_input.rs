//! `ubik report DIR` over bad result data (issue 10, item 15): a corrupt, empty, truncated or
//! mistyped `summary.json`, `variants.csv`, `dpm.csv`, app `app.csv` or `tasks.csv`, figure
//! or `bench/*.json` is one line naming the file, exit 65, and no page; a file or directory
//! that cannot be read is 66. The valid folder is real output of `ubik experiment`
//! (tests/data/results); an app experiment's files are written by the test.

mod support;
use std::path::{Path, PathBuf};
use support::*;

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/results")
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            copy_dir(&p, &to.join(e.file_name()));
        } else {
            std::fs::copy(&p, to.join(e.file_name())).unwrap();
        }
    }
}

/// A copy of the real result folder, changed by `change`, and `ubik report` over it.
fn report_over(tag: &str, change: impl FnOnce(&Path)) -> (Run, PathBuf) {
    let d = scratch(tag);
    let results = d.join("out");
    copy_dir(&fixture(), &results);
    change(&results);
    let page_dir = d.join("page");
    let r = ubik(&[
        "report".as_ref(),
        results.as_os_str(),
        "-o".as_ref(),
        page_dir.as_os_str(),
    ]);
    (r, page_dir)
}

fn expect_bad(tag: &str, code: i32, file: &str, mentions: &[&str], change: impl FnOnce(&Path)) {
    let (r, page_dir) = report_over(tag, change);
    let mut all = vec![file];
    all.extend_from_slice(mentions);
    assert_one_line_failure(&r, code, &all, tag);
    assert!(r.stderr.starts_with("ubik: "), "{tag}: {:?}", r.stderr);
    assert!(
        !page_dir.join("index.html").exists(),
        "{tag}: a page was written over bad data"
    );
}

fn edit(p: &Path, f: impl FnOnce(String) -> String) {
    let text = std::fs::read_to_string(p).unwrap();
    std::fs::write(p, f(text)).unwrap();
}

#[test]
fn the_real_results_make_a_page() {
    let (r, page_dir) = report_over("valid", |_| {});
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.is_empty(), "{}", r.stderr);
    let page = std::fs::read_to_string(page_dir.join("index.html")).unwrap();
    assert!(
        page.contains("2 variant(s), 50 ms simulated each, seeds [1,2]"),
        "{page}"
    );
    assert!(page.contains("ubik-prio-up-t1-p4000-r2"));
    assert!(page.contains("audio-dvfs-idle"));
    assert_eq!(page.matches("<figure>").count(), 6);
    assert!(page.contains("mips_energy"));
    assert!(!page.contains("null ms"));
}

#[test]
fn the_suites_files_are_tables_and_bar_charts_os_beside_os() {
    let (r, page_dir) = report_over("suite", |d| {
        std::fs::write(
            d.join("bench/threadmetric.json"),
            "{\"ubik-prio\": {\"basic\": 16462, \"message\": 270},\n\"nos-np\": {\"basic\": 16480}}",
        )
        .unwrap()
    });
    assert_eq!(r.code, 0, "{}", r.stderr);
    let page = std::fs::read_to_string(page_dir.join("index.html")).unwrap();
    assert!(page.contains("Thread-Metric: cycles per count"), "{page}");
    assert!(
        page.contains("<td>nos-np</td><td>16480</td><td>–</td>"),
        "{page}"
    );
    assert!(page.contains("<title>ubik-prio: 270</title>"), "{page}");
}

#[test]
fn corrupt_summary_json_is_65_naming_it() {
    expect_bad(
        "summary-truncated",
        65,
        "smoke-small/summary.json:",
        &["expected"],
        |d| {
            edit(&d.join("smoke-small/summary.json"), |t| {
                t[..t.len() / 2].to_string()
            })
        },
    );
    expect_bad(
        "summary-empty",
        65,
        "smoke-small/summary.json",
        &["empty"],
        |d| std::fs::write(d.join("smoke-small/summary.json"), "").unwrap(),
    );
    expect_bad(
        "summary-array",
        65,
        "dpm-small/summary.json",
        &["JSON object"],
        |d| std::fs::write(d.join("dpm-small/summary.json"), "[1, 2]\n").unwrap(),
    );
    expect_bad(
        "summary-not-utf8",
        65,
        "smoke-small/summary.json:1:",
        &["UTF-8"],
        |d| {
            std::fs::write(
                d.join("smoke-small/summary.json"),
                b"{\"experiment\": \"\xff\xfe\"}",
            )
            .unwrap()
        },
    );
}

#[test]
fn summary_json_with_missing_or_mistyped_fields_is_65() {
    expect_bad(
        "summary-no-variants",
        65,
        "smoke-small/summary.json",
        &["\"variants\" is missing"],
        |d| {
            let p = d.join("smoke-small/summary.json");
            let mut v: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
            v.as_object_mut().unwrap().remove("variants");
            std::fs::write(&p, v.to_string()).unwrap();
        },
    );
    expect_bad(
        "summary-run-ms-string",
        65,
        "smoke-small/summary.json",
        &["\"run_ms\"", "unsigned integer"],
        |d| {
            edit(&d.join("smoke-small/summary.json"), |t| {
                t.replace("\"run_ms\": 50", "\"run_ms\": \"fifty\"")
            })
        },
    );
    expect_bad(
        "summary-seed-negative",
        65,
        "dpm-small/summary.json",
        &["\"seeds\"[0]"],
        |d| {
            edit(&d.join("dpm-small/summary.json"), |t| {
                t.replace("\"seeds\": [\n    1\n  ]", "\"seeds\": [-1]")
            })
        },
    );
    expect_bad(
        "summary-label-number",
        65,
        "smoke-small/summary.json",
        &["\"variants\"[0].\"label\""],
        |d| {
            edit(&d.join("smoke-small/summary.json"), |t| {
                t.replacen("\"label\": \"ubik-prio-up-t1-p4000-r2\"", "\"label\": 7", 1)
            })
        },
    );
}

#[test]
fn corrupt_tables_are_65_naming_the_file_and_line() {
    expect_bad(
        "variants-truncated-row",
        65,
        "smoke-small/variants.csv:3:",
        &["fields"],
        |d| {
            edit(&d.join("smoke-small/variants.csv"), |t| {
                let t = t.trim_end();
                t[..t.len() - 40].to_string() + "\n"
            })
        },
    );
    expect_bad(
        "variants-missing-row",
        65,
        "smoke-small/variants.csv",
        &["1 row(s); expected 2"],
        |d| {
            edit(&d.join("smoke-small/variants.csv"), |t| {
                t.lines().take(2).map(|l| format!("{l}\n")).collect()
            })
        },
    );
    expect_bad(
        "variants-text-in-number",
        65,
        "smoke-small/variants.csv:2:",
        &["expected a number"],
        |d| {
            edit(&d.join("smoke-small/variants.csv"), |t| {
                t.replacen(",46,46,", ",many,46,", 1)
            })
        },
    );
    expect_bad(
        "variants-no-header-column",
        65,
        "smoke-small/variants.csv:1:",
        &["energy_j"],
        |d| {
            edit(&d.join("smoke-small/variants.csv"), |t| {
                t.replacen("energy_j", "joules", 1)
            })
        },
    );
    expect_bad(
        "variants-empty",
        65,
        "smoke-small/variants.csv",
        &["empty"],
        |d| std::fs::write(d.join("smoke-small/variants.csv"), "\n").unwrap(),
    );
    expect_bad(
        "variants-not-utf8",
        65,
        "smoke-small/variants.csv:2:",
        &["UTF-8"],
        |d| {
            let p = d.join("smoke-small/variants.csv");
            let mut b = std::fs::read(&p).unwrap();
            let second_line = b.iter().position(|&c| c == b'\n').unwrap() + 3;
            b[second_line] = 0xC3;
            std::fs::write(&p, b).unwrap();
        },
    );
    expect_bad(
        "dpm-csv-wrong-label",
        65,
        "dpm-small/dpm.csv:3:",
        &["audio-dvfs-idle"],
        |d| {
            edit(&d.join("dpm-small/dpm.csv"), |t| {
                t.replace("audio-dvfs-idle,", "audio-dvfs-ls9,")
            })
        },
    );
}

#[test]
fn missing_files_are_66_and_bad_figures_and_benches_65() {
    expect_bad(
        "variants-missing",
        66,
        "smoke-small/variants.csv",
        &["cannot read"],
        |d| std::fs::remove_file(d.join("smoke-small/variants.csv")).unwrap(),
    );
    expect_bad(
        "dpm-csv-missing",
        66,
        "dpm-small/dpm.csv",
        &["cannot read"],
        |d| std::fs::remove_file(d.join("dpm-small/dpm.csv")).unwrap(),
    );
    expect_bad(
        "svg-truncated",
        65,
        "energy-up-p4000-r2.svg",
        &["SVG"],
        |d| {
            edit(&d.join("smoke-small/energy-up-p4000-r2.svg"), |t| {
                t[..t.len() / 3].to_string()
            })
        },
    );
    expect_bad(
        "bench-corrupt",
        65,
        "bench/testbed.json:",
        &["expected"],
        |d| std::fs::write(d.join("bench/testbed.json"), "{\"mips\": 29").unwrap(),
    );
    expect_bad(
        "bench-array",
        65,
        "bench/observe.json",
        &["JSON object"],
        |d| std::fs::write(d.join("bench/observe.json"), "[]").unwrap(),
    );
    expect_bad(
        "suite-not-numbers",
        65,
        "bench/threadmetric.json",
        &["\"ubik-prio\".\"basic\"", "not a number", "OS-SCHED"],
        |d| {
            std::fs::write(
                d.join("bench/threadmetric.json"),
                "{\"ubik-prio\": {\"basic\": \"fast\"}}",
            )
            .unwrap()
        },
    );
    expect_bad(
        "suite-flat",
        65,
        "bench/rhealstone.json",
        &["row \"ubik-prio\" is not an object"],
        |d| std::fs::write(d.join("bench/rhealstone.json"), "{\"ubik-prio\": 3}").unwrap(),
    );
    let r = ubik(&["report", "/nonexistent/ubik-results"]);
    assert_one_line_failure(
        &r,
        66,
        &["/nonexistent/ubik-results"],
        "missing results directory",
    );
}

/// An app experiment's files as `ubik experiment` writes them (kind = "app"), under `d/app`.
fn app_results(d: &Path) {
    let app = d.join("app");
    std::fs::create_dir_all(app.join("runs/prio-m0-s1")).unwrap();
    std::fs::write(
        app.join("app.csv"),
        "build,scheduler,tick_hz,cflags,machine,seed,exit,cycles,sim_time_s,energy_j,pass,why\n\
         prio,prio,,\"\",\"default\",1,0,3015475,0.03015475,0.0000023,false,\"lacks \"\"got 4\"\", sorry\"\n",
    )
    .unwrap();
    std::fs::write(
        app.join("runs/prio-m0-s1/tasks.csv"),
        "task,cpu_us,activations,preemptions,response_p50_us,response_p99_us,response_max_us\n\
         consumer,49.16,4,0,17.07,17.07,17.5\nidle,29950.67,3,3,,,\n",
    )
    .unwrap();
}

#[test]
fn an_app_experiment_is_shown_and_its_bad_files_are_65() {
    // Beside the other results, and pointed at directly (once "no results").
    let (r, page_dir) = report_over("app", app_results);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let page = std::fs::read_to_string(page_dir.join("index.html")).unwrap();
    assert!(page.contains("Experiment app (app)"), "{page}");
    assert!(page.contains("0 of 1 runs passed"));
    assert!(page.contains("<td>false</td><td>lacks &quot;got 4&quot;, sorry</td>"));
    assert!(page.contains(
        "<td>prio-m0-s1</td><td>consumer</td><td>49.160</td><td>4</td><td>0</td><td>17.070</td><td>17.070</td><td>17.500</td>"
    ));
    assert!(page.contains("<td>idle</td><td>29950.670</td><td>3</td><td>3</td><td>none</td>"));
    let d = scratch("appalone");
    app_results(&d);
    let r = ubik(&[
        "report".as_ref(),
        d.join("app").as_os_str(),
        "--markdown".as_ref(),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout_str()
            .contains("| prio-m0-s1 | consumer | 49.160 | 4 | 0 | 17.070 | 17.070 | 17.500 |"),
        "{}",
        r.stdout_str()
    );

    let tasks = |d: &Path| d.join("app/runs/prio-m0-s1/tasks.csv");
    expect_bad("appcol", 65, "app.csv:1", &["no column \"cycles\""], |d| {
        app_results(d);
        edit(&d.join("app/app.csv"), |t| t.replacen("cycles", "cycle", 1));
    });
    expect_bad(
        "appnum",
        65,
        "app.csv:2",
        &["\"cycles\"", "expected a number"],
        |d| {
            app_results(d);
            edit(&d.join("app/app.csv"), |t| t.replace("3015475", "lots"));
        },
    );
    expect_bad("appquote", 65, "app.csv:2", &["quote is left open"], |d| {
        app_results(d);
        edit(&d.join("app/app.csv"), |t| t.replace("sorry\"", "sorry"));
    });
    expect_bad(
        "apppass",
        65,
        "app.csv:2",
        &["\"pass\"", "true or false"],
        |d| {
            app_results(d);
            edit(&d.join("app/app.csv"), |t| t.replace(",false,", ",maybe,"));
        },
    );
    expect_bad("appnoruns", 65, "app.csv", &["no runs"], |d| {
        app_results(d);
        edit(&d.join("app/app.csv"), |t| {
            t.lines().next().unwrap().to_string() + "\n"
        });
    });
    expect_bad(
        "tasksrow",
        65,
        "tasks.csv:3",
        &["3 fields; expected 7"],
        |d| {
            app_results(d);
            edit(&tasks(d), |t| t.replace("idle,29950.67,3,3,,,", "idle,1,2"));
        },
    );
    expect_bad(
        "tasksempty",
        65,
        "tasks.csv:2",
        &["\"activations\" is empty"],
        |d| {
            app_results(d);
            edit(&tasks(d), |t| t.replace("49.16,4,0", "49.16,,0"));
        },
    );
}
