//! IO ports: OUT[n] writes are recorded with their cycle and time (nothing is lost: the
//! record is the measurement, when the machine keeps one); IN[n] reads return the next
//! sample of input stream n; GPIO pins are set, cleared and read, and every edge is recorded.
//! GPIO input pins follow a script of the machine file (`[[io.pin]]`: a button, a sensor's
//! data-ready line), read at GPIO_IN; an edge the firmware enables (GPIO_RISE, GPIO_FALL)
//! latches the pin's fast line.

use super::{merge, Access, Act, Device, DeviceConfig};
use crate::clock::Clock;
use crate::config::{ConfigError, Ctx, MachineConfig};
use crate::input::InputStream;
use crate::record::{IoEvent, IoKind};
use serde::Deserialize;
use std::sync::Arc;
use toml::Spanned;

pub const PORTS: u32 = 32;
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
    pub changes: Vec<(f64, bool)>,
}

/// `[io]` in the machine file: the scripted input pins.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct IoConfig {
    pub pins: Vec<PinScript>,
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
    changes: Option<Spanned<Vec<(f64, i64)>>>,
    changes_file: Option<Spanned<String>>,
}

/// Times a script may name: up to about 31.7 years, in microseconds.
const MAX_US: f64 = 1e15;

fn level(v: i64) -> Option<bool> {
    match v {
        0 => Some(false),
        1 => Some(true),
        _ => None,
    }
}

/// The changes of a `changes_file`: `at_us,level` per line, `#` comments, an optional header.
fn parse_changes(text: &str) -> Result<Vec<(f64, bool)>, (usize, String)> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let body = raw.split('#').next().unwrap_or("").trim();
        if body.is_empty() {
            continue;
        }
        let mut f = body.split(',').map(str::trim);
        let t = f.next().and_then(|t| t.parse::<f64>().ok());
        let l = f.next().and_then(|l| l.parse::<i64>().ok()).and_then(level);
        match (t, l) {
            (Some(t), Some(l)) => out.push((t, l)),
            _ if i == 0 => {} // a header
            _ => return Err((i + 1, format!("`{body}` is not `at_us,level`"))),
        }
    }
    Ok(out)
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

    fn apply(&mut self, raw: &RawIo, cx: &Ctx) -> Result<(), ConfigError> {
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
            let (changes, at): (Vec<(f64, bool)>, _) = match (&r.changes, &r.changes_file) {
                (Some(c), None) => {
                    let mut v = Vec::new();
                    for &(t, l) in c.get_ref() {
                        let l = level(l).ok_or_else(|| {
                            cx.err(&c.span(), format!("level {l} at {t} us is not a level"), "levels 0 or 1")
                        })?;
                        v.push((t, l));
                    }
                    (v, c.span())
                }
                (None, Some(f)) => {
                    let (path, bytes) = cx.read_named_file(f, "GPIO script file")?;
                    let text = String::from_utf8_lossy(&bytes);
                    let v = parse_changes(&text).map_err(|(line, message)| ConfigError::Invalid {
                        at: crate::config::Location { file: path.display().to_string(), line, column: 1 },
                        message,
                        expected: "lines `at_us,level` (level 0 or 1)".into(),
                    })?;
                    (v, f.span())
                }
                (Some(c), Some(_)) => {
                    return Err(cx.err(&c.span(), "[[io.pin]] with both changes and changes_file", "one of them"))
                }
                (None, None) => {
                    return Err(cx.err(&p.span(), format!("[[io.pin]] {pin} without changes"), "changes = [[at_us, level], ...] or changes_file = \"<file>\""))
                }
            };
            let mut prev = 0.0;
            for &(t, _) in &changes {
                if !(t.is_finite() && (0.0..=MAX_US).contains(&t)) {
                    return Err(cx.err(&at, format!("time {t} us is out of range"), format!("times from 0 to {MAX_US} microseconds")));
                }
                if t < prev {
                    return Err(cx.err(&at, format!("time {t} us comes before {prev} us"), "changes in increasing time"));
                }
                prev = t;
            }
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
    /// Every scripted change (femtoseconds, pin, level), in time order; the next one.
    script: Arc<[(u128, u8, bool)]>,
    next: usize,
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
            next: 0,
        }
    }

    /// With the scripted input pins of `cfg`.
    fn with_pins(mut self, cfg: &IoConfig) -> IoPorts {
        let mut script = Vec::new();
        for p in &cfg.pins {
            self.gpio_in |= (p.initial as u32) << p.pin;
            self.pin_line[p.pin as usize] = p.line;
            for &(t, l) in &p.changes {
                script.push(((t * 1e9).round() as u128, p.pin, l));
            }
        }
        // In time order; at one time, in the order the pins were listed (a stable sort).
        script.sort_by_key(|&(t, _, _)| t);
        self.script = script.into();
        self
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

    fn build(own: &IoConfig, cfg: &MachineConfig, _seed: u64) -> IoPorts {
        IoPorts::new(cfg.inputs.iter().map(InputStream::new).collect()).with_pins(own)
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
        self.script.get(self.next).map(|&(t, _, _)| clock.cycle_at(t))
    }

    /// Applies every scripted change due: a pin that changes level is recorded (`gpio_in`),
    /// and an enabled edge latches its line at the change's cycle.
    fn advance(&mut self, cx: &mut Act) {
        let until = cx.clock.time_fs(cx.now);
        while let Some(&(t, pin, level)) = self.script.get(self.next).filter(|c| c.0 <= until) {
            self.next += 1;
            let bit = 1u32 << pin;
            if (self.gpio_in & bit != 0) == level {
                continue;
            }
            self.gpio_in ^= bit;
            let c = cx.clock.cycle_at(t);
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
    }

    /// The lines of pins with changes to come.
    fn wakes(&self) -> u32 {
        self.script[self.next.min(self.script.len())..]
            .iter()
            .filter_map(|&(_, pin, _)| self.pin_line[pin as usize])
            .fold(0, |m, line| m | 1 << (16 + line as u32))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
                changes: vec![(0.5, false), (2.0, true)]
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
        assert_eq!(
            parse_changes("at_us,level\n10,1 # press\n\n20, 0\n"),
            Ok(vec![(10.0, true), (20.0, false)])
        );
        assert_eq!(
            parse_changes("10,1\n20,high\n"),
            Err((2, "`20,high` is not `at_us,level`".into()))
        );
    }
}
