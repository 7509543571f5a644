//! The machine driven directly (machine::Machine) with tiny hand-assembled images: halt value,
//! console bytes, bus faults with mcause/mtval, the timer's raise cycle in both timebases, a
//! periodic stimulus's exact cycles in the IO record, an operating-point switch's settle
//! time and the time per operating point, wfi with nothing to wake it, a trap loop, the
//! cycle limit. Exact cycles here are those spec/machine.md and spec/contract.md fix.

use machine::config::MachineConfig;
use machine::elf::{Image, Segment};
use machine::record::IoKind;
use machine::{Machine, Outcome};
use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

// ---- a very small assembler ----------------------------------------------------------

const ZERO: u32 = 0;
const T0: u32 = 5;
const T1: u32 = 6;
const A0: u32 = 10;

fn lui(rd: u32, imm20: u32) -> u32 {
    (imm20 << 12) | (rd << 7) | 0x37
}
fn addi(rd: u32, rs1: u32, imm: i32) -> u32 {
    (((imm as u32) & 0xfff) << 20) | (rs1 << 15) | (rd << 7) | 0x13
}
fn ori(rd: u32, rs1: u32, imm: i32) -> u32 {
    (((imm as u32) & 0xfff) << 20) | (rs1 << 15) | (6 << 12) | (rd << 7) | 0x13
}
fn slli(rd: u32, rs1: u32, sh: u32) -> u32 {
    (sh << 20) | (rs1 << 15) | (1 << 12) | (rd << 7) | 0x13
}
/// rd = value (lui + addi).
fn li(rd: u32, v: u32) -> [u32; 2] {
    let lo = ((v & 0xfff) as i32) << 20 >> 20;
    let hi = v.wrapping_sub(lo as u32) >> 12;
    [lui(rd, hi), addi(rd, rd, lo)]
}
fn sw(rs2: u32, rs1: u32, off: i32) -> u32 {
    let o = off as u32 & 0xfff;
    ((o >> 5) << 25) | (rs2 << 20) | (rs1 << 15) | (2 << 12) | ((o & 0x1f) << 7) | 0x23
}
fn sb(rs2: u32, rs1: u32, off: i32) -> u32 {
    let o = off as u32 & 0xfff;
    ((o >> 5) << 25) | (rs2 << 20) | (rs1 << 15) | ((o & 0x1f) << 7) | 0x23
}
fn lw(rd: u32, rs1: u32, off: i32) -> u32 {
    (((off as u32) & 0xfff) << 20) | (rs1 << 15) | (2 << 12) | (rd << 7) | 0x03
}
fn csrr(rd: u32, csr: u32) -> u32 {
    (csr << 20) | (2 << 12) | (rd << 7) | 0x73
}
fn csrs(csr: u32, rs1: u32) -> u32 {
    (csr << 20) | (rs1 << 15) | (2 << 12) | 0x73
}
fn jal(rd: u32, off: i32) -> u32 {
    let o = off as u32;
    (((o >> 20) & 1) << 31)
        | (((o >> 1) & 0x3ff) << 21)
        | (((o >> 11) & 1) << 20)
        | (((o >> 12) & 0xff) << 12)
        | (rd << 7)
        | 0x6f
}
const SPIN: u32 = 0x0000_006f; // j .
const WFI: u32 = 0x1050_0073;
const MRET: u32 = 0x3020_0073;
const UNIMP: u32 = 0xC000_1073; // csrrw x0, cycle, x0: illegal
const MCAUSE: u32 = 0x342;
const MIE: u32 = 0x304;

const RAM: u32 = 0x0010_0000;
const RESET: u32 = 0x0010_0080;
const HANDLER: u32 = 0x0010_0400;

/// Halt with value (rs << 1) | 1 (exit code = rs).
fn halt_with(rs: u32) -> Vec<u32> {
    let mut v = vec![slli(rs, rs, 1), ori(rs, rs, 1)];
    v.extend(li(T0, 0x0002_0000));
    v.push(sw(rs, T0, 8));
    v.push(SPIN);
    v
}

/// An image: `code` at the reset PC; exceptions (vector 0) jump to `handler` if given.
fn image(code: &[u32], handler: Option<&[u32]>) -> Image {
    let mut segments = Vec::new();
    if let Some(h) = handler {
        segments.push(Segment {
            addr: RAM,
            data: jal(ZERO, (HANDLER - RAM) as i32).to_le_bytes().to_vec(),
        });
        segments.push(Segment {
            addr: HANDLER,
            data: h.iter().flat_map(|w| w.to_le_bytes()).collect(),
        });
    }
    segments.push(Segment {
        addr: RESET,
        data: code.iter().flat_map(|w| w.to_le_bytes()).collect(),
    });
    Image {
        entry: RESET,
        segments,
        symbols: Vec::new(),
        sections: Vec::new(),
    }
}

/// Exception handler: halt with mcause as the exit code.
fn halt_mcause() -> Vec<u32> {
    let mut v = vec![csrr(A0, MCAUSE)];
    v.extend(halt_with(A0));
    v
}

#[derive(Clone, Default)]
struct Console(Arc<Mutex<Vec<u8>>>);
impl Write for Console {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn machine_with(cfg: &MachineConfig, img: &Image) -> (Machine, Console) {
    let c = Console::default();
    (Machine::new(cfg, img, 1, Box::new(c.clone())), c)
}

fn run(m: &mut Machine, max: Option<u64>) -> Outcome {
    m.run(max, &AtomicBool::new(false))
}

fn cfg(text: &str) -> MachineConfig {
    MachineConfig::from_str(text, "test.toml").expect("machine file")
}

// ---- tests ----------------------------------------------------------------------------

#[test]
fn halt_value_and_console() {
    let mut code = Vec::new();
    code.extend(li(T0, 0x0002_0000));
    code.extend(li(T1, 0x4142_4300 | b'o' as u32));
    code.push(sw(T1, T0, 0)); // word write: byte 0 'o'
    code.extend(li(T1, b'k' as u32));
    code.push(sb(T1, T0, 0));
    code.push(sb(T1, T0, 1)); // byte 1 of CHAR_OUT: not a console byte
    code.extend(li(T1, 0xFFFF_FF95));
    code.push(sw(T1, T0, 8));
    code.push(SPIN);
    let (mut m, con) = machine_with(&MachineConfig::default(), &image(&code, None));
    assert_eq!(run(&mut m, Some(10_000)), Outcome::Halted(0xFFFF_FF95));
    assert_eq!(&*con.0.lock().unwrap(), b"ok");
}

#[test]
fn ctrl_without_bit0_does_not_halt() {
    let mut code = Vec::new();
    code.extend(li(T0, 0x0002_0000));
    code.extend(li(T1, 0xFFFF_FFFE));
    code.push(sw(T1, T0, 8));
    code.push(SPIN);
    let (mut m, _) = machine_with(&MachineConfig::default(), &image(&code, None));
    assert_eq!(run(&mut m, Some(5_000)), Outcome::MaxCycles);
}

#[test]
fn simctrl_ignores_its_other_offsets() {
    let mut code = Vec::new();
    code.extend(li(T0, 0x0002_0004));
    code.push(sw(T1, T0, 0));
    code.push(lw(T1, T0, 0x3f8));
    code.extend(li(T1, 1));
    code.push(sw(T1, T0, 4)); // CTRL at 0x20008: halt with exit 0
    code.push(SPIN);
    let (mut m, _) = machine_with(
        &MachineConfig::default(),
        &image(&code, Some(&halt_mcause())),
    );
    assert_eq!(run(&mut m, Some(10_000)), Outcome::Halted(1));
}

#[test]
fn unmapped_accesses_fault_with_mtval() {
    for (addr, store) in [
        (0x0000_0000u32, false),
        (0x0008_0000, false),
        (0x0004_0300, false),
        (0x0000_0000, true),
        (0x0008_0000, true),
        (0x0004_0300, true),
        (0x0020_0000, false),
        // SIMCTRL decodes 1 KiB (offsets other than CHAR_OUT/CTRL are ignored, as on the
        // RTL); past it nothing answers.
        (0x0002_0400, true),
        (0x0003_0010, false),
    ] {
        let mut code = Vec::new();
        code.extend(li(T0, addr));
        code.push(if store { sw(T1, T0, 0) } else { lw(T1, T0, 0) });
        code.push(SPIN);
        let (mut m, _) = machine_with(
            &MachineConfig::default(),
            &image(&code, Some(&halt_mcause())),
        );
        let want = if store { 7 } else { 5 };
        assert_eq!(
            run(&mut m, Some(10_000)),
            Outcome::Halted(want << 1 | 1),
            "{} at 0x{addr:08x}",
            if store { "store" } else { "load" }
        );
        assert_eq!(
            m.hart.csr.mtval, addr,
            "mtval of the access at 0x{addr:08x}"
        );
        assert_eq!(m.hart.csr.mepc, RESET + 8, "mepc: the faulting instruction");
    }
}

/// Program: mtimecmph = 0; mtimecmp = `cmp`; spin.
fn timer_program(cmp: u32) -> Vec<u32> {
    let mut code = Vec::new();
    code.extend(li(T0, 0x0003_0000));
    code.push(sw(ZERO, T0, 0xc));
    code.extend(li(T1, cmp));
    code.push(sw(T1, T0, 8));
    code.push(SPIN);
    code
}

#[test]
fn timer_raises_one_cycle_after_the_match_cycle_timebase() {
    let c = cfg("[timer]\ntimebase = \"cycle\"\n");
    let (mut m, _) = machine_with(&c, &image(&timer_program(1000), None));
    assert_eq!(run(&mut m, Some(1000)), Outcome::MaxCycles);
    assert_eq!(
        m.bus.timer.raised_at, None,
        "not raised before mtime reaches mtimecmp"
    );
    assert_eq!(run(&mut m, Some(2000)), Outcome::MaxCycles);
    // mtime = 1000 at cycle 1000: the line rises at cycle 1001, and stays (sticky).
    assert_eq!(m.bus.timer.raised_at, Some(1001));
    assert_ne!(m.hart.mip & (1 << 7), 0, "mip.MTIP");
}

#[test]
fn timer_raises_one_cycle_after_the_match_10mhz() {
    // Default: 10 MHz mtime at 100 MHz: mtime = 100 at cycle 1000.
    let (mut m, _) = machine_with(&MachineConfig::default(), &image(&timer_program(100), None));
    assert_eq!(run(&mut m, Some(3000)), Outcome::MaxCycles);
    assert_eq!(m.bus.timer.raised_at, Some(1001));
    assert_ne!(m.hart.mip & (1 << 7), 0, "mip.MTIP");
}

#[test]
fn periodic_stimulus_latches_at_exact_cycles() {
    let c = cfg("[[stimulus]]\nline = 3\nkind = \"periodic\"\nperiod_us = 1\nstart_us = 0.5\n");
    let (mut m, _) = machine_with(&c, &image(&[SPIN], None));
    assert_eq!(run(&mut m, Some(1000)), Outcome::MaxCycles);
    let ev: Vec<(u64, u32, u32)> = m
        .record()
        .iter()
        .filter(|e| e.kind == IoKind::Stimulus)
        .map(|e| (e.cycle, e.port, e.value))
        .collect();
    let want: Vec<(u64, u32, u32)> = (0..10)
        .map(|k| (50 + 100 * k as u64, 3, k as u32))
        .collect();
    assert_eq!(ev, want, "events at 0.5 us + k us, 100 MHz");
    for e in m.record() {
        assert_eq!(
            e.time_fs,
            e.cycle as u128 * 10_000_000,
            "time stamp of cycle {}",
            e.cycle
        );
    }
    assert_eq!(m.bus.intc.pending, 1 << 3, "PENDING bit 3 latched");
    assert_eq!(m.hart.mip >> 16, 0, "not enabled: the core does not see it");
}

#[test]
fn io_port_writes_are_recorded_in_order() {
    let mut code = Vec::new();
    code.extend(li(T0, 0x0004_0000));
    code.extend(li(T1, 0x1234_5678));
    code.push(sw(T1, T0, 4 * 7)); // OUT[7]
    code.push(sw(ZERO, T0, 4 * 31)); // OUT[31] = 0
    code.extend(li(T1, 0b1010));
    code.push(sw(T1, T0, 0x200)); // GPIO set pins 1, 3
    code.push(sw(T1, T0, 0x204)); // clear them
    code.push(SPIN);
    let (mut m, _) = machine_with(&MachineConfig::default(), &image(&code, None));
    run(&mut m, Some(1000));
    let rec: Vec<(IoKind, u32, u32)> = m
        .record()
        .iter()
        .map(|e| (e.kind, e.port, e.value))
        .collect();
    assert_eq!(
        rec,
        vec![
            (IoKind::Out, 7, 0x1234_5678),
            (IoKind::Out, 31, 0),
            (IoKind::Gpio, 1, 1),
            (IoKind::Gpio, 3, 1),
            (IoKind::Gpio, 1, 0),
            (IoKind::Gpio, 3, 0),
        ]
    );
    let c: Vec<u64> = m.record().iter().map(|e| e.cycle).collect();
    assert!(
        c[0] < c[1] && c[1] < c[2] && c[2] == c[3] && c[3] < c[4] && c[4] == c[5],
        "stamps {c:?}"
    );
}

#[test]
fn opp_switch_settles_then_time_runs_at_the_new_frequency() {
    let mut code = Vec::new();
    code.extend(li(T0, 0x0006_0000));
    code.extend(li(T1, 2));
    code.push(sw(T1, T0, 0)); // OPP_SELECT = 2 (24 MHz), settle 10 us
    code.push(SPIN);
    let (mut m, _) = machine_with(&MachineConfig::default(), &image(&code, None));
    assert_eq!(run(&mut m, Some(500)), Outcome::MaxCycles);
    assert!(
        m.bus.power.switching.is_some(),
        "STATUS bit 0 during the settle time"
    );
    assert_eq!(
        m.bus.clock.hz(),
        100_000_000,
        "old frequency while settling"
    );
    assert_eq!(run(&mut m, Some(241_000)), Outcome::MaxCycles);
    assert!(m.bus.power.switching.is_none());
    assert_eq!(m.bus.clock.hz(), 24_000_000);
    let k = m.counts();
    let t0 = k.opp_time_s[0];
    let t2 = k.opp_time_s[2];
    // The store happens within the first ~20 cycles; the switch completes 1000 cycles later.
    assert!(t0 >= 1000e-8 && t0 <= 1020e-8, "time at P0: {t0}");
    let c0 = (t0 * 1e8).round();
    assert!(
        (t2 - (k.cycles as f64 - c0) / 24e6).abs() < 1e-12,
        "time at P2: {t2}"
    );
    assert_eq!(k.opp_time_s[1], 0.0);
    assert!((k.sim_time_s - t0 - t2).abs() < 1e-12);
    assert!(
        k.sim_time_s > 0.0099,
        "~240,000 cycles at 24 MHz = 10 ms: {}",
        k.sim_time_s
    );
}

#[test]
fn wfi_with_nothing_enabled_never_wakes() {
    let (mut m, _) = machine_with(&MachineConfig::default(), &image(&[WFI, SPIN], None));
    assert_eq!(
        run(&mut m, Some(1_000_000_000)),
        Outcome::SleepForever { pc: RESET }
    );
}

#[test]
fn wfi_sleeps_until_the_timer_and_mcycle_stops() {
    // mie.MTIE, mtimecmp = 100 ticks (cycle 1000), wfi, then halt 0.
    let mut code = Vec::new();
    code.extend(li(T1, 1 << 7));
    code.push(csrs(MIE, T1));
    code.extend(li(T0, 0x0003_0000));
    code.push(sw(ZERO, T0, 0xc));
    code.extend(li(T1, 100));
    code.push(sw(T1, T0, 8));
    code.push(WFI);
    code.extend(li(A0, 0));
    code.extend(halt_with(A0));
    let (mut m, _) = machine_with(&MachineConfig::default(), &image(&code, None));
    assert_eq!(run(&mut m, Some(100_000)), Outcome::Halted(1));
    let k = m.counts();
    assert!(
        k.cycles > 1000 && k.cycles < 1100,
        "woke at the timer: {} cycles",
        k.cycles
    );
    assert!(
        k.mcycle < 100,
        "mcycle {} counts only awake cycles",
        k.mcycle
    );
    assert_eq!(m.hart.slept, k.cycles - k.mcycle, "slept = cycles - mcycle");
}

#[test]
fn trap_loop_is_reported() {
    let (mut m, _) = machine_with(
        &MachineConfig::default(),
        &image(&[UNIMP, SPIN], Some(&[MRET])),
    );
    assert_eq!(
        run(&mut m, Some(10_000_000)),
        Outcome::TrapLoop {
            cause: 2,
            pc: RESET,
            tval: UNIMP
        }
    );
}

#[test]
fn max_cycles_stops_at_the_limit() {
    let (mut m, _) = machine_with(&MachineConfig::default(), &image(&[SPIN], None));
    assert_eq!(run(&mut m, Some(12_345)), Outcome::MaxCycles);
    let k = m.counts();
    assert!(
        k.cycles >= 12_345 && k.cycles < 12_345 + 4,
        "stopped at {}",
        k.cycles
    );
}
