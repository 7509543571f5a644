//! The reference MCU's devices, and the list that maps them: the one place where a device is
//! added (docs/machine.md, "Adding a device").
//!
//! A device is a type implementing [`Device`] in a file of this folder. It sees register
//! accesses at a cycle ([`Access`]), acts at the cycles it asks for ([`Device::next_event`],
//! [`Device::advance`]) and says which interrupt lines it drives ([`Device::lines`]). The run
//! loop keeps one event queue for all of them (`crate::events`); the bus decodes an address
//! by the list below; the machine file gives each device its wait states (`[wait_states]`,
//! key: the device's name) and, if it has one, its own table (`[NAME]`, see
//! [`DeviceConfig`]).

#[macro_use]
mod map;

// The memory map: one line per device, `BASE => name: Type`. `name` is the device's file
// (`dev/name.rs`, declared here), its field in the bus (`bus.name`), its wait-state key and
// the name of its table in the machine file. Events due in the same cycle act in this order.
devices! {
    0x0002_0000 => simctrl: SimCtrl,
    0x0003_0000 => timer: Timer,
    0x0004_0000 => io: IoPorts,
    0x0005_0000 => intc: Intc,
    0x0006_0000 => power: Power,
    0x0007_0000 => rtm: Rtm,
    0x0008_0000 => uart: Uart,
}

use crate::clock::Clock;
use crate::config::MachineConfig;
use crate::record::IoEvent;
use confread::{ConfigError, Doc};
use serde::de::DeserializeOwned;
use std::fmt;
use std::io::Write;

/// mip bits of the lines the devices drive.
pub const MIP_MSIP: u32 = 1 << 3;
pub const MIP_MTIP: u32 = 1 << 7;
/// The external interrupt (mcause 11): no device drives it yet.
pub const MIP_MEIP: u32 = 1 << 11;
/// The fast lines 0..14 of the interrupt controller (mip bits 16..30).
pub const MIP_FAST: u32 = 0x7fff << 16;

/// Merge a byte-lane write (`value` already shifted to its lane, `mask` its bytes) into `reg`.
pub fn merge(reg: u32, value: u32, mask: u32) -> u32 {
    (reg & !mask) | (value & mask)
}

/// A device of the machine. Everything but the registers has a default: a device without
/// events, lines or a table of its own implements `TITLE`, `WINDOW`, `Config = ()`, `build`,
/// `read` and `write`.
pub trait Device {
    /// A few words on what it is: the comment beside its wait states in the default machine
    /// file.
    const TITLE: &'static str;
    /// Bytes of address space it decodes from its base (a multiple of 4, at most 64 KiB).
    /// An access inside the window that `read` or `write` refuses, and any access outside
    /// every window, is a bus fault.
    const WINDOW: u32;
    /// The mip bits it may drive ([`Device::lines`]). No two devices share a bit; the
    /// external interrupt [`MIP_MEIP`] is free. A device may also latch a fast line of the
    /// interrupt controller from its events ([`Act::latch`]).
    const LINES: u32 = 0;
    /// Its own table in the machine file (`()`: none).
    type Config: DeviceConfig;

    /// The device at reset, from its own table, the machine file and the run's seed.
    fn build(own: &Self::Config, cfg: &MachineConfig, seed: u64) -> Self
    where
        Self: Sized;

    /// A load from the 32-bit register at byte offset `reg` (a multiple of 4, inside the
    /// window), in the access's first cycle `cx.now`: the register's value, or None for a
    /// bus fault. Narrow loads take lanes of the value.
    fn read(&mut self, reg: u32, cx: &mut Access) -> Option<u32>;

    /// A store to the register at `reg`: `value` shifted to its byte lanes, `mask` the lanes
    /// written ([`merge`]). None: a bus fault. A store that changes the device's lines or its
    /// next event must call [`Access::sync`], so that the run loop asks again before the core
    /// goes on.
    fn write(&mut self, reg: u32, value: u32, mask: u32, cx: &mut Access) -> Option<()>;

    /// The cycle at which the device next acts by itself (its state changes without an
    /// access: a timer's match, a stimulus), if ever, under `clock`. Asked again after every
    /// access to the device, after it acts and when the clock changes frequency.
    fn next_event(&mut self, _clock: &Clock) -> Option<u64> {
        None
    }

    /// Acts at every one of its events due by cycle `cx.now` (at least one is).
    fn advance(&mut self, _cx: &mut Act) {}

    /// The core clock changed frequency at cycle `at`: events timed in simulated time fall
    /// at other cycles from there on.
    fn clock_changed(&mut self, _at: u64) {}

    /// The mip bits of `LINES` it drives now.
    fn lines(&self) -> u32 {
        0
    }

    /// The cycle line `bit` (up now) rose, if the device knows it. Otherwise the machine
    /// takes the first cycle it sees the line up. A line that rose in cycle L is seen by
    /// the core from cycle L + 1.
    fn rose_at(&self, _bit: u32) -> Option<u64> {
        None
    }

    /// The mip bits (a fast line n as bit 16 + n) its coming events may raise: a sleeping
    /// core with none of them enabled never wakes.
    fn wakes(&self) -> u32 {
        Self::LINES
    }
}

/// A device's own table in the machine file, `[NAME]`: its keys, their defaults (`Default`)
/// and their checks. `()` is the config of a device without one.
pub trait DeviceConfig: Clone + fmt::Debug + PartialEq + Default {
    /// Whether the machine file has a table `[NAME]` for it.
    const TABLE: bool = true;
    /// The table as `ubik machine --print-default` prints it: commented, every key present,
    /// ending in a line feed ("" without a table).
    const DEFAULT_TOML: &'static str = "";
    /// The table as written: `#[derive(Deserialize)] #[serde(deny_unknown_fields)]`, every
    /// key an `Option<Spanned<_>>`, so that unknown keys and wrong types read as they do for
    /// every other table.
    type Raw: DeserializeOwned;
    /// Applies the keys `raw` names on top of `self`. A bad value is `cx.err(span, what is
    /// wrong, what was expected)`.
    fn apply(&mut self, raw: &Self::Raw, cx: &Doc) -> Result<(), ConfigError>;
}

impl DeviceConfig for () {
    const TABLE: bool = false;
    type Raw = serde::de::IgnoredAny;
    fn apply(&mut self, _raw: &Self::Raw, _cx: &Doc) -> Result<(), ConfigError> {
        Ok(())
    }
}

/// A device of the list as the rest of the crate (and the tests) see it.
#[derive(Clone, Copy, Debug)]
pub struct DeviceInfo {
    pub name: &'static str,
    pub base: u32,
    pub window: u32,
    pub title: &'static str,
    pub lines: u32,
    /// Whether it has a table `[name]` in the machine file, and that table's default text.
    pub table: bool,
    pub default_toml: &'static str,
}

/// What a device sees of the machine during a register access.
pub struct Access<'a> {
    /// The access's first cycle.
    pub now: u64,
    pub clock: &'a Clock,
    /// The device's wait states: the access takes 2 + `wait` cycles.
    pub wait: u32,
    /// The IO record, while the machine keeps one.
    pub record: Option<&'a mut Vec<IoEvent>>,
    pub(crate) sync: &'a mut bool,
    pub(crate) halt: &'a mut Option<u32>,
    pub(crate) console: &'a mut dyn Write,
    pub(crate) console_error: &'a mut Option<String>,
}

impl Access<'_> {
    /// The machine must look at the devices again before the core goes on: the access changed
    /// a line, the device's next event or the clock.
    pub fn sync(&mut self) {
        *self.sync = true;
    }

    /// The access takes `cycles` more: the device holds the bus while it works out the
    /// value (the RTM's queries).
    pub fn stall(&mut self, cycles: u32) {
        self.wait += cycles;
    }

    /// The firmware halts the machine with `value` (the run ends after this instruction).
    pub fn halt(&mut self, value: u32) {
        *self.halt = Some(value);
        self.sync();
    }

    /// A byte for the console (stdout of `ubik run`). A console that cannot be written ends
    /// the run; later bytes are dropped.
    pub fn console(&mut self, byte: u8) {
        if write_console(self.console, self.console_error, byte) {
            self.sync();
        }
    }
}

/// Writes `byte` unless the console failed before; true if it fails now (the run ends).
fn write_console(console: &mut dyn Write, error: &mut Option<String>, byte: u8) -> bool {
    if error.is_none() {
        if let Err(e) = console.write_all(&[byte]) {
            *error = Some(e.to_string());
            return true;
        }
    }
    false
}

/// What a device sees of the machine when it acts on its events ([`Device::advance`]).
pub struct Act<'a> {
    /// The cycle the machine has reached: every event at or before it is due.
    pub now: u64,
    pub clock: &'a Clock,
    /// The IO record, while the machine keeps one.
    pub record: Option<&'a mut Vec<IoEvent>>,
    /// Fast lines a latch raises (enabled, not up already), and the machine's rise cycle
    /// of each mip bit.
    rising: u32,
    rose_at: &'a mut [Option<u64>; 32],
    /// Fast lines latched (bit n = line n).
    latched: u32,
    console: &'a mut dyn Write,
    console_error: &'a mut Option<String>,
}

impl<'a> Act<'a> {
    pub(crate) fn new(
        now: u64,
        clock: &'a Clock,
        record: Option<&'a mut Vec<IoEvent>>,
        rising: u32,
        rose_at: &'a mut [Option<u64>; 32],
        console: &'a mut dyn Write,
        console_error: &'a mut Option<String>,
    ) -> Self {
        Act {
            now,
            clock,
            record,
            rising,
            rose_at,
            latched: 0,
            console,
            console_error,
        }
    }

    /// A byte for the console, as [`Access::console`].
    pub fn console(&mut self, byte: u8) {
        write_console(self.console, self.console_error, byte);
    }

    /// Latches fast line `line` (0..14) in the interrupt controller's PENDING, as an event at
    /// cycle `at()` (<= `now`): if the line is enabled and not up already, it rose then (at
    /// the earliest such cycle). `at` is called only then (a cycle from a time in seconds
    /// costs a division).
    pub fn latch(&mut self, line: u8, at: impl FnOnce() -> u64) {
        if self.rising >> line & 1 != 0 {
            let c = at();
            let r = &mut self.rose_at[16 + line as usize];
            if r.is_none_or(|r| c < r) {
                *r = Some(c);
            }
        }
        self.latched |= 1 << line;
    }

    /// The fast lines latched (bit n = line n).
    pub(crate) fn latched(&self) -> u32 {
        self.latched
    }
}

/// `0x0002_0000` for 0x20000: how the docs and the default machine file write an address.
pub fn address_text(a: u32) -> String {
    format!("0x{:04X}_{:04X}", a >> 16, a & 0xffff)
}

/// The `[wait_states]` section of the default machine file, then each device's own table
/// before it: what the device list contributes to `ubik machine --print-default`.
pub fn default_toml() -> String {
    let mut s = String::new();
    for d in DEVICES.iter().filter(|d| d.table) {
        s.push_str(d.default_toml);
        s.push('\n');
    }
    s.push_str(
        "# Extra wait states per register access, per device. A device access costs 2 cycles \
         plus these.\n[wait_states]\n",
    );
    for d in &DEVICES {
        let key = format!("{} = 0", d.name);
        s.push_str(&format!(
            "{key:<12} # {} {}\n",
            address_text(d.base),
            d.title
        ));
    }
    s
}
