//! `[[stimulus]]` of the machine file: the interrupt controller's stimulus generators as
//! written, checked into [`StimulusConfig`]s (the generators themselves are
//! `crate::stimulus`). A `times_file` is read here, eagerly, so that its errors show before
//! the run.

use std::ops::Range;

use confread::{ConfigError, Doc, Location, MAX_TIME_US};
use serde::Deserialize;
use toml::Spanned;

use super::FAST_IRQ_LINES;
use crate::stimulus::{StimulusConfig, StimulusKind};

type R<T> = Result<T, ConfigError>;

/// One `[[stimulus]]` as written: every key optional, spans kept for messages.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawStimulus {
    line: Option<Spanned<i64>>,
    kind: Option<Spanned<String>>,
    period_us: Option<Spanned<f64>>,
    start_us: Option<Spanned<f64>>,
    slot_us: Option<Spanned<f64>>,
    probability: Option<Spanned<f64>>,
    times_us: Option<Spanned<Vec<f64>>>,
    times_file: Option<Spanned<String>>,
    seed: Option<Spanned<i64>>,
}

/// `[[stimulus]]`: a generator per fast interrupt line, at most one each; `fastest` is the
/// highest clock of the operating points.
pub(crate) fn stimuli(
    doc: &Doc,
    stims: &Spanned<Vec<Spanned<RawStimulus>>>,
    fastest: u64,
) -> R<Vec<StimulusConfig>> {
    let mut out: Vec<StimulusConfig> = Vec::new();
    let mut seen: [Option<usize>; FAST_IRQ_LINES as usize] = [None; FAST_IRQ_LINES as usize];
    for s in stims.get_ref() {
        let (sc, line_span) = stimulus(doc, s, fastest)?;
        if let Some(prev) = seen[sc.line as usize] {
            return Err(doc.err(
                &line_span,
                format!(
                    "fast IRQ line {} already has a stimulus generator (line {} of this file)",
                    sc.line,
                    doc.line(prev)
                ),
                "one [[stimulus]] per line 0..14",
            ));
        }
        seen[sc.line as usize] = Some(line_span.start);
        out.push(sc);
    }
    Ok(out)
}

/// A period or slot in microseconds: a valid time, and at least one clock cycle at the
/// fastest operating point (`fastest_hz`). A line is a latched level: events closer
/// together than the core can see them only cost time; the floor keeps every run's event
/// count proportional to its cycles.
fn interval_us(doc: &Doc, v: &Spanned<f64>, key: &str, fastest_hz: u64) -> R<f64> {
    let x = doc.time_us(v, key, false)?;
    let cycle_fs = crate::clock::FS_PER_S / fastest_hz as u128;
    if crate::stimulus::us_to_fs(x) < cycle_fs {
        let min_us = 1e6 / fastest_hz as f64;
        return Err(doc.err(
            &v.span(),
            format!(
                "{key} = {x} is shorter than one clock cycle at the fastest operating point ({min_us} us at {fastest_hz} Hz)"
            ),
            format!("a time in microseconds from {min_us} (one cycle of the fastest [[opp]]) to {MAX_TIME_US:e}"),
        ));
    }
    Ok(x)
}

fn stimulus(
    doc: &Doc,
    s: &Spanned<RawStimulus>,
    fastest_hz: u64,
) -> R<(StimulusConfig, Range<usize>)> {
    let whole = s.span();
    let r = s.get_ref();
    let (line, line_span) = match &r.line {
        None => {
            return Err(doc.err(
                &whole,
                "[[stimulus]] entry without `line`",
                "line = a fast IRQ line 0..14",
            ))
        }
        Some(v) => (
            doc.int_range(
                v,
                "line",
                0,
                FAST_IRQ_LINES as i64 - 1,
                "a fast IRQ line 0..14",
            )? as u8,
            v.span(),
        ),
    };
    let (kind, kind_span) = doc.kind(
        &r.kind,
        &whole,
        "[[stimulus]]",
        "\"periodic\", \"geometric\" or \"times\"",
    )?;
    let start_us = match &r.start_us {
        None => 0.0,
        Some(v) => doc.time_us(v, "start_us", true)?,
    };
    let seed = match &r.seed {
        None => 1,
        Some(v) => {
            doc.int_range(v, "seed", 0, i64::MAX, "a seed, a non-negative integer")? as u64
        }
    };
    let kind = match kind {
        "periodic" => periodic_stimulus(doc, r, &whole, fastest_hz)?,
        "geometric" => geometric_stimulus(doc, r, &whole, fastest_hz)?,
        "times" => times_stimulus(doc, r, &whole)?,
        other => {
            return Err(doc.err(
                &kind_span,
                format!("unknown stimulus kind \"{other}\""),
                "kind = \"periodic\", \"geometric\" or \"times\"",
            ))
        }
    };
    Ok((
        StimulusConfig {
            line,
            kind,
            start_us,
            seed,
        },
        line_span,
    ))
}

/// A periodic stimulus: `period_us` (an interval the fastest clock can resolve).
fn periodic_stimulus(
    doc: &Doc,
    r: &RawStimulus,
    whole: &Range<usize>,
    fastest_hz: u64,
) -> R<StimulusKind> {
    let kind = "periodic";
    let span_of = |v: &Option<Spanned<f64>>| v.as_ref().map(|v| v.span());
    let times_span = r.times_us.as_ref().map(|v| v.span());
    let file_span = r.times_file.as_ref().map(|v| v.span());
    doc.not_for(
        &[
            ("slot_us", span_of(&r.slot_us)),
            ("probability", span_of(&r.probability)),
            ("times_us", times_span.clone()),
            ("times_file", file_span.clone()),
        ],
        kind,
        "period_us, and optionally start_us and seed",
    )?;
    let period_us = match &r.period_us {
        None => {
            return Err(doc.err(
                whole,
                "periodic [[stimulus]] without `period_us`",
                "period_us = <microseconds>",
            ))
        }
        Some(v) => interval_us(doc, v, "period_us", fastest_hz)?,
    };
    Ok(StimulusKind::Periodic { period_us })
}

/// A geometric stimulus: a chance `probability` in every slot of `slot_us`.
fn geometric_stimulus(
    doc: &Doc,
    r: &RawStimulus,
    whole: &Range<usize>,
    fastest_hz: u64,
) -> R<StimulusKind> {
    let kind = "geometric";
    let span_of = |v: &Option<Spanned<f64>>| v.as_ref().map(|v| v.span());
    let times_span = r.times_us.as_ref().map(|v| v.span());
    let file_span = r.times_file.as_ref().map(|v| v.span());
    doc.not_for(
        &[
            ("period_us", span_of(&r.period_us)),
            ("times_us", times_span.clone()),
            ("times_file", file_span.clone()),
        ],
        kind,
        "slot_us and probability, and optionally start_us and seed",
    )?;
    let slot_us = match &r.slot_us {
        None => {
            return Err(doc.err(
                whole,
                "geometric [[stimulus]] without `slot_us`",
                "slot_us = <microseconds> and probability = <0 < p <= 1>",
            ))
        }
        Some(v) => interval_us(doc, v, "slot_us", fastest_hz)?,
    };
    let probability = match &r.probability {
        None => {
            return Err(doc.err(
                whole,
                "geometric [[stimulus]] without `probability`",
                "probability = <0 < p <= 1>",
            ))
        }
        Some(v) => {
            let p = *v.get_ref();
            if !(p > 0.0 && p <= 1.0) {
                return Err(doc.err(
                    &v.span(),
                    format!("probability {p} is out of range"),
                    "0 < probability <= 1",
                ));
            }
            p
        }
    };
    Ok(StimulusKind::Geometric {
        slot_us,
        probability,
    })
}

/// A stimulus at listed times: `times_us`, or a file of them (`times_file`).
fn times_stimulus(doc: &Doc, r: &RawStimulus, whole: &Range<usize>) -> R<StimulusKind> {
    let kind = "times";
    let span_of = |v: &Option<Spanned<f64>>| v.as_ref().map(|v| v.span());
    doc.not_for(
        &[
            ("period_us", span_of(&r.period_us)),
            ("slot_us", span_of(&r.slot_us)),
            ("probability", span_of(&r.probability)),
            ("seed", r.seed.as_ref().map(|v| v.span())),
        ],
        kind,
        "times_us or times_file, and optionally start_us",
    )?;
    let times = match (&r.times_us, &r.times_file) {
        (Some(list), None) => {
            let at = |_: usize| doc.loc(list.span().start);
            check_times(list.get_ref(), "times_us", at)?;
            list.get_ref().as_slice().into()
        }
        (None, Some(f)) => load_times(doc, f)?,
        (Some(list), Some(_)) => {
            return Err(doc.err(
                &list.span(),
                "times [[stimulus]] with both `times_us` and `times_file`",
                "one of times_us = [...] or times_file = \"<file>\"",
            ))
        }
        (None, None) => {
            return Err(doc.err(
                whole,
                "times [[stimulus]] without `times_us`",
                "times_us = [<microseconds>, ...] in increasing order, or times_file = \"<file of microseconds>\"",
            ))
        }
    };
    Ok(StimulusKind::Times { times_us: times })
}

/// The times of a `times_file`: one per line (CSV: the first field), in microseconds,
/// `#` starting a comment; a first row of names (`at_us`) is a header. The times are
/// stored once, 8 bytes each, and every error names the file's own line and column.
fn load_times(doc: &Doc, f: &Spanned<String>) -> R<std::sync::Arc<[f64]>> {
    let (path, bytes) = doc.read_named_file(f, "stimulus times file")?;
    let file = path.display().to_string();
    let text = crate::textfile::utf8(
        &bytes,
        &file,
        &format!("stimulus times file `{file}`"),
        "a text file of times in microseconds, one per line",
    )?;
    let times = parse_times(text, &file)?;
    // The text is not needed any more: gone before the times are copied into place.
    drop(bytes);
    if times.is_empty() {
        return Err(doc.err(
            &f.span(),
            format!("stimulus times file `{file}` has no times"),
            "at least one time in microseconds",
        ));
    }
    Ok(times.into())
}

/// The times of a times file's `text` (of file `file`, for messages).
fn parse_times(text: &str, file: &str) -> R<Vec<f64>> {
    let at = |line: usize, column: usize| Location {
        file: file.to_string(),
        line,
        column,
    };
    let mut times = Vec::with_capacity(crate::textfile::max_rows(text));
    let mut prev = 0.0;
    for row in crate::textfile::rows(text) {
        if row.is_header() {
            continue;
        }
        let field = row.fields().next().unwrap_or("");
        let here = at(row.line, row.column(field));
        let Ok(t) = field.parse::<f64>() else {
            return Err(ConfigError::Invalid {
                at: here,
                message: format!("`{}` is not a time", shown(field)),
                expected: "a time in microseconds (the line's first field)".to_string(),
            });
        };
        let before = || format!("the one before, {prev}");
        check_time(t, prev, &format!("time {t}"), before, here)?;
        prev = t;
        times.push(t);
    }
    Ok(times)
}

/// Checks a list of event times: each in range, none before the one before. `at(i)` says
/// where time i is written.
fn check_times(times: &[f64], what: &str, at: impl Fn(usize) -> Location) -> R<()> {
    let mut prev = 0.0;
    for (i, &t) in times.iter().enumerate() {
        let name = if what == "times_us" {
            format!("times_us[{i}] = {t}")
        } else {
            format!("{what} {t}")
        };
        let before = || {
            if what == "times_us" {
                format!("times_us[{}] = {prev}", i - 1)
            } else {
                format!("the one before, {prev}")
            }
        };
        check_time(t, prev, &name, before, at(i))?;
        prev = t;
    }
    Ok(())
}

/// Checks one event time `t` (called `name`), written at `at`: in range, and not before
/// `prev`, the time before it (`before()` names it and its value).
fn check_time(t: f64, prev: f64, name: &str, before: impl Fn() -> String, at: Location) -> R<()> {
    if !(t.is_finite() && (0.0..=MAX_TIME_US).contains(&t)) {
        return Err(ConfigError::Invalid {
            at,
            message: format!("{name} is out of range"),
            expected: format!("times from 0 to {MAX_TIME_US} microseconds"),
        });
    }
    if t < prev {
        return Err(ConfigError::Invalid {
            at,
            message: format!("{name} comes before {}", before()),
            expected: "times in increasing order (equal times are one event each)".to_string(),
        });
    }
    Ok(())
}

/// At most 40 characters of a bad field, for a message.
fn shown(field: &str) -> String {
    field.chars().take(40).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::testing::{err, parse, tmpdir};
    use crate::config::MachineConfig;

    #[test]
    fn stimuli_resolve() {
        let text = r#"
[[stimulus]]
line = 3
kind = "periodic"
period_us = 250
start_us = 12.5

[[stimulus]]
line = 14
kind = "geometric"
slot_us = 100
probability = 0.01
seed = 7
"#;
        let c = parse(text).unwrap();
        assert_eq!(
            c.devices.intc.stimuli,
            vec![
                StimulusConfig {
                    line: 3,
                    kind: StimulusKind::Periodic { period_us: 250.0 },
                    start_us: 12.5,
                    seed: 1
                },
                StimulusConfig {
                    line: 14,
                    kind: StimulusKind::Geometric {
                        slot_us: 100.0,
                        probability: 0.01
                    },
                    start_us: 0.0,
                    seed: 7
                },
            ]
        );
    }

    #[test]
    fn stimulus_errors() {
        assert_eq!(
            err("[[stimulus]]\nline = 1\nkind = \"times\"\ntimes_us = [5, 3]\n"),
            "m.toml:4:12: times_us[1] = 3 comes before times_us[0] = 5; expected times in increasing order (equal times are one event each)"
        );
        assert_eq!(
            err("[[stimulus]]\nline = 1\nkind = \"times\"\ntimes_us = [-1]\n"),
            "m.toml:4:12: times_us[0] = -1 is out of range; expected times from 0 to 1000000000000000 microseconds"
        );
        assert_eq!(
            err("[[stimulus]]\nline = 1\nkind = \"times\"\n"),
            "m.toml:1:1: times [[stimulus]] without `times_us`; expected times_us = [<microseconds>, ...] in increasing order, or times_file = \"<file of microseconds>\""
        );
        assert_eq!(
            err("[[stimulus]]\nline = 1\nkind = \"periodic\"\nperiod_us = 10\ntimes_us = [1]\n"),
            "m.toml:5:12: key `times_us` does not apply to kind = \"periodic\"; expected period_us, and optionally start_us and seed"
        );
        assert_eq!(
            err("[[stimulus]]\nline = 15\nkind = \"periodic\"\nperiod_us = 10\n"),
            "m.toml:2:8: line = 15 is out of range; expected a fast IRQ line 0..14"
        );
        assert_eq!(
            err("[[stimulus]]\nline = 1\nkind = \"geometric\"\nslot_us = 10\nprobability = 1.5\n"),
            "m.toml:5:15: probability 1.5 is out of range; expected 0 < probability <= 1"
        );
        assert_eq!(
            err("[[stimulus]]\nline = 1\nkind = \"geometric\"\nslot_us = 10\nprobability = 0\n"),
            "m.toml:5:15: probability 0 is out of range; expected 0 < probability <= 1"
        );
        assert_eq!(
            err("[[stimulus]]\nline = 2\nkind = \"periodic\"\nperiod_us = 10\n\n[[stimulus]]\nline = 2\nkind = \"periodic\"\nperiod_us = 20\n"),
            "m.toml:7:8: fast IRQ line 2 already has a stimulus generator (line 2 of this file); expected one [[stimulus]] per line 0..14"
        );
        assert_eq!(
            err("[[stimulus]]\nline = 1\nkind = \"periodic\"\nperiod_us = 10\nprobability = 0.5\n"),
            "m.toml:5:15: key `probability` does not apply to kind = \"periodic\"; expected period_us, and optionally start_us and seed"
        );
        assert_eq!(
            err("[[stimulus]]\nline = 1\nkind = \"burst\"\n"),
            "m.toml:3:8: unknown stimulus kind \"burst\"; expected kind = \"periodic\", \"geometric\" or \"times\""
        );
        assert_eq!(
            err("[[stimulus]]\nline = 1\nkind = \"periodic\"\nperiod_us = 0\n"),
            "m.toml:4:13: period_us = 0 is out of range; expected a time in microseconds from 1e-9 to 1e15"
        );
        let s = err("[[stimulus]]\nkind = \"periodic\"\nperiod_us = 10\n");
        assert!(
            s.contains("[[stimulus]] entry without `line`; expected line = a fast IRQ line 0..14"),
            "{s}"
        );
    }

    #[test]
    fn stimulus_times_from_a_file() {
        let d = tmpdir("times");
        let m = |body: &str| {
            std::fs::write(d.join("t.csv"), body).unwrap();
            MachineConfig::from_str_in(
                "[[stimulus]]\nline = 3\nkind = \"times\"\ntimes_file = \"t.csv\"\n",
                "m.toml",
                &d,
            )
            .map_err(|e| e.to_string())
        };
        let c = m("time_us,label\n10,a\n# a comment\n\n10.5, b\n2000\n").unwrap();
        assert_eq!(
            c.devices.intc.stimuli[0].kind,
            StimulusKind::Times {
                times_us: vec![10.0, 10.5, 2000.0].into()
            }
        );
        let f = d.join("t.csv").display().to_string();
        assert_eq!(
            m("10\n5\n").unwrap_err(),
            format!("{f}:2:1: time 5 comes before the one before, 10; expected times in increasing order (equal times are one event each)")
        );
        assert_eq!(
            m("10\nsoon\n").unwrap_err(),
            format!("{f}:2:1: `soon` is not a time; expected a time in microseconds (the line's first field)")
        );
        assert!(m("# nothing\n").unwrap_err().contains("has no times"));
        // A header may follow a comment; a bad first row is data, not a header.
        let c = m("# from the logger\ntime_us\n7\n").unwrap();
        assert_eq!(
            c.devices.intc.stimuli[0].kind,
            StimulusKind::Times {
                times_us: vec![7.0].into()
            }
        );
        assert_eq!(
            m("10x\n20\n").unwrap_err(),
            format!("{f}:1:1: `10x` is not a time; expected a time in microseconds (the line's first field)")
        );
        assert_eq!(
            m("1\n  2e16 # far\n").unwrap_err(),
            format!("{f}:2:3: time 20000000000000000 is out of range; expected times from 0 to 1000000000000000 microseconds")
        );
        assert!(m("-3\n").unwrap_err().contains("time -3 is out of range"));
        let e = MachineConfig::from_str_in(
            "[[stimulus]]\nline = 3\nkind = \"times\"\ntimes_file = \"none.csv\"\n",
            "m.toml",
            &d,
        )
        .unwrap_err();
        assert_eq!(e.exit_code(), 66, "{e}");
        assert!(err(
            "[[stimulus]]\nline = 1\nkind = \"times\"\ntimes_us = [1]\ntimes_file = \"x\"\n"
        )
        .contains("with both `times_us` and `times_file`"));
        assert!(err(
            "[[stimulus]]\nline = 1\nkind = \"periodic\"\nperiod_us = 5\ntimes_file = \"x\"\n"
        )
        .contains("times_file"));
    }

    #[test]
    fn stimulus_periods_are_at_least_one_cycle_of_the_fastest_clock() {
        assert_eq!(
            err("[[stimulus]]\nline = 0\nkind = \"periodic\"\nperiod_us = 1e-9\n"),
            "m.toml:4:13: period_us = 0.000000001 is shorter than one clock cycle at the fastest operating point \
             (0.01 us at 100000000 Hz); expected a time in microseconds from 0.01 (one cycle of the fastest [[opp]]) to 1e15"
        );
        let s = err(
            "[[stimulus]]\nline = 1\nkind = \"geometric\"\nslot_us = 0.005\nprobability = 0.5\n",
        );
        assert!(
            s.starts_with("m.toml:4:11: slot_us = 0.005 is shorter than one clock cycle"),
            "{s}"
        );
        // One cycle exactly is fine; the floor follows the fastest point of the file's table.
        assert!(parse("[[stimulus]]\nline = 0\nkind = \"periodic\"\nperiod_us = 0.01\n").is_ok());
        let s = err("[[opp]]\nhz = 1000000\nvolts = 1\n[[stimulus]]\nline = 0\nkind = \"periodic\"\nperiod_us = 0.5\n");
        assert!(s.contains("(1 us at 1000000 Hz)"), "{s}");
        // 66 MHz: a cycle is not a whole number of femtoseconds; the floor shown is accepted.
        let text = "[[opp]]\nhz = 66000000\nvolts = 1\n[[stimulus]]\nline = 0\nkind = \"periodic\"\nperiod_us = PERIOD\n";
        assert!(parse(&text.replace("PERIOD", &(1e6 / 66e6).to_string())).is_ok());
        assert!(parse(&text.replace("PERIOD", "0.015")).is_err());
    }

}
