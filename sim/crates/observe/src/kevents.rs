//! Kernel events and user markers in the trace (`ubik run --trace` only): derived from what
//! the observer already sees, so the kernel runs no extra instruction for them.
//!
//! - **send, receive, give, take, lock, unlock, set, wait, alloc, free**: control entered a
//!   public kernel call (`uk_queue_send`, `uk_sem_give`, ... by the code map's function
//!   entries) and then stored into a named object of the descriptor's table (system.toml's
//!   objects): an instant "send mailbox" on the running track, at that first store.
//! - **block**: a task gives up the core (the current-task pointer changes) with its state
//!   byte pending; the object is the one its wait field points into, read then.
//! - **delay**: the same with its state delayed.
//! - **wake**: a store makes a pending task's state byte ready; "by" is who runs then (a task,
//!   a HISR or an interrupt) and the call it is in.
//! - **timeout**: the same from "pending with timeout" while the kernel's tick (`uk__tick`)
//!   is the last kernel function of the table entered.
//! - **ready**: a slice on the task's track from the store that makes it ready (or its
//!   preemption) to the switch that gives it the core.
//! - **markers**: stores into the BSP's `bsp__trace` (`bsp/include/bsp/trace.h`): a string
//!   pointer (an instant named by the string) or an (id, value) pair (a counter `value ID`).

use crate::codemap::Func;
use crate::kernel::{self, image_bytes, DebugInfo};
use crate::trace::Timeline;
use machine::elf::Image;
use rv32::Bus;
use serde_json::json;
use std::collections::HashMap;

const STATE_READY: u8 = 1;
const STATE_DELAYED: u8 = 3;
const STATE_PENDING: u8 = 4;
const STATE_PENDING_TIMEOUT: u8 = 5;
/// The op code of the kernel's tick (not a call on an object).
const OP_TICK: u8 = 255;

/// The public kernel calls that act on an object, and what the trace calls them.
const CALLS: &[(&str, &str)] = &[
    ("uk_queue_send", "send"),
    ("uk_queue_send_var", "send"),
    ("uk_queue_recv", "receive"),
    ("uk_queue_recv_var", "receive"),
    ("uk_port_send", "send"),
    ("uk_port_recv", "receive"),
    ("uk_sem_give", "give"),
    ("uk_sem_take", "take"),
    ("uk_mutex_lock", "lock"),
    ("uk_mutex_unlock", "unlock"),
    ("uk_flags_set", "set"),
    ("uk_flags_clear", "clear"),
    ("uk_flags_wait", "wait"),
    ("uk_pool_alloc", "alloc"),
    ("uk_pool_free", "free"),
];

/// A named object of the descriptor's table.
#[derive(Clone, Debug)]
struct Object {
    addr: u32,
    size: u32,
    kind: &'static str,
    name: String,
}

#[derive(Default)]
pub struct KernelEvents {
    /// Per function of the code map: 0, an index + 1 into `CALLS`, or `OP_TICK`.
    calls: Vec<u8>,
    objects: Vec<Object>,
    obj_lo: u32,
    obj_span: u32,
    /// The call entered last (an op code), and whether its object store was seen.
    op: u8,
    op_done: bool,
    /// The last call's description ("send mailbox").
    op_text: Option<String>,
    /// Per task: its state byte as last seen, its name, what it last blocked on, and since
    /// when it is ready (not running).
    states: HashMap<u32, u8>,
    names: HashMap<u32, String>,
    waits: HashMap<u32, String>,
    ready_since: HashMap<u32, u64>,
    /// The BSP's trace port (`bsp__trace`: marker pointer, id, value), u32::MAX: none.
    pub port: u32,
    /// The function run from reset (its stores into the port clear it: no markers).
    pub reset_fn: u32,
}

fn kind_name(kind: u32) -> &'static str {
    match kind {
        1 => "semaphore",
        2 => "mutex",
        3 => "queue",
        4 => "port",
        5 => "flags",
        6 => "pool",
        _ => "object",
    }
}

fn image_u32(image: &Image, addr: u32) -> Option<u32> {
    image_bytes(image, addr, 4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

fn image_cstr(image: &Image, addr: u32) -> Option<String> {
    let text: Vec<u8> = (0..64)
        .map_while(|i| {
            image_bytes(image, addr + i, 1)
                .map(|b| b[0])
                .filter(|&b| b != 0)
        })
        .collect();
    (!text.is_empty() && text.iter().all(|b| (0x20..0x7f).contains(b)))
        .then(|| String::from_utf8_lossy(&text).into_owned())
}

impl KernelEvents {
    /// Nothing to derive (bare metal, or no trace).
    pub fn none() -> KernelEvents {
        KernelEvents {
            obj_lo: u32::MAX,
            port: u32::MAX,
            ..Default::default()
        }
    }

    /// What `image` (laid out as `funcs`) offers: its kernel calls, its named objects (from
    /// the descriptor's table in the image's initialised data) and the BSP's trace port.
    pub fn new(image: &Image, funcs: &[Func], debug: Option<&DebugInfo>) -> KernelEvents {
        let calls = funcs
            .iter()
            .map(|f| {
                if f.name == "uk__tick" {
                    return OP_TICK;
                }
                CALLS
                    .iter()
                    .position(|c| c.0 == f.name)
                    .map_or(0, |i| i as u8 + 1)
            })
            .collect();
        let mut objects = Vec::new();
        let table = debug.and_then(|d| d.waits).map_or(0, |w| w.objects);
        for i in 0..4096u32 {
            if table == 0 {
                break;
            }
            let row = table + 16 * i;
            let (Some(addr), Some(size), Some(kind), Some(name)) = (
                image_u32(image, row),
                image_u32(image, row + 4),
                image_u32(image, row + 8),
                image_u32(image, row + 12),
            ) else {
                break;
            };
            if addr == 0 {
                break;
            }
            objects.push(Object {
                addr,
                size,
                kind: kind_name(kind),
                name: image_cstr(image, name).unwrap_or_else(|| format!("0x{addr:08x}")),
            });
        }
        let lo = objects.iter().map(|o| o.addr).min().unwrap_or(u32::MAX);
        let hi = objects.iter().map(|o| o.addr + o.size).max().unwrap_or(0);
        let port = image
            .symbols
            .iter()
            .find(|s| s.name == "bsp__trace" && !s.is_func)
            .map_or(u32::MAX, |s| s.addr);
        KernelEvents {
            calls,
            obj_lo: lo,
            obj_span: hi.saturating_sub(lo),
            objects,
            port,
            ..Default::default()
        }
    }

    /// Control entered function `f` at its entry.
    #[inline(always)]
    pub fn entered(&mut self, f: usize) {
        let c = self.calls.get(f).copied().unwrap_or(0);
        if c != 0 {
            self.op = c;
            self.op_done = false;
        }
    }

    /// Whether a store at `addr` concerns this module.
    #[inline(always)]
    pub fn wants(&self, addr: u32) -> bool {
        (self.op != 0 && !self.op_done && addr.wrapping_sub(self.obj_lo) < self.obj_span)
            || addr.wrapping_sub(self.port) < 12
    }

    fn object(&self, addr: u32) -> Option<&Object> {
        self.objects
            .iter()
            .find(|o| addr.wrapping_sub(o.addr) < o.size)
    }

    /// A store at `addr` (one `wants`) by code of function `f` at cycle `at`.
    #[cold]
    pub fn store<B: Bus>(&mut self, addr: u32, f: u32, at: u64, bus: &B, tl: &mut Timeline) {
        if addr.wrapping_sub(self.port) < 12 {
            if f != self.reset_fn {
                self.marker(addr - self.port, at, bus, tl);
            }
            return;
        }
        let Some(o) = self.object(addr).cloned() else {
            return;
        };
        if self.op == OP_TICK {
            return;
        }
        self.op_done = true;
        let what = CALLS[self.op as usize - 1].1;
        let text = format!("{what} {}", o.name);
        let track = tl.running_track();
        let by = tl.running_name();
        tl.event(
            track,
            "kernel",
            &text,
            at,
            json!({"call": what, "object": o.name, "kind": o.kind, "by": by}),
        );
        self.op_text = Some(text);
    }

    #[cold]
    fn marker<B: Bus>(&mut self, off: u32, at: u64, bus: &B, tl: &mut Timeline) {
        let track = tl.running_track();
        match off & !3 {
            0 => {
                let p = kernel::read_u32(bus, self.port).unwrap_or(0);
                let text = kernel::read_cstr(bus, p).unwrap_or_else(|| format!("0x{p:08x}"));
                tl.event(track, "marker", &text, at, json!({"marker": text}));
            }
            8 => {
                let id = kernel::read_u32(bus, self.port + 4).unwrap_or(0);
                let v = kernel::read_u32(bus, self.port + 8).unwrap_or(0);
                tl.user_counter(&format!("value {id}"), at, v as f64);
            }
            _ => {}
        }
    }

    /// Task `tcb` called `name` is known (its state byte `state`).
    pub fn known(&mut self, tcb: u32, name: String, state: u8) {
        self.names.insert(tcb, name);
        self.states.insert(tcb, state);
    }

    fn track(&self, tcb: u32, tl: &mut Timeline) -> u32 {
        let name = self
            .names
            .get(&tcb)
            .cloned()
            .unwrap_or_else(|| format!("task 0x{tcb:08x}"));
        tl.task_track(tcb, &name)
    }

    /// Task `tcb`'s state byte became `state` at `at` (not the running task's switch).
    pub fn state(&mut self, tcb: u32, state: u8, at: u64, tl: &mut Timeline) {
        let old = self.states.insert(tcb, state).unwrap_or(0);
        if old == state {
            return;
        }
        if state == STATE_READY {
            self.ready_since.entry(tcb).or_insert(at);
            if old == STATE_PENDING || old == STATE_PENDING_TIMEOUT {
                let on = self.waits.get(&tcb).cloned().unwrap_or_default();
                let by = tl.running_name();
                let timeout = old == STATE_PENDING_TIMEOUT && self.op == OP_TICK;
                let track = self.track(tcb, tl);
                let (name, args) = if timeout {
                    (
                        format!("timeout on {on}"),
                        json!({"object": on, "timeout": true}),
                    )
                } else {
                    let call = self.op_text.clone().unwrap_or_default();
                    (
                        format!("woken by {by}"),
                        json!({"object": on, "by": by, "call": call}),
                    )
                };
                tl.event(track, "kernel", &name, at, args);
            }
        } else if let Some(s) = self.ready_since.remove(&tcb) {
            let track = self.track(tcb, tl);
            tl.ready_slice(track, s, at);
        }
    }

    /// The current task `old` (0: none) gives the core to `new` at `at`; `old_state` is
    /// its state byte, `wait` the object its wait field points into (kind, name).
    pub fn switch(
        &mut self,
        old: u32,
        old_state: Option<u8>,
        wait: Option<(&'static str, String)>,
        new: u32,
        at: u64,
        tl: &mut Timeline,
    ) {
        if let (true, Some(s)) = (old != 0 && old != new, old_state) {
            self.states.insert(old, s);
            let track = self.track(old, tl);
            match s {
                STATE_READY => {
                    self.ready_since.insert(old, at);
                }
                STATE_PENDING | STATE_PENDING_TIMEOUT => {
                    let (kind, name) = wait.unwrap_or(("object", "?".into()));
                    let text = format!("block on {name}");
                    tl.event(
                        track,
                        "kernel",
                        &text,
                        at,
                        json!({"object": name, "kind": kind,
                               "timeout": s == STATE_PENDING_TIMEOUT}),
                    );
                    self.waits.insert(old, name);
                }
                STATE_DELAYED => tl.event(track, "kernel", "delay", at, json!({})),
                _ => {}
            }
        }
        if let Some(s) = self.ready_since.remove(&new) {
            let track = self.track(new, tl);
            tl.ready_slice(track, s, at);
        }
        self.op = 0;
        self.op_text = None;
    }

    /// The named object (kind, name) whose bytes hold `addr`.
    pub fn object_at(&self, addr: u32) -> Option<(&'static str, String)> {
        self.object(addr).map(|o| (o.kind, o.name.clone()))
    }
}
