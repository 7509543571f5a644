//! The objects a system description declares: tasks, semaphores, mutexes, queues, ports, event
//! flags, pools, heaps, timers, interrupt handlers, and the power policy. `gen` turns them
//! into C (`uk_gen.h`, `uk_gen.c`) that defines each one statically and creates it inside
//! `uk_init()`.
//!
//! Every object is a table named by its kind and its name, `[KIND.NAME]` (or an inline table
//! `KIND.NAME = { ... }`): the name becomes the C identifier of the object, so names are unique
//! across all kinds. Objects are created in the order of [`Objects`]'s fields and, within a
//! kind, in the order they are written (docs/system.md, "Objects").

use std::collections::HashMap;
use std::fmt;
use std::marker::PhantomData;
use std::ops::Range;

use serde::de::{Deserializer, MapAccess, Visitor};
use serde::Deserialize;
use toml::Spanned;

use crate::{names, Ctx, Location, Os, Scheduler, R};

// ---------------------------------------------------------------------------------------------
// The resolved model.

/// How a task starts: `Active` tasks are activated by `uk_init()` (they run once `uk_start()`
/// starts scheduling); `Suspended` ones are only created (the application or a timer
/// activates them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TaskStart {
    Active,
    Suspended,
}

/// The argument a task entry (or a timer function) receives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Arg {
    /// `NULL`.
    None,
    /// An integer, passed as `(void *)(uintptr_t)N`.
    Int(u32),
    /// The address of a declared object, `&NAME`.
    Object(String),
}

/// A task's power class (`ubik/power.h`): which operating point a policy gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PowerClass {
    Normal,
    High,
    Low,
}

impl PowerClass {
    pub const ALL: [PowerClass; 3] = [PowerClass::Normal, PowerClass::High, PowerClass::Low];

    pub fn name(self) -> &'static str {
        match self {
            PowerClass::Normal => "normal",
            PowerClass::High => "high",
            PowerClass::Low => "low",
        }
    }

    /// The C enumerator of `ubik/power.h`.
    pub fn c_name(self) -> &'static str {
        match self {
            PowerClass::Normal => "UK_POWER_NORMAL",
            PowerClass::High => "UK_POWER_HIGH",
            PowerClass::Low => "UK_POWER_LOW",
        }
    }
}

/// `[task.NAME]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Task {
    pub name: String,
    pub at: Location,
    /// `void entry(void *arg)`, defined by the application.
    pub entry: String,
    pub priority: u8,
    pub stack_bytes: u32,
    /// Round-robin slice in ticks (`uk_task_set_slice`); `None`: `[kernel] timeslice_ticks`.
    pub slice: Option<u32>,
    pub start: TaskStart,
    pub arg: Arg,
    /// `void handler(uint32_t sigs)`: the task's signal handler (`uk_signal_handler`).
    pub signal: Option<String>,
    pub power_class: Option<PowerClass>,
}

/// `[sem.NAME]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sem {
    pub name: String,
    pub at: Location,
    pub initial: u32,
    pub max: u32,
}

/// `[mutex.NAME]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mutex {
    pub name: String,
    pub at: Location,
}

/// A queue's messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueueKind {
    /// `capacity` messages of exactly `msg_bytes` (`uk_queue_init`).
    Fixed { msg_bytes: u32, capacity: u32 },
    /// Room for `capacity` messages of up to `max_msg_bytes` (`uk_queue_init_var`).
    Variable { max_msg_bytes: u32, capacity: u32 },
}

impl QueueKind {
    /// The size of the queue's buffer in bytes.
    pub fn buffer_bytes(self) -> u64 {
        match self {
            QueueKind::Fixed {
                msg_bytes,
                capacity,
            } => msg_bytes as u64 * capacity as u64,
            // UK_QUEUE_VAR_BYTES(max, k) of ubik/queue.h.
            QueueKind::Variable {
                max_msg_bytes,
                capacity,
            } => capacity as u64 * (4 + ((max_msg_bytes as u64 + 3) & !3)),
        }
    }
}

/// `[queue.NAME]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Queue {
    pub name: String,
    pub at: Location,
    pub kind: QueueKind,
}

/// `[port.NAME]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Port {
    pub name: String,
    pub at: Location,
    pub capacity: u32,
}

/// `[flags.NAME]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Flags {
    pub name: String,
    pub at: Location,
    pub initial: u32,
}

/// `[heap.NAME]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Heap {
    pub name: String,
    pub at: Location,
    pub bytes: u32,
}

/// `[pool.NAME]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pool {
    pub name: String,
    pub at: Location,
    pub block_bytes: u32,
    pub count: u32,
    /// Carved from this declared heap (`uk_pool_create`) instead of a static buffer.
    pub heap: Option<String>,
}

/// What a timer does when it expires.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TimerAction {
    /// `void function(uk_timer_t *tm, void *arg)`, called in the kernel's timer HISR.
    Call { function: String, arg: Arg },
    /// Makes a declared task ready (activates it the first time, then resumes it).
    Activate { task: String },
    /// Sets `bits` in declared event flags.
    SetFlags { flags: String, bits: u32 },
}

/// `[timer.NAME]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Timer {
    pub name: String,
    pub at: Location,
    pub action: TimerAction,
    /// `Some((delay, period))`: started by `uk_init()` (first expiry `delay` ticks after the
    /// start, then every `period` ticks; 0 = one-shot). `None`: created stopped.
    pub start: Option<(u32, u32)>,
}

/// The HISR of an interrupt handler: the object `uk_hisr_t NAME`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hisr {
    /// `void function(uk_hisr_t *h)`.
    pub function: String,
    pub priority: u8,
    pub stack_bytes: u32,
}

/// `[interrupt.NAME]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Interrupt {
    pub name: String,
    pub at: Location,
    /// Fast interrupt line 0..14.
    pub line: u8,
    /// `void lisr(unsigned line)`, installed with `uk_irq_install`.
    pub lisr: String,
    pub hisr: Option<Hisr>,
}

/// A function the description names (a task entry, signal handler, timer function, LISR or
/// HISR), which the application must define with external linkage: `ubik build` checks the
/// compiled objects for it before linking, and reports a missing one where it is named.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NamedFunction {
    pub name: String,
    /// The key that names it where it is first named (`entry`, `signal`, `call`, `lisr`,
    /// `hisr`).
    pub key: &'static str,
    /// Its role, `a task entry`, `a LISR`, ...
    pub role: &'static str,
    /// Its C prototype, `void NAME(void *arg)`.
    pub prototype: String,
    /// Where it is first named (the value of the key).
    pub at: Location,
}

/// Everything a description declares, each kind in the order written.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Objects {
    pub heaps: Vec<Heap>,
    pub pools: Vec<Pool>,
    pub sems: Vec<Sem>,
    pub mutexes: Vec<Mutex>,
    pub queues: Vec<Queue>,
    pub ports: Vec<Port>,
    pub flags: Vec<Flags>,
    pub tasks: Vec<Task>,
    pub timers: Vec<Timer>,
    pub interrupts: Vec<Interrupt>,
    /// Every function the description names, once each, in the order first named in the text.
    pub functions: Vec<NamedFunction>,
}

impl Objects {
    pub fn is_empty(&self) -> bool {
        self.heaps.is_empty()
            && self.pools.is_empty()
            && self.sems.is_empty()
            && self.mutexes.is_empty()
            && self.queues.is_empty()
            && self.ports.is_empty()
            && self.flags.is_empty()
            && self.tasks.is_empty()
            && self.timers.is_empty()
            && self.interrupts.is_empty()
    }
}

/// A DPM policy of `ubik/power.h` (UbiFOS Table 1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PowerPolicy {
    /// Always the fastest operating point.
    #[default]
    Default,
    /// Idle scaling: slow only while idle.
    Idle,
    /// Load scaling, three levels.
    Ls0,
    Ls1,
    Ls2,
}

impl PowerPolicy {
    pub const ALL: [PowerPolicy; 5] = [
        PowerPolicy::Default,
        PowerPolicy::Idle,
        PowerPolicy::Ls0,
        PowerPolicy::Ls1,
        PowerPolicy::Ls2,
    ];

    pub fn name(self) -> &'static str {
        match self {
            PowerPolicy::Default => "default",
            PowerPolicy::Idle => "idle",
            PowerPolicy::Ls0 => "ls0",
            PowerPolicy::Ls1 => "ls1",
            PowerPolicy::Ls2 => "ls2",
        }
    }

    /// The value of `uk_power_policy_t` (`UK_POWER_POLICY` in `uk_config.h`).
    pub fn value(self) -> u32 {
        self as u32
    }
}

/// The `[power]` table, resolved.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PowerConfig {
    pub policy: PowerPolicy,
}

// ---------------------------------------------------------------------------------------------
// Limits.

/// Smallest task or HISR stack (the kernel's minimum).
pub const MIN_STACK_BYTES: i64 = 128;
/// Largest stack, queue, pool or heap buffer a description may declare.
pub const MAX_OBJECT_BYTES: i64 = 16 << 20;
/// Largest count of messages, blocks or slots.
pub const MAX_COUNT: i64 = 1 << 20;
/// Largest message of a queue (the kernel's limit).
pub const MAX_MSG_BYTES: i64 = 65535;
/// Largest tick count a delay, period or slice may have (ticks compare by 32-bit difference).
pub const MAX_TICKS: i64 = 0x7fff_ffff;
/// HISR priority levels (`UK_HISR_PRIOS`).
pub const HISR_PRIOS: i64 = 4;
/// Fast interrupt lines 0..=14.
pub const MAX_LINE: i64 = 14;
/// Default task stack.
pub const DEFAULT_STACK_BYTES: u32 = 1024;

// ---------------------------------------------------------------------------------------------
// Raw (as written).

/// A raw object table: its kind's name in `system.toml`.
pub(crate) trait Kind {
    const KIND: &'static str;
}

/// A kind's declarations in the order written: `[KIND.NAME]` tables, name spans kept.
pub(crate) struct Decls<T>(pub Vec<(Spanned<String>, Spanned<T>)>);

impl<'de, T: Deserialize<'de> + Kind> Deserialize<'de> for Decls<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de> + Kind> Visitor<'de> for V<T> {
            type Value = Decls<T>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                write!(f, "one table per {0}, [{0}.NAME]", T::KIND)
            }
            fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Decls<T>, A::Error> {
                let mut v = Vec::new();
                while let Some(e) = m.next_entry::<Spanned<String>, Spanned<T>>()? {
                    v.push(e);
                }
                Ok(Decls(v))
            }
        }
        d.deserialize_map(V(PhantomData))
    }
}

#[derive(Deserialize)]
#[serde(
    deny_unknown_fields,
    expecting = "a task table: entry, priority, stack_bytes, ..."
)]
pub(crate) struct RawTask {
    entry: Option<Spanned<String>>,
    priority: Option<Spanned<i64>>,
    stack_bytes: Option<Spanned<i64>>,
    slice: Option<Spanned<i64>>,
    start: Option<Spanned<String>>,
    arg: Option<Spanned<toml::Value>>,
    signal: Option<Spanned<String>>,
    power_class: Option<Spanned<String>>,
}

impl RawTask {
    pub(crate) fn has_power_class(&self) -> bool {
        self.power_class.is_some()
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, expecting = "a semaphore table: initial, max")]
pub(crate) struct RawSem {
    initial: Option<Spanned<i64>>,
    max: Option<Spanned<i64>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, expecting = "a mutex table (no keys)")]
pub(crate) struct RawMutex {}

#[derive(Deserialize)]
#[serde(
    deny_unknown_fields,
    expecting = "a queue table: msg_bytes or max_msg_bytes, capacity"
)]
pub(crate) struct RawQueue {
    msg_bytes: Option<Spanned<i64>>,
    max_msg_bytes: Option<Spanned<i64>>,
    capacity: Option<Spanned<i64>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, expecting = "a port table: capacity")]
pub(crate) struct RawPort {
    capacity: Option<Spanned<i64>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, expecting = "a flags table: initial")]
pub(crate) struct RawFlags {
    initial: Option<Spanned<i64>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, expecting = "a heap table: bytes")]
pub(crate) struct RawHeap {
    bytes: Option<Spanned<i64>>,
}

#[derive(Deserialize)]
#[serde(
    deny_unknown_fields,
    expecting = "a pool table: block_bytes, count, heap"
)]
pub(crate) struct RawPool {
    block_bytes: Option<Spanned<i64>>,
    count: Option<Spanned<i64>>,
    heap: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(
    deny_unknown_fields,
    expecting = "a timer table: call, activate or flags, delay, period, start"
)]
pub(crate) struct RawTimer {
    call: Option<Spanned<String>>,
    arg: Option<Spanned<toml::Value>>,
    activate: Option<Spanned<String>>,
    flags: Option<Spanned<String>>,
    bits: Option<Spanned<i64>>,
    delay: Option<Spanned<i64>>,
    period: Option<Spanned<i64>>,
    start: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(
    deny_unknown_fields,
    expecting = "an interrupt table: line, lisr, hisr, hisr_priority, hisr_stack_bytes"
)]
pub(crate) struct RawInterrupt {
    line: Option<Spanned<i64>>,
    lisr: Option<Spanned<String>>,
    hisr: Option<Spanned<String>>,
    hisr_priority: Option<Spanned<i64>>,
    hisr_stack_bytes: Option<Spanned<i64>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, expecting = "the power table: policy")]
pub(crate) struct RawPower {
    policy: Option<Spanned<String>>,
}

impl RawPower {
    pub(crate) fn policy(&self) -> Option<&str> {
        self.policy.as_ref().map(|p| p.get_ref().as_str())
    }
}

impl Kind for RawTask {
    const KIND: &'static str = "task";
}
impl Kind for RawSem {
    const KIND: &'static str = "sem";
}
impl Kind for RawMutex {
    const KIND: &'static str = "mutex";
}
impl Kind for RawQueue {
    const KIND: &'static str = "queue";
}
impl Kind for RawPort {
    const KIND: &'static str = "port";
}
impl Kind for RawFlags {
    const KIND: &'static str = "flags";
}
impl Kind for RawHeap {
    const KIND: &'static str = "heap";
}
impl Kind for RawPool {
    const KIND: &'static str = "pool";
}
impl Kind for RawTimer {
    const KIND: &'static str = "timer";
}
impl Kind for RawInterrupt {
    const KIND: &'static str = "interrupt";
}

/// The object tables of `system.toml`, as written.
#[derive(Default)]
pub(crate) struct RawObjects {
    pub task: Option<Decls<RawTask>>,
    pub sem: Option<Decls<RawSem>>,
    pub mutex: Option<Decls<RawMutex>>,
    pub queue: Option<Decls<RawQueue>>,
    pub port: Option<Decls<RawPort>>,
    pub flags: Option<Decls<RawFlags>>,
    pub heap: Option<Decls<RawHeap>>,
    pub pool: Option<Decls<RawPool>>,
    pub timer: Option<Decls<RawTimer>>,
    pub interrupt: Option<Decls<RawInterrupt>>,
}

// ---------------------------------------------------------------------------------------------
// Resolution and validation.

/// The C signature a function named in `system.toml` gets, by its role.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    Entry,
    TimerCall,
    Lisr,
    Hisr,
    Signal,
}

impl Role {
    /// The role alone, for messages that show the prototype.
    fn noun(self) -> &'static str {
        match self {
            Role::Entry => "a task entry",
            Role::TimerCall => "a timer function",
            Role::Lisr => "a LISR",
            Role::Hisr => "a HISR entry",
            Role::Signal => "a signal handler",
        }
    }

    /// The C prototype of `name` in this role (as `uk_gen.h` declares it).
    fn prototype(self, name: &str) -> String {
        let params = match self {
            Role::Entry => "void *arg",
            Role::TimerCall => "uk_timer_t *tm, void *arg",
            Role::Lisr => "unsigned line",
            Role::Hisr => "uk_hisr_t *h",
            Role::Signal => "uint32_t sigs",
        };
        format!("void {name}({params})")
    }

    fn what(self) -> &'static str {
        match self {
            Role::Entry => "a task entry, void f(void *arg)",
            Role::TimerCall => "a timer function, void f(uk_timer_t *tm, void *arg)",
            Role::Lisr => "a LISR, void f(unsigned line)",
            Role::Hisr => "a HISR entry, void f(uk_hisr_t *h)",
            Role::Signal => "a signal handler, void f(uint32_t sigs)",
        }
    }
}

/// A declared name: its kind and where it is declared.
struct Declared {
    name: String,
    kind: &'static str,
    line: usize,
    /// It has a C object (an interrupt without a HISR has none).
    object: bool,
}

/// A function named in the description, where it is first named.
struct Function {
    role: Role,
    at: Location,
}

pub(crate) struct Resolver<'c, 'a> {
    ctx: &'c Ctx<'a>,
    scheduler: Scheduler,
    os: Os,
    features: &'c [&'static str],
    /// The declared names in the order written, and where each is in it (lookups by name
    /// are hashed: a description may declare thousands).
    names: Vec<Declared>,
    index: HashMap<String, usize>,
    /// The functions named, by name.
    functions: HashMap<String, Function>,
    /// The same, each where it is first named, for `Objects::functions`.
    named: Vec<NamedFunction>,
    /// References to check once every name is known: (span, referring key, name, wanted kind;
    /// "" for any object).
    refs: Vec<(Range<usize>, &'static str, String, &'static str)>,
}

impl<'c, 'a> Resolver<'c, 'a> {
    pub(crate) fn new(
        ctx: &'c Ctx<'a>,
        os: Os,
        scheduler: Scheduler,
        features: &'c [&'static str],
    ) -> Self {
        Resolver {
            ctx,
            scheduler,
            os,
            features,
            names: Vec::new(),
            index: HashMap::new(),
            functions: HashMap::new(),
            named: Vec::new(),
            refs: Vec::new(),
        }
    }

    fn err(
        &self,
        span: &Range<usize>,
        what: impl Into<String>,
        expected: impl Into<String>,
    ) -> crate::ConfigError {
        self.ctx.err(span, what, expected)
    }

    fn line(&self, span: &Range<usize>) -> usize {
        self.ctx.loc(span.start).line
    }

    /// Checks that `text` may be a C identifier the generated code defines or declares
    /// ([`crate::names`]); `what` names it in messages (`task "x"`, `entry = "x"`), `base` says
    /// what it should be ("a name", "a function name").
    fn c_name(&self, span: &Range<usize>, what: &str, text: &str, base: &str) -> R<()> {
        match names::refusal(text) {
            None => Ok(()),
            Some(r) => {
                let (message, expected) = r.message(what, base);
                Err(self.err(span, message, expected))
            }
        }
    }

    /// Declares an object name (unique across kinds; a C identifier).
    fn declare(&mut self, key: &Spanned<String>, kind: &'static str, object: bool) -> R<()> {
        let name = key.get_ref();
        let span = key.span();
        self.c_name(&span, &format!("{kind} \"{name}\""), name, "a name")?;
        if let Some(d) = self.declared(name) {
            return Err(self.err(
                &span,
                format!(
                    "{kind} \"{name}\": the name is already the {} declared at line {}",
                    d.kind, d.line
                ),
                "names unique among all declared objects (each becomes a C identifier)",
            ));
        }
        if self.os == Os::Nos {
            return Err(self.err(
                &span,
                format!(
                    "{kind} \"{name}\" is a kernel object and [kernel] os = \"nos\" has no kernel"
                ),
                "os = \"ubik\", or no object tables",
            ));
        }
        self.index.insert(name.clone(), self.names.len());
        self.names.push(Declared {
            name: name.clone(),
            kind,
            line: self.line(&span),
            object,
        });
        Ok(())
    }

    /// The declaration of `name`, if any.
    fn declared(&self, name: &str) -> Option<&Declared> {
        self.index.get(name).map(|&i| &self.names[i])
    }

    /// Fails unless every feature of `needed` is enabled.
    fn need(&self, span: &Range<usize>, what: &str, needed: &[&str]) -> R<()> {
        for f in needed {
            if !self.features.contains(f) {
                return Err(self.err(
                    span,
                    format!("{what} needs the kernel feature \"{f}\", which [kernel] features leaves out"),
                    format!("\"{f}\" in [kernel] features"),
                ));
            }
        }
        Ok(())
    }

    /// A function the application defines, in `role`.
    fn function(&mut self, v: &Spanned<String>, key: &'static str, role: Role) -> R<String> {
        let name = v.get_ref();
        let span = v.span();
        self.c_name(
            &span,
            &format!("{key} = \"{name}\""),
            name,
            "a function name",
        )?;
        if let Some(f) = self.functions.get(name).filter(|f| f.role != role) {
            return Err(self.err(
                &span,
                format!(
                    "{key} = \"{name}\" is {}, but line {} uses it as {}",
                    role.what(),
                    f.at.line,
                    f.role.what()
                ),
                "one function per signature",
            ));
        }
        if !self.functions.contains_key(name) {
            let at = self.ctx.loc(span.start);
            self.named.push(NamedFunction {
                name: name.clone(),
                key,
                role: role.noun(),
                prototype: role.prototype(name),
                at: at.clone(),
            });
            self.functions.insert(name.clone(), Function { role, at });
        }
        Ok(name.clone())
    }

    /// An integer in `lo..=hi`.
    fn int(&self, v: &Spanned<i64>, key: &str, lo: i64, hi: i64, expected: &str) -> R<u32> {
        let n = *v.get_ref();
        if !(lo..=hi).contains(&n) {
            return Err(self.err(
                &v.span(),
                format!("{key} = {n} is out of range"),
                format!("{expected} from {lo} to {hi}"),
            ));
        }
        Ok(n as u32)
    }

    /// A size in bytes: `min..=MAX_OBJECT_BYTES`, a multiple of `multiple`.
    fn bytes(&self, v: &Spanned<i64>, key: &str, min: i64, multiple: i64) -> R<u32> {
        let n = *v.get_ref();
        let expected =
            format!("a size in bytes from {min} to {MAX_OBJECT_BYTES}, a multiple of {multiple}");
        if n < min {
            return Err(self.err(&v.span(), format!("{key} = {n} is too small"), expected));
        }
        if n > MAX_OBJECT_BYTES {
            return Err(self.err(&v.span(), format!("{key} = {n} is too large"), expected));
        }
        if n % multiple != 0 {
            return Err(self.err(
                &v.span(),
                format!("{key} = {n} is not a multiple of {multiple}"),
                expected,
            ));
        }
        Ok(n as u32)
    }

    fn missing(
        &self,
        key: &Spanned<String>,
        kind: &str,
        what: &str,
        expected: &str,
    ) -> crate::ConfigError {
        self.err(
            &key.span(),
            format!("{kind} \"{}\" has no {what}", key.get_ref()),
            expected.to_string(),
        )
    }

    /// A total size (a buffer of `n` bytes) no larger than MAX_OBJECT_BYTES.
    fn total(&self, span: &Range<usize>, what: String, n: u64) -> R<u32> {
        if n > MAX_OBJECT_BYTES as u64 {
            return Err(self.err(
                span,
                format!("{what} needs a buffer of {n} bytes"),
                format!("at most {MAX_OBJECT_BYTES} bytes per object"),
            ));
        }
        Ok(n as u32)
    }

    /// `arg = 5` or `arg = "object"`.
    fn arg(&mut self, v: &Spanned<toml::Value>) -> R<Arg> {
        match v.get_ref() {
            toml::Value::Integer(n) => {
                if !(-(1i64 << 31)..=u32::MAX as i64).contains(n) {
                    return Err(self.err(
                        &v.span(),
                        format!("arg = {n} does not fit in a pointer"),
                        "a 32-bit integer or the name of a declared object",
                    ));
                }
                Ok(Arg::Int(*n as u32))
            }
            toml::Value::String(s) => {
                self.refs.push((v.span(), "arg", s.clone(), ""));
                Ok(Arg::Object(s.clone()))
            }
            other => Err(self.err(
                &v.span(),
                format!("arg is a {}", other.type_str()),
                "an integer (passed as a pointer) or the name of a declared object (its address)",
            )),
        }
    }

    pub(crate) fn resolve(mut self, raw: RawObjects) -> R<Objects> {
        let mut o = Objects::default();
        // Names first, in the order written, so that a repeated name is reported where it is
        // repeated. Objects are then resolved kind by kind.
        let mut all: Vec<(&Spanned<String>, &'static str, bool)> = Vec::new();
        fn collect_names<'r, T: Kind>(
            all: &mut Vec<(&'r Spanned<String>, &'static str, bool)>,
            d: &'r Option<Decls<T>>,
            object: impl Fn(&T) -> bool,
        ) {
            for (k, v) in d.iter().flat_map(|d| d.0.iter()) {
                all.push((k, T::KIND, object(v.get_ref())));
            }
        }
        collect_names(&mut all, &raw.heap, |_| true);
        collect_names(&mut all, &raw.pool, |_| true);
        collect_names(&mut all, &raw.sem, |_| true);
        collect_names(&mut all, &raw.mutex, |_| true);
        collect_names(&mut all, &raw.queue, |_| true);
        collect_names(&mut all, &raw.port, |_| true);
        collect_names(&mut all, &raw.flags, |_| true);
        collect_names(&mut all, &raw.task, |_| true);
        collect_names(&mut all, &raw.timer, |_| true);
        collect_names(&mut all, &raw.interrupt, |i| i.hisr.is_some());
        all.sort_by_key(|(k, _, _)| k.span().start);
        for (k, kind, object) in all {
            self.declare(k, kind, object)?;
        }
        if let Some(d) = raw.heap {
            for (k, v) in d.0 {
                o.heaps.push(self.heap(&k, v.into_inner())?);
            }
        }
        if let Some(d) = raw.pool {
            for (k, v) in d.0 {
                o.pools.push(self.pool(&k, v.into_inner())?);
            }
        }
        if let Some(d) = raw.sem {
            for (k, v) in d.0 {
                o.sems.push(self.sem(&k, v.into_inner())?);
            }
        }
        if let Some(d) = raw.mutex {
            for (k, _) in d.0 {
                self.need(&k.span(), &format!("mutex \"{}\"", k.get_ref()), &["mutex"])?;
                o.mutexes.push(Mutex {
                    name: k.get_ref().clone(),
                    at: self.ctx.loc(k.span().start),
                });
            }
        }
        if let Some(d) = raw.queue {
            for (k, v) in d.0 {
                o.queues.push(self.queue(&k, v.into_inner())?);
            }
        }
        if let Some(d) = raw.port {
            for (k, v) in d.0 {
                o.ports.push(self.port(&k, v.into_inner())?);
            }
        }
        if let Some(d) = raw.flags {
            for (k, v) in d.0 {
                o.flags.push(self.flags(&k, v.into_inner())?);
            }
        }
        if let Some(d) = raw.task {
            let policy = self.scheduler.policy();
            let limit = if policy.unique_priorities {
                policy.lowest_task_priority as usize + 1
            } else {
                usize::MAX
            };
            if d.0.len() > limit {
                let k = &d.0[limit].0;
                return Err(self.err(
                    &k.span(),
                    format!(
                        "task \"{}\" is task number {} besides the idle task",
                        k.get_ref(),
                        limit + 1
                    ),
                    format!(
                        "at most {} tasks with scheduler \"{}\", the idle task included ({} declared)",
                        limit + 1,
                        policy.name,
                        limit
                    ),
                ));
            }
            for (k, v) in d.0 {
                let t = self.task(&k, v.into_inner(), &o.tasks)?;
                o.tasks.push(t);
            }
        }
        if let Some(d) = raw.timer {
            for (k, v) in d.0 {
                o.timers.push(self.timer(&k, v.into_inner())?);
            }
        }
        if let Some(d) = raw.interrupt {
            for (k, v) in d.0 {
                let i = self.interrupt(&k, v.into_inner(), &o.interrupts)?;
                o.interrupts.push(i);
            }
        }
        self.check_refs(&o)?;
        let mut named = std::mem::take(&mut self.named);
        named.sort_by_key(|f| (f.at.line, f.at.column));
        o.functions = named;
        Ok(o)
    }

    /// References by name: timers' tasks and flags, pools' heaps, args.
    fn check_refs(&self, o: &Objects) -> R<()> {
        for (span, key, name, kind) in &self.refs {
            let Some(d) = self.declared(name) else {
                let noun = if *kind == "flags" {
                    "flags object"
                } else {
                    kind
                };
                let expected = if kind.is_empty() {
                    "the name of a declared object".to_string()
                } else {
                    let list: Vec<&str> = self
                        .names
                        .iter()
                        .filter(|d| d.kind == *kind)
                        .map(|d| d.name.as_str())
                        .collect();
                    if list.is_empty() {
                        format!("the name of a {noun} declared with [{kind}.NAME] (there is none)")
                    } else {
                        format!("the name of a declared {noun}: {}", list.join(", "))
                    }
                };
                return Err(self.err(
                    span,
                    format!("{key} = \"{name}\" names no declared object"),
                    expected,
                ));
            };
            if !kind.is_empty() && d.kind != *kind {
                let noun = if *kind == "flags" {
                    "flags object"
                } else {
                    kind
                };
                return Err(self.err(
                    span,
                    format!(
                        "{key} = \"{name}\" is the {} declared at line {}",
                        d.kind, d.line
                    ),
                    format!("the name of a declared {noun}"),
                ));
            }
            if !d.object {
                return Err(self.err(
                    span,
                    format!("{key} = \"{name}\": interrupt \"{name}\" has no HISR, so no object"),
                    "the name of a declared object",
                ));
            }
        }
        // Every pool carved from a heap must fit in it (its blocks' payload, at least).
        let mut carved: HashMap<&str, (u64, &Pool)> = HashMap::new();
        for p in &o.pools {
            if let Some(h) = &p.heap {
                let e = carved.entry(h.as_str()).or_insert((0, p));
                *e = (e.0 + p.block_bytes as u64 * p.count as u64, p);
            }
        }
        for h in &o.heaps {
            let Some(&(need, p)) = carved.get(h.name.as_str()) else {
                continue;
            };
            if need > h.bytes as u64 {
                return Err(crate::ConfigError::Invalid {
                    at: p.at.clone(),
                    message: format!(
                        "pool \"{}\": the pools carved from heap \"{}\" take {need} bytes, the heap has {}",
                        p.name, h.name, h.bytes
                    ),
                    expected: format!(
                        "heap \"{}\" larger than its pools (each block costs 16 bytes of header)",
                        h.name
                    ),
                });
            }
        }
        // A function may have an object's name: the generated C gives the object a symbol of
        // its own (`gen`), so both compile.
        Ok(())
    }

    fn task(&mut self, k: &Spanned<String>, t: RawTask, earlier: &[Task]) -> R<Task> {
        let name = k.get_ref().clone();
        let what = format!("task \"{name}\"");
        let entry = match &t.entry {
            Some(e) => self.function(e, "entry", Role::Entry)?,
            None => {
                return Err(self.missing(
                    k,
                    "task",
                    "entry",
                    "entry = \"function\", the task's void function(void *arg)",
                ))
            }
        };
        let sched = self.scheduler.name();
        let hi = self.scheduler.policy().lowest_task_priority as i64;
        let priority = match &t.priority {
            Some(p) => {
                let n = *p.get_ref();
                if !(0..=hi).contains(&n) {
                    return Err(self.err(
                        &p.span(),
                        format!("priority = {n} is out of range for scheduler \"{sched}\""),
                        format!(
                            "an integer from 0 (highest) to {hi} ({} is the idle task's)",
                            hi + 1
                        ),
                    ));
                }
                if self.scheduler.policy().unique_priorities {
                    if let Some(o) = earlier.iter().find(|o| o.priority as i64 == n) {
                        return Err(self.err(
                            &p.span(),
                            format!(
                                "priority = {n} is already task \"{}\"'s (line {})",
                                o.name, o.at.line
                            ),
                            format!("a priority unique among tasks with scheduler \"{sched}\""),
                        ));
                    }
                }
                n as u8
            }
            None => {
                return Err(self.missing(
                    k,
                    "task",
                    "priority",
                    &format!("priority = 0 (highest) to {hi}"),
                ))
            }
        };
        let stack_bytes = match &t.stack_bytes {
            Some(v) => self.bytes(v, "stack_bytes", MIN_STACK_BYTES, 4)?,
            None => DEFAULT_STACK_BYTES,
        };
        let slice = match &t.slice {
            Some(v) => Some(self.int(v, "slice", 1, MAX_TICKS, "a number of ticks")?),
            None => None,
        };
        let start = match &t.start {
            None => TaskStart::Active,
            Some(s) => match s.get_ref().as_str() {
                "active" => TaskStart::Active,
                "suspended" => TaskStart::Suspended,
                other => {
                    return Err(self.err(
                        &s.span(),
                        format!("start = \"{other}\" is not a start state of a task"),
                        "one of \"active\", \"suspended\"",
                    ))
                }
            },
        };
        let arg = match &t.arg {
            Some(v) => self.arg(v)?,
            None => Arg::None,
        };
        let signal = match &t.signal {
            Some(v) => {
                self.need(&v.span(), &format!("{what}'s signal handler"), &["signal"])?;
                Some(self.function(v, "signal", Role::Signal)?)
            }
            None => None,
        };
        let power_class = match &t.power_class {
            Some(v) => {
                let c = PowerClass::ALL
                    .into_iter()
                    .find(|c| c.name() == v.get_ref())
                    .ok_or_else(|| {
                        self.err(
                            &v.span(),
                            format!("power_class = \"{}\" is not a power class", v.get_ref()),
                            "one of \"normal\", \"high\", \"low\"",
                        )
                    })?;
                self.need(&v.span(), &format!("{what}'s power class"), &["power"])?;
                Some(c)
            }
            None => None,
        };
        Ok(Task {
            name,
            at: self.ctx.loc(k.span().start),
            entry,
            priority,
            stack_bytes,
            slice,
            start,
            arg,
            signal,
            power_class,
        })
    }

    fn sem(&mut self, k: &Spanned<String>, s: RawSem) -> R<Sem> {
        self.need(&k.span(), &format!("sem \"{}\"", k.get_ref()), &["sem"])?;
        let max = match &s.max {
            Some(v) => self.int(v, "max", 1, u32::MAX as i64, "a count")?,
            None => 1,
        };
        let initial = match &s.initial {
            Some(v) => {
                let n = self.int(v, "initial", 0, u32::MAX as i64, "a count")?;
                if n > max {
                    return Err(self.err(
                        &v.span(),
                        format!("initial = {n} is above max = {max}"),
                        format!("a count from 0 to max ({max})"),
                    ));
                }
                n
            }
            None => 0,
        };
        Ok(Sem {
            name: k.get_ref().clone(),
            at: self.ctx.loc(k.span().start),
            initial,
            max,
        })
    }

    fn queue(&mut self, k: &Spanned<String>, q: RawQueue) -> R<Queue> {
        let what = format!("queue \"{}\"", k.get_ref());
        self.need(&k.span(), &what, &["queue"])?;
        let capacity = match &q.capacity {
            Some(v) => self.int(v, "capacity", 1, MAX_COUNT, "a number of messages")?,
            None => {
                return Err(self.missing(
                    k,
                    "queue",
                    "capacity",
                    "capacity = N, the number of messages it holds",
                ))
            }
        };
        let kind = match (&q.msg_bytes, &q.max_msg_bytes) {
            (Some(_), Some(v)) => {
                return Err(self.err(
                    &v.span(),
                    format!("{what} has both msg_bytes and max_msg_bytes"),
                    "one of them: msg_bytes (fixed-size messages) or max_msg_bytes (variable-size)",
                ))
            }
            (Some(v), None) => QueueKind::Fixed {
                msg_bytes: self.int(v, "msg_bytes", 1, MAX_MSG_BYTES, "a message size in bytes")?,
                capacity,
            },
            (None, Some(v)) => QueueKind::Variable {
                max_msg_bytes: self.int(
                    v,
                    "max_msg_bytes",
                    1,
                    MAX_MSG_BYTES,
                    "a message size in bytes",
                )?,
                capacity,
            },
            (None, None) => {
                return Err(self.missing(
                    k,
                    "queue",
                    "message size",
                    "msg_bytes = N (fixed-size messages) or max_msg_bytes = N (variable-size)",
                ))
            }
        };
        self.total(&k.span(), what, kind.buffer_bytes())?;
        Ok(Queue {
            name: k.get_ref().clone(),
            at: self.ctx.loc(k.span().start),
            kind,
        })
    }

    fn port(&mut self, k: &Spanned<String>, p: RawPort) -> R<Port> {
        self.need(&k.span(), &format!("port \"{}\"", k.get_ref()), &["port"])?;
        let capacity = match &p.capacity {
            Some(v) => self.int(v, "capacity", 1, MAX_COUNT, "a number of messages")?,
            None => {
                return Err(self.missing(
                    k,
                    "port",
                    "capacity",
                    "capacity = N, the number of pointers it holds",
                ))
            }
        };
        Ok(Port {
            name: k.get_ref().clone(),
            at: self.ctx.loc(k.span().start),
            capacity,
        })
    }

    fn flags(&mut self, k: &Spanned<String>, f: RawFlags) -> R<Flags> {
        self.need(&k.span(), &format!("flags \"{}\"", k.get_ref()), &["flags"])?;
        let initial = match &f.initial {
            Some(v) => self.int(v, "initial", 0, u32::MAX as i64, "32 bits")?,
            None => 0,
        };
        Ok(Flags {
            name: k.get_ref().clone(),
            at: self.ctx.loc(k.span().start),
            initial,
        })
    }

    fn heap(&mut self, k: &Spanned<String>, h: RawHeap) -> R<Heap> {
        self.need(&k.span(), &format!("heap \"{}\"", k.get_ref()), &["heap"])?;
        let bytes = match &h.bytes {
            Some(v) => self.bytes(v, "bytes", 48, 8)?,
            None => return Err(self.missing(k, "heap", "size", "bytes = N, its size in bytes")),
        };
        Ok(Heap {
            name: k.get_ref().clone(),
            at: self.ctx.loc(k.span().start),
            bytes,
        })
    }

    fn pool(&mut self, k: &Spanned<String>, p: RawPool) -> R<Pool> {
        let what = format!("pool \"{}\"", k.get_ref());
        self.need(&k.span(), &what, &["pool"])?;
        let block_bytes = match &p.block_bytes {
            Some(v) => self.bytes(v, "block_bytes", 8, 4)?,
            None => {
                return Err(self.missing(
                    k,
                    "pool",
                    "block size",
                    "block_bytes = N (>= 8, a multiple of 4)",
                ))
            }
        };
        let count = match &p.count {
            Some(v) => self.int(v, "count", 1, MAX_COUNT, "a number of blocks")?,
            None => {
                return Err(self.missing(k, "pool", "count", "count = N, the number of blocks"))
            }
        };
        self.total(&k.span(), what.clone(), block_bytes as u64 * count as u64)?;
        let heap = match &p.heap {
            Some(v) => {
                self.need(&v.span(), &format!("{what} carved from a heap"), &["heap"])?;
                self.refs
                    .push((v.span(), "heap", v.get_ref().clone(), "heap"));
                Some(v.get_ref().clone())
            }
            None => None,
        };
        Ok(Pool {
            name: k.get_ref().clone(),
            at: self.ctx.loc(k.span().start),
            block_bytes,
            count,
            heap,
        })
    }

    fn timer(&mut self, k: &Spanned<String>, t: RawTimer) -> R<Timer> {
        let what = format!("timer \"{}\"", k.get_ref());
        self.need(&k.span(), &what, &["timer"])?;
        let actions: Vec<(&str, &Spanned<String>)> = [
            ("call", &t.call),
            ("activate", &t.activate),
            ("flags", &t.flags),
        ]
        .into_iter()
        .filter_map(|(n, v)| v.as_ref().map(|v| (n, v)))
        .collect();
        let expected_action = "one action: call = \"function\", activate = \"task\" or flags = \"flags\" with bits = N";
        match actions.as_slice() {
            [] => return Err(self.missing(k, "timer", "action", expected_action)),
            [_, (second, v), ..] => {
                return Err(self.err(
                    &v.span(),
                    format!("{what} has two actions, {} and {second}", actions[0].0),
                    expected_action,
                ))
            }
            [_] => {}
        }
        if let (Some(a), None) = (&t.arg, &t.call) {
            return Err(self.err(
                &a.span(),
                format!("arg of {what}, which calls no function"),
                "arg only with call = \"function\"",
            ));
        }
        if let (Some(b), None) = (&t.bits, &t.flags) {
            return Err(self.err(
                &b.span(),
                format!("bits of {what}, which sets no flags"),
                "bits only with flags = \"flags\"",
            ));
        }
        let action = if let Some(f) = &t.call {
            self.need(
                &f.span(),
                &format!("{what}'s function (run in the timer HISR)"),
                &["hisr"],
            )?;
            let function = self.function(f, "call", Role::TimerCall)?;
            let arg = match &t.arg {
                Some(v) => self.arg(v)?,
                None => Arg::None,
            };
            TimerAction::Call { function, arg }
        } else if let Some(task) = &t.activate {
            self.refs
                .push((task.span(), "activate", task.get_ref().clone(), "task"));
            TimerAction::Activate {
                task: task.get_ref().clone(),
            }
        } else {
            let f = t.flags.as_ref().expect("one action");
            self.need(&f.span(), &format!("{what} setting flags"), &["flags"])?;
            self.refs
                .push((f.span(), "flags", f.get_ref().clone(), "flags"));
            let bits = match &t.bits {
                Some(v) => self.int(v, "bits", 1, u32::MAX as i64, "a non-zero 32-bit mask")?,
                None => {
                    return Err(self.err(
                        &f.span(),
                        format!("{what} sets flags but has no bits"),
                        "bits = N, the non-zero mask to set",
                    ))
                }
            };
            TimerAction::SetFlags {
                flags: f.get_ref().clone(),
                bits,
            }
        };
        let running = match &t.start {
            None => true,
            Some(s) => match s.get_ref().as_str() {
                "running" => true,
                "stopped" => false,
                other => {
                    return Err(self.err(
                        &s.span(),
                        format!("start = \"{other}\" is not a start state of a timer"),
                        "one of \"running\", \"stopped\"",
                    ))
                }
            },
        };
        let start = if running {
            let delay = match &t.delay {
                Some(v) => self.int(v, "delay", 1, MAX_TICKS, "a number of ticks")?,
                None => {
                    return Err(self.missing(
                        k,
                        "timer",
                        "delay",
                        "delay = N, the ticks to its first expiry (or start = \"stopped\")",
                    ))
                }
            };
            let period = match &t.period {
                Some(v) => {
                    self.int(v, "period", 0, MAX_TICKS, "a number of ticks (0: one-shot)")?
                }
                None => 0,
            };
            Some((delay, period))
        } else {
            if let Some(v) = t.delay.as_ref().or(t.period.as_ref()) {
                return Err(self.err(
                    &v.span(),
                    format!("{what} starts stopped: the application starts it with its own delay and period"),
                    "no delay or period with start = \"stopped\" (or start = \"running\")",
                ));
            }
            None
        };
        Ok(Timer {
            name: k.get_ref().clone(),
            at: self.ctx.loc(k.span().start),
            action,
            start,
        })
    }

    fn interrupt(
        &mut self,
        k: &Spanned<String>,
        i: RawInterrupt,
        earlier: &[Interrupt],
    ) -> R<Interrupt> {
        let what = format!("interrupt \"{}\"", k.get_ref());
        let line = match &i.line {
            Some(v) => {
                let n = self.int(v, "line", 0, MAX_LINE, "a fast interrupt line")? as u8;
                if let Some(o) = earlier.iter().find(|o| o.line == n) {
                    return Err(self.err(
                        &v.span(),
                        format!(
                            "line = {n} is already interrupt \"{}\"'s (line {})",
                            o.name, o.at.line
                        ),
                        "one handler per fast interrupt line",
                    ));
                }
                n
            }
            None => {
                return Err(self.missing(
                    k,
                    "interrupt",
                    "line",
                    "line = 0..14, its fast interrupt line",
                ))
            }
        };
        let lisr = match &i.lisr {
            Some(v) => self.function(v, "lisr", Role::Lisr)?,
            None => {
                return Err(self.missing(
                    k,
                    "interrupt",
                    "lisr",
                    "lisr = \"function\", its void function(unsigned line)",
                ))
            }
        };
        let hisr = match &i.hisr {
            Some(h) => {
                self.need(&h.span(), &format!("{what}'s HISR"), &["hisr"])?;
                let function = self.function(h, "hisr", Role::Hisr)?;
                let priority = match &i.hisr_priority {
                    Some(v) => self.int(
                        v,
                        "hisr_priority",
                        0,
                        HISR_PRIOS - 1,
                        "a HISR level (0 highest)",
                    )? as u8,
                    None => 0,
                };
                let stack_bytes = match &i.hisr_stack_bytes {
                    Some(v) => self.bytes(v, "hisr_stack_bytes", MIN_STACK_BYTES, 4)?,
                    None => {
                        return Err(self.err(
                            &h.span(),
                            format!("{what} has a HISR without a stack"),
                            format!(
                            "hisr_stack_bytes = N (at least {MIN_STACK_BYTES}, a multiple of 4)"
                        ),
                        ))
                    }
                };
                Some(Hisr {
                    function,
                    priority,
                    stack_bytes,
                })
            }
            None => {
                if let Some(v) = i.hisr_priority.as_ref().or(i.hisr_stack_bytes.as_ref()) {
                    return Err(self.err(
                        &v.span(),
                        format!("{what} has HISR settings but no HISR"),
                        "hisr = \"function\" with them, or neither",
                    ));
                }
                None
            }
        };
        Ok(Interrupt {
            name: k.get_ref().clone(),
            at: self.ctx.loc(k.span().start),
            line,
            lisr,
            hisr,
        })
    }

    /// `[power]`.
    pub(crate) fn power(&self, p: RawPower) -> R<PowerConfig> {
        let mut out = PowerConfig::default();
        if let Some(s) = &p.policy {
            out.policy = PowerPolicy::ALL
                .into_iter()
                .find(|x| x.name() == s.get_ref())
                .ok_or_else(|| {
                    self.err(
                        &s.span(),
                        format!("policy = \"{}\" is not a power policy", s.get_ref()),
                        format!(
                            "one of {}",
                            crate::quoted_list(PowerPolicy::ALL.into_iter().map(PowerPolicy::name))
                        ),
                    )
                })?;
            if out.policy != PowerPolicy::Default {
                if self.os == Os::Nos {
                    return Err(self.err(
                        &s.span(),
                        format!("policy = \"{}\" is a kernel policy and [kernel] os = \"nos\" has no kernel", s.get_ref()),
                        "os = \"ubik\", or policy = \"default\"",
                    ));
                }
                self.need(
                    &s.span(),
                    &format!("policy = \"{}\"", s.get_ref()),
                    &["power"],
                )?;
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SystemDesc;

    fn parse(text: &str) -> R<SystemDesc> {
        SystemDesc::from_str(text, "system.toml")
    }

    /// Every validation error, exactly: (what, system.toml, the one line).
    const ERRORS: &[(&str, &str, &str)] = &[
        (
            "dup_same_kind",
            "[task.a]\nentry = \"f\"\npriority = 1\n[task.a]\n",
            "system.toml:4:1: invalid table header: duplicate key `a` in table `task`; expected each key and table at most once",
        ),
        (
            "dup_across_kinds",
            "[sem.s]\n[queue.q]\nmsg_bytes = 4\ncapacity = 2\n[mutex.s]\n",
            "system.toml:5:8: mutex \"s\": the name is already the sem declared at line 1; expected names unique among all declared objects (each becomes a C identifier)",
        ),
        (
            "not_ident",
            "[sem.2x]\n",
            "system.toml:1:6: sem \"2x\" is not a C identifier; expected a name made of letters, digits and _, not starting with a digit",
        ),
        (
            "not_ident_dash",
            "[flags.\"a-b\"]\n",
            "system.toml:1:8: flags \"a-b\" is not a C identifier; expected a name made of letters, digits and _, not starting with a digit",
        ),
        (
            "keyword",
            "[mutex.static]\n",
            "system.toml:1:8: mutex \"static\" is a C keyword; expected a name that is not a C keyword",
        ),
        (
            "reserved",
            "[sem.uk_x]\n",
            "system.toml:1:6: sem \"uk_x\" starts with `uk_`, reserved for the kernel, the BSP and the compiler; expected a name without the prefixes uk_, UK_, bsp_, BSP_, UBIK_ or _",
        ),
        (
            "reserved_underscore",
            "[sem._x]\n",
            "system.toml:1:6: sem \"_x\" starts with `_`, reserved for the kernel, the BSP and the compiler; expected a name without the prefixes uk_, UK_, bsp_, BSP_, UBIK_ or _",
        ),
        (
            "taken",
            "[sem.main]\n",
            "system.toml:1:6: sem \"main\" is already the program's main(), which the C start-up calls; expected a name other than main",
        ),
        (
            "fn_not_ident",
            "[task.t]\nentry = \"do it\"\npriority = 1\n",
            "system.toml:2:9: entry = \"do it\" is not a C identifier; expected a function name made of letters, digits and _, not starting with a digit",
        ),
        (
            "fn_two_roles",
            "[task.t]\nentry = \"f\"\npriority = 1\n[interrupt.i]\nline = 1\nlisr = \"f\"\n",
            "system.toml:6:8: lisr = \"f\" is a LISR, void f(unsigned line), but line 2 uses it as a task entry, void f(void *arg); expected one function per signature",
        ),
        (
            "prio_missing",
            "[task.t]\nentry = \"f\"\n",
            "system.toml:1:7: task \"t\" has no priority; expected priority = 0 (highest) to 254",
        ),
        (
            "prio_prio",
            "[task.t]\nentry = \"f\"\npriority = 255\n",
            "system.toml:3:12: priority = 255 is out of range for scheduler \"prio\"; expected an integer from 0 (highest) to 254 (255 is the idle task's)",
        ),
        (
            "prio_neg",
            "[task.t]\nentry = \"f\"\npriority = -1\n",
            "system.toml:3:12: priority = -1 is out of range for scheduler \"prio\"; expected an integer from 0 (highest) to 254 (255 is the idle task's)",
        ),
        (
            "prio_bitmap",
            "[kernel]\nscheduler = \"bitmap\"\n[task.t]\nentry = \"f\"\npriority = 63\n",
            "system.toml:5:12: priority = 63 is out of range for scheduler \"bitmap\"; expected an integer from 0 (highest) to 62 (63 is the idle task's)",
        ),
        (
            "prio_bitmap_dup",
            "[kernel]\nscheduler = \"bitmap\"\n[task.a]\nentry = \"f\"\npriority = 7\n[task.b]\nentry = \"f\"\npriority = 7\n",
            "system.toml:8:12: priority = 7 is already task \"a\"'s (line 3); expected a priority unique among tasks with scheduler \"bitmap\"",
        ),
        (
            "entry_missing",
            "[task.t]\npriority = 1\n",
            "system.toml:1:7: task \"t\" has no entry; expected entry = \"function\", the task's void function(void *arg)",
        ),
        (
            "stack_small",
            "[task.t]\nentry = \"f\"\npriority = 1\nstack_bytes = 64\n",
            "system.toml:4:15: stack_bytes = 64 is too small; expected a size in bytes from 128 to 16777216, a multiple of 4",
        ),
        (
            "stack_odd",
            "[task.t]\nentry = \"f\"\npriority = 1\nstack_bytes = 1026\n",
            "system.toml:4:15: stack_bytes = 1026 is not a multiple of 4; expected a size in bytes from 128 to 16777216, a multiple of 4",
        ),
        (
            "stack_huge",
            "[task.t]\nentry = \"f\"\npriority = 1\nstack_bytes = 20000000\n",
            "system.toml:4:15: stack_bytes = 20000000 is too large; expected a size in bytes from 128 to 16777216, a multiple of 4",
        ),
        (
            "slice_zero",
            "[task.t]\nentry = \"f\"\npriority = 1\nslice = 0\n",
            "system.toml:4:9: slice = 0 is out of range; expected a number of ticks from 1 to 2147483647",
        ),
        (
            "start_bad",
            "[task.t]\nentry = \"f\"\npriority = 1\nstart = \"running\"\n",
            "system.toml:4:9: start = \"running\" is not a start state of a task; expected one of \"active\", \"suspended\"",
        ),
        (
            "arg_float",
            "[task.t]\nentry = \"f\"\npriority = 1\narg = 1.5\n",
            "system.toml:4:7: arg is a float; expected an integer (passed as a pointer) or the name of a declared object (its address)",
        ),
        (
            "arg_unknown",
            "[task.t]\nentry = \"f\"\npriority = 1\narg = \"nothing\"\n",
            "system.toml:4:7: arg = \"nothing\" names no declared object; expected the name of a declared object",
        ),
        (
            "arg_big",
            "[task.t]\nentry = \"f\"\npriority = 1\narg = 0x100000000\n",
            "system.toml:4:7: arg = 4294967296 does not fit in a pointer; expected a 32-bit integer or the name of a declared object",
        ),
        (
            "unknown_key",
            "[task.t]\nentry = \"f\"\npriority = 1\nstack = 512\n",
            "system.toml:4:1: unknown key `stack`; expected one of the keys `entry`, `priority`, `stack_bytes`, `slice`, `start`, `arg`, `signal`, `power_class`",
        ),
        (
            "unknown_kind",
            "[semaphore.s]\n",
            "system.toml:1:2: unknown key `semaphore`; expected one of the keys `kernel`, `build`, `task`, `sem`, `mutex`, `queue`, `port`, `flags`, `heap`, `pool`, `timer`, `interrupt`, `power`",
        ),
        (
            "mutex_key",
            "[mutex.m]\ninitial = 1\n",
            "system.toml:2:1: unknown key `initial`; expected no keys in this table",
        ),
        (
            "sem_initial",
            "[sem.s]\ninitial = 2\n",
            "system.toml:2:11: initial = 2 is above max = 1; expected a count from 0 to max (1)",
        ),
        (
            "sem_max0",
            "[sem.s]\nmax = 0\n",
            "system.toml:2:7: max = 0 is out of range; expected a count from 1 to 4294967295",
        ),
        (
            "queue_both",
            "[queue.q]\nmsg_bytes = 4\nmax_msg_bytes = 8\ncapacity = 2\n",
            "system.toml:3:17: queue \"q\" has both msg_bytes and max_msg_bytes; expected one of them: msg_bytes (fixed-size messages) or max_msg_bytes (variable-size)",
        ),
        (
            "queue_neither",
            "[queue.q]\ncapacity = 2\n",
            "system.toml:1:8: queue \"q\" has no message size; expected msg_bytes = N (fixed-size messages) or max_msg_bytes = N (variable-size)",
        ),
        (
            "queue_nocap",
            "[queue.q]\nmsg_bytes = 4\n",
            "system.toml:1:8: queue \"q\" has no capacity; expected capacity = N, the number of messages it holds",
        ),
        (
            "queue_msg_big",
            "[queue.q]\nmsg_bytes = 65536\ncapacity = 2\n",
            "system.toml:2:13: msg_bytes = 65536 is out of range; expected a message size in bytes from 1 to 65535",
        ),
        (
            "queue_total",
            "[queue.q]\nmsg_bytes = 65535\ncapacity = 1000\n",
            "system.toml:1:8: queue \"q\" needs a buffer of 65535000 bytes; expected at most 16777216 bytes per object",
        ),
        (
            "port_cap",
            "[port.p]\ncapacity = 0\n",
            "system.toml:2:12: capacity = 0 is out of range; expected a number of messages from 1 to 1048576",
        ),
        (
            "heap_small",
            "[heap.h]\nbytes = 40\n",
            "system.toml:2:9: bytes = 40 is too small; expected a size in bytes from 48 to 16777216, a multiple of 8",
        ),
        (
            "heap_align",
            "[heap.h]\nbytes = 100\n",
            "system.toml:2:9: bytes = 100 is not a multiple of 8; expected a size in bytes from 48 to 16777216, a multiple of 8",
        ),
        (
            "heap_missing",
            "[heap.h]\n",
            "system.toml:1:7: heap \"h\" has no size; expected bytes = N, its size in bytes",
        ),
        (
            "pool_block",
            "[pool.p]\nblock_bytes = 6\ncount = 2\n",
            "system.toml:2:15: block_bytes = 6 is too small; expected a size in bytes from 8 to 16777216, a multiple of 4",
        ),
        (
            "pool_heap_unknown",
            "[pool.p]\nblock_bytes = 8\ncount = 2\nheap = \"h\"\n",
            "system.toml:4:8: heap = \"h\" names no declared object; expected the name of a heap declared with [heap.NAME] (there is none)",
        ),
        (
            "pool_heap_wrong_kind",
            "[sem.h]\n[pool.p]\nblock_bytes = 8\ncount = 2\nheap = \"h\"\n",
            "system.toml:5:8: heap = \"h\" is the sem declared at line 1; expected the name of a declared heap",
        ),
        (
            "pool_heap_full",
            "[heap.h]\nbytes = 64\n[pool.p]\nblock_bytes = 8\ncount = 9\nheap = \"h\"\n",
            "system.toml:3:7: pool \"p\": the pools carved from heap \"h\" take 72 bytes, the heap has 64; expected heap \"h\" larger than its pools (each block costs 16 bytes of header)",
        ),
        (
            "timer_no_action",
            "[timer.t]\ndelay = 1\n",
            "system.toml:1:8: timer \"t\" has no action; expected one action: call = \"function\", activate = \"task\" or flags = \"flags\" with bits = N",
        ),
        (
            "timer_two_actions",
            "[task.a]\nentry = \"f\"\npriority = 1\n[timer.t]\nactivate = \"a\"\ncall = \"g\"\ndelay = 1\n",
            "system.toml:5:12: timer \"t\" has two actions, call and activate; expected one action: call = \"function\", activate = \"task\" or flags = \"flags\" with bits = N",
        ),
        (
            "timer_unknown_task",
            "[timer.t]\nactivate = \"ghost\"\ndelay = 1\n",
            "system.toml:2:12: activate = \"ghost\" names no declared object; expected the name of a task declared with [task.NAME] (there is none)",
        ),
        (
            "timer_unknown_flags",
            "[flags.f]\n[timer.t]\nflags = \"g\"\nbits = 1\ndelay = 1\n",
            "system.toml:3:9: flags = \"g\" names no declared object; expected the name of a declared flags object: f",
        ),
        (
            "timer_flags_of_task",
            "[task.a]\nentry = \"f\"\npriority = 1\n[timer.t]\nflags = \"a\"\nbits = 1\ndelay = 1\n",
            "system.toml:5:9: flags = \"a\" is the task declared at line 1; expected the name of a declared flags object",
        ),
        (
            "timer_no_bits",
            "[flags.f]\n[timer.t]\nflags = \"f\"\ndelay = 1\n",
            "system.toml:3:9: timer \"t\" sets flags but has no bits; expected bits = N, the non-zero mask to set",
        ),
        (
            "timer_bits_zero",
            "[flags.f]\n[timer.t]\nflags = \"f\"\nbits = 0\ndelay = 1\n",
            "system.toml:4:8: bits = 0 is out of range; expected a non-zero 32-bit mask from 1 to 4294967295",
        ),
        (
            "timer_bits_alone",
            "[timer.t]\ncall = \"g\"\nbits = 1\ndelay = 1\n",
            "system.toml:3:8: bits of timer \"t\", which sets no flags; expected bits only with flags = \"flags\"",
        ),
        (
            "timer_arg_alone",
            "[task.a]\nentry = \"f\"\npriority = 1\n[timer.t]\nactivate = \"a\"\narg = 1\ndelay = 1\n",
            "system.toml:6:7: arg of timer \"t\", which calls no function; expected arg only with call = \"function\"",
        ),
        (
            "timer_no_delay",
            "[timer.t]\ncall = \"g\"\n",
            "system.toml:1:8: timer \"t\" has no delay; expected delay = N, the ticks to its first expiry (or start = \"stopped\")",
        ),
        (
            "timer_delay0",
            "[timer.t]\ncall = \"g\"\ndelay = 0\n",
            "system.toml:3:9: delay = 0 is out of range; expected a number of ticks from 1 to 2147483647",
        ),
        (
            "timer_stopped_delay",
            "[timer.t]\ncall = \"g\"\nstart = \"stopped\"\nperiod = 5\n",
            "system.toml:4:10: timer \"t\" starts stopped: the application starts it with its own delay and period; expected no delay or period with start = \"stopped\" (or start = \"running\")",
        ),
        (
            "timer_start_bad",
            "[timer.t]\ncall = \"g\"\nstart = \"go\"\n",
            "system.toml:3:9: start = \"go\" is not a start state of a timer; expected one of \"running\", \"stopped\"",
        ),
        (
            "irq_no_line",
            "[interrupt.i]\nlisr = \"l\"\n",
            "system.toml:1:12: interrupt \"i\" has no line; expected line = 0..14, its fast interrupt line",
        ),
        (
            "irq_line",
            "[interrupt.i]\nline = 15\nlisr = \"l\"\n",
            "system.toml:2:8: line = 15 is out of range; expected a fast interrupt line from 0 to 14",
        ),
        (
            "irq_line_dup",
            "[interrupt.i]\nline = 3\nlisr = \"l\"\n[interrupt.j]\nline = 3\nlisr = \"m\"\n",
            "system.toml:5:8: line = 3 is already interrupt \"i\"'s (line 1); expected one handler per fast interrupt line",
        ),
        (
            "irq_no_lisr",
            "[interrupt.i]\nline = 3\n",
            "system.toml:1:12: interrupt \"i\" has no lisr; expected lisr = \"function\", its void function(unsigned line)",
        ),
        (
            "hisr_no_stack",
            "[interrupt.i]\nline = 3\nlisr = \"l\"\nhisr = \"h\"\n",
            "system.toml:4:8: interrupt \"i\" has a HISR without a stack; expected hisr_stack_bytes = N (at least 128, a multiple of 4)",
        ),
        (
            "hisr_prio",
            "[interrupt.i]\nline = 3\nlisr = \"l\"\nhisr = \"h\"\nhisr_priority = 4\nhisr_stack_bytes = 256\n",
            "system.toml:5:17: hisr_priority = 4 is out of range; expected a HISR level (0 highest) from 0 to 3",
        ),
        (
            "hisr_settings_alone",
            "[interrupt.i]\nline = 3\nlisr = \"l\"\nhisr_stack_bytes = 256\n",
            "system.toml:4:20: interrupt \"i\" has HISR settings but no HISR; expected hisr = \"function\" with them, or neither",
        ),
        (
            "hisr_stack_small",
            "[interrupt.i]\nline = 3\nlisr = \"l\"\nhisr = \"h\"\nhisr_stack_bytes = 100\n",
            "system.toml:5:20: hisr_stack_bytes = 100 is too small; expected a size in bytes from 128 to 16777216, a multiple of 4",
        ),
        (
            "arg_irq_no_hisr",
            "[interrupt.i]\nline = 3\nlisr = \"l\"\n[task.t]\nentry = \"f\"\npriority = 1\narg = \"i\"\n",
            "system.toml:7:7: arg = \"i\": interrupt \"i\" has no HISR, so no object; expected the name of a declared object",
        ),
        (
            "feature_sem",
            "[kernel]\nfeatures = []\n[sem.s]\n",
            "system.toml:3:6: sem \"s\" needs the kernel feature \"sem\", which [kernel] features leaves out; expected \"sem\" in [kernel] features",
        ),
        (
            "feature_queue",
            "[kernel]\nfeatures = [\"sem\"]\n[queue.q]\nmsg_bytes = 4\ncapacity = 1\n",
            "system.toml:3:8: queue \"q\" needs the kernel feature \"queue\", which [kernel] features leaves out; expected \"queue\" in [kernel] features",
        ),
        (
            "feature_hisr",
            "[kernel]\nfeatures = []\n[interrupt.i]\nline = 3\nlisr = \"l\"\nhisr = \"h\"\nhisr_stack_bytes = 256\n",
            "system.toml:6:8: interrupt \"i\"'s HISR needs the kernel feature \"hisr\", which [kernel] features leaves out; expected \"hisr\" in [kernel] features",
        ),
        (
            "feature_timer_call",
            "[kernel]\nfeatures = [\"timer\"]\n[timer.t]\ncall = \"g\"\ndelay = 1\n",
            "system.toml:4:8: timer \"t\"'s function (run in the timer HISR) needs the kernel feature \"hisr\", which [kernel] features leaves out; expected \"hisr\" in [kernel] features",
        ),
        (
            "feature_timer",
            "[kernel]\nfeatures = []\n[timer.t]\ncall = \"g\"\ndelay = 1\n",
            "system.toml:3:8: timer \"t\" needs the kernel feature \"timer\", which [kernel] features leaves out; expected \"timer\" in [kernel] features",
        ),
        (
            "feature_signal",
            "[kernel]\nfeatures = []\n[task.t]\nentry = \"f\"\npriority = 1\nsignal = \"s\"\n",
            "system.toml:6:10: task \"t\"'s signal handler needs the kernel feature \"signal\", which [kernel] features leaves out; expected \"signal\" in [kernel] features",
        ),
        (
            "feature_power",
            "[kernel]\nfeatures = []\n[power]\npolicy = \"idle\"\n",
            "system.toml:4:10: policy = \"idle\" needs the kernel feature \"power\", which [kernel] features leaves out; expected \"power\" in [kernel] features",
        ),
        (
            "feature_pool_heap",
            "[kernel]\nfeatures = [\"pool\"]\n[pool.p]\nblock_bytes = 8\ncount = 2\nheap = \"h\"\n",
            "system.toml:6:8: pool \"p\" carved from a heap needs the kernel feature \"heap\", which [kernel] features leaves out; expected \"heap\" in [kernel] features",
        ),
        (
            "power_bad",
            "[power]\npolicy = \"turbo\"\n",
            "system.toml:2:10: policy = \"turbo\" is not a power policy; expected one of \"default\", \"idle\", \"ls0\", \"ls1\", \"ls2\"",
        ),
        (
            "power_key",
            "[power]\nmode = \"x\"\n",
            "system.toml:2:1: unknown key `mode`; expected the key `policy`",
        ),
        (
            "power_class_bad",
            "[task.t]\nentry = \"f\"\npriority = 1\npower_class = \"max\"\n",
            "system.toml:4:15: power_class = \"max\" is not a power class; expected one of \"normal\", \"high\", \"low\"",
        ),
        (
            "nos_objects",
            "[kernel]\nos = \"nos\"\n[sem.s]\n",
            "system.toml:3:6: sem \"s\" is a kernel object and [kernel] os = \"nos\" has no kernel; expected os = \"ubik\", or no object tables",
        ),
        (
            "kind_array",
            "[[task]]\nentry = \"f\"\n",
            "system.toml:1:1: `[[task]]` is an array of tables; expected one table per task, [task.NAME]",
        ),
        (
            "kind_value",
            "task = 3\n",
            "system.toml:1:8: `task`: invalid type: integer `3`; expected one table per task, [task.NAME]",
        ),
    ];

    #[test]
    fn every_validation_error_exactly() {
        let mut bad = Vec::new();
        for (what, text, want) in ERRORS {
            match parse(text) {
                Ok(_) => bad.push(format!("{what}: accepted, expected {want}")),
                Err(e) => {
                    assert_eq!(e.exit_code(), 65, "{what}");
                    let got = e.to_string();
                    if got != *want {
                        bad.push(format!("{what}:\n  got  {got}\n  want {want}"));
                    }
                }
            }
        }
        assert!(bad.is_empty(), "{}", bad.join("\n"));
    }

    fn tasks(n: usize) -> String {
        let mut s = String::from("[kernel]\nscheduler = \"bitmap\"\n");
        for i in 0..n {
            s.push_str(&format!("[task.t{i}]\nentry = \"f\"\npriority = {i}\n"));
        }
        s
    }

    #[test]
    fn at_most_64_tasks_with_bitmap() {
        // 63 declared + idle = 64: fine.
        assert_eq!(parse(&tasks(63)).unwrap().objects.tasks.len(), 63);
        let e = parse(&tasks(64)).unwrap_err().to_string();
        assert_eq!(
            e,
            "system.toml:192:7: task \"t63\" is task number 64 besides the idle task; expected at most 64 tasks with scheduler \"bitmap\", the idle task included (63 declared)"
        );
        // Other schedulers: many tasks, shared priorities.
        let mut s = String::new();
        for i in 0..100 {
            s.push_str(&format!("[task.t{i}]\nentry = \"f\"\npriority = 5\n"));
        }
        assert_eq!(parse(&s).unwrap().objects.tasks.len(), 100);
    }

    const FULL: &str = r#"
[kernel]
scheduler = "prio_rr"
[power]
policy = "ls1"
[task.b_task]
entry = "run_b"
priority = 9
[task.a_task]
entry = "run_a"
priority = 3
stack_bytes = 512
slice = 4
start = "suspended"
arg = "q"
signal = "on_sig"
power_class = "high"
[task.c_task]
entry = "run_a"
priority = 3
arg = -1
[sem.s]
initial = 1
max = 3
[mutex]
m = {}
m2 = {}
[queue.q]
msg_bytes = 6
capacity = 5
[queue.vq]
max_msg_bytes = 10
capacity = 2
[port.p]
capacity = 3
[flags.f]
initial = 0xF0
[heap.h]
bytes = 1024
[pool.carved]
block_bytes = 16
count = 4
heap = "h"
[pool.fixed]
block_bytes = 8
count = 2
[timer.t_call]
call = "tick_fn"
arg = 42
delay = 2
period = 5
[timer.t_task]
activate = "a_task"
delay = 7
[timer.t_flags]
flags = "f"
bits = 3
start = "stopped"
[interrupt.rx]
line = 3
lisr = "rx_lisr"
hisr = "rx_hisr"
hisr_priority = 2
hisr_stack_bytes = 256
[interrupt.tx]
line = 14
lisr = "tx_lisr"
"#;

    #[test]
    fn every_kind_resolves() {
        let d = parse(FULL).unwrap();
        assert_eq!(d.power.policy, PowerPolicy::Ls1);
        let o = &d.objects;
        // Kinds keep the order written.
        let names: Vec<&str> = o.tasks.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["b_task", "a_task", "c_task"]);
        let b = &o.tasks[0];
        assert_eq!(
            (
                b.priority,
                b.stack_bytes,
                b.slice,
                b.start,
                &b.arg,
                &b.signal,
                b.power_class
            ),
            (
                9,
                DEFAULT_STACK_BYTES,
                None,
                TaskStart::Active,
                &Arg::None,
                &None,
                None
            )
        );
        assert_eq!((b.at.line, b.at.column), (6, 7));
        let a = &o.tasks[1];
        assert_eq!(a.entry, "run_a");
        assert_eq!(
            (a.priority, a.stack_bytes, a.slice, a.start),
            (3, 512, Some(4), TaskStart::Suspended)
        );
        assert_eq!(a.arg, Arg::Object("q".into()));
        assert_eq!(a.signal.as_deref(), Some("on_sig"));
        assert_eq!(a.power_class, Some(PowerClass::High));
        assert_eq!(o.tasks[2].arg, Arg::Int(0xFFFF_FFFF));
        assert_eq!((o.sems[0].initial, o.sems[0].max), (1, 3));
        let m: Vec<&str> = o.mutexes.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(m, ["m", "m2"]);
        assert_eq!(
            o.queues[0].kind,
            QueueKind::Fixed {
                msg_bytes: 6,
                capacity: 5
            }
        );
        assert_eq!(o.queues[0].kind.buffer_bytes(), 30);
        assert_eq!(
            o.queues[1].kind,
            QueueKind::Variable {
                max_msg_bytes: 10,
                capacity: 2
            }
        );
        assert_eq!(o.queues[1].kind.buffer_bytes(), 2 * (4 + 12));
        assert_eq!(o.ports[0].capacity, 3);
        assert_eq!(o.flags[0].initial, 0xF0);
        assert_eq!(o.heaps[0].bytes, 1024);
        assert_eq!(o.pools[0].heap.as_deref(), Some("h"));
        assert_eq!(
            (o.pools[1].block_bytes, o.pools[1].count, &o.pools[1].heap),
            (8, 2, &None)
        );
        assert_eq!(
            o.timers[0].action,
            TimerAction::Call {
                function: "tick_fn".into(),
                arg: Arg::Int(42)
            }
        );
        assert_eq!(o.timers[0].start, Some((2, 5)));
        assert_eq!(
            o.timers[1].action,
            TimerAction::Activate {
                task: "a_task".into()
            }
        );
        assert_eq!(o.timers[1].start, Some((7, 0)));
        assert_eq!(
            o.timers[2].action,
            TimerAction::SetFlags {
                flags: "f".into(),
                bits: 3
            }
        );
        assert_eq!(o.timers[2].start, None);
        assert_eq!(o.interrupts[0].line, 3);
        assert_eq!(
            o.interrupts[0].hisr,
            Some(Hisr {
                function: "rx_hisr".into(),
                priority: 2,
                stack_bytes: 256
            })
        );
        assert_eq!((o.interrupts[1].line, &o.interrupts[1].hisr), (14, &None));
        assert!(!o.is_empty());
        assert!(parse("").unwrap().objects.is_empty());
    }

    #[test]
    fn power_joins_the_default_features_when_used() {
        assert!(!parse("").unwrap().kernel.features.contains(&"power"));
        assert!(!parse("[power]\npolicy = \"default\"\n")
            .unwrap()
            .kernel
            .features
            .contains(&"power"));
        let d = parse("[power]\npolicy = \"idle\"\n").unwrap();
        assert_eq!(d.kernel.features, crate::FEATURES.to_vec());
        assert_eq!(d.power.policy, PowerPolicy::Idle);
        let d = parse("[task.t]\nentry = \"f\"\npriority = 1\npower_class = \"low\"\n").unwrap();
        assert!(d.kernel.features.contains(&"power"));
        // An explicit list is taken as written.
        let e = parse("[kernel]\nfeatures = [\"sem\"]\n[power]\npolicy = \"ls0\"\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "system.toml:4:10: policy = \"ls0\" needs the kernel feature \"power\", which [kernel] features leaves out; expected \"power\" in [kernel] features"
        );
        let d = parse("[kernel]\nfeatures = [\"power\"]\n[power]\npolicy = \"ls0\"\n").unwrap();
        assert_eq!(d.kernel.features, vec!["power"]);
    }

    #[test]
    fn defaults_of_each_kind() {
        let d = parse("[sem.s]\n[flags.f]\n[timer.t]\ncall = \"g\"\ndelay = 1\n[power]\n").unwrap();
        assert_eq!((d.objects.sems[0].initial, d.objects.sems[0].max), (0, 1));
        assert_eq!(d.objects.flags[0].initial, 0);
        assert_eq!(d.objects.timers[0].start, Some((1, 0)));
        assert_eq!(d.power.policy, PowerPolicy::Default);
        // policy = "default" needs no feature; a task may share its entry with another task.
        let d = parse(
            "[kernel]\nfeatures = []\n[power]\npolicy = \"default\"\n\
             [task.a]\nentry = \"f\"\npriority = 1\n[task.b]\nentry = \"f\"\npriority = 1\n",
        )
        .unwrap();
        assert_eq!(d.objects.tasks.len(), 2);
    }
}
