//! TIMER: 64-bit `mtime` and `mtimecmp` (Ibex simple_system's timer). The interrupt is
//! sticky: it rises one cycle after `mtime >= mtimecmp` and stays up until either half of
//! `mtimecmp` is written. `MTIME_HZ` (read-only) gives mtime's rate, so that firmware need
//! not assume one: the fixed timebase, or under `"cycle"` the current core clock.
//! Machine file: `[timer] timebase` (this file parses it: the example of a device's own table).

use super::{merge, Access, Act, Device, DeviceConfig, MIP_MTIP};
use crate::clock::{Clock, FS_PER_S};
use crate::config::{MachineConfig, MAX_HZ};
use confread::{ConfigError, Doc};
use serde::de::{self, Deserializer, Visitor};
use serde::Deserialize;
use std::fmt;
use toml::Spanned;

pub const MTIME: u32 = 0x0;
pub const MTIMEH: u32 = 0x4;
pub const MTIMECMP: u32 = 0x8;
pub const MTIMECMPH: u32 = 0xc;
/// Read-only: mtime's rate in Hz (writes are ignored). Away from the four Ibex registers:
/// offsets 0x10.. fault as on the RTL (tests/rtl measures that).
pub const MTIME_HZ: u32 = 0x100;

/// Rate of TIMER.MTIME. TOML: `[timer] timebase = "cycle" | <integer Hz>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Timebase {
    /// `mtime` counts CPU clock cycles (Ibex behaviour).
    Cycle,
    /// `mtime` counts at a fixed rate in Hz (> 0), independent of the CPU clock.
    Hz(u64),
}

/// The timer's table in the machine file, `[timer]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimerConfig {
    pub timebase: Timebase,
}

impl Default for TimerConfig {
    fn default() -> TimerConfig {
        TimerConfig {
            timebase: Timebase::Hz(10_000_000),
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawTimer {
    timebase: Option<Spanned<RawTimebase>>,
}

enum RawTimebase {
    Int(i64),
    Str(String),
}

impl<'de> Deserialize<'de> for RawTimebase {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = RawTimebase;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("\"cycle\" or a frequency in Hz (positive integer)")
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<RawTimebase, E> {
                Ok(RawTimebase::Int(v))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<RawTimebase, E> {
                Ok(RawTimebase::Int(i64::try_from(v).unwrap_or(i64::MAX)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<RawTimebase, E> {
                Ok(RawTimebase::Str(v.to_string()))
            }
        }
        d.deserialize_any(V)
    }
}

impl DeviceConfig for TimerConfig {
    const DEFAULT_TOML: &'static str = r#"[timer]
# Rate of TIMER.MTIME: "cycle" counts CPU clock cycles (Ibex simple_system behaviour, for RTL
# comparisons); an integer is a fixed rate in Hz (1 to 4294967295), unaffected by the CPU
# clock (an always-on timer, as on a real MCU). Firmware reads the rate in TIMER.MTIME_HZ
# (under "cycle": the current core clock).
timebase = 10000000
"#;
    type Raw = RawTimer;

    fn apply(&mut self, raw: &RawTimer, cx: &Doc) -> Result<(), ConfigError> {
        let Some(tb) = &raw.timebase else {
            return Ok(());
        };
        self.timebase = match tb.get_ref() {
            RawTimebase::Str(s) if s == "cycle" => Timebase::Cycle,
            RawTimebase::Int(n) if *n > 0 && *n as u64 <= MAX_HZ => Timebase::Hz(*n as u64),
            RawTimebase::Str(s) => {
                return Err(cx.err(
                    &tb.span(),
                    format!("unknown timebase \"{s}\""),
                    "timebase = \"cycle\" or a frequency in Hz (positive integer)",
                ))
            }
            RawTimebase::Int(n) if *n > 0 => {
                return Err(cx.err(
                    &tb.span(),
                    format!("timebase {n} Hz does not fit the 32-bit MTIME_HZ register"),
                    format!("timebase = \"cycle\" or a frequency in Hz from 1 to {MAX_HZ}"),
                ))
            }
            RawTimebase::Int(n) => {
                return Err(cx.err(
                    &tb.span(),
                    format!("timebase {n} Hz is not positive"),
                    "timebase = \"cycle\" or a frequency in Hz (positive integer)",
                ))
            }
        };
        Ok(())
    }
}

#[derive(Clone, Debug)]
pub struct Timer {
    timebase: Timebase,
    /// mtime = ticks(now) + offset (wrapping), so that software can write mtime.
    offset: u64,
    /// Resets to 0 as on the RTL: the timer line is up from reset (harmless while mie.MTIE = 0).
    pub mtimecmp: u64,
    /// The cycle at which the (sticky) interrupt line rose, if it is up.
    pub raised_at: Option<u64>,
    /// The cycle of the last write to mtime or mtimecmp (or of the last clock change): the
    /// comparison restarts there.
    pub armed_at: u64,
    /// The match cycle computed from `armed_at`, cached until the next write or clock change.
    cached_match: Option<Option<u64>>,
}

impl Timer {
    pub fn new(timebase: Timebase) -> Timer {
        Timer {
            timebase,
            offset: 0,
            mtimecmp: 0,
            raised_at: None,
            armed_at: 0,
            cached_match: None,
        }
    }

    /// Timebase ticks since reset at the start of cycle `c`.
    fn ticks(&self, clock: &Clock, c: u64) -> u64 {
        match self.timebase {
            Timebase::Cycle => c,
            Timebase::Hz(hz) => (clock.time_fs(c) * hz as u128 / FS_PER_S) as u64,
        }
    }

    pub fn mtime(&self, clock: &Clock, c: u64) -> u64 {
        self.ticks(clock, c).wrapping_add(self.offset)
    }

    /// The first cycle >= `from` at which `mtime >= mtimecmp`, or None if that is more than
    /// 2^62 ticks away (never, in practice).
    pub fn match_cycle(&self, clock: &Clock, from: u64) -> Option<u64> {
        let now = self.mtime(clock, from);
        if now >= self.mtimecmp {
            return Some(from);
        }
        let ahead = self.mtimecmp - now;
        if ahead > 1 << 62 {
            return None;
        }
        let target_ticks = self.ticks(clock, from) as u128 + ahead as u128;
        Some(match self.timebase {
            Timebase::Cycle => from + ahead,
            Timebase::Hz(hz) => {
                let t_fs = (target_ticks * FS_PER_S).div_ceil(hz as u128);
                clock.cycle_at(t_fs).max(from)
            }
        })
    }

    /// The clock changed frequency at cycle `at`: cycles of later matches change.
    pub fn rearm(&mut self, at: u64) {
        self.armed_at = self.armed_at.max(at);
        self.cached_match = None;
    }

    /// The cycle the interrupt line rises if nothing is written before: one cycle after the
    /// match (the RTL registers the comparison), the first cycle from the last write or clock
    /// change with `mtime >= mtimecmp`. None while the line is up.
    pub fn next_raise(&mut self, clock: &Clock) -> Option<u64> {
        if self.raised_at.is_some() {
            return None;
        }
        let m = match self.cached_match {
            Some(m) => m,
            None => {
                let m = self.match_cycle(clock, self.armed_at);
                self.cached_match = Some(m);
                m
            }
        };
        m.map(|m| m + 1)
    }

    /// mtime's rate in Hz now: the fixed timebase, or under `"cycle"` the core clock (which
    /// changes when an operating-point switch completes). Saturates at 32 bits (the machine
    /// file keeps both below 2^32).
    pub fn rate_hz(&self, clock: &Clock) -> u32 {
        let hz = match self.timebase {
            Timebase::Cycle => clock.hz(),
            Timebase::Hz(hz) => hz,
        };
        hz.min(u32::MAX as u64) as u32
    }

    pub fn read(&self, clock: &Clock, now: u64, reg: u32) -> Option<u32> {
        let t = self.mtime(clock, now);
        Some(match reg {
            MTIME => t as u32,
            MTIMEH => (t >> 32) as u32,
            MTIMECMP => self.mtimecmp as u32,
            MTIMECMPH => (self.mtimecmp >> 32) as u32,
            MTIME_HZ => self.rate_hz(clock),
            _ => return None,
        })
    }

    /// A store in its first cycle `now`: the register takes the new value at the end of
    /// that cycle (RTL), so a compare written at `now` can raise the line at `now + 2`.
    pub fn write(
        &mut self,
        clock: &Clock,
        now: u64,
        reg: u32,
        value: u32,
        mask: u32,
    ) -> Option<()> {
        if reg == MTIME_HZ {
            return Some(()); // read-only
        }
        let now = now + 1;
        self.armed_at = now;
        self.cached_match = None;
        match reg {
            MTIME | MTIMEH => {
                let t = self.mtime(clock, now);
                let new = if reg == MTIME {
                    (t & !0xffff_ffff) | merge(t as u32, value, mask) as u64
                } else {
                    (t & 0xffff_ffff) | (merge((t >> 32) as u32, value, mask) as u64) << 32
                };
                self.offset = new.wrapping_sub(self.ticks(clock, now));
            }
            MTIMECMP => {
                let lo = merge(self.mtimecmp as u32, value, mask) as u64;
                self.mtimecmp = (self.mtimecmp & !0xffff_ffff) | lo;
                self.raised_at = None;
            }
            MTIMECMPH => {
                let hi = merge((self.mtimecmp >> 32) as u32, value, mask) as u64;
                self.mtimecmp = (self.mtimecmp & 0xffff_ffff) | hi << 32;
                self.raised_at = None;
            }
            _ => return None,
        }
        Some(())
    }
}

impl Device for Timer {
    const TITLE: &'static str = "TIMER";
    const WINDOW: u32 = 0x1000;
    const LINES: u32 = MIP_MTIP;
    type Config = TimerConfig;

    fn build(own: &TimerConfig, _cfg: &MachineConfig, _seed: u64) -> Timer {
        Timer::new(own.timebase)
    }

    fn read(&mut self, reg: u32, cx: &mut Access) -> Option<u32> {
        // (`Timer::read` is the inherent method, which takes the clock and cycle.)
        Timer::read(self, cx.clock, cx.now, reg)
    }

    fn write(&mut self, reg: u32, value: u32, mask: u32, cx: &mut Access) -> Option<()> {
        cx.sync();
        Timer::write(self, cx.clock, cx.now, reg, value, mask)
    }

    fn next_event(&mut self, clock: &Clock) -> Option<u64> {
        self.next_raise(clock)
    }

    fn advance(&mut self, cx: &mut Act) {
        if let Some(r) = self.next_raise(cx.clock) {
            if r <= cx.now {
                self.raised_at = Some(r);
            }
        }
    }

    fn clock_changed(&mut self, at: u64) {
        self.rearm(at);
    }

    fn lines(&self) -> u32 {
        if self.raised_at.is_some() {
            MIP_MTIP
        } else {
            0
        }
    }

    /// The line may have been cleared and raised again since the machine last looked (a
    /// write to mtimecmp): its rise is always the timer's own.
    fn rose_at(&self, _bit: u32) -> Option<u64> {
        self.raised_at
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rate_register_gives_the_timebase() {
        let clock = Clock::new(100_000_000);
        let t = Timer::new(Timebase::Hz(10_000_000));
        assert_eq!(t.read(&clock, 0, MTIME_HZ), Some(10_000_000));
        let t = Timer::new(Timebase::Hz(32_768));
        assert_eq!(t.read(&clock, 5, MTIME_HZ), Some(32_768));
    }

    #[test]
    fn rate_register_follows_the_core_clock_under_cycle() {
        let mut clock = Clock::new(100_000_000);
        let t = Timer::new(Timebase::Cycle);
        assert_eq!(t.read(&clock, 0, MTIME_HZ), Some(100_000_000));
        clock.set_hz(1000, 24_000_000);
        assert_eq!(t.read(&clock, 2000, MTIME_HZ), Some(24_000_000));
    }

    #[test]
    fn rate_register_is_read_only() {
        let clock = Clock::new(100_000_000);
        let mut t = Timer::new(Timebase::Hz(10_000_000));
        t.mtimecmp = 77;
        t.raised_at = Some(3);
        assert_eq!(t.write(&clock, 10, MTIME_HZ, 5, u32::MAX), Some(()));
        assert_eq!(t.read(&clock, 10, MTIME_HZ), Some(10_000_000));
        // A write to it changes nothing else either: the line stays up.
        assert_eq!(t.raised_at, Some(3));
        assert_eq!(t.mtimecmp, 77);
        assert_eq!(
            t.read(&clock, 10, 0x10),
            None,
            "past MTIMECMPH: no register"
        );
        assert_eq!(
            t.read(&clock, 10, 0x104),
            None,
            "the next offset has no register"
        );
    }
}
