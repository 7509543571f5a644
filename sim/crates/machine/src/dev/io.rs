//! IO ports: OUT[n] writes are recorded with their cycle and time (nothing is lost: the
//! record is the measurement, when the machine keeps one); IN[n] reads return the next
//! sample of input stream n; GPIO pins are set, cleared and read, and every edge is recorded.
//! GPIO input pins follow a script of the machine file (`[[io.pin]]`: a button, a sensor's
//! data-ready line), read at GPIO_IN; an edge the firmware enables (GPIO_RISE, GPIO_FALL)
//! latches the pin's fast line.

mod inputs;

use super::{merge, Access, Act, Device, DeviceConfig};
use crate::clock::Clock;
use crate::input::{InputConfig, InputStream};
use confread::{ConfigError, Doc};
use crate::record::{IoEvent, IoKind};
use serde::Deserialize;
use std::sync::Arc;
use toml::Spanned;

pub const PORTS: u32 = 32;
/// Number of IO ports (IN[n] / OUT[n], n < 32), as a machine file numbers them.
pub const IO_PORTS: u8 = PORTS as u8;
pub const OUT: u32 = 0x000;
pub const IN: u32 = 0x100;
pub const GPIO_SET: u32 = 0x200;
pub const GPIO_CLEAR: u32 = 0x204;
pub const GPIO_LEVEL: u32 = 0x208;
pub const GPIO_IN: u32 = 0x20c;
pub const GPIO_RISE: u32 = 0x210;
pub const GPIO_FALL: u32 = 0x214;

/// One scripted input pin: `[[io.pin]]`.
#[derive(Clone, Debug, PartialEq)]
pub struct PinScript {
    pub pin: u8,
    /// The fast line its enabled edges latch, if any.
    pub line: Option<u8>,
    pub initial: bool,
    /// (time in microseconds, level), in increasing time.
    pub changes: PinChanges,
}

/// A pin's changes, stored compactly (8 bytes and a bit each) and shared, not copied, by
/// copies of the configuration and of the machine: a `changes_file` may hold 64 MiB.
#[derive(Clone, Debug, PartialEq)]
pub struct PinChanges {
    times_us: Arc<[f64]>,
    /// Level of change i: bit i % 64 of word i / 64.
    levels: Arc<[u64]>,
}

impl PinChanges {
    pub fn len(&self) -> usize {
        self.times_us.len()
    }

    pub fn is_empty(&self) -> bool {
        self.times_us.is_empty()
    }

    /// Change i: (time in microseconds, level).
    pub fn get(&self, i: usize) -> Option<(f64, bool)> {
        let t = *self.times_us.get(i)?;
        Some((t, self.levels[i / 64] >> (i % 64) & 1 == 1))
    }

    pub fn iter(&self) -> impl Iterator<Item = (f64, bool)> + '_ {
        (0..self.len()).filter_map(|i| self.get(i))
    }
}

/// Builds a [`PinChanges`], sized once.
struct ChangesBuilder {
    times_us: Vec<f64>,
    levels: Vec<u64>,
}

impl ChangesBuilder {
    fn with_capacity(n: usize) -> ChangesBuilder {
        ChangesBuilder {
            times_us: Vec::with_capacity(n),
            levels: Vec::with_capacity(n.div_ceil(64)),
        }
    }

    fn push(&mut self, t: f64, level: bool) {
        let i = self.times_us.len();
        if i.is_multiple_of(64) {
            self.levels.push(0);
        }
        self.times_us.push(t);
        *self.levels.last_mut().unwrap() |= (level as u64) << (i % 64);
    }

    fn last_time(&self) -> Option<f64> {
        self.times_us.last().copied()
    }

    fn finish(self) -> PinChanges {
        PinChanges {
            times_us: self.times_us.into(),
            levels: self.levels.into(),
        }
    }
}

impl From<Vec<(f64, bool)>> for PinChanges {
    fn from(v: Vec<(f64, bool)>) -> PinChanges {
        let mut b = ChangesBuilder::with_capacity(v.len());
        for (t, l) in v {
            b.push(t, l);
        }
        b.finish()
    }
}

pub use inputs::RawInput;

/// The IO ports' settings: the scripted input pins (`[[io.pin]]`, the table `[io]`) and the
/// input streams (`[[input]]`, at the top level of the machine file; at most one per port).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct IoConfig {
    pub pins: Vec<PinScript>,
    pub inputs: Vec<InputConfig>,
}

impl IoConfig {
    /// Replaces the input streams with the file's `[[input]]` array.
    pub fn apply_inputs(
        &mut self,
        raw: &Spanned<Vec<Spanned<RawInput>>>,
        doc: &Doc,
    ) -> Result<(), ConfigError> {
        self.inputs = inputs::inputs(doc, raw)?;
        Ok(())
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawIo {
    pin: Option<Vec<RawPin>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawPin {
    pin: Option<Spanned<i64>>,
    line: Option<Spanned<i64>>,
    initial: Option<Spanned<i64>>,
    changes: Option<Spanned<Vec<RawChange>>>,
    changes_file: Option<Spanned<String>>,
}

/// One `[at_us, level]` of `changes`, as written (checked by `change_entry`).
type RawChange = Spanned<Vec<Spanned<toml::Value>>>;

/// Times a script may name: up to about 31.7 years, in microseconds.
const MAX_US: f64 = 1e15;

fn level(v: i64) -> Option<bool> {
    match v {
        0 => Some(false),
        1 => Some(true),
        _ => None,
    }
}

/// Checks one change's time `t` against the change before (`prev`): the message if it is
/// out of range or out of order.
fn time_error(t: f64, prev: Option<f64>) -> Option<(String, String)> {
    if !(t.is_finite() && (0.0..=MAX_US).contains(&t)) {
        return Some((format!("time {t} us is out of range"), format!("times from 0 to {MAX_US} microseconds")));
    }
    match prev {
        Some(p) if t < p => Some((format!("time {t} us comes before {p} us"), "changes in increasing time".into())),
        _ => None,
    }
}

/// The changes of a `changes_file`: rows `at_us,level`, `#` comments, and an optional header
/// (a first row of names, such as `at_us,level`). Errors: (line, column, message, expected).
fn parse_changes(text: &str) -> Result<ChangesBuilder, (usize, usize, String, String)> {
    const ROW: &str = "rows `at_us,level` (microseconds, in increasing time; level 0 or 1)";
    let mut b = ChangesBuilder::with_capacity(crate::textfile::max_rows(text));
    for row in crate::textfile::rows(text) {
        if row.is_header() {
            continue;
        }
        let fields: Vec<&str> = row.fields().collect();
        let err = |at: &str, message: String, expected: &str| (row.line, row.column(at), message, expected.to_string());
        let [t, l] = fields[..] else {
            let n = fields.len();
            return Err(err(row.body, format!("`{}` has {n} field{}", row.body, if n == 1 { "" } else { "s" }), ROW));
        };
        let Ok(time) = t.parse::<f64>() else {
            return Err(err(t, format!("`{t}` is not a time"), "a time in microseconds"));
        };
        let Some(lv) = l.parse::<i64>().ok().and_then(level) else {
            return Err(err(l, format!("`{l}` is not a level"), "a level, 0 or 1"));
        };
        if let Some((message, expected)) = time_error(time, b.last_time()) {
            return Err(err(t, message, &expected));
        }
        b.push(time, lv);
    }
    Ok(b)
}

/// One `[at_us, level]` of a `changes` array: exactly two numbers, the level 0 or 1.
fn change_entry(entry: &RawChange, cx: &Doc) -> Result<(f64, bool), ConfigError> {
    const PAIR: &str = "[at_us, level]: a time in microseconds and a level, 0 or 1";
    let [t, l] = &entry.get_ref()[..] else {
        let n = entry.get_ref().len();
        return Err(cx.err(&entry.span(), format!("a change with {n} element{}", if n == 1 { "" } else { "s" }), PAIR));
    };
    let time = match t.get_ref() {
        toml::Value::Integer(i) => *i as f64,
        toml::Value::Float(f) => *f,
        v => return Err(cx.err(&t.span(), format!("time {v} is not a number"), PAIR)),
    };
    let lv = match l.get_ref() {
        toml::Value::Integer(i) => level(*i),
        _ => None,
    };
    let Some(lv) = lv else {
        return Err(cx.err(&l.span(), format!("level {} at {time} us is not a level", l.get_ref()), "levels 0 or 1"));
    };
    Ok((time, lv))
}

impl DeviceConfig for IoConfig {
    const DEFAULT_TOML: &'static str = r#"[io]
# Scripted GPIO input pins, read at IO.GPIO_IN: [[io.pin]] with pin (0 to 31), initial
# (its level at reset, 0 or 1), changes = [[at_us, level], ...] in increasing time, or
# changes_file = "pin.csv" (lines `at_us,level`), and optionally line (0 to 14): the fast
# line its edges latch once the firmware enables them (IO.GPIO_RISE, IO.GPIO_FALL).
# [[io.pin]]
# pin = 0
# line = 3
# changes = [[1000, 1], [1020, 0]]
"#;
    type Raw = RawIo;

    fn apply(&mut self, raw: &RawIo, cx: &Doc) -> Result<(), ConfigError> {
        let mut pins: Vec<PinScript> = Vec::new();
        for r in raw.pin.iter().flatten() {
            let Some(p) = &r.pin else {
                let at = r.changes.as_ref().map(|c| c.span());
                let at = at.or_else(|| r.line.as_ref().map(|l| l.span())).unwrap_or(0..0);
                return Err(cx.err(&at, "[[io.pin]] without `pin`", "pin = <0 to 31>"));
            };
            let pin = *p.get_ref();
            if !(0..32).contains(&pin) {
                return Err(cx.err(&p.span(), format!("pin = {pin} is out of range"), "pin = an integer from 0 to 31"));
            }
            if pins.iter().any(|q| q.pin as i64 == pin) {
                return Err(cx.err(&p.span(), format!("pin {pin} is scripted twice"), "one [[io.pin]] per pin"));
            }
            let line = match &r.line {
                None => None,
                Some(l) if (0..=14).contains(l.get_ref()) => Some(*l.get_ref() as u8),
                Some(l) => {
                    return Err(cx.err(&l.span(), format!("line = {} is out of range", l.get_ref()), "line = a fast line from 0 to 14"))
                }
            };
            let initial = match &r.initial {
                None => false,
                Some(v) => level(*v.get_ref()).ok_or_else(|| {
                    cx.err(&v.span(), format!("initial = {} is not a level", v.get_ref()), "initial = 0 or 1")
                })?,
            };
            let changes = match (&r.changes, &r.changes_file) {
                (Some(c), None) => {
                    let mut b = ChangesBuilder::with_capacity(c.get_ref().len());
                    for entry in c.get_ref() {
                        let (t, l) = change_entry(entry, cx)?;
                        if let Some((message, expected)) = time_error(t, b.last_time()) {
                            return Err(cx.err(&entry.span(), message, expected));
                        }
                        b.push(t, l);
                    }
                    b.finish()
                }
                (None, Some(f)) => {
                    let (path, bytes) = cx.read_named_file(f, "GPIO script file")?;
                    let file = path.display().to_string();
                    let text = crate::textfile::utf8(
                        &bytes,
                        &file,
                        &format!("GPIO script file `{file}`"),
                        "a text file of rows `at_us,level`",
                    )?;
                    let b = parse_changes(text).map_err(|(line, column, message, expected)| ConfigError::Invalid {
                        at: confread::Location { file, line, column },
                        message,
                        expected,
                    })?;
                    // The text goes before the changes are copied into place.
                    drop(bytes);
                    b.finish()
                }
                (Some(c), Some(_)) => {
                    return Err(cx.err(&c.span(), "[[io.pin]] with both changes and changes_file", "one of them"))
                }
                (None, None) => {
                    return Err(cx.err(&p.span(), format!("[[io.pin]] {pin} without changes"), "changes = [[at_us, level], ...] or changes_file = \"<file>\""))
                }
            };
            pins.push(PinScript { pin: pin as u8, line, initial, changes });
        }
        self.pins = pins;
        Ok(())
    }
}

#[derive(Clone)]
pub struct IoPorts {
    out: [u32; PORTS as usize],
    inputs: Vec<Option<InputStream>>,
    pub pins: u32,
    /// The input pins' levels, and the edges the firmware enabled.
    gpio_in: u32,
    rise: u32,
    fall: u32,
    /// Each scripted pin's fast line.
    pin_line: [Option<u8>; 32],
    /// The scripted pins (their changes shared with the configuration and every copy of the
    /// machine), and the next change of each: the changes of all pins are taken in time
    /// order, at one time in the order the pins were listed.
    script: Arc<[PinScript]>,
    next: [usize; 32],
    /// Levels driven from outside the script (a debugger's `monitor gpio`), in order: the
    /// cycle, the pin, the level. They act as a scripted change at that cycle would.
    driven: std::collections::VecDeque<(u64, u8, bool)>,
}

impl IoPorts {
    pub fn new(streams: Vec<InputStream>) -> IoPorts {
        let mut inputs: Vec<Option<InputStream>> = (0..PORTS).map(|_| None).collect();
        for s in streams {
            let p = s.port() as usize;
            inputs[p] = Some(s);
        }
        IoPorts {
            out: [0; PORTS as usize],
            inputs,
            pins: 0,
            gpio_in: 0,
            rise: 0,
            fall: 0,
            pin_line: [None; 32],
            script: Arc::from([]),
            next: [0; 32],
            driven: std::collections::VecDeque::new(),
        }
    }

    /// With the scripted input pins of `cfg`.
    fn with_pins(mut self, cfg: &IoConfig) -> IoPorts {
        for p in &cfg.pins {
            self.gpio_in |= (p.initial as u32) << p.pin;
            self.pin_line[p.pin as usize] = p.line;
        }
        self.script = cfg.pins.clone().into();
        self
    }

    /// The next scripted change: (femtoseconds, index of its pin in `script`, level). The
    /// earliest; at one time, the first pin listed.
    fn next_change(&self) -> Option<(u128, usize, bool)> {
        let mut best: Option<(u128, usize, bool)> = None;
        for (i, p) in self.script.iter().enumerate() {
            if let Some((t, l)) = p.changes.get(self.next[i]) {
                let fs = (t * 1e9).round() as u128;
                if best.is_none_or(|b| fs < b.0) {
                    best = Some((fs, i, l));
                }
            }
        }
        best
    }

    /// Drives input pin `pin` (0..31) to `level` at cycle `now` (a debugger's `monitor
    /// gpio`), as a scripted change then would: recorded as `gpio_in` if the level changes,
    /// latching the pin's line (a scripted pin's `line`) if the firmware enabled that edge.
    pub fn drive(&mut self, pin: u8, level: bool, now: u64) {
        self.driven.push_back((now, pin & 31, level));
    }

    /// The fast line pin `pin`'s enabled edges latch (a scripted pin's `line`).
    pub fn line_of(&self, pin: u8) -> Option<u8> {
        self.pin_line.get(pin as usize).copied().flatten()
    }

    /// Sets pin `pin` to `level` at cycle `c`: recorded, and the enabled edge latched.
    fn change(&mut self, pin: u8, level: bool, c: u64, cx: &mut Act) {
        let bit = 1u32 << pin;
        if (self.gpio_in & bit != 0) == level {
            return;
        }
        self.gpio_in ^= bit;
        if let Some(r) = cx.record.as_deref_mut() {
            r.push(IoEvent {
                cycle: c,
                time_fs: cx.clock.time_fs(c),
                kind: IoKind::GpioIn,
                port: pin as u32,
                value: level as u32,
            });
        }
        let enabled = if level { self.rise } else { self.fall };
        if let (true, Some(line)) = (enabled & bit != 0, self.pin_line[pin as usize]) {
            cx.latch(line, || c);
        }
    }

    /// A read of IN[n] with no stream configured returns 0.
    pub fn read(&mut self, reg: u32) -> Option<u32> {
        Some(match reg {
            r if r < OUT + 4 * PORTS => self.out[(r / 4) as usize],
            r if (IN..IN + 4 * PORTS).contains(&r) => {
                match &mut self.inputs[((r - IN) / 4) as usize] {
                    Some(s) => s.next_sample(),
                    None => 0,
                }
            }
            GPIO_SET | GPIO_CLEAR => 0,
            GPIO_LEVEL => self.pins,
            GPIO_IN => self.gpio_in,
            GPIO_RISE => self.rise,
            GPIO_FALL => self.fall,
            _ => return None,
        })
    }

    pub fn write(
        &mut self,
        reg: u32,
        value: u32,
        mask: u32,
        stamp: (u64, u128),
        rec: Option<&mut Vec<IoEvent>>,
    ) -> Option<()> {
        let (cycle, time_fs) = stamp;
        let new_pins = match reg {
            r if r < OUT + 4 * PORTS => {
                let n = (r / 4) as usize;
                self.out[n] = merge(self.out[n], value, mask);
                if let Some(rec) = rec {
                    rec.push(IoEvent {
                        cycle,
                        time_fs,
                        kind: IoKind::Out,
                        port: n as u32,
                        value: self.out[n],
                    });
                }
                return Some(());
            }
            r if (IN..IN + 4 * PORTS).contains(&r) => return Some(()), // inputs ignore writes
            GPIO_IN => return Some(()),
            GPIO_RISE => {
                self.rise = merge(self.rise, value, mask);
                return Some(());
            }
            GPIO_FALL => {
                self.fall = merge(self.fall, value, mask);
                return Some(());
            }
            GPIO_SET => self.pins | (value & mask),
            GPIO_CLEAR => self.pins & !(value & mask),
            GPIO_LEVEL => merge(self.pins, value, mask),
            _ => return None,
        };
        if let Some(rec) = rec {
            let mut changed = self.pins ^ new_pins;
            while changed != 0 {
                let pin = changed.trailing_zeros();
                rec.push(IoEvent {
                    cycle,
                    time_fs,
                    kind: IoKind::Gpio,
                    port: pin,
                    value: new_pins >> pin & 1,
                });
                changed &= changed - 1;
            }
        }
        self.pins = new_pins;
        Some(())
    }
}

impl Device for IoPorts {
    const TITLE: &'static str = "IO ports and GPIO";
    const WINDOW: u32 = 0x1000;
    type Config = IoConfig;

    fn build(own: &IoConfig, _seed: u64) -> IoPorts {
        IoPorts::new(own.inputs.iter().map(InputStream::new).collect()).with_pins(own)
    }

    fn read(&mut self, reg: u32, _cx: &mut Access) -> Option<u32> {
        IoPorts::read(self, reg)
    }

    fn write(&mut self, reg: u32, value: u32, mask: u32, cx: &mut Access) -> Option<()> {
        // recorded when the store completes: its 2 cycles plus wait states
        let stamp_cycle = cx.now + 2 + cx.wait as u64;
        let stamp = (stamp_cycle, cx.clock.time_fs(stamp_cycle));
        IoPorts::write(self, reg, value, mask, stamp, cx.record.as_deref_mut())
    }

    fn next_event(&mut self, clock: &Clock) -> Option<u64> {
        let script = self.next_change().map(|(t, _, _)| clock.cycle_at(t));
        match (script, self.driven.front()) {
            (Some(a), Some(&(b, _, _))) => Some(a.min(b)),
            (a, b) => a.or(b.map(|d| d.0)),
        }
    }

    /// Applies every change due, the driven ones first: a pin that changes level is
    /// recorded (`gpio_in`), and an enabled edge latches its line at the change's cycle.
    fn advance(&mut self, cx: &mut Act) {
        while let Some((c, pin, level)) = self.driven.front().copied().filter(|d| d.0 <= cx.now) {
            self.driven.pop_front();
            self.change(pin, level, c, cx);
        }
        let until = cx.clock.time_fs(cx.now);
        while let Some((t, i, level)) = self.next_change().filter(|c| c.0 <= until) {
            self.next[i] += 1;
            let pin = self.script[i].pin;
            let c = cx.clock.cycle_at(t);
            self.change(pin, level, c, cx);
        }
    }

    /// The lines of pins with changes to come.
    fn wakes(&self) -> u32 {
        let driven = self.driven.iter().map(|d| d.1);
        self.script
            .iter()
            .enumerate()
            .filter(|&(i, p)| self.next[i] < p.changes.len())
            .map(|(_, p)| p.pin)
            .chain(driven)
            .filter_map(|pin| self.pin_line[pin as usize])
            .fold(0, |m, line| m | 1 << (16 + line as u32))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::MachineConfig;

    fn cfg(text: &str) -> Result<IoConfig, String> {
        MachineConfig::from_str(text, "m.toml")
            .map(|c| c.devices.io.clone())
            .map_err(|e| e.to_string())
    }

    #[test]
    fn the_default_table_is_the_default() {
        assert_eq!(cfg(IoConfig::DEFAULT_TOML).unwrap(), IoConfig::default());
    }

    #[test]
    fn a_pin_script_reads_as_written() {
        let c = cfg("[[io.pin]]\npin = 31\nline = 0\ninitial = 1\nchanges = [[0.5, 0], [2, 1]]\n")
            .unwrap();
        assert_eq!(
            c.pins,
            [PinScript {
                pin: 31,
                line: Some(0),
                initial: true,
                changes: vec![(0.5, false), (2.0, true)].into()
            }]
        );
    }

    #[test]
    fn bad_scripts_are_refused_where_they_are() {
        for (text, want) in [
            ("[[io.pin]]\npin = 32\nchanges = []\n", "m.toml:2:7: pin = 32 is out of range"),
            ("[[io.pin]]\nchanges = []\n", "without `pin`"),
            ("[[io.pin]]\npin = 1\n", "[[io.pin]] 1 without changes"),
            ("[[io.pin]]\npin = 1\nline = 15\nchanges = []\n", "line = 15 is out of range"),
            ("[[io.pin]]\npin = 1\ninitial = 2\nchanges = []\n", "initial = 2 is not a level"),
            ("[[io.pin]]\npin = 1\nchanges = [[1, 2]]\n", "level 2 at 1 us is not a level"),
            ("[[io.pin]]\npin = 1\nchanges = [[5, 1], [3, 0]]\n", "time 3 us comes before 5 us"),
            ("[[io.pin]]\npin = 1\nchanges = [[-1, 1]]\n", "time -1 us is out of range"),
            ("[[io.pin]]\npin = 1\nchanges = []\n[[io.pin]]\npin = 1\nchanges = []\n", "pin 1 is scripted twice"),
            ("[[io.pin]]\npin = 1\nchanges = [[1, 1]]\nchanges_file = \"x\"\n", "both changes and changes_file"),
            ("[[io.pin]]\npin = 1\nchanges_file = \"/nonexistent/p.csv\"\n", "cannot read GPIO script file"),
            ("[[io.pin]]\npin = 1\nwhen = 3\n", "unknown key `when`"),
        ] {
            let e = cfg(text).unwrap_err();
            assert!(e.contains(want), "{text:?}: {e}");
        }
    }

    #[test]
    fn a_changes_file_has_a_header_comments_and_checked_rows() {
        let ok = |t: &str| parse_changes(t).map(|c| c.finish().iter().collect::<Vec<_>>());
        assert_eq!(
            ok("at_us,level\n10,1 # press\n\n20, 0\n"),
            Ok(vec![(10.0, true), (20.0, false)])
        );
        // A comment before the header: still the first row.
        assert_eq!(ok("# pin 5\nat_us,level\n10,1\n"), Ok(vec![(10.0, true)]));
        let bad = |t: &str| parse_changes(t).map(|_| ()).unwrap_err();
        assert_eq!(bad("10,1\n20,high\n").0, 2);
        assert_eq!(bad("10,1\n20,high\n").2, "`high` is not a level");
        // A bad first row is data, not a header.
        assert_eq!(bad("100,2\n").2, "`2` is not a level");
        assert_eq!((bad("100,2\n").0, bad("100,2\n").1), (1, 5));
        assert_eq!(bad("10x,1\n").2, "`10x` is not a time");
        // Exactly two fields.
        assert_eq!(bad("100,1,0\n").2, "`100,1,0` has 3 fields");
        assert_eq!(bad("at_us,level\n100\n").2, "`100` has 1 field");
        // Times in range and order, at their own line and column.
        assert_eq!(bad("10,1\n 5,0\n"), (2, 2, "time 5 us comes before 10 us".into(), "changes in increasing time".into()));
        assert_eq!(bad("-1,1\n").2, "time -1 us is out of range");
    }

    fn tmpdir(tag: &str) -> std::path::PathBuf {
        let d = std::env::temp_dir().join(format!("ubik-io-{}-{tag}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    /// An error in a changes file names the file's line, not the machine file's.
    #[test]
    fn changes_file_errors_point_into_the_file() {
        let d = tmpdir("csv");
        let m = |body: &[u8]| {
            std::fs::write(d.join("p.csv"), body).unwrap();
            MachineConfig::from_str_in("[[io.pin]]\npin = 1\nchanges_file = \"p.csv\"\n", "m.toml", &d)
                .map(|c| c.devices.io.pins[0].changes.iter().collect::<Vec<_>>())
                .map_err(|e| e.to_string())
        };
        let f = d.join("p.csv").display().to_string();
        assert_eq!(m(b"#c\nat_us,level\n1,1\n2,0\n"), Ok(vec![(1.0, true), (2.0, false)]));
        assert_eq!(
            m(b"at_us,level\n5,1\n3,0\n").unwrap_err(),
            format!("{f}:3:1: time 3 us comes before 5 us; expected changes in increasing time")
        );
        assert_eq!(
            m(b"1e16,1\n").unwrap_err(),
            format!("{f}:1:1: time 10000000000000000 us is out of range; expected times from 0 to 1000000000000000 microseconds")
        );
        assert!(m(b"100,2\n").unwrap_err().starts_with(&format!("{f}:1:5: `2` is not a level")));
        assert!(m(b"1,1\n2,\xff\n").unwrap_err().starts_with(&format!("{f}:2:3: GPIO script file")));
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn inline_changes_are_pairs_checked_where_they_are() {
        for (text, want) in [
            ("[[io.pin]]\npin = 1\nchanges = [[1, 1], [100, 1, 0]]\n", "m.toml:3:20: a change with 3 elements; expected [at_us, level]"),
            ("[[io.pin]]\npin = 1\nchanges = [[100]]\n", "m.toml:3:12: a change with 1 element;"),
            ("[[io.pin]]\npin = 1\nchanges = [[1, 1], [\"x\", 0]]\n", "m.toml:3:21: time \"x\" is not a number"),
            ("[[io.pin]]\npin = 1\nchanges = [[1, 0.5]]\n", "m.toml:3:16: level 0.5 at 1 us is not a level"),
            ("[[io.pin]]\npin = 1\nchanges = [[5, 1], [3, 0]]\n", "m.toml:3:20: time 3 us comes before 5 us"),
        ] {
            let e = cfg(text).unwrap_err();
            assert!(e.starts_with(want), "{text:?}: {e}");
        }
        let c = cfg("[[io.pin]]\npin = 1\nchanges = [[0.5, 1], [2, 0]]\n").unwrap();
        assert_eq!(c.pins[0].changes.iter().collect::<Vec<_>>(), [(0.5, true), (2.0, false)]);
    }

    /// The changes of several pins are taken in time order, at one time in the order the pins
    /// are listed; copies of the ports share the changes.
    #[test]
    fn pins_merge_in_time_then_listing_order_and_share_their_changes() {
        let c = MachineConfig::from_str(
            "[[io.pin]]\npin = 7\nline = 2\nchanges = [[1, 1], [3, 0]]\n\
             [[io.pin]]\npin = 2\nchanges = [[0, 1], [1, 1], [3, 0], [4, 1]]\n",
            "m.toml",
        )
        .unwrap();
        let mut io = IoPorts::build(&c.devices.io, 1);
        let copy = io.clone();
        assert!(Arc::ptr_eq(&io.script, &copy.script));
        assert!(Arc::ptr_eq(&io.script[0].changes.times_us, &c.devices.io.pins[0].changes.times_us));
        assert_eq!(io.wakes(), 1 << 18);
        let mut order = Vec::new();
        while let Some((t, i, l)) = io.next_change() {
            order.push((t / 1_000_000_000, io.script[i].pin, l));
            io.next[i] += 1;
        }
        assert_eq!(order, [(0, 2, true), (1, 7, true), (1, 2, true), (3, 7, false), (3, 2, false), (4, 2, true)]);
        assert_eq!(io.wakes(), 0);
    }
}
