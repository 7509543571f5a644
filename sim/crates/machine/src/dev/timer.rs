//! TIMER: 64-bit `mtime` and `mtimecmp` (Ibex simple_system's timer). The interrupt is
//! sticky: it rises one cycle after `mtime >= mtimecmp` and stays up until either half of
//! `mtimecmp` is written. `MTIME_HZ` (read-only) gives mtime's rate, so that firmware need
//! not assume one: the fixed timebase, or under `"cycle"` the current core clock.

use super::merge;
use crate::clock::{Clock, FS_PER_S};
use crate::config::Timebase;

pub const MTIME: u32 = 0x0;
pub const MTIMEH: u32 = 0x4;
pub const MTIMECMP: u32 = 0x8;
pub const MTIMECMPH: u32 = 0xc;
/// Read-only: mtime's rate in Hz (writes are ignored). Away from the four Ibex registers:
/// offsets 0x10.. fault as on the RTL (tests/rtl measures that).
pub const MTIME_HZ: u32 = 0x100;

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

    /// The cycle the interrupt line rises if nothing is written before, looking from cycle
    /// `from` (>= `armed_at`): one cycle after the match (the RTL registers the comparison).
    pub fn next_raise(&mut self, clock: &Clock, from: u64) -> Option<u64> {
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
        m.map(|m| m.max(from) + 1)
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
