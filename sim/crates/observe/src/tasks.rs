//! Per-task and per-interrupt-line accounting (`--stats` `tasks` and `irqs`, docs/observe.md,
//! "Tasks and interrupt lines"): what the observer reports of a kernel-aware run besides
//! the split by category. Pure bookkeeping over the events the observer hands it (all on
//! its rare paths: task switches, stores to a task's state, traps and `mret`s), so it is
//! tested here without a machine.
//!
//! Definitions (the testbed sees the kernel only through its stores):
//! - CPU time: cycles (and simulated time) while the task is the kernel's current task and
//!   no HISR runs, interrupts taken meanwhile included.
//! - An activation: the task becomes the current task (a HISR returning to the task it
//!   interrupted is not one).
//! - A preemption: the task stops being the current task while its state byte says ready
//!   (a yield counts: the task gave the processor away while it could have run on).
//! - A response: from the task's release (the store that makes its state ready after it was
//!   not: an activation, a wake-up from a delay or a wait) to the switch that takes the
//!   processor from it while its state is not ready (it blocked, suspended itself or ended).
//!   A task whose release was not seen (its control block was not known yet) starts its
//!   response when it is switched in.
//! - An interrupt line's service time: from the trap's entry for that line to the `mret`
//!   that leaves it (the same trap depth, no context switch between). With a kernel, the
//!   machine software interrupt is the kernel's tail, which ends in another task whenever
//!   it switches: it is not a line and is left out.

use std::collections::BTreeMap;

/// The state byte value of a ready (or running) task (`UK_TASK_READY`, kernel/include/ubik/task.h).
pub const STATE_READY: u8 = 1;
/// Interrupt causes (mcause without the interrupt bit).
const CAUSE_SOFTWARE: u32 = 3;
const CAUSE_TIMER: u32 = 7;
const CAUSE_EXTERNAL: u32 = 11;

#[derive(Clone, Debug, Default)]
struct Task {
    name: String,
    cpu_cycles: u64,
    cpu_fs: u128,
    activations: u64,
    preemptions: u64,
    /// Ready (its state byte says so, as far as the observer saw).
    ready: bool,
    /// The release of the response in progress (cycle).
    released: Option<u64>,
    /// Response times, femtoseconds.
    responses: Vec<u128>,
    /// Seen on the kernel's list of tasks.
    listed: bool,
}

/// A clock segment: from `cycle` on (simulated time `fs`) the clock runs at `hz`.
#[derive(Clone, Copy, Debug)]
struct Segment {
    cycle: u64,
    fs: u128,
    hz: u64,
}

/// An interrupt trap not yet left.
#[derive(Clone, Copy, Debug)]
struct OpenIrq {
    cause: u32,
    cycle: u64,
    depth: u32,
}

#[derive(Clone, Copy, Debug, Default)]
struct IrqAcc {
    count: u64,
    total: u64,
    max: u64,
}

/// The accounting of one run.
#[derive(Clone, Debug, Default)]
pub struct TaskAccounting {
    /// By TCB address.
    tasks: BTreeMap<u32, Task>,
    /// The current task (0: none) and whether a HISR runs, and since when.
    current: u32,
    hisr: bool,
    since: u64,
    segments: Vec<Segment>,
    open: Vec<OpenIrq>,
    irqs: BTreeMap<u32, IrqAcc>,
    /// Leave the software interrupt out (it is a kernel's tail).
    kernel: bool,
    /// The kernel lists its tasks: a context never on the list (the boot context that
    /// runs `main` before the kernel starts) is not a task.
    lists: bool,
}

/// One task's figures (`--stats` `tasks`).
#[derive(Clone, Debug, PartialEq)]
pub struct TaskFigures {
    pub name: String,
    pub cpu_cycles: u64,
    pub cpu_us: f64,
    pub activations: u64,
    pub preemptions: u64,
    /// Completed responses.
    pub responses: u64,
    /// Nearest-rank percentiles and the maximum of the responses, us (None without any).
    pub response_p50_us: Option<f64>,
    pub response_p99_us: Option<f64>,
    pub response_max_us: Option<f64>,
}

/// One interrupt line's service times (`--stats` `irqs`), cycles.
#[derive(Clone, Debug, PartialEq)]
pub struct IrqFigures {
    /// `timer`, `software`, `external` or `lineN` (fast line N).
    pub line: String,
    /// mcause without the interrupt bit.
    pub cause: u32,
    /// The line's name in `system.toml`, if the image has the names.
    pub name: Option<String>,
    pub count: u64,
    pub mean_cycles: f64,
    pub max_cycles: u64,
}

/// The percentile `p` (0 to 100) of `sorted` (ascending), nearest rank as everywhere in
/// Ubik (the experiments' `measure::dist`, docs/experiments.md): the sample at index
/// round(p / 100 x (n - 1)), ties rounded away from zero, so always a measured value.
pub fn nearest_rank<T: Copy>(sorted: &[T], p: f64) -> Option<T> {
    let last = sorted.len().checked_sub(1)?;
    let i = (((p / 100.0).clamp(0.0, 1.0) * last as f64).round() as usize).min(last);
    Some(sorted[i])
}

/// The name of interrupt `cause` in `--stats`.
pub fn irq_line_name(cause: u32) -> String {
    match cause {
        CAUSE_SOFTWARE => "software".into(),
        CAUSE_TIMER => "timer".into(),
        CAUSE_EXTERNAL => "external".into(),
        c if (16..31).contains(&c) => format!("line{}", c - 16),
        c => format!("cause{c}"),
    }
}

impl TaskAccounting {
    /// `kernel`: the image is kernel-aware (its software interrupt is the kernel's tail).
    pub fn new(kernel: bool) -> Self {
        TaskAccounting {
            kernel,
            ..Default::default()
        }
    }

    /// The clock runs at `hz` from `cycle` (simulated time `fs`) on.
    pub fn clock(&mut self, cycle: u64, fs: u128, hz: u64) {
        if let Some(last) = self.segments.last_mut() {
            if last.cycle == cycle {
                *last = Segment { cycle, fs, hz };
                return;
            }
        }
        self.segments.push(Segment { cycle, fs, hz });
    }

    /// Simulated time at `cycle`, femtoseconds.
    fn fs_at(&self, cycle: u64) -> u128 {
        let i = self.segments.partition_point(|s| s.cycle <= cycle);
        match i.checked_sub(1).map(|i| self.segments[i]) {
            Some(s) if s.hz > 0 => {
                s.fs + (cycle - s.cycle) as u128 * 1_000_000_000_000_000 / s.hz as u128
            }
            _ => 0,
        }
    }

    /// A task control block is known at `tcb`, named `name`, its state byte `state`;
    /// `listed`: found on the kernel's list of tasks (from then on only listed contexts
    /// are reported).
    pub fn known(&mut self, tcb: u32, name: Option<String>, state: u8, listed: bool) {
        let t = self.tasks.entry(tcb).or_insert_with(|| Task {
            ready: state == STATE_READY,
            ..Default::default()
        });
        if let Some(n) = name {
            t.name = n;
        }
        t.listed |= listed;
        self.lists |= listed;
    }

    /// Whether `tcb` is a known task control block.
    pub fn is_known(&self, tcb: u32) -> bool {
        self.tasks.contains_key(&tcb)
    }

    /// The state byte of `tcb` was written at `cycle` and now holds `state`.
    pub fn state_stored(&mut self, tcb: u32, state: u8, cycle: u64) {
        let Some(t) = self.tasks.get_mut(&tcb) else {
            return;
        };
        let ready = state == STATE_READY;
        if ready && !t.ready && t.released.is_none() {
            t.released = Some(cycle);
        }
        t.ready = ready;
    }

    /// The context changes at `cycle` to task `task` (0: none) with a HISR running or not;
    /// `old_state` is the state byte of the task that was current, read at the switch.
    pub fn switch(&mut self, cycle: u64, task: u32, hisr: bool, old_state: Option<u8>) {
        // Open interrupt traps cannot be left in this context any more.
        self.open.clear();
        let (from, from_fs, to_fs) = (self.since, self.fs_at(self.since), self.fs_at(cycle));
        let old = self.current;
        let was_running = old != 0 && !self.hisr;
        if let Some(t) = self.tasks.get_mut(&old).filter(|_| was_running) {
            t.cpu_cycles += cycle - from;
            t.cpu_fs += to_fs - from_fs;
        }
        if old != task && old != 0 {
            let released = self.tasks.get(&old).and_then(|t| t.released);
            let r_fs = released.map(|r| self.fs_at(r));
            if let (Some(t), Some(s)) = (self.tasks.get_mut(&old), old_state) {
                t.ready = s == STATE_READY;
                if t.ready {
                    t.preemptions += 1;
                } else if let Some(r_fs) = r_fs {
                    t.released = None;
                    t.responses.push(to_fs - r_fs.min(to_fs));
                }
            }
        }
        if old != task && task != 0 {
            let t = self.tasks.entry(task).or_default();
            t.activations += 1;
            t.ready = true;
            if t.released.is_none() {
                t.released = Some(cycle);
            }
        }
        self.current = task;
        self.hisr = hisr;
        self.since = cycle;
    }

    /// The name of the current task may have been read only now.
    pub fn name(&mut self, tcb: u32, name: String) {
        if let Some(t) = self.tasks.get_mut(&tcb) {
            t.name = name;
        }
    }

    /// Interrupt `cause` is taken at `cycle`; the trap depth becomes `depth`.
    pub fn irq_enter(&mut self, cause: u32, cycle: u64, depth: u32) {
        if self.kernel && cause == CAUSE_SOFTWARE {
            return;
        }
        self.open.push(OpenIrq {
            cause,
            cycle,
            depth,
        });
    }

    /// An `mret` at `cycle` leaves trap depth `depth` (the depth before it).
    pub fn mret(&mut self, cycle: u64, depth: u32) {
        if self.open.last().is_some_and(|o| o.depth == depth) {
            let o = self.open.pop().expect("checked");
            let a = self.irqs.entry(o.cause).or_default();
            let d = cycle - o.cycle;
            a.count += 1;
            a.total += d;
            a.max = a.max.max(d);
        }
    }

    /// The figures at the end of the run (`end`: its last cycle): tasks by name (a name
    /// that two control blocks share gets `@0xADDR` on the later ones), lines by cause.
    pub fn finish(&mut self, end: u64) -> (Vec<TaskFigures>, Vec<IrqFigures>) {
        let (cur, hisr) = (self.current, self.hisr);
        self.switch(end, cur, hisr, None);
        let mut seen = std::collections::HashSet::new();
        let mut tasks = Vec::new();
        for (&tcb, t) in &self.tasks {
            if (t.activations == 0 && t.cpu_cycles == 0) || (self.lists && !t.listed) {
                continue;
            }
            let mut name = if t.name.is_empty() {
                format!("task 0x{tcb:08x}")
            } else {
                t.name.clone()
            };
            if !seen.insert(name.clone()) {
                name = format!("{name}@0x{tcb:08x}");
            }
            let mut r = t.responses.clone();
            r.sort_unstable();
            let us = |fs: u128| fs as f64 / 1e9;
            tasks.push(TaskFigures {
                name,
                cpu_cycles: t.cpu_cycles,
                cpu_us: us(t.cpu_fs),
                activations: t.activations,
                preemptions: t.preemptions,
                responses: r.len() as u64,
                response_p50_us: nearest_rank(&r, 50.0).map(us),
                response_p99_us: nearest_rank(&r, 99.0).map(us),
                response_max_us: r.last().copied().map(us),
            });
        }
        tasks.sort_by(|a, b| a.name.cmp(&b.name));
        let irqs = self
            .irqs
            .iter()
            .map(|(&cause, a)| IrqFigures {
                line: irq_line_name(cause),
                cause,
                name: None,
                count: a.count,
                mean_cycles: a.total as f64 / a.count as f64,
                max_cycles: a.max,
            })
            .collect();
        (tasks, irqs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 1 MHz: a cycle is a microsecond.
    fn acc() -> TaskAccounting {
        let mut a = TaskAccounting::new(true);
        a.clock(0, 0, 1_000_000);
        a
    }

    #[test]
    fn nearest_rank_percentiles() {
        // 1..=100: index round(q x 99), as measure::dist's tests.
        let v: Vec<u32> = (1..=100).collect();
        assert_eq!(nearest_rank(&v, 50.0), Some(51));
        assert_eq!(nearest_rank(&v, 99.0), Some(99));
        assert_eq!(nearest_rank(&v, 100.0), Some(100));
        assert_eq!(nearest_rank(&v, 0.0), Some(1));
        assert_eq!(nearest_rank(&[7u32], 99.0), Some(7));
        assert_eq!(nearest_rank(&[1u32, 2, 3], 50.0), Some(2));
        assert_eq!(
            nearest_rank(&[1u32, 2, 3, 4], 50.0),
            Some(3),
            "the upper middle one"
        );
        assert_eq!(nearest_rank::<u32>(&[], 50.0), None);
    }

    #[test]
    fn cpu_time_activations_preemptions_and_responses() {
        let mut a = acc();
        let (hi, lo) = (0x100, 0x200);
        a.known(hi, Some("hi".into()), 7, true);
        a.known(lo, Some("lo".into()), 7, true);
        a.state_stored(lo, STATE_READY, 5); // lo released at 5
        a.switch(10, lo, false, None); // lo runs 10..30
        a.state_stored(hi, STATE_READY, 25); // hi released at 25
        a.switch(30, hi, false, Some(STATE_READY)); // lo preempted
        a.state_stored(hi, 3, 38); // hi delays itself
        a.switch(40, lo, false, Some(3)); // hi blocked: response 25..40
        a.state_stored(lo, 4, 55);
        a.switch(60, 0, false, Some(4)); // lo blocked: response 5..60
        let (t, irqs) = a.finish(100);
        assert!(irqs.is_empty());
        assert_eq!(t.len(), 2);
        let (hi, lo) = (&t[0], &t[1]);
        assert_eq!(hi.name, "hi");
        assert_eq!((hi.cpu_cycles, hi.activations, hi.preemptions), (10, 1, 0));
        assert_eq!(hi.cpu_us, 10.0);
        assert_eq!(hi.responses, 1);
        assert_eq!(hi.response_max_us, Some(15.0));
        assert_eq!((lo.cpu_cycles, lo.activations, lo.preemptions), (40, 2, 1));
        assert_eq!(lo.response_p50_us, Some(55.0));
        assert_eq!(lo.response_p99_us, Some(55.0));
    }

    #[test]
    fn a_hisr_is_neither_cpu_time_nor_an_activation() {
        let mut a = acc();
        a.known(1, Some("t".into()), STATE_READY, false);
        a.switch(0, 1, false, None);
        a.switch(10, 1, true, Some(STATE_READY)); // a HISR runs over t
        a.switch(15, 1, false, Some(STATE_READY));
        let (t, _) = a.finish(20);
        assert_eq!(
            (t[0].cpu_cycles, t[0].activations, t[0].preemptions),
            (15, 1, 0)
        );
        // Released before it was known: the response starts at its switch-in, and is open.
        assert_eq!(t[0].responses, 0);
    }

    #[test]
    fn an_unseen_release_starts_at_the_switch_in() {
        let mut a = acc();
        a.switch(100, 9, false, None);
        a.name(9, "late".into());
        a.switch(130, 0, false, Some(5));
        let (t, _) = a.finish(200);
        assert_eq!(t[0].name, "late");
        assert_eq!(t[0].response_max_us, Some(30.0));
    }

    #[test]
    fn a_context_off_the_kernels_list_is_not_a_task() {
        let mut a = acc();
        a.switch(0, 0x50, false, None); // the boot context (main before the kernel starts)
        a.name(0x50, "boot_context".into());
        a.known(0x60, Some("t".into()), 7, true);
        a.state_stored(0x60, STATE_READY, 3);
        a.switch(5, 0x60, false, Some(STATE_READY));
        let (t, _) = a.finish(9);
        let names: Vec<&str> = t.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["t"]);
        assert_eq!(t[0].cpu_cycles, 4);
    }

    #[test]
    fn time_follows_the_clock() {
        let mut a = TaskAccounting::new(true);
        a.clock(0, 0, 1_000_000); // 1 us a cycle
        a.clock(100, 100_000_000_000, 2_000_000); // then 0.5 us a cycle
        a.switch(50, 1, false, None);
        a.switch(150, 0, false, Some(STATE_READY));
        let (t, _) = a.finish(150);
        assert_eq!(t[0].cpu_cycles, 100);
        assert_eq!(t[0].cpu_us, 75.0);
        assert_eq!(t[0].preemptions, 1);
    }

    #[test]
    fn shared_names_are_told_apart() {
        let mut a = acc();
        a.known(0x20, Some("w".into()), 0, false);
        a.known(0x10, Some("w".into()), 0, false);
        a.switch(0, 0x10, false, None);
        a.switch(1, 0x20, false, Some(STATE_READY));
        let (t, _) = a.finish(2);
        let names: Vec<&str> = t.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["w", "w@0x00000020"]);
    }

    #[test]
    fn interrupt_service_times() {
        let mut a = acc();
        a.irq_enter(16 + 3, 10, 1);
        a.mret(14, 1); // line 3: 4 cycles
        a.irq_enter(CAUSE_SOFTWARE, 20, 1); // the kernel's tail: left out
        a.irq_enter(CAUSE_TIMER, 22, 2);
        a.mret(30, 2); // the timer nested in the tail: 8 cycles
        a.mret(40, 1);
        a.irq_enter(16 + 3, 50, 1);
        a.mret(60, 1); // 10 cycles
        a.irq_enter(CAUSE_TIMER, 70, 1);
        a.switch(75, 1, false, None); // a switch inside: never left
        a.mret(80, 1);
        let (_, irqs) = a.finish(100);
        assert_eq!(
            irqs,
            [
                IrqFigures {
                    line: "timer".into(),
                    cause: 7,
                    name: None,
                    count: 1,
                    mean_cycles: 8.0,
                    max_cycles: 8
                },
                IrqFigures {
                    line: "line3".into(),
                    cause: 19,
                    name: None,
                    count: 2,
                    mean_cycles: 7.0,
                    max_cycles: 10
                },
            ]
        );
    }
}
