//! The observer a debugged run goes through: it makes the machine's loop run one
//! instruction per turn (`STEPS`), counts the turns (the position in history), and pauses
//! the run where the debugger must look: a breakpoint, a watched access, the end of a step,
//! a position to reach. It cannot change what the machine does, so a debugged run takes
//! exactly the cycles of a run without it.

use crate::history::Dirty;
use gdbstub::target::ext::breakpoints::WatchKind;
use machine::Probe;
use rv32::observer::At;
use rv32::{Hart, Observer};
use std::collections::BTreeSet;

/// A watched range of addresses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Watch {
    pub addr: u32,
    pub len: u32,
    pub kind: WatchKind,
}

impl Watch {
    /// Does an access of `size` bytes at `addr` (a store if `write`) touch it?
    pub fn hit(&self, write: bool, addr: u32, size: u32) -> bool {
        let kind_ok = match self.kind {
            WatchKind::Write => write,
            WatchKind::Read => !write,
            WatchKind::ReadWrite => true,
        };
        kind_ok
            && (addr as u64) < self.addr as u64 + self.len as u64
            && (self.addr as u64) < addr as u64 + size as u64
    }
}

/// Why the probe paused the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hit {
    /// A breakpoint at the next instruction.
    Break,
    /// A watched access by the instruction just done (its kind, the watch's address).
    Watch(WatchKind, u32),
    /// A step is done.
    Stepped,
    /// The position asked for (`until`).
    Reached,
}

/// A step in progress: where it started, and the interrupts it passes through (a step
/// steps over an interrupt handler, as it would on hardware with the debugger masking
/// nothing: the handler runs, its instructions are not the step's).
#[derive(Clone, Copy, Debug, Default)]
pub struct Step {
    pub pc: u32,
    pub instret: u64,
    depth: u32,
    entry_instret: u64,
    handler_instret: u64,
}

impl Step {
    pub fn new(hart: &Hart) -> Step {
        Step {
            pc: hart.pc,
            instret: hart.instret,
            ..Step::default()
        }
    }

    fn done(&self, hart: &Hart) -> bool {
        self.depth == 0
            && (hart.pc != self.pc || hart.instret - self.handler_instret != self.instret)
    }
}

/// What a reverse search looks for, in the turns it replays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Search {
    /// The last position with fewer instructions retired than `instret` (reverse-stepi).
    Retired { instret: u64 },
    /// The last breakpoint, or the position before the last watched access
    /// (reverse-continue).
    Stop,
}

pub struct DebugProbe<'a> {
    /// Turns since reset.
    pub pos: u64,
    /// Pause when `pos` reaches this (`Hit::Reached`).
    pub until: u64,
    /// Stop at breakpoints and watched accesses (off while replaying).
    pub stops: bool,
    pub breakpoints: &'a BTreeSet<u32>,
    pub watches: &'a [Watch],
    pub step: Option<Step>,
    pub search: Option<Search>,
    /// The search's latest match: its position and what it was.
    pub found: Option<(u64, Hit)>,
    pub hit: Option<Hit>,
    watched: Option<(WatchKind, u32)>,
    /// The RAM pages the core stores to (for the snapshots), and the RAM's size.
    pub dirty: Dirty,
    pub ram_len: usize,
}

impl<'a> DebugProbe<'a> {
    pub fn new(pos: u64, breakpoints: &'a BTreeSet<u32>, watches: &'a [Watch]) -> Self {
        DebugProbe {
            pos,
            until: u64::MAX,
            stops: true,
            breakpoints,
            watches,
            step: None,
            search: None,
            found: None,
            hit: None,
            watched: None,
            dirty: Dirty::default(),
            ram_len: 0,
        }
    }

    /// Is there a breakpoint at the instruction the core runs next?
    pub fn at_breakpoint(&self, hart: &Hart) -> bool {
        !hart.sleeping && self.breakpoints.contains(&hart.pc)
    }

    /// Looks at the position the machine is at as the search would (for its first one).
    pub fn search_here(&mut self, hart: &Hart) {
        match self.search {
            Some(Search::Retired { instret }) if hart.instret < instret => {
                self.found = Some((self.pos, Hit::Reached))
            }
            Some(Search::Stop) if self.at_breakpoint(hart) => {
                self.found = Some((self.pos, Hit::Break))
            }
            _ => {}
        }
    }
}

impl Observer for DebugProbe<'_> {
    const ACCESSES: bool = true;

    #[inline]
    fn access(&mut self, write: bool, addr: u32, size: u32) {
        if write {
            self.dirty.mark(addr, size, self.ram_len);
        }
        if self.watched.is_none() {
            if let Some(w) = self.watches.iter().find(|w| w.hit(write, addr, size)) {
                let kind = match w.kind {
                    WatchKind::ReadWrite => WatchKind::ReadWrite,
                    _ if write => WatchKind::Write,
                    _ => WatchKind::Read,
                };
                self.watched = Some((kind, w.addr));
            }
        }
    }

    fn interrupt(&mut self, _cause: u32, at: At, _vector: u32) {
        if let Some(s) = &mut self.step {
            if s.depth == 0 {
                s.entry_instret = at.instret;
            }
            s.depth += 1;
        }
    }

    fn mret(&mut self, at: At, _pc: u32) {
        if let Some(s) = &mut self.step {
            if s.depth > 0 {
                s.depth -= 1;
                if s.depth == 0 {
                    s.handler_instret += at.instret - s.entry_instret;
                }
            }
        }
    }
}

impl Probe for DebugProbe<'_> {
    const STEPS: bool = true;

    fn pause(&mut self, hart: &Hart) -> bool {
        self.pos += 1;
        let watched = self.watched.take();
        if let Some(search) = self.search {
            match search {
                Search::Retired { instret } if hart.instret < instret => {
                    self.found = Some((self.pos, Hit::Reached))
                }
                Search::Stop => {
                    if let Some((kind, addr)) = watched {
                        self.found = Some((self.pos - 1, Hit::Watch(kind, addr)));
                    }
                    if self.at_breakpoint(hart) && self.pos < self.until {
                        self.found = Some((self.pos, Hit::Break));
                    }
                }
                _ => {}
            }
        }
        self.hit = if self.stops && watched.is_some() {
            watched.map(|(k, a)| Hit::Watch(k, a))
        } else if self.stops && self.at_breakpoint(hart) {
            Some(Hit::Break)
        } else if self.step.is_some_and(|s| s.done(hart)) {
            Some(Hit::Stepped)
        } else if self.pos >= self.until {
            Some(Hit::Reached)
        } else {
            None
        };
        self.hit.is_some()
    }
}
