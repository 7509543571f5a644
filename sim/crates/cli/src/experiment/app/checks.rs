//! What every run of an `app` experiment must give (`[expect]`), read and judged:
//!
//! ```toml
//! [expect]
//! exit = 0                              # the firmware's exit code (default 0)
//! console = ["got 3"]                   # text the console output must contain
//! console_regex = ['^got 1 ', '^got 3 '] # regular expressions, matched in order
//! [[expect.bound]]
//! figure = "latency.handoff.p99_us"     # a figure of the run (figures.rs)
//! max = 50                              # and/or min = ...
//! [[expect.when]]                       # checks for some runs only:
//! machine = "slow.toml"                 # the runs on this [sweep] machine,
//! scheduler = "edf"                     # and/or of this [sweep] scheduler
//! console = ["..."]                     # console, console_regex, bound as above
//! ```
//!
//! `console_regex` follows the `regex` crate's syntax, with `^` and `$` matching at each
//! line's start and end: each expression must match after the end of the previous one's
//! match, so a list states an order. A bound holds when the figure is at least `min` and at
//! most `max`; a run without the figure (a latency's percentiles without a pair) fails it.
//! Checks of a `[[expect.when]]` apply, with the others, to the runs it selects. A run that
//! did not stop with the expected exit code fails on that alone (its console and figures
//! are not judged). Bad checks are errors at their line and column (exit 65).

use super::figures::{forms, is_name, names, Figures};
use super::latency::Latency;
use confread::{ConfigError, Doc};
use regex::{Regex, RegexBuilder};
use serde::Deserialize;
use toml::Spanned;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawExpect {
    exit: Option<Spanned<i64>>,
    console: Option<Vec<String>>,
    console_regex: Option<Vec<Spanned<String>>>,
    bound: Option<Vec<Spanned<RawBound>>>,
    when: Option<Vec<Spanned<RawWhen>>>,
}

struct RawChecks {
    console: Option<Vec<String>>,
    console_regex: Option<Vec<Spanned<String>>>,
    bound: Option<Vec<Spanned<RawBound>>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawWhen {
    machine: Option<Spanned<String>>,
    scheduler: Option<Spanned<String>>,
    console: Option<Vec<String>>,
    console_regex: Option<Vec<Spanned<String>>>,
    bound: Option<Vec<Spanned<RawBound>>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBound {
    figure: Option<Spanned<String>>,
    min: Option<Spanned<Num>>,
    max: Option<Spanned<Num>>,
}

#[derive(Deserialize, Clone, Copy)]
#[serde(untagged)]
enum Num {
    I(i64),
    F(f64),
}

impl Num {
    fn get(self) -> f64 {
        match self {
            Num::I(i) => i as f64,
            Num::F(f) => f,
        }
    }
}

/// A bound on a figure of each run.
#[derive(Clone, Debug)]
pub struct Bound {
    pub figure: String,
    pub min: Option<f64>,
    pub max: Option<f64>,
}

/// A set of checks.
#[derive(Clone, Debug, Default)]
pub struct Checks {
    pub console: Vec<String>,
    pub console_regex: Vec<Regex>,
    pub bounds: Vec<Bound>,
}

/// Checks for the runs of one machine and/or scheduler.
#[derive(Clone, Debug)]
pub struct When {
    pub machine: Option<String>,
    pub scheduler: Option<String>,
    pub checks: Checks,
}

/// `[expect]`, read.
#[derive(Clone, Debug, Default)]
pub struct Expect {
    pub exit: u8,
    pub all: Checks,
    pub when: Vec<When>,
}

/// What the checks may refer to: the experiment's latencies (figures), its `[sweep] machine`
/// names and its `[sweep] scheduler` values (none without the axis).
pub struct Context<'a> {
    pub latencies: &'a [Latency],
    pub machines: Vec<&'a str>,
    pub schedulers: Vec<&'a str>,
}

/// Reads `[expect]` (absent: exit 0 and no checks).
pub fn read(src: &Doc, raw: Option<RawExpect>, cx: &Context) -> Result<Expect, ConfigError> {
    let Some(raw) = raw else {
        return Ok(Expect::default());
    };
    let exit = match &raw.exit {
        Some(x) if (0..=63).contains(x.get_ref()) => *x.get_ref() as u8,
        Some(x) => {
            return Err(src.err(
                &x.span(),
                format!("exit = {} is not a firmware's exit code", x.get_ref()),
                "0 to 63",
            ))
        }
        None => 0,
    };
    let checks = RawChecks {
        console: raw.console,
        console_regex: raw.console_regex,
        bound: raw.bound,
    };
    let all = read_checks(src, checks, cx)?;
    let mut when = Vec::new();
    for w in raw.when.unwrap_or_default() {
        when.push(read_when(src, w, cx)?);
    }
    Ok(Expect { exit, all, when })
}

fn read_when(src: &Doc, w: Spanned<RawWhen>, cx: &Context) -> Result<When, ConfigError> {
    let span = w.span();
    let w = w.into_inner();
    if w.machine.is_none() && w.scheduler.is_none() {
        return Err(src.err(
            &span,
            "an [[expect.when]] that selects no runs",
            "machine = \"...\" and/or scheduler = \"...\" (a [sweep] value)",
        ));
    }
    let pick = |v: &Option<Spanned<String>>, known: &[&str], key: &str| match v {
        None => Ok(None),
        Some(s) if known.contains(&s.get_ref().as_str()) => Ok(Some(s.get_ref().clone())),
        Some(s) if known.is_empty() => Err(src.err(
            &s.span(),
            format!(
                "{key} {:?}: the experiment has no [sweep] {key} axis",
                s.get_ref()
            ),
            format!("[sweep] {key} = [...] naming it, or no {key} here"),
        )),
        Some(s) => Err(src.err(
            &s.span(),
            format!("{key} {:?} is not one of the experiment's", s.get_ref()),
            format!("one of the [sweep] {key} values: {}", known.join(", ")),
        )),
    };
    Ok(When {
        machine: pick(&w.machine, &cx.machines, "machine")?,
        scheduler: pick(&w.scheduler, &cx.schedulers, "scheduler")?,
        checks: read_checks(
            src,
            RawChecks {
                console: w.console,
                console_regex: w.console_regex,
                bound: w.bound,
            },
            cx,
        )?,
    })
}

/// The message of a regex syntax error, on one line.
fn regex_reason(e: &regex::Error) -> String {
    let s = e.to_string();
    s.lines()
        .rev()
        .find_map(|l| l.trim().strip_prefix("error: "))
        .unwrap_or_else(|| s.lines().next().unwrap_or(""))
        .to_string()
}

fn read_checks(src: &Doc, raw: RawChecks, cx: &Context) -> Result<Checks, ConfigError> {
    let mut console_regex = Vec::new();
    for r in raw.console_regex.unwrap_or_default() {
        let re = RegexBuilder::new(r.get_ref())
            .multi_line(true)
            .build()
            .map_err(|e| {
                src.err(
                    &r.span(),
                    format!(
                        "console_regex {:?} is not a regular expression: {}",
                        r.get_ref(),
                        regex_reason(&e)
                    ),
                    "a regular expression of the regex crate's syntax (docs/experiments.md)",
                )
            })?;
        console_regex.push(re);
    }
    let known = names(cx.latencies);
    let mut bounds = Vec::new();
    for b in raw.bound.unwrap_or_default() {
        bounds.push(read_bound(src, b, &known, cx)?);
    }
    Ok(Checks {
        console: raw.console.unwrap_or_default(),
        console_regex,
        bounds,
    })
}

fn read_bound(
    src: &Doc,
    b: Spanned<RawBound>,
    known: &[String],
    cx: &Context,
) -> Result<Bound, ConfigError> {
    let span = b.span();
    let b = b.into_inner();
    let Some(figure) = b.figure else {
        return Err(src.err(
            &span,
            "an [[expect.bound]] without `figure`",
            "figure = \"NAME\" (docs/experiments.md lists the figures)",
        ));
    };
    if !is_name(known, figure.get_ref()) {
        return Err(src.err(
            &figure.span(),
            format!(
                "figure {:?} is not a figure of this experiment",
                figure.get_ref()
            ),
            forms(cx.latencies),
        ));
    }
    let num = |v: &Option<Spanned<Num>>, key: &str| -> Result<Option<f64>, ConfigError> {
        match v {
            Some(n) if n.get_ref().get().is_finite() => Ok(Some(n.get_ref().get())),
            Some(n) => Err(src.err(
                &n.span(),
                format!("{key} is not a finite number"),
                "a number",
            )),
            None => Ok(None),
        }
    };
    let (min, max) = (num(&b.min, "min")?, num(&b.max, "max")?);
    match (min, max) {
        (None, None) => Err(src.err(
            &figure.span(),
            format!(
                "the bound on {:?} has neither min nor max",
                figure.get_ref()
            ),
            "min = N and/or max = N",
        )),
        (Some(lo), Some(hi)) if lo > hi => Err(src.err(
            &b.min.as_ref().map_or(span.clone(), |m| m.span()),
            format!(
                "the bound on {:?} has min = {lo} above max = {hi}",
                figure.get_ref()
            ),
            "min <= max",
        )),
        _ => Ok(Bound {
            figure: figure.into_inner(),
            min,
            max,
        }),
    }
}

impl Checks {
    /// The checks `console` (a run's console output) and `figures` fail, each a message.
    fn judge(&self, console: &str, figures: &Figures, out: &mut Vec<String>) {
        for missing in self
            .console
            .iter()
            .filter(|l| !console.contains(l.as_str()))
        {
            out.push(format!("the console output lacks {missing:?}"));
        }
        let mut at = 0;
        for re in &self.console_regex {
            match re.find_at(console, at) {
                Some(m) => at = m.end(),
                None if at == 0 => {
                    out.push(format!("the console output has no match of /{re}/"));
                    break;
                }
                None => {
                    let line = console[..at].matches('\n').count() + 1;
                    out.push(format!(
                        "the console output has no match of /{re}/ after the previous one (line {line})"
                    ));
                    break;
                }
            }
        }
        for b in &self.bounds {
            match figures.get(&b.figure) {
                None => out.push(format!("{}: no value in this run", b.figure)),
                Some(v) if b.min.is_some_and(|lo| v < lo) => out.push(format!(
                    "{} = {v}, below the bound min = {}",
                    b.figure,
                    b.min.unwrap_or_default()
                )),
                Some(v) if b.max.is_some_and(|hi| v > hi) => out.push(format!(
                    "{} = {v}, above the bound max = {}",
                    b.figure,
                    b.max.unwrap_or_default()
                )),
                Some(_) => {}
            }
        }
    }
}

impl Expect {
    /// Every check that a run on `machine` (as `[sweep] machine` writes it) of a build with
    /// `scheduler` fails, given its console output and figures, in the file's order.
    pub fn judge(
        &self,
        machine: &str,
        scheduler: Option<&str>,
        console: &str,
        figures: &Figures,
    ) -> Vec<String> {
        let mut out = Vec::new();
        self.all.judge(console, figures, &mut out);
        for w in &self.when {
            let m_ok = w.machine.as_deref().is_none_or(|m| m == machine);
            let s_ok = w.scheduler.is_none() || w.scheduler.as_deref() == scheduler;
            if m_ok && s_ok {
                w.checks.judge(console, figures, &mut out);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::app::latency::example;

    fn lat() -> Vec<Latency> {
        vec![example("h")]
    }

    fn read_text(text: &str) -> Result<Expect, String> {
        #[derive(Deserialize)]
        struct F {
            expect: Option<RawExpect>,
        }
        let doc = Doc::text_only("e.toml", text);
        let f: F = doc.parse().map_err(|e| e.to_string())?;
        let l = lat();
        let cx = Context {
            latencies: &l,
            machines: vec!["default", "slow.toml"],
            schedulers: vec!["prio", "edf"],
        };
        read(&doc, f.expect, &cx).map_err(|e| e.to_string())
    }

    #[test]
    fn checks_are_judged_in_order_and_per_machine_or_scheduler() {
        let e = read_text(
            "[expect]\nconsole = [\"got 1\"]\nconsole_regex = ['^got 1 ', '^got 3 ', '^got 2 ']\n\
             [[expect.bound]]\nfigure = \"latency.h.p99_us\"\nmax = 10\n\
             [[expect.when]]\nmachine = \"slow.toml\"\nconsole = [\"slow\"]\n\
             [[expect.when]]\nscheduler = \"edf\"\n[[expect.when.bound]]\nfigure = \"cycles\"\nmin = 2000\n",
        )
        .unwrap();
        let console = "got 1 at 10\ngot 2 at 20\ngot 3 at 30\n";
        let mut f = Figures::of_run(1000, 0.1, None);
        f.0.insert("latency.h.p99_us".into(), 12.5);
        let fails = e.judge("default", Some("prio"), console, &f);
        assert_eq!(
            fails,
            [
                "the console output has no match of /^got 2 / after the previous one (line 3)",
                "latency.h.p99_us = 12.5, above the bound max = 10",
            ]
        );
        let fails = e.judge("slow.toml", Some("edf"), console, &Figures::default());
        assert_eq!(fails.len(), 4, "{fails:?}");
        assert_eq!(fails[1], "latency.h.p99_us: no value in this run");
        assert_eq!(fails[2], "the console output lacks \"slow\"");
        assert_eq!(fails[3], "cycles: no value in this run");
        // In order: 1, then 2 after it.
        let e = read_text("[expect]\nconsole_regex = ['got \\d', 'got 2']\n").unwrap();
        assert!(e.judge("default", None, console, &f).is_empty());
        let e = read_text("[expect]\nconsole_regex = ['got 9']\n").unwrap();
        assert_eq!(
            e.judge("default", None, console, &f),
            ["the console output has no match of /got 9/"]
        );
    }

    #[test]
    fn bad_checks_are_named_where_they_are() {
        for (text, want) in [
            (
                "[expect]\nconsole_regex = ['got (']\n",
                "e.toml:2:18: console_regex \"got (\" is not a regular expression: unclosed group",
            ),
            (
                "[[expect.bound]]\nfigure = \"latency.x.p99_us\"\nmax = 1\n",
                "e.toml:2:10: figure \"latency.x.p99_us\" is not a figure of this experiment; expected cycles, sim_time_s, energy_j, or latency.NAME.FIGURE with NAME one of h",
            ),
            (
                "[[expect.bound]]\nfigure = \"cycles\"\n",
                "e.toml:2:10: the bound on \"cycles\" has neither min nor max",
            ),
            (
                "[[expect.bound]]\nfigure = \"cycles\"\nmin = 5\nmax = 1.5\n",
                "e.toml:3:7: the bound on \"cycles\" has min = 5 above max = 1.5",
            ),
            (
                "[[expect.bound]]\nfigure = \"cycles\"\nmax = \"big\"\n",
                "e.toml:3:7",
            ),
            (
                "[[expect.when]]\nmachine = \"fast.toml\"\n",
                "e.toml:2:11: machine \"fast.toml\" is not one of the experiment's; expected one of the [sweep] machine values: default, slow.toml",
            ),
            ("[[expect.when]]\nconsole = [\"x\"]\n", "an [[expect.when]] that selects no runs"),
            ("[[expect.when]]\nscheduler = \"prio\"\nexit = 1\n", "e.toml:3:1: unknown key `exit`"),
            ("[expect]\nexit = 64\n", "e.toml:2:8: exit = 64 is not a firmware's exit code"),
        ] {
            let e = read_text(text).unwrap_err();
            assert!(e.starts_with(want) || e.contains(want), "{text:?}: {e}");
        }
    }
}
