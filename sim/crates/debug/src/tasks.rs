//! Kernel awareness for the debugger: every task of a kernel that exports `uk_debug_info`
//! version 3 or later becomes a GDB thread, named from its TCB, with the registers its saved context
//! holds while it does not run. The saved context is the Ubik RV32 port's (see
//! `kernel/arch/rv32/switch.S`): the TCB's saved stack pointer points at a frame whose
//! first word is the address of the code that resumes it, `uk__resume_full` (ra, s0-s11 at
//! 4..52, 64 bytes) or `uk__resume_min` (ra at 4, 16 bytes). The task's pc is taken as its
//! saved ra (where the switch returns to) and its sp as the stack above the frame, so GDB
//! unwinds the task's stack from the switch call up.

use crate::arch::Regs;
use machine::bus::SysBus;
use machine::elf::Image;
use observe::kernel::{read_u32, read_u8, DebugInfo, TaskList, MAX_TASKS};

pub struct Kernel {
    pub info: DebugInfo,
    list: TaskList,
    resume_full: Option<u32>,
    resume_min: Option<u32>,
}

/// A task as its TCB shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Task {
    pub tcb: u32,
    pub name: String,
    pub prio: u8,
    pub state: u8,
}

pub use observe::tasktable::state_name;

impl Kernel {
    /// The kernel of `image`, if it exports a descriptor with the task list (version 3).
    pub fn from_image(image: &Image) -> Option<Kernel> {
        let info = DebugInfo::from_image(image)?;
        let sym = |name: &str| {
            image
                .symbols
                .iter()
                .find(|s| s.name == name)
                .map(|s| s.addr)
        };
        Some(Kernel {
            list: info.tasks?,
            info,
            resume_full: sym("uk__resume_full"),
            resume_min: sym("uk__resume_min"),
        })
    }

    /// The running task's TCB (None before the kernel starts).
    pub fn current(&self, bus: &SysBus) -> Option<u32> {
        read_u32(bus, self.info.current_task).filter(|&t| t != 0)
    }

    /// Every live task, oldest first.
    pub fn tasks(&self, bus: &SysBus) -> Vec<Task> {
        let mut tasks: Vec<Task> = (self.list.tcbs(bus, MAX_TASKS).into_iter())
            .map(|at| {
                let field = |off: u16| at.wrapping_add(off as u32);
                Task {
                    tcb: at,
                    name: self.info.task_name(bus, at),
                    prio: read_u8(bus, field(self.info.off_prio)).unwrap_or(0),
                    state: read_u8(bus, field(self.info.off_state)).unwrap_or(0xff),
                }
            })
            .collect();
        tasks.reverse();
        tasks
    }

    /// The registers of a task that is not running, from its saved context.
    pub fn saved_regs(&self, bus: &SysBus, tcb: u32) -> Option<Regs> {
        let sp = read_u32(bus, tcb.wrapping_add(self.list.off_sp as u32))?;
        let word = |i: u32| read_u32(bus, sp.wrapping_add(4 * i));
        let resume = word(0)?;
        let mut r = Regs::default();
        if Some(resume) == self.resume_full {
            r.x[1] = word(1)?;
            r.x[8] = word(2)?;
            r.x[9] = word(3)?;
            for (i, reg) in (18..28).enumerate() {
                r.x[reg] = word(4 + i as u32)?;
            }
            r.x[2] = sp.wrapping_add(64);
        } else if Some(resume) == self.resume_min {
            r.x[1] = word(1)?;
            r.x[2] = sp.wrapping_add(16);
        } else {
            // Another port's frame: only where it resumes is known.
            r.x[2] = sp;
            r.x[1] = resume;
        }
        r.pc = r.x[1];
        Some(r)
    }
}
