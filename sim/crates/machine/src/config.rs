//! The machine description (owned by helper: machine config).
