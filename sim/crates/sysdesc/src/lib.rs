//! The Ubik system description, `system.toml`: the model, its validation and the C it turns
//! into (`gen`).
//!
//! ```toml
//! [kernel]
//! os = "ubik"                 # "ubik" | "nos" (NOS: the baseline executive, nos/)
//! scheduler = "prio"          # "rr" | "prio" | "prio_rr" | "bitmap"
//! tick_hz = 1000              # 1..=100000
//! timeslice_ticks = 10        # >= 1
//! irq_stack_bytes = 1024      # the interrupt stack LISRs run on: 256..=256 KiB, a multiple of 16
//! idle_stack_bytes = 512      # the idle task's stack: 256..=256 KiB, a multiple of 16
//! tick_start = 0              # uk_time() at uk_start(): 0..=2^32-1 (to test the tick's wrap)
//! checks = "off"              # "off" | "full": assert the kernel's invariants at every exit
//! features = ["sem", "mutex", "hisr", "stack_check", "queue", "port", "taskport", "flags",
//!             "signal", "timer", "pool", "heap", "power"]
//!             # default: all but "power", which is on when [power] or a task uses it
//!
//! [build]
//! cflags = ["-DDEBUG=1"]      # appended to every compile command
//! sources = ["main.c"]        # default: every *.c and *.S of the application directory
//! libc = "picolibc"           # link a C library (printf to the console, libm); default none
//! ldflags = ["-Wl,--print-memory-usage"]  # given to the link (before the objects)
//! libs = ["m"]                # -lNAME after the objects
//!
//! [power]
//! policy = "default"          # "default" | "idle" | "ls0" | "ls1" | "ls2" (ubik/power.h)
//!
//! [task.producer]             # objects: [KIND.NAME], the name becomes the C identifier
//! entry = "produce"
//! priority = 2
//! [queue.items]
//! msg_bytes = 4
//! capacity = 8
//! ```
//!
//! Object kinds: `task`, `sem`, `mutex`, `queue`, `port`, `flags`, `heap`, `pool`, `timer`,
//! `interrupt` ([`objects`]; docs/system.md has every key). Unknown keys and tables are
//! errors. Every error is one line, `FILE:LINE:COLUMN: what is wrong; expected what` (the same
//! [`ConfigError`] as machine files: exit 65 for bad content, 66 for a file that cannot be
//! read). `ubik gen` and `ubik build` share this model.

pub mod budget;
pub mod gen;
mod gen_names;
mod gen_objects;
pub mod hvdesc;
mod kernel_defaults;
pub mod names;
pub mod objects;
mod sizes;

use std::path::Path;

use confread::{invalid_at, quoted_list, read_text_file, toml_error, Doc};
pub use confread::{ConfigError, Location};
pub use objects::{
    Arg, Flags, Heap, Hisr, Interrupt, Mutex, NamedFunction, Objects, Pool, Port, PowerClass,
    PowerConfig, PowerPolicy, Queue, QueueKind, Sem, Task, TaskStart, Timer, TimerAction,
};
use serde::Deserialize;
use toml::Spanned;

/// What the system description knows of one scheduler policy: its name (of `kernel/sched/
/// NAME.c`, in `system.toml` and in `UK_CONFIG_SCHED_NAME`) and the task priorities it takes.
#[derive(Debug, PartialEq, Eq)]
pub struct Policy {
    pub name: &'static str,
    /// One line for `ubik gen --list-schedulers` and the docs.
    pub summary: &'static str,
    /// The lowest priority a task may have (the next one is the idle task's).
    pub lowest_task_priority: u8,
    /// Whether two tasks may share a priority (if not, the task count is limited to
    /// `lowest_task_priority + 1`).
    pub unique_priorities: bool,
    /// Whether the policy counts time slices at every tick (`uk__sched_tick`); if not, a tick
    /// with nothing else to do is counted in the timer interrupt itself, without the tail.
    pub time_slices: bool,
    /// Whether the policy orders tasks by deadline (`uk_task_set_deadline`, and
    /// `uk_task_sleep_until` sets a release's deadline to release + period).
    pub deadlines: bool,
    /// Whether a task made ready preempts a running task it outranks (by priority, or by
    /// deadline): not under `rr`, which ignores priorities, nor `coop`, which never preempts.
    pub priority_preemption: bool,
    /// Whether the policy keeps task selection, delays and wait queues in the RTM, the
    /// hardware task manager (docs/machine.md): the tick then always goes to the tail.
    pub task_manager: bool,
}

/// Every scheduler policy, in the order lists show them: the one list. Adding a policy is a
/// row here plus its C file, `kernel/sched/NAME.c` (docs/kernel.md, "Adding a scheduler").
pub const POLICIES: [Policy; 7] = [
    Policy {
        name: "rr",
        summary: "cyclic time slices, priorities ignored",
        lowest_task_priority: 254,
        unique_priorities: false,
        time_slices: true,
        deadlines: false,
        priority_preemption: false,
        task_manager: false,
    },
    Policy {
        name: "prio",
        summary: "priority preemptive, FIFO among equal priorities",
        lowest_task_priority: 254,
        unique_priorities: false,
        time_slices: false,
        deadlines: false,
        priority_preemption: true,
        task_manager: false,
    },
    Policy {
        name: "prio_rr",
        summary: "priority preemptive, time slices among equal priorities",
        lowest_task_priority: 254,
        unique_priorities: false,
        time_slices: true,
        deadlines: false,
        priority_preemption: true,
        task_manager: false,
    },
    Policy {
        name: "bitmap",
        summary: "priority preemptive, unique priorities, one-word ready bitmap",
        lowest_task_priority: 62,
        unique_priorities: true,
        time_slices: false,
        deadlines: false,
        priority_preemption: true,
        task_manager: false,
    },
    Policy {
        name: "edf",
        summary: "earliest deadline first, preemptive; priority among equal deadlines",
        lowest_task_priority: 254,
        unique_priorities: false,
        time_slices: false,
        deadlines: true,
        priority_preemption: true,
        task_manager: false,
    },
    Policy {
        name: "coop",
        summary: "cooperative: earliest deadline first, never preempts a running task",
        lowest_task_priority: 254,
        unique_priorities: false,
        time_slices: false,
        deadlines: true,
        priority_preemption: false,
        task_manager: false,
    },
    Policy {
        name: "rtm",
        summary: "priority preemptive, unique priorities, in the RTM hardware task manager",
        lowest_task_priority: 62,
        unique_priorities: true,
        time_slices: false,
        deadlines: false,
        priority_preemption: true,
        task_manager: true,
    },
];

impl Policy {
    /// The yes/no properties by the names `ubik gen --list-schedulers --with/--without` take
    /// (the benchmark scripts choose schedulers by these, never by name).
    pub const PROPERTIES: [&'static str; 5] = [
        "unique_priorities",
        "time_slices",
        "deadlines",
        "priority_preemption",
        "task_manager",
    ];

    /// The property called `name` (one of [`Policy::PROPERTIES`]), or None.
    pub fn property(&self, name: &str) -> Option<bool> {
        match name {
            "unique_priorities" => Some(self.unique_priorities),
            "time_slices" => Some(self.time_slices),
            "deadlines" => Some(self.deadlines),
            "priority_preemption" => Some(self.priority_preemption),
            "task_manager" => Some(self.task_manager),
            _ => None,
        }
    }
}

/// A scheduler policy, an entry of [`POLICIES`]; exactly one is compiled in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scheduler(usize);

impl Scheduler {
    pub const ALL: [Scheduler; POLICIES.len()] = {
        let mut all = [Scheduler(0); POLICIES.len()];
        let mut i = 0;
        while i < all.len() {
            all[i] = Scheduler(i);
            i += 1;
        }
        all
    };

    /// The names of `ALL`, in its order: for the users that check or list names (the
    /// experiment spec's `scheduler` key, `ubik gen --list-schedulers`, the tests).
    pub const NAMES: [&'static str; POLICIES.len()] = {
        let mut names = [""; POLICIES.len()];
        let mut i = 0;
        while i < names.len() {
            names[i] = POLICIES[i].name;
            i += 1;
        }
        names
    };

    /// The default (`[kernel] scheduler` not given).
    pub const DEFAULT: Scheduler = Scheduler::named("prio");

    /// The policy called `name`; a compile-time error if there is none (for constants).
    pub const fn named(name: &str) -> Scheduler {
        let mut i = 0;
        while i < POLICIES.len() {
            if const_str_eq(POLICIES[i].name, name) {
                return Scheduler(i);
            }
            i += 1;
        }
        panic!("no such scheduler policy")
    }

    /// Its row of [`POLICIES`].
    pub const fn policy(self) -> &'static Policy {
        &POLICIES[self.0]
    }

    /// The name in `system.toml`, in `UK_CONFIG_SCHED_NAME` and of the source file.
    pub const fn name(self) -> &'static str {
        self.policy().name
    }

    /// The macro `uk_config.h` defines to 1 for this scheduler (and only for this one).
    pub fn macro_name(self) -> String {
        format!("UK_CONFIG_SCHED_{}", self.name().to_ascii_uppercase())
    }

    pub fn from_name(s: &str) -> Option<Scheduler> {
        Scheduler::ALL.into_iter().find(|x| x.name() == s)
    }
}

const fn const_str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The kernel features `[kernel] features` may name. Each enabled one is a macro
/// `UK_FEATURE_<NAME>` defined to 1 in `uk_config.h`; a disabled one is not defined.
pub const FEATURES: [&str; 13] = [
    "sem",
    "mutex",
    "hisr",
    "stack_check",
    "queue",
    "port",
    "taskport",
    "flags",
    "signal",
    "timer",
    "pool",
    "heap",
    "power",
];

/// The features enabled when `[kernel] features` is not given: every one but `"power"`. DPM
/// adds a load and a branch to every task switch, so it joins the default set only when the
/// description uses it (a `[power] policy` other than `"default"`, or a task's `power_class`).
pub fn default_features() -> Vec<&'static str> {
    FEATURES.into_iter().filter(|f| *f != "power").collect()
}

/// The operating system the image is built with: the Ubik kernel, or NOS (`nos/`), the
/// bare-bones executive the experiments compare it with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Os {
    Ubik,
    Nos,
}

impl Os {
    pub const ALL: [Os; 2] = [Os::Ubik, Os::Nos];

    pub fn name(self) -> &'static str {
        match self {
            Os::Ubik => "ubik",
            Os::Nos => "nos",
        }
    }

    /// The macro `uk_config.h` defines to 1 for this OS.
    pub fn macro_name(self) -> String {
        format!("UK_CONFIG_OS_{}", self.name().to_ascii_uppercase())
    }
}

/// The `[kernel]` table, resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelConfig {
    /// `os = "nos"` builds NOS instead of the kernel; the other keys then do not apply.
    pub os: Os,
    pub scheduler: Scheduler,
    pub tick_hz: u32,
    pub timeslice_ticks: u32,
    /// The interrupt stack's size in bytes (`UK_IRQ_STACK_BYTES`): every LISR runs on it.
    pub irq_stack_bytes: u32,
    /// The idle task's stack size in bytes (`UK_IDLE_STACK_BYTES`).
    pub idle_stack_bytes: u32,
    /// The tick counter's value at `uk_start()` (`UK_TICK_START`), e.g. just below 2^32 to
    /// test timeouts across the counter's wrap.
    pub tick_start: u32,
    /// `checks = "full"` (`UK_CONFIG_CHECKS_FULL`): the debug kernel that asserts the
    /// scheduler's and wait lists' invariants at every kernel exit; `"off"` compiles them out.
    pub checks_full: bool,
    /// `profile = "minimal"` (`UK_CONFIG_PROFILE_MINIMAL`): [`MINIMAL_PRIOS`] priorities and
    /// the kernel calls' argument and context checks compiled out; `"normal"` (the default)
    /// is the full kernel.
    pub minimal: bool,
    /// Enabled features, in the order of [`FEATURES`].
    pub features: Vec<&'static str>,
}

/// The schedulers the minimal profile supports: the priority policies of `prio.c`, whose
/// ready map shrinks to one word at [`MINIMAL_PRIOS`] priorities.
pub const MINIMAL_SCHEDULERS: [&str; 2] = ["prio", "prio_rr"];

/// The priorities of the minimal profile, the idle task's included (one 32-bit ready map).
pub const MINIMAL_PRIOS: u32 = 32;

impl KernelConfig {
    /// The number of priorities the kernel is built with, the idle task's included
    /// (`UK_POLICY_PRIOS`).
    pub fn prios(&self) -> u32 {
        if self.minimal {
            MINIMAL_PRIOS
        } else {
            self.scheduler.policy().lowest_task_priority as u32 + 2
        }
    }

    /// The lowest priority a task may have (the next one is the idle task's).
    pub fn lowest_task_priority(&self) -> u8 {
        (self.prios() - 2) as u8
    }
}

impl Default for KernelConfig {
    fn default() -> KernelConfig {
        KernelConfig {
            os: Os::Ubik,
            scheduler: Scheduler::DEFAULT,
            tick_hz: kernel_defaults::TICK_HZ,
            timeslice_ticks: kernel_defaults::TIMESLICE_TICKS,
            irq_stack_bytes: DEFAULT_IRQ_STACK_BYTES,
            idle_stack_bytes: DEFAULT_IDLE_STACK_BYTES,
            tick_start: kernel_defaults::TICK_START,
            checks_full: false,
            minimal: false,
            features: default_features(),
        }
    }
}

/// One entry of `[build] sources`: a path relative to the application directory, and where
/// `system.toml` names it (for "cannot read" messages).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceEntry {
    pub path: String,
    pub at: Location,
}

/// The `[build]` table, resolved.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BuildConfig {
    /// Extra compiler flags, appended to every compile command (kernel, BSP and application).
    pub cflags: Vec<String>,
    /// The application's sources; `None`: every `*.c` and `*.S` of the application directory.
    pub sources: Option<Vec<SourceEntry>>,
    /// `libc = "picolibc"`: the application is compiled and linked with a C library.
    pub libc: Option<Libc>,
    /// Extra linker flags, given to the compiler driver that links (before the objects).
    pub ldflags: Vec<String>,
    /// Libraries linked after the objects, by name (`"m"` is `-lm`).
    pub libs: Vec<String>,
}

/// A C library `[build] libc` names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Libc {
    /// Debian's picolibc for RISC-V (`picolibc-riscv64-unknown-elf`).
    Picolibc,
}

impl Libc {
    /// Every C library, by its name in `system.toml`.
    pub const ALL: [(&'static str, Libc); 1] = [("picolibc", Libc::Picolibc)];

    pub fn name(self) -> &'static str {
        match self {
            Libc::Picolibc => "picolibc",
        }
    }
}

/// A resolved system description.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SystemDesc {
    pub kernel: KernelConfig,
    pub build: BuildConfig,
    /// The declared tasks and kernel objects (`[task.NAME]`, `[sem.NAME]`, ...).
    pub objects: Objects,
    /// `[power]`.
    pub power: PowerConfig,
}

/// Largest `tick_hz`.
pub const MAX_TICK_HZ: i64 = 100_000;
/// Largest `timeslice_ticks` (ticks are compared by 32-bit difference).
pub const MAX_TIMESLICE_TICKS: i64 = 0x7fff_ffff;
/// The default interrupt stack: LISRs do not nest, so it holds one LISR's 64-byte frame and
/// what the LISR itself uses (its locals, the calls it makes, a deferred queue send's copy);
/// 1024 bytes leave a LISR 960. (The value is kernel/src/kernel_defaults.h's.)
pub const DEFAULT_IRQ_STACK_BYTES: u32 = kernel_defaults::IRQ_STACK_BYTES;
/// The default idle task's stack: idle's own frame, the kernel tail's frame and its work
/// (ticks, deferred calls, a switch) when the tail interrupts idle. (kernel_defaults.h's.)
pub const DEFAULT_IDLE_STACK_BYTES: u32 = kernel_defaults::IDLE_STACK_BYTES;
/// The smallest interrupt or idle stack `[kernel]` accepts: a frame and a little room.
pub const MIN_KERNEL_STACK_BYTES: i64 = 256;
/// The largest one: 256 KiB, so that both kernel stacks together stay well within the RAM
/// `ubik build` links for (`budget` counts them with the objects).
pub const MAX_KERNEL_STACK_BYTES: i64 = 256 << 10;
/// Kernel stacks are multiples of 16 bytes: the RISC-V ABI's stack alignment, so no byte of
/// the size given is lost to rounding.
pub const KERNEL_STACK_MULTIPLE: i64 = 16;

impl SystemDesc {
    /// Reads and resolves a `system.toml`; its path as given names it in messages.
    pub fn from_file(path: &Path) -> Result<SystemDesc, ConfigError> {
        let text = read_text_file(path, "the system description")?;
        Self::from_str(&text, &path.display().to_string())
    }

    /// Resolves the text of a `system.toml`; `name_for_errors` names it in messages.
    #[allow(clippy::should_implement_trait)]
    pub fn from_str(text: &str, name_for_errors: &str) -> Result<SystemDesc, ConfigError> {
        let reader = Reader {
            doc: Doc::text_only(name_for_errors, text),
        };
        let raw: RawSystem =
            toml::from_str(text).map_err(|e| toml_err(name_for_errors, text, &e))?;
        reader.resolve(raw)
    }
}

/// The TOML reader's error as one line (`confread::toml_error`), with the case serde
/// words as "expected a borrowed string" put in the description's terms: a dotted table name
/// (`[task.a.b]`, `[partition.a.b]`) makes a table inside an object's table.
pub(crate) fn toml_err(name_for_errors: &str, text: &str, e: &toml::de::Error) -> ConfigError {
    if e.message().contains("expected a borrowed string") {
        if let Some(span) = e.span() {
            let start = text[..span.start.min(text.len())]
                .rfind('\n')
                .map_or(0, |i| i + 1);
            let line = text[start..].lines().next().unwrap_or("").trim();
            let header = if line.starts_with('[') {
                let end = line.find(']').map_or(line.len(), |i| i + 1);
                format!("table name `{}`", &line[..end])
            } else {
                "key".to_string()
            };
            return invalid_at(
                name_for_errors,
                text,
                &span,
                format!("a dotted {header} makes a table inside an object's table"),
                "[KIND.NAME] with NAME a plain name (letters, digits and _, no dots)",
            );
        }
    }
    toml_error(name_for_errors, text, e)
}

// ---------------------------------------------------------------------------------------------
// Raw (as written): every key optional, spans kept for messages.

/// `system.toml` as written. Unknown keys and tables are errors.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSystem {
    kernel: Option<RawKernel>,
    build: Option<RawBuild>,
    task: Option<objects::Decls<objects::RawTask>>,
    sem: Option<objects::Decls<objects::RawSem>>,
    mutex: Option<objects::Decls<objects::RawMutex>>,
    queue: Option<objects::Decls<objects::RawQueue>>,
    port: Option<objects::Decls<objects::RawPort>>,
    flags: Option<objects::Decls<objects::RawFlags>>,
    heap: Option<objects::Decls<objects::RawHeap>>,
    pool: Option<objects::Decls<objects::RawPool>>,
    timer: Option<objects::Decls<objects::RawTimer>>,
    interrupt: Option<objects::Decls<objects::RawInterrupt>>,
    power: Option<objects::RawPower>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawKernel {
    scheduler: Option<Spanned<String>>,
    tick_hz: Option<Spanned<i64>>,
    timeslice_ticks: Option<Spanned<i64>>,
    features: Option<Spanned<Vec<Spanned<String>>>>,
    os: Option<Spanned<String>>,
    irq_stack_bytes: Option<Spanned<i64>>,
    idle_stack_bytes: Option<Spanned<i64>>,
    tick_start: Option<Spanned<i64>>,
    checks: Option<Spanned<String>>,
    profile: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBuild {
    cflags: Option<Spanned<Vec<Spanned<String>>>>,
    sources: Option<Spanned<Vec<Spanned<String>>>>,
    libc: Option<Spanned<String>>,
    ldflags: Option<Spanned<Vec<Spanned<String>>>>,
    libs: Option<Spanned<Vec<Spanned<String>>>>,
}

/// A `system.toml` being resolved: the document its errors point into.
struct Reader<'a> {
    doc: Doc<'a>,
}

type R<T> = Result<T, ConfigError>;

impl Reader<'_> {
    /// A kernel stack's size: `MIN_KERNEL_STACK_BYTES..=MAX_KERNEL_STACK_BYTES`, a multiple
    /// of `KERNEL_STACK_MULTIPLE`.
    fn stack_bytes(&self, v: &Spanned<i64>, key: &str) -> R<u32> {
        let bounds = (MIN_KERNEL_STACK_BYTES, MAX_KERNEL_STACK_BYTES);
        sizes::bytes(&self.doc, v, key, bounds, KERNEL_STACK_MULTIPLE)
    }

    fn resolve(&self, raw: RawSystem) -> R<SystemDesc> {
        let mut d = SystemDesc::default();
        let explicit_features = raw.kernel.as_ref().is_some_and(|k| k.features.is_some());
        if let Some(k) = raw.kernel {
            self.kernel(k, &mut d.kernel)?;
        }
        // Without an explicit feature list, DPM is on when the description uses it.
        let uses_power = raw
            .power
            .as_ref()
            .and_then(|p| p.policy())
            .is_some_and(|p| p != "default")
            || raw
                .task
                .as_ref()
                .is_some_and(|t| t.0.iter().any(|(_, v)| v.get_ref().has_power_class()));
        if !explicit_features && uses_power && !d.kernel.features.contains(&"power") {
            d.kernel.features = FEATURES
                .into_iter()
                .filter(|f| *f == "power" || d.kernel.features.contains(f))
                .collect();
        }
        if let Some(b) = raw.build {
            self.build(b, &mut d.build)?;
        }
        let r = objects::Resolver::new(
            &self.doc,
            d.kernel.os,
            d.kernel.scheduler,
            d.kernel.lowest_task_priority(),
            &d.kernel.features,
        );
        if let Some(p) = raw.power {
            d.power = r.power(p)?;
        }
        d.objects = r.resolve(objects::RawObjects {
            task: raw.task,
            sem: raw.sem,
            mutex: raw.mutex,
            queue: raw.queue,
            port: raw.port,
            flags: raw.flags,
            heap: raw.heap,
            pool: raw.pool,
            timer: raw.timer,
            interrupt: raw.interrupt,
        })?;
        let kernel_stacks = d.kernel.irq_stack_bytes as u64 + d.kernel.idle_stack_bytes as u64;
        budget::check(&d.objects, kernel_stacks)?;
        Ok(d)
    }

    fn kernel(&self, k: RawKernel, out: &mut KernelConfig) -> R<()> {
        if let Some(s) = &k.os {
            out.os = Os::ALL
                .into_iter()
                .find(|o| o.name() == s.get_ref())
                .ok_or_else(|| {
                    self.doc.err(
                        &s.span(),
                        format!(
                            "os = {:?} is not an operating system Ubik builds",
                            s.get_ref()
                        ),
                        format!("one of {}", quoted_list(&Os::ALL.map(Os::name))),
                    )
                })?;
        }
        if let Some(s) = &k.scheduler {
            out.scheduler = Scheduler::from_name(s.get_ref()).ok_or_else(|| {
                self.doc.err(
                    &s.span(),
                    format!("scheduler = {:?} is not a scheduler", s.get_ref()),
                    format!("one of {}", quoted_list(&Scheduler::NAMES)),
                )
            })?;
        }
        if let Some(v) = &k.tick_hz {
            out.tick_hz = self.doc.int_from_to(v, "tick_hz", 1, MAX_TICK_HZ)? as u32;
        }
        if let Some(v) = &k.timeslice_ticks {
            out.timeslice_ticks =
                self.doc
                    .int_from_to(v, "timeslice_ticks", 1, MAX_TIMESLICE_TICKS)?
                    as u32;
        }
        if let Some(v) = &k.irq_stack_bytes {
            out.irq_stack_bytes = self.stack_bytes(v, "irq_stack_bytes")?;
        }
        if let Some(v) = &k.idle_stack_bytes {
            out.idle_stack_bytes = self.stack_bytes(v, "idle_stack_bytes")?;
        }
        if let Some(v) = &k.tick_start {
            out.tick_start = self.doc.int_from_to(v, "tick_start", 0, u32::MAX as i64)? as u32;
        }
        if let Some(v) = &k.checks {
            out.checks_full = match v.get_ref().as_str() {
                "off" => false,
                "full" => true,
                other => {
                    return Err(self.doc.err(
                        &v.span(),
                        format!("checks = {other:?} is not a check level"),
                        "one of \"off\", \"full\"",
                    ))
                }
            };
        }
        if let Some(v) = &k.profile {
            out.minimal = self.profile(v, k.scheduler.as_ref(), out)?;
        }
        if let Some(list) = &k.features {
            let mut on = [false; FEATURES.len()];
            for f in list.get_ref() {
                let Some(i) = FEATURES.iter().position(|x| x == f.get_ref()) else {
                    return Err(self.doc.err(
                        &f.span(),
                        format!("unknown feature {:?}", f.get_ref()),
                        format!("one of {}", quoted_list(&FEATURES)),
                    ));
                };
                if on[i] {
                    return Err(self.doc.err(
                        &f.span(),
                        format!("feature {:?} is listed twice", f.get_ref()),
                        "each feature at most once",
                    ));
                }
                on[i] = true;
            }
            out.features = FEATURES
                .iter()
                .zip(on)
                .filter(|(_, on)| *on)
                .map(|(f, _)| *f)
                .collect();
        }
        Ok(())
    }

    /// `profile`: true for "minimal", which takes only [`MINIMAL_SCHEDULERS`].
    fn profile(
        &self,
        v: &Spanned<String>,
        scheduler: Option<&Spanned<String>>,
        k: &KernelConfig,
    ) -> R<bool> {
        match v.get_ref().as_str() {
            "normal" => return Ok(false),
            "minimal" => {}
            other => {
                return Err(self.doc.err(
                    &v.span(),
                    format!("profile = {other:?} is not a kernel profile"),
                    "one of \"normal\", \"minimal\"",
                ))
            }
        }
        if !MINIMAL_SCHEDULERS.contains(&k.scheduler.name()) {
            let at = scheduler.map_or(v.span(), |s| s.span());
            return Err(self.doc.err(
                &at,
                format!(
                    "scheduler {:?} is not in the minimal profile",
                    k.scheduler.name()
                ),
                format!(
                    "one of {} with profile = \"minimal\"",
                    quoted_list(&MINIMAL_SCHEDULERS)
                ),
            ));
        }
        Ok(true)
    }

    /// The flags of `list` (`[build] cflags` or `ldflags`, a `what` flag such as "-DNAME=1"),
    /// each checked.
    fn flag_list(
        &self,
        list: &Spanned<Vec<Spanned<String>>>,
        what: &str,
        example: &str,
    ) -> R<Vec<String>> {
        // Flags that cannot fit on the compiler's command line (Linux: 128 KiB in one
        // argument, about 2 MB in all) could only fail as a compiler that cannot start.
        let mut total = 0;
        let mut out = Vec::new();
        for f in list.get_ref() {
            total += f.get_ref().len() + 1;
            if f.get_ref().len() > 4096 || total > 65536 {
                return Err(self.doc.err(
                    &f.span(),
                    format!(
                        "{what} flags of {} bytes (this one {})",
                        total,
                        f.get_ref().len()
                    ),
                    "at most 4096 bytes in one flag and 65536 in all",
                ));
            }
            if f.get_ref().trim().is_empty() {
                return Err(self.doc.err(
                    &f.span(),
                    format!("an empty {what} flag"),
                    format!("one flag per string, e.g. \"{example}\""),
                ));
            }
            // A NUL cannot be passed to the compiler at all (it would read as a missing
            // compiler); no other control character belongs in a flag either.
            if f.get_ref().contains(char::is_control) {
                return Err(self.doc.err(
                    &f.span(),
                    format!("{what} flag {:?} holds a control character", f.get_ref()),
                    format!("a flag of printable characters, e.g. \"{example}\""),
                ));
            }
            out.push(f.get_ref().clone());
        }
        Ok(out)
    }

    /// `[build] libs`: library names, as `-lNAME` takes them.
    fn libs(&self, list: &Spanned<Vec<Spanned<String>>>) -> R<Vec<String>> {
        let mut out: Vec<String> = Vec::new();
        for l in list.get_ref() {
            let name = l.get_ref();
            let plain = !name.is_empty()
                && name.len() <= 255
                && !name.starts_with('-')
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "_-+.".contains(c));
            if !plain {
                return Err(self.doc.err(
                    &l.span(),
                    format!("library {name:?} is not a library name"),
                    "a name as -lNAME takes it, e.g. \"m\" for libm.a (letters, digits, _ - + .; flags go in ldflags)",
                ));
            }
            if out.contains(name) {
                return Err(self.doc.err(
                    &l.span(),
                    format!("library {name:?} is listed twice"),
                    "each library at most once",
                ));
            }
            out.push(name.clone());
        }
        Ok(out)
    }

    fn build(&self, b: RawBuild, out: &mut BuildConfig) -> R<()> {
        if let Some(list) = &b.cflags {
            out.cflags = self.flag_list(list, "compiler", "-DNAME=1")?;
        }
        if let Some(list) = &b.ldflags {
            out.ldflags = self.flag_list(list, "linker", "-Wl,--print-memory-usage")?;
        }
        if let Some(list) = &b.libs {
            out.libs = self.libs(list)?;
        }
        if let Some(l) = &b.libc {
            let found = Libc::ALL.iter().find(|(n, _)| n == l.get_ref());
            let Some((_, libc)) = found else {
                return Err(self.doc.err(
                    &l.span(),
                    format!("libc = {:?} is not a C library Ubik links", l.get_ref()),
                    "\"picolibc\" (or no libc key: no C library)",
                ));
            };
            out.libc = Some(*libc);
        }
        if let Some(list) = &b.sources {
            let mut seen: Vec<&str> = Vec::new();
            let mut v = Vec::new();
            for s in list.get_ref() {
                let p = s.get_ref().as_str();
                if p.contains(char::is_control) {
                    return Err(self.doc.err(
                        &s.span(),
                        format!("source {p:?} holds a control character"),
                        "a file name of printable characters, relative to the application directory",
                    ));
                }
                if p.contains(['*', '?', '[']) {
                    return Err(self.doc.err(
                        &s.span(),
                        format!("source {p:?} is a pattern; patterns are not expanded"),
                        "a file name relative to the application directory (omit `sources` for every *.c and *.S)",
                    ));
                }
                if !(p.ends_with(".c") || p.ends_with(".S")) {
                    return Err(self.doc.err(
                        &s.span(),
                        format!("source {p:?} is neither C nor assembly"),
                        "a file name ending in .c or .S",
                    ));
                }
                if seen.contains(&p) {
                    return Err(self.doc.err(
                        &s.span(),
                        format!("source {p:?} is listed twice"),
                        "each source at most once",
                    ));
                }
                seen.push(p);
                v.push(SourceEntry {
                    path: p.to_string(),
                    at: self.doc.loc(s.span().start),
                });
            }
            out.sources = Some(v);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> R<SystemDesc> {
        SystemDesc::from_str(text, "system.toml")
    }

    fn err(text: &str) -> String {
        match parse(text) {
            Ok(d) => panic!("expected an error for {text:?}, got {d:?}"),
            Err(e) => {
                let s = e.to_string();
                assert!(!s.contains('\n'), "multi-line error: {s}");
                assert_eq!(e.exit_code(), 65, "{s}");
                s
            }
        }
    }

    #[test]
    fn a_dotted_table_name_is_named() {
        // serde's "expected a borrowed string" put in the description's terms (issue 28).
        for (text, want) in [
            (
                "[task.a.b]\nentry = \"f\"\n",
                "system.toml:1:9: a dotted table name `[task.a.b]`",
            ),
            ("[sem.s.t.u]\n", "system.toml:1:"),
        ] {
            let e = err(text);
            assert!(e.starts_with(want) && !e.contains("borrowed"), "{e}");
        }
    }

    #[test]
    fn os_nos_and_bad_os() {
        let d = parse("[kernel]\nos = \"nos\"\n").unwrap();
        assert_eq!(d.kernel.os, Os::Nos);
        assert_eq!(parse("").unwrap().kernel.os, Os::Ubik);
        let e = err("[kernel]\nos = \"linux\"\n");
        assert!(e.starts_with("system.toml:2:6: os = \"linux\""), "{e}");
        assert!(e.contains("expected one of \"ubik\", \"nos\""), "{e}");
    }

    #[test]
    fn empty_file_is_all_defaults() {
        let d = parse("").unwrap();
        assert_eq!(d, SystemDesc::default());
        assert_eq!(d.kernel.scheduler, Scheduler::named("prio"));
        assert_eq!(d.kernel.tick_hz, 1000);
        assert_eq!(d.kernel.timeslice_ticks, 10);
        assert_eq!(d.kernel.features, default_features());
        assert!(!d.kernel.features.contains(&"power"));
        assert_eq!(d.kernel.features.len(), FEATURES.len() - 1);
        assert!(d.build.sources.is_none());
    }

    #[test]
    fn every_key() {
        let d = parse(
            "[kernel]\nscheduler = \"bitmap\"\ntick_hz = 100000\ntimeslice_ticks = 3\n\
             features = [\"mutex\", \"sem\"]\n[build]\ncflags = [\"-DX=1\", \"-Os\"]\n\
             sources = [\"main.c\", \"sub/isr.S\"]\n",
        )
        .unwrap();
        assert_eq!(d.kernel.scheduler, Scheduler::named("bitmap"));
        assert_eq!(d.kernel.tick_hz, 100000);
        assert_eq!(d.kernel.timeslice_ticks, 3);
        // Listed order does not matter: FEATURES order.
        assert_eq!(d.kernel.features, vec!["sem", "mutex"]);
        assert_eq!(d.build.cflags, vec!["-DX=1", "-Os"]);
        let s = d.build.sources.unwrap();
        assert_eq!(s[1].path, "sub/isr.S");
        assert_eq!((s[1].at.line, s[1].at.column), (8, 22));
    }

    #[test]
    fn checks_level() {
        let full = |text: &str| parse(text).unwrap().kernel.checks_full;
        assert!(!full(""));
        assert!(!full("[kernel]\nchecks = \"off\"\n"));
        assert!(full("[kernel]\nchecks = \"full\"\n"));
        assert_eq!(
            err("[kernel]\nchecks = \"some\"\n"),
            "system.toml:2:10: checks = \"some\" is not a check level; expected one of \"off\", \"full\""
        );
    }

    #[test]
    fn minimal_profile() {
        let k = |text: &str| parse(text).unwrap().kernel;
        assert!(!k("").minimal);
        assert!(!k("[kernel]\nprofile = \"normal\"\n").minimal);
        let m = k("[kernel]\nprofile = \"minimal\"\nscheduler = \"prio_rr\"\n");
        assert!(m.minimal);
        assert_eq!((m.prios(), m.lowest_task_priority()), (32, 30));
        let h = gen::config_header(&parse("[kernel]\nprofile = \"minimal\"\n").unwrap());
        assert!(h.contains("#define UK_CONFIG_PROFILE_MINIMAL 1\n"));
        assert!(h.contains("#define UK_POLICY_PRIOS 32\n"));
        assert!(!gen::config_header(&parse("").unwrap()).contains("PROFILE_MINIMAL"));
        assert_eq!(k("").prios(), 256);
        assert_eq!(
            err("[kernel]\nprofile = \"tiny\"\n"),
            "system.toml:2:11: profile = \"tiny\" is not a kernel profile; expected one of \"normal\", \"minimal\""
        );
        assert_eq!(
            err("[kernel]\nscheduler = \"edf\"\nprofile = \"minimal\"\n"),
            "system.toml:2:13: scheduler \"edf\" is not in the minimal profile; expected one of \"prio\", \"prio_rr\" with profile = \"minimal\""
        );
        assert!(k("[kernel]\nchecks = \"full\"\nprofile = \"minimal\"\n").checks_full);
        assert_eq!(
            err("[kernel]\nprofile = \"minimal\"\n[task.t]\nentry = \"f\"\npriority = 31\n"),
            "system.toml:5:12: priority = 31 is out of range for scheduler \"prio\"; expected an integer from 0 (highest) to 30 (31 is the idle task's)"
        );
    }

    #[test]
    fn kernel_stacks_and_tick_start() {
        let d = parse("").unwrap();
        assert_eq!(d.kernel.irq_stack_bytes, 1024);
        assert_eq!(d.kernel.idle_stack_bytes, 512);
        assert_eq!(d.kernel.tick_start, 0);
        let d = parse(
            "[kernel]\nirq_stack_bytes = 256\nidle_stack_bytes = 262144\n\
             tick_start = 4294967295\n",
        )
        .unwrap();
        assert_eq!(d.kernel.irq_stack_bytes, 256);
        assert_eq!(d.kernel.idle_stack_bytes, 256 << 10);
        assert_eq!(d.kernel.tick_start, u32::MAX);

        assert_eq!(
            err("[kernel]\nirq_stack_bytes = 128\n"),
            "system.toml:2:19: irq_stack_bytes = 128 is too small; expected a size in bytes from 256 to 262144, a multiple of 16"
        );
        assert_eq!(
            err("[kernel]\nidle_stack_bytes = 1000\n"),
            "system.toml:2:20: idle_stack_bytes = 1000 is not a multiple of 16; expected a size in bytes from 256 to 262144, a multiple of 16"
        );
        assert_eq!(
            err("[kernel]\nidle_stack_bytes = 262160\n"),
            "system.toml:2:20: idle_stack_bytes = 262160 is too large; expected a size in bytes from 256 to 262144, a multiple of 16"
        );
        assert_eq!(
            err("[kernel]\nirq_stack_bytes = -16\n"),
            "system.toml:2:19: irq_stack_bytes = -16 is too small; expected a size in bytes from 256 to 262144, a multiple of 16"
        );
        assert_eq!(
            err("[kernel]\ntick_start = 4294967296\n"),
            "system.toml:2:14: tick_start = 4294967296 is out of range; expected an integer from 0 to 4294967295"
        );
        assert_eq!(
            err("[kernel]\ntick_start = -1\n"),
            "system.toml:2:14: tick_start = -1 is out of range; expected an integer from 0 to 4294967295"
        );
        // The kernel's stacks count against the objects' RAM: 2 x 256 KiB leave 448 KiB.
        let big = "[kernel]\nirq_stack_bytes = 262144\nidle_stack_bytes = 262144\n";
        assert!(parse(&format!("{big}[heap.h]\nbytes = 409600\n")).is_ok());
        let e = err(&format!("{big}[heap.h]\nbytes = 524288\n"));
        assert!(
            e.starts_with("system.toml:4:7: heap \"h\" takes the objects"),
            "{e}"
        );
        assert!(parse("[heap.h]\nbytes = 524288\n").is_ok());
        let e = err("[kernel]\ntick_start = \"max\"\n");
        assert!(
            e.starts_with("system.toml:2:14: `tick_start`: invalid type"),
            "{e}"
        );
    }

    #[test]
    fn no_features() {
        let d = parse("[kernel]\nfeatures = []\n").unwrap();
        assert!(d.kernel.features.is_empty());
    }

    #[test]
    fn every_scheduler_name() {
        for s in Scheduler::ALL {
            let d = parse(&format!("[kernel]\nscheduler = \"{}\"\n", s.name())).unwrap();
            assert_eq!(d.kernel.scheduler, s);
        }
        assert_eq!(
            Scheduler::named("prio_rr").macro_name(),
            "UK_CONFIG_SCHED_PRIO_RR"
        );
    }

    #[test]
    fn errors_name_line_column_and_expectation() {
        let e = err("[kernel]\nschedular = \"rr\"\n");
        assert!(
            e.starts_with("system.toml:2:1: unknown key `schedular`"),
            "{e}"
        );
        assert!(e.contains("expected one of the keys `scheduler`"), "{e}");

        let e = err("[kernel]\nscheduler = \"fifo\"\n");
        assert_eq!(
            e,
            "system.toml:2:13: scheduler = \"fifo\" is not a scheduler; expected one of \"rr\", \"prio\", \"prio_rr\", \"bitmap\", \"edf\", \"coop\", \"rtm\""
        );

        let e = err("[kernel]\ntick_hz = 0\n");
        assert_eq!(
            e,
            "system.toml:2:11: tick_hz = 0 is out of range; expected an integer from 1 to 100000"
        );
        let e = err("[kernel]\ntick_hz = 100001\n");
        assert!(e.starts_with("system.toml:2:11: tick_hz = 100001"), "{e}");
        let e = err("[kernel]\ntimeslice_ticks = 0\n");
        assert!(
            e.starts_with("system.toml:2:19: timeslice_ticks = 0 is out of range"),
            "{e}"
        );

        let e = err("[kernel]\ntick_hz = \"fast\"\n");
        assert!(
            e.starts_with("system.toml:2:11: `tick_hz`: invalid type: string \"fast\""),
            "{e}"
        );
        assert!(e.ends_with("expected an integer"), "{e}");

        let e = err("[kernel]\nfeatures = [\"sem\", \"queues\"]\n");
        assert!(
            e.starts_with("system.toml:2:20: unknown feature \"queues\"; expected one of \"sem\""),
            "{e}"
        );
        let e = err("[kernel]\nfeatures = [\"sem\", \"sem\"]\n");
        assert!(e.contains("listed twice"), "{e}");

        let e = err("[tasks]\n");
        assert!(e.starts_with("system.toml:1:"), "{e}");
        assert!(e.contains("unknown key `tasks`"), "{e}");

        let e = err("[build]\nsources = [\"*.c\"]\n");
        assert!(
            e.starts_with("system.toml:2:12: source \"*.c\" is a pattern"),
            "{e}"
        );
        let e = err("[build]\nsources = [\"a.h\"]\n");
        assert!(e.contains("neither C nor assembly"), "{e}");
        let e = err("[build]\ncflags = [\"\"]\n");
        assert!(
            e.starts_with("system.toml:2:11: an empty compiler flag"),
            "{e}"
        );
        let e = err("[kernel\n");
        assert!(e.starts_with("system.toml:1:"), "{e}");
        // A NUL reaches no command line (it read as a missing compiler: 69).
        let e = err("[build]\ncflags = [\"-DX=1\", \"-DX=a\\u0000b\"]\n");
        assert!(
            e.starts_with(
                "system.toml:2:20: compiler flag \"-DX=a\\0b\" holds a control character"
            ),
            "{e}"
        );
        let e = err(&format!(
            "[build]\ncflags = [\"-DX={}\"]\n",
            "a".repeat(5000)
        ));
        assert!(e.contains("system.toml:2:11: compiler flags of"), "{e}");
        let e = err("[build]\nsources = [\"a\\u0000.c\"]\n");
        assert!(e.starts_with("system.toml:2:12: source"), "{e}");
    }

    #[test]
    fn unreadable_file_is_66() {
        let e = SystemDesc::from_file(Path::new("/nonexistent/system.toml")).unwrap_err();
        assert_eq!(e.exit_code(), 66);
        assert!(
            e.to_string().contains("cannot read the system description"),
            "{e}"
        );
    }

    #[test]
    fn build_libc_ldflags_libs() {
        let d = parse(
            "[build]\nlibc = \"picolibc\"\nldflags = [\"-Wl,--print-memory-usage\"]\n\
             libs = [\"m\", \"my_lib-2\"]\n",
        )
        .unwrap();
        assert_eq!(d.build.libc, Some(Libc::Picolibc));
        assert_eq!(d.build.ldflags, vec!["-Wl,--print-memory-usage"]);
        assert_eq!(d.build.libs, vec!["m", "my_lib-2"]);
        // None of them: no C library, nothing added.
        let d = parse("[build]\n").unwrap();
        assert_eq!(d.build.libc, None);
        assert!(d.build.ldflags.is_empty() && d.build.libs.is_empty());
    }

    #[test]
    fn bad_libc_ldflags_libs_are_located() {
        let e = err("[build]\nlibc = \"newlib\"\n");
        assert!(
            e.starts_with(
                "system.toml:2:8: libc = \"newlib\" is not a C library Ubik links; expected \"picolibc\""
            ),
            "{e}"
        );
        let e = err("[build]\nlibc = true\n");
        assert!(e.starts_with("system.toml:2:"), "{e}");
        let e = err("[build]\nldflags = [\"-L.\", \" \"]\n");
        assert!(
            e.starts_with("system.toml:2:19: an empty linker flag"),
            "{e}"
        );
        let e = err("[build]\nldflags = [\"-Wl,a\\u0007\"]\n");
        assert!(e.contains("holds a control character"), "{e}");
        let e = err("[build]\nlibs = [\"-lm\"]\n");
        assert!(
            e.starts_with("system.toml:2:9: library \"-lm\" is not a library name; expected a name as -lNAME takes it"),
            "{e}"
        );
        let e = err("[build]\nlibs = [\"m\", \"a b\"]\n");
        assert!(e.starts_with("system.toml:2:14: library \"a b\""), "{e}");
        let e = err("[build]\nlibs = [\"m\", \"m\"]\n");
        assert!(e.contains("listed twice"), "{e}");
        let e = err("[build]\nlibs = \"m\"\n");
        assert!(e.starts_with("system.toml:2:"), "{e}");
        let e = err("[build]\nlibrary = [\"m\"]\n");
        assert!(e.starts_with("system.toml:2:1:"), "{e}");
    }
}
