//! Pairs of events in a run's IO record (machine::record: every IO-port write, GPIO pin edge,
//! stimulus and UART byte, stamped with its cycle and time): a start event to an end event,
//! as an oscilloscope on two signals would measure the time between them.
//!
//! An [`EventSel`] picks events; its TOML form is a string:
//!
//! | string              | the events                                                  |
//! |---------------------|-------------------------------------------------------------|
//! | `stimulus:L`        | stimulus generator's event on fast interrupt line L         |
//! | `pin:P:rise`/`fall` | GPIO output pin P going to 1 / to 0                         |
//! | `gpio_in:P:rise`/`fall` | scripted GPIO input pin P going to 1 / to 0             |
//! | `out:N`, `out:N:V`  | a write to IO port OUT[N] (of the value V)                  |
//! | `uart:tx`, `uart:tx:B` | the UART sent a byte (the byte B)                        |
//! | `uart:rx`, `uart:rx:B` | the UART received a byte (the byte B; lost bytes too)    |
//!
//! Numbers are decimal or `0x` hexadecimal. [`pair`] walks the events in the order given (the
//! record's: by cycle) and pairs starts with ends by a [`Policy`]:
//!
//! - `next` (the default): every start still waiting when an end comes is paired with that
//!   end (starts that came while an earlier one waited share its end, as events that arrive
//!   while an interrupt line is still pending share one interrupt); an end with no start
//!   waiting is unpaired;
//! - `first`: one start at a time: a start that comes while another waits is unpaired (the
//!   path was already under way), the waiting one pairs with the next end;
//! - `merged`: `next`, and an end with no start waiting that follows an end which answered
//!   several starts answers the last of them instead (that start came after the handler had
//!   acknowledged the line, so raised it again: this end is its answer); [`Pairing::merged`]
//!   counts the starts that shared an end with an earlier one. This is the kernel
//!   benchmark's interrupt latency pairing (docs/results.md, "Kernel").
//!
//! An event that both selectors pick ends the waiting path first, then starts one.
//! Starts still waiting when the record ends are unpaired. The latencies' figures are
//! [`Distribution`]s (dist.rs: nearest rank).

use super::dist::Distribution;
use confread::{ConfigError, Doc};
use machine::record::{IoEvent, IoKind};
use std::fmt;
use toml::Spanned;

/// A GPIO pin's edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edge {
    Rise,
    Fall,
}

impl Edge {
    fn level(self) -> u32 {
        match self {
            Edge::Rise => 1,
            Edge::Fall => 0,
        }
    }
    fn name(self) -> &'static str {
        match self {
            Edge::Rise => "rise",
            Edge::Fall => "fall",
        }
    }
}

/// Which events of the IO record a path starts or ends at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventSel {
    /// A stimulus event on fast interrupt line `line`.
    Stimulus { line: u32 },
    /// An edge of GPIO output pin `pin`.
    Pin { pin: u32, edge: Edge },
    /// An edge of scripted GPIO input pin `pin`.
    PinIn { pin: u32, edge: Edge },
    /// A write to OUT[`port`] (of `value`, if given).
    Out { port: u32, value: Option<u32> },
    /// A byte the UART sent (`byte`, if given).
    UartTx { byte: Option<u8> },
    /// A byte the UART received (`byte`, if given).
    UartRx { byte: Option<u8> },
}

/// What an event selector's string may be, for error messages.
pub const EVENT_FORMS: &str = "stimulus:LINE, pin:PIN:rise|fall, gpio_in:PIN:rise|fall, out:PORT[:VALUE], uart:tx[:BYTE] or uart:rx[:BYTE]";

fn number(s: &str) -> Option<u32> {
    match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(h) => u32::from_str_radix(h, 16).ok(),
        None if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) => s.parse().ok(),
        None => None,
    }
}

impl EventSel {
    /// Does `e` belong to the selected events?
    pub fn matches(&self, e: &IoEvent) -> bool {
        match *self {
            EventSel::Stimulus { line } => e.kind == IoKind::Stimulus && e.port == line,
            EventSel::Pin { pin, edge } => {
                e.kind == IoKind::Gpio && e.port == pin && e.value == edge.level()
            }
            EventSel::PinIn { pin, edge } => {
                e.kind == IoKind::GpioIn && e.port == pin && e.value == edge.level()
            }
            EventSel::Out { port, value } => {
                e.kind == IoKind::Out && e.port == port && value.is_none_or(|v| v == e.value)
            }
            EventSel::UartTx { byte } => {
                e.kind == IoKind::UartTx && byte.is_none_or(|b| u32::from(b) == e.value)
            }
            EventSel::UartRx { byte } => {
                e.kind == IoKind::UartRx && byte.is_none_or(|b| u32::from(b) == e.value)
            }
        }
    }

    /// Reads the string form (module doc); the error says what is wrong with it.
    pub fn parse(s: &str) -> Result<EventSel, String> {
        let parts: Vec<&str> = s.split(':').collect();
        let num = |what: &str, t: &str| {
            number(t).ok_or_else(|| format!("{what} {t:?} is not a number (decimal or 0x hex)"))
        };
        let edge = |t: &str| match t {
            "rise" => Ok(Edge::Rise),
            "fall" => Ok(Edge::Fall),
            _ => Err(format!("the edge {t:?} is not rise or fall")),
        };
        let byte = |t: Option<&&str>| -> Result<Option<u8>, String> {
            match t {
                None => Ok(None),
                Some(t) => match number(t) {
                    Some(b) if b <= 255 => Ok(Some(b as u8)),
                    _ => Err(format!("the byte {t:?} is not a number from 0 to 255")),
                },
            }
        };
        match parts.as_slice() {
            ["stimulus", l] => Ok(EventSel::Stimulus {
                line: num("the line", l)?,
            }),
            ["pin", p, e] => Ok(EventSel::Pin {
                pin: num("the pin", p)?,
                edge: edge(e)?,
            }),
            ["gpio_in", p, e] => Ok(EventSel::PinIn {
                pin: num("the pin", p)?,
                edge: edge(e)?,
            }),
            ["out", p] => Ok(EventSel::Out {
                port: num("the port", p)?,
                value: None,
            }),
            ["out", p, v] => Ok(EventSel::Out {
                port: num("the port", p)?,
                value: Some(num("the value", v)?),
            }),
            ["uart", "tx", rest @ ..] if rest.len() <= 1 => Ok(EventSel::UartTx {
                byte: byte(rest.first())?,
            }),
            ["uart", "rx", rest @ ..] if rest.len() <= 1 => Ok(EventSel::UartRx {
                byte: byte(rest.first())?,
            }),
            ["pin" | "gpio_in", _] => Err("a pin's event needs its edge".into()),
            _ => Err("it is not an event".into()),
        }
    }

    /// Reads the string `s` of an experiment file (`src`); a bad one is an error at its
    /// line and column (exit 65) saying what was expected.
    pub fn read(src: &Doc, s: &Spanned<String>) -> Result<EventSel, ConfigError> {
        EventSel::parse(s.get_ref()).map_err(|why| {
            src.err(
                &s.span(),
                format!("event {:?}: {why}", s.get_ref()),
                EVENT_FORMS,
            )
        })
    }
}

impl fmt::Display for EventSel {
    /// The string form (module doc), values in decimal.
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match *self {
            EventSel::Stimulus { line } => write!(f, "stimulus:{line}"),
            EventSel::Pin { pin, edge } => write!(f, "pin:{pin}:{}", edge.name()),
            EventSel::PinIn { pin, edge } => write!(f, "gpio_in:{pin}:{}", edge.name()),
            EventSel::Out { port, value: None } => write!(f, "out:{port}"),
            EventSel::Out {
                port,
                value: Some(v),
            } => write!(f, "out:{port}:{v}"),
            EventSel::UartTx { byte: None } => write!(f, "uart:tx"),
            EventSel::UartTx { byte: Some(b) } => write!(f, "uart:tx:{b}"),
            EventSel::UartRx { byte: None } => write!(f, "uart:rx"),
            EventSel::UartRx { byte: Some(b) } => write!(f, "uart:rx:{b}"),
        }
    }
}

/// How starts are paired with ends (module doc).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Policy {
    #[default]
    Next,
    First,
    Merged,
}

impl Policy {
    /// The policies' names in an experiment file, in the order of [`Policy::ALL`].
    pub const NAMES: [&'static str; 3] = ["next", "first", "merged"];
    pub const ALL: [Policy; 3] = [Policy::Next, Policy::First, Policy::Merged];

    pub fn name(self) -> &'static str {
        Policy::NAMES[self as usize]
    }

    pub fn from_name(s: &str) -> Option<Policy> {
        Policy::ALL.into_iter().find(|p| p.name() == s)
    }

    /// `policy = "..."` of an experiment file (`src`): [`Policy::Next`] without it; a name
    /// that is no policy is an error at its line and column (exit 65).
    pub fn read(src: &Doc, s: &Option<Spanned<String>>) -> Result<Policy, ConfigError> {
        match s {
            None => Ok(Policy::Next),
            Some(s) => Policy::from_name(s.get_ref()).ok_or_else(|| {
                src.err(
                    &s.span(),
                    format!("policy {:?} is not a pairing policy", s.get_ref()),
                    format!("one of {}", confread::quoted_list(&Policy::NAMES)),
                )
            }),
        }
    }
}

/// A start event and the end event it was paired with.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pair {
    pub start: IoEvent,
    pub end: IoEvent,
}

/// An event's time in whole nanoseconds (rounded): the unit the experiments' latencies and
/// jitter are computed in before they are shown in microseconds.
pub fn time_ns(e: &IoEvent) -> i64 {
    (e.time_s() * 1e9).round() as i64
}

impl Pair {
    /// Cycles from the start to the end.
    pub fn cycles(&self) -> i64 {
        self.end.cycle as i64 - self.start.cycle as i64
    }
    /// Nanoseconds from the start to the end (each event's time rounded to the nanosecond).
    pub fn ns(&self) -> i64 {
        time_ns(&self.end) - time_ns(&self.start)
    }
}

/// What [`pair`] found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Pairing {
    /// In the order of their starts.
    pub pairs: Vec<Pair>,
    /// Starts that found no end, in order.
    pub unpaired_starts: Vec<IoEvent>,
    /// Ends that had no start, in order.
    pub unpaired_ends: Vec<IoEvent>,
    /// Starts that shared their end with an earlier start (`next` and `merged`).
    pub merged: usize,
}

impl Pairing {
    /// Each pair's latency in cycles, in order.
    pub fn cycles(&self) -> Vec<i64> {
        self.pairs.iter().map(Pair::cycles).collect()
    }
    /// Each pair's latency in nanoseconds, in order.
    pub fn ns(&self) -> Vec<i64> {
        self.pairs.iter().map(Pair::ns).collect()
    }
    /// The latencies' figures in cycles; `None` without pairs.
    pub fn cycles_distribution(&self) -> Option<Distribution> {
        Distribution::of(&self.cycles())
    }
    /// The latencies' figures in nanoseconds; `None` without pairs.
    pub fn ns_distribution(&self) -> Option<Distribution> {
        Distribution::of(&self.ns())
    }
    /// The events that found no partner, starts and ends.
    pub fn unpaired(&self) -> usize {
        self.unpaired_starts.len() + self.unpaired_ends.len()
    }
}

/// Pairs each start (`from`) with an end (`to`) among `events`, by `policy` (module doc).
pub fn pair(events: &[IoEvent], from: &EventSel, to: &EventSel, policy: Policy) -> Pairing {
    let mut p = Pairing::default();
    let mut waiting: Vec<IoEvent> = Vec::new();
    // `merged`: the pairs that the last end answered (indices into p.pairs).
    let mut last_group: Vec<usize> = Vec::new();
    for e in events {
        if to.matches(e) {
            if waiting.is_empty() {
                match (policy, last_group.last()) {
                    (Policy::Merged, Some(&i)) if last_group.len() > 1 => {
                        p.pairs[i].end = *e;
                        last_group = vec![i];
                    }
                    _ => p.unpaired_ends.push(*e),
                }
            } else {
                p.merged += waiting.len() - 1;
                last_group.clear();
                for s in waiting.drain(..) {
                    last_group.push(p.pairs.len());
                    p.pairs.push(Pair { start: s, end: *e });
                }
            }
        }
        if from.matches(e) {
            if policy == Policy::First && !waiting.is_empty() {
                p.unpaired_starts.push(*e);
            } else {
                waiting.push(*e);
            }
        }
    }
    p.unpaired_starts.extend(waiting);
    p.unpaired_starts.sort_by_key(|e| e.cycle);
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(cycle: u64, kind: IoKind, port: u32, value: u32) -> IoEvent {
        IoEvent {
            cycle,
            // 100 MHz: 10 ns a cycle.
            time_fs: cycle as u128 * 10_000_000,
            kind,
            port,
            value,
        }
    }
    fn stim(c: u64) -> IoEvent {
        ev(c, IoKind::Stimulus, 0, 0)
    }
    fn out(c: u64) -> IoEvent {
        ev(c, IoKind::Out, 0, 7)
    }
    const S: EventSel = EventSel::Stimulus { line: 0 };
    const O: EventSel = EventSel::Out {
        port: 0,
        value: None,
    };
    fn cycles_of(v: &[IoEvent]) -> Vec<u64> {
        v.iter().map(|e| e.cycle).collect()
    }

    #[test]
    fn unpaired_starts_and_ends_are_counted() {
        // An end before any start; a start never answered.
        let rec = [
            out(5),
            stim(10),
            out(30),
            stim(50),
            ev(60, IoKind::Out, 1, 0),
        ];
        let p = pair(&rec, &S, &O, Policy::Next);
        assert_eq!(p.cycles(), [20]);
        assert_eq!(p.ns(), [200]);
        assert_eq!(cycles_of(&p.unpaired_ends), [5]);
        assert_eq!(cycles_of(&p.unpaired_starts), [50]);
        assert_eq!((p.unpaired(), p.merged), (2, 0));
    }

    #[test]
    fn two_starts_before_one_end() {
        let rec = [stim(10), stim(20), out(50), out(60)];
        // next: both share the end.
        let p = pair(&rec, &S, &O, Policy::Next);
        assert_eq!(p.cycles(), [40, 30]);
        assert_eq!((p.merged, cycles_of(&p.unpaired_ends)), (1, vec![60]));
        // first: the second start is unpaired, the first pairs.
        let p = pair(&rec, &S, &O, Policy::First);
        assert_eq!(p.cycles(), [40]);
        assert_eq!(cycles_of(&p.unpaired_starts), [20]);
        assert_eq!(cycles_of(&p.unpaired_ends), [60]);
        // merged: the end after the shared one answers the group's last start.
        let p = pair(&rec, &S, &O, Policy::Merged);
        assert_eq!(p.cycles(), [40, 40]);
        assert!(p.unpaired_ends.is_empty());
        assert_eq!(p.merged, 1);
        // ... but only once: a further end is unpaired.
        let p = pair(
            &[stim(10), stim(20), out(50), out(60), out(70)],
            &S,
            &O,
            Policy::Merged,
        );
        assert_eq!(
            (p.cycles(), cycles_of(&p.unpaired_ends)),
            (vec![40, 40], vec![70])
        );
    }

    #[test]
    fn the_distribution_of_the_latencies() {
        let mut rec = Vec::new();
        for i in 0..100u64 {
            rec.push(stim(i * 1000));
            rec.push(out(i * 1000 + i + 1));
        }
        let p = pair(&rec, &S, &O, Policy::First);
        let d = p.cycles_distribution().unwrap();
        assert_eq!((d.count, d.min, d.p50, d.p99, d.max), (100, 1, 51, 99, 100));
        assert_eq!(p.ns_distribution().unwrap().max, 1000);
        assert_eq!(pair(&[], &S, &O, Policy::Next).cycles_distribution(), None);
    }

    #[test]
    fn selectors_pick_their_events() {
        let pin_rise = EventSel::parse("pin:2:rise").unwrap();
        assert!(pin_rise.matches(&ev(1, IoKind::Gpio, 2, 1)));
        assert!(!pin_rise.matches(&ev(1, IoKind::Gpio, 2, 0)));
        assert!(!pin_rise.matches(&ev(1, IoKind::GpioIn, 2, 1)));
        assert!(EventSel::parse("gpio_in:2:fall")
            .unwrap()
            .matches(&ev(1, IoKind::GpioIn, 2, 0)));
        let lf = EventSel::parse("uart:rx:0x0a").unwrap();
        assert_eq!(lf, EventSel::UartRx { byte: Some(10) });
        assert!(lf.matches(&ev(1, IoKind::UartRx, 0, 10)));
        assert!(!lf.matches(&ev(1, IoKind::UartTx, 0, 10)));
        assert!(EventSel::parse("uart:tx")
            .unwrap()
            .matches(&ev(1, IoKind::UartTx, 0, 65)));
        assert!(EventSel::parse("out:3:0x10")
            .unwrap()
            .matches(&ev(1, IoKind::Out, 3, 16)));
        for s in [
            "stimulus:3",
            "pin:2:rise",
            "gpio_in:0:fall",
            "out:0",
            "out:1:5",
            "uart:tx",
            "uart:rx:10",
        ] {
            assert_eq!(EventSel::parse(s).unwrap().to_string(), s);
        }
    }

    #[test]
    fn bad_selectors_and_policies_are_named_where_they_are() {
        for (sel, why) in [
            ("pin:2:up", "the edge \"up\" is not rise or fall"),
            ("pin:2", "a pin's event needs its edge"),
            ("stimulus:x", "the line \"x\" is not a number"),
            (
                "uart:rx:256",
                "the byte \"256\" is not a number from 0 to 255",
            ),
            ("uart:tx:1:2", "it is not an event"),
            ("gpio:1", "it is not an event"),
            ("", "it is not an event"),
        ] {
            let text = format!("[[latency]]\nfrom = {sel:?}\n");
            let doc = Doc::text_only("e.toml", &text);
            #[derive(serde::Deserialize)]
            struct L {
                from: Spanned<String>,
            }
            #[derive(serde::Deserialize)]
            struct F {
                latency: Vec<L>,
            }
            let f: F = doc.parse().unwrap();
            let e = EventSel::read(&doc, &f.latency[0].from).unwrap_err();
            assert_eq!(e.exit_code(), 65);
            let msg = e.to_string();
            assert!(msg.starts_with("e.toml:2:8: "), "{msg}");
            assert!(msg.contains(why), "{sel}: {msg}");
            assert!(msg.contains("stimulus:LINE"), "{msg}");
        }
        let text = "policy = \"oldest\"\n";
        let doc = Doc::text_only("e.toml", text);
        #[derive(serde::Deserialize)]
        struct P {
            policy: Option<Spanned<String>>,
        }
        let p: P = doc.parse().unwrap();
        let msg = Policy::read(&doc, &p.policy).unwrap_err().to_string();
        assert!(msg.starts_with("e.toml:1:10: policy \"oldest\""), "{msg}");
        assert_eq!(Policy::read(&doc, &None).unwrap(), Policy::Next);
    }

    #[test]
    fn merged_gives_the_kernel_benchmarks_interrupt_latency_figures() {
        // A record with shared and orphan ends; the figures are those bench/kernel's
        // kernel_json.py irqlat printed for it (latency = end - 2 - start: the store's cost).
        let rec: Vec<IoEvent> = "s29 s58 o63 s71 o100 s104 o148 s155 s184 o187 o222 s236 s239 \
            s268 o269 o281 s310 s311 o312 s315 o320 s372 s374 o399 s403 o420 s437 s456 s462 o484 \
            s489 o499 o503 s535 s584 s603 s640 s647 s652 s653 o670 o676 o700 s713 s738 o748 \
            s765 o768 s806"
            .split_whitespace()
            .map(|w| {
                let c = w[1..].parse().unwrap();
                if w.starts_with('s') {
                    stim(c)
                } else {
                    out(c)
                }
            })
            .collect();
        let p = pair(&rec, &S, &O, Policy::Merged);
        let lat: Vec<i64> = p.cycles().iter().map(|c| c - 2).collect();
        let worst = *lat.iter().max().unwrap();
        let worst_at = p
            .pairs
            .iter()
            .zip(&lat)
            .filter(|(_, &l)| l == worst)
            .map(|(q, _)| q.start.cycle)
            .min();
        assert_eq!((worst, worst_at), (133, Some(535)));
        assert_eq!(lat.iter().sum::<i64>() / lat.len() as i64, 28);
        assert_eq!(lat.len(), 29);
        assert_eq!(p.unpaired_starts.len(), 1);
        assert_eq!(p.merged, 15);
        assert_eq!(p.unpaired_ends.len(), 2);
    }
}
