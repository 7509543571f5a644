//! Clock and power controller: selects an operating point (frequency, voltage). A switch
//! takes the machine file's settle time, during which the core runs on at the old frequency
//! and STATUS bit 0 reads 1; a selection written during a switch replaces the pending one.
//! The controller is the clock's source: when a switch completes, the machine changes the
//! clock (before any other device acts at that cycle) and tells every device.

mod opps;

use super::{Access, Device, DeviceConfig};
use crate::clock::Clock;
use confread::{ConfigError, Doc};

pub use opps::RawOpp;

pub const OPP_SELECT: u32 = 0x00;
pub const STATUS: u32 = 0x04;
pub const FREQ_HZ: u32 = 0x08;
pub const MILLIVOLTS: u32 = 0x0c;
pub const COUNT: u32 = 0x10;

/// One operating point. TOML: `[[opp]] hz = .., volts = ..`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Opp {
    /// Core clock frequency in Hz (> 0).
    pub hz: u64,
    /// Core voltage in volts (> 0).
    pub volts: f64,
}


/// The controller's settings, at the top level of the machine file (it has no table
/// `[power]`): the operating points (`[[opp]]`, non-empty), the one at reset (`initial_opp`)
/// and the settling time of a switch in ns (`settle_ns`).
#[derive(Clone, Debug, PartialEq)]
pub struct PowerConfig {
    pub opps: Vec<Opp>,
    pub initial_opp: usize,
    pub settle_ns: u64,
}

impl Default for PowerConfig {
    /// The built-in default machine's (`default.toml`).
    fn default() -> PowerConfig {
        PowerConfig {
            opps: vec![
                Opp {
                    hz: 100_000_000,
                    volts: 1.20,
                },
                Opp {
                    hz: 66_000_000,
                    volts: 1.05,
                },
                Opp {
                    hz: 24_000_000,
                    volts: 0.85,
                },
            ],
            initial_opp: 0,
            settle_ns: 10_000,
        }
    }
}

impl DeviceConfig for PowerConfig {
    const TABLE: bool = false;
    type Raw = serde::de::IgnoredAny;
    fn apply(&mut self, _raw: &Self::Raw, _cx: &Doc) -> Result<(), ConfigError> {
        Ok(())
    }
}

impl PowerConfig {
    /// The operating point the core starts in.
    pub fn initial(&self) -> Opp {
        self.opps[self.initial_opp]
    }

    /// The highest clock of the operating points, in Hz.
    pub fn fastest_hz(&self) -> u64 {
        self.opps.iter().map(|o| o.hz).max().unwrap_or(1)
    }
}

#[derive(Clone)]
pub struct Power {
    pub opps: Vec<Opp>,
    pub current: usize,
    settle_ns: u64,
    /// The operating point being switched to and the cycle the switch completes.
    pub switching: Option<(usize, u64)>,
    /// Switches started so far (a selection that replaces a pending one starts none), and
    /// the settle time of the last one in cycles (for observers: who pays for it).
    pub started: u64,
    pub last_settle_cycles: u64,
}

impl Power {
    pub fn new(opps: Vec<Opp>, initial: usize, settle_ns: u64) -> Power {
        Power {
            opps,
            current: initial,
            settle_ns,
            switching: None,
            started: 0,
            last_settle_cycles: 0,
        }
    }

    pub fn read(&self, reg: u32) -> Option<u32> {
        let opp = self.opps[self.current];
        Some(match reg {
            OPP_SELECT => self.switching.map_or(self.current, |s| s.0) as u32,
            STATUS => self.switching.is_some() as u32,
            FREQ_HZ => opp.hz.min(u32::MAX as u64) as u32,
            MILLIVOLTS => (opp.volts * 1000.0).round() as u32,
            COUNT => self.opps.len() as u32,
            _ => return None,
        })
    }

    /// A write at cycle `now` with the core clock at `hz`. Selecting an index that does not
    /// exist, or the current point, does nothing.
    pub fn write(&mut self, reg: u32, value: u32, now: u64, hz: u64) -> Option<()> {
        match reg {
            OPP_SELECT => {
                let idx = value as usize;
                if idx < self.opps.len() && idx != self.current {
                    let settle =
                        (self.settle_ns as u128 * hz as u128).div_ceil(1_000_000_000) as u64;
                    let done = match self.switching {
                        Some((_, done)) => done,
                        None => {
                            self.started += 1;
                            self.last_settle_cycles = settle;
                            now + settle
                        }
                    };
                    self.switching = Some((idx, done));
                } else if idx == self.current {
                    self.switching = None;
                }
            }
            STATUS | FREQ_HZ | MILLIVOLTS | COUNT => {}
            _ => return None,
        }
        Some(())
    }
}

impl Device for Power {
    const TITLE: &'static str = "clock and power controller";
    const WINDOW: u32 = 0x1000;
    type Config = PowerConfig;

    fn build(own: &PowerConfig, _seed: u64) -> Power {
        Power::new(own.opps.clone(), own.initial_opp, own.settle_ns)
    }

    fn read(&mut self, reg: u32, _cx: &mut Access) -> Option<u32> {
        Power::read(self, reg)
    }

    /// (The byte lanes are not looked at: a narrow store writes its shifted value whole.)
    fn write(&mut self, reg: u32, value: u32, _mask: u32, cx: &mut Access) -> Option<()> {
        cx.sync();
        let hz = cx.clock.hz();
        Power::write(self, reg, value, cx.now, hz)
    }

    /// The end of a switch in progress (the machine completes it).
    fn next_event(&mut self, _clock: &Clock) -> Option<u64> {
        self.switching.map(|(_, done)| done)
    }
}
