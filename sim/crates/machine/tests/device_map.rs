//! The device list (`machine::dev`, one line per device) is the one place that maps a device:
//! these checks hold for whatever the list holds, so that adding a device is its file plus
//! its line (docs/machine.md, "Adding a device"). Every device has a window of its own below
//! RAM that the bus decodes to it, lines no other device drives, a wait-state key (and its
//! table, if it has one) in the machine file, and its rows in docs/machine.md.

use machine::config::{MachineConfig, RAM_BASE};
use machine::dev::{self, address_text, Devices, DEVICES};
use std::path::PathBuf;

fn machine_md() -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../docs/machine.md");
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

#[test]
fn windows_are_disjoint_aligned_and_below_ram() {
    for d in &DEVICES {
        assert!(
            d.window > 0 && d.window % 4 == 0 && d.window <= 0x1_0000,
            "{}: window {:#x}",
            d.name,
            d.window
        );
        assert_eq!(
            d.base % 4,
            0,
            "{}: base {:#x} not word-aligned",
            d.name,
            d.base
        );
        let end = d.base as u64 + d.window as u64;
        assert!(
            end <= RAM_BASE as u64,
            "{}: window reaches into RAM (RAM may start at {RAM_BASE:#x})",
            d.name
        );
    }
    for (i, a) in DEVICES.iter().enumerate() {
        for b in &DEVICES[i + 1..] {
            let apart = a.base + a.window <= b.base || b.base + b.window <= a.base;
            assert!(apart, "{} and {} overlap", a.name, b.name);
        }
    }
}

#[test]
fn the_bus_decodes_each_window_to_its_device() {
    for (i, d) in DEVICES.iter().enumerate() {
        let last = d.base + d.window - 1;
        for (addr, off) in [(d.base, 0), (last, d.window - 1)] {
            let (id, got) = Devices::decode(addr).expect("decoded");
            assert_eq!((id.index(), got), (i, off), "{} at {addr:#x}", d.name);
        }
        let past = Devices::decode(d.base + d.window);
        assert!(
            past.is_none_or(|(id, _)| id.index() != i),
            "{}: decoded past its window",
            d.name
        );
    }
    assert!(Devices::decode(0).is_none());
    assert!(Devices::decode(RAM_BASE).is_none(), "RAM is not a device");
}

#[test]
fn names_are_distinct_keys_and_lines_are_disjoint() {
    let mut lines = 0u32;
    for (i, d) in DEVICES.iter().enumerate() {
        assert!(
            !d.name.is_empty()
                && d.name
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'),
            "{}: not a lower-case TOML key",
            d.name
        );
        assert!(
            DEVICES[..i].iter().all(|o| o.name != d.name),
            "{} twice",
            d.name
        );
        assert_eq!(dev::NAMES[i], d.name);
        // mip bits Ibex has: MSIP 3, MTIP 7, MEIP 11, fast 16..30.
        let ibex = dev::MIP_MSIP | dev::MIP_MTIP | dev::MIP_MEIP | dev::MIP_FAST;
        assert_eq!(d.lines & !ibex, 0, "{}: lines {:#x}", d.name, d.lines);
        assert_eq!(
            lines & d.lines,
            0,
            "{}: a line another device drives",
            d.name
        );
        lines |= d.lines;
    }
}

#[test]
fn every_device_has_its_wait_states_and_table_in_the_machine_file() {
    for (i, d) in DEVICES.iter().enumerate() {
        let c = MachineConfig::from_str(&format!("[wait_states]\n{} = 7\n", d.name), "m.toml")
            .unwrap_or_else(|e| panic!("{}: {e}", d.name));
        for id in dev::ALL {
            let want = if id.index() == i { 7 } else { 0 };
            assert_eq!(c.wait_states.get(id), want, "[wait_states] {}", d.name);
        }
        let table = MachineConfig::from_str(&format!("[{}]\n", d.name), "m.toml");
        assert_eq!(table.is_ok(), d.table, "[{}]: {table:?}", d.name);
        let printed = MachineConfig::default_toml();
        let line = format!("{} = 0", d.name);
        let comment = format!("# {} {}", address_text(d.base), d.title);
        assert!(
            printed
                .lines()
                .any(|l| l.starts_with(&line) && l.ends_with(&comment)),
            "--print-default has no `{line}  {comment}`"
        );
        if d.table {
            assert!(
                printed.contains(&format!("\n[{}]\n", d.name)),
                "--print-default has no [{}]",
                d.name
            );
        }
    }
    let e = MachineConfig::from_str("[wait_states]\nnone = 1\n", "m.toml").unwrap_err();
    let keys: Vec<String> = DEVICES.iter().map(|d| format!("`{}`", d.name)).collect();
    assert_eq!(
        e.to_string(),
        format!(
            "m.toml:2:1: unknown key `none`; expected one of the keys {}",
            keys.join(", ")
        )
    );
}

#[test]
fn docs_map_every_device_and_its_registers() {
    let md = machine_md();
    assert!(md.contains("\n## Adding a device\n"), "no recipe");
    for d in &DEVICES {
        let row = format!(
            "| {} .. {} |",
            address_text(d.base),
            address_text(d.base + d.window - 1)
        );
        assert!(
            md.contains(&row),
            "docs/machine.md's memory map has no row `{row}` for {}",
            d.name
        );
        let reg = format!("\n| {}.", d.name.to_uppercase());
        assert!(
            md.contains(&reg),
            "docs/machine.md's register table has no row for {} (`{}`)",
            d.name,
            reg.trim()
        );
    }
}
