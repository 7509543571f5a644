//! The Ubik reference MCU: RAM, SIMCTRL, TIMER, IO ports, interrupt controller with stimulus
//! generators, clock/power controller (the device list: `dev`); the run loop and its event
//! queue; the machine description (TOML) and ELF loading. The core (`rv32`) knows nothing of
//! these devices; it sees them only through `rv32::Bus`.

pub mod bus;
pub mod clock;
pub mod config;
pub mod dev;
pub mod elf;
pub mod events;
pub use confread::infile;
pub mod inject;
pub mod input;
pub mod machine;
pub mod record;
pub mod rng;
pub mod stimulus;
pub use confread::textfile;

pub use machine::{Counts, Machine, Outcome, Probe};
