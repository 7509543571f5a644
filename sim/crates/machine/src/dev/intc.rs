//! Interrupt controller: fast lines 0..14 latch in PENDING when a source (a stimulus
//! generator) fires; software clears them by writing 1s to ACK. Line i reaches the core while
//! PENDING[i] and ENABLE[i] are both set. MSIP drives the machine software interrupt.

use super::merge;

pub const PENDING: u32 = 0x0;
pub const ENABLE: u32 = 0x4;
pub const ACK: u32 = 0x8;
pub const MSIP: u32 = 0xc;

pub const FAST_LINES: u32 = 15;
const LINE_MASK: u32 = (1 << FAST_LINES) - 1;

#[derive(Clone, Debug, Default)]
pub struct Intc {
    pub pending: u32,
    pub enable: u32,
    pub msip: bool,
}

impl Intc {
    /// The fast lines raised to the core (bit i = line i).
    pub fn lines(&self) -> u32 {
        self.pending & self.enable
    }

    pub fn latch(&mut self, line: u8) {
        self.pending |= 1 << line;
    }

    pub fn read(&self, reg: u32) -> Option<u32> {
        Some(match reg {
            PENDING => self.pending,
            ENABLE => self.enable,
            ACK => 0,
            MSIP => self.msip as u32,
            _ => return None,
        })
    }

    pub fn write(&mut self, reg: u32, value: u32, mask: u32) -> Option<()> {
        match reg {
            PENDING => {} // read-only: only sources set it, only ACK clears it
            ENABLE => self.enable = merge(self.enable, value, mask) & LINE_MASK,
            ACK => self.pending &= !(value & mask),
            MSIP => {
                if mask & 1 != 0 {
                    self.msip = value & 1 != 0;
                }
            }
            _ => return None,
        }
        Some(())
    }
}
