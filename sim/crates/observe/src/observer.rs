//! The energy and attribution observer (with the task timeline when `TRACE`).
//!
//! Attribution by intervals: the core flags, when it decodes them, the first instruction of
//! every function and the instructions after which control may be in another function
//! (`jalr`, calls, jumps out of a function), and reports those points (`boundary`) with its
//! own counters (cycles, instructions, loads and stores, branches and jumps). Everything
//! between two such points (or a trap, an `mret`, a task switch) belongs to one key
//! (function, context mode), so the interval's cycles, instructions and class energy follow
//! from differences of counters; the observer counts only multiplies, divider cycles,
//! device-register accesses and `mret`s itself, which the core's counters do not separate.
//! Nothing is done per instruction. Cycles outside
//! instructions fall into the interval they occur in: a trap entry's dead cycles into the
//! handler's first interval (`docs/energy.md` charges them to that handler), a wake-up into
//! the interval the core resumes. Energy in pJ is computed only when the operating point
//! changes and at the end (`flush`).
//!
//! Contexts: a trap nesting depth is kept per (current task, current HISR) pair read from
//! the kernel's descriptor. The kernel switches tasks inside its interrupt handling (and a
//! task switched out voluntarily is resumed without an `mret`), so the depth is saved when
//! the current-task or current-HISR pointer changes and restored when that context runs
//! again.

use crate::codemap::{CodeMap, Func, CALL, ENTRY, FN_MASK, SLEEP};
use crate::energy::{Model, Rates};
use crate::kernel::{self, DebugInfo};
use crate::kevents::KernelEvents;
use crate::report::{Results, Stat};
use crate::tasks::TaskAccounting;
use crate::trace::Timeline;
use crate::{category_in, mode, Category};
use machine::config::{MachineConfig, Opp};
use machine::elf::Image;
use machine::Probe;
use rv32::inst::Op;
use rv32::observer::{flag, At};
use rv32::{Bus, Observer};
use std::collections::HashMap;

#[derive(Clone, Copy, Default, Debug)]
struct Acc {
    cycles: u64,
    instret: u64,
    /// Class energy at Vnom since the last flush, fJ (wrapping: an MMIO access subtracts).
    class_fj: u64,
}

#[derive(Clone, Copy, Default, Debug)]
struct Flushed {
    cycles: u64,
    energy_pj: f64,
}

/// Event counts the core does not keep (see `Observer`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Counts {
    mul: u64,
    div: u64,
    div_cycles: u64,
    mmio: u64,
    mret: u64,
    /// Loads and stores that faulted (counted by the core's `mem`, never retired).
    faults: u64,
}

/// The open interval: its key (function * mode::COUNT + mode) and the counters where it
/// started.
#[derive(Clone, Copy, Debug, Default)]
struct Open {
    key: usize,
    at: At,
    counts: Counts,
}

const SLEEP_KEY: usize = SLEEP as usize * mode::COUNT + mode::IDLE as usize;
/// Power samples for the trace at most this often (cycles), except at forced boundaries.
const MIN_SAMPLE_CYCLES: u64 = 200;

pub struct EnergyObserver<const TRACE: bool> {
    // ---- hot: touched per instruction
    slots: Vec<u32>,
    base: u32,
    acc: Vec<Acc>,
    mode: u32,
    /// The open interval.
    cur: Open,
    counts: Counts,
    calls: Vec<u64>,
    /// Word addresses of the current-task and current-HISR pointers and of the task list's
    /// head (u32::MAX: none).
    watch: [u32; 3],
    /// The known tasks' state bytes lie in `state_lo .. state_lo + state_span` (from 3
    /// bytes below the lowest, for word stores over it).
    state_lo: u32,
    state_span: u32,
    /// Bit (word address mod 64) set for the words that hold a known task's state byte: a
    /// store in the range that hits no such word (a stack's, most often) is let go at once.
    state_words: u64,
    /// Class energy of the current operating-point segment, fJ (as spilled).
    seg_class_fj: u64,
    // ---- cold
    flushed: Vec<Flushed>,
    funcs: Vec<Func>,
    model: Model,
    rates: Rates,
    opps: Vec<Opp>,
    started: bool,
    flushed_pj: f64,
    seg_start: u64,
    seg_sleep: u64,
    depth: u32,
    task: u32,
    hisr: u32,
    is_idle: bool,
    saved_depth: HashMap<(u32, u32), u32>,
    debug: Option<DebugInfo>,
    task_switches: u64,
    /// Data symbols by address (names for HISRs and tasks without a readable name).
    objects: HashMap<u32, String>,
    /// The kernel's LISR table (`uk__lisr_table`, a function pointer per fast line), when
    /// tracing: its stores name the lines' trap slices by their LISRs.
    lisr_table: u32,
    irq_names: [Option<u32>; 15],
    /// The interrupts' names of `system.toml` (`uk__gen_irq_names`), by line.
    irq_sys_names: [Option<String>; 15],
    pub timeline: Timeline,
    /// Per-task and per-line figures (`crate::tasks`).
    acct: TaskAccounting,
    /// The known tasks' control blocks and the addresses of their state bytes.
    tcb_states: Vec<(u32, u32)>,
    /// Kernel events and user markers for the trace (`crate::kevents`; TRACE only).
    kev: KernelEvents,
}

impl<const TRACE: bool> EnergyObserver<TRACE> {
    /// An observer for code laid out as `map` in RAM of `_ram_len` bytes, with the energy
    /// `model`, the machine's operating points, and the kernel descriptor if any.
    pub fn new(
        map: CodeMap,
        _ram_len: u32,
        model: Model,
        opps: Vec<Opp>,
        debug: Option<DebugInfo>,
    ) -> Self {
        let keys = map.funcs.len() * mode::COUNT;
        let watch = match &debug {
            Some(d) => [
                d.current_task & !3,
                d.current_hisr & !3,
                d.tasks.map_or(u32::MAX, |t| t.head & !3),
            ],
            None => [u32::MAX; 3],
        };
        let rates = model.rates(opps[0]);
        let mut timeline = Timeline::new(debug.is_some());
        if debug.is_some() {
            timeline.context(0, 0, "(boot)".into(), 0);
        }
        EnergyObserver {
            slots: map.slots,
            base: map.base,
            acc: vec![Acc::default(); keys],
            mode: mode::NORMAL,
            cur: Open::default(),
            counts: Counts::default(),
            calls: vec![0; map.funcs.len()],
            watch,
            state_lo: 0,
            state_span: 0,
            state_words: 0,
            seg_class_fj: 0,
            flushed: vec![Flushed::default(); keys],
            funcs: map.funcs,
            model,
            rates,
            opps,
            started: false,
            flushed_pj: 0.0,
            seg_start: 0,
            seg_sleep: 0,
            depth: 0,
            task: 0,
            hisr: 0,
            is_idle: false,
            saved_depth: HashMap::new(),
            debug,
            task_switches: 0,
            objects: HashMap::new(),
            lisr_table: u32::MAX,
            irq_names: [None; 15],
            irq_sys_names: Default::default(),
            timeline,
            acct: TaskAccounting::new(debug.is_some()),
            tcb_states: Vec::new(),
            kev: KernelEvents::none(),
        }
    }

    /// The observer of `image` on a machine `cfg` (RAM at `ram_base`): the code map from the
    /// ELF's symbols and sections, the kernel descriptor if the ELF has one.
    pub fn for_image(image: &Image, ram_base: u32, cfg: &MachineConfig) -> Self {
        let map = CodeMap::new(image, ram_base, cfg.ram_size);
        let debug = DebugInfo::from_image(image);
        let mut o = Self::new(
            map,
            cfg.ram_size,
            Model::new(cfg.energy),
            cfg.devices.power.opps.clone(),
            debug,
        );
        o.objects = image
            .symbols
            .iter()
            .filter(|s| !s.is_func)
            .map(|s| (s.addr, s.name.clone()))
            .collect();
        o.irq_sys_names = system_irq_names(image);
        if TRACE {
            o.kev = KernelEvents::new(image, &o.funcs, o.debug.as_ref());
            if let Some(t) = image.symbols.iter().find(|s| s.name == "uk__lisr_table") {
                o.lisr_table = t.addr;
            }
            for line in 0..15 {
                if let Some(n) = &o.irq_sys_names[line] {
                    let name = format!("irq line {line}: {n}");
                    o.irq_names[line] = Some(o.timeline.intern(&name));
                }
            }
        }
        o
    }

    /// A store into the LISR table: the line's trap slices take the LISR's name.
    #[cold]
    fn lisr_installed<B: Bus>(&mut self, addr: u32, bus: &B) {
        let line = ((addr - self.lisr_table) / 4) as usize;
        let Some(f) = kernel::read_u32(bus, addr & !3) else {
            return;
        };
        let func = (self.slot(f) & FN_MASK) as usize;
        let lisr = self
            .funcs
            .get(func)
            .filter(|func| func.start == f)
            .map(|f| &f.name);
        let name = match (&self.irq_sys_names[line], lisr) {
            (Some(n), Some(l)) => Some(format!("irq line {line}: {n} ({l})")),
            (Some(n), None) => Some(format!("irq line {line}: {n}")),
            (None, Some(l)) => Some(format!("irq line {line}: {l}")),
            (None, None) => None,
        };
        self.irq_names[line] = name.map(|n| self.timeline.intern(&n));
    }

    #[inline(always)]
    fn slot(&self, pc: u32) -> u32 {
        self.slots
            .get((pc.wrapping_sub(self.base) >> 1) as usize)
            .copied()
            .unwrap_or(0)
    }

    #[inline(always)]
    fn key(&self, v: u32) -> usize {
        ((v & FN_MASK) as usize) * mode::COUNT + self.mode as usize
    }

    /// The accumulator of `key` (a key made by `key` from a slot word: always in range).
    #[inline(always)]
    fn acc_mut(&mut self, key: usize) -> &mut Acc {
        debug_assert!(key < self.acc.len());
        // SAFETY: slot words hold indices of `funcs` (the table is built with them) and the
        // mode is below mode::COUNT; `acc` has funcs.len() * mode::COUNT entries.
        unsafe { self.acc.get_unchecked_mut(key) }
    }

    fn compute_mode(&self) -> u32 {
        if self.depth > 0 {
            mode::TRAP
        } else if self.hisr != 0 {
            mode::HISR
        } else if self.is_idle {
            mode::IDLE
        } else {
            mode::NORMAL
        }
    }

    /// Cycles attributed so far (closed intervals and sleep).
    fn charged(&self) -> u64 {
        self.acc.iter().map(|a| a.cycles).sum()
    }

    /// Close the open interval at `at`: its cycles, instructions and class energy (from the
    /// differences of the counters, in wrapping arithmetic) go to its key. A new interval
    /// starts there, for the same key until the caller changes it.
    fn close(&mut self, at: At) {
        let o = self.cur;
        let n = self.counts;
        let m = &self.model;
        let d_i = at.instret.wrapping_sub(o.at.instret);
        let d_faults = n.faults.wrapping_sub(o.counts.faults);
        let d_mem = at.mem.wrapping_sub(o.at.mem).wrapping_sub(d_faults);
        let d_mmio = n.mmio.wrapping_sub(o.counts.mmio);
        let d_xfer = at
            .xfer
            .wrapping_sub(o.at.xfer)
            .wrapping_add(n.mret.wrapping_sub(o.counts.mret));
        let d_mul = n.mul.wrapping_sub(o.counts.mul);
        let d_div = n.div.wrapping_sub(o.counts.div);
        let d_divc = n.div_cycles.wrapping_sub(o.counts.div_cycles);
        let d_alu = d_i
            .wrapping_sub(d_mem)
            .wrapping_sub(d_xfer)
            .wrapping_sub(d_mul)
            .wrapping_sub(d_div);
        let class = m
            .mem_fj
            .wrapping_mul(d_mem.wrapping_sub(d_mmio))
            .wrapping_add(m.mmio_fj.wrapping_mul(d_mmio))
            .wrapping_add(m.branch_fj.wrapping_mul(d_xfer))
            .wrapping_add(m.mul_fj.wrapping_mul(d_mul))
            .wrapping_add(m.div_cycle_fj.wrapping_mul(d_divc))
            .wrapping_add(m.alu_fj.wrapping_mul(d_alu));
        let a = self.acc_mut(o.key);
        a.cycles += at.cycle - o.at.cycle;
        a.instret += d_i;
        a.class_fj = a.class_fj.wrapping_add(class);
        self.seg_class_fj = self.seg_class_fj.wrapping_add(class);
        self.cur.at = at;
        self.cur.counts = n;
    }

    /// Control reached `pc` (from the instruction at `from` if it was flagged AFTER): the
    /// open interval closes and one for `pc`'s function begins. Counts a call when `pc` is a
    /// function's entry reached from another function or by a call instruction.
    fn enter(&mut self, from: Option<u32>, pc: u32, at: At) {
        let prev_f = self.cur.key / mode::COUNT;
        self.close(at);
        let v = self.slot(pc);
        let f = (v & FN_MASK) as usize;
        if TRACE && v & ENTRY != 0 {
            self.kev.entered(f);
        }
        if v & ENTRY != 0 {
            let via_call = from.is_some_and(|p| self.slot(p) & CALL != 0);
            if via_call || prev_f != f {
                self.calls[f] += 1;
            }
        }
        self.cur.key = self.key(v);
    }

    /// The open interval's key in the current mode for code at `pc`.
    fn rekey(&mut self, pc: u32) {
        self.cur.key = self.key(self.slot(pc));
    }

    /// Energy so far (pJ) at cycle `at`, including the current segment.
    fn energy_now_pj(&self, at: u64) -> f64 {
        let span = at.saturating_sub(self.seg_start);
        let active = span.saturating_sub(self.seg_sleep);
        self.flushed_pj
            + active as f64 * self.rates.active_pj
            + self.seg_sleep as f64 * self.rates.sleep_pj
            + self.seg_class_fj as i64 as f64 * self.rates.class_pj_per_fj
    }

    /// Move the accumulators into energy at the current rates; the segment starts at `now`.
    fn flush(&mut self, now: u64) {
        let r = self.rates;
        for (k, (a, f)) in self.acc.iter_mut().zip(self.flushed.iter_mut()).enumerate() {
            let dc = a.cycles - f.cycles;
            if dc == 0 && a.class_fj == 0 {
                continue;
            }
            let rate = if k == SLEEP_KEY {
                r.sleep_pj
            } else {
                r.active_pj
            };
            let e = dc as f64 * rate + a.class_fj as i64 as f64 * r.class_pj_per_fj;
            f.energy_pj += e;
            f.cycles = a.cycles;
            a.class_fj = 0;
            self.flushed_pj += e;
        }
        self.seg_start = now;
        self.seg_sleep = 0;
        self.seg_class_fj = 0;
    }

    /// Extra energy (pJ) charged to the last key.
    fn charge_extra(&mut self, pj: f64) {
        let k = self.cur.key;
        self.flushed[k].energy_pj += pj;
        self.flushed_pj += pj;
    }

    /// A trap is taken at `at`; its handler starts at `vector`.
    fn trap_enter(&mut self, cause: u32, at: At, vector: u32) {
        self.close(at);
        self.depth += 1;
        if cause >> 31 != 0 {
            self.acct
                .irq_enter(cause & 0x7fff_ffff, at.cycle, self.depth);
        }
        self.mode = mode::TRAP;
        self.rekey(vector);
        if TRACE {
            self.sample(at.cycle, false);
            let line = (cause & 0x1f).wrapping_sub(16) as usize;
            match self.irq_names.get(line).copied().flatten() {
                Some(n) if cause >> 31 != 0 => self.timeline.trap_enter_named(n, at.cycle),
                _ => self.timeline.trap_enter(cause, at.cycle),
            }
        }
    }

    /// A power sample for the trace: the average power since the last sample.
    fn sample(&mut self, at: u64, force: bool) {
        let e = self.energy_now_pj(at);
        self.timeline.power_sample(at, e, force, MIN_SAMPLE_CYCLES);
    }

    /// A store to the current-task or current-HISR pointer by the instruction at `pc`,
    /// which started at `now` (it belongs to the new context).
    #[cold]
    fn watched<B: Bus>(&mut self, pc: u32, now: At, bus: &B) {
        let Some(d) = self.debug else { return };
        let task = kernel::read_u32(bus, d.current_task).unwrap_or(0);
        let hisr = kernel::read_u32(bus, d.current_hisr).unwrap_or(0);
        if (task, hisr) == (self.task, self.hisr) {
            return;
        }
        let at = now.cycle;
        self.close(now);
        let old_state = (self.task != 0)
            .then(|| kernel::read_u8(bus, self.task.wrapping_add(d.off_state as u32)))
            .flatten();
        if task != 0 && !self.acct.is_known(task) {
            self.learn_task(task, bus, false);
        }
        self.acct.switch(at, task, hisr != 0, old_state);
        self.saved_depth.insert((self.task, self.hisr), self.depth);
        self.depth = self.saved_depth.get(&(task, hisr)).copied().unwrap_or(0);
        let task_name = kernel::read_u32(bus, task.wrapping_add(d.off_name as u32))
            .and_then(|p| kernel::read_cstr(bus, p));
        self.is_idle = task != 0
            && match d.idle_tcb {
                Some(t) => t == task,
                None => task_name.as_deref() == Some("idle"),
            };
        if let (Some(n), 0) = (&task_name, hisr) {
            self.acct.name(task, n.clone());
        }
        let old_task = self.task;
        self.task = task;
        self.hisr = hisr;
        self.task_switches += 1;
        self.mode = self.compute_mode();
        self.rekey(pc);
        if TRACE {
            let name = if hisr != 0 {
                let n = kernel::read_u32(bus, hisr.wrapping_add(d.off_name as u32))
                    .and_then(|p| kernel::read_cstr(bus, p))
                    .or_else(|| self.symbol_at(hisr))
                    .unwrap_or_else(|| format!("0x{hisr:08x}"));
                format!("HISR {n}")
            } else if task == 0 {
                "(no task)".into()
            } else {
                task_name
                    .or_else(|| self.symbol_at(task))
                    .unwrap_or_else(|| format!("task 0x{task:08x}"))
            };
            let prio = if hisr == 0 && task != 0 {
                kernel::read_u8(bus, task.wrapping_add(d.off_prio as u32)).unwrap_or(0) as u32
            } else {
                0
            };
            self.sample(at, true);
            self.kernel_switch(old_task, old_state, task, at, bus);
            self.timeline.context(task, hisr, name, at);
            if hisr == 0 && task != 0 {
                self.timeline.set_prio(prio);
            }
            self.timeline.reopen_traps(self.depth, at);
        }
    }

    /// A store to the task list's head (a task was created or deleted): every task on the
    /// list is known from now on (its releases are seen).
    #[cold]
    fn scan_tasks<B: Bus>(&mut self, bus: &B) {
        let Some(list) = self.debug.and_then(|d| d.tasks) else {
            return;
        };
        // A list longer than this is corrupt (or not a list): stop rather than loop.
        for tcb in list.tcbs(bus, 1024) {
            if !self.acct.is_known(tcb) {
                self.learn_task(tcb, bus, true);
            }
        }
    }

    /// The task control block at `tcb` becomes known (`listed`: found on the kernel's list
    /// of tasks): its name, its state, and its state byte watched.
    #[cold]
    fn learn_task<B: Bus>(&mut self, tcb: u32, bus: &B, listed: bool) {
        let Some(d) = self.debug else { return };
        let name = kernel::read_u32(bus, tcb.wrapping_add(d.off_name as u32))
            .and_then(|p| kernel::read_cstr(bus, p))
            .or_else(|| self.symbol_at(tcb));
        let state_addr = tcb.wrapping_add(d.off_state as u32);
        let state = kernel::read_u8(bus, state_addr).unwrap_or(0);
        if TRACE {
            let n = name.clone().unwrap_or_else(|| format!("task 0x{tcb:08x}"));
            self.kev.known(tcb, n, state);
        }
        self.acct.known(tcb, name, state, listed);
        self.tcb_states.push((tcb, state_addr));
        let lo = self.tcb_states.iter().map(|s| s.1).min().unwrap_or(0);
        let hi = self.tcb_states.iter().map(|s| s.1).max().unwrap_or(0);
        self.state_words |= 1 << ((state_addr >> 2) & 63);
        self.state_lo = lo.saturating_sub(3);
        self.state_span = hi - self.state_lo + 1;
    }

    /// A store of `size` bytes at `addr` near the known tasks' state bytes, at `cycle`.
    #[cold]
    fn state_store<B: Bus>(&mut self, addr: u32, size: u32, cycle: u64, bus: &B) {
        for i in 0..self.tcb_states.len() {
            let (tcb, state_addr) = self.tcb_states[i];
            if state_addr.wrapping_sub(addr) < size {
                let state = kernel::read_u8(bus, state_addr).unwrap_or(0);
                self.acct.state_stored(tcb, state, cycle);
                if TRACE {
                    self.kev.state(tcb, state, cycle, &mut self.timeline);
                }
            }
        }
    }

    /// The kernel events of a switch from task `old` (its state byte `old_state`) to `new`.
    #[cold]
    fn kernel_switch<B: Bus>(&mut self, old: u32, state: Option<u8>, new: u32, at: u64, bus: &B) {
        let wait = self.debug.and_then(|d| d.waits).and_then(|w| {
            let q = kernel::read_u32(bus, old.wrapping_add(w.off_wait as u32))?;
            (q != 0).then(|| {
                self.kev
                    .object_at(q)
                    .unwrap_or(("object", format!("0x{q:08x}")))
            })
        });
        self.kev
            .switch(old, state, wait, new, at, &mut self.timeline);
    }

    fn symbol_at(&self, addr: u32) -> Option<String> {
        self.objects.get(&addr).cloned()
    }

    /// Task and HISR switches seen (0 for bare metal).
    pub fn task_switches(&self) -> u64 {
        self.task_switches
    }

    /// Ends the observation with the core at `end` (the machine's elapsed cycles and the
    /// instructions retired). Returns the results.
    pub fn finish(&mut self, end: At) -> Results {
        self.close(end);
        let end = end.cycle;
        let (tasks, mut irqs) = self.acct.finish(end);
        for i in &mut irqs {
            if let Some(n) = i
                .cause
                .checked_sub(16)
                .and_then(|l| self.irq_sys_names.get(l as usize))
            {
                i.name.clone_from(n);
            }
        }
        let charged = self.charged();
        debug_assert_eq!(charged, end, "attributed {charged} cycles of {end}");
        if TRACE {
            self.sample(end, true);
            self.timeline.finish(end);
        }
        self.flush(end);
        let mut by_category = [Stat::default(); 8];
        let mut functions = Vec::with_capacity(self.funcs.len());
        for (fi, func) in self.funcs.iter().enumerate() {
            let mut fs = Stat::default();
            for m in 0..mode::COUNT {
                let k = fi * mode::COUNT + m;
                let a = &self.acc[k];
                let s = Stat {
                    cycles: a.cycles,
                    instret: a.instret,
                    energy_j: self.flushed[k].energy_pj * 1e-12,
                };
                let cat = if fi == SLEEP as usize {
                    Category::Idle
                } else {
                    category_in(func.cat, m as u32)
                };
                by_category[cat as usize].add(&s);
                fs.add(&s);
            }
            functions.push((func.name.clone(), self.calls[fi], fs));
        }
        let mut total = Stat::default();
        for s in &by_category {
            total.add(s);
        }
        Results {
            total,
            by_category,
            functions,
            task_switches: self.task_switches,
            kernel_aware: self.debug.is_some(),
            tasks,
            irqs,
        }
    }

    /// The operating point in force (for tests).
    pub fn rates(&self) -> Rates {
        self.rates
    }
}

impl<const TRACE: bool> Observer for EnergyObserver<TRACE> {
    fn flags(&self, pc: u32, op: Op, rd: u8, target: Option<u32>) -> u8 {
        let v = self.slot(pc);
        let f = v & FN_MASK;
        let mut flags = 0;
        if v & ENTRY != 0 || self.slot(pc.wrapping_sub(2)) & FN_MASK != f {
            flags |= flag::START;
        }
        let call = rd == 1 || rd == 5;
        match (op, target) {
            (Op::Jalr, _) => flags |= flag::AFTER,
            (_, Some(t)) => {
                let tv = self.slot(t);
                let starts =
                    tv & ENTRY != 0 || self.slot(t.wrapping_sub(2)) & FN_MASK != tv & FN_MASK;
                // A call to its own function's entry (recursion: counted as a call), or a
                // jump into the middle of another function (no START flag catches it).
                if (call && tv & FN_MASK == f && tv & ENTRY != 0) || (tv & FN_MASK != f && !starts)
                {
                    flags |= flag::AFTER;
                }
            }
            _ => {}
        }
        flags
    }

    #[inline(never)]
    fn boundary(&mut self, from: Option<u32>, pc: u32, at: At) {
        self.enter(from, pc, at);
    }

    #[inline(always)]
    fn multiply(&mut self) {
        self.counts.mul += 1;
    }

    #[inline(always)]
    fn divide(&mut self, cycles: u32) {
        self.counts.div += 1;
        self.counts.div_cycles += cycles as u64;
    }

    fn exception(&mut self, pc: u32, cause: u32, at: At, vector: u32) {
        if matches!(
            cause,
            rv32::hart::cause::LOAD_ACCESS_FAULT | rv32::hart::cause::STORE_ACCESS_FAULT
        ) {
            self.counts.faults += 1;
        }
        let _ = pc;
        self.trap_enter(cause, at, vector);
    }
    fn interrupt(&mut self, cause: u32, at: At, vector: u32) {
        self.trap_enter(0x8000_0000 | cause, at, vector);
    }

    fn mret(&mut self, at: At, pc: u32) {
        self.counts.mret += 1;
        self.close(at);
        self.acct.mret(at.cycle, self.depth);
        self.depth = self.depth.saturating_sub(1);
        self.mode = self.compute_mode();
        self.rekey(pc);
        if TRACE {
            self.sample(at.cycle, false);
            self.timeline.trap_exit(at.cycle);
        }
    }

    #[inline(always)]
    fn device_access(&mut self) {
        self.counts.mmio += 1;
    }

    #[inline(always)]
    fn store<B: Bus>(&mut self, pc: u32, addr: u32, size: u32, at: At, bus: &B) {
        let word = addr & !3;
        if word == self.watch[0] || word == self.watch[1] {
            self.watched(pc, at, bus);
        } else if word == self.watch[2] {
            self.scan_tasks(bus);
        } else if addr.wrapping_sub(self.state_lo) < self.state_span
            && (self.state_words >> ((addr >> 2) & 63)) & 1 != 0
        {
            self.state_store(addr, size, at.cycle, bus);
        }
        if TRACE && addr.wrapping_sub(self.lisr_table) < 4 * 15 {
            self.lisr_installed(addr, bus);
        }
        if TRACE && self.kev.wants(addr) {
            let f = self.slot(pc) & FN_MASK;
            self.kev.store(addr, f, at.cycle, bus, &mut self.timeline);
        }
    }

    fn sleep(&mut self, from: At, gated: u64, to: u64) {
        // Awake cycles of the wfi before the clock stops belong to it.
        self.close(At {
            cycle: gated,
            ..from
        });
        if to > gated {
            let n = to - gated;
            self.acc[SLEEP_KEY].cycles += n;
            self.seg_sleep += n;
            self.cur.at.cycle = to;
            if TRACE {
                self.timeline.sleep(gated);
            }
        }
    }

    fn wake(&mut self, at: u64) {
        if TRACE {
            self.sample(at, true);
            self.timeline.wake(at);
        }
    }
}

impl<const TRACE: bool> Probe for EnergyObserver<TRACE> {
    fn begin(&mut self, _now: u64, pc: u32) {
        // The cycles from reset to the first instruction belong to it.
        self.cur = Open::default();
        self.counts = Counts::default();
        self.rekey(pc);
        let f = self.cur.key / mode::COUNT;
        self.kev.reset_fn = f as u32;
        if self.slot(pc) & ENTRY != 0 {
            self.calls[f] += 1;
        }
    }

    fn opp_changed(&mut self, at: u64, now: At, time_fs: u128, idx: usize, hz: u64, volts: f64) {
        self.acct.clock(at, time_fs, hz);
        let new = self.model.rates(Opp { hz, volts });
        let now_at = now;
        let now = now.cycle;
        if self.started {
            self.close(now_at);
            if TRACE {
                self.sample(at, true);
            }
            self.flush(now);
            // The instruction that straddles the switch ran at the old point until `now`;
            // from `at` on its cycles are at the new point: charge the difference.
            if now > at {
                let n = (now - at) as f64;
                self.charge_extra(n * (new.active_pj - self.rates.active_pj));
            }
        } else {
            self.seg_start = now;
        }
        self.started = true;
        self.rates = new;
        let _ = idx;
        if TRACE {
            self.timeline.clock(at, time_fs, hz, volts);
        }
    }

    fn switch_started(&mut self, settle_cycles: u64, at: u64) {
        // The settle time runs at the old point and is charged as active energy to whoever
        // asked for the switch (the store that wrote OPP_SELECT: the last instruction).
        let pj = settle_cycles as f64 * self.rates.dyn_cycle_pj;
        self.charge_extra(pj);
        if TRACE {
            self.timeline
                .instant("operating-point switch", at, settle_cycles);
        }
    }

    fn slice(&mut self, now: u64, _time_fs: u128) {
        if TRACE {
            self.sample(now, false);
        }
    }
}

/// The names `system.toml` gives the fast lines, from the generated `uk__gen_irq_names` (15
/// string pointers in the image's initialised data), if the image has it.
fn system_irq_names(image: &Image) -> [Option<String>; 15] {
    let mut names: [Option<String>; 15] = Default::default();
    let Some(sym) = image.symbols.iter().find(|s| s.name == "uk__gen_irq_names") else {
        return names;
    };
    let byte = |a: u32| kernel::image_bytes(image, a, 1).map(|b| b[0]);
    let Some(table) = kernel::image_bytes(image, sym.addr, 4 * 15) else {
        return names;
    };
    for (name, ptr) in names.iter_mut().zip(table.chunks(4)) {
        let p = u32::from_le_bytes([ptr[0], ptr[1], ptr[2], ptr[3]]);
        if p == 0 {
            continue;
        }
        let text: Vec<u8> = (0..64)
            .map_while(|i| byte(p + i).filter(|&b| b != 0))
            .collect();
        if !text.is_empty() && text.iter().all(|b| (0x20..0x7f).contains(b)) {
            *name = Some(String::from_utf8_lossy(&text).into_owned());
        }
    }
    names
}

impl<const TRACE: bool> EnergyObserver<TRACE> {
    /// The operating points of the machine (for reports).
    pub fn opps(&self) -> &[Opp] {
        &self.opps
    }
}
