//! Stimulus generators (owned by helper: machine config).
