//! The system bus: RAM and the devices by address range, implementing the core's `Bus`. RAM
//! accesses inline into the core's loop; a device access goes out of line, is decoded by the
//! device list (`dev`) and dispatched statically to the device.

use crate::clock::Clock;
use crate::config::RAM_BASE;
use crate::dev::{Access, Devices, WaitStates};
use crate::record::IoEvent;
use rv32::{Bus, BusFault};
use std::io::Write;
use std::ops::{Deref, DerefMut};

pub struct SysBus {
    pub ram: Vec<u8>,
    pub clock: Clock,
    /// The devices, also reachable as fields of the bus (`bus.timer`).
    pub dev: Devices,
    pub wait: WaitStates,
    /// The IO record (only while `recording`): with a sink, only what it has not taken yet.
    pub record: Vec<IoEvent>,
    pub recording: bool,
    /// Where the record goes as the run goes, if anywhere (`Machine::stream_record`), and
    /// the first error it returned (then it is called no more).
    pub record_sink: Option<crate::record::RecordSink>,
    pub record_sink_error: Option<std::io::Error>,
    pub console: Box<dyn Write>,
    /// The value written to SIMCTRL.CTRL with bit 0 set, once the firmware halts.
    pub halt: Option<u32>,
    /// A device write the machine must act on before the core goes on.
    pub sync: bool,
    /// Console output failed (e.g. a closed pipe): reported once by the machine.
    pub console_error: Option<String>,
    /// The devices accessed since the machine last looked (bit = index in the list): their
    /// next events may have moved.
    pub touched: u32,
}

impl Deref for SysBus {
    type Target = Devices;
    fn deref(&self) -> &Devices {
        &self.dev
    }
}

impl DerefMut for SysBus {
    fn deref_mut(&mut self) -> &mut Devices {
        &mut self.dev
    }
}

impl SysBus {
    #[inline]
    fn ram_offset(&self, addr: u32, size: u32) -> Option<usize> {
        let off = addr.wrapping_sub(RAM_BASE) as usize;
        if off + size as usize <= self.ram.len() {
            Some(off)
        } else {
            None
        }
    }

    /// A debugger's read of `size` bytes at `addr` at cycle `now`: RAM as it is, a device
    /// register as a load would read it but without its side effects (the devices are
    /// read as a copy and put back). None where a load would fault.
    pub fn peek(&mut self, addr: u32, size: u32, now: u64) -> Option<u32> {
        if let Some(off) = self.ram_offset(addr, size) {
            let mut v = [0u8; 4];
            v[..size as usize].copy_from_slice(&self.ram[off..off + size as usize]);
            return Some(u32::from_le_bytes(v));
        }
        let dev = self.dev.clone();
        let (touched, sync, halt, recorded) =
            (self.touched, self.sync, self.halt, self.record.len());
        let v = self.mmio_read(addr, size, now).ok().map(|(v, _)| v);
        self.dev = dev;
        (self.touched, self.sync, self.halt) = (touched, sync, halt);
        self.record.truncate(recorded);
        v
    }

    /// An access, in its first cycle `now`, to the device register holding `addr`: a load
    /// (`store` None) or a store of `(value, mask)` (value shifted to its lanes, mask the
    /// lanes). The register's value (a load), and the device's wait states.
    fn access(
        &mut self,
        addr: u32,
        now: u64,
        store: Option<(u32, u32)>,
    ) -> Result<(u32, u32), BusFault> {
        let (id, off) = Devices::decode(addr).ok_or(BusFault)?;
        self.touched |= 1 << id.index();
        let wait = self.wait.get(id);
        let mut cx = Access {
            now,
            clock: &self.clock,
            wait,
            record: if self.recording {
                Some(&mut self.record)
            } else {
                None
            },
            sync: &mut self.sync,
            halt: &mut self.halt,
            console: &mut *self.console,
            console_error: &mut self.console_error,
        };
        let reg = off & !3;
        let v = match store {
            None => self.dev.read_reg(id, reg, &mut cx),
            Some((value, mask)) => self
                .dev
                .write_reg(id, reg, value, mask, &mut cx)
                .map(|()| 0),
        };
        let wait = cx.wait; // with any stall the device added
        v.map(|v| (v, wait)).ok_or(BusFault)
    }

    #[cold]
    fn mmio_read(&mut self, addr: u32, size: u32, now: u64) -> Result<(u32, u32), BusFault> {
        if (addr & 3) + size > 4 {
            // A misaligned access across registers: byte by byte.
            let mut v = 0;
            let mut ws = 0;
            for i in 0..size {
                let (b, w) = self.mmio_read(addr.wrapping_add(i), 1, now)?;
                v |= b << (8 * i);
                ws = ws.max(w);
            }
            return Ok((v, ws));
        }
        let shift = 8 * (addr & 3);
        let (word, ws) = self.access(addr, now, None)?;
        let mask = if size == 4 {
            u32::MAX
        } else {
            (1 << (8 * size)) - 1
        };
        Ok(((word >> shift) & mask, ws))
    }

    #[cold]
    fn mmio_write(&mut self, addr: u32, size: u32, value: u32, now: u64) -> Result<u32, BusFault> {
        if (addr & 3) + size > 4 {
            let mut ws = 0;
            for i in 0..size {
                ws = ws.max(self.mmio_write(addr.wrapping_add(i), 1, value >> (8 * i), now)?);
            }
            return Ok(ws);
        }
        let shift = 8 * (addr & 3);
        let lane = if size == 4 {
            u32::MAX
        } else {
            ((1u32 << (8 * size)) - 1) << shift
        };
        let (_, ws) = self.access(addr, now, Some((value << shift, lane)))?;
        Ok(ws)
    }
}

impl Bus for SysBus {
    #[inline(always)]
    fn read(&mut self, addr: u32, size: u32, now: u64) -> Result<(u32, u32), BusFault> {
        if let Some(off) = self.ram_offset(addr, size) {
            let r = &self.ram;
            let v = match size {
                1 => r[off] as u32,
                2 => u16::from_le_bytes([r[off], r[off + 1]]) as u32,
                _ => u32::from_le_bytes([r[off], r[off + 1], r[off + 2], r[off + 3]]),
            };
            return Ok((v, 0));
        }
        self.mmio_read(addr, size, now)
    }

    #[inline(always)]
    fn write(&mut self, addr: u32, size: u32, value: u32, now: u64) -> Result<u32, BusFault> {
        if let Some(off) = self.ram_offset(addr, size) {
            let r = &mut self.ram;
            match size {
                1 => r[off] = value as u8,
                2 => r[off..off + 2].copy_from_slice(&(value as u16).to_le_bytes()),
                _ => r[off..off + 4].copy_from_slice(&value.to_le_bytes()),
            }
            return Ok(0);
        }
        self.mmio_write(addr, size, value, now)
    }

    #[inline(always)]
    fn fetch16(&self, addr: u32) -> Option<u16> {
        let off = self.ram_offset(addr, 2)?;
        Some(u16::from_le_bytes([self.ram[off], self.ram[off + 1]]))
    }

    #[inline(always)]
    fn sync_requested(&self) -> bool {
        self.sync
    }
}
