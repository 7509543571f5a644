//! An `app` experiment's latency pairs: `[[latency]]` tables naming a start event and an end
//! event of the IO record (measure/edges.rs: `"stimulus:0"`, `"pin:2:rise"`, `"out:1"`,
//! `"uart:rx:0x0a"`) and how to pair them, measured over every run's IO record:
//!
//! ```toml
//! [[latency]]
//! name = "handoff"        # letters, digits and '_': app.csv's columns, the figures' names
//! from = "out:0"          # the start event
//! to = "out:1"            # the end event
//! policy = "next"         # optional: next (default), first or merged (measure/edges.rs)
//! ```
//!
//! Each gives `app.csv` the columns `NAME_p50_us`, `NAME_p99_us`, `NAME_max_us` (empty
//! without a pair), `NAME_count` (the pairs) and `NAME_unpaired` (starts and ends that found
//! no partner), and the figures `latency.NAME.*` that bounds may name (figures.rs).

use crate::experiment::measure::dist::Distribution;
use crate::experiment::measure::edges::{pair, EventSel, Policy};
use confread::{ConfigError, Doc};
use machine::record::IoEvent;
use serde::Deserialize;
use toml::Spanned;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawLatency {
    name: Option<Spanned<String>>,
    from: Option<Spanned<String>>,
    to: Option<Spanned<String>>,
    policy: Option<Spanned<String>>,
}

/// One latency pair of the experiment.
#[derive(Clone, Debug, PartialEq)]
pub struct Latency {
    pub name: String,
    pub from: EventSel,
    pub to: EventSel,
    pub policy: Policy,
}

/// What one run's IO record gave for one latency pair.
#[derive(Clone, Debug, PartialEq)]
pub struct Measured {
    /// The latencies in nanoseconds; `None` without a pair.
    pub ns: Option<Distribution>,
    /// Starts and ends that found no partner.
    pub unpaired: usize,
}

impl Measured {
    pub fn count(&self) -> usize {
        self.ns.map_or(0, |d| d.count)
    }
}

/// A latency's name: it names app.csv's columns and the figures `latency.NAME.*`.
fn is_name(s: &str) -> bool {
    let mut c = s.chars();
    matches!(c.next(), Some(f) if f.is_ascii_alphabetic() || f == '_')
        && c.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// `[[latency]]`: every table's name (each once), events and policy; errors at their line
/// and column (exit 65).
pub fn read(src: &Doc, raw: Option<Vec<Spanned<RawLatency>>>) -> Result<Vec<Latency>, ConfigError> {
    let mut out: Vec<Latency> = Vec::new();
    for t in raw.unwrap_or_default() {
        let span = t.span();
        let t = t.into_inner();
        let need = |v: Option<Spanned<String>>, key: &str, what: &str| {
            v.ok_or_else(|| {
                src.err(
                    &span,
                    format!("a [[latency]] without `{key}`"),
                    format!("{key} = {what}"),
                )
            })
        };
        let name = need(t.name, "name", "\"NAME\" (letters, digits and '_')")?;
        let from = need(t.from, "from", "\"EVENT\" (the start event)")?;
        let to = need(t.to, "to", "\"EVENT\" (the end event)")?;
        if !is_name(name.get_ref()) {
            return Err(src.err(
                &name.span(),
                format!("latency name {:?} is not a name", name.get_ref()),
                "letters, digits and '_', not starting with a digit",
            ));
        }
        if out.iter().any(|l| &l.name == name.get_ref()) {
            return Err(src.err(
                &name.span(),
                format!("latency {:?} is declared twice", name.get_ref()),
                "each [[latency]] name once",
            ));
        }
        let (from_sel, to_sel) = (EventSel::read(src, &from)?, EventSel::read(src, &to)?);
        if from_sel == to_sel {
            return Err(src.err(
                &to.span(),
                format!(
                    "latency {:?}: from and to are the same event {from_sel}",
                    name.get_ref()
                ),
                "two different events: a path's start and its end",
            ));
        }
        out.push(Latency {
            name: name.into_inner(),
            from: from_sel,
            to: to_sel,
            policy: Policy::read(src, &t.policy)?,
        });
    }
    Ok(out)
}

/// Every latency pair measured over one run's IO record (in cycle order).
pub fn measure(lat: &[Latency], record: &[IoEvent]) -> Vec<Measured> {
    lat.iter()
        .map(|l| {
            let p = pair(record, &l.from, &l.to, l.policy);
            Measured {
                ns: p.ns_distribution(),
                unpaired: p.unpaired(),
            }
        })
        .collect()
}

/// app.csv's columns for the latencies (each with a leading comma).
pub fn csv_header(lat: &[Latency]) -> String {
    lat.iter()
        .map(|l| {
            let n = &l.name;
            format!(",{n}_p50_us,{n}_p99_us,{n}_max_us,{n}_count,{n}_unpaired")
        })
        .collect()
}

/// Nanoseconds as microseconds in app.csv and the figures.
pub fn us(ns: i64) -> f64 {
    ns as f64 / 1000.0
}

/// One run's cells under [`csv_header`]'s columns.
pub fn csv_cells(m: &[Measured]) -> String {
    m.iter()
        .map(|m| {
            let (p50, p99, max) = match m.ns {
                Some(d) => (
                    us(d.p50).to_string(),
                    us(d.p99).to_string(),
                    us(d.max).to_string(),
                ),
                None => Default::default(),
            };
            format!(",{p50},{p99},{max},{},{}", m.count(), m.unpaired)
        })
        .collect()
}

/// A latency pair for tests: NAME from a write to OUT[0] to one to OUT[1].
#[cfg(test)]
pub fn example(name: &str) -> Latency {
    Latency {
        name: name.into(),
        from: EventSel::parse("out:0").unwrap(),
        to: EventSel::parse("out:1").unwrap(),
        policy: Policy::Next,
    }
}

/// The latencies of one run for the table on stdout: `NAME p99 X us  ` each (`NAME none  `
/// without a pair).
pub fn summary(lat: &[Latency], m: &[Measured]) -> String {
    lat.iter()
        .zip(m)
        .map(|(l, m)| match m.ns {
            Some(d) => format!("{} p99 {} us  ", l.name, us(d.p99)),
            None => format!("{} none  ", l.name),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use machine::record::IoKind;

    fn read_text(text: &str) -> Result<Vec<Latency>, String> {
        #[derive(Deserialize)]
        struct F {
            latency: Option<Vec<Spanned<RawLatency>>>,
        }
        let doc = Doc::text_only("e.toml", text);
        let f: F = doc.parse().map_err(|e| e.to_string())?;
        read(&doc, f.latency).map_err(|e| e.to_string())
    }

    #[test]
    fn latencies_are_read_and_measured() {
        let l = read_text(
            "[[latency]]\nname = \"handoff\"\nfrom = \"out:0\"\nto = \"out:1\"\n\
             [[latency]]\nname = \"irq\"\nfrom = \"stimulus:0\"\nto = \"out:2\"\npolicy = \"first\"\n",
        )
        .unwrap();
        assert_eq!(l.len(), 2);
        assert_eq!((l[1].policy, l[0].policy), (Policy::First, Policy::Next));
        let ev = |cycle: u64, port| IoEvent {
            cycle,
            time_fs: cycle as u128 * 10_000_000,
            kind: IoKind::Out,
            port,
            value: 0,
        };
        let m = measure(
            &l,
            &[ev(100, 0), ev(150, 1), ev(200, 0), ev(400, 1), ev(500, 1)],
        );
        assert_eq!(m[0].count(), 2);
        assert_eq!(m[0].unpaired, 1);
        assert_eq!(m[0].ns.unwrap().max, 2000);
        assert_eq!(
            m[1],
            Measured {
                ns: None,
                unpaired: 0
            }
        );
        assert_eq!(
            csv_header(&l),
            ",handoff_p50_us,handoff_p99_us,handoff_max_us,handoff_count,handoff_unpaired,\
             irq_p50_us,irq_p99_us,irq_max_us,irq_count,irq_unpaired"
        );
        assert_eq!(csv_cells(&m), ",2,2,2,2,1,,,,0,0");
        assert_eq!(summary(&l, &m), "handoff p99 2 us  irq none  ");
    }

    #[test]
    fn bad_latencies_are_named_where_they_are() {
        for (text, want) in [
            (
                "[[latency]]\nname = \"a\"\nfrom = \"pin:2:up\"\nto = \"out:1\"\n",
                "e.toml:3:8: event \"pin:2:up\": the edge \"up\" is not rise or fall",
            ),
            (
                "[[latency]]\nname = \"a b\"\nfrom = \"out:0\"\nto = \"out:1\"\n",
                "e.toml:2:8: latency name \"a b\" is not a name",
            ),
            (
                "[[latency]]\nname = \"a\"\nfrom = \"out:0\"\nto = \"out:0\"\n",
                "e.toml:4:6: latency \"a\": from and to are the same event out:0",
            ),
            (
                "[[latency]]\nname = \"a\"\nto = \"out:0\"\n",
                "e.toml:1:1: a [[latency]] without `from`",
            ),
            (
                "[[latency]]\nname = \"a\"\nfrom = \"out:0\"\nto = \"out:1\"\npolicy = \"all\"\n",
                "e.toml:5:10: policy \"all\" is not a pairing policy",
            ),
            (
                "[[latency]]\nname = \"a\"\nfrom = \"out:0\"\nto = \"out:1\"\n\
                 [[latency]]\nname = \"a\"\nfrom = \"out:0\"\nto = \"out:2\"\n",
                "e.toml:6:8: latency \"a\" is declared twice",
            ),
        ] {
            let e = read_text(text).unwrap_err();
            assert!(e.starts_with(want), "{text:?}: {e}");
        }
    }
}
