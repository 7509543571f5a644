//! Thread-Metric's figures from its runs' console output, and the suite's self-checks, as
//! pure functions. Each run ends with its scenario's summary line, a tagged sample
//!
//! ```text
//! tm SCENARIO count=N cycles=C cpc=X [interrupts=I]
//! ```
//!
//! whose figure is cycles per count, `C / N` rounded to an integer (ties to even). Checks:
//!
//! - units: the interrupt scenarios must say how many interrupts they counted and count
//!   exactly one per interrupt, as Thread-Metric does (issue 28, item 30);
//! - basic processing measures the machine, not the OS, so its figure must agree across every
//!   row within 1 % of the smallest -- or, in a window too short for that, within what
//!   counting whole passes allows: two passes of the row with the fewest (a quick run counts
//!   about 30, so 6.7 %). The line says which tolerance applied and why, with the rows'
//!   actual spread.

use crate::experiment::measure::console::{self, Record};
use std::collections::BTreeMap;

/// Thread-Metric counts one per interrupt in these scenarios (the handler's count).
pub const PER_INTERRUPT: [&str; 2] = ["interrupt", "interrupt_preemption"];
/// The suite's tolerance for basic processing across rows.
pub const BASIC_TOLERANCE: f64 = 0.01;

/// One run's summary line, read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    pub count: u64,
    pub cycles: u64,
    pub interrupts: Option<u64>,
    /// The line as printed, without `tm `.
    pub text: String,
}

/// The last summary line of `scenario` in a console output with a count above zero; `None`
/// when there is none.
pub fn summary(text: &str, scenario: &str) -> Option<Summary> {
    let c = console::parse(text, &["tm"]);
    let r: &Record = c.samples("tm", scenario).last()?;
    let count = r.field_u64("count").filter(|&n| n > 0)?;
    let cycles = r.field_u64("cycles")?;
    r.field_u64("cpc")?;
    let line = text.lines().nth(r.line - 1).unwrap_or("").trim();
    Some(Summary {
        count,
        cycles,
        interrupts: r.field_u64("interrupts"),
        text: line.trim_start_matches("tm ").to_string(),
    })
}

/// Cycles per count: `cycles / count`, rounded to the nearest integer, ties to even.
pub fn cpc(count: u64, cycles: u64) -> u64 {
    (cycles as f64 / count as f64).round_ties_even() as u64
}

/// `None` if `s` counts in Thread-Metric's unit for `scenario`, else why not.
pub fn unit_mismatch(scenario: &str, s: &Summary) -> Option<String> {
    if !PER_INTERRUPT.contains(&scenario) {
        return None;
    }
    match s.interrupts {
        None => Some(
            "the summary line does not say how many interrupts its count covers \
             (interrupts=N); expected it in the interrupt scenarios"
                .into(),
        ),
        Some(i) if i != s.count => Some(format!(
            "counts {} for {i} interrupts; expected one count per interrupt, Thread-Metric's \
             unit, so that the figure stands beside its published ones",
            s.count
        )),
        Some(_) => None,
    }
}

/// The figures: row -> key -> cycles per count.
pub type Table = BTreeMap<String, BTreeMap<String, u64>>;

/// What the basic-processing check found.
#[derive(Clone, Debug, PartialEq)]
pub struct BasicCheck {
    /// Why the rows disagree; `None` when they agree.
    pub failed: Option<String>,
    /// The rows with a basic figure.
    pub rows: usize,
    /// The largest over the smallest, minus one.
    pub spread: f64,
    /// Which tolerance applied, and why (for the messages).
    pub which: String,
}

/// A fraction as a percentage with `digits` decimals (`0.067` -> `6.7%`).
fn pct(x: f64, digits: usize) -> String {
    format!("{:.digits$}%", x * 100.0)
}

/// The tolerance for rows whose fewest basic passes is `fewest`, and what it is and why.
fn tolerance(fewest: u64) -> (f64, String) {
    let t = BASIC_TOLERANCE.max(2.0 / fewest as f64);
    if t <= BASIC_TOLERANCE {
        return (
            t,
            format!("the suite's {} tolerance", pct(BASIC_TOLERANCE, 0)),
        );
    }
    (
        t,
        format!(
            "a tolerance of {}, not the {} of a full run: the windows are short (the row with \
             the fewest counted {fewest} passes) and counting whole passes allows two of them",
            pct(t, 1),
            pct(BASIC_TOLERANCE, 0)
        ),
    )
}

/// Checks that every row's basic figure lies within the tolerance of the smallest; `counts`
/// holds each row's basic pass count.
pub fn basic_check(table: &Table, counts: &BTreeMap<String, u64>) -> BasicCheck {
    let basic: BTreeMap<&str, u64> = table
        .iter()
        .filter_map(|(row, keys)| Some((row.as_str(), *keys.get("basic")?)))
        .collect();
    if basic.len() < 2 {
        return BasicCheck {
            failed: None,
            rows: basic.len(),
            spread: 0.0,
            which: format!("the suite's {} tolerance", pct(BASIC_TOLERANCE, 0)),
        };
    }
    let lo = *basic.values().min().unwrap_or(&1) as f64;
    let hi = *basic.values().max().unwrap_or(&1) as f64;
    let spread = hi / lo - 1.0;
    let fewest = basic
        .keys()
        .map(|r| counts.get(*r).copied().unwrap_or(1))
        .min()
        .unwrap_or(1);
    let (t, which) = tolerance(fewest);
    let far = basic.values().any(|&v| v as f64 > lo * (1.0 + t));
    let failed = far.then(|| {
        let rows: Vec<String> = basic.iter().map(|(r, v)| format!("{r} {v}")).collect();
        format!(
            "basic processing disagrees across OSes by {}, more than {which} (cycles per \
             count: {}): it measures the machine, so a row that differs runs another workload \
             or loses cycles to its OS",
            pct(spread, 1),
            rows.join(", ")
        )
    });
    BasicCheck {
        failed,
        rows: basic.len(),
        spread,
        which,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table and basic counts of rows each with (count, cycles) of basic processing.
    fn check(rows: &[(&str, u64, u64)]) -> BasicCheck {
        let mut table = Table::new();
        let mut counts = BTreeMap::new();
        for &(row, count, cycles) in rows {
            table
                .entry(row.into())
                .or_default()
                .insert("basic".into(), cpc(count, cycles));
            counts.insert(row.to_string(), count);
        }
        basic_check(&table, &counts)
    }

    #[test]
    fn rows_within_one_percent_pass_and_say_so() {
        let c = check(&[
            ("ubik-prio", 1000, 16_400_000),
            ("nos-np", 1000, 16_441_000),
        ]);
        assert_eq!(c.failed, None);
        assert_eq!(pct(c.spread, 1), "0.2%");
        assert_eq!(c.which, "the suite's 1% tolerance");
        assert_eq!(c.rows, 2);
        assert_eq!(
            check(&[("a", 1000, 16_400_000), ("b", 1000, 16_500_000)]).failed,
            None
        );
    }

    #[test]
    fn rows_apart_fail_naming_them() {
        let c = check(&[
            ("ubik-prio", 1000, 16_000_000),
            ("nos-np", 1000, 17_000_000),
        ]);
        let why = c.failed.unwrap();
        assert!(why.contains("nos-np 17000"), "{why}");
        assert!(why.contains("ubik-prio 16000"), "{why}");
        assert!(
            why.contains("by 6.2%, more than the suite's 1% tolerance"),
            "{why}"
        );
    }

    #[test]
    fn short_windows_allow_two_passes_and_say_why() {
        // 30 passes: two passes are 6.7 %, so 5 % apart still passes.
        let c = check(&[("a-x", 30, 30 * 16000), ("b-y", 30, 30 * 16800)]);
        assert_eq!(c.failed, None);
        assert_eq!(pct(c.spread, 1), "5.0%");
        assert!(
            c.which
                .starts_with("a tolerance of 6.7%, not the 1% of a full run"),
            "{}",
            c.which
        );
        assert!(c.which.contains("counted 30 passes"), "{}", c.which);
        let c = check(&[("a-x", 30, 30 * 16000), ("b-y", 30, 30 * 17600)]);
        let why = c.failed.unwrap();
        assert!(
            why.contains("by 10.0%, more than a tolerance of 6.7%, not the 1% of a full run"),
            "{why}"
        );
    }

    #[test]
    fn one_row_has_nothing_to_disagree_with() {
        let c = check(&[("ubik-prio", 10, 100)]);
        assert_eq!((c.failed, c.rows), (None, 1));
    }

    #[test]
    fn interrupt_scenarios_count_one_per_interrupt() {
        let s = |line: &str, name: &str| summary(line, name).unwrap();
        let ok = s(
            "tm interrupt_preemption count=100 cycles=76800 cpc=768 interrupts=100\n",
            "interrupt_preemption",
        );
        assert_eq!(unit_mismatch("interrupt_preemption", &ok), None);
        // The suite's first cut: the low and the high task both counted, two per interrupt.
        let two = s(
            "tm interrupt_preemption count=200 cycles=76800 cpc=384 interrupts=100\n",
            "interrupt_preemption",
        );
        let why = unit_mismatch("interrupt_preemption", &two).unwrap();
        assert!(why.starts_with("counts 200 for 100 interrupts"), "{why}");
        let silent = s("tm interrupt count=200 cycles=76800 cpc=384\n", "interrupt");
        let why = unit_mismatch("interrupt", &silent).unwrap();
        assert!(why.contains("does not say how many interrupts"), "{why}");
        let basic = s("tm basic count=2 cycles=10 cpc=5\n", "basic");
        assert_eq!(unit_mismatch("basic", &basic), None);
    }

    #[test]
    fn the_summary_is_the_last_line_with_a_count() {
        let text = "booting\ntm basic count=3 cycles=300 cpc=100\n\
                    tm basic count=7 cycles=1001 cpc=143\nbye\n";
        let s = summary(text, "basic").unwrap();
        assert_eq!((s.count, s.cycles, s.interrupts), (7, 1001, None));
        assert_eq!(s.text, "basic count=7 cycles=1001 cpc=143");
        assert_eq!(summary(text, "message"), None);
        assert_eq!(summary("tm basic count=0 cycles=5 cpc=0\n", "basic"), None);
        assert_eq!(summary("tm basic FAIL no semaphore\n", "basic"), None);
    }

    #[test]
    fn cycles_per_count_round_to_even_as_before() {
        assert_eq!(cpc(2, 5), 2); // 2.5
        assert_eq!(cpc(2, 7), 4); // 3.5
        assert_eq!(cpc(1387, 19_984_769), 14409);
    }
}
