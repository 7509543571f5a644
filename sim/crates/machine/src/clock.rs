//! Simulated time. The core clock's frequency changes with the operating point; time is the
//! sum of cycles at each frequency. Time is kept in femtoseconds (u128): exact for integer
//! frequencies up to rounding of at most 1 fs per frequency change.

pub const FS_PER_S: u128 = 1_000_000_000_000_000;

/// Largest core clock and fixed timebase, in Hz: `FREQ_HZ` and `MTIME_HZ` are 32 bits.
pub const MAX_HZ: u64 = u32::MAX as u64;

#[derive(Clone, Debug)]
pub struct Clock {
    /// Start of the current constant-frequency segment.
    seg_cycle: u64,
    seg_fs: u128,
    hz: u64,
}

impl Clock {
    pub fn new(hz: u64) -> Clock {
        Clock {
            seg_cycle: 0,
            seg_fs: 0,
            hz,
        }
    }

    pub fn hz(&self) -> u64 {
        self.hz
    }

    /// Simulated time at the start of clock cycle `c` (c >= the current segment's start).
    pub fn time_fs(&self, c: u64) -> u128 {
        let n = c.saturating_sub(self.seg_cycle) as u128;
        self.seg_fs + n * FS_PER_S / self.hz as u128
    }

    pub fn time_s(&self, c: u64) -> f64 {
        self.time_fs(c) as f64 / FS_PER_S as f64
    }

    /// The first cycle whose start time is at or after `t_fs` (never before the segment start).
    pub fn cycle_at(&self, t_fs: u128) -> u64 {
        if t_fs <= self.seg_fs {
            return self.seg_cycle;
        }
        let d = t_fs - self.seg_fs;
        let n = (d * self.hz as u128).div_ceil(FS_PER_S);
        self.seg_cycle
            .saturating_add(n.min(u64::MAX as u128) as u64)
    }

    /// From cycle `c` on, the clock runs at `hz`.
    pub fn set_hz(&mut self, c: u64, hz: u64) {
        self.seg_fs = self.time_fs(c);
        self.seg_cycle = c;
        self.hz = hz;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cycles_to_time_and_back() {
        let mut c = Clock::new(100_000_000);
        assert_eq!(c.time_fs(100), 1_000_000_000); // 100 cycles at 100 MHz = 1 us
        assert_eq!(c.cycle_at(1_000_000_000), 100);
        assert_eq!(c.cycle_at(1_000_000_001), 101);
        c.set_hz(100, 66_000_000);
        assert_eq!(c.time_fs(100), 1_000_000_000);
        // 66 cycles at 66 MHz = 1 us
        assert_eq!(c.time_fs(166), 2_000_000_000);
        assert_eq!(c.cycle_at(2_000_000_000), 166);
        for k in 100..1000u64 {
            assert_eq!(c.cycle_at(c.time_fs(k)), k, "round trip at cycle {k}");
        }
    }
}
