//! The stack-overflow check of a kernel-aware image (descriptor version 4): a store below
//! the running task's stack, stopped before it writes (`machine::StackGuard`).
//!
//! The core's store guard is a window of [`WINDOW`] bytes right below the running task's
//! stack (from its TCB's stack base), moved whenever the kernel stores its current-task
//! pointer; the check per store is one compare. A store in the window is an overflow only
//! if the core runs on that task's stack gone too deep: its stack pointer is below the
//! stack's base too, no HISR runs (a HISR has its own stack) and the stack pointer is not
//! on the interrupt stack (a LISR's), nor, in the kernel's code, on the stack of the task
//! that ran before (a switch in progress: the kernel names the new task before it leaves
//! the old task's stack), nor in the context switch's save of the old context (it may be a
//! HISR's, on the HISR's stack). Any other store there (a LISR's, or the kernel copying a message
//! into another task's stack that lies just below) is let through. So an overflow in the
//! kernel's own code, into the stack of the task that ran just before, is missed.

use crate::kernel::{read_u32, DebugInfo};
use machine::bus::SysBus;
use machine::elf::Image;
use machine::machine::StackGuard;
use rv32::Hart;

/// The guard window's size, bytes: a frame deeper than this below the stack is missed.
pub const WINDOW: u32 = 1024;
/// The kernel's own stacks (`uk__stacks_t`: the idle task's, then the interrupt stack).
const STACKS_SYMBOL: &str = "uk__stacks";

/// The check for one image.
pub struct StackCheck {
    info: DebugInfo,
    off_stack: u32,
    off_stack_bytes: u32,
    /// `uk__stacks`: its address and size.
    stacks: Option<(u32, u32)>,
    /// The kernel's functions (`uk*`): address and size.
    kernel_code: Vec<(u32, u32)>,
    /// The context switch (`uk__arch_switch`): it saves the old context on the stack it
    /// runs on (a task's or a HISR's) after the kernel named the new task.
    switch_code: Option<(u32, u32)>,
    /// The running task's stack and the one's before, as `place` last saw them.
    cur: Option<(u32, u32)>,
    prev: Option<(u32, u32)>,
}

impl StackCheck {
    /// The check for `image`, if it has a descriptor with the tasks' stacks (version 4).
    pub fn for_image(image: &Image) -> Option<StackCheck> {
        let info = DebugInfo::from_image(image)?;
        let w = info.waits?;
        Some(StackCheck {
            info,
            off_stack: w.off_stack as u32,
            off_stack_bytes: w.off_stack_bytes as u32,
            stacks: image
                .symbols
                .iter()
                .find(|s| s.name == STACKS_SYMBOL)
                .map(|s| (s.addr, s.size)),
            kernel_code: image
                .symbols
                .iter()
                .filter(|s| s.is_func && s.name.starts_with("uk"))
                .map(|s| (s.addr, s.size))
                .collect(),
            switch_code: image
                .symbols
                .iter()
                .find(|s| s.is_func && s.name == "uk__arch_switch")
                .map(|s| (s.addr, s.size)),
            cur: None,
            prev: None,
        })
    }

    fn in_kernel(&self, pc: u32) -> bool {
        self.kernel_code.iter().any(|&(a, n)| pc >= a && pc - a < n)
    }

    /// The running task's TCB and stack `[base, base + bytes)`, if one runs.
    pub fn running(&self, bus: &SysBus) -> Option<(u32, u32, u32)> {
        let tcb = read_u32(bus, self.info.current_task).filter(|&t| t != 0)?;
        let base = read_u32(bus, tcb.wrapping_add(self.off_stack))?;
        let bytes = read_u32(bus, tcb.wrapping_add(self.off_stack_bytes))?;
        (base != 0).then_some((tcb, base, bytes))
    }

    /// The interrupt stack: `uk__stacks` above the idle task's stack.
    fn irq_stack(&self, bus: &SysBus) -> Option<(u32, u32)> {
        let (addr, size) = self.stacks?;
        let idle = self.info.idle_tcb?;
        let base = read_u32(bus, idle.wrapping_add(self.off_stack))?;
        let bytes = read_u32(bus, idle.wrapping_add(self.off_stack_bytes))?;
        Some((base.wrapping_add(bytes), addr.wrapping_add(size)))
    }
}

impl StackGuard for StackCheck {
    fn place(&mut self, bus: &SysBus, _hart: &Hart) -> (u32, u32, u32) {
        let watch = self.info.current_task;
        let running = self.running(bus);
        let stack = running.map(|(_, base, bytes)| (base, bytes));
        if stack != self.cur {
            self.prev = self.cur;
            self.cur = stack;
        }
        match running {
            Some((_, base, _)) => {
                let lo = base.saturating_sub(WINDOW);
                (watch, lo, base - lo)
            }
            None => (watch, 0, 0),
        }
    }

    fn overflow(&mut self, bus: &SysBus, hart: &Hart, addr: u32) -> bool {
        let Some((_, base, _)) = self.running(bus) else {
            return false;
        };
        let sp = hart.x[2];
        let hisr = read_u32(bus, self.info.current_hisr).unwrap_or(0);
        let on_irq_stack = self
            .irq_stack(bus)
            .is_some_and(|(lo, hi)| sp >= lo && sp <= hi);
        let switching = self
            .prev
            .is_some_and(|(b, n)| sp >= b && sp <= b.wrapping_add(n))
            && self.in_kernel(hart.pc);
        let saving = self
            .switch_code
            .is_some_and(|(a, n)| hart.pc >= a && hart.pc - a < n);
        addr < base && sp < base && hisr == 0 && !on_irq_stack && !switching && !saving
    }
}
