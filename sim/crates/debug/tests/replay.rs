//! Reverse execution rests on this: a snapshot restored and replayed turn by turn through
//! the debug probe reaches exactly the state the run reached (registers, cycles, RAM, the
//! timer it reads), and the probe's watchpoints and breakpoints stop where they should.

use debug::history::History;
use debug::probe::{DebugProbe, Hit, Watch};
use gdbstub::target::ext::breakpoints::WatchKind;
use machine::config::MachineConfig;
use machine::elf::{Image, Segment};
use machine::{Machine, Outcome};
use std::collections::BTreeSet;
use std::sync::atomic::AtomicBool;

const RESET: u32 = 0x0010_0080;
const DATA: u32 = 0x0010_1000;

fn lui(rd: u32, imm20: u32) -> u32 {
    (imm20 << 12) | (rd << 7) | 0x37
}
fn addi(rd: u32, rs1: u32, imm: i32) -> u32 {
    (((imm as u32) & 0xfff) << 20) | (rs1 << 15) | (rd << 7) | 0x13
}
fn sw(rs2: u32, rs1: u32, off: i32) -> u32 {
    let o = off as u32 & 0xfff;
    ((o >> 5) << 25) | (rs2 << 20) | (rs1 << 15) | (2 << 12) | ((o & 0x1f) << 7) | 0x23
}
fn lw(rd: u32, rs1: u32, off: i32) -> u32 {
    (((off as u32) & 0xfff) << 20) | (rs1 << 15) | (2 << 12) | (rd << 7) | 0x03
}
/// jal x0 back `n` instructions.
fn back(n: i32) -> u32 {
    let o = (-4 * n) as u32;
    (((o >> 20) & 1) << 31)
        | (((o >> 1) & 0x3ff) << 21)
        | (((o >> 11) & 1) << 20)
        | (((o >> 12) & 0xff) << 12)
        | 0x6f
}

/// A loop that counts in t0, stores the count and the timer's mtime to RAM.
fn machine() -> Machine {
    machine_with(&MachineConfig::default()).0
}

/// The loop's machine on `cfg`, and its image.
fn machine_with(cfg: &MachineConfig) -> (Machine, Image) {
    let code = [
        lui(6, DATA >> 12), // t1 = DATA
        lui(7, 0x30),       // t2 = timer
        addi(5, 5, 1),      // loop: t0 += 1
        sw(5, 6, 0),        // [DATA] = t0
        lw(28, 7, 0),       // t3 = mtime
        sw(28, 6, 4),       // [DATA + 4] = t3
        back(4),
    ];
    let image = Image {
        entry: RESET,
        segments: vec![Segment {
            addr: RESET,
            data: code.iter().flat_map(|w| w.to_le_bytes()).collect(),
        }],
        symbols: vec![],
        sections: vec![],
    };
    (
        Machine::new(cfg, &image, 1, Box::new(std::io::sink())),
        image,
    )
}

/// The loop's image alone.
fn image() -> Image {
    machine_with(&MachineConfig::default()).1
}

/// Runs to position `target`, the pages written tracked for `history`.
fn run_to(m: &mut Machine, history: &mut History, pos: &mut u64, target: u64) {
    let none = BTreeSet::new();
    let mut p = DebugProbe::new(*pos, &none, &[]);
    p.until = target;
    p.ram_len = m.bus.ram.len();
    p.dirty = std::mem::take(&mut history.dirty);
    let stop = AtomicBool::new(false);
    assert_eq!(m.run_with(None, &stop, &mut p), Outcome::Paused);
    assert_eq!(p.pos, target);
    history.dirty = std::mem::take(&mut p.dirty);
    *pos = p.pos;
}

fn fingerprint(m: &Machine) -> (Vec<u32>, u32, u64, u64, Vec<u8>) {
    (
        m.hart.x[..32].to_vec(),
        m.hart.pc,
        m.hart.cycle,
        m.hart.instret,
        m.bus.ram[0x1000..0x1008].to_vec(),
    )
}

#[test]
fn a_replay_reaches_the_state_the_run_reached() {
    let mut m = machine();
    let mut history = History::new(&image(), &m);
    let mut pos = 0;
    run_to(&mut m, &mut history, &mut pos, 300);
    history.take(300, &m);
    run_to(&mut m, &mut history, &mut pos, 1000);
    let there = fingerprint(&m);
    assert!(there.4 != [0; 8], "the loop stored");

    for (snapshot, from) in [(1, 300), (0, 0)] {
        let mut p = history.restore(snapshot, &mut m);
        assert_eq!(p, from);
        run_to(&mut m, &mut history, &mut p, 1000);
        assert_eq!(fingerprint(&m), there, "replayed from position {from}");
    }
    assert_eq!(history.before(300), Some(0));
    assert_eq!(history.before(301), Some(1));
    history.truncate_from(300);
    assert_eq!(history.len(), 1);
}

#[test]
fn snapshots_share_unchanged_pages() {
    let mut m = machine();
    let mut history = History::new(&image(), &m);
    let one = history.ram_bytes();
    assert_eq!(one, 4096, "at reset: the page the image loads");
    let mut pos = 0;
    run_to(&mut m, &mut history, &mut pos, 50);
    history.take(50, &m);
    // Only the page the loop writes is new.
    assert_eq!(history.ram_bytes(), one + 4096);
    run_to(&mut m, &mut history, &mut pos, 100);
    history.take(100, &m);
    assert_eq!(history.ram_bytes(), one + 2 * 4096);
}

#[test]
fn a_big_ram_costs_only_the_pages_used() {
    // 1 GiB of RAM: the snapshots hold the image's page and the page the loop writes, and
    // neither taking nor restoring one walks the rest.
    let cfg = MachineConfig {
        ram_size: 1 << 30,
        ..MachineConfig::default()
    };
    let (mut m, image) = machine_with(&cfg);
    let t = std::time::Instant::now();
    let mut history = History::new(&image, &m);
    assert_eq!(history.ram_pages(), (1, 4096));
    let mut pos = 0;
    for n in 1..=20 {
        run_to(&mut m, &mut history, &mut pos, n * 100);
        history.take(pos, &m);
    }
    assert_eq!(
        history.ram_pages().0,
        21,
        "a page of the loop's per snapshot"
    );
    pos = history.restore(3, &mut m);
    assert_eq!(pos, 300);
    run_to(&mut m, &mut history, &mut pos, 2000);
    assert!(
        t.elapsed() < std::time::Duration::from_secs(1),
        "took {:?}",
        t.elapsed()
    );
}

#[test]
fn thinned_snapshots_restore_what_the_run_had() {
    // More snapshots than are kept, and a write by the debugger: every snapshot left
    // restores the RAM the run had there.
    let mut m = machine();
    let mut history = History::new(&image(), &m);
    let mut pos = 0;
    let mut seen = std::collections::HashMap::new();
    for n in 1..=300u64 {
        run_to(&mut m, &mut history, &mut pos, n * 7);
        if n == 150 {
            // The debugger writes a page the loop never touches.
            m.bus.ram[0x5000] = 0xab;
            history.dirty.mark(0x0010_5000, 1, m.bus.ram.len());
        }
        history.take(pos, &m);
        seen.insert(pos, (m.bus.ram[0x1000..0x1008].to_vec(), m.bus.ram[0x5000]));
    }
    assert!(history.len() <= 129);
    for i in (0..history.len()).rev().chain(0..history.len()) {
        let p = history.restore(i, &mut m);
        if p > 0 {
            let got = (m.bus.ram[0x1000..0x1008].to_vec(), m.bus.ram[0x5000]);
            assert_eq!(&got, &seen[&p], "snapshot {i} at {p}");
        } else {
            assert_eq!(m.bus.ram[0x1000..0x1008], [0; 8]);
        }
    }
}

#[test]
fn a_watched_store_and_a_breakpoint_pause_the_run() {
    let mut m = machine();
    let stop = AtomicBool::new(false);
    let none = BTreeSet::new();
    let watches = [Watch {
        addr: DATA + 4,
        len: 4,
        kind: WatchKind::Write,
    }];
    let mut p = DebugProbe::new(0, &none, &watches);
    assert_eq!(m.run_with(None, &stop, &mut p), Outcome::Paused);
    assert_eq!(p.hit, Some(Hit::Watch(WatchKind::Write, DATA + 4)));
    assert_eq!(m.hart.pc, RESET + 24, "after the store to DATA + 4");
    assert_eq!(m.hart.x[5], 1);

    let bp: BTreeSet<u32> = [RESET + 12].into();
    let mut p = DebugProbe::new(p.pos, &bp, &[]);
    assert_eq!(m.run_with(None, &stop, &mut p), Outcome::Paused);
    assert_eq!(p.hit, Some(Hit::Break));
    assert_eq!((m.hart.pc, m.hart.x[5]), (RESET + 12, 2));
}

#[test]
fn watches_match_overlapping_accesses_of_their_kind() {
    let w = Watch {
        addr: 0x100,
        len: 4,
        kind: WatchKind::Write,
    };
    assert!(w.hit(true, 0x100, 4));
    assert!(w.hit(true, 0x103, 1));
    assert!(w.hit(true, 0xfe, 4));
    assert!(!w.hit(true, 0x104, 4));
    assert!(!w.hit(true, 0xfc, 4));
    assert!(
        !w.hit(false, 0x100, 4),
        "a read does not trigger a write watch"
    );
    let r = Watch {
        kind: WatchKind::Read,
        ..w
    };
    assert!(r.hit(false, 0x100, 2) && !r.hit(true, 0x100, 2));
    let a = Watch {
        kind: WatchKind::ReadWrite,
        ..w
    };
    assert!(a.hit(false, 0x100, 2) && a.hit(true, 0x100, 2));
    let top = Watch {
        addr: 0xffff_fffc,
        len: 4,
        kind: WatchKind::Write,
    };
    assert!(
        top.hit(true, 0xffff_fffe, 2),
        "no overflow at the top of memory"
    );
}
