//! `ubik report`'s section of the hypervisor experiment (`bench/hypervisor.json`, written by
//! `ubik experiment bench/hypervisor.toml`; docs/hypervisor.md): Ubik alone, under each policy
//! and its ratio to alone, beside seed paper 004's FreeRTOS alone and beside Linux; then each
//! run by load and policy (`by_load`) and the experiment's settings (`setup`) in one line. A
//! file without the figures gets the generic table instead.

use super::html::esc;
use serde_json::Value;
use std::fmt::Write as _;

/// The figures, in the order of the table's columns: (key, heading).
const FIGURES: [(&str, &str); 6] = [
    ("task_switch_us_p50", "task switch p50"),
    ("task_switch_us", "task switch worst"),
    ("irq_latency_us_p50", "interrupt latency p50"),
    ("irq_latency_us", "interrupt latency worst"),
    ("wake_latency_us_p50", "wake latency p50"),
    ("wake_latency_us", "wake latency worst"),
];

fn us(v: Option<&Value>) -> String {
    match v.and_then(Value::as_f64) {
        Some(x) if x >= 100.0 => format!("{x:.0}"),
        Some(x) => format!("{x:.2}"),
        None => String::new(),
    }
}

/// The HTML table, or None when the file does not hold the experiment's figures (then the
/// generic table shows what it has).
pub fn html_table(v: &Value) -> Option<String> {
    let alone = v.get("alone")?.as_object()?;
    let policies: Vec<&str> = ["fair", "rt"]
        .into_iter()
        .filter(|p| v.get(*p).is_some_and(Value::is_object))
        .collect();
    if policies.is_empty() || alone.get("task_switch_us").is_none() {
        return None;
    }
    let mut s = String::from(
        "<p class=\"note\">Microseconds at 100 MHz; worst case over the loads and median (p50). \
         Interrupt latency: taken while the real-time tasks run (Rhealstone's, the paper's); \
         wake latency: an interrupt that finds the real-time partition idle (a partition \
         switch). The paper's figures are averages read off an oscilloscope.</p>\n\
         <table><thead><tr><th></th>",
    );
    for (_, h) in FIGURES {
        let _ = write!(s, "<th>{}</th>", esc(h));
    }
    s.push_str("<th>general-purpose partition</th></tr></thead><tbody>\n");
    let row = |s: &mut String, label: &str, figs: &Value, gp: String| {
        let _ = write!(s, "<tr><td>{}</td>", esc(label));
        for (k, _) in FIGURES {
            let _ = write!(s, "<td>{}</td>", us(figs.get(k)));
        }
        let _ = writeln!(s, "<td>{}</td></tr>", esc(&gp));
    };
    row(&mut s, "Ubik alone", &v["alone"], String::new());
    for p in &policies {
        let gp = match (
            v.pointer(&format!("/gp_throughput/{p}"))
                .and_then(Value::as_f64),
            v.pointer(&format!("/gp_cpu_share/{p}"))
                .and_then(Value::as_f64),
        ) {
            (Some(t), Some(c)) => format!("{t:.0} units/s, {:.0} % of the CPU", 100.0 * c),
            (Some(t), None) => format!("{t:.0} units/s"),
            _ => String::new(),
        };
        row(&mut s, &format!("{p} policy"), &v[*p], gp);
        if let Some(r) = v.pointer(&format!("/ratio_to_alone/{p}")) {
            let _ = write!(s, "<tr><td>{p} / alone</td>");
            for (k, _) in FIGURES {
                let cell = match r.get(k).and_then(Value::as_f64) {
                    Some(x) if x >= 100.0 => format!("{x:.0}x"),
                    Some(x) => format!("{x:.2}x"),
                    None => String::new(),
                };
                let _ = write!(s, "<td>{cell}</td>");
            }
            s.push_str("<td></td></tr>\n");
        }
    }
    if let Some(paper) = v.get("paper") {
        for (key, label) in [
            ("alone", "paper: FreeRTOS alone"),
            ("hypervisor", "paper: FreeRTOS beside Linux"),
        ] {
            if let Some(figs) = paper.get(key) {
                let _ = write!(s, "<tr><td>{}</td>", esc(label));
                for (k, _) in FIGURES {
                    // The paper gives averages: they sit in the median columns.
                    let avg = k.strip_suffix("_p50").and_then(|base| figs.get(base));
                    let _ = write!(s, "<td>{}</td>", us(avg));
                }
                s.push_str("<td></td></tr>\n");
            }
        }
    }
    s.push_str("</tbody></table>\n");
    by_load_table(&mut s, v, &policies);
    setup_note(&mut s, v);
    Some(s)
}

/// Each run's figures, a row per (load, policy), the loads in the experiment file's order.
fn by_load_table(s: &mut String, v: &Value, policies: &[&str]) {
    let Some(loads) = v.get("by_load").and_then(Value::as_object) else {
        return;
    };
    s.push_str("<table><thead><tr><th>load</th><th>policy</th>");
    for (_, h) in FIGURES {
        let _ = write!(s, "<th>{}</th>", esc(h));
    }
    s.push_str(
        "<th>work units/s</th><th>CPU share</th><th>partition switches</th></tr></thead><tbody>\n",
    );
    // The file's order of loads (`setup.loads`), else the map's.
    let mut order: Vec<&str> = v
        .pointer("/setup/loads")
        .and_then(Value::as_array)
        .map(|ls| ls.iter().filter_map(|l| l.get("name")?.as_str()).collect())
        .unwrap_or_default();
    order.retain(|l| loads.contains_key(*l));
    if order.len() != loads.len() {
        order = loads.keys().map(String::as_str).collect();
    }
    for load in order {
        let runs = &loads[load];
        for p in policies {
            let Some(r) = runs.get(*p) else { continue };
            let _ = write!(s, "<tr><td>{}</td><td>{}</td>", esc(load), esc(p));
            for (k, _) in FIGURES {
                let _ = write!(s, "<td>{}</td>", us(r.get(k)));
            }
            let num = |k: &str, f: &dyn Fn(f64) -> String| {
                r.get(k).and_then(Value::as_f64).map_or_else(String::new, f)
            };
            let _ = writeln!(
                s,
                "<td>{}</td><td>{}</td><td>{}</td></tr>",
                num("gp_throughput", &|x| format!("{x:.0}")),
                num("gp_cpu_share", &|x| format!("{:.1} %", 100.0 * x)),
                num("partition_switches", &|x| format!("{x:.0}")),
            );
        }
    }
    s.push_str("</tbody></table>\n");
}

/// The experiment's settings (`setup`'s plain values) in one line.
fn setup_note(s: &mut String, v: &Value) {
    let Some(setup) = v.get("setup").and_then(Value::as_object) else {
        return;
    };
    // Tables (the loads) are in the table above.
    let table = |x: &Value| x.is_object() || x.get(0).is_some_and(Value::is_object);
    let items: Vec<String> = setup
        .iter()
        .filter(|(_, x)| !table(x))
        .map(|(k, x)| format!("{k} = {x}"))
        .collect();
    let _ = writeln!(
        s,
        "<p class=\"note\">Setup: {}.</p>",
        esc(&items.join(", "))
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_sets_each_policy_and_the_paper_beside_alone() {
        let v: Value = serde_json::from_str(
            r#"{"alone": {"task_switch_us": 5.16, "task_switch_us_p50": 0.8, "irq_latency_us": 0.59,
                          "irq_latency_us_p50": 0.58, "wake_latency_us": 0.61, "wake_latency_us_p50": 0.58},
                "fair": {"task_switch_us": 10175.7, "task_switch_us_p50": 0.87, "irq_latency_us": 10009.7,
                         "irq_latency_us_p50": 1.14, "wake_latency_us": 9987.1, "wake_latency_us_p50": 5.51},
                "rt": {"task_switch_us": 10.09, "task_switch_us_p50": 0.87, "irq_latency_us": 1.59,
                       "irq_latency_us_p50": 1.14, "wake_latency_us": 12.8, "wake_latency_us_p50": 6.86},
                "gp_throughput": {"fair": 2275.2, "rt": 2571.7}, "gp_cpu_share": {"fair": 0.48, "rt": 0.6},
                "ratio_to_alone": {"rt": {"task_switch_us": 1.96, "irq_latency_us_p50": 1.97}},
                "paper": {"alone": {"task_switch_us": 3.5, "irq_latency_us": 3.0},
                          "hypervisor": {"task_switch_us": 4000.0, "irq_latency_us": 150.0}},
                "by_load": {"heavy": {"fair": {"task_switch_us": 10174.57, "gp_throughput": 241.1,
                                               "gp_cpu_share": 0.4823, "partition_switches": 634},
                                      "rt": {"task_switch_us": 11.14}}},
                "setup": {"kind": "hypervisor", "policies": ["fair", "rt"], "rt_bursts": 150,
                          "loads": [{"name": "heavy"}]}}"#,
        )
        .unwrap();
        let t = html_table(&v).unwrap();
        assert!(
            t.contains("<td>rt policy</td><td>0.87</td><td>10.09</td><td>1.14</td><td>1.59</td>")
        );
        assert!(t.contains("<td>fair policy</td><td>0.87</td><td>10176</td>"));
        assert!(t.contains("<td>rt / alone</td><td></td><td>1.96x</td><td>1.97x</td>"));
        assert!(t.contains("2572 units/s, 60 % of the CPU"));
        assert!(
            t.contains("<td>paper: FreeRTOS beside Linux</td><td>4000</td><td></td><td>150</td>")
        );
        // Each run by load and policy, and the settings in one line, not a flattened dump.
        assert!(t.contains("<tr><td>heavy</td><td>fair</td><td></td><td>10175</td>"));
        assert!(t.contains("<td>241</td><td>48.2 %</td><td>634</td></tr>"));
        assert!(t.contains("<tr><td>heavy</td><td>rt</td><td></td><td>11.14</td>"));
        assert!(t.contains("Setup: kind = &quot;hypervisor&quot;, policies = [&quot;fair&quot;,&quot;rt&quot;], rt_bursts = 150."), "{t}");
    }

    #[test]
    fn a_file_without_the_figures_gets_the_generic_table() {
        assert!(html_table(&serde_json::json!({"alone": {}})).is_none());
        assert!(html_table(&serde_json::json!({"x": 1})).is_none());
    }
}
