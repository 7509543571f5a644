//! Seeded deterministic PRNG (owned by helper: machine config).
