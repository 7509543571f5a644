//! Kernel awareness: the descriptor a kernel exports for the testbed (`uk_debug_info`, see
//! `kernel/include/ubik/ubik.h`), read from the ELF's initialised data. Any kernel can
//! export the same layout; an ELF without it is observed as bare metal (no task timeline).
//!
//! Layout (little-endian; each version appends to the one before, whose fields keep their
//! offsets):
//! ```text
//!  0  u32 magic        0x4b425531 ("1UBK")
//!  4  u32 version      1, 2 or 3
//!  8  u32 current_task address of the current-task pointer
//! 12  u32 current_hisr address of the current-HISR pointer (NULL when none runs)
//! 16  u16 off_name     TCB offset of the name pointer (const char *)
//! 18  u16 off_prio     TCB offset of the priority (u8)
//! 20  u16 off_state    TCB offset of the state (u8)
//! 22  u16 tcb_size
//! 24  u32 idle_task    address of the idle task's TCB (version 2)
//! 28  u32 tasks        address of the head pointer of the list of live tasks (version 3)
//! 32  u16 off_next     TCB offset of that list's next pointer
//! 34  u16 off_sp       TCB offset of the saved stack pointer (valid while not running)
//! 36  u16 off_wait     TCB offset of the pointer to the wait queue waited on (version 4)
//! 38  u16 off_stack    TCB offset of the stack's lowest address
//! 40  u16 off_stack_bytes  TCB offset of the stack's size in bytes (a u32)
//! 42  u16 reserved
//! 44  u32 objects      address of the named objects' table (0: none), rows of 16 bytes:
//!                      u32 address, u32 size, u32 kind (1 semaphore, 2 mutex, 3 queue,
//!                      4 port, 5 flags, 6 pool), u32 name (const char *); a row with
//!                      address 0 ends it
//! ```
//! A version-1 descriptor has no idle task: the task named `idle` is taken for it.

use machine::elf::Image;
use rv32::Bus;
use std::fmt;

pub const DEBUG_MAGIC: u32 = 0x4b42_5531;
pub const DEBUG_SYMBOL: &str = "uk_debug_info";
/// The newest layout this testbed reads (it reads every version up to it).
pub const DEBUG_VERSION: u32 = 4;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DebugInfo {
    pub version: u32,
    pub current_task: u32,
    pub current_hisr: u32,
    pub off_name: u16,
    pub off_prio: u16,
    pub off_state: u16,
    pub tcb_size: u16,
    /// The idle task's TCB (version 2; `None` for version 1).
    pub idle_tcb: Option<u32>,
    /// The task list (version 3; `None` before).
    pub tasks: Option<TaskList>,
    /// What tasks wait on and their stacks (version 4; `None` before).
    pub waits: Option<Waits>,
}

/// Where a task table finds what each task waits on and its stack (descriptor version 4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Waits {
    pub off_wait: u16,
    pub off_stack: u16,
    pub off_stack_bytes: u16,
    /// Address of the named objects' table (0: none).
    pub objects: u32,
}

/// Where a debugger finds every task (descriptor version 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TaskList {
    /// Address of the head pointer.
    pub head: u32,
    pub off_next: u16,
    pub off_sp: u16,
}

/// No kernel has more tasks than a debugger lists (a corrupt list stops the walk here).
pub const MAX_TASKS: usize = 256;

impl TaskList {
    /// The task control blocks on the list, from its head, each once and at most `max`: a
    /// corrupt list (a cycle, a wild pointer) ends the walk rather than looping.
    pub fn tcbs<B: Bus>(&self, bus: &B, max: usize) -> Vec<u32> {
        let mut tcbs = Vec::new();
        let mut at = read_u32(bus, self.head).unwrap_or(0);
        while at != 0 && tcbs.len() < max && !tcbs.contains(&at) {
            tcbs.push(at);
            at = read_u32(bus, at.wrapping_add(self.off_next as u32)).unwrap_or(0);
        }
        tcbs
    }
}

/// Why a descriptor that is there cannot be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DebugInfoError {
    /// A version this testbed does not know (0, or newer than [`DEBUG_VERSION`]).
    UnknownVersion(u32),
    /// The descriptor is shorter in the image than its version's layout.
    Truncated { version: u32 },
}

impl fmt::Display for DebugInfoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DebugInfoError::UnknownVersion(v) => write!(
                f,
                "{DEBUG_SYMBOL} has version {v}, which this testbed does not read (versions 1 to \
                 {DEBUG_VERSION})"
            ),
            DebugInfoError::Truncated { version } => write!(
                f,
                "{DEBUG_SYMBOL} (version {version}) is shorter in the ELF than its layout"
            ),
        }
    }
}

impl std::error::Error for DebugInfoError {}

/// `n` bytes of the image's initialised data at `addr`, if one segment holds them all.
pub fn image_bytes(image: &Image, addr: u32, n: usize) -> Option<Vec<u8>> {
    image.segments.iter().find_map(|s| {
        let off = addr.checked_sub(s.addr)? as usize;
        (off + n <= s.data.len()).then(|| s.data[off..off + n].to_vec())
    })
}

impl DebugInfo {
    /// The name of the task at `tcb`, or `task@ADDR` when it has none that can be read.
    pub fn task_name<B: Bus>(&self, bus: &B, tcb: u32) -> String {
        read_u32(bus, tcb.wrapping_add(self.off_name as u32))
            .and_then(|p| read_cstr(bus, p))
            .unwrap_or_else(|| format!("task@{tcb:08x}"))
    }

    /// The descriptor of `image`: `Ok(None)` when it has none (no symbol, or not the magic
    /// number), an error when it has one this testbed cannot read.
    pub fn read(image: &Image) -> Result<Option<DebugInfo>, DebugInfoError> {
        let Some(sym) = image.symbols.iter().find(|s| s.name == DEBUG_SYMBOL) else {
            return Ok(None);
        };
        let Some(head) = image_bytes(image, sym.addr, 8) else {
            return Ok(None);
        };
        let word = |b: &[u8], o: usize| u32::from_le_bytes([b[o], b[o + 1], b[o + 2], b[o + 3]]);
        if word(&head, 0) != DEBUG_MAGIC {
            return Ok(None);
        }
        let version = word(&head, 4);
        let len = match version {
            1 => 24,
            2 => 28,
            3 => 36,
            4 => 48,
            v => return Err(DebugInfoError::UnknownVersion(v)),
        };
        let b = image_bytes(image, sym.addr, len).ok_or(DebugInfoError::Truncated { version })?;
        let u16_at = |o: usize| u16::from_le_bytes([b[o], b[o + 1]]);
        Ok(Some(DebugInfo {
            version,
            current_task: word(&b, 8),
            current_hisr: word(&b, 12),
            off_name: u16_at(16),
            off_prio: u16_at(18),
            off_state: u16_at(20),
            tcb_size: u16_at(22),
            idle_tcb: (version >= 2).then(|| word(&b, 24)),
            tasks: (version >= 3).then(|| TaskList {
                head: word(&b, 28),
                off_next: u16_at(32),
                off_sp: u16_at(34),
            }),
            waits: (version >= 4).then(|| Waits {
                off_wait: u16_at(36),
                off_stack: u16_at(38),
                off_stack_bytes: u16_at(40),
                objects: word(&b, 44),
            }),
        }))
    }

    /// The descriptor of `image`, if it has one this testbed reads: a descriptor of an
    /// unknown version is treated like a missing one (the ELF is observed as bare metal);
    /// [`DebugInfo::read`] says why.
    pub fn from_image(image: &Image) -> Option<DebugInfo> {
        Self::read(image).ok().flatten()
    }
}

/// Reads a word from RAM through the bus (instruction-fetch path: RAM only, no side effects).
pub fn read_u32<B: Bus>(bus: &B, addr: u32) -> Option<u32> {
    let lo = bus.fetch16(addr)?;
    let hi = bus.fetch16(addr.wrapping_add(2))?;
    Some(lo as u32 | (hi as u32) << 16)
}

pub fn read_u8<B: Bus>(bus: &B, addr: u32) -> Option<u8> {
    let h = bus.fetch16(addr & !1)?;
    Some(if addr & 1 == 0 {
        h as u8
    } else {
        (h >> 8) as u8
    })
}

/// A NUL-terminated string of at most 64 bytes at `addr`, if it is printable.
pub fn read_cstr<B: Bus>(bus: &B, addr: u32) -> Option<String> {
    if addr == 0 {
        return None;
    }
    let mut s = Vec::new();
    for i in 0..64 {
        let c = read_u8(bus, addr.wrapping_add(i))?;
        if c == 0 {
            break;
        }
        if !(0x20..0x7f).contains(&c) {
            return None;
        }
        s.push(c);
    }
    (!s.is_empty()).then(|| String::from_utf8_lossy(&s).into_owned())
}
