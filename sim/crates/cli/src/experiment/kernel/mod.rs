//! The kernel benchmarks (`kind = "kernel"`).

pub mod footprint;
pub mod irqlat;
pub mod reduce;
