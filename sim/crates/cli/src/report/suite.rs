//! The OS-overhead suite's result files in the report (`make bench`: `threadmetric.json`,
//! `rhealstone.json`, `overhead.json`), OS beside OS. Each is a two-level map of numbers,
//! `{"OS-SCHED": {"metric": number}}`; the report shows it as a table (one row per OS and
//! scheduler, one column per metric) and as a grouped bar chart (one group per metric, one
//! bar per row, each group scaled to its own largest value, since metrics differ by orders of
//! magnitude). A metric a row does not have (a scenario that does not apply) is an empty
//! cell and no bar.

use serde_json::Value;
use std::fmt::Write as _;

/// The files of the suite, and what their figures are (the chart's caption).
pub const SUITE_FILES: [(&str, &str); 3] = [
    (
        "threadmetric.json",
        "Thread-Metric: cycles per count (lower is better)",
    ),
    (
        "rhealstone.json",
        "Rhealstone from GPIO edges: cycles per path, mean (lower is better)",
    ),
    (
        "overhead.json",
        "OS overhead on MiBench-like programs (bare metal, NOS, Ubik)",
    ),
];

/// A suite file as rows x metrics.
#[derive(Debug, PartialEq)]
pub struct SuiteTable {
    pub rows: Vec<String>,
    /// In order of first appearance over the rows.
    pub metrics: Vec<String>,
    /// `cells[row][metric]`.
    pub cells: Vec<Vec<Option<f64>>>,
}

/// What a suite file's figures are, if `name` is one.
pub fn caption(name: &str) -> Option<&'static str> {
    SUITE_FILES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, c)| *c)
}

/// `v` as a suite table, or what is wrong with it (for an error naming the file).
pub fn parse(v: &Value) -> Result<SuiteTable, String> {
    const EXPECTED: &str = "expected {\"OS-SCHED\": {\"metric\": number, ...}, ...}";
    let top = v
        .as_object()
        .ok_or_else(|| format!("the top level is not an object; {EXPECTED}"))?;
    if top.is_empty() {
        return Err(format!("no rows; {EXPECTED}"));
    }
    let mut metrics: Vec<String> = Vec::new();
    for (row, m) in top {
        let m = m
            .as_object()
            .ok_or_else(|| format!("row \"{row}\" is not an object; {EXPECTED}"))?;
        for (k, x) in m {
            if !x.is_number() {
                return Err(format!(
                    "\"{row}\".\"{k}\" is {x}, not a number; {EXPECTED}"
                ));
            }
            if !metrics.contains(k) {
                metrics.push(k.clone());
            }
        }
    }
    let rows: Vec<String> = top.keys().cloned().collect();
    let cells = rows
        .iter()
        .map(|r| {
            metrics
                .iter()
                .map(|k| top[r].get(k).and_then(Value::as_f64))
                .collect()
        })
        .collect();
    Ok(SuiteTable {
        rows,
        metrics,
        cells,
    })
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A figure as shown: integers without decimals, the rest with up to 3 significant decimals.
fn shown(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{x:.0}")
    } else if x.abs() >= 100.0 {
        format!("{x:.1}")
    } else {
        format!("{x:.3}")
    }
}

/// The table: one row per OS and scheduler, one column per metric.
pub fn html_table(t: &SuiteTable) -> String {
    let mut s = String::from("<table><thead><tr><th>OS-scheduler</th>");
    for m in &t.metrics {
        let _ = write!(s, "<th>{}</th>", esc(m));
    }
    s.push_str("</tr></thead><tbody>\n");
    for (r, row) in t.rows.iter().enumerate() {
        let _ = write!(s, "<tr><td>{}</td>", esc(row));
        for c in &t.cells[r] {
            match c {
                Some(x) => {
                    let _ = write!(s, "<td>{}</td>", shown(*x));
                }
                None => s.push_str("<td>–</td>"),
            }
        }
        s.push_str("</tr>\n");
    }
    s.push_str("</tbody></table>\n");
    s
}

/// The metrics charted: all but the `_min`/`_max` companions of a mean (they stay in the table).
fn charted(t: &SuiteTable) -> Vec<usize> {
    (0..t.metrics.len())
        .filter(|&i| {
            let m = &t.metrics[i];
            !(m.ends_with("_min") || m.ends_with("_max"))
        })
        .collect()
}

const COLOURS: [&str; 10] = [
    "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7",
    "#9c755f", "#bab0ac",
];

/// The grouped bar chart (inline SVG): per metric, one bar per row, scaled to the group's
/// largest absolute value, labelled with its value; a legend of the rows.
pub fn bar_chart(t: &SuiteTable, title: &str) -> String {
    const BAR: f64 = 12.0;
    const GAP: f64 = 14.0;
    const PLOT_H: f64 = 160.0;
    const TOP: f64 = 90.0; // room for the title and the tallest bar's rotated value
    const LEFT: f64 = 20.0;
    let groups = charted(t);
    let nrows = t.rows.len() as f64;
    let group_w = nrows * BAR + GAP;
    let width = LEFT * 2.0 + group_w * groups.len() as f64;
    let legend_h = 18.0 * t.rows.len().div_ceil(4) as f64;
    let height = TOP + PLOT_H + 70.0 + legend_h;
    let base = TOP + PLOT_H;
    let mut s = String::new();
    let _ = write!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" \
         viewBox=\"0 0 {width:.0} {height:.0}\" font-family=\"sans-serif\" font-size=\"9\">\
         <text x=\"{LEFT}\" y=\"16\" font-size=\"12\">{}</text>\
         <text x=\"{LEFT}\" y=\"30\" fill=\"#666\">each group scaled to its own largest value</text>\
         <line x1=\"{LEFT}\" y1=\"{base}\" x2=\"{:.0}\" y2=\"{base}\" stroke=\"#444\"/>",
        esc(title),
        width - LEFT
    );
    for (g, &mi) in groups.iter().enumerate() {
        let x0 = LEFT + GAP / 2.0 + g as f64 * group_w;
        let top = (0..t.rows.len())
            .filter_map(|r| t.cells[r][mi])
            .fold(0.0_f64, |a, x| a.max(x.abs()));
        for r in 0..t.rows.len() {
            let Some(x) = t.cells[r][mi] else { continue };
            let h = if top > 0.0 {
                PLOT_H * x.abs() / top
            } else {
                0.0
            };
            let bx = x0 + r as f64 * BAR;
            let _ = write!(
                s,
                "<rect x=\"{bx:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{h:.1}\" fill=\"{}\">\
                 <title>{}: {}</title></rect>\
                 <text x=\"{:.1}\" y=\"{:.1}\" transform=\"rotate(-90 {:.1} {:.1})\" font-size=\"8\">{}</text>",
                base - h,
                BAR - 1.0,
                COLOURS[r % COLOURS.len()],
                esc(&t.rows[r]),
                shown(x),
                bx + BAR / 2.0 + 3.0,
                base - h - 2.0,
                bx + BAR / 2.0 + 3.0,
                base - h - 2.0,
                shown(x)
            );
        }
        let _ = write!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" transform=\"rotate(30 {:.1} {:.1})\">{}</text>",
            x0,
            base + 12.0,
            x0,
            base + 12.0,
            esc(&t.metrics[mi])
        );
    }
    for (r, row) in t.rows.iter().enumerate() {
        let lx = LEFT + (r % 4) as f64 * 150.0;
        let ly = base + 66.0 + (r / 4) as f64 * 18.0;
        let _ = write!(
            s,
            "<rect x=\"{lx:.0}\" y=\"{:.0}\" width=\"10\" height=\"10\" fill=\"{}\"/>\
             <text x=\"{:.0}\" y=\"{:.0}\">{}</text>",
            ly - 9.0,
            COLOURS[r % COLOURS.len()],
            lx + 14.0,
            ly,
            esc(row)
        );
    }
    s.push_str("</svg>");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn table() -> SuiteTable {
        parse(&json!({
            "ubik-prio": {"cooperative": 162, "message": 270},
            "nos-np": {"cooperative": 198},
            "freertos-prio": {"cooperative": 237, "message": 384.5}
        }))
        .unwrap()
    }

    #[test]
    fn rows_metrics_and_missing_cells() {
        let t = table();
        assert_eq!(t.rows, ["freertos-prio", "nos-np", "ubik-prio"]); // serde_json sorts keys
        assert_eq!(t.metrics, ["cooperative", "message"]);
        assert_eq!(t.cells[1], [Some(198.0), None]);
        assert_eq!(t.cells[0][1], Some(384.5));
    }

    #[test]
    fn table_shows_every_row_and_a_dash_for_what_does_not_apply() {
        let h = html_table(&table());
        assert_eq!(h.matches("<tr><td>").count(), 3);
        assert!(h.contains("<td>nos-np</td><td>198</td><td>–</td>"));
        assert!(h.contains("<td>384.5</td>"));
    }

    #[test]
    fn chart_has_one_bar_per_value_scaled_per_group() {
        let svg = bar_chart(&table(), "t");
        assert_eq!(svg.matches("<rect x=").count(), 5 + 3); // 5 values, 3 legend swatches
                                                            // the largest of each group is full height (160)
        assert_eq!(svg.matches("height=\"160.0\"").count(), 2);
        assert!(svg.contains("<title>nos-np: 198</title>"));
    }

    #[test]
    fn min_and_max_stay_out_of_the_chart() {
        let t = parse(
            &json!({"ubik-prio": {"task_switch": 165, "task_switch_min": 160,
                                            "task_switch_max": 300}}),
        )
        .unwrap();
        assert_eq!(t.metrics.len(), 3);
        let svg = bar_chart(&t, "t");
        assert_eq!(svg.matches("<rect x=").count(), 1 + 1);
        assert!(html_table(&t).contains("<th>task_switch_max</th>"));
    }

    #[test]
    fn malformed_files_say_what_was_expected() {
        for (v, what) in [
            (json!([1, 2]), "the top level is not an object"),
            (json!({}), "no rows"),
            (
                json!({"ubik-prio": 3}),
                "row \"ubik-prio\" is not an object",
            ),
            (
                json!({"ubik-prio": {"basic": "fast"}}),
                "\"ubik-prio\".\"basic\" is \"fast\", not a number",
            ),
        ] {
            let e = parse(&v).unwrap_err();
            assert!(e.starts_with(what), "{e}");
            assert!(e.contains("expected {\"OS-SCHED\""), "{e}");
        }
    }
}
