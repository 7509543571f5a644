//! IO input streams (owned by helper: machine config).
