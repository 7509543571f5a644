//! Hangs, named: whether no task of a kernel-aware image can ever run again (a deadlock),
//! and the task report `ubik run` prints when a run ends without the firmware halting (a
//! deadlock, Ctrl-C, `--max-cycles`, `--max-time`, a machine fault).
//!
//! The machine asks [`Hang::stuck`] only while the core sleeps in `wfi` and nothing but
//! the timer could ever wake it (no enabled interrupt line with an event to come: a
//! stimulus, a scripted pin, the UART's host line). The timer's tick wakes only the tasks
//! that wait with a timeout or a delay and the kernel's software timers; so when the idle
//! task runs, no task is delayed or waits with a timeout, and no software timer runs, no
//! tick can ever make a task ready: the tasks are deadlocked.

use crate::kernel::{read_u32, DebugInfo};
use crate::tasktable::{task_table, TaskRow};
use machine::elf::Image;
use rv32::Bus;

/// The kernel's list of running software timers (a list head: empty when it points at
/// itself); an image without it has no software timer.
pub const TIMERS_SYMBOL: &str = "uk__timers";

/// `uk_task_state_t` values a task can leave only when another task or an interrupt acts:
/// suspended, pending (no timeout), deleted, created.
const FOREVER: [u8; 4] = [0, 4, 6, 7];
/// Pending (no timeout), suspended: blocked.
const BLOCKED: [u8; 2] = [0, 4];

/// The deadlock check of a kernel-aware image (descriptor version 3 or later, with an idle
/// task).
#[derive(Clone, Copy, Debug)]
pub struct Hang {
    info: DebugInfo,
    idle: u32,
    timers: Option<u32>,
}

impl Hang {
    /// The check for `image`, if it has a descriptor with a task list and an idle task.
    pub fn for_image(image: &Image) -> Option<Hang> {
        let info = DebugInfo::from_image(image)?;
        info.tasks?;
        Some(Hang {
            info,
            idle: info.idle_tcb?,
            timers: image
                .symbols
                .iter()
                .find(|s| s.name == TIMERS_SYMBOL)
                .map(|s| s.addr),
        })
    }

    /// True if the idle task runs, every other live task waits with no timeout (or is
    /// suspended), at least one waits, and no software timer runs: nothing the timer wakes
    /// can ever run again. `core_sp`: the core's stack pointer.
    pub fn stuck<B: Bus>(&self, bus: &B, core_sp: u32) -> bool {
        if read_u32(bus, self.info.current_task) != Some(self.idle) {
            return false;
        }
        if let Some(t) = self.timers {
            if read_u32(bus, t) != Some(t) {
                return false;
            }
        }
        let rows = task_table(&self.info, bus, core_sp);
        let others = rows.iter().filter(|t| t.tcb != self.idle);
        others.clone().all(|t| FOREVER.contains(&t.state))
            && others.clone().any(|t| BLOCKED.contains(&t.state))
    }

    /// The descriptor it reads.
    pub fn info(&self) -> &DebugInfo {
        &self.info
    }
}

/// The task report: one line per task, indented, after a heading naming `cycle`: its name,
/// state, priority, what it waits on (kind and name), its stack in use now.
pub fn report(rows: &[TaskRow], cycle: u64) -> String {
    let mut s = format!("tasks at cycle {cycle}:");
    for t in rows {
        s += &format!(
            "\n  {:<16} {:<20} prio {:>3}",
            t.name,
            t.state_text(),
            t.prio
        );
        if let Some(w) = &t.wait {
            s += &format!("  waits on {} {}", w.kind, w.name);
        }
        if let Some(st) = t.stack {
            if let Some(u) = st.used {
                s += &format!("  stack {u}/{} bytes", st.bytes);
            }
        }
    }
    s
}

/// The report of the tasks of a kernel-aware image as the machine stands, or `None` (bare
/// metal, or no task yet).
pub fn report_of<B: Bus>(info: &DebugInfo, bus: &B, core_sp: u32, cycle: u64) -> Option<String> {
    let rows = task_table(info, bus, core_sp);
    (!rows.is_empty()).then(|| report(&rows, cycle))
}
