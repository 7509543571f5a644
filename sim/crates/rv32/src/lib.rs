//! RV32IMC + Zicsr core with the cycle timing of lowRISC Ibex (simple_system configuration).
//! Decoding (`decode32`, `compressed`) is separate from execution (`hart`), from the timing
//! table (`timing`) and from the world (`bus`).

pub mod bus;
pub mod compressed;
pub mod csr;
pub mod decode32;
pub mod hart;
pub mod inst;
pub mod observer;
pub mod timing;

pub use bus::{Bus, BusFault};
pub use hart::{Exit, Hart};
pub use observer::{NoObserver, Observer};
