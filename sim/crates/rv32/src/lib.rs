//! RV32IMC + Zicsr core with the cycle timing of lowRISC Ibex (simple_system configuration).
//! One decoded form (`inst::Inst`, produced by `decode32` and `compressed`, cached as an
//! `icache::Slot`) drives the semantics (`execute`), the timing model (`timing`) and the
//! observer hooks (`observer`), which the run loop (`hart`) calls in turn; exceptions,
//! interrupts and sleep are in `trap`, the world behind `bus`.

pub mod bus;
pub mod compressed;
pub mod csr;
pub mod decode32;
pub mod disasm;
mod execute;
pub mod hart;
mod icache;
pub mod inst;
pub mod observer;
pub mod pmp;
pub mod timing;
mod trap;

pub use bus::{Bus, BusFault};
pub use hart::{Exit, Hart};
pub use observer::{NoObserver, Observer};
