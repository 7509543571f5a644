//! `--vcd`: the IO record as a value change dump (open it with GTKWave). Time unit: 1 fs
//! (the machine's own resolution), timestamps are simulated time.
//!
//! Signals, in scope `ubik`: `gpio` (32 bits, all pins) and `gpioN` (1 bit) for every pin
//! that changes; `outN` (32 bits, the value last written to IO port N) and `outN_write`
//! (an event at every write, so that writes of an unchanged value show) for every port
//! written; `stimN` (32 bits, the number of events of stimulus line N so far: 0 until the
//! first, so that every event, the first included, is an edge) and `stimN_event` (an event
//! at each) for every line raised; `gpio_inN` (1 bit) for every scripted input pin that
//! changes (its level before the first change is the opposite of that change); `uart_tx` and `uart_rx` (8 bits, the last byte sent or
//! received) with `uart_tx_byte` and `uart_rx_byte` (an event at each) when the UART moved
//! a byte.

use machine::record::{IoEvent, IoKind};
use std::collections::BTreeMap;
use std::io::Write;
use vcd::{IdCode, SimulationCommand, TimescaleUnit, Value, VarType};

fn bits(v: u32, n: u32) -> Vec<Value> {
    (0..n)
        .rev()
        .map(|i| {
            if v >> i & 1 != 0 {
                Value::V1
            } else {
                Value::V0
            }
        })
        .collect()
}

/// Writes `record` (in any order; sorted by cycle here, stable) as VCD of a run that ended
/// at simulated time `end_fs`: the dump's last timestamp, so that a viewer shows the last
/// values lasting to the end of the run (an event after `end_fs` moves the end to it).
pub fn write_vcd<W: Write>(
    w: W,
    record: &[IoEvent],
    comment: &str,
    end_fs: u128,
) -> std::io::Result<()> {
    let mut rows: Vec<&IoEvent> = record.iter().collect();
    rows.sort_by_key(|e| e.cycle);
    let mut pins = 0u32;
    let mut ports: BTreeMap<u32, ()> = BTreeMap::new();
    let mut lines: BTreeMap<u32, ()> = BTreeMap::new();
    let mut uart = [false; 2];
    // Scripted input pins: the level before each one's first change.
    let mut inputs: BTreeMap<u32, u32> = BTreeMap::new();
    for e in &rows {
        match e.kind {
            IoKind::Gpio => pins |= 1 << (e.port & 31),
            IoKind::Out => {
                ports.insert(e.port, ());
            }
            IoKind::Stimulus => {
                lines.insert(e.port, ());
            }
            IoKind::GpioIn => {
                inputs.entry(e.port).or_insert(e.value ^ 1);
            }
            IoKind::UartTx => uart[0] = true,
            IoKind::UartRx => uart[1] = true,
        }
    }
    let mut v = vcd::Writer::new(std::io::BufWriter::new(w));
    v.comment(comment)?;
    v.version("ubik run --vcd")?;
    v.timescale(1, TimescaleUnit::FS)?;
    v.add_module("ubik")?;
    let gpio_bus = v.add_wire(32, "gpio")?;
    let mut pin_id: BTreeMap<u32, IdCode> = BTreeMap::new();
    for p in 0..32 {
        if pins >> p & 1 != 0 {
            pin_id.insert(p, v.add_wire(1, &format!("gpio{p}"))?);
        }
    }
    let mut port_id: BTreeMap<u32, (IdCode, IdCode)> = BTreeMap::new();
    for &p in ports.keys() {
        let val = v.add_var(VarType::Reg, 32, &format!("out{p}"), None)?;
        let strobe = v.add_var(VarType::Event, 1, &format!("out{p}_write"), None)?;
        port_id.insert(p, (val, strobe));
    }
    let mut line_id: BTreeMap<u32, (IdCode, IdCode)> = BTreeMap::new();
    for &l in lines.keys() {
        let count = v.add_var(VarType::Reg, 32, &format!("stim{l}"), None)?;
        let strobe = v.add_var(VarType::Event, 1, &format!("stim{l}_event"), None)?;
        line_id.insert(l, (count, strobe));
    }
    let mut input_id: BTreeMap<u32, IdCode> = BTreeMap::new();
    for &p in inputs.keys() {
        input_id.insert(p, v.add_wire(1, &format!("gpio_in{p}"))?);
    }
    let mut uart_id: [Option<(IdCode, IdCode)>; 2] = [None, None];
    for (i, name) in ["uart_tx", "uart_rx"].iter().enumerate() {
        if uart[i] {
            let val = v.add_var(VarType::Reg, 8, name, None)?;
            let strobe = v.add_var(VarType::Event, 1, &format!("{name}_byte"), None)?;
            uart_id[i] = Some((val, strobe));
        }
    }
    v.upscope()?;
    v.enddefinitions()?;
    v.timestamp(0)?;
    v.begin(SimulationCommand::Dumpvars)?;
    v.change_vector(gpio_bus, bits(0, 32))?;
    for &id in pin_id.values() {
        v.change_scalar(id, Value::V0)?;
    }
    for &(val, _) in port_id.values() {
        v.change_vector(val, bits(0, 32))?;
    }
    for &(id, _) in line_id.values() {
        v.change_vector(id, bits(0, 32))?;
    }
    for (p, &id) in &input_id {
        v.change_scalar(id, if inputs[p] != 0 { Value::V1 } else { Value::V0 })?;
    }
    for &(id, _) in uart_id.iter().flatten() {
        v.change_vector(id, bits(0, 8))?;
    }
    v.end()?;
    let mut level = 0u32;
    let mut last_t: Option<u64> = Some(0);
    for e in rows {
        let t = e.time_fs.min(u64::MAX as u128) as u64;
        if last_t != Some(t) {
            v.timestamp(t)?;
            last_t = Some(t);
        }
        match e.kind {
            IoKind::Gpio => {
                let p = e.port & 31;
                level = (level & !(1 << p)) | (e.value & 1) << p;
                v.change_scalar(
                    pin_id[&p],
                    if e.value & 1 != 0 {
                        Value::V1
                    } else {
                        Value::V0
                    },
                )?;
                v.change_vector(gpio_bus, bits(level, 32))?;
            }
            IoKind::Out => {
                let (val, strobe) = port_id[&e.port];
                v.change_vector(val, bits(e.value, 32))?;
                v.change_scalar(strobe, Value::V1)?;
            }
            IoKind::Stimulus => {
                // The record numbers events from 0: the count after event k is k + 1.
                let (count, strobe) = line_id[&e.port];
                v.change_vector(count, bits(e.value.wrapping_add(1), 32))?;
                v.change_scalar(strobe, Value::V1)?;
            }
            IoKind::GpioIn => {
                let level = if e.value & 1 != 0 {
                    Value::V1
                } else {
                    Value::V0
                };
                v.change_scalar(input_id[&e.port], level)?;
            }
            IoKind::UartTx | IoKind::UartRx => {
                let (val, strobe) = uart_id[(e.kind == IoKind::UartRx) as usize].unwrap();
                v.change_vector(val, bits(e.value, 8))?;
                v.change_scalar(strobe, Value::V1)?;
            }
        }
    }
    let end = end_fs.min(u64::MAX as u128) as u64;
    if last_t.is_some_and(|t| t < end) {
        v.timestamp(end)?;
    }
    v.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_stimulus_is_an_edge() {
        let ev = |cycle: u64, value: u32| IoEvent {
            cycle,
            time_fs: cycle as u128 * 10_000_000,
            kind: IoKind::Stimulus,
            port: 2,
            value,
        };
        let mut out = Vec::new();
        write_vcd(&mut out, &[ev(100, 0), ev(200, 1)], "test", 2_000_000_000).unwrap();
        let mut p = vcd::Parser::new(&out[..]);
        let h = p.parse_header().unwrap();
        let count = h.find_var(&["ubik", "stim2"]).unwrap().code;
        let strobe = h.find_var(&["ubik", "stim2_event"]).unwrap().code;
        let (mut now, mut seen) = (0, Vec::new());
        for c in p {
            match c.unwrap() {
                vcd::Command::Timestamp(t) => now = t,
                vcd::Command::ChangeVector(i, b) if i == count => {
                    let v = b
                        .iter()
                        .fold(0u32, |a, x| a << 1 | (x == vcd::Value::V1) as u32);
                    seen.push((now, "count", v));
                }
                vcd::Command::ChangeScalar(i, _) if i == strobe => seen.push((now, "event", 1)),
                _ => {}
            }
        }
        assert_eq!(
            seen,
            [
                (0, "count", 0),
                (1_000_000_000, "count", 1),
                (1_000_000_000, "event", 1),
                (2_000_000_000, "count", 2),
                (2_000_000_000, "event", 1),
            ]
        );
    }

    #[test]
    fn the_dump_lasts_to_the_end_of_the_run() {
        let ev = IoEvent {
            cycle: 100,
            time_fs: 1_000_000_000,
            kind: IoKind::Gpio,
            port: 3,
            value: 1,
        };
        let stamps = |record: &[IoEvent], end: u128| {
            let mut out = Vec::new();
            write_vcd(&mut out, record, "test", end).unwrap();
            let mut p = vcd::Parser::new(&out[..]);
            p.parse_header().unwrap();
            p.filter_map(|c| match c.unwrap() {
                vcd::Command::Timestamp(t) => Some(t),
                _ => None,
            })
            .collect::<Vec<_>>()
        };
        assert_eq!(
            stamps(&[ev], 5_000_000_000),
            [0, 1_000_000_000, 5_000_000_000]
        );
        assert_eq!(stamps(&[], 5_000_000_000), [0, 5_000_000_000]);
        // A run that ends at its last change, or at reset: no empty stretch.
        assert_eq!(stamps(&[ev], 1_000_000_000), [0, 1_000_000_000]);
        assert_eq!(stamps(&[], 0), [0]);
    }
}
