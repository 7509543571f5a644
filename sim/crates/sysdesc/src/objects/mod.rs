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

use confread::Doc;

use crate::{names, sizes, Location, Os, Scheduler, R};

// One file per kind: its model, its table as written, its resolution and checks, and the C
// that defines, describes and creates it (`crate::gen_objects` orders the kinds' parts into
// uk_gen.h and uk_gen.c).
pub(crate) mod flags;
pub(crate) mod heap;
pub(crate) mod interrupt;
pub(crate) mod mutex;
pub(crate) mod pool;
pub(crate) mod port;
mod power;
pub(crate) mod queue;
pub(crate) mod sem;
pub(crate) mod task;
pub(crate) mod timer;

pub use flags::Flags;
pub use heap::Heap;
pub use interrupt::{Hisr, Interrupt};
pub use mutex::Mutex;
pub use pool::Pool;
pub use port::Port;
pub use power::{PowerConfig, PowerPolicy};
pub use queue::{Queue, QueueKind};
pub use sem::Sem;
pub use task::{PowerClass, Task, TaskStart};
pub use timer::{Timer, TimerAction};

pub(crate) use flags::RawFlags;
pub(crate) use heap::RawHeap;
pub(crate) use interrupt::RawInterrupt;
pub(crate) use mutex::RawMutex;
pub(crate) use pool::RawPool;
pub(crate) use port::RawPort;
pub(crate) use power::RawPower;
pub(crate) use queue::RawQueue;
pub(crate) use sem::RawSem;
pub(crate) use task::RawTask;
pub(crate) use timer::RawTimer;

// ---------------------------------------------------------------------------------------------
// The resolved model.

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
    doc: &'c Doc<'a>,
    scheduler: Scheduler,
    /// The lowest task priority of the kernel's profile and scheduler.
    lowest_prio: u8,
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
        doc: &'c Doc<'a>,
        os: Os,
        scheduler: Scheduler,
        lowest_prio: u8,
        features: &'c [&'static str],
    ) -> Self {
        Resolver {
            doc,
            scheduler,
            lowest_prio,
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
        self.doc.err(span, what, expected)
    }

    fn line(&self, span: &Range<usize>) -> usize {
        self.doc.line(span.start)
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
            let at = self.doc.loc(span.start);
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
        let expected = format!("{expected} from {lo} to {hi}");
        Ok(self.doc.int_range(v, key, lo, hi, &expected)? as u32)
    }

    /// A size in bytes: `min..=MAX_OBJECT_BYTES`, a multiple of `multiple`.
    fn bytes(&self, v: &Spanned<i64>, key: &str, min: i64, multiple: i64) -> R<u32> {
        sizes::bytes(self.doc, v, key, (min, MAX_OBJECT_BYTES), multiple)
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
        collect_names(&mut all, &raw.interrupt, RawInterrupt::has_hisr);
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
                o.mutexes.push(self.mutex(&k)?);
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
            self.task_count(&d)?;
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
        pool::heaps_hold_their_pools(o)?;
        // A function may have an object's name: the generated C gives the object a symbol of
        // its own (`gen`), so both compile.
        Ok(())
    }
}

#[cfg(test)]
mod tests;
