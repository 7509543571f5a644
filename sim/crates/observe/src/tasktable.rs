//! The kernel's task table, read from the machine: each live task's name, state and
//! priority, what it waits on (the object's kind and its name in system.toml) and its stack
//! (bounds, and the bytes in use now). For a debugger's `monitor tasks`, and for any report
//! that names what blocked tasks wait on (a hang). Needs a descriptor with the task list
//! (`uk_debug_info` version 3); what tasks wait on and their stacks need version 4.
//!
//! A task waits in a wait queue, a list head inside the object it waits on: the object is
//! the named object (the descriptor's table, written by `ubik gen` from system.toml) whose
//! bytes hold that list head; a list head inside a task's TCB is that task's task port.
//! Ubik does not fill stacks with a pattern, so the stack use is the current depth (from
//! the top of the stack down to the saved stack pointer, or the core's for the running
//! task), not a high-water mark.

use crate::kernel::{read_cstr, read_u32, read_u8, DebugInfo, MAX_TASKS};
use rv32::Bus;

/// No object table has more rows than this.
const MAX_OBJECTS: u32 = 1 << 16;

/// A task as the table shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaskRow {
    pub tcb: u32,
    pub name: String,
    pub prio: u8,
    /// `uk_task_state_t`; the running task's TCB says ready.
    pub state: u8,
    pub running: bool,
    /// What it waits on, if it is in a wait queue (version 4).
    pub wait: Option<WaitObject>,
    /// Its stack (version 4).
    pub stack: Option<Stack>,
}

/// The object a task waits on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WaitObject {
    /// The wait queue's address (a list head inside the object).
    pub queue: u32,
    /// `semaphore`, `mutex`, `queue`, `port`, `flags`, `pool`, `task port`, or `object`
    /// for one the table does not name.
    pub kind: &'static str,
    /// Its name in system.toml (a task port: its task's name), else its address.
    pub name: String,
}

/// A task's stack: `[base, base + bytes)`; `used`: bytes from the top down to the stack
/// pointer, when that lies inside (the running task's may be on the interrupt stack).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stack {
    pub base: u32,
    pub bytes: u32,
    pub used: Option<u32>,
}

/// Ubik's task states (`uk_task_state_t`), by value.
pub fn state_name(state: u8) -> &'static str {
    match state {
        0 => "suspended",
        1 => "ready",
        2 => "running",
        3 => "delayed",
        4 => "pending",
        5 => "pending with timeout",
        6 => "deleted",
        7 => "created",
        _ => "?",
    }
}

impl TaskRow {
    /// Its state for a reader: `running` for the running task.
    pub fn state_text(&self) -> &'static str {
        if self.running {
            "running"
        } else {
            state_name(self.state)
        }
    }
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

/// Every live task, oldest first (empty without a task list). `core_sp`: the core's stack
/// pointer, the running task's.
pub fn task_table<B: Bus>(info: &DebugInfo, bus: &B, core_sp: u32) -> Vec<TaskRow> {
    let Some(list) = info.tasks else {
        return vec![];
    };
    let current = read_u32(bus, info.current_task).unwrap_or(0);
    let mut rows: Vec<TaskRow> = Vec::new();
    for at in list.tcbs(bus, MAX_TASKS) {
        let field = |off: u16| at.wrapping_add(off as u32);
        let running = at == current;
        let (wait, stack) = match info.waits {
            Some(w) => {
                let base = read_u32(bus, field(w.off_stack)).unwrap_or(0);
                let bytes = read_u32(bus, field(w.off_stack_bytes)).unwrap_or(0);
                let sp = if running {
                    Some(core_sp)
                } else {
                    read_u32(bus, field(list.off_sp))
                };
                let top = base.wrapping_add(bytes);
                let used = sp.filter(|&s| s >= base && s <= top).map(|s| top - s);
                let queue = read_u32(bus, field(w.off_wait)).unwrap_or(0);
                let wait = (queue != 0).then(|| WaitObject {
                    queue,
                    kind: "object",
                    name: format!("0x{queue:08x}"),
                });
                (wait, Some(Stack { base, bytes, used }))
            }
            None => (None, None),
        };
        rows.push(TaskRow {
            tcb: at,
            name: info.task_name(bus, at),
            prio: read_u8(bus, field(info.off_prio)).unwrap_or(0),
            state: read_u8(bus, field(info.off_state)).unwrap_or(0xff),
            running,
            wait,
            stack,
        });
    }
    rows.reverse();
    name_waits(info, bus, &mut rows);
    rows
}

/// Names each task's wait object: from the descriptor's table, else a TCB's task port.
fn name_waits<B: Bus>(info: &DebugInfo, bus: &B, rows: &mut [TaskRow]) {
    let objects = info.waits.map_or(0, |w| w.objects);
    let tcbs: Vec<(u32, String)> = rows.iter().map(|t| (t.tcb, t.name.clone())).collect();
    for row in rows.iter_mut() {
        let Some(w) = &mut row.wait else { continue };
        let q = w.queue;
        if let Some((kind, name)) = named_object(bus, objects, q) {
            w.kind = kind;
            w.name = name;
        } else if let Some((_, name)) = tcbs
            .iter()
            .find(|(tcb, _)| q >= *tcb && q - tcb < info.tcb_size as u32)
        {
            w.kind = "task port";
            w.name = name.clone();
        }
    }
}

/// The named object whose bytes hold address `q`, from the table at `table`.
fn named_object<B: Bus>(bus: &B, table: u32, q: u32) -> Option<(&'static str, String)> {
    if table == 0 {
        return None;
    }
    for i in 0..MAX_OBJECTS {
        let row = table.wrapping_add(16 * i);
        let addr = read_u32(bus, row)?;
        if addr == 0 {
            return None;
        }
        let size = read_u32(bus, row + 4)?;
        if q >= addr && q - addr < size {
            let kind = kind_name(read_u32(bus, row + 8)?);
            let name = read_u32(bus, row + 12)
                .and_then(|p| read_cstr(bus, p))
                .unwrap_or_else(|| format!("0x{addr:08x}"));
            return Some((kind, name));
        }
    }
    None
}
