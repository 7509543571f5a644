//! IO ports: OUT[n] writes are recorded with their cycle and time (nothing is lost: the
//! record is the measurement, when the machine keeps one); IN[n] reads return the next
//! sample of input stream n; GPIO pins are set, cleared and read, and every edge is recorded.

use super::{merge, Access, Device};
use crate::config::MachineConfig;
use crate::input::InputStream;
use crate::record::{IoEvent, IoKind};

pub const PORTS: u32 = 32;
pub const OUT: u32 = 0x000;
pub const IN: u32 = 0x100;
pub const GPIO_SET: u32 = 0x200;
pub const GPIO_CLEAR: u32 = 0x204;
pub const GPIO_LEVEL: u32 = 0x208;

#[derive(Clone)]
pub struct IoPorts {
    out: [u32; PORTS as usize],
    inputs: Vec<Option<InputStream>>,
    pub pins: u32,
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
    type Config = ();

    fn build(_own: &(), cfg: &MachineConfig, _seed: u64) -> IoPorts {
        IoPorts::new(cfg.inputs.iter().map(InputStream::new).collect())
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
}
