//! The timeline of a run and its `--trace` output in the Chrome/Perfetto trace-event JSON
//! format (`{"traceEvents": [...]}`; open it at https://ui.perfetto.dev or chrome://tracing).
//!
//! Tracks (threads of process 1): `core` (the clock-gated sleeps in `wfi`), `interrupts`
//! (each trap from entry to `mret`), then one per task and HISR (kernel-aware runs only)
//! with a slice for every stretch it ran. Counters: `power` (W, the average power between
//! two samples), `frequency` (Hz) and `voltage` (V). Names are metadata events.

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::io::Write;

pub const TRACK_CORE: u32 = 0;
pub const TRACK_IRQ: u32 = 1;
const PID: u32 = 1;
const FS_PER_US: f64 = 1e9;

#[derive(Clone, Copy, Debug)]
struct ClockSeg {
    cycle: u64,
    fs: u128,
    hz: u64,
}

#[derive(Clone, Debug)]
pub struct Track {
    pub name: String,
    /// Task priority (tasks only).
    pub prio: Option<u32>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slice {
    pub track: u32,
    pub name: u32,
    pub start: u64,
    pub end: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CounterKind {
    Power,
    Frequency,
    Voltage,
}

#[derive(Clone, Copy, Debug)]
pub struct Counter {
    pub cycle: u64,
    pub kind: CounterKind,
    pub value: f64,
}

#[derive(Clone, Debug)]
pub struct Timeline {
    pub kernel_aware: bool,
    clock: Vec<ClockSeg>,
    pub tracks: Vec<Track>,
    pub slices: Vec<Slice>,
    pub names: Vec<String>,
    name_ids: HashMap<String, u32>,
    pub counters: Vec<Counter>,
    /// (name, cycle, argument): operating-point switches requested (settle cycles).
    pub instants: Vec<(u32, u64, u64)>,
    ctx_tracks: HashMap<(u32, u32, String), u32>,
    ctx_open: Option<(u32, u64)>,
    traps_open: Vec<(u32, u64)>,
    asleep: Option<u64>,
    last_sample: (u64, u128, f64),
    /// Every context switch: (cycle, track).
    pub switches: Vec<(u64, u32)>,
}

/// The name of a trap: interrupts by line, exceptions by cause.
pub fn trap_name(cause: u32) -> String {
    if cause >> 31 != 0 {
        match cause & 0x1f {
            3 => "software interrupt".into(),
            7 => "timer interrupt".into(),
            11 => "external interrupt".into(),
            c if c >= 16 => format!("irq line {}", c - 16),
            c => format!("interrupt {c}"),
        }
    } else {
        format!("exception: {}", machine::machine::cause_name(cause))
    }
}

impl Timeline {
    pub fn new(kernel_aware: bool) -> Timeline {
        Timeline {
            kernel_aware,
            clock: Vec::new(),
            tracks: vec![
                Track {
                    name: "core".into(),
                    prio: None,
                },
                Track {
                    name: "interrupts".into(),
                    prio: None,
                },
            ],
            slices: Vec::new(),
            names: Vec::new(),
            name_ids: HashMap::new(),
            counters: Vec::new(),
            instants: Vec::new(),
            ctx_tracks: HashMap::new(),
            ctx_open: None,
            traps_open: Vec::new(),
            asleep: None,
            last_sample: (0, 0, 0.0),
            switches: Vec::new(),
        }
    }

    pub fn intern(&mut self, name: &str) -> u32 {
        if let Some(&i) = self.name_ids.get(name) {
            return i;
        }
        let i = self.names.len() as u32;
        self.names.push(name.to_string());
        self.name_ids.insert(name.to_string(), i);
        i
    }

    /// Simulated time at the start of cycle `c`, fs.
    pub fn time_fs(&self, c: u64) -> u128 {
        let i = self.clock.partition_point(|s| s.cycle <= c);
        match i.checked_sub(1).map(|i| self.clock[i]) {
            Some(s) => s.fs + (c - s.cycle) as u128 * 1_000_000_000_000_000 / s.hz as u128,
            None => 0,
        }
    }

    pub fn time_us(&self, c: u64) -> f64 {
        self.time_fs(c) as f64 / FS_PER_US
    }

    /// The clock runs at `hz`, `volts` from cycle `at` (time `fs`) on.
    pub fn clock(&mut self, at: u64, fs: u128, hz: u64, volts: f64) {
        if self.clock.last().is_some_and(|s| s.cycle == at) {
            self.clock.pop();
        }
        self.clock.push(ClockSeg { cycle: at, fs, hz });
        self.counters.push(Counter {
            cycle: at,
            kind: CounterKind::Frequency,
            value: hz as f64,
        });
        self.counters.push(Counter {
            cycle: at,
            kind: CounterKind::Voltage,
            value: volts,
        });
    }

    fn push(&mut self, track: u32, name: u32, start: u64, end: u64) {
        self.slices.push(Slice {
            track,
            name,
            start,
            end: end.max(start),
        });
    }

    fn close_traps(&mut self, at: u64) {
        while let Some((name, start)) = self.traps_open.pop() {
            self.push(TRACK_IRQ, name, start, at);
        }
    }

    /// The running context becomes (task, hisr), called `name`, at cycle `at`: the open trap
    /// slices and the previous context's slice end.
    pub fn context(&mut self, task: u32, hisr: u32, name: String, at: u64) {
        self.close_traps(at);
        if let Some((track, start)) = self.ctx_open.take() {
            let n = self.intern(&self.tracks[track as usize].name.clone());
            self.push(track, n, start, at);
        }
        let key = (task, hisr, name);
        let track = match self.ctx_tracks.get(&key) {
            Some(&t) => t,
            None => {
                let t = self.tracks.len() as u32;
                self.tracks.push(Track {
                    name: key.2.clone(),
                    prio: None,
                });
                self.ctx_tracks.insert(key, t);
                t
            }
        };
        self.ctx_open = Some((track, at));
        self.switches.push((at, track));
    }

    /// The priority of the context just switched to (recorded once per track).
    pub fn set_prio(&mut self, prio: u32) {
        if let Some((t, _)) = self.ctx_open {
            let tr = &mut self.tracks[t as usize];
            if tr.prio.is_none() && t > TRACK_IRQ {
                tr.prio = Some(prio);
            }
        }
    }

    /// A context resumed inside `depth` traps (it was switched out in an interrupt): those
    /// traps show as "return from interrupt" until their `mret`.
    pub fn reopen_traps(&mut self, depth: u32, at: u64) {
        for _ in 0..depth {
            let n = self.intern("return from interrupt");
            self.traps_open.push((n, at));
        }
    }

    pub fn trap_enter(&mut self, cause: u32, at: u64) {
        let n = self.intern(&trap_name(cause));
        self.traps_open.push((n, at));
    }

    pub fn trap_exit(&mut self, at: u64) {
        if let Some((name, start)) = self.traps_open.pop() {
            self.push(TRACK_IRQ, name, start, at);
        }
    }

    pub fn sleep(&mut self, at: u64) {
        self.asleep.get_or_insert(at);
    }

    pub fn wake(&mut self, at: u64) {
        if let Some(s) = self.asleep.take() {
            let n = self.intern("asleep (wfi)");
            self.push(TRACK_CORE, n, s, at);
        }
    }

    pub fn instant(&mut self, name: &str, at: u64, arg: u64) {
        let n = self.intern(name);
        self.instants.push((n, at, arg));
    }

    /// Energy `e_pj` has been used up to cycle `at`: a power sample (the average since the
    /// last one) unless the last is fewer than `min` cycles ago and `force` is off.
    pub fn power_sample(&mut self, at: u64, e_pj: f64, force: bool, min: u64) {
        let (c0, f0, e0) = self.last_sample;
        if at <= c0 || (!force && at - c0 < min) {
            return;
        }
        let fs = self.time_fs(at);
        if fs <= f0 {
            return;
        }
        let w = (e_pj - e0) * 1e-12 / ((fs - f0) as f64 * 1e-15);
        self.counters.push(Counter {
            cycle: c0,
            kind: CounterKind::Power,
            value: w,
        });
        self.last_sample = (at, fs, e_pj);
    }

    /// The run ended at cycle `end`: everything open closes.
    pub fn finish(&mut self, end: u64) {
        self.close_traps(end);
        if let Some((track, start)) = self.ctx_open.take() {
            let n = self.intern(&self.tracks[track as usize].name.clone());
            self.push(track, n, start, end);
        }
        self.wake(end);
        // The last power value holds to the end.
        if let Some(last) = self
            .counters
            .iter()
            .rev()
            .find(|c| c.kind == CounterKind::Power)
            .copied()
        {
            self.counters.push(Counter {
                cycle: end,
                kind: CounterKind::Power,
                value: last.value,
            });
        }
    }

    /// The names of the context tracks in switch order (for tests and summaries).
    pub fn switch_names(&self) -> Vec<&str> {
        self.switches
            .iter()
            .map(|&(_, t)| self.tracks[t as usize].name.as_str())
            .collect()
    }

    /// All trace events, sorted by time (metadata first).
    fn events(&self, process: &str) -> Vec<Value> {
        let mut ev = vec![json!({
            "name": "process_name", "ph": "M", "pid": PID, "tid": 0,
            "args": {"name": process}
        })];
        for (i, t) in self.tracks.iter().enumerate() {
            let tid = i as u32 + 1;
            let name = match t.prio {
                Some(p) => format!("{} (prio {p})", t.name),
                None => t.name.clone(),
            };
            ev.push(json!({
                "name": "thread_name", "ph": "M", "pid": PID, "tid": tid,
                "args": {"name": name}
            }));
            ev.push(json!({
                "name": "thread_sort_index", "ph": "M", "pid": PID, "tid": tid,
                "args": {"sort_index": i}
            }));
        }
        let mut slices = self.slices.clone();
        slices.sort_by(|a, b| {
            (a.track, a.start)
                .cmp(&(b.track, b.start))
                .then(b.end.cmp(&a.end))
        });
        for s in &slices {
            let ts = self.time_us(s.start);
            let cat = match s.track {
                TRACK_CORE => "sleep",
                TRACK_IRQ => "interrupt",
                _ => "task",
            };
            ev.push(json!({
                "name": self.names[s.name as usize], "cat": cat, "ph": "X",
                "pid": PID, "tid": s.track + 1,
                "ts": ts, "dur": (self.time_us(s.end) - ts).max(0.0),
                "args": {"start_cycle": s.start, "cycles": s.end - s.start}
            }));
        }
        for c in &self.counters {
            let (name, unit) = match c.kind {
                CounterKind::Power => ("power", "W"),
                CounterKind::Frequency => ("frequency", "Hz"),
                CounterKind::Voltage => ("voltage", "V"),
            };
            ev.push(json!({
                "name": name, "ph": "C", "pid": PID, "ts": self.time_us(c.cycle),
                "args": {unit: c.value}
            }));
        }
        for &(n, at, arg) in &self.instants {
            ev.push(json!({
                "name": self.names[n as usize], "ph": "i", "s": "p", "pid": PID,
                "tid": TRACK_IRQ + 1, "ts": self.time_us(at),
                "args": {"cycle": at, "settle_cycles": arg}
            }));
        }
        ev
    }

    /// Writes the trace JSON; `process` names the process (the firmware).
    pub fn write_json<W: Write>(&self, w: W, process: &str) -> std::io::Result<()> {
        let file = TraceFile {
            events: self.events(process),
            kernel_aware: self.kernel_aware,
        };
        let mut w = std::io::BufWriter::new(w);
        serde_json::to_writer(&mut w, &file).map_err(std::io::Error::other)?;
        w.write_all(b"\n")?;
        w.flush()
    }
}

struct TraceFile {
    events: Vec<Value>,
    kernel_aware: bool,
}

impl Serialize for TraceFile {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(3))?;
        m.serialize_entry("traceEvents", &self.events)?;
        m.serialize_entry("displayTimeUnit", "ns")?;
        m.serialize_entry(
            "otherData",
            &json!({"generator": "ubik run --trace", "kernel_aware": self.kernel_aware}),
        )?;
        m.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_across_clock_changes() {
        let mut t = Timeline::new(false);
        t.clock(0, 0, 100_000_000, 1.2);
        t.clock(100, 1_000_000_000, 50_000_000, 1.0);
        assert_eq!(t.time_fs(50), 500_000_000);
        assert_eq!(t.time_fs(100), 1_000_000_000);
        assert_eq!(t.time_fs(150), 2_000_000_000);
        assert!((t.time_us(150) - 2.0).abs() < 1e-12);
    }

    #[test]
    fn slices_nest_and_close() {
        let mut t = Timeline::new(true);
        t.clock(0, 0, 100_000_000, 1.2);
        t.context(0, 0, "(boot)".into(), 0);
        t.context(0x100, 0, "a".into(), 10);
        t.trap_enter(0x8000_0007, 20);
        t.context(0x200, 0, "b".into(), 30); // switched inside the trap
        t.context(0x100, 0, "a".into(), 50);
        t.reopen_traps(1, 50);
        t.trap_exit(55);
        t.finish(60);
        assert_eq!(t.switch_names(), ["(boot)", "a", "b", "a"]);
        let irq: Vec<_> = t.slices.iter().filter(|s| s.track == TRACK_IRQ).collect();
        assert_eq!(irq.len(), 2);
        assert_eq!((irq[0].start, irq[0].end), (20, 30));
        assert_eq!((irq[1].start, irq[1].end), (50, 55));
        let a = t.tracks.iter().position(|x| x.name == "a").unwrap() as u32;
        let a_slices: Vec<_> = t
            .slices
            .iter()
            .filter(|s| s.track == a)
            .map(|s| (s.start, s.end))
            .collect();
        assert_eq!(a_slices, [(10, 30), (50, 60)]);
    }
}
