//! The timeline of a run and its `--trace` output in the Chrome/Perfetto trace-event JSON
//! format (`{"traceEvents": [...]}`; open it at https://ui.perfetto.dev or chrome://tracing).
//!
//! Tracks (threads of process 1): `core` (the clock-gated sleeps in `wfi`), `interrupts`
//! (each trap from entry to `mret`, a fast line named by its LISR), then one per task and
//! HISR (kernel-aware runs only) with a slice for every stretch it ran: a trap taken while
//! it runs ends its slice and its `mret` starts the next, so a task's slices add up to the
//! time it had the core. Counters: `power` (W, the average power between two samples),
//! `frequency` (Hz) and `voltage` (V). Instants: operating-point switches, and the IO
//! record's events (port writes, pin edges, stimuli, UART bytes). Names are metadata events.
//!
//! `ubik run --trace` streams: events are written as they close ([`Timeline::stream_to`]),
//! so memory stays bounded however long the run; the in-memory form serves experiments
//! and tests.

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
    /// The running context's track, and since when it runs (None while a trap runs).
    ctx: Option<u32>,
    ctx_open: Option<(u32, u64)>,
    traps_open: Vec<(u32, u64)>,
    asleep: Option<u64>,
    last_sample: (u64, u128, f64),
    last_power: Option<f64>,
    /// Every context switch: (cycle, track) (not kept while streaming).
    pub switches: Vec<(u64, u32)>,
    /// Kernel events, ready slices and user markers (`crate::kevents`), as JSON events
    /// (not kept while streaming).
    pub extra: Vec<Value>,
    stream: Option<Stream>,
}

/// Where a streamed trace goes: the JSON written so far, and the first write error.
struct Stream {
    w: std::io::BufWriter<Box<dyn Write>>,
    first: bool,
    error: Option<std::io::Error>,
    /// Perfetto's protobuf format instead of JSON (`crate::perfetto_pb`).
    pb: Option<crate::perfetto_pb::Writer>,
}

impl Stream {
    /// Writes `e`; `tracks` name the threads (for the protobuf format's descriptors).
    fn event_on(&mut self, e: &Value, tracks: &[Track]) {
        let Some(pb) = &mut self.pb else {
            return self.event(e);
        };
        if self.error.is_some() {
            return;
        }
        let name = |tid: u64| {
            tracks
                .get((tid as usize).wrapping_sub(1))
                .map_or_else(|| format!("track {tid}"), |t| t.name.clone())
        };
        if let Err(err) = pb.event(&mut self.w, e, name) {
            self.error = Some(err);
        }
    }

    fn event(&mut self, e: &Value) {
        if self.error.is_some() {
            return;
        }
        if self.pb.is_some() {
            return self.event_on(e, &[]);
        }
        let sep: &[u8] = if self.first { b"\n" } else { b",\n" };
        self.first = false;
        let r = self
            .w
            .write_all(sep)
            .and_then(|_| serde_json::to_writer(&mut self.w, e).map_err(std::io::Error::other));
        if let Err(e) = r {
            self.error = Some(e);
        }
    }
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
            ctx: None,
            ctx_open: None,
            traps_open: Vec::new(),
            asleep: None,
            last_sample: (0, 0, 0.0),
            last_power: None,
            switches: Vec::new(),
            extra: Vec::new(),
            stream: None,
        }
    }

    /// From now on, write every event to `w` as it closes instead of keeping it
    /// ([`Timeline::finish_stream`] ends the file). `process` names the process.
    pub fn stream_to(&mut self, w: Box<dyn Write>, process: &str) -> std::io::Result<()> {
        self.stream_as(w, process, false)
    }

    /// As [`Timeline::stream_to`], in Perfetto's protobuf format when `protobuf`.
    pub fn stream_as(
        &mut self,
        w: Box<dyn Write>,
        process: &str,
        protobuf: bool,
    ) -> std::io::Result<()> {
        let mut w = std::io::BufWriter::with_capacity(1 << 16, w);
        if !protobuf {
            w.write_all(b"{\"traceEvents\":[")?;
        }
        let mut s = Stream {
            w,
            first: true,
            error: None,
            pb: protobuf.then(Default::default),
        };
        s.event(&json!({
            "name": "process_name", "ph": "M", "pid": PID, "tid": 0,
            "args": {"name": process}
        }));
        self.stream = Some(s);
        Ok(())
    }

    /// Ends a streamed trace: the tracks' names, the IO record's events as instants, and
    /// the end of the JSON.
    pub fn finish_stream(&mut self, io: &[machine::record::IoEvent]) -> std::io::Result<()> {
        let Some(mut s) = self.stream.take() else {
            return Ok(());
        };
        for e in self.track_metadata() {
            s.event_on(&e, &self.tracks);
        }
        for e in io {
            s.event_on(&self.io_event(e), &self.tracks);
        }
        if let Some(e) = s.error.take() {
            return Err(e);
        }
        if s.pb.is_some() {
            return s.w.flush();
        }
        let tail = json!({"generator": "ubik run --trace", "kernel_aware": self.kernel_aware});
        write!(
            s.w,
            "\n],\"displayTimeUnit\":\"ns\",\"otherData\":{tail}}}\n"
        )?;
        s.w.flush()
    }

    /// An IO-record event as an instant (process-wide).
    fn io_event(&self, e: &machine::record::IoEvent) -> Value {
        use machine::record::IoKind;
        let name = match e.kind {
            IoKind::Out => format!("out[{}] = 0x{:x}", e.port, e.value),
            IoKind::Gpio => format!("gpio {} = {}", e.port, e.value),
            IoKind::GpioIn => format!("gpio_in {} = {}", e.port, e.value),
            IoKind::Stimulus => format!("stimulus line {} #{}", e.port, e.value),
            IoKind::UartTx => format!("uart tx 0x{:02x}", e.value),
            IoKind::UartRx => format!("uart rx 0x{:02x}", e.value),
        };
        json!({
            "name": name, "cat": "io", "ph": "i", "s": "p", "pid": PID, "tid": 0,
            "ts": e.time_fs as f64 / FS_PER_US,
            "args": {"cycle": e.cycle, "kind": e.kind.name(), "port": e.port, "value": e.value}
        })
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
        self.push_counter(Counter {
            cycle: at,
            kind: CounterKind::Frequency,
            value: hz as f64,
        });
        self.push_counter(Counter {
            cycle: at,
            kind: CounterKind::Voltage,
            value: volts,
        });
    }

    fn push(&mut self, track: u32, name: u32, start: u64, end: u64) {
        let s = Slice {
            track,
            name,
            start,
            end: end.max(start),
        };
        if !self.streamed(|t| t.slice_event(&s)) {
            self.slices.push(s);
        }
    }

    fn push_counter(&mut self, c: Counter) {
        if !self.streamed(|t| t.counter_event(&c)) {
            self.counters.push(c);
        }
    }

    /// While streaming, writes the event `make` gives and says so; else false (the caller
    /// keeps the event).
    fn streamed(&mut self, make: impl FnOnce(&Self) -> Value) -> bool {
        let Some(mut st) = self.stream.take() else {
            return false;
        };
        st.event_on(&make(self), &self.tracks);
        self.stream = Some(st);
        true
    }

    /// The running context's slice ends at `at` (a trap, or a switch).
    fn cut(&mut self, at: u64) {
        if let Some((track, start)) = self.ctx_open.take() {
            if at > start {
                let n = self.intern(&self.tracks[track as usize].name.clone());
                self.push(track, n, start, at);
            }
        }
    }

    fn close_traps(&mut self, at: u64) {
        while let Some((name, start)) = self.traps_open.pop() {
            self.push(TRACK_IRQ, name, start, at);
        }
    }

    /// The track of task `task` called `name` (made now if it has not run yet).
    pub fn task_track(&mut self, task: u32, name: &str) -> u32 {
        let key = (task, 0, name.to_string());
        if let Some(&t) = self.ctx_tracks.get(&key) {
            return t;
        }
        let t = self.tracks.len() as u32;
        self.tracks.push(Track {
            name: name.to_string(),
            prio: None,
        });
        self.ctx_tracks.insert(key, t);
        t
    }

    /// The track of the code running now: the interrupts' while a trap runs, else the
    /// current context's (`core` before the first).
    pub fn running_track(&self) -> u32 {
        if self.traps_open.is_empty() {
            self.ctx.unwrap_or(TRACK_CORE)
        } else {
            TRACK_IRQ
        }
    }

    /// Who runs now, for a reader: the innermost trap's name, else the context's.
    pub fn running_name(&self) -> String {
        match self.traps_open.last() {
            Some(&(n, _)) => self.names[n as usize].clone(),
            None => self.tracks[self.ctx.unwrap_or(TRACK_CORE) as usize]
                .name
                .clone(),
        }
    }

    /// An instant `name` on `track` at cycle `at`, of category `cat`, with `args`.
    pub fn event(&mut self, track: u32, cat: &str, name: &str, at: u64, mut args: Value) {
        args["cycle"] = json!(at);
        let e = json!({
            "name": name, "cat": cat, "ph": "i", "s": "t", "pid": PID, "tid": track + 1,
            "ts": self.time_us(at), "args": args
        });
        self.extra_event(e);
    }

    /// A slice "ready" on `track` from `start` to `end` (category `ready`).
    pub fn ready_slice(&mut self, track: u32, start: u64, end: u64) {
        let ts = self.time_us(start);
        let e = json!({
            "name": "ready", "cat": "ready", "ph": "X", "pid": PID, "tid": track + 1,
            "ts": ts, "dur": (self.time_us(end) - ts).max(0.0),
            "args": {"start_cycle": start, "cycles": end.saturating_sub(start)}
        });
        self.extra_event(e);
    }

    /// A user counter `name` takes `value` at `at`.
    pub fn user_counter(&mut self, name: &str, at: u64, value: f64) {
        let e = json!({
            "name": name, "cat": "user", "ph": "C", "pid": PID, "ts": self.time_us(at),
            "args": {"value": value}
        });
        self.extra_event(e);
    }

    fn extra_event(&mut self, e: Value) {
        match self.stream.take() {
            Some(mut st) => {
                st.event_on(&e, &self.tracks);
                self.stream = Some(st);
            }
            None => self.extra.push(e),
        }
    }

    /// The running context becomes (task, hisr), called `name`, at cycle `at`: the open trap
    /// slices and the previous context's slice end.
    pub fn context(&mut self, task: u32, hisr: u32, name: String, at: u64) {
        self.close_traps(at);
        self.cut(at);
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
        self.ctx = Some(track);
        self.ctx_open = Some((track, at));
        if self.stream.is_none() {
            self.switches.push((at, track));
        }
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
        if depth > 0 {
            self.cut(at);
        }
        for _ in 0..depth {
            let n = self.intern("return from interrupt");
            self.traps_open.push((n, at));
        }
    }

    pub fn trap_enter(&mut self, cause: u32, at: u64) {
        let n = self.intern(&trap_name(cause));
        self.trap_enter_named(n, at);
    }

    /// A trap named `name` (interned) is taken at `at`: the running context's slice ends.
    pub fn trap_enter_named(&mut self, name: u32, at: u64) {
        if self.traps_open.is_empty() {
            self.cut(at);
        }
        self.traps_open.push((name, at));
    }

    /// An `mret` at `at`: the innermost trap ends; the last one gives the context back.
    pub fn trap_exit(&mut self, at: u64) {
        if let Some((name, start)) = self.traps_open.pop() {
            self.push(TRACK_IRQ, name, start, at);
        }
        if self.traps_open.is_empty() && self.ctx_open.is_none() {
            self.ctx_open = self.ctx.map(|t| (t, at));
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
        if !self.streamed(|t| t.instant_event(n, at, arg)) {
            self.instants.push((n, at, arg));
        }
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
        self.push_counter(Counter {
            cycle: c0,
            kind: CounterKind::Power,
            value: w,
        });
        self.last_power = Some(w);
        self.last_sample = (at, fs, e_pj);
    }

    /// The run ended at cycle `end`: everything open closes.
    pub fn finish(&mut self, end: u64) {
        self.close_traps(end);
        self.cut(end);
        self.wake(end);
        // The last power value holds to the end.
        if let Some(value) = self.last_power {
            self.push_counter(Counter {
                cycle: end,
                kind: CounterKind::Power,
                value,
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

    fn slice_event(&self, s: &Slice) -> Value {
        let ts = self.time_us(s.start);
        let cat = match s.track {
            TRACK_CORE => "sleep",
            TRACK_IRQ => "interrupt",
            _ => "task",
        };
        json!({
            "name": self.names[s.name as usize], "cat": cat, "ph": "X",
            "pid": PID, "tid": s.track + 1,
            "ts": ts, "dur": (self.time_us(s.end) - ts).max(0.0),
            "args": {"start_cycle": s.start, "cycles": s.end - s.start}
        })
    }

    fn counter_event(&self, c: &Counter) -> Value {
        let (name, unit) = match c.kind {
            CounterKind::Power => ("power", "W"),
            CounterKind::Frequency => ("frequency", "Hz"),
            CounterKind::Voltage => ("voltage", "V"),
        };
        json!({
            "name": name, "ph": "C", "pid": PID, "ts": self.time_us(c.cycle),
            "args": {unit: c.value}
        })
    }

    fn instant_event(&self, n: u32, at: u64, arg: u64) -> Value {
        json!({
            "name": self.names[n as usize], "ph": "i", "s": "p", "pid": PID,
            "tid": TRACK_IRQ + 1, "ts": self.time_us(at),
            "args": {"cycle": at, "settle_cycles": arg}
        })
    }

    fn track_metadata(&self) -> Vec<Value> {
        let mut ev = Vec::new();
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
        ev
    }

    /// All trace events, sorted by time (metadata first).
    fn events(&self, process: &str) -> Vec<Value> {
        let mut ev = vec![json!({
            "name": "process_name", "ph": "M", "pid": PID, "tid": 0,
            "args": {"name": process}
        })];
        ev.extend(self.track_metadata());
        let mut slices = self.slices.clone();
        slices.sort_by(|a, b| {
            (a.track, a.start)
                .cmp(&(b.track, b.start))
                .then(b.end.cmp(&a.end))
        });
        for s in &slices {
            ev.push(self.slice_event(s));
        }
        for c in &self.counters {
            ev.push(self.counter_event(c));
        }
        for &(n, at, arg) in &self.instants {
            ev.push(self.instant_event(n, at, arg));
        }
        ev.extend(self.extra.iter().cloned());
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
        // Cut by the trap at 20 and by the one it returned through (50 to 55).
        assert_eq!(a_slices, [(10, 20), (55, 60)]);
    }

    #[test]
    fn a_trap_cuts_the_running_task_out_of_its_slice() {
        let mut t = Timeline::new(true);
        t.clock(0, 0, 100_000_000, 1.2);
        t.context(0x100, 0, "a".into(), 0);
        t.trap_enter(0x8000_0010, 100); // a LISR, no switch
        t.trap_exit(130);
        t.trap_enter(0x8000_0007, 200); // nested: a timer interrupt and, in it, line 1
        t.trap_enter(0x8000_0011, 205);
        t.trap_exit(210);
        t.trap_exit(220);
        t.finish(300);
        let a = t.tracks.iter().position(|x| x.name == "a").unwrap() as u32;
        let run: Vec<_> = t
            .slices
            .iter()
            .filter(|s| s.track == a)
            .map(|s| (s.start, s.end))
            .collect();
        assert_eq!(run, [(0, 100), (130, 200), (220, 300)]);
        let cpu: u64 = run.iter().map(|(s, e)| e - s).sum();
        assert_eq!(
            cpu,
            300 - 30 - 20,
            "the task's time excludes the interrupts'"
        );
    }

    #[test]
    fn a_streamed_trace_is_the_same_json_events() {
        #[derive(Clone, Default)]
        struct Shared(std::rc::Rc<std::cell::RefCell<Vec<u8>>>);
        impl Write for Shared {
            fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
                self.0.borrow_mut().extend_from_slice(b);
                Ok(b.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let run = |t: &mut Timeline| {
            t.clock(0, 0, 100_000_000, 1.2);
            t.context(0x100, 0, "a".into(), 0);
            t.trap_enter(0x8000_0010, 100);
            t.trap_exit(130);
            t.power_sample(150, 1000.0, true, 1);
            t.instant("operating-point switch", 160, 5);
            t.finish(300);
        };
        let mut kept = Timeline::new(true);
        run(&mut kept);
        let mut whole = Vec::new();
        kept.write_json(&mut whole, "p").unwrap();
        let out = Shared::default();
        let mut streamed = Timeline::new(true);
        streamed.stream_to(Box::new(out.clone()), "p").unwrap();
        run(&mut streamed);
        assert!(
            streamed.slices.is_empty() && streamed.counters.is_empty(),
            "nothing kept"
        );
        let io = [machine::record::IoEvent {
            cycle: 120,
            time_fs: 1_200_000_000,
            kind: machine::record::IoKind::Out,
            port: 2,
            value: 7,
        }];
        streamed.finish_stream(&io).unwrap();
        let parse = |b: &[u8]| -> Vec<String> {
            let v: Value = serde_json::from_slice(b).unwrap();
            let mut e: Vec<String> = v["traceEvents"]
                .as_array()
                .unwrap()
                .iter()
                .map(|e| e.to_string())
                .collect();
            e.sort();
            e
        };
        let mut want = parse(&whole);
        let got = parse(&out.0.borrow());
        want.push(
            serde_json::to_string(
                &json!({"args":{"cycle":120,"kind":"out","port":2,"value":7},
                "cat":"io","name":"out[2] = 0x7","ph":"i","pid":1,"s":"p","tid":0,"ts":1.2}),
            )
            .unwrap(),
        );
        want.sort();
        assert_eq!(got, want);
    }
}
