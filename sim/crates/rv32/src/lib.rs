//! RV32IMC + Zicsr core with the cycle timing of lowRISC Ibex (simple_system configuration).
