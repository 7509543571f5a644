//! The summary table `ubik experiment` prints: per variant, the work done against the work
//! expected (outputs, stimuli answered), the deviation percentiles and the delays, with
//! "none" where nothing was measured and OVERLOAD where work was missed.

use super::metrics::{abs_quantile_us, quantile_us};
use super::{Experiment, Variant, VariantRow};
use std::fmt::Write as _;

fn us(x: Option<f64>) -> String {
    x.map(|x| format!("{x:.1}"))
        .unwrap_or_else(|| "none".into())
}

/// The table, one line per variant, and a legend of the columns.
pub(super) fn render(exp: &Experiment<Variant>, rows: &[VariantRow]) -> String {
    let width = rows
        .iter()
        .map(|(v, ..)| v.label().len())
        .max()
        .unwrap_or(7)
        .max(7);
    let mut t = String::new();
    let _ = writeln!(
        t,
        "{:<width$} {:>5} {:>13} {:>7} {:>24} {:>9} {:>24} {:>9}",
        "variant",
        "util%",
        "outputs",
        "ontime%",
        "|dev| p50/p99/max us",
        "unanswd",
        "delay p50/p99/max us",
        "energy mJ"
    );
    for (v, s, ..) in rows {
        let m = &s.m;
        let dev = format!(
            "{}/{}/{}",
            us(abs_quantile_us(&m.jitter_ns, 0.5)),
            us(abs_quantile_us(&m.jitter_ns, 0.99)),
            us(abs_quantile_us(&m.jitter_ns, 1.0))
        );
        let delay = format!(
            "{}/{}/{}",
            us(quantile_us(&m.delay_ns, 0.5)),
            us(quantile_us(&m.delay_ns, 0.99)),
            us(quantile_us(&m.delay_ns, 1.0))
        );
        let on_time = m
            .on_time_share()
            .map(|x| format!("{:.1}", x * 100.0))
            .unwrap_or_else(|| "none".into());
        let _ = writeln!(
            t,
            "{:<width$} {:>5.1} {:>13} {:>7} {:>24} {:>9} {:>24} {:>9.4}{}",
            v.label(),
            m.utilisation * 100.0,
            format!("{}/{}", m.outputs_produced(), m.outputs_expected()),
            on_time,
            dev,
            format!("{}/{}", m.unanswered, m.stimuli),
            delay,
            m.energy_j * 1e3,
            if m.overloaded() {
                format!(
                    "  OVERLOAD: {} task(s) short, {} stimuli unanswered",
                    m.short_tasks(),
                    m.unanswered
                )
            } else {
                String::new()
            }
        );
    }
    let _ = writeln!(
        t,
        "outputs: produced/expected; ontime%: expected outputs within +-{} % of their period; \
         |dev|: |inter-arrival - period|; unanswd: stimuli with no response/stimuli",
        exp.on_time_tolerance_pct
    );
    t
}
