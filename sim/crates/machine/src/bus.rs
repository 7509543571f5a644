//! The system bus: RAM and the devices by address range (static dispatch: RAM accesses
//! inline into the core's loop), implementing the core's `Bus`.

use crate::clock::Clock;
use crate::config::{WaitStates, RAM_BASE};
use crate::dev::{intc::Intc, io::IoPorts, power::Power, timer::Timer};
use crate::record::IoEvent;
use rv32::{Bus, BusFault};
use std::io::Write;

pub const SIMCTRL_BASE: u32 = 0x0002_0000;
pub const SIMCTRL_CHAR_OUT: u32 = 0x0;
pub const SIMCTRL_CTRL: u32 = 0x8;
pub const TIMER_BASE: u32 = 0x0003_0000;
pub const IO_BASE: u32 = 0x0004_0000;
pub const INTC_BASE: u32 = 0x0005_0000;
pub const POWER_BASE: u32 = 0x0006_0000;
/// Each device decodes a 4 KiB window; offsets without a register fault, except in SIMCTRL,
/// whose 1 KiB window (as on simple_system) ignores writes and reads 0 at other offsets.
const DEVICE_WINDOW: u32 = 0x1000;
const SIMCTRL_WINDOW: u32 = 0x400;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Device {
    SimCtrl,
    Timer,
    Io,
    Intc,
    Power,
}

pub struct SysBus {
    pub ram: Vec<u8>,
    pub clock: Clock,
    pub timer: Timer,
    pub io: IoPorts,
    pub intc: Intc,
    pub power: Power,
    pub wait: WaitStates,
    /// The IO record (only while `recording`).
    pub record: Vec<IoEvent>,
    pub recording: bool,
    pub console: Box<dyn Write>,
    /// The value written to SIMCTRL.CTRL with bit 0 set, once the firmware halts.
    pub halt: Option<u32>,
    /// A device write the machine must act on before the core goes on.
    pub sync: bool,
    /// Console output failed (e.g. a closed pipe): reported once by the machine.
    pub console_error: Option<String>,
}

impl SysBus {
    fn device(addr: u32) -> Option<(Device, u32)> {
        let (dev, base) = match addr & !(DEVICE_WINDOW - 1) {
            SIMCTRL_BASE => (Device::SimCtrl, SIMCTRL_BASE),
            TIMER_BASE => (Device::Timer, TIMER_BASE),
            IO_BASE => (Device::Io, IO_BASE),
            INTC_BASE => (Device::Intc, INTC_BASE),
            POWER_BASE => (Device::Power, POWER_BASE),
            _ => return None,
        };
        Some((dev, addr - base))
    }

    fn wait_of(&self, dev: Device) -> u32 {
        match dev {
            Device::SimCtrl => self.wait.simctrl,
            Device::Timer => self.wait.timer,
            Device::Io => self.wait.io,
            Device::Intc => self.wait.intc,
            Device::Power => self.wait.power,
        }
    }

    #[inline]
    fn ram_offset(&self, addr: u32, size: u32) -> Option<usize> {
        let off = addr.wrapping_sub(RAM_BASE) as usize;
        if off + size as usize <= self.ram.len() {
            Some(off)
        } else {
            None
        }
    }

    /// Read the 32-bit register at word offset `reg` of `dev`.
    fn read_reg(&mut self, dev: Device, reg: u32, now: u64) -> Option<u32> {
        match dev {
            Device::SimCtrl => (reg < SIMCTRL_WINDOW).then_some(0),
            Device::Timer => self.timer.read(&self.clock, now, reg),
            Device::Io => self.io.read(reg),
            Device::Intc => self.intc.read(reg),
            Device::Power => self.power.read(reg),
        }
    }

    fn write_reg(&mut self, dev: Device, reg: u32, value: u32, mask: u32, now: u64) -> Option<()> {
        match dev {
            Device::SimCtrl => match reg {
                SIMCTRL_CHAR_OUT => {
                    if mask & 0xff != 0 && self.console_error.is_none() {
                        if let Err(e) = self.console.write_all(&[value as u8]) {
                            self.console_error = Some(e.to_string());
                            self.sync = true;
                        }
                    }
                    Some(())
                }
                SIMCTRL_CTRL => {
                    if mask & 1 != 0 && value & 1 != 0 {
                        self.halt = Some(value);
                        self.sync = true;
                    }
                    Some(())
                }
                r if r < SIMCTRL_WINDOW => Some(()),
                _ => None,
            },
            Device::Timer => {
                self.sync = true;
                self.timer.write(&self.clock, now, reg, value, mask)
            }
            Device::Io => {
                // recorded when the store completes: its 2 cycles plus wait states
                let stamp_cycle = now + 2 + self.wait.io as u64;
                let stamp = (stamp_cycle, self.clock.time_fs(stamp_cycle));
                let record = if self.recording {
                    Some(&mut self.record)
                } else {
                    None
                };
                self.io.write(reg, value, mask, stamp, record)
            }
            Device::Intc => {
                self.sync = true;
                self.intc.write(reg, value, mask)
            }
            Device::Power => {
                self.sync = true;
                let hz = self.clock.hz();
                self.power.write(reg, value, now, hz)
            }
        }
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
        let (dev, off) = Self::device(addr).ok_or(BusFault)?;
        let shift = 8 * (off & 3);
        let word = self.read_reg(dev, off & !3, now).ok_or(BusFault)?;
        let mask = if size == 4 {
            u32::MAX
        } else {
            (1 << (8 * size)) - 1
        };
        Ok(((word >> shift) & mask, self.wait_of(dev)))
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
        let (dev, off) = Self::device(addr).ok_or(BusFault)?;
        let shift = 8 * (off & 3);
        let lane = if size == 4 {
            u32::MAX
        } else {
            ((1u32 << (8 * size)) - 1) << shift
        };
        self.write_reg(dev, off & !3, value << shift, lane, now)
            .ok_or(BusFault)?;
        Ok(self.wait_of(dev))
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
