//! SIMCTRL (Ibex simple_system's simulator control): a byte written to CHAR_OUT goes to the
//! console; a write to CTRL with bit 0 set halts the machine. As on simple_system it decodes
//! a 1 KiB window, whose other offsets ignore writes and read 0 (so do CHAR_OUT and CTRL).

use super::{Access, Device};

pub const CHAR_OUT: u32 = 0x0;
pub const CTRL: u32 = 0x8;

#[derive(Clone, Debug, Default)]
pub struct SimCtrl;

impl Device for SimCtrl {
    const TITLE: &'static str = "SIMCTRL";
    const WINDOW: u32 = 0x400;
    type Config = ();

    fn build(_own: &(), _seed: u64) -> SimCtrl {
        SimCtrl
    }

    fn read(&mut self, _reg: u32, _cx: &mut Access) -> Option<u32> {
        Some(0)
    }

    fn write(&mut self, reg: u32, value: u32, mask: u32, cx: &mut Access) -> Option<()> {
        match reg {
            CHAR_OUT if mask & 0xff != 0 => cx.console(value as u8),
            CTRL if mask & 1 != 0 && value & 1 != 0 => cx.halt(value),
            _ => {} // other offsets, other lanes, CTRL without bit 0: nothing
        }
        Some(())
    }
}
