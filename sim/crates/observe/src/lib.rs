//! Measurement without perturbation (docs/observe.md): the energy model of
//! `docs/energy.md`, attribution of every cycle and joule to a category and a function,
//! kernel awareness from the `uk_debug_info` descriptor (with per-task CPU time, activations,
//! preemptions and response times, and interrupt lines' service times), and the writers of `--profile`
//! (CSV), `--trace` (Chrome/Perfetto trace-event JSON, with kernel events and user markers:
//! `kevents`) and `--vcd` (value change dump).
//!
//! The observer sees the core through `rv32::Observer` and the machine through
//! `machine::Probe`; neither lets it change anything, so cycle counts are the same with and
//! without it. Everything per instruction is a table lookup by address (a word per RAM
//! halfword, built once from the ELF's symbols and sections) and three counter updates;
//! symbol names, kernel data structures and energy arithmetic are touched only on the rare
//! paths (traps, task switches, operating-point changes) and at the end.

pub mod codemap;
pub mod energy;
pub mod hang;
pub mod kernel;
pub mod kevents;
pub mod observer;
pub mod perfetto_pb;
pub mod report;
pub mod stackguard;
pub mod tasks;
pub mod tasktable;
pub mod trace;
pub mod vcd_out;

pub use codemap::CodeMap;
pub use energy::Model;
pub use kernel::{DebugInfo, DebugInfoError};
pub use observer::EnergyObserver;
pub use report::{Results, Stat};
pub use tasks::{IrqFigures, TaskFigures};

/// Where a cycle (and its energy) goes (`docs/contract.md`, "Attribution convention").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Category {
    User = 0,
    KernelSched = 1,
    KernelTime = 2,
    KernelIpc = 3,
    KernelOther = 4,
    Lisr = 5,
    Hisr = 6,
    Idle = 7,
}

impl Category {
    pub const ALL: [Category; 8] = [
        Category::User,
        Category::KernelSched,
        Category::KernelTime,
        Category::KernelIpc,
        Category::KernelOther,
        Category::Lisr,
        Category::Hisr,
        Category::Idle,
    ];

    /// The names of `ALL`, in its order: the keys of `--stats` `by_category`, the column
    /// prefixes of the experiments' CSV files and the bars of their energy figures.
    pub const NAMES: [&'static str; Category::ALL.len()] = {
        let mut names = [""; Category::ALL.len()];
        let mut i = 0;
        while i < names.len() {
            names[i] = Category::ALL[i].name();
            i += 1;
        }
        names
    };

    /// The name used in `--stats` (`by_category`).
    pub const fn name(self) -> &'static str {
        match self {
            Category::User => "user",
            Category::KernelSched => "kernel_sched",
            Category::KernelTime => "kernel_time",
            Category::KernelIpc => "kernel_ipc",
            Category::KernelOther => "kernel_other",
            Category::Lisr => "lisr",
            Category::Hisr => "hisr",
            Category::Idle => "idle",
        }
    }

    /// The operating system's share: the kernel's parts and the interrupt handlers (every
    /// category but the application's and idle).
    pub fn is_os(self) -> bool {
        !matches!(self, Category::User | Category::Idle)
    }

    pub fn is_kernel(self) -> bool {
        matches!(
            self,
            Category::KernelSched
                | Category::KernelTime
                | Category::KernelIpc
                | Category::KernelOther
        )
    }

    /// The category of code in a section of this name: kernel code lives in
    /// `.text.uk_sched*`, `.text.uk_time*`, `.text.uk_ipc*` and the other `.text.uk_*` (the
    /// BSP's linker script keeps them as output sections `.text.uk_sched`, `.text.uk_time`,
    /// `.text.uk_ipc` and `.text.uk`); everything else is user code.
    pub fn of_section(name: &str) -> Category {
        if name.starts_with(".text.uk_sched") {
            Category::KernelSched
        } else if name.starts_with(".text.uk_time") {
            Category::KernelTime
        } else if name.starts_with(".text.uk_ipc") {
            Category::KernelIpc
        } else if name == ".text.uk"
            || name.starts_with(".text.uk_")
            || name.starts_with(".text.uk.")
        {
            Category::KernelOther
        } else {
            Category::User
        }
    }
}

/// The execution context of a cycle, as far as attribution goes.
pub mod mode {
    /// By the section of the code (no trap, no HISR, not the idle task).
    pub const NORMAL: u32 = 0;
    /// Between trap entry and `mret` (of the current task or HISR context).
    pub const TRAP: u32 = 1;
    /// A HISR runs.
    pub const HISR: u32 = 2;
    /// The idle task runs.
    pub const IDLE: u32 = 3;
    pub const COUNT: usize = 4;
}

/// The category of code of static category `code` run in context `mode`: in a trap, kernel
/// code keeps its kernel category and everything else is `lisr`; in a HISR everything is
/// `hisr`; in the idle task everything is `idle`.
pub fn category_in(code: Category, mode: u32) -> Category {
    match mode {
        mode::TRAP if code.is_kernel() => code,
        mode::TRAP => Category::Lisr,
        mode::HISR => Category::Hisr,
        mode::IDLE => Category::Idle,
        _ => code,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn section_categories() {
        assert_eq!(
            Category::of_section(".text.uk_sched"),
            Category::KernelSched
        );
        assert_eq!(
            Category::of_section(".text.uk_sched.uk__tail"),
            Category::KernelSched
        );
        assert_eq!(Category::of_section(".text.uk_time"), Category::KernelTime);
        assert_eq!(
            Category::of_section(".text.uk_ipc.uk_sem_give"),
            Category::KernelIpc
        );
        assert_eq!(Category::of_section(".text.uk"), Category::KernelOther);
        assert_eq!(
            Category::of_section(".text.uk_other.idle"),
            Category::KernelOther
        );
        assert_eq!(Category::of_section(".text"), Category::User);
        assert_eq!(Category::of_section(".text.ukulele"), Category::User);
        assert_eq!(Category::of_section(".vectors"), Category::User);
    }

    #[test]
    fn context_rules() {
        assert_eq!(category_in(Category::User, mode::TRAP), Category::Lisr);
        assert_eq!(
            category_in(Category::KernelIpc, mode::TRAP),
            Category::KernelIpc
        );
        assert_eq!(category_in(Category::KernelIpc, mode::HISR), Category::Hisr);
        assert_eq!(
            category_in(Category::KernelSched, mode::IDLE),
            Category::Idle
        );
        assert_eq!(
            category_in(Category::KernelTime, mode::NORMAL),
            Category::KernelTime
        );
    }
}
