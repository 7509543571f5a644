//! RTM: the Real-Time Task Manager, a task database in hardware (Kohout, Ganesh and Jacob,
//! "Hardware support for real-time operating systems", CODES+ISSS 2003). Each record holds
//! one task's status bits, priority, event id and delay; the device answers "the
//! highest-priority ready record", "the highest-priority record pending on event E" and "the
//! highest-priority record whose delay expired" through a binary tree of comparators, and
//! counts every delay down at once when the kernel writes a tick. docs/machine.md has the
//! registers; `hw/rtm/rtm.v` is the same device in Verilog, checked against this model.
//!
//! A query is a load; it costs the access (2 cycles + wait states) plus the tree's delay:
//! `ceil(log2(records) / query_levels_per_cycle)` cycles, during which the load stalls.
//! Machine file: `[rtm] records`, `query_levels_per_cycle`.

use super::{merge, Access, Device, DeviceConfig};
use crate::config::MachineConfig;
use confread::{ConfigError, Doc};
use serde::Deserialize;
use toml::Spanned;

/// Records: record i at 8 * i, two words (the record count is at most 256: 0x000..0x7FF).
pub const RECORD_STRIDE: u32 = 8;
pub const RECORDS_END: u32 = 0x800;
/// Read-only: the number of records.
pub const RECORDS: u32 = 0x800;
/// Query (read): the highest-priority ready record, or [`NONE`].
pub const READY: u32 = 0x804;
/// Query (read): the highest-priority record whose delay expired (status EXPIRED), or
/// [`NONE`].
pub const EXPIRED: u32 = 0x808;
/// Write N: every valid delayed record's delay goes down by N (to 0 at least); a record that
/// reaches 0 clears DELAYED and sets EXPIRED. Reads 0.
pub const TICK: u32 = 0x80c;
/// Read-only: the cycles a query stalls the load beyond the access itself.
pub const QUERY_CYCLES: u32 = 0x810;
/// Query (read): the ready record with the earliest deadline, or [`NONE`]. Deadlines are
/// 16-bit tick counts compared by their distance ahead of NOW (wrapping).
pub const EARLIEST: u32 = 0x814;
/// Read-only: the device's 16-bit tick count (every TICK adds its N).
pub const NOW: u32 = 0x818;
/// Query (read) at EVENT + 4 * E: the highest-priority record pending on event E, or NONE.
pub const EVENT: u32 = 0xc00;
/// What a query returns when no record qualifies.
pub const NONE: u32 = u32::MAX;

/// Status bits (byte 0 of a record's first word).
pub const VALID: u8 = 1 << 0;
pub const DELAYED: u8 = 1 << 1;
pub const PENDING: u8 = 1 << 2;
pub const SUSPENDED: u8 = 1 << 3;
pub const EXPIRED_BIT: u8 = 1 << 4;
/// The status bits a record keeps; the others read 0.
pub const STATUS_BITS: u8 = 0x1f;

pub const MAX_RECORDS: u32 = 256;

/// `[rtm]` in the machine file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RtmConfig {
    /// Task records, 1..=256.
    pub records: u32,
    /// Levels of the comparator tree settled per clock cycle, 1..=8.
    pub query_levels_per_cycle: u32,
}

impl Default for RtmConfig {
    fn default() -> RtmConfig {
        RtmConfig {
            records: 64,
            query_levels_per_cycle: 3,
        }
    }
}

impl RtmConfig {
    /// The tree's depth: ceil(log2(records)) levels of priority-test cells.
    pub fn levels(&self) -> u32 {
        32 - (self.records.max(1) - 1).leading_zeros()
    }

    /// Cycles a query adds to its load.
    pub fn query_cycles(&self) -> u32 {
        self.levels().div_ceil(self.query_levels_per_cycle)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawRtm {
    records: Option<Spanned<i64>>,
    query_levels_per_cycle: Option<Spanned<i64>>,
}

impl DeviceConfig for RtmConfig {
    const DEFAULT_TOML: &'static str = r#"[rtm]
# Task records of the Real-Time Task Manager (1 to 256; each decodes 8 bytes from 0x0007_0000).
records = 64
# Levels of its comparator tree (ceil(log2(records)) deep) settled per clock cycle (1 to 8):
# a query (a load of READY, EXPIRED or EVENT[e]) stalls ceil(levels / this) cycles beyond the
# access.
query_levels_per_cycle = 3
"#;
    type Raw = RawRtm;

    fn apply(&mut self, raw: &RawRtm, cx: &Doc) -> Result<(), ConfigError> {
        if let Some(r) = &raw.records {
            let n = *r.get_ref();
            if !(1..=MAX_RECORDS as i64).contains(&n) {
                return Err(cx.err(
                    &r.span(),
                    format!("records = {n} is out of range"),
                    format!("records = an integer from 1 to {MAX_RECORDS}"),
                ));
            }
            self.records = n as u32;
        }
        if let Some(l) = &raw.query_levels_per_cycle {
            let n = *l.get_ref();
            if !(1..=8).contains(&n) {
                return Err(cx.err(
                    &l.span(),
                    format!("query_levels_per_cycle = {n} is out of range"),
                    "query_levels_per_cycle = an integer from 1 to 8",
                ));
            }
            self.query_levels_per_cycle = n as u32;
        }
        Ok(())
    }
}

/// One task record.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Record {
    pub status: u8,
    pub prio: u8,
    pub event: u8,
    pub delay: u16,
    pub deadline: u16,
}

impl Record {
    fn word0(&self) -> u32 {
        self.status as u32 | (self.prio as u32) << 8 | (self.event as u32) << 16
    }

    fn is(&self, bits: u8) -> bool {
        self.status & bits == bits
    }

    /// The ready test: valid, and neither delayed, pending nor suspended.
    pub fn ready(&self) -> bool {
        self.status & (VALID | DELAYED | PENDING | SUSPENDED) == VALID
    }
}

/// The device: the records and the query cost. Everything it does happens in the access that
/// asks for it: it has no events and drives no line.
#[derive(Clone, Debug)]
pub struct Rtm {
    pub records: Vec<Record>,
    pub now: u16,
    query_cycles: u32,
}

impl Rtm {
    pub fn new(cfg: &RtmConfig) -> Rtm {
        Rtm {
            records: vec![Record::default(); cfg.records as usize],
            now: 0,
            query_cycles: cfg.query_cycles(),
        }
    }

    /// The index of the record passing `test` with the lowest priority value, the lowest
    /// index among equals (the tree prefers its left input on a tie), or [`NONE`].
    pub fn query(&self, test: impl Fn(&Record) -> bool) -> u32 {
        self.query_by(test, |r| r.prio as u16)
    }

    /// As [`Rtm::query`], with the key `key` in place of the priority.
    fn query_by(&self, test: impl Fn(&Record) -> bool, key: impl Fn(&Record) -> u16) -> u32 {
        let mut best: Option<(u16, usize)> = None;
        for (i, r) in self.records.iter().enumerate() {
            if test(r) && best.is_none_or(|(k, _)| key(r) < k) {
                best = Some((key(r), i));
            }
        }
        best.map_or(NONE, |(_, i)| i as u32)
    }

    /// A tick of `n`: delays count down, the ones reaching 0 expire.
    pub fn tick(&mut self, n: u32) {
        self.now = self.now.wrapping_add(n as u16);
        for r in &mut self.records {
            if r.is(VALID | DELAYED) {
                if n >= r.delay as u32 {
                    r.delay = 0;
                    r.status = (r.status & !DELAYED) | EXPIRED_BIT;
                } else {
                    r.delay -= n as u16;
                }
            }
        }
    }

    /// The register at `reg` as a load sees it (queries included), or None for a bus fault.
    pub fn load(&self, reg: u32) -> Option<u32> {
        if reg < RECORDS_END {
            let r = self.records.get((reg / RECORD_STRIDE) as usize)?;
            return Some(if reg & 4 == 0 {
                r.word0()
            } else {
                r.delay as u32 | (r.deadline as u32) << 16
            });
        }
        if reg >= EVENT {
            let e = ((reg - EVENT) / 4) as u8;
            return Some(self.query(|r| r.is(VALID | PENDING) && r.event == e));
        }
        match reg {
            RECORDS => Some(self.records.len() as u32),
            READY => Some(self.query(Record::ready)),
            EXPIRED => Some(self.query(|r| r.is(VALID | EXPIRED_BIT))),
            TICK => Some(0),
            QUERY_CYCLES => Some(self.query_cycles),
            EARLIEST => {
                let now = self.now;
                Some(self.query_by(Record::ready, |r| r.deadline.wrapping_sub(now)))
            }
            NOW => Some(self.now as u32),
            _ => None,
        }
    }

    /// A store to `reg` (`value` in its lanes, `mask` the lanes), or None for a bus fault.
    pub fn store(&mut self, reg: u32, value: u32, mask: u32) -> Option<()> {
        if reg < RECORDS_END {
            let r = self.records.get_mut((reg / RECORD_STRIDE) as usize)?;
            if reg & 4 == 0 {
                let w = merge(r.word0(), value, mask);
                r.status = w as u8 & STATUS_BITS;
                r.prio = (w >> 8) as u8;
                r.event = (w >> 16) as u8;
            } else {
                let w = merge(r.delay as u32 | (r.deadline as u32) << 16, value, mask);
                r.delay = w as u16;
                r.deadline = (w >> 16) as u16;
            }
            return Some(());
        }
        match reg {
            TICK => {
                self.tick(merge(0, value, mask));
                Some(())
            }
            RECORDS | READY | EXPIRED | QUERY_CYCLES | EARLIEST | NOW => Some(()), // read-only
            _ if reg >= EVENT => Some(()),
            _ => None,
        }
    }

    fn is_query(reg: u32) -> bool {
        reg == READY || reg == EXPIRED || reg == EARLIEST || reg >= EVENT
    }
}

impl Device for Rtm {
    const TITLE: &'static str = "Real-Time Task Manager (hardware task records and queries)";
    const WINDOW: u32 = 0x1000;
    type Config = RtmConfig;

    fn build(own: &RtmConfig, _cfg: &MachineConfig, _seed: u64) -> Rtm {
        Rtm::new(own)
    }

    fn read(&mut self, reg: u32, cx: &mut Access) -> Option<u32> {
        let v = self.load(reg)?;
        if Rtm::is_query(reg) {
            cx.stall(self.query_cycles);
        }
        Some(v)
    }

    fn write(&mut self, reg: u32, value: u32, mask: u32, _cx: &mut Access) -> Option<()> {
        self.store(reg, value, mask)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rtm(records: u32) -> Rtm {
        Rtm::new(&RtmConfig {
            records,
            query_levels_per_cycle: 3,
        })
    }

    fn set(r: &mut Rtm, i: u32, status: u8, prio: u8, event: u8) {
        let w = status as u32 | (prio as u32) << 8 | (event as u32) << 16;
        r.store(i * 8, w, u32::MAX).unwrap();
    }

    #[test]
    fn query_cost_follows_the_tree_depth() {
        let c = |records, l| {
            RtmConfig {
                records,
                query_levels_per_cycle: l,
            }
            .query_cycles()
        };
        assert_eq!((c(1, 3), c(2, 3), c(16, 3), c(64, 3), c(256, 3)), (0, 1, 2, 2, 3));
        assert_eq!((c(64, 1), c(64, 6), c(65, 1)), (6, 1, 7));
    }

    #[test]
    fn ready_query_takes_the_lowest_priority_value_then_the_lowest_index() {
        let mut r = rtm(64);
        assert_eq!(r.load(READY), Some(NONE));
        set(&mut r, 5, VALID, 10, 0);
        set(&mut r, 9, VALID, 3, 0);
        set(&mut r, 2, VALID, 3, 0);
        set(&mut r, 1, VALID | SUSPENDED, 0, 0);
        set(&mut r, 3, VALID | DELAYED, 0, 0);
        set(&mut r, 4, VALID | PENDING, 0, 0);
        set(&mut r, 6, 0, 0, 0); // not valid
        assert_eq!(r.load(READY), Some(2));
        set(&mut r, 2, VALID | SUSPENDED, 3, 0);
        assert_eq!(r.load(READY), Some(9));
    }

    #[test]
    fn event_query_matches_pending_records_of_that_event() {
        let mut r = rtm(16);
        set(&mut r, 0, VALID | PENDING | SUSPENDED, 7, 3);
        set(&mut r, 1, VALID | PENDING, 5, 4);
        set(&mut r, 2, VALID | PENDING, 6, 3);
        set(&mut r, 3, VALID, 1, 3); // not pending
        assert_eq!(r.load(EVENT + 4 * 3), Some(2));
        assert_eq!(r.load(EVENT + 4 * 4), Some(1));
        assert_eq!(r.load(EVENT + 4 * 255), Some(NONE));
    }

    #[test]
    fn tick_counts_delays_down_and_expires_them() {
        let mut r = rtm(8);
        set(&mut r, 0, VALID | DELAYED | SUSPENDED, 4, 0);
        r.store(4, 3, 0xffff).unwrap();
        set(&mut r, 1, VALID | DELAYED, 2, 0);
        r.store(12, 1, u32::MAX).unwrap();
        set(&mut r, 2, DELAYED, 0, 0); // not valid: untouched
        r.store(20, 1, u32::MAX).unwrap();
        r.store(TICK, 1, u32::MAX).unwrap();
        assert_eq!(r.load(4), Some(2));
        assert_eq!(r.load(8), Some((VALID | EXPIRED_BIT) as u32 | 2 << 8));
        assert_eq!(r.load(READY), Some(1), "an expired delay is ready");
        assert_eq!(r.load(EXPIRED), Some(1));
        assert_eq!(r.load(20), Some(1));
        r.store(TICK, 5, u32::MAX).unwrap();
        assert_eq!(r.load(0), Some((VALID | SUSPENDED | EXPIRED_BIT) as u32 | 4 << 8));
        assert_eq!(r.load(4), Some(0));
        assert_eq!(r.load(EXPIRED), Some(1), "priority 2 before 4");
        r.store(8, 0, 0xff).unwrap(); // clear record 1's status byte
        assert_eq!(r.load(EXPIRED), Some(0));
    }

    #[test]
    fn earliest_deadline_query_wraps_around_now() {
        let mut r = rtm(8);
        assert_eq!(r.load(EARLIEST), Some(NONE));
        for (i, d) in [(0, 0xfff0u32), (1, 0x0005), (2, 0xfffa), (3, 0x0001)] {
            set(&mut r, i, VALID, 0, 0);
            r.store(i * 8 + 4, d << 16, 0xffff_0000).unwrap();
        }
        assert_eq!(r.load(EARLIEST), Some(3), "now = 0: 0x0001 is the earliest");
        r.store(TICK, 0xfff0, u32::MAX).unwrap();
        assert_eq!(r.load(NOW), Some(0xfff0));
        assert_eq!(r.load(EARLIEST), Some(0), "0xfff0 is due now, the others after the wrap");
        set(&mut r, 0, VALID | SUSPENDED, 0, 0);
        assert_eq!(r.load(EARLIEST), Some(2));
    }

    #[test]
    fn byte_lanes_and_reserved_bits() {
        let mut r = rtm(4);
        r.store(0, 0xffff_ffff, u32::MAX).unwrap();
        assert_eq!(r.load(0), Some(0x00ff_ff1f));
        r.store(0, 0x0000_4200, 0x0000_ff00).unwrap(); // sb to the priority byte
        assert_eq!(r.load(0), Some(0x00ff_421f));
        r.store(4, 0xdead_beef, u32::MAX).unwrap();
        assert_eq!(r.load(4), Some(0xdead_beef));
        r.store(4, 0x0000_0001, 0x0000_ffff).unwrap(); // sh to the delay
        assert_eq!(r.load(4), Some(0xdead_0001));
    }

    #[test]
    fn records_past_the_count_and_unknown_registers_fault() {
        let mut r = rtm(4);
        assert_eq!(r.load(4 * 8), None);
        assert_eq!(r.store(4 * 8, 0, u32::MAX), None);
        assert_eq!(r.load(0x81c), None);
        assert_eq!(r.store(0xbfc, 0, u32::MAX), None);
        assert_eq!(r.load(RECORDS), Some(4));
        assert_eq!(r.load(QUERY_CYCLES), Some(1));
        assert_eq!(r.store(READY, 1, u32::MAX), Some(()));
    }
}
