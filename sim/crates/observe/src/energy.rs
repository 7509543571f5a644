//! The energy model of `docs/energy.md`:
//!
//! ```text
//! E_instr    = cycles(instr) * E_cycle(V) + E_class(instr, V)
//! E_idle     = t_idle * P_sleep(V),  P_sleep(V) = sleep_fraction * E_cycle(V) * f
//! E_leak     = t * P_leak(V)          (always, active or asleep)
//! E_cycle(V) = E_cycle(Vnom) * (V/Vnom)^2,  E_class(V) = E_class(Vnom) * (V/Vnom)^2
//! P_leak(V)  = P_leak(Vnom) * (V/Vnom)
//! ```
//!
//! Leakage is charged per cycle (`P_leak(V) / f`), so every joule belongs to some cycle and
//! the energy of a category or a function is that of its cycles. Class energies are kept as
//! integer femtojoules at Vnom (exact for figures given to 0.001 pJ) and scaled when the
//! operating point changes.

use machine::config::{EnergyConfig, Opp};
use rv32::inst::Op;

/// Number of slots in the per-operation tables (every `Op` discriminant is below it).
pub const OPS: usize = 64;
const _: () = assert!((Op::Undecoded as usize) < OPS);

/// Per-cycle energies at one operating point, in pJ.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rates {
    /// E_cycle(V): dynamic energy of an active cycle.
    pub dyn_cycle_pj: f64,
    /// P_leak(V) / f: leakage per cycle.
    pub leak_cycle_pj: f64,
    /// An active cycle: E_cycle(V) + leakage.
    pub active_pj: f64,
    /// A clock-gated cycle asleep in `wfi`: sleep_fraction * E_cycle(V) + leakage.
    pub sleep_pj: f64,
    /// (V/Vnom)^2 in pJ per fJ of class energy at Vnom: 1e-3 * (V/Vnom)^2.
    pub class_pj_per_fj: f64,
}

/// The model: parameters of the machine file's `[energy]` table.
#[derive(Clone, Debug)]
pub struct Model {
    pub cfg: EnergyConfig,
    /// Class energy at Vnom in fJ by operation: a fixed part and a part per cycle (DIV/REM).
    pub class_fixed_fj: [u64; OPS],
    pub class_per_cycle_fj: [u64; OPS],
    /// A load or store to a device register instead of SRAM: e_mmio - e_mem in fJ, as a
    /// wrapping (two's complement) amount added to the SRAM figure.
    pub mmio_delta_fj: u64,
    /// The class energies at Vnom in fJ.
    pub alu_fj: u64,
    pub branch_fj: u64,
    pub mul_fj: u64,
    pub div_cycle_fj: u64,
    pub mem_fj: u64,
    pub mmio_fj: u64,
}

/// pJ to integer fJ.
pub fn fj(pj: f64) -> u64 {
    (pj * 1000.0).round() as u64
}

/// The class of an operation for `E_class` (`docs/energy.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// ALU, shift, compare, CSR, LUI/AUIPC; also fence, ecall, ebreak, wfi and illegal
    /// instructions.
    Alu,
    /// Conditional branches (taken or not), jal, jalr, mret and fence.i (a redirected fetch).
    Branch,
    Mul,
    /// Charged per divider cycle (the instruction's cycles).
    Div,
    /// Loads and stores (SRAM; a device register costs `e_mmio_pj` instead).
    Mem,
}

pub fn class_of(op: Op) -> Class {
    use Op::*;
    match op {
        Beq | Bne | Blt | Bge | Bltu | Bgeu | Jal | Jalr | Mret | FenceI => Class::Branch,
        Mul | Mulh | Mulhsu | Mulhu => Class::Mul,
        Div | Divu | Rem | Remu => Class::Div,
        Lb | Lh | Lw | Lbu | Lhu | Sb | Sh | Sw => Class::Mem,
        _ => Class::Alu,
    }
}

/// Every operation (for building the tables).
pub const ALL_OPS: [Op; 60] = {
    use Op::*;
    [
        Lui, Auipc, Jal, Jalr, Beq, Bne, Blt, Bge, Bltu, Bgeu, Lb, Lh, Lw, Lbu, Lhu, Sb, Sh, Sw,
        Addi, Slti, Sltiu, Xori, Ori, Andi, Slli, Srli, Srai, Add, Sub, Sll, Slt, Sltu, Xor, Srl,
        Sra, Or, And, Mul, Mulh, Mulhsu, Mulhu, Div, Divu, Rem, Remu, Fence, FenceI, Ecall, Ebreak,
        Mret, Wfi, Csrrw, Csrrs, Csrrc, Csrrwi, Csrrsi, Csrrci, Dret, Illegal, Undecoded,
    ]
};

impl Model {
    pub fn new(cfg: EnergyConfig) -> Model {
        let mut class_fixed_fj = [0; OPS];
        let mut class_per_cycle_fj = [0; OPS];
        for op in ALL_OPS {
            let i = op as usize;
            match class_of(op) {
                Class::Alu => class_fixed_fj[i] = fj(cfg.e_alu_pj),
                Class::Branch => class_fixed_fj[i] = fj(cfg.e_branch_pj),
                Class::Mul => class_fixed_fj[i] = fj(cfg.e_mul_pj),
                Class::Div => class_per_cycle_fj[i] = fj(cfg.e_div_cycle_pj),
                Class::Mem => class_fixed_fj[i] = fj(cfg.e_mem_pj),
            }
        }
        Model {
            cfg,
            class_fixed_fj,
            class_per_cycle_fj,
            mmio_delta_fj: fj(cfg.e_mmio_pj).wrapping_sub(fj(cfg.e_mem_pj)),
            alu_fj: fj(cfg.e_alu_pj),
            branch_fj: fj(cfg.e_branch_pj),
            mul_fj: fj(cfg.e_mul_pj),
            div_cycle_fj: fj(cfg.e_div_cycle_pj),
            mem_fj: fj(cfg.e_mem_pj),
            mmio_fj: fj(cfg.e_mmio_pj),
        }
    }

    /// (V / Vnom).
    pub fn scale(&self, volts: f64) -> f64 {
        volts / self.cfg.vnom
    }

    pub fn rates(&self, opp: Opp) -> Rates {
        let s = self.scale(opp.volts);
        let s2 = s * s;
        let dyn_cycle_pj = self.cfg.e_cycle_pj * s2;
        // Leakage, and the peripherals' constant power (not the core's: not scaled by V).
        let leak_cycle_pj = (self.cfg.leak_w * s + self.cfg.peripheral_w) / opp.hz as f64 * 1e12;
        Rates {
            dyn_cycle_pj,
            leak_cycle_pj,
            active_pj: dyn_cycle_pj + leak_cycle_pj,
            sleep_pj: self.cfg.sleep_fraction * dyn_cycle_pj + leak_cycle_pj,
            class_pj_per_fj: 1e-3 * s2,
        }
    }

    /// E_class at Vnom in pJ of one execution of `op` taking `cycles` cycles, `mmio` when a
    /// load or store went to a device register (for tests and documentation; the observer
    /// uses the integer tables).
    pub fn class_pj(&self, op: Op, cycles: u32, mmio: bool) -> f64 {
        match class_of(op) {
            Class::Alu => self.cfg.e_alu_pj,
            Class::Branch => self.cfg.e_branch_pj,
            Class::Mul => self.cfg.e_mul_pj,
            Class::Div => self.cfg.e_div_cycle_pj * cycles as f64,
            Class::Mem if mmio => self.cfg.e_mmio_pj,
            Class::Mem => self.cfg.e_mem_pj,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use machine::config::MachineConfig;

    #[test]
    fn peripheral_power_is_constant_per_second() {
        let mut cfg = MachineConfig::default();
        cfg.energy.peripheral_w = 0.05; // a 50 mW display
        let m = Model::new(cfg.energy);
        // 50 mW at 100 MHz: 500 pJ per cycle on top of the 0.05 pJ of leakage, active or not;
        // at 24 MHz (0.85 V) the same power per second, not scaled by the voltage.
        let r0 = m.rates(cfg.devices.power.opps[0]);
        assert!((r0.leak_cycle_pj - 500.05).abs() < 1e-9);
        assert!((r0.sleep_pj - (0.6 + 500.05)).abs() < 1e-9);
        let r2 = m.rates(cfg.devices.power.opps[2]);
        let per_s = r2.leak_cycle_pj * 24e6 * 1e-12;
        assert!(
            (per_s - (0.05 + 5e-6 * 0.85 / 1.2)).abs() < 1e-12,
            "{per_s}"
        );
    }

    #[test]
    fn defaults_and_v_squared() {
        let cfg = MachineConfig::default();
        let m = Model::new(cfg.energy);
        let r0 = m.rates(cfg.devices.power.opps[0]);
        assert_eq!(r0.dyn_cycle_pj, 12.0);
        // 5 uW at 100 MHz: 0.05 pJ per cycle
        assert!((r0.leak_cycle_pj - 0.05).abs() < 1e-12);
        assert!((r0.sleep_pj - (0.6 + 0.05)).abs() < 1e-12);
        let r1 = m.rates(cfg.devices.power.opps[1]); // 66 MHz, 1.05 V
        let s = 1.05 / 1.2;
        assert!((r1.dyn_cycle_pj - 12.0 * s * s).abs() < 1e-12);
        assert!((r1.leak_cycle_pj - 5e-6 * s / 66e6 * 1e12).abs() < 1e-12);
        assert!((r1.class_pj_per_fj - 1e-3 * s * s).abs() < 1e-15);
        assert_eq!(m.class_fixed_fj[Op::Lw as usize], 10_000);
        assert_eq!(m.class_fixed_fj[Op::Beq as usize], 1_000);
        assert_eq!(m.class_fixed_fj[Op::Mulh as usize], 3_000);
        assert_eq!(m.class_fixed_fj[Op::Add as usize], 0);
        assert_eq!(m.class_per_cycle_fj[Op::Div as usize], 500);
        assert_eq!(m.class_fixed_fj[Op::Div as usize], 0);
        assert_eq!(
            m.class_fixed_fj[Op::Sw as usize].wrapping_add(m.mmio_delta_fj),
            2_000
        );
    }

    #[test]
    fn every_op_listed_once() {
        let mut seen = [false; OPS];
        for op in ALL_OPS {
            assert!(!seen[op as usize]);
            seen[op as usize] = true;
        }
        assert_eq!(ALL_OPS.len(), Op::Undecoded as usize + 1);
    }
}
