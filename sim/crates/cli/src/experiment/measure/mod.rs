//! The measurement extractors every experiment kind shares: what a run's console output and
//! its IO record say, as typed values, and the one definition of a distribution's figures.
//!
//! - console.rs: the console's records, in order -- `key value` lines (`coop 412 398 2`) and
//!   tagged samples (`PREFIX FIGURE key=value ...`, e.g. Rhealstone's `rh task_switch
//!   sample=3 mcycle=412`, Thread-Metric's `tm basic count=...`);
//! - edges.rs: pairs of IO-record events (a start event to the next end event: a stimulus,
//!   a GPIO pin's edge, an IO-port write, a UART byte), the events that found no partner, and
//!   the latencies' distribution; the selectors' TOML form (`"stimulus:0"`, `"pin:2:rise"`,
//!   `"out:0"`, `"uart:rx:0x0a"`) with located errors;
//! - dist.rs: [`Distribution`] (count, mean, min, p50, p90, p99, max) and the percentile
//!   every kind uses (nearest rank: dist.rs says exactly which sample).

// A library every kind draws on: no kind uses all of it.
#![allow(dead_code)]

pub mod console;
pub mod dist;
pub mod edges;
